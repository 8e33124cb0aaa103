//! The global cardinality constraint, value by value as `count` (each count bounded by
//! the items that surely and possibly take its value, and back), and as a whole: the
//! occurrences of the counted values add up to the number of items that take one, which
//! lies between the items surely and possibly taking one (every item, closed).

use crate::choice::Fail;
use crate::model::Cardinality;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::counting::remove_all;
use crate::propagators::view::IntView;
use crate::store::Store;
use crate::var::VarId;

pub(crate) struct CardinalityProp {
    items: Vec<IntView>,
    /// The counted values, sorted, without repeats.
    keys: Vec<i64>,
    /// Each count, with the position of its value in `keys`.
    counts: Vec<(usize, IntView)>,
    closed: bool,
    scope: Vec<VarId>,
}

/// What the items say of the counted values.
struct Tally {
    /// Per key, the items fixed to it and the items that may take it.
    surely: Vec<i128>,
    possibly: Vec<i128>,
    /// The items whose every value is counted, and those with a counted value.
    inside: i128,
    touching: i128,
}

impl CardinalityProp {
    pub(crate) fn new(def: &Cardinality) -> Self {
        let mut keys = def.values.clone();
        keys.sort_unstable();
        keys.dedup();
        let counts = def
            .values
            .iter()
            .zip(&def.counts)
            .map(|(v, c)| (keys.partition_point(|k| k < v), IntView::new(c)))
            .collect();
        CardinalityProp {
            items: def.items.iter().map(IntView::new).collect(),
            keys,
            counts,
            closed: def.closed,
            scope: def.vars.clone(),
        }
    }

    /// Counts what the items may and must take; closed, keeps them within the keys.
    fn tally(&self, store: &mut Store) -> Result<Tally, Fail> {
        let k = self.keys.len();
        let mut tally = Tally {
            surely: vec![0; k],
            possibly: vec![0; k],
            inside: 0,
            touching: 0,
        };
        let mut seen = vec![usize::MAX; k];
        let key = |v: i64| self.keys.binary_search(&v).ok();
        for (i, item) in self.items.iter().enumerate() {
            if let Some(v) = item.fixed(store) {
                match key(v) {
                    Some(j) => {
                        tally.surely[j] += 1;
                        tally.possibly[j] += 1;
                        tally.inside += 1;
                        tally.touching += 1;
                    }
                    None if self.closed => return Err(Fail),
                    None => {}
                }
                continue;
            }
            let (mut some, mut outside) = (false, false);
            if (k as u64) < u64::from(item.size(store)) {
                for (j, &v) in self.keys.iter().enumerate() {
                    if item.contains(store, i128::from(v)) {
                        tally.possibly[j] += 1;
                        some = true;
                    }
                }
                outside = item.values(store).any(|v| key(v).is_none());
            } else {
                for v in item.values(store) {
                    match key(v) {
                        Some(j) if seen[j] != i => {
                            seen[j] = i;
                            tally.possibly[j] += 1;
                            some = true;
                        }
                        Some(_) => {}
                        None => outside = true,
                    }
                }
            }
            if self.closed && outside {
                item.retain(store, |v| key(v).is_some())?;
                outside = false;
            }
            tally.inside += i128::from(!outside);
            tally.touching += i128::from(some);
        }
        Ok(tally)
    }
}

impl CardinalityProp {
    /// Once every item and count is fixed: whether each count is its value's occurrences
    /// (a run's own pruning can fix them after its tally, when counts are items too).
    fn decided(&self, store: &Store) -> Option<Result<(), Fail>> {
        let mut occurrences = vec![0i128; self.keys.len()];
        for item in &self.items {
            match self.keys.binary_search(&item.fixed(store)?) {
                Ok(j) => occurrences[j] += 1,
                Err(_) if self.closed => return Some(Err(Fail)),
                Err(_) => {}
            }
        }
        for (j, count) in &self.counts {
            if i128::from(count.fixed(store)?) != occurrences[*j] {
                return Some(Err(Fail));
            }
        }
        Some(Ok(()))
    }

