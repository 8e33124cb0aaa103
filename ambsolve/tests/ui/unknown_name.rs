use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let w1 = amb(["the", "a"]);
        let w2 = amb(["frog", "ant"]);
        require w1.len() < w3.len();
    };
}
