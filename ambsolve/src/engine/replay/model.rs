//! A model run as an `amb` program: choose each variable in turn, and check each
//! constraint as soon as it can fail.
//!
//! A constraint is checked in full right after the last of its variables is chosen.
//! Before that, the decomposable ones are checked as far as they go: an all-different
//! keeps the keys chosen so far in a set and rejects a repeat at once (each pair is known
//! as soon as both its variables are), and a linear constraint checks that the terms not
//! chosen yet can still reach the right-hand side. These partial checks are necessary
//! conditions, so they change neither the solutions nor their order, only the work.

use hashbrown::HashSet;

use std::sync::Arc;

use super::{Amb, ReplayEngine};
use crate::choice::Fail;
use crate::control::{Control, Incumbent, Search, Step};
use crate::error::SearchError;
use crate::model::{Assignment, Constraint, Model, TermKeys};
use crate::options::{Checking, Options};
use crate::stats::Stats;
use crate::strategy::{Phase, ValueOrder, VarOrder, complete_order, order_values};
use crate::symmetry::Tables;
use crate::var::VarId;

/// Keys of an all-different chosen so far in the current run.
enum KeySet {
    /// A bitset over `min..min + 64 × words.len()`.
    Bits {
        min: i64,
        words: Vec<u64>,
    },
    Hashed(HashSet<i64>),
}

/// Key ranges wider than this use a hash set.
const BITSET_KEYS: i64 = 1 << 20;

impl KeySet {
    fn for_keys(keys: impl Iterator<Item = i64>) -> Self {
        let (mut min, mut max) = (i64::MAX, i64::MIN);
        for key in keys {
            (min, max) = (min.min(key), max.max(key));
        }
        if min > max {
            return KeySet::Bits {
                min: 0,
                words: Vec::new(),
            };
        }
        match max.checked_sub(min) {
            Some(span) if span < BITSET_KEYS => KeySet::Bits {
                min,
                words: vec![0; (span as usize + 64) / 64],
            },
            _ => KeySet::Hashed(HashSet::new()),
        }
    }

    fn clear(&mut self) {
        match self {
            KeySet::Bits { words, .. } => words.fill(0),
            KeySet::Hashed(set) => set.clear(),
        }
    }

    /// Takes `key` out of the set.
    #[inline]
    fn remove(&mut self, key: i64) {
        match self {
            KeySet::Bits { min, words } => {
                let at = (key - *min) as usize;
                words[at / 64] &= !(1u64 << (at % 64));
            }
            KeySet::Hashed(set) => {
                set.remove(&key);
            }
        }
    }

    /// Adds `key`; false if it was there already.
    #[inline]
    fn insert(&mut self, key: i64) -> bool {
        match self {
            KeySet::Bits { min, words } => {
                let at = (key - *min) as usize;
                let (w, bit) = (at / 64, 1u64 << (at % 64));
                let fresh = words[w] & bit == 0;
                words[w] |= bit;
                fresh
            }
            KeySet::Hashed(set) => set.insert(key),
        }
    }
}

/// What to check after a step.
#[derive(Default, Clone)]
struct StepChecks {
    /// All-different constraints (index into `sets`) and the chosen variable's position.
    distinct: Vec<(usize, usize)>,
    /// Constraints checked partially (linear).
    partial: Vec<usize>,
    /// Constraints whose last variable this step chose.
    full: Vec<usize>,
}

/// The replay engine running a model: the program of [`model_program`], the objective's
/// value at each solution when it optimises, and the size of its class when it counts
/// through symmetry.
pub(crate) struct ModelReplay<'a, F> {
    search: ReplayEngine<F, Assignment>,
    model: Arc<Model<'a>>,
    optimizing: bool,
    value: Option<i64>,
    /// Counting through symmetry: the symmetries (the program has its own copy).
    classes: Option<Tables>,
    weight: u64,
}

