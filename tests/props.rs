//! Random small models: both engines (and every strategy) against brute-force enumeration,
//! with the constraints' meaning evaluated independently of the library.

mod common;

use std::sync::Arc;

use ambsolve::{
    Cmp, Context, Engine, Fail, Model, Propagator, Restarts, Strategy as Search, ValueOrder, Var,
    VarId, VarOrder,
};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Spec {
    AllDifferent(Vec<usize>),
    Offsets(Vec<(usize, i64)>),
    Linear(Vec<(i64, usize)>, Cmp, i64),
    Table(Vec<usize>, Vec<Vec<i64>>),
    Predicate(usize, usize, u8),
    /// value(x) <= value(y), by a custom propagator.
    AtMost(usize, usize),
}

#[derive(Clone, Debug)]
struct ModelSpec {
    lists: Vec<Vec<i64>>,
    specs: Vec<Spec>,
}

fn cmp() -> impl Strategy<Value = Cmp> {
    prop_oneof![
        Just(Cmp::Eq),
        Just(Cmp::Ne),
        Just(Cmp::Lt),
        Just(Cmp::Le),
        Just(Cmp::Gt),
        Just(Cmp::Ge)
    ]
}

fn spec(lists: Vec<Vec<i64>>) -> impl Strategy<Value = Spec> {
    let vars = lists.len();
    let var = 0..vars;
    let scope = proptest::collection::vec(0..vars, 1..=3);
    prop_oneof![
        scope.clone().prop_map(Spec::AllDifferent),
        proptest::collection::vec((0..vars, -2i64..=2), 1..=3).prop_map(Spec::Offsets),
        (proptest::collection::vec((-3i64..=3, 0..vars), 1..=3), cmp(), -6i64..=6)
            .prop_map(|(terms, cmp, rhs)| Spec::Linear(terms, cmp, rhs)),
        scope
            .prop_flat_map(move |scope| {
                // Mostly values the variables have, sometimes one they lack.
                let value = |x: usize| {
                    let own = lists[x].clone();
                    prop_oneof![4 => proptest::sample::select(if own.is_empty() { vec![0] } else { own }), 1 => -3i64..=3]
                };
                let tuple: Vec<_> = scope.iter().map(|&x| value(x)).collect();
                (Just(scope), proptest::collection::vec(tuple, 0..=8))
            })
            .prop_map(|(scope, tuples)| Spec::Table(scope, tuples)),
        (var.clone(), var.clone(), 0u8..3).prop_map(|(a, b, which)| Spec::Predicate(a, b, which)),
        (var.clone(), var).prop_map(|(a, b)| Spec::AtMost(a, b)),
    ]
}

fn model_spec() -> impl Strategy<Value = ModelSpec> {
    let list = prop_oneof![
        12 => proptest::collection::vec(-3i64..=3, 1..=5),
        1 => Just(Vec::new()),
    ];
    proptest::collection::vec(list, 1..=5)
        .prop_flat_map(|lists| {
            let specs = proptest::collection::vec(spec(lists.clone()), 0..=5);
            (Just(lists), specs)
        })
        .prop_map(|(lists, specs)| ModelSpec { lists, specs })
}

fn predicate(which: u8, a: i64, b: i64) -> bool {
    match which {
        0 => (a + b).rem_euclid(3) == 0,
        1 => a < b,
        _ => a * b >= 0,
    }
}

/// The independent meaning of a spec, on values.
fn holds(spec: &Spec, v: &[i64]) -> bool {
    match spec {
        Spec::AllDifferent(scope) => {
            (0..scope.len()).all(|i| (i + 1..scope.len()).all(|j| v[scope[i]] != v[scope[j]]))
        }
        Spec::Offsets(terms) => (0..terms.len()).all(|i| {
            (i + 1..terms.len()).all(|j| v[terms[i].0] + terms[i].1 != v[terms[j].0] + terms[j].1)
        }),
        Spec::Linear(terms, cmp, rhs) => {
            let sum: i64 = terms.iter().map(|&(c, x)| c * v[x]).sum();
            cmp.holds(sum, *rhs)
        }
        Spec::Table(scope, tuples) => tuples
            .iter()
            .any(|t| t.iter().zip(scope).all(|(&value, &x)| v[x] == value)),
        Spec::Predicate(a, b, which) => predicate(*which, v[*a], v[*b]),
        Spec::AtMost(a, b) => v[*a] <= v[*b],
    }
}

