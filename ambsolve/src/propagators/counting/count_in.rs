//! `|{i : x[i] ∈ V}| cmp count` for a constant set `V`: bounds on the count from the
//! items that surely and possibly take a value of `V`, and back: the count's largest
//! value reached, `V` is removed from the undecided items; its least value needing every
//! item that may, they are kept within `V`. Domain consistent when no variable repeats
//! (every count between the two bounds is reachable).

use crate::choice::Fail;
use crate::model::CountIn;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::counting::{remove_all, sides};
use crate::propagators::view::IntView;
use crate::store::Store;
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
