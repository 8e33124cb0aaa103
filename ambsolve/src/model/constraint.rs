//! Constraints as the model states them, each with a plain check over a full assignment.
//!
//! The check is the meaning of a constraint: the replay engine uses it, tests compare
//! every engine's solutions against it, and the trail engine's propagators must agree.

use std::fmt;
use std::sync::Arc;

use hashbrown::HashSet;

use crate::model::term::Cmp;
use crate::propagator::{Propagator, holds};
use crate::var::VarId;

/// The keys that must differ, per term of an all-different: `index + shift` when the
/// images are consecutive, else an explicit key per value index.
#[derive(Clone, Debug)]
pub(crate) enum Keys {
    Shift(i64),
    Map(Arc<[i64]>),
}

impl Keys {
    /// Keys from the images of a value list plus an offset, in the cheapest form.
    pub(crate) fn from_images(images: &[i64], offset: i64) -> Keys {
        let first = images.first().copied().unwrap_or(0);
        if images
            .iter()
            .zip(first..)
            .all(|(&k, expected)| k == expected)
        {
            Keys::Shift(first + offset)
        } else {
            Keys::Map(images.iter().map(|k| k + offset).collect())
        }
    }

    /// The same keys plus `offset`.
    pub(crate) fn offset(&self, offset: i64) -> Keys {
        match self {
            Keys::Shift(shift) => Keys::Shift(shift + offset),
            Keys::Map(keys) => Keys::Map(keys.iter().map(|k| k + offset).collect()),
        }
    }

    #[inline]
    pub(crate) fn key(&self, index: u32) -> i64 {
        match self {
            Keys::Shift(shift) => i64::from(index) + shift,
            Keys::Map(keys) => keys[index as usize],
        }
    }
}

#[derive(Clone)]
pub(crate) struct AllDifferentDef {
    pub(crate) vars: Vec<VarId>,
    pub(crate) keys: Vec<Keys>,
}

#[derive(Clone)]
pub(crate) struct LinearDef {
    /// Terms: variable, coefficient, integer image of each value index.
    pub(crate) terms: Vec<(VarId, i64, Arc<[i64]>)>,
    /// Per term, the smallest and largest contribution over all its values.
    pub(crate) extremes: Vec<(i128, i128)>,
    pub(crate) cmp: Cmp,
    pub(crate) rhs: i64,
}

#[derive(Clone)]
pub(crate) struct TableDef {
    pub(crate) vars: Vec<VarId>,
    /// Allowed tuples of value indices, flattened, `vars.len()` per tuple.
    pub(crate) tuples: Arc<[u32]>,
    pub(crate) allowed: Arc<HashSet<Box<[u32]>>>,
}

pub(crate) type Check<'a> = Arc<dyn Fn(&[u32]) -> bool + Send + Sync + 'a>;

#[derive(Clone)]
pub(crate) struct PredicateDef<'a> {
    pub(crate) vars: Arc<[VarId]>,
    /// The condition over the value indices of `vars`, in order.
    pub(crate) check: Check<'a>,
}

#[derive(Clone)]
pub(crate) struct CustomDef<'a> {
    pub(crate) vars: Arc<[VarId]>,
    pub(crate) propagator: Arc<dyn Propagator + 'a>,
}

/// A constraint of a model: plain data, cheap to clone (what is large or a closure is
/// shared).
#[derive(Clone)]
pub(crate) enum Constraint<'a> {
    AllDifferent(AllDifferentDef),
    Linear(LinearDef),
    Table(TableDef),
    Predicate(PredicateDef<'a>),
    Custom(CustomDef<'a>),
}

impl Constraint<'_> {
    /// The variables the constraint mentions.
    pub(crate) fn vars(&self) -> Vec<VarId> {
        match self {
            Constraint::AllDifferent(c) => c.vars.clone(),
            Constraint::Linear(c) => c.terms.iter().map(|t| t.0).collect(),
            Constraint::Table(c) => c.vars.clone(),
            Constraint::Predicate(c) => c.vars.to_vec(),
            Constraint::Custom(c) => c.vars.to_vec(),
        }
    }

    /// Whether the constraint holds when each variable `v` takes value index `values[v]`.
    /// `universes` gives each variable's number of values.
    pub(crate) fn check(&self, values: &[u32], universes: &[u32]) -> bool {
        let at = |v: VarId| values[v.index()];
        match self {
            Constraint::AllDifferent(c) => {
                let mut seen = HashSet::with_capacity(c.vars.len());
                c.vars
                    .iter()
                    .zip(&c.keys)
                    .all(|(&v, keys)| seen.insert(keys.key(at(v))))
            }
            Constraint::Linear(c) => {
                let sum: i128 = c
                    .terms
                    .iter()
                    .map(|(v, coef, images)| {
                        i128::from(*coef) * i128::from(images[at(*v) as usize])
                    })
                    .sum();
                c.cmp.holds(sum, i128::from(c.rhs))
            }
            Constraint::Table(c) => {
                let tuple: Vec<u32> = c.vars.iter().map(|&v| at(v)).collect();
                c.allowed.contains(tuple.as_slice())
            }
            Constraint::Predicate(c) => {
                let tuple: smallvec::SmallVec<[u32; 8]> = c.vars.iter().map(|&v| at(v)).collect();
                (c.check)(&tuple)
            }
            Constraint::Custom(c) => holds(&*c.propagator, &c.vars, values, universes),
        }
    }

    /// A necessary condition while only some variables are chosen: false means no choice
    /// of the others can satisfy the constraint. A linear constraint checks that the
    /// unchosen terms can still reach the right-hand side; others wait for
    /// [`check`](Self::check) (the replay program checks all-different pairs itself).
    pub(crate) fn may_hold(&self, values: &[u32], chosen: impl Fn(VarId) -> bool) -> bool {
        match self {
            Constraint::Linear(c) => {
                let (mut low, mut high) = (0i128, 0i128);
                for ((v, coef, images), &(lo, hi)) in c.terms.iter().zip(&c.extremes) {
                    if chosen(*v) {
                        let x = i128::from(*coef) * i128::from(images[values[v.index()] as usize]);
                        (low, high) = (low + x, high + x);
                    } else {
                        (low, high) = (low + lo, high + hi);
                    }
                }
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
            Constraint::AllDifferent(_)
            | Constraint::Table(_)
            | Constraint::Predicate(_)
            | Constraint::Custom(_) => true,
        }
    }

    /// A short description for error messages and debugging.
    pub(crate) fn describe(&self) -> String {
        match self {
            Constraint::AllDifferent(c) => format!("all_different over {} variables", c.vars.len()),
            Constraint::Linear(c) => format!(
                "linear sum of {} terms {:?} {}",
                c.terms.len(),
                c.cmp,
                c.rhs
            ),
            Constraint::Table(c) => format!(
                "table over {} variables with {} tuples",
                c.vars.len(),
                c.tuples.len() / c.vars.len().max(1)
            ),
            Constraint::Predicate(c) => format!("predicate over {} variables", c.vars.len()),
            Constraint::Custom(c) => format!("custom propagator over {} variables", c.vars.len()),
        }
    }
}

impl fmt::Debug for Constraint<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}
