//! The trail engine's propagators, built from a model's constraints, and the fixpoint loop
//! that runs them. Engine-private: users write their own through
//! [`Propagator`](crate::Propagator).

mod all_different;
mod arith;
#[cfg(any(test, feature = "debug-checks"))]
pub(crate) mod checker;
mod counting;
mod custom;
mod differences;
mod global;
mod kernel;
mod linear;
mod logic;
mod lookup;
mod order;
mod predicate;
mod scheduling;
mod sequences;
mod table;
mod tours;
mod view;

use std::collections::VecDeque;

use crate::choice::Fail;
use crate::model::{AllDifferentDef, Constraint, Global, Model, ObjectiveDef};
use crate::store::{CHANGED, FIXED, Store};
use crate::var::VarId;

use self::all_different::AllDifferent;
use self::custom::Custom;
use self::differences::Differences;
use self::kernel::Kernel;
use self::linear::Linear;
use self::predicate::Predicate;
use self::table::Table;

/// What `dom_w_deg` learns: per propagator, its weight (1, and 1 per failure) and its
/// variables (each once); per variable, the weights of all its propagators.
struct Learned {
    weights: Vec<u32>,
    scopes: Vec<Vec<u32>>,
    ceilings: Vec<u32>,
    /// The propagators whose weight grew since the last
    /// [`append_reweighed`](Propagation::append_reweighed), when someone keeps ranks by the
    /// ceilings (`None` otherwise).
    blamed: Option<Vec<u32>>,
}

/// No trailed cell: the propagator never finishes.
const NEVER: usize = usize::MAX;

/// One of the engine's propagators.
enum Prop<'a> {
    // The large kinds are boxed: a model of a million small sums keeps a million `Prop`s.
    AllDifferent(Box<AllDifferent>),
    Linear(Linear),
    Table(Box<Table>),
    Predicate(Predicate<'a>),
    Custom(Custom<'a>),
    Differences(Box<Differences>),
    /// A constraint kind of `model/global/`, with its definition (for the checker of
    /// the `debug-checks` feature).
    Kernel(
        Box<dyn Kernel>,
        #[cfg_attr(not(feature = "debug-checks"), expect(dead_code))] Global,
    ),
}

impl Prop<'_> {
    fn scope(&self) -> &[VarId] {
        match self {
            Prop::AllDifferent(p) => p.vars(),
            Prop::Linear(p) => p.scope(),
            Prop::Table(p) => p.vars(),
            Prop::Predicate(p) => p.vars(),
            Prop::Custom(p) => p.vars(),
            Prop::Differences(p) => p.vars(),
            Prop::Kernel(p, _) => p.scope(),
        }
    }

    /// Whether its own changes need not wake it (see [`Kernel::idempotent`]): linear
    /// sums run to their own fixpoint.
    fn idempotent(&self) -> bool {
        match self {
            Prop::Kernel(kernel, _) => kernel.idempotent(),
            Prop::Linear(_) => true,
            _ => false,
        }
    }

    /// Whether it may finish (see [`Kernel::finishes`]).
    fn finishes(&self) -> bool {
        match self {
            Prop::Kernel(kernel, _) => kernel.finishes(),
            Prop::Linear(_) => true,
            _ => false,
        }
    }

    /// Whether its last run left its constraint sure to hold (see [`Kernel::finished`]).
    fn finished(&self) -> bool {
        match self {
            Prop::Kernel(kernel, _) => kernel.finished(),
            Prop::Linear(linear) => linear.entailed(),
            _ => false,
        }
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        match self {
            Prop::AllDifferent(p) => p.propagate(store),
            Prop::Linear(p) => p.propagate(store),
            Prop::Table(p) => p.propagate(store),
            Prop::Predicate(p) => p.propagate(store),
            Prop::Custom(p) => p.propagate(store),
            Prop::Differences(p) => p.propagate(store),
            Prop::Kernel(p, _) => p.propagate(store),
        }
    }
}

/// Who to wake when a variable changes.
#[derive(Clone, Copy, Debug)]
struct Watch {
    prop: u32,
    /// The variable's position in the propagator's scope.
    local: u32,
    /// Which events wake it.
    on: u8,
    /// Handled on the spot (all-different on a fixed variable) instead of scheduled.
    immediate: bool,
    /// Whether the propagator may finish (has a cell in `finish`): the others are woken
    /// without reading one.
    may_finish: bool,
}

