use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let q[3] = amb(0..3);
        require q[0] > 0 || increasing(q);
        require q[0] > 0 || all_different(q[i] + i for i in 0..3);
    };
}
