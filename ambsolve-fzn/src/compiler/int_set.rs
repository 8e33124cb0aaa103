//! Sets of integers as sorted, disjoint intervals: the domains of the declarations and the
//! set parameters, whatever their width (`0..4000000000` is two numbers, not four billion
//! values). Their values are listed only where the set is known small.

use std::fmt;

/// A set of integers: inclusive intervals `(low, high)`, ascending, disjoint and not
/// adjacent (`{1..3, 5}`, never `{1..2, 3..3}`), so that equal sets are equal values.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct IntSet {
    ranges: Vec<(i64, i64)>,
}

impl IntSet {
    /// The integers `low..=high` (none if `high < low`).
    pub(crate) fn range(low: i64, high: i64) -> Self {
        IntSet {
            ranges: if low <= high {
                vec![(low, high)]
            } else {
                Vec::new()
            },
        }
    }

    /// The set of one value.
    pub(crate) fn single(value: i64) -> Self {
        IntSet::range(value, value)
    }

    /// The set of `values`, in any order, repeated or not.
    pub(crate) fn from_values(values: impl IntoIterator<Item = i64>) -> Self {
        let mut values: Vec<i64> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        let mut ranges: Vec<(i64, i64)> = Vec::new();
        for value in values {
            match ranges.last_mut() {
                Some((_, high)) if high.checked_add(1) == Some(value) => *high = value,
                _ => ranges.push((value, value)),
            }
        }
        IntSet { ranges }
    }

    /// The intervals, ascending.
    pub(crate) fn ranges(&self) -> &[(i64, i64)] {
        &self.ranges
    }

    /// The number of values (up to 2^64, hence a `u128`).
    pub(crate) fn len(&self) -> u128 {
        self.ranges.iter().map(|&(l, h)| width(l, h)).sum()
    }

    /// Whether `value` is in the set.
    pub(crate) fn contains(&self, value: i64) -> bool {
        let at = self.ranges.partition_point(|&(_, high)| high < value);
        self.ranges.get(at).is_some_and(|&(low, _)| low <= value)
    }

    /// The values in both sets.
    pub(crate) fn intersect(&self, other: &IntSet) -> IntSet {
        let (mut a, mut b) = (
            self.ranges.iter().peekable(),
            other.ranges.iter().peekable(),
        );
        let mut ranges = Vec::new();
        while let (Some(&&(al, ah)), Some(&&(bl, bh))) = (a.peek(), b.peek()) {
            let (low, high) = (al.max(bl), ah.min(bh));
            if low <= high {
                ranges.push((low, high));
            }
            // The interval that ends first meets nothing further on.
            if ah < bh {
                a.next();
            } else {
                b.next();
            }
        }
        IntSet { ranges }
    }

    /// The values of `low..=high` not in the set.
    pub(crate) fn complement_within(&self, low: i64, high: i64) -> IntSet {
        let mut ranges = Vec::new();
        let mut next = Some(low);
        for &(l, h) in &self.ranges {
            let Some(from) = next else { break };
            if h < from {
                continue;
            }
            if l > high {
                break;
            }
            if l > from {
                ranges.push((from, l - 1));
            }
            next = h.checked_add(1);
        }
        if let Some(from) = next.filter(|&from| from <= high) {
            ranges.push((from, high));
        }
        IntSet { ranges }
    }

    /// The least value.
    pub(crate) fn min(&self) -> Option<i64> {
        self.ranges.first().map(|r| r.0)
    }

    /// The greatest value.
    pub(crate) fn max(&self) -> Option<i64> {
        self.ranges.last().map(|r| r.1)
    }

    /// The least and greatest values.
    pub(crate) fn hull(&self) -> Option<(i64, i64)> {
        self.min().zip(self.max())
    }

    /// Whether the set is one interval without a hole (and not empty).
    pub(crate) fn is_range(&self) -> bool {
        self.ranges.len() == 1
    }

    /// The values, ascending: only for a set known to be small.
    pub(crate) fn values(&self) -> impl Iterator<Item = i64> + '_ {
        self.ranges.iter().flat_map(|&(low, high)| low..=high)
    }

    /// The values, ascending, as a list: only for a set known to be small.
    pub(crate) fn to_vec(&self) -> Vec<i64> {
        self.values().collect()
    }
}

/// The number of values of `low..=high` (`high >= low`).
pub(crate) fn width(low: i64, high: i64) -> u128 {
    (i128::from(high) - i128::from(low) + 1) as u128
}

impl fmt::Debug for IntSet {
    /// `{1..4, 7}`; `{}` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, &(low, high)) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if low == high {
                write!(f, "{low}")?;
            } else {
                write!(f, "{low}..{high}")?;
            }
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_become_sorted_disjoint_intervals() {
        let set = IntSet::from_values([7, 3, 1, 2, 3, 9, 8, -1]);
        assert_eq!(set.ranges(), &[(-1, -1), (1, 3), (7, 9)]);
        assert_eq!(format!("{set:?}"), "{-1, 1..3, 7..9}");
        assert_eq!(set.len(), 7);
        assert_eq!(set.hull(), Some((-1, 9)));
        assert!(!set.is_range());
        assert_eq!(set.to_vec(), [-1, 1, 2, 3, 7, 8, 9]);
        for v in -3..12 {
            assert_eq!(set.contains(v), set.to_vec().contains(&v), "{v}");
        }
        assert_eq!(IntSet::from_values([]), IntSet::default());
        assert_eq!(IntSet::range(3, 2), IntSet::default());
        assert!(IntSet::range(2, 2).is_range());
        assert_eq!(format!("{:?}", IntSet::default()), "{}");
        assert!(IntSet::default().hull().is_none());
    }

    #[test]
    fn the_extremes_of_i64_hold_without_overflow() {
        let all = IntSet::range(i64::MIN, i64::MAX);
        assert_eq!(all.len(), 1u128 << 64);
        assert!(all.contains(i64::MIN) && all.contains(i64::MAX));
        let ends = IntSet::from_values([i64::MAX, i64::MIN, i64::MAX - 1]);
        assert_eq!(
            ends.ranges(),
            &[(i64::MIN, i64::MIN), (i64::MAX - 1, i64::MAX)]
        );
        assert_eq!(
            ends.complement_within(i64::MIN, i64::MAX).ranges(),
            &[(i64::MIN + 1, i64::MAX - 2)]
        );
        assert_eq!(all.complement_within(i64::MIN, i64::MAX), IntSet::default());
    }

    #[test]
    fn intersections_and_complements_agree_with_the_values() {
        let sets = [
            IntSet::from_values([1, 2, 3, 7, 8, 12]),
            IntSet::range(2, 9),
            IntSet::from_values([0, 3, 5, 8, 9, 10, 11, 12, 13]),
            IntSet::default(),
            IntSet::range(-5, 0),
        ];
        let has = |set: &IntSet| (-6..15).filter(|&v| set.contains(v)).collect::<Vec<_>>();
        for a in &sets {
            for b in &sets {
                let both = a.intersect(b);
                let expected: Vec<i64> = has(a).into_iter().filter(|&v| b.contains(v)).collect();
                assert_eq!(both.to_vec(), expected, "{a:?} ∩ {b:?}");
                assert_eq!(both, IntSet::from_values(expected));
            }
            let outside = a.complement_within(-2, 11);
            let expected: Vec<i64> = (-2..=11).filter(|&v| !a.contains(v)).collect();
            assert_eq!(outside, IntSet::from_values(expected), "{a:?}");
        }
    }
}
