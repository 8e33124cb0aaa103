//! The predicate trail, kept only when the search learns: every change to a domain as the
//! atomic predicates it made true (`x >= v`, `x <= v` over value indices, and `x != v` for
//! a value that went strictly between the ends), each with its level and its cause (a
//! decision, a propagator's run, a nogood). Conflict analysis (`crate::learn`) reads it to
//! find when a predicate became true and why.
//!
//! A predicate is over value *indices*, the store's own currency: for an integer variable
//! whose images rise with their indices (a range, a sorted list) it is the same as over the
//! values.
//!
//! The domain of a variable at any position of the trail is its domain when recording
//! began (the root, propagated), less the atoms on it before that position: its last lower
//! and upper bound there, less its holes there. That is what lets any propagator explain
//! itself soundly without code of its own ([`Atoms::domain_at`]): what it pruned follows
//! from its constraint and the domains of its scope when its run began.

use hashbrown::HashMap;

use super::Store;
use crate::choice::Fail;

/// How an atomic predicate compares a variable's value index with its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Rel {
    Ge,
    Le,
    Eq,
    Ne,
}

/// An atomic predicate: `var rel value`, over value indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Pred {
    pub(crate) var: u32,
    pub(crate) rel: Rel,
    pub(crate) value: u32,
}

impl Pred {
    /// Whether it holds where each variable takes the value index `values` gives it.
    pub(crate) fn holds_at(self, values: &[u32]) -> bool {
        self.accepts(values[self.var as usize])
    }

    pub(crate) fn ge(var: usize, value: u32) -> Pred {
        Pred {
            var: var as u32,
            rel: Rel::Ge,
            value,
        }
    }

    pub(crate) fn le(var: usize, value: u32) -> Pred {
        Pred {
            var: var as u32,
            rel: Rel::Le,
            value,
        }
    }

    pub(crate) fn eq(var: usize, value: u32) -> Pred {
        Pred {
            var: var as u32,
            rel: Rel::Eq,
            value,
        }
    }

    pub(crate) fn ne(var: usize, value: u32) -> Pred {
        Pred {
            var: var as u32,
            rel: Rel::Ne,
            value,
        }
    }

    /// Its negation, or `None` where it is true of every index (`x >= 0`, `x <= MAX`).
    pub(crate) fn negated(self) -> Option<Pred> {
        let var = self.var as usize;
        match self.rel {
            Rel::Ge => self.value.checked_sub(1).map(|v| Pred::le(var, v)),
            Rel::Le => self.value.checked_add(1).map(|v| Pred::ge(var, v)),
            Rel::Eq => Some(Pred::ne(var, self.value)),
            Rel::Ne => Some(Pred::eq(var, self.value)),
        }
    }

    /// Whether an index satisfies it.
    pub(crate) fn accepts(self, index: u32) -> bool {
        match self.rel {
            Rel::Ge => index >= self.value,
            Rel::Le => index <= self.value,
            Rel::Eq => index == self.value,
            Rel::Ne => index != self.value,
        }
    }
}

/// Why a change was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Cause {
    /// A decision of the search (the level's first atoms).
    Decision,
    /// A run of built-in propagator `prop` that began when the trail held `start` atoms.
    Prop { prop: u32, start: u32 },
    /// Nogood `id` of the learner's store, all of whose other predicates held.
    Nogood(u32),
}

/// One change: the predicate it made true (`Ge`, `Le` or `Ne`), the bound it replaced (for
/// `Ge` and `Le`) and its cause. Its level follows from its position
/// ([`Atoms::level_of`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Atom {
    pub(crate) pred: Pred,
    pub(crate) prev: u32,
    pub(crate) cause: Cause,
}

