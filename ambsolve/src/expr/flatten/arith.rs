//! Arithmetic, lookups and counts: each the model's own constraint kind over its
//! arguments' values and an auxiliary result sized from them; partial ones guard their
//! arguments when the comparison containing them is reified.

use crate::exact::Exact;
use crate::expr::flatten::logic::total;
use crate::expr::flatten::{Cx, Flat, Lin, Operand, Truth, Val};
use crate::expr::primitives;
use crate::expr::{IntExpr, IntNode};
use crate::model::{Cmp, IntArg, Lit};

impl Flat<'_, '_> {
    /// `e` (a node that is not linear) as a constant or an auxiliary variable.
    pub(crate) fn nonlinear(&mut self, e: &IntExpr, cx: &mut Cx) -> Option<Val> {
        self.nonlinear_into(e, cx, None)
    }

    /// `e` as a constant or a variable: `target` itself when `e`'s constraint can take it
    /// as its result (a required `x * y == z` ties `z` directly), else an auxiliary one.
    pub(crate) fn nonlinear_into(
        &mut self,
        e: &IntExpr,
        cx: &mut Cx,
        target: Option<Operand>,
    ) -> Option<Val> {
        match e.node() {
            IntNode::Mul(a, b) => {
                let (x, y) = (self.value(a, cx)?, self.value(b, cx)?);
                self.times(x, y, target)
            }
            IntNode::Div(a, b) | IntNode::Rem(a, b) => {
                let rem = matches!(e.node(), IntNode::Rem(..));
                let x = self.value(a, cx)?;
                let y = self.value(b, cx)?;
                let y = self.guarded(y, &[(Cmp::Ne, 0)], 1, cx)?;
                if let (Val::Const(p), Val::Const(q)) = (&x, &y) {
                    let f = if rem {
                        i128::checked_rem
                    } else {
                        i128::checked_div
                    };
                    return self.constant(f(*p, *q), cx);
                }
                primitives::divide(self, &x, &y, rem, target).map(Val::Var)
            }
            IntNode::Pow(a, b) => {
                let x = self.value(a, cx)?;
                let y = self.value(b, cx)?;
                let y = self.guarded(y, &[(Cmp::Ge, 0)], 0, cx)?;
                if let (Val::Const(p), Val::Const(q)) = (&x, &y) {
                    let power = Exact::of(*p).power(Exact::of(*q)).get();
                    return self.constant(power, cx);
                }
                primitives::power(self, &x, &y, target).map(Val::Var)
            }
            IntNode::Abs(a) => match self.value(a, cx)? {
                Val::Const(c) => self.constant(c.checked_abs(), cx),
                Val::Var(x) => primitives::abs(self, &Val::Var(x), target).map(Val::Var),
            },
            IntNode::Min(items) | IntNode::Max(items) => {
                let max = matches!(e.node(), IntNode::Max(_));
                let mut xs = Vec::with_capacity(items.len());
                for item in items {
                    xs.push(self.value(item, cx)?);
                }
                self.extreme(xs, max, target)
            }
            IntNode::NValue(items) => {
                let xs = self.values(items, cx)?;
                self.nvalue(&xs, target)
            }
            IntNode::Count(items, value) => {
                let xs = self.values(items, cx)?;
                let v = self.value(value, cx)?;
                self.count(&xs, CountOf::Value(v), target)
            }
            IntNode::Among(items, values) => {
                let xs = self.values(items, cx)?;
                self.count(&xs, CountOf::Among(values), target)
            }
            IntNode::Element {
                index,
                offset,
                array,
            } => self.element(index, *offset, array, cx, target),
            IntNode::Element2d { row, col, table } => self.element2d(row, col, table, cx, target),
            _ => {
                let mut lin = Lin::default();
                self.lin(e, 1, cx, &mut lin);
                self.materialize(lin, "sum")
            }
        }
    }

    /// A constant result, or undefined.
    fn constant(&mut self, c: Option<i128>, cx: &mut Cx) -> Option<Val> {
        match c {
            Some(c) => Some(Val::Const(c)),
            None => {
                cx.undefined = true;
                None
            }
        }
    }

