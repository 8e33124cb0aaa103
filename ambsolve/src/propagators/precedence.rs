//! Value precedence (`value_precede_chain`): for each two consecutive values `s`, `t`,
//! `t` is removed from the items up to the first that may take `s` (none before it can
//! be the `s` a `t` there needs), and where an item is fixed to `t`, the one item before
//! it that can still take `s` is fixed to `s` (none: a failure). Run to its own fixpoint.
//!
//! It explains what it prunes (a search that learns): a `t` removed by the items before
//! it that lack `s`; an item fixed to `s` by the item fixed to `t` and the other items
//! before it that lack `s`; a failure the same way.

use crate::choice::Fail;
use crate::model::{Kind, ValuePrecede};
use crate::propagator::BuiltinPropagator;
use crate::propagators::to_fixpoint;
use crate::propagators::view::{IntView, all_explainable};
use crate::store::{Atoms, Pred, Rel, Store};
use crate::var::VarId;

pub(crate) struct ValuePrecedeProp {
    values: Vec<i128>,
    items: Vec<IntView>,
    scope: Vec<VarId>,
    /// Whether explanations can read every item by its bounds, no variable repeating.
    explainable: bool,
}

impl ValuePrecedeProp {
    pub(crate) fn new(def: &ValuePrecede) -> Self {
        let items: Vec<IntView> = def.items.iter().map(IntView::new).collect();
        ValuePrecedeProp {
            values: def.values.iter().map(|&v| i128::from(v)).collect(),
            explainable: all_explainable(&def.vars, &items),
            items,
            scope: def.vars.clone(),
        }
    }

    /// One reading of every pair of consecutive values.
    fn pass(&self, store: &mut Store) -> Result<(), Fail> {
        for pair in self.values.windows(2) {
            let (s, t) = (pair[0], pair[1]);
            // `t` cannot stand up to (and at) the first item that may be `s`.
            for item in &self.items {
                let may_s = item.contains(store, s);
                item.remove(store, t)?;
                if may_s {
                    break;
                }
            }
            // An item fixed to `t` needs an `s` before it.
            let first_t = self
                .items
                .iter()
                .position(|x| x.fixed(store).is_some_and(|v| i128::from(v) == t));
            if let Some(j) = first_t {
                let mut candidates = (0..j).filter(|&k| self.items[k].contains(store, s));
                match (candidates.next(), candidates.next()) {
                    (None, _) => return Err(Fail),
                    (Some(k), None) => {
                        self.items[k].fix(store, s)?;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// Explanations (a search that learns).
impl ValuePrecedeProp {
    /// The most values an end passed over that an explanation lists one by one.
    const EXPLAINED_VALUES: u32 = 256;

    /// Appends why no item before `j` but `skip` could take `s` before `at`; `false` if
    /// one could.
    fn explain_no_s_before(
        &self,
        j: usize,
        s: i128,
        skip: Option<usize>,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        (0..j)
            .filter(|&k| Some(k) != skip)
            .all(|k| self.items[k].explain_lacks(atoms, at, s, out))
    }

    /// Appends why item `k` had to take `s` before `at` (an item fixed to `s`'s successor
    /// after it, no other item before that one able to take `s`), for some pair whose
    /// `s` `pred` keeps.
    fn explain_fixed(
        &self,
        k: usize,
        pred: Pred,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let from = out.len();
        for pair in self.values.windows(2) {
            let (s, t) = (pair[0], pair[1]);
            if !self.items[k].indices_of(s).iter().any(|&u| pred.accepts(u)) {
                continue;
            }
            for j in k + 1..self.items.len() {
                if self.items[j].bounds_before(atoms, at) != (t, t) {
                    continue;
                }
                self.items[j].explain_within(t, t, out);
                if self.explain_no_s_before(j, s, Some(k), atoms, at, out) {
                    return true;
                }
                out.truncate(from);
                break;
            }
        }
        false
    }

    /// Appends why item `j` could not take `value` before `at`: `value` follows some `s`
    /// that no item before `j` could take.
    fn explain_removed(
        &self,
        j: usize,
        value: i128,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let from = out.len();
        for pair in self.values.windows(2) {
            if pair[1] != value {
                continue;
            }
            if self.explain_no_s_before(j, pair[0], None, atoms, at, out) {
                return true;
            }
            out.truncate(from);
        }
        false
    }

    /// Appends why `pred` on item `k` holds.
    fn explain_item(
        &self,
        k: usize,
        pred: Pred,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let item = &self.items[k];
        let from = out.len();
        let removed: Option<Vec<u32>> = match pred.rel {
            Rel::Ne => Some(vec![pred.value]),
            Rel::Eq => None,
            Rel::Ge | Rel::Le => atoms
                .removed_by(at, pred, Self::EXPLAINED_VALUES, out)
                .map(Iterator::collect),
        };
        if let Some(removed) = removed {
            if removed
                .iter()
                .all(|&u| self.explain_removed(k, item.image(u), atoms, at, out))
            {
                return true;
            }
        }
        out.truncate(from);
        self.explain_fixed(k, pred, atoms, at, out)
    }

    /// Appends why the run failed: an item fixed to `t` with no item before it able to
    /// take `s`.
    fn explain_failure(&self, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        let from = out.len();
        for pair in self.values.windows(2) {
            let (s, t) = (pair[0], pair[1]);
            for (j, item) in self.items.iter().enumerate() {
                if item.bounds_before(atoms, at) != (t, t) {
                    continue;
                }
                item.explain_within(t, t, out);
                if self.explain_no_s_before(j, s, None, atoms, at, out) {
                    return true;
                }
                out.truncate(from);
                break;
            }
        }
        false
    }
}

impl<'a> Kind<'a> for ValuePrecede {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(ValuePrecedeProp::new(self))
    }
}

impl BuiltinPropagator for ValuePrecedeProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn explains(&self) -> bool {
        self.explainable
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some(pred) = pred else {
            return self.explain_failure(atoms, at, out);
        };
        let var = Some(pred.var as usize);
        match self.items.iter().position(|x| x.var() == var) {
            Some(k) => self.explain_item(k, pred, atoms, at, out),
            None => false,
        }
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let this = &*self;
        to_fixpoint(store, &this.scope, |store| this.pass(store))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::{arg, fuzz};

    /// A chain of up to four values in -1..=3 (repeats allowed) over up to five items:
    /// with `explainable`, each item a constant or a variable over consecutive values,
    /// else any argument.
    fn chain(rng: &mut Rng, explainable: bool) -> Model<'static> {
        let mut m = Model::new();
        let values: Vec<i64> = (0..rng.below(5)).map(|_| rng.below(5) as i64 - 1).collect();
        let items: Vec<IntArg> = (0..rng.below(6))
            .map(|_| {
                if !explainable {
                    return arg(&mut m, rng);
                }
                let low = rng.below(4) as i64 - 1;
                if rng.below(5) == 0 {
                    IntArg::from(low)
                } else {
                    IntArg::from(&m.var(low..=low + rng.below(4) as i64))
                }
            })
            .collect();
        m.value_precede_chain(values, items);
        m
    }

    #[test]
    fn value_precede_chain_agrees_with_its_meaning() {
        fuzz(300, |rng| chain(rng, true));
        fuzz(300, |rng| chain(rng, false));
    }
}
