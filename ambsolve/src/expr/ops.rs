//! The arithmetic operators of [`IntExpr`]: `+ - * / %` and negation.

use std::ops::{Add, Div, Mul, Neg, Rem, Sub};

use crate::expr::IntExpr;

macro_rules! arithmetic {
    ($($trait:ident $method:ident $doc:literal => $body:expr),*) => {$(
        impl<R: Into<IntExpr>> $trait<R> for IntExpr {
            type Output = IntExpr;

            #[doc = $doc]
            fn $method(self, other: R) -> IntExpr {
                let f: fn(IntExpr, IntExpr) -> IntExpr = $body;
                f(self, other.into())
            }
        }

        impl<R: Into<IntExpr>> $trait<R> for &IntExpr {
            type Output = IntExpr;

            #[doc = $doc]
            fn $method(self, other: R) -> IntExpr {
                $trait::$method(self.clone(), other)
            }
        }
    )*};
}

arithmetic!(
    Add add "The sum." => |a, b| a.plus(1, b),
    Sub sub "The difference." => |a, b| a.plus(-1, b),
    Mul mul "The product." => IntExpr::times,
    Div div "The quotient, truncated toward zero as Rust's `/`; undefined for a divisor 0." =>
        |a, b| a.divided(b, false),
    Rem rem "The remainder of the truncating division, with the sign of the dividend as \
             Rust's `%`; undefined for a divisor 0." => |a, b| a.divided(b, true)
);

impl Neg for IntExpr {
    type Output = IntExpr;

    /// The opposite.
    fn neg(self) -> IntExpr {
        self.scaled(-1)
    }
}

impl Neg for &IntExpr {
    type Output = IntExpr;

    /// The opposite.
    fn neg(self) -> IntExpr {
        self.clone().scaled(-1)
    }
}
