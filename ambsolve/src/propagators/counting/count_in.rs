//! `|{i : x[i] ∈ V}| cmp count` for a constant set `V`: bounds on the count from the
//! items that surely and possibly take a value of `V`, and back: the count's largest
//! value reached, `V` is removed from the undecided items; its least value needing every
//! item that may, they are kept within `V`. Domain consistent when no variable repeats
//! (every count between the two bounds is reachable).
//!
//! It explains what it prunes (a search that learns) by the items that surely take a
//! value of `V` (their values outside `V` gone) or surely do not (`V`'s values gone),
//! and the count's bound they meet.

use crate::choice::Fail;
use crate::model::CountIn;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::counting::{remove_all, sides};
use crate::propagators::view::{Change, IntView};
use crate::store::{Atoms, Pred, Rel, Store};
use crate::var::VarId;

pub(crate) struct CountInProp {
    items: Vec<IntView>,
    /// Sorted, without repeats.
    values: Vec<i64>,
    count: IntView,
    /// Whether the count bounds the occurrences from above (`==`, `<=`) and from below
    /// (`==`, `>=`).
    above: bool,
    below: bool,
    scope: Vec<VarId>,
    /// Per item, whether it is undecided (may and may not take a value of `V`): scratch.
    undecided: Vec<bool>,
    /// Whether the count's variable (if any) is no item's: else a pass that narrows the
    /// count may decide an item, and another pass follows.
    count_apart: bool,
}

impl CountInProp {
    pub(crate) fn new(def: &CountIn) -> Self {
        let (above, below) = sides(def.cmp);
        let count_apart = def
            .count
            .var()
            .is_none_or(|c| def.items.iter().all(|x| x.var() != Some(c)));
        CountInProp {
            items: def.items.iter().map(IntView::new).collect(),
            values: def.values.clone(),
            count: IntView::new(&def.count),
            above,
            below,
            scope: def.vars.clone(),
            undecided: vec![false; def.items.len()],
            count_apart,
        }
    }
}

/// Whether `item` may take a value of the sorted list `values`, and whether it surely
/// does (every value left is one of them).
///
/// # Errors
/// [`Fail`] if its domain is empty.
pub(super) fn membership(
    item: &IntView,
    store: &Store,
    values: &[i64],
) -> Result<(bool, bool), Fail> {
    let counted = |v: i64| values.binary_search(&v).is_ok();
    if let Some(v) = item.fixed(store) {
        return Ok((counted(v), counted(v)));
    }
    if let ([v], true) = (values, item.distinct()) {
        // Two values or more left, all different: the one counted may be among them, and
        // is not all of them (no count of the domain's values needed).
        return Ok((item.contains(store, i128::from(*v)), false));
    }
    let size = item.size(store);
    if size == 0 {
        return Err(Fail);
    }
    if (values.len() as u64) < u64::from(size) {
        let may = values.iter().any(|&v| item.contains(store, i128::from(v)));
        // More distinct values left than `V` holds: some value left is not in `V`.
        let surely = may && !item.distinct() && item.values(store).all(counted);
        return Ok((may, surely));
    }
    let (mut may, mut surely) = (false, true);
    for v in item.values(store) {
        if counted(v) {
            may = true;
        } else {
            surely = false;
        }
        if may && !surely {
            break;
        }
    }
    Ok((may, surely))
}

/// Explanations (a search that learns).
impl CountInProp {
    /// The most values of an item, or of `V`, an explanation lists one by one.
    const EXPLAINED_VALUES: u32 = 256;

    fn counted(&self, value: i128) -> bool {
        i64::try_from(value).is_ok_and(|v| self.values.binary_search(&v).is_ok())
    }

    /// Appends why `item` surely took a value of `V` before `at` (its values outside
    /// `V` gone); `false` if it did not.
    fn explain_in(&self, item: &IntView, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        let Some(var) = item.var() else {
            return self.counted(item.image(0));
        };
        let (low, high) = atoms.ends_before(var, at);
        if high - low > Self::EXPLAINED_VALUES {
            return false;
        }
        let outside = |u: u32| !self.counted(item.image(u));
        if (low..=high).any(|u| outside(u) && !atoms.absent_before(var, u, at)) {
            return false;
        }
        out.push(Pred::ge(var, low));
        out.push(Pred::le(var, high));
        atoms.explain_gone(var, at, (low..=high).filter(|&u| outside(u)), out);
        true
    }

    /// Appends why `item` surely took no value of `V` before `at`; `false` if it may have.
    fn explain_out(&self, item: &IntView, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        self.values.len() <= Self::EXPLAINED_VALUES as usize
            && self
                .values
                .iter()
                .all(|&v| item.explain_lacks(atoms, at, i128::from(v), out))
    }

