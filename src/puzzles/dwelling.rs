//! SICP's multiple dwelling: the model of the example, `examples/dwelling/model.rs`, included here for the
//! tests and benches (one file, two crates).

#[path = "../../examples/dwelling/model.rs"]
mod model;

pub use model::*;
