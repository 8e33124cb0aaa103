use ambsolve::constraints;

fn main() {
    let n = 4;
    let _ = constraints! {
        let q[n] = amb(0..n);
        require all_different(qs);
    };
}
