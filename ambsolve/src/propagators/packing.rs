//! Bin packing with loads (`loads[b] = Σ { w[i] : bins[i] = offset + b }`): each load
//! between the weights surely in its bin and those that may be; the loads together equal
//! the total weight; a bin leaves an item whose weight no longer fits it, and an item goes
//! into the one bin whose least load needs it. Run to its own fixpoint.
//!
//! It explains what it prunes (a search that learns): a load's least by the items fixed
//! in its bin (or the other loads' greatest), its greatest by the items that lack the bin
//! (or the other loads' least); a bin gone from an item by the bin's greatest load and the
//! items fixed in it; an item put into a bin by the bin's least load and the items that
//! lack it. Failures fall back on the run's domains.

use crate::choice::Fail;
use crate::model::{BinPacking, Kind};
use crate::propagator::BuiltinPropagator;
use crate::propagators::to_fixpoint;
use crate::propagators::view::{Change, IntView, all_explainable};
use crate::store::{Atoms, Pred, Rel, Store};
use crate::var::VarId;

pub(crate) struct BinPackingProp {
    loads: Vec<IntView>,
    bins: Vec<IntView>,
    weights: Vec<i128>,
    offset: i128,
    total: i128,
    scope: Vec<VarId>,
    /// Whether explanations can read every view by its bounds, no variable repeating.
    explainable: bool,
    /// Scratch, per bin: the weights surely in it and those that may be.
    required: Vec<i128>,
    possible: Vec<i128>,
}

impl BinPackingProp {
    pub(crate) fn new(def: &BinPacking) -> Self {
        let loads: Vec<IntView> = def.loads.iter().map(IntView::new).collect();
        let bins: Vec<IntView> = def.bins.iter().map(IntView::new).collect();
        let explainable = all_explainable(&def.vars, loads.iter().chain(&bins));
        let weights: Vec<i128> = def.weights.iter().map(|&w| i128::from(w)).collect();
        BinPackingProp {
            required: vec![0; loads.len()],
            possible: vec![0; loads.len()],
            total: weights.iter().sum(),
            loads,
            bins,
            weights,
            offset: i128::from(def.offset),
            scope: def.vars.clone(),
            explainable,
        }
    }

    /// The bin a value names, if it names one.
    fn bin(&self, value: i128) -> Option<usize> {
        usize::try_from(value - self.offset)
            .ok()
            .filter(|&b| b < self.loads.len())
    }

    /// The value that names bin `b`.
    fn value(&self, b: usize) -> i128 {
        self.offset + b as i128
    }

    /// One reading of the items and loads; whether it pruned.
    fn pass(&mut self, store: &mut Store) -> Result<(), Fail> {
        let last = self.value(self.loads.len()) - 1;
        self.required.fill(0);
        self.possible.fill(0);
        for (bin, &w) in self.bins.iter().zip(&self.weights) {
            bin.keep_within(store, self.offset, last)?;
            if let Some(v) = bin.fixed(store) {
                let b = self.bin(i128::from(v)).ok_or(Fail)?;
                self.required[b] += w;
                self.possible[b] += w;
            } else {
                let mut last_seen = None;
                for v in bin.values(store) {
                    // Values repeat where images do: each bin counted once.
                    if last_seen == Some(v) {
                        continue;
                    }
                    last_seen = Some(v);
                    let b = self.bin(i128::from(v)).ok_or(Fail)?;
                    self.possible[b] += w;
                }
            }
        }
        let (mut sum_min, mut sum_max) = (0i128, 0i128);
        for (b, load) in self.loads.iter().enumerate() {
            load.set_min(store, self.required[b])?;
            load.set_max(store, self.possible[b])?;
            sum_min += i128::from(load.min(store)?);
            sum_max += i128::from(load.max(store)?);
        }
        if sum_min > self.total || sum_max < self.total {
            return Err(Fail);
        }
        for load in &self.loads {
            let (low, high) = (i128::from(load.min(store)?), i128::from(load.max(store)?));
            load.set_min(store, self.total - (sum_max - high))?;
            load.set_max(store, self.total - (sum_min - low))?;
        }
        for (i, bin) in self.bins.iter().enumerate() {
            if bin.fixed(store).is_some() {
                continue;
            }
            let w = self.weights[i];
            let values: Vec<i64> = bin.values(store).collect();
            for v in values {
                let Some(b) = self.bin(i128::from(v)) else {
                    continue;
                };
                let load = &self.loads[b];
                if self.required[b] + w > i128::from(load.max(store)?) {
                    bin.remove(store, i128::from(v))?;
                } else if self.possible[b] - w < i128::from(load.min(store)?) {
                    bin.fix(store, i128::from(v))?;
                    break;
                }
            }
        }
        Ok(())
    }
}

