use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let q[3] = amb(0..3);
        let x = amb(0..3);
        require all_different(q + x, x);
    };
}
