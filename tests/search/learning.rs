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
fn queens_counts_are_exact() {
    for (n, count) in [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)] {
        let summary = queens(n)
            .solve(Engine::Trail)
            .strategy(learning())
            .count()
            .unwrap();
        assert_eq!(summary.solutions, count, "n = {n}");
        eprintln!("{n}: {}", summary.stats);
    }
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
