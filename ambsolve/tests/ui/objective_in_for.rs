use ambsolve::constraints;

fn main() {
    let n = 3;
    let _ = constraints! {
        let x[n] = amb(0..5);
        for i in 0..n {
            minimize x[i];
        }
    };
}
