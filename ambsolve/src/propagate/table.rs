//! Table constraints (allowed tuples) by simple tabular reduction (STR).
//!
//! The live tuples are the first `count` entries of a permutation, `count` a trailed
//! cell. Propagation drops tuples with a value no longer in its domain (swapping them
//! behind the live part), collects the values the live tuples use, and keeps only those.
//! Undo restores `count`, which brings the dropped tuples back: deeper levels only
//! permute inside the live part.

use std::sync::Arc;

use crate::choice::Fail;
use crate::model::TableDef;
use crate::store::Store;
use crate::var::VarId;

pub(super) struct Table {
    scope: Vec<VarId>,
    vars: Vec<usize>,
    tuples: Arc<[u32]>,
    order: Vec<u32>,
    count: usize,
    /// Per variable, the values supported by a live tuple.
    supported: Vec<Vec<u64>>,
}

impl Table {
    pub(super) fn new(def: &TableDef, store: &mut Store) -> Self {
        let arity = def.vars.len().max(1);
        let n = def.tuples.len() / arity;
        let vars: Vec<usize> = def.vars.iter().map(|v| v.index()).collect();
        Table {
            scope: def.vars.clone(),
            supported: vars.iter().map(|&v| vec![0; store.num_words(v)]).collect(),
            vars,
            tuples: Arc::clone(&def.tuples),
            order: (0..n as u32).collect(),
            count: store.alloc_aux(n as u64),
        }
    }

    pub(super) fn vars(&self) -> &[VarId] {
        &self.scope
    }

    pub(super) fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let arity = self.vars.len();
        let mut live = store.aux(self.count) as usize;
        for s in &mut self.supported {
            s.fill(0);
        }
        let mut k = 0;
        while k < live {
            let t = self.order[k] as usize;
            let tuple = &self.tuples[t * arity..(t + 1) * arity];
            if tuple
                .iter()
                .zip(&self.vars)
                .all(|(&i, &v)| store.contains(v, i))
            {
                for (s, &i) in self.supported.iter_mut().zip(tuple) {
                    s[i as usize / 64] |= 1 << (i % 64);
                }
                k += 1;
            } else {
                live -= 1;
                self.order.swap(k, live);
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
}
