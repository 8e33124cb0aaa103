//! Optimisation: the iterator of improving solutions a branch-and-bound search yields,
//! and the [`Best`] solution it ends with.

use std::fmt;
use std::ops::Deref;
use std::time::Duration;

use super::handle::SearchHandle;
use super::solutions::Solutions;
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::stats::Stats;

/// A solution better than every one found before it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Improvement<T> {
    /// The solution.
    pub solution: T,
    /// The objective's value at it (the first objective's, in a lexicographic
    /// optimisation).
    pub objective: i64,
    /// Every objective's value at it, in order: `[objective]`, or more in a
    /// lexicographic optimisation ([`Model::then_objective`](crate::Model::then_objective)).
    pub objectives: Vec<i64>,
    /// The search time spent when it was found.
    pub found_after: Duration,
}

/// The outcome of an optimisation: the best solution found, and whether it is proved
/// optimal.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Best<T> {
    /// The best solution found; `None` if there is none (`proved`) or none was found
    /// before a limit stopped the search.
    pub solution: Option<T>,
    /// The objective's value at `solution` (the first objective's, in a lexicographic
    /// optimisation).
    pub objective: Option<i64>,
    /// Every objective's value at `solution`, in order (empty without a solution): in a
    /// lexicographic optimisation, `proved` means that each is optimal given those
    /// before it.
    pub objectives: Vec<i64>,
    /// Whether the search was exhausted: `solution` is optimal, or, if it is `None`, the
    /// model has no solution at all.
    pub proved: bool,
    /// Why the search stopped ([`StopReason::Exhausted`] exactly when `proved`).
    pub stop_reason: StopReason,
    /// How many improving solutions were found, the best one included.
    pub improvements: u64,
    /// What the search did.
    pub stats: Stats,
}

/// A branch-and-bound search: a lazy iterator of [`Improvement`]s, each strictly better
/// than the last. Start one with [`Solver::improving`](crate::Solver::improving) or
/// [`Puzzle::improving`](crate::Puzzle::improving).
///
/// It dereferences to the [`SearchHandle`] of its search: when it ends,
/// [`stop_reason`](SearchHandle::stop_reason) says whether the last improvement is proved
/// optimal ([`StopReason::Exhausted`]) or a limit stopped the search. Like [`Solutions`], it panics if the search cannot go on;
/// [`fallible`](Improving::fallible) yields the error instead.
pub struct Improving<'a, T> {
    inner: Solutions<'a, T>,
    improvements: u64,
}

impl<'a, T> Improving<'a, T> {
    pub(super) fn new(inner: Solutions<'a, T>) -> Self {
        Improving {
            inner,
            improvements: 0,
        }
    }

    /// The same search, yielding `Ok(improvement)`s and, if it cannot go on, one
    /// `Err(error)` instead of panicking.
    pub fn fallible(self) -> TryImproving<'a, T> {
        TryImproving {
            inner: self,
            reported: false,
        }
    }

    /// Runs the search to its end and returns the best solution found.
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn best(self) -> Result<Best<T>, SearchError> {
        let mut iter = self.fallible();
        let mut last = None;
        for improvement in iter.by_ref() {
            last = Some(improvement?);
        }
        let inner = iter.inner;
        let stop_reason = inner.stop_reason().unwrap_or(StopReason::Exhausted);
        let (solution, objective, objectives) = match last {
            Some(Improvement {
                solution,
                objective,
                objectives,
                ..
            }) => (Some(solution), Some(objective), objectives),
            None => (None, None, Vec::new()),
        };
        Ok(Best {
            solution,
            objective,
            objectives,
            proved: stop_reason == StopReason::Exhausted,
            stop_reason,
            improvements: inner.improvements,
            stats: inner.stats(),
        })
    }

    fn try_next(&mut self) -> Option<Result<Improvement<T>, SearchError>> {
        match self.inner.handle.try_next_scored()? {
            Ok((solution, objectives)) => {
                let objective = *objectives
                    .first()
                    .expect("an optimising engine scores every solution");
                self.improvements += 1;
                Some(Ok(Improvement {
                    solution,
                    objective,
                    objectives,
                    found_after: self.inner.stats().elapsed,
                }))
            }
            Err(error) => Some(Err(error)),
        }
    }
}

impl<'a, T> Deref for Improving<'a, T> {
    type Target = SearchHandle<'a, T>;

    fn deref(&self) -> &SearchHandle<'a, T> {
        &self.inner.handle
    }
}

impl<T> Iterator for Improving<'_, T> {
    type Item = Improvement<T>;

    fn next(&mut self) -> Option<Improvement<T>> {
        match self.try_next()? {
            Ok(improvement) => Some(improvement),
            Err(error) => {
                panic!("ambsolve: {error} (try_improving() yields this error instead of panicking)")
            }
        }
    }
}

impl<T> fmt::Debug for Improving<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Improving")
            .field("improvements", &self.improvements)
            .field("stop_reason", &self.stop_reason())
            .field("error", &self.error())
            .finish_non_exhaustive()
    }
}

/// An [`Improving`] search whose items are `Result`s: `Ok(improvement)`s, then one
/// `Err(error)` if the search cannot go on.
pub struct TryImproving<'a, T> {
    inner: Improving<'a, T>,
    reported: bool,
}

impl<'a, T> Deref for TryImproving<'a, T> {
    type Target = SearchHandle<'a, T>;

    fn deref(&self) -> &SearchHandle<'a, T> {
        &self.inner.inner.handle
    }
}

impl<T> Iterator for TryImproving<'_, T> {
    type Item = Result<Improvement<T>, SearchError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.reported {
            return None;
        }
        let next = self.inner.try_next();
        self.reported = matches!(next, Some(Err(_)));
        next
    }
}

impl<T> fmt::Debug for TryImproving<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}