/// Explanations (a search that learns).
impl BinPackingProp {
    /// The most values a bin's end passed over that an explanation lists one by one.
    const EXPLAINED_VALUES: u32 = 256;

    /// Whether item `j` was fixed in bin `b` before `at`.
    fn fixed_in(&self, j: usize, b: usize, atoms: &Atoms, at: u32) -> bool {
        let value = self.value(b);
        self.bins[j].bounds_before(atoms, at) == (value, value)
    }

    /// Appends why items but `skip` fixed in bin `b` before `at` weigh `least` or more;
    /// `false` if they do not.
    fn explain_required(
        &self,
        b: usize,
        least: i128,
        skip: Option<usize>,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let mut sum = 0;
        let value = self.value(b);
        for j in 0..self.bins.len() {
            if sum >= least {
                break;
            }
            if Some(j) == skip || self.weights[j] == 0 || !self.fixed_in(j, b, atoms, at) {
                continue;
            }
            self.bins[j].explain_within(value, value, out);
            sum += self.weights[j];
        }
        sum >= least
    }

    /// Appends why the items but `skip` that may go into bin `b` before `at` weigh `most`
    /// or less (those that lack it); `false` if they weigh more.
    fn explain_excluded(
        &self,
        b: usize,
        most: i128,
        skip: Option<usize>,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let value = self.value(b);
        let others: i128 = (0..self.bins.len())
            .filter(|&j| Some(j) != skip)
            .map(|j| self.weights[j])
            .sum();
        let mut excess = others - most;
        // The heaviest items that lack the bin first: the fewest predicates.
        let mut lacking: Vec<usize> = (0..self.bins.len())
            .filter(|&j| {
                Some(j) != skip && self.weights[j] > 0 && !self.bins[j].had_before(atoms, at, value)
            })
            .collect();
        lacking.sort_unstable_by_key(|&j| std::cmp::Reverse(self.weights[j]));
        for j in lacking {
            if excess <= 0 {
                break;
            }
            if !self.bins[j].explain_lacks(atoms, at, value, out) {
                return false;
            }
            excess -= self.weights[j];
        }
        excess <= 0
    }

    /// Appends why load `b` is at least `least` before `at`.
    fn explain_load_min(
        &self,
        b: usize,
        least: i128,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let from = out.len();
        if self.explain_required(b, least, None, atoms, at, out) {
            return true;
        }
        out.truncate(from);
        // The other loads at their greatest leave the rest of the total to this one.
        let mut others = 0;
        for (c, load) in self.loads.iter().enumerate() {
            if c != b {
                let (_, high) = load.bounds_before(atoms, at);
                load.explain_within(i128::MIN, high, out);
                others += high;
            }
        }
        if self.total - others >= least {
            return true;
        }
        out.truncate(from);
        false
    }

    /// Appends why load `b` is at most `most` before `at`.
    fn explain_load_max(
        &self,
        b: usize,
        most: i128,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let from = out.len();
        if self.explain_excluded(b, most, None, atoms, at, out) {
            return true;
        }
        out.truncate(from);
        let mut others = 0;
        for (c, load) in self.loads.iter().enumerate() {
            if c != b {
                let (low, _) = load.bounds_before(atoms, at);
                load.explain_within(low, i128::MAX, out);
                others += low;
            }
        }
        if self.total - others <= most {
            return true;
        }
        out.truncate(from);
        false
    }

    /// Appends why item `i` cannot go into bin `b` before `at`: the items fixed there and
    /// the bin's greatest load leave no room for its weight.
    fn explain_full(
        &self,
        i: usize,
        b: usize,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let (_, high) = self.loads[b].bounds_before(atoms, at);
        let from = out.len();
        self.loads[b].explain_within(i128::MIN, high, out);
        if self.explain_required(b, high - self.weights[i] + 1, Some(i), atoms, at, out) {
            return true;
        }
        out.truncate(from);
        false
    }

    /// Appends why item `i` must go into bin `b` before `at`: the others that may go there
    /// fall short of its least load.
    fn explain_needed(
        &self,
        i: usize,
        b: usize,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let (low, _) = self.loads[b].bounds_before(atoms, at);
        let from = out.len();
        self.loads[b].explain_within(low, i128::MAX, out);
        if self.explain_excluded(b, low - 1, Some(i), atoms, at, out) {
            return true;
        }
        out.truncate(from);
        false
    }

