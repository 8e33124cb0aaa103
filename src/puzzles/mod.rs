//! The example puzzles, each a function returning a [`Puzzle`](ambsolve::Puzzle): the
//! examples print them, the tests check them against known answers, the benches time them.

pub mod assignment;
pub mod colouring;
pub mod dwelling;
pub mod golomb;
pub mod jobshop;
pub mod knapsack;
pub mod langford;
pub mod magic_square;
pub mod map_colouring;
pub mod pythagorean;
pub mod queens;
pub mod send_more_money;
pub mod single_machine;
mod split_mix;
pub mod sudoku;
pub mod tsp;
pub mod word_chain;
pub mod zebra;
