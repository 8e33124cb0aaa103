//! Hand-written `amb` programs of the sources, for tests and benches of the replay engine.

use ambsolve::{Amb, Fail};

/// Columns and both diagonals taken by the queens placed so far, rebuilt on every run.
struct Occupancy {
    n: usize,
    cols: Vec<bool>,
    diag: Vec<bool>,
    anti: Vec<bool>,
    queens: Vec<usize>,
}

impl Occupancy {
    fn new(n: usize) -> Self {
        Occupancy {
            n,
            cols: vec![false; n],
            diag: vec![false; 2 * n],
            anti: vec![false; 2 * n],
            queens: Vec::with_capacity(n),
        }
    }

    /// Empties the board (each run of the program starts from scratch).
    fn clear(&mut self) {
        self.cols.fill(false);
        self.diag.fill(false);
        self.anti.fill(false);
        self.queens.clear();
    }

    /// Whether no queen placed so far attacks `(row, col)`.
    fn is_free(&self, row: usize, col: usize) -> bool {
        !self.cols[col] && !self.diag[row + col] && !self.anti[row + self.n - col]
    }

    /// Places the next row's queen at `col`.
    fn place(&mut self, row: usize, col: usize) {
        (
            self.cols[col],
            self.diag[row + col],
            self.anti[row + self.n - col],
        ) = (true, true, true);
        self.queens.push(col);
    }
}

/// n-queens as JavaScript's `ambRun` writes it: one queen per row, each column chosen in
/// turn and required not to be attacked by the queens above (columns and both diagonals,
/// kept in occupancy arrays), so a bad column fails its run at once.
pub fn queens(n: usize) -> impl FnMut(&mut Amb<'_>) -> Result<Vec<usize>, Fail> {
    let mut board = Occupancy::new(n);
    move |amb| {
        board.clear();
        for row in 0..n {
            let col = amb.choose(0..n)?;
            amb.require(board.is_free(row, col))?;
            board.place(row, col);
        }
        Ok(board.queens.clone())
    }
}

/// n-queens as backtracking writes it: each row chooses among the columns not attacked
/// by the queens above, so no run fails on a bad column; a run fails only when a row has
/// no free column left.
pub fn queens_free_columns(n: usize) -> impl FnMut(&mut Amb<'_>) -> Result<Vec<usize>, Fail> {
    let mut board = Occupancy::new(n);
    move |amb| {
        board.clear();
        for row in 0..n {
            let col = amb.choose((0..n).filter(|&c| board.is_free(row, c)))?;
            board.place(row, col);
        }
        Ok(board.queens.clone())
    }
}
