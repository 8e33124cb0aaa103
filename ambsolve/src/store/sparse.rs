//! Sparse domains: no words stored, only the ends (`low..=high`, exact), the size, and the
//! words that lost a value strictly between the ends ("holes"); every other word between
//! the ends is full. Moving an end, fixing, or removing the smallest or largest value
//! stores nothing, so a variable over four billion values costs a few dozen bytes until
//! values go from its middle, then a word per 64 values with a hole.
//!
//! A stored word keeps its bits before the ends cut it: bits outside the ends may read as
//! present and are masked off. Undo restores the ends, the size and the stored words from
//! a side log ([`SparseSave`]), popped when a marker in the log of removals (on the
//! variable's placeholder cell) comes back: one marker per change, so that marks stay the
//! lengths of the trail and of the log of removals.

use hashbrown::HashMap;

use super::{Meta, Store};
use crate::choice::Fail;
use crate::domain::{Bits, Domain, WordSource};

/// A sparse domain's stored words, by index, as they were before the ends cut them.
pub(super) type Holes = HashMap<u32, u64>;

impl WordSource for Holes {
    /// Word `w`: stored, or full.
    #[inline]
    fn word(&self, w: u32) -> u64 {
        self.get(&w).copied().unwrap_or(u64::MAX)
    }
}

/// What undo restores for a sparse domain: its ends and size before a change (the first
/// record of each change, the last popped), or a stored word (`NewHole`: one that was
/// not stored).
#[derive(Clone, Copy, Debug)]
pub(super) enum SparseSave {
    Ends { low: u32, high: u32, count: u32 },
    Hole { word: u32, old: u64 },
    NewHole { word: u32 },
}

/// The bits of word `w` between `low` and `high`, both included.
#[inline]
fn between(low: u32, high: u32, w: u32) -> u64 {
    let above = match (low / 64).cmp(&w) {
        std::cmp::Ordering::Less => u64::MAX,
        std::cmp::Ordering::Equal => u64::MAX << (low % 64),
        std::cmp::Ordering::Greater => 0,
    };
    let below = match (high / 64).cmp(&w) {
        std::cmp::Ordering::Greater => u64::MAX,
        std::cmp::Ordering::Equal => u64::MAX >> (63 - high % 64),
        std::cmp::Ordering::Less => 0,
    };
    above & below
}

/// Undoes one change to a sparse domain: puts back the words it stored, then its ends
/// and size.
pub(super) fn restore(meta: &mut Meta, holes: &mut Holes, log: &mut Vec<SparseSave>) {
    loop {
        match log
            .pop()
            .expect("a sparse change's records follow its marker")
        {
            SparseSave::Hole { word, old } => {
                holes.insert(word, old);
            }
            SparseSave::NewHole { word } => {
                holes.remove(&word);
            }
            SparseSave::Ends { low, high, count } => {
                meta.low = low;
                meta.high = high;
                meta.count = count;
                return;
            }
        }
    }
}

impl Store {
    /// Whether `var`'s domain is sparse (no words stored).
    #[inline(always)]
    pub(super) fn is_sparse(&self, var: usize) -> bool {
        self.meta[var].words == 0
    }

    /// Adds variable `var` over `universe` values as a sparse domain: its placeholder
    /// cell (holding the index of its holes), its ends and size, and the words of
    /// `initial` (a full domain if `None`) that have holes between its ends. Reads every
    /// word of `initial` between its ends: O(universe / 64) once, at construction.
    pub(super) fn push_sparse(&mut self, var: usize, universe: u32, initial: Option<&Domain>) {
        let mut holes = Holes::new();
        let (count, low, high) = match initial {
            None => (universe, 0, universe.saturating_sub(1)),
            Some(domain) => {
                let count = domain.len() as u32;
                let (low, high) = (domain.min().unwrap_or(0), domain.max().unwrap_or(0));
                if count > 0 {
                    for w in low / 64..=high / 64 {
                        let word = domain.words().get(w as usize).copied().unwrap_or(0);
                        let within = between(low, high, w);
                        if word & within != within {
                            holes.insert(w, word);
                        }
                    }
                }
                (count, low, high)
            }
        };
        let first = self.cells.push(self.holes.len() as u64);
        self.cell_var.push(var as u32);
        self.holes.push(holes);
        self.meta.push(Meta {
            first: first as u32,
            words: 0,
            universe,
            count,
            low,
            high,
            fixed: super::NOT_FIXED,
        });
        self.size[var] = count;
    }

    /// The stored words of sparse `var`.
    #[inline]
    fn holes_of(&self, var: usize) -> &Holes {
        &self.holes[self.cells.get(self.meta[var].first as usize) as usize]
    }

