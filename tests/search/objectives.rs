//! Optimisation through puzzles and `constraints!`: `minimize` and `maximize` find the
//! optimum a brute force finds, on both engines; every improvement is a solution, each
//! strictly better than the last; a limit stops the search with a valid solution, never
//! a wrong one, and says the result is not proved.

use std::fmt::Debug;
use std::time::Duration;

use ambsolve::{Engine, Limits, Puzzle, SearchError, Sense, StopReason, constraints};
use ambsolve_examples::puzzles::assignment::{COSTS, cheapest, cost};
use ambsolve_examples::puzzles::golomb::{OPTIMAL_LENGTHS, golomb, is_golomb};
use ambsolve_examples::puzzles::knapsack::{Item, P07, P07_CAPACITY, knapsack, totals};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

/// Checks `puzzle` on `engine` against `optimum` (`None`: no solution), the best value
/// in the objective's `sense` that a brute force found. `value` checks a solution
/// independently of the engines: its objective value if it satisfies every constraint,
/// `None` if not.
///
/// Every improvement must be a solution whose value is its reported objective, each
/// strictly better than the one before, the last the optimum; `best()` must prove it.
fn check_optimum<S: Debug>(
    puzzle: &Puzzle<'_, S>,
    engine: Engine,
    sense: Sense,
    optimum: Option<i64>,
    value: impl Fn(&S) -> Option<i64>,
) {
    let puzzle = puzzle.clone().engine(engine);
    let better = |a: i64, b: i64| match sense {
        Sense::Minimize => a < b,
        Sense::Maximize => a > b,
    };
    let mut improving = puzzle.try_improving();
    let mut last: Option<i64> = None;
    for step in improving.by_ref() {
        let step = step.unwrap_or_else(|error| panic!("{engine}: {error}"));
        let found = value(&step.solution);
        assert_eq!(
            found,
            Some(step.objective),
            "{engine}: {:?} is not a solution of value {}",
            step.solution,
            step.objective
        );
        if let Some(before) = last {
            assert!(
                better(step.objective, before),
                "{engine}: {} after {before} is no improvement",
                step.objective
            );
        }
        last = Some(step.objective);
    }
    assert_eq!(
        improving.stop_reason(),
        Some(StopReason::Exhausted),
        "{engine}"
    );
    assert_eq!(last, optimum, "{engine}: the last improvement");

    let best = puzzle
        .best()
        .unwrap_or_else(|error| panic!("{engine}: {error}"));
    assert!(best.proved, "{engine}");
    assert_eq!(best.stop_reason, StopReason::Exhausted, "{engine}");
    assert_eq!(best.objective, optimum, "{engine}: best()");
    assert_eq!(best.improvements > 0, optimum.is_some(), "{engine}");
    match &best.solution {
        Some(solution) => assert_eq!(value(solution), optimum, "{engine}: {solution:?}"),
        None => assert_eq!(optimum, None, "{engine}: no solution"),
    }
}

/// The least or the greatest of `values`, as `sense` says.
fn optimum(sense: Sense, values: impl Iterator<Item = i64>) -> Option<i64> {
    match sense {
        Sense::Minimize => values.min(),
        Sense::Maximize => values.max(),
    }
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for shorter in permutations(n - 1) {
        for at in 0..=shorter.len() {
            let mut p = shorter.clone();
            p.insert(at, n - 1);
            out.push(p);
        }
    }
    out
}

// ---- Golomb rulers ----

/// Branch and bound on the Golomb ruler with `n` marks: each improvement a shorter
/// Golomb ruler, the last of optimal length, proved.
fn golomb_is_optimal(n: usize, engine: Engine) {
    let puzzle = golomb(n).engine(engine);
    let mut lengths = Vec::new();
    let mut improving = puzzle.improving();
    for step in improving.by_ref() {
        let marks = &step.solution;
        assert!(
            is_golomb(marks) && marks.len() == n,
            "{engine} n = {n}: {marks:?}"
        );
        assert_eq!(
            marks.last().copied(),
            Some(step.objective),
            "{engine} n = {n}"
        );
        lengths.push(step.objective);
    }
    assert_eq!(improving.stop_reason(), Some(StopReason::Exhausted));
    assert!(
        lengths.windows(2).all(|w| w[1] < w[0]),
        "{engine} n = {n}: lengths {lengths:?} do not decrease"
    );
    assert_eq!(
        lengths.last(),
        Some(&OPTIMAL_LENGTHS[n - 1]),
        "{engine} n = {n}"
    );
    let best = puzzle.best().unwrap();
    assert!(best.proved, "{engine} n = {n}");
    assert_eq!(
        best.objective,
        Some(OPTIMAL_LENGTHS[n - 1]),
        "{engine} n = {n}"
    );
    let marks = best.solution.expect("a ruler");
    assert!(is_golomb(&marks) && marks.len() == n, "{marks:?}");
}

