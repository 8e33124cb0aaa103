//! All-different: the keys that must differ (over any values, or integers with offsets
//! such as `q[i] + i`), its data and its meaning.
//!
//! Its `Model` methods: all-different constraints: over any values, and over integers with
//! offsets (`q[i] + i`).

use std::borrow::Cow;
use std::hash::Hash;
use std::sync::Arc;

use hashbrown::{HashMap, HashSet};

use crate::model::Model;
use crate::model::constraint::{Constraint, Meaning};
use crate::model::integer::{Images, Integer, consecutive_start, images_of};
use crate::var::{Var, VarId};

/// The keys that must differ, per term of an all-different: `index + shift` when the
/// images are consecutive, else `map[index] + offset` (terms sharing a value list share its
/// map).
///
/// Every key of a constraint fits in an `i64`, and its keys span at most [`KEY_SPAN`]: a
/// propagator may subtract any two keys of one constraint and add a value index without
/// overflow. [`Keys::fit`] makes keys so, renumbering them when offsets push them apart.
#[derive(Clone, Debug)]
pub(crate) enum Keys {
    Shift(i64),
    Map(Arc<[i64]>, i64),
}

/// The widest span of the keys of one constraint.
pub(crate) const KEY_SPAN: i128 = 1 << 62;

impl Keys {
    /// Keys from the images of a value list, in the cheapest form.
    pub(crate) fn from_images(images: Vec<i64>) -> Keys {
        match consecutive_start(&images) {
            Some(first) => Keys::Shift(first),
            None if images.is_empty() => Keys::Shift(0),
            None => Keys::Map(images.into(), 0),
        }
    }

    /// Keys from images: a range's are its values shifted, computed (no list).
    pub(crate) fn of(images: &Images) -> Keys {
        match images {
            Images::Range { first, .. } => Keys::Shift(*first),
            Images::List(list) => Keys::from_images(list.to_vec()),
        }
    }

    /// The keys of the terms of one constraint, given as runs of terms (each run's
    /// `base` keys plus its offsets over `universe` value indices), exactly.
    ///
    /// Only which keys are equal matters within one constraint, so when the exact keys do
    /// not fit in an `i64` or span more than [`KEY_SPAN`], they are renumbered: the keys
    /// are cut into runs that overlap no other run, and the runs are moved next to each
    /// other in order, so equal keys stay equal, different keys stay different, and a
    /// consecutive term stays consecutive.
    ///
    /// # Errors
    /// A message if even renumbered the keys span more than [`KEY_SPAN`] (more than 2^62
    /// values in all).
    pub(crate) fn fit(runs: &[KeyRun]) -> Result<TermKeys, String> {
        // Each map's smallest and largest key, computed once per shared list.
        let mut spans: HashMap<*const i64, (i64, i64)> = HashMap::new();
        let mut lowest = i128::MAX;
        let mut highest = i128::MIN;
        for run in runs {
            let (low, high) = match &run.base {
                _ if run.universe == 0 || run.len == 0 => continue,
                Keys::Shift(shift) => (*shift, *shift),
                Keys::Map(map, _) => *spans.entry(map.as_ptr()).or_insert_with(|| {
                    let low = map.iter().copied().min().unwrap_or(0);
                    (low, map.iter().copied().max().unwrap_or(0))
                }),
            };
            let ends = [run.offset_at(0), run.offset_at(run.len - 1)];
            let moved = run.base.moved();
            let last = match run.base {
                Keys::Shift(_) => i128::from(run.universe) - 1,
                Keys::Map(..) => 0,
            };
            lowest = lowest.min(i128::from(low) + moved + ends[0].min(ends[1]));
            highest = highest.max(i128::from(high) + moved + last + ends[0].max(ends[1]));
        }
        let fits = |k: i128| i64::MIN as i128 <= k && k <= i64::MAX as i128;
        if lowest > highest || (fits(lowest) && fits(highest) && highest - lowest <= KEY_SPAN) {
            return Ok(match runs {
                [] => TermKeys::Listed(Vec::new()),
                [run] => TermKeys::Progression {
                    base: run.base.translated(run.offset, run.universe),
                    step: if run.universe == 0 { 0 } else { run.step },
                    len: run.len,
                },
                _ => TermKeys::Listed(
                    KeyRun::terms(runs)
                        .map(|(base, offset, universe)| base.translated(offset, universe))
                        .collect(),
                ),
            });
        }
        let terms: Vec<(Keys, i64, u32)> = KeyRun::terms(runs)
            .map(|(base, offset, universe)| (base.clone(), offset, universe))
            .collect();
        Self::renumbered(&terms).map(TermKeys::Listed)
    }

