use ambsolve::constraints;

fn main() {
    let n = 4;
    let _ = constraints! {
        let x = amb(0..n);
        require n > 2;
    };
}
