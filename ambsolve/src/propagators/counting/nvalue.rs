//! `count` = the number of distinct values of the items: at least the distinct values of
//! the fixed items (and 1 if there is an item), at most those plus the free variables
//! that may take another, and at most the size of the union of the domains. Back: the
//! count's largest value reached keeps the free items among the values taken; its least
//! value needing a new value from every free variable keeps them away from those; needing
//! every value of the union, a value that only one variable can take is given to it.

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::{NValue, TABULATED_AT_MOST};
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::IntView;
use crate::store::Store;
use crate::var::VarId;

pub(crate) struct NValueProp {
    count: IntView,
    items: Vec<IntView>,
    /// Per item, its variable (`None` for a constant), to count each variable once.
    vars: Vec<Option<usize>>,
    scope: Vec<VarId>,
}

impl NValueProp {
    pub(crate) fn new(def: &NValue) -> Self {
        let items: Vec<IntView> = def.items.iter().map(IntView::new).collect();
        NValueProp {
            count: IntView::new(&def.count),
            vars: items.iter().map(IntView::var).collect(),
            items,
            scope: def.vars.clone(),
        }
    }

    /// The free items (not fixed) that may take a value outside `taken`, as the indices
    /// of their first occurrence, each variable once.
    fn free(&self, store: &Store, taken: &[i64]) -> Vec<usize> {
        let mut free: Vec<usize> = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            if item.fixed(store).is_some()
                || free.iter().any(|&f| self.vars[f] == self.vars[i])
                || item.values(store).all(|v| taken.binary_search(&v).is_ok())
            {
                continue;
            }
            free.push(i);
        }
        free
    }

    /// Every value of `union` must be taken: one that only one item can take now is
    /// given to it; one that none can take fails.
    fn give_needed(&self, store: &mut Store, union: &[i64]) -> Result<(), Fail> {
        // Per value of the union: how many items (each variable once) may take it, and
        // the last one.
        let mut holders = vec![(0u32, 0usize); union.len()];
        let mut seen = vec![usize::MAX; union.len()];
        for (i, item) in self.items.iter().enumerate() {
            if self.vars[i].is_some() && self.vars[..i].contains(&self.vars[i]) {
                continue;
            }
            for v in item.values(store) {
                if let Ok(j) = union.binary_search(&v) {
                    if seen[j] != i {
                        seen[j] = i;
                        holders[j] = (holders[j].0 + 1, i);
                    }
                }
            }
        }
        for (j, &v) in union.iter().enumerate() {
            match holders[j] {
                (0, _) => return Err(Fail),
                (1, i) => {
                    self.items[i].fix(store, i128::from(v))?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}

impl<'a> Kind<'a> for NValue {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(NValueProp::new(self))
    }
}

impl BuiltinPropagator for NValueProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        if self.items.is_empty() {
            self.count.fix(store, 0)?;
            return Ok(());
        }
        let mut taken: Vec<i64> = self.items.iter().filter_map(|x| x.fixed(store)).collect();
        taken.sort_unstable();
        taken.dedup();
        // The union of the domains, unless they hold too many values to list (ranges of
        // millions): then the count is bounded by the items alone.
        let listed: u64 = self.items.iter().map(|x| u64::from(x.size(store))).sum();
        let union: Option<Vec<i64>> = (listed <= TABULATED_AT_MOST as u64).then(|| {
            let mut union: Vec<i64> = Vec::new();
            for item in &self.items {
                union.extend(item.values(store));
            }
            union.sort_unstable();
            union.dedup();
            union
        });
        let free = self.free(store, &taken);
        let fixed = taken.len() as i128;
        let least = fixed.max(1);
        let mut most = fixed + free.len() as i128;
        if let Some(union) = &union {
            most = most.min(union.len() as i128);
        }
        self.count.keep_within(store, least, most)?;
        let (low, high) = (
            i128::from(self.count.min(store)?),
            i128::from(self.count.max(store)?),
        );
        if high == fixed {
            for item in &self.items {
                item.keep_only(store, &taken)?;
            }
        } else if low == fixed + free.len() as i128 {
            for &i in &free {
                super::remove_all(&self.items[i], store, &taken)?;
            }
        }
        if let Some(union) = union.filter(|union| low == union.len() as i128) {
            self.give_needed(store, &union)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::{arg, fixpoint, fuzz};

    #[test]
    fn nvalue_agrees_with_its_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let pool: Vec<IntArg> = (0..4).map(|_| arg(&mut m, rng)).collect();
            let n = rng.below(5) as usize;
            let items: Vec<IntArg> = (0..n)
                .map(|_| pool[rng.below(4) as usize].clone())
                .collect();
            let count = match rng.below(4) {
                0 => pool[0].clone(),
                _ => arg(&mut m, rng),
            };
            m.nvalue(count, items);
            m
        });
    }

    #[test]
    fn the_count_is_bounded_and_bounds_the_items() {
        // Two items over 0..2: one or two distinct values.
        let mut m = Model::new();
        let x = m.vars("x", 2, 0..2i64);
        let c = m.var(0..5i64);
        m.nvalue(&c, &x);
        assert_eq!(fixpoint(&m).unwrap()[2], [1, 2]);
        // One value taken, one allowed: the free item takes it.
        let mut m = Model::new();
        let (a, b, z) = (m.var([1i64]), m.var([1i64]), m.var(0..3i64));
        m.nvalue(1, [&a, &b, &z]);
        assert_eq!(fixpoint(&m).unwrap()[2], [1]);
        // One value taken, two wanted: the free item takes another.
        let mut m = Model::new();
        let (a, z) = (m.var([1i64]), m.var(0..3i64));
        m.nvalue(2, [&a, &z]);
        assert_eq!(fixpoint(&m).unwrap()[1], [0, 2]);
        // Every value of the union wanted: 2 only z can take.
        let mut m = Model::new();
        let (a, b, z) = (m.var(0..2i64), m.var(0..2i64), m.var(1..3i64));
        m.nvalue(3, [&a, &b, &z]);
        assert_eq!(fixpoint(&m).unwrap()[2], [1]);
    }
}
