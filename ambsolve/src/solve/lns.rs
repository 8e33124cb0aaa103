//! Large neighbourhood search ([`Lns`]): the complete engine finds a first solution; then
//! neighbourhoods of the best solution (some variables relaxed, the others fixed at their
//! values) are searched under a node budget, each by an engine of its own, and the
//! complete engine takes turns with them. All of them share the [`Incumbent`], so each
//! searches only for solutions better than the best any of them found.

use std::sync::Arc;

use super::parallel::Engine;
use super::{engine, engine_with};
use crate::control::{Control, Interrupt, Search, Step};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::model::{Assignment, Model};
use crate::options::{Lns, Options};
use crate::stats::Stats;
use crate::strategy::SplitMix;

/// The kinds of neighbourhood, in the order they are tried first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Variables drawn at random.
    Random,
    /// Variables sharing constraints, gathered outward from one drawn at random.
    Connected,
    /// A run of consecutive variables.
    Block,
}

const KINDS: [Kind; 3] = [Kind::Random, Kind::Connected, Kind::Block];

/// One kind of neighbourhood: the share of the variables it relaxes, and how well it has
/// done lately.
#[derive(Clone, Debug)]
struct Arm {
    kind: Kind,
    /// The share of the fixable variables relaxed, in `(0, 1]`.
    share: f64,
    /// A moving average of its improvements (1 for a neighbourhood that improved, 0
    /// otherwise).
    score: f64,
}

/// How one neighbourhood ended.
enum Ended {
    /// It found a better solution (taken: `pending`).
    Improved,
    /// It was searched to its end without one; `whole`: it fixed nothing, so the best
    /// solution is optimal.
    Exhausted { whole: bool },
    /// Its budget ran out.
    Budget,
    /// A limit of the whole search stopped it.
    Stopped(StopReason),
}

/// A share grows by this factor after a neighbourhood searched to its end, and shrinks by
/// it after one stopped by its budget.
const GROWTH: f64 = 1.25;

/// Neighbourhoods in a row without a better solution that add [`Lns::proving`] once more
/// to the complete search's turns.
const STALE_STEP: u32 = 50;

/// The largest share of the variables a neighbourhood relaxes while the complete search
/// takes turns.
const MAX_SHARE_PROVING: f64 = 0.5;

/// The share of the variables a neighbourhood first relaxes.
const FIRST_SHARE: f64 = 0.2;

/// The weight an arm's latest outcome has in its score.
const SCORE_WEIGHT: f64 = 0.2;

/// The large neighbourhood search of one model: a [`Search`] of improving solutions.
pub(super) struct LnsSearch<'a> {
    model: Arc<Model<'a>>,
    /// What each neighbourhood's engine runs with: the search's options without `lns`.
    inner: Options,
    settings: Lns,
    complete: Engine<'a>,
    /// The complete search has been exhausted: the best solution is optimal.
    complete_done: bool,
    /// The work of the neighbourhoods since the complete search's last turn: the
    /// propagator runs they made, and one per constraint and variable for each engine
    /// built (a deterministic measure of time, which nodes alone are not: a node of a
    /// neighbourhood and one of the complete search can cost very differently).
    owed: u64,
    /// What building an engine and propagating its root costs, in the same units: its
    /// model's variables, and its constraints twice.
    build: u64,
    /// Neighbourhoods in a row that found nothing better.
    stale: u32,
    /// The best solution's value indices, once there is one.
    best: Option<Box<[u32]>>,
    /// A better solution a neighbourhood found, and its objective, to hand out.
    pending: Option<(Assignment, Option<i64>)>,
    /// The objective of the solution last handed out.
    objective: Option<i64>,
    /// The variables a neighbourhood may fix, in declaration order.
    fixable: Vec<u32>,
    /// Each fixable variable's position in `fixable`, or `u32::MAX`.
    slot: Vec<u32>,
    /// Each variable's constraints, and each constraint's variables.
    var_constraints: Vec<Vec<u32>>,
    constraint_vars: Vec<Vec<u32>>,
    arms: Vec<Arm>,
    rng: SplitMix,
    /// What the finished neighbourhoods' engines did.
    spent: Stats,
}

