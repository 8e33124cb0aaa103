//! `z = max(items)` (and `min`, read through negation): `z` between the greatest least
//! value and the greatest value of the items; every item at most `z`'s greatest; the one
//! item (or one variable) that alone can reach `z`'s least is at least that, and takes
//! only `z`'s values. Bounds consistent at its fixpoint; `z` keeps only the items' values
//! once few are left (not in a search that learns: see [`domain_pass`]).
//!
//! It explains what it prunes (a search that learns) by the bounds that made it, read
//! before the change and lifted to what the change needs; a value gone from `z` by every
//! item lacking it; a value gone from the one item that must be `z` by `z` lacking it.

use crate::choice::Fail;
use crate::model::Extreme;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::arith::pairs::{keep_members_of, keep_values_of};
use crate::propagators::arith::{ROUNDS, wakes};
use crate::propagators::domain_pass;
use crate::propagators::view::{Change, IntView};
use crate::store::{Atoms, Pred, Store};
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

/// Explanations (a search that learns), in the reasoning's values.
impl ExtremeProp {
    /// The ends of `view` before trail position `at`, as the reasoning reads them.
    fn bounds_before(&self, view: &IntView, atoms: &Atoms, at: u32) -> (i128, i128) {
        let (low, high) = view.bounds_before(atoms, at);
        if self.negated {
            (-high, -low)
        } else {
            (low, high)
        }
    }

    /// Appends that `view`, as the reasoning reads it, is at least `least`.
    fn explain_at_least(&self, view: &IntView, least: i128, out: &mut Vec<Pred>) {
        if self.negated {
            view.explain_within(i128::MIN, -least, out);
        } else {
            view.explain_within(least, i128::MAX, out);
        }
    }

    /// Appends that `view`, as the reasoning reads it, is at most `most`.
    fn explain_at_most(&self, view: &IntView, most: i128, out: &mut Vec<Pred>) {
        if self.negated {
            view.explain_within(-most, i128::MAX, out);
        } else {
            view.explain_within(i128::MIN, most, out);
        }
    }

    /// What `pred`, made at `at`, says of `view` (over its variable), as the reasoning
    /// reads it (a value gone, in the view's own values).
    fn need(&self, view: &IntView, atoms: &Atoms, at: u32, pred: Pred) -> Option<Change> {
        Some(match (view.change(atoms, at, pred)?, self.negated) {
            (Change::AtLeast(least), false) | (Change::AtMost(least), true) => {
                Change::AtLeast(if self.negated { -least } else { least })
            }
            (Change::AtMost(most), false) | (Change::AtLeast(most), true) => {
                Change::AtMost(if self.negated { -most } else { most })
            }
            (Change::Lacks(value), _) => Change::Lacks(value),
        })
    }

    /// The items other than item `k` (and its copies), as `Some` where `k` is an item.
    fn others(&self, k: Option<usize>) -> impl Iterator<Item = &IntView> {
        self.items
            .iter()
            .filter(move |item| k.is_none_or(|k| !self.items[k].same_as(item)))
    }

    /// Appends why item `k` must be `z`: `z` at least some `m` that every other item is
    /// below (the least such `m` that is at least `least`); `false` if that did not hold.
    fn explain_only(
        &self,
        k: usize,
        least: i128,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let above_others = self
            .others(Some(k))
            .map(|item| self.bounds_before(item, atoms, at).1 + 1)
            .max();
        let m = above_others.map_or(least, |m| m.max(least));
        if m > i128::MIN && self.bounds_before(&self.z, atoms, at).0 < m {
            return false;
        }
        if m > i128::MIN {
            self.explain_at_least(&self.z, m, out);
        }
        for item in self.others(Some(k)) {
            self.explain_at_most(item, m - 1, out);
        }
        true
    }

