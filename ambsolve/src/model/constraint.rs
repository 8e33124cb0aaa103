//! Constraints as the model states them, each with a plain check over a full assignment.
//!
//! The check is the meaning of a constraint: the replay engine uses it, tests compare
//! every engine's solutions against it, and the trail engine's propagators must agree.

use std::fmt;
use std::sync::Arc;

use hashbrown::{HashMap, HashSet};
use smallvec::SmallVec;

use crate::model::global::Global;
use crate::model::integer::{Trend, consecutive_start};
use crate::model::term::Cmp;
use crate::propagator::{Propagator, holds};
use crate::var::VarId;

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

#[derive(Clone)]
pub(crate) struct LinearDef {
    /// Terms: variable, coefficient, integer image of each value index.
    pub(crate) terms: Vec<(VarId, i64, Arc<[i64]>)>,
    /// Per term, how its images move along the value indices (inline: a model of a
    /// million small sums allocates no list of trends).
    pub(crate) trends: SmallVec<[Trend; 16]>,
    pub(crate) cmp: Cmp,
    pub(crate) rhs: i64,
}

/// The smallest and largest contribution of `coef × image` over `images`, which move
/// along the indices as `trend` says.
pub(crate) fn term_extremes(coef: i64, images: &[i64], trend: Trend) -> (i128, i128) {
    let at = |x: i64| i128::from(coef) * i128::from(x);
    let (Some(&first), Some(&last)) = (images.first(), images.last()) else {
        return (0, 0);
    };
    let (low, high) = match trend {
        Trend::Rising => (first, last),
        Trend::Falling => (last, first),
        Trend::Mixed => {
            let low = images.iter().copied().min().unwrap_or(0);
            (low, images.iter().copied().max().unwrap_or(0))
        }
    };
    let (a, b) = (at(low), at(high));
    (a.min(b), a.max(b))
}

impl LinearDef {
    /// Term `k`'s smallest and largest contribution over all its values (computed: read
    /// off the ends of its images unless they are not monotone).
    pub(crate) fn extreme(&self, k: usize) -> (i128, i128) {
        let (_, coef, images) = &self.terms[k];
        term_extremes(*coef, images, self.trends[k])
    }

    /// Every term's [`extreme`](LinearDef::extreme).
    pub(crate) fn extremes(&self) -> impl Iterator<Item = (i128, i128)> + '_ {
        (0..self.terms.len()).map(|k| self.extreme(k))
    }

    /// `Σ coefficient × image` when each variable `v` takes value index `values[v]`.
    pub(crate) fn sum(&self, values: &[u32]) -> i128 {
        self.terms
            .iter()
            .map(|(v, coef, images)| {
                i128::from(*coef) * i128::from(images[values[v.index()] as usize])
            })
            .sum()
    }

    /// The least and the greatest sum over the assignments that give the `chosen`
    /// variables their value in `values`.
    pub(crate) fn reach(&self, values: &[u32], chosen: impl Fn(VarId) -> bool) -> (i128, i128) {
        let (mut low, mut high) = (0i128, 0i128);
        for ((v, coef, images), (lo, hi)) in self.terms.iter().zip(self.extremes()) {
            if chosen(*v) {
                let x = i128::from(*coef) * i128::from(images[values[v.index()] as usize]);
                (low, high) = (low + x, high + x);
            } else {
                (low, high) = (low + lo, high + hi);
            }
        }
        (low, high)
    }
}

impl LinearDef {
    /// The value indices of `var` outside which no value can satisfy the constraint,
    /// the `chosen` variables taking their value in `values` and the others any of
    /// theirs (their term's extremes): a half-open range, empty if none can. `None` when
    /// the bounds say nothing, or cannot be read off the indices: `var` in no term or in
    /// several, a coefficient of 0, images that are not monotone, `!=`.
    pub(crate) fn index_range(
        &self,
        var: VarId,
        values: &[u32],
        chosen: impl Fn(VarId) -> bool,
    ) -> Option<std::ops::Range<u32>> {
        let mut mine = self.terms.iter().enumerate().filter(|(_, t)| t.0 == var);
        let (k, (_, coef, images)) = mine.next()?;
        if mine.next().is_some() || *coef == 0 || self.trends[k] == Trend::Mixed {
            return None;
        }
        // What the other terms add, at least and at most.
        let (mut low, mut high) = (0i128, 0i128);
        for (j, ((v, c, images), (lo, hi))) in self.terms.iter().zip(self.extremes()).enumerate() {
            if j == k {
                continue;
            }
            if chosen(*v) {
                let x = i128::from(*c) * i128::from(images[values[v.index()] as usize]);
                (low, high) = (low + x, high + x);
            } else {
                (low, high) = (low + lo, high + hi);
            }
        }
        // Bounds on coef × image, then on the image (none: i128's ends).
        let rhs = i128::from(self.rhs);
        let (least, most) = match self.cmp {
            Cmp::Eq => (rhs - high, rhs - low),
            Cmp::Le => (i128::MIN, rhs - low),
            Cmp::Lt => (i128::MIN, rhs - low - 1),
            Cmp::Ge => (rhs - high, i128::MAX),
            Cmp::Gt => (rhs - high + 1, i128::MAX),
            Cmp::Ne => return None,
        };
        let c = i128::from(*coef);
        let ceil = |a: i128| {
            if a == i128::MIN {
                a
            } else {
                -((-a).div_euclid(c.abs()))
            }
        };
        let floor = |a: i128| {
            if a == i128::MAX {
                a
            } else {
                a.div_euclid(c.abs())
            }
        };
        // c × image in [least, most]: image in [least / c, most / c], flipped if c < 0.
        let (least, most) = if c > 0 {
            (ceil(least), floor(most))
        } else {
            (ceil(most.saturating_neg()), floor(least.saturating_neg()))
        };
        let range = match self.trends[k] {
            Trend::Rising => {
                images.partition_point(|&y| i128::from(y) < least)
                    ..images.partition_point(|&y| i128::from(y) <= most)
            }
            _ => {
                images.partition_point(|&y| i128::from(y) > most)
                    ..images.partition_point(|&y| i128::from(y) >= least)
            }
        };
        Some(range.start as u32..range.end.max(range.start) as u32)
    }
}

