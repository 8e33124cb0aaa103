//! Propagators: the public trait for custom ones, the context they see, and the trail
//! engine's own propagators built from a model's constraints, run to a fixpoint.

mod all_different;
mod custom;
mod linear;
mod predicate;
mod table;

use std::collections::VecDeque;

use crate::domain::Domain;
use crate::model::{Constraint, Model, VarId};
use crate::replay::Fail;
use crate::store::{CHANGED, FIXED, Store};

use self::all_different::AllDifferent;
use self::custom::Custom;
use self::linear::Linear;
use self::predicate::Predicate;
use self::table::Table;

/// A constraint that prunes domains: implement it to add your own constraint.
///
/// Its only required method, [`propagate`](Propagator::propagate), looks at the domains of
/// the variables it was registered with and removes values that cannot be part of a
/// solution. It must be *correct*, never *complete*: removing nothing is allowed, except
/// that **when every variable of its scope is fixed it must fail exactly when the
/// constraint is violated**. That one rule is what makes a propagator a constraint (and is
/// how the replay engine and [`Model::check`](crate::Model::check) test it).
///
/// The engine calls it after any domain of its scope changes, until nothing changes.
/// It has no state of its own between calls: recompute from the domains.
///
/// ```
/// use ambsolve::{Context, Engine, Fail, Model, Propagator, VarId};
///
/// /// x < y, on value indices (both variables range over the same sorted list).
/// struct Less(VarId, VarId);
///
/// impl Propagator for Less {
///     fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
///         let (Some(x_min), Some(y_max)) = (cx.min(self.0), cx.max(self.1)) else {
///             return Err(Fail);
///         };
///         cx.retain(self.0, |x| x < y_max)?;
///         cx.retain(self.1, |y| y > x_min)?;
///         Ok(())
///     }
/// }
///
/// let mut m = Model::new();
/// let x = m.var(0..4);
/// let y = m.var(0..4);
/// m.propagator(&[x.id(), y.id()], Less(x.id(), y.id()));
/// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
/// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 6);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
pub trait Propagator: Send + Sync {
    /// Removes values that cannot be part of a solution, or fails.
    ///
    /// # Errors
    /// [`Fail`] when no solution is left (a domain would empty, or the fixed values
    /// violate the constraint).
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail>;
}

/// What a [`Propagator`] sees: the domains (value indices) of the model's variables.
///
/// # Panics
/// Every method taking a [`VarId`] panics if it is not a variable of the model being
/// solved.
pub struct Context<'s> {
    store: &'s mut Store,
    scope: &'s [VarId],
}

impl<'s> Context<'s> {
    pub(crate) fn new(store: &'s mut Store, scope: &'s [VarId]) -> Self {
        Context { store, scope }
    }

    /// The variables the propagator was registered with.
    pub fn scope(&self) -> &[VarId] {
        self.scope
    }

    /// The number of values left for `var`.
    pub fn size(&self, var: VarId) -> usize {
        self.store.size(var.index()) as usize
    }

    /// The value index of `var` if it has exactly one value left.
    pub fn fixed(&self, var: VarId) -> Option<u32> {
        if self.store.is_fixed(var.index()) {
            self.store.min(var.index())
        } else {
            None
        }
    }

    /// Whether value index `index` is still possible for `var`.
    pub fn contains(&self, var: VarId, index: u32) -> bool {
        self.store.contains(var.index(), index)
    }

    /// The smallest value index left for `var`.
    pub fn min(&self, var: VarId) -> Option<u32> {
        self.store.min(var.index())
    }

    /// The largest value index left for `var`.
    pub fn max(&self, var: VarId) -> Option<u32> {
        self.store.max(var.index())
    }

    /// A copy of the domain of `var`.
    pub fn domain(&self, var: VarId) -> Domain {
        self.store.domain(var.index())
    }

