//! Packing: items of constant weights put into bins, each bin's load the sum of its
//! items' weights (MiniZinc's `bin_packing_load`, `bin_packing`, `bin_packing_capa`).
//!
//! Its `Model` methods: bin packing with loads, with one capacity, with a capacity per bin.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{Constraint, Int, IntArg, Meaning, vars_of};
use crate::var::VarId;

/// The most bins a packing without loads given (`bin_packing`) spans: one load variable
/// each.
const MOST_BINS: i64 = 1 << 16;

/// `loads[b] = Σ { weights[i] : bins[i] = offset + b }` for every bin `b`, and every item
/// in a bin (`offset <= bins[i] < offset + loads.len()`). Weights are not negative.
pub(crate) struct BinPacking {
    pub(crate) loads: Vec<Int>,
    pub(crate) bins: Vec<Int>,
    pub(crate) weights: Vec<i64>,
    pub(crate) offset: i64,
    pub(crate) vars: Vec<VarId>,
}

impl BinPacking {
    pub(crate) fn new(loads: Vec<Int>, bins: Vec<Int>, weights: Vec<i64>, offset: i64) -> Self {
        let vars = vars_of(loads.iter().chain(&bins));
        BinPacking {
            loads,
            bins,
            weights,
            offset,
            vars,
        }
    }

    /// The bin number of bin value `value`, if it names a bin.
    pub(crate) fn bin_of(&self, value: i64) -> Option<usize> {
        let b = i128::from(value) - i128::from(self.offset);
        usize::try_from(b).ok().filter(|&b| b < self.loads.len())
    }
}

impl Meaning for BinPacking {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let mut sums = vec![0i128; self.loads.len()];
        for (bin, &w) in self.bins.iter().zip(&self.weights) {
            match self.bin_of(bin.value(values)) {
                Some(b) => sums[b] += i128::from(w),
                None => return false,
            }
        }
        self.loads
            .iter()
            .zip(&sums)
            .all(|(load, &sum)| i128::from(load.value(values)) == sum)
    }

    fn describe(&self) -> String {
        let list = |items: &[Int]| {
            items
                .iter()
                .map(Int::describe)
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "bin packing of weights {:?} into bins [{}] (numbered from {}) with loads [{}]",
            self.weights,
            list(&self.bins),
            self.offset,
            list(&self.loads)
        )
    }
}

impl<'a> Model<'a> {
    /// Items of constant `weights` put into bins: item `i` goes into bin `bins[i]`, and
    /// `loads[b]` is the sum of the weights of the items in bin `b` (MiniZinc's
    /// `bin_packing_load`, bins numbered from 0). Every item is in a bin
    /// (`0 <= bins[i] < loads.len()`). Loads and bins are variables with integer values or
    /// constants (see [`IntArg`]); the weights are constants, not negative.
    ///
    /// The trail engine bounds each load by the weights surely in its bin and those that
    /// may be, removes a bin from an item whose weight no longer fits it, puts an item into
    /// the one bin that cannot reach its least load without it, and bounds the loads
    /// together by the total weight.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Three items of weights 3, 2, 2 into two bins loaded 4 and 3.
    /// let mut m = Model::new();
    /// let bin = m.vars("bin", 3, 0..2i64);
    /// m.bin_packing_load([4, 3], &bin, [3, 2, 2]);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 1); // 2 + 2 in bin 0
    ///
    /// let mut m = Model::new();
    /// let bin = m.vars("bin", 3, 0..2i64);
    /// let load = [m.var(5..=5i64), m.var(0..=7i64)];
    /// m.bin_packing_load(&load, &bin, [3, 2, 2]);
    /// // Bin 0 loaded 5: item 0 and one of the others.
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn bin_packing_load<L: Into<IntArg>, B: Into<IntArg>, W: Into<IntArg>>(
        &mut self,
        loads: impl IntoIterator<Item = L>,
        bins: impl IntoIterator<Item = B>,
        weights: impl IntoIterator<Item = W>,
    ) {
        self.bin_packing_load_offset(loads, bins, weights, 0);
    }

    /// [`bin_packing_load`](Model::bin_packing_load) with bins numbered from `offset`:
    /// `loads[b]` is the load of the bin numbered `offset + b` (FlatZinc numbers them from
    /// the first index of the loads).
    pub fn bin_packing_load_offset<L: Into<IntArg>, B: Into<IntArg>, W: Into<IntArg>>(
        &mut self,
        loads: impl IntoIterator<Item = L>,
        bins: impl IntoIterator<Item = B>,
        weights: impl IntoIterator<Item = W>,
        offset: i64,
    ) {
        let (Some(loads), Some(bins), Some(weights)) =
            (self.ints(loads), self.ints(bins), self.ints(weights))
        else {
            return;
        };
        let Some(weights) = self.weights("bin_packing_load", &bins, &weights) else {
            return;
        };
        if offset.checked_add(loads.len() as i64).is_none() {
            self.invalid(format!(
                "bin_packing_load: bins numbered from {offset} overflow i64"
            ));
            return;
        }
        self.post(Constraint::BinPacking(Arc::new(BinPacking::new(
            loads, bins, weights, offset,
        ))));
    }

