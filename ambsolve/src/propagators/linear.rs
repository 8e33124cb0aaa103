//! Linear constraints `Σ a_i·x_i (==, !=, <=, >=) c`, by bounds reasoning.
//!
//! For `<=`: the smallest the other terms can add up to leaves each term a largest value
//! it may take; larger values go. `>=` is `<=` with signs flipped; `==` is both. `!=`
//! waits until one term is open and removes the values that would make it equal.
//!
//! A term whose images never go down (or never up) along the value indices, as ranges and
//! sorted lists do, is read and cut by its bounds: its extremes are at the domain's first
//! and last index, and the values to remove are whole runs of indices at either end, found
//! by binary search and cleared a word at a time. A propagation then costs the words it
//! clears, whatever the size of the domain. Other terms visit their values.
//!
//! Arithmetic is in `i128`; the model refuses sums whose terms could overflow it.

use std::cell::Cell;
use std::sync::Arc;

use smallvec::SmallVec;

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::{Cmp, LinearDef, Trend};
use crate::propagator::BuiltinPropagator;
use crate::store::{Atoms, BOUNDS, FIXED, Pred, Rel, Store};
use crate::var::VarId;

/// One term of a linear sum as the propagator reads it: a store position, a coefficient and
/// the integer image of each value index.
/// (48 bytes: a model of a million sums keeps two million.)
struct ScaledVar {
    coef: i128,
    /// The images, unless they are consecutive (then empty: `first + index`, computed).
    images: Arc<[i64]>,
    /// The first image, when the images are the consecutive integers `first, first + 1,
    /// ..` (`consecutive`): index ranges are then computed, not searched.
    first: i64,
    position: u32,
    consecutive: bool,
    /// How `coef × image` moves along the indices.
    trend: Trend,
}

/// The list of a term whose images are computed (one, shared, not one per term).
static NO_LIST: std::sync::LazyLock<Arc<[i64]>> = std::sync::LazyLock::new(|| Arc::from([]));

