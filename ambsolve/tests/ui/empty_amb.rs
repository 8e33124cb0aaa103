use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb([]);
        let y = amb(3..3);
        require x != y;
    };
}