/// value(x) <= value(y) by bounds on values.
struct AtMost {
    x: Var<i64>,
    y: Var<i64>,
}

impl Propagator for AtMost {
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
        let values = |cx: &Context<'_>, var: &Var<i64>| -> Vec<i64> {
            cx.domain(var.id())
                .iter()
                .map(|i| *var.value(i as usize))
                .collect()
        };
        let y_max = values(cx, &self.y).into_iter().max().ok_or(Fail)?;
        let xs = self.x.values().to_vec();
        cx.retain(self.x.id(), |i| xs[i as usize] <= y_max)?;
        let x_min = values(cx, &self.x).into_iter().min().ok_or(Fail)?;
        let ys = self.y.values().to_vec();
        cx.retain(self.y.id(), |i| ys[i as usize] >= x_min)?;
        Ok(())
    }
}

fn build(spec: &ModelSpec) -> (Model<'static>, Vec<Var<i64>>) {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    for s in &spec.specs {
        match s {
            Spec::AllDifferent(scope) => {
                let vs: Vec<Var<i64>> = scope.iter().map(|&i| vars[i].clone()).collect();
                m.all_different(&vs);
            }
            Spec::Offsets(terms) => {
                m.all_different_offset(terms.iter().map(|&(i, o)| (&vars[i], o)))
            }
            Spec::Linear(terms, cmp, rhs) => {
                m.linear(terms.iter().map(|&(c, i)| (c, &vars[i])), *cmp, *rhs)
            }
            Spec::Table(scope, tuples) => {
                let vs: Vec<Var<i64>> = scope.iter().map(|&i| vars[i].clone()).collect();
                m.table(&vs, tuples);
            }
            Spec::Predicate(a, b, which) => {
                let which = *which;
                m.require2(&vars[*a], &vars[*b], move |x, y| predicate(which, *x, *y));
            }
            Spec::AtMost(a, b) => {
                let scope = [vars[*a].id(), vars[*b].id()];
                m.propagator(
                    &scope,
                    AtMost {
                        x: vars[*a].clone(),
                        y: vars[*b].clone(),
                    },
                );
            }
        }
    }
    (m, vars)
}

/// Every index tuple, in lexicographic order, whose values satisfy every spec.
fn brute_force(spec: &ModelSpec) -> Vec<Vec<u32>> {
    common::brute_force(&spec.lists, |index| {
        let values: Vec<i64> = index.iter().zip(&spec.lists).map(|(&i, l)| l[i]).collect();
        spec.specs.iter().all(|s| holds(s, &values))
    })
}

fn run(model: &Model<'_>, engine: Engine, strategy: Search) -> Vec<Vec<u32>> {
    let found: Result<Vec<Vec<u32>>, _> = model
        .solve(engine)
        .strategy(strategy)
        .try_solutions()
        .map(|a| a.map(|a| a.indices().to_vec()))
        .collect();
    found.unwrap_or_else(|error| panic!("{engine:?}: {error}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn engines_agree_with_brute_force(spec in model_spec()) {
        let expected = brute_force(&spec);
        let (model, _) = build(&spec);
        prop_assert_eq!(run(&model, Engine::Trail, Search::new()), expected.clone(), "trail");
        prop_assert_eq!(run(&model, Engine::Replay, Search::new()), expected.clone(), "replay");
        let reversed: Arc<[VarId]> = model.var_ids().rev().collect();
        let strategies = [
            Search::first_fail(),
            Search::new().values(ValueOrder::Descending),
            Search::new().values(ValueOrder::MiddleOut),
            Search::new().values(ValueOrder::Random(3)),
            Search::new().vars(VarOrder::Given(reversed.clone())),
            Search::new().vars(VarOrder::FirstFailThen(reversed)),
            Search::first_fail().restarts(Restarts::luby(1)),
        ];
        for strategy in strategies {
            let mut got = run(&model, Engine::Trail, strategy.clone());
            got.sort();
            prop_assert_eq!(&got, &expected, "trail with {:?}", strategy);
        }
        let count = model.solve(Engine::Trail).count().unwrap();
        prop_assert_eq!(count.solutions, expected.len() as u64);
    }
}
