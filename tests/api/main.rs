//! The library from a user's side, through the `Model` API: building, identity, values,
//! errors, limits, a user's own propagator, large domains and the ends of `i64`, the
//! expression layer; and the floors of the core crate (`layers`), with the layout of these
//! tests. One test binary (`cargo test --test api`); each file a module, one feature each
//! (ARCHITECTURE.md, "Where the tests are").

#[path = "../common/mod.rs"]
mod common;

mod errors;
mod expressions;
mod large_domains;
mod layers;
mod limits;
mod model_api;
mod model_identity;
mod overflow;
mod propagator;
mod ranges;
mod values;