/// The propagators of a model and the fixpoint loop that runs them.
pub(crate) struct Propagation<'a> {
    props: Vec<Prop<'a>>,
    /// `watches[watch_start[v]..watch_start[v + 1]]` are the watches of variable `v`.
    watch_start: Vec<u32>,
    watches: Vec<Watch>,
    /// The propagators scheduled: the cheap ones, run first, and the expensive ones (see
    /// [`Kernel::expensive`]), run when no cheap one is waiting.
    queue: VecDeque<u32>,
    deferred: VecDeque<u32>,
    queued: Vec<bool>,
    expensive: Vec<bool>,
    /// Per propagator, whether its own changes need not wake it (see
    /// [`Kernel::idempotent`]).
    idempotent: Vec<bool>,
    /// Scratch: the events of an idempotent propagator's run.
    own: Vec<(usize, u8)>,
    /// Per propagator that may finish (see [`Kernel::finished`]), its trailed cell: 1
    /// once finished, below the point where it did; [`NEVER`] for the others.
    finish: Vec<usize>,
    /// Branch and bound: the propagator keeping the cost below the best one found.
    bound: Option<u32>,
    /// Weights (`dom_w_deg`), if learned (see [`Learned`]).
    degrees: Option<Learned>,
    pub(crate) runs: u64,
}

impl<'a> Propagation<'a> {
    /// Builds the propagators of `model` (as [`rewrite`] turns its constraints into
    /// propagators), allocating their trailed counters in `store`, and the watches that
    /// wake them. With an `objective`, a linear propagator keeps its cost below a bound
    /// that [`tighten`](Propagation::tighten) lowers (none at first).
    pub(crate) fn new(
        model: &Model<'a>,
        objective: Option<&ObjectiveDef>,
        store: &mut Store,
    ) -> Self {
        let mut props = rewrite(model, store);
        let bound = objective.map(|def| {
            props.push(Prop::Linear(Linear::unbounded(&def.cost)));
            props.len() as u32 - 1
        });
        // How many propagators mention each variable: an all-different that is alone on
        // its variables sees every change to them (its own, or a decision's FIXED), so it
        // needs no CHANGED events and schedules its counting pass itself.
        let mentions = mentions(&props, store.num_vars());
        for prop in &mut props {
            if let Prop::AllDifferent(p) = prop {
                let alone = p.vars().iter().all(|v| mentions[v.index()] == 1);
                p.set_alone(alone);
            }
        }
        let (watch_start, mut watches) = watches(&props, &mentions, store);
        let queued = vec![false; props.len()];
        let expensive = props
            .iter()
            .map(|p| matches!(p, Prop::Kernel(kernel, _) if kernel.expensive()))
            .collect();
        let idempotent = props.iter().map(Prop::idempotent).collect();
        // The objective's bound changes everywhere in the tree: it never finishes.
        let finish = props
            .iter()
            .enumerate()
            .map(|(p, prop)| {
                if prop.finishes() && bound != Some(p as u32) {
                    store.alloc_aux(0)
                } else {
                    NEVER
                }
            })
            .collect::<Vec<usize>>();
        for watch in &mut watches {
            watch.may_finish = finish[watch.prop as usize] != NEVER;
        }
        Propagation {
            props,
            finish,
            watch_start,
            watches,
            queue: VecDeque::new(),
            deferred: VecDeque::new(),
            queued,
            expensive,
            idempotent,
            own: Vec::new(),
            bound,
            degrees: None,
            runs: 0,
        }
    }

    /// Learns weights from now on (for `dom_w_deg`): each propagator starts at 1 and
    /// gains 1 each time it fails.
    pub(crate) fn learn_weights(&mut self) {
        let scopes: Vec<Vec<u32>> = self
            .props
            .iter()
            .map(|p| {
                let mut vars: Vec<u32> = p.scope().iter().map(|v| v.index() as u32).collect();
                vars.sort_unstable();
                vars.dedup();
                vars
            })
            .collect();
        let mut ceilings = vec![0u32; self.watch_start.len() - 1];
        for &var in scopes.iter().flatten() {
            ceilings[var as usize] += 1;
        }
        self.degrees = Some(Learned {
            weights: vec![1; self.props.len()],
            scopes,
            ceilings,
            blamed: None,
        });
    }

    /// From now on, lists the propagators whose weight grows, for
    /// [`append_reweighed`](Propagation::append_reweighed) (when weights are learned).
    pub(crate) fn track_reweighed(&mut self) {
        if let Some(learned) = &mut self.degrees {
            learned.blamed = Some(Vec::new());
        }
    }

