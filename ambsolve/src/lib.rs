//! ambsolve: search puzzles written declaratively, solved by backtracking on an explicit
//! choice stack.
//!
//! The first way in is the `amb` operator: write the puzzle as an ordinary Rust closure
//! that *chooses* values and *requires* conditions; the [replay engine](replay()) runs it
//! once per path, replaying recorded choices, and yields every solution lazily.
//!
//! ```
//! // Every way to place 4 queens on a 4x4 board, one queen per row.
//! let boards = ambsolve::replay(|amb| {
//!     let mut queens: Vec<usize> = Vec::new();
//!     for row in 0..4 {
//!         let col = amb.choose(0..4)?;
//!         amb.require(queens.iter().enumerate().all(|(r, &c)| {
//!             c != col && c.abs_diff(col) != row - r
//!         }))?;
//!         queens.push(col);
//!     }
//!     Ok(queens)
//! });
//! let mut solutions = boards.solutions();
//! assert_eq!(solutions.next(), Some(vec![1, 3, 0, 2]));
//! assert_eq!(solutions.next(), Some(vec![2, 0, 3, 1]));
//! assert_eq!(solutions.next(), None);
//! println!("{}", solutions.stats()); // runs, replayed choices, failures, ...
//! ```
//!
//! Counting stores nothing:
//!
//! ```
//! let summary = ambsolve::replay(|amb| {
//!     let a = amb.choose(0..10)?;
//!     let b = amb.choose(0..10)?;
//!     amb.require(a + b == 9)?;
//!     Ok(())
//! })
//! .count()?;
//! assert_eq!(summary.solutions, 10);
//! assert!(summary.stop_reason.is_complete());
//! # Ok::<(), ambsolve::SearchError>(())
//! ```

mod choice;
mod domain;
mod error;
mod limits;
mod model;
mod propagate;
mod replay;
mod search;
mod solutions;
mod stats;
mod store;
mod strategy;
mod trail;

pub use crate::domain::{Bits, Domain};
pub use crate::error::SearchError;
pub use crate::limits::{CancelFlag, Limits, StopReason};
pub use crate::model::{Assignment, Cmp, Integer, Model, Term, Var, VarId};
pub use crate::propagate::{Context, Propagator};
pub use crate::replay::{Amb, Fail, replay};
pub use crate::solutions::{Engine, Solutions, Solver, Summary};
pub use crate::stats::Stats;
pub use crate::strategy::{Restarts, Strategy, ValueKey, ValueOrder, VarOrder};
pub use ambsolve_macros::constraints;

/// Support for the code `constraints!` expands to. Not a public API.
#[doc(hidden)]
pub mod __private {}
