//! The example puzzles of ambsolve and the helpers their programs, tests and benches
//! share; the library itself is the `ambsolve` crate.

// The examples' models (`examples/*/model.rs`, shared by `puzzles`) name this crate as the
// examples do.
extern crate self as ambsolve_examples;

pub mod animate;
pub mod cli;
pub mod input;
pub mod programs;
pub mod progress;
pub mod puzzles;
pub mod svg;
pub mod trace;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