impl<F> Search for ModelReplay<'_, F>
where
    F: FnMut(&mut Amb<'_>) -> Result<Assignment, Fail>,
{
    type Item = Assignment;

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        let step = self.search.advance(control)?;
        if let (Step::Solution, true) = (step, self.optimizing) {
            let objective = self.model.objective_def();
            self.value = self
                .search
                .solution()
                .zip(objective)
                .map(|(solution, objective)| objective.value(solution.indices()));
        }
        if let (Step::Solution, Some(tables)) = (step, &mut self.classes) {
            if let Some(solution) = self.search.solution() {
                self.weight = tables.orbit_size(solution.indices());
            }
        }
        Ok(step)
    }

    fn take_solution(&mut self) -> Assignment {
        self.search.take_solution()
    }

    fn stats(&self) -> Stats {
        self.search.stats()
    }

    fn progress(&self) -> f64 {
        self.search.progress()
    }

    fn objective(&self) -> Option<i64> {
        self.value
    }

    fn path(&self) -> Vec<u32> {
        self.search.path()
    }

    fn weight(&self) -> u64 {
        self.weight
    }
}

/// The replay engine over `model`. Variables are chosen in the strategy's static order
/// (the model's replay order by default, input order, or a given order; the dynamic
/// orders need domains and mean input order here; phases: their variables first, phase
/// after phase), values in the value order of each variable's phase.
///
/// Branch and bound (with an incumbent in `options`): after each choice of one of the
/// objective's variables, the least cost the choices so far allow must be below the best
/// cost found; a run failing on it rules out every path below its last choice.
pub(crate) fn model_program<'a>(
    model: Arc<Model<'a>>,
    options: &Options,
    symmetry: Option<Tables>,
) -> ModelReplay<'a, impl FnMut(&mut Amb<'_>) -> Result<Assignment, Fail> + 'a> {
    let incumbent = options
        .incumbent
        .clone()
        .filter(|_| model.objective_def().is_some());
    let classes = symmetry.clone().filter(Tables::counts_classes);
    ModelReplay {
        optimizing: incumbent.is_some(),
        search: ReplayEngine::new(program(Arc::clone(&model), options, symmetry, incumbent))
            .scoped(&options.scope)
            .observed(options.observer.clone()),
        model,
        value: None,
        classes,
        weight: 1,
    }
}

