//! Sudoku: a 9×9 grid of digits, each row, column and box all different, the givens kept.

use ambsolve::{Puzzle, Strategy, constraints};

/// A puzzle: 81 cells, row by row, 0 for a blank.
pub type Grid = [u8; 81];

/// The puzzle: a 9×9 grid of digits, each row, column and box all different, the givens
/// kept. Solved with first-fail.
pub fn sudoku(grid: &Grid) -> Puzzle<'_, Vec<Vec<u8>>> {
    constraints! {
        let g[9][9] = amb(1..=9u8);
        for k in 0..9 {
            require all_different(g[k][i] for i in 0..9);
            require all_different(g[i][k] for i in 0..9);
            require all_different(g[3 * (k / 3) + i / 3][3 * (k % 3) + i % 3] for i in 0..9);
        }
        for r in 0..9 {
            for c in 0..9 {
                if grid[9 * r + c] != 0 {
                    require g[r][c] == grid[9 * r + c];
                }
            }
        }
    }
    .strategy(Strategy::first_fail())
    .map(|solution| solution.g)
}
