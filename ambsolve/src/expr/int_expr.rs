//! [`IntExpr`]: an integer expression over variables, and how it is built.

use std::fmt;
use std::sync::Arc;

use crate::expr::{BoolExpr, BoolNode, IntNode, MAX_DEPTH};
use crate::model::Arg;
use crate::model::{Cmp, IntArg, Integer};
use crate::var::Var;

/// An integer expression over a model's variables: constants, variables, `+ - *` (the
/// operators), `/` and `%` (truncating, as Rust's), [`abs`](IntExpr::abs),
/// [`pow`](IntExpr::pow), [`min`](IntExpr::min), [`max`](IntExpr::max), lookups at chosen
/// indices ([`element`](IntExpr::element), [`element2d`](IntExpr::element2d)), sums,
/// counts and booleans as 0 or 1 ([`BoolExpr::to_int`]). Compare two with
/// [`lt`](IntExpr::lt), [`eq`](IntExpr::eq) and the like to get a [`BoolExpr`], and add
/// that to a model with [`Model::add`](crate::Model::add).
///
/// Make one from a variable with integer values (`IntExpr::from(&x)`), or from a
/// constant of any primitive integer type; the operators take either on their right.
/// Cloning is cheap: the parts of an expression are shared.
///
/// Integers are exact: constants are computed as `i128`s (`i64::MAX + 1` is fine), and a
/// value beyond `i128` is undefined, like a division by zero (see the module's
/// relational semantics on [`Model::add`](crate::Model::add)).
///
/// ```
/// use ambsolve::{Engine, IntExpr, Model};
///
/// // x * y == 12 over 1..=12: the 6 ordered factor pairs.
/// let mut m = Model::new();
/// let x = m.var(1..=12i64);
/// let y = m.var(1..=12i64);
/// m.add((IntExpr::from(&x) * &y).eq(12));
/// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
/// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 6);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
#[derive(Clone)]
pub struct IntExpr {
    pub(crate) node: Arc<IntNode>,
    /// How deep it nests: 1 for a leaf.
    pub(crate) depth: u32,
}

impl IntExpr {
    /// An expression of `node`, whose children are `depth - 1` deep at most; too deep, an
    /// invalid expression.
    pub(crate) fn with_depth(node: IntNode, depth: u32) -> IntExpr {
        if depth > MAX_DEPTH {
            return IntExpr::invalid(format!(
                "an expression nests more than {MAX_DEPTH} operations deep"
            ));
        }
        IntExpr {
            node: Arc::new(node),
            depth,
        }
    }

