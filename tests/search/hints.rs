//! Hints (warm starts, `Model::hint`): a feasible full hint is the first solution, found
//! without a failure, on the trail engine, plain or learning, in any variable order; hints
//! that conflict or name values a variable lacks change no count and no optimum.

use ambsolve::{Engine, Model, Strategy, Var, VarOrder};

/// n-queens, its rows' columns.
fn queens(n: usize) -> (Model<'static>, Vec<Var<i64>>) {
    let mut m = Model::new();
    let q = m.vars("q", n, 0..n as i64);
    m.all_different(&q);
    m.all_different_offset(q.iter().enumerate().map(|(i, x)| (x, i as i64)));
    m.all_different_offset(q.iter().enumerate().map(|(i, x)| (x, -(i as i64))));
    (m, q)
}

/// A solution of 12 queens that ascending values do not find first (the last in
/// lexicographic order).
const TWELVE: [i64; 12] = [11, 9, 7, 4, 2, 0, 6, 1, 10, 5, 3, 8];

fn strategies() -> Vec<(Strategy, &'static str)> {
    vec![
        (Strategy::new(), "input order"),
        (Strategy::first_fail(), "first fail"),
        (Strategy::new().vars(VarOrder::DomWDeg), "dom/wdeg"),
        (Strategy::new().learning(true), "learning"),
        (
            Strategy::first_fail().learning(true).alternating(true),
            "learning, alternating",
        ),
    ]
}

#[test]
fn a_full_feasible_hint_is_the_first_solution() {
    let (mut m, q) = queens(12);
    // The hint is a solution.
    for (i, a) in TWELVE.iter().enumerate() {
        for (j, b) in TWELVE.iter().enumerate().skip(i + 1) {
            assert_ne!(a, b);
            assert_ne!(a.abs_diff(*b), (j - i) as u64);
        }
    }
    for (x, &v) in q.iter().zip(&TWELVE) {
        m.hint(x, v);
    }
    for (strategy, what) in strategies() {
        let summary = m
            .solve(Engine::Trail)
            .strategy(strategy.clone())
            .limits(ambsolve::Limits::new().solutions(1))
            .count()
            .unwrap();
        assert_eq!(summary.stats.failures, 0, "{what}: no failure on the way");
        let first = m.solve(Engine::Trail).strategy(strategy).first().unwrap();
        let first = first.expect("a solution");
        let found: Vec<i64> = q.iter().map(|x| *first.value(x)).collect();
        assert_eq!(found, TWELVE, "{what}");
    }
}

#[test]
fn hints_that_conflict_change_no_count() {
    let (plain, _) = queens(7);
    let expected = plain.solve(Engine::Trail).count().unwrap().solutions;
    assert_eq!(expected, 40);
    let (mut m, q) = queens(7);
    // Every row hinted to column 3: all but one conflict; a value no row has is ignored.
    for x in &q {
        m.hint(x, 3);
    }
    m.hint(&q[6], 99);
    for (strategy, what) in strategies() {
        let count = m.solve(Engine::Trail).strategy(strategy).count().unwrap();
        assert_eq!(count.solutions, expected, "{what}");
    }
    assert_eq!(m.solve(Engine::Replay).count().unwrap().solutions, expected);
}

#[test]
fn a_hint_changes_no_optimum() {
    // The largest x + 2y with x + y <= 7 over 0..10: 14 (x = 0, y = 7); hinted far away.
    let mut m = Model::new();
    let x = m.var(0..10i64);
    let y = m.var(0..10i64);
    m.linear([(1, &x), (1, &y)], ambsolve::Cmp::Le, 7);
    m.maximize([(1, &x), (2, &y)]);
    m.hint(&x, 7);
    m.hint(&y, 0);
    for (strategy, what) in strategies() {
        let mut improving = m
            .solve(Engine::Trail)
            .strategy(strategy.clone())
            .improving();
        let first = improving.next().expect("a first solution");
        assert_eq!(
            (*first.solution.value(&x), *first.solution.value(&y)),
            (7, 0),
            "{what}: the hint first"
        );
        let best = m.solve(Engine::Trail).strategy(strategy).best().unwrap();
        assert_eq!((best.objective, best.proved), (Some(14), true), "{what}");
    }
}
