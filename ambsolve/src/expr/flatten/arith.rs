//! Arithmetic and lookups: each a constraint kind over its arguments' values and an
//! auxiliary result sized from their bounds; partial ones guard their arguments when the
//! comparison containing them is reified.

use crate::exact::Exact;
use crate::expr::flatten::logic::total;
use crate::expr::flatten::{Cx, Flat, Lin, Operand, Truth, Val};
use crate::expr::primitives;
use crate::expr::{IntExpr, IntNode};
use crate::model::{Cmp, Lit};

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
                let mut xs = Vec::with_capacity(items.len());
                for item in items {
                    xs.push(self.value(item, cx)?);
                }
                self.nvalue(&xs)
            }
            IntNode::Element {
                index,
                offset,
                array,
            } => self.element(index, *offset, array, cx, target),
            IntNode::Element2d { row, col, table } => self.element2d(row, col, table, cx),
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
        let values = xs
            .iter()
            .flat_map(values_of)
            .filter(|v| (lo..=hi).contains(v))
            .collect::<Vec<i128>>();
        let z = self.result(if max { "max" } else { "min" }, values, target)?;
        primitives::extreme(self, &xs, &z, max);
        Some(Val::Var(z))
    }

    /// How many distinct values `xs` take: for each value some item can take, a literal
    /// saying whether one does, and their sum.
    fn nvalue(&mut self, xs: &[Val]) -> Option<Val> {
        let mut values: Vec<i128> = Vec::new();
        for x in xs {
            match x {
                Val::Const(c) => values.push(*c),
                Val::Var(op) => values.extend(op.images.iter().map(|&v| i128::from(v))),
            }
            if values.len() > primitives::TABLE_LIMIT {
                self.fail("nvalue over items with too many values");
                return None;
            }
        }
        values.sort_unstable();
        values.dedup();
        let sorted: Vec<Option<Vec<i64>>> = xs
            .iter()
            .map(|x| match x {
                Val::Const(_) => None,
                Val::Var(op) => {
                    let mut images = op.images.to_vec();
                    images.sort_unstable();
                    Some(images)
                }
            })
            .collect();
        let mut lin = Lin::default();
        for v in values {
            let mut taken = Vec::new();
            for (x, images) in xs.iter().zip(&sorted) {
                let can = images.as_ref().is_none_or(|images| {
                    i64::try_from(v).is_ok_and(|v| images.binary_search(&v).is_ok())
                });
                if !can {
                    continue;
                }
                let mut eq = Lin::default();
                match x {
                    Val::Const(c) => eq.constant = *c - v,
                    Val::Var(op) => {
                        eq.push(1, op.clone());
                        eq.constant = -v;
                    }
                }
                taken.push(self.reify_lin(eq, Cmp::Eq));
            }
            match self.join(taken, false) {
                Truth::Const(b) => lin.constant += i128::from(b),
                Truth::Lit(lit) => {
                    let (op, positive) = self.int_of_lit(lit);
                    if positive {
                        lin.push(1, op);
                    } else {
                        lin.constant += 1;
                        lin.push(-1, op);
                    }
                }
            }
        }
        self.materialize(lin, "nvalue")
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
        let mut kept: Vec<i64> = op
            .images
            .iter()
            .copied()
            .filter(|&x| allowed(i128::from(x)))
            .collect();
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
        for &x in index.images.iter() {
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
        let values: Vec<i128> = items.iter().flatten().flat_map(values_of).collect();
        if values.is_empty() {
            cx.undefined = true;
            return None;
        }
        let z = self.result("element", values, target)?;
        primitives::element(self, &index, offset, &items, &z);
        Some(Val::Var(z))
    }

    /// `table[row][col]`: a functional table from the two indices to the cell read (or,
    /// reified, to whether there is one and which).
    fn element2d(
        &mut self,
        row: &IntExpr,
        col: &IntExpr,
        table: &[Vec<IntExpr>],
        cx: &mut Cx,
    ) -> Option<Val> {
        let (r, c) = (self.value(row, cx)?, self.value(col, cx)?);
        let in_table = |i: i128, j: i128| {
            usize::try_from(i)
                .ok()
                .zip(usize::try_from(j).ok())
                .filter(|&(i, j)| i < table.len() && j < table[i].len())
        };
        let rows: Vec<i128> = match &r {
            Val::Const(i) => vec![*i],
            Val::Var(op) => op.images.iter().map(|&x| i128::from(x)).collect(),
        };
        let cols: Vec<i128> = match &c {
            Val::Const(j) => vec![*j],
            Val::Var(op) => op.images.iter().map(|&x| i128::from(x)).collect(),
        };
        if rows.len().saturating_mul(cols.len()) > primitives::TABLE_LIMIT {
            self.fail(format!(
                "a lookup in a table at two chosen indices ranges over {} × {} index values: too many",
                rows.len(),
                cols.len()
            ));
            return None;
        }
        // The cells the indices can reach, flattened once each.
        let mut cells: Vec<((usize, usize), Val)> = Vec::new();
        for &i in &rows {
            for &j in &cols {
                if let Some(at) = in_table(i, j) {
                    if !cells.iter().any(|(cell, _)| *cell == at) {
                        let value = self.value(&table[at.0][at.1], cx)?;
                        cells.push((at, value));
                    }
                }
            }
        }
        for (i, row) in table.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                if !cells.iter().any(|(at, _)| *at == (i, j)) && !total(cell) {
                    self.value(cell, cx)?;
                }
            }
        }
        if cells.is_empty() {
            cx.undefined = true;
            return None;
        }
        let all_valid = rows
            .iter()
            .all(|&i| cols.iter().all(|&j| in_table(i, j).is_some()));
        let defined: Option<Lit> = if all_valid || cx.root {
            None
        } else {
            let d = self.new_lit("cell in the table");
            cx.defined.push(d);
            Some(d)
        };
        primitives::element2d(self, &r, &c, &cells, defined)
    }
}

/// The values `v` can take.
fn values_of(v: &Val) -> Vec<i128> {
    match v {
        Val::Const(c) => vec![*c],
        Val::Var(op) => op.images.iter().map(|&x| i128::from(x)).collect(),
    }
}
