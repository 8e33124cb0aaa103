//! Parallel search by choice prefixes: counts, solution sequences, first solutions and
//! optima on several threads equal those of one thread; subproblems cover the tree;
//! limits hold across threads; resumable counts finish with the exact total.

use crate::common;

use std::time::Duration;

use ambsolve::{
    CancelFlag, Checking, Engine, Limits, Model, Options, SearchError, StopReason, Strategy,
    Subproblem, ValueOrder, VarOrder,
};
use ambsolve_examples::puzzles::queens::{
    count_strategy, fundamental_queens, queens, queens_through_symmetry,
};
use ambsolve_examples::puzzles::{
    golomb, knapsack, langford, magic_square, send_more_money, sudoku,
};
use common::{data_dir, queens_counts};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("ambsolve-parallel-{}-{name}", std::process::id()))
}

#[test]
fn nqueens_counts_on_1_2_and_4_threads_match_oeis() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 13) {
        for threads in [1, 2, 4] {
            let summary = queens(expected.n)
                .strategy(count_strategy(expected.n))
                .threads(threads)
                .count()
                .unwrap();
            assert_eq!(
                (summary.solutions, summary.stop_reason),
                (expected.all, StopReason::Exhausted),
                "n = {} on {threads} threads",
                expected.n
            );
        }
        if expected.n <= 9 {
            let replay = queens(expected.n)
                .engine(Engine::Replay)
                .threads(3)
                .count()
                .unwrap();
            assert_eq!(replay.solutions, expected.all, "replay, n = {}", expected.n);
            let fundamental = fundamental_queens(expected.n).threads(2).count().unwrap();
            assert_eq!(fundamental.solutions, expected.fundamental);
        }
    }
}

#[test]
fn corpus_counts_agree_on_threads() {
    let sequential = |threads: usize| {
        [
            langford::langford(7)
                .threads(threads)
                .count()
                .unwrap()
                .solutions,
            magic_square::magic_squares()
                .threads(threads)
                .count()
                .unwrap()
                .solutions,
            send_more_money::send_more_money()
                .threads(threads)
                .count()
                .unwrap()
                .solutions,
        ]
    };
    let one = sequential(1);
    assert_eq!(
        one[0], 52,
        "Langford pairs of 7: 26 up to reversal, 52 in all"
    );
    assert_eq!(one[1], 8);
    assert_eq!(one[2], 1);
    assert_eq!(sequential(2), one);
    assert_eq!(sequential(4), one);
}

#[test]
fn parallel_solutions_come_in_the_sequential_order() {
    let strategies = [
        Strategy::new(),
        Strategy::first_fail(),
        Strategy::new().values(ValueOrder::Descending),
        Strategy::new().values(ValueOrder::MiddleOut),
        Strategy::new().vars(VarOrder::FirstFailThen(
            (0..8).rev().map(ambsolve::VarId::from_index).collect(),
        )),
    ];
    for engine in ENGINES {
        for strategy in &strategies {
            let puzzle = queens(8).engine(engine).strategy(strategy.clone());
            let one: Vec<Vec<usize>> = puzzle.solutions().collect();
            assert_eq!(one.len(), 92);
            for threads in [2, 3] {
                let many: Vec<Vec<usize>> = puzzle.clone().threads(threads).solutions().collect();
                assert_eq!(many, one, "{engine} {strategy:?} on {threads} threads");
                let first = puzzle.clone().threads(threads).first().unwrap();
                assert_eq!(first.as_ref(), one.first());
            }
        }
        // Up to symmetry too: the lex-leaders, in order.
        let one: Vec<_> = fundamental_queens(8).engine(engine).solutions().collect();
        let many: Vec<_> = fundamental_queens(8)
            .engine(engine)
            .threads(2)
            .subproblems(200)
            .solutions()
            .collect();
        assert_eq!(many, one);
        assert_eq!(one.len(), 12);
    }
}

#[test]
fn a_solution_limit_gives_the_first_solutions() {
    let all: Vec<_> = queens(8).solutions().collect();
    for limit in [0, 1, 5, 91, 92, 93] {
        let mut some = queens(8)
            .threads(2)
            .limits(Limits::new().solutions(limit))
            .solutions();
        let got: Vec<_> = some.by_ref().collect();
        assert_eq!(got[..], all[..(limit as usize).min(92)], "limit {limit}");
        let counted = queens(8)
            .threads(2)
            .limits(Limits::new().solutions(limit))
            .count()
            .unwrap();
        assert_eq!(counted.solutions, limit.min(92));
    }
}

#[test]
fn subproblems_cover_the_tree_in_order() {
    for engine in ENGINES {
        let puzzle = queens(7).engine(engine);
        let whole: Vec<_> = puzzle.solutions().collect();
        let parts = puzzle.clone().subproblems(20).split().unwrap();
        assert!(parts.len() >= 20, "{engine}: {} subproblems", parts.len());
        let mut pieced = Vec::new();
        let mut counted = 0;
        for part in &parts {
            // Through text and back, as a subproblem travels to another machine.
            let part: Subproblem = part.to_string().parse().unwrap();
            pieced.extend(puzzle.clone().subproblem(&part).solutions());
            counted += puzzle.clone().subproblem(&part).count().unwrap().solutions;
        }
        assert_eq!(pieced, whole, "{engine}");
        assert_eq!(counted, 40);
    }
}

