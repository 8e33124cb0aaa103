//! Arithmetic: products, quotients, remainders and powers (`z = x op y`), absolute values,
//! and the least or greatest of an array, as exact relations over the integers (a result
//! that is undefined, as a division by zero, makes the constraint false).

use crate::model::global::{Int, Meaning, vars_of};
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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

#[cfg(test)]
mod tests {
    use super::{HUGE, Op, pow};

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
}
