use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb(0..3);
        for i in 0..3 {
            let y = amb(0..i);
            require x < y;
        }
    };
}
