//! Large neighbourhood search (`Solver::lns`): on random small models, with and without
//! learning, with budgets small enough that neighbourhoods stop on them, it proves the
//! optimum a brute force finds, each improvement a solution better than the last; without
//! the complete search it still proves where a neighbourhood relaxes everything; the same
//! seed gives the same run; what it cannot do is refused.
//!
//! More random cases: `PROPTEST_CASES=5000 cargo test --release --test search lns::`.

use crate::common::differential::{self, Pair, assignments, pair, pair_holds};

use ambsolve::{Cmp, Engine, Limits, Lns, Model, SearchError, Strategy as Search, Var};
use proptest::prelude::*;

const VALUES: i64 = 4;

#[derive(Clone, Debug)]
struct Spec {
    vars: usize,
    constraints: Vec<Pair>,
    /// Minimised: one coefficient per variable.
    objective: Vec<i64>,
}

fn holds(spec: &Spec, v: &[i64]) -> bool {
    spec.constraints.iter().all(|p| pair_holds(p, v))
}

fn cost(spec: &Spec, v: &[i64]) -> i64 {
    spec.objective.iter().zip(v).map(|(c, x)| c * x).sum()
}

/// The least cost of a solution, by brute force.
fn brute_force(spec: &Spec) -> Option<i64> {
    assignments(spec.vars, VALUES)
        .filter(|v| holds(spec, v))
        .map(|v| cost(spec, &v))
        .min()
}

fn build(spec: &Spec) -> (Model<'static>, Vec<Var<i64>>) {
    let mut m = Model::new();
    let x = m.vars("x", spec.vars, 0..VALUES);
    for &(a, i, b, j, cmp, c) in &spec.constraints {
        m.linear([(a, &x[i]), (b, &x[j])], cmp, c);
    }
    m.minimize(spec.objective.iter().zip(&x).map(|(&c, v)| (c, v)));
    (m, x)
}

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..=6).prop_flat_map(|vars| {
        (
            proptest::collection::vec(pair(vars), 0..=6),
            proptest::collection::vec(-3i64..=3, vars),
        )
            .prop_map(move |(constraints, objective)| Spec {
                vars,
                constraints,
                objective,
            })
    })
}

/// The values of `x` in `solution`.
fn values(solution: &ambsolve::Assignment, x: &[Var<i64>]) -> Vec<i64> {
    x.iter().map(|v| *solution.value(v)).collect()
}

proptest! {
    #![proptest_config(differential::cases(200))]

    #[test]
    fn lns_proves_the_brute_force_optimum(spec in spec(), seed in 0u64..1000, nodes in 1u64..8) {
        let expected = brute_force(&spec);
        let (m, x) = build(&spec);
        for learning in [false, true] {
            let lns = Lns::new().seed(seed).nodes(nodes);
            let mut improving = m
                .solve(Engine::Trail)
                .strategy(Search::new().learning(learning))
                .lns(lns)
                .improving();
            let mut last = None;
            for improvement in improving.by_ref() {
                let v = values(&improvement.solution, &x);
                prop_assert!(holds(&spec, &v), "learning {learning}: not a solution");
                prop_assert_eq!(improvement.objective, cost(&spec, &v));
                if let Some(before) = last {
                    prop_assert!(improvement.objective < before, "not an improvement");
                }
                last = Some(improvement.objective);
            }
            prop_assert!(improving.stop_reason().is_some_and(|r| r.is_complete()));
            prop_assert_eq!(last, expected, "learning {}", learning);
        }
    }

    #[test]
    fn without_the_complete_search_a_whole_neighbourhood_proves(spec in spec(), seed in 0u64..1000) {
        // A budget larger than any of these trees: every neighbourhood ends, each grows
        // the next, until one relaxes every variable.
        let expected = brute_force(&spec);
        let (m, _) = build(&spec);
        let best = m
            .solve(Engine::Trail)
            .lns(Lns::new().seed(seed).nodes(100_000).proving(0))
            .best()
            .unwrap();
        prop_assert!(best.proved);
        prop_assert_eq!(best.objective, expected);
    }
}

