//! The seam: the one place that knows every engine. It turns a model (or a hand-written
//! `amb` program) plus one [`Options`] value into a running search, a [`Solutions`]
//! iterator. A new engine adds a variant to [`Engine`], its own folder, and one arm here.

mod checkpoint;
mod handle;
mod infeasible;
mod lexicographic;
mod lns;
#[cfg(feature = "mpi")]
mod mpi;
mod optimize;
mod parallel;
mod solutions;

use std::fmt;
use std::sync::Arc;

pub use self::handle::SearchHandle;
pub use self::infeasible::Infeasibility;
pub use self::lexicographic::LexBest;
#[cfg(feature = "mpi")]
pub use self::mpi::DistributedCount;
pub use self::optimize::{Best, Improvement, Improving, TryImproving};
use self::solutions::MappedSearch;
pub use self::solutions::{Solutions, Summary, TrySolutions};
use crate::choice::{Fail, Subproblem};
use crate::control::{Incumbent, Search};
use crate::engine::local::LocalEngine;
use crate::engine::replay::{Amb, ReplayEngine, model_program};
use crate::engine::trail::{LearningEngine, TrailEngine};
use crate::error::SearchError;
use crate::model::{Assignment, Model};
use crate::options::{Checking, Engine, Options};
use crate::symmetry::{MAX_GROUP, Tables};

use self::lexicographic::LexSearch;
use self::lns::LnsSearch;
use self::parallel::Parallel;

/// A running search of any engine, boxed.
type BoxedSearch<'a, T> = Box<dyn Search<Item = T> + 'a>;

/// How a solver starts its search from the options it was given.
type Start<'a, T> = Box<dyn FnOnce(&Options) -> Result<BoxedSearch<'a, T>, SearchError> + 'a>;

/// Starts `model` on the engine `options` names: on several threads, or resumable,
/// through [`Parallel`].
fn start<'a>(
    model: &Arc<Model<'a>>,
    options: &Options,
) -> Result<BoxedSearch<'a, Assignment>, SearchError> {
    check(model, options)?;
    if options.incumbent.is_some() && model.is_lexicographic() {
        return Ok(Box::new(LexSearch::new(model, options)?));
    }
    if options.lns.is_some() {
        return Ok(Box::new(LnsSearch::new(model, options)?));
    }
    // A node limit spent by threads racing for it would make what is found depend on
    // timing: such a search keeps to one thread, unless it is a resumable count.
    let threads = if options.limits.nodes.is_some() {
        1
    } else {
        options.threads
    };
    if options.checkpoint.is_some() && options.engine == Engine::Local {
        return Err(SearchError::Unsupported(
            "local search does not count resumably (it cannot count): use the trail engine".into(),
        ));
    }
    if options.checkpoint.is_some() || threads > 1 {
        if let Some(why) = sequential_only(options) {
            if options.checkpoint.is_some() {
                return Err(SearchError::Unsupported(format!(
                    "a resumable count cuts the search into subproblems, which {why} does not allow"
                )));
            }
        } else {
            return Ok(Box::new(Parallel::new(Arc::clone(model), options)?));
        }
    }
    Ok(engine(model, options)?)
}

/// What keeps a search on one thread, in one piece, if anything: local search (it has no
/// tree to cut), an observer (it sees one search, step by step), restarts (they follow no
/// fixed order) or a subproblem (already a piece).
fn sequential_only(options: &Options) -> Option<&'static str> {
    if options.engine == Engine::Local {
        Some("local search")
    } else if options.lns.is_some() {
        Some("a large neighbourhood search")
    } else if options.strategy.learning {
        Some("a search that learns")
    } else if options.observer.is_some() {
        Some("observing the search")
    } else if options.strategy.restarts.is_some() {
        Some("a strategy with restarts")
    } else if options.strategy.learns() {
        Some("a variable order that learns weights (dom_w_deg)")
    } else if !options.scope.is_whole() {
        Some("searching one subproblem")
    } else {
        None
    }
}

