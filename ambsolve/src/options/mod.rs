//! What a search runs with: the [`Engine`], the [`Strategy`], the [`Limits`], when
//! constraints are [checked](Checking), and whether symmetric solutions are kept. One
//! [`Options`] value carries them from a [`Puzzle`](crate::Puzzle) or a
//! [`Solver`](crate::Solver) to the seam that starts the engine.

mod lns;
mod setters;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use crate::choice::Scope;
use crate::control::Incumbent;
use crate::limits::Limits;
use crate::observe::Shared;
use crate::strategy::Strategy;

pub use self::lns::Lns;
pub(crate) use self::setters::setters;

/// Which engine searches a [`Model`](crate::Model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// State in a store of domains, changes logged on a trail and undone on backtracking,
    /// propagators pruning domains after every decision. The fast one.
    #[default]
    Trail,
    /// Runs the model as an `amb` program: chooses each variable in turn and checks each
    /// constraint once all its variables are chosen, replaying choices after a failure.
    Replay,
    /// Local search (min-conflicts): starts from a complete assignment and repairs it,
    /// moving one conflicting variable at a time, with random walk steps and restarts.
    /// It scales to millions of variables but proves nothing: it finds solutions (distinct
    /// ones, for [`solutions`](crate::Solver::solutions)) and never reports that none
    /// exists, so it runs until it has found what was asked for or a limit stops it —
    /// give it a [`Limits`] (time, or nodes: each value given in a starting assignment and
    /// each repair step is a node). Its counts are the distinct solutions found before
    /// the limit: a count of 0 stopped by a limit is not a proof that there is none. Its random choices follow [`Options::seed`]. It does
    /// not optimise, split or solve up to symmetry, and ignores [`Checking`] and the
    /// [`Strategy`].
    Local,
}

impl fmt::Display for Engine {
    /// The engine's name in lower case: `trail`, `replay`, `local`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::Trail => "trail",
            Engine::Replay => "replay",
            Engine::Local => "local",
        })
    }
}

/// The seed [`Options::seed`] starts with.
const DEFAULT_SEED: u64 = 0x5eed_10ca1;

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

/// Everything a search is run with, in one value.
///
/// [`Puzzle`](crate::Puzzle) and [`Solver`](crate::Solver) hold one and set its fields
/// through their builder methods; [`with_options`](crate::Puzzle::with_options) replaces
/// it whole. The default: the trail engine, [`Strategy::default`] (each engine's own
/// variable order, ascending values), no limits, early checking, every solution kept.
///
/// ```
/// use ambsolve::{Engine, Limits, Options};
///
/// let mut options = Options::default();
/// options.engine = Engine::Replay;
/// options.limits = Limits::new().solutions(1);
/// options.threads = 2;
/// # let _ = options;
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Which engine runs a model. A hand-written `amb` program always runs on the replay
    /// engine.
    pub engine: Engine,
    /// Variable order, value order, restarts.
    pub strategy: Strategy,
    /// When the search stops early.
    pub limits: Limits,
    /// When constraints are checked.
    pub checking: Checking,
    /// Keep one solution per class of the model's declared symmetries.
    pub up_to_symmetry: bool,
    /// Count through the model's declared symmetries: search one representative per
    /// class, and count each as the size of its class, so that counts equal the plain
    /// ones (see [`Solver::count_through_symmetry`](crate::Solver::count_through_symmetry)).
    /// It takes precedence over `up_to_symmetry`, and is ignored when optimising.
    pub count_through_symmetry: bool,
    /// How many threads search a model (see [`Solver::threads`](crate::Solver::threads));
    /// 0 and 1 both mean one; more than 1024 is refused when the search starts. Default: 1.
    pub threads: usize,
    /// How many subproblems a search on several threads (or resumable) is cut into, at
    /// least; `None`: 32 per thread, and at least 64.
    pub subproblems: Option<usize>,
    /// The seed of the random choices of [`Engine::Local`]: the same seed, model and
    /// limits give the same run. Other engines ignore it (restarts have their own seed,
    /// [`Restarts::seed`](crate::Restarts::seed)). Default: a fixed seed, so runs repeat.
    pub seed: u64,
    /// Large neighbourhood search, when optimising on the trail engine (see
    /// [`Solver::lns`](crate::Solver::lns)); `None` (the default): none.
    pub lns: Option<Lns>,
    /// Which part of the tree the engine searches: below a subproblem's path, cut at a
    /// depth when a search is being split.
    pub(crate) scope: Scope,
    /// Where a count records its finished subproblems, and whether it starts from there.
    pub(crate) checkpoint: Option<Checkpointing>,
    /// Branch and bound: set by `improving()` and `best()`, shared by the engines that
    /// search for one optimum.
    pub(crate) incumbent: Option<Arc<Incumbent>>,
    /// Who watches the search, if anyone.
    pub(crate) observer: Option<Shared>,
    /// Variables fixed before the root is propagated (a neighbourhood of a large
    /// neighbourhood search): positions and value indices.
    pub(crate) fixed: Option<Arc<[(u32, u32)]>>,
    /// Each variable's value index tried first, replacing the model's hints (a
    /// neighbourhood's search starts from the best solution).
    pub(crate) phases: Option<Arc<[u32]>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: Engine::default(),
            strategy: Strategy::default(),
            limits: Limits::default(),
            checking: Checking::default(),
            up_to_symmetry: false,
            count_through_symmetry: false,
            threads: 1,
            subproblems: None,
            seed: DEFAULT_SEED,
            lns: None,
            scope: Scope::default(),
            checkpoint: None,
            incumbent: None,
            observer: None,
            fixed: None,
            phases: None,
        }
    }
}

/// A resumable count's file: where finished subproblems are recorded, and whether the
/// count starts from what it already holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Checkpointing {
    pub(crate) path: PathBuf,
    pub(crate) resume: bool,
}
