use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let w[3] = amb(["a", "b"]);
        require count(w[i] == "a" for i in 0..3) == 1;
    };
}
