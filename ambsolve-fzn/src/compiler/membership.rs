//! `x ∈ S` for a variable too wide to list: posted with the public `Model` API as bounds
//! and, for the holes, one 0/1 variable per interval of `S` (it says which interval `x`
//! is in) with half-reified bounds. Used for a domain with holes too wide to list
//! (`prepare_variables`), and `set_in` / `set_in_reif` / `set_in_imp` and `among` over
//! such a variable (`builtins`, `builtins_global`).
//!
//! Every variable introduced is a function of `x` (and of the literal a reified form
//! ties to): a count of solutions counts the same assignments as without them.

use ambsolve::{Cmp, Lit, Model, Var};

use super::int_set::{IntSet, width};

/// A hole of at most this many values is cut by one `x != v` a value rather than by an
/// interval's variable: cheaper, and it takes the value out of `x`'s domain at once.
const SMALL_HOLE: u128 = 8;

/// `x ∈ set`, for `x` over `within` (its domain, or a superset of it): bounds, `x != v`
/// for the values of small holes, and for the wider ones a 0/1 variable per interval left
/// (exactly one of them true, each implying `x` in its interval).
pub(crate) fn constrain(model: &mut Model<'static>, x: &Var<i64>, within: &IntSet, set: &IntSet) {
    let Some((low, high)) = within.hull() else {
        return;
    };
    let inside = set.intersect(&IntSet::range(low, high));
    let Some((first, last)) = inside.hull() else {
        // No value of `x` is in the set.
        model.clause(std::iter::empty::<Lit>());
        return;
    };
    if first > low {
        model.linear([(1, x)], Cmp::Ge, first);
    }
    if last < high {
        model.linear([(1, x)], Cmp::Le, last);
    }
    // The small holes go value by value; the intervals between the wide ones stay.
    let mut intervals: Vec<(i64, i64)> = Vec::new();
    for &(l, h) in inside.ranges() {
        match intervals.last_mut() {
            Some(previous) if width(previous.1 + 1, l - 1) <= SMALL_HOLE => {
                for value in previous.1 + 1..l {
                    model.linear([(1, x)], Cmp::Ne, value);
                }
                previous.1 = h;
            }
            _ => intervals.push((l, h)),
        }
    }
    if intervals.len() < 2 {
        return;
    }
    let choices = in_one_of(model, x, &intervals, (first, last));
    model.clause(choices);
}

/// `lit ⇔ x ∈ set` (`full`), or `lit ⇒ x ∈ set`, for `x` over `within`: each side a
/// disjunction over intervals (those of the set, and for `full` those of its complement
/// within `x`'s hull), a 0/1 variable per interval, true only with `lit` (resp. `!lit`)
/// and implying `x` in its interval. One interval needs no variable: `lit` itself implies
/// its bounds.
pub(crate) fn reify(
    model: &mut Model<'static>,
    x: &Var<i64>,
    within: &IntSet,
    set: &IntSet,
    lit: Lit,
    full: bool,
) {
    let Some((low, high)) = within.hull() else {
        return;
    };
    let inside = set.intersect(&IntSet::range(low, high));
    implies_one_of(model, x, (low, high), inside.ranges(), lit);
    if full {
        let outside = set.complement_within(low, high);
        implies_one_of(model, x, (low, high), outside.ranges(), !lit);
    }
}

/// `lit ⇒ x ∈ ∪ intervals`, for `x` within `hull`.
fn implies_one_of(
    model: &mut Model<'static>,
    x: &Var<i64>,
    hull: (i64, i64),
    intervals: &[(i64, i64)],
    lit: Lit,
) {
    match intervals {
        [] => model.clause([!lit]),
        [(l, h)] => bounds_implied(model, x, hull, (*l, *h), lit),
        _ => {
            let choices = in_one_of(model, x, intervals, hull);
            for &choice in &choices {
                model.clause([!choice, lit]);
            }
            model.clause(std::iter::once(!lit).chain(choices));
        }
    }
}

