use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x[3] = amb(0..3i64);
        let k = amb(0..2i64);
        require increasing(x, x);
        require circuit(x[0]);
        require circuit_offset(x, k);
    };
}
