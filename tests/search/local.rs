//! The local-search engine: every solution it yields satisfies the model (checked by
//! `Model::check` and independently), it finds the first solution of every n-queens board
//! it should, it stops on its limits and never claims that no solution exists, and a seed
//! gives one run.

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use ambsolve::{
    Assignment, Cmp, Context, Engine, Fail, Limits, Model, Propagator, SearchError, StopReason,
};
use ambsolve_examples::puzzles::colouring::{Graph, colouring};
use ambsolve_examples::puzzles::magic_square::magic_squares;
use ambsolve_examples::puzzles::queens::{attack, queens};
use common::is_queens_solution;

/// Steps enough for any board of the sweeps below (the worst of N = 4..=1000 takes under
/// 2,000), and a bound on the ones that have no solution.
const STEPS: u64 = 200_000;

/// The first board local search finds for `n` queens, checked against the model and
/// independently.
fn first_board(n: usize, seed: u64) -> Vec<usize> {
    let puzzle = queens(n)
        .engine(Engine::Local)
        .seed(seed)
        .limits(Limits::new().nodes(STEPS));
    let model = puzzle.model().clone();
    let assignment = model
        .solve(Engine::Local)
        .seed(seed)
        .limits(Limits::new().nodes(STEPS))
        .first()
        .unwrap()
        .unwrap_or_else(|| panic!("no board for {n} queens within {STEPS} steps"));
    model.check(&assignment).unwrap();
    let board = puzzle.first().unwrap().unwrap();
    assert_eq!(attack(&board), None, "{n} queens: {board:?}");
    board
}

#[test]
fn every_board_from_4_to_120_and_a_sample_to_1000_is_solved() {
    let sizes = (4..=120).chain((121..=1000).step_by(97));
    for n in sizes {
        first_board(n, 1);
    }
}

/// The whole sweep of the issue:
/// `cargo test --release --test search local:: -- --ignored`.
#[test]
#[ignore = "about a second in release, longer in debug builds"]
fn every_board_from_4_to_1000_is_solved() {
    for n in 4..=1000 {
        first_board(n, 2);
    }
}

#[test]
fn big_boards_are_solved_in_linear_memory() {
    let board = first_board(20_000, 3);
    assert_eq!(board.len(), 20_000);
}

#[test]
fn boards_without_solutions_stop_on_the_limit_not_as_exhausted() {
    for n in [2, 3] {
        let mut solutions = queens(n)
            .engine(Engine::Local)
            .limits(Limits::new().nodes(20_000))
            .solutions();
        assert_eq!(solutions.next(), None, "{n}");
        assert_eq!(solutions.stop_reason(), Some(StopReason::NodeLimit), "{n}");
        let stats = solutions.stats();
        assert_eq!(stats.nodes, 20_000, "{n}");
        assert!(stats.restarts > 0, "{n}: {stats}");
    }
    let mut timed = queens(3)
        .engine(Engine::Local)
        .limits(Limits::new().time(Duration::from_millis(30)))
        .solutions();
    assert_eq!(timed.next(), None);
    assert_eq!(timed.stop_reason(), Some(StopReason::TimeLimit));
    let (flag, stopper) = common::cancel_after(Duration::from_millis(30));
    let mut cancelled = queens(2)
        .engine(Engine::Local)
        .limits(Limits::new().cancel(flag))
        .solutions();
    assert_eq!(cancelled.next(), None);
    assert_eq!(cancelled.stop_reason(), Some(StopReason::Cancelled));
    stopper.join().unwrap();
}

#[test]
fn a_seed_gives_one_run_and_seeds_differ() {
    let run = |seed: u64| {
        let mut solutions = queens(300).engine(Engine::Local).seed(seed).solutions();
        let board = solutions.next().unwrap();
        (board, solutions.stats().nodes, solutions.stats().moves)
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11).0, run(12).0);
}

#[test]
fn solutions_are_distinct_and_counted_by_the_solution_limit() {
    // 6 queens have 4 solutions: local search finds them all, then runs into its limit.
    let mut solutions = queens(6)
        .engine(Engine::Local)
        .limits(Limits::new().nodes(200_000))
        .solutions();
    let found: Vec<Vec<usize>> = solutions.by_ref().collect();
    let distinct: BTreeSet<&Vec<usize>> = found.iter().collect();
    assert_eq!(distinct.len(), found.len());
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found.iter().all(|b| is_queens_solution(b)));
    assert_eq!(solutions.stop_reason(), Some(StopReason::NodeLimit));
    let summary = queens(8)
        .engine(Engine::Local)
        .limits(Limits::new().solutions(10))
        .count()
        .unwrap();
    assert_eq!(summary.solutions, 10);
    assert_eq!(summary.stop_reason, StopReason::SolutionLimit);
    assert!(summary.stats.moves > 0);
}

#[test]
fn it_runs_on_one_thread_whatever_the_threads_asked_for() {
    let board = queens(500)
        .engine(Engine::Local)
        .threads(4)
        .first()
        .unwrap()
        .unwrap();
    assert_eq!(attack(&board), None);
}

