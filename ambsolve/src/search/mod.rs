//! The trail engine: depth-first search over a store of domains, on the choice stack.
//!
//! A decision fixes a variable to a value: the frame remembers the variable, the value
//! being tried and the trail mark taken before it. Propagators then run to a fixpoint;
//! an emptied domain is a failure. Backtracking undoes the trail to the top frame's mark,
//! which restores the domain the variable had at the decision, and tries its next value
//! in the value order; a frame with no value left is popped. No closure is re-run and
//! nothing recurses: the cost of a backtrack is the number of changes undone.
//!
//! With input order and ascending values, solutions come in lexicographic order of their
//! value indices: the order of the replay engine.

use std::sync::Arc;

use crate::choice::{ChoiceStack, Fail, Frame};
use crate::control::{Control, Incumbent, Interrupt, Search, Step};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::model::{Assignment, Model};
use crate::observe::{Event, Shared};
use crate::options::{Checking, Options};
use crate::propagate::Propagation;
use crate::stats::Stats;
use crate::store::Store;
use crate::strategy::{
    Restarts, ValueOrder, VarOrder, complete_order, middle_out_index, middle_out_position,
    order_values,
};
use crate::symmetry::{Domains, Lead, Tables};
use crate::var::VarId;

/// How the next variable is picked, prepared from a [`VarOrder`].
enum VarPick {
    Input,
    FirstFail,
    /// A full order and each variable's position in it.
    Given {
        order: Vec<u32>,
        position: Vec<u32>,
    },
    /// First-fail, ties broken by rank (lower first).
    FirstFailRanked(Vec<u32>),
}

impl VarPick {
    fn new(order: &VarOrder, num_vars: usize) -> Self {
        let full_order = |given: &[VarId]| {
            let order: Vec<u32> = complete_order(given, num_vars)
                .into_iter()
                .map(|v| v as u32)
                .collect();
            let mut position = vec![0; num_vars];
            for (p, &v) in order.iter().enumerate() {
                position[v as usize] = p as u32;
            }
            (order, position)
        };
        match order {
            VarOrder::Automatic | VarOrder::Input => VarPick::Input,
            VarOrder::FirstFail => VarPick::FirstFail,
            VarOrder::Given(given) => {
                let (order, position) = full_order(given);
                VarPick::Given { order, position }
            }
            VarOrder::FirstFailThen(given) => VarPick::FirstFailRanked(full_order(given).1),
        }
    }

    /// The variables in the order this pick prefers them when domains tie.
    fn ranking(&self, num_vars: usize) -> Vec<usize> {
        match self {
            VarPick::Input | VarPick::FirstFail => (0..num_vars).collect(),
            VarPick::Given { order, .. } => order.iter().map(|&v| v as usize).collect(),
            VarPick::FirstFailRanked(rank) => {
                let mut order: Vec<usize> = (0..num_vars).collect();
                order.sort_by_key(|&v| rank[v]);
                order
            }
        }
    }
}

/// A lead cell's value once its symmetry's image cannot be smaller in the subtree.
const LEADS: u64 = u64::MAX;

/// How values are enumerated: straight off the domain bits, or from a list built at the
/// decision (for orders that are not index order).
#[derive(Clone, Copy, PartialEq, Eq)]
enum ValuePick {
    Ascending,
    Descending,
    /// Middle-out, walked straight off the domain.
    MiddleOut,
    Listed,
}

/// Where the search stands between calls.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Descend,
    Backtrack,
    Done,
}

