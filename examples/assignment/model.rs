//! The assignment problem: give each worker a different task, the total cost read from a
//! cost table (a lookup at each chosen task) within a budget, or as small as possible.

use ambsolve::{Puzzle, constraints};

/// The cost of worker `i` doing task `j` (rows: workers, columns: tasks).
pub const COSTS: [[i64; 5]; 5] = [
    [9, 2, 7, 8, 6],
    [6, 4, 3, 7, 5],
    [5, 8, 1, 8, 7],
    [7, 6, 9, 4, 3],
    [2, 5, 6, 7, 9],
];

/// The assignments of `costs` (a square table) costing at most `budget`; a solution is
/// the task of each worker.
pub fn assignments(costs: &[[i64; 5]], budget: i64) -> Puzzle<'_, Vec<usize>> {
    let n = costs.len();
    constraints! {
        let task[n] = amb(0..n);
        require all_different(task);
        require sum(costs[i][task[i]] for i in 0..n) <= budget;
    }
    .map(|s| s.task)
}

/// What an assignment costs.
pub fn cost(costs: &[[i64; 5]], tasks: &[usize]) -> i64 {
    tasks.iter().enumerate().map(|(i, &t)| costs[i][t]).sum()
}

/// The cheapest assignment of `costs` (a square table), as a puzzle minimising the total
/// cost; a solution is the task of each worker.
pub fn cheapest(costs: &[[i64; 5]]) -> Puzzle<'_, Vec<usize>> {
    let n = costs.len();
    constraints! {
        let task[n] = amb(0..n);
        require all_different(task);
        minimize sum(costs[i][task[i]] for i in 0..n);
    }
    .map(|s| s.task)
}