/// The predicate trail (see the module's documentation).
#[derive(Clone, Debug)]
pub(crate) struct Atoms {
    list: Vec<Atom>,
    /// Where each level above the root begins: `starts[l - 1]` is the position of the
    /// first atom of level `l` or above (levels only rise along the trail): an atom's
    /// level, found among a few hot words.
    starts: Vec<u32>,
    /// Per variable, its ends as last recorded, and when recording began.
    low: Vec<u32>,
    high: Vec<u32>,
    root_low: Vec<u32>,
    root_high: Vec<u32>,
    /// Per variable, the positions of its `Ge` and `Le` atoms, in order, each with the
    /// end it set (so that a search among them reads no atom), and of its `Ne` atoms.
    lows: Vec<Vec<(u32, u32)>>,
    highs: Vec<Vec<(u32, u32)>>,
    holes: Vec<Vec<u32>>,
    /// Where each value went as a hole (its `Ne` atom).
    hole_at: HashMap<(u32, u32), u32>,
    /// The values strictly between a variable's ends that it lacked when recording began
    /// (variables of at most 4,096 values).
    root_holes: Vec<Vec<u32>>,
    /// The cause of the changes being made now.
    pub(crate) cause: Cause,
    level: u32,
    /// How many times atoms were undone: what is read of the trail before a position
    /// stays true while this stays the same.
    undos: u64,
    /// Under `debug-checks`, the domains when recording began, of the variables of at most
    /// 4,096 values: what explanations are checked against.
    #[cfg(feature = "debug-checks")]
    root: Vec<Option<crate::domain::Domain>>,
}

impl Atoms {
    /// An empty trail over the domains of `store` as they are now.
    fn new(store: &Store) -> Self {
        let n = store.num_vars();
        let (low, high): (Vec<u32>, Vec<u32>) = (0..n)
            .map(|v| (store.min(v).unwrap_or(0), store.max(v).unwrap_or(0)))
            .unzip();
        Atoms {
            list: Vec::new(),
            starts: Vec::new(),
            root_low: low.clone(),
            root_high: high.clone(),
            low,
            high,
            lows: vec![Vec::new(); n],
            highs: vec![Vec::new(); n],
            holes: vec![Vec::new(); n],
            hole_at: HashMap::new(),
            root_holes: (0..n)
                .map(|v| {
                    let (low, high) = (store.min(v).unwrap_or(0), store.max(v).unwrap_or(0));
                    if store.universe(v) > 4_096 || store.size(v) == high.saturating_sub(low) + 1 {
                        return Vec::new();
                    }
                    (low..high).filter(|&u| !store.contains(v, u)).collect()
                })
                .collect(),
            cause: Cause::Decision,
            level: 0,
            undos: 0,
            #[cfg(feature = "debug-checks")]
            root: (0..n)
                .map(|v| (store.universe(v) <= 4_096).then(|| store.domain(v)))
                .collect(),
        }
    }

    /// How many times atoms were undone (see [`undo_to`](Self::undo_to)): a reading of
    /// the trail before a position holds while this and the trail up to it stay.
    pub(crate) fn undos(&self) -> u64 {
        self.undos
    }

    /// The number of variables.
    #[cfg(feature = "debug-checks")]
    pub(crate) fn num_vars(&self) -> usize {
        self.low.len()
    }

    /// Under `debug-checks`, the domain of `var` when recording began, if kept.
    #[cfg(feature = "debug-checks")]
    pub(crate) fn root(&self, var: usize) -> Option<&crate::domain::Domain> {
        self.root.get(var)?.as_ref()
    }

