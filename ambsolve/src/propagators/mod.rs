//! The trail engine's propagators, one per constraint kind (each built through
//! [`Kind::propagator`](crate::model::Kind::propagator), beside its code here), and the [`Fixpoint`] loop that runs them.
//! Engine-private: users write their own through [`Propagator`](crate::Propagator).

mod all_different;
mod arith;
#[cfg(any(test, feature = "debug-checks"))]
pub(crate) mod checker;
mod counting;
mod custom;
mod differences;
mod diffn;
mod linear;
mod logic;
mod lookup;
mod order;
mod packing;
mod precedence;
mod predicate;
mod scheduling;
mod sequences;
mod table;
mod tours;
mod view;

use std::collections::VecDeque;

use crate::choice::Fail;
use crate::model::{AllDifferentDef, Constraint, Model, ObjectiveDef};
use crate::propagator::BuiltinPropagator;
use crate::store::{Atoms, FIXED, Pred, Store};
use crate::var::VarId;

use self::all_different::AllDifferent;
use self::linear::Linear;

/// Runs `pass` until it changes no domain of `scope`: a propagator's own fixpoint, so that
/// once a pass fixes the last variables, the next one decides them (a pass reads the
/// bounds once, at its start).
///
/// # Errors
/// [`Fail`] when a pass fails.
pub(crate) fn to_fixpoint(
    store: &mut Store,
    scope: &[VarId],
    mut pass: impl FnMut(&mut Store) -> Result<(), Fail>,
) -> Result<(), Fail> {
    let volume =
        |store: &Store| -> u64 { scope.iter().map(|v| u64::from(store.size(v.index()))).sum() };
    loop {
        let before = volume(store);
        pass(store)?;
        if volume(store) == before {
            return Ok(());
        }
    }
}

/// Whether a propagator goes on from the pruning its reasons can say simply to stronger
/// pruning: arithmetic and lookups in arrays of variables to domain consistency once few
/// values are left, `inverse` to Hall sets. Not in a search that learns (once its root is
/// propagated): there, as in Chuffed and Pumpkin, they keep the simpler pruning. The
/// stronger one's reasons name values one by one, or read the past domains of a whole
/// graph, so they teach little and cost much; measured on the Challenge-style suite, it
/// costs more than it saves there.
#[inline]
pub(crate) fn domain_pass(store: &Store) -> bool {
    store.atoms().is_none()
}

/// What `dom_w_deg` learns: per propagator, its weight (1, and 1 per failure) and its
/// variables (each once); per variable, the weights of all its propagators.
struct Learned {
    weights: Vec<u32>,
    scopes: Vec<Vec<u32>>,
    ceilings: Vec<u32>,
    /// The propagators whose weight grew since the last
    /// [`append_reweighed`](Fixpoint::append_reweighed), when someone keeps ranks by the
    /// ceilings (`None` otherwise).
    blamed: Option<Vec<u32>>,
}

/// No trailed cell: the propagator never finishes.
const NEVER: usize = usize::MAX;

/// A built-in propagator as the fixpoint keeps it: a linear sum inline (a model of a
/// million small sums keeps a million of them, and the objective's bound is one), any
/// other boxed.
enum Held<'a> {
    Linear(Linear),
    Boxed(Box<dyn BuiltinPropagator + 'a>),
}

impl<'a> Held<'a> {
    /// The propagator (the common path: one call through the trait).
    #[inline]
    fn get(&self) -> &(dyn BuiltinPropagator + 'a) {
        match self {
            Held::Linear(p) => p,
            Held::Boxed(p) => &**p,
        }
    }

    #[inline]
    fn get_mut(&mut self) -> &mut (dyn BuiltinPropagator + 'a) {
        match self {
            Held::Linear(p) => p,
            Held::Boxed(p) => &mut **p,
        }
    }