/// The most threads a search runs on (the command-line examples refuse more too): a pool
/// of more would spend its time starting them.
const MAX_THREADS: usize = 1024;

/// Whether `model` can be searched with `options` at all.
fn check(model: &Model<'_>, options: &Options) -> Result<(), SearchError> {
    if let Some(error) = model.error() {
        return Err(SearchError::InvalidModel(error.to_string()));
    }
    if let Some(v) = options
        .strategy
        .named_vars()
        .find(|&v| !model.identity().accepts_id(v))
    {
        return Err(SearchError::InvalidModel(format!(
            "the strategy's variable order names variable {v:?} of another model"
        )));
    }
    check_strategy(options)?;
    if options.threads > MAX_THREADS {
        return Err(SearchError::Unsupported(format!(
            "a search runs on at most {MAX_THREADS} threads, not {}",
            options.threads
        )));
    }
    if options.incumbent.is_some() && model.objective_def().is_none() {
        return Err(SearchError::NoObjective);
    }
    check_lns(options)
}

/// Whether a large neighbourhood search, if the options ask for one, can run as they say:
/// an optimisation, on the trail engine, in one piece, on one thread, unobserved.
fn check_lns(options: &Options) -> Result<(), SearchError> {
    if options.lns.is_none() {
        return Ok(());
    }
    let refused = if options.incumbent.is_none() {
        Some("an optimisation (improving() or best()): it searches for better solutions")
    } else if options.engine != Engine::Trail {
        Some("the trail engine")
    } else if options.threads > 1 {
        Some("one thread")
    } else if options.observer.is_some() {
        Some("no observer: its neighbourhoods are searches of their own")
    } else if !options.scope.is_whole() || options.checkpoint.is_some() {
        Some("the whole search: its neighbourhoods follow no fixed tree")
    } else {
        None
    };
    match refused {
        Some(needs) => Err(SearchError::Unsupported(format!(
            "a large neighbourhood search (lns) needs {needs}"
        ))),
        None => Ok(()),
    }
}

/// Whether the engine can follow the strategy as the options use it: splits are the trail
/// engine's, and an observer sees values tried; an order that learns follows no fixed
/// tree, so it names no subproblem.
fn check_strategy(options: &Options) -> Result<(), SearchError> {
    let strategy = &options.strategy;
    if strategy.splits() {
        if options.engine == Engine::Replay {
            return Err(SearchError::Unsupported(
                "the replay engine branches on values: splitting domains \
                 (ValueOrder::Split, ReverseSplit) needs the trail engine"
                    .into(),
            ));
        }
        if options.observer.is_some() {
            return Err(SearchError::Unsupported(
                "an observer sees the values a search tries: a strategy splitting domains \
                 (ValueOrder::Split, ReverseSplit) cannot be observed"
                    .into(),
            ));
        }
    }
    if strategy.learning {
        let refused = if options.engine != Engine::Trail {
            Some("the trail engine only")
        } else if options.checking == Checking::AtEnd {
            Some("propagation: not generate-and-test (Checking::AtEnd)")
        } else if options.observer.is_some() {
            Some("no observer: it backjumps, so it builds no tree of choices")
        } else if !options.scope.is_whole() {
            Some("the whole search: it follows no fixed tree, so it names no subproblem")
        } else if options.checkpoint.is_some() {
            Some("a search in one piece: not a resumable count")
        } else if options.threads > 1 {
            Some("one thread")
        } else {
            None
        };
        if let Some(needs) = refused {
            return Err(SearchError::Unsupported(format!(
                "a search that learns (Strategy::learning) needs {needs}"
            )));
        }
    }
    if strategy.learns() && !options.scope.is_whole() {
        return Err(SearchError::Unsupported(
            "a variable order that learns weights (dom_w_deg) follows no fixed tree: \
             its search cannot be cut into subproblems"
                .into(),
        ));
    }
    Ok(())
}

