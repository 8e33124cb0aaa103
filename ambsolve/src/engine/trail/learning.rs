//! The trail engine's search that learns (`Strategy::learning`): decisions are atomic
//! predicates, a conflict is analysed to a nogood (`crate::learn`), the search backjumps
//! to the level where the nogood asserts, and restarts on a Luby schedule, deciding on the
//! most active variable with its saved phase. Branch and bound keeps its bound as the
//! plain search does; a satisfaction search moves past each solution by a blocking nogood
//! of its decisions (kept for good), so that counts are exact.

use std::sync::Arc;

use super::Counters;
use super::bound::Bound;
use super::pick::VarPick;
use crate::control::{Control, Interrupt, Search, Step};
use crate::error::SearchError;
use crate::learn::{Conflict, Learner};
use crate::limits::StopReason;
use crate::model::{Assignment, Model, Trend};
use crate::options::Options;
use crate::propagators::Fixpoint;
use crate::stats::Stats;
use crate::store::{Cause, Pred, Rel, Store};
use crate::strategy::{Restarts, Strategy, ValueOrder, complete_order, order_values};
use crate::var::VarId;

/// Where the search stands between calls.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Search,
    /// On a solution: the next call moves past it.
    Solution,
    Done,
}

/// A level of the search: the store's mark and the trail's length before its decision.
struct Level {
    mark: u64,
    atoms: usize,
}

/// An end of a domain.
#[derive(Clone, Copy)]
enum End {
    Low,
    High,
}

/// Learned nogoods kept before the first deletion of half of them; each deletion allows
/// `MORE_KEPT` more (as Glucose's schedule: memory grows slowly however long the run).
const FIRST_KEPT: usize = 2_000;
const MORE_KEPT: usize = 300;

/// The strategy's own search, for the runs that follow it ([`Strategy::alternating`]):
/// its phases and variable orders, and each phase's value order (the last: the
/// strategy's own).
struct Own {
    vars: VarPick,
    values: Vec<ValueOrder>,
}

/// The turns of the runs between restarts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Turn {
    Own,
    Predicates,
    Variables,
}

impl Own {
    fn new(strategy: &Strategy, model: &Model<'_>) -> Self {
        Own {
            vars: VarPick::new(strategy, model),
            values: strategy
                .phases
                .iter()
                .map(|p| p.values.clone())
                .chain([strategy.values.clone()])
                .collect(),
        }
    }

    /// The decision the strategy makes next: its variable at the first value of its
    /// phase's order (or the half it splits to); `None` when every variable is fixed.
    fn pick(
        &self,
        store: &Store,
        fixpoint: &Fixpoint<'_>,
        seed: u64,
        hints: &[Option<u32>],
    ) -> Option<Pred> {
        let var =
            (0..self.vars.num_phases()).find_map(|p| self.vars.scan(p, 0, store, fixpoint))?;
        let (low, high) = (store.min(var)?, store.max(var)?);
        let order = &self.values[self.vars.phase_of[var] as usize];
        let splits = matches!(order, ValueOrder::Split | ValueOrder::ReverseSplit);
        if let Some(hint) = hints.get(var).copied().flatten() {
            if !splits && store.contains(var, hint) {
                return Some(Pred::eq(var, hint));
            }
        }
        let middle = low + (high - low) / 2;
        Some(match &self.values[self.vars.phase_of[var] as usize] {
            ValueOrder::Ascending => Pred::eq(var, low),
            ValueOrder::Descending => Pred::eq(var, high),
            ValueOrder::Split => Pred::le(var, middle),
            ValueOrder::ReverseSplit => Pred::ge(var, middle + 1),
            order => {
                let mut values: Vec<u32> = store.iter(var).collect();
                order_values(
                    order,
                    VarId::at(var as u32),
                    store.universe(var),
                    &mut values,
                    seed,
                );
                Pred::eq(var, values[0])
            }
        })
    }
}