/// A model with room to improve: 12 variables, pairwise different neighbours, a weighted
/// sum minimised.
fn chain() -> (Model<'static>, Vec<Var<i64>>) {
    let mut m = Model::new();
    let x = m.vars("x", 12, 0..6i64);
    for w in x.windows(3) {
        m.all_different(w);
    }
    m.linear([(1, &x[0]), (1, &x[11])], Cmp::Ge, 5);
    m.minimize(x.iter().enumerate().map(|(i, v)| (i as i64 % 5 + 1, v)));
    (m, x)
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let (m, x) = chain();
    let run = |seed: u64| -> Vec<(i64, Vec<i64>)> {
        m.solve(Engine::Trail)
            .limits(Limits::new().nodes(3_000))
            .lns(Lns::new().seed(seed).nodes(20))
            .improving()
            .map(|i| (i.objective, values(&i.solution, &x)))
            .collect()
    };
    let first = run(3);
    assert!(!first.is_empty());
    assert_eq!(first, run(3));
}

#[test]
fn the_optimum_is_the_plain_search_s() {
    let (m, _) = chain();
    let plain = m.solve(Engine::Trail).best().unwrap();
    for seed in 0..4 {
        let lns = m
            .solve(Engine::Trail)
            .lns(Lns::new().seed(seed).nodes(10))
            .best()
            .unwrap();
        assert!(lns.proved && plain.proved);
        assert_eq!(lns.objective, plain.objective, "seed {seed}");
    }
}

#[test]
fn a_node_limit_keeps_the_best_so_far() {
    let (m, _) = chain();
    let best = m
        .solve(Engine::Trail)
        .limits(Limits::new().nodes(60))
        .lns(Lns::new().nodes(5))
        .best()
        .unwrap();
    let solution = best.solution.expect("a first solution within 60 nodes");
    assert!(!best.proved);
    assert!(m.check(&solution).is_ok());
    assert!(best.stats.nodes <= 60, "{} nodes", best.stats.nodes);
}

#[test]
fn what_lns_cannot_do_is_refused() {
    let (m, _) = chain();
    let unsupported = |result: Result<_, SearchError>, needs: &str| match result {
        Err(SearchError::Unsupported(why)) => assert!(why.contains(needs), "{why}"),
        other => panic!("expected Unsupported({needs}), got {other:?}"),
    };
    unsupported(
        m.solve(Engine::Trail).lns(Lns::new()).count().map(|_| ()),
        "an optimisation",
    );
    unsupported(
        m.solve(Engine::Replay).lns(Lns::new()).best().map(|_| ()),
        "the trail engine",
    );
    unsupported(
        m.solve(Engine::Trail)
            .threads(2)
            .lns(Lns::new())
            .best()
            .map(|_| ()),
        "one thread",
    );
    let mut other_model = Model::new();
    let y = other_model.var(0..3i64);
    match m.solve(Engine::Trail).lns(Lns::new().vars([y.id()])).best() {
        Err(SearchError::InvalidModel(why)) => assert!(why.contains("another model"), "{why}"),
        other => panic!("expected InvalidModel, got {other:?}"),
    }
}

#[test]
fn a_constraints_puzzle_keeps_its_optimum_with_lns() {
    // The shortest Golomb ruler with 6 marks (17): differences are auxiliary variables,
    // which neighbourhoods leave free.
    let n = 6;
    let ruler = ambsolve::constraints! {
        let m[n] = amb(0..=20);
        require m[0] == 0;
        for i in 1..n {
            require m[i - 1] < m[i];
        }
        require all_different(m[j] - m[i] for i in 0..n for j in i + 1..n);
        minimize m[n - 1];
    };
    for learning in [false, true] {
        for seed in 0..3 {
            let best = ruler
                .clone()
                .strategy(Search::new().learning(learning))
                .lns(Lns::new().seed(seed).nodes(30))
                .best()
                .unwrap();
            assert!(best.proved, "learning {learning}, seed {seed}");
            assert_eq!(best.objective, Some(17), "learning {learning}, seed {seed}");
            let marks = best.solution.expect("a ruler").m;
            let mut differences: Vec<i64> = (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .map(|(i, j)| marks[j] - marks[i])
                .collect();
            differences.sort_unstable();
            differences.dedup();
            assert_eq!(differences.len(), n * (n - 1) / 2, "{marks:?}");
        }
    }
}
