use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb();
        let y = amb(1, 2, 3);
        require x < y;
    };
}
