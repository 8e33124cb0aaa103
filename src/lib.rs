//! Helpers shared by the examples of ambsolve; the library itself is the `ambsolve` crate.

pub mod cli;
pub mod programs;
pub mod svg;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
