//! Views of store variables as the new propagators read them: a literal's truth, and an
//! integer argument's values (a constant, or a variable's images) with bounds reasoning.
//!
//! An integer view finds the indices to remove from the images' shape: consecutive
//! images (ranges) by arithmetic, rising or falling ones by binary search, so that moving
//! a bound costs the words it clears; mixed images are visited value by value.

use crate::choice::Fail;
use crate::domain::Bits;
use crate::model::{Images, Int, Lit, Trend};
use crate::store::{Atoms, Pred, Rel, Store};

/// A literal over a store variable.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LitView {
    pub(crate) var: usize,
    when_true: Option<u32>,
    when_false: Option<u32>,
}

impl LitView {
    pub(crate) fn new(lit: &Lit) -> Self {
        LitView {
            var: lit.var.index(),
            when_true: lit.when_true,
            when_false: lit.when_false,
        }
    }

    /// The value index that makes the literal true, if its variable has one.
    pub(crate) fn when_true(&self) -> Option<u32> {
        self.when_true
    }

    /// The value index that makes it false, if its variable has one.
    pub(crate) fn when_false(&self) -> Option<u32> {
        self.when_false
    }

    /// The literal's value once its variable is fixed (or has only one of its truth
    /// values left).
    #[inline]
    pub(crate) fn value(&self, store: &Store) -> Option<bool> {
        let can_be_true = self.when_true.is_some_and(|i| store.contains(self.var, i));
        let can_be_false = self.when_false.is_some_and(|i| store.contains(self.var, i));
        match (can_be_true, can_be_false) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        }
    }

    /// For a search that learns: the literal's value now (its variable fixed to the value
    /// that makes it true or false), and the predicate saying so; `None` otherwise.
    pub(crate) fn fixed_pred(&self, atoms: &Atoms) -> Option<(bool, Pred)> {
        let (t, f) = (self.when_true?, self.when_false?);
        let (low, high) = atoms.ends_now(self.var);
        if low != high {
            return None;
        }
        if low == t {
            Some((true, Pred::eq(self.var, t)))
        } else if low == f {
            Some((false, Pred::eq(self.var, f)))
        } else {
            None
        }
    }

    /// Makes the literal `value`. Returns whether the domain changed; fails if the
    /// literal cannot take it.
    #[inline]
    pub(crate) fn set(&self, store: &mut Store, value: bool) -> Result<bool, Fail> {
        let (keep, drop) = if value {
            (self.when_true, self.when_false)
        } else {
            (self.when_false, self.when_true)
        };
        match (keep, drop) {
            (None, _) => Err(Fail),
            (Some(k), _) if !store.contains(self.var, k) => Err(Fail),
            (Some(_), Some(d)) => store.remove(self.var, d),
            (Some(_), None) => Ok(false),
        }
    }
}

/// How a variable's images run along its value indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `first, first + 1, ..`: index and value differ by `first`.
    Consecutive(i64),
    /// Never down.
    Rising,
    /// Never up.
    Falling,
    /// Both ways.
    Mixed,
}

/// The values left of an [`IntView`], in index order (no allocation).
pub(crate) struct Values<'s> {
    /// A constant's one value, before anything else.
    constant: Option<i64>,
    indices: Bits<'s>,
    images: &'s Images,
}

impl Iterator for Values<'_> {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        if let Some(c) = self.constant.take() {
            return Some(c);
        }
        self.indices.next().map(|i| self.images.get(i as usize))
    }
}

/// The images of no value (what a constant's [`Values`] read).
static NO_IMAGES: Images = Images::Range { first: 0, len: 0 };

/// What a change of a variable says of a view over it ([`IntView::change`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Change {
    AtLeast(i128),
    AtMost(i128),
    Lacks(i128),
}

/// An integer argument over a store: a constant, or a variable read through its images.
#[derive(Clone, Debug)]
pub(crate) enum IntView {
    Const(i64),
    Var {
        var: usize,
        images: Images,
        shape: Shape,
    },
}