    /// How many atoms the trail holds: a position to undo to.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    pub(crate) fn at(&self, position: u32) -> &Atom {
        &self.list[position as usize]
    }

    /// The atoms from `from` on.
    pub(crate) fn since(&self, from: usize) -> &[Atom] {
        &self.list[from..]
    }

    fn push(&mut self, pred: Pred, prev: u32) -> u32 {
        let position = self.list.len() as u32;
        // The last atom's level is the number of levels begun.
        debug_assert!(
            self.starts.len() <= self.level as usize,
            "levels only rise along the trail"
        );
        while self.starts.len() < self.level as usize {
            self.starts.push(position);
        }
        self.list.push(Atom {
            pred,
            prev,
            cause: self.cause,
        });
        position
    }

    /// Records the ends of `var` after a change.
    fn bounds(&mut self, var: usize, low: u32, high: u32) {
        if low > self.low[var] {
            let position = self.push(Pred::ge(var, low), self.low[var]);
            self.lows[var].push((position, low));
            self.low[var] = low;
        }
        if high < self.high[var] {
            let position = self.push(Pred::le(var, high), self.high[var]);
            self.highs[var].push((position, high));
            self.high[var] = high;
        }
    }

    /// Records that `value` went from `var` strictly between its ends.
    fn hole(&mut self, var: usize, value: u32) {
        let position = self.push(Pred::ne(var, value), 0);
        self.holes[var].push(position);
        self.hole_at.entry((var as u32, value)).or_insert(position);
    }

    /// Pops the atoms from `len` on, last first, telling `each` their variables.
    pub(crate) fn undo_to(&mut self, len: usize, mut each: impl FnMut(u32)) {
        if self.list.len() > len {
            self.undos += 1;
        }
        let kept = self.starts.partition_point(|&start| (start as usize) < len);
        self.starts.truncate(kept);
        while self.list.len() > len {
            let atom = self.list.pop().expect("longer than len");
            let position = self.list.len() as u32;
            let var = atom.pred.var as usize;
            match atom.pred.rel {
                Rel::Ge => {
                    self.lows[var].pop();
                    self.low[var] = atom.prev;
                }
                Rel::Le => {
                    self.highs[var].pop();
                    self.high[var] = atom.prev;
                }
                _ => {
                    self.holes[var].pop();
                    let key = (atom.pred.var, atom.pred.value);
                    if self.hole_at.get(&key) == Some(&position) {
                        self.hole_at.remove(&key);
                    }
                }
            }
            each(atom.pred.var);
        }
    }

    /// The position of the first of `ends` (atoms of rising position, with the end each
    /// set) whose end `ok` accepts, given that once one does, all later ones do.
    fn first_where(ends: &[(u32, u32)], ok: impl Fn(u32) -> bool) -> Option<u32> {
        let k = ends.partition_point(|&(_, end)| !ok(end));
        ends.get(k).map(|&(position, _)| position)
    }

    /// The position of the atom since which `pred`, true now, has been true; `None` if it
    /// was true when recording began.
    pub(crate) fn true_since(&self, pred: Pred) -> Option<u32> {
        let var = pred.var as usize;
        let v = pred.value;
        // A bound the root already had held before every atom.
        let ge = |v: u32| {
            (v > self.root_low[var])
                .then(|| Self::first_where(&self.lows[var], |low| low >= v))
                .flatten()
        };
        let le = |v: u32| {
            (v < self.root_high[var])
                .then(|| Self::first_where(&self.highs[var], |high| high <= v))
                .flatten()
        };
        match pred.rel {
            Rel::Ge => ge(v),
            Rel::Le => le(v),
            Rel::Eq => match (ge(v), le(v)) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            },
            Rel::Ne
                if v < self.root_low[var] || v > self.root_high[var] || self.root_lacks(var, v) =>
            {
                None
            }
            Rel::Ne => {
                let hole = self.hole_at.get(&(pred.var, v)).copied();
                let above = v.checked_add(1).and_then(ge);
                let below = v.checked_sub(1).and_then(le);
                [hole, above, below].into_iter().flatten().min()
            }
        }
    }

    /// Appends to `out` predicates that describe the domain of `var` before position
    /// `start` (its ends and holes then, leaving out what held when recording began).
    pub(crate) fn domain_at(&self, var: usize, start: u32, out: &mut Vec<Pred>) {
        let low = self.low_before(var, start);
        let high = self.high_before(var, start);
        out.extend(low.map(|v| Pred::ge(var, v)));
        out.extend(high.map(|v| Pred::le(var, v)));
        self.holes_between(var, start, low.unwrap_or(0), high.unwrap_or(u32::MAX), out);
    }

    /// Appends `var != v` for each hole `v` of `var` made before position `at`, strictly
    /// between `low` and `high`.
    fn holes_between(&self, var: usize, at: u32, low: u32, high: u32, out: &mut Vec<Pred>) {
        for &p in &self.holes[var] {
            if p >= at {
                break;
            }
            let value = self.list[p as usize].pred.value;
            if value > low && value < high {
                out.push(Pred::ne(var, value));
            }
        }
    }

    /// Appends to `out` what, with a cause's own reason, makes the end that the atom at
    /// `at` (its predicate `pred`) set: the holes the end stepped over to land on a value
    /// (an end imposed at `x >= 5` lands at 7 when 5 and 6 are holes), and with
    /// `with_end`, the end before it (a removal `x != 4` of the lowest value makes
    /// `x >= 5` only with `x >= 4`).
    pub(crate) fn stepped_over(&self, at: u32, pred: Pred, with_end: bool, out: &mut Vec<Pred>) {
        let var = pred.var as usize;
        let (from, to) = match pred.rel {
            Rel::Ge => {
                let low = self.low_before(var, at);
                if with_end {
                    out.extend(low.map(|v| Pred::ge(var, v)));
                }
                (low.unwrap_or(self.root_low[var]), pred.value)
            }
            Rel::Le => {
                let high = self.high_before(var, at);
                if with_end {
                    out.extend(high.map(|v| Pred::le(var, v)));
                }
                (pred.value, high.unwrap_or(self.root_high[var]))
            }
            Rel::Eq | Rel::Ne => return,
        };
        self.holes_between(var, at, from, to, out);
    }

    /// The smallest index of `var` before position `at`, where an atom moved it (`None`:
    /// as when recording began).
    pub(crate) fn low_before(&self, var: usize, at: u32) -> Option<u32> {
        let ends = &self.lows[var];
        let k = ends.partition_point(|&(p, _)| p < at);
        k.checked_sub(1).map(|k| ends[k].1)
    }

    /// The largest index of `var` before position `at`, where an atom moved it.
    pub(crate) fn high_before(&self, var: usize, at: u32) -> Option<u32> {
        let ends = &self.highs[var];
        let k = ends.partition_point(|&(p, _)| p < at);
        k.checked_sub(1).map(|k| ends[k].1)
    }

    /// The largest value index below `index` that `var` still had before position `at`
    /// (`index` above the low end then): what a lower bound raised to `index` had to
    /// pass, the values between being holes (or missing from the root).
    pub(crate) fn left_below(&self, var: usize, index: u32, at: u32) -> u32 {
        let (low, _) = self.ends_before(var, at);
        let mut g = index - 1;
        while g > low && self.absent_before(var, g, at) {
            g -= 1;
        }
        g
    }

    /// The least value index above `index` that `var` still had before position `at`
    /// (`index` below the high end then).
    pub(crate) fn left_above(&self, var: usize, index: u32, at: u32) -> u32 {
        let (_, high) = self.ends_before(var, at);
        let mut g = index + 1;
        while g < high && self.absent_before(var, g, at) {
            g += 1;
        }
        g
    }

    /// Whether `value` had gone from `var` before position `at` (past an end, or a hole;
    /// `false` for a value only the root lacked).
    pub(crate) fn gone_before(&self, var: usize, value: u32, at: u32) -> bool {
        let (low, high) = self.ends_before(var, at);
        value < low || value > high || self.hole_before(var, value, at)
    }

    /// The values of its variable that the atom at `at`, of predicate `pred`, removed
    /// (not those gone before it, nor those the root lacked); for an end that moved, the
    /// end before is appended to `out` (what the removals start from). `None` for an atom
    /// that removes nothing this way, or whose end passes more than `most` values.
    pub(crate) fn removed_by<'s>(
        &'s self,
        at: u32,
        pred: Pred,
        most: u32,
        out: &mut Vec<Pred>,
    ) -> Option<impl Iterator<Item = u32> + use<'s>> {
        let var = pred.var as usize;
        let (low, high) = self.ends_before(var, at);
        let (first, last) = match pred.rel {
            Rel::Ne => (pred.value, pred.value),
            Rel::Ge if pred.value > low && pred.value - low <= most => {
                out.extend(self.low_before(var, at).map(|v| Pred::ge(var, v)));
                (low, pred.value - 1)
            }
            Rel::Le if pred.value < high && high - pred.value <= most => {
                out.extend(self.high_before(var, at).map(|v| Pred::le(var, v)));
                (pred.value + 1, high)
            }
            _ => return None,
        };
        Some((first..=last).filter(move |&u| !self.absent_before(var, u, at)))
    }

    /// Appends why the value indices `gone` (rising; each gone from `var` before position
    /// `at`) are gone: `var != u` for a hole, and one end for those past it (`var >= u +
    /// 1` for the largest below the low end, `var <= u - 1` for the least above the high
    /// end), so that a value gone with an end costs no predicate of its own.
    pub(crate) fn explain_gone(
        &self,
        var: usize,
        at: u32,
        gone: impl Iterator<Item = u32>,
        out: &mut Vec<Pred>,
    ) {
        let (low, high) = self.ends_before(var, at);
        let (mut below, mut above) = (None, None);
        for u in gone {
            if u < low {
                below = Some(u);
            } else if u > high {
                above = above.or(Some(u));
            } else {
                debug_assert!(
                    self.absent_before(var, u, at),
                    "value {u} of v{var} explained gone, but it was not"
                );
                // A value the root lacked needs no predicate.
                if !self.root_lacks(var, u) {
                    out.push(Pred::ne(var, u));
                }
            }
        }
        out.extend(below.map(|u| Pred::ge(var, u + 1)));
        out.extend(above.map(|u| Pred::le(var, u - 1)));
    }

    /// Calls `each` with every value strictly between the ends of `var` that it lacked
    /// before position `at` (a hole then, or missing when recording began; those of the
    /// root known for variables of at most 4,096 values), in no particular order.
    pub(crate) fn each_hole_before(&self, var: usize, at: u32, mut each: impl FnMut(u32)) {
        for &p in &self.holes[var] {
            if p >= at {
                break;
            }
            each(self.list[p as usize].pred.value);
        }
        self.root_holes[var].iter().for_each(|&u| each(u));
    }

    /// Whether `value` was not in the domain of `var` before position `at`: past an end,
    /// a hole, or missing when recording began (known for variables of at most 4,096
    /// values).
    pub(crate) fn absent_before(&self, var: usize, value: u32, at: u32) -> bool {
        self.absent_within(var, value, at, self.ends_before(var, at))
    }

    /// [`absent_before`](Self::absent_before) with the ends of `var` before `at` already
    /// read (`ends`): for callers that ask of many values.
    pub(crate) fn absent_within(&self, var: usize, value: u32, at: u32, ends: (u32, u32)) -> bool {
        let (low, high) = ends;
        value < low
            || value > high
            || self.hole_before(var, value, at)
            || self.root_lacks(var, value)
    }

    /// Whether `value`, strictly between the ends of `var` when recording began, was
    /// missing then (known for variables of at most 4,096 values).
    #[inline]
    pub(crate) fn root_lacks(&self, var: usize, value: u32) -> bool {
        self.root_holes[var].binary_search(&value).is_ok()
    }

    /// The ends of `var` when recording began (before every atom).
    #[inline]
    pub(crate) fn root_ends(&self, var: usize) -> (u32, u32) {
        (self.root_low[var], self.root_high[var])
    }

    /// The ends of `var` before position `at`.
    pub(crate) fn ends_before(&self, var: usize, at: u32) -> (u32, u32) {
        (
            self.low_before(var, at).unwrap_or(self.root_low[var]),
            self.high_before(var, at).unwrap_or(self.root_high[var]),
        )
    }

    /// The value of `var` before position `at`, if it was fixed then.
    pub(crate) fn fixed_before(&self, var: usize, at: u32) -> Option<u32> {
        let (low, high) = self.ends_before(var, at);
        (low == high).then_some(low)
    }

    /// Whether `value` was a hole of `var` (recorded, strictly between its ends) before
    /// position `at`.
    pub(crate) fn hole_before(&self, var: usize, value: u32, at: u32) -> bool {
        // The first time the value went as a hole; an earlier removal was undone with it.
        self.hole_at
            .get(&(var as u32, value))
            .is_some_and(|&p| p < at)
    }

    /// The ends of `var` now, as recorded.
    pub(crate) fn ends_now(&self, var: usize) -> (u32, u32) {
        (self.low[var], self.high[var])
    }

    /// The position of the first atom of `level` (at least 1, and reached).
    pub(crate) fn level_start(&self, level: u32) -> u32 {
        self.starts[level as usize - 1]
    }

    /// The level of position `position`.
    pub(crate) fn level_of(&self, position: u32) -> u32 {
        self.starts.partition_point(|&start| start <= position) as u32
    }
}