    /// The variable a constraint's result goes to: `target`, or a new auxiliary variable
    /// over `values` (any order, repeats allowed); a value beyond `i64` makes the model
    /// invalid.
    fn result(
        &mut self,
        name: &str,
        values: impl IntoIterator<Item = i128>,
        target: Option<Operand>,
    ) -> Option<Operand> {
        if let Some(target) = target {
            return Some(target);
        }
        primitives::result(self, name, values.into_iter().collect())
    }

    /// `x × y`.
    fn times(&mut self, x: Val, y: Val, target: Option<Operand>) -> Option<Val> {
        match (&x, &y) {
            (Val::Const(p), Val::Const(q)) => match p.checked_mul(*q) {
                Some(c) => Some(Val::Const(c)),
                None => {
                    self.fail("a product of constants does not fit in an i128");
                    None
                }
            },
            (Val::Const(k), Val::Var(v)) | (Val::Var(v), Val::Const(k)) => {
                let mut lin = Lin::default();
                lin.push(*k, v.clone());
                self.materialize(lin, "product")
            }
            (Val::Var(_), Val::Var(_)) => primitives::times(self, &x, &y, target).map(Val::Var),
        }
    }

    /// The least (or, `max`, greatest) of `xs`.
    fn extreme(&mut self, xs: Vec<Val>, max: bool, target: Option<Operand>) -> Option<Val> {
        if xs.len() == 1 {
            return xs.into_iter().next();
        }
        let bounds = xs.iter().map(Val::bounds);
        let (lo, hi) = if max {
            bounds.fold((i128::MIN, i128::MIN), |(a, b), (c, d)| {
                (a.max(c), b.max(d))
            })
        } else {
            bounds.fold((i128::MAX, i128::MAX), |(a, b), (c, d)| {
                (a.min(c), b.min(d))
            })
        };
        if lo == hi {
            return Some(Val::Const(lo));
        }
        // The result is one of the items' values, within the bounds.
        let mut values = Vec::new();
        for x in &xs {
            values.extend(
                self.values_of(x)?
                    .into_iter()
                    .filter(|v| (lo..=hi).contains(v)),
            );
        }
        let z = self.result(if max { "max" } else { "min" }, values, target)?;
        primitives::extreme(self, &xs, &z, max);
        Some(Val::Var(z))
    }

    /// The values of `items`, each a constant or a variable.
    fn values(&mut self, items: &[IntExpr], cx: &mut Cx) -> Option<Vec<Val>> {
        let mut xs = Vec::with_capacity(items.len());
        for item in items {
            xs.push(self.value(item, cx)?);
        }
        Some(xs)
    }

    /// How many distinct values `xs` take: the model's `nvalue`.
    fn nvalue(&mut self, xs: &[Val], target: Option<Operand>) -> Option<Val> {
        if xs.is_empty() {
            return Some(Val::Const(0));
        }
        let z = match target {
            Some(target) => target,
            None => {
                let mut all: Vec<i128> = Vec::new();
                for x in xs {
                    all.extend(self.values_of(x)?);
                }
                all.sort_unstable();
                all.dedup();
                let most = all.len().min(xs.len()) as i128;
                self.aux("nvalue", (1, most))?
            }
        };
        let args = self.args(xs)?;
        self.model.nvalue(z.arg(), args);
        Some(Val::Var(z))
    }

    /// How many of `xs` equal a value (or take one of some): the model's `count`
    /// (`among`).
    fn count(&mut self, xs: &[Val], of: CountOf<'_>, target: Option<Operand>) -> Option<Val> {
        let mut most = 0;
        for x in xs {
            let can = match &of {
                CountOf::Value(v) => {
                    let ((a, b), (c, d)) = (x.bounds(), v.bounds());
                    a <= d && c <= b
                }
                CountOf::Among(values) => {
                    let (a, b) = x.bounds();
                    values.iter().any(|&v| (a..=b).contains(&i128::from(v)))
                        && self.values_of(x)?.iter().any(|&x| {
                            i64::try_from(x).is_ok_and(|x| values.binary_search(&x).is_ok())
                        })
                }
            };
            most += i128::from(can);
        }
        let z = match target {
            Some(target) => target,
            None if most == 0 => return Some(Val::Const(0)),
            None => self.aux("count", (0, most))?,
        };
        let args = self.args(xs)?;
        match of {
            CountOf::Value(v) => {
                let v = primitives::arg(self, &v)?;
                self.model.count(args, v, z.arg());
            }
            CountOf::Among(values) => self.model.among(args, values, z.arg()),
        }
        Some(Val::Var(z))
    }

