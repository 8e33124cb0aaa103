//! Search strategies: which variable to branch on, in which order to try its values, and
//! whether to restart.

use std::fmt;
use std::sync::Arc;

use crate::var::VarId;

/// How the search picks the next variable.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub enum VarOrder {
    /// The engine's own choice (the default): declaration order on the trail engine,
    /// whose propagation needs no help; on the replay engine of a model, the order of
    /// [`Model::replay_order`](crate::Model::replay_order), which checks each constraint
    /// as soon as it can (declaration order when that changes nothing).
    #[default]
    Automatic,
    /// The order the variables were declared in.
    Input,
    /// The variable with the fewest values left; ties go to the earliest declared.
    FirstFail,
    /// The given order; variables not listed come after, in declaration order.
    Given(Arc<[VarId]>),
    /// The variable with the fewest values left; ties go to the one listed first in the
    /// given order (variables not listed come after, in declaration order).
    FirstFailThen(Arc<[VarId]>),
}

/// A ranking of values: lower keys are tried first.
pub type ValueKey = Arc<dyn Fn(VarId, u32) -> i64 + Send + Sync>;

/// In which order the search tries a variable's values (by index into its value list).
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum ValueOrder {
    /// Index order: the order of the value list.
    #[default]
    Ascending,
    /// Reverse index order.
    Descending,
    /// From the middle of the value list outwards (middle, then its neighbours, lower
    /// first): good for placement puzzles, where central values constrain least.
    MiddleOut,
    /// A shuffle, fixed by the seed: the same seed gives the same order.
    Random(u64),
    /// By a key `(variable, value index) -> i64`, smaller first; ties by index.
    By(ValueKey),
}

impl fmt::Debug for ValueOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueOrder::Ascending => f.write_str("Ascending"),
            ValueOrder::Descending => f.write_str("Descending"),
            ValueOrder::MiddleOut => f.write_str("MiddleOut"),
            ValueOrder::Random(seed) => write!(f, "Random({seed})"),
            ValueOrder::By(_) => f.write_str("By(..)"),
        }
    }
}

/// Restarts for a first-solution search: after a budget of failures the search starts over
/// with its value order shuffled, the budgets following the Luby sequence
/// (`scale × 1, 1, 2, 1, 1, 2, 4, …`). This cuts off the long unlucky runs that make a
/// fixed order stall on some sizes.
///
/// Restarts stop at the first solution: from there the search runs to its end without
/// restarting, so enumerating and counting still see every solution exactly once (in a
/// different order than without restarts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restarts {
    pub(crate) scale: u64,
    pub(crate) seed: u64,
}

impl Restarts {
    /// Luby restarts with budgets of `scale` failures times the Luby sequence.
    pub fn luby(scale: u64) -> Self {
        Restarts {
            scale: scale.max(1),
            seed: 0x5eed,
        }
    }

    /// The seed of the shuffles after a restart. Default: a fixed seed, so runs repeat.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The failure budget of run `run` (0 is the first run).
    pub(crate) fn budget(&self, run: u64) -> u64 {
        self.scale.saturating_mul(luby(run + 1))
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, … (1-based).
pub(crate) fn luby(mut i: u64) -> u64 {
    loop {
        // Find k with 2^(k-1) <= i < 2^k.
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// How a search explores: variable order, value order, restarts.
///
/// The default ([`Strategy::new`], [`Strategy::default`]) is each engine's own variable
/// order ([`VarOrder::Automatic`]: declaration order on the trail engine,
/// [`Model::replay_order`](crate::Model::replay_order) on the replay engine), ascending
/// values, no restarts. With a variable order both follow ([`VarOrder::Input`] or
/// [`VarOrder::Given`]) and ascending values, both engines yield the same solutions in the
/// same order.
///
/// ```
/// use ambsolve::{Restarts, Strategy, ValueOrder};
///
/// let big_boards = Strategy::first_fail()
///     .values(ValueOrder::MiddleOut)
///     .restarts(Restarts::luby(100));
/// # let _ = big_boards;
/// ```
#[derive(Clone, Debug, Default)]
pub struct Strategy {
    pub(crate) vars: VarOrder,
    pub(crate) values: ValueOrder,
    pub(crate) restarts: Option<Restarts>,
}

impl Strategy {
    /// The default strategy: each engine's own variable order ([`VarOrder::Automatic`]),
    /// ascending values, no restarts. The trail engine then takes the variables in
    /// declaration order, the replay engine of a model in the order of
    /// [`Model::replay_order`](crate::Model::replay_order) (each constraint checked as early
    /// as it can), so the two may list solutions in different orders;
    /// `Strategy::new().vars(VarOrder::Input)` gives both declaration order, and the same
    /// solutions in the same order.
    ///
    /// ```
    /// use ambsolve::{Engine, Model, Strategy, VarOrder};
    ///
    /// let mut m = Model::new();
    /// let a = m.var(0..2);
    /// let b = m.var(0..2);
    /// m.require(&b, |b| *b < 2); // a condition on b alone: the replay engine chooses b first
    /// let list = |engine, strategy: Strategy| -> Vec<(i32, i32)> {
    ///     let solutions = m.solve(engine).strategy(strategy).solutions();
    ///     solutions.map(|s| (*s.value(&a), *s.value(&b))).collect()
    /// };
    /// assert_eq!(list(Engine::Trail, Strategy::new()), [(0, 0), (0, 1), (1, 0), (1, 1)]);
    /// assert_eq!(list(Engine::Replay, Strategy::new()), [(0, 0), (1, 0), (0, 1), (1, 1)]);
    /// let input = Strategy::new().vars(VarOrder::Input);
    /// assert_eq!(list(Engine::Replay, input.clone()), list(Engine::Trail, input));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// First-fail (fewest values left first), ascending values, no restarts.
    pub fn first_fail() -> Self {
        Strategy::new().vars(VarOrder::FirstFail)
    }

    /// Sets the variable order.
    pub fn vars(mut self, order: VarOrder) -> Self {
        self.vars = order;
        self
    }

    /// Sets the value order.
    pub fn values(mut self, order: ValueOrder) -> Self {
        self.values = order;
        self
    }

    /// Restarts until the first solution. Default: none.
    pub fn restarts(mut self, restarts: Restarts) -> Self {
        self.restarts = Some(restarts);
        self
    }
}

/// The order of all `num_vars` variables a given order implies: the listed ones first
/// (in the given order, each once, ids outside the model ignored), then the others in
/// declaration order.
pub(crate) fn complete_order(given: &[VarId], num_vars: usize) -> Vec<usize> {
    let mut seen = vec![false; num_vars];
    given
        .iter()
        .map(|v| v.index())
        .chain(0..num_vars)
        .filter(|&v| v < num_vars && !std::mem::replace(&mut seen[v], true))
        .collect()
}

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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_orders_are_completed_in_declaration_order() {
        let given = [VarId::at(3), VarId::at(1), VarId::at(3), VarId::at(9)];
        assert_eq!(complete_order(&given, 5), [3, 1, 0, 2, 4]);
    }

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

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
