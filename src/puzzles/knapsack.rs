//! The 0/1 knapsack: the model of the example, `examples/knapsack/model.rs`, included here for the
//! tests and benches (one file, two crates).

#[path = "../../examples/knapsack/model.rs"]
mod model;

pub use model::*;
