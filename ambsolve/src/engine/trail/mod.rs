//! The trail engine: depth-first search over a store of domains, on the choice stack.
//!
//! A decision fixes a variable to a value (or, splitting, narrows it to a half of its
//! domain: two alternatives, the value being the middle): the frame remembers the
//! variable, the value being tried and the trail mark taken before it. Propagators then run to a fixpoint;
//! an emptied domain is a failure. Backtracking undoes the trail to the top frame's mark,
//! which restores the domain the variable had at the decision, and tries its next value
//! in the value order; a frame with no value left is popped. No closure is re-run and
//! nothing recurses: the cost of a backtrack is the number of changes undone.
//!
//! With input order and ascending values, solutions come in lexicographic order of their
//! value indices: the order of the replay engine.
//!
//! The engine's parts, one concept a file: `pick.rs` (which variable, from the
//! strategy's phases and orders), `branch.rs` (how to branch on it: its values, or the
//! halves of its domain), `subproblem.rs` (the part of the tree searched), `restarts.rs`,
//! `leaders.rs` (symmetry: lex-leaders and class sizes) and `bound.rs` (branch and bound).

mod bound;
mod branch;
mod leaders;
mod learning;
mod pick;
mod restarts;
mod subproblem;

use std::sync::Arc;

pub(crate) use self::learning::LearningEngine;

use self::bound::Bound;
use self::branch::Values;
use self::leaders::Leaders;
use self::pick::VarPick;
use self::restarts::Restarting;
use self::subproblem::Subtree;
use crate::choice::{ChoiceStack, Fail};
use crate::control::{Control, Interrupt, Search, Step};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::model::{Assignment, Model};
use crate::observe::{Event, Shared};
use crate::options::{Checking, Options};
use crate::propagators::Fixpoint;
use crate::stats::Stats;
use crate::store::Store;
use crate::symmetry::Tables;

/// Where the search stands between calls.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Descend,
    Backtrack,
    Done,
}

/// What the search has done, for its [`Stats`] (the learning search's too).
#[derive(Default)]
struct Counters {
    nodes: u64,
    failures: u64,
    solutions: u64,
    max_depth: u64,
    restarts: u64,
    /// Choices replayed from a subproblem's path.
    replayed: u64,
}

impl Counters {
    /// The statistics these counters and `propagations` runs of propagators make.
    fn stats(&self, propagations: u64) -> Stats {
        Stats {
            nodes: self.nodes,
            failures: self.failures,
            solutions: self.solutions,
            max_depth: self.max_depth,
            propagations,
            restarts: self.restarts,
            replayed: self.replayed,
            ..Stats::default()
        }
    }
}

/// Fixes the variables [`Options::fixed`] names (a neighbourhood of a large neighbourhood
/// search) in a store not yet propagated: facts of the root, never undone. A value its
/// variable lacks leaves it free (values taken from a solution never do).
fn fix_before_root(store: &mut Store, options: &Options) {
    for &(var, index) in options.fixed.iter().flat_map(|fixed| fixed.iter()) {
        if store.contains(var as usize, index) {
            store
                .assign(var as usize, index)
                .expect("a value in the domain can be assigned");
        }
    }
}

/// Each variable's value index tried first: [`Options::phases`] where set (a
/// neighbourhood starts from the best solution), else the model's hints.
fn first_values(model: &Model<'_>, options: &Options) -> Vec<Option<u32>> {
    match &options.phases {
        Some(phases) => phases.iter().map(|&i| Some(i)).collect(),
        None => model.hints(),
    }
}

/// The trail engine running one model: its store and propagators, the choice stack, and
/// the parts that each serve one concept (the strategy's picks, the subproblem searched,
/// restarts, symmetry, branch and bound).
pub(crate) struct TrailEngine<'a> {
    model: Arc<Model<'a>>,
    /// Generate and test: no propagation, every constraint checked at the leaves.
    at_end: bool,
    store: Store,
    fixpoint: Fixpoint<'a>,
    stack: ChoiceStack,
    phase: Phase,
    vars: VarPick,
    values: Values,
    /// Each variable's hinted value index ([`Model::hint`]); empty if none is.
    hints: Vec<Option<u32>>,
    counters: Counters,
    scope: Subtree,
    restarts: Restarting,
    /// Solving up to symmetry, or counting through it.
    leaders: Option<Leaders>,
    /// Counting through symmetry: the size of the class of the solution the search stands
    /// on.
    weight: u64,
    bound: Bound,
    /// Who watches the search, if anyone.
    observer: Option<Shared>,
}

