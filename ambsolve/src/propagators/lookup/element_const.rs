//! `result = entries[index]` over constant entries (one per value of the index), domain
//! consistent: an index value stays while its entry is left in `result`, a result value
//! while an index value left has it as entry. Each value remembers the support it last
//! found (a residue, not trailed: it is checked again before it is trusted), so a
//! propagation reads each value left about once.

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::{ElementConst, Int};
use crate::propagator::BuiltinPropagator;
use crate::store::{Atoms, CHANGED, FIXED, Pred, Store};
use crate::var::VarId;

/// Lists of value indices, one per value index: `items[start[v]..start[v + 1]]`.
struct Lists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    fn of(&self, v: u32) -> &[u32] {
        &self.items[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }

    /// The lists `of(v)` for `v` in `0..n`, from `(v, item)` pairs sorted by `v`.
    fn new(n: usize, pairs: impl IntoIterator<Item = (u32, u32)>) -> Self {
        let mut start = vec![0u32; n + 1];
        let mut items = Vec::new();
        for (v, item) in pairs {
            start[v as usize + 1] += 1;
            items.push(item);
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        Lists { start, items }
    }
}

enum Mode {
    /// `result` is a constant, or the index itself: the index keeps the values in
    /// `allowed` (sorted), once.
    Unary { allowed: Vec<u32> },
    /// `result` is another variable.
    Binary {
        result: usize,
        /// Per index value, the result values equal to its entry.
        targets: Lists,
        /// Per result value, the index values whose entry it is.
        sources: Lists,
        /// Residues: the position in its list of the support each value found last.
        target_hint: Vec<u32>,
        source_hint: Vec<u32>,
    },
}

pub(crate) struct ElementConstProp {
    index: usize,
    mode: Mode,
    scope: Vec<VarId>,
}

impl ElementConstProp {
    pub(crate) fn new(def: &ElementConst) -> Self {
        let entries = &def.entries;
        let index = def.index.index();
        let unary = |holds: &dyn Fn(u32) -> bool| Mode::Unary {
            allowed: (0..entries.len() as u32).filter(|&i| holds(i)).collect(),
        };
        let mode = match &def.result {
            Int::Const(c) => unary(&|i| entries[i as usize] == Some(*c)),
            Int::Var { var, images } if *var == def.index => {
                unary(&|i| entries[i as usize] == Some(images.get(i as usize)))
            }
            Int::Var { var, images } => {
                // Result values by image, and index values by entry.
                let mut by_image: Vec<(i64, u32)> = images
                    .iter()
                    .enumerate()
                    .map(|(r, w)| (w, r as u32))
                    .collect();
                by_image.sort_unstable();
                let mut by_entry: Vec<(i64, u32)> = entries
                    .iter()
                    .enumerate()
                    .filter_map(|(i, e)| e.map(|e| (e, i as u32)))
                    .collect();
                by_entry.sort_unstable();
                let with = |list: &[(i64, u32)], w: i64| {
                    let from = list.partition_point(|&(v, _)| v < w);
                    let to = list.partition_point(|&(v, _)| v <= w);
                    list[from..to].iter().map(|&(_, k)| k).collect::<Vec<u32>>()
                };
                let targets = Lists::new(
                    entries.len(),
                    entries.iter().enumerate().flat_map(|(i, e)| {
                        let found = e.map_or_else(Vec::new, |e| with(&by_image, e));
                        found.into_iter().map(move |r| (i as u32, r))
                    }),
                );
                let sources = Lists::new(
                    images.len(),
                    images.iter().enumerate().flat_map(|(r, w)| {
                        with(&by_entry, w).into_iter().map(move |i| (r as u32, i))
                    }),
                );
                Mode::Binary {
                    result: var.index(),
                    target_hint: vec![0; entries.len()],
                    source_hint: vec![0; images.len()],
                    targets,
                    sources,
                }
            }
        };
        ElementConstProp {
            index,
            mode,
            scope: def.vars.clone(),
        }
    }
}

/// Whether some value of `list` is left in `var`, the one at `hint` tried first (and
/// remembered when another is found).
fn supported(store: &Store, var: usize, list: &[u32], hint: &mut u32) -> bool {
    if list
        .get(*hint as usize)
        .is_some_and(|&v| store.contains(var, v))
    {
        return true;
    }
    match list.iter().position(|&v| store.contains(var, v)) {
        Some(k) => {
            *hint = k as u32;
            true
        }
        None => false,
    }
}

/// Keeps exactly the values `keep` (sorted) of `var`, removing the ranges between them.
fn keep_only(store: &mut Store, var: usize, keep: &[u32]) -> Result<(), Fail> {
    let mut from = 0u32;
    for &v in keep {
        if v > from {
            store.remove_range(var, from, v - 1)?;
        }
        from = v + 1;
    }
    if from < store.universe(var) {
        store.remove_range(var, from, store.universe(var) - 1)?;
    }
    Ok(())
}

/// Explanations (a search that learns), between the index and a result variable: an
/// index value is gone because every result value equal to its entry was gone before; a
/// result value, because every index value whose entry it is was. The rest (a constant
/// result, ends passing many values, a value only the root lacked, failures) falls back to
/// the scope's domains.
impl ElementConstProp {
    /// The most values of one atom explained value by value.
    const EXPLAINED_VALUES: u32 = 64;

