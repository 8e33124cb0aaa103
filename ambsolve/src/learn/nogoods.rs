//! The nogood store: conjunctions of atomic predicates that cannot all hold, each watched
//! on two of its predicates, propagated from the predicate trail (as a SAT solver's
//! clauses from its literal trail), and learned ones deleted by their LBD so that memory
//! stays bounded on long runs.

use crate::store::{Cause, Pred, Rel, Store};

/// Predicates that cannot all hold. The first two are watched: while either does not hold
/// the nogood cannot fire.
#[derive(Clone, Debug)]
pub(crate) struct Nogood {
    pub(crate) preds: Vec<Pred>,
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

/// A watch on a predicate: the nogood, and a blocker: another predicate of the nogood
/// (its other watch when the watch was set), which, refuted, shows the nogood cannot fire
/// without reading it (as a SAT solver's blocking literal).
#[derive(Clone, Copy)]
struct Watch {
    id: u32,
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
            watches: vec![Watches::default(); num_vars],
            head: 0,
            learned: 0,
            free: Vec::new(),
            added: 0,
            fired: Vec::new(),
        }
    }

    pub(crate) fn preds(&self, id: u32) -> &[Pred] {
        &self.list[id as usize].preds
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
        self.watch(id, &preds);
        let nogood = Nogood {
            preds,
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

    fn watch(&mut self, id: u32, preds: &[Pred]) {
        for w in 0..preds.len().min(2) {
            let blocker = preds[if preds.len() == 2 { 1 - w } else { w }];
            self.push_watch(id, preds[w], blocker);
        }
    }

    fn push_watch(&mut self, id: u32, pred: Pred, blocker: Pred) {
        self.watches[pred.var as usize]
            .of(pred.rel)
            .push(pred.value, Watch { id, blocker });
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
            let (low, high) = atoms.ends_before(var, position + 1);
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
            if low == high && atom.pred.rel != Rel::Ne {
                self.scan(var, Rel::Eq, low, low, store)?;
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
                let Watch { id, blocker } = list[i];
                // A refuted blocker: the nogood cannot fire, the watch stays.
                let keep = if conflict.is_none() && !store.refutes(blocker) {
                    match self.visit(id, pred, store) {
                        Ok(still) => still,
                        Err(id) => {
                            conflict = Some(id);
                            true
                        }
                    }
                } else {
                    true
                };
                if keep {
                    list[kept] = list[i];
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
    /// does not hold, or fires the nogood. Whether it still watches `pred`.
    fn visit(&mut self, id: u32, pred: Pred, store: &mut Store) -> Result<bool, u32> {
        let nogood = &mut self.list[id as usize];
        let watched = nogood.preds.len().min(2);
        let Some(w) = (0..watched).find(|&w| nogood.preds[w] == pred) else {
            debug_assert!(false, "a watch names a predicate its nogood does not watch");
            return Ok(false);
        };
        // The other watch false: the nogood cannot fire, the watch stays.
        if watched == 2 && store.refutes(nogood.preds[1 - w]) {
            return Ok(true);
        }
        let len = nogood.preds.len();
        let start = (nogood.next as usize).clamp(2, len.max(2));
        if let Some(k) = (start..len)
            .chain(2..start)
            .find(|&k| !store.holds(nogood.preds[k]))
        {
            nogood.next = k as u32 + 1;
            nogood.preds.swap(w, k);
            let (moved, other) = (nogood.preds[w], nogood.preds[1 - w]);
            self.push_watch(id, moved, other);
            return Ok(false);
        }
        if watched < 2 {
            return Err(id);
        }
        let other = nogood.preds[1 - w];
        if store.holds(other) {
            return Err(id);
        }
        if self.fire(id, other, store).is_err() {
            return Err(id);
        }
        Ok(true)
    }

    /// Learned nogoods kept now.
    pub(crate) fn learned(&self) -> usize {
        self.learned
    }

    /// Deletes half of the learned nogoods, those with the largest LBD (ties: the
    /// oldest), keeping those of LBD 2 or less and those that caused an atom on the trail.
    /// Their ids are reused; the watches on them go.
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
            nogood.preds = Vec::new();
            nogood.learned = false;
            self.free.push(i as u32);
            self.learned -= 1;
        }
        for watches in &mut self.watches {
            for slots in [
                &mut watches.ge,
                &mut watches.le,
                &mut watches.eq,
                &mut watches.ne,
            ] {
                for list in &mut slots.lists {
                    list.retain(|watch| !gone[watch.id as usize]);
                }
            }
        }
    }

    /// Whether every nogood holds in `values` (each variable's value index), for checks.
    #[cfg(feature = "debug-checks")]
    pub(crate) fn violated_by(&self, values: &[u32]) -> Option<&[Pred]> {
        self.list
            .iter()
            .find(|n| n.learned && n.preds.iter().all(|p| p.accepts(values[p.var as usize])))
            .map(|n| n.preds.as_slice())
    }
}