    /// The offset a mapped term's keys already carry over its map (0 for a consecutive
    /// term, whose shift is its first key).
    fn moved(&self) -> i128 {
        match self {
            Keys::Shift(_) => 0,
            Keys::Map(_, offset) => i128::from(*offset),
        }
    }

    /// These keys plus `offset`, when every key fits (see [`fit`](Self::fit)).
    fn translated(&self, offset: i64, universe: u32) -> Keys {
        match self {
            _ if universe == 0 => Keys::Shift(0),
            Keys::Shift(shift) => Keys::Shift(shift + offset),
            Keys::Map(map, moved) => match moved.checked_add(offset) {
                Some(moved) => Keys::Map(Arc::clone(map), moved),
                // The keys fit but the offset from this list does not: list the keys.
                None => Keys::Map(
                    map.iter()
                        .map(|&k| narrow(i128::from(k) + i128::from(*moved) + i128::from(offset)))
                        .collect(),
                    0,
                ),
            },
        }
    }

    /// [`fit`](Self::fit) when the keys do not fit as they are.
    fn renumbered(terms: &[(Keys, i64, u32)]) -> Result<Vec<Keys>, String> {
        let too_wide = || {
            format!(
                "all_different over {} variables: its keys span more than 2^62 values",
                terms.len()
            )
        };
        // Every key as a run `[first, last]`: one per consecutive term, one per mapped key.
        let mut runs: Vec<(i128, i128)> = Vec::new();
        for (base, offset, universe) in terms {
            let offset = i128::from(*offset);
            match base {
                _ if *universe == 0 => {}
                Keys::Shift(shift) => {
                    let first = i128::from(*shift) + offset;
                    runs.push((first, first + i128::from(*universe) - 1));
                }
                Keys::Map(map, moved) => runs.extend(map.iter().map(|&k| {
                    let key = i128::from(k) + i128::from(*moved) + offset;
                    (key, key)
                })),
            }
        }
        runs.sort_unstable();
        // Merged runs `(first, last, new first)`, in order, packed from 0.
        let mut merged: Vec<(i128, i128, i128)> = Vec::new();
        for (first, last) in runs {
            match merged.last_mut() {
                Some(run) if first <= run.1 => run.1 = run.1.max(last),
                Some(&mut (from, to, at)) => merged.push((first, last, at + (to - from) + 1)),
                None => merged.push((first, last, 0)),
            }
        }
        if merged
            .last()
            .is_some_and(|&(from, to, at)| at + (to - from) > KEY_SPAN)
        {
            return Err(too_wide());
        }
        let renumber = |key: i128| -> i64 {
            let run = merged.partition_point(|&(first, _, _)| first <= key) - 1;
            let (first, _, at) = merged[run];
            narrow(key - first + at)
        };
        Ok(terms
            .iter()
            .map(|(base, offset, universe)| {
                let offset = i128::from(*offset);
                match base {
                    _ if *universe == 0 => Keys::Shift(0),
                    Keys::Shift(shift) => Keys::Shift(renumber(i128::from(*shift) + offset)),
                    Keys::Map(map, moved) => Keys::Map(
                        map.iter()
                            .map(|&k| renumber(i128::from(k) + i128::from(*moved) + offset))
                            .collect(),
                        0,
                    ),
                }
            })
            .collect())
    }

    #[inline]
    pub(crate) fn key(&self, index: u32) -> i64 {
        match self {
            Keys::Shift(shift) => i64::from(index) + shift,
            Keys::Map(keys, offset) => keys[index as usize] + offset,
        }
    }
}

/// Terms of one all-different that share base keys and a number of values, with
/// offsets `offset, offset + step, offset + 2 step, ..` (`len` terms): n-queens'
/// `q[i] + i` is one run.
#[derive(Clone, Debug)]
pub(crate) struct KeyRun {
    pub(crate) base: Keys,
    pub(crate) offset: i64,
    pub(crate) step: i64,
    pub(crate) len: usize,
    pub(crate) universe: u32,
}

impl KeyRun {
    /// A run of one term.
    pub(crate) fn new(base: Keys, offset: i64, universe: u32) -> Self {
        KeyRun {
            base,
            offset,
            step: 0,
            len: 1,
            universe,
        }
    }