    /// Runs it, a linear sum without going through the trait.
    #[inline]
    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        match self {
            Held::Linear(p) => p.propagate(store),
            Held::Boxed(p) => p.propagate(store),
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

/// The built-in propagators of a model, the watches that wake them, their queue, and the
/// loop that runs them to a fixpoint.
pub(crate) struct Fixpoint<'a> {
    props: Vec<Held<'a>>,
    /// Under `debug-checks`: what each propagator must agree with (its constraints; none
    /// for the objective's bound and the implied [`Differences`](differences::Differences)).
    #[cfg(feature = "debug-checks")]
    meanings: Vec<Vec<Constraint<'a>>>,
    /// `watches[watch_start[v]..watch_start[v + 1]]` are the watches of variable `v`.
    watch_start: Vec<u32>,
    watches: Vec<Watch>,
    /// The propagators scheduled: the cheap ones, run first, and the expensive ones (see
    /// [`BuiltinPropagator::expensive`]), run when no cheap one is waiting.
    queue: VecDeque<u32>,
    deferred: VecDeque<u32>,
    queued: Vec<bool>,
    expensive: Vec<bool>,
    /// Per propagator, whether its own changes need not wake it (see
    /// [`BuiltinPropagator::idempotent`]).
    idempotent: Vec<bool>,
    /// Scratch: the events of an idempotent propagator's run.
    own: Vec<(usize, u8)>,
    /// Per propagator that may finish (see [`BuiltinPropagator::finished`]), its trailed cell: 1
    /// once finished, below the point where it did; [`NEVER`] for the others.
    finish: Vec<usize>,
    /// Branch and bound: the propagator keeping the cost below the best one found.
    bound: Option<u32>,
    /// Weights (`dom_w_deg`), if learned (see [`Learned`]).
    degrees: Option<Learned>,
    pub(crate) runs: u64,
}

/// Drops the repeats among `out[from..]`, keeping the first of each.
pub(crate) fn dedup_from(out: &mut Vec<Pred>, from: usize) {
    let mut seen = hashbrown::HashSet::new();
    let mut k = from;
    for i in from..out.len() {
        if seen.insert(out[i]) {
            out[k] = out[i];
            k += 1;
        }
    }
    out.truncate(k);
}

impl<'a> Fixpoint<'a> {
    /// Builds the propagators of `model` (as [`rewrite`] turns its constraints into
    /// propagators), allocating their trailed counters in `store`, and the watches that
    /// wake them. With an `objective`, a linear propagator keeps its cost below a bound
    /// that [`tighten`](Fixpoint::tighten) lowers (none at first).
    pub(crate) fn new(
        model: &Model<'a>,
        objective: Option<&ObjectiveDef>,
        store: &mut Store,
    ) -> Self {
        let (mut props, mut meanings) = rewrite(model, store);
        let bound = objective.map(|def| {
            props.push(Held::Linear(Linear::unbounded(&def.cost)));
            meanings.push(Vec::new());
            props.len() as u32 - 1
        });
        // Whether another propagator reads a variable of each (an all-different alone on
        // its variables sees every change to them, its own or a decision's FIXED).
        let mentions = mentions(&props, store.num_vars());
        for prop in &mut props {
            let p = prop.get_mut();
            let shared = p.scope().iter().any(|v| mentions[v.index()] > 1);
            p.set_shared(shared);
        }
        let (watch_start, mut watches) = watches(&props, store);
        let queued = vec![false; props.len()];
        let expensive = props.iter().map(|p| p.get().expensive()).collect();
        let idempotent = props.iter().map(|p| p.get().idempotent()).collect();
        // The objective's bound changes everywhere in the tree: it never finishes.
        let finish = props
            .iter()
            .enumerate()
            .map(|(p, prop)| {
                if prop.get().finishes() && bound != Some(p as u32) {
                    store.alloc_aux(0)
                } else {
                    NEVER
                }
            })
            .collect::<Vec<usize>>();
        for watch in &mut watches {
            watch.may_finish = finish[watch.prop as usize] != NEVER;
        }
        Fixpoint {
            props,
            #[cfg(feature = "debug-checks")]
            meanings,
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
                let mut vars: Vec<u32> = p.get().scope().iter().map(|v| v.index() as u32).collect();
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
    /// [`append_reweighed`](Fixpoint::append_reweighed) (when weights are learned).
    pub(crate) fn track_reweighed(&mut self) {
        if let Some(learned) = &mut self.degrees {
            learned.blamed = Some(Vec::new());
        }
    }

    /// Appends to `out` the variables whose
    /// [`weight_ceiling`](Fixpoint::weight_ceiling) grew since the last call (a
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

    /// At least [`weighted_degree`](Fixpoint::weighted_degree) of `var`: the weights of
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
            if let Held::Linear(linear) = &mut self.props[p as usize] {
                linear.set_at_most(most);
            }
            self.schedule(p);
        }
    }

