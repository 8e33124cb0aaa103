//! Integer-valued variables: the values arithmetic constraints compute with.

/// Values that arithmetic constraints (linear sums, all-different with offsets) can compute
/// with: the primitive integer types.
pub trait Integer: Copy {
    /// The value as an `i64`, or `None` if it does not fit (a `u64` above `i64::MAX`).
    fn to_i64(self) -> Option<i64>;
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

integer!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

/// The integer images of a value list, or the position of the first value out of range.
pub(crate) fn images<T: Integer>(values: &[T]) -> Result<Vec<i64>, usize> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| v.to_i64().ok_or(i))
        .collect()
}