#[test]
fn golomb_optimal_lengths_on_the_trail_engine() {
    // n = 9 takes under a second in a debug build.
    for n in 1..=9 {
        golomb_is_optimal(n, Engine::Trail);
    }
}

#[test]
fn golomb_optimal_lengths_on_the_replay_engine() {
    // n = 7 takes one or two seconds in a debug build, n = 8 over a minute.
    for n in 1..=7 {
        golomb_is_optimal(n, Engine::Replay);
    }
}

#[test]
fn golomb_stopped_by_a_node_limit_keeps_a_valid_ruler_unproved() {
    // Proving n = 9 takes the trail engine thousands of nodes; its first rulers come
    // within a few dozen. The replay engine may find none within its limit: then it says
    // so, and never gives a wrong ruler.
    for (engine, nodes) in [(Engine::Trail, 500), (Engine::Replay, 20_000)] {
        let best = golomb(9)
            .engine(engine)
            .limits(Limits::new().nodes(nodes))
            .best()
            .unwrap();
        assert!(!best.proved, "{engine}");
        assert_eq!(best.stop_reason, StopReason::NodeLimit, "{engine}");
        assert!(
            best.stats.nodes <= nodes,
            "{engine}: {} nodes",
            best.stats.nodes
        );
        assert_eq!(best.improvements > 0, best.solution.is_some(), "{engine}");
        if engine == Engine::Trail {
            assert!(best.solution.is_some(), "no ruler within {nodes} nodes");
        }
        if let Some(marks) = &best.solution {
            assert!(is_golomb(marks) && marks.len() == 9, "{engine}: {marks:?}");
            assert_eq!(marks.last().copied(), best.objective, "{engine}");
            assert!(
                best.objective >= Some(OPTIMAL_LENGTHS[8]),
                "{engine}: {best:?}"
            );
        }
    }
}

// ---- The cheapest assignment ----

/// Cost tables: the example's, one with negative costs, one where every assignment
/// costs the same, one with large costs.
fn cost_tables() -> Vec<[[i64; 5]; 5]> {
    let mut seed = 12345u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as i64
    };
    let mut negative = [[0; 5]; 5];
    let mut large = [[0; 5]; 5];
    for row in 0..5 {
        for col in 0..5 {
            negative[row][col] = next() % 41 - 20;
            large[row][col] = next() % 1_000_000_000;
        }
    }
    vec![COSTS, negative, [[7; 5]; 5], large]
}

#[test]
fn cheapest_assignment_is_the_brute_force_minimum() {
    let tables = cost_tables();
    let every = permutations(5);
    assert_eq!(every.len(), 120);
    for costs in &tables {
        let least = optimum(Sense::Minimize, every.iter().map(|p| cost(costs, p)));
        let is_permutation = |tasks: &[usize]| {
            let mut sorted = tasks.to_vec();
            sorted.sort_unstable();
            sorted == [0, 1, 2, 3, 4]
        };
        for engine in ENGINES {
            check_optimum(&cheapest(costs), engine, Sense::Minimize, least, |tasks| {
                is_permutation(tasks).then(|| cost(costs, tasks))
            });
        }
    }
    // The example's table: one cheapest assignment, of cost 14.
    let least = every.iter().map(|p| cost(&COSTS, p)).min();
    assert_eq!(least, Some(14));
    let best = cheapest(&COSTS).best().unwrap();
    assert_eq!(best.solution, Some(vec![1, 4, 2, 3, 0]));
}

// ---- The knapsack ----