/// The program [`model_program`] runs: a [`ModelProgram`], run once per path.
fn program<'a>(
    model: Arc<Model<'a>>,
    options: &Options,
    mut symmetry: Option<Tables>,
    incumbent: Option<Arc<Incumbent>>,
) -> impl FnMut(&mut Amb<'_>) -> Result<Assignment, Fail> + 'a {
    let plan = Plan::new(&model, options, incumbent.is_some());
    if let Some(tables) = symmetry.as_mut().filter(|t| t.counts_classes()) {
        // Any fixed order gives one leader per class: the order of the choices lets the
        // comparison cut soonest.
        tables.set_order(plan.order.iter().copied());
    }
    let n = model.num_vars();
    let mut program = ModelProgram {
        sets: plan.key_sets(&model),
        plan,
        model,
        symmetry,
        incumbent,
        assigned: vec![0u32; n],
        lists: vec![Vec::new(); n],
        chosen_at: vec![0usize; n],
        valid: 0,
    };
    move |amb: &mut Amb<'_>| program.run(amb)
}

/// What the program of a model knows before it runs: the order of its choices, what to
/// check after each, and each variable's values in the value order.
struct Plan {
    /// The variables in the order they are chosen, and each variable's step.
    order: Vec<usize>,
    step_of: Vec<usize>,
    /// Step 0 is before any choice (constraints over no variable); step s + 1 follows the
    /// choice of `order[s]`.
    steps: Vec<StepChecks>,
    /// All-different constraints, checked key by key as their variables are chosen.
    distinct: Vec<usize>,
    /// Branch and bound: the steps after which the objective's least cost is checked.
    bound_after: Vec<bool>,
    /// Each variable's value indices in the value order (its restriction applied, when
    /// checking early), and whether they are sorted.
    ordered: Vec<Vec<u32>>,
    sorted: Vec<Option<bool>>,
    /// Generate and test: every constraint, restrictions included, after the last step.
    at_end: bool,
}

impl Plan {
    fn new(model: &Model<'_>, options: &Options, optimizing: bool) -> Self {
        let n = model.num_vars();
        let strategy = &options.strategy;
        let order: Vec<usize> = match &strategy.vars {
            _ if !strategy.phases.is_empty() => {
                let listed: Vec<VarId> = strategy
                    .phases
                    .iter()
                    .flat_map(|p| ranked(p).into_iter())
                    .chain(strategy.vars.named().iter().copied())
                    .collect();
                complete_order(&listed, n)
            }
            VarOrder::Given(given) => complete_order(given, n),
            VarOrder::Automatic => model.replay_order().iter().map(|v| v.index()).collect(),
            _ => (0..n).collect(),
        };
        let mut step_of = vec![0; n];
        for (step, &v) in order.iter().enumerate() {
            step_of[v] = step;
        }
        let at_end = options.checking == Checking::AtEnd;
        let mut plan = Plan {
            order,
            step_of,
            steps: vec![StepChecks::default(); n + 1],
            distinct: Vec::new(),
            bound_after: vec![false; n],
            ordered: Vec::new(),
            sorted: Vec::new(),
            at_end,
        };
        if !at_end {
            plan.place_checks(model);
        }
        if let (true, Some(objective)) = (optimizing, model.objective_def()) {
            for v in objective.vars() {
                plan.bound_after[plan.step_of[v.index()]] = true;
            }
        }
        let orders = phase_values(options, n);
        plan.ordered = (0..n)
            .map(|v| value_list(model, &orders, v, at_end))
            .collect();
        plan.sorted = plan.ordered.iter().map(|list| direction(list)).collect();
        plan
    }

    /// Each constraint checked right after the step of its last variable (an
    /// all-different key by key, a linear constraint partially at its earlier steps).
    fn place_checks(&mut self, model: &Model<'_>) {
        for (c, constraint) in model.constraints().iter().enumerate() {
            let vars = constraint.vars();
            let last = vars
                .iter()
                .map(|v| self.step_of[v.index()] + 1)
                .max()
                .unwrap_or(0);
            if let Constraint::AllDifferent(def) = constraint {
                let set = self.distinct.len();
                for (position, v) in def.vars.iter().enumerate() {
                    self.steps[self.step_of[v.index()] + 1]
                        .distinct
                        .push((set, position));
                }
                self.distinct.push(c);
                continue;
            }
            self.steps[last].full.push(c);
            let mut earlier: Vec<usize> = vars
                .iter()
                .map(|v| self.step_of[v.index()] + 1)
                .filter(|&s| s < last)
                .collect();
            earlier.sort_unstable();
            earlier.dedup();
            if let Constraint::Linear(_) = constraint {
                for step in earlier {
                    self.steps[step].partial.push(c);
                }
            }
        }
    }

    /// The key sets of the all-different constraints checked step by step.
    fn key_sets(&self, model: &Model<'_>) -> Vec<(KeySet, Vec<VarId>, TermKeys)> {
        let universes = model.universes();
        self.distinct
            .iter()
            .filter_map(|&c| match &model.constraints()[c] {
                Constraint::AllDifferent(def) => {
                    let keys =
                        def.vars.iter().enumerate().flat_map(|(p, v)| {
                            (0..universes[v.index()]).map(move |i| def.key(p, i))
                        });
                    Some((KeySet::for_keys(keys), def.vars.clone(), def.keys.clone()))
                }
                _ => None,
            })
            .collect()
    }
}

/// A phase's variables in the order it takes them when nothing else decides: a given
/// order's (first-fail's ties) first.
fn ranked(phase: &Phase) -> Vec<VarId> {
    let named = phase.order.named();
    let mut vars: Vec<VarId> = phase.vars.to_vec();
    vars.sort_by_key(|v| named.iter().position(|n| n == v).unwrap_or(usize::MAX));
    vars
}

/// Each variable's value order: that of the first phase listing it, else the strategy's.
fn phase_values(options: &Options, n: usize) -> Vec<&ValueOrder> {
    let strategy = &options.strategy;
    let mut orders: Vec<Option<&ValueOrder>> = vec![None; n];
    for phase in &strategy.phases {
        for v in phase.vars.iter() {
            if let Some(slot @ None) = orders.get_mut(v.index()) {
                *slot = Some(&phase.values);
            }
        }
    }
    orders
        .into_iter()
        .map(|o| o.unwrap_or(&strategy.values))
        .collect()
}

/// The value indices of variable `v` in its value order (`orders[v]`): those its
/// restriction keeps, or all of them when generating and testing.
fn value_list(model: &Model<'_>, orders: &[&ValueOrder], v: usize, at_end: bool) -> Vec<u32> {
    let universe = model.universes()[v];
    let mut indices: Vec<u32> = match model.initial_domain(v) {
        Some(domain) if !at_end => domain.iter().collect(),
        _ => (0..universe).collect(),
    };
    order_values(orders[v], VarId::at(v as u32), universe, &mut indices, 0);
    indices
}

/// A model run as an `amb` program, with what it keeps from run to run.
struct ModelProgram<'a> {
    model: Arc<Model<'a>>,
    plan: Plan,
    /// The all-different constraints' keys chosen in the current run.
    sets: Vec<(KeySet, Vec<VarId>, TermKeys)>,
    symmetry: Option<Tables>,
    incumbent: Option<Arc<Incumbent>>,
    /// The value index chosen for each variable.
    assigned: Vec<u32>,
    /// Checked early, each choice is made among the values its checks allow, given the
    /// choices before it: the list of a step depends only on the prefix, so the program
    /// stays deterministic, and it is kept from run to run until a choice before it
    /// changes (`valid` steps have their list for the current prefix).
    lists: Vec<Vec<u32>>,
    chosen_at: Vec<usize>,
    valid: usize,
}

