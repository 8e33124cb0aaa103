//! Hand-written `amb` programs of the sources, for tests and benches of the replay engine.

use ambsolve::{Amb, Fail};

/// n-queens as JavaScript's `ambRun` writes it: one queen per row, each column chosen in
/// turn and required not to be attacked by the queens above (columns and both diagonals,
/// kept in occupancy arrays), so a bad column fails its run at once.
pub fn queens(n: usize) -> impl FnMut(&mut Amb<'_>) -> Result<Vec<usize>, Fail> {
    let mut cols = vec![false; n];
    let mut diag = vec![false; 2 * n];
    let mut anti = vec![false; 2 * n];
    let mut queens = Vec::with_capacity(n);
    move |amb| {
        cols.fill(false);
        diag.fill(false);
        anti.fill(false);
        queens.clear();
        for row in 0..n {
            let col = amb.choose(0..n)?;
            let (d, a) = (row + col, row + n - col);
            amb.require(!cols[col] && !diag[d] && !anti[a])?;
            (cols[col], diag[d], anti[a]) = (true, true, true);
            queens.push(col);
        }
        Ok(queens.clone())
    }
}

/// n-queens as backtracking writes it: each row chooses among the columns not attacked
/// by the queens above, so no run fails on a bad column; a run fails only when a row has
/// no free column left.
pub fn queens_free_columns(n: usize) -> impl FnMut(&mut Amb<'_>) -> Result<Vec<usize>, Fail> {
    let mut cols = vec![false; n];
    let mut diag = vec![false; 2 * n];
    let mut anti = vec![false; 2 * n];
    let mut queens = Vec::with_capacity(n);
    move |amb| {
        cols.fill(false);
        diag.fill(false);
        anti.fill(false);
        queens.clear();
        for row in 0..n {
            let free = (0..n).filter(|&c| !cols[c] && !diag[row + c] && !anti[row + n - c]);
            let col = amb.choose(free)?;
            (cols[col], diag[row + col], anti[row + n - col]) = (true, true, true);
            queens.push(col);
        }
        Ok(queens.clone())
    }
}