/// The best value of a subset of `items` weighing at most `capacity`, by brute force.
fn knapsack_brute_force(items: &[Item], capacity: i64) -> Option<i64> {
    let subsets = (0u32..1 << items.len()).map(|mask| {
        let taken: Vec<usize> = (0..items.len()).filter(|i| mask >> i & 1 == 1).collect();
        totals(items, &taken)
    });
    optimum(
        Sense::Maximize,
        subsets
            .filter(|&(weight, _)| weight <= capacity)
            .map(|(_, value)| value),
    )
}

/// Whether `taken` is a valid choice (indices ascending, in range, within the capacity),
/// and its value if so.
fn knapsack_value(items: &[Item], capacity: i64, taken: &[usize]) -> Option<i64> {
    let ascending = taken.windows(2).all(|w| w[0] < w[1]);
    let in_range = taken.iter().all(|&i| i < items.len());
    let (weight, value) = totals(items, taken);
    (ascending && in_range && weight <= capacity).then_some(value)
}

#[test]
fn knapsack_optimum_is_the_brute_force_maximum() {
    assert_eq!(knapsack_brute_force(&P07, P07_CAPACITY), Some(1458));
    for capacity in [0, 69, 70, 100, 300, P07_CAPACITY, 1000, 1433, 2000] {
        let most = knapsack_brute_force(&P07, capacity);
        for engine in ENGINES {
            check_optimum(
                &knapsack(&P07, capacity),
                engine,
                Sense::Maximize,
                most,
                |taken| knapsack_value(&P07, capacity, taken),
            );
        }
    }
    // P07's optimum is unique: items 1, 3, 5, 7, 8, 9, 14 and 15 (counted from 1).
    let best = knapsack(&P07, P07_CAPACITY).best().unwrap();
    assert_eq!(best.solution, Some(vec![0, 2, 4, 6, 7, 8, 13, 14]));
    assert_eq!(totals(&P07, &best.solution.unwrap()), (749, 1458));
}

#[test]
fn knapsack_with_negative_values_and_a_negative_capacity() {
    let items = [
        Item {
            weight: 3,
            value: -2,
        },
        Item {
            weight: -4,
            value: 5,
        },
        Item {
            weight: 6,
            value: 9,
        },
        Item {
            weight: 2,
            value: 0,
        },
        Item {
            weight: -1,
            value: -7,
        },
    ];
    for capacity in [-6, -5, -1, 0, 3, 20] {
        let most = knapsack_brute_force(&items, capacity);
        for engine in ENGINES {
            check_optimum(
                &knapsack(&items, capacity),
                engine,
                Sense::Maximize,
                most,
                |taken| knapsack_value(&items, capacity, taken),
            );
        }
    }
    // No subset weighs -6 or less: none at all, proved.
    assert_eq!(knapsack_brute_force(&items, -6), None);
}

#[test]
fn a_limit_stops_the_knapsack_with_a_valid_choice_never_a_wrong_one() {
    let optimum = knapsack_brute_force(&P07, P07_CAPACITY).unwrap();
    let puzzle = knapsack(&P07, P07_CAPACITY);
    for engine in ENGINES {
        let puzzle = puzzle.clone().engine(engine);
        let best = puzzle
            .clone()
            .limits(Limits::new().time(Duration::ZERO))
            .best()
            .unwrap();
        assert!(!best.proved, "{engine}");
        assert_eq!(best.stop_reason, StopReason::TimeLimit, "{engine}");
        if let Some(taken) = &best.solution {
            assert_eq!(
                knapsack_value(&P07, P07_CAPACITY, taken),
                best.objective,
                "{engine}"
            );
        }
        let mut proved_at = None;
        for nodes in (0..60).chain((60..2_000).step_by(37)) {
            let best = puzzle
                .clone()
                .limits(Limits::new().nodes(nodes))
                .best()
                .unwrap();
            if let Some(taken) = &best.solution {
                let value = knapsack_value(&P07, P07_CAPACITY, taken);
                assert_eq!(value, best.objective, "{engine} {nodes} nodes: {taken:?}");
                assert!(value <= Some(optimum), "{engine} {nodes} nodes");
            }
            assert_eq!(best.improvements > 0, best.solution.is_some());
            match best.stop_reason {
                StopReason::NodeLimit => assert!(!best.proved, "{engine} {nodes} nodes"),
                StopReason::Exhausted => {
                    assert!(best.proved, "{engine} {nodes} nodes");
                    assert_eq!(best.objective, Some(optimum), "{engine} {nodes} nodes");
                    proved_at.get_or_insert(nodes);
                }
                other => panic!("{engine} {nodes} nodes: stopped by {other:?}"),
            }
            if nodes == 0 {
                assert_eq!(best.stop_reason, StopReason::NodeLimit, "{engine}");
            }
        }
        eprintln!("{engine}: knapsack P07 proved within {proved_at:?} nodes");
    }
}

