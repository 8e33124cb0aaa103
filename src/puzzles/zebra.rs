//! The zebra puzzle: the model of the example, `examples/zebra/model.rs`, included here for the
//! tests and benches (one file, two crates).

#[path = "../../examples/zebra/model.rs"]
mod model;

pub use model::*;
