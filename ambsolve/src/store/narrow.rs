//! Narrowing the store's domains: every change checked for an emptied domain, logged for
//! undo (the trail, the log of removals for wide domains, a marker there and the side log
//! for sparse ones) and queued as events.

use super::read::{scan_down, scan_up};
use super::{BOUNDS, CHANGED, FIXED, Meta, Store};
use crate::choice::Fail;

/// Whether a one-word domain going from `old` to `new` lost its lowest or highest value.
#[inline(always)]
fn lost_end(old: u64, new: u64) -> bool {
    let removed = old & !new;
    removed & old & old.wrapping_neg() != 0 || removed >> (63 - old.leading_zeros()) & 1 == 1
}

impl Store {
    /// Replaces word `w` of `var` by `new`, a subset of it. Fails if the domain empties.
    #[inline(always)]
    pub(crate) fn narrow_word(&mut self, var: usize, w: usize, new: u64) -> Result<bool, Fail> {
        if !self.one_word(var) {
            return self.narrow_wide(var, w, new);
        }
        let cell = self.meta[var].first as usize;
        let old = self.cells.get(cell);
        debug_assert_eq!(new & !old, 0, "domains only shrink");
        if new == old {
            return Ok(false);
        }
        self.cells.set(cell, new);
        if new != 0 {
            self.note(var, 0, old & !new);
        }
        // Whether an end went is worked out only if someone listens for it.
        let bounds = self.interest[var] & BOUNDS != 0 && lost_end(old, new);
        self.changed(var, new.count_ones(), bounds)
    }

    /// [`narrow_word`](Self::narrow_word) for a wide or sparse domain.
    fn narrow_wide(&mut self, var: usize, w: usize, new: u64) -> Result<bool, Fail> {
        if let Some(value) = self.fixed_to(var) {
            // Fixed: the only bit is the value's; losing it empties the domain.
            return if value as usize / 64 == w && new >> (value % 64) & 1 == 0 {
                Err(Fail)
            } else {
                Ok(false)
            };
        }
        if self.is_sparse(var) {
            return self.narrow_sparse(var, w, new);
        }
        let cell = self.meta[var].first as usize + w;
        let old = self.cells.get(cell);
        self.shrink_wide(var, cell, old, new)
    }

    /// Word `cell` of a wide domain not fixed by `assign` goes from `old` to `new` (a
    /// subset): clears the lost bits (logged), adjusts the size, and moves the smallest
    /// or largest value on if it went.
    #[inline(always)]
    fn shrink_wide(&mut self, var: usize, cell: usize, old: u64, new: u64) -> Result<bool, Fail> {
        debug_assert_eq!(new & !old, 0, "domains only shrink");
        if new == old {
            return Ok(false);
        }
        self.write_wide(cell, old, new);
        let Meta {
            count, low, high, ..
        } = self.meta[var];
        let size = count - (old & !new).count_ones();
        self.meta[var].count = size;
        self.size[var] = size;
        if size == 0 {
            return Err(Fail);
        }
        let w = cell - self.meta[var].first as usize;
        let lost = |index: u32| index as usize / 64 == w && new >> (index % 64) & 1 == 0;
        let (lost_low, lost_high) = (lost(low), lost(high));
        if !(lost_low || lost_high) {
            self.note(var, w, old & !new);
            return self.changed(var, size, false);
        }
        // Mostly the next value is in the same word, already at hand.
        let base = w as u32 * 64;
        let new_low = if !lost_low {
            low
        } else if new >> (low % 64) != 0 {
            low + (new >> (low % 64)).trailing_zeros()
        } else {
            scan_up(self.raw_words(var), base + 64, high)
                .expect("a non-empty domain has a smallest value")
        };
        let new_high = if !lost_high {
            high
        } else if new << (63 - high % 64) != 0 {
            high - (new << (63 - high % 64)).leading_zeros()
        } else {
            base.checked_sub(1)
                .and_then(|from| scan_down(self.raw_words(var), from, new_low))
                .expect("a non-empty domain has a largest value")
        };
        self.meta[var].low = new_low;
        self.meta[var].high = new_high;
        self.note(var, w, old & !new);
        self.changed(var, size, true)
    }

