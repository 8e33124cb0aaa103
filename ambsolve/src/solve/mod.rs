//! The seam: the one place that knows every engine. It turns a model (or a hand-written
//! `amb` program) plus one [`Options`] value into a running search, a [`Solutions`]
//! iterator. A new engine adds a variant to [`Engine`], its own folder, and one arm here.

mod checkpoint;
#[cfg(feature = "mpi")]
mod mpi;
mod optimize;
mod parallel;
mod solutions;

use std::fmt;
use std::path::Path;
use std::sync::Arc;

#[cfg(feature = "mpi")]
pub use self::mpi::DistributedCount;
pub use self::optimize::{Best, Improvement, Improving, TryImproving};
use self::solutions::MappedSearch;
pub use self::solutions::{Solutions, Summary, TrySolutions};
use crate::choice::{Fail, Subproblem};
use crate::control::{Incumbent, Search};
use crate::error::SearchError;
use crate::limits::Limits;
use crate::engine::local::LocalEngine;
use crate::model::{Assignment, Model};
use crate::observe::{Observer, Shared};
use crate::options::{Checking, Checkpointing, Engine, Options};
use crate::engine::replay::{Amb, ReplayEngine, model_program};
use crate::engine::trail::TrailEngine;
use crate::strategy::{Strategy, VarOrder};
use crate::symmetry::{MAX_GROUP, Tables};

use self::parallel::Parallel;

/// A running search of any engine, boxed.
type Running<'a, T> = Box<dyn Search<Item = T> + 'a>;

/// How a solver starts its search from the options it was given.
type Start<'a, T> = Box<dyn FnOnce(&Options) -> Result<Running<'a, T>, SearchError> + 'a>;

