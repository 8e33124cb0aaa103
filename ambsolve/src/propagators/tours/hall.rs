//! Hall sets: why a bipartite graph of rows and columns has no matching of every row, or
//! why an edge is in none. For a search that learns, the propagators that match rows to
//! columns (all different, inverse) explain what the matching removed by one.
//!
//! Edge `(r, c)` is in no matching of every row exactly when the graph without row `r`
//! and column `c` has no matching of the other rows; by Hall's theorem, when some set `H`
//! of rows other than `r` has fewer columns than rows there. The graph having a matching
//! of every row, `H`'s columns with `c` are exactly as many as its rows, and `r` cannot
//! take `c`: the explanation is that each row of `H` has no column outside them.

use std::collections::VecDeque;

use crate::propagators::tours::rows::Rows;

const NONE: u32 = u32::MAX;

/// A set of rows and the columns they may take, fewer than the rows (a failure) or as many
/// with a column excluded (an edge in no matching).
pub(super) struct HallSet {
    pub(super) rows: Vec<usize>,
    /// Per column: one the rows may take.
    pub(super) cols: Vec<bool>,
}

/// Over the edges of `dom` (rows `rows`, distinct): with `edge` `Some((r, c))`, a Hall set
/// of rows other than `r` whose columns, `c` among them, are as many as they are, so that
/// no matching of every row takes the edge; with `None`, one with fewer columns than rows,
/// so that there is no matching of every row. `None` when the graph has no such set (the
/// edge is in a matching of every row; there is one).
pub(super) fn hall_set(
    dom: &Rows,
    rows: &[usize],
    edge: Option<(usize, usize)>,
) -> Option<HallSet> {
    let cols = dom.cols();
    let (skip_row, skip_col) = edge.map_or((usize::MAX, usize::MAX), |(r, c)| (r, c));
    let most_rows = rows.iter().copied().max().map_or(0, |r| r + 1);
    let mut row_mate = vec![NONE; most_rows];
    let mut col_mate = vec![NONE; cols];
    // Breadth-first search from a free row over alternating paths; `parent[c]` is the row
    // that reached column `c`.
    let mut parent = vec![NONE; cols];
    let mut seen = vec![0u32; cols];
    let mut queue = VecDeque::new();
    for (search, &u) in rows.iter().enumerate() {
        if u == skip_row {
            continue;
        }
        let search = search as u32 + 1;
        queue.clear();
        queue.push_back(u);
        let mut reached_rows = vec![u];
        let mut free = None;
        'search: while let Some(x) = queue.pop_front() {
            for y in dom.iter(x) {
                if y == skip_col || seen[y] == search {
                    continue;
                }
                seen[y] = search;
                parent[y] = x as u32;
                if col_mate[y] == NONE {
                    free = Some(y);
                    break 'search;
                }
                let next = col_mate[y] as usize;
                reached_rows.push(next);
                queue.push_back(next);
            }
        }
        match free {
            Some(mut y) => {
                // Augment along the path back to `u`.
                loop {
                    let x = parent[y] as usize;
                    let before = row_mate[x];
                    row_mate[x] = y as u32;
                    col_mate[y] = x as u32;
                    if x == u {
                        break;
                    }
                    y = before as usize;
                }
            }
            None => {
                // Every column reached is taken by a reached row: the rows reached have
                // one column fewer than they are, besides the one left out.
                let mut taken = vec![false; cols];
                for y in 0..cols {
                    taken[y] = seen[y] == search;
                }
                if skip_col < cols {
                    taken[skip_col] = true;
                }
                return Some(HallSet {
                    rows: reached_rows,
                    cols: taken,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::hall_set;
    use crate::propagators::checker::Rng;
    use crate::propagators::tours::rows::Rows;

    /// Whether some matching of every row of `dom` (but `skip`) exists, by brute force
    /// over the columns left.
    fn matches(
        dom: &Rows,
        rows: &[usize],
        used: &mut Vec<bool>,
        skip: Option<(usize, usize)>,
    ) -> bool {
        let Some((&r, rest)) = rows.split_first() else {
            return true;
        };
        if skip.is_some_and(|(s, _)| s == r) {
            return matches(dom, rest, used, skip);
        }
        for c in dom.iter(r) {
            if used[c] || skip.is_some_and(|(_, s)| s == c) {
                continue;
            }
            used[c] = true;
            let ok = matches(dom, rest, used, skip);
            used[c] = false;
            if ok {
                return true;
            }
        }
        false
    }

    #[test]
    fn hall_sets_are_found_exactly_when_they_exist_and_are_tight() {
        let mut rng = Rng::new(7);
        for _ in 0..3_000 {
            let (n, cols) = (1 + rng.below(5) as usize, 1 + rng.below(6) as usize);
            let mut dom = Rows::new(n, cols);
            for r in 0..n {
                for c in 0..cols {
                    if rng.below(2) == 0 {
                        dom.set(r, c);
                    }
                }
            }
            let rows: Vec<usize> = (0..n).collect();
            let mut used = vec![false; cols];
            let edge = (rng.below(2) == 0).then(|| {
                (
                    rng.below(n as u64) as usize,
                    rng.below(cols as u64) as usize,
                )
            });
            let edge = edge.filter(|&(r, c)| dom.has(r, c));
            let possible = match edge {
                None => matches(&dom, &rows, &mut used, None),
                Some(e) => matches(&dom, &rows, &mut used, Some(e)),
            };
            let found = hall_set(&dom, &rows, edge);
            assert_eq!(found.is_none(), possible, "{dom:?} {edge:?}");
            if let Some(hall) = found {
                // Tight: the rows' columns (with the edge's) are as many as, or fewer
                // than, the rows, and hold every column of theirs.
                let count = hall.cols.iter().filter(|&&b| b).count();
                assert!(count < hall.rows.len() + usize::from(edge.is_some()));
                for &r in &hall.rows {
                    assert!(edge.is_none_or(|(s, _)| s != r));
                    assert!(dom.iter(r).all(|c| hall.cols[c]));
                }
            }
        }
    }
}
