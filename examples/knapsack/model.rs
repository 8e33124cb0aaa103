//! The 0/1 knapsack: take each item or leave it, the total weight within the capacity, the
//! total value as large as possible.
//!
//! The built-in instance is P07 of the knapsack problems John Burkardt collected from
//! Kreher and Stinson, *Combinatorial Algorithms* (CRC Press, 1999): 15 items, capacity
//! 750, optimum 1458 (items 1, 3, 5, 7, 8, 9, 14 and 15, weight 749), checked by brute
//! force over the 32768 subsets in `tests/search/objectives.rs`.

use ambsolve::{Puzzle, constraints};

/// An item that may go into the knapsack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    /// What it weighs.
    pub weight: i64,
    /// What it is worth.
    pub value: i64,
}

/// The capacity of instance P07.
pub const P07_CAPACITY: i64 = 750;

/// The 15 items of instance P07.
pub const P07: [Item; 15] = [
    item(70, 135),
    item(73, 139),
    item(77, 149),
    item(80, 150),
    item(82, 156),
    item(87, 163),
    item(90, 173),
    item(94, 184),
    item(98, 192),
    item(106, 201),
    item(110, 210),
    item(113, 214),
    item(115, 221),
    item(118, 229),
    item(120, 240),
];

const fn item(weight: i64, value: i64) -> Item {
    Item { weight, value }
}

/// The most valuable choice of `items` weighing at most `capacity`, as a puzzle
/// maximising the total value; a solution is the indices of the items taken, ascending.
pub fn knapsack(items: &[Item], capacity: i64) -> Puzzle<'static, Vec<usize>> {
    let n = items.len();
    let weight: Vec<i64> = items.iter().map(|item| item.weight).collect();
    let value: Vec<i64> = items.iter().map(|item| item.value).collect();
    constraints! {
        let take[n] = amb(0..=1);
        require sum(weight[i] * take[i] for i in 0..n) <= capacity;
        maximize sum(value[i] * take[i] for i in 0..n);
    }
    .map(|s| (0..s.take.len()).filter(|&i| s.take[i] == 1).collect())
}

/// The total weight and value of the items of `items` at the indices `taken`; an index
/// out of range counts for nothing, and a total beyond the range of `i64` stops at its
/// end.
pub fn totals(items: &[Item], taken: &[usize]) -> (i64, i64) {
    taken
        .iter()
        .filter_map(|&i| items.get(i))
        .fold((0, 0), |(w, v), item| {
            (w.saturating_add(item.weight), v.saturating_add(item.value))
        })
}