    /// Appends why `need` holds of `z`; `false` where no rule of ours makes it.
    fn explain_z(&self, need: Change, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        match need {
            // An item already that high.
            Change::AtLeast(least) => {
                let Some(item) = self
                    .items
                    .iter()
                    .find(|item| self.bounds_before(item, atoms, at).0 >= least)
                else {
                    return false;
                };
                self.explain_at_least(item, least, out);
            }
            // Every item that low.
            Change::AtMost(most) => {
                if self
                    .items
                    .iter()
                    .any(|item| self.bounds_before(item, atoms, at).1 > most)
                {
                    return false;
                }
                for item in &self.items {
                    self.explain_at_most(item, most, out);
                }
            }
            // No item has it.
            Change::Lacks(value) => {
                for item in &self.items {
                    if !item.explain_lacks(atoms, at, value, out) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Appends why `need` holds of item `k`; `false` where no rule of ours makes it.
    fn explain_item(
        &self,
        k: usize,
        need: Change,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        match need {
            // `z` that low.
            Change::AtMost(most) => {
                if self.bounds_before(&self.z, atoms, at).1 > most {
                    return false;
                }
                self.explain_at_most(&self.z, most, out);
                true
            }
            // It alone can make `z`, which is that high.
            Change::AtLeast(least) => self.explain_only(k, least, atoms, at, out),
            // It alone can make `z`, which lacks the value.
            Change::Lacks(value) => {
                self.z.explain_lacks(atoms, at, value, out)
                    && self.explain_only(k, i128::MIN, atoms, at, out)
            }
        }
    }

    /// Appends why the run failed: an item above `z`'s greatest value, or every item
    /// below its least.
    fn explain_failure(&self, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        let (zl, zh) = self.bounds_before(&self.z, atoms, at);
        if let Some(item) = self
            .items
            .iter()
            .find(|item| self.bounds_before(item, atoms, at).0 > zh)
        {
            self.explain_at_least(item, zh + 1, out);
            self.explain_at_most(&self.z, zh, out);
            return true;
        }
        let Some(high) = self
            .items
            .iter()
            .map(|item| self.bounds_before(item, atoms, at).1)
            .max()
        else {
            return false;
        };
        if high >= zl {
            return false;
        }
        for item in &self.items {
            self.explain_at_most(item, high, out);
        }
        self.explain_at_least(&self.z, high + 1, out);
        true
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

    fn explains(&self) -> bool {
        self.items.iter().chain([&self.z]).all(IntView::explainable)
    }

    /// By `z`'s rules or an item's, whichever holds of the variable before the change.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some(pred) = pred else {
            return self.explain_failure(atoms, at, out);
        };
        let var = Some(pred.var as usize);
        let from = out.len();
        if self.z.var() == var {
            if let Some(need) = self.need(&self.z, atoms, at, pred) {
                if self.explain_z(need, atoms, at, out) {
                    return true;
                }
            }
            out.truncate(from);
        }
        for (k, item) in self.items.iter().enumerate() {
            if item.var() != var {
                continue;
            }
            if let Some(need) = self.need(item, atoms, at, pred) {
                if self.explain_item(k, need, atoms, at, out) {
                    return true;
                }
            }
            out.truncate(from);
        }
        false
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
        if domain_pass(store) {
            self.values(store, only)?;
        }
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
    use crate::model::{Cmp, Constraint, IntArg, Model};
    use crate::propagators::arith::tests::{
        after_propagation, ends_supported, int_arg, values_supported,
    };
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;
    use crate::var::Var;

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

    #[cfg(feature = "debug-checks")]
    #[test]
    fn least_and_greatest_explain_what_they_prune() {
        crate::propagators::checker::tests::fuzz_explanations(2000, make);
    }

    /// Two extremes that share variables (values struck out, a constant among the items),
    /// under a sum and at times an all-different: conflicts below the root, so that under `debug-checks` the learning
    /// search checks the explanations of both kinds.
    #[test]
    fn extremes_under_a_sum_agree_with_their_meaning() {
        fuzz(400, |rng| {
            let mut m = Model::new();
            let vars: Vec<Var<i64>> = (0..7)
                .map(|_| {
                    let low = rng.below(3) as i64 - 1;
                    let var = m.var(low..low + 3 + rng.below(3) as i64);
                    if rng.below(2) == 0 {
                        let gone = low + 1 + rng.below(2) as i64;
                        m.restrict(&var, move |&v| v != gone);
                    }
                    var
                })
                .collect();
            for _ in 0..3 {
                let mut items: Vec<IntArg> = (0..2 + rng.below(2))
                    .map(|_| IntArg::from(&vars[rng.below(7) as usize]))
                    .collect();
                if rng.below(3) == 0 {
                    items.push(IntArg::from(rng.below(4) as i64 - 1));
                }
                let z = IntArg::from(&vars[rng.below(7) as usize]);
                if rng.below(2) == 0 {
                    m.max(items, z);
                } else {
                    m.min(items, z);
                }
            }
            let terms: Vec<(i64, &Var<i64>)> = vars
                .iter()
                .enumerate()
                .map(|(k, v)| (if k % 2 == 0 { 1 } else { -2 }, v))
                .collect();
            let cmp = if rng.below(2) == 0 { Cmp::Le } else { Cmp::Ge };
            m.linear(terms, cmp, rng.below(5) as i64 - 2);
            // Reasoning on values, so that the values gone are asked about too.
            if rng.below(2) == 0 {
                m.all_different_offset(vars[..4].iter().map(|v| (v, 0)));
            }
            m
        });
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
