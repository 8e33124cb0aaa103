//! The search store: every variable's domain as bitset words in one trailed array.
//!
//! Domain words and propagators' own counters are cells of one [`Trail`], so one mark
//! and one undo restore everything. The words of wide domains (more than 64 values) only
//! lose bits between a mark and its undo: their changes go to a compact log of removed
//! bits instead ([`Removals`]), a fifth of the memory on big boards. Domain sizes are kept
//! exact without trailing them: undo adjusts a size by the bits each restored word gains
//! back. Every change to a domain queues an event for the propagation loop: `CHANGED`,
//! and `FIXED` when one value is left.

use crate::choice::Fail;
use crate::domain::{Bits, Domain, words_for};
use crate::trail::{Removals, Trail};
use crate::var::VarId;

/// Event bit: the domain lost values.
pub(crate) const CHANGED: u8 = 1;
/// Event bit: the domain has a single value left.
pub(crate) const FIXED: u8 = 2;
/// Event bit: the domain lost its smallest or its largest value.
pub(crate) const BOUNDS: u8 = 4;

const NO_VAR: u32 = u32::MAX;

/// Domains of all variables, plus auxiliary trailed cells, plus the event queue.
#[derive(Clone, Debug)]
pub(crate) struct Store {
    cells: Trail<u64>,
    /// What wide domains lost, since the root.
    removals: Removals,
    first: Vec<u32>,
    words: Vec<u32>,
    universe: Vec<u32>,
    size: Vec<u32>,
    cell_var: Vec<u32>,
    events: Vec<u32>,
    pending: Vec<u8>,
    /// Per variable, the events some propagator listens to; others are not queued.
    interest: Vec<u8>,
    /// Whether some domain spans several words (and keeps a size counter).
    any_wide: bool,
}

/// Whether a one-word domain going from `old` to `new` lost its lowest or highest value.
#[inline(always)]
fn lost_end(old: u64, new: u64) -> bool {
    let (lowest, highest) = lost_ends(old, new);
    lowest || highest
}

/// Whether a word going from `old` (not 0) to `new` lost its lowest value, and its highest.
#[inline(always)]
fn lost_ends(old: u64, new: u64) -> (bool, bool) {
    let removed = old & !new;
    (
        removed & old & old.wrapping_neg() != 0,
        removed >> (63 - old.leading_zeros()) & 1 == 1,
    )
}

impl Store {
    /// A store with one full domain per entry of `universes`.
    pub(crate) fn new(universes: &[u32]) -> Self {
        Self::with_domains(universes, |_| None)
    }

