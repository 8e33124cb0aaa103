use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(0..3);
        requir x > 1;
    };
}