    /// A domain of `var` lost values and now has `size`: fails if empty, else queues its
    /// events (FIXED too when one value is left, BOUNDS when `bounds` says an end went).
    #[inline(always)]
    pub(super) fn changed(&mut self, var: usize, size: u32, bounds: bool) -> Result<bool, Fail> {
        match size {
            0 => Err(Fail),
            1 => {
                self.notify(var, CHANGED | FIXED | BOUNDS);
                Ok(true)
            }
            _ => {
                self.notify(var, if bounds { CHANGED | BOUNDS } else { CHANGED });
                Ok(true)
            }
        }
    }

    /// Writes `new` (a subset of `old`) into `cell`, a word of a wide domain, logging the
    /// bits it loses (except at the root, which is never undone).
    #[inline(always)]
    fn write_wide(&mut self, cell: usize, old: u64, new: u64) {
        if self.cells.level() > 0 {
            self.removals.log(cell as u32, old & !new);
        }
        self.cells.write_untrailed(cell, new);
    }

    /// The word in `cell` (of a one-word domain: a sparse domain's placeholder cell holds
    /// no word).
    #[inline(always)]
    pub(crate) fn word_at(&self, cell: usize) -> u64 {
        self.cells.get(cell)
    }

    /// Writes `new` (a non-empty subset of the word) into `cell` without queuing events:
    /// for a propagator that alone watches the variable and handles the change itself.
    /// The cell is a one-word domain's (that of [`cell_of`](Self::cell_of)): wide domains'
    /// words change only through the log of removals, sparse ones have none.
    #[inline(always)]
    pub(crate) fn narrow_quiet(&mut self, cell: usize, new: u64) {
        debug_assert!(new != 0 && new & !self.cells.get(cell) == 0);
        debug_assert!(self.meta[self.cell_var[cell] as usize].words == 1);
        let (var, old) = (self.cell_var[cell] as usize, self.cells.get(cell));
        self.cells.set(cell, new);
        self.note(var, 0, old & !new);
        self.touch(var);
    }

    /// The cell holding the domain of a one-word variable (of another, its first cell:
    /// for a sparse domain a placeholder, not a word; [`word_at`](Self::word_at),
    /// [`narrow_quiet`](Self::narrow_quiet) and
    /// [`remove_mask_one`](Self::remove_mask_one) are for one-word domains only).
    pub(crate) fn cell_of(&self, var: usize) -> usize {
        self.meta[var].first as usize
    }

    /// For a one-word variable whose domain is in `cell`: removes the bits of `mask`.
    /// Returns whether anything was removed; fails if the domain empties.
    #[inline(always)]
    pub(crate) fn remove_mask_one(
        &mut self,
        var: usize,
        cell: usize,
        mask: u64,
    ) -> Result<bool, Fail> {
        debug_assert!(self.meta[var].words == 1 && self.meta[var].first as usize == cell);
        let old = self.cells.get(cell);
        let new = old & !mask;
        if new == old {
            return Ok(false);
        }
        self.cells.set(cell, new);
        if new != 0 {
            self.note(var, 0, old & !new);
        }
        let bounds = self.interest[var] & BOUNDS != 0 && lost_end(old, new);
        self.changed(var, new.count_ones(), bounds)
    }

    /// Removes `index` from the domain of `var`. Returns whether it was there.
    #[inline]
    pub(crate) fn remove(&mut self, var: usize, index: u32) -> Result<bool, Fail> {
        if index >= self.meta[var].universe {
            return Ok(false);
        }
        let cell = self.meta[var].first as usize + index as usize / 64;
        if self.one_word(var) {
            let old = self.cells.get(cell);
            return self.narrow_word(var, 0, old & !(1 << (index % 64)));
        }
        if let Some(value) = self.fixed_to(var) {
            return if value == index { Err(Fail) } else { Ok(false) };
        }
        if self.is_sparse(var) {
            return self.remove_sparse(var, index);
        }
        // On big boards the word is the one likely cache miss.
        let old = self.cells.get(cell);
        self.shrink_wide(var, cell, old, old & !(1 << (index % 64)))
    }

