//! All-different made domain consistent by a matching (Régin): a value stays in a row only
//! if some matching of every row to its own value uses it.
//!
//! The matching is found by augmenting paths from the one found last time (kept as a
//! hint: it is checked against the domains, never trusted). A value outside the matching
//! is used by another maximum matching exactly when its edge lies on an alternating cycle
//! (its two ends in one strongly connected component of the graph whose matched edges run
//! from rows to values and the others from values to rows) or on an alternating path from
//! a value no row takes.

use std::collections::VecDeque;

use crate::choice::Fail;
use crate::propagators::tours::rows::Rows;
use crate::propagators::tours::scc::Scc;

const NONE: u32 = u32::MAX;

/// The matching of the last run and scratch space, kept from one propagation to the next.
#[derive(Debug, Default)]
pub(super) struct Matching {
    /// The value matched to each row (`NONE`: none).
    row_mate: Vec<u32>,
    /// The position (in the rows taking part) of the row matched to each value.
    value_mate: Vec<u32>,
    /// The position (in the rows taking part) of the row that reached a value, in a search
    /// for an augmenting path.
    parent: Vec<u32>,
    /// The search that last reached each value.
    seen: Vec<u32>,
    search: u32,
    queue: VecDeque<u32>,
    /// Values reached by alternating paths from free values.
    reached: Vec<bool>,
    scc: Scc,
}

impl Matching {
    /// Keeps in `dom` only the values of rows `rows` (distinct rows) that some matching of
    /// each of these rows to a value of its own, all different, uses.
    /// Returns whether anything was removed.
    ///
    /// # Errors
    /// [`Fail`] if no such matching exists.
    pub(super) fn prune(&mut self, dom: &mut Rows, rows: &[usize]) -> Result<bool, Fail> {
        let values = dom.cols();
        self.match_rows(dom, rows)?;
        self.reach_from_free_values(dom, rows);
        // Components of the graph over the rows (by position) where `p` leads to the row
        // matched to each other value of `p`: the graph of alternating paths, each value
        // merged with its row (strongly connected parts are the same either way round).
        let (row_mate, value_mate) = (&self.row_mate, &self.value_mate);
        self.scc.run(rows.len(), |p, at| {
            let (r, mate) = (rows[p], row_mate[rows[p]] as usize);
            while let Some(v) = dom.next(r, *at) {
                *at = v + 1;
                if v != mate && value_mate[v] != NONE {
                    return Some(value_mate[v] as usize);
                }
            }
            None
        });
        let mut changed = false;
        for (p, &r) in rows.iter().enumerate() {
            let mate = self.row_mate[r] as usize;
            let mut at = 0;
            while let Some(v) = dom.next(r, at) {
                at = v + 1;
                let holder = self.value_mate[v] as usize;
                let kept = v == mate
                    || self.reached[v]
                    || holder < rows.len() && self.scc.component[p] == self.scc.component[holder];
                if !kept {
                    dom.unset(r, v);
                    changed = true;
                }
            }
        }
        debug_assert!(values == self.reached.len());
        Ok(changed)
    }

    /// Marks the values that some matching of the rows leaves free: those no row takes, and
    /// those an alternating path from one reaches (the row matched to such a value holds a
    /// value so marked).
    fn reach_from_free_values(&mut self, dom: &Rows, rows: &[usize]) {
        let values = dom.cols();
        self.reached.clear();
        self.reached.resize(values, false);
        if rows.len() == values {
            return;
        }
        for v in 0..values {
            self.reached[v] = self.value_mate[v] == NONE;
        }
        // Rows (by position) whose matched value is reached.
        self.queue.clear();
        for (p, &r) in rows.iter().enumerate() {
            if dom.iter(r).any(|v| self.value_mate[v] == NONE) {
                self.queue.push_back(p as u32);
            }
        }
        while let Some(p) = self.queue.pop_front() {
            let mate = self.row_mate[rows[p as usize]] as usize;
            if std::mem::replace(&mut self.reached[mate], true) {
                continue;
            }
            for (x, &r) in rows.iter().enumerate() {
                if dom.has(r, mate) && !self.reached[self.row_mate[r] as usize] {
                    self.queue.push_back(x as u32);
                }
            }
        }
    }

    /// After [`prune`](Matching::prune): whether every matching of the rows takes value
    /// `v` (it is matched, and no alternating path from a value no row takes reaches it).
    pub(super) fn vital(&self, v: usize) -> bool {
        self.value_mate[v] != NONE && !self.reached[v]
    }

    /// Matches every row of `rows` to a value of its own, starting from the last matching.
    fn match_rows(&mut self, dom: &Rows, rows: &[usize]) -> Result<(), Fail> {
        let values = dom.cols();
        let most_rows = rows.iter().copied().max().map_or(0, |r| r + 1);
        if self.row_mate.len() < most_rows {
            self.row_mate.resize(most_rows, NONE);
        }
        self.value_mate.clear();
        self.value_mate.resize(values, NONE);
        for (p, &r) in rows.iter().enumerate() {
            let mate = self.row_mate[r];
            if mate != NONE
                && (mate as usize) < values
                && dom.has(r, mate as usize)
                && self.value_mate[mate as usize] == NONE
            {
                self.value_mate[mate as usize] = p as u32;
            } else {
                self.row_mate[r] = NONE;
            }
        }
        self.parent.resize(values, NONE);
        self.seen.resize(values, 0);
        for p in 0..rows.len() {
            if self.row_mate[rows[p]] == NONE && !self.augment(dom, rows, p) {
                return Err(Fail);
            }
        }
        Ok(())
    }

    /// Finds an augmenting path from the unmatched row at position `start` of `rows`
    /// (breadth first) and flips it. Returns whether one was found.
    fn augment(&mut self, dom: &Rows, rows: &[usize], start: usize) -> bool {
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.seen.fill(0);
            self.search = 1;
        }
        self.queue.clear();
        self.queue.push_back(start as u32);
        while let Some(p) = self.queue.pop_front() {
            let r = rows[p as usize];
            let mut at = 0;
            while let Some(v) = dom.next(r, at) {
                at = v + 1;
                if self.seen[v] == self.search {
                    continue;
                }
                self.seen[v] = self.search;
                self.parent[v] = p;
                let mate = self.value_mate[v];
                if mate == NONE {
                    self.flip(rows, v, start);
                    return true;
                }
                self.queue.push_back(mate);
            }
        }
        false
    }

    /// Flips the augmenting path that ends at the free value `v`.
    fn flip(&mut self, rows: &[usize], mut v: usize, start: usize) {
        loop {
            let p = self.parent[v] as usize;
            let r = rows[p];
            let previous = self.row_mate[r];
            self.row_mate[r] = v as u32;
            self.value_mate[v] = p as u32;
            if p == start {
                return;
            }
            v = previous as usize;
        }
    }
}
