//! The handle of a running search: the engine, its [`Control`], where it stands, and what
//! every way of consuming a search ([`Solutions`](super::Solutions),
//! [`TrySolutions`](super::TrySolutions), [`Improving`](super::Improving),
//! [`TryImproving`](super::TryImproving)) can tell about it.

use std::fmt;
use std::time::{Duration, Instant};

use super::{BoxedSearch, Start};
use crate::control::{Control, Interrupt, Step};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::options::Options;
use crate::stats::Stats;

/// Where a search stands.
enum Status {
    Running,
    Stopped(StopReason),
    Failed(SearchError),
}

/// A running search, as every iterator over it sees it: why it stopped, the error that
/// ended it, its statistics and progress.
///
/// [`Solutions`](crate::Solutions), [`TrySolutions`](crate::TrySolutions),
/// [`Improving`](crate::Improving) and [`TryImproving`](crate::TryImproving) dereference to
/// the handle of their search, so `solutions.stats()` or `improving.stop_reason()` call
/// these methods.
///
/// ```
/// use ambsolve::{Engine, Limits, Model, StopReason};
///
/// let mut m = Model::new();
/// let x = m.var(0..10);
/// let mut two = m.solve(Engine::Trail).limits(Limits::new().solutions(2)).solutions();
/// assert_eq!(two.by_ref().count(), 2);
/// assert_eq!(two.stop_reason(), Some(StopReason::SolutionLimit));
/// assert!(two.is_finished() && two.error().is_none());
/// assert_eq!(two.stats().solutions, 2);
/// # let _ = x;
/// ```
pub struct SearchHandle<'a, T> {
    search: Option<BoxedSearch<'a, T>>,
    control: Control,
    status: Status,
    /// Set while the engine runs: still set on entry means a panic unwound out of it.
    searching: bool,
    /// Solutions found (representatives, when counting through symmetry).
    solutions: u64,
    busy: Duration,
}

impl<'a, T> SearchHandle<'a, T> {
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
        SearchHandle {
            search,
            control,
            status,
            searching: false,
            solutions: 0,
            busy: Duration::ZERO,
        }
    }

    /// Why the search stopped, or `None` while it can still yield solutions. A search
    /// ended by an error reports `None` here and the error in
    /// [`error`](SearchHandle::error). An optimisation that stopped as
    /// [`Exhausted`](StopReason::Exhausted) has proved its last improvement optimal.
    pub fn stop_reason(&self) -> Option<StopReason> {
        match self.status {
            Status::Stopped(reason) => Some(reason),
            Status::Running | Status::Failed(_) => None,
        }
    }

    /// Whether the search is over: stopped (see [`stop_reason`](SearchHandle::stop_reason))
    /// or ended by an error (see [`error`](SearchHandle::error)).
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

    /// Counts until the search stops or pauses at `pause_at`: each solution adds its
    /// engine's [`weight`](crate::control::Search::weight) (the solution limit, checked
    /// in `step`, counts solutions found, not weights).
    pub(super) fn count_while(&mut self, pause_at: Option<Instant>) -> Result<u64, SearchError> {
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

    /// As [`try_next`](SearchHandle::try_next), with every objective's value at the
    /// solution when the search optimises (empty otherwise).
    pub(super) fn try_next_scored(&mut self) -> Option<Result<(T, Vec<i64>), SearchError>> {
        let started = Instant::now();
        self.resume();
        let found = self.step();
        self.busy += started.elapsed();
        if found {
            return self.search.as_mut().map(|search| {
                let values = search.objectives();
                Ok((search.take_solution(), values))
            });
        }
        self.error().cloned().map(Err)
    }

    /// The solutions found so far (for `Debug`).
    pub(super) fn found(&self) -> u64 {
        self.solutions
    }
}

impl<T> fmt::Debug for SearchHandle<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchHandle")
            .field("solutions", &self.solutions)
            .field("stop_reason", &self.stop_reason())
            .field("error", &self.error())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::limits::StopReason;
    use crate::model::Model;
    use crate::options::Engine;

    /// Every iterator over a search answers the same questions, through its handle.
    #[test]
    fn every_iterator_of_a_search_reads_its_handle() {
        let mut m = Model::new();
        let x = m.var(0..5i64);
        m.maximize([(1, &x)]);
        let mut solutions = m.solve(Engine::Trail).solutions();
        let mut try_solutions = m.solve(Engine::Trail).try_solutions();
        let mut improving = m.solve(Engine::Trail).improving();
        let mut try_improving = m.solve(Engine::Trail).threads(2).try_improving();
        assert_eq!(solutions.by_ref().count(), 5);
        assert_eq!(try_solutions.by_ref().count(), 5);
        assert_eq!(improving.by_ref().count(), 5);
        assert!(try_improving.by_ref().all(|i| i.is_ok()));
        for (finished, reason, error, solutions, subproblems) in [
            (
                solutions.is_finished(),
                solutions.stop_reason(),
                solutions.error().is_some(),
                solutions.stats().solutions,
                solutions.subproblems(),
            ),
            (
                try_solutions.is_finished(),
                try_solutions.stop_reason(),
                try_solutions.error().is_some(),
                try_solutions.stats().solutions,
                try_solutions.subproblems(),
            ),
            (
                improving.is_finished(),
                improving.stop_reason(),
                improving.error().is_some(),
                improving.stats().solutions,
                improving.subproblems(),
            ),
        ] {
            assert!(finished);
            assert_eq!(reason, Some(StopReason::Exhausted));
            assert!(!error);
            assert_eq!(solutions, 5);
            assert_eq!(subproblems, None);
        }
        assert!(try_improving.is_finished());
        assert_eq!(try_improving.stop_reason(), Some(StopReason::Exhausted));
        assert!(try_improving.progress() == 1.0);
        assert!(matches!(try_improving.subproblems(), Some((done, all)) if done == all));
        assert_eq!(try_improving.worker_times().len(), 2);
    }
}
