use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let q[3] = amb(0..3usize);
        let k = amb(0..3usize);
        for i in 0..k {
            require q[i] > 0;
        }
    };
}
