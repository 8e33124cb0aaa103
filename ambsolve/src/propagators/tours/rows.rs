//! A matrix of bits, one row per variable and one column per value (a node, a position):
//! the domains the tour propagators reason on, read from the store and written back.

use crate::choice::Fail;
use crate::propagators::view::{IntView, Shape};
use crate::store::Store;

/// `rows × cols` bits, each row in whole words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Rows {
    cols: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Rows {
    pub(super) fn new(rows: usize, cols: usize) -> Self {
        let words = cols.div_ceil(64);
        Rows {
            cols,
            words,
            bits: vec![0; rows * words],
        }
    }

    /// The number of columns.
    pub(super) fn cols(&self) -> usize {
        self.cols
    }

    fn row(&self, r: usize) -> &[u64] {
        &self.bits[r * self.words..(r + 1) * self.words]
    }

    #[inline]
    pub(super) fn has(&self, r: usize, c: usize) -> bool {
        self.bits[r * self.words + c / 64] & (1 << (c % 64)) != 0
    }

    #[inline]
    pub(super) fn set(&mut self, r: usize, c: usize) {
        self.bits[r * self.words + c / 64] |= 1 << (c % 64);
    }

    /// Clears bit `c` of row `r`; returns whether it was set.
    #[inline]
    pub(super) fn unset(&mut self, r: usize, c: usize) -> bool {
        let word = &mut self.bits[r * self.words + c / 64];
        let was = *word & (1 << (c % 64)) != 0;
        *word &= !(1 << (c % 64));
        was
    }

    /// Clears every bit of row `r`.
    pub(super) fn clear(&mut self, r: usize) {
        self.bits[r * self.words..(r + 1) * self.words].fill(0);
    }

    /// The number of bits set in row `r`.
    pub(super) fn count(&self, r: usize) -> u32 {
        self.row(r).iter().map(|w| w.count_ones()).sum()
    }

    /// The first bit set in row `r` at or after column `from`.
    pub(super) fn next(&self, r: usize, from: usize) -> Option<usize> {
        if from >= self.cols {
            return None;
        }
        let row = self.row(r);
        let mut w = from / 64;
        let mut word = row[w] & (u64::MAX << (from % 64));
        loop {
            if word != 0 {
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
            w += 1;
            if w == row.len() {
                return None;
            }
            word = row[w];
        }
    }

    /// The only bit set in row `r`, if exactly one is.
    pub(super) fn single(&self, r: usize) -> Option<usize> {
        let first = self.next(r, 0)?;
        self.next(r, first + 1).is_none().then_some(first)
    }

    /// The bits set in row `r`, in order.
    pub(super) fn iter(&self, r: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            let c = self.next(r, at)?;
            at = c + 1;
            Some(c)
        })
    }
}

/// Reads the values of `view` into row `r` of `rows`, value `v` as column `column(v)`.
/// Returns whether some value has no column.
///
/// # Errors
/// [`Fail`] if the domain is empty.
pub(super) fn read_row(
    view: &IntView,
    store: &Store,
    rows: &mut Rows,
    r: usize,
    column: impl Fn(i64) -> Option<usize>,
) -> Result<bool, Fail> {
    rows.clear(r);
    let mut outside = false;
    let mut put = |value: i64| match column(value) {
        Some(c) => rows.set(r, c),
        None => outside = true,
    };
    match view {
        IntView::Const(c) => put(*c),
        IntView::Var { var, images, .. } => {
            if store.size(*var) == 0 {
                return Err(Fail);
            }
            store.iter(*var).for_each(|i| put(images.get(i as usize)));
        }
    }
    Ok(outside)
}

/// Reads `view` into row `r` as [`read_row`] does with [`shifted`] columns: a variable
/// whose values are `offset, offset + 1, ..` in index order has its words copied.
///
/// # Errors
/// [`Fail`] if the domain is empty.
pub(super) fn read_row_from(
    view: &IntView,
    store: &Store,
    offset: i64,
    rows: &mut Rows,
    r: usize,
) -> Result<bool, Fail> {
    let cols = rows.cols;
    let IntView::Var {
        var,
        shape: Shape::Consecutive(first),
        ..
    } = view
    else {
        return read_row(view, store, rows, r, |value| shifted(value, offset, cols));
    };
    if *first != offset {
        return read_row(view, store, rows, r, |value| shifted(value, offset, cols));
    }
    if store.size(*var) == 0 {
        return Err(Fail);
    }
    let (words, have) = (rows.words, store.num_words(*var));
    let mut outside = (words..have).any(|w| store.word(*var, w) != 0);
    for w in 0..words {
        let mut word = if w < have { store.word(*var, w) } else { 0 };
        if w == words - 1 && cols % 64 != 0 {
            let mask = (1u64 << (cols % 64)) - 1;
            outside |= word & !mask != 0;
            word &= mask;
        }
        rows.bits[r * words + w] = word;
    }
    Ok(outside)
}

/// The column of `value` among the columns `0..cols` that stand for `offset, offset + 1, ..`.
pub(super) fn shifted(value: i64, offset: i64, cols: usize) -> Option<usize> {
    let c = i128::from(value) - i128::from(offset);
    (0..cols as i128).contains(&c).then_some(c as usize)
}

/// Removes from `view` the values of row `r` of `before` that row `r` of `after` lost
/// (column `c` standing for `value(c)`). Returns whether the store changed.
///
/// # Errors
/// [`Fail`] if nothing is left.
pub(super) fn write_row(
    view: &IntView,
    store: &mut Store,
    before: &Rows,
    after: &Rows,
    r: usize,
    value: impl Fn(usize) -> i128,
) -> Result<bool, Fail> {
    let mut changed = false;
    for c in before.iter(r) {
        if !after.has(r, c) {
            changed |= view.remove(store, value(c))?;
        }
    }
    Ok(changed)
}
