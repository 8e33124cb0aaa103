//! The nogood store: conjunctions of atomic predicates that cannot all hold, each watched
//! on two of its predicates, propagated from the predicate trail (as a SAT solver's
//! clauses from its literal trail), and learned ones deleted by their LBD so that memory
//! stays bounded on long runs.

use crate::store::{Cause, Pred, Store};

/// Predicates that cannot all hold. The first two are watched: while either does not hold
/// the nogood cannot fire.
#[derive(Clone, Debug)]
pub(crate) struct Nogood {
    pub(crate) preds: Vec<Pred>,
    /// Literal block distance: the number of decision levels among its predicates when it
    /// was learned (fewer: more useful).
    lbd: u32,
}

/// Every nogood, the watches on them, and how far the trail has been read.
pub(crate) struct Nogoods {
    list: Vec<Nogood>,
    /// Per variable, the nogoods one of whose two watched predicates is on it.
    watches: Vec<Vec<u32>>,
    /// The trail's atoms before this position have been propagated.
    head: usize,
}

impl Nogoods {
    pub(crate) fn new(num_vars: usize) -> Self {
        Nogoods {
            list: Vec::new(),
            watches: vec![Vec::new(); num_vars],
            head: 0,
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
    }

    /// Adds a nogood whose first predicate is the one to make false now (the others hold,
    /// the second of them at the deepest level) and makes it false.
    pub(crate) fn add(&mut self, preds: Vec<Pred>, lbd: u32, store: &mut Store) {
        debug_assert!(!preds.is_empty());
        let id = self.list.len() as u32;
        self.watch(id, &preds);
        let first = preds[0];
        self.list.push(Nogood { preds, lbd });
        if let Some(negation) = first.negated() {
            store.set_cause(Cause::Nogood(id));
            // The other predicates hold and the first does not: its negation fits.
            let imposed = store.impose(negation);
            debug_assert!(imposed.is_ok(), "an asserting nogood cannot empty a domain");
        }
    }

    fn watch(&mut self, id: u32, preds: &[Pred]) {
        let first = preds[0].var;
        self.watches[first as usize].push(id);
        if let Some(second) = preds.get(1).filter(|p| p.var != first) {
            self.watches[second.var as usize].push(id);
        }
    }

    /// Reads the trail's new atoms and fires the nogoods watching their variables: a
    /// nogood with all its predicates but one holding makes that one false (cause: the
    /// nogood); with all holding, it is a conflict, returned as its id.
    pub(crate) fn propagate(&mut self, store: &mut Store) -> Result<(), u32> {
        loop {
            let Some(atoms) = store.atoms() else {
                return Ok(());
            };
            if self.head >= atoms.len() {
                return Ok(());
            }
            let var = atoms.at(self.head as u32).pred.var as usize;
            self.head += 1;
            if self.watches[var].is_empty() {
                continue;
            }
            let mut list = std::mem::take(&mut self.watches[var]);
            let mut kept = 0;
            let mut conflict = None;
            for k in 0..list.len() {
                let id = list[k];
                if conflict.is_none() {
                    conflict = self.visit(id, var, store).err();
                }
                let preds = &self.list[id as usize].preds;
                let still = preds[0].var as usize == var
                    || preds.get(1).is_some_and(|p| p.var as usize == var);
                if still {
                    list[kept] = id;
                    kept += 1;
                }
            }
            list.truncate(kept);
            // `visit` never moves a watch onto `var` (those stay in `list`).
            debug_assert!(self.watches[var].is_empty());
            self.watches[var] = list;
            if let Some(id) = conflict {
                return Err(id);
            }
        }
    }

    /// Nogood `id`, watching a predicate on `var`, after `var` changed.
    fn visit(&mut self, id: u32, var: usize, store: &mut Store) -> Result<(), u32> {
        let watched = self.list[id as usize].preds.len().min(2);
        for w in 0..watched {
            let nogood = &mut self.list[id as usize];
            let pred = nogood.preds[w];
            if pred.var as usize != var || !store.holds(pred) {
                continue;
            }
            let other_var = (watched == 2).then(|| nogood.preds[1 - w].var);
            if let Some(k) = (2..nogood.preds.len()).find(|&k| !store.holds(nogood.preds[k])) {
                nogood.preds.swap(w, k);
                let moved = nogood.preds[w].var;
                if moved as usize != var && Some(moved) != other_var {
                    self.watches[moved as usize].push(id);
                }
                continue;
            }
            let Some(other) = (watched == 2).then(|| nogood.preds[1 - w]) else {
                return Err(id);
            };
            if store.holds(other) {
                return Err(id);
            }
            if store.refutes(other) {
                continue;
            }
            let negation = other
                .negated()
                .expect("a predicate not holding has a negation");
            store.set_cause(Cause::Nogood(id));
            if store.impose(negation).is_err() {
                return Err(id);
            }
        }
        Ok(())
    }

    /// At the root (no atom above it refers to a nogood): when more than `most` learned
    /// nogoods are kept, deletes the half with the largest LBD (ties: the oldest), keeping
    /// those of LBD 2 or less.
    pub(crate) fn reduce(&mut self, most: usize, store: &Store) {
        if self.list.len() <= most {
            return;
        }
        let mut ranked: Vec<(u32, usize)> = self
            .list
            .iter()
            .enumerate()
            .filter(|(_, n)| n.lbd > 2)
            .map(|(i, n)| (n.lbd, i))
            .collect();
        ranked.sort_by_key(|&(lbd, i)| (std::cmp::Reverse(lbd), i));
        let mut gone = vec![false; self.list.len()];
        for &(_, i) in ranked.iter().take(self.list.len() / 2) {
            gone[i] = true;
        }
        let mut k = 0;
        self.list.retain(|_| {
            k += 1;
            !gone[k - 1]
        });
        self.rewatch(store);
    }

    /// Watches every nogood again, on predicates that do not hold where it has them, and
    /// reads the whole trail again (the root's atoms) so that one left with a single
    /// predicate not holding fires.
    fn rewatch(&mut self, store: &Store) {
        for list in &mut self.watches {
            list.clear();
        }
        for id in 0..self.list.len() {
            let mut preds = std::mem::take(&mut self.list[id].preds);
            preds.sort_by_key(|&p| store.holds(p));
            self.watch(id as u32, &preds);
            self.list[id].preds = preds;
        }
        self.head = 0;
    }

    /// Whether every nogood holds in `values` (each variable's value index), for checks.
    #[cfg(feature = "debug-checks")]
    pub(crate) fn violated_by(&self, values: &[u32]) -> Option<&[Pred]> {
        self.list
            .iter()
            .find(|n| n.preds.iter().all(|p| p.accepts(values[p.var as usize])))
            .map(|n| n.preds.as_slice())
    }
}
