//! SEND + MORE = MONEY: each letter a different digit, no leading zero.
//!
//! ```text
//! cargo run --release --example send_more_money
//! ```

use ambsolve::{Cmp, Engine, Model, Var};
use ambsolve_examples::cli::Output;

/// The letters S, E, N, D, M, O, R, Y and the model over them.
pub fn send_more_money() -> (Model<'static>, [Var<i64>; 8]) {
    let mut model = Model::new();
    let letters: [Var<i64>; 8] =
        ["S", "E", "N", "D", "M", "O", "R", "Y"].map(|name| model.named_var(name, 0..=9));
    let [s, e, n, d, m, o, r, y] = &letters;
    model.all_different(&letters);
    //     1000 S + 100 E + 10 N + D
    //   + 1000 M + 100 O + 10 R + E
    //   = 10000 M + 1000 O + 100 N + 10 E + Y
    model.linear(
        [
            (1000, s),
            (100, e),
            (10, n),
            (1, d),
            (1000, m),
            (100, o),
            (10, r),
            (1, e),
            (-10000, m),
            (-1000, o),
            (-100, n),
            (-10, e),
            (-1, y),
        ],
        Cmp::Eq,
        0,
    );
    model.linear([(1, s)], Cmp::Ne, 0);
    model.linear([(1, m)], Cmp::Ne, 0);
    (model, letters)
}

/// A solution as the sum it spells: `9567 + 1085 = 10652`.
pub fn spell(digits: [i64; 8]) -> String {
    let [s, e, n, d, m, o, r, y] = digits;
    let number = |ds: &[i64]| ds.iter().fold(0, |acc, d| acc * 10 + d);
    format!(
        "{} + {} = {}",
        number(&[s, e, n, d]),
        number(&[m, o, r, e]),
        number(&[m, o, n, e, y])
    )
}

fn main() {
    let (model, letters) = send_more_money();
    let mut out = Output::new();
    let mut count = 0;
    for solution in model.solve(Engine::Trail).solutions() {
        out.line(spell(letters.each_ref().map(|l| *solution.value(l))));
        count += 1;
    }
    out.line(format!("solutions: {count}"));
}
