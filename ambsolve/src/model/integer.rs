//! Integer-valued variables: the values arithmetic constraints compute with.

use std::sync::Arc;

/// Values that arithmetic constraints (linear sums, all-different with offsets) can compute
/// with: the primitive integer types.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an integer type, and arithmetic constraints compute with integers",
    label = "a linear sum or an offset over this choice needs integer values",
    note = "in `constraints!`, a comparison with a float literal (`x + y <= 2.0`) is a predicate with Rust's float meaning; \
            over values of your own type, compare in a function (`require fits(x, y);`)"
)]
pub trait Integer: Copy {
    /// The value as an `i64`, or `None` if it does not fit (a `u64` above `i64::MAX`).
    fn to_i64(self) -> Option<i64>;

    /// The images of a variable's value list (see [`images`]), shared where they are the
    /// list itself: the terms of a million sums over `i64` variables copy no list.
    #[doc(hidden)]
    fn shared_images(values: &Arc<[Self]>) -> Result<Arc<[i64]>, usize> {
        images(values).map(Arc::from)
    }
}

impl Integer for i64 {
    #[inline]
    fn to_i64(self) -> Option<i64> {
        Some(self)
    }

    fn shared_images(values: &Arc<[i64]>) -> Result<Arc<[i64]>, usize> {
        Ok(Arc::clone(values))
    }
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Integer for $t {
            #[inline]
            fn to_i64(self) -> Option<i64> {
                i64::try_from(self).ok()
            }
        }
    )*};
}

integer!(i8, i16, i32, i128, isize, u8, u16, u32, u64, u128, usize);

/// The first image when the images are the consecutive integers `first, first + 1, ..`
/// (a range): a value's index is then its image minus `first`. `None` for an empty list.
pub(crate) fn consecutive_start(images: &[i64]) -> Option<i64> {
    let first = *images.first()?;
    images
        .windows(2)
        .all(|w| w[0].checked_add(1) == Some(w[1]))
        .then_some(first)
}

/// The integer images of a value list, or the position of the first value out of range.
pub(crate) fn images<T: Integer>(values: &[T]) -> Result<Vec<i64>, usize> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| v.to_i64().ok_or(i))
        .collect()
}

/// How the images of a value list move along the value indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trend {
    /// Never down (ranges, sorted lists, constants).
    Rising,
    /// Never up.
    Falling,
    /// Both ways.
    Mixed,
}

impl Trend {
    /// The trend of `images`.
    pub(crate) fn of(images: &[i64]) -> Trend {
        if images.is_sorted() {
            Trend::Rising
        } else if images.is_sorted_by(|a, b| a >= b) {
            Trend::Falling
        } else {
            Trend::Mixed
        }
    }
}
