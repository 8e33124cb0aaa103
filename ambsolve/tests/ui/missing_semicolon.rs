use ambsolve::constraints;

fn main() {
    let puzzle = constraints! {
        let x = amb(0..3)
        let y = amb(0..3);
        require x < y
        require x != 1;
    };
    let summary = puzzle.count();
    println!("{summary:?}");
}