impl ModelProgram<'_> {
    /// One run: every variable chosen in turn among the values its checks allow.
    fn run(&mut self, amb: &mut Amb<'_>) -> Result<Assignment, Fail> {
        for (set, _, _) in &mut self.sets {
            set.clear();
        }
        let constraints = self.model.constraints();
        for &c in &self.plan.steps[0].full {
            amb.require(constraints[c].check(&self.assigned))?;
        }
        for step in 0..self.plan.order.len() {
            let v = self.plan.order[step];
            let var = VarId::at(v as u32);
            let universe = self.model.universes()[v];
            if self.plan.at_end {
                let ordered = &self.plan.ordered[v];
                let k = amb.choose_value(var, universe, ordered)?;
                self.assigned[v] = ordered[k];
                continue;
            }
            if step >= self.valid {
                self.list_candidates(step, v);
            }
            let k = amb.choose_value(var, universe, &self.lists[step])?;
            if step >= self.valid || self.chosen_at[step] != k {
                self.valid = step + 1;
            }
            self.chosen_at[step] = k;
            self.assigned[v] = self.lists[step][k];
            for &(s, position) in &self.plan.steps[step + 1].distinct {
                let (set, vars, keys) = &mut self.sets[s];
                set.insert(keys.key(position, self.assigned[vars[position].index()]));
            }
            if let (Some(incumbent), Some(objective), true) = (
                &self.incumbent,
                self.model.objective_def(),
                self.plan.bound_after[step],
            ) {
                let step_of = &self.plan.step_of;
                let chosen = |w: VarId| step_of[w.index()] <= step;
                if !incumbent.admits(objective.least_cost(&self.assigned, chosen)) {
                    return Err(amb.prune());
                }
            }
        }
        self.finish(amb)
    }

    /// Lists the values of `v`, chosen at `step`, that its checks allow given the choices
    /// before it.
    fn list_candidates(&mut self, step: usize, v: usize) {
        let ModelProgram {
            model,
            plan,
            sets,
            symmetry,
            assigned,
            lists,
            ..
        } = self;
        let constraints = model.constraints();
        let checks = &plan.steps[step + 1];
        let step_of = &plan.step_of;
        let chosen = |w: VarId| step_of[w.index()] <= step;
        let list = &mut lists[step];
        list.clear();
        // Linear checks bound the indices worth trying: with images in order, x - y == 0
        // leaves y one index to try, not all of them.
        let range = bounds(constraints, checks, VarId::at(v as u32), assigned, chosen);
        for &value in candidates(&plan.ordered[v], plan.sorted[v], &range) {
            if !range.contains(&value) {
                continue;
            }
            assigned[v] = value;
            // Inserted and taken out again: a variable may stand twice in one
            // all-different (its two keys then clash).
            let mut inserted = 0;
            let distinct = checks.distinct.iter().all(|&(s, position)| {
                let (set, vars, keys) = &mut sets[s];
                let fresh = set.insert(keys.key(position, assigned[vars[position].index()]));
                inserted += usize::from(fresh);
                fresh
            });
            for &(s, position) in &checks.distinct[..inserted] {
                let (set, vars, keys) = &mut sets[s];
                set.remove(keys.key(position, assigned[vars[position].index()]));
            }
            let fits = distinct
                && checks
                    .partial
                    .iter()
                    .all(|&c| constraints[c].may_hold(assigned, chosen))
                && checks.full.iter().all(|&c| constraints[c].check(assigned))
                && symmetry.as_mut().is_none_or(|tables| {
                    tables.may_lead(|w| (step_of[w] <= step).then(|| assigned[w]))
                });
            if fits {
                list.push(value);
            }
        }
    }

    /// The end of a run: generating and testing, every check; optimising, the bound
    /// again; then the solution.
    fn finish(&mut self, amb: &mut Amb<'_>) -> Result<Assignment, Fail> {
        let model = &self.model;
        if self.plan.at_end {
            amb.require(model.satisfied(&self.assigned))?;
            if let Some(tables) = self.symmetry.as_mut() {
                let assigned = &self.assigned;
                amb.require(tables.may_lead(|w| Some(assigned[w])))?;
            }
        }
        if let (Some(incumbent), Some(objective)) = (&self.incumbent, model.objective_def()) {
            // The best cost may have dropped below this one since the checks above (or
            // not been checked at all, generating and testing).
            if !incumbent.improve(objective.cost(&self.assigned)) {
                return Err(amb.prune());
            }
        }
        Ok(Assignment::new(
            Arc::clone(model.identity()),
            self.assigned.clone(),
        ))
    }
}