impl Store {
    /// From now on, records every change on a predicate trail (for learning). The domains
    /// as they are now are its starting point.
    pub(crate) fn record_atoms(&mut self) {
        self.atoms = Some(Box::new(Atoms::new(self)));
    }

    /// The predicate trail, if recorded.
    #[inline]
    pub(crate) fn atoms(&self) -> Option<&Atoms> {
        self.atoms.as_deref()
    }

    #[inline]
    pub(crate) fn atoms_mut(&mut self) -> Option<&mut Atoms> {
        self.atoms.as_deref_mut()
    }

    /// When recording, the changes made from now on are `prop`'s run.
    #[inline(always)]
    pub(crate) fn set_cause_prop(&mut self, prop: u32) {
        if let Some(atoms) = &mut self.atoms {
            atoms.cause = Cause::Prop {
                prop,
                start: atoms.list.len() as u32,
            };
        }
    }

    /// When recording, the changes made from now on have cause `cause`.
    #[inline]
    pub(crate) fn set_cause(&mut self, cause: Cause) {
        if let Some(atoms) = &mut self.atoms {
            atoms.cause = cause;
        }
    }

    /// Records the change just made to `var`, which lost the bits `lost` of its word `w`
    /// (none: only its ends may have moved).
    #[inline(always)]
    pub(super) fn note(&mut self, var: usize, w: usize, lost: u64) {
        if self.atoms.is_some() {
            self.note_recorded(var, w, lost);
        }
    }

