//! Domain consistency of `z = f(x, y)` once few values are left: every pair of values of
//! `x` and `y` is read, and each value no pair supports is removed.

use crate::choice::Fail;
use crate::propagators::view::{IntView, Shape};
use crate::store::Store;

#[cfg(test)]
thread_local! {
    /// Set by tests of bounds reasoning alone: [`exact`] then does nothing.
    pub(crate) static BOUNDS_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Pairs of values read at most, per propagation.
pub(crate) const PAIRS: u64 = 4096;
/// A result with at most this many values left is pruned value by value (beyond, only its
/// bounds).
pub(crate) const LISTED: u32 = 4096;

/// The values left of a view with their value indices (a constant: index 0).
pub(crate) fn entries(view: &IntView, store: &Store) -> Vec<(u32, i64)> {
    let mut out = Vec::new();
    entries_into(view, store, &mut out);
    out
}

/// [`entries`] into `out` (emptied first), for a propagator that keeps its buffers.
pub(crate) fn entries_into(view: &IntView, store: &Store, out: &mut Vec<(u32, i64)>) {
    out.clear();
    match view {
        IntView::Const(c) => out.push((0, *c)),
        IntView::Var { var, images, .. } => {
            out.extend(store.iter(*var).map(|i| (i, images.get(i as usize))));
        }
    }
}

/// Membership in a view's values left, read cheaply: through the view's order where the
/// values rise or fall along the indices and are many, else through a sorted copy.
pub(crate) enum Members<'v> {
    Sorted(Vec<i64>),
    View(&'v IntView),
}

impl<'v> Members<'v> {
    pub(crate) fn new(view: &'v IntView, store: &Store) -> Self {
        Self::reusing(view, store, Vec::new())
    }

    /// [`Members::new`], the sorted copy made in `buffer` (see [`Members::buffer`]).
    pub(crate) fn reusing(view: &'v IntView, store: &Store, mut buffer: Vec<i64>) -> Self {
        match view {
            IntView::Var { shape, .. } if *shape != Shape::Mixed && view.size(store) > LISTED => {
                Members::View(view)
            }
            _ => {
                buffer.clear();
                buffer.extend(view.values(store));
                buffer.sort_unstable();
                buffer.dedup();
                Members::Sorted(buffer)
            }
        }
    }

    /// The sorted copy's buffer back, for the next [`Members::reusing`].
    pub(crate) fn buffer(self) -> Vec<i64> {
        match self {
            Members::Sorted(values) => values,
            Members::View(_) => Vec::new(),
        }
    }

    /// Whether `value` is left.
    pub(crate) fn contains(&self, store: &Store, value: i128) -> bool {
        match self {
            Members::Sorted(values) => {
                i64::try_from(value).is_ok_and(|v| values.binary_search(&v).is_ok())
            }
            Members::View(view) => view.contains(store, value),
        }
    }
}

/// Keeps, of `view`'s values `entries`, those marked in `keep`.
///
/// # Errors
/// [`Fail`] if none is.
pub(crate) fn keep_marked(
    view: &IntView,
    store: &mut Store,
    entries: &[(u32, i64)],
    keep: &[bool],
) -> Result<(), Fail> {
    if keep.iter().all(|&k| k) {
        return Ok(());
    }
    if !keep.iter().any(|&k| k) {
        return Err(Fail);
    }
    if let IntView::Var { var, .. } = view {
        for (&(index, _), _) in entries.iter().zip(keep).filter(|(_, k)| !**k) {
            store.remove(*var, index)?;
        }
    }
    Ok(())
}

/// `z` keeps only the values of `sources`, where few are left: at most [`PAIRS`] of
/// theirs in all and at most [`LISTED`] of its own.
///
/// # Errors
/// [`Fail`] if none is left.
pub(crate) fn keep_values_of<'v>(
    z: &IntView,
    store: &mut Store,
    sources: impl Iterator<Item = &'v IntView> + Clone,
) -> Result<(), Fail> {
    keep_values_of_in(z, store, sources, &mut Vec::new())
}

