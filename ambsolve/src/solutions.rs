//! The one interface both engines sit behind: a configured [`Solver`], the lazy
//! [`Solutions`] iterator it starts, and the [`Summary`] of a count.

use std::fmt;
use std::time::{Duration, Instant};

use crate::error::SearchError;
use crate::limits::{Control, Interrupt, Limits, StopReason};
use crate::stats::Stats;
use crate::strategy::Strategy;

/// What an engine reports when asked for the next solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The engine stands on a solution; take it with [`Engine::take_solution`].
    Solution,
    /// The engine stopped or paused before finding one.
    Interrupted(Interrupt),
}

/// A search engine, seen from the iterator that drives it.
pub(crate) trait Searcher {
    type Item;

    /// Searches on to the next solution.
    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError>;

    /// The solution the engine stands on, after [`Searcher::advance`] returned
    /// [`Step::Solution`]. Counting never calls it, so counting stores nothing.
    fn take_solution(&mut self) -> Self::Item;

    /// Statistics so far (the caller fills in the elapsed time).
    fn stats(&self) -> Stats;

    /// The share of the search tree finished, in `0.0..=1.0`.
    fn progress(&self) -> f64;
}

/// Which engine searches a [`Model`](crate::Model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// State in a store of domains, changes logged on a trail and undone on backtracking,
    /// propagators pruning domains after every decision. The fast one.
    #[default]
    Trail,
    /// Runs the model as an `amb` program: chooses each variable in turn and checks each
    /// constraint once all its variables are chosen, replaying choices after a failure.
    Replay,
}

/// When a model's constraints are checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Checking {
    /// As early as possible: propagation after every decision (trail), each constraint
    /// as soon as it can fail (replay). The default.
    #[default]
    Early,
    /// Only once every variable has a value: generate and test, with no propagation and
    /// no restriction applied before. This is the brute force of the sources; it exists
    /// to show, in numbers, what checking early saves.
    AtEnd,
}

/// Options every engine reads.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    pub(crate) limits: Limits,
    pub(crate) strategy: Strategy,
    pub(crate) checking: Checking,
    pub(crate) up_to_symmetry: bool,
}

type BoxedEngine<'a, T> = Box<dyn Searcher<Item = T> + 'a>;
type EngineFactory<'a, T> =
    Box<dyn FnOnce(&Options) -> Result<BoxedEngine<'a, T>, SearchError> + 'a>;

/// A search, configured but not started: which engine, which limits, which strategy.
///
/// Start it with [`solutions`](Solver::solutions) (a lazy iterator), [`first`](Solver::first)
/// or [`count`](Solver::count). Hand-written `amb` programs get one from
/// [`replay`](crate::replay()); models from [`Model::solve`](crate::Model::solve).
#[must_use = "a solver does nothing until solutions(), first() or count() is called"]
pub struct Solver<'a, T> {
    make: EngineFactory<'a, T>,
    options: Options,
}

impl<'a, T> Solver<'a, T> {
    pub(crate) fn from_factory(
        make: impl FnOnce(&Options) -> Result<BoxedEngine<'a, T>, SearchError> + 'a,
    ) -> Self {
        Solver {
            make: Box::new(make),
            options: Options::default(),
        }
    }

    /// Sets the limits. Default: none.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.options.limits = limits;
        self
    }

    /// Sets the search strategy: variable order, value order, restarts. Default:
    /// [`Strategy::default`] (input order, ascending values, no restarts).
    ///
    /// The trail engine follows all of it. The replay engine of a model follows the
    /// static part: a given variable order and ascending, descending or given value
    /// orders; it has no domains, so first-fail means input order there. A hand-written
    /// `amb` program makes its own choices and ignores the strategy.
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.options.strategy = strategy;
        self
    }

    /// Sets when a model's constraints are checked. Default: [`Checking::Early`]. A
    /// hand-written `amb` program checks where it calls `require` and ignores this.
    pub fn checking(mut self, checking: Checking) -> Self {
        self.options.checking = checking;
        self
    }

    /// Keeps one solution per class of the model's declared symmetries (the least in
    /// lexicographic order of value indices), pruning during the search. A model without
    /// symmetries, or a hand-written `amb` program, is unaffected.
    pub fn up_to_symmetry(mut self) -> Self {
        self.options.up_to_symmetry = true;
        self
    }

    /// Transforms every solution with `f` (a typed view of a model's
    /// [`Assignment`](crate::Assignment), say). Counting never calls it.
    pub fn map<U: 'a>(self, f: impl FnMut(T) -> U + 'a) -> Solver<'a, U>
    where
        T: 'a,
    {
        let make = self.make;
        Solver {
            make: Box::new(move |options| {
                let inner = make(options)?;
                let mapped: BoxedEngine<'a, U> = Box::new(Mapped { inner, f });
                Ok(mapped)
            }),
            options: self.options,
        }
    }

    /// Starts the search: a lazy iterator of solutions in the engine's documented order.
    pub fn solutions(self) -> Solutions<'a, T> {
        let control = Control::new(self.options.limits.clone());
        match (self.make)(&self.options) {
            Ok(engine) => Solutions::new(engine, control),
            Err(error) => Solutions::failed(error, control),
        }
    }

    /// The first solution, or `None` when there is none (or a limit stopped the search
    /// first: use [`solutions`](Solver::solutions) to tell the two apart).
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn first(self) -> Result<Option<T>, SearchError> {
        let mut solutions = self.solutions();
        let first = solutions.next();
        match solutions.error() {
            Some(error) => Err(error.clone()),
            None => Ok(first),
        }
    }

    /// Counts the solutions without storing or even building them.
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count(self) -> Result<Summary, SearchError> {
        self.solutions().summarize()
    }
}