    /// Appends why at least `least` items but item `skip` surely took a value of `V`
    /// (`inside`) or took none (`!inside`); `false` if fewer did.
    fn explain_some(
        &self,
        inside: bool,
        least: i128,
        skip: Option<usize>,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let mut found = 0;
        for (k, item) in self.items.iter().enumerate() {
            if found >= least {
                break;
            }
            if Some(k) == skip {
                continue;
            }
            let from = out.len();
            let sure = if inside {
                self.explain_in(item, atoms, at, out)
            } else {
                self.explain_out(item, atoms, at, out)
            };
            if sure {
                found += 1;
            } else {
                out.truncate(from);
            }
        }
        found >= least
    }

    /// The number of items, as the count reads it.
    fn len(&self) -> i128 {
        self.items.len() as i128
    }

    /// Appends why `change` holds of the count.
    fn explain_count(&self, change: Change, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        match change {
            // That many items surely in.
            Change::AtLeast(least) if self.above => {
                self.explain_some(true, least, None, atoms, at, out)
            }
            // All but that many surely out.
            Change::AtMost(most) if self.below => {
                self.explain_some(false, self.len() - most, None, atoms, at, out)
            }
            _ => false,
        }
    }

    /// Appends why item `k` lost `V`'s values (`counted`) or the others: the count's
    /// greatest met by other items surely in, or its least needing every item that may.
    fn explain_item(
        &self,
        k: usize,
        counted: bool,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let (low, high) = self.count.bounds_before(atoms, at);
        if counted {
            // The count full: `high` others surely in.
            if !self.above {
                return false;
            }
            self.count.explain_within(i128::MIN, high, out);
            self.explain_some(true, high, Some(k), atoms, at, out)
        } else {
            // The count short: all others but `low - 1` surely out.
            if !self.below {
                return false;
            }
            self.count.explain_within(low, i128::MAX, out);
            self.explain_some(false, self.len() - low, Some(k), atoms, at, out)
        }
    }

    /// Whether `pred` on an item's variable took values of `V` from item `item`
    /// (`Some(true)`), values outside it (`Some(false)`), or both; an end's values
    /// passed, from the end before (appended), that were still there.
    fn taken(
        &self,
        item: &IntView,
        atoms: &Atoms,
        at: u32,
        pred: Pred,
        out: &mut Vec<Pred>,
    ) -> Option<bool> {
        if pred.rel == Rel::Ne {
            return Some(self.counted(item.image(pred.value)));
        }
        let mut left = atoms.removed_by(at, pred, Self::EXPLAINED_VALUES, out)?;
        let first = self.counted(item.image(left.next()?));
        if left.any(|u| self.counted(item.image(u)) != first) {
            return None;
        }
        Some(first)
    }

    /// Appends why the run failed: more items surely in than the count's greatest, or
    /// fewer that may than its least.
    fn explain_failure(&self, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        let (low, high) = self.count.bounds_before(atoms, at);
        let from = out.len();
        if self.above && high < self.len() {
            self.count.explain_within(i128::MIN, high, out);
            if self.explain_some(true, high + 1, None, atoms, at, out) {
                return true;
            }
            out.truncate(from);
        }
        if self.below && low > 0 {
            self.count.explain_within(low, i128::MAX, out);
            if self.explain_some(false, self.len() - low + 1, None, atoms, at, out) {
                return true;
            }
            out.truncate(from);
        }
        false
    }
}

impl<'a> Kind<'a> for CountIn {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(CountInProp::new(self))
    }
}

impl BuiltinPropagator for CountInProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// After a run the count's bounds are the items' and, if it removed or kept `V`, no
    /// item is undecided left (a count that is an item too is read again until it stays).
    fn idempotent(&self) -> bool {
        true
    }

    fn explains(&self) -> bool {
        self.count_apart && self.count.explainable()
    }

    /// The count by the items; an item by the count and the other items.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some(pred) = pred else {
            return self.explain_failure(atoms, at, out);
        };
        let var = Some(pred.var as usize);
        if self.count.var() == var {
            return self
                .count
                .change(atoms, at, pred)
                .is_some_and(|change| self.explain_count(change, atoms, at, out));
        }
        let from = out.len();
        for (k, item) in self.items.iter().enumerate() {
            if item.var() != var {
                continue;
            }
            if let Some(counted) = self.taken(item, atoms, at, pred, out) {
                if self.explain_item(k, counted, atoms, at, out) {
                    return true;
                }
            }
            out.truncate(from);
        }
        false
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        // A pass that narrowed the count, when the count is an item too, may have decided
        // that item, and its counts are stale: another pass, until the count stays (else
        // `count([c, x], 2) == c` could end with every item fixed and the count wrong).
        loop {
            let before = self.count.size(store);
            self.pass(store)?;
            if self.count_apart || self.count.size(store) == before {
                return Ok(());
            }
        }
    }
}

