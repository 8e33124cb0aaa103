use ambsolve::constraints;

fn main() {
    let n = 3;
    let _ = constraints! {
        let w[n] = amb([0.5, 1.5]);
        require sum(w[i] for i in 0..n) <= 2.5;
    };
}
