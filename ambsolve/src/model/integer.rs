//! Integer-valued variables: the values arithmetic constraints compute with.

use std::sync::Arc;

use crate::var::Values;

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

/// The images of a variable's values: a range's as two numbers (a range's values are
/// the integers themselves), a list's shared where they are the list itself; or the
/// position of the first value out of `i64` range.
pub(crate) fn images_of<T: Integer>(values: &Values<T>) -> Result<Images, usize> {
    match values {
        Values::List(list) => T::shared_images(list).map(Images::List),
        Values::Range(spread) => Ok(Images::Range {
            first: spread.first,
            len: spread.len,
        }),
    }
}

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

/// The integer image of each value of a variable, by value index: the consecutive
/// integers of a range (two numbers, whatever its length), or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Images {
    /// `first, first + 1, .., first + len - 1`.
    Range {
        first: i64,
        len: u32,
    },
    List(Arc<[i64]>),
}

impl Images {
    /// The number of values.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            Images::Range { len, .. } => *len as usize,
            Images::List(list) => list.len(),
        }
    }

    /// Whether there are no values.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The image of value `index`.
    ///
    /// # Panics
    /// If `index` is not below [`len`](Images::len) (for a list; a range computes it).
    #[inline(always)]
    pub(crate) fn get(&self, index: usize) -> i64 {
        match self {
            Images::Range { first, .. } => first + index as i64,
            Images::List(list) => list[index],
        }
    }

    /// The first image, if any.
    pub(crate) fn first(&self) -> Option<i64> {
        (!self.is_empty()).then(|| self.get(0))
    }

    /// The last image, if any.
    pub(crate) fn last(&self) -> Option<i64> {
        self.len().checked_sub(1).map(|i| self.get(i))
    }

    /// The images in index order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = i64> + ExactSizeIterator + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The images within `low..=high`, in index order (a range's without visiting the
    /// others).
    pub(crate) fn iter_between(&self, low: i128, high: i128) -> impl Iterator<Item = i64> + '_ {
        let (from, to) = match self {
            Images::Range { first, .. } => {
                let from = (low - i128::from(*first)).clamp(0, self.len() as i128);
                let to = (high - i128::from(*first) + 1).clamp(from, self.len() as i128);
                (from as usize, to as usize)
            }
            Images::List(_) => (0, self.len()),
        };
        (from..to)
            .map(|i| self.get(i))
            .filter(move |&x| (low..=high).contains(&i128::from(x)))
    }

    /// The images as a list (a range's built now: only for short ones).
    pub(crate) fn to_list(&self) -> Arc<[i64]> {
        match self {
            Images::Range { .. } => self.iter().collect(),
            Images::List(list) => Arc::clone(list),
        }
    }

    /// The first index whose image fails `pred`, for `pred` true on a prefix (as
    /// [`slice::partition_point`]).
    pub(crate) fn partition_point(&self, pred: impl Fn(i64) -> bool) -> usize {
        match self {
            Images::List(list) => list.partition_point(|&x| pred(x)),
            Images::Range { .. } => {
                let (mut low, mut high) = (0, self.len());
                while low < high {
                    let mid = low + (high - low) / 2;
                    if pred(self.get(mid)) {
                        low = mid + 1;
                    } else {
                        high = mid;
                    }
                }
                low
            }
        }
    }

    /// The first image when the images are consecutive (a range, or a list that is one).
    pub(crate) fn consecutive_start(&self) -> Option<i64> {
        match self {
            Images::Range { first, len } => (*len > 0).then_some(*first),
            Images::List(list) => consecutive_start(list),
        }
    }

    /// How the images move along the indices.
    pub(crate) fn trend(&self) -> Trend {
        match self {
            Images::Range { .. } => Trend::Rising,
            Images::List(list) => Trend::of(list),
        }
    }

    /// The smallest and largest image (`None` without values).
    pub(crate) fn extremes(&self) -> Option<(i64, i64)> {
        match self {
            Images::Range { .. } => Some((self.first()?, self.last()?)),
            Images::List(list) => Some((*list.iter().min()?, *list.iter().max()?)),
        }
    }

    /// The index of the first value whose image is `value`.
    pub(crate) fn position(&self, value: i64) -> Option<usize> {
        match self {
            Images::Range { first, len } => {
                let offset = value.checked_sub(*first)?;
                (0..i64::from(*len))
                    .contains(&offset)
                    .then_some(offset as usize)
            }
            Images::List(list) => list.iter().position(|&x| x == value),
        }
    }

    /// The values of an `i64` variable whose values are these images.
    pub(crate) fn values(&self) -> Values<i64> {
        match self {
            Images::Range { first, len } => Values::range(*first, *len, |x| x, |x| *x),
            Images::List(list) => Values::List(Arc::clone(list)),
        }
    }
}

impl From<Arc<[i64]>> for Images {
    fn from(list: Arc<[i64]>) -> Self {
        Images::List(list)
    }
}

impl From<Vec<i64>> for Images {
    fn from(list: Vec<i64>) -> Self {
        Images::List(list.into())
    }
}