impl<'a> LnsSearch<'a> {
    /// The search of `model` as `options` (with `lns` set) say.
    ///
    /// # Errors
    /// [`SearchError::InvalidModel`] if [`Lns::vars`] names a variable of another model;
    /// the errors of the complete engine.
    pub(super) fn new(model: &Arc<Model<'a>>, options: &Options) -> Result<Self, SearchError> {
        let settings = options.lns.clone().expect("a search with lns");
        let mut inner = options.clone();
        inner.lns = None;
        let complete = engine(model, &inner)?;
        // Neighbourhoods search without symmetry breaking: their solutions need not be
        // leaders, and their bound is shared.
        inner.up_to_symmetry = false;
        inner.count_through_symmetry = false;
        let n = model.num_vars();
        let named: Vec<_> = match &settings.vars {
            Some(vars) => vars.clone(),
            None => options.strategy.named_vars().collect(),
        };
        if let Some(v) = named.iter().find(|&&v| !model.identity().accepts_id(v)) {
            return Err(SearchError::InvalidModel(format!(
                "the large neighbourhood search's variables name variable {v:?} of another model"
            )));
        }
        // Without names, the model's own auxiliary variables are left out: each is a
        // function of others, and fixed it would fix them too.
        let mut wanted: Vec<bool> = (0..n)
            .map(|v| named.is_empty() && !model.is_auxiliary(v))
            .collect();
        for v in &named {
            wanted[v.index()] = true;
        }
        // An objective of one variable (a cost defined by constraints) is never fixed:
        // fixed at its best value, no better solution could be found. The variables of a
        // sum are fixed as any others.
        if let Some(objective) = model.objective_def() {
            let mut vars = objective.vars();
            if let (Some(v), None) = (vars.next(), vars.next()) {
                wanted[v.index()] = false;
            }
        }
        let fixable: Vec<u32> = (0..n as u32).filter(|&v| wanted[v as usize]).collect();
        let mut slot = vec![u32::MAX; n];
        for (i, &v) in fixable.iter().enumerate() {
            slot[v as usize] = i as u32;
        }
        let mut var_constraints = vec![Vec::new(); n];
        let constraint_vars: Vec<Vec<u32>> = model
            .constraints()
            .iter()
            .enumerate()
            .map(|(c, constraint)| {
                let mut vars: Vec<u32> = constraint.vars().iter().map(|v| v.raw()).collect();
                vars.sort_unstable();
                vars.dedup();
                for &v in &vars {
                    var_constraints[v as usize].push(c as u32);
                }
                vars
            })
            .collect();
        let arms = KINDS
            .iter()
            .map(|&kind| Arm {
                kind,
                share: FIRST_SHARE,
                score: 0.5,
            })
            .collect();
        Ok(LnsSearch {
            model: Arc::clone(model),
            rng: SplitMix::new(settings.seed),
            inner,
            settings,
            complete,
            complete_done: false,
            owed: 0,
            build: (2 * model.num_constraints() + model.num_vars()) as u64,
            stale: 0,
            best: None,
            pending: None,
            objective: None,
            fixable,
            slot,
            var_constraints,
            constraint_vars,
            arms,
            spent: Stats::default(),
        })
    }

    /// The work the complete search does for each unit of the neighbourhoods':
    /// [`Lns::proving`], and once more for every [`STALE_STEP`] neighbourhoods in a row
    /// that found nothing better (near the optimum, neighbourhoods mostly fail at once, and
    /// the proof is what is left to do).
    fn proving(&self) -> u64 {
        u64::from(self.settings.proving) * (1 + u64::from(self.stale / STALE_STEP))
    }

    /// The nodes made so far, by the complete search and every neighbourhood.
    fn nodes(&self) -> u64 {
        self.spent.nodes + self.complete.stats().nodes
    }