#[test]
fn a_path_that_leaves_the_tree_is_an_error() {
    for engine in ENGINES {
        let error = queens(4)
            .engine(engine)
            .subproblem(&"0.9".parse().unwrap())
            .count()
            .unwrap_err();
        assert!(
            matches!(error, SearchError::NoSuchSubproblem { index: 9, .. }),
            "{engine}: {error:?}"
        );
    }
}

/// The outcome of searching `model` on `engine`, below `path` only: the count, or the
/// error.
fn below(
    model: &Model<'_>,
    engine: Engine,
    checking: Checking,
    path: &[u32],
) -> Result<u64, SearchError> {
    model
        .solve(engine)
        .checking(checking)
        .subproblem(&Subproblem::from(path.to_vec()))
        .count()
        .map(|s| s.solutions)
}

fn no_such(result: Result<u64, SearchError>) -> bool {
    matches!(result, Err(SearchError::NoSuchSubproblem { .. }))
}

#[test]
fn a_path_to_no_live_node_is_an_error_on_every_engine() {
    // Three variables over 0..2, pairwise different: no solution. On the trail engine
    // a = 0 leaves b and c the value 1 each, and the node fails; on the replay engine
    // a = 0 leaves b one value, then c none.
    let mut pigeons = Model::new();
    let v: Vec<_> = (0..3).map(|_| pigeons.var(0..2)).collect();
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        pigeons.require((&v[i], &v[j]), |a, b| a != b);
    }
    let early = Checking::Early;
    assert_eq!(below(&pigeons, Engine::Trail, early, &[]), Ok(0));
    for path in [&[0][..], &[1], &[0, 0], &[0, 0, 0]] {
        // Before: 0 solutions, as if the path led somewhere.
        assert!(
            no_such(below(&pigeons, Engine::Trail, early, path)),
            "{path:?}"
        );
    }
    assert_eq!(below(&pigeons, Engine::Replay, early, &[0]), Ok(0));
    for path in [&[0, 0][..], &[0, 0, 0], &[1, 0, 0]] {
        assert!(
            no_such(below(&pigeons, Engine::Replay, early, path)),
            "{path:?}"
        );
    }

    // x != y: every leaf of the cut is a solution; one step further is past it (before,
    // the replay engine reported a program that is not deterministic).
    let mut pair = Model::new();
    let x = pair.var(0..3);
    let y = pair.var(0..3);
    pair.require((&x, &y), |a, b| a != b);
    for checking in [Checking::Early, Checking::AtEnd] {
        for engine in ENGINES {
            let parts = pair
                .solve(engine)
                .checking(checking)
                .subproblems(100)
                .split()
                .unwrap();
            assert_eq!(parts.len(), 6, "{engine}");
            for part in parts {
                assert_eq!(below(&pair, engine, checking, part.path()), Ok(1));
                let past = [part.path(), &[0]].concat();
                assert!(
                    no_such(below(&pair, engine, checking, &past)),
                    "{engine} {past:?}"
                );
            }
        }
    }
    // Generating and testing, the leaf x = y = 0 fails: a path ending there is no
    // subproblem; nor is any path when the root fails.
    let mut never = pair.clone();
    never.linear::<ambsolve::Term>([], ambsolve::Cmp::Eq, 1);
    for engine in ENGINES {
        assert!(
            no_such(below(&pair, engine, Checking::AtEnd, &[0, 0])),
            "{engine}"
        );
        assert_eq!(below(&pair, engine, Checking::AtEnd, &[0, 1]), Ok(1));
        assert!(
            no_such(below(&never, engine, Checking::Early, &[0])),
            "{engine}"
        );
        assert_eq!(below(&never, engine, Checking::Early, &[]), Ok(0));
    }
}

#[test]
fn more_threads_than_1024_are_refused_at_once() {
    // Before, usize::MAX threads overflowed the subproblem target (32 a thread), or the
    // pool tried to start them all and failed after a minute.
    for engine in ENGINES {
        for threads in [1025, usize::MAX] {
            let refused = |error: SearchError| matches!(&error, SearchError::Unsupported(m) if m.contains("at most 1024 threads"));
            let count = queens(6).engine(engine).threads(threads).count();
            assert!(count.is_err_and(refused), "{engine}, {threads}");
            let split = queens(6).engine(engine).threads(threads).split();
            assert!(split.is_err_and(refused), "{engine}, {threads}");
            let mut options = Options::default();
            options.engine = engine;
            options.threads = threads;
            let model = queens(6).model().clone();
            let first = model.solve(engine).with_options(options).first();
            assert!(first.is_err_and(refused), "{engine}, {threads}");
        }
        assert_eq!(
            queens(6)
                .engine(engine)
                .threads(8)
                .count()
                .unwrap()
                .solutions,
            4
        );
    }
}