impl IntView {
    pub(crate) fn new(int: &Int) -> Self {
        match int {
            Int::Const(c) => IntView::Const(*c),
            Int::Var { var, images } => {
                let shape = match images.consecutive_start() {
                    Some(first) => Shape::Consecutive(first),
                    None => match images.trend() {
                        Trend::Rising => Shape::Rising,
                        Trend::Falling => Shape::Falling,
                        Trend::Mixed => Shape::Mixed,
                    },
                };
                IntView::Var {
                    var: var.index(),
                    images: images.clone(),
                    shape,
                }
            }
        }
    }

    /// The store variable, if it is one.
    pub(crate) fn var(&self) -> Option<usize> {
        match self {
            IntView::Const(_) => None,
            IntView::Var { var, .. } => Some(*var),
        }
    }

    /// Whether `self` and `other` are the same variable or the same constant.
    pub(crate) fn same_as(&self, other: &IntView) -> bool {
        match (self, other) {
            (IntView::Const(x), IntView::Const(y)) => x == y,
            _ => self.var().is_some() && self.var() == other.var(),
        }
    }

    /// The smallest value left.
    ///
    /// # Errors
    /// [`Fail`] if the domain is empty.
    #[inline]
    pub(crate) fn min(&self, store: &Store) -> Result<i64, Fail> {
        match self {
            IntView::Const(c) => Ok(*c),
            IntView::Var { var, images, shape } => match shape {
                Shape::Consecutive(first) => Ok(first + i64::from(store.min(*var).ok_or(Fail)?)),
                Shape::Rising => Ok(images.get(store.min(*var).ok_or(Fail)? as usize)),
                Shape::Falling => Ok(images.get(store.max(*var).ok_or(Fail)? as usize)),
                Shape::Mixed => store
                    .iter(*var)
                    .map(|i| images.get(i as usize))
                    .min()
                    .ok_or(Fail),
            },
        }
    }

    /// The largest value left.
    ///
    /// # Errors
    /// [`Fail`] if the domain is empty.
    #[inline]
    pub(crate) fn max(&self, store: &Store) -> Result<i64, Fail> {
        match self {
            IntView::Const(c) => Ok(*c),
            IntView::Var { var, images, shape } => match shape {
                Shape::Consecutive(first) => Ok(first + i64::from(store.max(*var).ok_or(Fail)?)),
                Shape::Rising => Ok(images.get(store.max(*var).ok_or(Fail)? as usize)),
                Shape::Falling => Ok(images.get(store.min(*var).ok_or(Fail)? as usize)),
                Shape::Mixed => store
                    .iter(*var)
                    .map(|i| images.get(i as usize))
                    .max()
                    .ok_or(Fail),
            },
        }
    }

    /// The value, once only one is left.
    #[inline]
    pub(crate) fn fixed(&self, store: &Store) -> Option<i64> {
        match self {
            IntView::Const(c) => Some(*c),
            IntView::Var { var, images, .. } if store.is_fixed(*var) => {
                store.min(*var).map(|i| images.get(i as usize))
            }
            // Distinct images: two indices left are two values.
            IntView::Var {
                shape: Shape::Consecutive(_),
                ..
            } => None,
            IntView::Var { .. } => {
                let (low, high) = (self.min(store).ok()?, self.max(store).ok()?);
                (low == high).then_some(low)
            }
        }
    }

    /// Whether `value` is left.
    pub(crate) fn contains(&self, store: &Store, value: i128) -> bool {
        match self {
            IntView::Const(c) => i128::from(*c) == value,
            IntView::Var { var, images, shape } => match shape {
                Shape::Consecutive(first) => {
                    let index = value - i128::from(*first);
                    (0..images.len() as i128).contains(&index) && store.contains(*var, index as u32)
                }
                Shape::Rising | Shape::Falling => {
                    let (from, to) = self.indices_within(value, value);
                    (from..to).any(|i| store.contains(*var, i))
                }
                Shape::Mixed => store
                    .iter(*var)
                    .any(|i| i128::from(images.get(i as usize)) == value),
            },
        }
    }

