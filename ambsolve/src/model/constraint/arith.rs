//! Arithmetic: products, quotients, remainders and powers (`z = x op y`), absolute values,
//! and the least or greatest of an array, as exact relations over the integers (a result
//! that is undefined, as a division by zero, makes the constraint false).
//!
//! Its `Model` methods: arithmetic: products, quotients, remainders, powers, absolute
//! values, least and greatest.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{Constraint, Int, IntArg, Meaning, vars_of};
use crate::var::VarId;

/// Beyond every `i64` on both sides: powers are clamped to `-HUGE..=HUGE`, which keeps
/// their order and every power an `i64` can equal.
pub(crate) const HUGE: i128 = (1 << 63) + 1;

/// The operation of a binary arithmetic constraint `z = x op y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    /// `x * y`.
    Times,
    /// `x / y`, truncated toward zero (Rust's `/`, MiniZinc's `div`); undefined for
    /// `y = 0`.
    Div,
    /// `x % y`, with the sign of `x` (Rust's `%`, MiniZinc's `mod`); undefined for
    /// `y = 0`.
    Rem,
    /// `x` to the power `y` (`0^0 = 1`); undefined for `y < 0`.
    Pow,
    /// As `Pow`, but a negative exponent reads as the truncated reciprocal
    /// `1 / x^-y` (MiniZinc's `int_pow`): undefined for `x = 0` only.
    PowReciprocal,
}

impl Op {
    /// `x op y` exactly, or `None` where it is undefined. Powers are clamped to
    /// `-HUGE..=HUGE`.
    pub(crate) fn apply(self, x: i64, y: i64) -> Option<i128> {
        let (a, b) = (i128::from(x), i128::from(y));
        match self {
            Op::Times => Some(a * b),
            Op::Div => (b != 0).then(|| a / b),
            Op::Rem => (b != 0).then(|| a % b),
            Op::Pow => (b >= 0).then(|| pow(a, b)),
            Op::PowReciprocal if b >= 0 => Some(pow(a, b)),
            Op::PowReciprocal => match a {
                0 => None,
                1 => Some(1),
                -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
                _ => Some(0),
            },
        }
    }

    /// Its name, as the `Model` method that posts it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Op::Times => "times",
            Op::Div => "div",
            Op::Rem => "rem",
            Op::Pow => "pow",
            Op::PowReciprocal => "pow_reciprocal",
        }
    }
}

/// `x^y` for `y >= 0` (`0^0 = 1`), clamped to `-HUGE..=HUGE`.
pub(crate) fn pow(x: i128, y: i128) -> i128 {
    match x {
        _ if y == 0 => 1,
        0 | 1 => x,
        -1 => {
            if y % 2 == 0 {
                1
            } else {
                -1
            }
        }
        _ => {
            // |x| >= 2: past 64 factors the power is beyond i64 whatever x is.
            let negative = x < 0 && y % 2 == 1;
            let mut power: i128 = 1;
            for _ in 0..y.min(64) {
                power *= x;
                if power.abs() >= HUGE {
                    break;
                }
            }
            if power.abs() >= HUGE || y > 64 {
                if negative { -HUGE } else { HUGE }
            } else {
                power
            }
        }
    }
}

/// `z = x op y`.
pub(crate) struct Binary {
    pub(crate) op: Op,
    pub(crate) x: Int,
    pub(crate) y: Int,
    pub(crate) z: Int,
    pub(crate) vars: Vec<VarId>,
}

impl Binary {
    pub(crate) fn new(op: Op, x: Int, y: Int, z: Int) -> Self {
        let vars = vars_of([&x, &y, &z]);
        Binary { op, x, y, z, vars }
    }
}

impl Meaning for Binary {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let z = i128::from(self.z.value(values));
        self.op.apply(self.x.value(values), self.y.value(values)) == Some(z)
    }

    fn describe(&self) -> String {
        format!(
            "{}({}, {}, {})",
            self.op.name(),
            self.x.describe(),
            self.y.describe(),
            self.z.describe()
        )
    }
}

/// `z = |x|`.
pub(crate) struct Abs {
    pub(crate) x: Int,
    pub(crate) z: Int,
    pub(crate) vars: Vec<VarId>,
}

impl Abs {
    pub(crate) fn new(x: Int, z: Int) -> Self {
        let vars = vars_of([&x, &z]);
        Abs { x, z, vars }
    }
}

impl Meaning for Abs {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        i128::from(self.x.value(values)).abs() == i128::from(self.z.value(values))
    }

    fn describe(&self) -> String {
        format!("abs({}, {})", self.x.describe(), self.z.describe())
    }
}

/// `z` is the greatest (or, if not `greatest`, the least) of `items`, a non-empty array.
pub(crate) struct Extreme {
    pub(crate) items: Vec<Int>,
    pub(crate) z: Int,
    pub(crate) greatest: bool,
    pub(crate) vars: Vec<VarId>,
}

