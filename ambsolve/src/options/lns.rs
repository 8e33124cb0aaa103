//! The settings of a large neighbourhood search ([`Lns`]): how many nodes each
//! neighbourhood gets, the seed, whether the complete search takes turns with it to prove
//! optimality, and which variables a neighbourhood may fix.

use crate::var::VarId;

/// Large neighbourhood search for an optimisation on the trail engine
/// ([`Solver::lns`](crate::Solver::lns)): after a first solution, it repeatedly keeps part
/// of the best solution fixed and searches the rest, under a small node budget, for a
/// better one.
///
/// Each neighbourhood relaxes some of the variables and fixes every other one of
/// [`vars`](Lns::vars) at its value in the best solution. Three kinds of neighbourhood
/// take turns, each chosen more often the more it has improved lately:
/// - **random**: variables drawn at random;
/// - **connected**: variables that share constraints, gathered outward from one drawn at
///   random (a job's tasks, a row and the columns it meets);
/// - **block**: a run of consecutive variables (an array's row, a stretch of time).
///
/// Each kind adapts its size: a neighbourhood searched to its end without a better
/// solution grows the next one (up to half the variables while the complete search takes
/// turns, all of them without it); one stopped by its budget shrinks it. A
/// neighbourhood's search tries the best solution's values first for the variables it
/// relaxes. The complete search takes turns with the neighbourhoods, bounded by the best
/// solution either found and starting from its values, doing [`proving`](Lns::proving)
/// times (2 by default) the work they did since its last turn, once more for every 50
/// neighbourhoods in a row that found nothing better: it proves optimality when given
/// the time, at most about `1 + 1 / proving` times later than alone. Work is counted in
/// propagator runs, plus the model's size for each neighbourhood's engine built and its
/// root propagated: a measure that repeats from run to run, as time would not, and
/// follows time roughly (BENCHMARKS.md, "Large neighbourhood search", has the proofs'
/// times with and without). A neighbourhood that relaxes every variable and ends is a
/// proof too.
///
/// The run is reproducible: the same seed, model and limits give the same solutions
/// (a time limit ends it at a point that depends on the machine).
///
/// ```
/// use ambsolve::{Cmp, Engine, Lns, Model};
///
/// // Seven items, weights and values; the most value within a capacity of 15.
/// let (weights, values) = ([5, 4, 6, 3, 7, 2, 4], [10, 7, 12, 5, 13, 3, 8]);
/// let mut m = Model::new();
/// let take = m.vars("take", 7, 0..=1);
/// m.linear(weights.iter().zip(&take).map(|(&w, t)| (w, t)), Cmp::Le, 15);
/// m.maximize(values.iter().zip(&take).map(|(&v, t)| (v, t)));
/// let best = m.solve(Engine::Trail).lns(Lns::new().seed(7)).best()?;
/// assert!(best.proved);
/// assert_eq!(best.objective, Some(30));
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lns {
    /// The seed of the neighbourhoods drawn. Default: 0.
    pub seed: u64,
    /// The nodes each neighbourhood may search beyond one descent (as many nodes as it
    /// relaxes variables). Default: 500.
    pub nodes: u64,
    /// The work the complete search does, in its turns, for each unit of work of the
    /// neighbourhoods; 0: it takes no turns. Default: 2.
    pub proving: u32,
    /// The variables a neighbourhood may fix; `None` (the default): the strategy's
    /// variables if it names any, else every variable but those the model made for
    /// itself (the auxiliary values of flattened expressions, bins' loads). An objective
    /// of one variable is never fixed (fixed, nothing could improve on it); the variables
    /// of an objective that is a sum are fixed as others.
    pub vars: Option<Vec<VarId>>,
}

impl Default for Lns {
    fn default() -> Self {
        Lns {
            seed: 0,
            nodes: 500,
            proving: 2,
            vars: None,
        }
    }
}

impl Lns {
    /// The default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the seed of the neighbourhoods drawn.
    #[must_use = "a builder method returns the changed value"]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the nodes each neighbourhood may search (at least 1).
    #[must_use = "a builder method returns the changed value"]
    pub fn nodes(mut self, nodes: u64) -> Self {
        self.nodes = nodes.max(1);
        self
    }

    /// Sets the work the complete search does for each unit of work of the
    /// neighbourhoods: the more, the sooner a proof, the fewer neighbourhoods. With 0 the search proves
    /// nothing unless a neighbourhood relaxes every variable: it runs until a limit stops
    /// it.
    #[must_use = "a builder method returns the changed value"]
    pub fn proving(mut self, nodes: u32) -> Self {
        self.proving = nodes;
        self
    }

    /// Sets the variables a neighbourhood may fix: the model's decisions, where others
    /// are functions of them (fixing a function of a relaxed variable would fix it too).
    #[must_use = "a builder method returns the changed value"]
    pub fn vars(mut self, vars: impl IntoIterator<Item = VarId>) -> Self {
        self.vars = Some(vars.into_iter().collect());
        self
    }
}