#[test]
fn a_count_on_threads_does_the_nodes_of_one_thread() {
    let n = 10;
    let one = queens(n).strategy(count_strategy(n)).count().unwrap();
    let two = queens(n)
        .strategy(count_strategy(n))
        .threads(2)
        .count()
        .unwrap();
    assert_eq!(two.solutions, one.solutions);
    assert_eq!(two.stats.nodes, one.stats.nodes);
    assert_eq!(two.stats.failures, one.stats.failures);
    assert_eq!(two.stats.solutions, one.stats.solutions);
    // Through symmetry too, where solutions are met while the search is being cut.
    for n in 5..=10 {
        let one = queens_through_symmetry(n).count().unwrap();
        for parts in [1, 7, 50] {
            let two = queens_through_symmetry(n)
                .threads(2)
                .subproblems(parts)
                .count()
                .unwrap();
            assert_eq!(two.solutions, one.solutions, "n = {n}");
            assert_eq!(
                two.stats.solutions, one.stats.solutions,
                "n = {n}, {parts} parts"
            );
            assert_eq!(two.stats.nodes, one.stats.nodes, "n = {n}, {parts} parts");
        }
    }
}

#[test]
fn limits_hold_across_threads() {
    // A node limit is one budget for all threads.
    for nodes in [0, 1, 100, 5_000] {
        let summary = queens(10)
            .threads(2)
            .limits(Limits::new().nodes(nodes))
            .count()
            .unwrap();
        assert_eq!(summary.stop_reason, StopReason::NodeLimit, "{nodes}");
        assert!(
            summary.stats.nodes <= nodes + 200,
            "{nodes}: {:?}",
            summary.stats
        );
    }
    // A flag set before the start: nothing counted.
    let flag = CancelFlag::new();
    flag.cancel();
    let cancelled = queens(10)
        .threads(2)
        .limits(Limits::new().cancel(flag))
        .count()
        .unwrap();
    assert_eq!(
        (cancelled.solutions, cancelled.stop_reason),
        (0, StopReason::Cancelled)
    );
    // A time limit stops every thread.
    let started = std::time::Instant::now();
    let timed = queens(30)
        .threads(2)
        .limits(Limits::new().time(Duration::from_millis(200)))
        .count()
        .unwrap();
    assert_eq!(timed.stop_reason, StopReason::TimeLimit);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn counting_in_slices_on_threads_gives_the_exact_total() {
    // Slices with no time at all: each one still makes progress (a pause comes only after
    // some work), and the count takes many of them however fast the machine is.
    let mut solutions = queens(11).threads(2).solutions();
    let mut total = 0;
    let mut calls = 0;
    while !solutions.is_finished() {
        total += solutions.count_for(Duration::ZERO).unwrap();
        calls += 1;
        let (done, all) = solutions.subproblems().expect("cut into subproblems");
        assert!(done <= all);
    }
    assert_eq!(total, 2680);
    assert!(calls > 1, "paused along the way");
    assert_eq!(solutions.stop_reason(), Some(StopReason::Exhausted));
}

#[test]
fn optima_on_threads_equal_one_thread() {
    for n in 1..=7 {
        let one = golomb::golomb(n).best().unwrap();
        let two = golomb::golomb(n).threads(2).best().unwrap();
        assert!(two.proved);
        assert_eq!(two.objective, one.objective, "golomb {n}");
    }
    let mut improving = golomb::golomb(7).threads(2).improving();
    let mut last = i64::MAX;
    for improvement in improving.by_ref() {
        assert!(improvement.objective < last, "strictly better each time");
        last = improvement.objective;
    }
    assert_eq!(last, 25);
    assert_eq!(improving.stop_reason(), Some(StopReason::Exhausted));
    let best = knapsack::knapsack(&knapsack::P07, knapsack::P07_CAPACITY)
        .threads(2)
        .best()
        .unwrap();
    assert_eq!(best.objective, Some(1458));
}

#[test]
fn what_cannot_be_cut_says_so() {
    let program = ambsolve::replay(|amb| amb.choose(0..3));
    assert!(matches!(program.split(), Err(SearchError::Unsupported(_))));
    // An amb program runs on one thread: threads are ignored, the count is right.
    let counted = ambsolve::replay(|amb| amb.choose(0..3)).threads(4).count();
    assert_eq!(counted.unwrap().solutions, 3);
    let resumable = ambsolve::replay(|amb| amb.choose(0..3))
        .checkpoint(temp("never"))
        .count();
    assert!(matches!(resumable, Err(SearchError::Unsupported(_))));
}

#[test]
fn sudoku_corpus_first_solutions_agree_on_threads() {
    let text = std::fs::read_to_string(data_dir().join("sudoku").join("top95.txt")).unwrap();
    let puzzles = sudoku::parse_puzzles(&text).unwrap();
    for (_, grid) in puzzles.iter().take(8) {
        let one: Vec<_> = sudoku::sudoku(grid).solutions().collect();
        let two: Vec<_> = sudoku::sudoku(grid).threads(2).solutions().collect();
        assert_eq!(one.len(), 1);
        assert_eq!(one, two);
    }
}
