//! Constraint kinds beyond all-different, linear sums, tables, predicates and custom
//! propagators — logic, arithmetic, counting, scheduling, tours and sequences — each as
//! plain data with its meaning on a full assignment.
//!
//! Adding a kind takes four small pieces, one concept each:
//! 1. its data and its meaning: a struct in its family's file here, implementing
//!    [`Meaning`], and a variant of [`Global`] (one arm in [`Global::meaning`]);
//! 2. the `Model` method that checks its arguments and builds it (`model/build_*.rs`);
//! 3. its trail propagator, in `propagate/<family>/`, and one arm in
//!    `propagate::global::build`;
//! 4. nothing for the replay engine (it checks the meaning once the variables are chosen)
//!    and local search (it counts the constraint violated or not, through the meaning).

mod args;
mod arith;
mod counting;
mod dfa;
mod logic;
mod lookup;
mod order;
mod sequences;
mod tours;

use std::fmt;
use std::sync::Arc;

pub(crate) use self::args::{Arg, Int, vars_of};
pub use self::args::{IntArg, Lit};
pub(crate) use self::arith::{Abs, Binary, Extreme, Op, pow};
pub(crate) use self::counting::{Cardinality, CountEq, CountIn, NValue};
pub(crate) use self::dfa::Automaton;
pub use self::dfa::Dfa;
pub(crate) use self::logic::{Clause, LinearReif, Reification, Xor};
pub(crate) use self::lookup::{Element, ElementConst};
pub(crate) use self::order::{AllEqual, Lex, Monotone};
pub(crate) use self::sequences::Regular;
pub(crate) use self::tours::{AllDifferentExcept, Circuit, Inverse};
use crate::var::VarId;

/// What a constraint kind means: the variables it reads and whether it holds on a full
/// assignment. This is the reference every engine and every test is compared with.
pub(crate) trait Meaning: Send + Sync {
    /// The variables it mentions, in a fixed order (a variable may repeat).
    fn vars(&self) -> &[VarId];

    /// Whether it holds when each variable `v` takes value index `values[v.index()]`.
    fn holds(&self, values: &[u32]) -> bool;

    /// A short description naming the kind, for error messages, debugging and the
    /// fingerprint of a checkpoint (so it states the kind's parameters).
    fn describe(&self) -> String;
}

/// A constraint of one of the kinds of this folder, shared by clones of the model.
#[derive(Clone)]
pub(crate) enum Global {
    Clause(Arc<Clause>),
    LinearReif(Arc<LinearReif>),
    Xor(Arc<Xor>),
    Monotone(Arc<Monotone>),
    Circuit(Arc<Circuit>),
    Inverse(Arc<Inverse>),
    AllDifferentExcept(Arc<AllDifferentExcept>),
    Binary(Arc<Binary>),
    Abs(Arc<Abs>),
    Extreme(Arc<Extreme>),
    Element(Arc<Element>),
    ElementConst(Arc<ElementConst>),
    Lex(Arc<Lex>),
    AllEqual(Arc<AllEqual>),
    CountIn(Arc<CountIn>),
    CountEq(Arc<CountEq>),
    Cardinality(Arc<Cardinality>),
    NValue(Arc<NValue>),
    Regular(Arc<Regular>),
}

impl Global {
    /// Its meaning.
    pub(crate) fn meaning(&self) -> &dyn Meaning {
        match self {
            Global::Clause(c) => &**c,
            Global::LinearReif(c) => &**c,
            Global::Xor(c) => &**c,
            Global::Monotone(c) => &**c,
            Global::Circuit(c) => &**c,
            Global::Inverse(c) => &**c,
            Global::AllDifferentExcept(c) => &**c,
            Global::Binary(c) => &**c,
            Global::Abs(c) => &**c,
            Global::Extreme(c) => &**c,
            Global::Element(c) => &**c,
            Global::ElementConst(c) => &**c,
            Global::Lex(c) => &**c,
            Global::AllEqual(c) => &**c,
            Global::CountIn(c) => &**c,
            Global::CountEq(c) => &**c,
            Global::Cardinality(c) => &**c,
            Global::NValue(c) => &**c,
            Global::Regular(c) => &**c,
        }
    }
}

impl fmt::Debug for Global {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.meaning().describe())
    }
}
