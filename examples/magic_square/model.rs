//! The 3×3 magic squares: 1 to 9, every row, column and diagonal summing to 15.

use ambsolve::{Puzzle, constraints};

/// The puzzle; a solution is the square, row by row.
pub fn magic_squares() -> Puzzle<'static, Vec<Vec<i32>>> {
    constraints! {
        let sq[3][3] = amb(1..=9);
        require all_different(sq);
        for i in 0..3 {
            require sum(sq[i][j] for j in 0..3) == 15;
            require sum(sq[j][i] for j in 0..3) == 15;
        }
        require sum(sq[i][i] for i in 0..3) == 15;
        require sum(sq[i][2 - i] for i in 0..3) == 15;
    }
    .map(|s| s.sq)
}