// ---- What `minimize` and `maximize` mean in constraints! ----

#[test]
fn minimize_a_bare_choice() {
    let xs = [5, -3, 8, 2, -1];
    let puzzle = constraints! {
        let x = amb(xs);
        let y = amb(0..4);
        require x + y > 1;
        require x != 2;
        minimize x;
    }
    .map(|s| (s.x, s.y));
    let feasible = |x: i32, y: i32| x + y > 1 && x != 2;
    let least = optimum(
        Sense::Minimize,
        xs.iter()
            .flat_map(|&x| (0..4).map(move |y| (x, y)))
            .filter(|&(x, y)| feasible(x, y))
            .map(|(x, _)| i64::from(x)),
    );
    assert_eq!(least, Some(-1));
    for engine in ENGINES {
        check_optimum(&puzzle, engine, Sense::Minimize, least, |&(x, y)| {
            feasible(x, y).then_some(i64::from(x))
        });
    }
}

#[test]
fn maximize_a_weighted_sum_reports_its_constant() {
    let puzzle = constraints! {
        let x = amb(-4..=6);
        let y = amb(-3..=5);
        require x + y <= 4;
        require x - y >= -2;
        maximize 3 * x - 2 * y + 7;
    }
    .map(|s| (s.x, s.y));
    let feasible = |x: i32, y: i32| x + y <= 4 && x - y >= -2;
    let value = |x: i32, y: i32| i64::from(3 * x - 2 * y + 7);
    let pairs = || (-4..=6).flat_map(|x| (-3..=5).map(move |y| (x, y)));
    let most = optimum(
        Sense::Maximize,
        pairs()
            .filter(|&(x, y)| feasible(x, y))
            .map(|(x, y)| value(x, y)),
    );
    // x = 6, y = -3: 18 + 6 + 7.
    assert_eq!(most, Some(31));
    for engine in ENGINES {
        check_optimum(&puzzle, engine, Sense::Maximize, most, |&(x, y)| {
            feasible(x, y).then(|| value(x, y))
        });
    }
    // The same with the constant first, and negative: the value still includes it.
    let puzzle = constraints! {
        let x = amb(-4..=6);
        let y = amb(-3..=5);
        require x + y <= 4;
        require x - y >= -2;
        minimize -10 + 3 * x - 2 * y;
    }
    .map(|s| (s.x, s.y));
    let least = optimum(
        Sense::Minimize,
        pairs()
            .filter(|&(x, y)| feasible(x, y))
            .map(|(x, y)| value(x, y) - 17),
    );
    for engine in ENGINES {
        check_optimum(&puzzle, engine, Sense::Minimize, least, |&(x, y)| {
            feasible(x, y).then(|| value(x, y) - 17)
        });
    }
}

#[test]
fn lookups_in_constant_tables() {
    // Three jobs on four machines, each machine at most once; the price of a job on a
    // machine read from a table, a bonus per machine from a list.
    let price: [[i64; 4]; 3] = [[4, 9, 2, 7], [3, -1, 8, 6], [5, 5, 1, 9]];
    let bonus: [i64; 4] = [10, -5, 3, 0];
    let n = price.len();
    let puzzle = constraints! {
        let at[n] = amb(0..4usize);
        require all_different(at);
        minimize sum(price[i][at[i]] for i in 0..n) + 2 * bonus[at[0]];
    }
    .map(|s| s.at);
    let cost =
        |at: &[usize]| -> i64 { (0..n).map(|i| price[i][at[i]]).sum::<i64>() + 2 * bonus[at[0]] };
    let mut every = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                if a != b && b != c && a != c {
                    every.push(vec![a, b, c]);
                }
            }
        }
    }
    assert_eq!(every.len(), 24);
    for sense in [Sense::Minimize, Sense::Maximize] {
        let best = optimum(sense, every.iter().map(|at| cost(at)));
        let puzzle = match sense {
            Sense::Minimize => puzzle.clone(),
            Sense::Maximize => constraints! {
                let at[n] = amb(0..4usize);
                require all_different(at);
                maximize sum(price[i][at[i]] for i in 0..n) + 2 * bonus[at[0]];
            }
            .map(|s| s.at),
        };
        for engine in ENGINES {
            check_optimum(&puzzle, engine, sense, best, |at| {
                every.contains(at).then(|| cost(at))
            });
        }
    }
}