    /// `xs` as constraint arguments.
    fn args(&mut self, xs: &[Val]) -> Option<Vec<IntArg>> {
        xs.iter().map(|x| primitives::arg(self, x)).collect()
    }

    /// `v` where the conditions `v cmp c` (all of them) hold; where they do not, `safe`
    /// in a reified comparison (whose definedness literal `cx` then gets), or `v` itself
    /// in a required one (where the constraint using it rules those values out).
    /// `None` when `v` is a constant breaking a condition (undefined).
    pub(crate) fn guarded(
        &mut self,
        v: Val,
        conditions: &[(Cmp, i128)],
        safe: i64,
        cx: &mut Cx,
    ) -> Option<Val> {
        let allowed = |x: i128| conditions.iter().all(|&(cmp, c)| cmp.holds(x, c));
        let op = match v {
            Val::Const(c) if allowed(c) => return Some(Val::Const(c)),
            Val::Const(_) => {
                cx.undefined = true;
                return None;
            }
            Val::Var(op) => op,
        };
        let mut kept: Vec<i64> = self.listed(&op)?;
        kept.retain(|&x| allowed(i128::from(x)));
        if kept.is_empty() {
            cx.undefined = true;
            return None;
        }
        if kept.len() == op.images.len() || cx.root {
            return Some(Val::Var(op));
        }
        // d <-> the conditions; d -> v' = v; !d -> v' = safe.
        let mut parts = Vec::with_capacity(conditions.len());
        for &(cmp, c) in conditions {
            let mut lin = Lin::default();
            lin.push(1, op.clone());
            lin.constant = -c;
            parts.push(self.reify_lin(lin, cmp));
        }
        let Truth::Lit(d) = self.join(parts, true) else {
            return Some(Val::Var(op)); // decided by bounds: nothing to guard
        };
        kept.push(safe);
        kept.sort_unstable();
        kept.dedup();
        let guarded = self.aux_over("guarded argument", kept);
        self.model
            .linear_implied([guarded.term(1), op.term(-1)], Cmp::Eq, 0, d);
        self.model
            .linear_implied([guarded.term(1)], Cmp::Eq, safe, !d);
        cx.defined.push(d);
        Some(Val::Var(guarded))
    }

    /// `array[index - offset]`.
    fn element(
        &mut self,
        index: &IntExpr,
        offset: i128,
        array: &[IntExpr],
        cx: &mut Cx,
        target: Option<Operand>,
    ) -> Option<Val> {
        let last = offset.saturating_add(array.len() as i128 - 1);
        let safe = i64::try_from(offset).ok();
        let index = match safe {
            Some(safe) if !array.is_empty() => {
                let index = self.value(index, cx)?;
                self.guarded(index, &[(Cmp::Ge, offset), (Cmp::Le, last)], safe, cx)?
            }
            _ => {
                cx.undefined = true;
                return None;
            }
        };
        if let Val::Const(i) = index {
            for (k, item) in array.iter().enumerate() {
                if k as i128 != i - offset && !total(item) {
                    self.value(item, cx)?;
                }
            }
            return self.value(&array[(i - offset) as usize], cx);
        }
        let Val::Var(index) = index else {
            unreachable!("a constant index returned above")
        };
        // The items the index can reach are read; the others only tell whether the array
        // is defined (an undefined item makes the lookup undefined, as an array built
        // before it is read).
        let mut reached = vec![false; array.len()];
        for x in index.images.iter_between(offset, last) {
            let at = i128::from(x) - offset;
            if (0..array.len() as i128).contains(&at) {
                reached[at as usize] = true;
            }
        }
        let mut items: Vec<Option<Val>> = vec![None; array.len()];
        for (k, item) in array.iter().enumerate() {
            if reached[k] {
                items[k] = Some(self.value(item, cx)?);
            } else if !total(item) {
                self.value(item, cx)?;
            }
        }
        let mut values: Vec<i128> = Vec::new();
        for item in items.iter().flatten() {
            values.extend(self.values_of(item)?);
        }
        if values.is_empty() {
            cx.undefined = true;
            return None;
        }
        let z = self.result("element", values, target)?;
        primitives::element(self, &index, offset, &items, &z);
        Some(Val::Var(z))
    }