/// One engine on `model`, in `options.scope`; it can move between threads.
fn engine<'a>(
    model: &Arc<Model<'a>>,
    options: &Options,
) -> Result<parallel::Engine<'a>, SearchError> {
    let symmetry = symmetry_tables(model, options)?;
    engine_with(model, options, symmetry)
}

/// The symmetry tables an engine on `model` with `options` uses, if any: the group the
/// declared symmetries generate. Counting through symmetry wins over up to symmetry;
/// optimising ignores it, and a group too large to enumerate is counted plainly.
///
/// # Errors
/// Up to symmetry, [`SearchError::Unsupported`] if the group is too large to enumerate
/// (the declared symmetries alone would keep several members of a class), or, when
/// optimising, if a declared symmetry does not keep the objective's value (the optimum
/// might be in no class's leader); the model's errors.
fn symmetry_tables(model: &Model<'_>, options: &Options) -> Result<Option<Tables>, SearchError> {
    if options.count_through_symmetry && options.incumbent.is_none() {
        return Ok(model
            .symmetry_tables()?
            .for_counting()
            .filter(|t| !t.is_empty()));
    }
    if !options.up_to_symmetry {
        return Ok(None);
    }
    let tables = model.symmetry_tables()?;
    if tables.is_empty() {
        return Ok(None);
    }
    if let (Some(_), Some(objective)) = (&options.incumbent, model.objective_def()) {
        let costs = objective.literal_costs();
        let weight = |v: usize, x: u32| costs.get(&v).map_or(0, |c| c[x as usize]);
        if let Some(g) = (0..tables.len()).find(|&g| !tables.keeps(g, weight)) {
            return Err(SearchError::Unsupported(format!(
                "symmetry `{}` does not keep the objective: an assignment and its image can \
                 have different values, so optimising up to symmetry could miss the optimum \
                 (optimise without up_to_symmetry, or declare only symmetries that keep the \
                 objective)",
                model.declared_symmetries()[g].name()
            )));
        }
    }
    match tables.closed() {
        Some(group) => Ok(Some(group).filter(|t| !t.is_empty())),
        None => Err(SearchError::Unsupported(format!(
            "the declared symmetries generate a group of more than {MAX_GROUP} elements: \
             solving up to symmetry keeps the least member of each class under the whole \
             group, and cannot enumerate it"
        ))),
    }
}

/// As [`engine`], with the symmetry tables made already (a parallel search makes them
/// once for all its subproblems).
fn engine_with<'a>(
    model: &Arc<Model<'a>>,
    options: &Options,
    symmetry: Option<Tables>,
) -> Result<parallel::Engine<'a>, SearchError> {
    let model = Arc::clone(model);
    Ok(match options.engine {
        Engine::Trail if options.strategy.learning => {
            if symmetry.is_some() {
                return Err(SearchError::Unsupported(
                    "a search that learns (Strategy::learning) does not use symmetries: \
                     solve without them, or without learning"
                        .into(),
                ));
            }
            Box::new(LearningEngine::new(model, options))
        }
        Engine::Trail => Box::new(TrailEngine::new(model, options, symmetry)),
        Engine::Replay => Box::new(model_program(model, options, symmetry)),
        Engine::Local => Box::new(LocalEngine::new(model, options)?),
    })
}

impl<'a> Model<'a> {
    /// A solver for this model on `engine`. Solutions are [`Assignment`]s.
    ///
    /// The solver keeps its own copy of the model (closures and tables are shared, not
    /// copied), so it does not borrow `self`.
    pub fn solve(&self, engine: Engine) -> Solver<'a, Assignment> {
        Solver::for_model(Arc::new(self.clone())).engine(engine)
    }

    /// A solver for a shared model on `engine`: as [`solve`](Model::solve), without
    /// the copy (for models of millions of constraints).
    pub fn solve_shared(model: &Arc<Self>, engine: Engine) -> Solver<'a, Assignment> {
        Solver::for_model(Arc::clone(model)).engine(engine)
    }
}

