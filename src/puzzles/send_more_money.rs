//! SEND + MORE = MONEY: the model of the example, `examples/send_more_money/model.rs`, included here for the
//! tests and benches (one file, two crates).

#[path = "../../examples/send_more_money/model.rs"]
mod model;

pub use model::*;