/// The trail engine's learning search.
pub(crate) struct LearningEngine<'a> {
    model: Arc<Model<'a>>,
    store: Store,
    fixpoint: Fixpoint<'a>,
    learner: Learner,
    levels: Vec<Level>,
    phase: Phase,
    bound: Bound,
    values: ValueOrder,
    restarts: Restarts,
    run: u64,
    run_conflicts: u64,
    kept: usize,
    /// The best solution's value indices (optimising): the phases a restart goes back to.
    best: Option<Vec<u32>>,
    /// Per variable of the cost, which end of its domain costs least (the others: `None`):
    /// it is decided there, whatever its phase, so that a solution's cost is as low as
    /// its other variables allow.
    cheap_end: Vec<Option<End>>,
    /// The strategy's own search, when runs alternate with it.
    own: Option<Own>,
    /// Each variable's hinted value index ([`Model::hint`]); empty if none is.
    hints: Vec<Option<u32>>,
    counters: Counters,
}

impl<'a> LearningEngine<'a> {
    pub(crate) fn new(model: Arc<Model<'a>>, options: &Options) -> Self {
        let mut store = Store::with_domains(model.universes(), |v| model.initial_domain(v));
        super::fix_before_root(&mut store, options);
        let bound = Bound::new(options.incumbent.clone(), &model);
        let objective = if bound.is_set() {
            model.objective_def()
        } else {
            None
        };
        let fixpoint = Fixpoint::new(&model, objective, &mut store);
        let strategy = &options.strategy;
        let named: Vec<_> = strategy.named_vars().collect();
        let order = complete_order(&named, store.num_vars());
        let mut cheap_end = vec![None; store.num_vars()];
        if let Some(def) = objective {
            for ((var, coef, _), trend) in def.cost.terms.iter().zip(&def.cost.trends) {
                cheap_end[var.index()] = match (trend, *coef > 0) {
                    (Trend::Rising, true) | (Trend::Falling, false) => Some(End::Low),
                    (Trend::Rising, false) | (Trend::Falling, true) => Some(End::High),
                    (Trend::Mixed, _) => None,
                };
            }
        }
        let own = strategy.alternating.then(|| Own::new(strategy, &model));
        let mut learner = Learner::new(&order, cheap_end.iter().map(Option::is_some).collect());
        let hints = super::first_values(&model, options);
        for (var, hint) in hints.iter().enumerate() {
            // The hints are the first phases ([`Model::hint`]).
            if let Some(index) = hint {
                learner.activity.save_phase(var, *index);
            }
        }
        LearningEngine {
            hints,
            own,
            learner,
            cheap_end,
            model,
            store,
            fixpoint,
            levels: Vec::new(),
            phase: Phase::Start,
            bound,
            // Alternating, the strategy's value order is its own runs'.
            values: if strategy.alternating {
                ValueOrder::Ascending
            } else {
                strategy.values.clone()
            },
            restarts: strategy.restarts.unwrap_or(Restarts::luby(100)),
            run: 0,
            run_conflicts: 0,
            kept: FIRST_KEPT,
            best: None,
            counters: Counters::default(),
        }
    }

    fn level(&self) -> u32 {
        self.levels.len() as u32
    }

    /// Propagates the root and starts recording. False if the model has no solution.
    fn root(&mut self) -> bool {
        if (0..self.store.num_vars()).any(|v| self.store.size(v) == 0) {
            return false;
        }
        self.store.set_level(0);
        self.bound.sync(&mut self.fixpoint);
        if self.fixpoint.initial(&mut self.store).is_err() {
            return false;
        }
        self.store.record_atoms();
        true
    }

    /// Propagates the propagators and the nogoods to a fixpoint, or says what failed.
    fn propagate(&mut self) -> Result<(), Conflict> {
        loop {
            if let Err(id) = self.learner.nogoods.propagate(&mut self.store) {
                self.store.clear_events();
                return Err(Conflict::Nogood(id));
            }
            if self.fixpoint.run(&mut self.store).is_err() {
                let atoms = self.store.atoms().expect("recording");
                return Err(Conflict::Cause(atoms.cause));
            }
            let atoms = self.store.atoms().expect("recording").len();
            if !self.learner.nogoods.behind(atoms) {
                return Ok(());
            }
        }
    }

