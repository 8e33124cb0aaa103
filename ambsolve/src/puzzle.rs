//! A model with a typed view of its solutions and the options to solve it with: what
//! `constraints!` returns.

use std::fmt;
use std::sync::Arc;

use std::path::Path;

use crate::choice::Subproblem;
use crate::error::SearchError;
use crate::limits::Limits;
use crate::model::{Assignment, Model};
use crate::observe::{Observer, Shared};
use crate::options::{Checking, Checkpointing, Engine, Options};
use crate::solve::{Best, Improving, Solutions, Solver, Summary, TryImproving, TrySolutions};
use crate::strategy::Strategy;
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
/// model.require2(&x, &y, |x, y| x < y);
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

    /// Declares symmetries of the puzzle's model (see [`Model::symmetries`]).
    #[must_use]
    pub fn symmetries(mut self, symmetries: impl IntoIterator<Item = Symmetry>) -> Self {
        Arc::make_mut(&mut self.model).symmetries(symmetries);
        self
    }

    /// Keeps one solution per symmetry class (see [`Solver::up_to_symmetry`]).
    #[must_use]
    pub fn up_to_symmetry(mut self) -> Self {
        self.options.up_to_symmetry = true;
        self
    }

    /// Counts one representative per symmetry class, each weighing the size of its
    /// class: the plain count, sooner (see [`Solver::count_through_symmetry`]).
    #[must_use]
    pub fn count_through_symmetry(mut self) -> Self {
        self.options.count_through_symmetry = true;
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

    /// Solves with `engine`. Default: [`Engine::Trail`].
    #[must_use]
    pub fn engine(mut self, engine: Engine) -> Self {
        self.options.engine = engine;
        self
    }

    /// Searches with `strategy`. Default: input order, ascending values.
    #[must_use]
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.options.strategy = strategy;
        self
    }

    /// Seeds the local engine's random choices (see [`Solver::seed`]).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.options.seed = seed;
        self
    }

    /// Stops at `limits`. Default: none.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.options.limits = limits;
        self
    }

    /// Checks constraints as `checking` says. Default: [`Checking::Early`].
    #[must_use]
    pub fn checking(mut self, checking: Checking) -> Self {
        self.options.checking = checking;
        self
    }

    /// Reports every step of the search to `observer` (see [`Solver::observe`]).
    #[must_use]
    pub fn observe(mut self, observer: impl Observer + 'static) -> Self {
        self.options.observer = Some(Shared::new(observer));
        self
    }

    /// Searches on `threads` threads (see [`Solver::threads`]: at most 1024). Default: 1.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.options.threads = threads;
        self
    }

    /// Cuts a search on several threads into at least `n` subproblems (see
    /// [`Solver::subproblems`]).
    #[must_use]
    pub fn subproblems(mut self, n: usize) -> Self {
        self.options.subproblems = Some(n);
        self
    }

    /// Searches only below `subproblem` (see [`Solver::subproblem`]).
    #[must_use]
    pub fn subproblem(mut self, subproblem: &Subproblem) -> Self {
        self.options.scope.prefix = subproblem.path().to_vec();
        self
    }

    /// Counts resumably, recording finished subproblems in `path` (see
    /// [`Solver::checkpoint`]).
    #[must_use]
    pub fn checkpoint(mut self, path: impl AsRef<Path>) -> Self {
        self.options.checkpoint = Some(Checkpointing {
            path: path.as_ref().to_path_buf(),
            resume: false,
        });
        self
    }

    /// Finishes a count from the checkpoint at `path` (see [`Solver::resume`]).
    #[must_use]
    pub fn resume(mut self, path: impl AsRef<Path>) -> Self {
        self.options.checkpoint = Some(Checkpointing {
            path: path.as_ref().to_path_buf(),
            resume: true,
        });
        self
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

    /// Replaces every option at once.
    #[must_use]
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// The options the puzzle is solved with.
    pub fn options(&self) -> &Options {
        &self.options
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

    /// Counts the solutions without building them.
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
