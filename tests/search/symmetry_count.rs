//! Counting through symmetry: one representative per class searched, each counted as the
//! size of its class. The weighted count must equal the plain one, on both engines, with
//! any strategy, for any group of symmetries (declared whole or by generators).

use crate::common;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use ambsolve::{
    Checking, Cmp, Engine, Limits, Model, Restarts, StopReason, Strategy as Search, Symmetry,
    ValueOrder, VarId, VarOrder,
};
use ambsolve_examples::puzzles::langford::{is_langford, langford, langford_up_to_reversal};
use ambsolve_examples::puzzles::queens::{
    board_symmetries, count_strategy, queens, queens_through_symmetry,
};
use common::{is_queens_solution, queens_counts};
use proptest::prelude::*;

/// Strategies a count may run with: the weights must not depend on the order.
fn strategies(n: usize) -> Vec<Search> {
    let reversed: Arc<[VarId]> = (0..n).rev().map(VarId::from_index).collect();
    vec![
        Search::new(),
        count_strategy(n),
        Search::first_fail().values(ValueOrder::MiddleOut),
        Search::new().vars(VarOrder::Given(reversed)),
        Search::new().values(ValueOrder::Descending),
        Search::first_fail().restarts(Restarts::luby(1)),
    ]
}

#[test]
fn queens_counted_through_symmetry_on_the_trail_engine() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 10) {
        let n = expected.n;
        for strategy in strategies(n) {
            let summary = queens_through_symmetry(n)
                .strategy(strategy.clone())
                .count()
                .unwrap();
            assert_eq!(summary.solutions, expected.all, "n = {n}, {strategy:?}");
            assert_eq!(summary.stop_reason, StopReason::Exhausted);
            // The representatives: one per class.
            assert_eq!(
                summary.stats.solutions, expected.fundamental,
                "n = {n}, {strategy:?}"
            );
        }
    }
}

#[test]
fn queens_counted_through_symmetry_on_the_replay_engine() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 8) {
        let n = expected.n;
        let reversed: Arc<[VarId]> = (0..n).rev().map(VarId::from_index).collect();
        for strategy in [Search::new(), Search::new().vars(VarOrder::Given(reversed))] {
            let summary = queens_through_symmetry(n)
                .engine(Engine::Replay)
                .strategy(strategy)
                .count()
                .unwrap();
            assert_eq!(summary.solutions, expected.all, "n = {n}");
            assert_eq!(summary.stats.solutions, expected.fundamental, "n = {n}");
        }
    }
}

#[test]
fn the_count_is_the_plain_count_and_the_search_is_smaller() {
    let n = 10;
    let plain = queens(n).strategy(count_strategy(n)).count().unwrap();
    let through = queens_through_symmetry(n)
        .strategy(count_strategy(n))
        .count()
        .unwrap();
    assert_eq!(through.solutions, plain.solutions);
    assert_eq!(plain.stats.solutions, plain.solutions);
    assert!(
        through.stats.nodes * 4 < plain.stats.nodes,
        "{} nodes through symmetry, {} plain",
        through.stats.nodes,
        plain.stats.nodes
    );
}

/// The distinct images of a board under the square's 8 symmetries: its class.
fn orbit(q: &[usize]) -> BTreeSet<Vec<usize>> {
    common::queens_orbit(q).into_iter().collect()
}

#[test]
fn the_solutions_are_one_representative_per_class() {
    let all: Vec<Vec<usize>> = queens(8).solutions().collect();
    for (engine, strategy) in [
        (Engine::Trail, count_strategy(8)),
        (Engine::Trail, Search::new()),
        (Engine::Replay, Search::new()),
    ] {
        let reps: Vec<Vec<usize>> = queens_through_symmetry(8)
            .engine(engine)
            .strategy(strategy)
            .solutions()
            .collect();
        assert_eq!(reps.len(), 12, "{engine}");
        assert!(reps.iter().all(|q| is_queens_solution(q)));
        for s in &all {
            let class = orbit(s);
            assert_eq!(
                reps.iter().filter(|r| class.contains(*r)).count(),
                1,
                "{engine}: {s:?}"
            );
        }
        // The sizes of the classes add up to the count.
        let total: usize = reps.iter().map(|r| orbit(r).len()).sum();
        assert_eq!(total, 92);
    }
}