    /// An expression whose children are `children`.
    fn of<'e>(node: IntNode, children: impl IntoIterator<Item = &'e IntExpr>) -> IntExpr {
        let depth = children.into_iter().map(|c| c.depth).max().unwrap_or(0);
        IntExpr::with_depth(node, depth + 1)
    }

    /// An expression that makes the model invalid with `message` when it is added.
    pub(crate) fn invalid(message: impl Into<Arc<str>>) -> IntExpr {
        IntExpr {
            node: Arc::new(IntNode::Invalid(message.into())),
            depth: 1,
        }
    }

    /// The exact constant `value` (`None`: undefined).
    pub(crate) fn exact(value: Option<i128>) -> IntExpr {
        IntExpr {
            node: Arc::new(IntNode::Const(value)),
            depth: 1,
        }
    }

    /// Its node.
    pub(crate) fn node(&self) -> &IntNode {
        &self.node
    }

    /// The constant `value`.
    pub fn constant(value: i64) -> IntExpr {
        IntExpr::exact(Some(i128::from(value)))
    }

    /// Its value if it is a constant (`Some(None)`: undefined).
    pub(crate) fn as_const(&self) -> Option<Option<i128>> {
        match self.node() {
            IntNode::Const(c) => Some(*c),
            _ => None,
        }
    }

    /// `Σ items`. An empty sum is 0.
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..3i64);
    /// m.add(IntExpr::sum(&x).eq(4)); // 6 ways: (2,2,0) ×3, (2,1,1) ×3
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn sum<E: Into<IntExpr>>(items: impl IntoIterator<Item = E>) -> IntExpr {
        items
            .into_iter()
            .fold(IntExpr::constant(0), |sum, item| sum.plus(1, item.into()))
    }

    /// How many of `items` hold: `Σ bool2int(item)`.
    ///
    /// ```
    /// use ambsolve::{BoolExpr, Engine, IntExpr, Model};
    ///
    /// // Exactly two of four digits are 3.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 4, 0..4i64);
    /// m.add(IntExpr::count(x.iter().map(|v| IntExpr::from(v).eq(3))).eq(2));
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6 * 3 * 3);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn count<B: Into<BoolExpr>>(items: impl IntoIterator<Item = B>) -> IntExpr {
        IntExpr::sum(items.into_iter().map(|b| b.into().to_int()))
    }

    /// The least of `items`; of none, the model becomes invalid when it is added.
    pub fn min_of<E: Into<IntExpr>>(items: impl IntoIterator<Item = E>) -> IntExpr {
        IntExpr::extreme(items, false)
    }

    /// The greatest of `items`; of none, the model becomes invalid when it is added.
    pub fn max_of<E: Into<IntExpr>>(items: impl IntoIterator<Item = E>) -> IntExpr {
        IntExpr::extreme(items, true)
    }

    fn extreme<E: Into<IntExpr>>(items: impl IntoIterator<Item = E>, max: bool) -> IntExpr {
        let items: Vec<IntExpr> = items.into_iter().map(Into::into).collect();
        let Some(first) = items.first().cloned() else {
            let which = if max { "max" } else { "min" };
            return IntExpr::invalid(format!("{which} of no expressions"));
        };
        items[1..]
            .iter()
            .fold(first, |acc, item| acc.extend_extreme(item.clone(), max))
    }

    /// How many distinct values `items` take (MiniZinc's `nvalue`).
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// // Three digits of 0..3 taking exactly two distinct values: 3 × 6 ways.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..3i64);
    /// m.add(IntExpr::nvalue(&x).eq(2));
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 18);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn nvalue<E: Into<IntExpr>>(items: impl IntoIterator<Item = E>) -> IntExpr {
        let items: Vec<IntExpr> = items.into_iter().map(Into::into).collect();
        let depth = items.iter().map(|e| e.depth).max().unwrap_or(0);
        IntExpr::with_depth(IntNode::NValue(items), depth + 1)
    }

    /// How many of `items` equal `value` (MiniZinc's `count`); flattened into
    /// [`Model::count`](crate::Model::count).
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// // Exactly two of four digits 0..4 are 3.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 4, 0..4i64);
    /// m.add(IntExpr::count_eq(&x, 3).eq(2));
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6 * 3 * 3);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 6 * 3 * 3);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn count_eq<E: Into<IntExpr>>(
        items: impl IntoIterator<Item = E>,
        value: impl Into<IntExpr>,
    ) -> IntExpr {
        let items: Vec<IntExpr> = items.into_iter().map(Into::into).collect();
        let value = value.into();
        let depth = items.iter().chain([&value]).map(|e| e.depth).max();
        IntExpr::with_depth(IntNode::Count(items, value), depth.unwrap_or(0) + 1)
    }

    /// How many of `items` take one of `values` (MiniZinc's `among`); flattened into
    /// [`Model::among`](crate::Model::among).
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// // At most one of three digits 0..4 is odd: 8 + 3 × 2 × 4 ways.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..4i64);
    /// m.add(IntExpr::among(&x, &[1, 3]).le(1));
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 8 + 3 * 2 * 4);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn among<E: Into<IntExpr>>(items: impl IntoIterator<Item = E>, values: &[i64]) -> IntExpr {
        let items: Vec<IntExpr> = items.into_iter().map(Into::into).collect();
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        let depth = items.iter().map(|e| e.depth).max().unwrap_or(0);
        IntExpr::with_depth(IntNode::Among(items, values.into()), depth + 1)
    }

    /// The smaller of `self` and `other`.
    pub fn min(&self, other: impl Into<IntExpr>) -> IntExpr {
        self.clone().extend_extreme(other.into(), false)
    }

    /// The larger of `self` and `other`.
    pub fn max(&self, other: impl Into<IntExpr>) -> IntExpr {
        self.clone().extend_extreme(other.into(), true)
    }

    /// `self` with `item` among the items of its min (or max), kept flat (extended in
    /// place when it is not shared).
    fn extend_extreme(mut self, item: IntExpr, max: bool) -> IntExpr {
        let same = matches!(
            (self.node(), max),
            (IntNode::Max(_), true) | (IntNode::Min(_), false)
        );
        if !same {
            let depth = self.depth.max(item.depth) + 1;
            let items = vec![self, item];
            let node = if max {
                IntNode::Max(items)
            } else {
                IntNode::Min(items)
            };
            return IntExpr::with_depth(node, depth);
        }
        let depth = self.depth.max(item.depth + 1);
        if depth > MAX_DEPTH {
            return IntExpr::with_depth(IntNode::Const(None), depth);
        }
        if let IntNode::Max(items) | IntNode::Min(items) = Arc::make_mut(&mut self.node) {
            items.push(item);
        }
        self.depth = depth;
        self
    }

    /// The absolute value.
    pub fn abs(&self) -> IntExpr {
        IntExpr::of(IntNode::Abs(self.clone()), [self])
    }

    /// `self` to the power `exponent`: `0^0` is 1, a negative exponent is undefined.
    pub fn pow(&self, exponent: impl Into<IntExpr>) -> IntExpr {
        let exponent = exponent.into();
        IntExpr::of(
            IntNode::Pow(self.clone(), exponent.clone()),
            [self, &exponent],
        )
    }

    /// `array[index]` (an *element* constraint): indices from 0; an index outside the
    /// array is undefined. The array mixes constants and expressions freely.
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// let cost = [4i64, 7, 1, 9];
    /// let mut m = Model::new();
    /// let i = m.var(0..6i64); // 4 and 5 read nothing: ruled out
    /// m.add(IntExpr::element(&i, cost).le(4));
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2); // i = 0 or 2
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn element<E: Into<IntExpr>>(
        index: impl Into<IntExpr>,
        array: impl IntoIterator<Item = E>,
    ) -> IntExpr {
        IntExpr::element_offset(index, 0, array)
    }

    /// `array[index - offset]`: the array's first item at index `offset` (1 for
    /// FlatZinc's arrays).
    pub fn element_offset<E: Into<IntExpr>>(
        index: impl Into<IntExpr>,
        offset: i64,
        array: impl IntoIterator<Item = E>,
    ) -> IntExpr {
        let index = index.into();
        let array: Vec<IntExpr> = array.into_iter().map(Into::into).collect();
        let depth = array
            .iter()
            .chain([&index])
            .map(|e| e.depth)
            .max()
            .unwrap_or(0);
        IntExpr::with_depth(
            IntNode::Element {
                index,
                offset: i128::from(offset),
                array,
            },
            depth + 1,
        )
    }

    /// `table[row][col]`, indices from 0. Rows may differ in length; a cell outside the
    /// table is undefined.
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// let dist = [[0i64, 3, 5], [3, 0, 4], [5, 4, 0]];
    /// let mut m = Model::new();
    /// let a = m.var(0..3i64);
    /// let b = m.var(0..3i64);
    /// m.add(IntExpr::element2d(&a, &b, dist).ge(4));
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 4);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn element2d<E: Into<IntExpr>, R: IntoIterator<Item = E>>(
        row: impl Into<IntExpr>,
        col: impl Into<IntExpr>,
        table: impl IntoIterator<Item = R>,
    ) -> IntExpr {
        let (row, col) = (row.into(), col.into());
        let table: Vec<Vec<IntExpr>> = table
            .into_iter()
            .map(|r| r.into_iter().map(Into::into).collect())
            .collect();
        let depth = table
            .iter()
            .flatten()
            .chain([&row, &col])
            .map(|e| e.depth)
            .max()
            .unwrap_or(0);
        IntExpr::with_depth(IntNode::Element2d { row, col, table }, depth + 1)
    }

    /// `self CMP other`.
    pub fn compare(&self, cmp: Cmp, other: impl Into<IntExpr>) -> BoolExpr {
        let other = other.into();
        let depth = self.depth.max(other.depth) + 1;
        BoolExpr::with_depth(BoolNode::Cmp(self.clone(), cmp, other), depth)
    }

    /// `self == other`.
    pub fn eq(&self, other: impl Into<IntExpr>) -> BoolExpr {
        self.compare(Cmp::Eq, other)
    }

    /// `self != other`.
    pub fn ne(&self, other: impl Into<IntExpr>) -> BoolExpr {
        self.compare(Cmp::Ne, other)
    }

    /// `self < other`.
    pub fn lt(&self, other: impl Into<IntExpr>) -> BoolExpr {
        self.compare(Cmp::Lt, other)
    }

    /// `self <= other`.
    pub fn le(&self, other: impl Into<IntExpr>) -> BoolExpr {
        self.compare(Cmp::Le, other)
    }

    /// `self > other`.
    pub fn gt(&self, other: impl Into<IntExpr>) -> BoolExpr {
        self.compare(Cmp::Gt, other)
    }

    /// `self >= other`.
    pub fn ge(&self, other: impl Into<IntExpr>) -> BoolExpr {
        self.compare(Cmp::Ge, other)
    }

    /// `self + k × other`, kept flat: a sum is extended in place when it is not shared,
    /// and constants are folded exactly.
    pub(crate) fn plus(mut self, k: i128, other: IntExpr) -> IntExpr {
        if let (Some(a), Some(b)) = (self.as_const(), other.as_const()) {
            let scaled = b.and_then(|b| b.checked_mul(k));
            return IntExpr::exact(super::checked(a, scaled, i128::checked_add));
        }
        if !matches!(self.node(), IntNode::Sum(..)) {
            let depth = self.depth + 1;
            self = IntExpr::with_depth(IntNode::Sum(vec![(1, self)], 0), depth);
        }
        if !matches!(self.node(), IntNode::Sum(..)) {
            return self; // too deep: invalid
        }
        let mut depth = self.depth;
        let IntNode::Sum(items, constant) = Arc::make_mut(&mut self.node) else {
            return IntExpr::invalid("a sum is not a sum");
        };
        let overflow = || IntExpr::invalid("a coefficient does not fit in an i128");
        match other.node() {
            IntNode::Const(Some(c)) => {
                match c.checked_mul(k).and_then(|c| c.checked_add(*constant)) {
                    Some(sum) => *constant = sum,
                    None => return overflow(),
                }
            }
            IntNode::Sum(more, c) => {
                for (coef, item) in more {
                    let Some(coef) = coef.checked_mul(k) else {
                        return overflow();
                    };
                    depth = depth.max(item.depth + 1);
                    items.push((coef, item.clone()));
                }
                match c.checked_mul(k).and_then(|c| c.checked_add(*constant)) {
                    Some(sum) => *constant = sum,
                    None => return overflow(),
                }
            }
            _ => {
                depth = depth.max(other.depth + 1);
                items.push((k, other));
            }
        }
        if depth > MAX_DEPTH {
            return IntExpr::with_depth(IntNode::Const(None), depth);
        }
        self.depth = depth;
        self
    }

    /// `k × self`, kept flat.
    pub(crate) fn scaled(self, k: i128) -> IntExpr {
        if let Some(c) = self.as_const() {
            return IntExpr::exact(c.and_then(|c| c.checked_mul(k)));
        }
        IntExpr::constant(0).plus(k, self)
    }

    /// `self × other`: scaled when one is a constant.
    pub(crate) fn times(self, other: IntExpr) -> IntExpr {
        match (self.as_const(), other.as_const()) {
            (Some(Some(k)), _) => other.scaled(k),
            (_, Some(Some(k))) => self.scaled(k),
            (Some(None), _) | (_, Some(None)) => IntExpr::exact(None),
            _ => IntExpr::of(IntNode::Mul(self.clone(), other.clone()), [&self, &other]),
        }
    }

    /// `self / other` (truncating), or `self % other` when `remainder`.
    pub(crate) fn divided(self, other: IntExpr, remainder: bool) -> IntExpr {
        if let (Some(a), Some(b)) = (self.as_const(), other.as_const()) {
            let f = if remainder {
                i128::checked_rem
            } else {
                i128::checked_div
            };
            return IntExpr::exact(super::checked(a, b, f));
        }
        let node = if remainder {
            IntNode::Rem(self.clone(), other.clone())
        } else {
            IntNode::Div(self.clone(), other.clone())
        };
        IntExpr::of(node, [&self, &other])
    }
}