    /// Adds the term `base + offset` over `universe` values if it continues the run.
    pub(crate) fn extend(&mut self, base: &Keys, offset: i64, universe: u32) -> bool {
        let same = universe == self.universe
            && match (&self.base, base) {
                (Keys::Shift(a), Keys::Shift(b)) => a == b,
                (Keys::Map(a, x), Keys::Map(b, y)) => Arc::ptr_eq(a, b) && x == y,
                _ => false,
            };
        if !same {
            return false;
        }
        if self.len == 1 {
            let Some(step) = offset.checked_sub(self.offset) else {
                return false;
            };
            self.step = step;
        } else if self.offset_at(self.len) != i128::from(offset) {
            return false;
        }
        self.len += 1;
        true
    }

    /// Every term of `runs`, in order: its base keys, offset and number of values.
    fn terms(runs: &[KeyRun]) -> impl Iterator<Item = (&Keys, i64, u32)> {
        runs.iter().flat_map(|run| {
            (0..run.len).map(move |k| (&run.base, narrow(run.offset_at(k)), run.universe))
        })
    }

    /// The offset of the run's `k`-th term.
    fn offset_at(&self, k: usize) -> i128 {
        i128::from(self.offset) + i128::from(self.step) * k as i128
    }
}

/// The keys of every term of one all-different.
#[derive(Clone, Debug)]
pub(crate) enum TermKeys {
    /// Term `p` has the keys of `base` plus `step × p` (every such key fits in an `i64`):
    /// one list of values with offsets in arithmetic progression, as n-queens' diagonals.
    Progression { base: Keys, step: i64, len: usize },
    /// Each term its own keys.
    Listed(Vec<Keys>),
}

impl TermKeys {
    /// The same keys for `len` terms.
    pub(crate) fn same(keys: Keys, len: usize) -> Self {
        TermKeys::Progression {
            base: keys,
            step: 0,
            len,
        }
    }

    /// The number of terms.
    pub(crate) fn len(&self) -> usize {
        match self {
            TermKeys::Progression { len, .. } => *len,
            TermKeys::Listed(keys) => keys.len(),
        }
    }

    /// The key of value index `index` of the term at `position`.
    #[inline]
    pub(crate) fn key(&self, position: usize, index: u32) -> i64 {
        match self {
            TermKeys::Progression { base, step, .. } => base.key(index) + step * position as i64,
            TermKeys::Listed(keys) => keys[position].key(index),
        }
    }

    /// The keys of the term at `position`: base keys, and what is added to them.
    #[inline]
    pub(crate) fn term(&self, position: usize) -> (&Keys, i64) {
        match self {
            TermKeys::Progression { base, step, .. } => (base, step * position as i64),
            TermKeys::Listed(keys) => (&keys[position], 0),
        }
    }

    /// The keys of the term at `position`.
    pub(crate) fn get(&self, position: usize) -> Keys {
        let (keys, extra) = self.term(position);
        match keys {
            _ if extra == 0 => keys.clone(),
            Keys::Shift(shift) => Keys::Shift(shift + extra),
            Keys::Map(map, offset) => Keys::Map(Arc::clone(map), offset + extra),
        }
    }

    /// The keys of every term, in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = Keys> + '_ {
        (0..self.len()).map(|p| self.get(p))
    }
}

/// A key known to fit in an `i64`.
fn narrow(key: i128) -> i64 {
    i64::try_from(key).expect("keys are made to fit in an i64")
}

#[derive(Clone)]
pub(crate) struct AllDifferentDef {
    pub(crate) vars: Vec<VarId>,
    pub(crate) keys: TermKeys,
}

impl AllDifferentDef {
    /// The key of value index `index` of the variable at `position`.
    #[inline]
    pub(crate) fn key(&self, position: usize, index: u32) -> i64 {
        self.keys.key(position, index)
    }

    /// The keys of the variable at `position`: base keys, and what is added to them.
    #[inline]
    pub(crate) fn term(&self, position: usize) -> (&Keys, i64) {
        self.keys.term(position)
    }
}

impl Meaning for AllDifferentDef {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let mut seen = HashSet::with_capacity(self.vars.len());
        self.vars
            .iter()
            .enumerate()
            .all(|(p, &v)| seen.insert(self.key(p, values[v.index()])))
    }

    fn describe(&self) -> String {
        format!("all_different over {} variables", self.vars.len())
    }
}

