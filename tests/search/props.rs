//! Random small models: both engines (and every strategy) against brute-force enumeration,
//! with the constraints' meaning evaluated independently of the library; then symmetry,
//! limits, cancellation and counting in slices on the same random models; and models over
//! wide domains (several words of values), whose sizes and ends the store keeps apart;
//! resumable counts whose checkpoints are corrupted at a random byte.
//!
//! CI runs a few hundred models per property. The long run, as many as you like:
//!
//! ```sh
//! PROPTEST_CASES=100000 cargo test --release --test search props::
//! ```

use crate::common;

use std::sync::Arc;

use std::time::Duration;

use ambsolve::{
    CancelFlag, Checking, Cmp, Context, Engine, Fail, Limits, Model, Propagator, Restarts, Sense,
    StopReason, Strategy as Search, Symmetry, ValueOrder, Var, VarId, VarOrder,
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
    model_spec_sized(5, 5)
}

/// Models of 1 to `vars` variables over lists of 1 to `len` values (rarely empty).
fn model_spec_sized(vars: usize, len: usize) -> impl Strategy<Value = ModelSpec> {
    let list = prop_oneof![
        12 => proptest::collection::vec(-3i64..=3, 1..=len),
        1 => Just(Vec::new()),
    ];
    proptest::collection::vec(list, 1..=vars)
        .prop_flat_map(|lists| {
            let specs = proptest::collection::vec(spec(lists.clone()), 0..=5);
            (Just(lists), specs)
        })
        .prop_map(|(lists, specs)| ModelSpec { lists, specs })
}

