//! Pythagorean triples: the model of the example, `examples/pythagorean/model.rs`, included here for the
//! tests and benches (one file, two crates).

#[path = "../../examples/pythagorean/model.rs"]
mod model;

pub use model::*;
