//! Propagators of counting: occurrences of values, cardinalities, distinct values.

mod cardinality;
mod count_eq;
mod count_in;
mod nvalue;

use crate::choice::Fail;
use crate::model::Cmp;
use crate::propagators::view::IntView;
use crate::store::Store;

/// Which sides of `occurrences cmp count` bound the occurrences: `(from above, from
/// below)` — `==` both, `<=` above (the count is at least the occurrences), `>=` below.
pub(super) fn sides(cmp: Cmp) -> (bool, bool) {
    match cmp {
        Cmp::Eq => (true, true),
        Cmp::Le | Cmp::Lt => (true, false),
        Cmp::Ge | Cmp::Gt | Cmp::Ne => (false, true),
    }
}

/// Removes every value of the sorted list `values` from `item`: value by value when they
/// are fewer than its domain, else in one pass over the domain.
pub(super) fn remove_all(item: &IntView, store: &mut Store, values: &[i64]) -> Result<(), Fail> {
    if (values.len() as u64) < u64::from(item.size(store)) {
        for &v in values {
            item.remove(store, i128::from(v))?;
        }
    } else {
        item.retain(store, |v| values.binary_search(&v).is_err())?;
    }
    Ok(())
}

/// The counting propagators against the decompositions MiniZinc's library gives (reified
/// equalities and linear sums): at the root fixpoint of the whole propagation, over
/// random value lists, each keeps no more than its decomposition does.
#[cfg(test)]
mod tests {
    use crate::model::{Cmp, Lit, Model};
    use crate::propagators::Fixpoint;
    use crate::propagators::checker::Rng;
    use crate::store::Store;
    use crate::var::Var;

    /// The value indices each variable keeps at the root fixpoint, `None` on failure.
    fn root(model: &Model<'static>) -> Option<Vec<Vec<u32>>> {
        let mut store = Store::with_domains(model.universes(), |v| model.initial_domain(v));
        let mut fixpoint = Fixpoint::new(model, None, &mut store);
        fixpoint.initial(&mut store).ok()?;
        Some(
            (0..store.num_vars())
                .map(|v| store.iter(v).collect())
                .collect(),
        )
    }

    /// Builds `cases` pairs (the global, its decomposition) over the same first
    /// variables, and checks the global keeps no more of them.
    fn at_least_as_strong(cases: u64, make: impl Fn(&mut Rng, &mut Model<'static>, bool)) {
        for case in 0..cases {
            let (mut global, mut decomposed) = (Model::new(), Model::new());
            make(&mut Rng::new(case + 1), &mut global, false);
            make(&mut Rng::new(case + 1), &mut decomposed, true);
            assert_eq!(global.error(), None);
            assert_eq!(decomposed.error(), None);
            let Some(strong) = root(&global) else {
                continue;
            };
            let weak = root(&decomposed).unwrap_or_else(|| {
                panic!("case {case}: the decomposition fails, the global does not: {global:?}")
            });
            for (v, kept) in strong.iter().enumerate() {
                assert!(
                    kept.iter().all(|i| weak[v].contains(i)),
                    "case {case}: v{v} keeps {kept:?}, its decomposition {:?}: {global:?}",
                    weak[v]
                );
            }
        }
    }

    /// A random value list: repeats, falls, negative values.
    fn list(rng: &mut Rng) -> Vec<i64> {
        (0..1 + rng.below(4))
            .map(|_| rng.below(5) as i64 - 2)
            .collect()
    }

    /// A random list of counts: small, with holes.
    fn counts(rng: &mut Rng) -> Vec<i64> {
        (0..1 + rng.below(3)).map(|_| rng.below(5) as i64).collect()
    }

    /// `b` is true exactly when `x == value` (`x` minus `value`'s variable, or a
    /// constant).
    fn equal(m: &mut Model<'static>, x: &Var<i64>, value: Result<&Var<i64>, i64>) -> Var<i64> {
        let b = m.var(0..2i64);
        match value {
            Ok(y) => m.linear_reified([(1, x), (-1, y)], Cmp::Eq, 0, &b),
            Err(v) => m.linear_reified([(1, x)], Cmp::Eq, v, &b),
        }
        b
    }

    #[test]
    fn count_of_a_variable_is_at_least_as_strong_as_its_decomposition() {
        at_least_as_strong(1000, |rng, m, decompose| {
            let pool: Vec<Var<i64>> = (0..3).map(|_| m.var(list(rng))).collect();
            let y = m.var(list(rng));
            let c = m.var(counts(rng));
            let items: Vec<Var<i64>> = (0..1 + rng.below(4))
                .map(|_| pool[rng.below(3) as usize].clone())
                .collect();
            if !decompose {
                m.count(&items, &y, &c);
                return;
            }
            let b: Vec<Var<i64>> = items.iter().map(|x| equal(m, x, Ok(&y))).collect();
            m.linear(b.iter().map(|b| (1, b)).chain([(-1, &c)]), Cmp::Eq, 0);
        });
    }

    #[test]
    fn cardinality_is_at_least_as_strong_as_its_decomposition() {
        at_least_as_strong(1000, |rng, m, decompose| {
            let items: Vec<Var<i64>> = (0..1 + rng.below(4)).map(|_| m.var(list(rng))).collect();
            let mut values = list(rng);
            values.sort_unstable();
            values.dedup();
            let counts: Vec<Var<i64>> = values.iter().map(|_| m.var(counts(rng))).collect();
            let closed = rng.below(2) == 0;
            if !decompose {
                m.global_cardinality(&items, &values, &counts, closed);
                return;
            }
            for (&v, count) in values.iter().zip(&counts) {
                let b: Vec<Var<i64>> = items.iter().map(|x| equal(m, x, Err(v))).collect();
                m.linear(b.iter().map(|b| (1, b)).chain([(-1, count)]), Cmp::Eq, 0);
            }
            // MiniZinc's implied constraint: no more counted items than items.
            m.linear(counts.iter().map(|c| (1, c)), Cmp::Le, items.len() as i64);
            if closed {
                let tuples: Vec<Vec<i64>> = values.iter().map(|&v| vec![v]).collect();
                for x in &items {
                    m.table(std::slice::from_ref(x), &tuples);
                }
            }
        });
    }

    #[test]
    fn nvalue_is_at_least_as_strong_as_its_decomposition() {
        at_least_as_strong(1000, |rng, m, decompose| {
            // Short lists, so that a count may need every value of their union.
            let pool: Vec<Var<i64>> = (0..3).map(|_| m.var(counts(rng))).collect();
            let items: Vec<Var<i64>> = (0..1 + rng.below(4))
                .map(|_| pool[rng.below(3) as usize].clone())
                .collect();
            let n = m.var(counts(rng));
            if !decompose {
                m.nvalue(&n, &items);
                return;
            }
            // n = Σ_j (some item is j), j over every value the items may take.
            let used: Vec<Var<i64>> = (-2..=4)
                .map(|j| {
                    let e = m.var(0..2i64);
                    let b: Vec<Var<i64>> = items.iter().map(|x| equal(m, x, Err(j))).collect();
                    m.clause([!Lit::from(&e)].into_iter().chain(b.iter().map(Lit::from)));
                    for b in &b {
                        m.clause([Lit::from(&e), !Lit::from(b)]);
                    }
                    e
                })
                .collect();
            m.linear(used.iter().map(|e| (1, e)).chain([(-1, &n)]), Cmp::Eq, 0);
        });
    }
}