    /// The number of values left (of value indices, for a variable whose images repeat).
    pub(crate) fn size(&self, store: &Store) -> u32 {
        match self {
            IntView::Const(_) => 1,
            IntView::Var { var, .. } => store.size(*var),
        }
    }

    /// Whether no two value indices have the same image (a constant, or consecutive
    /// images; other views may repeat).
    pub(crate) fn distinct(&self) -> bool {
        matches!(
            self,
            IntView::Const(_)
                | IntView::Var {
                    shape: Shape::Consecutive(_),
                    ..
                }
        )
    }

    /// Every value left, in index order (values repeat where images do).
    pub(crate) fn values<'s>(&'s self, store: &'s Store) -> Values<'s> {
        match self {
            IntView::Const(c) => Values {
                constant: Some(*c),
                indices: Bits::new(&[]),
                images: &NO_IMAGES,
            },
            IntView::Var { var, images, .. } => Values {
                constant: None,
                indices: store.iter(*var),
                images,
            },
        }
    }

    /// Whether explanations can read it by its bounds: a constant, or a variable whose
    /// images never go down (its least value is at its least index).
    pub(crate) fn explainable(&self) -> bool {
        match self {
            IntView::Const(_) => true,
            IntView::Var { shape, .. } => {
                matches!(shape, Shape::Consecutive(_) | Shape::Rising)
            }
        }
    }

    /// Its least and largest values before trail position `at` (for an
    /// [`explainable`](Self::explainable) view).
    pub(crate) fn bounds_before(&self, atoms: &Atoms, at: u32) -> (i128, i128) {
        match self {
            IntView::Const(c) => (i128::from(*c), i128::from(*c)),
            IntView::Var { var, images, .. } => {
                let (low, high) = atoms.ends_before(*var, at);
                (
                    i128::from(images.get(low as usize)),
                    i128::from(images.get(high as usize)),
                )
            }
        }
    }

    /// The image of value index `index` (a variable's).
    pub(crate) fn image(&self, index: u32) -> i128 {
        match self {
            IntView::Const(c) => i128::from(*c),
            IntView::Var { images, .. } => i128::from(images.get(index as usize)),
        }
    }

    /// The value indices whose image is `value`, rising (none for a constant).
    pub(crate) fn indices_of(&self, value: i128) -> smallvec::SmallVec<[u32; 2]> {
        match self {
            IntView::Const(_) => smallvec::SmallVec::new(),
            IntView::Var { images, shape, .. } => match shape {
                Shape::Mixed => (0..images.len() as u32)
                    .filter(|&i| i128::from(images.get(i as usize)) == value)
                    .collect(),
                _ => {
                    let (from, to) = self.indices_within(value, value);
                    (from..to).collect()
                }
            },
        }
    }

    /// For a search that learns: whether it could take `value` before trail position
    /// `at`.
    pub(crate) fn had_before(&self, atoms: &Atoms, at: u32, value: i128) -> bool {
        match self {
            IntView::Const(c) => i128::from(*c) == value,
            IntView::Var { var, .. } => self
                .indices_of(value)
                .iter()
                .any(|&i| !atoms.absent_before(*var, i, at)),
        }
    }

    /// For a search that learns: what `pred` (over its variable, made at trail position
    /// `at`) says of it, for an [`explainable`](Self::explainable) view. For an end, the
    /// bound just past the last value left before it: the store's holes make the rest.
    pub(crate) fn change(&self, atoms: &Atoms, at: u32, pred: Pred) -> Option<Change> {
        let var = pred.var as usize;
        Some(match pred.rel {
            Rel::Ge => Change::AtLeast(self.image(atoms.left_below(var, pred.value, at)) + 1),
            Rel::Le => Change::AtMost(self.image(atoms.left_above(var, pred.value, at)) - 1),
            Rel::Ne => Change::Lacks(self.image(pred.value)),
            Rel::Eq => return None,
        })
    }