    /// Appends to `out` the variables whose
    /// [`weight_ceiling`](Propagation::weight_ceiling) grew since the last call (a
    /// variable may come more than once); nothing unless tracked.
    pub(crate) fn append_reweighed(&mut self, out: &mut Vec<u32>) {
        if let Some(Learned {
            scopes,
            blamed: Some(blamed),
            ..
        }) = &mut self.degrees
        {
            for prop in blamed.drain(..) {
                out.extend_from_slice(&scopes[prop as usize]);
            }
        }
    }

    /// At least [`weighted_degree`](Propagation::weighted_degree) of `var`: the weights of
    /// all the propagators on it, finished or not (kept as they change, read at once).
    pub(crate) fn weight_ceiling(&self, var: usize) -> u32 {
        self.degrees
            .as_ref()
            .map_or(1, |learned| learned.ceilings[var].max(1))
    }

    /// The weighted degree of `var` (at least 1), or 1 when weights are not learned: the
    /// weights of the propagators on it that have not finished (a constraint sure to
    /// hold no longer says how hard the variable is).
    pub(crate) fn weighted_degree(&self, var: usize, store: &Store) -> u32 {
        let Some(learned) = &self.degrees else {
            return 1;
        };
        let (mut sum, mut last) = (0u32, usize::MAX);
        // A propagator's watches of one variable are side by side: counted once.
        for w in self.watch_start[var] as usize..self.watch_start[var + 1] as usize {
            let prop = self.watches[w].prop as usize;
            if prop == last {
                continue;
            }
            last = prop;
            if !self.is_finished(store, prop) {
                sum = sum.saturating_add(learned.weights[prop]);
            }
        }
        sum.max(1)
    }

    /// Whether propagator `prop` has finished, below where the search stands.
    #[inline]
    fn is_finished(&self, store: &Store, prop: usize) -> bool {
        let cell = self.finish[prop];
        cell != NEVER && store.aux(cell) != 0
    }

    /// Propagator `prop` failed: when learning weights, its weight gains 1.
    #[cold]
    fn blame(&mut self, prop: u32) {
        if let Some(learned) = &mut self.degrees {
            let p = prop as usize;
            learned.weights[p] = learned.weights[p].saturating_add(1);
            for &var in &learned.scopes[p] {
                let ceiling = &mut learned.ceilings[var as usize];
                *ceiling = ceiling.saturating_add(1);
            }
            if let Some(blamed) = &mut learned.blamed {
                blamed.push(prop);
            }
        }
    }

    /// Branch and bound: from now on the cost must be at most `most`. The bound holds
    /// everywhere in the tree, so it is not trailed; its propagator runs at the next
    /// propagation.
    pub(crate) fn tighten(&mut self, most: i128) {
        if let Some(p) = self.bound {
            if let Prop::Linear(linear) = &mut self.props[p as usize] {
                linear.set_at_most(most);
            }
            self.schedule(p);
        }
    }

    /// Runs every propagator once from scratch, then to a fixpoint (at the root).
    pub(crate) fn initial(&mut self, store: &mut Store) -> Result<(), Fail> {
        for p in 0..self.props.len() {
            let result = match &mut self.props[p] {
                Prop::AllDifferent(all_different) => all_different.initial(store),
                other => other.propagate(store),
            };
            if result.is_err() {
                store.clear_events();
                return result;
            }
        }
        self.run(store)
    }

    fn schedule(&mut self, prop: u32) {
        if !self.queued[prop as usize] {
            self.queued[prop as usize] = true;
            if self.expensive[prop as usize] {
                self.deferred.push_back(prop);
            } else {
                self.queue.push_back(prop);
            }
        }
    }

    /// Runs propagators until no domain changes. On failure the queues are emptied; the
    /// caller undoes the store.
    pub(crate) fn run(&mut self, store: &mut Store) -> Result<(), Fail> {
        let result = self.fixpoint(store);
        if result.is_err() {
            store.clear_events();
            for prop in self.queue.drain(..).chain(self.deferred.drain(..)) {
                self.queued[prop as usize] = false;
            }
        }
        result
    }

    /// Wakes the watchers of `var` for `events`, but `skip`: schedules them, or handles
    /// them on the spot (an all-different's fixed variable).
    fn wake(
        &mut self,
        store: &mut Store,
        var: usize,
        events: u8,
        skip: Option<u32>,
    ) -> Result<(), Fail> {
        let (start, end) = (
            self.watch_start[var] as usize,
            self.watch_start[var + 1] as usize,
        );
        for w in start..end {
            let watch = self.watches[w];
            if watch.on & events == 0 || skip == Some(watch.prop) {
                continue;
            }
            if watch.may_finish && self.is_finished(store, watch.prop as usize) {
                continue;
            }
            if watch.immediate {
                self.runs += 1;
                if let Prop::AllDifferent(p) = &mut self.props[watch.prop as usize] {
                    match p.on_fixed(store, watch.local as usize) {
                        Ok(true) => self.schedule(watch.prop),
                        Ok(false) => {}
                        Err(fail) => {
                            self.blame(watch.prop);
                            return Err(fail);
                        }
                    }
                }
            } else {
                self.schedule(watch.prop);
            }
        }
        Ok(())
    }

