//! `|{i : x[i] = y}| cmp count` for a variable `y`: per value `v` of `y`, the items
//! surely and possibly equal to `v` bound the count if `y = v`; `y` keeps the values
//! whose count can be met, the count the bounds its values of `y` allow. Once `y` is
//! fixed, an undecided item is kept from its value when the count is full; and an item
//! is kept within `y`'s values when every value of `y` needs every item that may take it
//! (the reified equalities of the decomposition prune no more).

use crate::choice::Fail;
use crate::model::CountEq;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::counting::sides;
use crate::propagators::view::IntView;
use crate::store::Store;
use crate::var::VarId;

pub(crate) struct CountEqProp {
    items: Vec<IntView>,
    value: IntView,
    count: IntView,
    /// Whether the count bounds the occurrences from above (`==`, `<=`) and from below
    /// (`==`, `>=`).
    above: bool,
    below: bool,
    /// Per item, whether it is `value`'s own variable (so always equal to it).
    same: Vec<bool>,
    /// How many items are.
    always: i128,
    /// Whether the count or the value is also an item: a pass that narrows that item
    /// then leaves its own counts stale, and passes repeat until the domains stay.
    entangled: bool,
    scope: Vec<VarId>,
}

impl CountEqProp {
    pub(crate) fn new(def: &CountEq) -> Self {
        let (above, below) = sides(def.cmp);
        let value = IntView::new(&def.value);
        let same: Vec<bool> = def
            .items
            .iter()
            .map(|x| x.var().is_some() && x.var() == def.value.var())
            .collect();
        let read = |x: &crate::model::Int| {
            x.var()
                .is_some_and(|v| def.items.iter().any(|i| i.var() == Some(v)))
        };
        CountEqProp {
            entangled: read(&def.value) || read(&def.count),
            items: def.items.iter().map(IntView::new).collect(),
            value,
            count: IntView::new(&def.count),
            above,
            below,
            always: same.iter().filter(|&&s| s).count() as i128,
            same,
            scope: def.vars.clone(),
        }
    }

    /// For each candidate value (sorted, distinct), how many items surely and how many
    /// possibly take it (the items that are `value`'s variable left out).
    fn occurrences(
        &self,
        store: &Store,
        candidates: &[i64],
    ) -> Result<(Vec<i128>, Vec<i128>), Fail> {
        let k = candidates.len();
        let (mut surely, mut possibly) = (vec![0i128; k], vec![0i128; k]);
        let mut seen = vec![usize::MAX; k];
        for (i, item) in self.items.iter().enumerate() {
            if self.same[i] {
                continue;
            }
            if let Some(v) = item.fixed(store) {
                if let Ok(j) = candidates.binary_search(&v) {
                    surely[j] += 1;
                    possibly[j] += 1;
                }
                continue;
            }
            if (k as u64) < u64::from(item.size(store)) {
                for (j, &v) in candidates.iter().enumerate() {
                    if item.contains(store, i128::from(v)) {
                        possibly[j] += 1;
                    }
                }
            } else {
                for v in item.values(store) {
                    if let Ok(j) = candidates.binary_search(&v) {
                        if seen[j] != i {
                            seen[j] = i;
                            possibly[j] += 1;
                        }
                    }
                }
            }
        }
        Ok((surely, possibly))
    }

