//! `inverse(f, g)`, domain consistent: `f[i]` keeps `j` only while `g[j]` keeps `i` (and
//! the other way), and `f` is kept all different by a matching. Once the two agree, every
//! value left is used by a solution: a matching of `f` is a permutation whose inverse
//! `g` can take.
//!
//! In a search that learns it propagates as MiniZinc's decomposition does (`f[i] = j`
//! exactly when `g[j] = i`), so that each removal has a reason of one predicate: `g[j] !=
//! i`, or another item fixed to the value (`g[j'] = i`). Hall sets are left out there:
//! their explanations read the whole graph's past domains, and on `black-hole` they cost
//! three times the time they save.

use crate::choice::Fail;
use crate::model::Inverse;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::tours::hall::hall_set;
use crate::propagators::tours::matching::Matching;
use crate::propagators::tours::rows::{Rows, read_row, shifted, write_row};
use crate::propagators::view::IntView;
use crate::propagators::{dedup_from, domain_pass};
use crate::store::{Atoms, Pred, Store};
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
    /// Learning: the side (`f`'s: true) and item left without a value by the run that
    /// just failed.
    failed: Option<(bool, usize)>,
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
            failed: None,
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

/// Where `b`'s row `i` is fixed to `j`, removes from `a`'s row `j` every column but `i`:
/// no other item of `b`'s side may name `j`.
fn fix(a: &mut Rows, b: &Rows, rows: usize) {
    for i in 0..rows {
        if let Some(j) = b.single(i) {
            let mut at = 0;
            while let Some(k) = a.next(j, at) {
                at = k + 1;
                if k != i {
                    a.unset(j, k);
                }
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

/// The most positions an explanation reads.
const EXPLAINED_POSITIONS: usize = 512;

/// The positions each of `items` could name before trail position `at`; `None` for a
/// variable too wide to read.
fn rows_before(items: &[IntView], offset: i64, atoms: &Atoms, at: u32) -> Option<Rows> {
    let n = items.len();
    let mut rows = Rows::new(n, n);
    let mut absent = Vec::new();
    for (i, view) in items.iter().enumerate() {
        match view {
            IntView::Const(c) => {
                if let Some(col) = shifted(*c, offset, n) {
                    rows.set(i, col);
                }
            }
            IntView::Var { var, images, .. } => {
                if images.len() > 4_096 {
                    return None;
                }
                let (low, high) = atoms.ends_before(*var, at);
                absent.clear();
                absent.resize((high - low + 1) as usize, false);
                atoms.each_hole_before(*var, at, |u| {
                    if (low..=high).contains(&u) {
                        absent[(u - low) as usize] = true;
                    }
                });
                for u in low..=high {
                    if !absent[(u - low) as usize] {
                        if let Some(col) = shifted(images.get(u as usize), offset, n) {
                            rows.set(i, col);
                        }
                    }
                }
            }
        }
    }
    Some(rows)
}

/// Appends why each item of `items` names none of the positions that `needed` marks in
/// its row (each such value gone before `at`).
fn explain_gone(
    items: &[IntView],
    offset: i64,
    needed: &Rows,
    atoms: &Atoms,
    at: u32,
    out: &mut Vec<Pred>,
) {
    let n = items.len();
    for (i, view) in items.iter().enumerate() {
        let IntView::Var { var, images, .. } = view else {
            continue;
        };
        if needed.next(i, 0).is_none() {
            continue;
        }
        let gone = (0..images.len() as u32).filter(|&u| {
            shifted(images.get(u as usize), offset, n).is_some_and(|col| needed.has(i, col))
        });
        atoms.explain_gone(*var, at, gone, out);
    }
}

/// An item of `items` other than `skip` fixed to `value` before `at`: the predicate that
/// says so (none for a constant).
fn named_by(
    items: &[IntView],
    skip: usize,
    value: i128,
    atoms: &Atoms,
    at: u32,
) -> Option<Option<Pred>> {
    items.iter().enumerate().find_map(|(k, view)| {
        if k == skip {
            return None;
        }
        match view {
            IntView::Const(c) => (i128::from(*c) == value).then_some(None),
            IntView::Var { var, .. } => {
                let index = atoms.fixed_before(*var, at)?;
                (view.image(index) == value).then_some(Some(Pred::eq(*var, index)))
            }
        }
    })
}

/// Explanations (a search that learns): `f[i]` loses `j` (or `g[j]` loses `i`) because
/// the other side lacks it, or because a Hall set of `f`'s items takes every position
/// they may name, `j` among them ([`hall_set`]); a failure, by a Hall set with fewer
/// positions than items. Each edge the set needs gone is explained by the side that lacks
/// it.
impl InverseProp {
    /// Why edge (`f[i]`, `g[j]`) is gone from one side (`f`'s: `on_f`) while the side had
    /// it before `at`, without a Hall set: the other side lacks it (marked in `need_f` or
    /// `need_g`), or names another item (`g[j'] = i` takes `f[i]`'s value, `f[i'] = j`
    /// takes `g[j]`'s; appended to `out`). Returns whether one of these holds.
    fn edge_taken(
        &self,
        on_f: bool,
        (i, j): (usize, usize),
        (atoms, at): (&Atoms, u32),
        (need_f, need_g): (&mut Rows, &mut Rows),
        out: &mut Vec<Pred>,
    ) -> bool {
        let (f_value, g_value) = (
            i128::from(self.f_offset) + i as i128,
            i128::from(self.g_offset) + j as i128,
        );
        if on_f && !self.g[j].had_before(atoms, at, f_value) {
            need_g.set(j, i);
        } else if !on_f && !self.f[i].had_before(atoms, at, g_value) {
            need_f.set(i, j);
        } else {
            let named = if on_f {
                named_by(&self.g, j, f_value, atoms, at)
            } else {
                named_by(&self.f, i, g_value, atoms, at)
            };
            let Some(named) = named else {
                return false;
            };
            out.extend(named);
        }
        true
    }

    fn explain_edges(
        &self,
        atoms: &Atoms,
        at: u32,
        pred: Option<Pred>,
        out: &mut Vec<Pred>,
    ) -> bool {
        let n = self.f.len();
        if n > EXPLAINED_POSITIONS || self.g.len() != n {
            return false;
        }
        // The edges (`f`'s item, `g`'s item) that `f`'s side, and `g`'s, must lack.
        let (mut need_f, mut need_g) = (Rows::new(n, n), Rows::new(n, n));
        // The domains before `at`, read once a Hall set is needed.
        let mut before: Option<(Rows, Rows)> = None;
        let mut hall = |edge: Option<(usize, usize)>, need_f: &mut Rows, need_g: &mut Rows| {
            if before.is_none() {
                before = rows_before(&self.f, self.g_offset, atoms, at).zip(rows_before(
                    &self.g,
                    self.f_offset,
                    atoms,
                    at,
                ));
            }
            let Some((fd, gd)) = &before else {
                return false;
            };
            let mut edges = Rows::new(n, n);
            for i in 0..n {
                for j in fd.iter(i) {
                    if gd.has(j, i) {
                        edges.set(i, j);
                    }
                }
            }
            let Some(set) = hall_set(&edges, &self.all, edge) else {
                return false;
            };
            for &x in &set.rows {
                for y in (0..n).filter(|&y| !set.cols[y]) {
                    if !fd.has(x, y) {
                        need_f.set(x, y);
                    } else {
                        need_g.set(y, x);
                    }
                }
            }
            true
        };
        let from = out.len();
        match pred {
            None => match self.failed {
                // Each position the item could name is gone from it, or taken.
                Some((on_f, k)) => {
                    for col in 0..n {
                        let (i, j) = if on_f { (k, col) } else { (col, k) };
                        let (own, own_value) = if on_f {
                            (&self.f[i], i128::from(self.g_offset) + j as i128)
                        } else {
                            (&self.g[j], i128::from(self.f_offset) + i as i128)
                        };
                        if !own.had_before(atoms, at, own_value) {
                            if on_f {
                                need_f.set(i, j);
                            } else {
                                need_g.set(j, i);
                            }
                        } else if !self.edge_taken(
                            on_f,
                            (i, j),
                            (atoms, at),
                            (&mut need_f, &mut need_g),
                            out,
                        ) {
                            return false;
                        }
                    }
                }
                None => {
                    if !hall(None, &mut need_f, &mut need_g) {
                        return false;
                    }
                }
            },
            Some(pred) => {
                let var = pred.var as usize;
                let on = |view: &IntView| view.var() == Some(var);
                let (on_f, k) = match self.f.iter().position(on) {
                    Some(i) => (true, i),
                    None => match self.g.iter().position(on) {
                        Some(j) => (false, j),
                        None => return false,
                    },
                };
                let Some(values) = atoms.removed_by(at, pred, n as u32 + 1, out) else {
                    return false;
                };
                let values: Vec<u32> = values.collect();
                let (view, offset) = if on_f {
                    (&self.f[k], self.g_offset)
                } else {
                    (&self.g[k], self.f_offset)
                };
                for u in values {
                    let Ok(value) = i64::try_from(view.image(u)) else {
                        continue;
                    };
                    // A value naming no position needs no reason.
                    let Some(col) = shifted(value, offset, n) else {
                        continue;
                    };
                    let (i, j) = if on_f { (k, col) } else { (col, k) };
                    // The other side lacks the edge or names another, or a Hall set
                    // takes its position.
                    let need = (&mut need_f, &mut need_g);
                    if !self.edge_taken(on_f, (i, j), (atoms, at), need, out)
                        && !hall(Some((i, j)), &mut need_f, &mut need_g)
                    {
                        return false;
                    }
                }
            }
        }
        explain_gone(&self.f, self.g_offset, &need_f, atoms, at, out);
        explain_gone(&self.g, self.f_offset, &need_g, atoms, at, out);
        dedup_from(out, from);
        true
    }
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

    fn explains(&self) -> bool {
        !self.shared
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        self.explain_edges(atoms, at, pred, out)
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.failed = None;
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
            if !domain_pass(store) {
                // Learning: the decomposition's strength (`f[i] = j` exactly when `g[j] =
                // i`), each removal explained by one predicate of the domains read (Hall
                // sets cost more to explain than they save). The engine runs it again on
                // its own changes.
                channel(&mut self.fd, &self.g_before, nf);
                channel(&mut self.gd, &self.f_before, ng);
                fix(&mut self.fd, &self.g_before, ng);
                fix(&mut self.gd, &self.f_before, nf);
                if let Some(i) = (0..nf).find(|&i| self.fd.next(i, 0).is_none()) {
                    self.failed = Some((true, i));
                    return Err(Fail);
                }
                if let Some(j) = (0..ng).find(|&j| self.gd.next(j, 0).is_none()) {
                    self.failed = Some((false, j));
                    return Err(Fail);
                }
            } else {
                channel(&mut self.fd, &self.gd, nf);
                channel(&mut self.gd, &self.fd, ng);
                self.matching.prune(&mut self.fd, &self.all)?;
                channel(&mut self.gd, &self.fd, ng);
            }
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

    /// Learning, each removal has one reason: `f[0] = 1` leaves `g[1]` only 0, by
    /// `f[0] == 1`; and `f[0]`, without 0, fails once `g[1]` and `g[2]` lack 0, by those
    /// three predicates.
    #[test]
    fn learning_explains_each_removal_by_one_predicate() {
        use crate::store::{Cause, Pred, Store};
        let mut m = Model::new();
        let f: Vec<_> = (0..3).map(|_| m.var(0..3i64)).collect();
        let g: Vec<_> = (0..3).map(|_| m.var(0..3i64)).collect();
        m.inverse(&f, &g);
        let (f, g): (Vec<usize>, Vec<usize>) = (
            f.iter().map(|v| v.id().index()).collect(),
            g.iter().map(|v| v.id().index()).collect(),
        );
        let start = |decide: &dyn Fn(&mut Store)| {
            let mut store = Store::with_domains(m.universes(), |_| None);
            let mut propagator = m.constraints()[0].kind().propagator(&mut store);
            assert!(propagator.explains());
            store.record_atoms();
            store.set_cause(Cause::Decision);
            decide(&mut store);
            store.clear_events();
            store.set_cause_prop(0);
            let from = store.atoms().expect("recording").len() as u32;
            let result = propagator.propagate(&mut store);
            (store, propagator, from, result)
        };
        let (store, propagator, from, result) = start(&|store: &mut Store| {
            store.remove_range(f[0], 2, 2).expect("keeps 0 and 1");
            store.remove_range(f[0], 0, 0).expect("keeps 1");
        });
        assert!(result.is_ok());
        let atoms = store.atoms().expect("recording");
        let mut out = Vec::new();
        let mut explained = 0;
        for at in from..atoms.len() as u32 {
            let pred = atoms.at(at).pred;
            if pred.var as usize == g[1] {
                out.clear();
                assert!(propagator.explain(atoms, at, Some(pred), &mut out));
                assert_eq!(out, [Pred::eq(f[0], 1)], "{pred:?}");
                explained += 1;
            }
        }
        assert!(explained > 0);
        assert_eq!((store.min(g[1]), store.max(g[1])), (Some(0), Some(0)));
        let (store, propagator, _, result) = start(&|store| {
            store.remove_range(f[0], 0, 0).expect("keeps 1 and 2");
            store.remove_range(g[1], 0, 0).expect("keeps 1 and 2");
            store.remove_range(g[2], 0, 0).expect("keeps 1 and 2");
        });
        assert!(result.is_err());
        let atoms = store.atoms().expect("recording");
        out.clear();
        assert!(propagator.explain(atoms, atoms.len() as u32, None, &mut out));
        out.sort_unstable_by_key(|p| p.var);
        assert_eq!(
            out,
            [Pred::ge(f[0], 1), Pred::ge(g[1], 1), Pred::ge(g[2], 1)]
        );
    }

    #[test]
    fn inverses_under_a_sum_agree_with_their_meaning() {
        // Distinct variables under a sum of mixed signs over both sides: the learning
        // search meets conflicts and asks the inverse why positions went (checked under
        // `debug-checks`).
        use crate::model::Cmp;
        fuzz(600, |rng| {
            let mut m = Model::new();
            let n = 2 + rng.below(2) as usize;
            let mut vars = |m: &mut Model<'static>| -> Vec<_> {
                (0..n)
                    .map(|_| {
                        let var = m.var(0..n as i64);
                        if rng.below(3) == 0 {
                            let gone = rng.below(n as u64) as i64;
                            m.restrict(&var, move |&v| v != gone);
                        }
                        var
                    })
                    .collect()
            };
            let (f, g) = (vars(&mut m), vars(&mut m));
            let terms: Vec<(i64, _)> = f
                .iter()
                .chain(&g)
                .enumerate()
                .map(|(k, v)| (if k % 3 == 1 { -1 } else { 1 + (k % 2) as i64 }, v))
                .collect();
            m.linear(terms, Cmp::Le, (n * n / 2) as i64);
            m.inverse(&f, &g);
            m
        });
    }
}
