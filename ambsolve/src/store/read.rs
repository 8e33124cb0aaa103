//! Reading the store's domains: sizes, ends, membership, words and values, each in O(1)
//! for a fixed or one-word domain and from the kept ends for a wide or sparse one.

use super::{NOT_FIXED, Store};
use crate::domain::{Bits, Domain, words_for};

impl Store {
    /// Whether `var`'s domain fits one word (and is read from it directly).
    #[inline(always)]
    pub(super) fn one_word(&self, var: usize) -> bool {
        self.meta[var].words == 1
    }

    /// For a wide domain: the value [`assign`](Store::assign) fixed it to, if it did.
    #[inline(always)]
    pub(super) fn fixed_to(&self, var: usize) -> Option<u32> {
        let value = self.meta[var].fixed;
        (value != NOT_FIXED).then_some(value)
    }

    /// For a wide domain: its words, read only while it is not fixed by `assign`.
    #[inline(always)]
    pub(super) fn raw_words(&self, var: usize) -> &[u64] {
        let first = self.meta[var].first as usize;
        &self.cells.values()[first..first + self.meta[var].words as usize]
    }

    /// The number of values left. Domains of one word count their bits; wider ones keep
    /// a counter.
    #[inline]
    pub(crate) fn size(&self, var: usize) -> u32 {
        if self.one_word(var) {
            self.cells.get(self.meta[var].first as usize).count_ones()
        } else {
            self.size[var]
        }
    }

    /// Whether one value is left. For a domain of one word, whether one bit is set: no
    /// count of the bits (a build for any x86-64 counts them without `popcnt`, slowly).
    #[inline]
    pub(crate) fn is_fixed(&self, var: usize) -> bool {
        if self.one_word(var) {
            self.cells
                .get(self.meta[var].first as usize)
                .is_power_of_two()
        } else {
            self.size[var] == 1
        }
    }

    pub(crate) fn universe(&self, var: usize) -> u32 {
        self.meta[var].universe
    }

    /// The number of words `var`'s universe spans (a sparse domain stores none of them:
    /// looping over its words costs O(universe / 64)).
    #[inline]
    pub(crate) fn num_words(&self, var: usize) -> usize {
        match self.meta[var].words {
            0 => words_for(self.meta[var].universe),
            words => words as usize,
        }
    }

    /// Word `w` of the domain of `var` (values `64 w .. 64 w + 63`); for a sparse domain,
    /// made from its ends and its stored word.
    #[inline]
    pub(crate) fn word(&self, var: usize, w: usize) -> u64 {
        if !self.one_word(var) {
            if let Some(value) = self.fixed_to(var) {
                return if value as usize / 64 == w {
                    1 << (value % 64)
                } else {
                    0
                };
            }
            if self.is_sparse(var) {
                return self.sparse_word(var, w);
            }
        }
        self.cells.get(self.meta[var].first as usize + w)
    }

    #[inline]
    pub(crate) fn contains(&self, var: usize, index: u32) -> bool {
        if index >= self.meta[var].universe {
            return false;
        }
        if !self.one_word(var) {
            if let Some(value) = self.fixed_to(var) {
                return value == index;
            }
            if self.is_sparse(var) {
                return self.sparse_contains(var, index);
            }
        }
        self.cells
            .get(self.meta[var].first as usize + index as usize / 64)
            >> (index % 64)
            & 1
            == 1
    }

    /// The smallest index in the domain (the value, for a fixed variable).
    #[inline]
    pub(crate) fn min(&self, var: usize) -> Option<u32> {
        if self.one_word(var) {
            let word = self.cells.get(self.meta[var].first as usize);
            return (word != 0).then(|| word.trailing_zeros());
        }
        match self.fixed_to(var) {
            Some(value) => Some(value),
            None => (self.meta[var].count > 0).then_some(self.meta[var].low),
        }
    }

    /// The largest index in the domain.
    #[inline]
    pub(crate) fn max(&self, var: usize) -> Option<u32> {
        if self.one_word(var) {
            let word = self.cells.get(self.meta[var].first as usize);
            return (word != 0).then(|| 63 - word.leading_zeros());
        }
        match self.fixed_to(var) {
            Some(value) => Some(value),
            None => (self.meta[var].count > 0).then_some(self.meta[var].high),
        }
    }