    /// Appends to `out` predicates that held before the atom at trail position `at`, made
    /// by the run of `prop` that began at `start`, and imply `pred` (which that atom made
    /// true), or, `pred` `None` and `at` the trail's length, the run's failure: the
    /// propagator's own explanation where it gives one, else the domains of its scope when
    /// the run began. Returns whether it gave the latter (which imply every change of the
    /// run).
    pub(crate) fn explain(
        &self,
        prop: u32,
        atoms: &Atoms,
        start: u32,
        at: u32,
        pred: Option<Pred>,
        out: &mut Vec<Pred>,
    ) -> bool {
        let p = self.props[prop as usize].get();
        let from = out.len();
        let own = p.explains() && p.explain(atoms, at, pred, out);
        if own {
            // Its reason gives the end it imposed; the store may have moved it further,
            // over holes.
            if let Some(pred) = pred {
                atoms.stepped_over(at, pred, false, out);
            }
        } else {
            // What an explanation that gave up appended is not its reason.
            out.truncate(from);
            for var in p.scope() {
                atoms.domain_at(var.index(), start, out);
            }
            // A variable may repeat in a scope.
            if p.scope().len() > 1 {
                dedup_from(out, from);
            }
        }
        #[cfg(feature = "debug-checks")]
        for &p in &out[from..] {
            assert!(
                atoms.true_since(p).is_none_or(|since| since < at),
                "debug-checks: the explanation of {pred:?} at {at} holds {p:?} only since {:?}",
                atoms.true_since(p)
            );
        }
        #[cfg(feature = "debug-checks")]
        if !self.meanings[prop as usize].is_empty() {
            let all = checker::All(&self.meanings[prop as usize]);
            if let Err(message) = checker::explanation_sound(&all, atoms, &out[from..], pred) {
                panic!("debug-checks: {message}");
            }
        }
        !own
    }