impl Extreme {
    pub(crate) fn new(items: Vec<Int>, z: Int, greatest: bool) -> Self {
        let vars = vars_of(items.iter().chain([&z]));
        Extreme {
            items,
            z,
            greatest,
            vars,
        }
    }
}

impl Meaning for Extreme {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let items = self.items.iter().map(|x| x.value(values));
        let extreme = if self.greatest {
            items.max()
        } else {
            items.min()
        };
        extreme == Some(self.z.value(values))
    }

    fn describe(&self) -> String {
        let items: Vec<String> = self.items.iter().map(Int::describe).collect();
        let word = if self.greatest { "max" } else { "min" };
        format!("{word}([{}], {})", items.join(", "), self.z.describe())
    }
}

impl<'a> Model<'a> {
    /// `x * y == z`, exactly (no overflow: the product of two `i64`s is computed in
    /// `i128`, and a product no `i64` holds equals no `z`). Each argument is a variable
    /// with integer values or a constant (see [`IntArg`]).
    ///
    /// The trail engine narrows the three bounds by interval multiplication and division
    /// (`x * x` knows its square is not negative), and removes every value without
    /// support once at most 4096 pairs of `x` and `y` are left.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // The ways to write 12 as a product of two numbers in 1..=12.
    /// let mut m = Model::new();
    /// let x = m.var(1..=12i64);
    /// let y = m.var(1..=12i64);
    /// m.times(&x, &y, 12);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 6);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn times(&mut self, x: impl Into<IntArg>, y: impl Into<IntArg>, z: impl Into<IntArg>) {
        self.binary(Op::Times, x, y, z);
    }

    /// `x / y == z`, the quotient truncated toward zero as Rust's `/` (and MiniZinc's
    /// `div`): `-7 / 2 == -3`. Division by zero makes the constraint false (it removes
    /// 0 from `y`).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(-7..=7i64);
    /// let y = m.var(-3..=3i64);
    /// m.div(&x, &y, 2);
    /// let expected = (-7..=7i64)
    ///     .flat_map(|x| (-3..=3i64).map(move |y| (x, y)))
    ///     .filter(|&(x, y)| y != 0 && x / y == 2)
    ///     .count() as u64;
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, expected);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, expected);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn div(&mut self, x: impl Into<IntArg>, y: impl Into<IntArg>, z: impl Into<IntArg>) {
        self.binary(Op::Div, x, y, z);
    }

    /// `x % y == z`, the remainder with the sign of `x` as Rust's `%` (and MiniZinc's
    /// `mod`): `-7 % 2 == -1`, `7 % -2 == 1`. Division by zero makes the constraint false.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // The numbers in -9..=9 that leave -1 when divided by 4.
    /// let mut m = Model::new();
    /// let x = m.var(-9..=9i64);
    /// m.rem(&x, 4, -1);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 3); // -9, -5, -1
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 3);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn rem(&mut self, x: impl Into<IntArg>, y: impl Into<IntArg>, z: impl Into<IntArg>) {
        self.binary(Op::Rem, x, y, z);
    }

    /// `x` to the power `y` equals `z` (`0^0 == 1`); a negative exponent makes the
    /// constraint false (it removes the negative values of `y`). Powers too large for an
    /// `i64` equal no `z`.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Cubes in -30..=30.
    /// let mut m = Model::new();
    /// let x = m.var(-5..=5i64);
    /// let z = m.var(-30..=30i64);
    /// m.pow(&x, 3, &z);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 7); // x in -3..=3
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 7);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn pow(&mut self, x: impl Into<IntArg>, y: impl Into<IntArg>, z: impl Into<IntArg>) {
        self.binary(Op::Pow, x, y, z);
    }

    /// As [`pow`](Model::pow), except that a negative exponent reads as the truncated
    /// reciprocal `1 / x^-y`, as MiniZinc's `pow` and FlatZinc's `int_pow` do: 1 for
    /// `x == 1`, 1 or -1 (by the exponent's parity) for `x == -1`, 0 for any other
    /// `x`, and false for `x == 0`.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(-2..=2i64);
    /// let z = m.var(-1..=1i64);
    /// m.pow_reciprocal(&x, -3, &z); // x = -2, -1, 1, 2 (z = 0, -1, 1, 0); not 0
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 4);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 4);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn pow_reciprocal(
        &mut self,
        x: impl Into<IntArg>,
        y: impl Into<IntArg>,
        z: impl Into<IntArg>,
    ) {
        self.binary(Op::PowReciprocal, x, y, z);
    }

    /// `z == |x|`.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(-3..=3i64);
    /// let y = m.var(-3..=3i64);
    /// let d = m.var(0..=6i64);
    /// m.linear([(1, &x), (-1, &y)], ambsolve::Cmp::Eq, 0); // x == y ..
    /// m.abs(&x, 2); // .. and |x| == 2
    /// m.abs(&y, &d);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn abs(&mut self, x: impl Into<IntArg>, z: impl Into<IntArg>) {
        if let (Some(x), Some(z)) = (self.int(x), self.int(z)) {
            self.post(Constraint::Abs(Arc::new(Abs::new(x, z))));
        }
    }

    /// `z` is the least of `items`. No item makes the model invalid.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Three numbers in 0..4 whose least is 2: 2 or 3 each, not all 3.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..4i64);
    /// m.min(&x, 2);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 7);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 7);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn min<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        z: impl Into<IntArg>,
    ) {
        self.extreme(items, z, false);
    }

    /// `z` is the greatest of `items`. No item makes the model invalid.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..4i64);
    /// let top = m.var(0..4i64);
    /// m.max(&x, &top);
    /// m.linear([(1, &top)], ambsolve::Cmp::Le, 1); // every item at most 1
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 8);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 8);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn max<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        z: impl Into<IntArg>,
    ) {
        self.extreme(items, z, true);
    }

    fn binary(&mut self, op: Op, x: impl Into<IntArg>, y: impl Into<IntArg>, z: impl Into<IntArg>) {
        if let (Some(x), Some(y), Some(z)) = (self.int(x), self.int(y), self.int(z)) {
            self.post(Constraint::Binary(Arc::new(Binary::new(op, x, y, z))));
        }
    }

    fn extreme<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        z: impl Into<IntArg>,
        greatest: bool,
    ) {
        let (Some(items), Some(z)) = (self.ints(items), self.int(z)) else {
            return;
        };
        if items.is_empty() {
            let word = if greatest { "max" } else { "min" };
            return self.invalid(format!("{word} of no item: the array must not be empty"));
        }
        self.post(Constraint::Extreme(Arc::new(Extreme::new(
            items, z, greatest,
        ))));
    }
}