    /// For a search that learns: appends why it lacked `value` before trail position
    /// `at` (its ends, or holes); `false` if it had it.
    pub(crate) fn explain_lacks(
        &self,
        atoms: &Atoms,
        at: u32,
        value: i128,
        out: &mut Vec<Pred>,
    ) -> bool {
        let Some(var) = self.var() else {
            return !self.had_before(atoms, at, value);
        };
        let indices = self.indices_of(value);
        if indices.iter().any(|&i| !atoms.absent_before(var, i, at)) {
            return false;
        }
        atoms.explain_gone(var, at, indices.into_iter(), out);
        true
    }

    /// Appends the predicates that say it lies in `least..=most` (for an
    /// [`explainable`](Self::explainable) view; a constant needs none).
    pub(crate) fn explain_within(&self, least: i128, most: i128, out: &mut Vec<Pred>) {
        let IntView::Var { var, images, .. } = self else {
            return;
        };
        let (from, to) = self.indices_within(least, most);
        debug_assert!(
            from < to,
            "a view explained within {least}..={most}, an empty range"
        );
        if from > 0 {
            out.push(Pred::ge(*var, from));
        }
        if (to as usize) < images.len() {
            out.push(Pred::le(*var, to.saturating_sub(1)));
        }
    }

    /// For rising or falling images: the index range `from..to` whose images lie in
    /// `least..=most` (for a constant or mixed images: nothing meaningful, `0..0`).
    pub(crate) fn indices_within(&self, least: i128, most: i128) -> (u32, u32) {
        let IntView::Var { images, shape, .. } = self else {
            return (0, 0);
        };
        let len = images.len() as i128;
        let (from, to) = match shape {
            Shape::Consecutive(first) => {
                let first = i128::from(*first);
                (
                    (least.saturating_sub(first)).clamp(0, len),
                    (most.saturating_sub(first).saturating_add(1)).clamp(0, len),
                )
            }
            Shape::Rising => (
                images.partition_point(|x| i128::from(x) < least) as i128,
                images.partition_point(|x| i128::from(x) <= most) as i128,
            ),
            Shape::Falling => (
                images.partition_point(|x| i128::from(x) > most) as i128,
                images.partition_point(|x| i128::from(x) >= least) as i128,
            ),
            Shape::Mixed => (0, 0),
        };
        (from as u32, to.max(from) as u32)
    }

    /// Keeps the values within `least..=most`. Returns whether anything was removed.
    ///
    /// # Errors
    /// [`Fail`] if nothing is left.
    pub(crate) fn keep_within(
        &self,
        store: &mut Store,
        least: i128,
        most: i128,
    ) -> Result<bool, Fail> {
        match self {
            IntView::Const(c) => {
                if (least..=most).contains(&i128::from(*c)) {
                    Ok(false)
                } else {
                    Err(Fail)
                }
            }
            IntView::Var { var, images, shape } => {
                let var = *var;
                if *shape == Shape::Mixed {
                    return store.retain(var, |i| {
                        (least..=most).contains(&i128::from(images.get(i as usize)))
                    });
                }
                let (from, to) = self.indices_within(least, most);
                if from >= to {
                    return Err(Fail);
                }
                let (low, high) = (store.min(var).ok_or(Fail)?, store.max(var).ok_or(Fail)?);
                if from > high || to <= low {
                    return Err(Fail);
                }
                let before = store.size(var);
                if from > low {
                    store.remove_range(var, low, from - 1)?;
                }
                if to <= high {
                    store.remove_range(var, to, high)?;
                }
                Ok(store.size(var) != before)
            }
        }
    }

    /// Removes the values below `least`.
    ///
    /// # Errors
    /// [`Fail`] if nothing is left.
    #[inline]
    pub(crate) fn set_min(&self, store: &mut Store, least: i128) -> Result<bool, Fail> {
        self.keep_within(store, least, i128::MAX)
    }

