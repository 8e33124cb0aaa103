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
mod globals;
mod propagate;
// 4 engines
mod local;
mod replay;
mod search;
// 5 seam
#[cfg(feature = "mpi")]
pub mod distributed;
mod solve;
// 6 facade
mod puzzle;

pub use crate::choice::{Fail, ParseSubproblemError, Subproblem};
pub use crate::domain::{Bits, Domain};
pub use crate::error::SearchError;
pub use crate::expr::{BoolExpr, IntExpr};
pub use crate::globals::{Among, among};
pub use crate::limits::{CancelFlag, Limits, StopReason};
pub use crate::model::{Assignment, CheckError, Cmp, IntArg, Integer, Lit, Model, Sense, Term};
pub use crate::observe::{Event, Observer, Recorder};
pub use crate::options::{Checking, Engine, Options};
pub use crate::propagator::{Context, Propagator};
pub use crate::puzzle::Puzzle;
pub use crate::replay::Amb;
#[cfg(feature = "mpi")]
pub use crate::solve::DistributedCount;
pub use crate::solve::{
    Best, Improvement, Improving, Solutions, Solver, Summary, TryImproving, TrySolutions, replay,
};
pub use crate::stats::Stats;
pub use crate::strategy::{Restarts, Strategy, ValueKey, ValueOrder, VarOrder};
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
///   - anything else (`linked(w1, w2)`, `(a - b).abs() != 1`): a predicate over exactly
///     the choices it mentions, checked as soon as they are all chosen (and used for
///     forward checking when one is left).
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

/// Support for the code `constraints!` expands to. Not a public API: it may change in any
/// release.
#[doc(hidden)]
pub mod __private {
    pub use crate::{Assignment, Cmp, Model, Puzzle, Sense, Term, Var, VarId};
    pub use std::vec::Vec;

    /// An array of choices as a puzzle's extractor keeps it: a run of consecutive
    /// variables sharing one value list is its first id, its length and the list (a
    /// million queens cost a few words, not a million handles); other arrays are listed.
    pub struct Row<T>(Layout<T>);

    enum Layout<T> {
        /// Variables `first, first + 1, ..` (`len` of them) over `values`, declared by
        /// `model`.
        Run {
            first: VarId,
            len: usize,
            values: std::sync::Arc<[T]>,
            model: crate::var::ModelId,
        },
        Listed(Vec<Var<T>>),
    }

    impl<T: Clone> Row<T> {
        /// The array `vars`, compactly when it can be.
        pub fn new(vars: &[Var<T>]) -> Self {
            let Some(head) = vars.first() else {
                return Row(Layout::Listed(Vec::new()));
            };
            let run = vars.iter().enumerate().all(|(i, v)| {
                v.model == head.model
                    && std::sync::Arc::ptr_eq(&v.values, &head.values)
                    && v.id.index() == head.id.index() + i
            });
            Row(if run {
                Layout::Run {
                    first: head.id,
                    len: vars.len(),
                    values: std::sync::Arc::clone(&head.values),
                    model: head.model,
                }
            } else {
                Layout::Listed(vars.to_vec())
            })
        }

        /// The values the array's variables take in `assignment`.
        ///
        /// # Panics
        /// If `assignment` solves another model.
        pub fn read(&self, assignment: &Assignment) -> Vec<T> {
            match &self.0 {
                Layout::Run {
                    first,
                    len,
                    values,
                    model,
                } => {
                    assert!(
                        *len == 0 || assignment.accepts(*model, (first.index() + len - 1) as u32),
                        "the assignment solves another model"
                    );
                    let from = first.index();
                    assignment.indices()[from..from + len]
                        .iter()
                        .map(|&i| values[i as usize].clone())
                        .collect()
                }
                Layout::Listed(vars) => vars.iter().map(|v| assignment.value(v).clone()).collect(),
            }
        }
    }

    /// What a `constraints!` with a compile error stands for: any type, never run.
    pub fn unbuilt<T>() -> T {
        unreachable!("constraints! reported a compile error")
    }

    /// The values of an `amb(..)`, collected. A puzzle is shared between threads, so its
    /// values must be `Send + Sync`.
    pub fn values<I: IntoIterator>(values: I) -> Vec<I::Item>
    where
        I::Item: Shareable,
    {
        values.into_iter().collect()
    }

