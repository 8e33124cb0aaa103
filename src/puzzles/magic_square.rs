//! The 3×3 magic squares: the model of the example, `examples/magic_square/model.rs`, included here for the
//! tests and benches (one file, two crates).

#[path = "../../examples/magic_square/model.rs"]
mod model;

pub use model::*;