/// [`keep_values_of`], the values gathered in `values` (a buffer the caller keeps).
///
/// # Errors
/// [`Fail`] if none is left.
pub(crate) fn keep_values_of_in<'v>(
    z: &IntView,
    store: &mut Store,
    sources: impl Iterator<Item = &'v IntView> + Clone,
    values: &mut Vec<i64>,
) -> Result<(), Fail> {
    if z.var().is_none() {
        return Ok(());
    }
    let (total, count) = sources.clone().fold((0u64, 0u64), |(t, c), s| {
        (t + u64::from(s.size(store)), c + 1)
    });
    let own = z.size(store);
    if total > PAIRS || own > LISTED {
        return Ok(());
    }
    values.clear();
    if u64::from(own) * count <= 2 * total {
        // Few values of `z` against the sources': each of `z`'s is looked up in them (a
        // value left is mostly found in the first few), and none of theirs is sorted.
        values.extend(z.values(store));
        let before = values.len();
        values.retain(|&w| sources.clone().any(|s| s.contains(store, i128::from(w))));
        if values.len() == before {
            return Ok(());
        }
    } else {
        // `z`'s values within a narrow range: a bitmap of the sources' values in it (in
        // the buffer's words), not a sort of all their values.
        let (low, high) = (z.min(store)?, z.max(store)?);
        let span = high.abs_diff(low);
        if span < u64::from(LISTED) * 4 {
            let words = (span / 64 + 1) as usize;
            values.resize(words, 0);
            for w in sources.flat_map(|s| s.values(store)) {
                if (low..=high).contains(&w) {
                    let bit = (w - low) as u64;
                    values[(bit / 64) as usize] |= 1 << (bit % 64);
                }
            }
            z.retain(store, |w| {
                let bit = (w - low) as u64;
                values[(bit / 64) as usize] & (1 << (bit % 64)) != 0
            })?;
            return Ok(());
        }
        values.extend(sources.flat_map(|s| s.values(store)));
    }
    values.sort_unstable();
    values.dedup();
    z.retain(store, |w| values.binary_search(&w).is_ok())?;
    Ok(())
}

/// `item` keeps only the values `z` has, where it has at most [`LISTED`] left.
///
/// # Errors
/// [`Fail`] if none is left.
pub(crate) fn keep_members_of(item: &IntView, store: &mut Store, z: &IntView) -> Result<(), Fail> {
    if item.size(store) > LISTED {
        return Ok(());
    }
    let members = Members::new(z, store);
    let values = entries(item, store);
    let keep: Vec<bool> = values
        .iter()
        .map(|&(_, v)| members.contains(store, i128::from(v)))
        .collect();
    keep_marked(item, store, &values, &keep)
}

/// Where `z`'s variable stands among `x` and `y`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Result3 {
    /// Its own variable, or a constant.
    Own,
    /// The variable of `x`: its value must be `x`'s.
    IsX,
    /// The variable of `y`.
    IsY,
}

/// Reads every pair `(a, b)` of `x`'s and `y`'s values left (a variable used for both
/// reads its own value twice) and keeps the values of `x`, `y` and `z` that a pair with
/// `f(a, b)` left in `z` uses (`None`: undefined, no support). `z` keeps its values one by
/// one if it has at most [`LISTED`] left, else its bounds. Returns `Ok(false)`, having
/// done nothing, when more than [`PAIRS`] pairs are left.
///
/// # Errors
/// [`Fail`] if no pair is left.
pub(crate) fn exact(
    store: &mut Store,
    x: &IntView,
    y: &IntView,
    z: &IntView,
    f: impl Fn(i64, i64) -> Option<i128>,
) -> Result<bool, Fail> {
    #[cfg(test)]
    if BOUNDS_ONLY.with(std::cell::Cell::get) {
        return Ok(false);
    }
    let same = x.var().is_some() && x.var() == y.var();
    let (sx, sy) = (u64::from(x.size(store)), u64::from(y.size(store)));
    if (if same { sx } else { sx * sy }) > PAIRS {
        return Ok(false);
    }
    let role = match z.var() {
        Some(v) if x.var() == Some(v) => Result3::IsX,
        Some(v) if y.var() == Some(v) => Result3::IsY,
        _ => Result3::Own,
    };
    let (xs, ys) = (entries(x, store), entries(y, store));
    let (mut x_ok, mut y_ok) = (vec![false; xs.len()], vec![false; ys.len()]);
    let mut found: Vec<i64> = Vec::new();
    {
        let members = Members::new(z, store);
        let mut read = |k: usize, l: usize| {
            let (a, b) = (xs[k].1, ys[l].1);
            let Some(w) = f(a, b) else {
                return;
            };
            let supported = match role {
                Result3::IsX => w == i128::from(a),
                Result3::IsY => w == i128::from(b),
                Result3::Own => members.contains(store, w),
            };
            if supported {
                x_ok[k] = true;
                y_ok[l] = true;
                // Left in z, so an i64.
                found.push(w as i64);
            }
        };
        if same {
            (0..xs.len()).for_each(|k| read(k, k));
        } else {
            for k in 0..xs.len() {
                for l in 0..ys.len() {
                    read(k, l);
                }
            }
        }
    }
    if found.is_empty() {
        return Err(Fail);
    }
    keep_marked(x, store, &xs, &x_ok)?;
    keep_marked(y, store, &ys, &y_ok)?;
    if role == Result3::Own {
        found.sort_unstable();
        found.dedup();
        let (low, high) = (found[0], found[found.len() - 1]);
        z.keep_within(store, i128::from(low), i128::from(high))?;
        if z.size(store) <= LISTED {
            z.retain(store, |w| found.binary_search(&w).is_ok())?;
        }
    }
    Ok(true)
}
