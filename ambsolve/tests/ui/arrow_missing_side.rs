use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(0..5);
        require x < 3 -> ;
    };
    let _ = constraints! {
        let x = amb(0..5);
        require <-> x > 2;
    };
}
