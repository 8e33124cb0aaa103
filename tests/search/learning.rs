//! The trail engine's search that learns (`Strategy::learning`): the same solutions,
//! counts and optima as the plain search, on known problems and random ones.

use ambsolve::{Cmp, Engine, Model, Strategy};

fn learning() -> Strategy {
    Strategy::new().learning(true)
}

fn queens(n: usize) -> Model<'static> {
    let mut m = Model::new();
    let q: Vec<_> = (0..n).map(|_| m.var(0..n as i64)).collect();
    m.all_different(&q);
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i64;
            m.require((&q[i], &q[j]), move |a, b| (a - b).abs() != d);
        }
    }
    m
}

#[test]
fn queens_are_counted_exactly() {
    // OEIS A000170: every solution once, each one a solution.
    for (n, known) in [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)] {
        let m = queens(n);
        let mut found: Vec<Vec<u32>> = m
            .solve(Engine::Trail)
            .strategy(learning())
            .solutions()
            .map(|a| {
                assert!(m.check(&a).is_ok(), "n = {n}");
                a.indices().to_vec()
            })
            .collect();
        found.sort();
        found.dedup();
        assert_eq!(found.len(), known, "n = {n}");
    }
}

/// The plain search's count of `m`, and the learning search's.
fn counts(m: &Model<'_>) -> (u64, u64) {
    let plain = m.solve(Engine::Trail).count().unwrap().solutions;
    let learning = m.solve(Engine::Trail).strategy(learning()).count();
    (plain, learning.unwrap().solutions)
}

#[test]
fn an_end_moved_past_a_removed_value_is_explained_from_the_end_before() {
    // The random tests found these counts short: a nogood removing the lowest value of
    // a domain moves its low end, and that end was explained without the end before.
    let mut m = Model::new();
    let _free = m.var([2i64, -2, 1, -2]);
    let capacity = m.var([-1i64, 4, 1, 0]);
    let duration = m.var([3i64, 0, 2]);
    let _free = m.var([4i64, -1, 2, -2]);
    m.cumulative([0], [&duration], [1], &capacity);
    assert_eq!(counts(&m), (112, 112));
    // After a failure the store cannot say which predicate a nogood made false: the
    // nogood keeps a record of it.
    let mut m = Model::new();
    let x: Vec<_> = [
        vec![2i64, 2, 3, -2],
        vec![1, 3, -1, 0],
        vec![0, 2, -1],
        vec![3, 2],
    ]
    .into_iter()
    .map(|l| m.var(l))
    .collect();
    m.count([&x[2], &x[3], &x[1], &x[3]], 2, &x[2]);
    assert_eq!(counts(&m), (16, 16));
}

#[test]
fn pigeons_learn_and_prove() {
    let mut m = Model::new();
    let p: Vec<_> = (0..7).map(|_| m.var(0..6)).collect();
    for i in 0..7 {
        for j in i + 1..7 {
            m.linear([(1, &p[i]), (-1, &p[j])], Cmp::Ne, 0);
        }
    }
    let summary = m.solve(Engine::Trail).strategy(learning()).count().unwrap();
    assert_eq!(summary.solutions, 0);
    assert!(summary.stats.learned > 0, "{}", summary.stats);
    eprintln!("{}", summary.stats);
}

#[test]
fn nogoods_deleted_mid_search_keep_counts_exact() {
    // n-queens 10 over three all-different constraints: thousands of conflicts, so half
    // of the learned nogoods are deleted several times while the search is deep (a nogood
    // that caused an atom on the trail is kept).
    let puzzle = ambsolve_examples::puzzles::queens::queens(10);
    let m = puzzle.model();
    let summary = m.solve(Engine::Trail).strategy(learning()).count().unwrap();
    assert_eq!(summary.solutions, 724, "A000170");
    assert!(summary.stats.learned > 5_000, "{}", summary.stats);
}
