//! The local-search engine: min-conflicts (Minton et al. 1992) on complete assignments.
//!
//! A run starts from a greedy assignment: each variable in turn takes a value that adds
//! the fewest conflicts with those set before it. Then, while some constraint is violated,
//! a variable in conflict is drawn at random and moved to the value that lowers the total
//! violation most (ties broken at random; a move that leaves it as it was is a *plateau*
//! step); now and then (a *random walk* step) it takes a random value instead, which is
//! how a run leaves a plateau it cannot cross. A run that has not improved on its best
//! total for a while is abandoned for a fresh greedy start (a *restart*), with a budget
//! that grows from run to run. Every random choice comes from one generator seeded by
//! [`Options::seed`]: a seed, a model and limits give the same run.
//!
//! Violations are kept up to date in O(1) per constraint of the moved variable (see
//! `state.rs`); variables with large domains weigh a sample of their values, including
//! those that free keys of their all-differents give (see `keys.rs`), so a step costs the
//! same on a board of ten or ten million queens.
//!
//! The engine cannot prove anything: it yields distinct solutions as it finds them (each
//! one after a fresh start) and never stops with [`StopReason::Exhausted`]; only a limit
//! stops it.

mod index;
mod keys;
mod state;

use std::sync::Arc;

use hashbrown::HashSet;

use crate::control::{Control, Search, Step};
use crate::error::SearchError;
use crate::model::{Assignment, Model};
use crate::observe::{Event, Shared};
use crate::options::Options;
use crate::stats::Stats;
use crate::strategy::SplitMix;

use self::state::State;

/// One step in this many is a random walk step.
const WALK: u64 = 32;

/// A run is abandoned after this many steps without improving on its best total, plus
/// one per variable; the budget grows by half at each restart after a stalled run.
const PATIENCE: u64 = 2_000;

/// Where the engine stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// A fresh start: forget every value.
    Start,
    /// Setting the variables of the starting assignment in order.
    Greedy,
    /// Repairing conflicts.
    Repair,
    /// Standing on a solution just yielded: the next call starts afresh (with the same
    /// patience).
    Yielded,
    /// Some variable has no value at all: nothing can be found.
    Hopeless,
}

/// The local-search engine running one model.
pub(crate) struct LocalEngine<'a> {
    model: Arc<Model<'a>>,
    rng: SplitMix,
    /// Built at the first step, so that building it counts in the search's time.
    state: Option<State>,
    phase: Phase,
    /// Fingerprints of the solutions yielded, so that each is yielded once.
    found: HashSet<u128>,
    /// This run: its best total, steps since it last improved, and its budget of them.
    best: i128,
    stalled: u64,
    patience: u64,
    nodes: u64,
    moves: u64,
    plateau: u64,
    restarts: u64,
    runs: u64,
    solutions: u64,
    observer: Option<Shared>,
}