#[derive(Clone)]
pub(crate) struct TableDef {
    pub(crate) vars: Vec<VarId>,
    /// Allowed tuples of value indices, flattened, `vars.len()` per tuple.
    pub(crate) tuples: Arc<[u32]>,
    pub(crate) allowed: Arc<HashSet<Box<[u32]>>>,
}

pub(crate) type Check<'a> = Arc<dyn Fn(&[u32]) -> bool + Send + Sync + 'a>;

#[derive(Clone)]
pub(crate) struct PredicateDef<'a> {
    pub(crate) vars: Arc<[VarId]>,
    /// The condition over the value indices of `vars`, in order.
    pub(crate) check: Check<'a>,
}

#[derive(Clone)]
pub(crate) struct CustomDef<'a> {
    pub(crate) vars: Arc<[VarId]>,
    pub(crate) propagator: Arc<dyn Propagator + 'a>,
}

/// A constraint of a model: plain data, cheap to clone (what is large or a closure is
/// shared).
#[derive(Clone)]
pub(crate) enum Constraint<'a> {
    AllDifferent(AllDifferentDef),
    Linear(LinearDef),
    Table(TableDef),
    Predicate(PredicateDef<'a>),
    Custom(CustomDef<'a>),
    /// Logic, arithmetic and the global constraints of `model/global/`.
    Global(Global),
}

impl Constraint<'_> {
    /// The variables the constraint mentions.
    pub(crate) fn vars(&self) -> Vec<VarId> {
        match self {
            Constraint::AllDifferent(c) => c.vars.clone(),
            Constraint::Linear(c) => c.terms.iter().map(|t| t.0).collect(),
            Constraint::Table(c) => c.vars.clone(),
            Constraint::Predicate(c) => c.vars.to_vec(),
            Constraint::Custom(c) => c.vars.to_vec(),
            Constraint::Global(c) => c.meaning().vars().to_vec(),
        }
    }

    /// Whether the constraint holds when each variable `v` takes value index `values[v]`.
    /// `universes` gives each variable's number of values.
    pub(crate) fn check(&self, values: &[u32], universes: &[u32]) -> bool {
        let at = |v: VarId| values[v.index()];
        match self {
            Constraint::AllDifferent(c) => {
                let mut seen = HashSet::with_capacity(c.vars.len());
                c.vars
                    .iter()
                    .enumerate()
                    .all(|(p, &v)| seen.insert(c.key(p, at(v))))
            }
            Constraint::Linear(c) => c.cmp.holds(c.sum(values), i128::from(c.rhs)),
            Constraint::Table(c) => {
                let tuple: Vec<u32> = c.vars.iter().map(|&v| at(v)).collect();
                c.allowed.contains(tuple.as_slice())
            }
            Constraint::Predicate(c) => {
                let tuple: smallvec::SmallVec<[u32; 8]> = c.vars.iter().map(|&v| at(v)).collect();
                (c.check)(&tuple)
            }
            Constraint::Custom(c) => holds(&*c.propagator, &c.vars, values, universes),
            Constraint::Global(c) => c.meaning().holds(values),
        }
    }

    /// A necessary condition while only some variables are chosen: false means no choice
    /// of the others can satisfy the constraint. A linear constraint checks that the
    /// unchosen terms can still reach the right-hand side; others wait for
    /// [`check`](Self::check) (the replay program checks all-different pairs itself).
    pub(crate) fn may_hold(&self, values: &[u32], chosen: impl Fn(VarId) -> bool) -> bool {
        match self {
            Constraint::Linear(c) => {
                let (low, high) = c.reach(values, chosen);
                let rhs = i128::from(c.rhs);
                match c.cmp {
                    Cmp::Eq => low <= rhs && rhs <= high,
                    Cmp::Ne => low != high || low != rhs,
                    Cmp::Lt => low < rhs,
                    Cmp::Le => low <= rhs,
                    Cmp::Gt => high > rhs,
                    Cmp::Ge => high >= rhs,
                }
            }
            Constraint::AllDifferent(_)
            | Constraint::Table(_)
            | Constraint::Predicate(_)
            | Constraint::Custom(_)
            | Constraint::Global(_) => true,
        }
    }

    /// A short description for error messages and debugging.
    pub(crate) fn describe(&self) -> String {
        match self {
            Constraint::AllDifferent(c) => format!("all_different over {} variables", c.vars.len()),
            Constraint::Linear(c) => format!(
                "linear sum of {} terms {:?} {}",
                c.terms.len(),
                c.cmp,
                c.rhs
            ),
            Constraint::Table(c) => format!(
                "table over {} variables with {} tuples",
                c.vars.len(),
                c.tuples.len() / c.vars.len().max(1)
            ),
            Constraint::Predicate(c) => format!("predicate over {} variables", c.vars.len()),
            Constraint::Custom(c) => format!("custom propagator over {} variables", c.vars.len()),
            Constraint::Global(c) => c.meaning().describe(),
        }
    }
}

impl fmt::Debug for Constraint<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}
