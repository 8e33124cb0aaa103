//! The nogood store: conjunctions of atomic predicates that cannot all hold, each watched
//! on two of its predicates, propagated from the predicate trail (as a SAT solver's
//! clauses from its literal trail), and learned ones deleted by their LBD so that memory
//! stays bounded on long runs.
//!
//! The predicates of every nogood lie end to end in one arena, and a watch names where
//! its nogood's lie: a visit reads them without first reading the nogood's record (one
//! cache miss, not two, as a SAT solver's clause arena). Deleting nogoods compacts the
//! arena.

use crate::store::{Cause, Pred, Rel, Store};

/// Predicates that cannot all hold (`len` of them in the arena from `start`). The first
/// two are watched: while either does not hold the nogood cannot fire.
#[derive(Clone, Debug)]
struct Nogood {
    start: u32,
    /// 0 once deleted.
    len: u32,
    /// Literal block distance: the number of decision levels among its predicates when it
    /// was learned (fewer: more useful).
    lbd: u32,
    /// Learned (may be deleted), or a blocking nogood of a solution found (kept).
    learned: bool,
    /// When it was added (nogoods added so far): the older of two of equal LBD goes first.
    born: u64,
    /// Where the last search for an unwatched predicate that does not hold stopped: the
    /// next starts there (round the list), so that a long nogood is not read from its
    /// start at every visit (Gent's circular search).
    next: u32,
}

/// A watch on a predicate: the nogood (its id, and where its predicates lie), and a
/// blocker: another predicate of the nogood (its other watch when the watch was set),
/// which, refuted, shows the nogood cannot fire without reading it (as a SAT solver's
/// blocking literal).
#[derive(Clone, Copy)]
struct Watch {
    id: u32,
    start: u32,
    len: u32,
    blocker: Pred,
}

/// The watches on the predicates of one variable and relation, by value: the values
/// watched, ascending, and each one's watches. An atom visits only the lists of the
/// predicates it made true (a range of values), never the others'. Lists are kept when
/// they empty, so a slot's value never moves but by an insertion before it.
#[derive(Clone, Default)]
struct Slots {
    values: Vec<u32>,
    lists: Vec<Vec<Watch>>,
}

impl Slots {
    fn push(&mut self, value: u32, watch: Watch) {
        if self.values.get(value as usize) == Some(&value) {
            self.lists[value as usize].push(watch);
            return;
        }
        match self.values.binary_search(&value) {
            Ok(k) => self.lists[k].push(watch),
            Err(k) => {
                self.values.insert(k, value);
                self.lists.insert(k, vec![watch]);
            }
        }
    }

    /// The first slot whose value is `value` or more.
    fn from(&self, value: u32) -> usize {
        // Values are distinct and ascending from 0 or more: where slot `value` holds
        // `value`, so does every slot before it (a small domain watched throughout).
        if self.values.get(value as usize) == Some(&value) {
            return value as usize;
        }
        self.values.partition_point(|&v| v < value)
    }
}

/// The watches on one variable, by relation.
#[derive(Clone, Default)]
struct Watches {
    ge: Slots,
    le: Slots,
    eq: Slots,
    ne: Slots,
}

impl Watches {
    fn of(&mut self, rel: Rel) -> &mut Slots {
        match rel {
            Rel::Ge => &mut self.ge,
            Rel::Le => &mut self.le,
            Rel::Eq => &mut self.eq,
            Rel::Ne => &mut self.ne,
        }
    }
}

/// Every nogood, the watches on them, and how far the trail has been read.
pub(crate) struct Nogoods {
    list: Vec<Nogood>,
    /// The predicates of every nogood in `list`, end to end.
    arena: Vec<Pred>,
    /// Per variable, the watched predicates on it, by relation: each entry a value and
    /// the nogood watching the predicate, so that an atom visits only the nogoods whose
    /// watched predicate it made true.
    watches: Vec<Watches>,
    /// The trail's atoms before this position have been propagated.
    head: usize,
    /// Learned nogoods in `list`.
    learned: usize,
    /// Ids of deleted nogoods (empty in `list`), to be reused.
    free: Vec<u32>,
    /// Nogoods added in all.
    added: u64,
    /// Each firing on the trail: the trail's length before it and the predicate it made
    /// false (what an atom caused by a nogood is explained from; the store, after a
    /// failure, cannot say which predicate did not hold).
    fired: Vec<(u32, Pred)>,
}

impl Nogoods {
    pub(crate) fn new(num_vars: usize) -> Self {
        Nogoods {
            list: Vec::new(),
            arena: Vec::new(),
            watches: vec![Watches::default(); num_vars],
            head: 0,
            learned: 0,
            free: Vec::new(),
            added: 0,
            fired: Vec::new(),
        }
    }

    pub(crate) fn preds(&self, id: u32) -> &[Pred] {
        let nogood = &self.list[id as usize];
        &self.arena[nogood.start as usize..(nogood.start + nogood.len) as usize]
    }

    /// Whether atoms of a trail of `len` are left to read.
    pub(crate) fn behind(&self, len: usize) -> bool {
        self.head < len
    }