    /// Appends why `pred` on item `i`'s bin holds: each bin it removed full, or the item
    /// needed in a bin `pred` keeps.
    fn explain_bin(
        &self,
        i: usize,
        pred: Pred,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let bin = &self.bins[i];
        let from = out.len();
        let removed: Option<Vec<u32>> = if pred.rel == Rel::Ne {
            Some(vec![pred.value])
        } else if pred.rel == Rel::Eq {
            None
        } else {
            atoms
                .removed_by(at, pred, Self::EXPLAINED_VALUES, out)
                .map(Iterator::collect)
        };
        if let Some(removed) = removed {
            let all = removed.iter().all(|&u| match self.bin(bin.image(u)) {
                Some(b) => self.explain_full(i, b, atoms, at, out),
                None => true, // a value naming no bin: the constraint alone
            });
            if all {
                return true;
            }
        }
        out.truncate(from);
        // Needed in one bin that `pred` keeps.
        for b in 0..self.loads.len() {
            let value = self.value(b);
            let keeps = bin.indices_of(value).iter().any(|&u| pred.accepts(u));
            if keeps
                && bin.had_before(atoms, at, value)
                && self.explain_needed(i, b, atoms, at, out)
            {
                return true;
            }
        }
        out.truncate(from);
        false
    }

    /// Appends why the run failed: a bin overfull or short, or the loads off the total.
    fn explain_failure(&self, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        for (b, load) in self.loads.iter().enumerate() {
            let (low, high) = load.bounds_before(atoms, at);
            let from = out.len();
            load.explain_within(i128::MIN, high, out);
            if self.explain_required(b, high + 1, None, atoms, at, out) {
                return true;
            }
            out.truncate(from);
            load.explain_within(low, i128::MAX, out);
            if self.explain_excluded(b, low - 1, None, atoms, at, out) {
                return true;
            }
            out.truncate(from);
        }
        let bounds: Vec<(i128, i128)> = self
            .loads
            .iter()
            .map(|l| l.bounds_before(atoms, at))
            .collect();
        if bounds.iter().map(|b| b.0).sum::<i128>() > self.total {
            for (load, &(low, _)) in self.loads.iter().zip(&bounds) {
                load.explain_within(low, i128::MAX, out);
            }
            return true;
        }
        if bounds.iter().map(|b| b.1).sum::<i128>() < self.total {
            for (load, &(_, high)) in self.loads.iter().zip(&bounds) {
                load.explain_within(i128::MIN, high, out);
            }
            return true;
        }
        false
    }
}

impl<'a> Kind<'a> for BinPacking {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(BinPackingProp::new(self))
    }
}

impl BuiltinPropagator for BinPackingProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn explains(&self) -> bool {
        self.explainable
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some(pred) = pred else {
            return self.explain_failure(atoms, at, out);
        };
        let var = Some(pred.var as usize);
        if let Some(b) = self.loads.iter().position(|l| l.var() == var) {
            return match self.loads[b].change(atoms, at, pred) {
                Some(Change::AtLeast(least)) => self.explain_load_min(b, least, atoms, at, out),
                Some(Change::AtMost(most)) => self.explain_load_max(b, most, atoms, at, out),
                _ => false,
            };
        }
        match self.bins.iter().position(|bin| bin.var() == var) {
            Some(i) => self.explain_bin(i, pred, atoms, at, out),
            None => false,
        }
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let scope = std::mem::take(&mut self.scope);
        let result = to_fixpoint(store, &scope, |store| self.pass(store));
        self.scope = scope;
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::{arg, fuzz};

    /// A packing of up to four items into one to three bins numbered from -1, 0 or 1:
    /// with `explainable`, every argument a constant or a variable over consecutive
    /// values (bins sometimes naming no bin), else any argument.
    fn packing(rng: &mut Rng, explainable: bool) -> Model<'static> {
        let mut m = Model::new();
        let bins = 1 + rng.below(3) as i64;
        let offset = rng.below(3) as i64 - 1;
        let draw = |m: &mut Model<'static>, rng: &mut Rng, low: i64, high: i64| -> IntArg {
            if !explainable {
                return arg(m, rng);
            }
            if rng.below(5) == 0 {
                return IntArg::from(low + rng.below((high - low + 1) as u64) as i64);
            }
            let from = low + rng.below(2) as i64;
            let to = (from + rng.below(4) as i64).min(high);
            IntArg::from(&m.var(from..=to.max(from)))
        };
        let items = rng.below(5);
        let weights: Vec<i64> = (0..items).map(|_| rng.below(4) as i64).collect();
        let loads: Vec<IntArg> = (0..bins).map(|_| draw(&mut m, rng, 0, 6)).collect();
        let item_bins: Vec<IntArg> = (0..items)
            .map(|_| draw(&mut m, rng, offset - 1, offset + bins))
            .collect();
        m.bin_packing_load_offset(loads, item_bins, weights, offset);
        m
    }

    #[test]
    fn bin_packing_agrees_with_its_meaning() {
        fuzz(300, |rng| packing(rng, true));
        fuzz(300, |rng| packing(rng, false));
    }
}
