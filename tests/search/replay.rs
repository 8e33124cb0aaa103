//! The replay engine on the programs of the sources: n-queens and the word chain, with
//! limits, cancellation, the determinism check and deep searches.

use crate::common;

use std::time::Duration;

use ambsolve::{Limits, SearchError, StopReason, replay};
use ambsolve_examples::programs;
use ambsolve_examples::puzzles::queens as nqueens;
use common::{is_queens_solution, queens_counts};

#[test]
fn nqueens_counts_match_oeis_for_n_up_to_12() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 12) {
        let summary = replay(programs::queens(expected.n)).count().unwrap();
        assert_eq!(summary.solutions, expected.all, "n = {}", expected.n);
        assert_eq!(summary.stop_reason, StopReason::Exhausted);
        assert_eq!(summary.stats.solutions, expected.all);
    }
}

#[test]
fn every_yielded_queens_solution_is_a_real_solution() {
    for n in 1..=9 {
        let mut seen = 0;
        for queens in replay(programs::queens(n)).solutions() {
            assert!(is_queens_solution(&queens), "n = {n}: {queens:?}");
            seen += 1;
        }
        assert_eq!(seen, queens_counts()[n - 1].all);
    }
}

#[test]
fn four_queens_solutions_in_amb_order() {
    let lines: Vec<String> = replay(programs::queens(4))
        .solutions()
        .map(|q| nqueens::columns(&q))
        .collect();
    insta::assert_snapshot!(lines.join("\n"), @r"
    [2, 4, 1, 3]
    [3, 1, 4, 2]
    ");
}

/// Consistent placements of the first `d` queens, for each depth `d` in `0..n`, counted by
/// a plain enumeration independent of the engine.
fn consistent_prefixes(n: usize) -> Vec<u64> {
    let mut per_depth = vec![0u64; n + 1];
    let mut stack = vec![Vec::<usize>::new()];
    while let Some(prefix) = stack.pop() {
        per_depth[prefix.len()] += 1;
        if prefix.len() == n {
            continue;
        }
        for col in 0..n {
            let mut next = prefix.clone();
            next.push(col);
            if is_queens_solution_prefix(&next) {
                stack.push(next);
            }
        }
    }
    per_depth.truncate(n);
    per_depth
}

fn is_queens_solution_prefix(queens: &[usize]) -> bool {
    let last = queens.len() - 1;
    (0..last).all(|r| queens[r] != queens[last] && queens[r].abs_diff(queens[last]) != last - r)
}

#[test]
fn replay_statistics_for_eight_queens() {
    let n = 8;
    let stats = replay(programs::queens(n)).count().unwrap().stats;
    // Each consistent prefix of d queens makes one new choice with n alternatives: the
    // first is tried in the run that made the choice, the other n - 1 in runs of their
    // own, each replaying the d + 1 choices down to and including the advanced one.
    let c = consistent_prefixes(n);
    let nodes: u64 = c.iter().sum();
    let replayed: u64 = c
        .iter()
        .enumerate()
        .map(|(d, &cd)| (n as u64 - 1) * cd * (d as u64 + 1))
        .sum();
    assert_eq!(stats.nodes, nodes);
    assert_eq!(stats.runs, 1 + (n as u64 - 1) * nodes);
    assert_eq!(stats.replayed, replayed);
    assert_eq!(stats.failures, stats.runs - 92);
    assert_eq!(stats.solutions, 92);
    assert_eq!(stats.max_depth, 8);
    insta::assert_snapshot!(
        format!(
            "runs {}\nnodes {}\nreplayed {}\nfailures {}",
            stats.runs, stats.nodes, stats.replayed, stats.failures
        ),
        @r"
    runs 13756
    nodes 1965
    replayed 85239
    failures 13664
    "
    );
}

#[test]
fn node_limit_stops_with_its_reason() {
    let mut solutions = replay(programs::queens(10))
        .limits(Limits::new().nodes(100))
        .solutions();
    let found = solutions.by_ref().count();
    assert_eq!(solutions.stop_reason(), Some(StopReason::NodeLimit));
    assert_eq!(solutions.stats().nodes, 100);
    assert!(found < 724);
}

#[test]
fn solution_limit_yields_exactly_that_many() {
    let mut solutions = replay(programs::queens(8))
        .limits(Limits::new().solutions(5))
        .solutions();
    assert_eq!(solutions.by_ref().count(), 5);
    assert_eq!(solutions.stop_reason(), Some(StopReason::SolutionLimit));
}

/// 2^40 paths: only a limit can end it.
fn endless(amb: &mut ambsolve::Amb<'_>) -> Result<(), ambsolve::Fail> {
    for _ in 0..40 {
        amb.choose(0..2)?;
    }
    amb.fail()
}

#[test]
fn time_limit_stops_with_its_reason() {
    let summary = replay(endless)
        .limits(Limits::new().time(Duration::from_millis(50)))
        .count()
        .unwrap();
    assert_eq!(summary.stop_reason, StopReason::TimeLimit);
    assert!(!summary.stop_reason.is_complete());
}

#[test]
fn another_thread_can_cancel_a_search() {
    let (flag, canceller) = common::cancel_after(Duration::from_millis(30));
    let summary = replay(endless)
        .limits(Limits::new().cancel(flag))
        .count()
        .unwrap();
    canceller.join().unwrap();
    assert_eq!(summary.stop_reason, StopReason::Cancelled);
}

#[test]
fn a_nondeterministic_program_is_reported_not_searched() {
    // The number of alternatives depends on a counter outside the choices.
    let mut runs = 0;
    let error = replay(move |amb| {
        runs += 1;
        let x = amb.choose(0..3)?;
        let y = amb.choose(0..(runs % 2 + 2))?;
        amb.require(x + y > 10)
    })
    .count()
    .unwrap_err();
    assert!(
        matches!(error, SearchError::Nondeterministic { depth: 1, .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("choice 1"), "{error}");
}

#[test]
fn a_hundred_thousand_nested_choices() {
    const DEPTH: usize = 100_000;
    // Every path is 100,000 choices deep; the first full path fails at its end, so the
    // engine backtracks at depth 100,000 and replays the whole path once.
    let first = replay(|amb| {
        let mut last = 0;
        for _ in 0..DEPTH {
            last = amb.choose(0..2)?;
        }
        amb.require(last == 1)?;
        Ok(amb.depth())
    });
    let mut solutions = first.solutions();
    assert_eq!(solutions.next(), Some(DEPTH));
    let stats = solutions.stats();
    assert_eq!(stats.max_depth, DEPTH as u64);
    assert_eq!(stats.runs, 2);
    assert_eq!(stats.replayed, DEPTH as u64);
}
