//! Exact integers for the code `constraints!` writes: a condition computes the same
//! whichever way the macro compiles it, with no wrap, no overflow panic and no difference
//! between signed and unsigned value types.
//!
//! An [`Exact`] is an `i128`, or *undefined* once a computation leaves the `i128` range or
//! divides by zero. Every comparison with an undefined operand is false, `!=` included:
//! the comparison that contains a division by zero does not hold (the relational
//! semantics of MiniZinc). Division and remainder truncate toward zero, as in Rust.

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Rem, Sub};

use crate::model::Integer;

/// An integer computed exactly: an `i128`, or undefined (out of range, or divided by zero).
#[derive(Clone, Copy, Debug)]
pub struct Exact(Option<i128>);

impl Exact {
    /// The integer `value`.
    pub const fn of(value: i128) -> Exact {
        Exact(Some(value))
    }

    /// `Some(value)`, or `None` for undefined.
    pub const fn from_option(value: Option<i128>) -> Exact {
        Exact(value)
    }

    /// The value, or `None` if undefined.
    pub const fn get(self) -> Option<i128> {
        self.0
    }

    fn map2(self, other: Exact, f: impl FnOnce(i128, i128) -> Option<i128>) -> Exact {
        Exact(self.0.zip(other.0).and_then(|(a, b)| f(a, b)))
    }

    /// The absolute value.
    pub fn abs(self) -> Exact {
        Exact(self.0.and_then(i128::checked_abs))
    }

    /// `self` to the power `exponent`.
    pub fn pow(self, exponent: u32) -> Exact {
        Exact(self.0.and_then(|a| a.checked_pow(exponent)))
    }

    /// `self` to the power `exponent`, an exact integer too: undefined for a negative
    /// exponent (and past `i128`); `0^0` is 1.
    pub fn power(self, exponent: Exact) -> Exact {
        self.map2(exponent, |a, e| {
            if e < 0 {
                return None;
            }
            match (a, u32::try_from(e)) {
                (_, Ok(e)) => a.checked_pow(e),
                (0 | 1, Err(_)) => Some(a),
                (-1, Err(_)) => Some(if e % 2 == 0 { 1 } else { -1 }),
                (_, Err(_)) => None,
            }
        })
    }

    /// The smaller of the two (undefined if either is).
    pub fn min(self, other: Exact) -> Exact {
        self.map2(other, |a, b| Some(a.min(b)))
    }

    /// The larger of the two (undefined if either is).
    pub fn max(self, other: Exact) -> Exact {
        self.map2(other, |a, b| Some(a.max(b)))
    }

    /// -1, 0 or 1.
    pub fn signum(self) -> Exact {
        Exact(self.0.map(i128::signum))
    }

    /// The remainder of Euclidean division (never negative).
    pub fn rem_euclid(self, other: Exact) -> Exact {
        self.map2(other, i128::checked_rem_euclid)
    }

    /// Euclidean division.
    pub fn div_euclid(self, other: Exact) -> Exact {
        self.map2(other, i128::checked_div_euclid)
    }
}

macro_rules! binary {
    ($($trait:ident $method:ident $checked:ident),*) => {$(
        impl $trait for Exact {
            type Output = Exact;
            fn $method(self, other: Exact) -> Exact {
                self.map2(other, i128::$checked)
            }
        }
    )*};
}

binary!(Add add checked_add, Sub sub checked_sub, Mul mul checked_mul, Div div checked_div, Rem rem checked_rem);

impl Neg for Exact {
    type Output = Exact;
    fn neg(self) -> Exact {
        Exact(self.0.and_then(i128::checked_neg))
    }
}

impl AddAssign for Exact {
    fn add_assign(&mut self, other: Exact) {
        *self = *self + other;
    }
}

impl PartialEq for Exact {
    fn eq(&self, other: &Exact) -> bool {
        self.0.is_some() && self.0 == other.0
    }

    // Undefined makes every comparison false, `!=` too.
    #[allow(clippy::partialeq_ne_impl)]
    fn ne(&self, other: &Exact) -> bool {
        self.0.is_some() && other.0.is_some() && self.0 != other.0
    }
}

