//! The lazy iterators a search is consumed through ([`Solutions`], [`TrySolutions`]) and
//! the [`Summary`] of a count.

use std::fmt;
use std::time::{Duration, Instant};

use super::{Running, Start};
use crate::control::{Control, Counted, Interrupt, Search, Step};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::options::Options;
use crate::stats::Stats;

/// A running search whose solutions go through a function.
pub(super) struct MappedSearch<'a, T, F> {
    inner: Running<'a, T>,
    f: F,
}

impl<'a, T, F> MappedSearch<'a, T, F> {
    pub(super) fn new(inner: Running<'a, T>, f: F) -> Self {
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

/// Where a search stands.
enum Status {
    Running,
    Stopped(StopReason),
    Failed(SearchError),
}

/// A running search: a lazy iterator of solutions.
///
/// Nothing is searched until [`next`](Iterator::next) is called, and each call searches
/// only as far as the next solution. When the iterator ends,
/// [`stop_reason`](Solutions::stop_reason) says why.
///
/// # Panics
/// A search that cannot go on is never mistaken for "no more solutions": if the model is
/// invalid ([`SearchError::InvalidModel`]) or a replayed `amb` program turns out not to be
/// deterministic, `next` panics with the error's message, as indexing out of bounds does.
/// To handle the error instead, use [`fallible`](Solutions::fallible) (or
/// `try_solutions()` on the solver or puzzle), whose items are `Result`s; `first()` and
/// `count()` return it too.
pub struct Solutions<'a, T> {
    search: Option<Running<'a, T>>,
    control: Control,
    status: Status,
    /// Set while the engine runs: still set on entry means a panic unwound out of it.
    searching: bool,
    solutions: u64,
    busy: Duration,
}

impl<'a, T> Solutions<'a, T> {
    /// Starts a search with `options` (the engine is built now, the search runs lazily).
    pub(super) fn start(start: Start<'a, T>, options: Options) -> Self {
        let control = Control::new(options.limits.clone());
        let (search, status) = match start(&options) {
            Ok(_) if control.solution_limit() == Some(0) => {
                (None, Status::Stopped(StopReason::SolutionLimit))
            }
            Ok(search) => (Some(search), Status::Running),
            Err(error) => (None, Status::Failed(error)),
        };
        Solutions {
            search,
            control,
            status,
            searching: false,
            solutions: 0,
            busy: Duration::ZERO,
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

    /// Why the search stopped, or `None` while it can still yield solutions.
    /// A search ended by an error reports `None` here and the error in
    /// [`error`](Solutions::error).
    pub fn stop_reason(&self) -> Option<StopReason> {
        match self.status {
            Status::Stopped(reason) => Some(reason),
            Status::Running | Status::Failed(_) => None,
        }
    }

    /// Whether the search is over: stopped (see [`stop_reason`](Solutions::stop_reason))
    /// or ended by an error (see [`error`](Solutions::error)).
    pub fn is_finished(&self) -> bool {
        !matches!(self.status, Status::Running)
    }

    /// The error that ended the search, if one did.
    pub fn error(&self) -> Option<&SearchError> {
        match &self.status {
            Status::Failed(error) => Some(error),
            Status::Running | Status::Stopped(_) => None,
        }
    }

    /// Statistics so far, including the time spent searching.
    pub fn stats(&self) -> Stats {
        let mut stats = self.search.as_ref().map(|e| e.stats()).unwrap_or_default();
        stats.elapsed = self.busy;
        stats
    }

    /// The share of the search tree finished so far, in `0.0..=1.0`, estimated from the
    /// open choice frames (the first choice's finished alternatives weigh most).
    pub fn progress(&self) -> f64 {
        match (&self.status, &self.search) {
            (Status::Stopped(StopReason::Exhausted), _) => 1.0,
            (_, Some(search)) => search.progress(),
            (_, None) => 0.0,
        }
    }

    /// A search cut into subproblems (on several threads, or resumable): how many of
    /// them are finished, and how many there are. `None` before the search has started,
    /// and for a search in one piece.
    pub fn subproblems(&self) -> Option<(usize, usize)> {
        self.search.as_ref().and_then(|s| s.subproblems())
    }

    /// A search on several threads: the time each thread spent searching so far. How
    /// evenly the work was spread is the longest of them over their mean.
    pub fn worker_times(&self) -> Vec<Duration> {
        self.search
            .as_ref()
            .map(|s| s.workers())
            .unwrap_or_default()
    }

    /// Counts the remaining solutions without building them. Counting through symmetry
    /// ([`Solver::count_through_symmetry`](crate::Solver::count_through_symmetry)), each
    /// representative found counts as the size of its class.
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count_all(&mut self) -> Result<u64, SearchError> {
        self.count_while(None)
    }

    /// Counts solutions for about `budget` of wall time, then returns how many it found
    /// (weighed as [`count_all`](Solutions::count_all) does). The search is not stopped: call again to go on (see
    /// [`stop_reason`](Solutions::stop_reason) to know whether it ended). This is how a
    /// long count shows progress.
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count_for(&mut self, budget: Duration) -> Result<u64, SearchError> {
        self.count_while(Some(Instant::now() + budget))
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

    /// Counts until the search stops or pauses at `pause_at`: each solution adds its
    /// engine's [`weight`](Search::weight) (the solution limit, checked in `step`, counts
    /// solutions found, not weights).
    fn count_while(&mut self, pause_at: Option<Instant>) -> Result<u64, SearchError> {
        let started = Instant::now();
        self.resume();
        self.control.set_pause(pause_at);
        let mut found = 0;
        if let (Status::Running, Some(search)) = (&self.status, self.search.as_mut()) {
            let max = self
                .control
                .solution_limit()
                .map_or(u64::MAX, |limit| limit.saturating_sub(self.solutions));
            self.searching = true;
            let counted = search.count(&mut self.control, max);
            self.searching = false;
            match counted {
                Ok(counted) => {
                    self.solutions += counted.found;
                    found = counted.weighted;
                    match counted.end {
                        None => self.status = Status::Stopped(StopReason::SolutionLimit),
                        Some(Interrupt::Stop(reason)) => self.status = Status::Stopped(reason),
                        Some(Interrupt::Pause) => {}
                    }
                }
                Err(error) => self.status = Status::Failed(error),
            }
        }
        self.control.set_pause(None);
        self.busy += started.elapsed();
        match self.error() {
            Some(error) => Err(error.clone()),
            None => Ok(found),
        }
    }

    /// Before resuming: a limit already reached stops the search at once, and a search a
    /// panic unwound out of (a user's predicate or propagator panicked) is not continued.
    fn resume(&mut self) {
        if !matches!(self.status, Status::Running) {
            return;
        }
        if self.searching {
            self.status = Status::Failed(SearchError::Unwound);
        } else if let Some(reason) = self.control.stopped() {
            self.status = Status::Stopped(reason);
        }
    }

    /// Searches to the next solution; `true` if the search stands on one.
    fn step(&mut self) -> bool {
        let Status::Running = self.status else {
            return false;
        };
        let Some(search) = self.search.as_mut() else {
            return false;
        };
        self.searching = true;
        let mut step = search.advance(&mut self.control);
        while let Ok(Step::Cut) = step {
            step = search.advance(&mut self.control);
        }
        self.searching = false;
        match step {
            Ok(Step::Solution) => {
                self.solutions += 1;
                if self
                    .control
                    .solution_limit()
                    .is_some_and(|max| self.solutions >= max)
                {
                    self.status = Status::Stopped(StopReason::SolutionLimit);
                }
                true
            }
            Ok(Step::Interrupted(Interrupt::Stop(reason))) => {
                self.status = Status::Stopped(reason);
                false
            }
            Ok(Step::Interrupted(Interrupt::Pause) | Step::Cut) => false,
            Err(error) => {
                self.status = Status::Failed(error);
                false
            }
        }
    }

    /// The next solution, `Err` if the search cannot go on, `None` when it has stopped.
    pub(super) fn try_next(&mut self) -> Option<Result<T, SearchError>> {
        self.try_next_scored()
            .map(|r| r.map(|(solution, _)| solution))
    }

    /// As [`try_next`](Solutions::try_next), with the objective's value at the solution
    /// when the search optimises.
    pub(super) fn try_next_scored(&mut self) -> Option<Result<(T, Option<i64>), SearchError>> {
        let started = Instant::now();
        self.resume();
        let found = self.step();
        self.busy += started.elapsed();
        if found {
            return self.search.as_mut().map(|search| {
                let value = search.objective();
                Ok((search.take_solution(), value))
            });
        }
        self.error().cloned().map(Err)
    }
}

impl<T> Iterator for Solutions<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self.try_next()? {
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
            .field("solutions", &self.solutions)
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
    /// Why the search stopped, or `None` while it can still yield solutions (or after an
    /// error: see [`error`](TrySolutions::error)).
    pub fn stop_reason(&self) -> Option<StopReason> {
        self.inner.stop_reason()
    }

    /// The error that ended the search, if one did.
    pub fn error(&self) -> Option<&SearchError> {
        self.inner.error()
    }

    /// Whether the search is over (stopped, or ended by an error).
    pub fn is_finished(&self) -> bool {
        self.inner.is_finished()
    }

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

    /// Statistics so far, including the time spent searching.
    pub fn stats(&self) -> Stats {
        self.inner.stats()
    }

    /// The share of the search tree finished so far, in `0.0..=1.0`.
    pub fn progress(&self) -> f64 {
        self.inner.progress()
    }

    /// Subproblems finished and in all (see [`Solutions::subproblems`]).
    pub fn subproblems(&self) -> Option<(usize, usize)> {
        self.inner.subproblems()
    }

    /// The time each worker thread spent searching (see [`Solutions::worker_times`]).
    pub fn worker_times(&self) -> Vec<Duration> {
        self.inner.worker_times()
    }
}

impl<T> Iterator for TrySolutions<'_, T> {
    type Item = Result<T, SearchError>;

    fn next(&mut self) -> Option<Result<T, SearchError>> {
        if self.reported {
            return None;
        }
        let next = self.inner.try_next();
        self.reported = matches!(next, Some(Err(_)));
        next
    }
}

impl<T> fmt::Debug for TrySolutions<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}