    /// The trail was undone to `len` atoms.
    pub(crate) fn undone_to(&mut self, len: usize) {
        self.head = self.head.min(len);
        let kept = self.fired.partition_point(|&(at, _)| (at as usize) < len);
        self.fired.truncate(kept);
    }

    /// The predicate that the firing that made the atom at `at` made false.
    pub(crate) fn made_false(&self, at: u32) -> Pred {
        let k = self.fired.partition_point(|&(start, _)| start <= at);
        self.fired[k
            .checked_sub(1)
            .expect("an atom caused by a nogood was fired")]
        .1
    }

    /// Makes `pred` of nogood `id` false.
    fn fire(&mut self, id: u32, pred: Pred, store: &mut Store) -> Result<(), ()> {
        let negation = pred
            .negated()
            .expect("a predicate not holding has a negation");
        let len = store.atoms().map_or(0, |a| a.len()) as u32;
        self.fired.push((len, pred));
        store.set_cause(Cause::Nogood(id));
        store.impose(negation).map_err(|_| ())
    }

    /// Adds a nogood whose first predicate is the one to make false now (the others hold,
    /// the second of them at the deepest level) and makes it false.
    pub(crate) fn add(&mut self, preds: Vec<Pred>, lbd: u32, learned: bool, store: &mut Store) {
        debug_assert!(!preds.is_empty());
        let first = preds[0];
        let id = self.free.pop().unwrap_or(self.list.len() as u32);
        let start = u32::try_from(self.arena.len()).expect("nogoods fit 2^32 predicates");
        let len = preds.len() as u32;
        for w in 0..preds.len().min(2) {
            let blocker = preds[if preds.len() == 2 { 1 - w } else { w }];
            let watch = Watch {
                id,
                start,
                len,
                blocker,
            };
            self.push_watch(preds[w], watch);
        }
        self.arena.extend_from_slice(&preds);
        let nogood = Nogood {
            start,
            len,
            lbd,
            learned,
            born: self.added,
            next: 2,
        };
        self.added += 1;
        match self.list.get_mut(id as usize) {
            Some(slot) => *slot = nogood,
            None => self.list.push(nogood),
        }
        self.learned += usize::from(learned);
        if first.negated().is_some() {
            // The other predicates hold and the first does not: its negation fits.
            let imposed = self.fire(id, first, store);
            debug_assert!(imposed.is_ok(), "an asserting nogood cannot empty a domain");
        }
    }

    fn push_watch(&mut self, pred: Pred, watch: Watch) {
        self.watches[pred.var as usize]
            .of(pred.rel)
            .push(pred.value, watch);
    }

    /// Reads the trail's new atoms and visits the nogoods whose watched predicates they
    /// made true: a nogood with all its predicates but one holding makes that one false
    /// (cause: the nogood); with all holding, it is a conflict, returned as its id.
    pub(crate) fn propagate(&mut self, store: &mut Store) -> Result<(), u32> {
        loop {
            let Some(atoms) = store.atoms() else {
                return Ok(());
            };
            if self.head >= atoms.len() {
                return Ok(());
            }
            let position = self.head as u32;
            let atom = *atoms.at(position);
            self.head += 1;
            let var = atom.pred.var as usize;
            // Whether the atom fixed `var`, read only where an `==` is watched on it.
            let fixed = (atom.pred.rel != Rel::Ne && !self.watches[var].eq.values.is_empty())
                .then(|| atoms.ends_before(var, position + 1))
                .and_then(|(low, high)| (low == high).then_some(low));
            let (from, to) = (atom.prev, atom.pred.value);
            // What the atom made true: bounds passed, values passed over, a fixed value.
            match atom.pred.rel {
                Rel::Ge if to > from => {
                    self.scan(var, Rel::Ge, from + 1, to, store)?;
                    self.scan(var, Rel::Ne, from, to - 1, store)?;
                }
                Rel::Le if to < from => {
                    self.scan(var, Rel::Le, to, from - 1, store)?;
                    self.scan(var, Rel::Ne, to + 1, from, store)?;
                }
                Rel::Ne => self.scan(var, Rel::Ne, to, to, store)?,
                Rel::Ge | Rel::Le | Rel::Eq => {}
            }
            if let Some(value) = fixed {
                self.scan(var, Rel::Eq, value, value, store)?;
            }
        }
    }

