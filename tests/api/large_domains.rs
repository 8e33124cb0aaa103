//! Large domains: linear constraints over ranges are propagated by their bounds, which the
//! store reads and moves without scanning the domain, and fixing a variable writes one
//! value, not every word: counting `x == y` costs the same per value over a hundred
//! thousand values or a million (BENCHMARKS.md has the times); an
//! all-different over variables sharing a list of listed keys keeps one table per list.
//! A table read through a fixed variable, and the replay engine choosing among the values
//! its linear checks bound, cost the same per value too. And the bounds path agrees with
//! a brute force on every comparison and every shape of value list.

use crate::common;

use common::assignments;

use ambsolve::{Cmp, Engine, Model, Strategy, ValueOrder};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

#[test]
fn equal_over_a_hundred_thousand_values() {
    let n = 100_000;
    let mut m = Model::new();
    let x = m.var(0..n);
    let y = m.var(0..n);
    m.linear([(1, &x), (-1, &y)], Cmp::Eq, 0);
    let summary = m.solve(Engine::Trail).count().unwrap();
    assert_eq!(summary.solutions, n as u64);
    // One node per value of x: y follows by propagation, never by search.
    assert_eq!(summary.stats.nodes, n as u64);
}

#[test]
fn equal_and_chained_over_a_million_values() {
    let n = 1_000_000i64;
    let mut m = Model::new();
    let x = m.var(0..n);
    let y = m.var(0..n);
    m.linear([(1, &x), (-1, &y)], Cmp::Eq, 0);
    let summary = m.solve(Engine::Trail).count().unwrap();
    assert_eq!(
        (summary.solutions, summary.stats.nodes),
        (n as u64, n as u64)
    );

    // x0 < x1 < ... < x9: each bound moves the next variable's smallest value; the
    // largest solution, from the top, without a failure.
    let mut m = Model::new();
    let xs: Vec<_> = (0..10).map(|_| m.var(0..n)).collect();
    for pair in xs.windows(2) {
        m.linear([(1, &pair[0]), (-1, &pair[1])], Cmp::Lt, 0);
    }
    let solver = m
        .solve(Engine::Trail)
        .strategy(Strategy::new().values(ValueOrder::Descending));
    let mut solutions = solver.solutions();
    let first = solutions.next().unwrap();
    let values: Vec<i64> = xs.iter().map(|x| *first.value(x)).collect();
    assert_eq!(values, (n - 10..n).collect::<Vec<_>>());
    assert_eq!(solutions.stats().failures, 0);
}

#[test]
fn sums_and_descending_lists_over_large_domains() {
    let n: i64 = 50_000;
    // x + y == n - 1: y's images fall as x's rise.
    let mut m = Model::new();
    let x = m.var(0..n);
    let y = m.var(0..n);
    m.linear([(1, &x), (1, &y)], Cmp::Eq, n - 1);
    assert_eq!(m.solve(Engine::Trail).count().unwrap().solutions, n as u64);

    // A descending value list: x == y again, with x's images falling along its indices.
    let mut m = Model::new();
    let x = m.var((0..n).rev());
    let y = m.var(0..n);
    m.linear([(1, &x), (-1, &y)], Cmp::Eq, 0);
    assert_eq!(m.solve(Engine::Trail).count().unwrap().solutions, n as u64);

    // 2x == y: every even y has its x.
    let mut m = Model::new();
    let x = m.var(0..n);
    let y = m.var(0..n);
    m.linear([(2, &x), (-1, &y)], Cmp::Eq, 0);
    assert_eq!(
        m.solve(Engine::Trail).count().unwrap().solutions,
        (n as u64).div_ceil(2)
    );

    // x != y with y fixed by a bound: every x but one.
    let mut m = Model::new();
    let x = m.var(0..n);
    let y = m.var(0..n);
    m.linear([(1, &y)], Cmp::Ge, n - 1);
    m.linear([(1, &x), (-1, &y)], Cmp::Ne, 0);
    assert_eq!(
        m.solve(Engine::Trail).count().unwrap().solutions,
        n as u64 - 1
    );
}

#[test]
fn equal_on_the_replay_engine_over_a_hundred_thousand_values() {
    // x - y == 0: the linear check bounds the indices of y worth trying to one, found by
    // binary search (before, every value of y was checked for every x: n² checks, 109 s
    // for n = 10^5 in a release build; now 30 ms). In both value orders.
    let n = 100_000;
    let mut m = Model::new();
    let x = m.var(0..n);
    let y = m.var(0..n);
    m.linear([(1, &x), (-1, &y)], Cmp::Eq, 0);
    for values in [ValueOrder::Ascending, ValueOrder::Descending] {
        let summary = m
            .solve(Engine::Replay)
            .strategy(Strategy::new().values(values.clone()))
            .count()
            .unwrap();
        assert_eq!(summary.solutions, n as u64, "{values:?}");
        assert_eq!(summary.stats.failures, 0, "{values:?}");
    }
    // y <= x - 3 leaves y a prefix of its values: the count is a triangle.
    let n = 3_000u64;
    let mut m = Model::new();
    let x = m.var(0..n);
    let y = m.var(0..n);
    m.linear([(1, &y), (-1, &x)], Cmp::Le, -3);
    assert_eq!(
        m.solve(Engine::Replay).count().unwrap().solutions,
        (n - 3) * (n - 2) / 2
    );
}

