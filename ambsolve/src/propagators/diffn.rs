//! Rectangles apart (`diffn`, `diffn_nonstrict`), pair by pair: of the four sides one
//! rectangle may lie on of another (`x[i] + dx[i] <= x[j]`, `x[j] + dx[j] <= x[i]`, and
//! the same in `y`), and, non-strict, a size 0, those the bounds leave possible; none is a
//! failure, one is made true (bounds on the corner and the size it reads). Run to its own
//! fixpoint. The area reasoning is the two projections' `cumulative`s, which
//! `Model::diffn` posts beside it.
//!
//! It explains what it prunes (a search that learns): the bounds that rule out the other
//! sides, and those of the side made true that give the bound.

use crate::choice::Fail;
use crate::model::{Diffn, Kind};
use crate::propagator::BuiltinPropagator;
use crate::propagators::to_fixpoint;
use crate::propagators::view::{Change, IntView, all_explainable};
use crate::store::{Atoms, Pred, Store};
use crate::var::VarId;

/// One way two rectangles may stand apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    /// `at[a] + size[a] <= at[b]` on axis `axis` (0: x, 1: y).
    Before { axis: usize, a: usize, b: usize },
    /// `size[axis][a] == 0` (non-strict only).
    Empty { axis: usize, a: usize },
}

/// Where a variable stands: the corner (`corner`) or the size of rectangle `item` on
/// axis `axis`.
#[derive(Clone, Copy)]
struct Slot {
    corner: bool,
    axis: usize,
    item: usize,
}

pub(crate) struct DiffnProp {
    /// Corners and sizes, by axis.
    at: [Vec<IntView>; 2],
    size: [Vec<IntView>; 2],
    nonstrict: bool,
    scope: Vec<VarId>,
    explainable: bool,
    /// The bounds a pass reads (kept to reuse the allocation).
    bounds: Vec<Bounds>,
}

impl DiffnProp {
    pub(crate) fn new(def: &Diffn) -> Self {
        let views = |items: &[crate::model::Int]| -> Vec<IntView> {
            items.iter().map(IntView::new).collect()
        };
        let at = [views(&def.x), views(&def.y)];
        let size = [views(&def.dx), views(&def.dy)];
        let explainable = all_explainable(&def.vars, at.iter().chain(&size).flatten());
        DiffnProp {
            at,
            size,
            nonstrict: def.nonstrict,
            scope: def.vars.clone(),
            explainable,
            bounds: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.at[0].len()
    }

    /// The ways rectangles `i` and `j` may stand apart.
    fn sides(&self, i: usize, j: usize) -> impl Iterator<Item = Side> + '_ {
        let before = (0..2).flat_map(move |axis| {
            [
                Side::Before { axis, a: i, b: j },
                Side::Before { axis, a: j, b: i },
            ]
        });
        let empty =
            (0..2).flat_map(move |axis| [Side::Empty { axis, a: i }, Side::Empty { axis, a: j }]);
        before.chain(empty.filter(move |_| self.nonstrict))
    }

    /// The bounds of rectangle `i` now.
    fn read(&self, i: usize, store: &Store) -> Result<Bounds, Fail> {
        let mut b = Bounds::default();
        for axis in 0..2 {
            b.at[axis] = (
                i128::from(self.at[axis][i].min(store)?),
                i128::from(self.at[axis][i].max(store)?),
            );
            b.least_size[axis] = i128::from(self.size[axis][i].min(store)?);
            b.may_be_empty[axis] = self.nonstrict && self.size[axis][i].contains(store, 0);
        }
        Ok(b)
    }

    /// Whether `side` may still hold, by the bounds read into `bounds`.
    fn possible(side: Side, bounds: &[Bounds]) -> bool {
        match side {
            Side::Before { axis, a, b } => {
                let (a, b) = (&bounds[a], &bounds[b]);
                a.at[axis].0 + a.least_size[axis] <= b.at[axis].1
            }
            Side::Empty { axis, a } => bounds[a].may_be_empty[axis],
        }
    }