    fn explain_pred(&self, atoms: &Atoms, at: u32, pred: Pred, out: &mut Vec<Pred>) -> bool {
        let Mode::Binary {
            result,
            targets,
            sources,
            ..
        } = &self.mode
        else {
            return false;
        };
        let (other, lists) = match pred.var as usize {
            v if v == self.index => (*result, targets),
            v if v == *result => (self.index, sources),
            _ => return false,
        };
        let Some(values) = atoms.removed_by(at, pred, Self::EXPLAINED_VALUES, out) else {
            return false;
        };
        for u in values {
            if lists.start.len() <= u as usize + 1 {
                return false;
            }
            for &w in lists.of(u) {
                if !atoms.gone_before(other, w, at) {
                    return false;
                }
                out.push(Pred::ne(other, w));
            }
        }
        true
    }
}

impl<'a> Kind<'a> for ElementConst {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(ElementConstProp::new(self))
    }
}

impl BuiltinPropagator for ElementConstProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn explains(&self) -> bool {
        matches!(self.mode, Mode::Binary { .. })
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        pred.is_some_and(|pred| self.explain_pred(atoms, at, pred, out))
    }

    fn wakes(&self, _local: usize) -> u8 {
        match self.mode {
            // Done after its first run: only a fixed index is checked again.
            Mode::Unary { .. } => FIXED,
            Mode::Binary { .. } => CHANGED,
        }
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let index = self.index;
        match &mut self.mode {
            Mode::Unary { allowed } => keep_only(store, index, allowed),
            Mode::Binary {
                result,
                targets,
                sources,
                target_hint,
                source_hint,
            } => {
                let result = *result;
                if let Some(i) = store.min(index).filter(|_| store.is_fixed(index)) {
                    if let [r] = targets.of(i) {
                        return store.assign(result, *r);
                    }
                }
                if let Some(r) = store.min(result).filter(|_| store.is_fixed(result)) {
                    return keep_only(store, index, sources.of(r));
                }
                let dead: Vec<u32> = store
                    .iter(index)
                    .filter(|&i| {
                        !supported(store, result, targets.of(i), &mut target_hint[i as usize])
                    })
                    .collect();
                for i in dead {
                    store.remove(index, i)?;
                }
                let dead: Vec<u32> = store
                    .iter(result)
                    .filter(|&r| {
                        !supported(store, index, sources.of(r), &mut source_hint[r as usize])
                    })
                    .collect();
                for r in dead {
                    store.remove(result, r)?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::arith::tests::{after_propagation, every_value_supported, int_arg};
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    fn make(rng: &mut Rng) -> Model<'static> {
        {
            let mut m = Model::new();
            let index = match rng.below(4) {
                0 => m.var([2i64, 0, 0, -1, 5]),
                1 => m.var([4i64, 3, 1, 0]),
                _ => {
                    let low = rng.below(4) as i64 - 2;
                    m.var(low..low + 1 + rng.below(7) as i64)
                }
            };
            let n = rng.below(6) as usize;
            let array: Vec<i64> = (0..n).map(|_| rng.below(7) as i64 - 3).collect();
            let result = match rng.below(5) {
                0 => IntArg::from(&index),
                _ => int_arg(&mut m, rng),
            };
            let offset = rng.below(3) as i64 - 1;
            m.element_offset(&index, offset, array, result);
            m
        }
    }

    #[test]
    fn lookups_in_constant_arrays_agree_with_their_meaning() {
        fuzz(600, make);
    }

    /// Two lookups through one index and a sum of their results: they fail together
    /// where neither fails alone, so a search that learns explains their pruning (checked
    /// by the fuzz's learning counts, and under `debug-checks` explanation by
    /// explanation).
    fn make_pair(rng: &mut Rng) -> Model<'static> {
        let mut m = Model::new();
        let index = m.var(0..3 + rng.below(4) as i64);
        let n = 3 + rng.below(4) as usize;
        let mut array = || -> Vec<i64> { (0..n).map(|_| rng.below(5) as i64 - 2).collect() };
        let (a, b) = (array(), array());
        let r = m.var(-2..=2i64);
        let s = m.var([2i64, -1, 0, 1, -2]);
        m.element(&index, a, &r);
        m.element(&index, b, &s);
        let total = rng.below(5) as i64 - 2;
        m.linear([(1, &r), (1, &s)], crate::model::Cmp::Ge, total);
        let other = m.var(0..4i64);
        m.element(&other, [2i64, -2, 1, 0], &r);
        m
    }

    #[test]
    fn lookups_that_fail_together_are_explained() {
        fuzz(400, make_pair);
    }

    #[test]
    fn lookups_in_constant_arrays_keep_only_supported_values() {
        after_propagation(600, make, every_value_supported);
    }
}