    /// Visits the nogoods watching a predicate on `var` with relation `rel` and a value
    /// in `low..=high` (each such predicate holds now).
    fn scan(
        &mut self,
        var: usize,
        rel: Rel,
        low: u32,
        high: u32,
        store: &mut Store,
    ) -> Result<(), u32> {
        let mut k = self.watches[var].of(rel).from(low);
        loop {
            let slots = self.watches[var].of(rel);
            let Some(&value) = slots.values.get(k).filter(|&&v| v <= high) else {
                return Ok(());
            };
            let mut list = std::mem::take(&mut slots.lists[k]);
            let pred = Pred {
                var: var as u32,
                rel,
                value,
            };
            let mut kept = 0;
            let mut conflict = None;
            for i in 0..list.len() {
                let watch = list[i];
                // A refuted blocker: the nogood cannot fire, the watch stays.
                let keep = if conflict.is_none() && !store.refutes(watch.blocker) {
                    match self.visit(watch, pred, store) {
                        Ok(still) => still,
                        Err(id) => {
                            conflict = Some(id);
                            Some(watch.blocker)
                        }
                    }
                } else {
                    Some(watch.blocker)
                };
                if let Some(blocker) = keep {
                    list[kept] = Watch { blocker, ..watch };
                    kept += 1;
                }
            }
            list.truncate(kept);
            // Watches moved meanwhile may have opened slots before this one.
            let slots = self.watches[var].of(rel);
            k = slots.from(value);
            let moved_here = std::mem::replace(&mut slots.lists[k], list);
            slots.lists[k].extend(moved_here);
            if let Some(id) = conflict {
                return Err(id);
            }
            k += 1;
        }
    }

    /// Nogood `id`, watching `pred`, which now holds: moves the watch to a predicate that
    /// does not hold, or fires the nogood. If it still watches `pred`, the watch's blocker
    /// from now on (the other watch, refuted now).
    fn visit(&mut self, watch: Watch, pred: Pred, store: &mut Store) -> Result<Option<Pred>, u32> {
        let id = watch.id;
        let len = watch.len as usize;
        let preds = &mut self.arena[watch.start as usize..][..len];
        let watched = len.min(2);
        let Some(w) = (0..watched).find(|&w| preds[w] == pred) else {
            debug_assert!(false, "a watch names a predicate its nogood does not watch");
            return Ok(None);
        };
        // The other watch false: the nogood cannot fire, the watch stays, blocked by it
        // (so that the next visit stops at the blocker, as a SAT solver's does).
        if watched == 2 && store.refutes(preds[1 - w]) {
            return Ok(Some(preds[1 - w]));
        }
        let nogood = &mut self.list[id as usize];
        let start = (nogood.next as usize).clamp(2, len.max(2));
        if let Some(k) = (start..len)
            .chain(2..start)
            .find(|&k| !store.holds(preds[k]))
        {
            nogood.next = k as u32 + 1;
            preds.swap(w, k);
            let (moved, other) = (preds[w], preds[1 - w]);
            self.push_watch(
                moved,
                Watch {
                    blocker: other,
                    ..watch
                },
            );
            return Ok(None);
        }
        if watched < 2 {
            return Err(id);
        }
        let other = preds[1 - w];
        if store.holds(other) {
            return Err(id);
        }
        if self.fire(id, other, store).is_err() {
            return Err(id);
        }
        Ok(Some(other))
    }

    /// Learned nogoods kept now.
    pub(crate) fn learned(&self) -> usize {
        self.learned
    }

    /// Deletes half of the learned nogoods, those with the largest LBD (ties: the
    /// oldest), keeping those of LBD 2 or less and those that caused an atom on the trail.
    /// Their ids are reused; the watches on them go, and the arena is compacted.
    pub(crate) fn reduce(&mut self, store: &Store) {
        let mut locked = vec![false; self.list.len()];
        if let Some(atoms) = store.atoms() {
            for atom in atoms.since(0) {
                if let Cause::Nogood(id) = atom.cause {
                    locked[id as usize] = true;
                }
            }
        }
        let mut ranked: Vec<(u32, u64, usize)> = self
            .list
            .iter()
            .enumerate()
            .filter(|&(i, n)| n.learned && n.lbd > 2 && !locked[i])
            .map(|(i, n)| (n.lbd, n.born, i))
            .collect();
        ranked.sort_unstable_by_key(|&(lbd, born, _)| (std::cmp::Reverse(lbd), born));
        let mut gone = vec![false; self.list.len()];
        for &(_, _, i) in ranked.iter().take(self.learned / 2) {
            gone[i] = true;
            let nogood = &mut self.list[i];
            nogood.len = 0;
            nogood.learned = false;
            self.free.push(i as u32);
            self.learned -= 1;
        }
        let mut arena = Vec::with_capacity(self.arena.len());
        for nogood in &mut self.list {
            let from = nogood.start as usize..(nogood.start + nogood.len) as usize;
            nogood.start = arena.len() as u32;
            arena.extend_from_slice(&self.arena[from]);
        }
        self.arena = arena;
        let list = &self.list;
        for watches in &mut self.watches {
            for slots in [
                &mut watches.ge,
                &mut watches.le,
                &mut watches.eq,
                &mut watches.ne,
            ] {
                for watched in &mut slots.lists {
                    watched.retain_mut(|watch| {
                        watch.start = list[watch.id as usize].start;
                        !gone[watch.id as usize]
                    });
                }
            }
        }
    }

    /// Whether every nogood holds in `values` (each variable's value index), for checks.
    #[cfg(feature = "debug-checks")]
    pub(crate) fn violated_by(&self, values: &[u32]) -> Option<&[Pred]> {
        (0..self.list.len() as u32)
            .filter(|&id| self.list[id as usize].learned)
            .map(|id| self.preds(id))
            .find(|preds| preds.iter().all(|p| p.accepts(values[p.var as usize])))
    }
}