    /// Wakes the watchers of the events an idempotent propagator's run queued, but not
    /// the propagator itself. The events are taken out first: a change made while they
    /// are handled (by an all-different on the spot) is a change of another, and wakes it.
    fn wake_but(&mut self, store: &mut Store, prop: u32) -> Result<(), Fail> {
        let mut own = std::mem::take(&mut self.own);
        store.take_events(&mut own);
        let result = own
            .iter()
            .try_for_each(|&(var, events)| self.wake(store, var, events, Some(prop)));
        self.own = own;
        result
    }

    fn fixpoint(&mut self, store: &mut Store) -> Result<(), Fail> {
        loop {
            while let Some((var, events)) = store.pop_event() {
                self.wake(store, var, events, None)?;
            }
            let Some(prop) = self.queue.pop_front().or_else(|| self.deferred.pop_front()) else {
                return Ok(());
            };
            self.queued[prop as usize] = false;
            self.runs += 1;
            #[cfg(feature = "debug-checks")]
            let result = if let Prop::Kernel(_, global) = &self.props[prop as usize] {
                let (global, before) = (global.clone(), store.clone());
                let result = self.props[prop as usize].propagate(store);
                let after = result.map(|()| &*store);
                if let Err(message) = checker::sound(global.meaning(), &before, after) {
                    panic!("debug-checks: {message}");
                }
                result
            } else {
                self.props[prop as usize].propagate(store)
            };
            #[cfg(not(feature = "debug-checks"))]
            let result = self.props[prop as usize].propagate(store);
            if let Err(fail) = result {
                self.blame(prop);
                return Err(fail);
            }
            let cell = self.finish[prop as usize];
            if cell != NEVER && self.props[prop as usize].finished() {
                store.set_aux(cell, 1);
            }
            if self.idempotent[prop as usize] {
                self.wake_but(store, prop)?;
            }
        }
    }
}

/// How many propagators mention each variable (a variable twice in a scope counts twice).
fn mentions(props: &[Prop<'_>], num_vars: usize) -> Vec<u32> {
    let mut mentions = vec![0u32; num_vars];
    for prop in props {
        for var in prop.scope() {
            let count = &mut mentions[var.index()];
            *count = count.saturating_add(1);
        }
    }
    mentions
}

/// The model rewritten for propagation: one propagator per constraint, except that
/// all-different constraints over the same variables are fused into one, and every
/// all-different over the differences of an ordered chain (a Golomb ruler's) gains a
/// [`Differences`] propagator (detected in the model).
fn rewrite<'a>(model: &Model<'a>, store: &mut Store) -> Vec<Prop<'a>> {
    let mut props: Vec<Prop<'a>> = Vec::with_capacity(model.constraints().len());
    let mut fused: Vec<(Vec<VarId>, Vec<&AllDifferentDef>)> = Vec::new();
    for constraint in model.constraints() {
        match constraint {
            Constraint::AllDifferent(def) => {
                match fused.iter_mut().find(|(vars, _)| *vars == def.vars) {
                    Some((_, defs)) => defs.push(def),
                    None => fused.push((def.vars.clone(), vec![def])),
                }
            }
            Constraint::Linear(def) => props.push(Prop::Linear(Linear::new(def))),
            Constraint::Table(def) => props.push(Prop::Table(Box::new(Table::new(def, store)))),
            Constraint::Predicate(def) => props.push(Prop::Predicate(Predicate::new(def))),
            Constraint::Custom(def) => props.push(Prop::Custom(Custom::new(def))),
            Constraint::Global(def) => {
                props.push(Prop::Kernel(global::build(def, store), def.clone()))
            }
        }
    }
    for (_, defs) in fused {
        props.push(Prop::AllDifferent(Box::new(AllDifferent::new(
            &defs, store,
        ))));
    }
    props.extend(
        differences::detect(model)
            .into_iter()
            .map(|p| Prop::Differences(Box::new(p))),
    );
    props
}

