use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let q[3] = amb(0..3);
        require sum(q[i] * q[i] for i in 0..3) == 5;
        require q[0] > 0 || all_different(q[i] + i for i in 0..3);
    };
}
