use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(1..5);
        let y = amb(0..x);
        require x > y;
    };
}