/// What wakes `prop`: `emit(variable, its position in the scope, events, immediate)` for
/// each watch (an all-different is handled on the spot when a variable is fixed, and
/// woken on other changes only if it shares a variable, per `mentions`, and can find
/// hidden singles).
fn emit_watches(prop: &Prop<'_>, mentions: &[u32], emit: &mut dyn FnMut(VarId, usize, u8, bool)) {
    let mut each = |vars: &[VarId], on: &dyn Fn(usize) -> u8| {
        for (local, &var) in vars.iter().enumerate() {
            emit(var, local, on(local), false);
        }
    };
    match prop {
        Prop::AllDifferent(p) => {
            let shared = p.vars().iter().any(|v| mentions[v.index()] > 1);
            for (local, &var) in p.vars().iter().enumerate() {
                emit(var, local, FIXED, true);
                if p.has_hidden_singles() && shared {
                    emit(var, local, CHANGED, false);
                }
            }
        }
        Prop::Linear(p) => {
            let on = p.wakes_on();
            each(p.scope(), &|_| on);
        }
        Prop::Table(p) => each(p.vars(), &|_| CHANGED),
        Prop::Predicate(p) => each(p.vars(), &|_| FIXED),
        Prop::Custom(p) => each(p.vars(), &|_| CHANGED),
        Prop::Differences(p) => each(p.vars(), &|_| FIXED),
        Prop::Kernel(p, _) => each(p.scope(), &|l| p.wakes(l)),
    }
}

/// The watches of every variable in one array (two passes: count, then fill), and where
/// each variable's begin; the events each variable's watches listen to are set in `store`.
fn watches(props: &[Prop<'_>], mentions: &[u32], store: &mut Store) -> (Vec<u32>, Vec<Watch>) {
    let n = store.num_vars();
    let mut watch_start = vec![0u32; n + 1];
    let mut interest = vec![0u8; n];
    for prop in props {
        emit_watches(prop, mentions, &mut |var, _, on, _| {
            watch_start[var.index() + 1] += 1;
            interest[var.index()] |= on;
        });
    }
    for v in 0..n {
        watch_start[v + 1] += watch_start[v];
        store.set_interest(v, interest[v]);
    }
    let mut filled = watch_start.clone();
    let placeholder = Watch {
        prop: 0,
        local: 0,
        on: 0,
        immediate: false,
        may_finish: false,
    };
    let mut watches = vec![placeholder; watch_start[n] as usize];
    for (p, prop) in props.iter().enumerate() {
        emit_watches(prop, mentions, &mut |var, local, on, immediate| {
            let slot = &mut filled[var.index()];
            watches[*slot as usize] = Watch {
                prop: p as u32,
                local: local as u32,
                on,
                immediate,
                may_finish: false,
            };
            *slot += 1;
        });
    }
    (watch_start, watches)
}

#[cfg(test)]
mod tests {
    use super::Propagation;
    use crate::model::{Cmp, Model};
    use crate::store::Store;

    #[test]
    fn a_failing_propagator_weighs_its_variables() {
        // a + b <= 1, a + b + c <= 3 and b + c >= 0 (always true, so finished at the
        // root, and left out): a failure of the first weighs a and b.
        let mut m = Model::new();
        let (a, b, c) = (m.var(0..3), m.var(0..3), m.var(0..3));
        m.linear([(1, &a), (1, &b)], Cmp::Le, 1);
        m.linear([(1, &a), (1, &b), (1, &c)], Cmp::Le, 3);
        m.linear([(1, &b), (1, &c)], Cmp::Ge, 0);
        let mut store = Store::with_domains(m.universes(), |v| m.initial_domain(v));
        let mut propagation = Propagation::new(&m, None, &mut store);
        propagation.initial(&mut store).unwrap();
        assert_eq!(
            propagation.weighted_degree(0, &store),
            1,
            "not learning: all 1"
        );
        propagation.learn_weights();
        // The ceiling the variable order reads first is never below the degree.
        let degrees = |p: &Propagation<'_>, store: &Store| {
            (0..3)
                .map(|v| {
                    assert!(p.weight_ceiling(v) >= p.weighted_degree(v, store));
                    p.weighted_degree(v, store)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(degrees(&propagation, &store), [2, 2, 1]);
        let mark = store.mark();
        store.set_level(1);
        store.assign(0, 1).unwrap();
        store.assign(1, 1).unwrap();
        assert!(propagation.run(&mut store).is_err());
        store.undo_to(mark);
        assert_eq!(degrees(&propagation, &store), [3, 3, 1]);
        store.assign(0, 0).unwrap();
        assert!(propagation.run(&mut store).is_ok());
        // a = 0 makes both sums sure to hold (b <= 1, c <= 2): they are left out, and
        // a variable with no weight left counts 1.
        assert_eq!(degrees(&propagation, &store), [1, 1, 1]);
    }
}
