//! Why a model has no solution: a minimal set of its parts (named blocks, constraints,
//! narrowed domains) that cannot hold together, found by QuickXplain (Junker, 2004) over
//! the parts, each check a search for one solution on the trail engine.

use std::fmt;

use crate::error::SearchError;
use crate::limits::{Limits, StopReason};
use crate::model::{Model, Part, Piece};
use crate::options::Engine;
use crate::strategy::Strategy;

/// What [`Model::explain_infeasible`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Infeasibility {
    /// The model has a solution: nothing conflicts.
    Satisfiable,
    /// A minimal set of the model's parts that no assignment satisfies together: give up
    /// any one of them and the others have a solution. Empty when a variable has no
    /// value at all.
    Conflict(Vec<Part>),
    /// A check stopped at the limits before it knew (the limits' reason).
    Unknown(StopReason),
}

impl Infeasibility {
    /// The conflicting parts, if a conflict was found.
    pub fn conflict(&self) -> Option<&[Part]> {
        match self {
            Infeasibility::Conflict(parts) => Some(parts),
            _ => None,
        }
    }
}

impl fmt::Display for Infeasibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Infeasibility::Satisfiable => f.write_str("the model has a solution"),
            Infeasibility::Conflict(parts) if parts.is_empty() => {
                f.write_str("a variable has no value at all")
            }
            Infeasibility::Conflict(parts) => {
                f.write_str("these cannot hold together:")?;
                for part in parts {
                    write!(f, "\n  {part}")?;
                }
                Ok(())
            }
            Infeasibility::Unknown(reason) => {
                write!(f, "no answer within the limits (stopped: {reason:?})")
            }
        }
    }
}

/// The search for a conflict: the parts, and how to check a set of them.
struct Explainer<'m, 'a> {
    model: &'m Model<'a>,
    pieces: Vec<Piece>,
    limits: Limits,
}

impl Explainer<'_, '_> {
    /// Whether the parts `chosen` have a solution together.
    fn consistent(&self, chosen: &[usize]) -> Result<Result<bool, StopReason>, SearchError> {
        let pieces: Vec<&Piece> = chosen.iter().map(|&k| &self.pieces[k]).collect();
        let summary = self
            .model
            .only(&pieces)
            .solve(Engine::Trail)
            .strategy(Strategy::first_fail())
            .limits(self.limits.clone().solutions(1))
            .count()?;
        Ok(if summary.solutions > 0 {
            Ok(true)
        } else if summary.stop_reason.is_complete() {
            Ok(false)
        } else {
            Err(summary.stop_reason)
        })
    }

    /// QuickXplain: a minimal subset of `candidates` that conflicts with `background`
    /// (which has a solution; `background` with all of `candidates` has none). `grew`:
    /// whether `background` grew since it was last found to have a solution.
    fn quick_xplain(
        &self,
        background: &[usize],
        grew: bool,
        candidates: &[usize],
    ) -> Result<Result<Vec<usize>, StopReason>, SearchError> {
        if grew {
            match self.consistent(background)? {
                Ok(false) => return Ok(Ok(Vec::new())),
                Ok(true) => {}
                Err(reason) => return Ok(Err(reason)),
            }
        }
        if candidates.len() == 1 {
            return Ok(Ok(candidates.to_vec()));
        }
        let (first, second) = candidates.split_at(candidates.len() / 2);
        let with_first: Vec<usize> = background.iter().chain(first).copied().collect();
        let found_second = match self.quick_xplain(&with_first, true, second)? {
            Ok(found) => found,
            Err(reason) => return Ok(Err(reason)),
        };
        let with_second: Vec<usize> = background.iter().chain(&found_second).copied().collect();
        let found_first = match self.quick_xplain(&with_second, !found_second.is_empty(), first)? {
            Ok(found) => found,
            Err(reason) => return Ok(Err(reason)),
        };
        Ok(Ok(found_first.into_iter().chain(found_second).collect()))
    }
}

impl Model<'_> {
    /// Why the model has no solution: a minimal set of its parts that cannot hold
    /// together (removing any one of them leaves a set that has a solution). The parts
    /// are the blocks of constraints named with [`named`](Model::named), each other
    /// constraint, and each variable's domain as [`restrict`](Model::restrict) (or a
    /// condition of `constraints!` on one choice) narrowed it. The objective, symmetries
    /// and hints play no part.
    ///
    /// QuickXplain (Junker, 2004) over the parts: each check is a search for one solution
    /// (trail engine, first-fail), a few times the size of the conflict found times the
    /// logarithm of the number of parts. Each check runs without limits; see
    /// [`explain_infeasible_within`](Model::explain_infeasible_within).
    ///
    /// ```
    /// use ambsolve::{Infeasibility, Model};
    ///
    /// // Three pigeons, two holes: the all-different of the three conflicts; the fourth
    /// // variable plays no part.
    /// let mut m = Model::new();
    /// let p = m.vars("pigeon", 3, 0..2i64);
    /// let q = m.named_var("q", 0..2i64);
    /// m.all_different(&p);
    /// m.all_different([&p[0], &q]);
    /// let why = m.explain_infeasible()?;
    /// assert_eq!(why.conflict().map(|parts| parts.len()), Some(1));
    /// assert!(why.to_string().contains("pigeon[0]"));
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    ///
    /// # Errors
    /// What a search returns: [`SearchError::InvalidModel`] for a model built wrongly.
    pub fn explain_infeasible(&self) -> Result<Infeasibility, SearchError> {
        self.explain_infeasible_within(Limits::new())
    }

    /// [`explain_infeasible`](Model::explain_infeasible) with `limits` on each check (a
    /// time limit, a node limit, a cancel flag): a check stopped by them answers
    /// [`Infeasibility::Unknown`].
    ///
    /// # Errors
    /// As [`explain_infeasible`](Model::explain_infeasible).
    pub fn explain_infeasible_within(&self, limits: Limits) -> Result<Infeasibility, SearchError> {
        let (parts, pieces): (Vec<Part>, Vec<Piece>) = self.parts().into_iter().unzip();
        let explainer = Explainer {
            model: self,
            pieces,
            limits,
        };
        let all: Vec<usize> = (0..parts.len()).collect();
        match explainer.consistent(&all)? {
            Ok(true) => return Ok(Infeasibility::Satisfiable),
            Ok(false) => {}
            Err(reason) => return Ok(Infeasibility::Unknown(reason)),
        }
        // The empty set has a solution unless a variable has no value at all.
        match explainer.consistent(&[])? {
            Ok(false) => return Ok(Infeasibility::Conflict(Vec::new())),
            Ok(true) => {}
            Err(reason) => return Ok(Infeasibility::Unknown(reason)),
        }
        match explainer.quick_xplain(&[], false, &all)? {
            Ok(mut found) => {
                found.sort_unstable();
                Ok(Infeasibility::Conflict(
                    found.into_iter().map(|k| parts[k].clone()).collect(),
                ))
            }
            Err(reason) => Ok(Infeasibility::Unknown(reason)),
        }
    }
}
