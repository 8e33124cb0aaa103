//! Puzzles and models are ordinary values: `Clone + Send + Sync`, builder chains own their
//! search, one puzzle counted from two threads, options travel whole.

use std::thread;

use ambsolve::{Engine, Limits, Model, Options, Puzzle, StopReason};
use ambsolve_examples::puzzles::queens::queens;

fn assert_shareable<T: Clone + Send + Sync>() {}

#[test]
fn puzzles_and_models_are_clone_send_and_sync() {
    assert_shareable::<Puzzle<'static, Vec<usize>>>();
    assert_shareable::<Model<'static>>();
    assert_shareable::<Options>();
}

#[test]
fn builder_chains_compile_and_own_their_search() {
    let l = Limits::new().solutions(3);
    // Every setting chained on a temporary; the iterator outlives it.
    let solutions = queens(8).limits(l).engine(Engine::Replay).solutions();
    assert_eq!(solutions.count(), 3);

    let puzzle = queens(6);
    for e in [Engine::Trail, Engine::Replay] {
        let mut seen = Vec::new();
        for s in puzzle.clone().engine(e).solutions() {
            seen.push(s);
        }
        assert_eq!(
            seen,
            [
                [1, 3, 5, 0, 2, 4],
                [2, 5, 1, 4, 0, 3],
                [3, 0, 4, 1, 5, 2],
                [4, 2, 0, 5, 3, 1]
            ]
        );
    }
    // The puzzle was not consumed by trying it on both engines.
    assert_eq!(puzzle.count().unwrap().solutions, 4);
    // A model's solver does not borrow the model either.
    let solver = {
        let model = puzzle.model().clone();
        model.solve(Engine::Replay)
    };
    assert_eq!(solver.count().unwrap().solutions, 4);
}

#[test]
fn one_puzzle_is_counted_on_both_engines_from_two_threads() {
    let puzzle = queens(8);
    let handles: Vec<_> = [Engine::Trail, Engine::Replay]
        .into_iter()
        .map(|engine| {
            let puzzle = puzzle.clone();
            thread::spawn(move || (engine, puzzle.engine(engine).count()))
        })
        .collect();
    for handle in handles {
        let (engine, summary) = handle.join().expect("the thread finished");
        let summary = summary.expect("a valid model");
        assert_eq!(summary.solutions, 92, "{engine:?}");
        assert_eq!(summary.stop_reason, StopReason::Exhausted);
    }
    // Shared by reference too (scoped threads, no clone).
    let counts: Vec<u64> = thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| puzzle.count().unwrap().solutions))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(counts, [92, 92]);
}

#[test]
fn options_travel_whole() {
    let mut options = Options::default();
    options.engine = Engine::Replay;
    options.limits = Limits::new().solutions(5);
    let puzzle = queens(8).with_options(options);
    assert_eq!(puzzle.options().engine, Engine::Replay);
    let summary = puzzle.count().unwrap();
    assert_eq!(summary.solutions, 5);
    assert_eq!(summary.stop_reason, StopReason::SolutionLimit);
    assert!(summary.stats.runs > 0, "ran on the replay engine");
}
