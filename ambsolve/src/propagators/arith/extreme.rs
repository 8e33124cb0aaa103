//! `z = max(items)` (and `min`, read through negation): `z` between the greatest least
//! value and the greatest value of the items; every item at most `z`'s greatest; the one
//! item (or one variable) that alone can reach `z`'s least is at least that, and takes
//! only `z`'s values. Bounds consistent at its fixpoint; `z` keeps only the items' values
//! once few are left.

use crate::choice::Fail;
use crate::model::Extreme;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::arith::pairs::{keep_members_of, keep_values_of};
use crate::propagators::arith::{ROUNDS, wakes};
use crate::propagators::view::IntView;
use crate::store::Store;
use crate::var::VarId;

pub(crate) struct ExtremeProp {
    items: Vec<IntView>,
    z: IntView,
    /// `min`: every value read negated, so that the reasoning is `max`'s.
    negated: bool,
    scope: Vec<VarId>,
    wakes: Vec<u8>,
}

impl ExtremeProp {
    pub(crate) fn new(def: &Extreme) -> Self {
        let items: Vec<IntView> = def.items.iter().map(IntView::new).collect();
        let z = IntView::new(&def.z);
        let views: Vec<&IntView> = items.iter().chain([&z]).collect();
        ExtremeProp {
            wakes: wakes(&views),
            items,
            z,
            negated: !def.greatest,
            scope: def.vars.clone(),
        }
    }

    /// The least value of `view`, as the reasoning reads it.
    fn low(&self, view: &IntView, store: &Store) -> Result<i128, Fail> {
        Ok(if self.negated {
            -i128::from(view.max(store)?)
        } else {
            i128::from(view.min(store)?)
        })
    }

    /// The greatest value of `view`, as the reasoning reads it.
    fn high(&self, view: &IntView, store: &Store) -> Result<i128, Fail> {
        Ok(if self.negated {
            -i128::from(view.min(store)?)
        } else {
            i128::from(view.max(store)?)
        })
    }

    /// Keeps the values of `view` in `low..=high`, as the reasoning reads them.
    fn keep(&self, view: &IntView, store: &mut Store, low: i128, high: i128) -> Result<bool, Fail> {
        if self.negated {
            view.keep_within(store, -high, -low)
        } else {
            view.keep_within(store, low, high)
        }
    }

    /// One round of bounds reasoning. Returns whether a domain changed, and the item
    /// that alone can reach `z`'s least value, if one does.
    fn round(&self, store: &mut Store) -> Result<(bool, Option<usize>), Fail> {
        let (mut low, mut high) = (i128::MIN, i128::MIN);
        for item in &self.items {
            low = low.max(self.low(item, store)?);
            high = high.max(self.high(item, store)?);
        }
        let mut changed = self.keep(&self.z, store, low, high)?;
        let (zl, zh) = (self.low(&self.z, store)?, self.high(&self.z, store)?);
        for item in &self.items {
            changed |= self.keep(item, store, -i128::MAX, zh)?;
        }
        // The items that can reach zl: if they are one variable (or one item), it is z.
        let mut reaching = None;
        for (k, item) in self.items.iter().enumerate() {
            if self.high(item, store)? < zl {
                continue;
            }
            match reaching {
                None => reaching = Some(Some(k)),
                Some(Some(r)) if self.items[r].same_as(item) => {}
                Some(_) => reaching = Some(None),
            }
        }
        let only = reaching.ok_or(Fail)?;
        if let Some(k) = only {
            changed |= self.keep(&self.items[k], store, zl, i128::MAX)?;
        }
        Ok((changed, only))
    }

    /// `z` keeps the items' values, and the one item that must be `z` keeps `z`'s, where
    /// few are left.
    fn values(&self, store: &mut Store, only: Option<usize>) -> Result<(), Fail> {
        keep_values_of(&self.z, store, self.items.iter())?;
        if let Some(k) = only {
            let item = &self.items[k];
            if item.var().is_some() && item.var() != self.z.var() {
                keep_members_of(item, store, &self.z)?;
            }
        }
        Ok(())
    }
}

impl<'a> Kind<'a> for Extreme {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(ExtremeProp::new(self))
    }
}

impl BuiltinPropagator for ExtremeProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, local: usize) -> u8 {
        self.wakes[local]
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let mut only = None;
        for _ in 0..ROUNDS {
            let (changed, reaching) = self.round(store)?;
            only = reaching;
            if !changed {
                break;
            }
        }
        self.values(store, only)?;
        // Decide, whatever this propagation fixed.
        let fixed: Option<Vec<i64>> = self.items.iter().map(|i| i.fixed(store)).collect();
        if let (Some(items), Some(z)) = (fixed, self.z.fixed(store)) {
            let extreme = if self.negated {
                items.into_iter().min()
            } else {
                items.into_iter().max()
            };
            if extreme != Some(z) {
                return Err(Fail);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Constraint, IntArg, Model};
    use crate::propagators::arith::tests::{
        after_propagation, ends_supported, int_arg, values_supported,
    };
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    fn make(rng: &mut Rng) -> Model<'static> {
        {
            let mut m = Model::new();
            let n = 1 + rng.below(4) as usize;
            let mut items: Vec<IntArg> = Vec::new();
            for _ in 0..n {
                // An item repeated, or a new one.
                let item = match rng.below(5) {
                    0 if !items.is_empty() => items[rng.below(items.len() as u64) as usize].clone(),
                    _ => int_arg(&mut m, rng),
                };
                items.push(item);
            }
            let z = match rng.below(5) {
                0 => items[0].clone(),
                _ => int_arg(&mut m, rng),
            };
            if rng.below(2) == 0 {
                m.max(items, z);
            } else {
                m.min(items, z);
            }
            m
        }
    }

    #[test]
    fn least_and_greatest_agree_with_their_meaning() {
        fuzz(800, make);
    }

    #[test]
    fn least_and_greatest_are_bounds_consistent_and_keep_only_values_of_the_items() {
        after_propagation(800, make, |global, store| {
            let Constraint::Extreme(def) = global else {
                return Ok(());
            };
            let mut args = def.items.clone();
            args.push(def.z.clone());
            let greatest = def.greatest;
            ends_supported(&args, store, |v| {
                let items = v[..v.len() - 1].iter().copied();
                let extreme = if greatest { items.max() } else { items.min() };
                extreme == Some(v[v.len() - 1])
            })?;
            match def.z.var() {
                Some(z) => values_supported(global, store, |v, _| v == z.index()),
                None => Ok(()),
            }
        });
    }
}