    /// Makes `side` true.
    fn impose(&self, side: Side, store: &mut Store) -> Result<(), Fail> {
        match side {
            Side::Before { axis, a, b } => {
                let (at_a, size_a, at_b) =
                    (&self.at[axis][a], &self.size[axis][a], &self.at[axis][b]);
                let (low_a, low_size) =
                    (i128::from(at_a.min(store)?), i128::from(size_a.min(store)?));
                at_b.set_min(store, low_a + low_size)?;
                let high_b = i128::from(at_b.max(store)?);
                at_a.set_max(store, high_b - low_size)?;
                let low_a = i128::from(at_a.min(store)?);
                size_a.set_max(store, high_b - low_a)?;
            }
            Side::Empty { axis, a } => {
                self.size[axis][a].fix(store, 0)?;
            }
        }
        Ok(())
    }

    /// One pass over the pairs, on bounds read once and again after each change.
    fn pass(&self, store: &mut Store, bounds: &mut Vec<Bounds>) -> Result<(), Fail> {
        bounds.clear();
        for i in 0..self.len() {
            bounds.push(self.read(i, store)?);
        }
        for i in 0..self.len() {
            for j in i + 1..self.len() {
                let mut open = None;
                let mut count = 0;
                for side in self.sides(i, j) {
                    if Self::possible(side, bounds) {
                        count += 1;
                        open = Some(side);
                        if count > 1 {
                            break;
                        }
                    }
                }
                match (count, open) {
                    (0, _) => return Err(Fail),
                    (1, Some(side)) => {
                        self.impose(side, store)?;
                        bounds[i] = self.read(i, store)?;
                        bounds[j] = self.read(j, store)?;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// What a pass reads of one rectangle, per axis: its corner's least and greatest values,
/// its size's least, and whether the size may be 0 (non-strict only).
#[derive(Clone, Copy, Default)]
struct Bounds {
    at: [(i128, i128); 2],
    least_size: [i128; 2],
    may_be_empty: [bool; 2],
}

/// Explanations (a search that learns).
impl DiffnProp {
    /// Appends why `side` could not hold before `at`; `false` if it could.
    fn explain_impossible(&self, side: Side, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        match side {
            Side::Before { axis, a, b } => {
                let (low_a, _) = self.at[axis][a].bounds_before(atoms, at);
                let (low_size, _) = self.size[axis][a].bounds_before(atoms, at);
                let (_, high_b) = self.at[axis][b].bounds_before(atoms, at);
                if low_a + low_size <= high_b {
                    return false;
                }
                self.at[axis][a].explain_within(low_a, i128::MAX, out);
                self.size[axis][a].explain_within(low_size, i128::MAX, out);
                self.at[axis][b].explain_within(i128::MIN, high_b, out);
                true
            }
            Side::Empty { axis, a } => self.size[axis][a].explain_lacks(atoms, at, 0, out),
        }
    }

    /// Appends why every side of rectangles `i` and `j` but `keep` could not hold.
    fn explain_others(
        &self,
        i: usize,
        j: usize,
        keep: Option<Side>,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        self.sides(i, j)
            .filter(|&side| Some(side) != keep)
            .all(|side| self.explain_impossible(side, atoms, at, out))
    }

    /// Appends why `change` of the variable at `slot` follows from `side` forced for its
    /// pair.
    fn explain_forced(
        &self,
        side: Side,
        slot: Slot,
        change: Change,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let Slot { corner, axis, item } = slot;
        let Side::Before { axis: s_axis, a, b } = side else {
            // A size made 0: any change of it that 0 satisfies.
            let zero = match change {
                Change::AtLeast(least) => least <= 0,
                Change::AtMost(most) => most >= 0,
                Change::Lacks(value) => value != 0,
            };
            return zero
                && matches!(side, Side::Empty { axis: e, a } if e == axis && a == item && !corner);
        };
        if s_axis != axis {
            return false;
        }
        let (low_a, _) = self.at[axis][a].bounds_before(atoms, at);
        let (low_size, _) = self.size[axis][a].bounds_before(atoms, at);
        let (_, high_b) = self.at[axis][b].bounds_before(atoms, at);
        match change {
            // at[b] >= at[a] + size[a]
            Change::AtLeast(least) if corner && item == b && low_a + low_size >= least => {
                self.at[axis][a].explain_within(low_a, i128::MAX, out);
                self.size[axis][a].explain_within(low_size, i128::MAX, out);
                true
            }
            // at[a] <= at[b] - size[a]
            Change::AtMost(most) if corner && item == a && high_b - low_size <= most => {
                self.at[axis][b].explain_within(i128::MIN, high_b, out);
                self.size[axis][a].explain_within(low_size, i128::MAX, out);
                true
            }
            // size[a] <= at[b] - at[a]
            Change::AtMost(most) if !corner && item == a && high_b - low_a <= most => {
                self.at[axis][b].explain_within(i128::MIN, high_b, out);
                self.at[axis][a].explain_within(low_a, i128::MAX, out);
                true
            }
            _ => false,
        }
    }

    /// Appends why `pred` on the variable at `slot` holds.
    fn explain_var(
        &self,
        slot: Slot,
        pred: Pred,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let Slot { corner, axis, item } = slot;
        let view = if corner {
            &self.at[axis][item]
        } else {
            &self.size[axis][item]
        };
        let Some(change) = view.change(atoms, at, pred) else {
            return false;
        };
        let from = out.len();
        for other in (0..self.len()).filter(|&o| o != item) {
            let (i, j) = (item.min(other), item.max(other));
            for side in self.sides(i, j) {
                if self.explain_forced(side, slot, change, atoms, at, out)
                    && self.explain_others(i, j, Some(side), atoms, at, out)
                {
                    return true;
                }
                out.truncate(from);
            }
        }
        false
    }

    fn explain_failure(&self, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        let from = out.len();
        for i in 0..self.len() {
            for j in i + 1..self.len() {
                if self.explain_others(i, j, None, atoms, at, out) {
                    return true;
                }
                out.truncate(from);
            }
        }
        false
    }
}

impl<'a> Kind<'a> for Diffn {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(DiffnProp::new(self))
    }
}

impl BuiltinPropagator for DiffnProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn expensive(&self) -> bool {
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
        for axis in 0..2 {
            if let Some(item) = self.at[axis].iter().position(|v| v.var() == var) {
                let slot = Slot {
                    corner: true,
                    axis,
                    item,
                };
                return self.explain_var(slot, pred, atoms, at, out);
            }
            if let Some(item) = self.size[axis].iter().position(|v| v.var() == var) {
                let slot = Slot {
                    corner: false,
                    axis,
                    item,
                };
                return self.explain_var(slot, pred, atoms, at, out);
            }
        }
        false
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let mut bounds = std::mem::take(&mut self.bounds);
        let result = to_fixpoint(store, &self.scope, |store| self.pass(store, &mut bounds));
        self.bounds = bounds;
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::{arg, fuzz};

    /// Up to four rectangles: with `explainable`, corners in -1..=4 and sizes in 0..=3
    /// (constants or variables over consecutive values), else any arguments.
    fn rectangles(rng: &mut Rng, explainable: bool) -> Model<'static> {
        let mut m = Model::new();
        let n = rng.below(if explainable { 5 } else { 3 }) as usize;
        let draw = |m: &mut Model<'static>, rng: &mut Rng, low: i64, high: i64| -> IntArg {
            if !explainable {
                return arg(m, rng);
            }
            let from = low + rng.below((high - low + 1) as u64) as i64;
            if rng.below(4) == 0 {
                return IntArg::from(from);
            }
            IntArg::from(&m.var(from..=(from + rng.below(3) as i64).min(high)))
        };
        let x: Vec<IntArg> = (0..n).map(|_| draw(&mut m, rng, -1, 4)).collect();
        let y: Vec<IntArg> = (0..n).map(|_| draw(&mut m, rng, -1, 4)).collect();
        let dx: Vec<IntArg> = (0..n).map(|_| draw(&mut m, rng, 0, 3)).collect();
        let dy: Vec<IntArg> = (0..n).map(|_| draw(&mut m, rng, 0, 3)).collect();
        if rng.below(2) == 0 {
            m.diffn(x, y, dx, dy);
        } else {
            m.diffn_nonstrict(x, y, dx, dy);
        }
        m
    }

    #[test]
    fn diffn_agrees_with_its_meaning() {
        fuzz(300, |rng| rectangles(rng, true));
        fuzz(300, |rng| rectangles(rng, false));
    }
}
