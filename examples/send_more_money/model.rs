//! SEND + MORE = MONEY: each letter a different digit, no leading zero.

use ambsolve::{Puzzle, constraints};

/// The puzzle; solutions are the digits of S, E, N, D, M, O, R, Y.
pub fn send_more_money() -> Puzzle<'static, [i64; 8]> {
    constraints! {
        let s = amb(0..=9);
        let e = amb(0..=9);
        let n = amb(0..=9);
        let d = amb(0..=9);
        let m = amb(0..=9);
        let o = amb(0..=9);
        let r = amb(0..=9);
        let y = amb(0..=9);
        require all_different(s, e, n, d, m, o, r, y);
        require s != 0 && m != 0;
        require 1000 * s + 100 * e + 10 * n + d
              + 1000 * m + 100 * o + 10 * r + e
            == 10000 * m + 1000 * o + 100 * n + 10 * e + y;
    }
    .map(|x| [x.s, x.e, x.n, x.d, x.m, x.o, x.r, x.y])
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
