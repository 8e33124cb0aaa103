use ambsolve::constraints;

fn main() {
    let others = vec![1, 2, 3];
    let _ = constraints! {
        let x = amb(0..3);
        post ambsolve::among(&others, 2, 1);
        require x > 0;
    };
}
