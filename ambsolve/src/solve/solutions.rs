//! The lazy iterators a search is consumed through ([`Solutions`], [`TrySolutions`]), both
//! dereferencing to its [`SearchHandle`], and the [`Summary`] of a count.

use std::fmt;
use std::ops::Deref;
use std::time::{Duration, Instant};

use super::handle::SearchHandle;
use super::{BoxedSearch, Start};
use crate::control::{Control, Counted, Search, Step};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::options::Options;
use crate::stats::Stats;

/// A running search whose solutions go through a function.
pub(super) struct MappedSearch<'a, T, F> {
    inner: BoxedSearch<'a, T>,
    f: F,
}

impl<'a, T, F> MappedSearch<'a, T, F> {
    pub(super) fn new(inner: BoxedSearch<'a, T>, f: F) -> Self {
        MappedSearch { inner, f }
    }
}

impl<T, U, F: FnMut(T) -> U> Search for MappedSearch<'_, T, F> {
    type Item = U;

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        self.inner.advance(control)
    }

    fn take_solution(&mut self) -> U {
        (self.f)(self.inner.take_solution())
    }

    fn stats(&self) -> Stats {
        self.inner.stats()
    }

    fn progress(&self) -> f64 {
        self.inner.progress()
    }

    fn objective(&self) -> Option<i64> {
        self.inner.objective()
    }

    fn objectives(&self) -> Vec<i64> {
        self.inner.objectives()
    }

    fn path(&self) -> Vec<u32> {
        self.inner.path()
    }

    fn weight(&self) -> u64 {
        self.inner.weight()
    }

    fn subproblems(&self) -> Option<(usize, usize)> {
        self.inner.subproblems()
    }

    fn workers(&self) -> Vec<Duration> {
        self.inner.workers()
    }

    fn count(&mut self, control: &mut Control, max: u64) -> Result<Counted, SearchError> {
        self.inner.count(control, max)
    }
}

/// The result of a count: how many solutions, why the search stopped, and its statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Solutions counted. Counting through symmetry, each representative found counts as
    /// the size of its class, so this is the plain count (and `stats.solutions` the
    /// number of representatives).
    pub solutions: u64,
    /// Why the search stopped; the count is exact only if this is
    /// [`StopReason::Exhausted`].
    pub stop_reason: StopReason,
    /// What the search did.
    pub stats: Stats,
}

/// A running search: a lazy iterator of solutions.
///
/// Nothing is searched until [`next`](Iterator::next) is called, and each call searches
/// only as far as the next solution. It dereferences to the [`SearchHandle`] of its search:
/// when the iterator ends, [`stop_reason`](SearchHandle::stop_reason) says why, and
/// [`stats`](SearchHandle::stats), [`progress`](SearchHandle::progress) and the others tell
/// what the search did.
///
/// # Panics
/// A search that cannot go on is never mistaken for "no more solutions": if the model is
/// invalid ([`SearchError::InvalidModel`]) or a replayed `amb` program turns out not to be
/// deterministic, `next` panics with the error's message, as indexing out of bounds does.
/// To handle the error instead, use [`fallible`](Solutions::fallible) (or
/// `try_solutions()` on the solver or puzzle), whose items are `Result`s; `first()` and
/// `count()` return it too.
pub struct Solutions<'a, T> {
    pub(super) handle: SearchHandle<'a, T>,
}

impl<'a, T> Solutions<'a, T> {
    /// Starts a search with `options` (the engine is built now, the search runs lazily).
    pub(super) fn start(start: Start<'a, T>, options: Options) -> Self {
        Solutions {
            handle: SearchHandle::start(start, options),
        }
    }

    /// The same search, yielding `Ok(solution)`s and, if it cannot go on, one
    /// `Err(error)` instead of panicking.
    pub fn fallible(self) -> TrySolutions<'a, T> {
        TrySolutions {
            inner: self,
            reported: false,
        }
    }

    /// Counts the remaining solutions without building them. Counting through symmetry
    /// ([`Solver::count_through_symmetry`](crate::Solver::count_through_symmetry)), each
    /// representative found counts as the size of its class.
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count_all(&mut self) -> Result<u64, SearchError> {
        self.handle.count_while(None)
    }

    /// Counts solutions for about `budget` of wall time, then returns how many it found
    /// (weighed as [`count_all`](Solutions::count_all) does). The search is not stopped:
    /// call again to go on (see [`stop_reason`](SearchHandle::stop_reason) to know whether
    /// it ended). This is how a long count shows progress.
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count_for(&mut self, budget: Duration) -> Result<u64, SearchError> {
        self.handle.count_while(Some(Instant::now() + budget))
    }

    /// Counts the remaining solutions and summarizes the search.
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn summarize(mut self) -> Result<Summary, SearchError> {
        let solutions = self.count_all()?;
        Ok(Summary {
            solutions,
            stop_reason: self.stop_reason().unwrap_or(StopReason::Exhausted),
            stats: self.stats(),
        })
    }
}

impl<'a, T> Deref for Solutions<'a, T> {
    type Target = SearchHandle<'a, T>;

    fn deref(&self) -> &SearchHandle<'a, T> {
        &self.handle
    }
}

impl<T> Iterator for Solutions<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self.handle.try_next()? {
            Ok(solution) => Some(solution),
            Err(error) => {
                panic!("ambsolve: {error} (try_solutions() yields this error instead of panicking)")
            }
        }
    }
}

impl<T> fmt::Debug for Solutions<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions")
            .field("solutions", &self.handle.found())
            .field("stop_reason", &self.stop_reason())
            .field("error", &self.error())
            .finish_non_exhaustive()
    }
}

/// A running search whose items are `Result`s: `Ok(solution)`s, then, if the search
/// cannot go on (an invalid model, a replayed program that is not deterministic), one
/// `Err(error)`. After the error, or when the search stops, it yields `None`.
///
/// ```
/// use ambsolve::{Model, SearchError, Engine};
///
/// let mut other = Model::new();
/// let _ = other.var(0..3);
/// let stranger = other.var(0..3); // the second variable of another model
/// let mut m = Model::new();
/// let x = m.var(0..3);
/// m.all_different([&x, &stranger]);
/// let results: Vec<_> = m.solve(Engine::Trail).try_solutions().collect();
/// assert!(matches!(results[..], [Err(SearchError::InvalidModel(_))]));
/// ```
pub struct TrySolutions<'a, T> {
    inner: Solutions<'a, T>,
    reported: bool,
}

impl<T> TrySolutions<'_, T> {
    /// Counts the remaining solutions without building them (see
    /// [`Solutions::count_all`]).
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count_all(&mut self) -> Result<u64, SearchError> {
        self.inner.count_all()
    }

    /// Counts solutions for about `budget` of wall time (see [`Solutions::count_for`]).
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count_for(&mut self, budget: Duration) -> Result<u64, SearchError> {
        self.inner.count_for(budget)
    }
}

impl<'a, T> Deref for TrySolutions<'a, T> {
    type Target = SearchHandle<'a, T>;

    fn deref(&self) -> &SearchHandle<'a, T> {
        &self.inner.handle
    }
}

impl<T> Iterator for TrySolutions<'_, T> {
    type Item = Result<T, SearchError>;

    fn next(&mut self) -> Option<Result<T, SearchError>> {
        if self.reported {
            return None;
        }
        let next = self.inner.handle.try_next();
        self.reported = matches!(next, Some(Err(_)));
        next
    }
}

impl<T> fmt::Debug for TrySolutions<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}