    /// Removes the values above `most`.
    ///
    /// # Errors
    /// [`Fail`] if nothing is left.
    #[inline]
    pub(crate) fn set_max(&self, store: &mut Store, most: i128) -> Result<bool, Fail> {
        self.keep_within(store, i128::MIN, most)
    }

    /// Keeps only `value`.
    ///
    /// # Errors
    /// [`Fail`] if it is not left.
    pub(crate) fn fix(&self, store: &mut Store, value: i128) -> Result<bool, Fail> {
        self.keep_within(store, value, value)
    }

    /// Removes `value`. Returns whether it was there.
    ///
    /// # Errors
    /// [`Fail`] if nothing is left.
    pub(crate) fn remove(&self, store: &mut Store, value: i128) -> Result<bool, Fail> {
        match self {
            IntView::Const(c) if i128::from(*c) == value => Err(Fail),
            IntView::Const(_) => Ok(false),
            IntView::Var { var, images, shape } => {
                let var = *var;
                if *shape == Shape::Mixed {
                    return store.retain(var, |i| i128::from(images.get(i as usize)) != value);
                }
                let (from, to) = self.indices_within(value, value);
                let mut removed = false;
                for index in from..to {
                    removed |= store.remove(var, index)?;
                }
                Ok(removed)
            }
        }
    }

    /// Keeps only the values of `values` (sorted, distinct), at a cost per value of
    /// `values` and per word between them where the images are consecutive (a domain of
    /// billions of values cut to a few), per value left otherwise.
    ///
    /// # Errors
    /// [`Fail`] if none is left.
    pub(crate) fn keep_only(&self, store: &mut Store, values: &[i64]) -> Result<bool, Fail> {
        let IntView::Var {
            var,
            shape: Shape::Consecutive(first),
            ..
        } = self
        else {
            return self.retain(store, |v| values.binary_search(&v).is_ok());
        };
        let (var, first) = (*var, i128::from(*first));
        let universe = i128::from(store.universe(var));
        let kept: smallvec::SmallVec<[u32; 16]> = values
            .iter()
            .map(|&v| i128::from(v) - first)
            .filter(|i| (0..universe).contains(i) && store.contains(var, *i as u32))
            .map(|i| i as u32)
            .collect();
        let Some((&lowest, rest)) = kept.split_first() else {
            return Err(Fail);
        };
        let size = store.size(var);
        let (low, high) = (store.min(var).ok_or(Fail)?, store.max(var).ok_or(Fail)?);
        if lowest > low {
            store.remove_range(var, low, lowest - 1)?;
        }
        let mut last = lowest;
        for &index in rest {
            if index > last + 1 {
                store.remove_range(var, last + 1, index - 1)?;
            }
            last = index;
        }
        if last < high {
            store.remove_range(var, last + 1, high)?;
        }
        Ok(store.size(var) != size)
    }

    /// Keeps the values for which `keep` holds. Returns whether anything was removed.
    ///
    /// # Errors
    /// [`Fail`] if nothing is left.
    pub(crate) fn retain(
        &self,
        store: &mut Store,
        mut keep: impl FnMut(i64) -> bool,
    ) -> Result<bool, Fail> {
        match self {
            IntView::Const(c) if keep(*c) => Ok(false),
            IntView::Const(_) => Err(Fail),
            IntView::Var { var, images, .. } => {
                store.retain(*var, |i| keep(images.get(i as usize)))
            }
        }
    }
}

/// Whether a propagator over `views` (whose variables are `vars`) can explain by bounds:
/// no variable stands twice (an explanation reads each view's bounds alone) and every
/// view is [`explainable`](IntView::explainable).
pub(crate) fn all_explainable<'v>(
    vars: &[crate::var::VarId],
    views: impl IntoIterator<Item = &'v IntView>,
) -> bool {
    let mut sorted = vars.to_vec();
    sorted.sort_unstable();
    let repeats = sorted.windows(2).any(|w| w[0] == w[1]);
    !repeats && views.into_iter().all(IntView::explainable)
}
