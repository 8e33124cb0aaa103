//! Arithmetic at the ends of `i64`: all-different keys pushed past them by offsets, linear
//! sums of extreme products. Every count is exact on both engines (and checked against a
//! brute force computed in `i128`), or the model is refused with a message; nothing wraps
//! and nothing panics (these tests run with overflow checks on).

use crate::common;

use common::assignments;

use ambsolve::{Checking, Cmp, Engine, Model, SearchError, Var};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

/// Counts the solutions of `model` on both engines, with propagation and generate-and-test,
/// checks each solution against the model, and returns the count all agree on.
fn count_everywhere(model: &Model<'_>) -> u64 {
    let mut counts = Vec::new();
    for engine in ENGINES {
        for checking in [Checking::Early, Checking::AtEnd] {
            let solutions: Vec<_> = model
                .solve(engine)
                .checking(checking)
                .try_solutions()
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("{engine:?} {checking:?}: {e}"));
            for solution in &solutions {
                model.check(solution).unwrap();
            }
            counts.push(solutions.len() as u64);
        }
    }
    assert!(counts.iter().all(|&c| c == counts[0]), "{counts:?}");
    counts[0]
}

/// All-different over `x_i + offset_i`, against the brute force.
fn check_offsets(terms: &[(Vec<i64>, i64)]) {
    let mut model = Model::new();
    let vars: Vec<Var<i64>> = terms
        .iter()
        .map(|(values, _)| model.var(values.clone()))
        .collect();
    model.all_different_offset(vars.iter().zip(terms.iter().map(|t| t.1)));
    let lists: Vec<Vec<i64>> = terms.iter().map(|t| t.0.clone()).collect();
    let expected = assignments(&lists)
        .iter()
        .filter(|values| {
            let mut keys: Vec<i128> = values
                .iter()
                .zip(terms)
                .map(|(&x, (_, offset))| i128::from(x) + i128::from(*offset))
                .collect();
            keys.sort_unstable();
            keys.windows(2).all(|w| w[0] != w[1])
        })
        .count() as u64;
    assert_eq!(count_everywhere(&model), expected, "{terms:?}");
}

#[test]
fn offsets_at_the_ends_of_i64_count_exactly() {
    for engine in ENGINES {
        let mut model = Model::new();
        let x = model.var(0..3i64);
        let y = model.var(0..3i64);
        model.all_different_offset([(&x, i64::MAX), (&y, i64::MIN)]);
        assert_eq!(
            model.solve(engine).count().unwrap().solutions,
            9,
            "{engine:?}"
        );
    }
    check_offsets(&[((0..3).collect(), i64::MAX), ((0..3).collect(), i64::MIN)]);
}

#[test]
fn keys_that_meet_only_past_the_end_of_i64_collide() {
    let (max, min) = (i64::MAX, i64::MIN);
    // y + (MAX - 2) and z + MAX meet at MAX exactly; z's other keys lie past it.
    check_offsets(&[
        (vec![min, min + 1], 0),
        ((0..3).collect(), max - 2),
        ((0..3).collect(), max),
    ]);
    // The same below MIN: keys meet at MIN - 1 and MIN - 2, outside i64.
    check_offsets(&[
        ((-2..1).collect(), min),
        ((-4..-1).collect(), min + 2),
        (vec![max], 0),
    ]);
    // Values at both ends, offsets at both ends: sums meet at -1 and past either end.
    check_offsets(&[
        (vec![max, max - 1], min),
        (vec![min, min + 1], max),
        (vec![-1, 0], 0),
        (vec![max], max),
    ]);
}

#[test]
fn listed_keys_past_the_ends_of_i64() {
    let (max, min) = (i64::MAX, i64::MIN);
    // Values that are not consecutive: keys are listed, not shifted.
    let spread = vec![min, -7, 0, 5, max];
    check_offsets(&[
        (spread.clone(), max),
        (spread.clone(), min),
        (spread.clone(), 0),
        (vec![-1, 0, max], -1),
    ]);
    // A shared list with offsets: the variables share one list, one set of keys.
    let mut model = Model::new();
    let xs = model.vars("x", 3, [min, 0, max]);
    model.all_different_offset(xs.iter().zip([max, 0, min]));
    let lists = vec![vec![min, 0, max]; 3];
    let expected = assignments(&lists)
        .iter()
        .filter(|v| {
            let keys = [
                i128::from(v[0]) + i128::from(max),
                i128::from(v[1]),
                i128::from(v[2]) + i128::from(min),
            ];
            keys[0] != keys[1] && keys[0] != keys[2] && keys[1] != keys[2]
        })
        .count() as u64;
    assert_eq!(count_everywhere(&model), expected);
}

