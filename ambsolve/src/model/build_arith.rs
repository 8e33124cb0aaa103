//! `Model` methods for arithmetic: products, quotients, remainders, powers, absolute
//! values, least and greatest.

use std::sync::Arc;

use crate::model::Model;
use crate::model::global::{Abs, Binary, Extreme, Global, IntArg, Op};

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
            self.global(Global::Abs(Arc::new(Abs::new(x, z))));
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
            self.global(Global::Binary(Arc::new(Binary::new(op, x, y, z))));
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
        self.global(Global::Extreme(Arc::new(Extreme::new(items, z, greatest))));
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Model;

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