    /// One run: the counts from the tally, the items from the counts.
    fn run(&self, store: &mut Store) -> Result<(), Fail> {
        let tally = self.tally(store)?;
        // Each value's occurrences: within its items' reach and its counts' bounds.
        let mut low = tally.surely.clone();
        let mut high = tally.possibly.clone();
        for (j, count) in &self.counts {
            low[*j] = low[*j].max(i128::from(count.min(store)?));
            high[*j] = high[*j].min(i128::from(count.max(store)?));
        }
        // Their sum: within the items inside and touching the keys.
        let (sum_low, sum_high): (i128, i128) = (low.iter().sum(), high.iter().sum());
        if sum_low > tally.touching || sum_high < tally.inside {
            return Err(Fail);
        }
        for j in 0..self.keys.len() {
            let (l, h) = (low[j], high[j]);
            high[j] = h.min(tally.touching - (sum_low - l));
            low[j] = l.max(tally.inside - (sum_high - h));
            if low[j] > high[j] {
                return Err(Fail);
            }
        }
        for (j, count) in &self.counts {
            count.keep_within(store, low[*j], high[*j])?;
        }
        // A value whose occurrences are full leaves the other items; one that needs
        // every item that may take it gets them.
        let full: Vec<i64> = (0..self.keys.len())
            .filter(|&j| tally.surely[j] >= high[j] && tally.possibly[j] > tally.surely[j])
            .map(|j| self.keys[j])
            .collect();
        let needed: Vec<i64> = (0..self.keys.len())
            .filter(|&j| tally.possibly[j] <= low[j] && tally.possibly[j] > tally.surely[j])
            .map(|j| self.keys[j])
            .collect();
        if full.is_empty() && needed.is_empty() {
            return Ok(());
        }
        for item in &self.items {
            if item.fixed(store).is_some() {
                continue;
            }
            for &v in &needed {
                if item.contains(store, i128::from(v)) {
                    item.fix(store, i128::from(v))?;
                }
            }
            if !full.is_empty() && item.fixed(store).is_none() {
                remove_all(item, store, &full)?;
            }
        }
        Ok(())
    }
}

impl<'a> Kind<'a> for Cardinality {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(CardinalityProp::new(self))
    }
}

impl BuiltinPropagator for CardinalityProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.run(store)?;
        self.decided(store).unwrap_or(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::{
        arg, fixpoint, fuzz, fuzz_domain_consistent, pooled_items,
    };

    #[test]
    fn cardinality_agrees_with_its_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let (pool, items) = pooled_items(&mut m, rng);
            // Values that repeat, fall and mix, negative ones too.
            let values: Vec<i64> = (0..rng.below(4)).map(|_| rng.below(6) as i64 - 2).collect();
            let counts: Vec<IntArg> = values
                .iter()
                .map(|_| match rng.below(4) {
                    0 => pool[rng.below(3) as usize].clone(),
                    _ => arg(&mut m, rng),
                })
                .collect();
            m.global_cardinality(items, &values, counts, rng.below(2) == 0);
            m
        });
    }

    #[test]
    fn cardinality_of_one_value_over_distinct_variables_is_domain_consistent() {
        fuzz_domain_consistent(300, |rng| {
            let mut m = Model::new();
            let n = rng.below(4) as usize;
            let items: Vec<IntArg> = (0..n).map(|_| arg(&mut m, rng)).collect();
            let value = rng.below(6) as i64 - 2;
            let count = arg(&mut m, rng);
            m.global_cardinality(items, &[value], [count], false);
            m
        });
    }

    #[test]
    fn the_counts_add_up_to_the_items_that_take_a_counted_value() {
        // Three items over 0..2, closed over [0, 1], one 0: two 1s (each count alone
        // allows 0..=3).
        let mut m = Model::new();
        let x = m.vars("x", 3, 0..2i64);
        let c = m.var(0..5i64);
        m.global_cardinality(&x, &[0, 1], [IntArg::from(1), IntArg::from(&c)], true);
        assert_eq!(fixpoint(&m).unwrap()[3], [2]);
        // Open, with a third value possible: at most two 1s.
        let mut m = Model::new();
        let x = m.vars("x", 3, 0..3i64);
        let c = m.var(0..5i64);
        m.global_cardinality(&x, &[0, 1], [IntArg::from(1), IntArg::from(&c)], false);
        assert_eq!(fixpoint(&m).unwrap()[3], [0, 1, 2]);
    }
}