/// The trail engine running one model.
pub(crate) struct TrailSearch<'a> {
    model: Arc<Model<'a>>,
    /// Generate and test: no propagation, every constraint checked at the leaves.
    at_end: bool,
    /// Solving up to symmetry, or counting through it: the symmetries' tables; per
    /// symmetry, a trailed cell holding how far the assignment is known equal to its
    /// image ([`LEADS`] once it cannot be smaller); values found not to lead.
    symmetry: Option<Tables>,
    lead_cells: Vec<usize>,
    not_leading: Vec<(u32, u32)>,
    /// Counting through symmetry: the size of the class of the solution the search stands
    /// on, and the solution's value indices read for it.
    weight: u64,
    solution: Vec<u32>,
    store: Store,
    propagation: Propagation<'a>,
    stack: ChoiceStack,
    vars: VarPick,
    values: ValueOrder,
    pick: ValuePick,
    /// Listed values: candidates of every open frame, `starts[d]` where frame `d`'s begin.
    listed: Vec<u32>,
    starts: Vec<u32>,
    restarts: Option<Restarts>,
    run: u64,
    run_failures: u64,
    phase: Phase,
    nodes: u64,
    failures: u64,
    solutions: u64,
    max_depth: u64,
    restarts_made: u64,
    /// The subproblem searched: its path (replayed at the start) and the depth at which
    /// nodes are reported as cuts.
    prefix: Vec<u32>,
    cutoff: Option<u32>,
    /// Frames at the subproblem's node and above, never backtracked.
    floor: usize,
    /// Replaying the subproblem's path.
    entering: bool,
    replayed: u64,
    /// Branch and bound: the best cost so far (shared), and the objective's value at the
    /// solution the search stands on.
    incumbent: Option<Arc<Incumbent>>,
    value: Option<i64>,
    /// Who watches the search, if anyone.
    observer: Option<Shared>,
}

