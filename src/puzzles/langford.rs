//! Langford pairs: the model of the example, `examples/langford/model.rs`, included here
//! for the tests and benches, and a check of a sequence that knows nothing of the model.

#[path = "../../examples/langford/model.rs"]
mod model;

pub use model::*;

/// Whether `row` is a Langford sequence: each of 1..n twice, k numbers between the k's.
pub fn is_langford(row: &[usize]) -> bool {
    let n = row.len() / 2;
    row.len() == 2 * n
        && (1..=n).all(|k| {
            let at: Vec<usize> = (0..row.len()).filter(|&i| row[i] == k).collect();
            at.len() == 2 && at[1] - at[0] == k + 1
        })
}
