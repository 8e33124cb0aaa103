//! Limits on a search, the cancellation flag, and why a search stopped.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
}

/// Limits on a search. The default has none.
///
/// When a limit is reached the solution iterator ends and
/// [`Solutions::stop_reason`](crate::Solutions::stop_reason) says which one.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub(crate) nodes: Option<u64>,
    pub(crate) solutions: Option<u64>,
    pub(crate) time: Option<Duration>,
    pub(crate) cancel: Option<CancelFlag>,
}

impl Limits {
    /// No limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stop after this many search nodes (choices made). Default: no limit.
    pub fn nodes(mut self, nodes: u64) -> Self {
        self.nodes = Some(nodes);
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

/// How often (in nodes) the clock and the cancellation flag are read.
const POLL_EVERY: u32 = 1024;

/// What an engine consults at every node: the limits, the clock, an optional pause point.
#[derive(Debug)]
pub(crate) struct Control {
    limits: Limits,
    deadline: Option<Instant>,
    pause_at: Option<Instant>,
    ticks: u32,
}

/// Why an engine interrupted its work: a final stop, or a pause the caller asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interrupt {
    Stop(StopReason),
    Pause,
}

impl Control {
    pub(crate) fn new(limits: Limits) -> Self {
        Control {
            deadline: limits.time.map(|t| Instant::now() + t),
            limits,
            pause_at: None,
            ticks: POLL_EVERY - 1,
        }
    }

    pub(crate) fn solution_limit(&self) -> Option<u64> {
        self.limits.solutions
    }

    /// Asks engines to pause (not stop) at `at`. The clock is read after a full polling
    /// interval of work, so every call makes progress even with a deadline already past.
    pub(crate) fn set_pause(&mut self, at: Option<Instant>) {
        self.pause_at = at;
        self.ticks = 0;
    }

    /// Called before a new node is made; `nodes` is the number made so far.
    #[inline]
    pub(crate) fn before_node(&mut self, nodes: u64) -> Result<(), Interrupt> {
        if let Some(max) = self.limits.nodes {
            if nodes >= max {
                return Err(Interrupt::Stop(StopReason::NodeLimit));
            }
        }
        self.tick()
    }

    /// Counts a unit of work (a node, a run); every [`POLL_EVERY`] units, and at the first
    /// one, polls the flag and the clock.
    #[inline]
    pub(crate) fn tick(&mut self) -> Result<(), Interrupt> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks % POLL_EVERY == 0 {
            self.poll()
        } else {
            Ok(())
        }
    }

    /// Reads the cancellation flag and the clock.
    pub(crate) fn poll(&self) -> Result<(), Interrupt> {
        if let Some(flag) = &self.limits.cancel {
            if flag.is_cancelled() {
                return Err(Interrupt::Stop(StopReason::Cancelled));
            }
        }
        if self.deadline.is_some() || self.pause_at.is_some() {
            let now = Instant::now();
            if self.deadline.is_some_and(|d| now >= d) {
                return Err(Interrupt::Stop(StopReason::TimeLimit));
            }
            if self.pause_at.is_some_and(|p| now >= p) {
                return Err(Interrupt::Pause);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limit_stops_before_the_next_node() {
        let mut c = Control::new(Limits::new().nodes(3));
        assert_eq!(c.before_node(0), Ok(()));
        assert_eq!(c.before_node(2), Ok(()));
        assert_eq!(
            c.before_node(3),
            Err(Interrupt::Stop(StopReason::NodeLimit))
        );
    }

    #[test]
    fn cancel_flag_is_seen_when_polled() {
        let flag = CancelFlag::new();
        let c = Control::new(Limits::new().cancel(flag.clone()));
        assert_eq!(c.poll(), Ok(()));
        flag.cancel();
        assert_eq!(c.poll(), Err(Interrupt::Stop(StopReason::Cancelled)));
    }

    #[test]
    fn zero_time_limit_stops_at_the_first_poll() {
        let c = Control::new(Limits::new().time(Duration::ZERO));
        assert_eq!(c.poll(), Err(Interrupt::Stop(StopReason::TimeLimit)));
    }
}
