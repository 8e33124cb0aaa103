//! Resumable counts (`checkpoint`, `resume`): a count stopped by a limit or cancelled
//! resumes to the exact total, a checkpoint of a model that differs in a closure is refused,
//! a listing records what each subproblem found.

use std::time::Duration;

use ambsolve::{CancelFlag, Engine, Limits, Model, SearchError, StopReason};
use ambsolve_examples::puzzles::queens::{count_strategy, queens};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "ambsolve-checkpoints-{}-{name}",
        std::process::id()
    ))
}

#[test]
fn a_stopped_count_resumes_to_the_exact_total() {
    let file = temp("resume");
    let n = 10;
    let puzzle = || queens(n).strategy(count_strategy(n));
    // Stopped three times by a node limit, each run resuming the last.
    let first = puzzle()
        .checkpoint(&file)
        .limits(Limits::new().nodes(3_000))
        .count()
        .unwrap();
    assert_eq!(first.stop_reason, StopReason::NodeLimit);
    assert!(first.solutions < 724);
    let mut last = first;
    for threads in [2, 1] {
        let next = puzzle()
            .resume(&file)
            .threads(threads)
            .limits(Limits::new().nodes(3_000))
            .count()
            .unwrap();
        assert!(next.solutions >= last.solutions, "{threads}");
        last = next;
    }
    let finished = puzzle().resume(&file).threads(2).count().unwrap();
    assert_eq!(
        (finished.solutions, finished.stop_reason),
        (724, StopReason::Exhausted)
    );
    // Everything done: resuming again searches nothing and gives the same total.
    let again = puzzle().resume(&file).count().unwrap();
    assert_eq!(again.solutions, 724);
    // A checkpoint of another puzzle is refused.
    let other = queens(9).resume(&file).count().unwrap_err();
    assert!(
        matches!(&other, SearchError::Checkpoint(m) if m.contains("another search")),
        "{other}"
    );
    let other = queens(n)
        .engine(Engine::Replay)
        .resume(&file)
        .count()
        .unwrap_err();
    assert!(matches!(other, SearchError::Checkpoint(_)));
    // Listing from a checkpoint with finished work is refused.
    let listing = puzzle().resume(&file).try_solutions().next().unwrap();
    assert!(matches!(listing, Err(SearchError::Unsupported(_))));
    std::fs::remove_file(&file).unwrap();
    // No file to resume from.
    let missing = puzzle().resume(&file).count().unwrap_err();
    assert!(matches!(missing, SearchError::Checkpoint(_)));
}

/// Four variables over 0..8 with `y < z` (`strict`) or `y <= z`: models of the same
/// shape, which a fingerprint cannot tell apart (it cannot see closures). Cut into 64
/// subproblems on `w` and `x`, each counts 28 or 36.
fn shaped(strict: bool) -> Model<'static> {
    let mut m = Model::new();
    let [_, _, y, z] = [(); 4].map(|()| m.var(0..8i64));
    if strict {
        m.require((&y, &z), |y, z| y < z);
    } else {
        m.require((&y, &z), |y, z| y <= z);
    }
    m
}

#[test]
fn a_checkpoint_of_a_model_that_differs_in_a_closure_is_refused() {
    for engine in ENGINES {
        let file = temp(&format!("closure-{engine}"));
        let a = shaped(true);
        let stopped = a
            .solve(engine)
            .checkpoint(&file)
            .limits(Limits::new().nodes(400))
            .count()
            .unwrap();
        assert_eq!(stopped.stop_reason, StopReason::NodeLimit, "{engine}");
        let done = std::fs::read_to_string(&file)
            .unwrap()
            .matches("\ndone ")
            .count();
        assert!(done > 0, "{engine}: some subproblems finished");
        // Model B, resuming model A's file, would add A's counts to its own.
        let refused = shaped(false)
            .solve(engine)
            .resume(&file)
            .count()
            .unwrap_err();
        assert!(
            matches!(&refused, SearchError::Checkpoint(m) if m.contains("another model")),
            "{engine}: {refused}"
        );
        assert!(refused.to_string().contains(": line "), "{refused}");
        // Model A finishes it, on any number of threads.
        let finished = a.solve(engine).resume(&file).threads(2).count().unwrap();
        assert_eq!(finished.solutions, 64 * 28, "{engine}");
        std::fs::remove_file(&file).unwrap();
    }
}

#[test]
fn a_cancelled_count_resumes_to_the_exact_total() {
    let file = temp("cancel");
    let flag = CancelFlag::new();
    let watcher = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.cancel();
        })
    };
    let stopped = queens(12)
        .threads(2)
        .checkpoint(&file)
        .limits(Limits::new().cancel(flag))
        .count()
        .unwrap();
    watcher.join().unwrap();
    let finished = queens(12).resume(&file).threads(2).count().unwrap();
    assert_eq!(finished.solutions, 14_200);
    if stopped.stop_reason == StopReason::Cancelled {
        assert!(stopped.solutions < 14_200);
    }
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn a_listing_with_a_checkpoint_records_what_each_subproblem_found() {
    let file = temp("listed");
    // List a few solutions on threads with a checkpoint, then finish by counting.
    let listed: Vec<_> = queens(9)
        .threads(2)
        .checkpoint(&file)
        .solutions()
        .take(100)
        .collect();
    assert_eq!(listed.len(), 100);
    let finished = queens(9).resume(&file).threads(2).count().unwrap();
    assert_eq!(finished.solutions, 352);
    std::fs::remove_file(&file).ok();
}