/// A search, configured but not started: which engine, which limits, which strategy.
///
/// Start it with [`solutions`](Solver::solutions) (a lazy iterator),
/// [`try_solutions`](Solver::try_solutions), [`first`](Solver::first) or
/// [`count`](Solver::count). Hand-written `amb` programs get one from [`replay`];
/// models from [`Model::solve`](crate::Model::solve). Every builder method takes the
/// solver by value and returns it.
#[must_use = "a solver does nothing until solutions(), first() or count() is called"]
pub struct Solver<'a, T> {
    start: Start<'a, T>,
    options: Options,
    /// The model searched; `None` for a hand-written `amb` program.
    model: Option<Arc<Model<'a>>>,
}

impl<'a> Solver<'a, Assignment> {
    /// A solver for a shared model, with default options.
    pub(crate) fn for_model(model: Arc<Model<'a>>) -> Self {
        let shared = Arc::clone(&model);
        Solver {
            start: Box::new(move |options| start(&shared, options)),
            options: Options::default(),
            model: Some(model),
        }
    }
}

impl<'a, T> Solver<'a, T> {
    crate::options::setters!();

    /// Cuts the search into at least as many subproblems as a search on
    /// [`threads`](Solver::threads) would (see [`subproblems`](Solver::subproblems)),
    /// fewer only if the tree is that small, listed in the order the search meets them.
    /// Searched one after another with [`subproblem`](Solver::subproblem), they yield the
    /// search's solutions in its order; their counts add up to its count. This is how a
    /// search is spread over machines.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(0..6);
    /// let y = m.var(0..6);
    /// m.require((&x, &y), |x, y| x + y == 5);
    /// let whole: Vec<_> = m.solve(Engine::Trail).solutions().collect();
    /// let parts = m.solve(Engine::Trail).subproblems(3).split()?;
    /// assert!(parts.len() >= 3);
    /// let mut pieced = Vec::new();
    /// for part in &parts {
    ///     pieced.extend(m.solve(Engine::Trail).subproblem(part).solutions());
    /// }
    /// assert_eq!(pieced, whole);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] for a hand-written `amb` program (its closure runs
    /// once per solver), or if the search was cancelled; the model's errors.
    pub fn split(self) -> Result<Vec<Subproblem>, SearchError> {
        let Some(model) = &self.model else {
            return Err(SearchError::Unsupported(
                "a hand-written amb program cannot be split: split a model".into(),
            ));
        };
        check(model, &self.options)?;
        let (parts, _) = parallel::split(model, &self.options, parallel::target(&self.options))?;
        Ok(parts)
    }

