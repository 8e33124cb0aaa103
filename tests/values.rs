//! The seam as a user meets it: puzzles and models are ordinary values (cloned, chained,
//! sent to threads), and a search that cannot go on is never mistaken for "no more
//! solutions".

use std::thread;

use ambsolve::{Engine, Limits, Model, Options, Puzzle, SearchError, StopReason, replay};
use ambsolve_examples::puzzles::queens::queens;

/// A model whose constraint names a variable of another model.
fn broken_model() -> Model<'static> {
    let mut other = Model::new();
    let _ = other.var(0..3);
    let stranger = other.var(0..3);
    let mut m = Model::new();
    let x = m.var(0..3);
    m.all_different([&x, &stranger]);
    m
}

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
fn a_broken_model_is_an_error_from_every_entry_point() {
    let model = broken_model();
    assert!(model.error().is_some());
    for engine in [Engine::Trail, Engine::Replay] {
        let solver = || model.solve(engine);
        assert!(matches!(
            solver().count(),
            Err(SearchError::InvalidModel(_))
        ));
        assert!(matches!(
            solver().first(),
            Err(SearchError::InvalidModel(_))
        ));
        let items: Vec<_> = solver().try_solutions().collect();
        assert!(
            matches!(items[..], [Err(SearchError::InvalidModel(ref m))] if m.contains("declared by another model")),
            "{items:?}"
        );
    }
}

#[test]
#[should_panic(expected = "invalid model")]
fn a_broken_model_in_a_for_loop_panics_with_the_message() {
    let mut printed = 0;
    for _ in broken_model().solve(Engine::Trail).solutions() {
        printed += 1;
    }
    // Not reached: the loop must not end as if there were no solutions.
    assert_eq!(printed, usize::MAX);
}

#[test]
#[should_panic(expected = "not deterministic")]
fn a_nondeterministic_program_in_a_for_loop_panics_with_the_message() {
    let mut calls = 0;
    let program = replay(move |amb| {
        calls += 1;
        amb.choose(0..2)?;
        amb.choose(0..calls)?;
        amb.fail::<()>()
    });
    for () in program.solutions() {}
}

#[test]
fn a_nondeterministic_program_ends_try_solutions_with_its_error() {
    let mut calls = 0;
    let program = replay(move |amb| {
        calls += 1;
        let x = amb.choose(0..2)?;
        amb.choose(0..calls)?;
        Ok(x)
    });
    // Run 1 records arity 1 at depth 1, run 2 (first choice advanced) records arity 2,
    // run 3 replays that frame and sees 3 alternatives.
    let mut results = program.try_solutions();
    assert_eq!(results.next(), Some(Ok(0)));
    assert_eq!(results.next(), Some(Ok(1)));
    assert_eq!(
        results.next(),
        Some(Err(SearchError::Nondeterministic {
            depth: 1,
            recorded: 2,
            replayed: 3
        }))
    );
    assert_eq!(results.next(), None);
    assert!(results.error().is_some());
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
