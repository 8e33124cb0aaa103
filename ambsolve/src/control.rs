//! The contract between the seam and an engine: the [`Control`] an engine consults at
//! every node (limits, the clock, a pause point), and the [`Search`] trait every engine
//! implements so that one iterator can drive any of them.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::SearchError;
use crate::limits::{Limits, StopReason};
use crate::stats::Stats;

/// What an engine reports when asked for the next solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The engine stands on a solution; take it with [`Search::take_solution`].
    Solution,
    /// The engine stands on a node at its scope's cutoff depth that is not a solution:
    /// take its path with [`Search::path`]; the engine goes on past it.
    Cut,
    /// The engine stopped or paused before finding one.
    Interrupted(Interrupt),
}

/// What [`Search::count`] counted, and how it ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counted {
    /// Solutions the engine stood on.
    pub(crate) found: u64,
    /// The same, each weighted by [`Search::weight`]: the solutions they stand for.
    pub(crate) weighted: u64,
    /// `None` if it stopped because it had counted the maximum asked for.
    pub(crate) end: Option<Interrupt>,
}

/// The best cost found so far by a branch-and-bound search, shared by whoever searches
/// for it: every solution found must cost less. Costs are minimised (a maximised
/// objective's cost is its negation).
#[derive(Debug, Default)]
pub(crate) struct Incumbent {
    found: AtomicBool,
    best: AtomicI64,
    /// Taken to record a solution: two searches improving at once must not both win.
    improving: Mutex<()>,
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
    /// The solutions recorded, in the order they are, cost less and less.
    pub(crate) fn improve(&self, cost: i64) -> bool {
        let _only = self
            .improving
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.bound().is_some_and(|best| best <= cost) {
            return false;
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

/// A running search, seen from the [`SearchHandle`](crate::SearchHandle) that drives it
/// step by step: what each engine implements (`TrailEngine`, `ReplayEngine`,
/// `LocalEngine`), and what the seam builds on them (a parallel search, a search whose
/// solutions are mapped).
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

    /// A better solution found by another search of the same model (value indices by
    /// variable): an engine that saves phases from its best solution takes it as its
    /// best. Default: nothing.
    fn adopt_best(&mut self, _values: &[u32]) {}

    /// The objective's value at the solution the engine stands on, when it optimises.
    fn objective(&self) -> Option<i64> {
        None
    }

    /// Every objective's value at the solution the engine stands on, in order, when it
    /// optimises: more than one in a lexicographic optimisation.
    fn objectives(&self) -> Vec<i64> {
        self.objective().into_iter().collect()
    }

    /// The path to the node the engine stands on: the alternative index taken at each
    /// choice point, from the root (after a [`Step::Cut`] or a [`Step::Solution`]).
    fn path(&self) -> Vec<u32>;

    /// How many solutions the one the engine stands on stands for: the size of its
    /// symmetry class when counting through symmetry, else 1.
    fn weight(&self) -> u64 {
        1
    }

    /// Subproblems finished and in all, when the search is cut into subproblems.
    fn subproblems(&self) -> Option<(usize, usize)> {
        None
    }

    /// The time each worker thread spent searching, when the search runs on several.
    fn workers(&self) -> Vec<Duration> {
        Vec::new()
    }

    /// Counts solutions without taking them, until the engine stops or pauses, or has
    /// counted `max`.
    fn count(&mut self, control: &mut Control, max: u64) -> Result<Counted, SearchError> {
        count_by_advancing(self, control, max)
    }
}

/// [`Search::count`] the plain way: [`Search::advance`] from solution to solution.
pub(crate) fn count_by_advancing<S: Search + ?Sized>(
    search: &mut S,
    control: &mut Control,
    max: u64,
) -> Result<Counted, SearchError> {
    let mut counted = Counted::default();
    while counted.found < max {
        match search.advance(control)? {
            Step::Solution => {
                counted.found += 1;
                counted.weighted += search.weight();
            }
            Step::Cut => {}
            Step::Interrupted(interrupt) => {
                counted.end = Some(interrupt);
                break;
            }
        }
    }
    Ok(counted)
}

/// Nodes a worker takes from a shared node budget at a time.
const NODE_CHUNK: u64 = 256;

/// What the searches of one parallel search share through their [`Control`]s: the node
/// budget left (all of them together make at most the node limit), a flag that stops
/// them all, and one that asks them to pause.
#[derive(Debug, Default)]
pub(crate) struct Team {
    /// Nodes left to hand out, when there is a node limit.
    pub(crate) nodes: Option<AtomicU64>,
    /// Set: every search stops (cancelled) at its next read.
    pub(crate) halt: AtomicBool,
    /// Set: every search pauses at its next read.
    pub(crate) pause: AtomicBool,
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
    /// A worker of a parallel search: what it shares with the others, and the nodes it
    /// took from the shared budget so far.
    team: Option<Arc<Team>>,
    allowance: u64,
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
            team: None,
            allowance: 0,
        }
    }