impl<'a> TrailEngine<'a> {
    pub(crate) fn new(model: Arc<Model<'a>>, options: &Options, symmetry: Option<Tables>) -> Self {
        let at_end = options.checking == Checking::AtEnd;
        let mut store = if at_end {
            Store::new(model.universes())
        } else {
            Store::with_domains(model.universes(), |v| model.initial_domain(v))
        };
        fix_before_root(&mut store, options);
        let bound = Bound::new(options.incumbent.clone(), &model);
        let objective = if bound.is_set() {
            model.objective_def()
        } else {
            None
        };
        let mut fixpoint = Fixpoint::new(&model, objective, &mut store);
        let strategy = &options.strategy;
        if strategy.learns() {
            fixpoint.learn_weights();
        }
        let vars = VarPick::new(strategy, &model);
        vars.track(&mut store, &mut fixpoint);
        let leaders = symmetry.map(|tables| Leaders::new(tables, &mut store, vars.ranking()));
        let hints = first_values(&model, options);
        let mut values = Values::new(strategy);
        if !hints.is_empty() {
            // A hinted value first: values listed, whatever the orders.
            values.list_all();
        }
        TrailEngine {
            model,
            at_end,
            store,
            fixpoint,
            stack: ChoiceStack::new(),
            phase: Phase::Start,
            vars,
            values,
            hints,
            counters: Counters::default(),
            scope: Subtree::new(&options.scope),
            restarts: Restarting::new(strategy.restarts),
            leaders,
            weight: 1,
            bound,
            observer: options.observer.clone(),
        }
    }

    /// Reports `event` to the observer, if there is one.
    #[inline(always)]
    fn report(&self, event: impl FnOnce() -> Event) {
        if let Some(observer) = &self.observer {
            observer.send(event());
        }
    }

    fn depth(&self) -> u32 {
        self.stack.len() as u32
    }

    /// Counts a failure of the node the search stands on (the root at depth 0) and
    /// reports it.
    fn node_failed(&mut self) {
        self.counters.failures += 1;
        self.report(|| Event::Fail {
            depth: self.depth(),
        });
    }

    /// Branch and bound: the next propagation keeps the cost below the best solution found
    /// so far (at every node: see [`Bound::sync`]).
    #[inline]
    fn sync_bound(&mut self) {
        if self.scope.entering {
            // The subproblem's path is replayed as it was cut, without a bound: a tighter
            // domain would change its alternatives.
            return;
        }
        self.bound.sync(&mut self.fixpoint);
    }

    /// Propagates the root. False if the model has no solution.
    fn root(&mut self) -> bool {
        if (0..self.store.num_vars()).any(|v| self.store.size(v) == 0) {
            return false;
        }
        self.store.set_level(0);
        self.sync_bound();
        self.at_end || (self.fixpoint.initial(&mut self.store).is_ok() && self.propagate().is_ok())
    }

    /// Opens a frame on `var` and tries its first value.
    fn decide(&mut self, var: usize) {
        self.open(var);
        self.try_top(true);
    }

    /// Makes the top frame's alternative true (its variable fixed to its value, or
    /// narrowed to a half of its domain) and propagates; `new`: a node made now (not
    /// replayed from a subproblem's path).
    fn try_top(&mut self, new: bool) {
        let top = *self.stack.top().expect("a frame is open");
        self.counters.nodes += u64::from(new);
        self.sync_bound();
        let assigned = self.apply(&top);
        let result = if self.at_end {
            // Generate and test: nothing is checked before the leaves.
            self.store.clear_events();
            assigned
        } else {
            assigned.and_then(|()| self.propagate())
        };
        self.report(|| Event::Try {
            depth: self.depth(),
            var: Some(Store::var_id(top.var as usize)),
            value: top.value,
            index: top.index,
            alternatives: top.arity,
            universe: self.store.universe(top.var as usize),
        });
        self.phase = match result {
            Ok(()) => Phase::Descend,
            Err(Fail) => {
                self.restarts.run_failures += 1;
                self.node_failed();
                Phase::Backtrack
            }
        };
    }