macro_rules! from_primitive {
    ($($t:ty),*) => {$(
        impl From<$t> for IntExpr {
            /// The constant `value`, exact (a `u128` beyond `i128` is undefined).
            fn from(value: $t) -> IntExpr {
                IntExpr::exact(i128::try_from(value).ok())
            }
        }
    )*};
}

from_primitive!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

impl<T: Integer> From<&Var<T>> for IntExpr {
    /// The variable's value (its values are integers).
    fn from(var: &Var<T>) -> IntExpr {
        IntExpr::from(IntArg::from(var))
    }
}

impl<T: Integer> From<&&Var<T>> for IntExpr {
    fn from(var: &&Var<T>) -> IntExpr {
        IntExpr::from(*var)
    }
}

impl From<IntArg> for IntExpr {
    /// The argument: a constant or a variable.
    fn from(arg: IntArg) -> IntExpr {
        match arg.0 {
            Arg::Const(c) => IntExpr::constant(c),
            var @ Arg::Var { .. } => IntExpr {
                node: Arc::new(IntNode::Var(IntArg(var))),
                depth: 1,
            },
        }
    }
}

impl From<&IntExpr> for IntExpr {
    fn from(expr: &IntExpr) -> IntExpr {
        expr.clone()
    }
}

impl From<BoolExpr> for IntExpr {
    /// 1 if the boolean holds, else 0 (MiniZinc's `bool2int`).
    fn from(b: BoolExpr) -> IntExpr {
        b.to_int()
    }
}

