//! `inverse(f, g)`, domain consistent: `f[i]` keeps `j` only while `g[j]` keeps `i` (and
//! the other way), and `f` is kept all different by a matching. Once the two agree, every
//! value left is used by a solution: a matching of `f` is a permutation whose inverse
//! `g` can take.

use crate::choice::Fail;
use crate::model::Inverse;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::tours::matching::Matching;
use crate::propagators::tours::rows::{Rows, read_row, shifted, write_row};
use crate::propagators::view::IntView;
use crate::store::Store;
use crate::var::VarId;

pub(crate) struct InverseProp {
    f: Vec<IntView>,
    f_offset: i64,
    g: Vec<IntView>,
    g_offset: i64,
    /// Some variable stands at two positions: read again after a change.
    shared: bool,
    scope: Vec<VarId>,
    /// Row `i`: the positions of `g` that `f[i]` may name; and the other way.
    fd: Rows,
    gd: Rows,
    f_before: Rows,
    g_before: Rows,
    all: Vec<usize>,
    matching: Matching,
}

impl InverseProp {
    pub(crate) fn new(def: &Inverse) -> Self {
        let (nf, ng) = (def.f.len(), def.g.len());
        let mut vars = def.vars.clone();
        vars.sort_unstable();
        vars.dedup();
        InverseProp {
            f: def.f.iter().map(IntView::new).collect(),
            f_offset: def.f_offset,
            g: def.g.iter().map(IntView::new).collect(),
            g_offset: def.g_offset,
            shared: vars.len() < def.vars.len(),
            scope: def.vars.clone(),
            fd: Rows::new(nf, ng),
            gd: Rows::new(ng, nf),
            f_before: Rows::new(nf, ng),
            g_before: Rows::new(ng, nf),
            all: (0..nf).collect(),
            matching: Matching::default(),
        }
    }
}

/// Reads `items` into `rows`, their values naming positions numbered from `offset`; a
/// value naming no position is removed from the store first. Returns whether the store
/// changed.
fn read(items: &[IntView], offset: i64, rows: &mut Rows, store: &mut Store) -> Result<bool, Fail> {
    let cols = rows.cols();
    let column = |value| shifted(value, offset, cols);
    let mut changed = false;
    for (i, view) in items.iter().enumerate() {
        if read_row(view, store, rows, i, column)? {
            let first = i128::from(offset);
            view.keep_within(store, first, first + cols as i128 - 1)?;
            read_row(view, store, rows, i, column)?;
            changed = true;
        }
    }
    Ok(changed)
}

/// Removes from `a` (rows of one side) what its transpose in `b` (the other side) lacks.
fn channel(a: &mut Rows, b: &Rows, rows: usize) {
    for i in 0..rows {
        let mut at = 0;
        while let Some(j) = a.next(i, at) {
            at = j + 1;
            if !b.has(j, i) {
                a.unset(i, j);
            }
        }
    }
}

/// Writes back what `items` lost between `before` and `after`.
fn write(
    items: &[IntView],
    offset: i64,
    before: &Rows,
    after: &Rows,
    store: &mut Store,
) -> Result<bool, Fail> {
    let mut changed = false;
    for (i, view) in items.iter().enumerate() {
        let value = |c| i128::from(offset) + c as i128;
        changed |= write_row(view, store, before, after, i, value)?;
    }
    Ok(changed)
}

impl<'a> Kind<'a> for Inverse {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(InverseProp::new(self))
    }
}

impl BuiltinPropagator for InverseProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let (nf, ng) = (self.f.len(), self.g.len());
        if nf != ng {
            return Err(Fail);
        }
        loop {
            let f_read = read(&self.f, self.g_offset, &mut self.fd, store)?;
            let g_read = read(&self.g, self.f_offset, &mut self.gd, store)?;
            if (f_read || g_read) && self.shared {
                continue;
            }
            self.f_before.clone_from(&self.fd);
            self.g_before.clone_from(&self.gd);
            channel(&mut self.fd, &self.gd, nf);
            channel(&mut self.gd, &self.fd, ng);
            self.matching.prune(&mut self.fd, &self.all)?;
            channel(&mut self.gd, &self.fd, ng);
            let mut changed = write(&self.f, self.g_offset, &self.f_before, &self.fd, store)?;
            changed |= write(&self.g, self.f_offset, &self.g_before, &self.gd, store)?;
            if !(changed && self.shared) {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::fuzz;
    use crate::propagators::tours::circuit::tests::successors;
    use crate::propagators::tours::tests::propagated;

    #[test]
    fn inverses_agree_with_their_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let n = rng.below(5) as usize;
            // Now and then the lengths differ (no solution then).
            let ng = if rng.below(8) == 0 { n + 1 } else { n };
            let (f_offset, g_offset) = match rng.below(4) {
                0 => (0, 0),
                1 => (1, 1),
                2 => (-2, 3),
                _ => (3, 0),
            };
            // The values of f name positions of g, and the other way.
            let mut f = successors(&mut m, rng, n, g_offset);
            let g: Vec<IntArg> = successors(&mut m, rng, ng, f_offset);
            // A variable of f used in g too.
            if n > 0 && ng > 0 && rng.below(4) == 0 {
                f[0] = g[rng.below(ng as u64) as usize].clone();
            }
            match (f_offset, g_offset) {
                (0, 0) => m.inverse(f, g),
                _ => m.inverse_offset(f, f_offset, g, g_offset),
            }
            m
        });
    }

    #[test]
    fn what_no_permutation_uses_is_removed_on_both_sides() {
        // f[0] and f[1] take g's positions 1 and 2 between them: f[2] = 0, so g[0] = 2.
        let mut m = Model::new();
        let f: Vec<_> = (0..3).map(|_| m.var(0..3i64)).collect();
        let g: Vec<_> = (0..3).map(|_| m.var(0..3i64)).collect();
        m.restrict(&f[0], |&v| v != 0);
        m.restrict(&f[1], |&v| v != 0);
        m.inverse(&f, &g);
        let left = propagated(&m).unwrap();
        assert_eq!(left[2], [0]);
        assert_eq!(left[3], [2]);
        assert_eq!(left[4], [0, 1]);
        assert_eq!(left[5], [0, 1]);
    }
}