#[test]
fn generators_are_enough() {
    // A quarter turn and a mirror generate the 8 symmetries of the board.
    for n in [5, 6, 8] {
        let rows: Vec<VarId> = (0..n).map(VarId::from_index).collect();
        let generators: Vec<Symmetry> = board_symmetries(&rows)
            .into_iter()
            .filter(|s| matches!(s.name(), "rotate 90°" | "mirror left-right"))
            .collect();
        assert_eq!(generators.len(), 2);
        for engine in [Engine::Trail, Engine::Replay] {
            let summary = queens(n)
                .symmetries(generators.clone())
                .count_through_symmetry()
                .engine(engine)
                .count()
                .unwrap();
            let expected = queens_counts().into_iter().find(|c| c.n == n).unwrap();
            assert_eq!(summary.solutions, expected.all, "n = {n}, {engine}");
            assert_eq!(summary.stats.solutions, expected.fundamental, "n = {n}");
        }
    }
}

#[test]
fn langford_counted_through_reversal() {
    for (n, all) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        let engines: &[Engine] = if n <= 7 {
            &[Engine::Trail, Engine::Replay]
        } else {
            &[Engine::Trail]
        };
        for &engine in engines {
            let through = langford_up_to_reversal(n)
                .count_through_symmetry()
                .engine(engine);
            let summary = through.count().unwrap();
            assert_eq!(summary.solutions, all, "n = {n}, {engine}");
            // No Langford row is its own mirror image: every class has two.
            assert_eq!(summary.stats.solutions, all / 2, "n = {n}, {engine}");
            let reps: Vec<Vec<usize>> = through.solutions().collect();
            assert!(reps.iter().all(|row| is_langford(row)));
            let mirrored: BTreeSet<Vec<usize>> = reps
                .iter()
                .map(|row| row.iter().rev().copied().collect())
                .collect();
            assert!(reps.iter().all(|row| !mirrored.contains(row)), "n = {n}");
        }
        assert_eq!(langford(n).count().unwrap().solutions, all);
    }
}

#[test]
fn a_solution_limit_counts_representatives() {
    let puzzle = queens_through_symmetry(8).limits(Limits::new().solutions(3));
    let summary = puzzle.count().unwrap();
    assert_eq!(summary.stop_reason, StopReason::SolutionLimit);
    assert_eq!(summary.stats.solutions, 3);
    // Three classes of 8, 4 or 2 boards (none of 8 queens has a class of 1).
    assert!((6..=24).contains(&summary.solutions), "{summary:?}");
    let reps: Vec<Vec<usize>> = puzzle.solutions().collect();
    let sizes: usize = reps.iter().map(|r| orbit(r).len()).sum();
    assert_eq!(summary.solutions, sizes as u64);
}

#[test]
fn counting_in_slices_adds_up_to_the_weighted_count() {
    let mut solutions = queens_through_symmetry(9).solutions();
    let mut total = 0;
    while solutions.stop_reason().is_none() {
        total += solutions.count_for(Duration::ZERO).unwrap();
    }
    assert_eq!(total, 352);
    assert_eq!(solutions.stats().solutions, 46);
    let mut rest = queens_through_symmetry(9).solutions();
    let first: Vec<Vec<usize>> = rest.by_ref().take(2).collect();
    let firsts: u64 = first.iter().map(|q| orbit(q).len() as u64).sum();
    assert_eq!(firsts + rest.count_all().unwrap(), 352);
}

#[test]
fn counting_through_symmetry_wins_over_up_to_symmetry() {
    let n = 8;
    let both = queens_through_symmetry(n).up_to_symmetry().count().unwrap();
    assert_eq!((both.solutions, both.stats.solutions), (92, 12));
    let up_to = queens(n)
        .symmetries(board_symmetries(
            &(0..n).map(VarId::from_index).collect::<Vec<_>>(),
        ))
        .up_to_symmetry()
        .count()
        .unwrap();
    assert_eq!((up_to.solutions, up_to.stats.solutions), (12, 12));
}

#[test]
fn without_symmetries_nothing_changes() {
    for engine in [Engine::Trail, Engine::Replay] {
        let through = queens(7)
            .engine(engine)
            .count_through_symmetry()
            .count()
            .unwrap();
        let plain = queens(7).engine(engine).count().unwrap();
        assert_eq!(through.solutions, 40);
        let searched = |s: ambsolve::Stats| (s.nodes, s.failures, s.solutions, s.runs);
        assert_eq!(searched(through.stats), searched(plain.stats), "{engine}");
    }
}