    /// Transforms every solution with `f` (a typed view of a model's
    /// [`Assignment`], say). Counting never calls it.
    pub fn map<U: 'a>(self, f: impl FnMut(T) -> U + 'a) -> Solver<'a, U>
    where
        T: 'a,
    {
        let start = self.start;
        Solver {
            start: Box::new(move |options| {
                let inner = start(options)?;
                let mapped: BoxedSearch<'a, U> = Box::new(MappedSearch::new(inner, f));
                Ok(mapped)
            }),
            options: self.options,
            model: self.model,
        }
    }

    /// Starts the search: a lazy iterator of solutions in the engine's documented order.
    ///
    /// The iterator panics if the search cannot go on (an invalid model, a replay program
    /// found not to be deterministic); [`try_solutions`](Solver::try_solutions) yields that
    /// error instead.
    pub fn solutions(self) -> Solutions<'a, T> {
        Solutions::start(self.start, self.options)
    }

    /// Starts the search: a lazy iterator of `Ok(solution)`s that ends with one
    /// `Err(error)` if the search cannot go on.
    pub fn try_solutions(self) -> TrySolutions<'a, T> {
        self.solutions().fallible()
    }

    /// The first solution, or `None` when there is none (or a limit stopped the search
    /// first: use [`solutions`](Solver::solutions) to tell the two apart).
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn first(self) -> Result<Option<T>, SearchError> {
        self.try_solutions().next().transpose()
    }

    /// Counts the solutions without storing or even building them.
    ///
    /// The count is exact only when [`Summary::stop_reason`] is
    /// [`Exhausted`](crate::StopReason::Exhausted); otherwise a limit stopped the search and
    /// it counts what was found before. **Local search ([`Engine::Local`]) is never
    /// exhausted**: it counts the distinct solutions it finds until a limit stops it, so
    /// `Ok` with 0 solutions and a [`NodeLimit`](crate::StopReason::NodeLimit) or
    /// [`TimeLimit`](crate::StopReason::TimeLimit) means "none found within the limit",
    /// not "no solution": ask a complete engine for that.
    ///
    /// ```
    /// use ambsolve::{Engine, Limits, Model, StopReason};
    ///
    /// // Two queens on a 2×2 board: there is no solution.
    /// let mut m = Model::new();
    /// let q = m.vars("q", 2, 0..2i64);
    /// m.all_different(&q);
    /// m.all_different_offset([(&q[0], 0), (&q[1], 1)]);
    /// m.all_different_offset([(&q[0], 0), (&q[1], -1)]);
    /// let proved = m.solve(Engine::Trail).count()?;
    /// assert_eq!((proved.solutions, proved.stop_reason), (0, StopReason::Exhausted));
    /// let local = m.solve(Engine::Local).limits(Limits::new().nodes(1_000)).count()?;
    /// assert_eq!((local.solutions, local.stop_reason), (0, StopReason::NodeLimit)); // not a proof
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count(self) -> Result<Summary, SearchError> {
        self.solutions().summarize()
    }

    /// Optimises the model's objective by branch and bound: a lazy iterator of solutions,
    /// each strictly better than the one before, with its objective value and when it
    /// was found. After the last one the search has either proved it optimal
    /// ([`stop_reason`](SearchHandle::stop_reason) is [`Exhausted`](crate::StopReason::Exhausted))
    /// or stopped on a limit.
    ///
    /// Each solution found tightens a bound on the objective: on the trail engine it is a
    /// propagator, pruning from the next node on; on the replay engine it is checked after
    /// each choice of one of the objective's variables. Both engines prove the same
    /// optimum (the solutions before it may differ).
    ///
    /// The iterator panics as [`solutions`](Solver::solutions) does if the search cannot
    /// go on, and with [`SearchError::NoObjective`] if the model has no objective;
    /// [`try_improving`](Solver::try_improving) yields the error instead.
    pub fn improving(mut self) -> Improving<'a, T> {
        self.options.incumbent = Some(Arc::new(Incumbent::new()));
        Improving::new(self.solutions())
    }

    /// As [`improving`](Solver::improving), with `Result` items: `Ok(improvement)`s, then
    /// one `Err(error)` if the search cannot go on.
    pub fn try_improving(self) -> TryImproving<'a, T> {
        self.improving().fallible()
    }

    /// The best solution: optimal if [`Best::proved`], else the best found before a limit
    /// (time, nodes, cancellation) stopped the search. A limit never loses the best
    /// solution found so far.
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, Model};
    ///
    /// // The most valuable pair of different items within a weight budget.
    /// let (weights, values) = ([3, 4, 5, 6], [4, 5, 8, 8]);
    /// let mut m = Model::new();
    /// let a = m.var(0..4usize);
    /// let b = m.var(0..4usize);
    /// m.linear([(1, &a), (-1, &b)], Cmp::Lt, 0);
    /// let wa = m.var(weights);
    /// let wb = m.var(weights);
    /// let va = m.var(values);
    /// let vb = m.var(values);
    /// for (item, w, v) in [(&a, &wa, &va), (&b, &wb, &vb)] {
    ///     m.table_indices(&[item.id(), w.id(), v.id()], (0..4u32).map(|i| [i, i, i]));
    /// }
    /// m.linear([(1, &wa), (1, &wb)], Cmp::Le, 9);
    /// m.maximize([(1, &va), (1, &vb)]);
    /// for engine in [Engine::Trail, Engine::Replay] {
    ///     let best = m.solve(engine).best()?;
    ///     assert!(best.proved);
    ///     assert_eq!(best.objective, Some(13)); // items 1 and 2: weight 9, value 13
    ///     let s = best.solution.expect("a solution");
    ///     assert_eq!((*s.value(&a), *s.value(&b)), (1, 2));
    /// }
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    ///
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did;
    /// [`SearchError::NoObjective`] if the model has no objective.
    pub fn best(self) -> Result<Best<T>, SearchError> {
        self.improving().best()
    }
}