impl<'a> LocalEngine<'a> {
    /// The engine on `model` with `options`.
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] for what local search cannot do: optimise, search a
    /// subproblem or a cut of the tree, keep one solution per symmetry class.
    pub(crate) fn new(model: Arc<Model<'a>>, options: &Options) -> Result<Self, SearchError> {
        let refuse = |what: &str| {
            Err(SearchError::Unsupported(format!(
                "local search does not {what}: use the trail engine"
            )))
        };
        if options.incumbent.is_some() {
            return refuse("optimise (it proves nothing, not even optimality)");
        }
        if !options.scope.is_whole() {
            return refuse("search subproblems (it has no tree to cut)");
        }
        if options.up_to_symmetry {
            return refuse("solve up to symmetry");
        }
        let patience = PATIENCE + model.num_vars() as u64;
        Ok(LocalEngine {
            model,
            rng: SplitMix::new(options.seed),
            state: None,
            phase: Phase::Start,
            found: HashSet::new(),
            best: i128::MAX,
            stalled: 0,
            patience,
            nodes: 0,
            moves: 0,
            plateau: 0,
            restarts: 0,
            runs: 0,
            solutions: 0,
            observer: options.observer.clone(),
        })
    }

    fn report(&self, event: impl FnOnce() -> Event) {
        if let Some(observer) = &self.observer {
            observer.send(event());
        }
    }

    /// A fingerprint of an assignment: two independent 64-bit hashes.
    fn fingerprint(values: &[u32]) -> u128 {
        let (mut a, mut b) = (0xcbf2_9ce4_8422_2325u64, 0x9e37_79b9_7f4a_7c15u64);
        for &v in values {
            a = (a ^ u64::from(v)).wrapping_mul(0x0100_0000_01b3);
            b = (b.rotate_left(23) ^ u64::from(v)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        }
        (u128::from(a) << 64) | u128::from(b)
    }

    /// Starts a fresh run.
    fn start(&mut self) -> Result<(), SearchError> {
        let model = &*self.model;
        match &mut self.state {
            Some(state) => state.reset(model),
            None => {
                let state = State::new(model).map_err(SearchError::Unsupported)?;
                self.state = Some(state);
            }
        }
        let empty = (0..model.num_vars()).any(|x| {
            model.universes()[x] == 0 || model.initial_domain(x).is_some_and(|d| d.is_empty())
        });
        // A constraint over no variable (`clause([])`, a count over constants) that fails
        // fails whatever moves: no variable would ever bring it to the search's notice.
        let any = vec![0; model.num_vars()];
        let refuted = model
            .constraints()
            .iter()
            .any(|c| c.vars().is_empty() && !c.check(&any));
        if empty || refuted {
            self.phase = Phase::Hopeless;
            return Ok(());
        }
        if self.runs > 0 {
            self.restarts += 1;
            if self.phase == Phase::Start {
                // The last run stalled: give the next one more time.
                self.patience = self.patience.saturating_add(self.patience / 2);
            }
            self.report(|| Event::Restart);
        }
        self.runs += 1;
        self.best = i128::MAX;
        self.stalled = 0;
        self.phase = Phase::Greedy;
        Ok(())
    }

    /// One repair step: moves a variable in conflict.
    fn repair(&mut self) {
        let model = &*self.model;
        let state = self.state.as_mut().expect("a run has a state");
        let Some(x) = state.conflicted(model, &mut self.rng) else {
            debug_assert!(false, "violations without a variable in conflict");
            self.stalled = self.patience;
            return;
        };
        let choice = if self.rng.below(WALK) == 0 {
            state.random_move(model, x, &mut self.rng)
        } else {
            state.best(model, x, &mut self.rng).filter(|c| c.delta <= 0)
        };
        if let Some(choice) = choice {
            state.assign(model, x, choice.value);
            self.moves += 1;
            self.plateau += u64::from(choice.delta == 0);
        }
        if state.total < self.best {
            self.best = state.total;
            self.stalled = 0;
        } else {
            self.stalled += 1;
        }
    }
}

impl Search for LocalEngine<'_> {
    type Item = Assignment;

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        loop {
            match self.phase {
                Phase::Start | Phase::Yielded => self.start()?,
                Phase::Hopeless => {
                    // Nothing to do but wait for a limit.
                    if let Err(interrupt) = control.before_node(self.nodes) {
                        return Ok(Step::Interrupted(interrupt));
                    }
                    self.nodes += 1;
                }
                Phase::Greedy => {
                    let model = &*self.model;
                    let state = self.state.as_mut().expect("a run has a state");
                    if state.assigned == model.num_vars() {
                        self.phase = Phase::Repair;
                        continue;
                    }
                    if let Err(interrupt) = control.before_node(self.nodes) {
                        return Ok(Step::Interrupted(interrupt));
                    }
                    self.nodes += 1;
                    let x = state.assigned;
                    let choice = state
                        .best(model, x, &mut self.rng)
                        .expect("a variable with values has a candidate");
                    state.assign(model, x, choice.value);
                }
                Phase::Repair => {
                    let state = self.state.as_ref().expect("a run has a state");
                    if state.total == 0 {
                        let values = &state.values;
                        debug_assert!(self.model.satisfied(values), "a solution that is not one");
                        self.phase = Phase::Yielded;
                        if self.found.insert(Self::fingerprint(values)) {
                            self.solutions += 1;
                            self.report(|| Event::Solution { depth: 0 });
                            return Ok(Step::Solution);
                        }
                        continue;
                    }
                    if self.stalled >= self.patience {
                        self.phase = Phase::Start;
                        continue;
                    }
                    if let Err(interrupt) = control.before_node(self.nodes) {
                        return Ok(Step::Interrupted(interrupt));
                    }
                    self.nodes += 1;
                    self.repair();
                }
            }
        }
    }

    fn take_solution(&mut self) -> Assignment {
        let state = self.state.as_ref().expect("a solution was found");
        Assignment::new(Arc::clone(self.model.identity()), state.values.clone())
    }

    fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            solutions: self.solutions,
            restarts: self.restarts,
            moves: self.moves,
            plateau: self.plateau,
            ..Stats::default()
        }
    }

    fn progress(&self) -> f64 {
        0.0
    }

    fn path(&self) -> Vec<u32> {
        Vec::new()
    }
}
