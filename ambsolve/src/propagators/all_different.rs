//! All-different, with offsets, over one or several fused key maps.
//!
//! Each *component* is one all-different constraint over the same variables: value index
//! `i` of the variable at position `j` has key `i + shift[j]` (or an explicit key). When a
//! variable is fixed, every other unfixed variable loses the values whose key equals the
//! fixed one's, in every component. n-queens' three constraints (`q[i]`, `q[i] + i`,
//! `q[i] - i`) share their variables and become one propagator with three components,
//! pruning each row once per placement.
//!
//! Components whose shifts are all equal also get the cheap counting rules of bitset
//! domains: fewer values left than unfixed variables fails, and when there are exactly as
//! many, a value that fits only one place is placed there.

use hashbrown::HashMap;
use smallvec::SmallVec;

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::{AllDifferentDef, Keys, TermKeys};
use crate::propagator::BuiltinPropagator;
use crate::store::CHANGED;
use crate::store::{Atoms, Pred, Store};
use crate::var::VarId;

/// A component with explicit keys: per position, its keys and where to find the indices
/// holding a key. Positions sharing a value list share its lookup table, so the component
/// costs one table per list, not one per variable.
struct KeyedComponent {
    keys: TermKeys,
    lookups: Vec<Lookup>,
    /// Per distinct key list, the indices holding each listed key.
    tables: Vec<HashMap<i64, SmallVec<[u32; 2]>>>,
}

/// How a position finds the indices holding a key.
#[derive(Clone, Copy)]
enum Lookup {
    /// Consecutive keys: the index is `key - shift`.
    Shift(i64),
    /// Listed keys: `tables[table]` holds `key - offset`.
    Table { table: u32, offset: i64 },
}

impl KeyedComponent {
    fn new(def: &AllDifferentDef) -> Self {
        let mut tables = Vec::new();
        let mut table_of: HashMap<*const i64, u32> = HashMap::new();
        let lookups = def
            .keys
            .iter()
            .map(|keys| match keys {
                Keys::Shift(shift) => Lookup::Shift(shift),
                Keys::Map(map, offset) => {
                    let table = *table_of.entry(map.as_ptr()).or_insert_with(|| {
                        let mut holders: HashMap<i64, SmallVec<[u32; 2]>> = HashMap::new();
                        for (i, &key) in map.iter().enumerate() {
                            holders.entry(key).or_default().push(i as u32);
                        }
                        tables.push(holders);
                        tables.len() as u32 - 1
                    });
                    Lookup::Table { table, offset }
                }
            })
            .collect();
        KeyedComponent {
            keys: def.keys.clone(),
            lookups,
            tables,
        }
    }

    /// Removes from the variable at position `other` the indices holding `key`.
    #[inline]
    fn remove_key(
        &self,
        store: &mut Store,
        var: usize,
        other: usize,
        key: i64,
    ) -> Result<bool, Fail> {
        match self.lookups[other] {
            // Keys of one constraint are at most KEY_SPAN apart: no overflow.
            Lookup::Shift(shift) => match u32::try_from(key - shift) {
                Ok(index) => store.remove(var, index),
                Err(_) => Ok(false),
            },
            Lookup::Table { table, offset } => {
                let mut changed = false;
                let listed = key
                    .checked_sub(offset)
                    .and_then(|k| self.tables[table as usize].get(&k));
                for &index in listed.into_iter().flatten() {
                    changed |= store.remove(var, index)?;
                }
                Ok(changed)
            }
        }
    }
}

/// The counting rules run only when the unfixed domains span at most this many words:
/// cheap for rows of a sudoku or a board up to 64 wide, skipped on huge boards where one
/// pass would cost more than it saves.
const COUNTING_WORDS: usize = 1024;

/// Components the one-word path handles at once.
const FAST: usize = 4;

/// One-word path: a position's variable, the cell of its domain, and the shifts of up to
/// [`FAST`] components (unused slots are 0; their keys never match).
#[derive(Clone, Copy)]
struct Member {
    var: u32,
    cell: u32,
    shifts: [i64; FAST],
}