    /// The control of one worker of a parallel search: the same cancellation flag, the
    /// same `deadline`, pause point and solution limit; its nodes come from the shared
    /// budget.
    pub(crate) fn worker(&self, team: &Arc<Team>) -> Self {
        let mut limits = self.limits.clone();
        limits.nodes = None;
        let mut control = Control::new(limits);
        control.deadline = self.deadline;
        control.pause_at = self.pause_at;
        control.team = Some(Arc::clone(team));
        control
    }

    /// The control of a search run inside this one for a while (a neighbourhood of a
    /// large neighbourhood search, or a turn of its complete search): the same
    /// cancellation flag and deadline, no pause point, no solution limit, and the node
    /// limit `nodes` (counted by the inner search's engine).
    pub(crate) fn inner(&self, nodes: Option<u64>) -> Self {
        let mut limits = self.limits.clone();
        limits.nodes = nodes;
        limits.solutions = None;
        let mut control = Control::new(limits);
        control.deadline = self.deadline;
        control
    }

    /// A worker done with its engine, which made `nodes`: gives back what it took from
    /// the shared budget and did not use.
    pub(crate) fn release(&mut self, nodes: u64) {
        if let Some(budget) = self.team.as_ref().and_then(|s| s.nodes.as_ref()) {
            budget.fetch_add(self.allowance.saturating_sub(nodes), Ordering::Relaxed);
        }
        self.allowance = 0;
    }

    /// The node limit, if any.
    pub(crate) fn node_limit(&self) -> Option<u64> {
        self.limits.nodes
    }

    /// The time left before the time limit, if there is one.
    pub(crate) fn time_left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The pause point, if any.
    pub(crate) fn pause_at(&self) -> Option<Instant> {
        self.pause_at
    }

    /// A worker whose engine has made `nodes`: takes more from the shared budget, or
    /// stops on the node limit when none is left.
    #[cold]
    fn claim(&mut self, nodes: u64) -> Result<(), Interrupt> {
        let budget = self
            .team
            .as_ref()
            .and_then(|s| s.nodes.as_ref())
            .expect("a worker with a node budget");
        let taken = budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                (left > 0).then(|| left - left.min(NODE_CHUNK))
            })
            .map_or(0, |left| left.min(NODE_CHUNK));
        if taken == 0 {
            return Err(Interrupt::Stop(StopReason::NodeLimit));
        }
        self.allowance = nodes + taken;
        Ok(())
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
        } else if nodes >= self.allowance && self.has_node_budget() {
            self.claim(nodes)?;
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

    /// Whether this worker's nodes come from a shared budget.
    #[inline]
    fn has_node_budget(&self) -> bool {
        self.team.as_ref().is_some_and(|s| s.nodes.is_some())
    }

    /// Whether a limit or the pause point has been reached at `now`.
    fn check(&self, now: Instant) -> Result<(), Interrupt> {
        if let Some(reason) = self.stop_at(|| now) {
            return Err(Interrupt::Stop(reason));
        }
        let asked = self
            .team
            .as_ref()
            .is_some_and(|s| s.pause.load(Ordering::Relaxed));
        if self.since_pause >= PAUSE_AFTER && (asked || self.pause_at.is_some_and(|p| now >= p)) {
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
        let halted = self
            .team
            .as_ref()
            .is_some_and(|s| s.halt.load(Ordering::Relaxed));
        if halted
            || self
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