#[test]
fn sums_over_an_array_with_negative_coefficients() {
    let w = [3, -2, 5, -4];
    let n = w.len();
    let puzzle = constraints! {
        let a[n] = amb(-2..=2);
        require sum(a[i] for i in 0..n) == 1;
        require a[0] != a[1];
        maximize sum(w[i] * a[i] for i in 0..n) - a[2] - 3;
    }
    .map(|s| s.a);
    let feasible = |a: &[i32]| a.iter().sum::<i32>() == 1 && a[0] != a[1];
    let value = |a: &[i32]| -> i64 {
        (0..n).map(|i| i64::from(w[i] * a[i])).sum::<i64>() - i64::from(a[2]) - 3
    };
    let mut every = Vec::new();
    for code in 0..5i32.pow(4) {
        let a: Vec<i32> = (0..4).map(|k| code / 5i32.pow(k) % 5 - 2).collect();
        every.push(a);
    }
    let most = optimum(
        Sense::Maximize,
        every.iter().filter(|a| feasible(a)).map(|a| value(a)),
    );
    for engine in ENGINES {
        check_optimum(&puzzle, engine, Sense::Maximize, most, |a| {
            feasible(a).then(|| value(a))
        });
    }
    // All coefficients negative, minimised: as large a sum as possible of the choices.
    let puzzle = constraints! {
        let a[n] = amb(-2..=2);
        require sum(a[i] for i in 0..n) == 1;
        require a[0] != a[1];
        minimize sum(-w[i] * a[i] for i in 0..n) - 2 * a[3];
    }
    .map(|s| s.a);
    let value = |a: &[i32]| -> i64 {
        (0..n).map(|i| i64::from(-w[i] * a[i])).sum::<i64>() - 2 * i64::from(a[3])
    };
    let least = optimum(
        Sense::Minimize,
        every.iter().filter(|a| feasible(a)).map(|a| value(a)),
    );
    for engine in ENGINES {
        check_optimum(&puzzle, engine, Sense::Minimize, least, |a| {
            feasible(a).then(|| value(a))
        });
    }
}

#[test]
fn best_without_an_objective_is_an_error() {
    let puzzle = constraints! {
        let x = amb(0..3);
        require x != 1;
    };
    for engine in ENGINES {
        let puzzle = puzzle.clone().engine(engine);
        assert_eq!(
            puzzle.best().map(|best| best.objective),
            Err(SearchError::NoObjective),
            "{engine}"
        );
        let mut improving = puzzle.try_improving();
        assert!(
            matches!(improving.next(), Some(Err(SearchError::NoObjective))),
            "{engine}"
        );
        assert!(improving.next().is_none(), "{engine}");
        // The solutions are there all the same.
        assert_eq!(puzzle.count().unwrap().solutions, 2, "{engine}");
    }
}

#[test]
fn an_infeasible_model_has_no_best_and_that_is_proved() {
    let puzzle = constraints! {
        let x = amb(0..5);
        let y = amb(0..5);
        require x + y > 8;
        require x != y;
        require x + y != 9;
        maximize x + 2 * y;
    }
    .map(|s| (s.x, s.y));
    for engine in ENGINES {
        let best = puzzle.clone().engine(engine).best().unwrap();
        assert_eq!(best.solution, None, "{engine}");
        assert_eq!(best.objective, None, "{engine}");
        assert!(best.proved, "{engine}");
        assert_eq!(best.stop_reason, StopReason::Exhausted, "{engine}");
        assert_eq!(best.improvements, 0, "{engine}");
        check_optimum(&puzzle, engine, Sense::Maximize, None, |_| None);
    }
}