impl fmt::Debug for IntExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, name: &str, items: &[IntExpr]| {
            write!(f, "{name}(")?;
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{item:?}")?;
            }
            f.write_str(")")
        };
        match self.node() {
            IntNode::Const(Some(c)) => write!(f, "{c}"),
            IntNode::Const(None) => f.write_str("undefined"),
            IntNode::Var(IntArg(Arg::Var { var, .. })) => write!(f, "{var:?}"),
            IntNode::Var(IntArg(Arg::Const(c))) => write!(f, "{c}"),
            IntNode::Sum(items, constant) => {
                f.write_str("(")?;
                for (k, (coef, item)) in items.iter().enumerate() {
                    if k > 0 {
                        f.write_str(" + ")?;
                    }
                    if *coef != 1 {
                        write!(f, "{coef}*")?;
                    }
                    write!(f, "{item:?}")?;
                }
                if *constant != 0 {
                    write!(f, " + {constant}")?;
                }
                f.write_str(")")
            }
            IntNode::Mul(a, b) => write!(f, "({a:?} * {b:?})"),
            IntNode::Div(a, b) => write!(f, "({a:?} / {b:?})"),
            IntNode::Rem(a, b) => write!(f, "({a:?} % {b:?})"),
            IntNode::Pow(a, b) => write!(f, "pow({a:?}, {b:?})"),
            IntNode::Abs(a) => write!(f, "abs({a:?})"),
            IntNode::Min(items) => list(f, "min", items),
            IntNode::Max(items) => list(f, "max", items),
            IntNode::Element {
                index,
                offset,
                array,
            } => {
                list(f, "element", array)?;
                write!(f, "[{index:?} - {offset}]")
            }
            IntNode::Element2d { row, col, table } => {
                write!(f, "table of {} rows[{row:?}][{col:?}]", table.len())
            }
            IntNode::NValue(items) => list(f, "nvalue", items),
            IntNode::Count(items, value) => {
                list(f, "count", items)?;
                write!(f, " == {value:?}")
            }
            IntNode::Among(items, values) => {
                list(f, "among", items)?;
                write!(f, " in {values:?}")
            }
            IntNode::Bool(b) => write!(f, "bool2int({b:?})"),
            IntNode::Invalid(message) => write!(f, "invalid({message})"),
        }
    }
}
