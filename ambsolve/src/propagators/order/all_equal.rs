//! Every item takes the same value: each keeps only the values every item has left
//! (domain consistent). Bounds first, so that ranges meet by arithmetic.

use crate::choice::Fail;
use crate::model::AllEqual;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::dedup_from;
use crate::propagators::view::IntView;
use crate::store::{Atoms, Pred, Store};
use crate::var::VarId;

pub(crate) struct AllEqualProp {
    items: Vec<IntView>,
    scope: Vec<VarId>,
}

impl AllEqualProp {
    pub(crate) fn new(def: &AllEqual) -> Self {
        AllEqualProp {
            items: def.items.iter().map(IntView::new).collect(),
            scope: def.vars.clone(),
        }
    }
}

/// Explanations (a search that learns): a value gone from an item, because another item
/// lacked it.
impl AllEqualProp {
    /// The most values of one atom explained value by value.
    const EXPLAINED_VALUES: u32 = 256;

    /// An item that lacked `value` before `at`.
    fn lacker(&self, atoms: &Atoms, at: u32, value: i128) -> Option<usize> {
        self.items
            .iter()
            .position(|x| !x.had_before(atoms, at, value))
    }

    fn explain_lacked(
        &self,
        atoms: &Atoms,
        at: u32,
        pred: Option<Pred>,
        out: &mut Vec<Pred>,
    ) -> bool {
        // A failure falls back to the scope's domains: the fuzz never met one below the
        // root, so no explanation of ours for it would be checked.
        let Some(pred) = pred else {
            return false;
        };
        // The values each item must be shown to lack: (item, value).
        let mut lacked: Vec<(usize, i128)> = Vec::new();
        let from = out.len();
        let var = pred.var as usize;
        let Some(values) = atoms.removed_by(at, pred, Self::EXPLAINED_VALUES, out) else {
            return false;
        };
        for u in values {
            // Through some item of the variable: its image of `u`, lacked elsewhere.
            let found = self
                .items
                .iter()
                .filter(|x| x.var() == Some(var))
                .find_map(|x| {
                    let value = x.image(u);
                    Some((self.lacker(atoms, at, value)?, value))
                });
            match found {
                Some(l) => lacked.push(l),
                None => return false,
            }
        }
        lacked.sort_unstable();
        lacked.dedup();
        for (j, group) in lacked.chunk_by(|a, b| a.0 == b.0).map(|g| (g[0].0, g)) {
            let IntView::Var { var, .. } = &self.items[j] else {
                continue;
            };
            let mut gone: Vec<u32> = group
                .iter()
                .flat_map(|&(_, value)| self.items[j].indices_of(value))
                .collect();
            gone.sort_unstable();
            atoms.explain_gone(*var, at, gone.into_iter(), out);
        }
        dedup_from(out, from);
        true
    }
}

impl<'a> Kind<'a> for AllEqual {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(AllEqualProp::new(self))
    }
}

impl BuiltinPropagator for AllEqualProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn explains(&self) -> bool {
        true
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        self.explain_lacked(atoms, at, pred, out)
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        if self.items.len() < 2 {
            return Ok(());
        }
        let (mut low, mut high) = (i64::MIN, i64::MAX);
        for item in &self.items {
            low = low.max(item.min(store)?);
            high = high.min(item.max(store)?);
        }
        for item in &self.items {
            item.keep_within(store, i128::from(low), i128::from(high))?;
        }
        // The values of the smallest domain that every item has.
        let smallest = self
            .items
            .iter()
            .min_by_key(|x| x.size(store))
            .ok_or(Fail)?;
        let mut common: Vec<i64> = smallest
            .values(store)
            .filter(|&v| self.items.iter().all(|x| x.contains(store, i128::from(v))))
            .collect();
        common.sort_unstable();
        common.dedup();
        if common.is_empty() {
            return Err(Fail);
        }
        let sizes: u64 = self.items.iter().map(|x| u64::from(x.size(store))).sum();
        if sizes == (common.len() * self.items.len()) as u64 {
            return Ok(());
        }
        for item in &self.items {
            item.retain(store, |v| common.binary_search(&v).is_ok())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::{arg, fuzz, fuzz_domain_consistent, pooled_items};

    #[test]
    fn all_equal_agrees_with_its_meaning() {
        fuzz(400, |rng| {
            let mut m = Model::new();
            let (_, items) = pooled_items(&mut m, rng);
            m.all_equal(items);
            m
        });
    }

    #[test]
    fn all_equal_over_distinct_variables_is_domain_consistent() {
        fuzz_domain_consistent(300, |rng| {
            let mut m = Model::new();
            let items: Vec<IntArg> = (0..rng.below(4)).map(|_| arg(&mut m, rng)).collect();
            m.all_equal(items);
            m
        });
    }

    #[test]
    fn all_equal_under_a_sum_agrees_with_its_meaning() {
        // Items of mixed images equal to two variables whose sum is odd: the learning
        // search meets conflicts and asks why values went (checked under `debug-checks`).
        use crate::model::Cmp;
        fuzz(600, |rng| {
            let mut m = Model::new();
            let n = 2 + rng.below(3) as usize;
            let items: Vec<IntArg> = (0..n)
                .map(|_| match rng.below(3) {
                    0 => IntArg::from(&m.var([3i64, 1, 1, 4, 0])),
                    _ => {
                        let low = rng.below(2) as i64 - 1;
                        IntArg::from(&m.var(low..low + 3 + rng.below(3) as i64))
                    }
                })
                .collect();
            let vars: Vec<_> = (0..2).map(|_| m.var(0..4i64)).collect();
            let mut all = items.clone();
            all.extend(vars.iter().map(IntArg::from));
            m.all_equal(all);
            // x + y - w odd or x + 2y - w = c with x = y: the sum fails, or its bounds
            // leave the items nothing in common.
            let (b, c) = match rng.below(2) {
                0 => (1, 1 + 2 * rng.below(3) as i64),
                _ => (2, 2 + rng.below(8) as i64),
            };
            // A third term outside the items: deciding it narrows x and y apart.
            let w = m.var(0..3i64);
            m.linear([(1, &vars[0]), (b, &vars[1]), (-1, &w)], Cmp::Eq, c - 1);
            m
        });
    }
}
