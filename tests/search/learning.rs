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
fn queens_are_solved_and_a_count_is_refused() {
    for n in 4..=10 {
        let m = queens(n);
        let first = m.solve(Engine::Trail).strategy(learning()).first().unwrap();
        let first = first.expect("a board of 4 or more has a solution");
        assert!(m.check(&first).is_ok(), "n = {n}");
    }
    // Going on past a solution of a satisfaction search is refused, not miscounted.
    let refused = queens(6).solve(Engine::Trail).strategy(learning()).count();
    assert!(
        matches!(refused, Err(ambsolve::SearchError::Unsupported(_))),
        "{refused:?}"
    );
    // The small job shop that found the missing solutions: refused too, not wrong.
    let mut m = Model::new();
    let _free = m.var([2i64, -2, 1, -2]);
    let capacity = m.var([-1i64, 4, 1, 0]);
    let duration = m.var([3i64, 0, 2]);
    m.cumulative([0], [&duration], [1], &capacity);
    assert!(m.solve(Engine::Trail).strategy(learning()).count().is_err());
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
