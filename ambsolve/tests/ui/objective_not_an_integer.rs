use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(["ant", "bee"]);
        minimize x.len();
    };
    let _ = constraints! {
        let x = amb(["ant", "bee"]);
        let y = amb(["ant", "bee"]);
        maximize (x == y) as i64;
    };
}