/// Starts `model` on the engine `options` names: on several threads, or resumable,
/// through [`Parallel`].
fn start<'a>(
    model: &Arc<Model<'a>>,
    options: &Options,
) -> Result<Running<'a, Assignment>, SearchError> {
    check(model, options)?;
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
    } else if options.observer.is_some() {
        Some("observing the search")
    } else if options.strategy.restarts.is_some() {
        Some("a strategy with restarts")
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
    if let VarOrder::Given(vars) | VarOrder::FirstFailThen(vars) = &options.strategy.vars {
        if let Some(v) = vars.iter().find(|&&v| !model.identity().accepts_id(v)) {
            return Err(SearchError::InvalidModel(format!(
                "the strategy's variable order names variable {v:?} of another model"
            )));
        }
    }
    if options.threads > MAX_THREADS {
        return Err(SearchError::Unsupported(format!(
            "a search runs on at most {MAX_THREADS} threads, not {}",
            options.threads
        )));
    }
    if options.incumbent.is_some() && model.objective_def().is_none() {
        return Err(SearchError::NoObjective);
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
    /// Which engine runs the model. Default: [`Engine::Trail`]. A hand-written `amb`
    /// program always runs on the replay engine and ignores this.
    pub fn engine(mut self, engine: Engine) -> Self {
        self.options.engine = engine;
        self
    }

    /// Sets the limits. Default: none.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.options.limits = limits;
        self
    }

    /// Seeds the random choices of the local engine ([`Engine::Local`]): the same seed,
    /// model and limits give the same run. Other engines ignore it. Default: a fixed
    /// seed, so runs repeat.
    pub fn seed(mut self, seed: u64) -> Self {
        self.options.seed = seed;
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

    /// Keeps one solution per class of the model's declared symmetries: the least in
    /// lexicographic order of value indices (the variables in index order) of all the
    /// images of a solution under the group the declared symmetries generate, pruning
    /// during the search. The declared symmetries may be generators only: the search
    /// closes them into their group. A model without symmetries, or a hand-written `amb`
    /// program, is unaffected.
    ///
    /// - A group of more than 1024 elements is [`SearchError::Unsupported`] when the
    ///   search starts (one member of each class could not be told from the others).
    /// - Optimising ([`improving`](Solver::improving), [`best`](Solver::best)) up to
    ///   symmetry finds the optimum only if the symmetries keep the objective's value.
    ///   Each declared symmetry is checked on the objective's definition when the search
    ///   starts: every assignment and its image must have the same value (not only the
    ///   solutions: a symmetry that keeps it on the solutions alone is refused too); one
    ///   that does not is [`SearchError::Unsupported`], with its name.
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, Model, SearchError, Symmetry, VarId};
    ///
    /// // x != y, swapping them is a symmetry.
    /// let mut m = Model::new();
    /// let x = m.var(0..3);
    /// let y = m.var(0..3);
    /// m.linear([(1, &x), (-1, &y)], Cmp::Ne, 0);
    /// m.symmetries([Symmetry::new("swap", |v, a| (VarId::from_index(1 - v.index()), a))]);
    /// assert_eq!(m.solve(Engine::Trail).up_to_symmetry().count()?.solutions, 3);
    /// // x + y keeps its value under the swap: the optimum is proved up to symmetry.
    /// let mut sum = m.clone();
    /// sum.maximize([(1, &x), (1, &y)]);
    /// assert_eq!(sum.solve(Engine::Trail).up_to_symmetry().best()?.objective, Some(3));
    /// // 2x + y does not: (1, 2) is worth 4, its image (2, 1) is worth 5.
    /// let mut weighted = m.clone();
    /// weighted.maximize([(2, &x), (1, &y)]);
    /// let refused = weighted.solve(Engine::Trail).up_to_symmetry().best();
    /// assert!(matches!(refused, Err(SearchError::Unsupported(m)) if m.contains("`swap`")));
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn up_to_symmetry(mut self) -> Self {
        self.options.up_to_symmetry = true;
        self
    }

    /// Counts through the model's declared symmetries: the search keeps one
    /// representative per class, with the pruning of
    /// [`up_to_symmetry`](Solver::up_to_symmetry), and counting adds for each the size of
    /// its class (the number of distinct images of it under the symmetries, itself
    /// included), so that [`count`](Solver::count), [`Solutions::count_all`],
    /// [`Solutions::count_for`] and [`Solutions::summarize`] give the plain count, sooner.
    /// Default: off.
    ///
    /// - [`solutions`](Solver::solutions) yields the representatives only. Which member
    ///   represents a class is the least in lexicographic order of value indices with the
    ///   variables read in the order the engine chooses them (the strategy's ranking, or
    ///   the replay engine's order), not necessarily in index order as up to symmetry.
    /// - [`Summary::solutions`] is the weighted count; [`Stats::solutions`](crate::Stats)
    ///   is the number of representatives found, and a solution limit
    ///   ([`Limits::solutions`]) counts representatives too.
    /// - The declared symmetries may be generators only: the search closes them under
    ///   composition. A group of more than 1024 elements is not enumerated: the search
    ///   then counts plainly, without pruning.
    /// - It takes precedence over [`up_to_symmetry`](Solver::up_to_symmetry) when both
    ///   are set; optimising ([`improving`](Solver::improving), [`best`](Solver::best))
    ///   ignores it. A model without symmetries, or a hand-written `amb` program, is
    ///   unaffected.
    ///
    /// ```
    /// use ambsolve::{Model, Symmetry, VarId};
    ///
    /// // Pairs of different digits: (a, b) and (b, a) are one class.
    /// let mut m = Model::new();
    /// let a = m.var(0..10);
    /// let b = m.var(0..10);
    /// m.all_different([&a, &b]);
    /// m.symmetries([Symmetry::new("swap", |v, x| (VarId::from_index(1 - v.index()), x))]);
    /// let summary = m.solve(ambsolve::Engine::Trail).count_through_symmetry().count()?;
    /// assert_eq!(summary.solutions, 90);
    /// assert_eq!(summary.stats.solutions, 45); // the representatives, a < b
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn count_through_symmetry(mut self) -> Self {
        self.options.count_through_symmetry = true;
        self
    }

    /// Reports every step of the search to `observer` (see [`Event`](crate::Event)):
    /// choices tried, failures, solutions, backtracks, restarts, replay runs. Keep a
    /// handle to it (a [`Recorder`](crate::Recorder), or your own type behind an `Arc`) to
    /// read what it gathered.
    pub fn observe(mut self, observer: impl Observer + 'static) -> Self {
        self.options.observer = Some(Shared::new(observer));
        self
    }

    /// Searches a model on `threads` threads (a rayon pool of its own). Default: 1; 0
    /// means 1. More than 1024 is [`SearchError::Unsupported`] when the search starts.
    ///
    /// The search is cut into subproblems (see [`split`](Solver::split)), 32 per thread
    /// and at least 64 unless [`subproblems`](Solver::subproblems) says otherwise, and
    /// the results are what one thread gives:
    /// - [`count`](Solver::count) is exact: the subproblems' counts added up;
    /// - [`solutions`](Solver::solutions) yields the same solutions in the same order,
    ///   [`first`](Solver::first) the same first one: later subproblems are searched
    ///   ahead, a bounded number of solutions each, and wait for the earlier ones;
    /// - [`improving`](Solver::improving) and [`best`](Solver::best) share the best cost
    ///   between the threads and prove the same optimum (the improving solutions on the
    ///   way may differ);
    /// - statistics add up over the threads (a count's nodes are the one-thread count's);
    ///   the time limit and the cancellation flag stop every thread.
    ///
    /// A search with a node limit runs on one thread, so that what it finds does not
    /// depend on how the threads raced for the nodes; a resumable count (see
    /// [`checkpoint`](Solver::checkpoint)) is the exception: its threads share the budget
    /// (the nodes spent cutting the search included), and what they leave undone is
    /// finished when it resumes.
    ///
    /// A search that is observed, or has restarts, runs on one thread; so does a
    /// hand-written `amb` program (its closure is not shared).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let q: Vec<_> = (0..8).map(|_| m.var(0..8i64)).collect();
    /// m.all_different(&q);
    /// m.all_different_offset(q.iter().enumerate().map(|(i, v)| (v, i as i64)));
    /// m.all_different_offset(q.iter().enumerate().map(|(i, v)| (v, -(i as i64))));
    /// let one: Vec<_> = m.solve(Engine::Trail).solutions().collect();
    /// let four: Vec<_> = m.solve(Engine::Trail).threads(4).solutions().collect();
    /// assert_eq!(one.len(), 92);
    /// assert_eq!(four, one);
    /// assert_eq!(m.solve(Engine::Replay).threads(2).count()?.solutions, 92);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn threads(mut self, threads: usize) -> Self {
        self.options.threads = threads;
        self
    }

    /// Cuts a search on several threads (or a resumable count) into at least `n`
    /// subproblems. Default: 32 per thread, and at least 64.
    pub fn subproblems(mut self, n: usize) -> Self {
        self.options.subproblems = Some(n);
        self
    }

    /// Searches only below `subproblem`, one of those [`split`](Solver::split) cut the
    /// same search into (same model, engine and options). A path that does not lead to a
    /// live node of the tree (an alternative a choice does not have, a path past a
    /// solution, through a node that fails or ending at one) is
    /// [`SearchError::NoSuchSubproblem`], on every engine.
    pub fn subproblem(mut self, subproblem: &Subproblem) -> Self {
        self.options.scope.prefix = subproblem.path().to_vec();
        self
    }

    /// Counts resumably: each finished subproblem, with its count, is recorded in the
    /// file at `path` (rewritten atomically after each one; once it records thousands,
    /// at most once a second, and when the count ends or stops). Starts afresh, whatever
    /// the file holds; see [`resume`](Solver::resume).
    ///
    /// The count fails with [`SearchError::Checkpoint`] if the file cannot be written, or
    /// if `path` exists and is not a regular file (a symbolic link, a directory, a
    /// device, a pipe): the file is rewritten by renaming a new one over its path, which
    /// would replace whatever is there.
    pub fn checkpoint(mut self, path: impl AsRef<Path>) -> Self {
        self.options.checkpoint = Some(Checkpointing {
            path: path.as_ref().to_path_buf(),
            resume: false,
        });
        self
    }

    /// Finishes a count from the checkpoint file at `path`: the subproblems it records as
    /// finished are not searched again, their counts are added, and the file goes on
    /// being written. The file must come from the same search (same model, engine and
    /// strategy); any number of threads may finish it.
    ///
    /// What is checked before the count goes on ([`SearchError::Checkpoint`] otherwise):
    /// - the file is a regular file whose lines all pass their checks (each ends with a
    ///   CRC-32: a change of up to 4 consecutive bytes within a line's text or within its
    ///   check is always caught, any other with probability 1 - 2^-32); the error names
    ///   the first bad line. Lines taken out are not an error: those subproblems are
    ///   searched again. Reading stops at the first bad line, holding one line at a time.
    /// - its fingerprint is that of this search: the model's structure (not its
    ///   closures), the engine, the strategy and the options that shape the tree, the
    ///   subproblems' paths;
    /// - a few of its finished subproblems, searched again, find what it records in the
    ///   nodes it records (up to 8, chosen at random with a seed drawn from the file,
    ///   within 1/16 of the finished subproblems' nodes, or the cheapest one). This
    ///   catches a model that differs only in a closure (a predicate, a propagator, a
    ///   symmetry map) *where it is searched again*; one that differs only in other
    ///   subproblems is not detected, and gives a wrong total.
    ///
    /// A checkpoint resumes a *count*: listing the solutions from one that has finished
    /// subproblems is [`SearchError::Unsupported`].
    ///
    /// ```
    /// use ambsolve::{Engine, Limits, Model, StopReason};
    ///
    /// let mut m = Model::new();
    /// let q: Vec<_> = (0..8).map(|_| m.var(0..8i64)).collect();
    /// m.all_different(&q);
    /// m.all_different_offset(q.iter().enumerate().map(|(i, v)| (v, i as i64)));
    /// m.all_different_offset(q.iter().enumerate().map(|(i, v)| (v, -(i as i64))));
    /// let file = std::env::temp_dir().join(format!("queens-{}.checkpoint", std::process::id()));
    /// let stopped = m.solve(Engine::Trail).checkpoint(&file).limits(Limits::new().nodes(300)).count()?;
    /// assert_eq!(stopped.stop_reason, StopReason::NodeLimit);
    /// let finished = m.solve(Engine::Trail).resume(&file).threads(2).count()?;
    /// assert_eq!(finished.stop_reason, StopReason::Exhausted);
    /// assert_eq!(finished.solutions, 92);
    /// # std::fs::remove_file(&file).ok();
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn resume(mut self, path: impl AsRef<Path>) -> Self {
        self.options.checkpoint = Some(Checkpointing {
            path: path.as_ref().to_path_buf(),
            resume: true,
        });
        self
    }

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
    /// m.require2(&x, &y, |x, y| x + y == 5);
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

    /// Replaces every option at once.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// The options the search will run with.
    pub fn options(&self) -> &Options {
        &self.options
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
                let mapped: Running<'a, U> = Box::new(MappedSearch::new(inner, f));
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
    /// # Errors
    /// The [`SearchError`] that ended the search, if one did.
    pub fn count(self) -> Result<Summary, SearchError> {
        self.solutions().summarize()
    }

    /// Optimises the model's objective by branch and bound: a lazy iterator of solutions,
    /// each strictly better than the one before, with its objective value and when it
    /// was found. After the last one the search has either proved it optimal
    /// ([`stop_reason`](Improving::stop_reason) is [`Exhausted`](crate::StopReason::Exhausted))
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
            let search: Running<'a, T> =
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