impl<T> fmt::Debug for Solver<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// Runs an `amb` program on the replay engine.
///
/// The closure is run once per path; it must be deterministic given its choices (the same
/// choices with the same alternatives, the same conditions and the same result whenever
/// the earlier choices are the same).
///
/// # What is checked, and what is not
///
/// The engine sees the *shape* of each run and reports, instead of searching the wrong
/// tree:
/// - a replayed choice with another number of alternatives than when it was recorded
///   ([`SearchError::Nondeterministic`]);
/// - a run that returns or fails before it has replayed its whole recorded path
///   ([`SearchError::EndedDuringReplay`]);
/// - an iterator given to `choose` that yields fewer items than its exact `size_hint`
///   ([`SearchError::ShortIterator`]).
///
/// It cannot see what a run computes between its choices. A program whose choices keep
/// their number of alternatives but whose *values* or *conditions* change from run to run
/// (values drawn at random, a `require` on the clock or on a counter kept across runs, a
/// result read from shared state) is not detected: it searches some tree, and its counts
/// and solutions are whatever that tree gives. Keep such state out of the closure.
///
/// Solutions come in the order of `ambRun`: depth-first, lexicographic over the choice
/// indices.
///
/// ```
/// let chain = ambsolve::replay(|amb| {
///     let linked = |a: &str, b: &str| a.ends_with(&b[..1]);
///     let w1 = amb.choose(["the", "that", "a"])?;
///     let w2 = amb.choose(["frog", "elephant", "thing"])?;
///     amb.require(linked(w1, w2))?;
///     let w3 = amb.choose(["walked", "treaded", "grows"])?;
///     amb.require(linked(w2, w3))?;
///     let w4 = amb.choose(["slowly", "quickly"])?;
///     amb.require(linked(w3, w4))?;
///     Ok([w1, w2, w3, w4].join(" "))
/// });
/// assert_eq!(chain.first()?.as_deref(), Some("that thing grows slowly"));
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
pub fn replay<'a, T, F>(program: F) -> Solver<'a, T>
where
    F: FnMut(&mut Amb<'_>) -> Result<T, Fail> + 'a,
    T: 'a,
{
    Solver {
        start: Box::new(move |options| {
            if options.incumbent.is_some() {
                return Err(SearchError::NoObjective);
            }
            if options.checkpoint.is_some() || !options.scope.is_whole() {
                return Err(SearchError::Unsupported(
                    "a hand-written amb program cannot be cut into subproblems: \
                     write it as a model"
                        .into(),
                ));
            }
            let search: BoxedSearch<'a, T> =
                Box::new(ReplayEngine::new(program).observed(options.observer.clone()));
            Ok(search)
        }),
        options: Options {
            engine: Engine::Replay,
            ..Options::default()
        },
        model: None,
    }
}
