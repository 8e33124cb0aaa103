//! Golomb rulers: the model of the example, `examples/golomb/model.rs`, included here for
//! the tests and benches, and what they check it against: the known optimal lengths and a
//! check of a ruler that knows nothing of the model.

#[path = "../../examples/golomb/model.rs"]
mod model;

pub use model::*;

/// The shortest lengths of Golomb rulers with 1, 2, .. 12 marks (OEIS A003022, with 0 and
/// 1 for one and two marks).
pub const OPTIMAL_LENGTHS: [i64; 12] = [0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72, 85];

/// Whether `marks` is a Golomb ruler: ascending from 0, every difference distinct.
pub fn is_golomb(marks: &[i64]) -> bool {
    let mut seen = std::collections::HashSet::new();
    marks.first().is_none_or(|&m| m == 0)
        && marks.windows(2).all(|w| w[0] < w[1])
        && (0..marks.len()).all(|i| (i + 1..marks.len()).all(|j| seen.insert(marks[j] - marks[i])))
}
