//! The n-queens model: N queens on an N×N board, no two attacking each other; the 8
//! symmetries of the board, and the strategies the example searches with.

use std::sync::Arc;

use ambsolve::{Puzzle, Restarts, Strategy, Symmetry, ValueOrder, VarId, VarOrder, constraints};

/// The puzzle: one queen per row, `q[row]` its column; no two share a column or a
/// diagonal.
pub fn queens(n: usize) -> Puzzle<'static, Vec<usize>> {
    constraints! {
        let q[n] = amb(0..n);
        require all_different(q);
        require all_different(q[i] + i for i in 0..n);
        require all_different(q[i] - i for i in 0..n);
    }
    .map(|solution| solution.q)
}

/// The puzzle up to the 8 symmetries of the board: one solution per class.
pub fn fundamental_queens(n: usize) -> Puzzle<'static, Vec<usize>> {
    let rows: Vec<VarId> = (0..n).map(VarId::from_index).collect();
    queens(n)
        .symmetries(board_symmetries(&rows))
        .up_to_symmetry()
}

/// The puzzle counted through the 8 symmetries of the board: one representative per class
/// is searched, and counted as the size of its class (8, or 4 or 2 for a board that some
/// symmetries leave unchanged). `count()` gives the same number as for [`queens`], several
/// times sooner; `solutions()` yields the representatives only.
pub fn queens_through_symmetry(n: usize) -> Puzzle<'static, Vec<usize>> {
    let rows: Vec<VarId> = (0..n).map(VarId::from_index).collect();
    queens(n)
        .symmetries(board_symmetries(&rows))
        .count_through_symmetry()
}

/// The strategy for a first solution on a large board: fewest columns left first,
/// central columns first, restarts against unlucky runs.
pub fn first_strategy() -> Strategy {
    Strategy::first_fail()
        .values(ValueOrder::MiddleOut)
        .restarts(Restarts::luby(100))
}

/// The strategy for counting: fewest columns left first, ties to the middle rows. Central
/// rows constrain most, so the tree is about half the size of the top-down one; the
/// count does not depend on the order (listing keeps the top-down, lexicographic order).
pub fn count_strategy(n: usize) -> Strategy {
    let mut rows: Vec<VarId> = (0..n).map(VarId::from_index).collect();
    rows.sort_by_key(|r| (2 * r.index()).abs_diff(n.saturating_sub(1)));
    Strategy::new().vars(VarOrder::FirstFailThen(rows.into()))
}

/// Where a symmetry of the board sends cell `(row, column)`, given the last index.
type CellMap = fn(u32, u32, u32) -> (u32, u32);

/// The 7 symmetries of a square board other than the identity (3 rotations, 4
/// reflections), for a model with one variable per row (`rows[r]`) whose value index is
/// the column: n-queens, n-rooks and the like. Other variables are left where they are.
pub fn board_symmetries(rows: &[VarId]) -> Vec<Symmetry> {
    let n = rows.len() as u32;
    let rows: Arc<[VarId]> = rows.into();
    let last = n.saturating_sub(1);
    let maps: [(&str, CellMap); 7] = [
        ("rotate 90°", |last, r, c| (c, last - r)),
        ("rotate 180°", |last, r, c| (last - r, last - c)),
        ("rotate 270°", |last, r, c| (last - c, r)),
        ("mirror left-right", |last, r, c| (r, last - c)),
        ("mirror top-bottom", |last, r, c| (last - r, c)),
        ("main diagonal", |_, r, c| (c, r)),
        ("anti-diagonal", |last, r, c| (last - c, last - r)),
    ];
    maps.into_iter()
        .map(|(name, f)| {
            let rows = Arc::clone(&rows);
            Symmetry::new(name, move |var, value| {
                let Some(r) = rows.iter().position(|&v| v == var) else {
                    return (var, value);
                };
                let (r2, c2) = f(last, r as u32, value);
                (rows[r2 as usize], c2)
            })
        })
        .collect()
}