#[test]
fn fused_all_different_with_extreme_offsets() {
    // Three constraints over the same variables (fused into one propagator, as n-queens'
    // are): plain, + i·MAX, + i·MIN.
    let mut model = Model::new();
    let q = model.vars("q", 4, 0..4i64);
    model.all_different(&q);
    model.all_different_offset(q.iter().zip([0, i64::MAX, 0, i64::MAX]));
    model.all_different_offset(q.iter().zip([i64::MIN, 0, i64::MIN, 0]));
    let lists = vec![(0..4).collect::<Vec<i64>>(); 4];
    let distinct = |keys: [i128; 4]| (0..4).all(|a| (a + 1..4).all(|b| keys[a] != keys[b]));
    let expected = assignments(&lists)
        .iter()
        .filter(|v| {
            let at = |i: usize| i128::from(v[i]);
            let (max, min) = (i128::from(i64::MAX), i128::from(i64::MIN));
            distinct([at(0), at(1), at(2), at(3)])
                && distinct([at(0), at(1) + max, at(2), at(3) + max])
                && distinct([at(0) + min, at(1), at(2) + min, at(3)])
        })
        .count() as u64;
    assert_eq!(count_everywhere(&model), expected);
}

/// `Σ coef_i × x_i cmp rhs` over small lists of extreme values, against the brute force.
fn check_linear(terms: &[(i64, Vec<i64>)], cmp: Cmp, rhs: i64) {
    let mut model = Model::new();
    let vars: Vec<Var<i64>> = terms
        .iter()
        .map(|(_, values)| model.var(values.clone()))
        .collect();
    model.linear(terms.iter().zip(&vars).map(|((c, _), v)| (*c, v)), cmp, rhs);
    let lists: Vec<Vec<i64>> = terms.iter().map(|t| t.1.clone()).collect();
    let expected = assignments(&lists)
        .iter()
        .filter(|values| {
            let sum: i128 = values
                .iter()
                .zip(terms)
                .map(|(&x, (coef, _))| i128::from(x) * i128::from(*coef))
                .sum();
            cmp.holds(sum, i128::from(rhs))
        })
        .count() as u64;
    assert_eq!(
        count_everywhere(&model),
        expected,
        "{terms:?} {cmp:?} {rhs}"
    );
}

#[test]
fn linear_sums_of_extreme_products_are_exact() {
    let (max, min) = (i64::MAX, i64::MIN);
    let ends = vec![min, min + 1, -1, 0, 1, max - 1, max];
    let falling: Vec<i64> = ends.iter().rev().copied().collect();
    let mixed = vec![0, max, min, 1, -1];
    for cmp in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
        for rhs in [min, -1, 0, 1, max] {
            // The largest sum the model accepts: two products of MAX × MIN.
            check_linear(&[(max, ends.clone()), (max, falling.clone())], cmp, rhs);
            check_linear(&[(min + 1, mixed.clone()), (1, ends.clone())], cmp, rhs);
            check_linear(&[(-1, ends.clone()), (1, falling.clone())], cmp, rhs);
        }
    }
}

#[test]
fn a_repeated_variable_adds_its_coefficients_exactly() {
    let max = i64::MAX;
    let mut model = Model::new();
    let x = model.var([-max, -1, 0, 1, max]);
    // 2·MAX·x: beyond i64 for any x but 0, inside i128.
    model.linear([(max, &x), (max, &x)], Cmp::Gt, max);
    assert_eq!(count_everywhere(&model), 2);
    let mut model = Model::new();
    let x = model.var([-max, -1, 0, 1, max]);
    model.linear([(max, &x), (-max, &x)], Cmp::Eq, 0);
    assert_eq!(count_everywhere(&model), 5);
}

#[test]
fn sums_that_could_overflow_i128_are_refused() {
    let min = i64::MIN;
    let mut model = Model::new();
    let x = model.var([min, 0]);
    let y = model.var([min, 0]);
    // MIN × MIN = 2^126; two of them are 2^127, one more than an i128 holds.
    model.linear([(min, &x), (min, &y)], Cmp::Ge, 0);
    for engine in ENGINES {
        let error = model.solve(engine).count().unwrap_err();
        assert!(
            matches!(&error, SearchError::InvalidModel(message) if message.contains("i128")),
            "{error}"
        );
    }
}
