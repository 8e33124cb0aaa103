//! The search store: every variable's domain, in one of three representations, with the
//! propagators' own counters, all undone together.
//!
//! Domain words and propagators' own counters are cells of one [`Trail`], so one mark
//! and one undo restore everything. Every change to a domain queues an event for the
//! propagation loop: `CHANGED`, `BOUNDS` when its smallest or largest value went, and
//! `FIXED` when one value is left.
//!
//! A domain is a set of value indices `0..universe`, kept as:
//! - **one word** (up to 64 values): a bitset in one trailed cell, read and written
//!   directly; every read checks for this case first;
//! - **wide** (65 to [`SPARSE_ABOVE`] values): a bitset of several cells;
//! - **sparse** (more than [`SPARSE_ABOVE`] values, up to `u32::MAX`): no words at all.
//!
//! Wide domains (more than 64 values) cost the same whatever their size:
//! - their words only lose bits between a mark and its undo, so their changes go to a
//!   compact log of removed bits instead of the trail ([`Removals`]), a fifth of the
//!   memory on big boards;
//! - their size, smallest and largest value are kept exact without trailing them: undo
//!   adjusts them by the bits each restored word gains back, so `min`, `max` and `size`
//!   read a number instead of scanning words;
//! - fixing one sets its fixed value, not every word: while it is set the words are not
//!   read, and a marker in the log of removals makes undo clear it.
//!
//! Bounds reasoning then costs what it removes: a bound moved by a few values touches a
//! word or two, fixing a variable writes one number, over ten values or ten million.
//!
//! A sparse domain is its ends `low..=high` (exact) less its holes: a word is stored (in a
//! hash map per variable) only once a value went from it strictly between the ends; every
//! other word between the ends is full. Moving an end (removing the smallest or largest
//! values, a range from an end, fixing) stores nothing, so the domain costs O(1) memory
//! plus a word per 64 values that holds a hole: a variable over 2^32 - 1 values takes a
//! placeholder cell where a bitset would take 512 MiB. Its size is kept exact, its words
//! are made on demand from the ends and the stored word, and its values are listed from
//! its smallest to its largest in O(size + stored words). Undo goes through a side log of
//! ends and stored words (`sparse.rs`), popped as markers logged on the variable's
//! placeholder cell in the log of removals come back, so a mark stays one `u64`. What is
//! O(universe) or O(size) on a sparse domain: [`domain`](Store::domain),
//! [`retain`](Store::retain) (asks about every value), loops over
//! [`num_words`](Store::num_words), and removing a range strictly inside it (stores each
//! word of the range); [`cell_of`](Store::cell_of) gives its placeholder, not a word, so
//! [`word_at`](Store::word_at), [`narrow_quiet`](Store::narrow_quiet) and
//! [`remove_mask_one`](Store::remove_mask_one) stay for one-word domains. Tests force
//! small domains sparse with [`Store::with_domains_sparse_above`].
//!
//! This file holds the store's layout, its auxiliary cells, events and levels;
//! `read.rs` reads domains, `narrow.rs` narrows them, `sparse.rs` reads, narrows and
//! restores sparse domains.

mod atoms;
mod narrow;
mod read;
mod sparse;

pub(crate) use self::atoms::{Atoms, Cause, Pred, Rel};

use self::sparse::{Holes, SparseSave};
use crate::domain::{Domain, words_for};
use crate::trail::{Removals, Trail};
use crate::var::VarId;

/// Event bit: the domain lost values.
pub(crate) const CHANGED: u8 = 1;
/// Event bit: the domain has a single value left.
pub(crate) const FIXED: u8 = 2;
/// Event bit: the domain lost its smallest or its largest value.
pub(crate) const BOUNDS: u8 = 4;

const NO_VAR: u32 = u32::MAX;