    #[inline(never)]
    fn note_recorded(&mut self, var: usize, w: usize, lost: u64) {
        let (Some(low), Some(high)) = (self.min(var), self.max(var)) else {
            return;
        };
        let level = self.cells.level();
        let atoms = self.atoms.as_mut().expect("recording");
        atoms.level = level;
        atoms.bounds(var, low, high);
        let mut bits = lost;
        while bits != 0 {
            let value = w as u32 * 64 + bits.trailing_zeros();
            bits &= bits - 1;
            if value > low && value < high {
                atoms.hole(var, value);
            }
        }
    }

    /// Whether `pred` holds in every value left.
    #[inline]
    pub(crate) fn holds(&self, pred: Pred) -> bool {
        let var = pred.var as usize;
        match pred.rel {
            Rel::Ge => self.min(var).is_some_and(|low| low >= pred.value),
            Rel::Le => self.max(var).is_some_and(|high| high <= pred.value),
            Rel::Eq => self.is_fixed(var) && self.min(var) == Some(pred.value),
            Rel::Ne => !self.contains(var, pred.value),
        }
    }

    /// Whether `pred` holds in no value left.
    #[inline]
    pub(crate) fn refutes(&self, pred: Pred) -> bool {
        let var = pred.var as usize;
        match pred.rel {
            Rel::Ge => self.max(var).is_none_or(|high| high < pred.value),
            Rel::Le => self.min(var).is_none_or(|low| low > pred.value),
            Rel::Eq => !self.contains(var, pred.value),
            Rel::Ne => self.is_fixed(var) && self.min(var) == Some(pred.value),
        }
    }