    /// Runs every propagator once from scratch, then to a fixpoint (at the root).
    pub(crate) fn initial(&mut self, store: &mut Store) -> Result<(), Fail> {
        for p in 0..self.props.len() {
            let result = self.checked(store, p as u32, |held, store| held.get_mut().initial(store));
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
                match self.on_fixed(store, watch.prop, watch.local as usize) {
                    Ok(true) => self.schedule(watch.prop),
                    Ok(false) => {}
                    Err(fail) => {
                        self.blame(watch.prop);
                        return Err(fail);
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

    /// Tells propagator `prop` that the variable at position `local` of its scope was
    /// fixed (see [`BuiltinPropagator::on_fixed`]).
    #[inline]
    fn on_fixed(&mut self, store: &mut Store, prop: u32, local: usize) -> Result<bool, Fail> {
        let mut scheduled = false;
        self.checked(store, prop, |held, store| {
            scheduled = held.get_mut().on_fixed(store, local)?;
            Ok(())
        })?;
        Ok(scheduled)
    }

    /// Runs `run` on propagator `prop`; under `debug-checks`, then checks that it removed
    /// no value a solution of its constraints alone uses (on small scopes).
    #[inline]
    fn checked(
        &mut self,
        store: &mut Store,
        prop: u32,
        run: impl FnOnce(&mut Held<'a>, &mut Store) -> Result<(), Fail>,
    ) -> Result<(), Fail> {
        store.set_cause_prop(prop);
        #[cfg(feature = "debug-checks")]
        if !self.meanings[prop as usize].is_empty() {
            let before = store.clone();
            let held = &mut self.props[prop as usize];
            let decides = !held.get().acts_on_fixed();
            let result = run(held, store);
            let after = result.map(|()| &*store);
            let all = checker::All(&self.meanings[prop as usize]);
            if let Err(message) = checker::sound(&all, &before, after, decides) {
                panic!("debug-checks: {message}");
            }
            return result;
        }
        run(&mut self.props[prop as usize], store)
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
            let result = self.checked(store, prop, |held, store| held.propagate(store));
            if let Err(fail) = result {
                self.blame(prop);
                return Err(fail);
            }
            let cell = self.finish[prop as usize];
            if cell != NEVER && self.props[prop as usize].get().finished() {
                store.set_aux(cell, 1);
            }
            if self.idempotent[prop as usize] {
                self.wake_but(store, prop)?;
            }
        }
    }
}

/// How many propagators mention each variable (a variable twice in a scope counts twice).
fn mentions(props: &[Held<'_>], num_vars: usize) -> Vec<u32> {
    let mut mentions = vec![0u32; num_vars];
    for prop in props {
        for var in prop.get().scope() {
            let count = &mut mentions[var.index()];
            *count = count.saturating_add(1);
        }
    }
    mentions
}

/// Per propagator, the constraints it must agree with (`debug-checks`).
type Meanings<'a> = Vec<Vec<Constraint<'a>>>;

/// The model rewritten for propagation: one propagator per constraint, through its kind,
/// except that all-different constraints over the same variables are fused into one, and
/// every all-different over the differences of an ordered chain (a Golomb ruler's) gains a
/// [`Differences`](differences::Differences) propagator (detected in the model). With
/// each, under `debug-checks`, the constraints it stands for.
fn rewrite<'a>(model: &Model<'a>, store: &mut Store) -> (Vec<Held<'a>>, Meanings<'a>) {
    let constraints = model.constraints();
    let mut props: Vec<Held<'a>> = Vec::with_capacity(constraints.len());
    let mut meanings: Meanings<'a> = Vec::new();
    let meaning = |meanings: &mut Meanings<'a>, of: &[&Constraint<'a>]| {
        if cfg!(feature = "debug-checks") {
            meanings.push(of.iter().map(|&c| c.clone()).collect());
        }
    };
    let mut fused: Vec<(&[VarId], Vec<&Constraint<'a>>)> = Vec::new();
    for constraint in constraints {
        match constraint {
            Constraint::AllDifferent(def) => {
                match fused
                    .iter_mut()
                    .find(|(vars, _)| *vars == def.vars.as_slice())
                {
                    Some((_, defs)) => defs.push(constraint),
                    None => fused.push((&def.vars, vec![constraint])),
                }
                continue;
            }
            Constraint::Linear(def) => props.push(Held::Linear(Linear::new(def))),
            other => props.push(Held::Boxed(other.kind().propagator(store))),
        }
        meaning(&mut meanings, &[constraint]);
    }
    for (_, all) in fused {
        let defs: Vec<&AllDifferentDef> = all
            .iter()
            .filter_map(|c| match c {
                Constraint::AllDifferent(def) => Some(def),
                _ => None,
            })
            .collect();
        props.push(Held::Boxed(Box::new(AllDifferent::new(&defs, store))));
        meaning(&mut meanings, &all);
    }
    for differences in differences::detect(model) {
        props.push(Held::Boxed(Box::new(differences)));
        meaning(&mut meanings, &[]);
    }
    (props, meanings)
}

/// What wakes `prop`: `emit(variable, its position in the scope, events, immediate)` for
/// each watch (one told at once when the variable is fixed, if it
/// [`acts_on_fixed`](BuiltinPropagator::acts_on_fixed); one that schedules a run on the
/// events it [`wakes`](BuiltinPropagator::wakes) on, if any).
fn emit_watches(prop: &dyn BuiltinPropagator, emit: &mut dyn FnMut(VarId, usize, u8, bool)) {
    let now = prop.acts_on_fixed();
    for (local, &var) in prop.scope().iter().enumerate() {
        if now {
            emit(var, local, FIXED, true);
        }
        let on = prop.wakes(local);
        if on != 0 {
            emit(var, local, on, false);
        }
    }
}

/// The watches of every variable in one array (two passes: count, then fill), and where
/// each variable's begin; the events each variable's watches listen to are set in `store`.
fn watches(props: &[Held<'_>], store: &mut Store) -> (Vec<u32>, Vec<Watch>) {
    let n = store.num_vars();
    let mut watch_start = vec![0u32; n + 1];
    let mut interest = vec![0u8; n];
    for prop in props {
        emit_watches(prop.get(), &mut |var, _, on, _| {
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
        emit_watches(prop.get(), &mut |var, local, on, immediate| {
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
    use super::Fixpoint;
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
        let mut fixpoint = Fixpoint::new(&m, None, &mut store);
        fixpoint.initial(&mut store).unwrap();
        assert_eq!(
            fixpoint.weighted_degree(0, &store),
            1,
            "not learning: all 1"
        );
        fixpoint.learn_weights();
        // The ceiling the variable order reads first is never below the degree.
        let degrees = |p: &Fixpoint<'_>, store: &Store| {
            (0..3)
                .map(|v| {
                    assert!(p.weight_ceiling(v) >= p.weighted_degree(v, store));
                    p.weighted_degree(v, store)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(degrees(&fixpoint, &store), [2, 2, 1]);
        let mark = store.mark();
        store.set_level(1);
        store.assign(0, 1).unwrap();
        store.assign(1, 1).unwrap();
        assert!(fixpoint.run(&mut store).is_err());
        store.undo_to(mark);
        assert_eq!(degrees(&fixpoint, &store), [3, 3, 1]);
        store.assign(0, 0).unwrap();
        assert!(fixpoint.run(&mut store).is_ok());
        // a = 0 makes both sums sure to hold (b <= 1, c <= 2): they are left out, and
        // a variable with no weight left counts 1.
        assert_eq!(degrees(&fixpoint, &store), [1, 1, 1]);
    }
}
