//! Sudoku: 9×9 grids read from text, solved with first-fail.

use ambsolve::{Puzzle, SearchError, Strategy, constraints};

/// A puzzle: 81 cells, row by row, 0 for a blank.
pub type Grid = [u8; 81];

/// Reads puzzles, one per line: 81 characters, row by row, a digit for a given, `.` or
/// `0` for a blank. Blank lines, `#` comments and a bare count line are skipped. Each
/// puzzle comes with its line number (1-based).
///
/// # Errors
/// A line that is neither a puzzle, a comment, blank, nor a bare count.
pub fn parse_puzzles(text: &str) -> Result<Vec<(usize, Grid)>, String> {
    let mut puzzles = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        let is_count =
            !line.is_empty() && line.len() < 81 && line.bytes().all(|b| b.is_ascii_digit());
        if line.is_empty() || line.starts_with('#') || is_count {
            continue;
        }
        if line.chars().count() != 81 {
            return Err(format!(
                "line {number}: a puzzle has 81 cells, this line has {} characters",
                line.chars().count()
            ));
        }
        let mut grid = [0u8; 81];
        for (cell, c) in grid.iter_mut().zip(line.chars()) {
            *cell = match c {
                '1'..='9' => c as u8 - b'0',
                '.' | '0' => 0,
                other => {
                    return Err(format!(
                        "line {number}: {other:?} is not a digit, '.' or '0'"
                    ));
                }
            };
        }
        puzzles.push((number, grid));
    }
    Ok(puzzles)
}

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

/// The first solution of a puzzle, or `None` if it has none.
///
/// # Errors
/// The [`SearchError`] that ended the search, if one did.
pub fn solve(grid: &Grid) -> Result<Option<Grid>, SearchError> {
    let Some(rows) = sudoku(grid).first()? else {
        return Ok(None);
    };
    let mut out = [0u8; 81];
    for (o, d) in out.iter_mut().zip(rows.iter().flatten()) {
        *o = *d;
    }
    Ok(Some(out))
}

/// A grid as one line of 81 digits.
pub fn line(grid: &Grid) -> String {
    grid.iter().map(|&d| char::from(b'0' + d)).collect()
}
