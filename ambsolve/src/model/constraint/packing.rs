//! Packing: items of constant weights put into bins, each bin's load the sum of its
//! items' weights (MiniZinc's `bin_packing_load`, `bin_packing`, `bin_packing_capa`), and
//! rectangles that do not overlap (`diffn`, `diffn_nonstrict`).
//!
//! Its `Model` methods: bin packing with loads, with one capacity, with a capacity per bin;
//! rectangles placed apart.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{
    Constraint, Cumulative, Int, IntArg, Meaning, describe_all, vars_of,
};
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
        format!(
            "bin packing of weights {:?} into bins [{}] (numbered from {}) with loads [{}]",
            self.weights,
            describe_all(&self.bins),
            self.offset,
            describe_all(&self.loads)
        )
    }
}

/// Rectangles `i` at `(x[i], y[i])` of sizes `(dx[i], dy[i])` pairwise apart: one is
/// left of, right of, below or above the other (MiniZinc's `diffn`; `nonstrict`: a
/// rectangle of width or height 0 may be anywhere, `diffn_nonstrict`).
pub(crate) struct Diffn {
    pub(crate) x: Vec<Int>,
    pub(crate) y: Vec<Int>,
    pub(crate) dx: Vec<Int>,
    pub(crate) dy: Vec<Int>,
    pub(crate) nonstrict: bool,
    pub(crate) vars: Vec<VarId>,
}

impl Diffn {
    pub(crate) fn new(
        x: Vec<Int>,
        y: Vec<Int>,
        dx: Vec<Int>,
        dy: Vec<Int>,
        nonstrict: bool,
    ) -> Self {
        let vars = vars_of(x.iter().chain(&y).chain(&dx).chain(&dy));
        Diffn {
            x,
            y,
            dx,
            dy,
            nonstrict,
            vars,
        }
    }
}

impl Meaning for Diffn {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let read = |items: &[Int]| -> Vec<i128> {
            items.iter().map(|v| i128::from(v.value(values))).collect()
        };
        let (x, y, dx, dy) = (read(&self.x), read(&self.y), read(&self.dx), read(&self.dy));
        (0..x.len()).all(|i| {
            (i + 1..x.len()).all(|j| {
                (self.nonstrict && [dx[i], dx[j], dy[i], dy[j]].contains(&0))
                    || x[i] + dx[i] <= x[j]
                    || x[j] + dx[j] <= x[i]
                    || y[i] + dy[i] <= y[j]
                    || y[j] + dy[j] <= y[i]
            })
        })
    }

    fn describe(&self) -> String {
        format!(
            "{}rectangles apart at x [{}], y [{}] of sizes [{}] by [{}]",
            if self.nonstrict { "non-strict " } else { "" },
            describe_all(&self.x),
            describe_all(&self.y),
            describe_all(&self.dx),
            describe_all(&self.dy)
        )
    }
}

impl<'a> Model<'a> {
    /// Rectangles that do not overlap (MiniZinc's `diffn`, CP-SAT's `no_overlap_2d`):
    /// rectangle `i` has its corner at `(x[i], y[i])` and sizes `dx[i]` by `dy[i]`, and of
    /// any two, one lies left of, right of, below or above the other (`x[i] + dx[i] <=
    /// x[j]`, ..). A rectangle of size 0 still may not lie inside another (see
    /// [`diffn_nonstrict`](Model::diffn_nonstrict)). Corners and sizes are variables or
    /// constants.
    ///
    /// The trail engine places each two rectangles apart by the one side left to them
    /// (bounds on the corner and sizes), and, where no size can be negative, posts the two
    /// projections as [`cumulative`](Model::cumulative)s (the rectangles over any vertical
    /// line fit in the height they all span, and over any horizontal line in the width),
    /// whose time tables prune by area.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Two 2×2 squares and a 4×2 bar in a 4×4 box: the bar above or below the squares,
    /// // the squares side by side (in either order).
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..=2i64);
    /// let y = m.vars("y", 3, 0..=2i64);
    /// m.diffn(&x, &y, [2, 2, 4], [2, 2, 2]);
    /// m.restrict(&x[2], |&v| v == 0); // the bar at x = 0
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 4);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 4);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn diffn<X: Into<IntArg>, Y: Into<IntArg>, W: Into<IntArg>, H: Into<IntArg>>(
        &mut self,
        x: impl IntoIterator<Item = X>,
        y: impl IntoIterator<Item = Y>,
        dx: impl IntoIterator<Item = W>,
        dy: impl IntoIterator<Item = H>,
    ) {
        self.rectangles(x, y, dx, dy, false);
    }

    /// [`diffn`](Model::diffn) where a rectangle of width or height 0 may lie anywhere
    /// (MiniZinc's `diffn_nonstrict`).
    pub fn diffn_nonstrict<X: Into<IntArg>, Y: Into<IntArg>, W: Into<IntArg>, H: Into<IntArg>>(
        &mut self,
        x: impl IntoIterator<Item = X>,
        y: impl IntoIterator<Item = Y>,
        dx: impl IntoIterator<Item = W>,
        dy: impl IntoIterator<Item = H>,
    ) {
        self.rectangles(x, y, dx, dy, true);
    }

    fn rectangles<X: Into<IntArg>, Y: Into<IntArg>, W: Into<IntArg>, H: Into<IntArg>>(
        &mut self,
        x: impl IntoIterator<Item = X>,
        y: impl IntoIterator<Item = Y>,
        dx: impl IntoIterator<Item = W>,
        dy: impl IntoIterator<Item = H>,
        nonstrict: bool,
    ) {
        let (Some(x), Some(y), Some(dx), Some(dy)) =
            (self.ints(x), self.ints(y), self.ints(dx), self.ints(dy))
        else {
            return;
        };
        let kind = if nonstrict {
            "diffn_nonstrict"
        } else {
            "diffn"
        };
        for (what, items) in [("y", &y), ("dx", &dx), ("dy", &dy)] {
            if items.len() != x.len() {
                self.invalid(format!(
                    "{kind}: {} x but {} {what} (one per rectangle)",
                    x.len(),
                    items.len()
                ));
                return;
            }
        }
        // The projections: over any vertical line, the rectangles crossing it lie apart
        // in height, within the height all of them span (and the same across).
        let sizes_natural = dx.iter().chain(&dy).all(|d| d.range().0 >= 0);
        if sizes_natural && x.len() > 1 {
            let span = |at: &[Int], size: &[Int]| -> Option<i64> {
                let low = at.iter().map(|a| a.range().0).min()?;
                let high = at
                    .iter()
                    .zip(size)
                    .map(|(a, d)| i128::from(a.range().1) + i128::from(d.range().1))
                    .max()?;
                i64::try_from(high - i128::from(low)).ok()
            };
            if let (Some(height), Some(width)) = (span(&y, &dy), span(&x, &dx)) {
                self.post(Constraint::Cumulative(Arc::new(Cumulative::new(
                    x.clone(),
                    dx.clone(),
                    dy.clone(),
                    Int::Const(height),
                ))));
                self.post(Constraint::Cumulative(Arc::new(Cumulative::new(
                    y.clone(),
                    dy.clone(),
                    dx.clone(),
                    Int::Const(width),
                ))));
            }
        }
        self.post(Constraint::Diffn(Arc::new(Diffn::new(
            x, y, dx, dy, nonstrict,
        ))));
    }

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
                self.mark_auxiliary(load.id());
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