impl<'a> Model<'a> {
    /// The values of `vars` are pairwise different. Takes anything iterating over
    /// variables: `&q`, `&[a, b, c]`, `q.iter().step_by(2)`.
    pub fn all_different<'v, T: Eq + Hash + 'v>(
        &mut self,
        vars: impl IntoIterator<Item = &'v Var<T>>,
    ) {
        let vars: Vec<&Var<T>> = vars.into_iter().collect();
        if !self.owns(vars.iter().copied()) {
            return;
        }
        let ids: Vec<VarId> = vars.iter().map(|v| v.id).collect();
        // The common case: every variable shares one value list. Its keys are the position
        // of each value's first occurrence (found without hashing for short lists).
        if let Some(first) = vars.first() {
            if vars.iter().all(|v| v.values.same(&first.values)) {
                // A range's values are distinct: its keys are its indices.
                let keys = if first.values.is_range() {
                    Keys::Shift(0)
                } else {
                    Keys::from_images(first_positions(&first.values))
                };
                return self.all_different_keys(ids, TermKeys::same(keys, vars.len()));
            }
        }
        let mut interned: HashMap<&T, i64> = HashMap::new();
        // Variables sharing one value list share its keys: compute them once per list.
        let mut per_list: HashMap<usize, Keys> = HashMap::new();
        let mut runs: Vec<KeyRun> = Vec::new();
        for var in vars {
            let list_keys = per_list.entry(var.values.address()).or_insert_with(|| {
                let images: Vec<i64> = var
                    .values
                    .iter()
                    .map(|value| {
                        let next = interned.len() as i64;
                        *interned.entry(value).or_insert(next)
                    })
                    .collect();
                Keys::from_images(images)
            });
            let universe = u32::try_from(var.values.len()).unwrap_or(u32::MAX);
            if !runs
                .last_mut()
                .is_some_and(|run| run.extend(list_keys, 0, universe))
            {
                runs.push(KeyRun::new(list_keys.clone(), 0, universe));
            }
        }
        match Keys::fit(&runs) {
            Ok(keys) => self.all_different_keys(ids, keys),
            Err(message) => self.fail(message),
        }
    }

    /// The values `x_i + offset_i` are pairwise different: `all_different(q[i] + i)` is
    /// `all_different_offset(q.iter().zip(0..))`.
    pub fn all_different_offset<'v, T: Integer + 'v>(
        &mut self,
        terms: impl IntoIterator<Item = (&'v Var<T>, i64)>,
    ) {
        let mut ids = Vec::new();
        // Terms as runs of one value list with offsets in arithmetic progression (one run
        // for `q[i] + i`), so that a million terms cost no more than one.
        let mut runs: Vec<KeyRun> = Vec::new();
        // Variables sharing one value list share its images: compute them once per list.
        let mut per_list: HashMap<usize, Keys> = HashMap::new();
        for (var, offset) in terms {
            if !self.owns([var]) {
                return;
            }
            let base = match per_list.get(&var.values.address()) {
                Some(base) => base,
                None => match images_of(&var.values) {
                    Ok(images) => per_list
                        .entry(var.values.address())
                        .or_insert(Keys::of(&images)),
                    Err(at) => return self.out_of_range(var.id, at),
                },
            };
            let universe = u32::try_from(var.values.len()).unwrap_or(u32::MAX);
            if !runs
                .last_mut()
                .is_some_and(|run| run.extend(base, offset, universe))
            {
                runs.push(KeyRun::new(base.clone(), offset, universe));
            }
            ids.push(var.id);
        }
        // Offsets near the ends of i64 push keys out of it: `fit` renumbers them exactly.
        match Keys::fit(&runs) {
            Ok(keys) => self.all_different_keys(ids, keys),
            Err(message) => self.fail(message),
        }
    }

    fn all_different_keys(&mut self, vars: Vec<VarId>, keys: TermKeys) {
        if self.known(&vars) {
            self.constraints
                .push(Constraint::AllDifferent(AllDifferentDef { vars, keys }));
        }
    }
}

/// For each value of `list`, the position of its first occurrence: `0, 1, 2, ..` when
/// the values are distinct (found without hashing for short lists, and without a map
/// when they are all distinct).
fn first_positions<T: Eq + Hash>(list: &[T]) -> Vec<i64> {
    if list.len() <= 32 {
        return (0..list.len())
            .map(|i| list.iter().position(|v| *v == list[i]).unwrap_or(i) as i64)
            .collect();
    }
    let mut seen: HashSet<&T> = HashSet::with_capacity(list.len());
    if list.iter().all(|v| seen.insert(v)) {
        return (0..list.len() as i64).collect();
    }
    drop(seen);
    let mut first: HashMap<&T, i64> = HashMap::with_capacity(list.len());
    list.iter()
        .enumerate()
        .map(|(i, v)| *first.entry(v).or_insert(i as i64))
        .collect()
}
