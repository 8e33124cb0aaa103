//! A model with a typed view of its solutions: what `constraints!` returns.

use std::fmt;

use crate::error::SearchError;
use crate::limits::Limits;
use crate::model::{Assignment, Model};
use crate::solutions::{Checking, Engine, Solutions, Solver, Summary};
use crate::strategy::Strategy;
use crate::symmetry::Symmetry;

type Extract<'a, S> = Box<dyn Fn(&Assignment) -> S + 'a>;

/// A [`Model`] and a function turning its assignments into typed solutions `S`, with the
/// engine, strategy, limits and checking mode to solve it with.
///
/// `constraints!` builds one, with a solution struct whose fields are the chosen names;
/// [`Puzzle::new`] builds one by hand.
///
/// ```
/// use ambsolve::{Engine, Model, Puzzle};
///
/// let mut model = Model::new();
/// let x = model.var(1..=3);
/// let y = model.var(1..=3);
/// model.require2(&x, &y, |x, y| x < y);
/// let pairs = Puzzle::new(model, move |s| (*s.value(&x), *s.value(&y)));
/// assert_eq!(pairs.solutions().collect::<Vec<_>>(), [(1, 2), (1, 3), (2, 3)]);
/// assert_eq!(pairs.engine(Engine::Replay).count()?.solutions, 3);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
pub struct Puzzle<'a, S> {
    model: Model<'a>,
    extract: Extract<'a, S>,
    engine: Engine,
    strategy: Strategy,
    limits: Limits,
    checking: Checking,
    up_to_symmetry: bool,
}

impl<'a, S> Puzzle<'a, S> {
    /// A puzzle over `model` whose solutions are `extract(assignment)`.
    pub fn new(model: Model<'a>, extract: impl Fn(&Assignment) -> S + 'a) -> Self {
        Puzzle {
            model,
            extract: Box::new(extract),
            engine: Engine::default(),
            strategy: Strategy::default(),
            limits: Limits::default(),
            checking: Checking::default(),
            up_to_symmetry: false,
        }
    }

    /// Declares symmetries of the puzzle's model (see [`Model::symmetries`]).
    #[must_use]
    pub fn symmetries(mut self, symmetries: impl IntoIterator<Item = Symmetry>) -> Self {
        self.model.symmetries(symmetries);
        self
    }

    /// Keeps one solution per symmetry class (see [`Solver::up_to_symmetry`]).
    #[must_use]
    pub fn up_to_symmetry(mut self) -> Self {
        self.up_to_symmetry = true;
        self
    }

    /// The same puzzle with solutions transformed by `f`: how a function returns a puzzle
    /// from `constraints!` with a solution type it can name
    /// (`-> Puzzle<'static, Vec<usize>>` from `constraints! { .. }.map(|s| s.q)`).
    pub fn map<U>(self, f: impl Fn(S) -> U + 'a) -> Puzzle<'a, U>
    where
        S: 'a,
    {
        let extract = self.extract;
        Puzzle {
            model: self.model,
            extract: Box::new(move |assignment| f(extract(assignment))),
            engine: self.engine,
            strategy: self.strategy,
            limits: self.limits,
            checking: self.checking,
            up_to_symmetry: self.up_to_symmetry,
        }
    }

    /// Solves with `engine`. Default: [`Engine::Trail`].
    #[must_use]
    pub fn engine(mut self, engine: Engine) -> Self {
        self.engine = engine;
        self
    }

    /// Searches with `strategy`. Default: input order, ascending values.
    #[must_use]
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// Stops at `limits`. Default: none.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Checks constraints as `checking` says. Default: [`Checking::Early`].
    #[must_use]
    pub fn checking(mut self, checking: Checking) -> Self {
        self.checking = checking;
        self
    }

    /// The model.
    pub fn model(&self) -> &Model<'a> {
        &self.model
    }

    /// A solver configured with this puzzle's engine, strategy, limits and checking.
    pub fn solver(&self) -> Solver<'_, S> {
        let solver = self
            .model
            .solve(self.engine)
            .strategy(self.strategy.clone())
            .limits(self.limits.clone())
            .checking(self.checking);
        let solver = if self.up_to_symmetry {
            solver.up_to_symmetry()
        } else {
            solver
        };
        solver.map(|assignment| (self.extract)(&assignment))
    }

    /// The solutions, lazily, in the engine's order.
    pub fn solutions(&self) -> Solutions<'_, S> {
        self.solver().solutions()
    }

    /// The first solution, if any.
    ///
    /// # Errors
    /// [`SearchError::InvalidModel`] if the model was built wrongly.
    pub fn first(&self) -> Result<Option<S>, SearchError> {
        self.solver().first()
    }

    /// Counts the solutions without building them.
    ///
    /// # Errors
    /// [`SearchError::InvalidModel`] if the model was built wrongly.
    pub fn count(&self) -> Result<Summary, SearchError> {
        self.solver().count()
    }
}

impl<S> fmt::Debug for Puzzle<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Puzzle")
            .field("model", &self.model)
            .field("engine", &self.engine)
            .field("strategy", &self.strategy)
            .field("checking", &self.checking)
            .finish_non_exhaustive()
    }
}