/// Models of 1 to 3 variables where most lists are wide (65 to 130 values: several words
/// of domain), as consecutive ranges, rising lists with repeats, or values in any order;
/// at most about 100,000 assignments, for the brute force.
fn wide_model_spec() -> impl Strategy<Value = ModelSpec> {
    let wide = prop_oneof![
        (-40i64..=0, 65usize..=130).prop_map(|(start, len)| (start..start + len as i64).collect()),
        proptest::collection::vec(-40i64..=40, 65..=130).prop_map(|mut list| {
            list.sort_unstable();
            list
        }),
        proptest::collection::vec(-40i64..=40, 65..=130),
    ];
    let list = prop_oneof![
        3 => wide,
        1 => proptest::collection::vec(-3i64..=3, 1..=4),
    ];
    proptest::collection::vec(list, 1..=3)
        .prop_filter(
            "small enough for the brute force",
            |lists: &Vec<Vec<i64>>| lists.iter().map(Vec::len).product::<usize>() <= 100_000,
        )
        .prop_flat_map(|lists| {
            let specs = proptest::collection::vec(spec(lists.clone()), 0..=4);
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
    add_specs(&mut m, &vars, spec);
    (m, vars)
}

/// Posts every spec of `spec` on `vars` (which stand for its variables, in order).
fn add_specs(m: &mut Model<'static>, vars: &[Var<i64>], spec: &ModelSpec) {
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
                m.require((&vars[*a], &vars[*b]), move |x, y| predicate(which, *x, *y));
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
}

/// Every index tuple, in lexicographic order, whose values satisfy every spec.
fn brute_force(spec: &ModelSpec) -> Vec<Vec<u32>> {
    common::differential::brute_force_values(&spec.lists, |values| {
        spec.specs.iter().all(|s| holds(s, values))
    })
}

use common::differential::solutions_in_order as run;

/// The model twice over (copies A and B of every variable, the same constraints on each),
/// with the symmetry that swaps the copies; and the brute force's lex-leaders: the
/// solutions no larger than their image.
fn doubled(spec: &ModelSpec) -> (Model<'static>, Vec<Vec<u32>>) {
    let n = spec.lists.len();
    let mut m = Model::new();
    let a: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    let b: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    add_specs(&mut m, &a, spec);
    add_specs(&mut m, &b, spec);
    m.symmetries([Symmetry::new("swap the copies", move |v, x| {
        (VarId::from_index((v.index() + n) % (2 * n)), x)
    })]);
    let single = brute_force(spec);
    let mut leaders = Vec::new();
    for first in &single {
        for second in &single {
            let whole: Vec<u32> = first.iter().chain(second).copied().collect();
            let image: Vec<u32> = second.iter().chain(first).copied().collect();
            if whole <= image {
                leaders.push(whole);
            }
        }
    }
    leaders.sort();
    (m, leaders)
}

/// Searches that learn: plain, splitting, restarting at every conflict, and taking turns
/// with a strategy of their own (restarting often, so that every turn comes up).
fn learning_strategies() -> [Search; 6] {
    [
        Search::new().learning(true),
        Search::new().learning(true).values(ValueOrder::Split),
        Search::new().learning(true).restarts(Restarts::luby(1)),
        Search::first_fail()
            .values(ValueOrder::Descending)
            .learning(true)
            .alternating(true)
            .restarts(Restarts::luby(1)),
        Search::new()
            .vars(VarOrder::DomWDeg)
            .values(ValueOrder::Median)
            .learning(true)
            .alternating(true)
            .restarts(Restarts::luby(2)),
        Search::new()
            .values(ValueOrder::ReverseSplit)
            .learning(true)
            .alternating(true)
            .restarts(Restarts::luby(2)),
    ]
}

proptest! {
    #![proptest_config(common::differential::cases(400))]

    #[test]
    fn engines_agree_with_brute_force(spec in model_spec()) {
        let expected = brute_force(&spec);
        let (model, _) = build(&spec);
        let input = Search::new().vars(VarOrder::Input);
        prop_assert_eq!(run(&model, Engine::Trail, Search::new()), expected.clone(), "trail");
        prop_assert_eq!(run(&model, Engine::Replay, input.clone()), expected.clone(), "replay");
        // The replay engine's own order (the default): the same set.
        let mut automatic = run(&model, Engine::Replay, Search::new());
        automatic.sort();
        prop_assert_eq!(&automatic, &expected, "replay in its own order");
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
        for strategy in strategies.into_iter().chain(learning_strategies()) {
            let mut got = run(&model, Engine::Trail, strategy.clone());
            got.sort();
            prop_assert_eq!(&got, &expected, "trail with {:?}", strategy);
        }
        let count = model.solve(Engine::Trail).count().unwrap();
        prop_assert_eq!(count.solutions, expected.len() as u64);
    }
}

proptest! {
    #![proptest_config(common::differential::cases(60))]

    /// Wide domains keep their size, ends and fixed value apart from their words: the same
    /// answers as the brute force under every value order (each walks the domain its own
    /// way), counted in slices too.
    #[test]
    fn wide_domains_agree_with_brute_force(spec in wide_model_spec()) {
        let expected = brute_force(&spec);
        let (model, _) = build(&spec);
        prop_assert_eq!(run(&model, Engine::Trail, Search::new()), expected.clone(), "trail");
        let input = Search::new().vars(VarOrder::Input);
        prop_assert_eq!(run(&model, Engine::Replay, input), expected.clone(), "replay");
        for strategy in [
            Search::first_fail(),
            Search::new().values(ValueOrder::Descending),
            Search::first_fail().values(ValueOrder::MiddleOut),
            Search::new().values(ValueOrder::Random(5)),
        ] {
            let mut got = run(&model, Engine::Trail, strategy.clone());
            got.sort();
            prop_assert_eq!(&got, &expected, "trail with {:?}", strategy);
        }
        let mut slices = model.solve(Engine::Trail).strategy(Search::first_fail()).solutions();
        let mut counted = 0;
        while !slices.is_finished() {
            counted += slices.count_for(Duration::ZERO).unwrap();
        }
        prop_assert_eq!(counted, expected.len() as u64, "counted in slices");
    }
}

proptest! {
    #![proptest_config(common::differential::cases(150))]

    #[test]
    fn symmetry_limits_cancellation_and_slices_agree_with_brute_force(
        spec in model_spec_sized(3, 4),
        limit in 0u64..6,
        nodes in 0u64..40,
    ) {
        let expected = brute_force(&spec);
        let (model, _) = build(&spec);
        let (twice, leaders) = doubled(&spec);
        for engine in [Engine::Trail, Engine::Replay] {
            // One solution per class of the swap symmetry: the lex-leaders, in order.
            let input = Search::new().vars(VarOrder::Input);
            let got = run_with(&twice, engine, |s| s.strategy(input.clone()).up_to_symmetry());
            prop_assert_eq!(&got, &leaders, "{} up to symmetry", engine);
            let mut own_order = run_with(&twice, engine, |s| s.up_to_symmetry());
            own_order.sort();
            prop_assert_eq!(&own_order, &leaders, "{} up to symmetry, own order", engine);
            // Counting through the swap: each leader weighs its class (2, or 1 for a
            // solution equal to its image), which gives the plain count of the doubled
            // model, in any order.
            for strategy in [input.clone(), Search::first_fail()] {
                let through = twice
                    .solve(engine)
                    .strategy(strategy)
                    .count_through_symmetry()
                    .count()
                    .unwrap();
                let plain = (expected.len() * expected.len()) as u64;
                prop_assert_eq!(through.solutions, plain, "{} counted through symmetry", engine);
                prop_assert_eq!(through.stats.solutions, leaders.len() as u64);
            }

            // A solution limit: the first solutions, and the reason.
            let first = run_with(&model, engine, |s| {
                s.strategy(input.clone()).limits(Limits::new().solutions(limit))
            });
            let k = (limit as usize).min(expected.len());
            prop_assert_eq!(&first[..], &expected[..k], "{} with {} solutions at most", engine, limit);
            let summary = model.solve(engine).limits(Limits::new().solutions(limit)).count().unwrap();
            let found = expected.len() as u64;
            let honest = match limit.cmp(&found) {
                _ if limit == 0 => summary.stop_reason == StopReason::SolutionLimit,
                std::cmp::Ordering::Less => summary.stop_reason == StopReason::SolutionLimit,
                std::cmp::Ordering::Greater => summary.stop_reason == StopReason::Exhausted,
                // The limit and the end of the tree coincide: either reason is honest.
                std::cmp::Ordering::Equal => matches!(
                    summary.stop_reason,
                    StopReason::SolutionLimit | StopReason::Exhausted
                ),
            };
            prop_assert!(honest, "{} limit {} of {}: {:?}", engine, limit, found, summary.stop_reason);
            prop_assert_eq!(summary.solutions, limit.min(found));

            // A node limit: a prefix of the solutions; complete only if the tree ended.
            let mut limited = model
                .solve(engine)
                .strategy(input.clone())
                .limits(Limits::new().nodes(nodes))
                .try_solutions();
            let mut prefix = Vec::new();
            for solution in limited.by_ref() {
                prefix.push(solution.unwrap().indices().to_vec());
            }
            prop_assert!(expected.starts_with(&prefix), "{} node limit {}", engine, nodes);
            match limited.stop_reason() {
                Some(StopReason::Exhausted) => prop_assert_eq!(&prefix, &expected),
                Some(StopReason::NodeLimit) => prop_assert!(limited.stats().nodes <= nodes),
                other => prop_assert!(false, "{} stopped by {:?}", engine, other),
            }

            // Cancelled before it starts: nothing.
            let flag = CancelFlag::new();
            flag.cancel();
            let cancelled = model.solve(engine).limits(Limits::new().cancel(flag)).count().unwrap();
            prop_assert_eq!((cancelled.solutions, cancelled.stop_reason), (0, StopReason::Cancelled));

            // Counted in slices that pause after every bit of work: the exact total.
            let mut slices = model.solve(engine).solutions();
            let mut total = 0;
            while !slices.is_finished() {
                total += slices.count_for(Duration::ZERO).unwrap();
            }
            prop_assert_eq!(total, expected.len() as u64, "{} in slices", engine);
            prop_assert_eq!(slices.stop_reason(), Some(StopReason::Exhausted));
        }
    }
}

/// The solutions of `model` on `engine` as value indices, configured by `configure`.
fn run_with(
    model: &Model<'_>,
    engine: Engine,
    configure: impl FnOnce(
        ambsolve::Solver<'_, ambsolve::Assignment>,
    ) -> ambsolve::Solver<'_, ambsolve::Assignment>,
) -> Vec<Vec<u32>> {
    let found: Result<Vec<Vec<u32>>, _> = configure(model.solve(engine))
        .try_solutions()
        .map(|a| a.map(|a| a.indices().to_vec()))
        .collect();
    found.unwrap_or_else(|error| panic!("{engine:?}: {error}"))
}

/// The objective's value at value indices `index` of `spec`'s variables.
fn objective_at(spec: &ModelSpec, terms: &[(i64, usize)], constant: i64, index: &[u32]) -> i64 {
    constant
        + terms
            .iter()
            .map(|&(c, x)| c * spec.lists[x][index[x] as usize])
            .sum::<i64>()
}

proptest! {
    #![proptest_config(common::differential::cases(300))]

    #[test]
    fn optimum_agrees_with_brute_force(
        spec in model_spec(),
        raw_terms in proptest::collection::vec((-4i64..=4, 0usize..5), 0..=4),
        constant in -5i64..=5,
        maximize in any::<bool>(),
        nodes in 0u64..30,
    ) {
        let vars = spec.lists.len();
        let terms: Vec<(i64, usize)> = raw_terms.into_iter().map(|(c, x)| (c, x % vars)).collect();
        let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
        let expected = brute_force(&spec);
        let value = |index: &[u32]| objective_at(&spec, &terms, constant, index);
        let optimum = if maximize {
            expected.iter().map(|s| value(s)).max()
        } else {
            expected.iter().map(|s| value(s)).min()
        };
        let better = |a: i64, b: i64| if maximize { a > b } else { a < b };
        let (mut model, xs) = build(&spec);
        model.objective(sense, terms.iter().map(|&(c, x)| (c, &xs[x])), constant);
        let strategies = [
            Search::new(),
            Search::new().vars(VarOrder::FirstFail).values(ValueOrder::Descending),
        ];
        for engine in [Engine::Trail, Engine::Replay] {
            for strategy in &strategies {
                for checking in [Checking::Early, Checking::AtEnd] {
                    let what = format!("{engine} {strategy:?} {checking:?}");
                    // Every improvement is a solution, its value is right, each is better.
                    let mut last: Option<i64> = None;
                    let mut improving = model
                        .solve(engine)
                        .strategy(strategy.clone())
                        .checking(checking)
                        .try_improving();
                    for step in improving.by_ref() {
                        let step = step.unwrap();
                        let index = step.solution.indices().to_vec();
                        prop_assert!(expected.contains(&index), "{}: not a solution", what);
                        prop_assert_eq!(step.objective, value(&index), "{}: its value", what);
                        prop_assert_eq!(model.objective_value(&step.solution), Some(step.objective));
                        if let Some(before) = last {
                            prop_assert!(better(step.objective, before), "{}: {} after {}", what, step.objective, before);
                        }
                        last = Some(step.objective);
                    }
                    prop_assert_eq!(improving.stop_reason(), Some(StopReason::Exhausted));
                    prop_assert_eq!(last, optimum, "{}: the optimum", what);

                    let best = model.solve(engine).strategy(strategy.clone()).checking(checking).best().unwrap();
                    prop_assert!(best.proved, "{}", what);
                    prop_assert_eq!(best.objective, optimum, "{}: best()", what);
                    prop_assert_eq!(best.solution.is_some(), optimum.is_some());
                }
            }
            if engine == Engine::Trail {
                // Learning: the same optimum, proved, each improvement a solution.
                for strategy in learning_strategies() {
                    let best = model.solve(engine).strategy(strategy.clone()).best().unwrap();
                    prop_assert!(best.proved, "{:?}", strategy);
                    prop_assert_eq!(best.objective, optimum, "{:?}: best()", strategy);
                    if let Some(solution) = &best.solution {
                        let index = solution.indices().to_vec();
                        prop_assert!(expected.contains(&index), "{:?}: not a solution", strategy);
                        prop_assert_eq!(best.objective, Some(value(&index)));
                    }
                }
            }
            // A node limit: the best so far is a solution, never better than the optimum;
            // proved only if the search ended.
            let best = model.solve(engine).limits(Limits::new().nodes(nodes)).best().unwrap();
            if let Some(solution) = &best.solution {
                let index = solution.indices().to_vec();
                prop_assert!(expected.contains(&index));
                prop_assert_eq!(best.objective, Some(value(&index)));
                let optimum = optimum.expect("a solution exists");
                prop_assert!(!better(value(&index), optimum));
            }
            match best.stop_reason {
                StopReason::Exhausted => {
                    prop_assert!(best.proved);
                    prop_assert_eq!(best.objective, optimum);
                }
                StopReason::NodeLimit => prop_assert!(!best.proved),
                other => prop_assert!(false, "{} stopped by {:?}", engine, other),
            }
        }
    }
}

/// A chain `x_0 < x_1 < ..` over random ranges, every difference `x_b - x_a` an auxiliary
/// variable of one all-different (plus some other members), the trail engine's
/// all-different-differences reasoning on: its solutions are the brute force's.
fn difference_model(
    ranges: &[(i64, i64)],
    extra: &[Vec<i64>],
    bound: Option<i64>,
) -> (Model<'static>, Vec<Var<i64>>, Vec<Var<i64>>) {
    let mut m = Model::new();
    let marks: Vec<Var<i64>> = ranges.iter().map(|&(lo, hi)| m.var(lo..=hi)).collect();
    for pair in marks.windows(2) {
        m.linear([(1, &pair[0]), (-1, &pair[1])], Cmp::Lt, 0);
    }
    let mut members = Vec::new();
    for a in 0..marks.len() {
        for b in a + 1..marks.len() {
            let d = m.var(-30i64..=30);
            m.linear([(1, &marks[b]), (-1, &marks[a]), (-1, &d)], Cmp::Eq, 0);
            members.push(d);
        }
    }
    let others: Vec<Var<i64>> = extra.iter().map(|values| m.var(values.clone())).collect();
    let all: Vec<Var<i64>> = members.iter().chain(&others).cloned().collect();
    m.all_different(&all);
    if let Some(bound) = bound {
        m.linear([(1, &marks[marks.len() - 1])], Cmp::Le, bound);
    }
    (m, marks, others)
}

proptest! {
    #![proptest_config(common::differential::cases(200))]

    #[test]
    fn all_different_differences_agree_with_brute_force(
        ranges in proptest::collection::vec((0i64..6, 0i64..10), 3..=4),
        extra in proptest::collection::vec(proptest::collection::vec(-2i64..8, 1..=3), 0..=2),
        bound in proptest::option::of(3i64..14),
    ) {
        let ranges: Vec<(i64, i64)> = ranges.iter().map(|&(lo, len)| (lo, lo + len)).collect();
        let (model, marks, others) = difference_model(&ranges, &extra, bound);
        // Brute force over the marks and the extra members (the differences follow).
        let lists: Vec<Vec<i64>> = ranges
            .iter()
            .map(|&(lo, hi)| (lo..=hi).collect())
            .chain(extra.iter().cloned())
            .collect();
        let p = ranges.len();
        let expected: Vec<Vec<i64>> = common::brute_force(&lists, |index| {
            let v: Vec<i64> = index.iter().zip(&lists).map(|(&i, l)| l[i]).collect();
            let (x, rest) = v.split_at(p);
            let mut seen = std::collections::HashSet::new();
            let differences_ok = (0..p).all(|a| (a + 1..p).all(|b| seen.insert(x[b] - x[a])));
            x.windows(2).all(|w| w[0] < w[1])
                && differences_ok
                && rest.iter().all(|r| seen.insert(*r))
                && bound.is_none_or(|bound| x[p - 1] <= bound)
        })
        .into_iter()
        .map(|index| index.iter().zip(&lists).map(|(&i, l)| l[i as usize]).collect())
        .collect();
        for engine in [Engine::Trail, Engine::Replay] {
            let mut got: Vec<Vec<i64>> = model
                .solve(engine)
                .try_solutions()
                .map(|s| {
                    let s = s.unwrap();
                    marks.iter().chain(&others).map(|v| *s.value(v)).collect()
                })
                .collect();
            got.sort();
            let mut want = expected.clone();
            want.sort();
            prop_assert_eq!(got, want, "{}", engine);
        }
    }
}

proptest! {
    #![proptest_config(common::differential::cases(120))]

    /// On several threads, cut into any number of subproblems: the same solutions in the
    /// same order, the same first solution and count, the same optimum; the subproblems,
    /// searched one by one, piece the search back together.
    #[test]
    fn parallel_search_agrees_with_one_thread(
        spec in model_spec(),
        threads in 2usize..=3,
        parts in 1usize..=24,
        raw_terms in proptest::collection::vec((-4i64..=4, 0usize..5), 1..=3),
    ) {
        let expected = brute_force(&spec);
        let (mut model, xs) = build(&spec);
        let strategies = [
            Search::new().vars(VarOrder::Input),
            Search::first_fail(),
            Search::new().values(ValueOrder::Descending),
        ];
        for engine in [Engine::Trail, Engine::Replay] {
            for strategy in &strategies {
                let what = format!("{engine} {strategy:?} on {threads} threads, {parts} parts");
                let one = run_with(&model, engine, |s| s.strategy(strategy.clone()));
                let many = run_with(&model, engine, |s| {
                    s.strategy(strategy.clone()).threads(threads).subproblems(parts)
                });
                prop_assert_eq!(&many, &one, "{}", what);
                let count = model
                    .solve(engine)
                    .strategy(strategy.clone())
                    .threads(threads)
                    .subproblems(parts)
                    .count()
                    .unwrap();
                prop_assert_eq!(count.solutions, expected.len() as u64, "{}", what);
                let first = model
                    .solve(engine)
                    .strategy(strategy.clone())
                    .threads(threads)
                    .subproblems(parts)
                    .first()
                    .unwrap()
                    .map(|a| a.indices().to_vec());
                prop_assert_eq!(first.as_ref(), one.first(), "{}", what);
                let pieces = model.solve(engine).strategy(strategy.clone()).subproblems(parts).split().unwrap();
                let mut pieced = Vec::new();
                for piece in &pieces {
                    pieced.extend(run_with(&model, engine, |s| s.strategy(strategy.clone()).subproblem(piece)));
                }
                prop_assert_eq!(&pieced, &one, "{} pieced", what);
            }
        }
        // The same optimum on threads.
        let vars = spec.lists.len();
        let terms: Vec<(i64, usize)> = raw_terms.into_iter().map(|(c, x)| (c, x % vars)).collect();
        model.minimize(terms.iter().map(|&(c, x)| (c, &xs[x])));
        let optimum = expected.iter().map(|s| objective_at(&spec, &terms, 0, s)).min();
        for engine in [Engine::Trail, Engine::Replay] {
            let best = model.solve(engine).threads(threads).subproblems(parts).best().unwrap();
            prop_assert!(best.proved);
            prop_assert_eq!(best.objective, optimum, "{} optimum", engine);
            if let Some(solution) = &best.solution {
                prop_assert!(expected.contains(&solution.indices().to_vec()));
            }
        }
    }
}

proptest! {
    #![proptest_config(common::differential::cases(200))]

    /// Local search on random small models: every solution it yields is one of the brute
    /// force's, each at most once, and it stops on its limit, never as exhausted. On
    /// models this small (at most 5^5 assignments) it finds a solution within its budget
    /// whenever there is one (every one, when there are few).
    #[test]
    fn local_search_finds_only_solutions_of_the_brute_force(
        spec in model_spec(),
        seed in any::<u64>(),
    ) {
        let expected = brute_force(&spec);
        let (model, _) = build(&spec);
        let mut solutions = model
            .solve(Engine::Local)
            .seed(seed)
            .limits(Limits::new().nodes(LOCAL_STEPS))
            .solutions();
        let found: Vec<Vec<u32>> = solutions.by_ref().map(|a| a.indices().to_vec()).collect();
        let distinct: std::collections::BTreeSet<&Vec<u32>> = found.iter().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution yielded twice");
        for solution in &found {
            prop_assert!(expected.binary_search(solution).is_ok(), "not a solution: {:?}", solution);
        }
        prop_assert_eq!(solutions.stop_reason(), Some(StopReason::NodeLimit));
        prop_assert_eq!(found.is_empty(), expected.is_empty(), "no solution found within the budget");
        if expected.len() <= 3 {
            prop_assert_eq!(found.len(), expected.len(), "solutions missed within the budget");
        }
    }
}

/// The steps local search gets on each random model.
const LOCAL_STEPS: u64 = 20_000;

proptest! {
    #![proptest_config(common::differential::cases(200))]

    /// A resumable count stopped by a node limit, its checkpoint corrupted at a random
    /// byte (changed, removed or doubled): the resumed count is refused, or gives the
    /// exact total; never a wrong one. Untouched, it gives the exact total (searching a
    /// few finished subproblems again, as a resumed count does, never refuses the model
    /// that wrote it), counting plainly or through a symmetry.
    #[test]
    fn a_corrupted_checkpoint_is_refused_or_resumes_to_the_exact_total(
        spec in model_spec_sized(3, 4),
        symmetric in any::<bool>(),
        engine in prop_oneof![Just(Engine::Trail), Just(Engine::Replay)],
        strategy in prop_oneof![
            Just(Search::new().vars(VarOrder::Input)),
            Just(Search::first_fail()),
            Just(Search::new().values(ValueOrder::Random(7))),
        ],
        (threads, parts, nodes) in (1usize..=2, 1usize..=24, 0u64..80),
        (at, byte, how) in (any::<prop::sample::Index>(), any::<u8>(), 0u8..4),
    ) {
        let plain = brute_force(&spec).len() as u64;
        let (model, expected) = if symmetric {
            (doubled(&spec).0, plain * plain)
        } else {
            (build(&spec).0, plain)
        };
        let solver = || {
            let s = model.solve(engine).strategy(strategy.clone()).threads(threads).subproblems(parts);
            if symmetric { s.count_through_symmetry() } else { s }
        };
        let file = std::env::temp_dir().join(format!(
            "ambsolve-props-{}-{:?}.checkpoint",
            std::process::id(),
            std::thread::current().id()
        ));
        solver().checkpoint(&file).limits(Limits::new().nodes(nodes)).count().unwrap();
        let mut bytes = std::fs::read(&file).unwrap();
        let k = at.index(bytes.len());
        match how {
            0 => bytes[k] = byte,
            1 => { bytes.remove(k); }
            2 => bytes.insert(k, bytes[k]),
            _ => {}
        }
        std::fs::write(&file, &bytes).unwrap();
        let resumed = solver().resume(&file).count();
        std::fs::remove_file(&file).ok();
        match resumed {
            Ok(summary) => {
                prop_assert_eq!(summary.solutions, expected, "a wrong total");
                prop_assert_eq!(summary.stop_reason, StopReason::Exhausted);
            }
            Err(ambsolve::SearchError::Checkpoint(why)) => {
                prop_assert!(how != 3, "untouched, refused: {}", why);
            }
            Err(other) => prop_assert!(false, "{}", other),
        }
    }
}