    /// Removes the indices `first..=last` from the domain of `var`, a word at a time:
    /// only the words between the domain's ends are visited. A sparse domain moves an end
    /// without visiting words; a range strictly inside it stores each of its words.
    pub(crate) fn remove_range(&mut self, var: usize, first: u32, last: u32) -> Result<(), Fail> {
        let (Some(low), Some(high)) = (self.min(var), self.max(var)) else {
            return Err(Fail);
        };
        let (first, last) = (first.max(low), last.min(high));
        if first > last {
            return Ok(());
        }
        if self.is_sparse(var) {
            return self.remove_range_sparse(var, first, last);
        }
        let (first_word, last_word) = (first as usize / 64, last as usize / 64);
        // Cutting the top, the words go from the top down, so that each moves the largest
        // value (a predicate trail records an end moving, not the values as holes).
        let top = last == high && first > low;
        for k in 0..=last_word - first_word {
            let w = if top { last_word - k } else { first_word + k };
            let low = if w == first_word { first % 64 } else { 0 };
            let high = if w == last_word { last % 64 } else { 63 };
            let mask = (u64::MAX << low) & (u64::MAX >> (63 - high));
            let old = self.word(var, w);
            if old & mask != 0 {
                self.narrow_word(var, w, old & !mask)?;
            }
        }
        Ok(())
    }

    /// The words of `var` that may hold values: from its smallest value's to its
    /// largest's.
    fn live_words(&self, var: usize) -> std::ops::Range<usize> {
        match (self.min(var), self.max(var)) {
            (Some(low), Some(high)) => low as usize / 64..high as usize / 64 + 1,
            _ => 0..0,
        }
    }

    /// Keeps only the indices for which `keep` holds: `keep` is asked about every value,
    /// O(size) (over a sparse domain too: for small domains).
    pub(crate) fn retain(
        &mut self,
        var: usize,
        mut keep: impl FnMut(u32) -> bool,
    ) -> Result<bool, Fail> {
        let mut changed = false;
        for w in self.live_words(var) {
            let old = self.word(var, w);
            let mut new = old;
            let mut bits = old;
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                if !keep(w as u32 * 64 + bit) {
                    new &= !(1 << bit);
                }
            }
            changed |= self.narrow_word(var, w, new)?;
        }
        Ok(changed)
    }

    /// Intersects the domain of `var` with `mask` (one word per domain word): O(words
    /// between its ends), for a sparse domain too.
    pub(crate) fn intersect(&mut self, var: usize, mask: &[u64]) -> Result<bool, Fail> {
        let mut changed = false;
        for w in self.live_words(var) {
            let old = self.word(var, w);
            changed |= self.narrow_word(var, w, old & mask.get(w).copied().unwrap_or(0))?;
        }
        Ok(changed)
    }

    /// Fixes `var` to `index`. Fails if `index` is not in its domain. A wide domain is
    /// fixed by its fixed value and a marker in the log of removals; its words stay as they
    /// were. A sparse one moves both ends to `index`.
    pub(crate) fn assign(&mut self, var: usize, index: u32) -> Result<(), Fail> {
        if !self.contains(var, index) {
            return Err(Fail);
        }
        if self.is_fixed(var) {
            return Ok(());
        }
        if self.one_word(var) {
            self.cells.set(self.meta[var].first as usize, 1 << index);
        } else if self.is_sparse(var) {
            self.assign_sparse(var, index);
        } else {
            self.meta[var].fixed = index;
            self.size[var] = 1;
            if self.cells.level() > 0 {
                self.removals.log(self.meta[var].first, 0);
            }
        }
        self.note(var, 0, 0);
        self.notify(var, CHANGED | FIXED | BOUNDS);
        Ok(())
    }
}