    /// Items of constant `weights` put into bins `bins[i]` (any integers) so that no bin
    /// holds more than `capacity` (MiniZinc's `bin_packing`). A load variable stands for
    /// each bin the items' domains span (at most 65,536 bins).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Weights 3, 2, 2 into bins 1 and 2 of capacity 4: item 0 alone, the others together.
    /// let mut m = Model::new();
    /// let bin = m.vars("bin", 3, 1..3i64);
    /// m.bin_packing(4, &bin, [3, 2, 2]);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn bin_packing<B: Into<IntArg>, W: Into<IntArg>>(
        &mut self,
        capacity: i64,
        bins: impl IntoIterator<Item = B>,
        weights: impl IntoIterator<Item = W>,
    ) {
        let (Some(bins), Some(weights)) = (self.ints(bins), self.ints(weights)) else {
            return;
        };
        let Some(weights) = self.weights("bin_packing", &bins, &weights) else {
            return;
        };
        if capacity < 0 {
            self.invalid(format!("bin_packing: a negative capacity, {capacity}"));
            return;
        }
        let Some((low, high)) = bins
            .iter()
            .map(Int::range)
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
        else {
            return; // no item: nothing to pack
        };
        if i128::from(high) - i128::from(low) >= i128::from(MOST_BINS) {
            self.invalid(format!(
                "bin_packing: the items' bins span {low}..={high}, more than {MOST_BINS} bins"
            ));
            return;
        }
        let loads = (low..=high)
            .map(|b| {
                let load = self.named_var(format!("load of bin {b}"), 0..=capacity);
                self.int(&load)
            })
            .collect::<Option<Vec<Int>>>();
        if let Some(loads) = loads {
            self.post(Constraint::BinPacking(Arc::new(BinPacking::new(
                loads, bins, weights, low,
            ))));
        }
    }

    /// Items of constant `weights` put into bins numbered from 0, bin `b` holding at most
    /// `capacities[b]` (MiniZinc's `bin_packing_capa`, its bins numbered from 1: use
    /// [`bin_packing_capa_offset`](Model::bin_packing_capa_offset)).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Weights 3, 2, 2 into bins of capacities 3 and 4.
    /// let mut m = Model::new();
    /// let bin = m.vars("bin", 3, 0..2i64);
    /// m.bin_packing_capa([3, 4], &bin, [3, 2, 2]);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 1);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn bin_packing_capa<C: Into<IntArg>, B: Into<IntArg>, W: Into<IntArg>>(
        &mut self,
        capacities: impl IntoIterator<Item = C>,
        bins: impl IntoIterator<Item = B>,
        weights: impl IntoIterator<Item = W>,
    ) {
        self.bin_packing_capa_offset(capacities, bins, weights, 0);
    }

    /// [`bin_packing_capa`](Model::bin_packing_capa) with bins numbered from `offset`.
    pub fn bin_packing_capa_offset<C: Into<IntArg>, B: Into<IntArg>, W: Into<IntArg>>(
        &mut self,
        capacities: impl IntoIterator<Item = C>,
        bins: impl IntoIterator<Item = B>,
        weights: impl IntoIterator<Item = W>,
        offset: i64,
    ) {
        let Some(capacities) = self.ints(capacities) else {
            return;
        };
        let mut loads = Vec::with_capacity(capacities.len());
        for (b, capacity) in capacities.iter().enumerate() {
            let Int::Const(capacity) = *capacity else {
                self.invalid("bin_packing_capa: the capacities are constants".to_string());
                return;
            };
            // A negative capacity: no load fits, and no packing holds (as MiniZinc means).
            loads.push(self.named_var(format!("load of bin {b}"), 0..=capacity));
        }
        self.bin_packing_load_offset(&loads, bins, weights, offset);
    }

    /// The weights of a packing as constants, one per item, none negative; else the
    /// model is invalid.
    fn weights(&mut self, kind: &str, bins: &[Int], weights: &[Int]) -> Option<Vec<i64>> {
        if weights.len() != bins.len() {
            self.invalid(format!(
                "{kind}: {} items but {} weights (one per item)",
                bins.len(),
                weights.len()
            ));
            return None;
        }
        let mut out = Vec::with_capacity(weights.len());
        for w in weights {
            match *w {
                Int::Const(w) if w >= 0 => out.push(w),
                Int::Const(w) => {
                    self.invalid(format!("{kind}: a negative weight, {w}"));
                    return None;
                }
                Int::Var { .. } => {
                    self.invalid(format!("{kind}: the weights are constants"));
                    return None;
                }
            }
        }
        Some(out)
    }
}
