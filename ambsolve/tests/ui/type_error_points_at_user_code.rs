use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let word = amb(["ant", "bee"]);
        let x = amb(0..3);
        require word + 1 == x;
    };
}