    /// What a puzzle holds: a value that can be sent to and shared between threads.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be sent or shared between threads, and a puzzle holds it",
        label = "puzzles are `Send + Sync`, so this value must be too",
        note = "use `Arc` instead of `Rc`, atomics or a `Mutex` instead of `Cell` or `RefCell`"
    )]
    pub trait Shareable {}

    impl<T: ?Sized + Send + Sync> Shareable for T {}

    /// A value from outside that a condition borrows: the puzzle holds the reference, so
    /// the value must be `Sync`.
    pub fn captured<T: ?Sized + Shareable>(value: &T) -> &T {
        value
    }

    /// The ids of some variables.
    pub fn ids<'v, T: 'v>(vars: impl IntoIterator<Item = &'v Var<T>>) -> Vec<VarId> {
        vars.into_iter().map(Var::id).collect()
    }

    pub use crate::exact::{Exact, Probe, ProbeInteger, ProbeOther, ProbeRef};
    pub use crate::expr::dsl;

    /// A comparison `x CMP y` between two chosen values, on its way into a model:
    /// `(&&Compare(&x, &y)).linear(&mut model, cmp)` posts it as a linear constraint when
    /// both are integers whose values fit in an `i64` (the trail engine then prunes by
    /// bounds, not only once one side is fixed) and returns `true`; otherwise it returns
    /// `false` and the caller posts the condition as a predicate. Either way it means the
    /// same: integers compare exactly.
    #[derive(Debug)]
    pub struct Compare<'v, A, B>(pub &'v Var<A>, pub &'v Var<B>);

    /// The integer side of [`Compare`]: chosen first, for primitive integers.
    pub trait CompareInteger {
        /// Posts the comparison as a linear constraint, if the values fit.
        fn linear(&self, model: &mut Model<'_>, cmp: Cmp) -> bool;
    }

    impl<A: crate::Integer, B: crate::Integer> CompareInteger for &Compare<'_, A, B> {
        fn linear(&self, model: &mut Model<'_>, cmp: Cmp) -> bool {
            let (x, y) = (Term::new(1, self.0), Term::new(-1, self.1));
            if x.images.is_err() || y.images.is_err() {
                return false;
            }
            model.linear([x, y], cmp, 0);
            true
        }
    }

    /// The other side of [`Compare`]: any values, left to a predicate.
    pub trait CompareOther {
        /// Posts nothing.
        fn linear(&self, model: &mut Model<'_>, cmp: Cmp) -> bool;
    }

    impl<A, B> CompareOther for Compare<'_, A, B> {
        fn linear(&self, _model: &mut Model<'_>, _cmp: Cmp) -> bool {
            false
        }
    }

    /// A user's integer (any primitive integer type) as an [`Exact`].
    pub fn int<T: TryInto<i128>>(value: T) -> Exact {
        Exact::from_option(value.try_into().ok())
    }

    /// `value` as an `i64`; out of range, the model is made invalid (and 0 is returned).
    pub fn narrow(model: &mut Model<'_>, value: Exact, what: &str) -> i64 {
        match value.get().map(i64::try_from) {
            Some(Ok(value)) => value,
            _ => {
                model.invalid(format!("{what} of a constraint does not fit in an i64"));
                0
            }
        }
    }

    /// The items of an all-different with computed items, each as its integer value
    /// (`Var<i64>` over the images of the variable's values) and an offset.
    #[derive(Debug, Default)]
    pub struct Distinct {
        items: Vec<(Var<i64>, i64)>,
        /// Images already computed, by the address and length of a value list.
        images: std::collections::HashMap<(usize, usize), std::sync::Arc<[i64]>>,
    }

    impl Distinct {
        /// No item yet.
        pub fn new() -> Self {
            Self::default()
        }

        /// Adds `var + offset`; a value or offset out of `i64` range makes the model
        /// invalid.
        pub fn push<T: crate::model::Integer>(
            &mut self,
            model: &mut Model<'_>,
            var: &Var<T>,
            offset: Exact,
        ) {
            let offset = narrow(model, offset, "an offset");
            let key = (var.values.as_ptr() as usize, var.values.len());
            let images = match self.images.get(&key) {
                Some(images) => std::sync::Arc::clone(images),
                None => match crate::model::images(&var.values) {
                    Ok(images) => {
                        let images: std::sync::Arc<[i64]> = images.into();
                        self.images.insert(key, std::sync::Arc::clone(&images));
                        images
                    }
                    Err(at) => return model.out_of_range(var.id, at),
                },
            };
            let as_integers = Var {
                id: var.id,
                values: images,
                model: var.model,
            };
            self.items.push((as_integers, offset));
        }

        /// Posts the all-different.
        pub fn finish(self, model: &mut Model<'_>) {
            model.all_different_offset(self.items.iter().map(|(var, offset)| (var, *offset)));
        }
    }

    /// The widest an auxiliary choice may be.
    const WIDEST: i128 = 1 << 22;

    /// An auxiliary choice equal to `Σ terms + constant`, over the values that sum can
    /// take (a linear constraint ties them); too wide a range makes the model invalid.
    pub fn computed(model: &mut Model<'_>, mut terms: Vec<Term>, constant: Exact) -> Var<i64> {
        let constant = narrow(model, constant, "a constant");
        let (mut low, mut high) = (i128::from(constant), i128::from(constant));
        for term in &terms {
            let Ok(images) = &term.images else {
                // The model records the value out of range when the constraint is posted.
                continue;
            };
            let products = images
                .iter()
                .map(|&x| i128::from(term.coef) * i128::from(x));
            low += products.clone().min().unwrap_or(0);
            high += products.max().unwrap_or(0);
        }
        let (low, high) = if high - low >= WIDEST
            || i64::try_from(low).is_err()
            || i64::try_from(high).is_err()
        {
            model.invalid(format!(
                "an all_different item ranges over {low}..={high}: too wide for an auxiliary choice"
            ));
            (0, 0)
        } else {
            (low as i64, high as i64)
        };
        let aux = model.named_var("all_different item", low..=high);
        terms.push(Term::new(-1, &aux));
        model.linear(terms, Cmp::Eq, -constant);
        aux
    }

    /// A chosen value as an index into a list, if it is one.
    pub fn as_index<T: Copy + TryInto<usize>>(value: &T) -> Option<usize> {
        (*value).try_into().ok()
    }

    /// `table[var]` in a linear constraint (an *element* constraint): an auxiliary choice
    /// over the entries `read` gives for `var`'s values, tied to `var` by a table, so the
    /// trail engine prunes both ways. A value of `var` that reads nothing (an index past
    /// the end of the list) is ruled out.
    pub fn lookup<T, U: crate::model::Integer>(
        model: &mut Model<'_>,
        var: &Var<T>,
        read: impl Fn(&T) -> Option<U>,
    ) -> Var<i64> {
        let mut read_at: Vec<(u32, i64)> = Vec::new();
        for (i, value) in var.values.iter().enumerate() {
            if let Some(entry) = read(value) {
                match entry.to_i64() {
                    Some(entry) => read_at.push((i as u32, entry)),
                    None => model.invalid(format!(
                        "an entry read for {} does not fit in an i64",
                        model.name(var.id)
                    )),
                }
            }
        }
        let mut entries: Vec<i64> = read_at.iter().map(|&(_, e)| e).collect();
        entries.sort_unstable();
        entries.dedup();
        let looked = model.named_var(format!("{}'s entry", model.name(var.id)), entries.clone());
        let pairs = read_at.iter().map(|&(i, entry)| {
            let at = entries.binary_search(&entry).unwrap_or_default() as u32;
            [i, at]
        });
        model.table_indices(&[var.id, looked.id], pairs);
        looked
    }

    /// `array[index]` in a linear constraint, the array a list of choices and the index a
    /// choice (an *element* constraint): an auxiliary choice over the images of the
    /// array's values, tied to both by a propagator. Values of `index` past the end of
    /// `array` are ruled out.
    pub fn element<T: crate::model::Integer, I: Copy + TryInto<usize>>(
        model: &mut Model<'_>,
        array: &[Var<T>],
        index: &Var<I>,
    ) -> Var<i64> {
        let mut images = Vec::with_capacity(array.len());
        for var in array {
            match crate::model::images(&var.values) {
                Ok(list) => images.push(std::sync::Arc::<[i64]>::from(list)),
                Err(at) => {
                    model.out_of_range(var.id, at);
                    images.push(std::sync::Arc::from(Vec::new()));
                }
            }
        }
        let mut values: Vec<i64> = images
            .iter()
            .flat_map(|list| list.iter().copied())
            .collect();
        values.sort_unstable();
        values.dedup();
        let result = model.named_var(
            format!("element of {}", model.name(index.id)),
            values.clone(),
        );
        let at: Vec<Option<usize>> = index
            .values
            .iter()
            .map(|v| as_index(v).filter(|&p| p < array.len()))
            .collect();
        let mut scope = vec![index.id];
        scope.extend(array.iter().map(|v| v.id));
        scope.push(result.id);
        model.propagator(
            &scope,
            crate::globals::Element {
                index: index.id,
                at,
                array: array.iter().map(|v| v.id).collect(),
                images,
                result: result.id,
                result_values: values,
            },
        );
        result
    }

    /// The linear term `coef × var`; a coefficient out of range makes the model invalid.
    pub fn term<T: crate::model::Integer>(
        model: &mut Model<'_>,
        coef: Exact,
        var: &Var<T>,
    ) -> Term {
        Term::new(narrow(model, coef, "a coefficient"), var)
    }

    /// A chosen value, cloned out of its variable's list.
    pub fn value<T: Clone>(var: &Var<T>, index: u32) -> T {
        var.value(index as usize).clone()
    }
}
