//! The contract between the seam and an engine: the [`Control`] an engine consults at
//! every node (limits, the clock, a pause point), and the [`Search`] trait every engine
//! implements so that one iterator can drive any of them.

use std::time::Instant;

use crate::error::SearchError;
use crate::limits::{Limits, StopReason};
use crate::stats::Stats;

/// What an engine reports when asked for the next solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The engine stands on a solution; take it with [`Search::take_solution`].
    Solution,
    /// The engine stopped or paused before finding one.
    Interrupted(Interrupt),
}

/// A running search of one engine, seen from the iterator that drives it.
pub(crate) trait Search {
    type Item;

    /// Searches on to the next solution.
    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError>;

    /// The solution the engine stands on, after [`Search::advance`] returned
    /// [`Step::Solution`]. Counting never calls it, so counting stores nothing.
    fn take_solution(&mut self) -> Self::Item;

    /// Statistics so far (the caller fills in the elapsed time).
    fn stats(&self) -> Stats;

    /// The share of the search tree finished, in `0.0..=1.0`.
    fn progress(&self) -> f64;
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
    use crate::limits::CancelFlag;
    use std::time::Duration;

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
