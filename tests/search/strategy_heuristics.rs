//! Search heuristics (variable orders, value orders and splits, phases, restarts): every
//! strategy finds the same solutions (counts, sets) and the same optima as brute force, on
//! the trail engine and on threads; what cannot be supported is refused with an error.

use crate::common;

use std::collections::BTreeSet;
use std::sync::Arc;

use ambsolve::{
    Cmp, Engine, Event, Model, Phase, Recorder, Restarts, SearchError, StopReason, Strategy,
    ValueKey, ValueOrder, VarId, VarOrder, value_images,
};
use ambsolve_examples::puzzles::queens::{queens, queens_through_symmetry};
use common::{brute_force, is_queens_solution, queens_counts};

/// Every variable order, for variables `vars` whose values `key` gives.
fn var_orders(vars: &[VarId], key: &ValueKey) -> Vec<VarOrder> {
    let reversed: Arc<[VarId]> = vars.iter().rev().copied().collect();
    vec![
        VarOrder::Input,
        VarOrder::FirstFail,
        VarOrder::AntiFirstFail,
        VarOrder::Smallest(key.clone()),
        VarOrder::Largest(key.clone()),
        VarOrder::Occurrence,
        VarOrder::MostConstrained,
        VarOrder::DomWDeg,
        VarOrder::Given(reversed.clone()),
        VarOrder::FirstFailThen(reversed),
    ]
}

/// Every value order.
fn value_orders() -> Vec<ValueOrder> {
    vec![
        ValueOrder::Ascending,
        ValueOrder::Descending,
        ValueOrder::MiddleOut,
        ValueOrder::Median,
        ValueOrder::Random(7),
        ValueOrder::Split,
        ValueOrder::ReverseSplit,
    ]
}

/// Every combination, phases (a first-fail over some variables, the rest after; two
/// phases of their own orders) and restarts, each with and without refutations
/// propagated.
fn strategies(vars: &[VarId], key: &ValueKey) -> Vec<Strategy> {
    let mut all = Vec::new();
    for vo in var_orders(vars, key) {
        for values in value_orders() {
            all.push(Strategy::new().vars(vo.clone()).values(values));
        }
    }
    let half = vars.len() / 2;
    all.push(
        Strategy::new()
            .phase(Phase::new(
                vars[half..].iter().copied(),
                VarOrder::FirstFail,
                ValueOrder::Ascending,
            ))
            .values(ValueOrder::Descending),
    );
    all.push(
        Strategy::new()
            .phase(Phase::new(
                vars[..half].iter().rev().copied(),
                VarOrder::Input,
                ValueOrder::ReverseSplit,
            ))
            .phase(Phase::new(
                vars.iter().copied(),
                VarOrder::DomWDeg,
                ValueOrder::Median,
            )),
    );
    for restarts in [
        Restarts::luby(1),
        Restarts::geometric(1, 1.3),
        Restarts::linear(2),
        Restarts::constant(1_000_000),
    ] {
        all.push(Strategy::first_fail().restarts(restarts));
        all.push(
            Strategy::new()
                .vars(VarOrder::DomWDeg)
                .values(ValueOrder::Split)
                .restarts(restarts),
        );
    }
    // Each again with its refuted values propagated (binary branching).
    let refuting: Vec<Strategy> = all
        .iter()
        .map(|s| s.clone().propagate_refutations(true))
        .collect();
    all.extend(refuting);
    all
}

