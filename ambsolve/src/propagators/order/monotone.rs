//! `x[0] <= x[1] <= ..` (and its variants) by bounds: a pass forward raises each item's
//! least value to its predecessor's (plus one if strict), a pass backward lowers each
//! item's largest value to its successor's. One pass each way reaches the fixpoint, and
//! is bounds consistent.

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::Monotone;
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::IntView;
use crate::store::{BOUNDS, Store};
use crate::var::VarId;

pub(crate) struct MonotoneProp {
    /// The items, turned so that each must be at most the next (a descending chain is
    /// read backwards).
    items: Vec<IntView>,
    /// 1 if strict, else 0: how much the next must exceed the previous.
    gap: i128,
    scope: Vec<VarId>,
}

impl MonotoneProp {
    pub(crate) fn new(def: &Monotone) -> Self {
        let mut items: Vec<IntView> = def.items.iter().map(IntView::new).collect();
        if def.descending {
            items.reverse();
        }
        MonotoneProp {
            items,
            gap: i128::from(def.strict),
            scope: def.vars.clone(),
        }
    }
}

impl<'a> Kind<'a> for Monotone {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(MonotoneProp::new(self))
    }
}

impl BuiltinPropagator for MonotoneProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, _local: usize) -> u8 {
        BOUNDS
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let mut least = i128::MIN;
        for item in &self.items {
            if least > i128::MIN {
                item.set_min(store, least)?;
            }
            least = i128::from(item.min(store)?) + self.gap;
        }
        let mut most = i128::MAX;
        for item in self.items.iter().rev() {
            if most < i128::MAX {
                item.set_max(store, most)?;
            }
            most = i128::from(item.max(store)?) - self.gap;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::fuzz;

    #[test]
    fn chains_agree_with_their_meaning() {
        fuzz(400, |rng| {
            let mut m = Model::new();
            let n = 1 + rng.below(4) as usize;
            let items: Vec<IntArg> = (0..n)
                .map(|_| match rng.below(5) {
                    0 => IntArg::from(rng.below(5) as i64),
                    // Images that repeat, fall or mix.
                    1 => IntArg::from(&m.var([3i64, 1, 1, 4])),
                    _ => {
                        let low = rng.below(4) as i64;
                        IntArg::from(&m.var(low..low + 1 + rng.below(4) as i64))
                    }
                })
                .collect();
            match rng.below(4) {
                0 => m.increasing(items),
                1 => m.strictly_increasing(items),
                2 => m.decreasing(items),
                _ => m.strictly_decreasing(items),
            }
            m
        });
    }
}