#[test]
fn a_table_of_equal_pairs_over_a_hundred_thousand_values() {
    // x == y as a table: a decision on x reads the one tuple holding its value (before,
    // every live tuple at every node: n² reads, 37 s for n = 10^5 in a release build; now
    // 0.1 s).
    let n = 100_000u32;
    let mut m = Model::new();
    let x = m.var(0..n);
    let y = m.var(0..n);
    m.table_indices(&[x.id(), y.id()], (0..n).map(|i| [i, i]));
    let summary = m.solve(Engine::Trail).count().unwrap();
    assert_eq!(summary.solutions, u64::from(n));
    assert_eq!(summary.stats.nodes, u64::from(n));
}

#[test]
fn a_table_through_a_fixed_variable_keeps_every_value_it_allows() {
    // |x - y| <= 1 as a table and as two linear constraints: x fixed leaves y two or
    // three values, far apart in a wide domain, on both engines and in both orders.
    let n = 2_000i64;
    let mut table = Model::new();
    let x = table.var(0..n);
    let y = table.var(0..n);
    let pairs = (0..n).flat_map(|a| [a - 1, a, a + 1].map(|b| [a, b]));
    table.table(&[x.clone(), y.clone()], pairs);
    let mut linear = Model::new();
    let x = linear.var(0..n);
    let y = linear.var(0..n);
    linear.linear([(1, &x), (-1, &y)], Cmp::Le, 1);
    linear.linear([(1, &y), (-1, &x)], Cmp::Le, 1);
    for engine in ENGINES {
        for values in [ValueOrder::Ascending, ValueOrder::Descending] {
            let strategy = Strategy::new().values(values);
            let from_table: Vec<_> = table
                .solve(engine)
                .strategy(strategy.clone())
                .solutions()
                .map(|s| s.indices().to_vec())
                .collect();
            let from_linear: Vec<_> = linear
                .solve(engine)
                .strategy(strategy)
                .solutions()
                .map(|s| s.indices().to_vec())
                .collect();
            assert_eq!(from_table.len() as i64, 3 * n - 2);
            assert_eq!(from_table, from_linear, "{engine}");
        }
    }
}

#[test]
fn bounds_cut_a_large_domain_at_once() {
    // 3x + 5y <= 100_000 with y >= 19_000: x keeps 0..=1_666, found at the root.
    let mut m = Model::new();
    let x = m.var(0..1_000_000i64);
    let y = m.var(0..1_000_000i64);
    m.linear([(1, &y)], Cmp::Ge, 19_000);
    m.linear([(3, &x), (5, &y)], Cmp::Le, 100_000);
    let first = m
        .solve(Engine::Trail)
        .strategy(Strategy::new().values(ValueOrder::Descending))
        .first()
        .unwrap()
        .unwrap();
    assert_eq!((*first.value(&x), *first.value(&y)), (1_666, 19_000));
}

#[test]
fn listed_images_still_take_the_general_path() {
    // A shuffled list: images neither rise nor fall.
    let n = 2_000i64;
    let shuffled: Vec<i64> = (0..n).map(|i| (i * 7919) % n).collect();
    let mut m = Model::new();
    let x = m.var(shuffled);
    let y = m.var(0..n);
    m.linear([(1, &x), (-1, &y)], Cmp::Eq, 0);
    assert_eq!(m.solve(Engine::Trail).count().unwrap().solutions, n as u64);
}

#[test]
fn all_different_over_wide_domains() {
    // 1,000 variables × 1,000 values: consecutive keys.
    let n = 1_000;
    let mut m = Model::new();
    let q = m.vars("q", n, 0..n as i64);
    m.all_different(&q);
    let first = m
        .solve(Engine::Trail)
        .strategy(Strategy::first_fail())
        .first()
        .unwrap()
        .unwrap();
    let mut values: Vec<i64> = first.values(&q).into_iter().copied().collect();
    values.sort_unstable();
    assert_eq!(values, (0..n as i64).collect::<Vec<_>>());

    // Listed keys (even values plus an offset per variable), one shared list.
    let mut m = Model::new();
    let q = m.vars("q", n, (0..n as i64).map(|i| 2 * i));
    m.all_different_offset(q.iter().zip(0..));
    let first = m.solve(Engine::Trail).first().unwrap().unwrap();
    m.check(&first).unwrap();
}

#[test]
fn bounds_reasoning_agrees_with_brute_force() {
    // Rising, falling, flat, with repeats, and mixed lists; positive and negative
    // coefficients; a variable used twice.
    let lists: [Vec<i64>; 5] = [
        vec![-3, -1, 0, 0, 2, 5],
        vec![4, 4, 1, -2, -2],
        vec![7, 7, 7],
        vec![2, -4, 3, 0],
        (0..70).collect(),
    ];
    let shapes: [&[(i64, usize)]; 5] = [
        &[(1, 0), (-1, 1)],
        &[(2, 0), (3, 1), (-1, 3)],
        &[(-2, 1), (1, 2), (1, 4)],
        &[(1, 4), (-1, 0), (1, 0), (2, 3)],
        &[(-1, 4), (3, 1), (1, 0)],
    ];
    for shape in shapes {
        for cmp in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
            for rhs in [-20, -3, 0, 1, 6, 35] {
                let mut m = Model::new();
                let vars: Vec<_> = lists.iter().map(|l| m.var(l.clone())).collect();
                m.linear(shape.iter().map(|&(c, v)| (c, &vars[v])), cmp, rhs);
                let expected = assignments(&lists)
                    .iter()
                    .filter(|values| {
                        let sum: i64 = shape.iter().map(|&(c, v)| c * values[v]).sum();
                        cmp.holds(sum, rhs)
                    })
                    .count() as u64;
                for engine in ENGINES {
                    let count = m.solve(engine).count().unwrap().solutions;
                    assert_eq!(count, expected, "{shape:?} {cmp:?} {rhs} {engine:?}");
                }
            }
        }
    }
}