#[test]
fn every_strategy_counts_the_queens() {
    for expected in queens_counts()
        .into_iter()
        .filter(|c| (4..=7).contains(&c.n))
    {
        let n = expected.n;
        let rows: Vec<VarId> = (0..n).map(VarId::from_index).collect();
        let key: ValueKey = Arc::new(|_, index| i64::from(index));
        let mut whole: Option<BTreeSet<Vec<usize>>> = None;
        for strategy in strategies(&rows, &key) {
            let found: Vec<Vec<usize>> = queens(n).strategy(strategy.clone()).solutions().collect();
            assert!(found.iter().all(|q| is_queens_solution(q)), "{strategy:?}");
            let set: BTreeSet<Vec<usize>> = found.iter().cloned().collect();
            assert_eq!(set.len(), found.len(), "n = {n}, a repeat: {strategy:?}");
            assert_eq!(found.len() as u64, expected.all, "n = {n}, {strategy:?}");
            match &whole {
                None => whole = Some(set),
                Some(whole) => assert_eq!(&set, whole, "n = {n}, {strategy:?}"),
            }
        }
    }
}

#[test]
fn counts_through_symmetry_and_on_threads_follow_any_strategy() {
    let expected = queens_counts().into_iter().find(|c| c.n == 8).unwrap();
    let rows: Vec<VarId> = (0..8).map(VarId::from_index).collect();
    let key: ValueKey = Arc::new(|_, index| i64::from(index));
    for strategy in strategies(&rows, &key) {
        let through = queens_through_symmetry(8)
            .strategy(strategy.clone())
            .count()
            .unwrap();
        assert_eq!(through.solutions, expected.all, "{strategy:?}");
        assert_eq!(
            through.stats.solutions, expected.fundamental,
            "{strategy:?}"
        );
        let threads = queens(8)
            .strategy(strategy.clone())
            .threads(3)
            .count()
            .unwrap();
        assert_eq!(threads.solutions, expected.all, "{strategy:?}");
    }
}

