//! Limits on a search, the cancellation flag, and why a search stopped.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Why a search stopped yielding solutions. Finding no solution is not an error: it is
/// [`StopReason::Exhausted`] with a count of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The whole search tree was explored: every solution has been yielded.
    Exhausted,
    /// The solution limit was reached.
    SolutionLimit,
    /// The node limit was reached.
    NodeLimit,
    /// The run limit of the replay engine was reached.
    RunLimit,
    /// The time limit was reached.
    TimeLimit,
    /// The [`CancelFlag`] was set.
    Cancelled,
}

impl StopReason {
    /// Whether the search explored the whole tree, so that a count is exact.
    pub fn is_complete(self) -> bool {
        self == StopReason::Exhausted
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Exhausted => "search exhausted",
            StopReason::SolutionLimit => "solution limit reached",
            StopReason::NodeLimit => "node limit reached",
            StopReason::RunLimit => "run limit reached",
            StopReason::TimeLimit => "time limit reached",
            StopReason::Cancelled => "cancelled",
        })
    }
}

/// A flag another thread (or a Ctrl-C handler) sets to stop a running search.
///
/// Clones share the flag. The search looks at it every 1024 nodes and between solutions.
///
/// ```
/// use ambsolve::{CancelFlag, Limits, StopReason};
///
/// let flag = CancelFlag::new();
/// flag.cancel();
/// let mut solutions = ambsolve::replay(|amb| amb.choose(0..10))
///     .limits(Limits::new().cancel(flag))
///     .solutions();
/// assert_eq!(solutions.next(), None);
/// assert_eq!(solutions.stop_reason(), Some(StopReason::Cancelled));
/// ```
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the flag: every search watching it stops soon after.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag has been set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for code that can only reach an atomic: a signal handler
    /// (`signal_hook::flag::register`), say. Storing `true` in it cancels.
    ///
    /// ```
    /// use std::sync::atomic::Ordering;
    ///
    /// let flag = ambsolve::CancelFlag::new();
    /// flag.atomic().store(true, Ordering::Relaxed);
    /// assert!(flag.is_cancelled());
    /// ```
    pub fn atomic(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

/// Limits on a search. The default has none.
///
/// When a limit is reached the solution iterator ends and
/// [`SearchHandle::stop_reason`](crate::SearchHandle::stop_reason) says which one.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub(crate) nodes: Option<u64>,
    pub(crate) runs: Option<u64>,
    pub(crate) solutions: Option<u64>,
    pub(crate) time: Option<Duration>,
    pub(crate) cancel: Option<CancelFlag>,
}

impl Limits {
    /// No limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stop after this many search nodes (choices made; for local search, steps: values
    /// given in a starting assignment and repair steps). Default: no limit.
    pub fn nodes(mut self, nodes: u64) -> Self {
        self.nodes = Some(nodes);
        self
    }

    /// Replay engine: stop after this many runs of the program. A replay node limit
    /// counts the choices made anew; every run also replays its recorded prefix, so this
    /// bounds the work better. Other engines ignore it. Default: no limit.
    pub fn runs(mut self, runs: u64) -> Self {
        self.runs = Some(runs);
        self
    }

    /// Stop after this many solutions. Default: no limit.
    pub fn solutions(mut self, solutions: u64) -> Self {
        self.solutions = Some(solutions);
        self
    }

    /// Stop once this much wall time has passed since the search started. Default: no limit.
    pub fn time(mut self, time: Duration) -> Self {
        self.time = Some(time);
        self
    }

    /// Stop when `flag` is set. Default: no flag.
    pub fn cancel(mut self, flag: CancelFlag) -> Self {
        self.cancel = Some(flag);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_reason_says_whether_a_count_is_exact() {
        assert!(StopReason::Exhausted.is_complete());
        assert!(!StopReason::TimeLimit.is_complete());
        assert_eq!(StopReason::NodeLimit.to_string(), "node limit reached");
    }
}