    /// Undoes every level above `level`, saving the phases of the variables it frees.
    fn backjump(&mut self, level: u32) {
        if level >= self.level() {
            return;
        }
        let Level { mark, atoms } = self.levels[level as usize];
        self.store.clear_events();
        let Self { store, learner, .. } = self;
        let trail = store.atoms().expect("recording");
        for atom in trail.since(atoms) {
            let var = atom.pred.var as usize;
            if store.is_fixed(var) {
                learner
                    .activity
                    .save_phase(var, store.min(var).expect("fixed"));
            }
        }
        store.undo_to(mark);
        store
            .atoms_mut()
            .expect("recording")
            .undo_to(atoms, |var| learner.activity.insert(var));
        learner.nogoods.undone_to(atoms);
        learner.backjumped(level);
        learner.predicates.reopen(store);
        self.levels.truncate(level as usize);
        self.store.set_level(level);
    }

    /// Learns from `conflict`: backjumps and asserts the nogood. False if the conflict
    /// holds at the root.
    fn resolve(&mut self, conflict: Conflict) -> bool {
        self.counters.failures += 1;
        self.run_conflicts += 1;
        let Some(learned) = self.learner.analyze(conflict, &self.store, &self.fixpoint) else {
            return false;
        };
        self.backjump(learned.backjump);
        self.learner
            .nogoods
            .add(learned.nogood, learned.lbd, true, &mut self.store);
        if self.learner.nogoods.learned() > self.kept {
            self.learner.nogoods.reduce(&self.store);
            self.kept += MORE_KEPT;
        }
        true
    }

    /// Restarts from the root if this run's conflicts are spent: keeps the nogoods, goes
    /// back to the best solution's phases when optimising.
    fn maybe_restart(&mut self) {
        if self.run_conflicts < self.restarts.budget(self.run) || self.level() == 0 {
            return;
        }
        self.backjump(0);
        self.run += 1;
        self.run_conflicts = 0;
        self.counters.restarts += 1;
        if let Some(best) = &self.best {
            for (var, &index) in best.iter().enumerate() {
                self.learner.activity.save_phase(var, index);
            }
        }
    }

    /// The predicate to decide next; `None` when every variable is fixed. Runs between
    /// restarts take turns. One follows the most active predicate still open, true or
    /// false as it last was (Pumpkin's autonomous search): bounds from conflicts, which
    /// proves scheduling. The next, and any run once no active predicate is open, the
    /// most active variable not fixed, at its saved phase (Chuffed's activity search):
    /// which fixes a variable in one decision, where predicates over a wide domain take
    /// many. Where the strategy alternates, a run that follows it comes before these two.
    fn pick(&mut self) -> Option<Pred> {
        let turn = match (&self.own, self.run % 3, self.run % 2) {
            (Some(_), 0, _) => Turn::Own,
            (Some(_), 1, _) | (None, _, 0) => Turn::Predicates,
            _ => Turn::Variables,
        };
        if turn == Turn::Own {
            if let Some(own) = &self.own {
                return own.pick(&self.store, &self.fixpoint, self.run, &self.hints);
            }
        }
        if turn == Turn::Predicates {
            if let Some(pred) = self.learner.predicates.next(&self.store) {
                return Some(pred);
            }
        }
        loop {
            let var = self.learner.activity.pop()? as usize;
            if self.store.is_fixed(var) {
                continue;
            }
            let (low, high) = (self.store.min(var)?, self.store.max(var)?);
            return Some(match self.values {
                ValueOrder::Split => Pred::le(var, low + (high - low) / 2),
                ValueOrder::ReverseSplit => Pred::ge(var, low + (high - low) / 2 + 1),
                _ => match (self.cheap_end[var], self.learner.activity.phase(var)) {
                    (Some(End::Low), _) => Pred::eq(var, low),
                    (Some(End::High), _) => Pred::eq(var, high),
                    (_, Some(index)) if self.store.contains(var, index) => Pred::eq(var, index),
                    _ if matches!(self.values, ValueOrder::Descending) => Pred::eq(var, high),
                    _ => Pred::eq(var, low),
                },
            });
        }
    }