impl CountInProp {
    /// One reading of the items: the count's bounds, then `V` removed from or kept in
    /// the undecided items when the count says so.
    fn pass(&mut self, store: &mut Store) -> Result<(), Fail> {
        let (mut surely, mut possibly) = (0i128, 0i128);
        for (item, undecided) in self.items.iter().zip(&mut self.undecided) {
            let (may, must) = membership(item, store, &self.values)?;
            surely += i128::from(must);
            possibly += i128::from(may);
            *undecided = may && !must;
        }
        if self.above {
            self.count.set_min(store, surely)?;
        }
        if self.below {
            self.count.set_max(store, possibly)?;
        }
        let (least, most) = (
            i128::from(self.count.min(store)?),
            i128::from(self.count.max(store)?),
        );
        let full = self.above && surely == most && possibly > surely;
        let short = self.below && possibly == least && possibly > surely;
        if !full && !short {
            return Ok(());
        }
        for (item, &undecided) in self.items.iter().zip(&self.undecided) {
            if !undecided {
                continue;
            }
            if full {
                remove_all(item, store, &self.values)?;
            } else {
                item.keep_only(store, &self.values)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::{arg, fuzz, fuzz_domain_consistent, pooled_items};

    fn values(rng: &mut crate::propagators::checker::Rng) -> Vec<i64> {
        (0..rng.below(4)).map(|_| rng.below(6) as i64 - 2).collect()
    }

    #[test]
    fn among_agrees_with_its_meaning() {
        fuzz(400, |rng| {
            let mut m = Model::new();
            // Items drawn from a small pool: variables repeat.
            let (pool, items) = pooled_items(&mut m, rng);
            let count = if rng.below(4) == 0 {
                pool[0].clone()
            } else {
                arg(&mut m, rng)
            };
            let values = values(rng);
            match rng.below(4) {
                0 => m.among(items, &values, count),
                1 => m.count(items, values.first().copied().unwrap_or(0), count),
                2 => m.at_most(
                    rng.below(4) as i64 - 1,
                    items,
                    values.first().copied().unwrap_or(1),
                ),
                _ => m.at_least(
                    rng.below(4) as i64 - 1,
                    items,
                    values.first().copied().unwrap_or(1),
                ),
            }
            m
        });
    }

    /// The propagator of the model's one constraint, over a store of its domains.
    fn propagator_of(
        m: &Model<'static>,
    ) -> (
        crate::store::Store,
        Box<dyn crate::propagator::BuiltinPropagator>,
    ) {
        let mut store = crate::store::Store::with_domains(m.universes(), |_| None);
        let propagator = m.constraints()[0].kind().propagator(&mut store);
        (store, propagator)
    }

    #[test]
    fn a_count_that_is_an_item_is_read_again_until_it_stays() {
        // count([c], 3) == c, c in {0, 1, 3}: a first pass bounds c by one item (c <= 1),
        // which takes 3 from c, so a second finds none and fixes c = 0, in one run.
        let mut m = Model::new();
        let c = m.var([0i64, 1, 3]);
        m.count([&c], 3, &c);
        let (mut store, mut propagator) = propagator_of(&m);
        propagator.propagate(&mut store).expect("c = 0 is left");
        assert_eq!(store.iter(0).collect::<Vec<_>>(), [0]);
        // count([y, x, y], 2) == y, x = 2, y in {2, 0}: y >= 1 makes y = 2, which counts
        // 3: one run must see it (proptest found it, with every item then fixed).
        let mut m = Model::new();
        let (x, y) = (m.var([2i64]), m.var([2i64, 0]));
        m.count([&y, &x, &y], 2, &y);
        let (mut store, mut propagator) = propagator_of(&m);
        assert!(propagator.propagate(&mut store).is_err());
        // Over another variable, one run is all.
        let mut m = Model::new();
        let (x, c) = (m.var([0i64, 1, 3]), m.var(0..3i64));
        m.count([&x], 3, &c);
        assert!(propagator_of(&m).1.idempotent());
    }

    #[test]
    fn among_over_distinct_variables_is_domain_consistent() {
        fuzz_domain_consistent(300, |rng| {
            let mut m = Model::new();
            let n = rng.below(4) as usize;
            let items: Vec<IntArg> = (0..n).map(|_| arg(&mut m, rng)).collect();
            let count = arg(&mut m, rng);
            let values = values(rng);
            m.among(items, &values, count);
            m
        });
    }
}
