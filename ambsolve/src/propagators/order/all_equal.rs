//! Every item takes the same value: each keeps only the values every item has left
//! (domain consistent). Bounds first, so that ranges meet by arithmetic.

use crate::choice::Fail;
use crate::model::AllEqual;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::IntView;
use crate::store::Store;
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

impl<'a> Kind<'a> for AllEqual {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(AllEqualProp::new(self))
    }
}

impl BuiltinPropagator for AllEqualProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
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
}
