use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let q[3] = amb(0..3);
        let x = amb(0..3);
        require q.iter().all(|x| *x < 3) && x > 0;
    };
}
