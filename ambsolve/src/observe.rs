//! Watching a search: the [`Event`]s every engine reports to an [`Observer`], when one is
//! set with [`Solver::observe`](crate::Solver::observe) or
//! [`Puzzle::observe`](crate::Puzzle::observe).
//!
//! Without an observer an engine pays one never-taken branch per node. With one, each
//! event is a call through a `Mutex` (the observer is shared with the caller, who reads
//! what it gathered after or during the search).

use std::fmt;
use std::sync::{Arc, Mutex};

use crate::var::VarId;

/// Something that happened in a search.
///
/// Depths count choices: the root is at depth 0, the first choice makes a node at depth 1.
/// The result of a choice's propagation (trail) or checks (replay) is the next event: a
/// [`Event::Fail`] at the same depth if they failed; anything else (a deeper try, a
/// solution) if they succeeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A choice is tried: a node at `depth`, alternative `index` of the `alternatives`
    /// left, where `var` takes value index `value`; the variable has `universe` values in
    /// all, so `universe - alternatives` were ruled out before the choice (pruned by
    /// propagation on the trail engine, by the checks of the choices above on the replay
    /// engine). A hand-written `amb` program has no variables: `var` is `None`, `value`
    /// is `index` and `universe` is `alternatives`.
    ///
    /// On the replay engine a node is reported by the run that reaches it first: after
    /// its [`Event::Run`], the run reports the recorded choice the engine advanced, then
    /// each new choice.
    Try {
        /// The depth of the new node.
        depth: u32,
        /// The variable chosen (trail engine).
        var: Option<VarId>,
        /// The value index tried.
        value: u32,
        /// Which alternative this is, from 0.
        index: u32,
        /// How many alternatives the choice has.
        alternatives: u32,
        /// How many values the variable has in all.
        universe: u32,
    },
    /// The node just tried (or the root) failed: propagation emptied a domain, or a
    /// condition did not hold.
    Fail {
        /// The depth of the failed node.
        depth: u32,
    },
    /// The node at `depth` is a solution.
    Solution {
        /// Its depth.
        depth: u32,
    },
    /// The search goes back up to `depth`, undoing the choices below it, to try the next
    /// alternative there (or further up).
    Backtrack {
        /// The depth it returns to.
        depth: u32,
    },
    /// The trail engine starts again from the root (a restart); the local engine starts
    /// afresh from a new greedy assignment.
    Restart,
    /// The replay engine runs the program again, replaying its first `replayed` choices.
    Run {
        /// The number of this run, from 1.
        run: u64,
        /// How many recorded choices it replays.
        replayed: u32,
    },
}

/// Receives the [`Event`]s of a search, in order.
///
/// Closures `FnMut(&Event)` are observers.
pub trait Observer: Send {
    /// Called for every event.
    fn event(&mut self, event: &Event);
}

impl<F: FnMut(&Event) + Send> Observer for F {
    fn event(&mut self, event: &Event) {
        self(event);
    }
}

/// An observer shared between the caller and the engine.
#[derive(Clone)]
pub(crate) struct Shared(Arc<Mutex<dyn Observer>>);

impl Shared {
    /// `observer`, shared with the engine.
    pub(crate) fn new(observer: impl Observer + 'static) -> Self {
        Shared(Arc::new(Mutex::new(observer)))
    }

    #[inline(never)]
    pub(crate) fn send(&self, event: Event) {
        // A poisoned lock means the observer panicked earlier: keep going without it.
        if let Ok(mut observer) = self.0.lock() {
            observer.event(&event);
        }
    }
}

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Observer(..)")
    }
}

/// An observer that keeps the first `limit` events (and counts the others): a handle,
/// cheap to clone, to give to [`Solver::observe`](crate::Solver::observe) and read back.
///
/// ```
/// use ambsolve::{Engine, Event, Model, Recorder};
///
/// let mut m = Model::new();
/// let x = m.var(0..2);
/// let y = m.var(0..2);
/// m.all_different([&x, &y]);
/// let recorder = Recorder::new(100);
/// let count = m.solve(Engine::Trail).observe(recorder.clone()).count()?;
/// assert_eq!(count.solutions, 2);
/// let events = recorder.events();
/// assert!(matches!(events[0], Event::Try { depth: 1, value: 0, .. }));
/// assert_eq!(events.iter().filter(|e| matches!(e, Event::Solution { .. })).count(), 2);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Recorder {
    inner: Arc<Mutex<Recorded>>,
}

#[derive(Debug, Default)]
struct Recorded {
    events: Vec<Event>,
    limit: usize,
    dropped: u64,
}

impl Recorder {
    /// A recorder keeping at most `limit` events.
    pub fn new(limit: usize) -> Self {
        Recorder {
            inner: Arc::new(Mutex::new(Recorded {
                events: Vec::new(),
                limit,
                dropped: 0,
            })),
        }
    }

    /// The events kept so far.
    pub fn events(&self) -> Vec<Event> {
        self.inner
            .lock()
            .map(|r| r.events.clone())
            .unwrap_or_default()
    }

    /// How many events came after the limit and were not kept.
    pub fn dropped(&self) -> u64 {
        self.inner.lock().map(|r| r.dropped).unwrap_or(0)
    }
}

impl Observer for Recorder {
    fn event(&mut self, event: &Event) {
        if let Ok(mut r) = self.inner.lock() {
            if r.events.len() < r.limit {
                r.events.push(*event);
            } else {
                r.dropped += 1;
            }
        }
    }
}