    /// Undoes the top frame's alternative and moves to its next value, popping exhausted
    /// frames. False when the stack is empty.
    fn next_alternative(&mut self, control: &mut Control) -> Result<bool, Interrupt> {
        loop {
            let Some(&top) = self.stack.top() else {
                return Ok(false);
            };
            if self.stack.len() <= self.scope.floor {
                // Back at the subproblem's node: its subtree is done.
                return Ok(false);
            }
            self.store.undo_to(top.mark);
            let refuted = self.refute(&top);
            let next = match refuted {
                Ok(()) => self.value_after(&top),
                Err(Fail) => {
                    // The values left cannot work: the choice is closed. No node was
                    // tried, so none failed (the statistics and the search tree count
                    // nodes); a restart's budget counts it.
                    self.restarts.run_failures += 1;
                    None
                }
            };
            let Some((index, value)) = next else {
                self.stack.pop();
                self.drop_listed(&top);
                self.enter_level();
                continue;
            };
            control.before_node(self.counters.nodes)?;
            self.report(|| Event::Backtrack {
                depth: self.depth() - 1,
            });
            let frame = self.stack.top_mut().expect("a frame is open");
            frame.index = index;
            frame.value = value;
            self.try_top(true);
            return Ok(true);
        }
    }

    /// Propagates to a fixpoint: the propagators, then (up to symmetry) the lex-leader
    /// rule, again as long as the rule removes values.
    fn propagate(&mut self) -> Result<(), Fail> {
        loop {
            self.fixpoint.run(&mut self.store)?;
            if !self.leaders_prune()? {
                return Ok(());
            }
        }
    }

    /// Up to symmetry: fails if the domains already show that a symmetric image is
    /// smaller, and removes the values that cannot be in a leader; true if it removed
    /// some.
    fn leaders_prune(&mut self) -> Result<bool, Fail> {
        match &mut self.leaders {
            Some(leaders) => leaders.prune(&mut self.store),
            None => Ok(false),
        }
    }

    /// Counting through symmetry: the size of the class of the solution the search
    /// stands on.
    fn class_size(&mut self) -> u64 {
        match &mut self.leaders {
            Some(leaders) => leaders.class_size(&self.store),
            None => 1,
        }
    }
}

impl Search for TrailEngine<'_> {
    type Item = Assignment;

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        loop {
            match self.phase {
                Phase::Start => {
                    self.phase = if !self.root() {
                        self.node_failed();
                        if let Some(&index) = self.scope.prefix.first() {
                            // The root fails: no path leads anywhere.
                            return Err(SearchError::NoSuchSubproblem { depth: 0, index });
                        }
                        Phase::Done
                    } else if self.scope.prefix.is_empty() || self.enter_prefix()? {
                        Phase::Descend
                    } else {
                        Phase::Done
                    };
                }
                Phase::Descend => match self.select_var() {
                    None if self.at_end
                        && !(self.model.satisfied(&self.store.assignment())
                            && self.leaders_prune().is_ok()) =>
                    {
                        self.node_failed();
                        if self.scope.floor > 0 && self.stack.len() == self.scope.floor {
                            // Generating and testing, the subproblem's path ends at a
                            // leaf that fails.
                            return Err(self.failed_subproblem());
                        }
                        self.phase = Phase::Backtrack;
                    }
                    None if !self.bound.improves(&self.model, &self.store) => {
                        self.node_failed();
                        self.phase = Phase::Backtrack;
                    }
                    None => {
                        self.counters.solutions += 1;
                        self.weight = self.class_size();
                        self.report(|| Event::Solution {
                            depth: self.depth(),
                        });
                        self.phase = Phase::Backtrack;
                        return Ok(Step::Solution);
                    }
                    Some(_) if self.scope.cutoff == Some(self.depth()) => {
                        self.phase = Phase::Backtrack;
                        return Ok(Step::Cut);
                    }
                    Some(var) => {
                        if let Err(interrupt) = control.before_node(self.counters.nodes) {
                            return Ok(Step::Interrupted(interrupt));
                        }
                        self.decide(var);
                    }
                },
                Phase::Backtrack => {
                    if self.maybe_restart() {
                        self.phase = Phase::Descend;
                        continue;
                    }
                    match self.next_alternative(control) {
                        Ok(true) => {}
                        Ok(false) => self.phase = Phase::Done,
                        Err(interrupt) => return Ok(Step::Interrupted(interrupt)),
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
        self.counters.stats(self.fixpoint.runs)
    }

    fn progress(&self) -> f64 {
        self.stack.progress_from(self.scope.floor)
    }

    fn path(&self) -> Vec<u32> {
        self.stack.path()
    }

    fn objective(&self) -> Option<i64> {
        self.bound.value
    }

    fn weight(&self) -> u64 {
        self.weight
    }
}
