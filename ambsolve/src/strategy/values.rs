//! Value orders over a variable's value indices (shared by the engines), the middle-out
//! walk, and the small seeded generator behind random orders.

use super::ValueOrder;
use crate::var::VarId;

/// A small deterministic generator (SplitMix64) for shuffles.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix(u64);

impl SplitMix {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`).
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Middle-out order over `0..universe`: the index at position `k`.
pub(crate) fn middle_out_index(universe: u32, k: u32) -> u32 {
    let (low, high) = ((universe - 1) / 2, universe / 2);
    if low == high {
        // Odd: m, m-1, m+1, m-2, ...
        if k == 0 {
            low
        } else if k % 2 == 1 {
            low.wrapping_sub(k.div_ceil(2))
        } else {
            low + k / 2
        }
    } else if k % 2 == 0 {
        // Even: low, high, low-1, high+1, ...
        low.wrapping_sub(k / 2)
    } else {
        high + k / 2
    }
}

/// Middle-out order over `0..universe`: the position of `index`.
pub(crate) fn middle_out_position(universe: u32, index: u32) -> u32 {
    let (low, high) = ((universe - 1) / 2, universe / 2);
    if low == high {
        if index <= low {
            2 * (low - index) - u32::from(index < low)
        } else {
            2 * (index - low)
        }
    } else if index <= low {
        2 * (low - index)
    } else {
        2 * (index - high) + 1
    }
}

/// Puts `indices` (value indices of a variable with `universe` values) in `order`.
pub(crate) fn order_values(
    order: &ValueOrder,
    var: VarId,
    universe: u32,
    indices: &mut [u32],
    seed: u64,
) {
    match order {
        ValueOrder::Ascending => indices.sort_unstable(),
        ValueOrder::Descending => indices.sort_unstable_by(|a, b| b.cmp(a)),
        ValueOrder::MiddleOut => {
            let twice_middle = i64::from(universe) - 1;
            indices.sort_unstable_by_key(|&i| ((2 * i64::from(i) - twice_middle).abs(), i));
        }
        ValueOrder::Random(base) => {
            indices.sort_unstable();
            let mixed = base ^ seed ^ u64::from(var.raw()).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            SplitMix::new(mixed).shuffle(indices);
        }
        ValueOrder::By(key) => indices.sort_by_key(|&i| (key(var, i), i)),
        ValueOrder::Median => {
            indices.sort_unstable();
            if !indices.is_empty() {
                // The median first, then the others in index order.
                let median = (indices.len() - 1) / 2;
                indices[..=median].rotate_right(1);
            }
        }
        // Splits are not value orders: an engine that branches on values (replay) refuses
        // them before it starts; ascending if asked all the same.
        ValueOrder::Split | ValueOrder::ReverseSplit => indices.sort_unstable(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn middle_out_starts_in_the_middle() {
        let mut v: Vec<u32> = (0..5).collect();
        order_values(&ValueOrder::MiddleOut, VarId::at(0), 5, &mut v, 0);
        assert_eq!(v, [2, 1, 3, 0, 4]);
        let mut v: Vec<u32> = (0..4).collect();
        order_values(&ValueOrder::MiddleOut, VarId::at(0), 4, &mut v, 0);
        assert_eq!(v, [1, 2, 0, 3]);
    }

    #[test]
    fn median_first_then_ascending() {
        let mut v = vec![9, 1, 4, 7, 3];
        order_values(&ValueOrder::Median, VarId::at(0), 10, &mut v, 0);
        assert_eq!(v, [4, 1, 3, 7, 9]);
        let mut v = vec![2, 8];
        order_values(&ValueOrder::Median, VarId::at(0), 10, &mut v, 0);
        assert_eq!(v, [2, 8]);
        let mut v: Vec<u32> = vec![];
        order_values(&ValueOrder::Median, VarId::at(0), 10, &mut v, 0);
        assert!(v.is_empty());
    }

    #[test]
    fn middle_out_positions_match_the_sorted_order() {
        for universe in 1..40u32 {
            let mut sorted: Vec<u32> = (0..universe).collect();
            order_values(
                &ValueOrder::MiddleOut,
                VarId::at(0),
                universe,
                &mut sorted,
                0,
            );
            for (k, &index) in sorted.iter().enumerate() {
                assert_eq!(
                    middle_out_index(universe, k as u32),
                    index,
                    "universe {universe}"
                );
                assert_eq!(
                    middle_out_position(universe, index),
                    k as u32,
                    "universe {universe}"
                );
            }
        }
    }

    #[test]
    fn random_orders_are_permutations_fixed_by_the_seed() {
        let shuffled = |seed| {
            let mut v: Vec<u32> = (0..50).collect();
            order_values(&ValueOrder::Random(seed), VarId::at(3), 50, &mut v, 0);
            v
        };
        let a = shuffled(1);
        assert_eq!(a, shuffled(1));
        assert_ne!(a, shuffled(2));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}
