//! Several objectives in order (`Model::best_lexicographic`, and `Model::then_objective`
//! with `improving()`): on random small models, both engines (and learning, large
//! neighbourhoods, threads) find the lexicographic optimum a brute force finds, with a
//! solution that satisfies the model and attains it, each improvement better than the
//! last in the objectives' order; no solution is proved as such; a limit leaves the
//! result unproved.
//!
//! More random cases: `PROPTEST_CASES=5000 cargo test --release --test search lexicographic::`.

use crate::common::differential::{self, Pair, assignments, pair, pair_holds};

use ambsolve::{Cmp, Engine, Limits, Lns, Model, Sense, Strategy as Search, Term, Var};
use proptest::prelude::*;

const VALUES: i64 = 4;

/// How a stage's search starts.
type StageSolver = fn(&Model<'static>) -> ambsolve::Solver<'static, ambsolve::Assignment>;

#[derive(Clone, Debug)]
struct Spec {
    vars: usize,
    constraints: Vec<Pair>,
    /// Each objective's sense and coefficients, one per variable.
    objectives: Vec<(Sense, Vec<i64>)>,
}

fn holds(spec: &Spec, v: &[i64]) -> bool {
    spec.constraints.iter().all(|p| pair_holds(p, v))
}

/// Each objective's value at `v`, as a cost to minimise (negated for a maximum).
fn costs(spec: &Spec, v: &[i64]) -> Vec<i64> {
    spec.objectives
        .iter()
        .map(|(sense, coefficients)| {
            let value: i64 = coefficients.iter().zip(v).map(|(c, x)| c * x).sum();
            if *sense == Sense::Minimize {
                value
            } else {
                -value
            }
        })
        .collect()
}

/// The lexicographic optimum (in the objectives' own senses), by brute force.
fn brute_force(spec: &Spec) -> Option<Vec<i64>> {
    let best = assignments(spec.vars, VALUES)
        .filter(|v| holds(spec, v))
        .map(|v| costs(spec, &v))
        .min()?;
    Some(
        best.iter()
            .zip(&spec.objectives)
            .map(|(&cost, (sense, _))| {
                if *sense == Sense::Minimize {
                    cost
                } else {
                    -cost
                }
            })
            .collect(),
    )
}

fn build(spec: &Spec) -> (Model<'static>, Vec<Var<i64>>) {
    let mut m = Model::new();
    let x = m.vars("x", spec.vars, 0..VALUES);
    for &(a, i, b, j, cmp, c) in &spec.constraints {
        m.linear([(a, &x[i]), (b, &x[j])], cmp, c);
    }
    (m, x)
}

fn objectives(spec: &Spec, x: &[Var<i64>]) -> Vec<(Sense, Vec<Term>)> {
    spec.objectives
        .iter()
        .map(|(sense, coefficients)| {
            let terms = coefficients
                .iter()
                .zip(x)
                .map(|(&c, v)| Term::from((c, v)))
                .collect();
            (*sense, terms)
        })
        .collect()
}

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..=3).prop_flat_map(|vars| {
        let sense = prop_oneof![Just(Sense::Minimize), Just(Sense::Maximize)];
        let objective = (sense, proptest::collection::vec(-2i64..=2, vars));
        (
            proptest::collection::vec(pair(vars), 0..=3),
            proptest::collection::vec(objective, 1..=3),
        )
            .prop_map(move |(constraints, objectives)| Spec {
                vars,
                constraints,
                objectives,
            })
    })
}

proptest! {
    #![proptest_config(differential::cases(200))]

    #[test]
    fn the_lexicographic_optimum_is_the_brute_force_one(spec in spec()) {
        let expected = brute_force(&spec);
        let (m, x) = build(&spec);
        let solvers: [(&str, StageSolver); 3] = [
            ("trail", |m| m.solve(Engine::Trail)),
            ("replay", |m| m.solve(Engine::Replay)),
            ("learning", |m| m.solve(Engine::Trail).strategy(Search::new().learning(true))),
        ];
        for (what, solver) in solvers {
            let best = m.best_lexicographic(objectives(&spec, &x), solver).unwrap();
            prop_assert!(best.proved, "{what}");
            match &expected {
                None => {
                    prop_assert!(best.solution.is_none(), "{what}");
                    prop_assert!(best.objectives.is_empty(), "{what}");
                }
                Some(values) => {
                    prop_assert_eq!(&best.objectives, values, "{}", what);
                    let solution = best.solution.as_ref().expect("a solution");
                    let v: Vec<i64> = x.iter().map(|var| *solution.value(var)).collect();
                    prop_assert!(holds(&spec, &v), "{what}: not a solution");
                    let attained: Vec<i64> = costs(&spec, &v)
                        .iter()
                        .zip(&spec.objectives)
                        .map(|(&c, (sense, _))| if *sense == Sense::Minimize { c } else { -c })
                        .collect();
                    prop_assert_eq!(&attained, values, "{}: the solution's values", what);
                }
            }
        }
    }
}

