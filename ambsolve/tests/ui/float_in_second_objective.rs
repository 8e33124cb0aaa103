use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(0..5);
        let y = amb(0..5);
        minimize (x + y, 2.5 * y);
    };
}
