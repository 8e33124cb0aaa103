use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(0..3);
        let x = amb(0..5);
        require x > 1;
    };
}