/// The model of `spec` with its objectives in order: the first as the model's, the others
/// through `then_objective`.
fn build_lexicographic(spec: &Spec) -> (Model<'static>, Vec<Var<i64>>) {
    let (mut m, x) = build(spec);
    for (k, (sense, terms)) in objectives(spec, &x).into_iter().enumerate() {
        if k == 0 {
            m.objective(sense, terms, 0);
        } else {
            m.then_objective(sense, terms, 0);
        }
    }
    (m, x)
}

/// The values in the objectives' own senses, as costs to minimise.
fn as_costs(spec: &Spec, values: &[i64]) -> Vec<i64> {
    values
        .iter()
        .zip(&spec.objectives)
        .map(|(&v, (sense, _))| if *sense == Sense::Minimize { v } else { -v })
        .collect()
}

proptest! {
    #![proptest_config(differential::cases(200))]

    #[test]
    fn further_objectives_improve_in_order_to_the_brute_force_optimum(spec in spec()) {
        let expected = brute_force(&spec);
        let (m, x) = build_lexicographic(&spec);
        let solvers: [(&str, StageSolver); 5] = [
            ("trail", |m| m.solve(Engine::Trail)),
            ("replay", |m| m.solve(Engine::Replay)),
            ("learning", |m| m.solve(Engine::Trail).strategy(Search::new().learning(true))),
            ("lns", |m| m.solve(Engine::Trail).lns(Lns::new().nodes(2))),
            ("threads", |m| m.solve(Engine::Trail).threads(2)),
        ];
        for (what, solver) in solvers {
            let mut improving = solver(&m).try_improving();
            let mut last: Option<Vec<i64>> = None;
            for improvement in improving.by_ref() {
                let improvement = improvement.unwrap();
                let v: Vec<i64> = x.iter().map(|var| *improvement.solution.value(var)).collect();
                prop_assert!(holds(&spec, &v), "{what}: not a solution");
                let attained = costs(&spec, &v);
                prop_assert_eq!(as_costs(&spec, &improvement.objectives), attained.clone(), "{}", what);
                prop_assert_eq!(improvement.objective, improvement.objectives[0], "{}", what);
                prop_assert_eq!(&m.objective_values(&improvement.solution), &improvement.objectives);
                if let Some(last) = &last {
                    prop_assert!(attained < *last, "{what}: {attained:?} after {last:?}");
                }
                last = Some(attained);
            }
            prop_assert!(improving.stop_reason().is_some_and(|r| r.is_complete()), "{what}");
            let found = last.map(|costs| as_costs(&spec, &costs));
            prop_assert_eq!(found, expected.clone(), "{}", what);
        }
        let best = m.solve(Engine::Trail).best().unwrap();
        prop_assert!(best.proved);
        prop_assert_eq!(&best.objectives, &expected.clone().unwrap_or_default());
        prop_assert_eq!(best.objective, expected.as_ref().map(|v| v[0]));
    }
}

#[test]
fn a_further_objective_needs_a_first() {
    let mut m = Model::new();
    let x = m.var(0..3i64);
    m.then_objective(Sense::Minimize, [(1, &x)], 0);
    let error = m.solve(Engine::Trail).best().unwrap_err().to_string();
    assert!(
        error.contains("needs the model's objective first"),
        "{error}"
    );
}

#[test]
fn a_limit_stops_a_lexicographic_search_unproved_with_its_best() {
    // Pigeons (9 into 8 holes, so none) plus a free variable: stage one cannot finish
    // within 200 nodes.
    let mut m = Model::new();
    let p = m.vars("p", 9, 0..8i64);
    for i in 0..9 {
        for j in i + 1..9 {
            m.linear([(1, &p[i]), (-1, &p[j])], Cmp::Ne, 0);
        }
    }
    m.minimize([(1, &p[0])]);
    m.then_objective(Sense::Maximize, [(1, &p[1])], 0);
    let best = m
        .solve(Engine::Trail)
        .limits(Limits::new().nodes(200))
        .best()
        .unwrap();
    assert!(!best.proved);
    assert!(best.objectives.is_empty());
    assert!(!best.stop_reason.is_complete());
}

#[test]
fn a_limit_leaves_the_result_unproved() {
    // Pigeons (9 into 8 holes) with two objectives: the first stage cannot finish
    // within 50 nodes.
    let mut m = Model::new();
    let p = m.vars("p", 9, 0..8i64);
    for i in 0..9 {
        for j in i + 1..9 {
            m.linear([(1, &p[i]), (-1, &p[j])], Cmp::Ne, 0);
        }
    }
    let best = m
        .best_lexicographic(
            [
                (Sense::Minimize, vec![Term::from((1, &p[0]))]),
                (Sense::Maximize, vec![Term::from((1, &p[1]))]),
            ],
            |m| m.solve(Engine::Trail).limits(Limits::new().nodes(50)),
        )
        .unwrap();
    assert!(!best.proved);
    assert!(best.solution.is_none());
    assert!(!best.stop_reason.is_complete());
}
