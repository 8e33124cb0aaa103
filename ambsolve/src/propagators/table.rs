//! Table constraints (allowed tuples) by simple tabular reduction (STR), with a shortcut
//! through a fixed variable.
//!
//! The live tuples are the first `count` entries of a permutation, `count` a trailed
//! cell. Fixpoint drops tuples with a value no longer in its domain (swapping them
//! behind the live part), collects the values the live tuples use, and keeps only those.
//! Undo restores `count`, which brings the dropped tuples back: deeper levels only
//! permute inside the live part.
//!
//! Scanning every live tuple costs the table's size at every node: `x == y` over `n`
//! values as a table would cost `n` per decision, `n²` in all. So when a variable of the
//! scope is fixed and no more tuples hold its value than are live, only those are read
//! (each variable keeps its tuples sorted by value, and a lookup is a binary search):
//! the live part becomes those still allowed, and a variable they leave one value is
//! fixed without reading its words. A decision then costs the tuples it keeps.

use std::sync::Arc;

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::TableDef;
use crate::propagator::BuiltinPropagator;
use crate::store::{Atoms, Pred, Store};
use crate::var::VarId;

pub(super) struct Table {
    scope: Vec<VarId>,
    vars: Vec<usize>,
    tuples: Arc<[u32]>,
    order: Vec<u32>,
    /// Where each tuple stands in `order`.
    position: Vec<u32>,
    /// Per variable, the tuples sorted by its value in them.
    by_value: Vec<Vec<u32>>,
    count: usize,
    /// Per variable, the values supported by a live tuple.
    supported: Vec<Vec<u64>>,
    /// Per variable, the values the tuples read through a fixed variable support.
    few: Vec<Vec<u32>>,
    /// Whether a variable appears twice in the scope: a pass that narrows one position
    /// can then drop tuples through another, so passes repeat until none narrows.
    repeats: bool,
}

impl Table {
    pub(super) fn new(def: &TableDef, store: &mut Store) -> Self {
        let arity = def.vars.len().max(1);
        let n = def.tuples.len() / arity;
        let vars: Vec<usize> = def.vars.iter().map(|v| v.index()).collect();
        let by_value = (0..vars.len())
            .map(|p| {
                let mut sorted: Vec<u32> = (0..n as u32).collect();
                sorted.sort_by_key(|&t| def.tuples[t as usize * arity + p]);
                sorted
            })
            .collect();
        let mut sorted = vars.clone();
        sorted.sort_unstable();
        let repeats = sorted.windows(2).any(|w| w[0] == w[1]);
        Table {
            repeats,
            scope: def.vars.clone(),
            supported: vars.iter().map(|&v| vec![0; store.num_words(v)]).collect(),
            few: vec![Vec::new(); vars.len()],
            vars,
            tuples: Arc::clone(&def.tuples),
            order: (0..n as u32).collect(),
            position: (0..n as u32).collect(),
            by_value,
            count: store.alloc_aux(n as u64),
        }
    }

    /// The value of variable `p` of the scope in tuple `t`.
    fn value(&self, t: u32, p: usize) -> u32 {
        self.tuples[t as usize * self.vars.len() + p]
    }

    /// The tuples holding `value` at variable `p` of the scope, as a range of
    /// `by_value[p]`.
    fn holding(&self, p: usize, value: u32) -> std::ops::Range<usize> {
        let sorted = &self.by_value[p];
        let start = sorted.partition_point(|&t| self.value(t, p) < value);
        let end = sorted.partition_point(|&t| self.value(t, p) <= value);
        start..end
    }

    /// Whether every value of tuple `t` is in its variable's domain.
    fn allowed(&self, t: u32, store: &Store) -> bool {
        let arity = self.vars.len();
        let tuple = &self.tuples[t as usize * arity..(t as usize + 1) * arity];
        tuple
            .iter()
            .zip(&self.vars)
            .all(|(&i, &v)| store.contains(v, i))
    }

    /// Reads every live tuple.
    fn scan(&mut self, store: &mut Store, mut live: usize) -> Result<(), Fail> {
        for s in &mut self.supported {
            s.fill(0);
        }
        let mut k = 0;
        while k < live {
            let t = self.order[k];
            if self.allowed(t, store) {
                let arity = self.vars.len();
                let tuple = &self.tuples[t as usize * arity..(t as usize + 1) * arity];
                for (s, &i) in self.supported.iter_mut().zip(tuple) {
                    s[i as usize / 64] |= 1 << (i % 64);
                }
                k += 1;
            } else {
                live -= 1;
                self.swap(k, live);
            }
        }
        if live == 0 {
            return Err(Fail);
        }
        store.set_aux(self.count, live as u64);
        for (s, &v) in self.supported.iter().zip(&self.vars) {
            store.intersect(v, s)?;
        }
        Ok(())
    }

