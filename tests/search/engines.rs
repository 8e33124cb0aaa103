//! One model, two engines: on a corpus of models the trail and replay engines yield the
//! same solutions in the same order (input order, ascending values), every strategy of
//! the trail engine yields the same set, and every solution satisfies every constraint.

use std::sync::Arc;

use ambsolve::{
    Assignment, Cmp, Context, Engine, Fail, Model, Propagator, Restarts, Strategy, ValueOrder,
    VarId, VarOrder,
};

struct Case {
    name: &'static str,
    model: Model<'static>,
    expected: Option<u64>,
}

/// x < y on value indices (an outside-style propagator).
struct IndexLess(VarId, VarId);

impl Propagator for IndexLess {
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
        let (Some(x_min), Some(y_max)) = (cx.min(self.0), cx.max(self.1)) else {
            return Err(Fail);
        };
        cx.retain(self.0, |x| x < y_max)?;
        cx.retain(self.1, |y| y > x_min)?;
        Ok(())
    }
}

use crate::common;

use common::queens_model as queens;

fn corpus() -> Vec<Case> {
    let mut cases = Vec::new();
    for (n, count) in [(4, 2), (5, 10), (6, 4), (7, 40)] {
        cases.push(Case {
            name: "queens",
            model: queens(n),
            expected: Some(count),
        });
    }

    // 3×3 magic squares: 8.
    let mut m = Model::new();
    let c = m.vars("c", 9, 1..=9i32);
    m.all_different(&c);
    let lines: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    for line in lines {
        m.linear(line.map(|i| (1, &c[i])), Cmp::Eq, 15);
    }
    cases.push(Case {
        name: "magic square",
        model: m,
        expected: Some(8),
    });

    // Australia in three colours: 18.
    let mut m = Model::new();
    let regions = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
    let colour: Vec<_> = regions
        .iter()
        .map(|r| m.named_var(*r, ["red", "green", "blue"]))
        .collect();
    for (a, b) in [
        (0, 1),
        (0, 2),
        (1, 2),
        (1, 3),
        (2, 3),
        (2, 4),
        (2, 5),
        (3, 4),
        (4, 5),
    ] {
        m.relation(&colour[a], &colour[b], |x, y| x != y);
    }
    cases.push(Case {
        name: "map colouring",
        model: m,
        expected: Some(18),
    });

    // Pythagorean triples a <= b <= c <= 20 by predicates: 6.
    let mut m = Model::new();
    let [a, b, c] = ["a", "b", "c"].map(|n| m.named_var(n, 1..=20u32));
    m.require((&a, &b), |a, b| a <= b);
    m.require((&b, &c), |b, c| b <= c);
    m.require((&a, &b, &c), |a, b, c| a * a + b * b == c * c);
    cases.push(Case {
        name: "pythagorean",
        model: m,
        expected: Some(6),
    });

    // Words all different, with a table and duplicate values in a list.
    let mut m = Model::new();
    let w = m.vars("w", 3, ["ant", "bee", "cat", "bee"]);
    m.all_different(&w);
    m.table(
        &w[..2],
        [
            ["ant", "bee"],
            ["cat", "ant"],
            ["bee", "bee"],
            ["dog", "ant"],
        ],
    );
    m.require(&w[2], |w| w != &"ant");
    cases.push(Case {
        name: "words",
        model: m,
        expected: None,
    });

    cases.extend(more_cases());
    cases
}

/// Linear constraints, custom propagators, a Latin square, and the edge cases: no
/// solution, no variables.
fn more_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // Linear with every comparison, mixed signs and offsets.
    let mut m = Model::new();
    let x = m.vars("x", 4, -2..=3i64);
    m.linear([(2, &x[0]), (-1, &x[1]), (3, &x[2])], Cmp::Le, 4);
    m.linear([(1, &x[1]), (1, &x[3])], Cmp::Ge, 1);
    m.linear([(1, &x[0]), (1, &x[3])], Cmp::Ne, 0);
    m.linear([(1, &x[2]), (-1, &x[3])], Cmp::Lt, 2);
    m.linear([(1, &x[1]), (1, &x[2])], Cmp::Gt, -3);
    m.all_different_offset([(&x[0], 0), (&x[1], 1), (&x[2], 2)]);
    cases.push(Case {
        name: "linear mix",
        model: m,
        expected: None,
    });

    // A custom propagator chain: x0 < x1 < x2 < x3 over 0..6: C(6, 4) = 15.
    let mut m = Model::new();
    let x = m.vars("x", 4, 0..6u8);
    for pair in x.windows(2) {
        m.propagator(
            &[pair[0].id(), pair[1].id()],
            IndexLess(pair[0].id(), pair[1].id()),
        );
    }
    cases.push(Case {
        name: "custom propagator",
        model: m,
        expected: Some(15),
    });

    // Sudoku-like 4×4 Latin square with two givens.
    let mut m = Model::new();
    let g = m.vars("g", 16, 1..=4u8);
    for k in 0..4 {
        let row: Vec<_> = (0..4).map(|i| g[4 * k + i].clone()).collect();
        let col: Vec<_> = (0..4).map(|i| g[4 * i + k].clone()).collect();
        m.all_different(&row);
        m.all_different(&col);
    }
    m.linear([(1, &g[0])], Cmp::Eq, 1);
    m.linear([(1, &g[5])], Cmp::Eq, 1);
    cases.push(Case {
        name: "latin square",
        model: m,
        expected: None,
    });

    // No solution: an empty value list.
    let mut m = Model::new();
    let _ = m.var(0..3u8);
    let _ = m.var(Vec::<u8>::new());
    cases.push(Case {
        name: "empty domain",
        model: m,
        expected: Some(0),
    });

    // No variables at all: one (empty) solution.
    cases.push(Case {
        name: "no variables",
        model: Model::new(),
        expected: Some(1),
    });
    cases
}