impl<T> fmt::Debug for Solver<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// A searcher whose solutions go through a function.
struct Mapped<'a, T, F> {
    inner: BoxedEngine<'a, T>,
    f: F,
}

impl<T, U, F: FnMut(T) -> U> Searcher for Mapped<'_, T, F> {
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
}

/// The result of a count: how many solutions, why the search stopped, and its statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Solutions counted.
    pub solutions: u64,
    /// Why the search stopped; the count is exact only if this is
    /// [`StopReason::Exhausted`].
    pub stop_reason: StopReason,
    /// What the search did.
    pub stats: Stats,
}

enum State {
    Running,
    Stopped(StopReason),
    Failed(SearchError),
}

/// A running search: a lazy iterator of solutions.
///
/// Nothing is searched until [`next`](Iterator::next) is called, and each call searches
/// only as far as the next solution. When the iterator ends,
/// [`stop_reason`](Solutions::stop_reason) says why, and [`error`](Solutions::error) holds
/// the error if one ended it.
pub struct Solutions<'a, T> {
    engine: Option<BoxedEngine<'a, T>>,
    control: Control,
    state: State,
    solutions: u64,
    busy: Duration,
}

impl<'a, T> Solutions<'a, T> {
    fn new(engine: BoxedEngine<'a, T>, control: Control) -> Self {
        let state = if control.solution_limit() == Some(0) {
            State::Stopped(StopReason::SolutionLimit)
        } else {
            State::Running
        };
        Solutions {
            engine: Some(engine),
            control,
            state,
            solutions: 0,
            busy: Duration::ZERO,
        }
    }

    fn failed(error: SearchError, control: Control) -> Self {
        Solutions {
            engine: None,
            control,
            state: State::Failed(error),
            solutions: 0,
            busy: Duration::ZERO,
        }
    }

    /// Why the search stopped, or `None` while it can still yield solutions.
    /// A search ended by an error reports `None` here and the error in
    /// [`error`](Solutions::error).
    pub fn stop_reason(&self) -> Option<StopReason> {
        match self.state {
            State::Stopped(reason) => Some(reason),
            State::Running | State::Failed(_) => None,
        }
    }

    /// The error that ended the search, if one did.
    pub fn error(&self) -> Option<&SearchError> {
        match &self.state {
            State::Failed(error) => Some(error),
            State::Running | State::Stopped(_) => None,
        }
    }

    /// Statistics so far, including the time spent searching.
    pub fn stats(&self) -> Stats {
        let mut stats = self.engine.as_ref().map(|e| e.stats()).unwrap_or_default();
        stats.elapsed = self.busy;
        stats
    }

    /// The share of the search tree finished so far, in `0.0..=1.0`, estimated from the
    /// open choice frames (the first choice's finished alternatives weigh most).
    pub fn progress(&self) -> f64 {
        match (&self.state, &self.engine) {
            (State::Stopped(StopReason::Exhausted), _) => 1.0,
            (_, Some(engine)) => engine.progress(),
            (_, None) => 0.0,
        }
    }

    /// Counts the remaining solutions without building them.
    pub fn count_all(&mut self) -> u64 {
        self.count_while(None)
    }

    /// Counts solutions for about `budget` of wall time, then returns how many it found.
    /// The search is not stopped: call again to go on (see
    /// [`stop_reason`](Solutions::stop_reason) to know whether it ended). This is how a
    /// long count shows progress.
    pub fn count_for(&mut self, budget: Duration) -> u64 {
        self.count_while(Some(Instant::now() + budget))
    }

    /// Counts the remaining solutions and summarizes the search.
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn summarize(mut self) -> Result<Summary, SearchError> {
        let solutions = self.count_all();
        match self.state {
            State::Failed(error) => Err(error),
            State::Stopped(stop_reason) => Ok(Summary {
                solutions,
                stop_reason,
                stats: self.stats(),
            }),
            State::Running => unreachable!("count_all runs until the search stops"),
        }
    }

    fn count_while(&mut self, pause_at: Option<Instant>) -> u64 {
        let started = Instant::now();
        self.control.set_pause(pause_at);
        let mut found = 0;
        while self.step() {
            found += 1;
        }
        self.control.set_pause(None);
        self.busy += started.elapsed();
        found
    }

    /// Searches to the next solution; `true` if the engine stands on one.
    fn step(&mut self) -> bool {
        let State::Running = self.state else {
            return false;
        };
        let Some(engine) = self.engine.as_mut() else {
            return false;
        };
        match engine.advance(&mut self.control) {
            Ok(Step::Solution) => {
                self.solutions += 1;
                if self
                    .control
                    .solution_limit()
                    .is_some_and(|max| self.solutions >= max)
                {
                    self.state = State::Stopped(StopReason::SolutionLimit);
                }
                true
            }
            Ok(Step::Interrupted(Interrupt::Stop(reason))) => {
                self.state = State::Stopped(reason);
                false
            }
            Ok(Step::Interrupted(Interrupt::Pause)) => false,
            Err(error) => {
                self.state = State::Failed(error);
                false
            }
        }
    }
}

impl<T> Iterator for Solutions<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let started = Instant::now();
        let found = self.step();
        self.busy += started.elapsed();
        if found {
            self.engine.as_mut().map(|engine| engine.take_solution())
        } else {
            None
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