    /// One reading of the items, the value and the count, each narrowed by the others.
    fn pass(&self, store: &mut Store) -> Result<(), Fail> {
        let mut candidates: Vec<i64> = self.value.values(store).collect();
        candidates.sort_unstable();
        candidates.dedup();
        let (mut surely, mut possibly) = self.occurrences(store, &candidates)?;
        for (s, p) in surely.iter_mut().zip(&mut possibly) {
            *s += self.always;
            *p += self.always;
        }
        // The values of `y` whose number of occurrences can meet the count.
        let mut counts: Vec<i64> = self.count.values(store).collect();
        counts.sort_unstable();
        let meets = |least: i128, most: i128| {
            let from = counts.partition_point(|&c| i128::from(c) < least);
            match (self.above, self.below) {
                (true, true) => counts.get(from).is_some_and(|&c| i128::from(c) <= most),
                // occurrences <= count: some count at least `least`.
                (true, false) => from < counts.len(),
                // occurrences >= count: some count at most `most`.
                _ => counts.first().is_some_and(|&c| i128::from(c) <= most),
            }
        };
        let supported: Vec<bool> = (0..candidates.len())
            .map(|j| meets(surely[j], possibly[j]))
            .collect();
        self.value.retain(store, |v| {
            candidates.binary_search(&v).is_ok_and(|j| supported[j])
        })?;
        let kept = || (0..candidates.len()).filter(|&j| supported[j]);
        let least = kept().map(|j| surely[j]).min().ok_or(Fail)?;
        let most = kept().map(|j| possibly[j]).max().ok_or(Fail)?;
        if self.above {
            self.count.set_min(store, least)?;
        }
        if self.below {
            self.count.set_max(store, most)?;
        }
        let (low, high) = (
            i128::from(self.count.min(store)?),
            i128::from(self.count.max(store)?),
        );
        // Once `y` has one value left: an undecided item cannot take it if one more
        // occurrence is too many. (With more left, an item may take a value `y` does not.)
        let full: Vec<i64> = if self.above && kept().count() == 1 {
            kept()
                .filter(|&j| surely[j] >= high)
                .map(|j| candidates[j])
                .collect()
        } else {
            Vec::new()
        };
        // Every value of `y` needs every item that may take it.
        let tight = self.below && kept().all(|j| possibly[j] <= low);
        let wanted: Vec<i64> = kept().map(|j| candidates[j]).collect();
        for (i, item) in self.items.iter().enumerate() {
            if self.same[i] || item.fixed(store).is_some() {
                continue;
            }
            for &v in &full {
                item.remove(store, i128::from(v))?;
            }
            if tight && wanted.iter().all(|&v| item.contains(store, i128::from(v))) {
                item.retain(store, |v| wanted.binary_search(&v).is_ok())?;
            }
        }
        Ok(())
    }
}

impl<'a> Kind<'a> for CountEq {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(CountEqProp::new(self))
    }
}

impl BuiltinPropagator for CountEqProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        // As `count` over a set (count_in): when the count or the value is an item too, a
        // pass may decide that item with counts read before, so another pass follows,
        // until no domain of the scope shrinks (else a run could end with every item
        // fixed and the count wrong).
        let total = |store: &Store| -> u64 {
            self.scope
                .iter()
                .map(|v| u64::from(store.size(v.index())))
                .sum()
        };
        loop {
            let before = self.entangled.then(|| total(store));
            self.pass(store)?;
            if before.is_none_or(|before| before == total(store)) {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::{arg, fixpoint, fuzz};

    #[test]
    fn count_of_a_variable_agrees_with_its_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let pool: Vec<IntArg> = (0..3).map(|_| arg(&mut m, rng)).collect();
            let value = IntArg::from(&m.var([1i64, -1, 2, 1]));
            let n = rng.below(5) as usize;
            // Items from a small pool (variables repeat), sometimes the value itself.
            let items: Vec<IntArg> = (0..n)
                .map(|_| match rng.below(5) {
                    0 => value.clone(),
                    k => pool[k as usize % 3].clone(),
                })
                .collect();
            let count = match rng.below(5) {
                0 => pool[0].clone(),
                1 => value.clone(),
                _ => arg(&mut m, rng),
            };
            match rng.below(3) {
                0 => m.count(items, value, count),
                1 => m.at_most(rng.below(4) as i64 - 1, items, value),
                _ => m.at_least(rng.below(4) as i64 - 1, items, value),
            }
            m
        });
    }

    #[test]
    fn the_value_keeps_what_its_count_allows_and_bounds_the_count() {
        // x = [1, 1, 0..3], y in {1, 2}, count 1: y = 1 would count 2, so y = 2, which
        // the free item must then take.
        let mut m = Model::new();
        let x = [m.var([1i64]), m.var([1i64]), m.var(0..3i64)];
        let y = m.var(1..3i64);
        m.count(&x, &y, 1);
        let kept = fixpoint(&m).unwrap();
        assert_eq!((&kept[3], &kept[2]), (&vec![1], &vec![2]));
        // A chosen count: y = 1 counts 2 or 3, y = 2 counts 0 or 1, never 4.
        let mut m = Model::new();
        let x = [m.var([1i64]), m.var([1i64]), m.var(0..3i64)];
        let y = m.var(1..3i64);
        let c = m.var(0..5i64);
        m.count(&x, &y, &c);
        assert_eq!(fixpoint(&m).unwrap()[4], [0, 1, 2, 3]);
    }
}
