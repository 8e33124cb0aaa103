//! Symmetry on the trail engine: solving up to symmetry, or counting through it, keeps
//! the lex-leader of each class, pruned inside the propagation fixpoint; counting weighs
//! each leader by the size of its class.

use crate::choice::Fail;
use crate::store::Store;
use crate::symmetry::{Domains, Lead, Tables};

/// A lead cell's value once its symmetry's image cannot be smaller in the subtree.
const LEADS: u64 = u64::MAX;

/// The symmetries' tables; per symmetry, a trailed cell holding how far the assignment is
/// known equal to its image ([`LEADS`] once it cannot be smaller); values found not to
/// lead; the solution's value indices, read for its class size.
pub(super) struct Leaders {
    tables: Tables,
    cells: Vec<usize>,
    not_leading: Vec<(u32, u32)>,
    solution: Vec<u32>,
}

impl Leaders {
    /// The rule of `tables` over `store` (one trailed cell per symmetry). Counting
    /// through symmetry compares assignments in `ranking` order: any fixed order gives one
    /// leader per class, and the one the search fixes variables in (as far as it is
    /// fixed) lets the comparison cut soonest.
    pub(super) fn new(mut tables: Tables, store: &mut Store, ranking: Vec<usize>) -> Self {
        let cells = (0..tables.len()).map(|_| store.alloc_aux(0)).collect();
        if tables.counts_classes() {
            tables.set_order(ranking);
        }
        Leaders {
            tables,
            cells,
            not_leading: Vec::new(),
            solution: Vec::new(),
        }
    }

    /// Fails if the domains already show that a symmetric image is smaller, and removes
    /// the values that cannot be in a leader; true if it removed some.
    pub(super) fn prune(&mut self, store: &mut Store) -> Result<bool, Fail> {
        self.not_leading.clear();
        for (g, &cell) in self.cells.iter().enumerate() {
            let equal = store.aux(cell);
            if equal == LEADS {
                continue;
            }
            match self
                .tables
                .lead(g, equal as usize, store, &mut self.not_leading)
            {
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

    /// Counting through symmetry: the size of the class of the solution `store` holds
    /// (1 when not counting through symmetry).
    pub(super) fn class_size(&mut self, store: &Store) -> u64 {
        if !self.tables.counts_classes() {
            return 1;
        }
        self.solution.clear();
        self.solution
            .extend((0..store.num_vars()).map(|v| store.min(v).unwrap_or(0)));
        self.tables.orbit_size(&self.solution)
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