    /// A store whose domains start from `initial(var)` where it gives one (`None`: full).
    pub(crate) fn with_domains<'d>(
        universes: &[u32],
        initial: impl Fn(usize) -> Option<&'d Domain>,
    ) -> Self {
        let mut store = Store {
            cells: Trail::new(),
            removals: Removals::default(),
            first: Vec::with_capacity(universes.len()),
            words: Vec::with_capacity(universes.len()),
            universe: universes.to_vec(),
            size: universes.to_vec(),
            cell_var: Vec::new(),
            events: Vec::new(),
            pending: vec![0; universes.len()],
            interest: vec![CHANGED | FIXED | BOUNDS; universes.len()],
            any_wide: universes.iter().any(|&u| u > 64),
        };
        for (var, &universe) in universes.iter().enumerate() {
            let full;
            let domain = match initial(var) {
                Some(domain) => domain,
                None => {
                    full = Domain::full(universe);
                    &full
                }
            };
            store.size[var] = domain.len() as u32;
            store.first.push(store.cells.len() as u32);
            store.words.push(words_for(universe) as u32);
            // Only wide domains keep a size counter, which undo must adjust.
            let owner = if domain.words().len() > 1 {
                var as u32
            } else {
                NO_VAR
            };
            for &word in domain.words() {
                store.cells.push(word);
                store.cell_var.push(owner);
            }
        }
        store
    }

    pub(crate) fn num_vars(&self) -> usize {
        self.size.len()
    }

    /// Adds an auxiliary trailed cell (a propagator's counter) and returns it.
    pub(crate) fn alloc_aux(&mut self, value: u64) -> usize {
        self.cell_var.push(NO_VAR);
        self.cells.push(value)
    }

    #[inline]
    pub(crate) fn aux(&self, cell: usize) -> u64 {
        self.cells.get(cell)
    }

    #[inline]
    pub(crate) fn set_aux(&mut self, cell: usize, value: u64) {
        self.cells.set(cell, value);
    }

    // ---- reading domains ----

    /// The number of values left. Domains of one word count their bits; wider ones keep
    /// a counter.
    #[inline]
    pub(crate) fn size(&self, var: usize) -> u32 {
        if self.words[var] == 1 {
            self.cells.get(self.first[var] as usize).count_ones()
        } else {
            self.size[var]
        }
    }

    #[inline]
    pub(crate) fn is_fixed(&self, var: usize) -> bool {
        self.size(var) == 1
    }

    pub(crate) fn universe(&self, var: usize) -> u32 {
        self.universe[var]
    }

    /// The domain words of `var`.
    #[inline]
    pub(crate) fn words(&self, var: usize) -> &[u64] {
        let first = self.first[var] as usize;
        &self.cells.values()[first..first + self.words[var] as usize]
    }

    #[inline]
    pub(crate) fn contains(&self, var: usize, index: u32) -> bool {
        index < self.universe[var]
            && self
                .cells
                .get(self.first[var] as usize + index as usize / 64)
                >> (index % 64)
                & 1
                == 1
    }

    /// The smallest index in the domain (the value, for a fixed variable).
    #[inline]
    pub(crate) fn min(&self, var: usize) -> Option<u32> {
        self.next_at_or_after(var, 0)
    }

    pub(crate) fn max(&self, var: usize) -> Option<u32> {
        self.prev_at_or_before(var, self.universe[var].checked_sub(1)?)
    }

    /// The smallest index `>= from` in the domain.
    #[inline]
    pub(crate) fn next_at_or_after(&self, var: usize, from: u32) -> Option<u32> {
        let words = self.words(var);
        let mut w = from as usize / 64;
        let mut bits = *words.get(w)? & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                return Some(w as u32 * 64 + bits.trailing_zeros());
            }
            w += 1;
            bits = *words.get(w)?;
        }
    }

    /// The largest index `<= from` in the domain.
    pub(crate) fn prev_at_or_before(&self, var: usize, from: u32) -> Option<u32> {
        let words = self.words(var);
        let mut w = (from as usize / 64).min(words.len().checked_sub(1)?);
        let mut bits = if w == from as usize / 64 {
            words[w] & (u64::MAX >> (63 - from % 64))
        } else {
            words[w]
        };
        loop {
            if bits != 0 {
                return Some(w as u32 * 64 + 63 - bits.leading_zeros());
            }
            w = w.checked_sub(1)?;
            bits = words[w];
        }
    }

    pub(crate) fn iter(&self, var: usize) -> Bits<'_> {
        Bits::new(self.words(var))
    }

    pub(crate) fn domain(&self, var: usize) -> Domain {
        Domain::from_words(self.words(var), self.universe[var])
    }

    // ---- changing domains ----

    /// Replaces word `w` of `var` by `new`, a subset of it. Fails if the domain empties.
    #[inline(always)]
    pub(crate) fn narrow_word(&mut self, var: usize, w: usize, new: u64) -> Result<bool, Fail> {
        let cell = self.first[var] as usize + w;
        let old = self.cells.get(cell);
        debug_assert_eq!(new & !old, 0, "domains only shrink");
        if new == old {
            return Ok(false);
        }
        // Whether an end went is worked out only if someone listens for it.
        let listens = self.interest[var] & BOUNDS != 0;
        let (size, bounds) = if self.words[var] == 1 {
            self.cells.set(cell, new);
            (new.count_ones(), listens && lost_end(old, new))
        } else {
            self.write_wide(cell, old, new);
            let size = self.size[var] - (old.count_ones() - new.count_ones());
            self.size[var] = size;
            (size, listens && self.lost_bound(var, w, old, new))
        };
        self.changed(var, size, bounds)
    }

    /// Whether changing word `w` of a multi-word `var` from `old` to `new` removed the
    /// domain's smallest or largest value: the word's lowest (highest) value went and no
    /// word before (after) it holds one.
    #[inline]
    fn lost_bound(&self, var: usize, w: usize, old: u64, new: u64) -> bool {
        let first = self.first[var] as usize;
        let (lowest, highest) = lost_ends(old, new);
        if lowest && (0..w).all(|k| self.cells.get(first + k) == 0) {
            return true;
        }
        highest && (w + 1..self.words[var] as usize).all(|k| self.cells.get(first + k) == 0)
    }

    /// A domain of `var` lost values and now has `size`: fails if empty, else queues its
    /// events (FIXED too when one value is left, BOUNDS when `bounds` says an end went).
    #[inline(always)]
    fn changed(&mut self, var: usize, size: u32, bounds: bool) -> Result<bool, Fail> {
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

    /// The word in `cell`.
    #[inline(always)]
    pub(crate) fn word_at(&self, cell: usize) -> u64 {
        self.cells.get(cell)
    }

    /// Writes `new` (a non-empty subset of the word) into `cell` without queuing events:
    /// for a propagator that alone watches the variable and handles the change itself.
    #[inline(always)]
    pub(crate) fn narrow_quiet(&mut self, cell: usize, new: u64) {
        debug_assert!(new != 0 && new & !self.cells.get(cell) == 0);
        self.cells.set(cell, new);
    }

    /// The cell holding the domain of a one-word variable.
    pub(crate) fn cell_of(&self, var: usize) -> usize {
        self.first[var] as usize
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
        debug_assert!(self.words[var] == 1 && self.first[var] as usize == cell);
        let old = self.cells.get(cell);
        let new = old & !mask;
        if new == old {
            return Ok(false);
        }
        self.cells.set(cell, new);
        let bounds = self.interest[var] & BOUNDS != 0 && lost_end(old, new);
        self.changed(var, new.count_ones(), bounds)
    }

    /// Removes `index` from the domain of `var`. Returns whether it was there.
    #[inline]
    pub(crate) fn remove(&mut self, var: usize, index: u32) -> Result<bool, Fail> {
        if index >= self.universe[var] {
            return Ok(false);
        }
        let w = index as usize / 64;
        let old = self.cells.get(self.first[var] as usize + w);
        self.narrow_word(var, w, old & !(1 << (index % 64)))
    }

    /// Removes the indices `first..=last` from the domain of `var`, a word at a time.
    pub(crate) fn remove_range(&mut self, var: usize, first: u32, last: u32) -> Result<(), Fail> {
        let (first_word, last_word) = (first as usize / 64, last as usize / 64);
        for w in first_word..=last_word {
            let low = if w == first_word { first % 64 } else { 0 };
            let high = if w == last_word { last % 64 } else { 63 };
            let mask = (u64::MAX << low) & (u64::MAX >> (63 - high));
            let old = self.cells.get(self.first[var] as usize + w);
            if old & mask != 0 {
                self.narrow_word(var, w, old & !mask)?;
            }
        }
        Ok(())
    }

    /// Keeps only the indices for which `keep` holds.
    pub(crate) fn retain(
        &mut self,
        var: usize,
        mut keep: impl FnMut(u32) -> bool,
    ) -> Result<bool, Fail> {
        let mut changed = false;
        for w in 0..self.words[var] as usize {
            let old = self.cells.get(self.first[var] as usize + w);
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

    /// Intersects the domain of `var` with `mask` (one word per domain word).
    pub(crate) fn intersect(&mut self, var: usize, mask: &[u64]) -> Result<bool, Fail> {
        let mut changed = false;
        for (w, &m) in mask.iter().enumerate().take(self.words[var] as usize) {
            let old = self.cells.get(self.first[var] as usize + w);
            changed |= self.narrow_word(var, w, old & m)?;
        }
        Ok(changed)
    }

    /// Fixes `var` to `index`. Fails if `index` is not in its domain.
    pub(crate) fn assign(&mut self, var: usize, index: u32) -> Result<(), Fail> {
        if !self.contains(var, index) {
            return Err(Fail);
        }
        if self.words[var] == 1 {
            let cell = self.first[var] as usize;
            let (old, new) = (self.cells.get(cell), 1 << index);
            if old != new {
                self.cells.set(cell, new);
                self.notify(var, CHANGED | FIXED | BOUNDS);
            }
            return Ok(());
        }
        let was = self.size(var);
        let target = index as usize / 64;
        for w in 0..self.words[var] as usize {
            let old = self.cells.get(self.first[var] as usize + w);
            let new = if w == target { 1 << (index % 64) } else { 0 };
            if old != new {
                self.write_wide(self.first[var] as usize + w, old, new);
            }
        }
        if was != 1 {
            self.size[var] = 1;
            self.notify(var, CHANGED | FIXED | BOUNDS);
        }
        Ok(())
    }

    /// Sets which events of `var` are worth queuing.
    pub(crate) fn set_interest(&mut self, var: usize, events: u8) {
        self.interest[var] = events;
    }

    #[inline(always)]
    fn notify(&mut self, var: usize, mask: u8) {
        let mask = mask & self.interest[var];
        if mask == 0 {
            return;
        }
        if self.pending[var] == 0 {
            self.events.push(var as u32);
        }
        self.pending[var] |= mask;
    }

    /// The next variable with pending events, and what happened to it.
    #[inline]
    pub(crate) fn pop_event(&mut self) -> Option<(usize, u8)> {
        let var = self.events.pop()? as usize;
        let mask = std::mem::take(&mut self.pending[var]);
        Some((var, mask))
    }

    /// Drops pending events (after a failure).
    pub(crate) fn clear_events(&mut self) {
        for &var in &self.events {
            self.pending[var as usize] = 0;
        }
        self.events.clear();
    }

    // ---- levels ----

    /// A point to undo to: the lengths of the trail (low half) and of the log of removals
    /// (high half).
    ///
    /// # Panics
    /// If the log of removals holds 4 GiB or more.
    pub(crate) fn mark(&self) -> u64 {
        let removals = u32::try_from(self.removals.len())
            .expect("the log of removed values holds less than 4 GiB");
        u64::from(removals) << 32 | u64::from(self.cells.mark())
    }

    pub(crate) fn set_level(&mut self, level: u32) {
        self.cells.set_level(level);
    }

    /// Undoes every change since `mark`, sizes included.
    pub(crate) fn undo_to(&mut self, mark: u64) {
        let (trailed, removed) = (mark as u32, (mark >> 32) as usize);
        // Wide domains' words are all in the log of removals, the trail has the others.
        self.cells.undo_to(trailed, |_, _, _| {});
        if !self.any_wide {
            return;
        }
        let (cells, size, cell_var) = (&mut self.cells, &mut self.size, &self.cell_var);
        self.removals.undo_to(removed, |cell, mask| {
            let var = cell_var[cell] as usize;
            cells.write_untrailed(cell, cells.get(cell) | mask);
            size[var] += mask.count_ones();
        });
    }

    /// The fixed value index of every variable (all must be fixed).
    pub(crate) fn assignment(&self) -> Vec<u32> {
        (0..self.num_vars())
            .map(|v| self.min(v).expect("a solution has every variable fixed"))
            .collect()
    }

    pub(crate) fn var_id(var: usize) -> VarId {
        VarId(var as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_survive_undo() {
        let mut s = Store::new(&[100, 3]);
        s.set_level(1);
        let mark = s.mark();
        s.remove(0, 5).unwrap();
        s.remove(0, 70).unwrap();
        s.remove(0, 70).unwrap();
        assert_eq!(s.size(0), 98);
        s.assign(1, 2).unwrap();
        assert_eq!((s.size(1), s.min(1)), (1, Some(2)));
        s.undo_to(mark);
        assert_eq!((s.size(0), s.size(1)), (100, 3));
        assert!(s.contains(0, 70));
    }

    #[test]
    fn emptying_a_domain_fails() {
        let mut s = Store::new(&[2]);
        s.set_level(1);
        let mark = s.mark();
        s.remove(0, 0).unwrap();
        assert_eq!(s.remove(0, 1), Err(Fail));
        s.clear_events();
        s.undo_to(mark);
        assert_eq!(s.size(0), 2);
    }

    #[test]
    fn events_report_fixed_variables_once() {
        let mut s = Store::new(&[3, 3]);
        s.remove(0, 0).unwrap();
        s.remove(0, 1).unwrap();
        s.remove(1, 2).unwrap();
        let mut events = Vec::new();
        while let Some(e) = s.pop_event() {
            events.push(e);
        }
        events.sort();
        assert_eq!(
            events,
            [(0, CHANGED | FIXED | BOUNDS), (1, CHANGED | BOUNDS)]
        );
    }

    #[test]
    fn bound_events_only_when_an_end_goes() {
        // One word, then three words: middle values, then the ends.
        for universe in [8, 150] {
            let mut s = Store::new(&[universe]);
            let take = |s: &mut Store, index: u32| {
                s.remove(0, index).unwrap();
                let event = s.pop_event().map(|(_, e)| e);
                assert_eq!(s.pop_event(), None);
                event
            };
            let last = universe - 1;
            assert_eq!(take(&mut s, 2), Some(CHANGED), "{universe}");
            assert_eq!(take(&mut s, 0), Some(CHANGED | BOUNDS), "{universe}");
            assert_eq!(take(&mut s, last), Some(CHANGED | BOUNDS), "{universe}");
            // The new smallest value is 1; the largest last - 1.
            assert_eq!(take(&mut s, 1), Some(CHANGED | BOUNDS), "{universe}");
            assert_eq!(take(&mut s, last - 2), Some(CHANGED), "{universe}");
            assert_eq!(take(&mut s, last - 1), Some(CHANGED | BOUNDS), "{universe}");
        }
        // Across words: the smallest value is the first of the second word.
        let mut s = Store::new(&[150]);
        s.retain(0, |i| i >= 64).unwrap();
        while s.pop_event().is_some() {}
        s.remove(0, 64).unwrap();
        assert_eq!(s.pop_event(), Some((0, CHANGED | BOUNDS)));
        s.remove(0, 100).unwrap();
        assert_eq!(s.pop_event(), Some((0, CHANGED)));
    }

    #[test]
    fn next_and_previous_values() {
        let mut s = Store::new(&[130]);
        s.retain(0, |i| i == 3 || i == 64 || i == 129).unwrap();
        assert_eq!(s.next_at_or_after(0, 4), Some(64));
        assert_eq!(s.next_at_or_after(0, 65), Some(129));
        assert_eq!(s.next_at_or_after(0, 130), None);
        assert_eq!(s.prev_at_or_before(0, 128), Some(64));
        assert_eq!(s.prev_at_or_before(0, 2), None);
        assert_eq!((s.min(0), s.max(0)), (Some(3), Some(129)));
    }
}
