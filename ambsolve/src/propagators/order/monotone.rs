//! `x[0] <= x[1] <= ..` (and its variants) by bounds: a pass forward raises each item's
//! least value to its predecessor's (plus one if strict), a pass backward lowers each
//! item's largest value to its successor's. One pass each way reaches the fixpoint, and
//! is bounds consistent.

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::Monotone;
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::IntView;
use crate::store::{Atoms, BOUNDS, Pred, Rel, Store};
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

    fn explains(&self) -> bool {
        self.items.iter().all(IntView::explainable)
    }

    /// An item's least value raised, by its predecessor's least value; its largest
    /// lowered, by its successor's largest; a failure, by two neighbours whose bounds
    /// cross. Each bound lifted to what the change needs.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let bounds = |k: usize| self.items[k].bounds_before(atoms, at);
        let n = self.items.len();
        let Some(pred) = pred else {
            // Neighbours k, k + 1 with x[k] + gap > x[k + 1] at their bounds.
            let Some(k) =
                (0..n.saturating_sub(1)).find(|&k| bounds(k).0 + self.gap > bounds(k + 1).1)
            else {
                return false;
            };
            let most = bounds(k + 1).1;
            self.items[k].explain_within(most + 1 - self.gap, i128::MAX, out);
            self.items[k + 1].explain_within(i128::MIN, most, out);
            return true;
        };
        let var = pred.var as usize;
        let same = |k: usize| self.items[k].var() == Some(var);
        match pred.rel {
            Rel::Ge => {
                // An item over the variable (its own images give the bound the change
                // needs) whose predecessor's least value makes it.
                let below = atoms.left_below(var, pred.value, at);
                let need = |k: usize| self.items[k].image(below) + 1;
                let Some(k) = (1..n).find(|&k| same(k) && bounds(k - 1).0 + self.gap >= need(k))
                else {
                    return false;
                };
                self.items[k - 1].explain_within(need(k) - self.gap, i128::MAX, out);
            }
            Rel::Le => {
                let above = atoms.left_above(var, pred.value, at);
                let most = |k: usize| self.items[k].image(above) - 1;
                let Some(k) = (0..n.saturating_sub(1))
                    .find(|&k| same(k) && bounds(k + 1).1 - self.gap <= most(k))
                else {
                    return false;
                };
                self.items[k + 1].explain_within(i128::MIN, most(k) + self.gap, out);
            }
            Rel::Eq | Rel::Ne => return false,
        }
        true
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

    #[test]
    fn chains_under_a_sum_agree_with_their_meaning() {
        // A sum that the chain's bounds cannot settle alone: the learning search meets
        // conflicts, and asks the chain why it moved its bounds (checked under
        // `debug-checks`).
        use crate::model::Cmp;
        fuzz(1000, |rng| {
            let mut m = Model::new();
            let n = 3 + rng.below(3) as usize;
            let items: Vec<_> = (0..n)
                .map(|_| {
                    let low = rng.below(4) as i64;
                    m.var(low..low + 3 + rng.below(4) as i64)
                })
                .collect();
            let total = rng.below(4 * n as u64) as i64 + n as i64;
            // Coefficients of both signs, so that a bound of the chain raised can fail.
            let coef = |rng: &mut crate::propagators::checker::Rng| match rng.below(3) {
                0 => -1,
                1 => 1,
                _ => 2,
            };
            let terms: Vec<(i64, _)> = items.iter().map(|x| (coef(rng), x)).collect();
            m.linear(terms, Cmp::Eq, total);
            let items: Vec<IntArg> = items.iter().map(IntArg::from).collect();
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
