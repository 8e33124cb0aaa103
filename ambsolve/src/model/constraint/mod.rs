//! Constraints as the model states them: every kind, its data and its meaning.
//!
//! A **kind** is one variant of [`Constraint`] (all-different, linear, table, cumulative,
//! ..); a **family** is one file of this folder, holding the data of a few related kinds,
//! their [`Meaning`] (the check on a full assignment: the reference every engine and every
//! test is compared with) and the `Model` methods that check their arguments and build
//! them. Each kind gives the engines two things through one trait, [`Kind`]: its meaning
//! (implemented in its family's file) and its trail propagator (implemented beside the
//! propagator, in `propagators/`). The replay engine checks the meaning once the variables are
//! chosen, and local search counts the constraint violated or not through it.
//!
//! The checklist for a new kind is in ARCHITECTURE.md ("A new constraint kind").

mod all_different;
mod args;
mod arith;
mod counting;
mod dfa;
mod linear;
mod logic;
mod lookup;
mod order;
mod packing;
mod precedence;
mod predicate;
mod scheduling;
mod sequences;
mod table;
mod tours;

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// The most values of a variable a kind that tabulates values (an element over
/// constants, a table, `regular`) reads one by one: a wider variable stands behind a
/// listed alias ([`Model::listed_alias`](crate::Model::listed_alias)). Also the most
/// values the items of an `nvalue` may hold together for their union to be listed.
pub(crate) const TABULATED_AT_MOST: usize = 1 << 16;

pub(crate) use self::all_different::{AllDifferentDef, Keys, TermKeys};
pub(crate) use self::args::{Arg, Int, describe_all, vars_of};
pub use self::args::{IntArg, Lit};
pub(crate) use self::arith::{Abs, Binary, Extreme, Op, pow};
pub(crate) use self::counting::{Cardinality, CountEq, CountIn, NValue};
pub(crate) use self::dfa::Automaton;
pub use self::dfa::Dfa;
pub(crate) use self::linear::LinearDef;
pub(crate) use self::logic::{Clause, LinearReif, Reification, Xor};
pub(crate) use self::lookup::{Element, ElementConst};
pub(crate) use self::order::{AllEqual, Lex, Monotone};
pub(crate) use self::packing::{BinPacking, Diffn};
pub(crate) use self::precedence::ValuePrecede;
pub use self::predicate::RequireVars;
pub(crate) use self::predicate::{Check, CustomDef, PredicateDef};
pub(crate) use self::scheduling::{Cumulative, Disjunctive};
pub(crate) use self::sequences::Regular;
pub(crate) use self::table::TableDef;
pub(crate) use self::tours::{AllDifferentExcept, Circuit, Inverse};
use crate::model::term::Cmp;
use crate::propagator::BuiltinPropagator;
use crate::store::Store;
use crate::var::VarId;

/// What a constraint kind means: the variables it reads and whether it holds on a full
/// assignment. This is the reference every engine and every test is compared with.
pub(crate) trait Meaning: Send + Sync {
    /// The variables it mentions, in a fixed order (a variable may repeat).
    fn vars(&self) -> Cow<'_, [VarId]>;

    /// Whether it holds when each variable `v` takes value index `values[v.index()]`.
    fn holds(&self, values: &[u32]) -> bool;

    /// A short description naming the kind, for error messages, debugging and the
    /// fingerprint of a checkpoint (so it states the kind's parameters).
    fn describe(&self) -> String;
}

/// A constraint kind as the engines see it: its [`Meaning`] (implemented in its family's
/// file of this folder) and its trail propagator (implemented beside the propagator, in
/// `propagators/`: the trail engine builds every kind's propagator through this trait).
pub(crate) trait Kind<'a>: Meaning {
    /// Its trail propagator, with its trailed cells allocated in `store`.
    fn propagator(&self, store: &mut Store) -> Box<dyn BuiltinPropagator + 'a>;
}

impl<T: Meaning + ?Sized> Meaning for Arc<T> {
    fn vars(&self) -> Cow<'_, [VarId]> {
        (**self).vars()
    }

    fn holds(&self, values: &[u32]) -> bool {
        (**self).holds(values)
    }

    fn describe(&self) -> String {
        (**self).describe()
    }
}