#[test]
fn split_searches_cut_into_subproblems_cover_the_tree_in_order() {
    let rows: Vec<VarId> = (0..7).map(VarId::from_index).collect();
    let refuting = |values: ValueOrder| {
        Strategy::first_fail()
            .values(values)
            .propagate_refutations(true)
    };
    for strategy in [
        Strategy::new().values(ValueOrder::Split),
        Strategy::first_fail().values(ValueOrder::ReverseSplit),
        Strategy::new().phase(Phase::new(
            rows[3..].iter().copied(),
            VarOrder::AntiFirstFail,
            ValueOrder::Split,
        )),
        // Refutations change the alternatives: a subproblem's path replays them.
        refuting(ValueOrder::Ascending),
        refuting(ValueOrder::Descending),
        refuting(ValueOrder::MiddleOut),
        refuting(ValueOrder::Median),
        refuting(ValueOrder::Random(3)),
    ] {
        let whole: Vec<Vec<usize>> = queens(7).strategy(strategy.clone()).solutions().collect();
        let parts = queens(7)
            .strategy(strategy.clone())
            .subproblems(20)
            .split()
            .unwrap();
        assert!(parts.len() >= 20, "{}", parts.len());
        let pieced: Vec<Vec<usize>> = parts
            .iter()
            .flat_map(|part| {
                let solutions = queens(7).strategy(strategy.clone()).subproblem(part);
                solutions.solutions().collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(pieced, whole, "{strategy:?}");
    }
}

/// A chain `x[0] = x[1] = ...` over value lists with gaps, where refuting a value moves
/// the bounds of the whole chain: a refuting search skips values that a plain one tries.
fn gapped_chain() -> (Model<'static>, Vec<VarId>) {
    let mut m = Model::new();
    let lists: [&[i64]; 4] = [
        &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        &[0, 4, 5, 6, 9],
        &[0, 1, 5, 6, 8, 9],
        &[0, 2, 5, 6, 7, 9],
    ];
    let vars: Vec<_> = lists.iter().map(|list| m.var(list.to_vec())).collect();
    for pair in vars.windows(2) {
        m.linear([(1, &pair[0]), (-1, &pair[1])], Cmp::Eq, 0);
    }
    let free: Vec<_> = (0..2).map(|_| m.var(0..3i64)).collect();
    m.linear([(1, &free[0]), (1, &free[1]), (-1, &vars[0])], Cmp::Le, 3);
    let ids = vars.iter().chain(&free).map(|v| v.id()).collect();
    (m, ids)
}

#[test]
fn refuting_searches_skip_values_and_their_subproblems_replay_the_skips() {
    let (model, vars) = gapped_chain();
    let solutions = |strategy: &Strategy| -> Vec<Vec<u32>> {
        let found = model
            .solve(Engine::Trail)
            .strategy(strategy.clone())
            .solutions();
        found
            .map(|a| vars.iter().map(|&v| a.index(v)).collect())
            .collect()
    };
    for values in [
        ValueOrder::Ascending,
        ValueOrder::Descending,
        ValueOrder::MiddleOut,
        ValueOrder::Median,
        ValueOrder::Random(5),
    ] {
        let plain = Strategy::new().values(values.clone());
        let refuting = plain.clone().propagate_refutations(true);
        let whole = solutions(&refuting);
        assert_eq!(whole, solutions(&plain), "{values:?}");
        let nodes = |strategy: &Strategy| {
            let mut found = model
                .solve(Engine::Trail)
                .strategy(strategy.clone())
                .solutions();
            found.by_ref().count();
            found.stats().nodes
        };
        // Refuting the least (greatest) value moves the chain's bounds past the gaps.
        let moves_bounds = matches!(values, ValueOrder::Ascending | ValueOrder::Descending);
        let (fewer, more) = (nodes(&refuting), nodes(&plain));
        assert!(
            fewer <= more && (fewer < more || !moves_bounds),
            "{values:?}: {fewer} nodes, {more} plain"
        );
        let parts = model
            .solve(Engine::Trail)
            .strategy(refuting.clone())
            .subproblems(12)
            .split()
            .unwrap();
        assert!(parts.len() > 4, "{values:?}: {}", parts.len());
        let mut pieced = Vec::new();
        for part in &parts {
            let found = model
                .solve(Engine::Trail)
                .strategy(refuting.clone())
                .subproblem(part)
                .solutions();
            pieced.extend(found.map(|a| vars.iter().map(|&v| a.index(v)).collect::<Vec<_>>()));
        }
        assert_eq!(pieced, whole, "{values:?}");
    }
}

/// A small random model: its variables' value lists, constraints as (coefficients, cmp,
/// rhs) and all-different groups, and a cost to minimise.
struct Random {
    lists: Vec<Vec<i64>>,
    linear: Vec<(Vec<i64>, Cmp, i64)>,
    distinct: Vec<Vec<usize>>,
    cost: Vec<i64>,
}

/// SplitMix64, for the random models.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn random_model(seed: u64) -> Random {
    let mut s = seed;
    let mut below = |k: u64| (next(&mut s) % k) as i64;
    let n = 3 + below(3) as usize;
    let lists = (0..n)
        .map(|_| {
            let low = below(4) - 1;
            (low..low + 2 + below(4)).collect()
        })
        .collect();
    let cmps = [Cmp::Le, Cmp::Ge, Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Gt];
    let linear = (0..1 + below(3))
        .map(|_| {
            let coefs = (0..n).map(|_| below(5) - 2).collect();
            (coefs, cmps[below(6) as usize], below(9) - 2)
        })
        .collect();
    let distinct = (0..below(2))
        .map(|_| (0..n).filter(|_| below(2) == 0).collect())
        .collect();
    let cost = (0..n).map(|_| below(7) - 3).collect();
    Random {
        lists,
        linear,
        distinct,
        cost,
    }
}

impl Random {
    /// The model, its variables, and their images as a key.
    fn model(&self, minimize: bool) -> (Model<'static>, Vec<VarId>, ValueKey) {
        let mut m = Model::new();
        let vars: Vec<_> = self.lists.iter().map(|l| m.var(l.clone())).collect();
        for (coefs, cmp, rhs) in &self.linear {
            m.linear(coefs.iter().zip(&vars).map(|(&c, v)| (c, v)), *cmp, *rhs);
        }
        for group in &self.distinct {
            m.all_different(group.iter().map(|&i| &vars[i]));
        }
        if minimize {
            m.minimize(self.cost.iter().zip(&vars).map(|(&c, v)| (c, v)));
        }
        let key = value_images(&vars);
        (m, vars.iter().map(|v| v.id()).collect(), key)
    }

    /// The solutions (value indices) and the least cost, by brute force.
    fn brute(&self) -> (BTreeSet<Vec<u32>>, Option<i64>) {
        let value = |t: &[usize], i: usize| self.lists[i][t[i]];
        let holds = |t: &[usize]| {
            self.linear.iter().all(|(coefs, cmp, rhs)| {
                let sum: i64 = (0..t.len()).map(|i| coefs[i] * value(t, i)).sum();
                match cmp {
                    Cmp::Le => sum <= *rhs,
                    Cmp::Ge => sum >= *rhs,
                    Cmp::Eq => sum == *rhs,
                    Cmp::Ne => sum != *rhs,
                    Cmp::Lt => sum < *rhs,
                    Cmp::Gt => sum > *rhs,
                }
            }) && self.distinct.iter().all(|group| {
                let values: BTreeSet<i64> = group.iter().map(|&i| value(t, i)).collect();
                values.len() == group.len()
            })
        };
        let found = brute_force(&self.lists, holds);
        let cost = |t: &Vec<u32>| -> i64 {
            (0..t.len())
                .map(|i| self.cost[i] * self.lists[i][t[i] as usize])
                .sum()
        };
        let best = found.iter().map(cost).min();
        (found.into_iter().collect(), best)
    }
}

#[test]
fn random_models_agree_with_brute_force_under_every_strategy() {
    for seed in 0..40 {
        let random = random_model(seed);
        let (expected, best) = random.brute();
        let (model, vars, key) = random.model(false);
        let (costed, costed_vars, costed_key) = random.model(true);
        let costed_strategies = strategies(&costed_vars, &costed_key);
        for (strategy, costed_strategy) in
            strategies(&vars, &key).into_iter().zip(costed_strategies)
        {
            let found: Vec<Vec<u32>> = model
                .solve(Engine::Trail)
                .strategy(strategy.clone())
                .solutions()
                .map(|a| vars.iter().map(|&v| a.index(v)).collect())
                .collect();
            let set: BTreeSet<Vec<u32>> = found.iter().cloned().collect();
            assert_eq!(
                set.len(),
                found.len(),
                "seed {seed}: a repeat, {strategy:?}"
            );
            assert_eq!(set, expected, "seed {seed}, {strategy:?}");
            // Branch and bound: each improvement strictly better, the last one optimal
            // and proved.
            let mut improving = costed
                .solve(Engine::Trail)
                .strategy(costed_strategy)
                .improving();
            let costs: Vec<i64> = improving.by_ref().map(|i| i.objective).collect();
            assert!(
                costs.windows(2).all(|w| w[1] < w[0]),
                "seed {seed}: {costs:?}"
            );
            assert_eq!(costs.last().copied(), best, "seed {seed}, {strategy:?}");
            assert_eq!(improving.stop_reason(), Some(StopReason::Exhausted));
        }
        // The replay engine follows the static orders and the phases.
        for strategy in [
            Strategy::new().values(ValueOrder::Median),
            Strategy::new().phase(Phase::new(
                vars.iter().rev().copied(),
                VarOrder::Input,
                ValueOrder::Descending,
            )),
        ] {
            let count = model
                .solve(Engine::Replay)
                .strategy(strategy)
                .count()
                .unwrap();
            assert_eq!(count.solutions, expected.len() as u64, "seed {seed}");
        }
    }
}

/// The variable the first decision branches on, under `order`.
fn first_pick(model: &Model<'static>, order: VarOrder) -> VarId {
    let recorder = Recorder::new(10);
    model
        .solve(Engine::Trail)
        .strategy(Strategy::new().vars(order))
        .observe(recorder.clone())
        .first()
        .unwrap();
    let events = recorder.events();
    match events.first() {
        Some(Event::Try { var: Some(var), .. }) => *var,
        other => panic!("not a decision: {other:?}"),
    }
}

#[test]
fn each_variable_order_picks_its_variable() {
    let mut m = Model::new();
    // size 6, 3, 3, 4, 9; least values 2, 5, 0, 4, 3; greatest 7, 7, 2, 7, 11.
    let d = m.var(2..8i64);
    let c = m.var(5..8i64);
    let e = m.var(0..3i64);
    let a = m.var(4..8i64);
    let b = m.var(3..12i64);
    // Occurrences: a 3, e 2, the others 1.
    m.linear([(1, &a), (1, &e)], Cmp::Le, 100);
    m.linear([(1, &a), (1, &e)], Cmp::Ge, 0);
    m.linear([(1, &a), (1, &b), (1, &c), (1, &d)], Cmp::Le, 1000);
    let key = value_images([&d, &c, &e, &a, &b]);
    let expect = [
        (VarOrder::Input, d.id()),
        (VarOrder::FirstFail, c.id()),
        (VarOrder::AntiFirstFail, b.id()),
        (VarOrder::Smallest(key.clone()), e.id()),
        (VarOrder::Largest(key), b.id()),
        (VarOrder::Occurrence, a.id()),
        // Sizes 3 tie: e is in more constraints.
        (VarOrder::MostConstrained, e.id()),
        // Sizes over degrees: 6, 3, 1.5, 1.33, 9.
        (VarOrder::DomWDeg, a.id()),
    ];
    for (order, var) in expect {
        assert_eq!(first_pick(&m, order.clone()), var, "{order:?}");
    }
    // Values: splits reach the ends, the median the middle.
    let first = |values: ValueOrder| {
        let s = m
            .solve(Engine::Trail)
            .strategy(Strategy::new().values(values));
        let found = s.first().unwrap().unwrap();
        vec![
            *found.value(&d),
            *found.value(&c),
            *found.value(&e),
            *found.value(&b),
        ]
    };
    assert_eq!(first(ValueOrder::Split), [2, 5, 0, 3]);
    assert_eq!(first(ValueOrder::ReverseSplit), [7, 7, 2, 11]);
    assert_eq!(first(ValueOrder::Median), [4, 6, 1, 7]);
}

#[test]
fn what_cannot_be_supported_is_refused() {
    let split = Strategy::new().values(ValueOrder::Split);
    let learns = Strategy::new().vars(VarOrder::DomWDeg);
    let unsupported = |result: Result<u64, SearchError>, what: &str| match result {
        Err(SearchError::Unsupported(message)) => assert!(message.contains(what), "{message}"),
        other => panic!("{what}: {other:?}"),
    };
    let count = |p: ambsolve::Puzzle<'static, Vec<usize>>| p.count().map(|s| s.solutions);
    unsupported(
        count(queens(5).engine(Engine::Replay).strategy(split.clone())),
        "replay engine",
    );
    unsupported(
        count(queens(5).strategy(split.clone()).observe(Recorder::new(5))),
        "observer",
    );
    unsupported(
        queens(5)
            .strategy(learns.clone())
            .split()
            .map(|p| p.len() as u64),
        "dom_w_deg",
    );
    let part = queens(5).split().unwrap().remove(1);
    unsupported(
        count(queens(5).strategy(learns.clone()).subproblem(&part)),
        "dom_w_deg",
    );
    // On threads, a learning order runs on one: the count is right.
    assert_eq!(count(queens(6).strategy(learns).threads(4)).unwrap(), 4);
}