#[cfg(test)]
mod tests {
    use super::{HUGE, Op, pow};
    use crate::model::Model;

    #[test]
    fn operations_follow_rust_and_minizinc() {
        // Truncating division and the remainder's sign, as MiniZinc's div and mod.
        assert_eq!(Op::Div.apply(-7, 2), Some(-3));
        assert_eq!(Op::Div.apply(7, -2), Some(-3));
        assert_eq!(Op::Rem.apply(-7, 2), Some(-1));
        assert_eq!(Op::Rem.apply(7, -2), Some(1));
        assert_eq!(Op::Div.apply(1, 0), None);
        assert_eq!(Op::Rem.apply(1, 0), None);
        // No overflow at the ends of i64.
        assert_eq!(Op::Div.apply(i64::MIN, -1), Some(1 << 63));
        assert_eq!(Op::Rem.apply(i64::MIN, -1), Some(0));
        assert_eq!(
            Op::Times.apply(i64::MIN, i64::MIN),
            Some(i128::from(i64::MIN) * i128::from(i64::MIN))
        );
        assert_eq!(Op::Pow.apply(0, 0), Some(1));
        assert_eq!(Op::Pow.apply(2, -1), None);
        assert_eq!(Op::PowReciprocal.apply(2, -1), Some(0));
        assert_eq!(Op::PowReciprocal.apply(-1, -3), Some(-1));
        assert_eq!(Op::PowReciprocal.apply(0, -1), None);
    }

    #[test]
    fn powers_saturate_beyond_i64_with_their_sign() {
        assert_eq!(pow(2, 62), 1 << 62);
        assert_eq!(pow(-2, 63), -(1 << 63));
        assert_eq!(pow(2, 63), 1 << 63);
        assert_eq!(pow(2, 64), HUGE);
        assert_eq!(pow(-2, 65), -HUGE);
        assert_eq!(pow(-3, i128::from(i64::MAX)), -HUGE);
        assert_eq!(pow(3, i128::from(i64::MAX) - 1), HUGE);
        assert_eq!(pow(-1, i128::from(i64::MAX)), -1);
        assert_eq!(pow(i128::from(i64::MIN), 1), i128::from(i64::MIN));
    }

    #[test]
    fn an_empty_array_or_a_value_beyond_i64_makes_the_model_invalid() {
        let mut m = Model::new();
        let z = m.var(0..3i64);
        m.max(Vec::<i64>::new(), &z);
        assert!(m.error().is_some_and(|e| e.contains("no item")));
        let mut m = Model::new();
        let big = m.var([1u64, u64::MAX]);
        m.times(&big, 2, 2);
        assert!(
            m.error()
                .is_some_and(|e| e.contains("does not fit in an i64"))
        );
    }
}