#[test]
fn generate_and_test_is_weighted_at_the_leaves() {
    for engine in [Engine::Trail, Engine::Replay] {
        let summary = queens_through_symmetry(6)
            .engine(engine)
            .checking(Checking::AtEnd)
            .count()
            .unwrap();
        assert_eq!(
            (summary.solutions, summary.stats.solutions),
            (4, 1),
            "{engine}"
        );
    }
}

#[test]
fn optimising_ignores_counting_through_symmetry() {
    // Pairs of different digits, swap symmetric, but the objective is not: the best pair
    // (9, 0) is not the least of its class {(9, 0), (0, 9)}.
    let mut m = Model::new();
    let a = m.var(0..10i64);
    let b = m.var(0..10i64);
    m.all_different([&a, &b]);
    m.symmetries([Symmetry::new("swap", |v, x| {
        (VarId::from_index(1 - v.index()), x)
    })]);
    m.maximize([(1, &a), (-1, &b)]);
    for engine in [Engine::Trail, Engine::Replay] {
        let best = m.solve(engine).count_through_symmetry().best().unwrap();
        assert!(best.proved);
        assert_eq!(best.objective, Some(9), "{engine}");
        let counted = m.solve(engine).count_through_symmetry().count().unwrap();
        assert_eq!((counted.solutions, counted.stats.solutions), (90, 45));
    }
}

#[test]
fn a_symmetry_that_is_not_a_bijection_is_an_error() {
    let bad = Symmetry::new("first value", |v, _| (v, 0));
    let error = queens(4)
        .symmetries([bad])
        .count_through_symmetry()
        .count()
        .unwrap_err();
    assert!(error.to_string().contains("not a bijection"), "{error}");
}

#[test]
fn a_group_too_large_is_counted_plainly() {
    // Eight interchangeable variables: every permutation is a symmetry (40320 of them,
    // generated by a cycle and a swap).
    let mut m = Model::new();
    let xs: Vec<_> = (0..8).map(|_| m.var(0..2u8)).collect();
    m.linear(xs.iter().map(|x| (1, x)), Cmp::Eq, 4);
    m.symmetries([
        Symmetry::new("cycle", |v, x| (VarId::from_index((v.index() + 1) % 8), x)),
        Symmetry::new("swap", |v, x| match v.index() {
            0 | 1 => (VarId::from_index(1 - v.index()), x),
            _ => (v, x),
        }),
    ]);
    let summary = m
        .solve(Engine::Trail)
        .count_through_symmetry()
        .count()
        .unwrap();
    assert_eq!((summary.solutions, summary.stats.solutions), (70, 70));
}

/// A random model made symmetric: random all-different and table constraints over `n`
/// variables sharing the values `0..d`, closed under a group generated by a permutation of
/// the variables and, maybe, the reversal of the values; the generators are declared.
#[derive(Clone, Debug)]
struct Symmetric {
    n: usize,
    d: u32,
    perm: Vec<usize>,
    reverse: bool,
    constraints: Vec<Relation>,
}

/// A constraint of a [`Symmetric`] model: its scope and its tuples of value indices, or an
/// all-different when there are none.
type Relation = (Vec<usize>, Option<Vec<Vec<u32>>>);

/// One group element: where it sends the variables, whether it reverses values.
type Element = (Vec<usize>, bool);

impl Symmetric {
    /// Every element of the group the generators make, the identity included.
    fn group(&self) -> Vec<Element> {
        let identity: Element = ((0..self.n).collect(), false);
        let mut generators = vec![(self.perm.clone(), false)];
        if self.reverse {
            generators.push(((0..self.n).collect(), true));
        }
        let mut group = vec![identity];
        let mut next = 0;
        while next < group.len() {
            for (perm, reverse) in &generators {
                let (p, r) = &group[next];
                let product: Element = (p.iter().map(|&v| perm[v]).collect(), r ^ reverse);
                if !group.contains(&product) {
                    group.push(product);
                }
            }
            next += 1;
        }
        group
    }

    fn value(&self, reverse: bool, x: u32) -> u32 {
        if reverse { self.d - 1 - x } else { x }
    }

    /// Every constraint and all its images.
    fn closed(&self) -> Vec<Relation> {
        let mut all = Vec::new();
        for (perm, reverse) in self.group() {
            for (scope, tuples) in &self.constraints {
                let scope: Vec<usize> = scope.iter().map(|&v| perm[v]).collect();
                let tuples = tuples.as_ref().map(|tuples| {
                    tuples
                        .iter()
                        .map(|t| t.iter().map(|&x| self.value(reverse, x)).collect())
                        .collect()
                });
                all.push((scope, tuples));
            }
        }
        all
    }