    /// The nodes a search run now may make: `wanted`, or fewer if the whole search's node
    /// limit leaves fewer; `None` if that limit is reached.
    fn allowance(&self, control: &Control, wanted: u64) -> Option<u64> {
        match control.node_limit() {
            Some(max) => {
                let left = max.saturating_sub(self.nodes());
                (left > 0).then(|| wanted.min(left))
            }
            None => Some(wanted),
        }
    }

    /// The complete search's step `step`: a solution becomes the best one.
    fn complete_step(&mut self, step: Step) -> Step {
        if step == Step::Solution {
            let solution = self.complete.take_solution();
            self.best = Some(solution.indices().into());
            self.pending = Some((solution, self.complete.objective()));
        }
        if step == Step::Interrupted(Interrupt::Stop(StopReason::Exhausted)) {
            self.complete_done = true;
        }
        step
    }

    /// Draws an arm: each with a chance in proportion to its score (plus a floor, so that
    /// none is forgotten).
    fn draw_arm(&mut self) -> usize {
        let weights: Vec<f64> = self.arms.iter().map(|a| 0.1 + a.score).collect();
        let total: f64 = weights.iter().sum();
        let mut point = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if point < *w {
                return i;
            }
            point -= w;
        }
        weights.len() - 1
    }

    /// The fixable variables (positions in `fixable`) a neighbourhood of `kind` relaxes:
    /// `size` of them.
    fn relaxed(&mut self, kind: Kind, size: usize) -> Vec<bool> {
        let n = self.fixable.len();
        let mut relaxed = vec![false; n];
        if size >= n {
            relaxed.fill(true);
            return relaxed;
        }
        match kind {
            Kind::Random => {
                // A partial shuffle: the first `size` of a random permutation.
                let mut order: Vec<u32> = (0..n as u32).collect();
                for i in 0..size {
                    let j = i + self.rng.below((n - i) as u64) as usize;
                    order.swap(i, j);
                    relaxed[order[i] as usize] = true;
                }
            }
            Kind::Block => {
                let start = self.rng.below(n as u64) as usize;
                for i in 0..size {
                    relaxed[(start + i) % n] = true;
                }
            }
            Kind::Connected => {
                let mut taken = 0;
                let mut seen = vec![false; self.constraint_vars.len()];
                let mut frontier: Vec<u32> = Vec::new();
                while taken < size {
                    let v = match frontier.pop() {
                        Some(v) => v,
                        None => {
                            // A new start: a fixable variable not yet relaxed.
                            let mut i = self.rng.below(n as u64) as usize;
                            while relaxed[i] {
                                i = (i + 1) % n;
                            }
                            relaxed[i] = true;
                            taken += 1;
                            self.fixable[i]
                        }
                    };
                    // Its neighbours through constraints not yet opened, in a random order,
                    // and each constraint's variables in a random order too.
                    let mut constraints = self.var_constraints[v as usize].clone();
                    self.rng.shuffle(&mut constraints);
                    let mut found = Vec::new();
                    for c in constraints {
                        if std::mem::replace(&mut seen[c as usize], true) {
                            continue;
                        }
                        let mut vars = self.constraint_vars[c as usize].clone();
                        self.rng.shuffle(&mut vars);
                        for w in vars {
                            if taken >= size {
                                break;
                            }
                            let s = self.slot[w as usize];
                            if s != u32::MAX && !relaxed[s as usize] {
                                relaxed[s as usize] = true;
                                taken += 1;
                                found.push(w);
                            } else if s == u32::MAX {
                                // A variable no neighbourhood fixes (an objective's, a
                                // function's) still links its constraints.
                                found.push(w);
                            }
                        }
                        if taken >= size {
                            break;
                        }
                    }
                    // Breadth first: the earliest found are expanded first.
                    found.reverse();
                    frontier.splice(0..0, found);
                }
            }
        }
        relaxed
    }

    /// Searches one neighbourhood of the best solution, drawn now.
    fn neighbourhood(&mut self, control: &Control) -> Result<Ended, SearchError> {
        let best: Arc<[u32]> = self.best.as_deref().expect("a best solution").into();
        let arm = self.draw_arm();
        let n = self.fixable.len();
        let size = ((self.arms[arm].share * n as f64).ceil() as usize).clamp(1, n.max(1));
        let relaxed = self.relaxed(self.arms[arm].kind, size);
        let fixed: Arc<[(u32, u32)]> = self
            .fixable
            .iter()
            .zip(&relaxed)
            .filter(|&(_, &r)| !r)
            .map(|(&v, _)| (v, best[v as usize]))
            .collect();
        let whole = fixed.is_empty();
        let mut options = self.inner.clone();
        options.fixed = Some(fixed);
        options.phases = Some(best);
        let mut search = engine_with(&self.model, &options, None)?;
        // A neighbourhood can always reach a leaf: its budget counts beyond one descent
        // (within the whole search's node limit).
        let budget = self.settings.nodes.saturating_add(size as u64);
        let budget = self.allowance(control, budget).unwrap_or(0);
        let mut inner = control.inner(Some(budget));
        let step = search.advance(&mut inner)?;
        self.spent += search.stats();
        // While the complete search takes turns, a neighbourhood relaxes at most half the
        // variables: a larger one would redo the complete search's work, without what
        // it learned. Alone, neighbourhoods grow to the whole model, which proves.
        let largest = if self.settings.proving > 0 {
            MAX_SHARE_PROVING
        } else {
            1.0
        };
        let arm = &mut self.arms[arm];
        let improved = step == Step::Solution;
        arm.score = (1.0 - SCORE_WEIGHT) * arm.score + SCORE_WEIGHT * f64::from(u8::from(improved));
        Ok(match step {
            Step::Solution => {
                let solution = search.take_solution();
                // The complete search's phases follow the best solution, wherever found.
                self.complete.adopt_best(solution.indices());
                self.best = Some(solution.indices().into());
                self.pending = Some((solution, search.objective()));
                Ended::Improved
            }
            Step::Interrupted(Interrupt::Stop(StopReason::Exhausted)) => {
                arm.share = (arm.share * GROWTH).min(largest);
                Ended::Exhausted { whole }
            }
            Step::Interrupted(Interrupt::Stop(StopReason::NodeLimit) | Interrupt::Pause)
            | Step::Cut => {
                arm.share = (arm.share / GROWTH).max(1.0 / n.max(1) as f64);
                Ended::Budget
            }
            Step::Interrupted(Interrupt::Stop(reason)) => Ended::Stopped(reason),
        })
    }

    /// The complete search's turn: `budget` nodes more.
    fn complete_turn(&mut self, control: &Control, budget: u64) -> Result<Step, SearchError> {
        let limit = self.complete.stats().nodes + budget;
        let mut inner = control.inner(Some(limit));
        let step = self.complete.advance(&mut inner)?;
        Ok(self.complete_step(step))
    }
}

