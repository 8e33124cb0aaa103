//! A model with a typed view of its solutions and the options to solve it with: what
//! `constraints!` returns.

use std::fmt;
use std::sync::Arc;

use crate::choice::Subproblem;
use crate::error::SearchError;
use crate::model::{Assignment, Model};
use crate::options::Options;
use crate::solve::{Best, Improving, Solutions, Solver, Summary, TryImproving, TrySolutions};
use crate::symmetry::Symmetry;

type Extract<'a, S> = Arc<dyn Fn(&Assignment) -> S + Send + Sync + 'a>;

/// A [`Model`], a function turning its assignments into typed solutions `S`, and the
/// [`Options`] to solve it with.
///
/// `constraints!` builds one, with a solution struct whose fields are the chosen names;
/// [`Puzzle::new`] builds one by hand.
///
/// A puzzle is an ordinary value: `Clone` (cheaply: the model and the extractor are
/// shared), `Send` and `Sync` (its model's predicates and its extractor must be), so it
/// can be tried on several engines or handed to threads. Builder methods take it by value
/// and return it; `solutions`, `first` and `count` borrow it, and the iterator they start
/// does not: it can outlive the puzzle.
///
/// ```
/// use ambsolve::{Engine, Limits, Model, Puzzle};
///
/// let mut model = Model::new();
/// let x = model.var(1..=3);
/// let y = model.var(1..=3);
/// model.require((&x, &y), |x, y| x < y);
/// let pairs = Puzzle::new(model, move |s| (*s.value(&x), *s.value(&y)));
/// assert_eq!(pairs.solutions().collect::<Vec<_>>(), [(1, 2), (1, 3), (2, 3)]);
///
/// // One puzzle, both engines, any chain of settings.
/// for engine in [Engine::Trail, Engine::Replay] {
///     let first_two: Vec<_> = pairs.clone().engine(engine).limits(Limits::new().solutions(2)).solutions().collect();
///     assert_eq!(first_two, [(1, 2), (1, 3)]);
/// }
/// // Handed to another thread.
/// let counted = std::thread::spawn(move || pairs.engine(Engine::Replay).count());
/// assert_eq!(counted.join().unwrap()?.solutions, 3);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
pub struct Puzzle<'a, S> {
    model: Arc<Model<'a>>,
    extract: Extract<'a, S>,
    options: Options,
}

impl<S> Clone for Puzzle<'_, S> {
    fn clone(&self) -> Self {
        Puzzle {
            model: Arc::clone(&self.model),
            extract: Arc::clone(&self.extract),
            options: self.options.clone(),
        }
    }
}

impl<'a, S> Puzzle<'a, S> {
    /// A puzzle over `model` whose solutions are `extract(assignment)`, with default
    /// options.
    pub fn new(model: Model<'a>, extract: impl Fn(&Assignment) -> S + Send + Sync + 'a) -> Self {
        Puzzle {
            model: Arc::new(model),
            extract: Arc::new(extract),
            options: Options::default(),
        }
    }

    crate::options::setters!();

    /// Declares symmetries of the puzzle's model (see [`Model::symmetries`]).
    #[must_use]
    pub fn symmetries(mut self, symmetries: impl IntoIterator<Item = Symmetry>) -> Self {
        Arc::make_mut(&mut self.model).symmetries(symmetries);
        self
    }

    /// The same puzzle with solutions transformed by `f`: how a function returns a puzzle
    /// from `constraints!` with a solution type it can name
    /// (`-> Puzzle<'static, Vec<usize>>` from `constraints! { .. }.map(|s| s.q)`).
    pub fn map<U>(self, f: impl Fn(S) -> U + Send + Sync + 'a) -> Puzzle<'a, U>
    where
        S: 'a,
    {
        let extract = self.extract;
        Puzzle {
            model: self.model,
            extract: Arc::new(move |assignment| f(extract(assignment))),
            options: self.options,
        }
    }

    /// Cuts the search into subproblems (see [`Solver::split`]).
    ///
    /// # Errors
    /// As [`Solver::split`].
    pub fn split(&self) -> Result<Vec<Subproblem>, SearchError>
    where
        S: 'a,
    {
        self.solver().split()
    }

    /// The model.
    pub fn model(&self) -> &Model<'a> {
        &self.model
    }

    /// A solver configured with this puzzle's options.
    pub fn solver(&self) -> Solver<'a, S>
    where
        S: 'a,
    {
        let extract = Arc::clone(&self.extract);
        Solver::for_model(Arc::clone(&self.model))
            .with_options(self.options.clone())
            .map(move |assignment| extract(&assignment))
    }

    /// The solutions, lazily, in the engine's order.
    ///
    /// # Panics
    /// The iterator panics if the model is invalid (see [`Solutions`]);
    /// [`try_solutions`](Puzzle::try_solutions) yields the error instead.
    pub fn solutions(&self) -> Solutions<'a, S>
    where
        S: 'a,
    {
        self.solver().solutions()
    }

    /// The solutions as `Ok`s, then one `Err` if the search cannot go on.
    pub fn try_solutions(&self) -> TrySolutions<'a, S>
    where
        S: 'a,
    {
        self.solver().try_solutions()
    }

    /// The first solution, if any.
    ///
    /// # Errors
    /// [`SearchError::InvalidModel`] if the model was built wrongly.
    pub fn first(&self) -> Result<Option<S>, SearchError>
    where
        S: 'a,
    {
        self.solver().first()
    }

    /// Counts the solutions without building them. Exact only when the summary's
    /// `stop_reason` is `Exhausted`, which local search never is: there, 0 solutions
    /// stopped by a limit means "none found", not "none" (see [`Solver::count`]).
    ///
    /// # Errors
    /// [`SearchError::InvalidModel`] if the model was built wrongly.
    pub fn count(&self) -> Result<Summary, SearchError>
    where
        S: 'a,
    {
        self.solver().count()
    }

    /// Optimises the objective: improving solutions, each strictly better than the last
    /// (see [`Solver::improving`]).
    pub fn improving(&self) -> Improving<'a, S>
    where
        S: 'a,
    {
        self.solver().improving()
    }

    /// As [`improving`](Puzzle::improving), yielding the error instead of panicking.
    pub fn try_improving(&self) -> TryImproving<'a, S>
    where
        S: 'a,
    {
        self.solver().try_improving()
    }

    /// The best solution, and whether it is proved optimal (see [`Solver::best`]).
    ///
    /// # Errors
    /// [`SearchError::InvalidModel`] if the model was built wrongly,
    /// [`SearchError::NoObjective`] if it has no objective.
    pub fn best(&self) -> Result<Best<S>, SearchError>
    where
        S: 'a,
    {
        self.solver().best()
    }
}

impl<S> fmt::Debug for Puzzle<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Puzzle")
            .field("model", &self.model)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}