    /// Word `w` of sparse `var`, cut to its ends.
    pub(super) fn sparse_word(&self, var: usize, w: usize) -> u64 {
        let Meta {
            count, low, high, ..
        } = self.meta[var];
        match u32::try_from(w) {
            Ok(w) if count > 0 && low / 64 <= w && w <= high / 64 => {
                self.holes_of(var).word(w) & between(low, high, w)
            }
            _ => 0,
        }
    }

    pub(super) fn sparse_contains(&self, var: usize, index: u32) -> bool {
        let Meta {
            count, low, high, ..
        } = self.meta[var];
        count > 0
            && (low..=high).contains(&index)
            && self.holes_of(var).word(index / 64) >> (index % 64) & 1 == 1
    }

    /// The first value of sparse `var` at or after `from`, at most `last` (`from` at least
    /// its smallest value, `last` at most its largest).
    pub(super) fn sparse_up(&self, var: usize, from: u32, last: u32) -> Option<u32> {
        if from > last {
            return None;
        }
        let holes = self.holes_of(var);
        let mut w = from / 64;
        let mut bits = holes.word(w) & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                let found = w * 64 + bits.trailing_zeros();
                return (found <= last).then_some(found);
            }
            if w >= last / 64 {
                return None;
            }
            w += 1;
            bits = holes.word(w);
        }
    }

    /// The last value of sparse `var` at or before `from`, at least `first` (`from` at
    /// most its largest value, `first` at least its smallest).
    pub(super) fn sparse_down(&self, var: usize, from: u32, first: u32) -> Option<u32> {
        if from < first {
            return None;
        }
        let holes = self.holes_of(var);
        let mut w = from / 64;
        let mut bits = holes.word(w) & (u64::MAX >> (63 - from % 64));
        loop {
            if bits != 0 {
                let found = w * 64 + 63 - bits.leading_zeros();
                return (found >= first).then_some(found);
            }
            if w <= first / 64 {
                return None;
            }
            w -= 1;
            bits = holes.word(w);
        }
    }

    /// The values of sparse `var`: O(words between its ends), not O(universe).
    pub(super) fn sparse_iter(&self, var: usize) -> Bits<'_> {
        let Meta {
            count, low, high, ..
        } = self.meta[var];
        if count == 0 {
            return Bits::new(&[]);
        }
        Bits::window(self.holes_of(var), low, high)
    }

    /// The number of values of sparse `var` in `first..=last`, between its ends: the
    /// span less the holes of the stored words in it, found by looking up each word of
    /// the span or by walking the stored words, whichever is fewer.
    fn count_between(&self, var: usize, first: u32, last: u32) -> u32 {
        let holes = self.holes_of(var);
        let (fw, lw) = (first / 64, last / 64);
        let missing = |w: u32, bits: u64| (!bits & between(first, last, w)).count_ones();
        let gone: u32 = if ((lw - fw) as usize) < holes.len() {
            (fw..=lw)
                .filter_map(|w| holes.get(&w).map(|&bits| missing(w, bits)))
                .sum()
        } else {
            holes
                .iter()
                .filter(|&(&w, _)| (fw..=lw).contains(&w))
                .map(|(&w, &bits)| missing(w, bits))
                .sum()
        };
        // At most 2^32 - 1 values: `last - first + 1` fits once the holes are taken off.
        (u64::from(last - first) + 1 - u64::from(gone)) as u32
    }

    /// Before changing sparse `var` above the root: logs a marker on its placeholder cell
    /// and its ends and size, to be restored when the marker comes back.
    fn save_sparse(&mut self, var: usize) {
        if self.cells.level() > 0 {
            let Meta {
                first,
                low,
                high,
                count,
                ..
            } = self.meta[var];
            self.removals.log(first, 0);
            self.sparse_log.push(SparseSave::Ends { low, high, count });
        }
    }

    /// Stores `bits` as word `w` of sparse `var` (after [`save_sparse`](Self::save_sparse)
    /// in the same change), logging what it replaces above the root.
    fn store_word(&mut self, var: usize, w: u32, bits: u64) {
        let index = self.cells.get(self.meta[var].first as usize) as usize;
        let old = self.holes[index].insert(w, bits);
        if self.cells.level() > 0 {
            self.sparse_log.push(match old {
                Some(old) => SparseSave::Hole { word: w, old },
                None => SparseSave::NewHole { word: w },
            });
        }
    }

    /// Sets the size of sparse `var` (after `save_sparse`).
    #[inline]
    fn set_sparse_count(&mut self, var: usize, count: u32) {
        self.meta[var].count = count;
        self.size[var] = count;
    }

    /// Sparse `var` loses `removed`, bits of its word `w` within its ends (not none):
    /// the size drops, an end that went moves to the next value (found in the word or by
    /// scanning), and the word is stored only if some removed bit stays between the ends.
    fn sparse_remove_bits(&mut self, var: usize, w: u32, removed: u64) -> Result<bool, Fail> {
        debug_assert!(removed != 0 && removed & !self.sparse_word(var, w as usize) == 0);
        self.save_sparse(var);
        let Meta {
            count, low, high, ..
        } = self.meta[var];
        let count = count - removed.count_ones();
        self.set_sparse_count(var, count);
        if count == 0 {
            return Err(Fail);
        }
        let stored = self.holes_of(var).word(w);
        let left = stored & !removed;
        let kept = left & between(low, high, w);
        let lost = |index: u32| index / 64 == w && removed >> (index % 64) & 1 == 1;
        let (lost_low, lost_high) = (lost(low), lost(high));
        let new_low = if !lost_low {
            low
        } else if kept >> (low % 64) != 0 {
            low + (kept >> (low % 64)).trailing_zeros()
        } else {
            // Nothing left in this word: the largest value is in a later one, so the next
            // word's first index fits.
            (w + 1)
                .checked_mul(64)
                .and_then(|from| self.sparse_up(var, from, high))
                .expect("a non-empty domain has a smallest value")
        };
        let new_high = if !lost_high {
            high
        } else if kept << (63 - high % 64) != 0 {
            high - (kept << (63 - high % 64)).leading_zeros()
        } else {
            (w * 64)
                .checked_sub(1)
                .and_then(|from| self.sparse_down(var, from, new_low))
                .expect("a non-empty domain has a largest value")
        };
        if removed & between(new_low, new_high, w) != 0 {
            self.store_word(var, w, left);
        }
        self.meta[var].low = new_low;
        self.meta[var].high = new_high;
        self.note(var, w as usize, removed);
        self.changed(var, count, lost_low || lost_high)
    }

    /// [`narrow_word`](Store::narrow_word) for a sparse domain.
    pub(super) fn narrow_sparse(&mut self, var: usize, w: usize, new: u64) -> Result<bool, Fail> {
        let old = self.sparse_word(var, w);
        debug_assert_eq!(new & !old, 0, "domains only shrink");
        let removed = old & !new;
        if removed == 0 {
            return Ok(false);
        }
        self.sparse_remove_bits(var, w as u32, removed)
    }

    /// [`remove`](Store::remove) for a sparse domain (`index` in the universe).
    pub(super) fn remove_sparse(&mut self, var: usize, index: u32) -> Result<bool, Fail> {
        if !self.sparse_contains(var, index) {
            return Ok(false);
        }
        self.sparse_remove_bits(var, index / 64, 1 << (index % 64))
    }

    /// [`remove_range`](Store::remove_range) for a sparse domain, `first..=last` within
    /// its ends (not empty): from an end, the end moves past the range and nothing is
    /// stored (O(words of the range or stored words, whichever is fewer) to count what
    /// goes); strictly inside, every word of the range is stored.
    pub(super) fn remove_range_sparse(
        &mut self,
        var: usize,
        first: u32,
        last: u32,
    ) -> Result<(), Fail> {
        let Meta {
            count, low, high, ..
        } = self.meta[var];
        if first == low && last == high {
            self.save_sparse(var);
            self.set_sparse_count(var, 0);
            return Err(Fail);
        }
        if first == low || last == high {
            let (new_low, new_high, gone) = if first == low {
                // `last < high`: the next value exists and `last + 1` fits.
                let new_low = self
                    .sparse_up(var, last + 1, high)
                    .expect("the largest value is left");
                (new_low, high, self.count_between(var, low, last))
            } else {
                let new_high = self
                    .sparse_down(var, first - 1, low)
                    .expect("the smallest value is left");
                (low, new_high, self.count_between(var, first, high))
            };
            self.save_sparse(var);
            self.set_sparse_count(var, count - gone);
            self.meta[var].low = new_low;
            self.meta[var].high = new_high;
            self.note(var, 0, 0);
            self.changed(var, count - gone, true)?;
            return Ok(());
        }
        // Strictly inside: both ends stay, so at least two values do.
        let mut count = count;
        let mut saved = false;
        for w in first / 64..=last / 64 {
            let stored = self.holes_of(var).word(w);
            let removed = stored & between(first, last, w);
            if removed == 0 {
                continue;
            }
            if !saved {
                self.save_sparse(var);
                saved = true;
            }
            count -= removed.count_ones();
            self.store_word(var, w, stored & !removed);
            self.set_sparse_count(var, count);
            self.note(var, w as usize, removed);
        }
        if saved {
            self.set_sparse_count(var, count);
            self.changed(var, count, false)?;
        }
        Ok(())
    }

    /// [`assign`](Store::assign) for a sparse domain (`index` in it, more than one value
    /// left): both ends move to it, no word is stored (the caller queues the events).
    pub(super) fn assign_sparse(&mut self, var: usize, index: u32) {
        self.save_sparse(var);
        self.set_sparse_count(var, 1);
        self.meta[var].low = index;
        self.meta[var].high = index;
    }
}