/// `⌊a / b⌋` for `b != 0`.
fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈a / b⌉` for `b != 0`.
fn div_ceil(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

/// A term's smallest and largest contribution over its domain, and the domain's first and
/// last index.
#[derive(Clone, Copy)]
struct Reach {
    low: i128,
    high: i128,
    first: u32,
    last: u32,
}

impl ScaledVar {
    /// Its store position.
    #[inline]
    fn var(&self) -> usize {
        self.position as usize
    }

    /// The first image, if the images are consecutive.
    #[inline]
    fn consecutive(&self) -> Option<i128> {
        self.consecutive.then_some(i128::from(self.first))
    }

    #[inline]
    fn at(&self, index: u32) -> i128 {
        if self.consecutive {
            self.coef * (i128::from(self.first) + i128::from(index))
        } else {
            self.coef * i128::from(self.images[index as usize])
        }
    }

    /// Its least and largest contributions over the indices `first..=last` (images that
    /// rise or fall along the indices).
    fn contributions(&self, first: u32, last: u32) -> (i128, i128) {
        match self.trend {
            Trend::Rising => (self.at(first), self.at(last)),
            _ => (self.at(last), self.at(first)),
        }
    }

    /// Its least and largest contributions before trail position `at`.
    fn contributions_before(&self, atoms: &Atoms, at: u32) -> (i128, i128) {
        let (first, last) = atoms.ends_before(self.var(), at);
        self.contributions(first, last)
    }

    /// The term's reach over the domain; `None` if the domain is empty. Inlined: returned
    /// through memory, the reach cost a stall (its halves written, then read whole).
    #[inline(always)]
    fn reach(&self, store: &Store) -> Option<Reach> {
        let first = store.min(self.var())?;
        let last = if store.is_fixed(self.var()) {
            first
        } else {
            store.max(self.var())?
        };
        let (low, high) = match self.trend {
            Trend::Rising => (self.at(first), self.at(last)),
            Trend::Falling => (self.at(last), self.at(first)),
            Trend::Mixed => store
                .iter(self.var())
                .map(|i| self.at(i))
                .fold((i128::MAX, i128::MIN), |(low, high), x| {
                    (low.min(x), high.max(x))
                }),
        };
        Some(Reach {
            low,
            high,
            first,
            last,
        })
    }

    /// For images that rise or fall along the value indices: the index range `from..to`
    /// whose contributions lie in `least..=most`, by binary search. `None` for mixed
    /// images, which have no such range.
    /// `len` is the number of values (the store's universe of the variable).
    fn indices_within(&self, least: i128, most: i128, len: u32) -> Option<(usize, usize)> {
        let (images, coef) = (&self.images[..], self.coef);
        if let Some(first) = self.consecutive() {
            // Values v = first + index with least <= coef × v <= most.
            // i128::MIN and i128::MAX stand for no bound (never a computed one: the model
            // keeps sums well inside the i128 range).
            let ceil = |a: i128| {
                if a == i128::MIN || a == i128::MAX {
                    a
                } else {
                    div_ceil(a, coef)
                }
            };
            let floor = |a: i128| {
                if a == i128::MIN || a == i128::MAX {
                    a
                } else {
                    div_floor(a, coef)
                }
            };
            let flip = |a: i128| match a {
                i128::MIN => i128::MAX,
                i128::MAX => i128::MIN,
                a => a,
            };
            let (low, high) = if coef == 1 {
                (least, most)
            } else if coef == -1 {
                (most.saturating_neg(), least.saturating_neg())
            } else if coef > 0 {
                (ceil(least), floor(most))
            } else {
                (flip(ceil(most)), flip(floor(least)))
            };
            let len = i128::from(len);
            let from = (low.saturating_sub(first)).clamp(0, len);
            let to = (high.saturating_sub(first).saturating_add(1)).clamp(0, len);
            return Some((from as usize, to.max(from) as usize));
        }
        let contribution = |x: i64| coef * i128::from(x);
        match self.trend {
            Trend::Rising => Some((
                images.partition_point(|&x| contribution(x) < least),
                images.partition_point(|&x| contribution(x) <= most),
            )),
            Trend::Falling => Some((
                images.partition_point(|&x| contribution(x) > most),
                images.partition_point(|&x| contribution(x) >= least),
            )),
            Trend::Mixed => None,
        }
    }

    /// Keeps the values whose contribution lies in `[least, most]`.
    fn keep_within(
        &self,
        store: &mut Store,
        reach: Reach,
        least: i128,
        most: i128,
    ) -> Result<(), Fail> {
        let Some((from, to)) = self.indices_within(least, most, store.universe(self.var())) else {
            store.retain(self.var(), |i| (least..=most).contains(&self.at(i)))?;
            return Ok(());
        };
        // Indices fit in u32: a value list has at most u32::MAX values.
        keep_indices(store, self.var(), reach, from as u32, to as u32)
    }

    /// Removes the values whose contribution is `forbidden`.
    fn remove_equal(&self, store: &mut Store, forbidden: i128) -> Result<(), Fail> {
        let len = store.universe(self.var());
        let Some((from, to)) = self.indices_within(forbidden, forbidden, len) else {
            store.retain(self.var(), |i| self.at(i) != forbidden)?;
            return Ok(());
        };
        for index in from as u32..to as u32 {
            store.remove(self.var(), index)?;
        }
        Ok(())
    }
}

/// Keeps the indices `from..to` of `var`, whose domain lies within `reach.first..=last`:
/// clears the words between the domain's ends and the kept range's, no others.
fn keep_indices(
    store: &mut Store,
    var: usize,
    reach: Reach,
    from: u32,
    to: u32,
) -> Result<(), Fail> {
    if from >= to || from > reach.last || to <= reach.first {
        return Err(Fail);
    }
    if to - from == 1 {
        // One index left (an equality with the others fixed): fixing writes each word
        // once, without counting and queuing word by word.
        return store.assign(var, from);
    }
    if from > reach.first {
        store.remove_range(var, reach.first, from - 1)?;
    }
    if to <= reach.last {
        store.remove_range(var, to, reach.last)?;
    }
    Ok(())
}

/// Equalities of at most this many terms may become `x - y == c` (see
/// [`Linear::shift_equal`]).
const SHIFT_TERMS: usize = 4;

/// `x - y == c` is kept domain-consistent when the two domains span at most this many
/// words together; wider ones keep bounds only.
const SHIFT_WORDS: usize = 64;

/// Keeps the indices `i` of `target` whose `i - shift` is in the domain of `source`.
fn keep_shifted(store: &mut Store, target: usize, source: usize, shift: i128) -> Result<(), Fail> {
    for w in 0..store.num_words(target) {
        let old = store.word(target, w);
        if old == 0 {
            continue;
        }
        let start = w as i128 * 64 - shift;
        let new = old & bits_from(store, source, start);
        if new != old {
            store.narrow_word(target, w, new)?;
        }
    }
    Ok(())
}

/// The 64 bits of the domain of `var` from index `start` on (indices outside it are 0).
fn bits_from(store: &Store, var: usize, start: i128) -> u64 {
    let words = store.num_words(var) as i128;
    let word = |k: i128| -> u64 {
        if k < 0 || k >= words {
            0
        } else {
            store.word(var, k as usize)
        }
    };
    let (k, offset) = (start.div_euclid(64), start.rem_euclid(64) as u32);
    if offset == 0 {
        word(k)
    } else {
        (word(k) >> offset) | (word(k + 1) << (64 - offset))
    }
}

enum Form {
    /// `Σ <= rhs`
    AtMost,
    /// `Σ >= rhs`
    AtLeast,
    /// `Σ == rhs`
    Equal,
    /// `Σ != rhs`
    NotEqual,
}

pub(super) struct Linear {
    terms: Vec<ScaledVar>,
    /// Inline up to two variables (most sums of a large model are comparisons).
    scope: SmallVec<[VarId; 2]>,
    form: Form,
    rhs: i128,
    /// Whether [`shift_equal`](Linear::shift_equal) may apply.
    shifts: bool,
    /// Whether the last run left the constraint sure to hold over the domains.
    entailed: bool,
}

impl Linear {
    pub(super) fn new(def: &LinearDef) -> Self {
        let rhs = i128::from(def.rhs);
        let (form, rhs) = match def.cmp {
            Cmp::Eq => (Form::Equal, rhs),
            Cmp::Ne => (Form::NotEqual, rhs),
            Cmp::Le => (Form::AtMost, rhs),
            Cmp::Lt => (Form::AtMost, rhs - 1),
            Cmp::Ge => (Form::AtLeast, rhs),
            Cmp::Gt => (Form::AtLeast, rhs + 1),
        };
        // One term per variable: `3x + 2x` is `5x`, and a zero coefficient drops out.
        let mut terms: Vec<ScaledVar> = Vec::with_capacity(def.terms.len());
        for ((v, coef, images), &trend) in def.terms.iter().zip(&def.trends) {
            match terms.iter_mut().find(|t| t.var() == v.index()) {
                Some(term) => term.coef += i128::from(*coef),
                None => {
                    let first = images.consecutive_start();
                    terms.push(ScaledVar {
                        position: u32::try_from(v.index()).expect("store positions fit a u32"),
                        coef: i128::from(*coef),
                        images: match first {
                            Some(_) => Arc::clone(&NO_LIST),
                            None => images.to_list(),
                        },
                        trend,
                        first: first.unwrap_or(0),
                        consecutive: first.is_some(),
                    });
                }
            }
        }
        terms.retain(|t| t.coef != 0);
        terms.shrink_to_fit();
        // The trend of the images, turned by the coefficient's sign.
        for term in &mut terms {
            term.trend = match (term.trend, term.coef > 0) {
                (Trend::Rising, false) => Trend::Falling,
                (Trend::Falling, false) => Trend::Rising,
                (trend, _) => trend,
            };
        }
        let mut linear = Linear {
            scope: terms.iter().map(|t| Store::var_id(t.var())).collect(),
            terms,
            form,
            rhs,
            shifts: false,
            entailed: false,
        };
        linear.shifts = linear.may_shift();
        linear
    }

    /// `Σ <= rhs` over `def`'s terms, with no bound yet (`rhs` the largest sum): the
    /// branch-and-bound propagator of an objective, tightened by
    /// [`set_at_most`](Linear::set_at_most).
    pub(super) fn unbounded(def: &LinearDef) -> Self {
        let mut linear = Linear::new(def);
        linear.form = Form::AtMost;
        linear.rhs = def.extremes().map(|e| e.1).sum();
        linear
    }

    /// Sets the right-hand side of `Σ <= rhs`.
    pub(super) fn set_at_most(&mut self, rhs: i128) {
        self.rhs = rhs;
    }

    /// The events that can make this propagator prune: a bound moving (or, for `!=`, a
    /// variable fixed) when every term's images rise or fall along the indices; any
    /// change otherwise.
    pub(super) fn wakes_on(&self) -> u8 {
        if let Form::NotEqual = self.form {
            return FIXED;
        }
        if !self.shifts && self.terms.iter().all(|t| t.trend != Trend::Mixed) {
            BOUNDS
        } else {
            crate::store::CHANGED
        }
    }

    /// Whether the last run (which succeeded) left the constraint sure to hold over the
    /// domains: then it has nothing more to do below this point of the search.
    pub(super) fn entailed(&self) -> bool {
        self.entailed
    }

    /// One pass over the terms, their reaches written in `reaches`; whether it narrowed
    /// one.
    fn pass(&mut self, store: &mut Store, reaches: &mut Vec<Reach>) -> Result<bool, Fail> {
        reaches.clear();
        for term in &self.terms {
            reaches.push(term.reach(store).ok_or(Fail)?);
        }
        let low: i128 = reaches.iter().map(|r| r.low).sum();
        let high: i128 = reaches.iter().map(|r| r.high).sum();
        let (at_most, at_least) = match self.form {
            Form::AtMost => (true, false),
            Form::AtLeast => (false, true),
            Form::Equal | Form::NotEqual => (true, true),
        };
        if (at_most && low > self.rhs) || (at_least && high < self.rhs) {
            return Err(Fail);
        }
        let mut narrowed = false;
        for (term, &reach) in self.terms.iter().zip(reaches.iter()) {
            if reach.low == reach.high {
                continue;
            }
            // What this term may contribute given the others' extremes.
            let most = if at_most {
                self.rhs - (low - reach.low)
            } else {
                i128::MAX
            };
            let least = if at_least {
                self.rhs - (high - reach.high)
            } else {
                i128::MIN
            };
            if reach.high > most || reach.low < least {
                term.keep_within(store, reach, least, most)?;
                narrowed = true;
            }
        }
        if self.shifts {
            self.shift_equal(store)?;
        }
        // The sums of the reaches, before this pass narrowed nothing, are the domains'.
        self.entailed = !narrowed
            && match self.form {
                Form::AtMost => high <= self.rhs,
                Form::AtLeast => low >= self.rhs,
                Form::Equal | Form::NotEqual => low == high,
            };
        Ok(narrowed)
    }

    /// Whether the bounds before position `at` alone make `pred` true (`None`: fail the
    /// sum), as a pass reasons; false where the shift rule may have done it.
    fn bounds_decide(&self, atoms: &Atoms, at: u32, pred: Option<Pred>) -> bool {
        let reach = |t: &ScaledVar| t.contributions_before(atoms, at);
        let (low, high) = self
            .terms
            .iter()
            .map(reach)
            .fold((0, 0), |(l, h), (a, b)| (l + a, h + b));
        let Some(pred) = pred else {
            return low > self.rhs || high < self.rhs;
        };
        let var = pred.var as usize;
        let mut mine = self.terms.iter().filter(|t| t.var() == var);
        let (Some(term), None) = (mine.next(), mine.next()) else {
            return false;
        };
        let (own_low, own_high) = reach(term);
        let (most, least) = (self.rhs - (low - own_low), self.rhs - (high - own_high));
        // The side a contribution lies out of `least..=most` on, if it does.
        let side = |index: u32| {
            let c = term.at(index);
            (c > most, c < least)
        };
        let (first, last) = atoms.ends_before(var, at);
        // The values the end passed, but holes: out on one side, at both of their ends.
        let (from, to) = match pred.rel {
            Rel::Ge if pred.value > first => (first, pred.value - 1),
            Rel::Le if pred.value < last => (pred.value + 1, last),
            _ => return false,
        };
        let kept = |i: &u32| !atoms.gone_before(var, *i, at);
        let (Some(a), Some(b)) = ((from..=to).find(kept), (from..=to).rev().find(kept)) else {
            return true;
        };
        let (sa, sb) = (side(a), side(b));
        sa == sb && (sa.0 || sa.1)
    }

    /// Whether the constraint is an equality that can become `x - y == c` over two
    /// consecutive ranges with the other terms fixed: then it is kept domain-consistent
    /// (see [`shift_equal`](Linear::shift_equal)), which needs every change, not only
    /// bound moves.
    fn may_shift(&self) -> bool {
        matches!(self.form, Form::Equal)
            && self.terms.len() <= SHIFT_TERMS
            && self
                .terms
                .iter()
                .filter(|t| t.coef.abs() == 1 && t.consecutive)
                .count()
                >= 2
    }

    /// `x - y == c` over two consecutive ranges, once every other term is fixed: each
    /// keeps only the values the other's domain, shifted by `c`, has, a word at a time.
    /// A value the other side lost (to an all-different, say) then goes at once, not when
    /// it is tried.
    fn shift_equal(&self, store: &mut Store) -> Result<(), Fail> {
        let mut open: [Option<&ScaledVar>; 2] = [None, None];
        let mut fixed: i128 = 0;
        for term in &self.terms {
            if store.is_fixed(term.var()) {
                fixed += term.at(store.min(term.var()).ok_or(Fail)?);
            } else if open[0].is_none() {
                open[0] = Some(term);
            } else if open[1].is_none() {
                open[1] = Some(term);
            } else {
                return Ok(());
            }
        }
        let [Some(x), Some(y)] = open else {
            return Ok(());
        };
        let (Some(bx), Some(by)) = (x.consecutive(), y.consecutive()) else {
            return Ok(());
        };
        if x.coef != -y.coef || x.coef.abs() != 1 {
            return Ok(());
        }
        if store.num_words(x.var()) + store.num_words(y.var()) > SHIFT_WORDS {
            return Ok(());
        }
        // coef·(bx + i) - coef·(by + j) == rhs - fixed, so i == j + shift.
        let shift = (self.rhs - fixed) * x.coef - bx + by;
        keep_shifted(store, x.var(), y.var(), shift)?;
        keep_shifted(store, y.var(), x.var(), -shift)
    }

    /// Whether the constraint is sure to hold (`Some(true)`) or sure to fail
    /// (`Some(false)`) over the domains, judged by the bounds of the sum; `None` when they
    /// leave it open. Exact once every term is fixed.
    ///
    /// # Errors
    /// [`Fail`] if a domain is empty.
    pub(super) fn entailment(&self, store: &Store) -> Result<Option<bool>, Fail> {
        let (mut low, mut high) = (0i128, 0i128);
        for term in &self.terms {
            let reach = term.reach(store).ok_or(Fail)?;
            (low, high) = (low + reach.low, high + reach.high);
        }
        let rhs = self.rhs;
        Ok(match self.form {
            Form::AtMost if high <= rhs => Some(true),
            Form::AtMost if low > rhs => Some(false),
            Form::AtLeast if low >= rhs => Some(true),
            Form::AtLeast if high < rhs => Some(false),
            Form::Equal | Form::NotEqual if rhs < low || rhs > high => {
                Some(matches!(self.form, Form::NotEqual))
            }
            Form::Equal | Form::NotEqual if low == high => Some(matches!(self.form, Form::Equal)),
            _ => None,
        })
    }

    /// The most values an end may pass and still be explained value by value.
    const EXPLAINED_VALUES: u32 = 64;

    /// The shift rule explained (see [`shift_equal`](Linear::shift_equal)): `pred` on
    /// one of the two terms left open took values whose partners in the other were gone
    /// before the atom; the other terms fixed then (their `==`) and the partners' absence
    /// explain it. False where that is not what happened (`out` as it was).
    fn explain_shift(&self, atoms: &Atoms, at: u32, pred: Pred, out: &mut Vec<Pred>) -> bool {
        let from = out.len();
        let explained = self.shift_reason(atoms, at, pred, out).is_some();
        if !explained {
            out.truncate(from);
        }
        explained
    }

    /// [`explain_shift`](Self::explain_shift)'s reason, appended; `None` where there is
    /// none (what it appended then is not a reason).
    fn shift_reason(&self, atoms: &Atoms, at: u32, pred: Pred, out: &mut Vec<Pred>) -> Option<()> {
        let own = pred.var as usize;
        let mut fixed = 0i128;
        let (mut x, mut y) = (None, None);
        for term in &self.terms {
            let var = term.var();
            if var == own {
                if x.replace(term).is_some() {
                    return None;
                }
            } else if let Some(value) = atoms.fixed_before(var, at) {
                fixed += term.at(value);
                out.push(Pred::eq(var, value));
            } else if y.replace(term).is_some() {
                return None;
            }
        }
        let (x, y) = (x?, y?);
        x.consecutive()?;
        let by = y.consecutive()?;
        if y.coef.abs() != 1 {
            return None;
        }
        let taken = atoms.removed_by(at, pred, Self::EXPLAINED_VALUES, out)?;
        // Each value taken from x, and the index of y that would have made the sum.
        let (root_low, root_high) = atoms.root_ends(y.var());
        let mut partners: SmallVec<[u32; 8]> = SmallVec::new();
        for i in taken {
            // y.coef · (by + j) == rhs - fixed - x's contribution.
            let j = (self.rhs - fixed - x.at(i)) * y.coef - by;
            if j < i128::from(root_low) || j > i128::from(root_high) {
                continue;
            }
            let j = j as u32;
            if !atoms.absent_before(y.var(), j, at) {
                return None;
            }
            partners.push(j);
        }
        partners.sort_unstable();
        partners.dedup();
        atoms.explain_gone(y.var(), at, partners.into_iter(), out);
        Some(())
    }

    /// `!=` explained: the other terms fixed before the atom (their `==`), when the one
    /// left lost only values whose contribution makes the sum `rhs`; a failure, by every
    /// term fixed, the sum `rhs`.
    fn explain_not_equal(
        &self,
        atoms: &Atoms,
        at: u32,
        pred: Option<Pred>,
        out: &mut Vec<Pred>,
    ) -> bool {
        let open = pred.map(|p| p.var as usize);
        let mut others = 0i128;
        for term in &self.terms {
            let var = term.var();
            if Some(var) == open {
                continue;
            }
            let Some(value) = atoms.fixed_before(var, at) else {
                return false;
            };
            others += term.at(value);
            out.push(Pred::eq(var, value));
        }
        let Some(pred) = pred else {
            return others == self.rhs;
        };
        let mut mine = self.terms.iter().filter(|t| Some(t.var()) == open);
        let (Some(term), None) = (mine.next(), mine.next()) else {
            return false;
        };
        let forbidden = self.rhs - others;
        atoms
            .removed_by(at, pred, Self::EXPLAINED_VALUES, out)
            .is_some_and(|mut gone| gone.all(|u| term.at(u) == forbidden))
    }

    fn not_equal(&mut self, store: &mut Store) -> Result<(), Fail> {
        let mut open = None;
        let mut fixed_sum: i128 = 0;
        for term in &self.terms {
            if store.is_fixed(term.var()) {
                fixed_sum += term.at(store.min(term.var()).ok_or(Fail)?);
            } else if open.is_some() {
                return Ok(());
            } else {
                open = Some(term);
            }
        }
        match open {
            None if fixed_sum == self.rhs => Err(Fail),
            None => {
                self.entailed = true;
                Ok(())
            }
            Some(term) => {
                // The one open term cannot make the sum `rhs` any more.
                term.remove_equal(store, self.rhs - fixed_sum)?;
                self.entailed = true;
                Ok(())
            }
        }
    }
}

impl<'a> Kind<'a> for LinearDef {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(Linear::new(self))
    }
}

/// A run reaches its own fixpoint, and a sum sure to hold has finished.
impl BuiltinPropagator for Linear {
    fn wakes(&self, _local: usize) -> u8 {
        self.wakes_on()
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn finishes(&self) -> bool {
        true
    }

    fn finished(&self) -> bool {
        self.entailed
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// Bounds reasoning explains itself, where every term is read by its bounds; `!=`
    /// explains itself always (it reads fixed terms only).
    fn explains(&self) -> bool {
        matches!(self.form, Form::NotEqual) || self.terms.iter().all(|t| t.trend != Trend::Mixed)
    }

    /// A term's new bound follows from the others' bounds that make their contributions
    /// smallest (for `<=`) or largest (for `>=`) before the change; a failure, from all
    /// the terms' such bounds.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        // What the bounds did not decide, the shift rule did.
        if self.shifts && !self.bounds_decide(atoms, at, pred) {
            return pred.is_some_and(|pred| self.explain_shift(atoms, at, pred, out));
        }
        let (form_most, form_least) = match self.form {
            Form::AtMost => (true, false),
            Form::AtLeast => (false, true),
            Form::Equal => (true, true),
            Form::NotEqual => return self.explain_not_equal(atoms, at, pred, out),
        };
        let (mut at_most, mut at_least, mut skip) = (form_most, form_least, None);
        // The contribution of the index just past the pred's bound, which it rules out.
        let mut excluded = None;
        if let Some(pred) = pred {
            let Some(k) = self.terms.iter().position(|t| t.var() == pred.var as usize) else {
                return false;
            };
            skip = Some(k);
            let term = &self.terms[k];
            let (first, last) = atoms.ends_before(term.var(), at);
            // Which side cut the term: its contributions from above (`<=`) or below.
            let rising = term.trend == Trend::Rising;
            match pred.rel {
                // The value the end passed last (the values between were gone: the
                // engine adds the holes).
                Rel::Le => {
                    (at_most, at_least) = (form_most && rising, form_least && !rising);
                    excluded = (pred.value < last)
                        .then(|| term.at(atoms.left_above(term.var(), pred.value, at)));
                }
                Rel::Ge => {
                    (at_most, at_least) = (form_most && !rising, form_least && rising);
                    excluded = (pred.value > first)
                        .then(|| term.at(atoms.left_below(term.var(), pred.value, at)));
                }
                Rel::Eq | Rel::Ne => {}
            }
        }
        // Each term's least and largest contribution before the atom.
        let others = || {
            self.terms
                .iter()
                .enumerate()
                .filter(move |&(i, _)| skip != Some(i))
                .map(|(_, t)| t)
        };
        let (least, most) = others()
            .map(|t| t.contributions_before(atoms, at))
            .fold((0, 0), |(l, m), (a, b)| (l + a, m + b));
        if pred.is_none() && at_most && at_least {
            // An equality fails on one side: that side alone explains it. Where neither
            // side fails, the bounds did not make the failure (the holes did).
            if least > self.rhs {
                at_least = false;
            } else if most < self.rhs {
                at_most = false;
            } else {
                return false;
            }
        }
        // How far the bounds read may be weakened, all terms together, and still make the
        // change (or the failure): the explanation is lifted by that much.
        let mut slack = match (at_most, at_least, pred, excluded) {
            (true, false, None, _) => least - self.rhs - 1,
            (true, false, Some(_), Some(c)) => least - (self.rhs - c + 1),
            (false, true, None, _) => self.rhs - 1 - most,
            (false, true, Some(_), Some(c)) => self.rhs - c - 1 - most,
            _ => 0,
        };
        // Bounds that leave room did not make it (the holes did): the scope's domains
        // explain it.
        if slack < 0 {
            return false;
        }
        for term in others() {
            let var = term.var();
            let (first, last) = atoms.ends_before(var, at);
            let (low, high) = term.contributions(first, last);
            let (root_first, root_last) = atoms.ends_before(var, 0);
            let rising = term.trend == Trend::Rising;
            // `<=` reads the smallest contribution (the first index of a rising term),
            // weakened as far as the slack allows: the index bound furthest from the
            // current one whose contribution is within the slack.
            if at_most {
                let index = if rising {
                    first_index(root_first, first, |i| term.at(i) >= low - slack)
                } else {
                    last_index(last, root_last, |i| term.at(i) >= low - slack)
                };
                slack -= low - term.at(index);
                out.push(if rising {
                    Pred::ge(var, index)
                } else {
                    Pred::le(var, index)
                });
            }
            if at_least {
                let index = if rising {
                    last_index(last, root_last, |i| term.at(i) <= high + slack)
                } else {
                    first_index(root_first, first, |i| term.at(i) <= high + slack)
                };
                slack -= term.at(index) - high;
                out.push(if rising {
                    Pred::le(var, index)
                } else {
                    Pred::ge(var, index)
                });
            }
        }
        true
    }

    /// Runs to its own fixpoint: a pass that narrowed a term is followed by another (the
    /// others' room depends on it), so that its own changes need not wake it again.
    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.entailed = false;
        if let Form::NotEqual = self.form {
            return self.not_equal(store);
        }
        // The terms' reaches go in a buffer of the thread's, not of each sum: a model of a
        // million sums keeps one.
        thread_local! {
            static REACHES: Cell<Vec<Reach>> = const { Cell::new(Vec::new()) };
        }
        let mut reaches = REACHES.take();
        let mut run = || -> Result<(), Fail> {
            while self.pass(store, &mut reaches)? {}
            Ok(())
        };
        let result = run();
        REACHES.set(reaches);
        result
    }
}

/// The least index in `from..=to` where `ok` holds, `ok` monotone (false, then true) and
/// true at `to`.
fn first_index(from: u32, to: u32, ok: impl Fn(u32) -> bool) -> u32 {
    let (mut low, mut high) = (from, to);
    while low < high {
        let mid = low + (high - low) / 2;
        if ok(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    high
}

/// The largest index in `from..=to` where `ok` holds, `ok` monotone (true, then false) and
/// true at `from`.
fn last_index(from: u32, to: u32, ok: impl Fn(u32) -> bool) -> u32 {
    let (mut low, mut high) = (from, to);
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        if ok(mid) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Constraint, Model};
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::random_domains;

    /// Whether the constraint holds, for every assignment of its variables within the
    /// store's domains (variables `vars[k..]` still to assign).
    fn holds_everywhere(
        def: &LinearDef,
        store: &Store,
        vars: &[usize],
        values: &mut [u32],
    ) -> bool {
        let Some((&v, rest)) = vars.split_first() else {
            return def.cmp.holds(def.sum(values), i128::from(def.rhs));
        };
        store.iter(v).collect::<Vec<_>>().into_iter().all(|i| {
            values[v] = i;
            holds_everywhere(def, store, rest, values)
        })
    }

    /// Every change a sum makes, and its failures, explained and checked: with holes in
    /// the domains, an equality can fail where its bounds leave room (it then gives up,
    /// for the engine's fallback, rather than blame the bounds alone).
    #[cfg(feature = "debug-checks")]
    #[test]
    fn sums_explain_what_they_prune() {
        let cmps = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
        crate::propagators::checker::tests::fuzz_explanations(3000, |rng| {
            let mut m = Model::new();
            let vars: Vec<_> = (0..1 + rng.below(3))
                .map(|_| {
                    let low = rng.below(5) as i64 - 2;
                    m.var(low..low + 1 + rng.below(5) as i64)
                })
                .collect();
            let terms: Vec<(i64, _)> = vars.iter().map(|v| (rng.below(7) as i64 - 3, v)).collect();
            m.linear(terms, cmps[rng.below(6) as usize], rng.below(9) as i64 - 4);
            m
        });
    }

    #[test]
    fn a_run_is_its_own_fixpoint_and_entailment_means_every_assignment_holds() {
        let cmps = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
        let mut entailed = 0;
        for case in 0..3000u64 {
            let mut rng = Rng::new(case + 1);
            let mut m = Model::new();
            let n = 1 + rng.below(3) as usize;
            let vars: Vec<_> = (0..n)
                .map(|_| match rng.below(3) {
                    0 => m.var([3i64, 1, 1, 4]),
                    1 => m.var([2i64, 0, -1]),
                    _ => {
                        let low = rng.below(5) as i64 - 2;
                        m.var(low..low + 1 + rng.below(4) as i64)
                    }
                })
                .collect();
            let terms: Vec<(i64, _)> = vars.iter().map(|v| (rng.below(7) as i64 - 3, v)).collect();
            let cmp = cmps[rng.below(6) as usize];
            m.linear(terms, cmp, rng.below(9) as i64 - 4);
            let Some(Constraint::Linear(def)) = m.constraints().first() else {
                continue;
            };
            let domains = random_domains(&m, &mut rng);
            let mut store = Store::with_domains(m.universes(), |v| Some(&domains[v]));
            let mut linear = Linear::new(def);
            if linear.propagate(&mut store).is_err() {
                continue;
            }
            let sizes = |s: &Store| (0..s.num_vars()).map(|v| s.size(v)).collect::<Vec<_>>();
            let first = sizes(&store);
            let vars: Vec<usize> = def.terms.iter().map(|t| t.0.index()).collect();
            // A run decides what it fixed (a reified sum trusts it, see `settled`).
            if vars.iter().all(|&v| store.is_fixed(v)) {
                assert!(
                    holds_everywhere(def, &store, &vars, &mut vec![0; m.num_vars()]),
                    "case {case}: every term fixed, the sum false, and no failure"
                );
            }
            if linear.entailed() {
                entailed += 1;
                assert!(
                    holds_everywhere(def, &store, &vars, &mut vec![0; m.num_vars()]),
                    "case {case}: entailed, but an assignment left breaks it"
                );
            }
            let again = linear.propagate(&mut store);
            assert!(
                again.is_ok() && sizes(&store) == first,
                "case {case}: a second run narrowed"
            );
        }
        assert!(entailed > 300, "{entailed} entailed cases");
    }
}
