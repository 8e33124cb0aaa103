//! The contract between the seam and an engine: the [`Control`] an engine consults at
//! every node (limits, the clock, a pause point), and the [`Search`] trait every engine
//! implements so that one iterator can drive any of them.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant};

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

/// The best cost found so far by a branch-and-bound search, shared by whoever searches
/// for it: every solution found must cost less. Costs are minimised (a maximised
/// objective's cost is its negation).
#[derive(Debug, Default)]
pub(crate) struct Incumbent {
    found: AtomicBool,
    best: AtomicI64,
}

impl Incumbent {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The cost every new solution must be below, `None` before the first one.
    #[inline]
    pub(crate) fn bound(&self) -> Option<i64> {
        // `best` is written before `found` is set (release/acquire).
        self.found
            .load(Ordering::Acquire)
            .then(|| self.best.load(Ordering::Relaxed))
    }

    /// Records a solution of cost `cost`; false if it is no better than the best one.
    pub(crate) fn improve(&self, cost: i64) -> bool {
        if self.found.load(Ordering::Acquire) {
            return self.best.fetch_min(cost, Ordering::Relaxed) > cost;
        }
        self.best.store(cost, Ordering::Relaxed);
        self.found.store(true, Ordering::Release);
        true
    }

    /// Whether a solution of cost `cost` would improve on the best one.
    #[inline]
    pub(crate) fn admits(&self, cost: i128) -> bool {
        self.bound().is_none_or(|best| cost < i128::from(best))
    }
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

    /// The objective's value at the solution the engine stands on, when it optimises.
    fn objective(&self) -> Option<i64> {
        None
    }

    /// How many solutions the one the engine stands on stands for: the size of its
    /// symmetry class when counting through symmetry, else 1.
    fn weight(&self) -> u64 {
        1
    }
}

/// The longest run of work units between two reads of the clock and the flag.
const MAX_INTERVAL: u32 = 1024;

/// The time the polling interval aims at between two reads: long enough that reading the
/// clock costs nothing, short enough that a limit is met within a few milliseconds.
const POLL_TARGET: Duration = Duration::from_micros(500);

/// Work units a paused search does before it may pause again, so that every call of a
/// budgeted count makes progress even with its budget already spent.
const PAUSE_AFTER: u32 = 64;

/// What an engine consults at every node: the limits, the clock, an optional pause point.
///
/// The clock and the cancellation flag are read every `interval` units of work (nodes,
/// runs). The interval adapts to what a unit costs: it starts at 1 (so a flag set or a time
/// limit spent before the search starts stops it before any work), and after each read it
/// becomes the number of units that take [`POLL_TARGET`] at the rate just measured (at
/// most doubling, between 1 and [`MAX_INTERVAL`]). A limit is therefore met within about a
/// millisecond plus one unit of work when units cost about the same; when cheap units
/// suddenly become expensive, within one interval of the expensive ones.
#[derive(Debug)]
pub(crate) struct Control {
    limits: Limits,
    deadline: Option<Instant>,
    pause_at: Option<Instant>,
    /// Units since the last read.
    ticks: u32,
    /// Units between two reads.
    interval: u32,
    last_poll: Instant,
    /// Units since the pause point was set (saturating).
    since_pause: u32,
}

/// Why an engine interrupted its work: a final stop, or a pause the caller asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interrupt {
    Stop(StopReason),
    Pause,
}

impl Control {
    pub(crate) fn new(limits: Limits) -> Self {
        let now = Instant::now();
        Control {
            // A time limit too far to represent is no limit.
            deadline: limits.time.and_then(|t| now.checked_add(t)),
            limits,
            pause_at: None,
            ticks: 0,
            interval: 1,
            last_poll: now,
            since_pause: 0,
        }
    }

    pub(crate) fn solution_limit(&self) -> Option<u64> {
        self.limits.solutions
    }