/// Domains over more values than this are sparse (see the module's documentation).
///
/// At 2^16 values a bitset domain is 1,024 words (8 KiB): still cheap to build, copy and
/// scan, and every read or removal is one indexed word, where a sparse domain's middle
/// costs a hash lookup. Above it a bitset grows to 128 KiB at 2^20 values and 512 MiB at
/// 2^32, while such domains are integer ranges mostly narrowed at their ends, which a
/// sparse domain does in O(1) memory: wide bitsets stay for the mid sizes, where the words
/// of a board's variables (n-queens on 10,000 rows: 157 each) are fast and small.
pub(crate) const SPARSE_ABOVE: u32 = 1 << 16;

/// What a wide domain's fixed value is when the variable is not fixed by
/// [`Store::assign`] (otherwise: the value index).
const NOT_FIXED: u32 = u32::MAX;

/// Domains of all variables, plus auxiliary trailed cells, plus the event queue.
#[derive(Clone, Debug)]
pub(crate) struct Store {
    cells: Trail<u64>,
    /// What wide domains lost, since the root.
    removals: Removals,
    /// Per variable: where its words are, and what a wide domain keeps besides them.
    meta: Vec<Meta>,
    /// Wide and sparse domains' sizes: the count of their words (of their values), 1 when
    /// fixed (dense, for the strategies that read every variable's size at every node).
    size: Vec<u32>,
    /// The variable a cell holds a word of (`NO_VAR` for an auxiliary cell).
    cell_var: Vec<u32>,
    events: Vec<u32>,
    pending: Vec<u8>,
    /// Per variable, the events some propagator listens to; others are not queued.
    interest: Vec<u8>,
    /// Sparse domains' stored words, one map per sparse variable, at the index its
    /// placeholder cell holds.
    holes: Vec<Holes>,
    /// What undo restores for sparse domains, popped as their markers in the log of
    /// removals come back.
    sparse_log: Vec<SparseSave>,
    /// Whether some domain spans several words or is sparse.
    any_wide: bool,
    /// The variables whose domain changed (narrowed or restored by undo) since the last
    /// [`take_touched`](Store::take_touched), each once, when someone asked to
    /// [`track_touched`](Store::track_touched) them.
    touched: Option<Touched>,
    /// The predicate trail, when the search learns (`atoms.rs`).
    atoms: Option<Box<Atoms>>,
}

/// The variables whose domain changed since someone last asked, each listed once.
#[derive(Clone, Debug, Default)]
struct Touched {
    list: Vec<u32>,
    listed: Vec<bool>,
}

/// A variable's first cell, number of words and of values; for a wide domain, the
/// number of bits set, the smallest and largest of them (exact, adjusted by undo; they
/// describe the words, not the fixed value), and the value [`Store::assign`] fixed it to,
/// or [`NOT_FIXED`] (undone by a marker in the log of removals). One record, so that a
/// change to a domain reads one cache line besides its word.
///
/// A sparse domain has no words (`words` is 0: its universe spans
/// [`num_words`](Store::num_words)), `first` is its placeholder cell, `count`, `low` and
/// `high` are its size and ends (exact, restored by undo), and it is never `fixed`: fixing
/// it moves both ends.
#[derive(Clone, Copy, Debug)]
struct Meta {
    first: u32,
    words: u32,
    universe: u32,
    count: u32,
    low: u32,
    high: u32,
    fixed: u32,
}

impl Store {
    /// A store with one full domain per entry of `universes`.
    pub(crate) fn new(universes: &[u32]) -> Self {
        Self::with_domains(universes, |_| None)
    }

