//! Finite domains as bitsets over value indices (a `SmallVec` of `u64` words).

use std::fmt;

use smallvec::SmallVec;

/// A set of value indices `0..universe`, as a bitset.
///
/// A variable's values are a list of Rust values; its domain is the set of indices into that
/// list that are still possible. Up to 128 values live inline, without allocation. The
/// search store keeps the same words flat in one trailed array; a `Domain` is the value
/// type a [`Context`](crate::Context) hands out and the model starts from.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Domain {
    words: SmallVec<[u64; 2]>,
    universe: u32,
}

/// Number of `u64` words a bitset over `universe` indices needs.
pub(crate) fn words_for(universe: u32) -> usize {
    (universe as usize).div_ceil(64)
}

impl Domain {
    /// Every index in `0..universe`.
    pub fn full(universe: u32) -> Self {
        let mut words: SmallVec<[u64; 2]> = SmallVec::from_elem(u64::MAX, words_for(universe));
        if universe % 64 != 0 {
            if let Some(last) = words.last_mut() {
                *last = (1u64 << (universe % 64)) - 1;
            }
        }
        Domain { words, universe }
    }

    /// No index, over `0..universe`.
    pub fn empty(universe: u32) -> Self {
        Domain {
            words: SmallVec::from_elem(0, words_for(universe)),
            universe,
        }
    }

    pub(crate) fn from_words(words: &[u64], universe: u32) -> Self {
        Domain {
            words: SmallVec::from_slice(words),
            universe,
        }
    }

    /// The size of the universe: the number of values of the variable.
    pub fn universe(&self) -> u32 {
        self.universe
    }

    /// The number of indices in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Whether `index` is in the set.
    pub fn contains(&self, index: u32) -> bool {
        self.words
            .get(index as usize / 64)
            .is_some_and(|w| w >> (index % 64) & 1 == 1)
    }

    /// Adds `index`; indices outside the universe are ignored.
    pub fn insert(&mut self, index: u32) {
        if index < self.universe {
            self.words[index as usize / 64] |= 1 << (index % 64);
        }
    }

    /// Removes `index`.
    pub fn remove(&mut self, index: u32) {
        if let Some(w) = self.words.get_mut(index as usize / 64) {
            *w &= !(1 << (index % 64));
        }
    }

    /// The smallest index in the set.
    pub fn min(&self) -> Option<u32> {
        self.iter().next()
    }

    /// The largest index in the set.
    pub fn max(&self) -> Option<u32> {
        self.words
            .iter()
            .enumerate()
            .rev()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i as u32 * 64 + 63 - w.leading_zeros())
    }

    /// The indices in increasing order.
    pub fn iter(&self) -> Bits<'_> {
        Bits::new(&self.words)
    }

    pub(crate) fn words(&self) -> &[u64] {
        &self.words
    }
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<'d> IntoIterator for &'d Domain {
    type Item = u32;
    type IntoIter = Bits<'d>;

    fn into_iter(self) -> Bits<'d> {
        self.iter()
    }
}

/// The set bits of a slice of words, in increasing order; for a sparse domain of the
/// search store, of words read one at a time instead.
#[derive(Clone, Debug)]
pub struct Bits<'w> {
    words: &'w [u64],
    base: u32,
    current: u64,
    /// Words after `words`, read one at a time (a sparse domain's): `None` for a slice.
    window: Option<Window<'w>>,
}

/// Where a sparse domain's words come from: word `w` of the domain before its ends cut it
/// (values outside the ends may read as present).
pub(crate) trait WordSource: fmt::Debug {
    fn word(&self, w: u32) -> u64;
}

/// The words of a sparse domain that [`Bits`] has not read yet: `next` to the word of
/// `high`, the last value it gives.
#[derive(Clone, Copy, Debug)]
struct Window<'w> {
    source: &'w dyn WordSource,
    next: u32,
    high: u32,
}

impl<'w> Bits<'w> {
    /// The set bits of `words`, the first of which holds indices `base..base + 64`.
    pub(crate) fn starting_at(words: &'w [u64], base: u32) -> Self {
        Bits {
            base,
            ..Bits::new(words)
        }
    }

    pub(crate) fn new(words: &'w [u64]) -> Self {
        match words.split_first() {
            Some((&first, rest)) => Bits {
                words: rest,
                base: 0,
                current: first,
                window: None,
            },
            None => Bits {
                words,
                base: 0,
                current: 0,
                window: None,
            },
        }
    }

    /// The set bits of `source`'s words between `low` and `high` (`low <= high`), read
    /// one word at a time: the cost is the number of words between them, not the universe.
    pub(crate) fn window(source: &'w dyn WordSource, low: u32, high: u32) -> Self {
        let w = low / 64;
        let mut current = source.word(w) & (u64::MAX << (low % 64));
        if high / 64 == w {
            current &= u64::MAX >> (63 - high % 64);
        }
        Bits {
            words: &[],
            base: w * 64,
            current,
            window: Some(Window {
                source,
                next: w + 1,
                high,
            }),
        }
    }

    /// Reads the next word of the window, if there is one (the slice is spent).
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> Option<()> {
        let window = self.window.as_mut()?;
        let w = window.next;
        if w > window.high / 64 {
            return None;
        }
        window.next = w + 1;
        let mut bits = window.source.word(w);
        if w == window.high / 64 {
            bits &= u64::MAX >> (63 - window.high % 64);
        }
        self.base = w * 64;
        self.current = bits;
        Some(())
    }
}

impl Bits<'static> {
    /// The one index `index`.
    pub(crate) fn single(index: u32) -> Self {
        Bits {
            words: &[],
            base: index / 64 * 64,
            current: 1 << (index % 64),
            window: None,
        }
    }
}

impl Iterator for Bits<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        while self.current == 0 {
            match self.words.split_first() {
                Some((&next, rest)) => {
                    self.words = rest;
                    self.current = next;
                    self.base += 64;
                }
                None => self.refill()?,
            }
        }
        let bit = self.current.trailing_zeros();
        self.current &= self.current - 1;
        Some(self.base + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_domains_hold_exactly_their_universe() {
        for universe in [0, 1, 63, 64, 65, 128, 200] {
            let d = Domain::full(universe);
            assert_eq!(d.len(), universe as usize);
            assert_eq!(
                d.iter().collect::<Vec<_>>(),
                (0..universe).collect::<Vec<_>>()
            );
            assert!(!d.contains(universe));
        }
    }

    #[test]
    fn insert_remove_min_max() {
        let mut d = Domain::empty(130);
        assert!(d.is_empty());
        assert_eq!((d.min(), d.max()), (None, None));
        for i in [3, 64, 129] {
            d.insert(i);
        }
        d.insert(500);
        assert_eq!((d.min(), d.max(), d.len()), (Some(3), Some(129), 3));
        d.remove(3);
        d.remove(1000);
        assert_eq!(format!("{d:?}"), "{64, 129}");
    }
}
