use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(0..5);
        require x > 1;
        minimize 3;
    };
}
