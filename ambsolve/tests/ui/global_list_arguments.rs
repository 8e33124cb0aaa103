use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x[3] = amb(0..3i64);
        let w[2] = amb(["a", "bb"]);
        let v = amb(0..3i64);
        require element(x[i] for i in 0..2, x, v);
        require increasing(w[i].len() for i in 0..2);
        require all_equal(x[i] for i in 0..v);
    };
}