    /// Asks engines to pause (not stop) at `at`. A pause comes only after
    /// [`PAUSE_AFTER`] units of work, so every call makes progress even with a pause point
    /// already past; stops (the flag, the deadline) are seen at the next read.
    pub(crate) fn set_pause(&mut self, at: Option<Instant>) {
        self.pause_at = at;
        self.since_pause = 0;
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

    /// Called before a replay run; `runs` is the number made so far.
    #[inline]
    pub(crate) fn before_run(&mut self, runs: u64) -> Result<(), Interrupt> {
        if self.limits.runs.is_some_and(|max| runs >= max) {
            return Err(Interrupt::Stop(StopReason::RunLimit));
        }
        self.tick()
    }

    /// Counts a unit of work (a node, a run); every `interval` units, reads the flag and
    /// the clock.
    #[inline]
    pub(crate) fn tick(&mut self) -> Result<(), Interrupt> {
        self.ticks += 1;
        if self.ticks >= self.interval {
            self.poll()
        } else {
            Ok(())
        }
    }

    /// Reads the cancellation flag and the clock, and adapts the interval to the time the
    /// last one took.
    #[cold]
    fn poll(&mut self) -> Result<(), Interrupt> {
        let now = Instant::now();
        let spent = now.saturating_duration_since(self.last_poll).as_nanos();
        // The units that take POLL_TARGET at the rate just measured, at most twice as many
        // as before (cheap units ramp up; one read after expensive ones brings it down).
        let target = POLL_TARGET.as_nanos() * u128::from(self.ticks) / spent.max(1);
        self.interval = target
            .clamp(1, u128::from(self.interval) * 2)
            .min(u128::from(MAX_INTERVAL)) as u32;
        self.since_pause = self.since_pause.saturating_add(self.ticks);
        self.ticks = 0;
        self.last_poll = now;
        self.check(now)
    }

    /// Whether a limit or the pause point has been reached at `now`.
    fn check(&self, now: Instant) -> Result<(), Interrupt> {
        if let Some(reason) = self.stop_at(|| now) {
            return Err(Interrupt::Stop(reason));
        }
        if self.since_pause >= PAUSE_AFTER && self.pause_at.is_some_and(|p| now >= p) {
            return Err(Interrupt::Pause);
        }
        Ok(())
    }

    /// Whether the search must stop before doing anything more: the flag is set or the
    /// deadline has passed. Read when a search is resumed, whatever the interval.
    /// It is read before every solution an iterator yields: the clock only when there is
    /// a deadline.
    pub(crate) fn stopped(&self) -> Option<StopReason> {
        self.stop_at(Instant::now)
    }

    /// The flag set, or the deadline passed at `now()` (read only if there is one).
    fn stop_at(&self, now: impl FnOnce() -> Instant) -> Option<StopReason> {
        if self
            .limits
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.is_cancelled())
        {
            return Some(StopReason::Cancelled);
        }
        self.deadline
            .is_some_and(|d| now() >= d)
            .then_some(StopReason::TimeLimit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::CancelFlag;

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
    fn a_flag_set_before_the_search_stops_it_at_the_first_unit() {
        let flag = CancelFlag::new();
        let mut c = Control::new(Limits::new().cancel(flag.clone()));
        assert_eq!(c.tick(), Ok(()));
        flag.cancel();
        assert_eq!(c.stopped(), Some(StopReason::Cancelled));
        let mut fresh = Control::new(Limits::new().cancel(flag));
        assert_eq!(fresh.tick(), Err(Interrupt::Stop(StopReason::Cancelled)));
    }

    #[test]
    fn a_zero_time_limit_stops_at_the_first_unit() {
        let mut c = Control::new(Limits::new().time(Duration::ZERO));
        assert_eq!(c.stopped(), Some(StopReason::TimeLimit));
        assert_eq!(c.tick(), Err(Interrupt::Stop(StopReason::TimeLimit)));
    }

    #[test]
    fn the_interval_grows_for_cheap_units_and_shrinks_for_expensive_ones() {
        let mut c = Control::new(Limits::new());
        for _ in 0..100_000 {
            c.tick().unwrap();
        }
        assert!(c.interval > 1, "interval {}", c.interval);
        // Units of 0.2 ms: one read brings the interval near 1; a 1 ms unit brings it to 1.
        for _ in 0..MAX_INTERVAL {
            std::thread::sleep(Duration::from_micros(200));
            c.tick().unwrap();
        }
        assert!(c.interval <= 4, "interval {}", c.interval);
        for _ in 0..8 {
            std::thread::sleep(Duration::from_millis(1));
            c.tick().unwrap();
        }
        assert_eq!(c.interval, 1);
    }

    #[test]
    fn a_pause_comes_after_some_work() {
        let mut c = Control::new(Limits::new());
        c.set_pause(Some(Instant::now()));
        let mut units = 0;
        while c.tick().is_ok() {
            units += 1;
        }
        assert!(units >= PAUSE_AFTER - 1, "paused after {units} units");
    }
}
