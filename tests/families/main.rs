//! The constraint families of the `Model` API (`vocab_<family>`), each against a brute
//! force on random small instances (`common::differential`). One test binary; CI runs it
//! again with the propagators checked after every run:
//!
//! ```sh
//! cargo test -p ambsolve-examples --features ambsolve/debug-checks --test families
//! ```
//!
//! A new family is a new file here and its `mod` line (a test of `api` fails without it).

#[path = "../common/mod.rs"]
mod common;

mod vocab_arith;
mod vocab_counting;
mod vocab_packing;
mod vocab_precedence;
mod vocab_rectangles;
mod vocab_scheduling;
mod vocab_sequences;
mod vocab_tours;
