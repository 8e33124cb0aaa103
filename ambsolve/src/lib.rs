//! ambsolve: search puzzles written declaratively, solved by backtracking on an explicit
//! choice stack.
//!
//! Write a puzzle with [`constraints!`]: *choose* values with `amb`, *require* conditions.
//! The result enumerates its solutions lazily, as typed structs, and counts them without
//! storing any:
//!
//! ```
//! use ambsolve::constraints;
//!
//! let n = 6;
//! let queens = constraints! {
//!     let q[n] = amb(0..n);                          // one queen per row: its column
//!     require all_different(q);                      // columns
//!     require all_different(q[i] + i for i in 0..n); // diagonals
//!     require all_different(q[i] - i for i in 0..n); // anti-diagonals
//! };
//!
//! let mut solutions = queens.solutions();           // lazy: searches on demand
//! assert_eq!(solutions.next().map(|s| s.q), Some(vec![1, 3, 5, 0, 2, 4]));
//! assert_eq!(queens.count()?.solutions, 4);          // counts, stores nothing
//! # Ok::<(), ambsolve::SearchError>(())
//! ```
//!
//! The macro builds a [`Model`] (variables, their values, constraints) and a typed view of
//! its solutions, a [`Puzzle`]. Two engines share one explicit choice stack and solve the
//! same model, switched with one word ([`Engine`]):
//!
//! - the **trail** engine (the default) keeps domains in a store, logs every change on a
//!   trail, undoes it on backtracking, and prunes with propagators after every decision;
//! - the **replay** engine runs the model as an `amb` program: it chooses each variable in
//!   turn, checks each constraint as soon as it can fail, and after a failure re-runs,
//!   replaying the recorded choices — JavaScript's `ambRun`, done right.
//!
//! A third engine, **local** search ([`Engine::Local`], min-conflicts), repairs a complete
//! assignment instead of backtracking: it finds solutions of models with millions of
//! variables (ten million queens), but proves nothing, so only a limit ([`Limits`]) stops it.
//!
//! Hand-written `amb` programs run on the replay engine directly with [`replay()`]:
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
//! Searches never recurse (a million choices deep is a million heap frames), report
//! [`Stats`], stop at [`Limits`] with a [`StopReason`], and can be cancelled from another
//! thread with a [`CancelFlag`].

// Floors, from the bottom up (ARCHITECTURE.md): each module imports only floors below it.
// 0 words
mod choice;
mod domain;
mod error;
mod var;
// 1 state
mod store;
mod trail;
// 2 meaning
mod control;
mod exact;
mod expr;
mod limits;
mod model;
mod observe;
mod options;
mod propagator;
mod stats;
mod strategy;
mod symmetry;
mod tree;
// 3 pruning
mod among;
mod learn;
mod propagators;
// 4 engines
mod engine;
// 5 seam
#[cfg(feature = "mpi")]
pub mod distributed;
mod solve;
// 6 facade
mod macro_support;
mod puzzle;

pub use crate::among::{Among, among};
pub use crate::choice::{Fail, ParseSubproblemError, Subproblem};
pub use crate::domain::{Bits, Domain};
pub use crate::engine::replay::Amb;
pub use crate::error::SearchError;
pub use crate::expr::{BoolExpr, IntExpr};
pub use crate::limits::{CancelFlag, Limits, StopReason};
pub use crate::model::{
    Assignment, CheckError, Cmp, Dfa, IntArg, Integer, Lit, Model, Part, RequireVars, Sense, Term,
};
pub use crate::observe::{Event, Observer, Recorder};
pub use crate::options::{Checking, Engine, Lns, Options};
pub use crate::propagator::{Context, Propagator};
pub use crate::puzzle::Puzzle;
#[cfg(feature = "mpi")]
pub use crate::solve::DistributedCount;
pub use crate::solve::{
    Best, Improvement, Improving, Infeasibility, LexBest, SearchHandle, Solutions, Solver, Summary,
    TryImproving, TrySolutions, replay,
};
pub use crate::stats::Stats;
pub use crate::strategy::{
    Phase, Restarts, Strategy, ValueKey, ValueOrder, VarOrder, value_images,
};
pub use crate::symmetry::Symmetry;
pub use crate::tree::{NodeOutcome, SearchTree, TreeNode, TreeStats};
pub use crate::var::{Var, VarId};
#[doc = include_str!("constraints.md")]
pub use ambsolve_macros::constraints;

/// Support for the code `constraints!` expands to (see `macro_support.rs`). Not a public
/// API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::macro_support::*;
}