#[test]
fn what_local_search_cannot_do_is_refused() {
    let unsupported = |result: Result<(), SearchError>, what: &str| match result {
        Err(SearchError::Unsupported(message)) => {
            assert!(
                message.contains("local search does not"),
                "{what}: {message}"
            )
        }
        other => panic!("{what}: {other:?}"),
    };
    let mut m = Model::new();
    let x = m.var(0..5);
    m.minimize([(1, &x)]);
    unsupported(m.solve(Engine::Local).best().map(|_| ()), "optimising");
    unsupported(
        ambsolve_examples::puzzles::queens::fundamental_queens(6)
            .engine(Engine::Local)
            .first()
            .map(|_| ()),
        "symmetry",
    );
    unsupported(
        queens(6).engine(Engine::Local).split().map(|_| ()),
        "splitting",
    );
    let file = std::env::temp_dir().join(format!("local-{}.checkpoint", std::process::id()));
    unsupported(
        queens(6)
            .engine(Engine::Local)
            .checkpoint(&file)
            .count()
            .map(|_| ()),
        "a resumable count",
    );
    assert_eq!(Engine::Local.to_string(), "local");
}

/// x < y on value indices, as a user's propagator.
struct Less;

impl Propagator for Less {
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
        let [x, y] = [cx.scope()[0], cx.scope()[1]];
        let (Some(x_min), Some(y_max)) = (cx.min(x), cx.max(y)) else {
            return Err(Fail);
        };
        cx.retain(x, |i| i < y_max)?;
        cx.retain(y, |i| i > x_min)?;
        Ok(())
    }
}

/// Every solution local search finds for `model` within `steps`, each checked.
fn local_solutions(model: &Model<'_>, steps: u64) -> Vec<Assignment> {
    let found: Vec<Assignment> = model
        .solve(Engine::Local)
        .limits(Limits::new().nodes(steps))
        .solutions()
        .collect();
    for solution in &found {
        model.check(solution).unwrap();
    }
    found
}

#[test]
fn every_constraint_kind_is_satisfied() {
    let mut m = Model::new();
    let a = m.var(0..6i64);
    let b = m.var(0..6i64);
    let c = m.var([1i64, 3, 5, 7, 9, 11]);
    let d = m.var(["red", "green", "blue"]);
    let e = m.var(0..100i64);
    m.all_different_offset([(&a, 0), (&b, 1), (&c, -1)]);
    m.linear([(1, &a), (2, &b), (-1, &c)], Cmp::Ge, 2);
    m.linear([(1, &a), (1, &b)], Cmp::Ne, 5);
    m.linear([(1, &e), (-1, &c)], Cmp::Eq, 40);
    m.table(&[a.clone(), b.clone()], [[1i64, 2], [3, 4], [4, 0], [5, 5]]);
    m.require((&c, &d), |c, d| (*c > 4) == (*d != "red"));
    m.propagator(&[b.id(), a.id()], Less);
    m.restrict(&e, |e| e % 3 != 0);
    let all = m.solve(Engine::Trail).count().unwrap().solutions;
    assert!(all > 0);
    let found = local_solutions(&m, 100_000);
    assert_eq!(
        found.len() as u64,
        all,
        "local search finds every solution here"
    );
    let trail: BTreeSet<Assignment> = m.solve(Engine::Trail).solutions().collect();
    assert!(found.iter().all(|s| trail.contains(s)));
}

#[test]
fn the_3_by_3_magic_squares_through_their_sums() {
    let squares: BTreeSet<Vec<Vec<i32>>> = magic_squares()
        .engine(Engine::Local)
        .limits(Limits::new().nodes(3_000_000))
        .solutions()
        .take(8)
        .collect();
    assert_eq!(squares.len(), 8);
    let all: BTreeSet<Vec<Vec<i32>>> = magic_squares().solutions().collect();
    assert!(squares.is_subset(&all));
}

#[test]
fn a_random_graph_of_ten_thousand_vertices_is_coloured() {
    let graph = Graph::uniform(10_000, 6, 5);
    let colours = colouring(&graph, 4)
        .engine(Engine::Local)
        .limits(Limits::new().nodes(2_000_000))
        .first()
        .unwrap()
        .expect("a colouring");
    assert_eq!(graph.clash(&colours, 4), None);
}

#[test]
fn a_variable_without_values_waits_for_the_limit() {
    let mut m = Model::new();
    let x = m.var(0..3);
    let _ = m.var(0..3);
    m.restrict(&x, |_| false);
    let mut solutions = m
        .solve(Engine::Local)
        .limits(Limits::new().nodes(1_000))
        .solutions();
    assert_eq!(solutions.next(), None);
    assert_eq!(solutions.stop_reason(), Some(StopReason::NodeLimit));
}

#[test]
fn a_constraint_over_no_variable_that_fails_waits_for_the_limit() {
    // Before: nothing ever moved it, so it counted as held and a "solution" came out.
    let mut m = Model::new();
    let _ = m.var(0..3);
    m.clause(Vec::<ambsolve::Lit>::new());
    m.nvalue(1, Vec::<i64>::new());
    let mut solutions = m
        .solve(Engine::Local)
        .limits(Limits::new().nodes(1_000))
        .solutions();
    assert_eq!(solutions.next(), None);
    assert_eq!(solutions.stop_reason(), Some(StopReason::NodeLimit));
    // One that holds is no obstacle.
    let mut m = Model::new();
    let _ = m.var(0..3);
    m.nvalue(0, Vec::<i64>::new());
    assert_eq!(
        m.solve(Engine::Local)
            .limits(Limits::new().nodes(1_000))
            .solutions()
            .count(),
        3
    );
}