impl Member {
    /// The bits of this member's domain that the given keys of a fixed value rule out
    /// (one key per component; keys out of reach set nothing).
    #[inline(always)]
    fn mask(&self, keys: &[i64]) -> u64 {
        let mut mask = 0u64;
        for (key, shift) in keys.iter().zip(&self.shifts) {
            let index = key - shift;
            mask |= u64::from((index as u64) < 64) << (index & 63);
        }
        mask
    }
}

/// Whether no variable stands twice in `vars`.
fn distinct(vars: &[u32]) -> bool {
    let mut seen = vars.to_vec();
    seen.sort_unstable();
    seen.dedup();
    seen.len() == vars.len()
}

/// The keys (value index plus `shift` of its position) that the domains of `vars` span,
/// when these are exactly as many as the variables (a permutation, for distinct
/// variables); empty otherwise.
fn permutation(vars: &[u32], shift: &[i64], store: &Store) -> Vec<i64> {
    let mut keys = Vec::new();
    for (&v, &s) in vars.iter().zip(shift) {
        for w in 0..store.num_words(v as usize) {
            let mut bits = store.word(v as usize, w);
            while bits != 0 {
                keys.push(s + i64::from(w as u32 * 64 + bits.trailing_zeros()));
                bits &= bits - 1;
            }
            if keys.len() > 2 * COUNTING_WORDS * 64 {
                return Vec::new();
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    if keys.len() != vars.len() {
        keys.clear();
    }
    keys
}

pub(super) struct AllDifferent {
    scope: Vec<VarId>,
    vars: Vec<u32>,
    members: Vec<Member>,
    /// Shifts of the consecutive-key components, `shifts[j * k + c]` for position `j`.
    shifts: Vec<i64>,
    /// Number of consecutive-key components.
    k: usize,
    mapped: Vec<KeyedComponent>,
    /// Every variable fits in one word and every component has consecutive keys.
    one_word: bool,
    /// Whether the counting rules run: some consecutive-key component has all its shifts
    /// equal, so keys line up with indices.
    hidden: bool,
    /// No other propagator watches these variables and none repeats: the one-word path
    /// then fixes the singletons it makes itself, without events.
    alone: bool,
    /// Another propagator reads one of these variables: then it is woken on every change
    /// (if it has counting rules), not only told of fixed variables.
    shared: bool,
    /// Positions; the first `count` (a trailed cell) are the unprocessed ones.
    unfixed: Vec<u32>,
    pos: Vec<u32>,
    count: usize,
    once: Vec<u64>,
    twice: Vec<u64>,
    /// The keys of a permutation, in the counting component: when the variables are
    /// distinct and their domains when the propagator was made span exactly as many keys
    /// as there are variables, every one of these keys is taken. Empty otherwise.
    permuted: Vec<i64>,
    /// The consecutive-key component the counting rules read.
    counting: usize,
    /// Positions whose shift in that component differs (fixed when the propagator was
    /// made): the counting rules wait while one of them is unprocessed.
    askew: Vec<u32>,
    /// No variable stands at two positions.
    distinct: bool,
}

impl AllDifferent {
    pub(super) fn new(defs: &[&AllDifferentDef], store: &mut Store) -> Self {
        let scope = defs[0].vars.clone();
        let n = scope.len();
        let consecutive: Vec<&&AllDifferentDef> = defs
            .iter()
            .filter(|d| d.keys.iter().all(|k| matches!(k, Keys::Shift(_))))
            .collect();
        let k = consecutive.len();
        let mut shifts = vec![0; n * k];
        for (c, def) in consecutive.iter().enumerate() {
            for (j, keys) in def.keys.iter().enumerate() {
                shifts[j * k + c] = keys.key(0);
            }
        }
        let mapped = defs
            .iter()
            .filter(|d| !d.keys.iter().all(|k| matches!(k, Keys::Shift(_))))
            .map(|def| KeyedComponent::new(def))
            .collect::<Vec<_>>();
        // A component whose shifts agree over the variables not yet fixed: the counting
        // rules read its keys as indices (the fixed ones, constants in a row, never count).
        let free: Vec<usize> = (0..n)
            .filter(|&j| !store.is_fixed(scope[j].index()))
            .collect();
        let aligned = (0..k).find(|&c| {
            free.windows(2)
                .all(|w| shifts[w[0] * k + c] == shifts[w[1] * k + c])
        });
        let reference = free.first().copied().unwrap_or(0);
        let askew: Vec<u32> = match aligned {
            Some(c) => (0..n)
                .filter(|&j| shifts[j * k + c] != shifts[reference * k + c])
                .map(|j| j as u32)
                .collect(),
            None => Vec::new(),
        };
        let words: usize = scope.iter().map(|v| store.num_words(v.index())).sum();
        let vars: Vec<u32> = scope.iter().map(|v| v.raw()).collect();
        let one_word = mapped.is_empty()
            && k <= FAST
            && vars.iter().all(|&v| store.universe(v as usize) <= 64);
        let members: Vec<Member> = (0..n)
            .map(|j| {
                let mut slots = [0; FAST];
                for c in 0..k.min(FAST) {
                    slots[c] = shifts[j * k + c];
                }
                Member {
                    var: vars[j],
                    cell: store.cell_of(vars[j] as usize) as u32,
                    shifts: slots,
                }
            })
            .collect();
        let widest = vars
            .iter()
            .map(|&v| store.num_words(v as usize))
            .max()
            .unwrap_or(0);
        let hidden = aligned.is_some() && words <= COUNTING_WORDS;
        // The counting rules' tables, for them alone (a domain of millions of values has
        // millions of words, and no counting).
        let counted = if hidden { widest } else { 0 };
        let counting = aligned.unwrap_or(0);
        let distinct = distinct(&vars);
        let permuted = if hidden && distinct {
            let column: Vec<i64> = (0..n).map(|j| shifts[j * k + counting]).collect();
            permutation(&vars, &column, store)
        } else {
            Vec::new()
        };
        AllDifferent {
            scope,
            vars,
            members,
            shifts,
            k,
            mapped,
            one_word,
            hidden,
            alone: false,
            shared: true,
            unfixed: (0..n as u32).collect(),
            pos: (0..n as u32).collect(),
            count: store.alloc_aux(n as u64),
            once: vec![0; counted],
            twice: vec![0; counted],
            permuted,
            counting,
            askew,
            distinct,
        }
    }

    /// [`on_fixed`](Self::on_fixed) for wide domains or listed keys: removes the fixed
    /// value's keys from each other unprocessed member, index by index. Kept out of line,
    /// as [`alone_fixed`](Self::alone_fixed) is: inlined together into `on_fixed`, the
    /// paths perturb each other's code (n-queens counts ran 2% slower).
    #[inline(never)]
    fn wide_fixed(&mut self, store: &mut Store, local: usize, last: usize) -> Result<bool, Fail> {
        let Some(fixed) = store.min(self.vars[local] as usize) else {
            return Err(Fail);
        };
        let value = i64::from(fixed);
        let keys: SmallVec<[i64; 4]> = self
            .mapped
            .iter()
            .map(|m| m.keys.key(local, fixed))
            .collect();
        let mut changed = false;
        let k = self.k;
        let mine = &self.shifts[local * k..local * k + k];
        // Rows in index order, not sparse-set order: wide domains are far apart in memory,
        // and a constant stride lets the prefetcher hide most of the misses.
        for other in 0..self.vars.len() {
            if self.pos[other] as usize >= last {
                continue;
            }
            let var = self.vars[other] as usize;
            let theirs = &self.shifts[other * k..other * k + k];
            // Keys of one constraint are at most KEY_SPAN apart: no overflow.
            for (m, t) in mine.iter().zip(theirs) {
                if let Ok(index) = u32::try_from(value + m - t) {
                    changed |= store.remove(var, index)?;
                }
            }
            for (m, &key) in self.mapped.iter().zip(&keys) {
                changed |= m.remove_key(store, var, other, key)?;
            }
        }
        Ok(changed && self.hidden)
    }

    /// Moves the member at position `p` of the unfixed prefix to position `last`.
    #[inline]
    fn swap_out(&mut self, p: usize, last: usize) {
        let (leaving, moved) = (self.unfixed[p], self.unfixed[last]);
        self.unfixed[p] = moved;
        self.pos[moved as usize] = p as u32;
        self.unfixed[last] = leaving;
        self.pos[leaving as usize] = last as u32;
    }

    /// The keys of a fixed one-word member's value in every slot (unused slots get a key
    /// no index reaches), or a failure if its domain is empty.
    #[inline]
    fn keys_of(&self, store: &Store, local: usize) -> Result<[i64; FAST], Fail> {
        let me = &self.members[local];
        let word = store.word_at(me.cell as usize);
        if word == 0 {
            return Err(Fail);
        }
        let value = i64::from(word.trailing_zeros());
        Ok(std::array::from_fn(|c| {
            if c < self.k {
                value + me.shifts[c]
            } else {
                i64::MIN / 2
            }
        }))
    }

    /// [`on_fixed`](Self::on_fixed) when alone on one-word variables: a local worklist.
    /// Members this pruning fixes are processed here too, their domains written quietly
    /// (trailed, no events: nobody else watches them). A member waits in the unfixed
    /// prefix until its turn, so that pruning by the others still reaches it: two fixed
    /// members that clash empty one of them.
    #[inline(never)]
    fn alone_fixed<const K: usize>(
        &mut self,
        store: &mut Store,
        local: usize,
        count: usize,
    ) -> Result<bool, Fail> {
        let mut work: SmallVec<[u32; 8]> = SmallVec::new();
        work.push(local as u32);
        let mut last = count;
        let mut changed = false;
        while let Some(fixed) = work.pop() {
            let p = self.pos[fixed as usize] as usize;
            if p >= last {
                continue;
            }
            last -= 1;
            self.swap_out(p, last);
            let keys = self.keys_of(store, fixed as usize)?;
            for k in 0..last {
                let other = self.unfixed[k];
                let member = &self.members[other as usize];
                let cell = member.cell as usize;
                let old = store.word_at(cell);
                let new = old & !member.mask(&keys[..K]);
                if new != old {
                    if new == 0 {
                        return Err(Fail);
                    }
                    store.narrow_quiet(cell, new);
                    changed = true;
                    if new & (new - 1) == 0 {
                        work.push(other);
                    }
                }
            }
        }
        store.set_aux(self.count, last as u64);
        Ok(changed && self.hidden)
    }

    /// [`hidden_singles`](Self::hidden_singles) when every domain is one word.
    fn hidden_singles_one_word(&mut self, store: &mut Store, count: usize) -> Result<(), Fail> {
        let (mut once, mut twice) = (0u64, 0u64);
        for &local in &self.unfixed[..count] {
            let bits = store.word_at(self.members[local as usize].cell as usize);
            twice |= once & bits;
            once |= bits;
        }
        let values = once.count_ones() as usize;
        if values < count {
            return Err(Fail);
        }
        let mut singles = if values == count { once & !twice } else { 0 };
        while singles != 0 {
            let bit = singles & singles.wrapping_neg();
            singles ^= bit;
            let holder = self.unfixed[..count]
                .iter()
                .map(|&l| &self.members[l as usize])
                .find(|m| store.word_at(m.cell as usize) & bit != 0);
            // Every value left must be used: one whose only place took another fails.
            let member = holder.ok_or(Fail)?;
            if store.word_at(member.cell as usize) != bit {
                store.assign(member.var as usize, bit.trailing_zeros())?;
            }
        }
        Ok(())
    }

    /// [`on_fixed`](Self::on_fixed) for one-word variables: the keys of the fixed value,
    /// one mask per other unfixed member, one word narrowed each.
    fn one_word_fixed(
        &mut self,
        store: &mut Store,
        local: usize,
        last: usize,
    ) -> Result<bool, Fail> {
        let keys = self.keys_of(store, local)?;
        let members = &self.members;
        let mut changed = false;
        for &other in &self.unfixed[..last] {
            let member = &members[other as usize];
            changed |= store.remove_mask_one(
                member.var as usize,
                member.cell as usize,
                member.mask(&keys),
            )?;
        }
        Ok(changed && self.hidden)
    }

    /// Keys line up with indices (all shifts equal): count the values left.
    fn hidden_singles(&mut self, store: &mut Store) -> Result<(), Fail> {
        let count = store.aux(self.count) as usize;
        if count == 0
            || self
                .askew
                .iter()
                .any(|&j| (self.pos[j as usize] as usize) < count)
        {
            return Ok(());
        }
        if self.one_word {
            return self.hidden_singles_one_word(store, count);
        }
        self.once.fill(0);
        self.twice.fill(0);
        for &local in &self.unfixed[..count] {
            let var = self.vars[local as usize] as usize;
            for w in 0..store.num_words(var) {
                let bits = store.word(var, w);
                self.twice[w] |= self.once[w] & bits;
                self.once[w] |= bits;
            }
        }
        let values: usize = self.once.iter().map(|w| w.count_ones() as usize).sum();
        if values < count {
            return Err(Fail);
        }
        if values > count {
            return Ok(());
        }
        // Every value left must be used: one that fits a single place goes there.
        for w in 0..self.once.len() {
            let mut singles = self.once[w] & !self.twice[w];
            while singles != 0 {
                let index = w as u32 * 64 + singles.trailing_zeros();
                singles &= singles - 1;
                let holder = self.unfixed[..store.aux(self.count) as usize]
                    .iter()
                    .map(|&l| self.vars[l as usize] as usize)
                    .find(|&var| store.contains(var, index));
                // One whose only place took another value fails.
                let var = holder.ok_or(Fail)?;
                if !store.is_fixed(var) {
                    store.assign(var, index)?;
                }
            }
        }
        Ok(())
    }
}

/// Explanations (a search that learns): a value a variable lost is explained by another
/// variable fixed before to a value with the same key in some component; a failure, by a
/// variable all of whose values are so taken, or by two fixed with one key. What these do
/// not cover (the counting rules' placements and failures) falls back to the domains.
impl AllDifferent {
    /// The most values of one variable a failure is explained through, value by value.
    const EXPLAINED_VALUES: u32 = 64;

    /// Whether value index `u` at position `i` and `v` at position `j` share a key.
    fn clash(&self, i: usize, u: u32, j: usize, v: u32) -> bool {
        let k = self.k;
        (0..k)
            .any(|c| i64::from(u) + self.shifts[i * k + c] == i64::from(v) + self.shifts[j * k + c])
            || self
                .mapped
                .iter()
                .any(|m| m.keys.key(i, u) == m.keys.key(j, v))
    }

    /// A position other than `i` (on another variable) fixed before `at` to a value that
    /// takes value `u` from position `i`: its predicate.
    fn taker(&self, atoms: &Atoms, at: u32, i: usize, u: u32) -> Option<Pred> {
        let var = self.vars[i];
        (0..self.vars.len()).find_map(|j| {
            let other = self.vars[j];
            if other == var {
                return None;
            }
            let v = atoms.fixed_before(other as usize, at)?;
            self.clash(i, u, j, v).then(|| Pred::eq(other as usize, v))
        })
    }

    /// Appends why every value of position `i` in `low..=high`, other than the holes
    /// before `at`, is gone: false if one has no taker.
    fn taken(
        &self,
        atoms: &Atoms,
        at: u32,
        i: usize,
        values: impl Iterator<Item = u32>,
        out: &mut Vec<Pred>,
    ) -> bool {
        for u in values {
            match self.taker(atoms, at, i, u) {
                Some(pred) => {
                    if !out.contains(&pred) {
                        out.push(pred);
                    }
                }
                None => return false,
            }
        }
        true
    }

    /// Whether every position but `except` lacked the value of `key` (in the counting
    /// component) before `at`, each position's ends then in `ends`; if so, appends their
    /// `!= value` (a permutation then places it at `except`, or fails when `except` is
    /// `None`), and otherwise leaves `out` as it was. A position whose root domain lacks
    /// the key needs no predicate.
    fn nowhere_else(
        &self,
        atoms: &Atoms,
        at: u32,
        ends: &[(u32, u32)],
        key: i64,
        except: Option<usize>,
        out: &mut Vec<Pred>,
    ) -> bool {
        let from = out.len();
        for (i, &var) in self.vars.iter().enumerate() {
            let var = var as usize;
            let Some(v) = self.index_of(var, i, key, atoms) else {
                continue;
            };
            if Some(i) == except {
                continue;
            }
            if !atoms.absent_within(var, v, at, ends[i]) {
                out.truncate(from);
                return false;
            }
            out.push(Pred::ne(var, v));
        }
        true
    }

    /// Each position's ends before `at`.
    fn ends_before(&self, atoms: &Atoms, at: u32) -> Vec<(u32, u32)> {
        self.vars
            .iter()
            .map(|&var| atoms.ends_before(var as usize, at))
            .collect()
    }

    /// The value index of `key` (in the counting component) at position `i`, of
    /// variable `var`, if its root domain spans it.
    fn index_of(&self, var: usize, i: usize, key: i64, atoms: &Atoms) -> Option<u32> {
        let index = key - self.shifts[i * self.k + self.counting];
        let (low, high) = atoms.root_ends(var);
        (i64::from(low)..=i64::from(high))
            .contains(&index)
            .then_some(index as u32)
    }

    fn explain_failure(&self, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        // A permutation fails when some value fits nowhere: that value's clause.
        if !self.permuted.is_empty() {
            let ends = self.ends_before(atoms, at);
            if self
                .permuted
                .iter()
                .any(|&v| self.nowhere_else(atoms, at, &ends, v, None, out))
            {
                return true;
            }
        }
        let from = out.len();
        for i in 0..self.vars.len() {
            let var = self.vars[i] as usize;
            let (low, high) = atoms.ends_before(var, at);
            if high < low || high - low >= Self::EXPLAINED_VALUES {
                continue;
            }
            // Variable `i`'s domain, each of its values taken.
            atoms.domain_at(var, at, out);
            let values = (low..=high).filter(|&u| !atoms.absent_before(var, u, at));
            if self.taken(atoms, at, i, values, out) {
                return true;
            }
            out.truncate(from);
        }
        false
    }

    fn explain_pred(&self, atoms: &Atoms, at: u32, pred: Pred, out: &mut Vec<Pred>) -> bool {
        let var = pred.var;
        let Some(i) = self.vars.iter().position(|&v| v == var) else {
            return false;
        };
        // The values this atom took, and the end they were taken from.
        let from = out.len();
        let by_takers = match atoms.removed_by(at, pred, Self::EXPLAINED_VALUES, out) {
            Some(values) => self.taken(atoms, at, i, values, out),
            None => false,
        };
        if by_takers {
            return true;
        }
        out.truncate(from);
        // A permutation places a value that no other position had left (the counting
        // rule): the others' `!= v` imply `var == v`, and so the atom.
        if self.permuted.is_empty() {
            return false;
        }
        let ends = self.ends_before(atoms, at);
        let (low, high) = ends[i];
        self.permuted.iter().any(|&key| {
            self.index_of(var as usize, i, key, atoms)
                .is_some_and(|v| (low..=high).contains(&v) && pred.accepts(v))
                && self.nowhere_else(atoms, at, &ends, key, Some(i), out)
        })
    }
}

/// One all-different alone (the trail engine fuses those over the same variables into one
/// propagator: see `rewrite`).
impl<'a> Kind<'a> for AllDifferentDef {
    fn propagator(&self, store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(AllDifferent::new(&[self], store))
    }
}

impl BuiltinPropagator for AllDifferent {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// Fixed variables are handled on the spot ([`on_fixed`](Self::on_fixed)); other
    /// changes matter only to the counting rules, and only when another propagator may
    /// make them (alone, every change is a fixed variable, its own or a decision's).
    fn wakes(&self, _local: usize) -> u8 {
        if self.hidden && self.shared {
            CHANGED
        } else {
            0
        }
    }

    fn acts_on_fixed(&self) -> bool {
        true
    }

    fn explains(&self) -> bool {
        true
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        match pred {
            Some(pred) => self.explain_pred(atoms, at, pred, out),
            None => self.explain_failure(atoms, at, out),
        }
    }

    fn set_shared(&mut self, shared: bool) {
        self.shared = shared;
        self.alone = !shared && self.one_word && self.distinct;
    }

    /// The variable at position `local` was fixed: remove its keys from the others.
    /// Returns whether a full pass (the counting rules) is worth scheduling.
    #[inline]
    fn on_fixed(&mut self, store: &mut Store, local: usize) -> Result<bool, Fail> {
        let count = store.aux(self.count) as usize;
        let p = self.pos[local] as usize;
        if p >= count {
            return Ok(false);
        }
        // Move `local` out of the unprocessed prefix.
        if self.alone {
            return match self.k {
                1 => self.alone_fixed::<1>(store, local, count),
                2 => self.alone_fixed::<2>(store, local, count),
                3 => self.alone_fixed::<3>(store, local, count),
                _ => self.alone_fixed::<FAST>(store, local, count),
            };
        }
        let last = count - 1;
        self.swap_out(p, last);
        store.set_aux(self.count, last as u64);
        if self.one_word {
            return self.one_word_fixed(store, local, last);
        }
        self.wide_fixed(store, local, last)
    }

    /// The counting rules, after changes (fixed variables arrive as events).
    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        if self.hidden {
            self.hidden_singles(store)?;
        }
        Ok(())
    }

    /// From scratch, at the root: process the variables fixed before any event, then the
    /// counting rules.
    fn initial(&mut self, store: &mut Store) -> Result<(), Fail> {
        // Passes until none processes a variable: one fixed by this pruning may stand
        // before the scan.
        let mut again = true;
        while again {
            again = false;
            let mut k = 0;
            while k < store.aux(self.count) as usize {
                let local = self.unfixed[k] as usize;
                if store.is_fixed(self.vars[local] as usize) {
                    // Moves `local` behind the prefix; look at position `k` again.
                    self.on_fixed(store, local)?;
                    again = true;
                } else {
                    k += 1;
                }
            }
        }
        if self.hidden {
            self.hidden_singles(store)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Cmp, Model};
    use crate::propagators::checker::tests::fuzz;
    use crate::var::Var;

    /// A small Latin square with some cells given as shared constants (as FlatZinc hands
    /// them over) and some values struck out: rows and columns are permutations whose
    /// positions have different shifts. Under `debug-checks`, the learning search checks
    /// the placements and failures these explain by a value's clause.
    #[test]
    fn latin_squares_with_given_cells_agree_with_their_meaning() {
        fuzz(300, |rng| {
            let mut m = Model::new();
            let n = 3 + rng.below(2) as usize;
            let constants: Vec<Var<i64>> = (0..n as i64).map(|c| m.var([c])).collect();
            let mut cells: Vec<Vec<Var<i64>>> = Vec::new();
            for i in 0..n {
                let row = (0..n)
                    .map(|j| {
                        // A given cell of a cyclic square, or an open one.
                        if rng.below(4) == 0 {
                            return constants[(i + j) % n].clone();
                        }
                        let var = m.var(0..n as i64);
                        if rng.below(3) == 0 {
                            let gone = rng.below(n as u64) as i64;
                            m.restrict(&var, move |&v| v != gone);
                        }
                        var
                    })
                    .collect();
                cells.push(row);
            }
            for i in 0..n {
                m.all_different_offset(cells[i].iter().map(|v| (v, 0)));
                m.all_different_offset(cells.iter().map(|row| (&row[i], 0)));
            }
            // A diagonal sum: conflicts below the root.
            let diagonal: Vec<(i64, &Var<i64>)> = (0..n)
                .map(|i| (if i % 2 == 0 { 1 } else { 2 }, &cells[i][i]))
                .collect();
            m.linear(diagonal, Cmp::Le, n as i64);
            m
        });
    }

    /// Permutations and near-permutations (one value more) under a sum of mixed signs.
    #[test]
    fn permutations_under_a_sum_agree_with_their_meaning() {
        fuzz(400, |rng| {
            let mut m = Model::new();
            let n = 2 + rng.below(3) as usize;
            let spare = rng.below(2) as i64;
            let vars: Vec<Var<i64>> = (0..n)
                .map(|_| {
                    let var = m.var(0..n as i64 + spare);
                    if rng.below(3) == 0 {
                        let gone = rng.below(n as u64) as i64;
                        m.restrict(&var, move |&v| v != gone);
                    }
                    var
                })
                .collect();
            let terms: Vec<(i64, &Var<i64>)> = vars
                .iter()
                .enumerate()
                .map(|(k, v)| (if k % 3 == 1 { -1 } else { 1 + (k % 2) as i64 }, v))
                .collect();
            m.linear(terms, Cmp::Le, (n * n / 3) as i64);
            m.all_different_offset(vars.iter().map(|v| (v, 0)));
            m
        });
    }
}