    /// Removes value index `index` from `var`. Returns whether it was there.
    ///
    /// # Errors
    /// [`Fail`] if the domain becomes empty.
    pub fn remove(&mut self, var: VarId, index: u32) -> Result<bool, Fail> {
        self.store.remove(var.index(), index)
    }

    /// Keeps only the value indices of `var` for which `keep` holds. Returns whether
    /// anything was removed.
    ///
    /// # Errors
    /// [`Fail`] if the domain becomes empty.
    pub fn retain(&mut self, var: VarId, keep: impl FnMut(u32) -> bool) -> Result<bool, Fail> {
        self.store.retain(var.index(), keep)
    }

    /// Fixes `var` to value index `index`.
    ///
    /// # Errors
    /// [`Fail`] if `index` is not in the domain.
    pub fn fix(&mut self, var: VarId, index: u32) -> Result<(), Fail> {
        self.store.assign(var.index(), index)
    }
}

/// One of the engine's propagators.
enum Prop<'m> {
    AllDifferent(AllDifferent),
    Linear(Linear),
    Table(Table),
    Predicate(Predicate<'m>),
    Custom(Custom<'m>),
}

impl Prop<'_> {
    fn scope(&self) -> &[VarId] {
        match self {
            Prop::AllDifferent(p) => p.vars(),
            Prop::Linear(p) => p.scope(),
            Prop::Table(p) => p.vars(),
            Prop::Predicate(p) => p.vars(),
            Prop::Custom(p) => p.vars(),
        }
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        match self {
            Prop::AllDifferent(p) => p.propagate(store),
            Prop::Linear(p) => p.propagate(store),
            Prop::Table(p) => p.propagate(store),
            Prop::Predicate(p) => p.propagate(store),
            Prop::Custom(p) => p.propagate(store),
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
}

/// The propagators of a model and the fixpoint loop that runs them.
pub(crate) struct Propagation<'m> {
    props: Vec<Prop<'m>>,
    /// `watches[watch_start[v]..watch_start[v + 1]]` are the watches of variable `v`.
    watch_start: Vec<u32>,
    watches: Vec<Watch>,
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    pub(crate) runs: u64,
}

impl<'m> Propagation<'m> {
    /// Builds the propagators of `model`, allocating their trailed counters in `store`.
    /// All-different constraints over the same variables are fused into one propagator.
    pub(crate) fn new(model: &'m Model<'_>, store: &mut Store) -> Self {
        let mut props: Vec<Prop<'m>> = Vec::new();
        let mut fused: Vec<(Vec<VarId>, Vec<&'m crate::model::AllDifferentDef>)> = Vec::new();
        for constraint in model.constraints() {
            match constraint {
                Constraint::AllDifferent(def) => {
                    match fused.iter_mut().find(|(vars, _)| *vars == def.vars) {
                        Some((_, defs)) => defs.push(def),
                        None => fused.push((def.vars.clone(), vec![def])),
                    }
                }
                Constraint::Linear(def) => props.push(Prop::Linear(Linear::new(def))),
                Constraint::Table(def) => props.push(Prop::Table(Table::new(def, store))),
                Constraint::Predicate(def) => props.push(Prop::Predicate(Predicate::new(def))),
                Constraint::Custom(def) => props.push(Prop::Custom(Custom::new(def))),
            }
        }
        for (_, defs) in fused {
            props.push(Prop::AllDifferent(AllDifferent::new(&defs, store)));
        }

        // How many propagators mention each variable: an all-different that is alone on
        // its variables sees every change to them (its own, or a decision's FIXED), so it
        // needs no CHANGED events and schedules its counting pass itself.
        let mut mentions = vec![0u32; store.num_vars()];
        for prop in &props {
            for var in prop.scope() {
                mentions[var.index()] += 1;
            }
        }
        for prop in &mut props {
            if let Prop::AllDifferent(p) = prop {
                let alone = p.vars().iter().all(|v| mentions[v.index()] == 1);
                p.set_alone(alone);
            }
        }
        // Watches of every variable in one array (two passes: count, then fill).
        let mut watch_start = vec![0u32; store.num_vars() + 1];
        let mut interest = vec![0u8; store.num_vars()];
        let watches_of = |prop: &Prop<'_>, emit: &mut dyn FnMut(VarId, usize, u8, bool)| match prop
        {
            Prop::AllDifferent(p) => {
                let shared = p.vars().iter().any(|v| mentions[v.index()] > 1);
                for (local, &var) in p.vars().iter().enumerate() {
                    emit(var, local, FIXED, true);
                    if p.has_hidden_singles() && shared {
                        emit(var, local, CHANGED, false);
                    }
                }
            }
            Prop::Linear(p) => p
                .scope()
                .iter()
                .enumerate()
                .for_each(|(l, &v)| emit(v, l, CHANGED, false)),
            Prop::Table(p) => p
                .vars()
                .iter()
                .enumerate()
                .for_each(|(l, &v)| emit(v, l, CHANGED, false)),
            Prop::Predicate(p) => p
                .vars()
                .iter()
                .enumerate()
                .for_each(|(l, &v)| emit(v, l, FIXED, false)),
            Prop::Custom(p) => p
                .vars()
                .iter()
                .enumerate()
                .for_each(|(l, &v)| emit(v, l, CHANGED, false)),
        };
        for prop in &props {
            watches_of(prop, &mut |var, _, on, _| {
                watch_start[var.index() + 1] += 1;
                interest[var.index()] |= on;
            });
        }
        for v in 0..store.num_vars() {
            watch_start[v + 1] += watch_start[v];
            store.set_interest(v, interest[v]);
        }
        let mut filled = watch_start.clone();
        let placeholder = Watch {
            prop: 0,
            local: 0,
            on: 0,
            immediate: false,
        };
        let mut watches = vec![placeholder; watch_start[store.num_vars()] as usize];
        for (p, prop) in props.iter().enumerate() {
            watches_of(prop, &mut |var, local, on, immediate| {
                let slot = &mut filled[var.index()];
                watches[*slot as usize] = Watch {
                    prop: p as u32,
                    local: local as u32,
                    on,
                    immediate,
                };
                *slot += 1;
            });
        }
        let queued = vec![false; props.len()];
        Propagation {
            props,
            watch_start,
            watches,
            queue: VecDeque::new(),
            queued,
            runs: 0,
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
            self.queue.push_back(prop);
        }
    }

    /// Runs propagators until no domain changes. On failure the queues are emptied; the
    /// caller undoes the store.
    pub(crate) fn run(&mut self, store: &mut Store) -> Result<(), Fail> {
        let result = self.fixpoint(store);
        if result.is_err() {
            store.clear_events();
            for prop in self.queue.drain(..) {
                self.queued[prop as usize] = false;
            }
        }
        result
    }

    fn fixpoint(&mut self, store: &mut Store) -> Result<(), Fail> {
        loop {
            while let Some((var, events)) = store.pop_event() {
                let (start, end) = (
                    self.watch_start[var] as usize,
                    self.watch_start[var + 1] as usize,
                );
                for w in start..end {
                    let watch = self.watches[w];
                    if watch.on & events == 0 {
                        continue;
                    }
                    if watch.immediate {
                        self.runs += 1;
                        if let Prop::AllDifferent(p) = &mut self.props[watch.prop as usize] {
                            if p.on_fixed(store, watch.local as usize)? {
                                self.schedule(watch.prop);
                            }
                        }
                    } else {
                        self.schedule(watch.prop);
                    }
                }
            }
            let Some(prop) = self.queue.pop_front() else {
                return Ok(());
            };
            self.queued[prop as usize] = false;
            self.runs += 1;
            self.props[prop as usize].propagate(store)?;
        }
    }
}
