//! Several objectives in order (`Model::best_lexicographic`): on random small models, both
//! engines (and learning) find the lexicographic optimum a brute force finds, with a
//! solution that satisfies the model and attains it; no solution is proved as such; a
//! limit leaves the result unproved.
//!
//! More random cases: `PROPTEST_CASES=5000 cargo test --release --test search lexicographic::`.

use crate::common::differential::{self, Pair, assignments, pair, pair_holds};

use ambsolve::{Cmp, Engine, Limits, Model, Sense, Strategy as Search, Term, Var};
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