    /// `table[row][col]`: the model's `element2d` over the cells the indices reach;
    /// reified with indices that may name no cell, they are guarded (a cell is read
    /// whatever they take, and the comparison is defined only where they name one).
    fn element2d(
        &mut self,
        row: &IntExpr,
        col: &IntExpr,
        table: &[Vec<IntExpr>],
        cx: &mut Cx,
        target: Option<Operand>,
    ) -> Option<Val> {
        let (r, c) = (self.value(row, cx)?, self.value(col, cx)?);
        let (rows, cols) = (self.distinct_values(&r)?, self.distinct_values(&c)?);
        // The cells the indices can reach, flattened once each.
        let mut cells: Vec<((usize, usize), Val)> = Vec::new();
        let mut reached = vec![Vec::new(); table.len()];
        let mut all_valid = true;
        for &i in &rows {
            let Some(cells_of_row) = usize::try_from(i).ok().and_then(|i| table.get(i)) else {
                all_valid = false;
                continue;
            };
            let i = i as usize;
            reached[i] = vec![false; cells_of_row.len()];
            for &j in &cols {
                match usize::try_from(j).ok().filter(|&j| j < cells_of_row.len()) {
                    Some(j) => {
                        reached[i][j] = true;
                        cells.push(((i, j), self.value(&cells_of_row[j], cx)?));
                    }
                    None => all_valid = false,
                }
            }
        }
        for (i, cells_of_row) in table.iter().enumerate() {
            for (j, cell) in cells_of_row.iter().enumerate() {
                if !reached[i].get(j).copied().unwrap_or(false) && !total(cell) {
                    self.value(cell, cx)?;
                }
            }
        }
        if cells.is_empty() {
            cx.undefined = true;
            return None;
        }
        let (r, c) = if all_valid || cx.root {
            (r, c)
        } else {
            self.guard_cell(r, c, table, &cells, cx)?
        };
        let z = match target {
            Some(target) => target,
            None => {
                let mut values: Vec<i128> = Vec::new();
                for (_, v) in &cells {
                    values.extend(self.values_of(v)?);
                }
                self.result("element", values, None)?
            }
        };
        primitives::element2d(self, &r, &c, &cells, &z);
        Some(Val::Var(z))
    }

    /// The indices `(r, c)` of a lookup in `table`, guarded so that they name one of
    /// `cells` whatever they take; `cx` gets the literal saying they named one.
    fn guard_cell(
        &mut self,
        r: Val,
        c: Val,
        table: &[Vec<IntExpr>],
        cells: &[((usize, usize), Val)],
        cx: &mut Cx,
    ) -> Option<(Val, Val)> {
        // The cell read where the indices name none: one they reach.
        let (r0, c0) = cells[0].0;
        let width = table.first().map_or(0, Vec::len);
        if width > 0 && table.iter().all(|row| row.len() == width) {
            // A rectangle: each index within its own range.
            let last_row = table.len() as i128 - 1;
            let r = self.guarded(r, &[(Cmp::Ge, 0), (Cmp::Le, last_row)], r0 as i64, cx)?;
            let c = self.guarded(
                c,
                &[(Cmp::Ge, 0), (Cmp::Le, width as i128 - 1)],
                c0 as i64,
                cx,
            )?;
            return Some((r, c));
        }
        let d = self.new_lit("cell in the table");
        primitives::in_cells(self, &r, &c, cells, d);
        let r = self.guard_by(r, d, r0 as i64)?;
        let c = self.guard_by(c, d, c0 as i64)?;
        cx.defined.push(d);
        Some((r, c))
    }

    /// `v` where `d` holds, else `safe`.
    fn guard_by(&mut self, v: Val, d: Lit, safe: i64) -> Option<Val> {
        let Val::Var(op) = v else {
            return Some(v);
        };
        let mut values = self.listed(&op)?;
        values.push(safe);
        values.sort_unstable();
        values.dedup();
        let guarded = self.aux_over("guarded index", values);
        self.model
            .linear_implied([guarded.term(1), op.term(-1)], Cmp::Eq, 0, d);
        self.model
            .linear_implied([guarded.term(1)], Cmp::Eq, safe, !d);
        Some(Val::Var(guarded))
    }
}

/// How a count counts its items.
enum CountOf<'v> {
    /// The items equal to a value.
    Value(Val),
    /// The items taking one of these values.
    Among(&'v [i64]),
}
