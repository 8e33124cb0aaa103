use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let q[4] = amb(0..4usize);
        let k = amb(0..4usize);
        require q[k] * q[0] == 2;
    };
}