impl Search for LnsSearch<'_> {
    type Item = Assignment;

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        if self.best.is_none() || self.complete_done {
            // The first solution (or, once exhausted, the end) comes from the complete
            // search, under the whole search's limits.
            let step = self.complete.advance(control)?;
            return Ok(self.complete_step(step));
        }
        loop {
            if let Some(reason) = control.stopped() {
                return Ok(Step::Interrupted(Interrupt::Stop(reason)));
            }
            if self.allowance(control, 1).is_none() {
                return Ok(Step::Interrupted(Interrupt::Stop(StopReason::NodeLimit)));
            }
            // The complete search's turn first, for the work the neighbourhoods did since
            // its last one (improving ones included).
            if self.settings.proving > 0 && self.owed > 0 {
                // `proving` times their work (more while they fail to improve), in nodes
                // at its own rate of propagator runs per node so far.
                let stats = self.complete.stats();
                let per_node = (stats.propagations / stats.nodes.max(1)).max(1);
                let owed = self.owed.saturating_mul(self.proving()) / per_node;
                let Some(budget) = self.allowance(control, owed.max(1)) else {
                    return Ok(Step::Interrupted(Interrupt::Stop(StopReason::NodeLimit)));
                };
                self.owed = 0;
                match self.complete_turn(control, budget)? {
                    Step::Interrupted(
                        Interrupt::Stop(StopReason::NodeLimit) | Interrupt::Pause,
                    ) => {}
                    step => return Ok(step),
                }
            }
            let before = self.spent.propagations;
            let ended = self.neighbourhood(control)?;
            self.owed += self.spent.propagations - before + self.build;
            self.stale = match ended {
                Ended::Improved => 0,
                _ => self.stale.saturating_add(1),
            };
            match ended {
                Ended::Improved => return Ok(Step::Solution),
                Ended::Exhausted { whole: true } => {
                    self.complete_done = true;
                    return Ok(Step::Interrupted(Interrupt::Stop(StopReason::Exhausted)));
                }
                Ended::Stopped(reason) => return Ok(Step::Interrupted(Interrupt::Stop(reason))),
                Ended::Exhausted { whole: false } | Ended::Budget => {}
            }
        }
    }

    fn take_solution(&mut self) -> Assignment {
        let (solution, objective) = self.pending.take().expect("a solution to take");
        self.objective = objective;
        solution
    }

    fn stats(&self) -> Stats {
        let mut stats = self.spent;
        stats += self.complete.stats();
        stats
    }

    fn progress(&self) -> f64 {
        self.complete.progress()
    }

    fn objective(&self) -> Option<i64> {
        // Asked for after take_solution or before: the pending one's, else the last.
        match &self.pending {
            Some((_, objective)) => *objective,
            None => self.objective,
        }
    }

    fn path(&self) -> Vec<u32> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::LnsSearch;
    use crate::control::Incumbent;
    use crate::expr::IntExpr;
    use crate::model::Model;
    use crate::options::{Lns, Options};

    /// What a neighbourhood of `model` may fix by default, by name.
    fn fixable(model: Model<'static>) -> Vec<String> {
        let model = Arc::new(model);
        let options = Options {
            lns: Some(Lns::new()),
            incumbent: Some(Arc::new(Incumbent::new())),
            ..Options::default()
        };
        let search = LnsSearch::new(&model, &options).expect("an LNS search");
        search
            .fixable
            .iter()
            .map(|&v| model.name(model.var_ids().nth(v as usize).expect("a variable")))
            .collect()
    }

    #[test]
    fn auxiliary_variables_and_a_one_variable_objective_are_never_fixed() {
        // x * y >= z: the product is an auxiliary variable; cost = x + z.
        for sum in [false, true] {
            let mut m = Model::new();
            let x = m.named_var("x", 0..4i64);
            let y = m.named_var("y", 0..4i64);
            let z = m.named_var("z", 0..4i64);
            m.add((IntExpr::from(&x) * IntExpr::from(&y)).ge(IntExpr::from(&z)));
            let cost = m.named_var("cost", 0..20i64);
            m.add(IntExpr::from(&cost).eq(IntExpr::from(&x) + IntExpr::from(&z)));
            if sum {
                // A sum's variables are fixed as any others.
                m.minimize([(1, &x), (1, &cost)]);
                assert_eq!(fixable(m), ["x", "y", "z", "cost"]);
            } else {
                m.minimize([(1, &cost)]);
                assert_eq!(fixable(m), ["x", "y", "z"]);
            }
        }
    }

    #[test]
    fn undoing_a_model_forgets_its_auxiliary_variables() {
        let mut m = Model::new();
        let x = m.named_var("x", 0..4i64);
        let mark = m.mark();
        m.add((IntExpr::from(&x) * IntExpr::from(&x)).ge(2));
        assert!((1..m.num_vars()).any(|v| m.is_auxiliary(v)));
        m.undo_to(mark);
        let y = m.named_var("y", 0..4i64);
        assert!(!m.is_auxiliary(y.id().index()));
        m.minimize([(1, &x), (1, &y)]);
        assert_eq!(fixable(m), ["x", "y"]);
    }
}