impl PartialOrd for Exact {
    fn partial_cmp(&self, other: &Exact) -> Option<Ordering> {
        self.0.zip(other.0).map(|(a, b)| a.cmp(&b))
    }
}

/// A value on its way into a computing comparison: `(&&Probe::new(v)).exact()` is an
/// [`Exact`] if `v` is a primitive integer, `v` itself otherwise.
pub struct Probe<T>(std::cell::Cell<Option<T>>);

impl<T> std::fmt::Debug for Probe<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Probe(..)")
    }
}

impl<T> Probe<T> {
    /// Holds `value` until [`exact`](ProbeOther::exact) takes it.
    pub fn new(value: T) -> Self {
        Probe(std::cell::Cell::new(Some(value)))
    }

    fn take(&self) -> T {
        // Taken once: each probe is built for one call of `exact`.
        match self.0.take() {
            Some(value) => value,
            None => unreachable!("a probe is read once"),
        }
    }
}

/// The integer side of [`Probe`]: chosen first, for primitive integers.
pub trait ProbeInteger {
    /// The value as an exact integer.
    fn exact(&self) -> Exact;
}

impl<T: Integer + TryInto<i128>> ProbeInteger for &Probe<T> {
    fn exact(&self) -> Exact {
        Exact(self.take().try_into().ok())
    }
}

/// The other side of [`Probe`]: any value, unchanged.
pub trait ProbeOther {
    /// The value held.
    type Value;
    /// The value, unchanged.
    fn exact(&self) -> Self::Value;
}

impl<T> ProbeOther for Probe<T> {
    type Value = T;
    fn exact(&self) -> T {
        self.take()
    }
}

/// A value compared where it stands, borrowed: `(&&ProbeRef(&v)).exact()` is an
/// [`Exact`] if `v` is a primitive integer, `&v` otherwise (so values that are not `Copy`
/// compare by reference, as `==` and `<` do).
#[derive(Debug)]
pub struct ProbeRef<'v, T: ?Sized>(pub &'v T);

impl<T: Integer + TryInto<i128>> ProbeInteger for &ProbeRef<'_, T> {
    fn exact(&self) -> Exact {
        Exact((*self.0).try_into().ok())
    }
}

impl<'v, T: ?Sized> ProbeOther for ProbeRef<'v, T> {
    type Value = &'v T;
    fn exact(&self) -> &'v T {
        self.0
    }
}

#[cfg(test)]
#[allow(clippy::needless_borrow, clippy::neg_cmp_op_on_partial_ord)]
mod tests {
    use super::*;

    #[test]
    fn probes_pick_integers_and_leave_the_rest() {
        let x: usize = 3;
        let e = (&&Probe::new(x)).exact();
        assert_eq!((e - Exact::of(5)).get(), Some(-2));
        let word = (&&Probe::new("ant")).exact();
        assert_eq!(word, "ant");
        let float = (&&Probe::new(2.5f64)).exact();
        assert_eq!(float, 2.5);
    }

    #[test]
    fn undefined_makes_every_comparison_false() {
        let undefined = Exact::of(1) / Exact::of(0);
        assert!(!(undefined == Exact::of(1)));
        assert!(!(undefined != Exact::of(1)));
        assert!(!(undefined < Exact::of(1)) && !(undefined >= Exact::of(1)));
        assert_eq!((Exact::of(i128::MAX) + Exact::of(1)).get(), None);
        assert_eq!((Exact::of(-7) % Exact::of(3)).get(), Some(-1));
        assert_eq!(Exact::of(-7).rem_euclid(Exact::of(3)).get(), Some(2));
        assert_eq!(Exact::of(-2).power(Exact::of(3)).get(), Some(-8));
        assert_eq!(Exact::of(0).power(Exact::of(0)).get(), Some(1));
        assert_eq!(Exact::of(2).power(Exact::of(-1)).get(), None);
        assert_eq!(Exact::of(-1).power(Exact::of(1 << 40)).get(), Some(1));
        assert_eq!(Exact::of(2).power(Exact::of(1 << 40)).get(), None);
    }
}
