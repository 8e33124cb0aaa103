use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let q[4] = amb(["ant", "bee", "cow", "dog"]);
        let k = amb(0..4usize);
        require q[k] == "bee";
    };
}