/// A 0/1 variable per interval, each implying `x` in its interval (`x` within `hull`):
/// their literals. The intervals are disjoint, so at most one is true.
fn in_one_of(
    model: &mut Model<'static>,
    x: &Var<i64>,
    intervals: &[(i64, i64)],
    hull: (i64, i64),
) -> Vec<Lit> {
    intervals
        .iter()
        .map(|&interval| {
            let choice = model.range_var(0..=1);
            let lit = Lit::from(&choice);
            bounds_implied(model, x, hull, interval, lit);
            lit
        })
        .collect()
}

/// `lit ⇒ low <= x <= high`, leaving out a bound `x`'s hull already gives.
fn bounds_implied(
    model: &mut Model<'static>,
    x: &Var<i64>,
    hull: (i64, i64),
    (low, high): (i64, i64),
    lit: Lit,
) {
    if low > hull.0 {
        model.linear_implied([(1, x)], Cmp::Ge, low, lit);
    }
    if high < hull.1 {
        model.linear_implied([(1, x)], Cmp::Le, high, lit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ambsolve::Engine;

    /// The values of `x` over `low..=high` in the solutions of `post`, each once.
    fn values(low: i64, high: i64, post: impl Fn(&mut Model<'static>, &Var<i64>)) -> Vec<i64> {
        let mut model = Model::new();
        let x = model.range_var(low..=high);
        post(&mut model, &x);
        let mut found = Vec::new();
        for solution in model.solve(Engine::Trail).try_solutions() {
            let solution = solution.expect("a solution");
            model.check(&solution).expect("checked");
            found.push(solution.int_value(&x));
        }
        let count = found.len();
        found.dedup();
        assert_eq!(
            found.len(),
            count,
            "a value twice: its variables are not functions of it"
        );
        found
    }

    #[test]
    fn constrain_keeps_exactly_the_values_of_the_set() {
        let set = IntSet::from_values([-3, 0, 1, 2, 5, 30, 31, 45, 46, 47, 60]);
        let within = IntSet::range(-1, 50);
        let found = values(-1, 50, |m, x| constrain(m, x, &within, &set));
        assert_eq!(found, [0, 1, 2, 5, 30, 31, 45, 46, 47]);
        let found = values(0, 9, |m, x| constrain(m, x, &IntSet::range(0, 9), &set));
        assert_eq!(found, [0, 1, 2, 5]);
        let none = values(0, 9, |m, x| {
            constrain(m, x, &IntSet::range(0, 9), &IntSet::range(20, 30));
        });
        assert!(none.is_empty());
    }

    #[test]
    fn reify_ties_the_literal_to_membership() {
        let sets = [
            IntSet::from_values([1, 2, 3, 20, 21, 40]),
            IntSet::range(5, 100),
            IntSet::range(-9, 3),
            IntSet::range(60, 70),
            IntSet::range(0, 50),
        ];
        for set in &sets {
            for full in [true, false] {
                let mut model = Model::new();
                let x = model.range_var(0..=50);
                let r = model.range_var(0..=1);
                reify(
                    &mut model,
                    &x,
                    &IntSet::range(0, 50),
                    set,
                    Lit::from(&r),
                    full,
                );
                let mut found = Vec::new();
                for solution in model.solve(Engine::Trail).try_solutions() {
                    let solution = solution.expect("a solution");
                    model.check(&solution).expect("checked");
                    found.push((solution.int_value(&x), solution.int_value(&r)));
                }
                found.sort_unstable();
                let mut expected: Vec<(i64, i64)> = (0..=50)
                    .flat_map(|v| {
                        let inside = set.contains(v);
                        [(v, 0), (v, 1)].into_iter().filter(move |&(_, r)| {
                            if full {
                                (r == 1) == inside
                            } else {
                                r == 0 || inside
                            }
                        })
                    })
                    .collect();
                expected.sort_unstable();
                assert_eq!(found, expected, "{set:?} full {full}");
            }
        }
    }
}
