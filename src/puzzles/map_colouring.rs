//! Australia's map colouring: the model of the example, `examples/map_colouring/model.rs`, included here for the
//! tests and benches (one file, two crates).

#[path = "../../examples/map_colouring/model.rs"]
mod model;

pub use model::*;