fn run(model: &Model<'_>, engine: Engine, strategy: Strategy) -> Vec<Assignment> {
    let all: Result<Vec<Assignment>, _> = model
        .solve(engine)
        .strategy(strategy)
        .try_solutions()
        .collect();
    all.unwrap_or_else(|error| panic!("{engine:?}: {error}"))
}

fn strategies(model: &Model<'_>) -> Vec<(&'static str, Strategy)> {
    let reversed: Arc<[VarId]> = model.var_ids().rev().collect();
    vec![
        ("first-fail", Strategy::first_fail()),
        ("descending", Strategy::new().values(ValueOrder::Descending)),
        ("middle-out", Strategy::new().values(ValueOrder::MiddleOut)),
        ("random", Strategy::new().values(ValueOrder::Random(7))),
        (
            "by key",
            Strategy::new().values(ValueOrder::By(Arc::new(|v, i| {
                (v.index() as i64 + 1) * -(i as i64)
            }))),
        ),
        (
            "given order",
            Strategy::new().vars(VarOrder::Given(reversed.clone())),
        ),
        (
            "first-fail, ties",
            Strategy::new().vars(VarOrder::FirstFailThen(reversed)),
        ),
        (
            "restarts",
            Strategy::first_fail()
                .values(ValueOrder::MiddleOut)
                .restarts(Restarts::luby(1)),
        ),
    ]
}

#[test]
fn both_engines_yield_the_same_solutions_in_the_same_order() {
    let input = || Strategy::new().vars(VarOrder::Input);
    for case in corpus() {
        let trail = run(&case.model, Engine::Trail, input());
        let replay = run(&case.model, Engine::Replay, input());
        assert_eq!(trail, replay, "{}", case.name);
        // The default order: the trail engine's is the input order; the replay engine
        // picks its own, and finds the same set.
        assert_eq!(
            run(&case.model, Engine::Trail, Strategy::new()),
            trail,
            "{}",
            case.name
        );
        let mut automatic = run(&case.model, Engine::Replay, Strategy::new());
        automatic.sort();
        assert_eq!(automatic, trail, "{}: replay in its own order", case.name);
        let mut sorted = trail.clone();
        sorted.sort();
        assert_eq!(
            trail, sorted,
            "{}: input order and ascending values are lexicographic",
            case.name
        );
        if let Some(expected) = case.expected {
            assert_eq!(trail.len() as u64, expected, "{}", case.name);
        }
        for solution in &trail {
            assert_eq!(case.model.check(solution), Ok(()), "{}", case.name);
        }
    }
}

#[test]
fn every_strategy_yields_the_same_set() {
    for case in corpus() {
        let mut reference = run(&case.model, Engine::Trail, Strategy::new());
        reference.sort();
        for (name, strategy) in strategies(&case.model) {
            for engine in [Engine::Trail, Engine::Replay] {
                let mut got = run(&case.model, engine, strategy.clone());
                let unsorted = got.clone();
                got.sort();
                assert_eq!(got, reference, "{} with {name} on {engine:?}", case.name);
                let mut deduped = unsorted.clone();
                deduped.dedup();
                assert_eq!(
                    deduped.len(),
                    unsorted.len(),
                    "{} with {name}: no duplicates",
                    case.name
                );
            }
        }
    }
}

#[test]
fn the_replay_engine_follows_static_orders_like_the_trail_engine() {
    for case in corpus() {
        let reversed: Arc<[VarId]> = case.model.var_ids().rev().collect();
        for strategy in [
            Strategy::new()
                .vars(VarOrder::Input)
                .values(ValueOrder::Descending),
            Strategy::new()
                .vars(VarOrder::Input)
                .values(ValueOrder::MiddleOut),
            Strategy::new().vars(VarOrder::Given(reversed)),
        ] {
            let trail = run(&case.model, Engine::Trail, strategy.clone());
            let replay = run(&case.model, Engine::Replay, strategy.clone());
            assert_eq!(trail, replay, "{} with {strategy:?}", case.name);
        }
    }
}
