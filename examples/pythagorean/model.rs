//! Pythagorean triples: i ≤ j ≤ k ≤ N with i² + j² = k².

use ambsolve::{Puzzle, constraints};

/// The triples with sides up to `n`; a solution is a triple `(i, j, k)`.
pub fn triples(n: u64) -> Puzzle<'static, (u64, u64, u64)> {
    constraints! {
        let i = amb(1..=n);
        let j = amb(1..=n);
        let k = amb(1..=n);
        require i <= j && j <= k;
        require i * i + j * j == k * k;
    }
    .map(|s| (s.i, s.j, s.k))
}
