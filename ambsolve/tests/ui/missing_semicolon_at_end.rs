use ambsolve::constraints;

fn main() {
    let limit = 2
        ;
    let puzzle = constraints! {
        let x = amb(0..3);
        let y = amb(0..3);
        require x + y < limit
    };
    println!("{:?}", puzzle.count());
}