#[test]
fn a_zero_time_or_node_limit_proves_nothing() {
    let puzzle = constraints! {
        let x = amb(0..10);
        let y = amb(0..10);
        require x + y <= 12;
        maximize 2 * x + 3 * y;
    }
    .map(|s| (s.x, s.y));
    let valid = |&(x, y): &(i32, i32)| (x + y <= 12).then(|| i64::from(2 * x + 3 * y));
    for engine in ENGINES {
        for (limits, reason) in [
            (Limits::new().time(Duration::ZERO), StopReason::TimeLimit),
            (Limits::new().nodes(0), StopReason::NodeLimit),
            (Limits::new().nodes(1), StopReason::NodeLimit),
        ] {
            let best = puzzle.clone().engine(engine).limits(limits).best().unwrap();
            assert!(!best.proved, "{engine} {reason:?}");
            assert_eq!(best.stop_reason, reason, "{engine}");
            if let Some(solution) = &best.solution {
                assert_eq!(valid(solution), best.objective, "{engine} {reason:?}");
            }
        }
        // Without a limit: x = 2, y = 10 is out of range; x = 3, y = 9 gives 33.
        let best = puzzle.clone().engine(engine).best().unwrap();
        assert_eq!((best.solution, best.objective), (Some((3, 9)), Some(33)));
    }
}

#[test]
fn a_better_bound_prunes_every_node_after_it_not_only_the_next() {
    // The objective `y` is decided first, ascending: `y = 0` and the first values of ten
    // free variables make the optimum at depth 11. From there the bound `y <= -1` fails
    // every node; before the bound was applied again after backtracking, the rest of the
    // `y = 0` subtree (2^10 leaves, the objective variable untouched) was searched to
    // its leaves.
    use ambsolve::{Model, Strategy, VarOrder};
    let mut m = Model::new();
    let y = m.var(0..3i64);
    let free = m.vars("x", 10, 0..2i64);
    m.minimize([(1, &y)]);
    let order: Vec<_> = std::iter::once(y.id())
        .chain(free.iter().map(|x| x.id()))
        .collect();
    let best = m
        .solve(Engine::Trail)
        .strategy(Strategy::new().vars(VarOrder::Given(order.into())))
        .best()
        .unwrap();
    assert_eq!((best.objective, best.proved), (Some(0), true));
    assert!(best.stats.nodes <= 30, "{}", best.stats);
}

/// Objectives over the ends of `i64`: `maximize x` with `i64::MIN` in x's domain negates
/// it to 2^63 inside, which must not be refused (nor `minimize -x`), on both engines.
#[test]
fn objectives_over_the_ends_of_i64() {
    use ambsolve::Model;
    let lists: [&[i64]; 4] = [
        &[i64::MIN, i64::MIN + 1, i64::MIN + 3],
        &[i64::MIN, 0, i64::MAX],
        &[i64::MIN + 1, -5, i64::MAX],
        &[-3, 7, i64::MAX],
    ];
    for values in lists {
        for sense in [Sense::Minimize, Sense::Maximize] {
            for coef in [1, -1] {
                // -1 × i64::MIN does not fit in an i64 coefficient-wise: that is refused.
                let value = |x: i64| x.checked_mul(coef);
                let expected = optimum(sense, values.iter().filter_map(|&x| value(x)));
                let all_fit = values.iter().all(|&x| value(x).is_some());
                for engine in ENGINES {
                    let mut model = Model::new();
                    let x = model.var(values.to_vec());
                    model.objective(sense, [(coef, &x)], 0);
                    let best = model.solve(engine).best();
                    if !all_fit {
                        assert!(best.is_err(), "{values:?} {sense:?} {coef}");
                        continue;
                    }
                    let best = best.unwrap_or_else(|e| panic!("{values:?} {sense:?} {coef}: {e}"));
                    assert_eq!(
                        best.objective, expected,
                        "{values:?} {sense:?} {coef} {engine}"
                    );
                    assert!(best.proved, "{engine}");
                    let solution = best.solution.expect("a solution");
                    assert_eq!(value(*solution.value(&x)), expected, "{engine}");
                }
            }
        }
    }
}
