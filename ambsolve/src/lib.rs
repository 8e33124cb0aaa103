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
    Assignment, CheckError, Cmp, Dfa, IntArg, Integer, Lit, Model, RequireVars, Sense, Term,
};
pub use crate::observe::{Event, Observer, Recorder};
pub use crate::options::{Checking, Engine, Options};
pub use crate::propagator::{Context, Propagator};
pub use crate::puzzle::Puzzle;
#[cfg(feature = "mpi")]
pub use crate::solve::DistributedCount;
pub use crate::solve::{
    Best, Improvement, Improving, SearchHandle, Solutions, Solver, Summary, TryImproving,
    TrySolutions, replay,
};
pub use crate::stats::Stats;
pub use crate::strategy::{
    Phase, Restarts, Strategy, ValueKey, ValueOrder, VarOrder, value_images,
};
pub use crate::symmetry::Symmetry;
pub use crate::tree::{NodeOutcome, SearchTree, TreeNode, TreeStats};
pub use crate::var::{Var, VarId};
/// Declares a puzzle: choices made with `amb`, conditions made with `require`.
///
/// The result is a [`Puzzle`] whose solutions are structs with one field per choice
/// (arrays of choices are `Vec`s), solved on either engine.
///
/// # What each part means
///
/// - **Choices** are declared at the top of the body. `amb(EXPR)` takes anything that
///   iterates: ranges, arrays, slices, `Vec`s, iterator chains; values of any type
///   (integers, `&str`, chars, your own enums and structs, borrowed values too).
///   `let q[n] = amb(..)` declares `n` choices sharing one list, `let g[9][9] = ..` a grid,
///   and `let w[i < k] = amb(lists[i].clone())` one list per index. Lengths and values
///   are evaluated once, while the model is built, and may use values from the
///   surrounding scope but not other choices.
/// - **`require CONDITION;`** takes any Rust boolean expression over the chosen names
///   (`x`, `q[i]`, a whole array `q`, a row `g[r]`); in it, a name stands for the chosen
///   value (a clone). Each condition is split on `&&` and becomes the strongest constraint
///   that fits:
///   - `all_different(a, b, c)`, `all_different(q)`, `all_different(q[i] + i for i in 0..n)`
///     (offsets allowed), several of these in one call
///     (`all_different(p[i] for i in 0..n, s[i] for i in 0..n)`), and items computed from
///     several choices (`all_different(m[j] - m[i] for i in 0..n for j in i + 1..n)`, each
///     an auxiliary choice): the all-different propagator;
///   - a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`) of sums of chosen integers times
///     constants, including `sum(w[i] * x[i] for i in 0..n)`: a linear constraint,
///     propagated by bounds. A term may read a list of constants at a chosen index,
///     `cost[i][x[i]]` (a *lookup*, or element constraint): an auxiliary choice over the
///     list's entries, tied to the index by a table, so both prune; indices past the end
///     of the list are ruled out. An array of choices read at a chosen index, `order[k]`,
///     is the same with a propagator tying the index, the array and the value;
///   - a condition on a single chosen value (`x != 0`, `word.len() == 3`): applied to its
///     domain before the search;
///   - a formula over integer and boolean choices: logic (`!`, `&&`, `||`, `^`, `a -> b`,
///     `a <-> b`, a boolean choice equal to a comparison, `b == (x + y <= 5)`), exact
///     arithmetic (`* / %`, `abs`, `pow`, `min`, `max`), lookups at chosen indices
///     (`dist[x[i]][x[i + 1]]`, `q[k]`), `sum(..)`s and `count(..)`s of comparisons, and
///     the integer functions `count(x, v)`, `among(x, &values)`, `nvalue(x)`, `sum(x)`,
///     `min(x)`, `max(x)` of an array: flattened into propagating constraints (clauses,
///     reified linear comparisons, [`Model::times`], [`Model::element2d`],
///     [`Model::count`] and the like) with auxiliary choices, keeping the exact meaning
///     (a partial function makes its comparison false). The README's section "Conditions
///     that propagate" lists what each form becomes;
///   - a global constraint written as a call, alone in its `require`:
///     `require increasing(x);`, `all_equal`, `lex_lesseq(x, y)`, `lex_less`,
///     `regular(x, &dfa)`, `element(i, x, v)`, `at_most(k, x, v)`, `at_least`,
///     `global_cardinality(x, &values, counts)` (and `_closed`), `circuit(succ)`,
///     `subcircuit`, `inverse(f, g)`, `all_different_except(x, 0)`, the scheduling
///     `disjunctive(s, d)`, `disjunctive_strict`, `cumulative(s, d, r, capacity)`: the
///     [`Model`] method of that name (global_cardinality's `closed` flag from the name);
///   - anything else (`linked(w1, w2)`, a comparison of strings or floats, a value beyond
///     `i64`): a predicate over exactly the choices it mentions, checked as soon as they
///     are all chosen (and used for forward checking when one is left), with the same
///     meaning.
/// - **`post EXPR;`** adds a constraint of your own, or a global one of the library: `EXPR`
///   is evaluated once while the model is built, with each chosen name standing for its
///   variable (a [`Var`], a `Vec` of them for an array), and gives a [`Propagator`]; its
///   scope is every variable `EXPR` mentions. `post among(&x, 3, 2);` (exactly two of
///   `x` are 3), `post my_global(&q);`. On the trail engine it prunes; on the replay
///   engine it is checked by its meaning on fixed values once its variables are chosen.
/// - **Integer arithmetic is exact**, whichever of these a condition becomes, on both
///   engines, in debug and release builds: in a comparison that computes (`+ - * / %`,
///   a negation, an integer literal), integers of every primitive type are compared as
///   mathematical integers, as in MiniZinc or Python — `x - y < 2` over `usize` choices
///   holds for `x = 0, y = 9`, never wraps, never panics, and mixes signed and unsigned
///   types freely. Division and `%` truncate toward zero, as in Rust; a division by zero
///   makes the comparison containing it false. Integer literals take no type from their
///   neighbours (`3000000000` is fine next to `i64` choices). Floats, strings and your
///   own types keep their Rust meaning; a comparison with a float literal is a
///   predicate, and a float in a `sum(..)` is a compile error. Arithmetic inside a
///   function's arguments, an index, an `as` cast or a closure is plain Rust. A linear
///   constraint computes with `i64` values: a value or constant beyond `i64` makes the
///   model invalid rather than wrong.
/// - **`for`, `if` and plain `let`** run while the model is built, around `require`s:
///   `for r in 0..9 { require all_different(g[r][c] for c in 0..9); }`.
/// - The puzzle is `Clone + Send + Sync`, so it can be handed to threads: the values
///   chosen with `amb` and the values a condition borrows must be `Send + Sync` (an `Rc`
///   is a compile error on your token that says so; use an `Arc`).
/// - Values from the surrounding scope are borrowed by the conditions that use them, so
///   the puzzle cannot outlive them. Functions and closures a condition *calls* are
///   copied in instead: plain (even generic) functions and local closures are custom
///   constraints (`require linked(w1, w2);`), and a puzzle using them can be returned.
///
/// # Checking as early as possible
///
/// On the replay engine a constraint is checked right after the last of its choices is
/// made; on the trail engine it prunes the other choices' values as soon as it can.
/// [`Checking::AtEnd`] turns both into generate-and-test, to see what early checking saves.
///
/// ```
/// use ambsolve::{Checking, Engine, constraints};
///
/// let linked = |a: &str, b: &str| a.chars().last() == b.chars().next();
/// let chain = constraints! {
///     let w1 = amb(["the", "that", "a"]);
///     let w2 = amb(["frog", "elephant", "thing"]);
///     let w3 = amb(["walked", "treaded", "grows"]);
///     let w4 = amb(["slowly", "quickly"]);
///     require linked(w1, w2) && linked(w2, w3) && linked(w3, w4);
/// }
/// .engine(Engine::Replay);
///
/// let answer = chain.first()?.expect("a chain");
/// assert_eq!([answer.w1, answer.w2, answer.w3, answer.w4], ["that", "thing", "grows", "slowly"]);
/// let early = chain.count()?.stats.runs;
/// let late = chain.checking(Checking::AtEnd).count()?.stats.runs;
/// assert!(early < late); // 54 runs checked at the end
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
///
/// # Errors
///
/// Misuse is a compile error on your own token that says what to write instead: an
/// unknown or misspelt name, a name chosen twice, `amb` of an empty literal, a constraint
/// that mentions no choice, a choice inside a loop, a choice used where only build-time
/// values make sense (lengths, `for` ranges, `if` conditions, indices), a value that is not
/// `Send + Sync`, and malformed syntax.
///
/// # Returning a puzzle from a function
///
/// The solution struct is local to the macro's expansion; [`Puzzle::map`] turns it into a
/// type a signature can name:
///
/// ```
/// use ambsolve::{Puzzle, constraints};
///
/// fn queens(n: usize) -> Puzzle<'static, Vec<usize>> {
///     constraints! {
///         let q[n] = amb(0..n);
///         require all_different(q);
///         require all_different(q[i] + i for i in 0..n);
///         require all_different(q[i] - i for i in 0..n);
///     }
///     .map(|s| s.q)
/// }
/// assert_eq!(queens(8).count()?.solutions, 92);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
pub use ambsolve_macros::constraints;

/// Support for the code `constraints!` expands to (see `macro_support.rs`). Not a public
/// API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::macro_support::*;
}