    fn model(&self) -> Model<'static> {
        let mut m = Model::new();
        let vars: Vec<_> = (0..self.n).map(|_| m.var(0..self.d)).collect();
        for (scope, tuples) in self.closed() {
            let ids: Vec<VarId> = scope.iter().map(|&v| vars[v].id()).collect();
            match tuples {
                None => m.all_different(scope.iter().map(|&v| &vars[v])),
                Some(tuples) => m.table_indices(&ids, tuples),
            }
        }
        let (perm, reverse, d) = (self.perm.clone(), self.reverse, self.d);
        let mut generators = vec![Symmetry::new("permute", move |v, x| {
            (VarId::from_index(perm[v.index()]), x)
        })];
        if reverse {
            generators.push(Symmetry::new("reverse", move |v, x| (v, d - 1 - x)));
        }
        m.symmetries(generators);
        m
    }

    /// Every solution, by brute force.
    fn solutions(&self) -> Vec<Vec<u32>> {
        let lists = vec![(0..self.d).collect::<Vec<u32>>(); self.n];
        let closed = self.closed();
        common::brute_force(&lists, |index| {
            closed.iter().all(|(scope, tuples)| match tuples {
                None => {
                    let keys: BTreeSet<usize> = scope.iter().map(|&v| index[v]).collect();
                    keys.len() == scope.len()
                }
                Some(tuples) => tuples
                    .iter()
                    .any(|t| t.iter().zip(scope).all(|(&x, &v)| index[v] == x as usize)),
            })
        })
    }

    /// The class of a solution: its images under the group.
    fn class(&self, s: &[u32]) -> BTreeSet<Vec<u32>> {
        self.group()
            .into_iter()
            .map(|(perm, reverse)| {
                let mut image = vec![0; self.n];
                for (v, &x) in s.iter().enumerate() {
                    image[perm[v]] = self.value(reverse, x);
                }
                image
            })
            .collect()
    }
}

fn symmetric() -> impl Strategy<Value = Symmetric> {
    (1usize..=5, 1u32..=4)
        .prop_flat_map(|(n, d)| {
            let perm = Just((0..n).collect::<Vec<usize>>()).prop_shuffle();
            let scope = proptest::collection::vec(0..n, 1..=3);
            let constraint = scope.prop_flat_map(move |scope| {
                let tuple = proptest::collection::vec(0..d, scope.len());
                let tuples = proptest::option::weighted(
                    0.7,
                    proptest::collection::vec(tuple, 0..=2 * d as usize),
                );
                (Just(scope), tuples)
            });
            let constraints = proptest::collection::vec(constraint, 0..=3);
            (Just(n), Just(d), perm, any::<bool>(), constraints)
        })
        .prop_map(|(n, d, perm, reverse, constraints)| Symmetric {
            n,
            d,
            perm,
            reverse,
            constraints,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(200)
    ))]

    #[test]
    fn weighted_counts_equal_plain_counts_on_random_symmetric_models(spec in symmetric()) {
        let all = spec.solutions();
        let classes: BTreeSet<BTreeSet<Vec<u32>>> = all.iter().map(|s| spec.class(s)).collect();
        let model = spec.model();
        let n = spec.n;
        let reversed: Arc<[VarId]> = (0..n).rev().map(VarId::from_index).collect();
        let strategies = [
            Search::new(),
            Search::first_fail(),
            Search::new().vars(VarOrder::FirstFailThen(reversed.clone())),
            Search::new().vars(VarOrder::Given(reversed)),
            Search::new().values(ValueOrder::Descending),
        ];
        for engine in [Engine::Trail, Engine::Replay] {
            for strategy in &strategies {
                let solver = || model.solve(engine).strategy(strategy.clone()).count_through_symmetry();
                let summary = solver().count().unwrap();
                prop_assert_eq!(summary.solutions, all.len() as u64, "{} {:?}", engine, strategy);
                prop_assert_eq!(summary.stats.solutions, classes.len() as u64, "{} {:?}", engine, strategy);
                // One representative per class, each a solution.
                let reps: Vec<Vec<u32>> = solver()
                    .solutions()
                    .map(|a| a.indices().to_vec())
                    .collect();
                let covered: BTreeSet<BTreeSet<Vec<u32>>> = reps.iter().map(|r| spec.class(r)).collect();
                prop_assert_eq!(reps.len(), classes.len());
                prop_assert_eq!(&covered, &classes);
                prop_assert!(reps.iter().all(|r| all.contains(r)));
            }
        }
    }
}