    /// Opens a level and makes `pred` true there.
    fn decide(&mut self, pred: Pred) {
        let atoms = self.store.atoms().expect("recording").len();
        self.levels.push(Level {
            mark: self.store.mark(),
            atoms,
        });
        self.store.set_level(self.level());
        self.counters.max_depth = self.counters.max_depth.max(u64::from(self.level()));
        self.learner.decided(pred, atoms as u32);
        self.store.set_cause(Cause::Decision);
        let imposed = self.store.impose(pred);
        debug_assert!(imposed.is_ok(), "a decision keeps a value");
        if pred.rel == Rel::Eq {
            // The variable is fixed: back in the heap when a backjump frees it.
            self.learner
                .activity
                .save_phase(pred.var as usize, pred.value);
        } else {
            // Only narrowed: still a candidate.
            self.learner.activity.insert(pred.var);
        }
        self.counters.nodes += 1;
    }

    /// Moves past the solution the search stands on: optimising, the bound tightens
    /// (the next propagation fails and is learned from); satisfying, a blocking nogood of
    /// the decisions. False if nothing is left to search.
    fn after_solution(&mut self) -> bool {
        if self.bound.is_set() {
            self.bound.sync(&mut self.fixpoint);
            return true;
        }
        let mut decisions: Vec<Pred> = self.learner.decisions().collect();
        let Some(last) = decisions.pop() else {
            return false;
        };
        decisions.reverse();
        decisions.insert(0, last);
        let level = self.level();
        self.backjump(level - 1);
        self.learner
            .nogoods
            .add(decisions, level, false, &mut self.store);
        true
    }
}

impl Search for LearningEngine<'_> {
    type Item = Assignment;

    fn adopt_best(&mut self, values: &[u32]) {
        if self.bound.is_set() && values.len() == self.store.num_vars() {
            self.best = Some(values.to_vec());
            self.learner.predicates.solution_at(values);
        }
    }

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        loop {
            match self.phase {
                Phase::Start => {
                    self.phase = if self.root() {
                        Phase::Search
                    } else {
                        self.counters.failures += 1;
                        Phase::Done
                    };
                }
                Phase::Solution => {
                    self.phase = if self.after_solution() {
                        Phase::Search
                    } else {
                        Phase::Done
                    };
                }
                Phase::Search => {
                    if let Err(conflict) = self.propagate() {
                        if !self.resolve(conflict) {
                            self.phase = Phase::Done;
                            continue;
                        }
                        self.maybe_restart();
                        // Conflicts are work too: the clock and the flag are read.
                        if let Err(interrupt) = control.tick() {
                            return Ok(Step::Interrupted(interrupt));
                        }
                        continue;
                    }
                    match self.pick() {
                        None if !self.bound.improves(&self.model, &self.store) => {
                            // Another search sharing the bound found better: the bound,
                            // tightened, fails here.
                            self.bound.sync(&mut self.fixpoint);
                        }
                        None => {
                            debug_assert!(
                                (0..self.store.num_vars()).all(|v| self.store.is_fixed(v)),
                                "a solution fixes every variable"
                            );
                            #[cfg(feature = "debug-checks")]
                            if let Some(nogood) =
                                self.learner.nogoods.violated_by(&self.store.assignment())
                            {
                                panic!("debug-checks: a solution violates learned {nogood:?}");
                            }
                            self.counters.solutions += 1;
                            if self.bound.is_set() {
                                self.best = Some(self.store.assignment());
                                self.learner.predicates.solution(&self.store);
                            }
                            self.phase = Phase::Solution;
                            return Ok(Step::Solution);
                        }
                        Some(pred) => {
                            if let Err(interrupt) = control.before_node(self.counters.nodes) {
                                // Not decided: the variable goes back among the candidates.
                                self.learner.activity.insert(pred.var);
                                return Ok(Step::Interrupted(interrupt));
                            }
                            self.decide(pred);
                        }
                    }
                }
                Phase::Done => {
                    return Ok(Step::Interrupted(Interrupt::Stop(StopReason::Exhausted)));
                }
            }
        }
    }

    fn take_solution(&mut self) -> Assignment {
        Assignment::new(Arc::clone(self.model.identity()), self.store.assignment())
    }

    fn stats(&self) -> Stats {
        Stats {
            learned: self.learner.learned,
            ..self.counters.stats(self.fixpoint.runs)
        }
    }

    fn progress(&self) -> f64 {
        0.0
    }

    fn path(&self) -> Vec<u32> {
        Vec::new()
    }

    fn objective(&self) -> Option<i64> {
        self.bound.value
    }

    fn weight(&self) -> u64 {
        1
    }
}