    /// Reads only the tuples holding the value of the fixed variable `p`
    /// (`by_value[p][range]`): those still allowed become the live part, and each other
    /// variable keeps the values they hold.
    fn through_fixed(
        &mut self,
        store: &mut Store,
        p: usize,
        range: std::ops::Range<usize>,
    ) -> Result<(), Fail> {
        for few in &mut self.few {
            few.clear();
        }
        let mut live = 0;
        for k in range {
            let t = self.by_value[p][k];
            if !self.allowed(t, store) {
                continue;
            }
            // Allowed tuples are live (a dropped tuple is not allowed below where it
            // was dropped): moving them to the front permutes inside the live part.
            self.swap(live, self.position[t as usize] as usize);
            live += 1;
            for q in 0..self.vars.len() {
                let value = self.value(t, q);
                self.few[q].push(value);
            }
        }
        if live == 0 {
            return Err(Fail);
        }
        store.set_aux(self.count, live as u64);
        for q in 0..self.vars.len() {
            let var = self.vars[q];
            let few = &mut self.few[q];
            few.sort_unstable();
            few.dedup();
            if few.len() as u32 == store.size(var) {
                continue;
            }
            if let [only] = few[..] {
                store.assign(var, only)?;
                continue;
            }
            // Remove what lies between the values kept (and beyond them).
            let mut from = 0u32;
            for &value in few.iter() {
                if value > from {
                    store.remove_range(var, from, value - 1)?;
                }
                from = value + 1;
            }
            if from < store.universe(var) {
                store.remove_range(var, from, store.universe(var) - 1)?;
            }
        }
        Ok(())
    }

    /// Swaps the tuples at positions `a` and `b` of the order.
    fn swap(&mut self, a: usize, b: usize) {
        self.order.swap(a, b);
        self.position[self.order[a] as usize] = a as u32;
        self.position[self.order[b] as usize] = b as u32;
    }
}

impl<'a> Kind<'a> for TableDef {
    fn propagator(&self, store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(Table::new(self, store))
    }
}

/// Explanations (a search that learns): a value is gone because each tuple holding it
/// holds, elsewhere, a value gone before; a failure, because every tuple does. Scopes that
/// repeat a variable, ends passing many values and tables too long to read fall back to
/// the scope's domains.
impl Table {
    /// The most tuples an explanation reads.
    const EXPLAINED_TUPLES: usize = 4_096;
    /// The most values of one atom explained value by value.
    const EXPLAINED_VALUES: u32 = 64;

    /// A predicate that held before `at` and rules tuple `t` out, at a position other
    /// than `skip`.
    fn killer(&self, atoms: &Atoms, at: u32, t: u32, skip: usize) -> Option<Pred> {
        (0..self.vars.len()).filter(|&q| q != skip).find_map(|q| {
            let var = self.vars[q];
            let value = self.value(t, q);
            atoms
                .gone_before(var, value, at)
                .then(|| Pred::ne(var, value))
        })
    }

    fn explain_pred(&self, atoms: &Atoms, at: u32, pred: Pred, out: &mut Vec<Pred>) -> bool {
        let var = pred.var as usize;
        let Some(i) = self.vars.iter().position(|&v| v == var) else {
            return false;
        };
        let Some(values) = atoms.removed_by(at, pred, Self::EXPLAINED_VALUES, out) else {
            return false;
        };
        let mut read = 0;
        for u in values {
            let range = self.holding(i, u);
            read += range.len();
            if read > Self::EXPLAINED_TUPLES {
                return false;
            }
            for &t in &self.by_value[i][range] {
                match self.killer(atoms, at, t, i) {
                    Some(killer) => out.push(killer),
                    None => return false,
                }
            }
        }
        true
    }

    fn explain_failure(&self, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        let n = self.order.len();
        n <= Self::EXPLAINED_TUPLES
            && (0..n as u32).all(|t| match self.killer(atoms, at, t, usize::MAX) {
                Some(killer) => {
                    out.push(killer);
                    true
                }
                None => false,
            })
    }
}

impl BuiltinPropagator for Table {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// Over distinct variables one pass keeps exactly the values of live tuples, each of
    /// whose values stays: a second finds nothing.
    fn idempotent(&self) -> bool {
        !self.repeats
    }

    fn explains(&self) -> bool {
        !self.repeats
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let from = out.len();
        let explained = match pred {
            Some(pred) => self.explain_pred(atoms, at, pred, out),
            None => self.explain_failure(atoms, at, out),
        };
        // Tuples share the values that rule them out.
        super::dedup_from(out, from);
        explained
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        if !self.repeats {
            return self.pass(store);
        }
        loop {
            let sizes: Vec<u32> = self.vars.iter().map(|&v| store.size(v)).collect();
            self.pass(store)?;
            if self
                .vars
                .iter()
                .zip(&sizes)
                .all(|(&v, &n)| store.size(v) == n)
            {
                return Ok(());
            }
        }
    }
}

impl Table {
    /// One reduction: through the most selective fixed variable, or a scan.
    fn pass(&mut self, store: &mut Store) -> Result<(), Fail> {
        let live = store.aux(self.count) as usize;
        // The fixed variable whose value the fewest tuples hold, if no more than are live
        // (reading them costs no more than a scan, and no word of a domain).
        let through = (0..self.vars.len())
            .filter(|&p| store.is_fixed(self.vars[p]))
            .filter_map(|p| {
                let value = store.min(self.vars[p])?;
                Some((p, self.holding(p, value)))
            })
            .min_by_key(|(_, range)| range.len())
            .filter(|(_, range)| range.len() <= live);
        match through {
            Some((p, range)) => self.through_fixed(store, p, range),
            None => self.scan(store, live),
        }
    }
}
