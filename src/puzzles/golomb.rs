//! Golomb rulers (CSPLib problem 6): `n` marks on a ruler, starting at 0, every pairwise
//! distance between marks different; the shortest such ruler is wanted.
//!
//! The textbook model: marks ascending, all differences distinct, the first difference
//! less than the last (a ruler and its mirror image are the same ruler), and the length,
//! the last mark, minimised. Optimal lengths for 1..=12 marks: 0, 1, 3, 6, 11, 17, 25,
//! 34, 44, 55, 72, 85.

use ambsolve::{Puzzle, constraints};

/// The shortest lengths of Golomb rulers with 1, 2, .. 12 marks (OEIS A003022, with 0 and
/// 1 for one and two marks).
pub const OPTIMAL_LENGTHS: [i64; 12] = [0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72, 85];

/// The greedy ruler with `n` marks: from 0, each next mark the smallest that keeps every
/// difference distinct. A Golomb ruler, so its length bounds the optimum.
pub fn greedy_ruler(n: usize) -> Vec<i64> {
    let mut marks: Vec<i64> = Vec::with_capacity(n);
    let mut used = std::collections::HashSet::new();
    let mut next = 0;
    while marks.len() < n {
        if marks.iter().all(|&m| !used.contains(&(next - m))) {
            used.extend(marks.iter().map(|&m| next - m));
            marks.push(next);
        }
        next += 1;
    }
    marks
}

/// The Golomb ruler problem with `n` marks (at least 1), as a puzzle minimising the
/// length; a solution is the marks, ascending from 0. The marks range up to the greedy
/// ruler's length, which holds an optimal ruler.
pub fn golomb(n: usize) -> Puzzle<'static, Vec<i64>> {
    let top = greedy_ruler(n).last().copied().unwrap_or(0);
    constraints! {
        let m[n] = amb(0..=top);
        require m[0] == 0;
        for i in 1..n {
            require m[i - 1] < m[i];
        }
        require all_different(m[j] - m[i] for i in 0..n for j in i + 1..n);
        if n > 2 {
            require m[1] - m[0] < m[n - 1] - m[n - 2];
        }
        minimize m[n - 1];
    }
    .map(|s| s.m)
}

/// Whether `marks` is a Golomb ruler: ascending from 0, every difference distinct.
pub fn is_golomb(marks: &[i64]) -> bool {
    let mut seen = std::collections::HashSet::new();
    marks.first().is_none_or(|&m| m == 0)
        && marks.windows(2).all(|w| w[0] < w[1])
        && (0..marks.len()).all(|i| (i + 1..marks.len()).all(|j| seen.insert(marks[j] - marks[i])))
}