    /// A store whose domains start from `initial(var)` where it gives one (`None`: full),
    /// sparse for universes over [`SPARSE_ABOVE`] values.
    pub(crate) fn with_domains<'d>(
        universes: &[u32],
        initial: impl Fn(usize) -> Option<&'d Domain>,
    ) -> Self {
        Self::with_domains_sparse_above(universes, initial, SPARSE_ABOVE)
    }

    /// [`with_domains`](Store::with_domains), sparse for universes over `sparse_above`
    /// values (and for empty universes, which have no words either way): 0 makes every
    /// domain sparse, `u32::MAX` none. An initial domain of a sparse variable is read once,
    /// O(universe / 64); a full one costs nothing.
    pub(crate) fn with_domains_sparse_above<'d>(
        universes: &[u32],
        initial: impl Fn(usize) -> Option<&'d Domain>,
        sparse_above: u32,
    ) -> Self {
        let n = universes.len();
        let sparse = |universe: u32| universe > sparse_above || universe == 0;
        let mut store = Store {
            cells: Trail::new(),
            removals: Removals::default(),
            meta: Vec::with_capacity(n),
            size: vec![0; n],
            cell_var: Vec::new(),
            holes: Vec::new(),
            sparse_log: Vec::new(),
            events: Vec::new(),
            pending: vec![0; n],
            interest: vec![CHANGED | FIXED | BOUNDS; n],
            any_wide: universes.iter().any(|&u| u > 64 || sparse(u)),
            touched: None,
            atoms: None,
        };
        for (var, &universe) in universes.iter().enumerate() {
            if sparse(universe) {
                store.push_sparse(var, universe, initial(var));
                continue;
            }
            let full;
            let domain = match initial(var) {
                Some(domain) => domain,
                None => {
                    full = Domain::full(universe);
                    &full
                }
            };
            let wide = words_for(universe) != 1;
            store.meta.push(Meta {
                first: store.cells.len() as u32,
                words: words_for(universe) as u32,
                universe,
                count: domain.len() as u32,
                low: domain.min().unwrap_or(0),
                high: domain.max().unwrap_or(0),
                fixed: NOT_FIXED,
            });
            for &word in domain.words() {
                store.cells.push(word);
                store.cell_var.push(var as u32);
            }
            if wide {
                store.size[var] = domain.len() as u32;
            }
        }
        store
    }

    pub(crate) fn num_vars(&self) -> usize {
        self.meta.len()
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

    /// Auxiliary cells `first..first + len` (allocated one after the other).
    #[inline]
    pub(crate) fn aux_slice(&self, first: usize, len: usize) -> &[u64] {
        &self.cells.values()[first..first + len]
    }

    /// Writes `words` to the auxiliary cells from `first`, trailing only those that
    /// change; whether none did.
    pub(crate) fn set_aux_slice(&mut self, first: usize, words: &[u64]) -> bool {
        let mut same = true;
        for (cell, &bits) in (first..).zip(words) {
            if self.aux(cell) != bits {
                self.set_aux(cell, bits);
                same = false;
            }
        }
        same
    }

    // ---- events ----

    /// Sets which events of `var` are worth queuing.
    pub(crate) fn set_interest(&mut self, var: usize, events: u8) {
        self.interest[var] = events;
    }

    /// From now on, lists every variable whose domain changes, for
    /// [`take_touched`](Store::take_touched): an order that keeps its variables ranked
    /// reads only those (the list starts empty).
    pub(crate) fn track_touched(&mut self) {
        self.touched = Some(Touched {
            list: Vec::new(),
            listed: vec![false; self.num_vars()],
        });
    }

    /// Lists `var` as touched, if the store tracks changes.
    #[inline(always)]
    fn touch(&mut self, var: usize) {
        if let Some(touched) = &mut self.touched {
            touched.add(var);
        }
    }

    /// Moves the variables touched since the last call into `out` (emptied first), each
    /// once; nothing if the store does not track them.
    pub(crate) fn take_touched(&mut self, out: &mut Vec<u32>) {
        out.clear();
        if let Some(touched) = &mut self.touched {
            for &var in &touched.list {
                touched.listed[var as usize] = false;
            }
            std::mem::swap(out, &mut touched.list);
        }
    }

    #[inline(always)]
    fn notify(&mut self, var: usize, mask: u8) {
        self.touch(var);
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

    /// Moves every pending event into `out` (emptied first), in the order `pop_event`
    /// would give them.
    pub(crate) fn take_events(&mut self, out: &mut Vec<(usize, u8)>) {
        out.clear();
        while let Some(event) = self.pop_event() {
            out.push(event);
        }
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

    /// Undoes every change since `mark`: trailed cells from the trail, wide domains' words
    /// from the log of removals, with their sizes, ends and fixed values, and sparse
    /// domains from their side log as their markers come back.
    pub(crate) fn undo_to(&mut self, mark: u64) {
        let (trailed, removed) = (mark as u32, (mark >> 32) as usize);
        match &mut self.touched {
            None => self.cells.undo_to(trailed, |_, _, _| {}),
            Some(touched) => {
                let cell_var = &self.cell_var;
                self.cells.undo_to(trailed, |cell, _, _| {
                    if let Some(&var) = cell_var.get(cell).filter(|&&v| v != NO_VAR) {
                        touched.add(var as usize);
                    }
                });
            }
        }
        if !self.any_wide {
            return;
        }
        let Store {
            cells,
            removals,
            meta,
            cell_var,
            size,
            holes,
            sparse_log,
            touched,
            ..
        } = self;
        removals.undo_to(removed, |cell, mask| {
            let var = cell_var[cell] as usize;
            if let Some(touched) = touched {
                touched.add(var);
            }
            if mask == 0 {
                if meta[var].words == 0 {
                    // A sparse domain's marker: one change to undo from the side log.
                    let holes = &mut holes[cells.get(cell) as usize];
                    sparse::restore(&mut meta[var], holes, sparse_log);
                    size[var] = meta[var].count;
                    return;
                }
                // The marker `assign` logged: the variable was not fixed at the mark.
                meta[var].fixed = NOT_FIXED;
                size[var] = meta[var].count;
                return;
            }
            cells.write_untrailed(cell, cells.get(cell) | mask);
            // Between the mark and now the domain only shrank, so its ends at the mark
            // are the ends now or among the bits coming back. An emptied domain (size 0)
            // kept the ends of a state after the mark, at least as far in as the mark's,
            // so the same rule holds.
            let base = (cell - meta[var].first as usize) as u32 * 64;
            let (lowest, highest) = (
                base + mask.trailing_zeros(),
                base + 63 - mask.leading_zeros(),
            );
            let wide = &mut meta[var];
            wide.low = wide.low.min(lowest);
            wide.high = wide.high.max(highest);
            wide.count += mask.count_ones();
            // Words do not change while fixed, so the variable is not fixed here.
            size[var] = wide.count;
        });
    }

    /// The fixed value index of every variable (all must be fixed).
    pub(crate) fn assignment(&self) -> Vec<u32> {
        (0..self.num_vars())
            .map(|v| self.min(v).expect("a solution has every variable fixed"))
            .collect()
    }

    pub(crate) fn var_id(var: usize) -> VarId {
        VarId::at(var as u32)
    }
}

impl Touched {
    #[inline(always)]
    fn add(&mut self, var: usize) {
        if !self.listed[var] {
            self.listed[var] = true;
            self.list.push(var as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Fail;

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
    fn fixing_a_wide_domain_writes_no_word() {
        let mut s = Store::new(&[1_000_000]);
        s.set_level(1);
        let mark = s.mark();
        s.assign(0, 500_000).unwrap();
        // One marker in the log of removals, nothing on the trail: not 15,625 words.
        assert!(s.removals.len() <= 17, "{} bytes", s.removals.len());
        assert_eq!(s.cells.mark(), 0);
        assert_eq!(
            (s.size(0), s.min(0), s.max(0)),
            (1, Some(500_000), Some(500_000))
        );
        assert!(s.contains(0, 500_000) && !s.contains(0, 499_999));
        assert_eq!(s.iter(0).collect::<Vec<_>>(), [500_000]);
        assert_eq!(s.word(0, 500_000 / 64), 1 << (500_000 % 64));
        assert_eq!(s.word(0, 0), 0);
        assert_eq!(s.next_at_or_after(0, 3), Some(500_000));
        assert_eq!(s.prev_at_or_before(0, 499_999), None);
        assert_eq!(s.remove(0, 7), Ok(false));
        s.remove_range(0, 0, 400_000).unwrap();
        assert_eq!(s.remove(0, 500_000), Err(Fail));
        s.clear_events();
        s.undo_to(mark);
        assert_eq!(
            (s.size(0), s.min(0), s.max(0)),
            (1_000_000, Some(0), Some(999_999))
        );
        assert_eq!(s.iter(0).take(3).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn wide_ends_follow_removals_and_undo() {
        let mut s = Store::new(&[300]);
        let mut marks = Vec::new();
        let mut expect = Vec::new();
        // (first, last) removed at each level: the low end, the high end, a hole, the low
        // end up to the hole (the smallest value jumps past it), then a single value.
        let steps = [(0, 9), (250, 299), (100, 199), (10, 99), (200, 200)];
        for (level, &(first, last)) in steps.iter().enumerate() {
            s.set_level(level as u32 + 1);
            marks.push(s.mark());
            expect.push((s.size(0), s.min(0), s.max(0)));
            s.remove_range(0, first, last).unwrap();
        }
        assert_eq!((s.size(0), s.min(0), s.max(0)), (49, Some(201), Some(249)));
        assert_eq!(s.prev_at_or_before(0, 200), None);
        assert_eq!(s.next_at_or_after(0, 230), Some(230));
        while let Some(mark) = marks.pop() {
            s.undo_to(mark);
            let (size, min, max) = expect.pop().unwrap();
            assert_eq!((s.size(0), s.min(0), s.max(0)), (size, min, max));
        }
        assert_eq!((s.size(0), s.min(0), s.max(0)), (300, Some(0), Some(299)));
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

    /// A small deterministic generator (xorshift64*), for the differential test.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        /// A number below `n` (not 0).
        fn below(&mut self, n: u32) -> u32 {
            (self.next() % u64::from(n)) as u32
        }

        fn chance(&mut self, percent: u32) -> bool {
            self.below(100) < percent
        }
    }

    /// Everything a caller can read about `var`, for comparing two stores.
    fn observe(s: &Store, var: usize) -> String {
        let universe = s.universe(var);
        let size = s.size(var);
        if size == 0 {
            return format!("empty over {universe}");
        }
        let values: Vec<u32> = s.iter(var).collect();
        let members: Vec<u32> = (0..universe + 2).filter(|&i| s.contains(var, i)).collect();
        assert_eq!(values, members, "iter and contains agree");
        let words: Vec<u64> = (0..s.num_words(var)).map(|w| s.word(var, w)).collect();
        let next: Vec<Option<u32>> = (0..universe + 2)
            .step_by(7)
            .map(|i| s.next_at_or_after(var, i))
            .collect();
        let prev: Vec<Option<u32>> = (0..universe + 2)
            .step_by(5)
            .map(|i| s.prev_at_or_before(var, i))
            .collect();
        assert_eq!(s.domain(var).iter().collect::<Vec<_>>(), values);
        format!(
            "size {size} fixed {} min {:?} max {:?} values {values:?} words {words:x?} \
             next {next:?} prev {prev:?}",
            s.is_fixed(var),
            s.min(var),
            s.max(var),
        )
    }

    /// One random change to `var` in both stores; returns the two results.
    fn random_change(
        rng: &mut Rng,
        stores: &mut [Store; 2],
        var: usize,
    ) -> ([Result<bool, Fail>; 2], String) {
        let universe = stores[0].universe(var);
        let words = stores[0].num_words(var);
        let (low, high) = (
            stores[0].min(var).unwrap_or(0),
            stores[0].max(var).unwrap_or(0),
        );
        // An index near the domain: inside it mostly, sometimes past the universe.
        let index = |rng: &mut Rng| match rng.below(6) {
            0 => low + rng.below(3),
            1 => high.saturating_sub(rng.below(3)),
            2 => rng.below(universe + 3),
            _ => low + rng.below(high - low + 1),
        };
        match rng.below(8) {
            0 | 1 => {
                let i = index(rng);
                (
                    stores.each_mut().map(|s| s.remove(var, i)),
                    format!("remove {i}"),
                )
            }
            2 | 3 => {
                let (a, b) = (index(rng), index(rng));
                let (a, b) = (a.min(b), a.max(b));
                (
                    stores
                        .each_mut()
                        .map(|s| s.remove_range(var, a, b).map(|()| true)),
                    format!("remove_range {a}..={b}"),
                )
            }
            4 => {
                let (seed, percent) = (rng.next(), 50 + rng.below(50));
                let keep = move |i: u32| {
                    (u64::from(i) ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 57
                        < u64::from(percent * 128 / 100)
                };
                (
                    stores.each_mut().map(|s| s.retain(var, keep)),
                    format!("retain {seed:x} {percent}"),
                )
            }
            5 => {
                let i = index(rng);
                (
                    stores.each_mut().map(|s| s.assign(var, i).map(|()| true)),
                    format!("assign {i}"),
                )
            }
            6 => {
                let w = rng.below(words as u32) as usize;
                let mask = rng.next() | rng.next();
                let old = stores[0].word(var, w);
                assert_eq!(stores[1].word(var, w), old);
                (
                    stores.each_mut().map(|s| s.narrow_word(var, w, old & mask)),
                    format!("narrow_word {w} {mask:x}"),
                )
            }
            _ => {
                let mask: Vec<u64> = (0..words).map(|_| !(rng.next() & rng.next())).collect();
                (
                    stores.each_mut().map(|s| s.intersect(var, &mask)),
                    format!("intersect {mask:x?}"),
                )
            }
        }
    }

    /// Compares everything read about every variable, the events, and the touched
    /// variables unless `after_failure` (undoing a failed change lists the variable or not
    /// depending on whether the failure wrote anything: a fixed wide domain does not).
    fn compare_after(stores: &mut [Store; 2], context: &str, after_failure: bool) {
        let mut events = [Vec::new(), Vec::new()];
        let mut touched = [Vec::new(), Vec::new()];
        for (k, s) in stores.iter_mut().enumerate() {
            s.take_events(&mut events[k]);
            s.take_touched(&mut touched[k]);
            touched[k].sort();
        }
        assert_eq!(events[0], events[1], "events after {context}");
        if !after_failure {
            assert_eq!(touched[0], touched[1], "touched after {context}");
        }
        for var in 0..stores[0].num_vars() {
            assert_eq!(
                observe(&stores[1], var),
                observe(&stores[0], var),
                "var {var} after {context}"
            );
        }
    }

    fn compare(stores: &mut [Store; 2], context: &str) {
        compare_after(stores, context, false);
    }

    /// Random changes, marks and undos on a store kept sparse and one kept as bitsets:
    /// everything read, every event, every result the same after every step.
    #[test]
    fn sparse_domains_behave_as_bitsets() {
        let mut rng = Rng(0x5eed_cafe_f00d_0001);
        let edges = [1, 2, 3, 63, 64, 65, 127, 128, 129, 191, 192, 193, 256, 300];
        for round in 0..240 {
            let n = 1 + rng.below(3) as usize;
            let universes: Vec<u32> = (0..n)
                .map(|_| match rng.below(3) {
                    0 => edges[rng.below(edges.len() as u32) as usize],
                    _ => 1 + rng.below(300),
                })
                .collect();
            // Some variables start from a domain with holes.
            let initial: Vec<Option<Domain>> = universes
                .iter()
                .map(|&u| {
                    rng.chance(40).then(|| {
                        let mut d = Domain::empty(u);
                        let (a, b) = (rng.below(u), rng.below(u));
                        for i in a.min(b)..=a.max(b) {
                            if rng.chance(85) {
                                d.insert(i);
                            }
                        }
                        d.insert(a);
                        d
                    })
                })
                .collect();
            let make = |above| {
                let mut s = Store::with_domains_sparse_above(
                    &universes,
                    |var| initial[var].as_ref(),
                    above,
                );
                s.track_touched();
                s
            };
            let mut stores = [make(u32::MAX), make(0)];
            assert!(stores[1].meta.iter().all(|m| m.words == 0));
            compare(&mut stores, &format!("round {round}: start {universes:?}"));
            let mut marks: Vec<[u64; 2]> = Vec::new();
            for step in 0..120 {
                let context = format!("round {round} step {step} level {}", marks.len());
                let choice = rng.below(10);
                if choice == 0 && marks.len() < 8 {
                    for s in &mut stores {
                        s.set_level(marks.len() as u32 + 1);
                    }
                    marks.push(stores.each_ref().map(Store::mark));
                    continue;
                }
                if choice == 1 && !marks.is_empty() {
                    let mark = marks.pop().unwrap();
                    for (s, mark) in stores.iter_mut().zip(mark) {
                        s.undo_to(mark);
                        s.set_level(marks.len() as u32);
                    }
                    compare(&mut stores, &format!("{context}: undo"));
                    continue;
                }
                let var = rng.below(n as u32) as usize;
                if stores[0].size(var) == 0 {
                    continue;
                }
                // Root changes are never undone: a failure there starts the round over.
                let before = marks.is_empty().then(|| stores.clone());
                let (results, what) = random_change(&mut rng, &mut stores, var);
                let context = format!("{context}: var {var} {what}");
                assert_eq!(results[0], results[1], "{context}");
                if results[0].is_ok() {
                    compare(&mut stores, &context);
                    continue;
                }
                for s in &mut stores {
                    s.clear_events();
                }
                match marks.pop() {
                    Some(mark) => {
                        for (s, mark) in stores.iter_mut().zip(mark) {
                            s.undo_to(mark);
                            s.set_level(marks.len() as u32);
                        }
                    }
                    None => stores = before.unwrap(),
                }
                compare_after(&mut stores, &format!("{context}: undone"), true);
            }
            // Back to the root: as it was after the root's changes.
            while let Some(mark) = marks.pop() {
                for (s, mark) in stores.iter_mut().zip(mark) {
                    s.undo_to(mark);
                    s.set_level(marks.len() as u32);
                }
            }
            compare(&mut stores, &format!("round {round}: end"));
            assert!(stores[1].sparse_log.is_empty() && stores[1].removals.len() == 0);
        }
    }

    /// Domains over five million and over 2^32 - 1 values: a placeholder cell each, no
    /// word stored until a value goes from the middle, exact sizes and ends throughout.
    #[test]
    fn huge_domains_cost_no_words() {
        let big = u32::MAX;
        let mut s = Store::new(&[big, 5_000_000, 10]);
        assert_eq!(s.cells.len(), 3);
        assert!(s.is_sparse(0) && s.is_sparse(1) && !s.is_sparse(2));
        assert_eq!(
            (s.size(0), s.min(0), s.max(0)),
            (big, Some(0), Some(big - 1))
        );
        assert_eq!(s.num_words(0), 1 << 26);
        assert_eq!(s.word(0, (1 << 26) - 1), u64::MAX >> 1);
        assert!(s.contains(0, big - 1) && !s.contains(0, big));
        assert_eq!(s.next_at_or_after(0, big), None);
        assert_eq!(s.prev_at_or_before(0, u32::MAX), Some(big - 1));
        // Changes at the root stay.
        s.remove_range(0, 0, 9).unwrap();
        s.remove(1, 4_999_999).unwrap();
        let root = [(big - 10, 10, big - 1), (4_999_999, 0, 4_999_998)];
        let check = |s: &Store, expect: [(u32, u32, u32); 2]| {
            for (var, (size, low, high)) in expect.into_iter().enumerate() {
                assert_eq!(
                    (s.size(var), s.min(var), s.max(var)),
                    (size, Some(low), Some(high)),
                    "var {var}"
                );
            }
        };
        check(&s, root);
        s.set_level(1);
        let mark = s.mark();
        for var in [0, 1] {
            let universe = s.universe(var);
            // Both ends, far in.
            s.remove_range(var, 0, 1_000_000).unwrap();
            s.remove_range(var, universe - 1_000_000, universe).unwrap();
            assert_eq!(s.holes[var].len(), 0, "no word stored for the ends");
            assert_eq!(
                (s.min(var), s.max(var)),
                (Some(1_000_001), Some(universe - 1_000_001))
            );
            assert_eq!(s.size(var), universe - 2_000_001);
            // Holes in the middle: a word each.
            let middle = universe / 2;
            s.remove(var, middle).unwrap();
            s.remove_range(var, middle + 100, middle + 199).unwrap();
            assert_eq!(s.size(var), universe - 2_000_001 - 101);
            assert!(s.holes[var].len() <= 4, "{}", s.holes[var].len());
            assert!(!s.contains(var, middle) && s.contains(var, middle + 1));
            assert_eq!(s.next_at_or_after(var, middle), Some(middle + 1));
            assert_eq!(s.next_at_or_after(var, middle + 100), Some(middle + 200));
            assert_eq!(s.prev_at_or_before(var, middle + 199), Some(middle + 99));
            assert_eq!(s.prev_at_or_before(var, middle), Some(middle - 1));
            let around: Vec<u32> = s
                .iter(var)
                .skip_while(|&i| i < middle - 2)
                .take(4)
                .collect();
            assert_eq!(around, [middle - 2, middle - 1, middle + 1, middle + 2]);
            // The smallest value up to the largest minus 3, one at a time from the top.
            let before = s.mark();
            s.set_level(2);
            s.remove_range(var, 0, universe - 1_000_005).unwrap();
            assert_eq!(s.size(var), 4);
            assert_eq!(
                s.iter(var).collect::<Vec<_>>(),
                (universe - 1_000_004..=universe - 1_000_001).collect::<Vec<_>>()
            );
            s.assign(var, universe - 1_000_003).unwrap();
            assert!(s.is_fixed(var));
            assert_eq!(s.remove(var, universe - 1_000_003), Err(Fail));
            s.clear_events();
            s.undo_to(before);
            s.set_level(1);
            assert_eq!(s.size(var), universe - 2_000_001 - 101);
            assert_eq!(s.max(var), Some(universe - 1_000_001));
            // Fixed in the middle of the range, then undone.
            let before = s.mark();
            s.assign(var, middle + 1).unwrap();
            assert_eq!(
                (s.size(var), s.min(var), s.max(var)),
                (1, Some(middle + 1), Some(middle + 1))
            );
            assert_eq!(s.iter(var).collect::<Vec<_>>(), [middle + 1]);
            s.undo_to(before);
            assert_eq!(s.size(var), universe - 2_000_001 - 101);
        }
        s.clear_events();
        // Still a placeholder cell each; the side log holds only records of ends and words.
        assert_eq!(s.cells.len(), 3);
        s.undo_to(mark);
        s.set_level(0);
        check(&s, root);
        assert!(s.holes.iter().all(|h| h.is_empty()) && s.sparse_log.is_empty());
        assert_eq!(s.cells.len(), 3);
    }
}