impl<'a, T: Kind<'a> + ?Sized> Kind<'a> for Arc<T> {
    fn propagator(&self, store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        (**self).propagator(store)
    }
}

/// Declares [`Constraint`] with one variant per kind, and what follows from the list: a
/// kind is one line here.
macro_rules! kinds {
    ($($(#[$doc:meta])* $kind:ident($data:ty),)*) => {
        /// A constraint of a model, one variant per kind: plain data, cheap to clone (what
        /// is large or a closure is shared).
        #[derive(Clone)]
        pub(crate) enum Constraint<'a> {
            $($(#[$doc])* $kind($data),)*
        }

        impl<'a> Constraint<'a> {
            /// Its kind: its meaning and its propagator.
            pub(crate) fn kind(&self) -> &(dyn Kind<'a> + 'a) {
                match self {
                    $(Constraint::$kind(c) => c,)*
                }
            }

            /// Its meaning (the same as [`kind`](Self::kind)'s).
            pub(crate) fn meaning(&self) -> &(dyn Meaning + 'a) {
                match self {
                    $(Constraint::$kind(c) => c,)*
                }
            }
        }
    };
}

kinds! {
    /// The values of some terms differ (integers with offsets, or any values).
    AllDifferent(AllDifferentDef),
    /// `Σ coefficient × value` compared to a constant.
    Linear(LinearDef),
    /// The tuple of some variables' values is one of a list.
    Table(TableDef),
    /// A Rust closure over value indices.
    Predicate(PredicateDef<'a>),
    /// A user's own [`Propagator`](crate::Propagator).
    Custom(CustomDef<'a>),
    Clause(Arc<Clause>),
    LinearReif(Arc<LinearReif>),
    Xor(Arc<Xor>),
    Monotone(Arc<Monotone>),
    Disjunctive(Arc<Disjunctive>),
    Cumulative(Arc<Cumulative>),
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
    BinPacking(Arc<BinPacking>),
    ValuePrecede(Arc<ValuePrecede>),
    Diffn(Arc<Diffn>),
}

impl Constraint<'_> {
    /// The variables the constraint mentions.
    pub(crate) fn vars(&self) -> Vec<VarId> {
        self.meaning().vars().into_owned()
    }

    /// How many variables it mentions (a variable may repeat).
    pub(crate) fn arity(&self) -> usize {
        match self {
            Constraint::Linear(c) => c.terms.len(),
            other => other.meaning().vars().len(),
        }
    }

    /// The variable at `position` of its [`vars`](Self::vars).
    pub(crate) fn var_at(&self, position: usize) -> VarId {
        match self {
            Constraint::Linear(c) => c.terms[position].0,
            other => other.meaning().vars()[position],
        }
    }

    /// Whether the constraint holds when each variable `v` takes value index `values[v]`.
    pub(crate) fn check(&self, values: &[u32]) -> bool {
        self.meaning().holds(values)
    }

    /// A necessary condition while only some variables are chosen: false means no choice
    /// of the others can satisfy the constraint. A linear constraint checks that the
    /// unchosen terms can still reach the right-hand side; others wait for
    /// [`check`](Self::check) (the replay program checks all-different pairs itself).
    pub(crate) fn may_hold(&self, values: &[u32], chosen: impl Fn(VarId) -> bool) -> bool {
        let Constraint::Linear(c) = self else {
            return true;
        };
        let (low, high) = c.reach(values, chosen);
        let rhs = i128::from(c.rhs);
        match c.cmp {
            Cmp::Eq => low <= rhs && rhs <= high,
            Cmp::Ne => low != high || low != rhs,
            Cmp::Lt => low < rhs,
            Cmp::Le => low <= rhs,
            Cmp::Gt => high > rhs,
            Cmp::Ge => high >= rhs,
        }
    }

    /// A short description for error messages and debugging.
    pub(crate) fn describe(&self) -> String {
        self.meaning().describe()
    }
}

impl fmt::Debug for Constraint<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}
