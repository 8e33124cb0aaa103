use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(0..5);
        let y = amb(0..5);
        require x != y;
        minimize x * y;
    };
    let _ = constraints! {
        let x = amb(0..5);
        let y = amb(0..5);
        maximize 2 * x + (x + 1) * y - 3;
    };
    let _ = constraints! {
        let x = amb(0..5);
        minimize x / 2;
    };
}
