//! Langford pairs (CSPLib problem 24): the numbers 1..n, each twice, in a row of 2n places,
//! with k numbers between the two k's.

use ambsolve::{Puzzle, Symmetry, VarId, constraints};

/// Langford's problem for `n`, written as a user would: the place of the first and of the
/// second copy of each number (`p[i]`, `s[i]` for the number `i + 1`), all places
/// different, the second `i + 2` places after the first. A solution is the row, the number
/// in each place.
pub fn langford(n: usize) -> Puzzle<'static, Vec<usize>> {
    let places = 2 * n;
    constraints! {
        let p[n] = amb(0..places);
        let s[n] = amb(0..places);
        require all_different(p[i] for i in 0..n, s[i] for i in 0..n);
        for i in 0..n {
            require s[i] == p[i] + i + 2;
        }
    }
    .map(move |solution| {
        let mut row = vec![0; places];
        for (i, (&first, &second)) in solution.p.iter().zip(&solution.s).enumerate() {
            row[first] = i + 1;
            row[second] = i + 1;
        }
        row
    })
}

/// Langford's problem for `n` up to reversal: a sequence and its mirror image count once
/// (the lexicographically least of the two is kept).
pub fn langford_up_to_reversal(n: usize) -> Puzzle<'static, Vec<usize>> {
    let last = (2 * n).saturating_sub(1) as u32;
    // The macro declares p[0..n] then s[0..n]: the first copies are variables 0..n.
    let reversal = Symmetry::new("reverse the row", move |var, place| {
        let i = var.index();
        let partner = if i < n { i + n } else { i - n };
        (VarId::from_index(partner), last - place)
    });
    langford(n).symmetries([reversal]).up_to_symmetry()
}