    /// Makes `pred` true: removes the values it rejects.
    ///
    /// # Errors
    /// [`Fail`] if no value is left.
    pub(crate) fn impose(&mut self, pred: Pred) -> Result<(), Fail> {
        let var = pred.var as usize;
        match pred.rel {
            Rel::Ge if pred.value > 0 => self.remove_range(var, 0, pred.value - 1),
            Rel::Le if pred.value < u32::MAX => self.remove_range(var, pred.value + 1, u32::MAX),
            Rel::Ge | Rel::Le => Ok(()),
            Rel::Eq => self.assign(var, pred.value),
            Rel::Ne => self.remove(var, pred.value).map(|_| ()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoms_say_when_a_predicate_became_true() {
        let mut s = Store::new(&[10, 100, 1_000_000]);
        s.record_atoms();
        s.set_level(1);
        s.remove(0, 5).unwrap(); // a hole: x0 != 5
        s.remove_range(0, 0, 2).unwrap(); // x0 >= 3
        s.set_level(2);
        s.remove_range(1, 50, 99).unwrap(); // x1 <= 49
        s.remove(1, 10).unwrap();
        s.remove_range(2, 0, 499_999).unwrap();
        s.remove(2, 600_000).unwrap();
        let atoms = s.atoms().unwrap();
        let preds: Vec<Pred> = atoms.since(0).iter().map(|a| a.pred).collect();
        assert_eq!(
            preds,
            [
                Pred::ne(0, 5),
                Pred::ge(0, 3),
                // A wide domain's top goes a word at a time, from the top down.
                Pred::le(1, 63),
                Pred::le(1, 49),
                Pred::ne(1, 10),
                Pred::ge(2, 500_000),
                Pred::ne(2, 600_000)
            ]
        );
        assert_eq!(atoms.true_since(Pred::ne(0, 5)), Some(0));
        assert_eq!(atoms.true_since(Pred::ne(0, 1)), Some(1));
        assert_eq!(atoms.true_since(Pred::ge(0, 2)), Some(1));
        assert_eq!(atoms.true_since(Pred::le(1, 60)), Some(3));
        assert_eq!(atoms.true_since(Pred::le(1, 70)), Some(2));
        assert_eq!(atoms.true_since(Pred::ne(2, 3)), Some(5));
        assert_eq!(atoms.level_of(2), 2);
        // True when recording began: before every atom.
        assert_eq!(atoms.true_since(Pred::ge(0, 0)), None);
        assert_eq!(atoms.true_since(Pred::le(1, 99)), None);
        assert_eq!(atoms.true_since(Pred::ne(0, 10)), None);
        let mut out = Vec::new();
        atoms.domain_at(0, 1, &mut out);
        assert_eq!(out, [Pred::ne(0, 5)]);
        out.clear();
        atoms.domain_at(0, 6, &mut out);
        assert_eq!(out, [Pred::ge(0, 3), Pred::ne(0, 5)]);
        for pred in [
            Pred::ge(0, 3),
            Pred::ne(0, 5),
            Pred::le(1, 49),
            Pred::ne(2, 1),
        ] {
            assert!(s.holds(pred) && !s.refutes(pred), "{pred:?}");
        }
        assert!(s.refutes(Pred::eq(0, 5)) && !s.holds(Pred::eq(0, 4)));
        s.atoms_mut().unwrap().undo_to(2, |_| {});
        assert_eq!(s.atoms().unwrap().true_since(Pred::ne(0, 5)), Some(0));
        assert_eq!(s.atoms().unwrap().hole_at.len(), 1);
    }

    #[test]
    fn negations_and_imposing() {
        assert_eq!(Pred::ge(1, 0).negated(), None);
        assert_eq!(Pred::ge(1, 4).negated(), Some(Pred::le(1, 3)));
        assert_eq!(Pred::eq(1, 4).negated(), Some(Pred::ne(1, 4)));
        let mut s = Store::new(&[8]);
        s.impose(Pred::ge(0, 2)).unwrap();
        s.impose(Pred::le(0, 6)).unwrap();
        s.impose(Pred::ne(0, 4)).unwrap();
        assert_eq!(s.iter(0).collect::<Vec<_>>(), [2, 3, 5, 6]);
        s.impose(Pred::eq(0, 5)).unwrap();
        assert!(s.holds(Pred::eq(0, 5)));
        assert_eq!(s.impose(Pred::ne(0, 5)), Err(Fail));
    }
}
