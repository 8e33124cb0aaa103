//! The word-chain puzzle: one word from each list, each word's last letter the next one's
//! first.

use ambsolve::{Puzzle, constraints};

/// The classic lists of the sources.
pub const CLASSIC: [&[&str]; 4] = [
    &["the", "that", "a"],
    &["frog", "elephant", "thing"],
    &["walked", "treaded", "grows"],
    &["slowly", "quickly"],
];

/// [`CLASSIC`] as owned lists, the form [`chains`] takes.
pub fn classic_lists() -> Vec<Vec<String>> {
    CLASSIC
        .iter()
        .map(|l| l.iter().map(|w| w.to_string()).collect())
        .collect()
}

/// Whether `b` may follow `a`: `a`'s last letter is `b`'s first.
pub fn linked(a: &str, b: &str) -> bool {
    a.chars().last().is_some_and(|last| b.starts_with(last))
}

/// Every chain through `lists`: one word from each list, each linked to the next.
pub fn chains(lists: &[Vec<String>]) -> Puzzle<'_, Vec<&str>> {
    let k = lists.len();
    constraints! {
        let w[i < k] = amb(lists[i].iter().map(String::as_str));
        for i in 1..k {
            require linked(w[i - 1], w[i]);
        }
    }
    .map(|chain| chain.w)
}