/// The value indices of `var` that the linear constraints checked at its step allow at
/// most, given the values of the variables `chosen` before it (the others may take any
/// of theirs): the intersection of their [`index_range`](crate::model::LinearDef::index_range)s,
/// or every index.
fn bounds(
    constraints: &[Constraint<'_>],
    checks: &StepChecks,
    var: VarId,
    assigned: &[u32],
    chosen: impl Fn(VarId) -> bool + Copy,
) -> std::ops::Range<u32> {
    let mut range = 0..u32::MAX;
    for &c in checks.partial.iter().chain(&checks.full) {
        if let Constraint::Linear(def) = &constraints[c] {
            if let Some(r) = def.index_range(var, assigned, chosen) {
                range = range.start.max(r.start)..range.end.min(r.end);
            }
        }
    }
    range
}

/// Whether `list` is in ascending (`Some(true)`) or descending (`Some(false)`) order.
fn direction(list: &[u32]) -> Option<bool> {
    if list.is_sorted() {
        Some(true)
    } else if list.is_sorted_by(|a, b| a >= b) {
        Some(false)
    } else {
        None
    }
}

/// The values of `list` (in the value order) worth trying when only those in `range`
/// can be chosen: when the list is sorted (`Some(true)` ascending, `Some(false)`
/// descending), the slice of it in the range, found by binary search; else all of it.
fn candidates<'l>(
    list: &'l [u32],
    sorted: Option<bool>,
    range: &std::ops::Range<u32>,
) -> &'l [u32] {
    let (start, end) = match sorted {
        Some(true) => (
            list.partition_point(|&i| i < range.start),
            list.partition_point(|&i| i < range.end),
        ),
        Some(false) => (
            list.partition_point(|&i| i >= range.end),
            list.partition_point(|&i| i >= range.start),
        ),
        None => (0, list.len()),
    };
    &list[start..end.max(start)]
}