    /// The smallest index `>= from` in the domain.
    #[inline]
    pub(crate) fn next_at_or_after(&self, var: usize, from: u32) -> Option<u32> {
        if self.one_word(var) {
            let bits =
                self.cells.get(self.meta[var].first as usize) & u64::MAX.checked_shl(from)?;
            return (bits != 0).then(|| bits.trailing_zeros());
        }
        match self.fixed_to(var) {
            Some(value) => (value >= from).then_some(value),
            None if self.meta[var].count == 0 => None,
            None if self.is_sparse(var) => {
                self.sparse_up(var, from.max(self.meta[var].low), self.meta[var].high)
            }
            None => scan_up(
                self.raw_words(var),
                from.max(self.meta[var].low),
                self.meta[var].high,
            ),
        }
    }

    /// The largest index `<= from` in the domain.
    pub(crate) fn prev_at_or_before(&self, var: usize, from: u32) -> Option<u32> {
        if self.one_word(var) {
            let below = if from >= 63 {
                u64::MAX
            } else {
                u64::MAX >> (63 - from)
            };
            let bits = self.cells.get(self.meta[var].first as usize) & below;
            return (bits != 0).then(|| 63 - bits.leading_zeros());
        }
        match self.fixed_to(var) {
            Some(value) => (value <= from).then_some(value),
            None if self.meta[var].count == 0 => None,
            None if self.is_sparse(var) => {
                self.sparse_down(var, from.min(self.meta[var].high), self.meta[var].low)
            }
            None => scan_down(
                self.raw_words(var),
                from.min(self.meta[var].high),
                self.meta[var].low,
            ),
        }
    }

    /// The values of `var`, in increasing order: the words from its smallest value's to
    /// its largest's (for a sparse domain, made one at a time from its ends and stored
    /// words: O(size + stored words), not O(universe)).
    pub(crate) fn iter(&self, var: usize) -> Bits<'_> {
        if self.one_word(var) {
            let first = self.meta[var].first as usize;
            return Bits::new(&self.cells.values()[first..first + 1]);
        }
        match self.fixed_to(var) {
            Some(value) => Bits::single(value),
            None if self.meta[var].count == 0 => Bits::new(&[]),
            None if self.is_sparse(var) => self.sparse_iter(var),
            None => {
                let (low, high) = (
                    self.meta[var].low as usize / 64,
                    self.meta[var].high as usize / 64,
                );
                Bits::starting_at(&self.raw_words(var)[low..=high], low as u32 * 64)
            }
        }
    }

    /// The domain of `var` as a [`Domain`]: O(universe / 64) words, for a sparse domain
    /// too (512 MiB over 2^32 values).
    pub(crate) fn domain(&self, var: usize) -> Domain {
        let words: Vec<u64> = (0..self.num_words(var))
            .map(|w| self.word(var, w))
            .collect();
        Domain::from_words(&words, self.meta[var].universe)
    }
}

/// The first set bit of `words` at or after bit `from`, at most `last`.
#[inline]
pub(super) fn scan_up(words: &[u64], from: u32, last: u32) -> Option<u32> {
    if from > last {
        return None;
    }
    let mut w = from as usize / 64;
    let mut bits = words[w] & (u64::MAX << (from % 64));
    loop {
        if bits != 0 {
            let found = w as u32 * 64 + bits.trailing_zeros();
            return (found <= last).then_some(found);
        }
        w += 1;
        if w > last as usize / 64 {
            return None;
        }
        bits = words[w];
    }
}

/// The last set bit of `words` at or before bit `from`, at least `first`.
#[inline]
pub(super) fn scan_down(words: &[u64], from: u32, first: u32) -> Option<u32> {
    if from < first {
        return None;
    }
    let mut w = from as usize / 64;
    let mut bits = words[w] & (u64::MAX >> (63 - from % 64));
    loop {
        if bits != 0 {
            let found = w as u32 * 64 + 63 - bits.leading_zeros();
            return (found >= first).then_some(found);
        }
        if w <= first as usize / 64 {
            return None;
        }
        w -= 1;
        bits = words[w];
    }
}
