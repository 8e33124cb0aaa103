//! Golomb rulers (CSPLib problem 6): `n` marks on a ruler, starting at 0, every pairwise
//! distance between marks different; the shortest such ruler is wanted.
//!
//! The textbook model: marks ascending, all differences distinct, the first difference
//! less than the last (a ruler and its mirror image are the same ruler), and the length,
//! the last mark, minimised. Optimal lengths for 1..=12 marks: 0, 1, 3, 6, 11, 17, 25,
//! 34, 44, 55, 72, 85.

use ambsolve::{Puzzle, constraints};

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
