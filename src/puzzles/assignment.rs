//! The assignment problem: the model of the example, `examples/assignment/model.rs`, included here for the
//! tests and benches (one file, two crates).

#[path = "../../examples/assignment/model.rs"]
mod model;

pub use model::*;