impl<'a> TrailSearch<'a> {
    pub(crate) fn new(
        model: Arc<Model<'a>>,
        options: &Options,
        mut symmetry: Option<Tables>,
    ) -> Self {
        let at_end = options.checking == Checking::AtEnd;
        let mut store = if at_end {
            Store::new(model.universes())
        } else {
            Store::with_domains(model.universes(), |v| model.initial_domain(v))
        };
        let incumbent = options
            .incumbent
            .clone()
            .filter(|_| model.objective_def().is_some());
        let objective = incumbent.as_ref().and(model.objective_def());
        let propagation = Propagation::new(&model, objective, &mut store);
        let lead_cells = (0..symmetry.as_ref().map_or(0, Tables::len))
            .map(|_| store.alloc_aux(0))
            .collect();
        let strategy = &options.strategy;
        let pick = match strategy.values {
            ValueOrder::Ascending => ValuePick::Ascending,
            ValueOrder::Descending => ValuePick::Descending,
            ValueOrder::MiddleOut => ValuePick::MiddleOut,
            _ => ValuePick::Listed,
        };
        let vars = VarPick::new(&strategy.vars, model.num_vars());
        if let Some(tables) = symmetry.as_mut().filter(|t| t.counts_classes()) {
            // Any fixed order gives one leader per class: the one the search fixes
            // variables in (as far as it is fixed) lets the comparison cut soonest.
            tables.set_order(vars.ranking(model.num_vars()));
        }
        TrailSearch {
            model,
            at_end,
            symmetry,
            lead_cells,
            not_leading: Vec::new(),
            weight: 1,
            solution: Vec::new(),
            vars,
            values: strategy.values.clone(),
            pick,
            store,
            propagation,
            stack: ChoiceStack::new(),
            listed: Vec::new(),
            starts: Vec::new(),
            restarts: strategy.restarts,
            run: 0,
            run_failures: 0,
            phase: Phase::Start,
            nodes: 0,
            failures: 0,
            solutions: 0,
            max_depth: 0,
            restarts_made: 0,
            prefix: options.scope.prefix.clone(),
            cutoff: options.scope.cutoff,
            floor: 0,
            entering: !options.scope.prefix.is_empty(),
            replayed: 0,
            incumbent,
            value: None,
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
        self.failures += 1;
        self.report(|| Event::Fail {
            depth: self.depth(),
        });
    }

    /// Branch and bound: the next propagation keeps the cost below the best solution
    /// found so far. The bound is not trailed, and what it pruned below one node is undone
    /// when the search backtracks: so its propagator is scheduled at every node, not only
    /// after an improvement (else a subtree whose cost's variables did not change since,
    /// such as one with the objective variable already fixed, never sees the better bound
    /// and is searched to its leaves).
    #[inline]
    fn sync_bound(&mut self) {
        if self.entering {
            // The subproblem's path is replayed as it was cut, without a bound: a tighter
            // domain would change its alternatives.
            return;
        }
        if let Some(best) = self.incumbent.as_ref().and_then(|i| i.bound()) {
            self.propagation.tighten(i128::from(best) - 1);
        }
    }

    /// Branch and bound: whether the solution the search stands on improves on the best
    /// one (always true without an objective); if so it becomes the best.
    fn improves(&mut self) -> bool {
        let Some(incumbent) = &self.incumbent else {
            return true;
        };
        let Some(objective) = self.model.objective_def() else {
            return true;
        };
        let cost = objective.cost(&self.store.assignment());
        // Another search sharing the incumbent may have found better since this node
        // was propagated.
        if !incumbent.improve(cost) {
            return false;
        }
        self.value = Some(objective.value_of(cost));
        true
    }

    /// Propagates the root. False if the model has no solution.
    fn root(&mut self) -> bool {
        if (0..self.store.num_vars()).any(|v| self.store.size(v) == 0) {
            return false;
        }
        self.store.set_level(0);
        self.sync_bound();
        self.at_end
            || (self.propagation.initial(&mut self.store).is_ok() && self.propagate().is_ok())
    }

    /// The next variable to branch on, or `None` when every variable is fixed.
    fn select_var(&self) -> Option<usize> {
        let store = &self.store;
        let n = store.num_vars();
        match &self.vars {
            VarPick::Input => {
                let from = self.stack.top().map_or(0, |f| f.var as usize + 1);
                (from..n).find(|&v| !store.is_fixed(v))
            }
            VarPick::Given { order, position } => {
                let from = self
                    .stack
                    .top()
                    .map_or(0, |f| position[f.var as usize] as usize + 1);
                order[from..]
                    .iter()
                    .map(|&v| v as usize)
                    .find(|&v| !store.is_fixed(v))
            }
            VarPick::FirstFail => {
                let mut best: Option<(u32, usize)> = None;
                for v in 0..n {
                    let size = store.size(v);
                    if size > 1 && best.is_none_or(|(s, _)| size < s) {
                        best = Some((size, v));
                        if size == 2 {
                            break;
                        }
                    }
                }
                best.map(|(_, v)| v)
            }
            VarPick::FirstFailRanked(rank) => (0..n)
                .filter(|&v| store.size(v) > 1)
                .min_by_key(|&v| (store.size(v), rank[v])),
        }
    }

    /// Opens a frame on `var` and tries its first value.
    fn decide(&mut self, var: usize) {
        self.open(var);
        self.try_top(true);
    }

    /// Replays the subproblem's path: each choice as the search made it, at the
    /// alternative the path gives. False if the path's node has no solution left (a
    /// branch and bound's bound may have ruled it out since the path was cut).
    ///
    /// # Errors
    /// [`SearchError::NoSuchSubproblem`] if the path does not lead to a live node: a
    /// choice has no such alternative, or no choice is left (past a solution), or a node
    /// on the way, the last one included, fails.
    fn enter_prefix(&mut self) -> Result<bool, SearchError> {
        let path = std::mem::take(&mut self.prefix);
        for (depth, &index) in path.iter().enumerate() {
            let missing = || SearchError::NoSuchSubproblem { depth, index };
            let var = self.select_var().ok_or_else(missing)?;
            self.open(var);
            for _ in 0..index {
                let top = *self.stack.top().expect("a frame is open");
                let value = self.value_after(&top).ok_or_else(missing)?;
                let frame = self.stack.top_mut().expect("a frame is open");
                frame.index += 1;
                frame.value = value;
            }
            self.replayed += 1;
            self.try_top(false);
            if self.phase == Phase::Backtrack {
                // Replayed without the bound, a node fails as it did when the path was
                // cut: a path through it names no subproblem.
                return Err(missing());
            }
        }
        self.floor = self.stack.len();
        self.prefix = path;
        self.entering = false;
        let mut entered = true;
        if self.incumbent.is_some() {
            // The bound found so far, from the subproblem's node on.
            self.sync_bound();
            if self.propagate().is_err() {
                self.node_failed();
                entered = false;
            }
        }
        Ok(entered)
    }

    /// The error for a subproblem whose path ends at a node that fails.
    fn failed_subproblem(&self) -> SearchError {
        let depth = self.floor - 1;
        SearchError::NoSuchSubproblem {
            depth,
            index: self.prefix[depth],
        }
    }

    /// Opens a frame on `var` at its first value, without trying it.
    fn open(&mut self, var: usize) {
        let mark = self.store.mark();
        let arity = self.store.size(var);
        let value = match self.pick {
            ValuePick::Ascending => self.store.min(var),
            ValuePick::Descending => self.store.max(var),
            ValuePick::MiddleOut => self.middle_out_from(var, 0),
            ValuePick::Listed => {
                let start = self.listed.len();
                self.starts.push(start as u32);
                self.listed.extend(self.store.iter(var));
                let order = self.run_value_order();
                let universe = self.store.universe(var);
                order_values(
                    &order,
                    Store::var_id(var),
                    universe,
                    &mut self.listed[start..],
                    self.run,
                );
                self.listed.get(start).copied()
            }
        };
        let value = value.expect("a variable picked for branching has values");
        self.stack.push(Frame {
            index: 0,
            arity,
            var: var as u32,
            value,
            mark,
        });
        self.store.set_level(self.stack.len() as u32);
        self.max_depth = self.max_depth.max(self.stack.len() as u64);
    }

    /// The first value of `var`'s domain at or after middle-out position `from`.
    fn middle_out_from(&self, var: usize, from: u32) -> Option<u32> {
        let universe = self.store.universe(var);
        (from..universe)
            .map(|k| middle_out_index(universe, k))
            .find(|&index| self.store.contains(var, index))
    }

    /// The value order of the current run: the strategy's, shuffled after a restart.
    fn run_value_order(&self) -> ValueOrder {
        match (&self.restarts, self.run) {
            (Some(restarts), run) if run > 0 => ValueOrder::Random(restarts.seed.wrapping_add(run)),
            _ => self.values.clone(),
        }
    }

    /// Fixes the top frame's variable to its value and propagates; `new`: a node made
    /// now (not replayed from a subproblem's path).
    fn try_top(&mut self, new: bool) {
        let top = *self.stack.top().expect("a frame is open");
        self.nodes += u64::from(new);
        self.sync_bound();
        let assigned = self.store.assign(top.var as usize, top.value);
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
                self.run_failures += 1;
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
            if self.stack.len() <= self.floor {
                // Back at the subproblem's node: its subtree is done.
                return Ok(false);
            }
            self.store.undo_to(top.mark);
            let Some(value) = self.value_after(&top) else {
                self.stack.pop();
                if self.pick == ValuePick::Listed {
                    let start = self.starts.pop().expect("listed frames have a start");
                    self.listed.truncate(start as usize);
                }
                self.store.set_level(self.stack.len() as u32);
                continue;
            };
            control.before_node(self.nodes)?;
            self.report(|| Event::Backtrack {
                depth: self.depth() - 1,
            });
            let frame = self.stack.top_mut().expect("a frame is open");
            frame.index += 1;
            frame.value = value;
            self.try_top(true);
            return Ok(true);
        }
    }

    /// The value after the one `top` tries, in the frame's value order, with the store
    /// as it was when the frame was opened.
    fn value_after(&self, top: &Frame) -> Option<u32> {
        let var = top.var as usize;
        match self.pick {
            ValuePick::Ascending => self.store.next_at_or_after(var, top.value + 1),
            ValuePick::Descending => top
                .value
                .checked_sub(1)
                .and_then(|v| self.store.prev_at_or_before(var, v)),
            ValuePick::MiddleOut => {
                let universe = self.store.universe(var);
                self.middle_out_from(var, middle_out_position(universe, top.value) + 1)
            }
            ValuePick::Listed => {
                let start = *self.starts.last().expect("listed frames have a start") as usize;
                self.listed.get(start + top.index as usize + 1).copied()
            }
        }
    }

    /// Propagates to a fixpoint: the propagators, then (up to symmetry) the lex-leader
    /// rule, again as long as the rule removes values.
    fn propagate(&mut self) -> Result<(), Fail> {
        loop {
            self.propagation.run(&mut self.store)?;
            if !self.may_lead()? {
                return Ok(());
            }
        }
    }

    /// Up to symmetry: fails if the domains already show that a symmetric image is
    /// smaller, and removes the values that cannot be in a leader; true if it removed
    /// some.
    fn may_lead(&mut self) -> Result<bool, Fail> {
        let Some(tables) = &self.symmetry else {
            return Ok(false);
        };
        let store = &mut self.store;
        self.not_leading.clear();
        for (g, &cell) in self.lead_cells.iter().enumerate() {
            let equal = store.aux(cell);
            if equal == LEADS {
                continue;
            }
            match tables.lead(g, equal as usize, store, &mut self.not_leading) {
                Lead::Smaller => return Err(Fail),
                Lead::NotSmaller => store.set_aux(cell, LEADS),
                Lead::Undecided { equal: now } if u64::from(now) != equal => {
                    store.set_aux(cell, u64::from(now));
                }
                Lead::Undecided { .. } => {}
            }
        }
        for &(var, value) in &self.not_leading {
            if store.remove(var as usize, value).is_err() {
                // As a failed propagation does: no event outlives the failure.
                store.clear_events();
                return Err(Fail);
            }
        }
        Ok(!self.not_leading.is_empty())
    }

    /// Counting through symmetry: the size of the class of the solution the search
    /// stands on.
    fn class_size(&mut self) -> u64 {
        let Some(tables) = self.symmetry.as_mut().filter(|t| t.counts_classes()) else {
            return 1;
        };
        let store = &self.store;
        self.solution.clear();
        self.solution
            .extend((0..store.num_vars()).map(|v| store.min(v).unwrap_or(0)));
        tables.orbit_size(&self.solution)
    }

    /// Starts a new run from the root, if the restart budget of this one is spent.
    fn maybe_restart(&mut self) -> bool {
        let Some(restarts) = self.restarts else {
            return false;
        };
        if self.floor > 0 || self.cutoff.is_some() {
            // A subproblem, or a search being split, keeps to its order.
            return false;
        }
        if self.solutions > 0 || self.run_failures <= restarts.budget(self.run) {
            return false;
        }
        self.store.undo_to(0);
        self.store.set_level(0);
        self.stack = ChoiceStack::new();
        self.listed.clear();
        self.starts.clear();
        self.run += 1;
        self.run_failures = 0;
        self.restarts_made += 1;
        self.report(|| Event::Restart);
        // After a restart values are listed (shuffled) whatever the strategy's order.
        self.pick = ValuePick::Listed;
        true
    }
}

impl Search for TrailSearch<'_> {
    type Item = Assignment;

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        loop {
            match self.phase {
                Phase::Start => {
                    self.phase = if !self.root() {
                        self.node_failed();
                        if let Some(&index) = self.prefix.first() {
                            // The root fails: no path leads anywhere.
                            return Err(SearchError::NoSuchSubproblem { depth: 0, index });
                        }
                        Phase::Done
                    } else if self.prefix.is_empty() || self.enter_prefix()? {
                        Phase::Descend
                    } else {
                        Phase::Done
                    };
                }
                Phase::Descend => match self.select_var() {
                    None if self.at_end
                        && !(self.model.satisfied(&self.store.assignment())
                            && self.may_lead().is_ok()) =>
                    {
                        self.node_failed();
                        if self.floor > 0 && self.stack.len() == self.floor {
                            // Generating and testing, the subproblem's path ends at a
                            // leaf that fails.
                            return Err(self.failed_subproblem());
                        }
                        self.phase = Phase::Backtrack;
                    }
                    None if !self.improves() => {
                        self.node_failed();
                        self.phase = Phase::Backtrack;
                    }
                    None => {
                        self.solutions += 1;
                        self.weight = self.class_size();
                        self.report(|| Event::Solution {
                            depth: self.depth(),
                        });
                        self.phase = Phase::Backtrack;
                        return Ok(Step::Solution);
                    }
                    Some(_) if self.cutoff == Some(self.depth()) => {
                        self.phase = Phase::Backtrack;
                        return Ok(Step::Cut);
                    }
                    Some(var) => {
                        if let Err(interrupt) = control.before_node(self.nodes) {
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
        Stats {
            nodes: self.nodes,
            failures: self.failures,
            solutions: self.solutions,
            max_depth: self.max_depth,
            propagations: self.propagation.runs,
            restarts: self.restarts_made,
            replayed: self.replayed,
            ..Stats::default()
        }
    }

    fn progress(&self) -> f64 {
        self.stack.progress_from(self.floor)
    }

    fn path(&self) -> Vec<u32> {
        self.stack.path()
    }

    fn objective(&self) -> Option<i64> {
        self.value
    }

    fn weight(&self) -> u64 {
        self.weight
    }
}

impl Domains for Store {
    fn min(&self, var: usize) -> Option<u32> {
        Store::min(self, var)
    }

    fn max(&self, var: usize) -> Option<u32> {
        Store::max(self, var)
    }

    fn contains(&self, var: usize, value: u32) -> bool {
        Store::contains(self, var, value)
    }
}
