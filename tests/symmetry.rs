//! Solving up to symmetry: one representative per class, counted exactly once.

mod common;

use std::collections::BTreeSet;

use ambsolve::{Engine, Symmetry, VarId, constraints};
use ambsolve_examples::puzzles::queens as nqueens;
use ambsolve_examples::puzzles::queens::board_symmetries;
use common::{queens_counts, queens_orbit};

fn fundamental(n: usize) -> ambsolve::Puzzle<'static, Vec<usize>> {
    let rows: Vec<VarId> = (0..n).map(VarId::from_index).collect();
    nqueens::queens(n)
        .symmetries(board_symmetries(&rows))
        .up_to_symmetry()
}

#[test]
fn fundamental_counts_match_oeis_on_the_trail_engine() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 12) {
        let summary = fundamental(expected.n).count().unwrap();
        assert_eq!(
            summary.solutions, expected.fundamental,
            "n = {}",
            expected.n
        );
    }
}

#[test]
fn fundamental_counts_match_oeis_on_the_replay_engine() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 9) {
        let summary = fundamental(expected.n)
            .engine(Engine::Replay)
            .count()
            .unwrap();
        assert_eq!(
            summary.solutions, expected.fundamental,
            "n = {}",
            expected.n
        );
    }
}

#[test]
fn the_12_representatives_of_eight_queens() {
    let reps: Vec<Vec<usize>> = fundamental(8).solutions().collect();
    assert_eq!(reps.len(), 12);
    // Independently: every solution lies in the orbit of exactly one representative, and
    // each representative is the least of its orbit.
    let all: Vec<Vec<usize>> = nqueens::queens(8).solutions().collect();
    for s in &all {
        let orbit: BTreeSet<Vec<usize>> = queens_orbit(s).into_iter().collect();
        assert_eq!(
            reps.iter().filter(|r| orbit.contains(*r)).count(),
            1,
            "{s:?}"
        );
    }
    for r in &reps {
        assert_eq!(queens_orbit(r).iter().min(), Some(r));
    }
    let lines: Vec<String> = reps.iter().map(|q| nqueens::columns(q)).collect();
    insta::assert_snapshot!(lines.join("\n"), @r"
    [1, 5, 8, 6, 3, 7, 2, 4]
    [1, 6, 8, 3, 7, 4, 2, 5]
    [2, 4, 6, 8, 3, 1, 7, 5]
    [2, 5, 7, 1, 3, 8, 6, 4]
    [2, 5, 7, 4, 1, 8, 6, 3]
    [2, 6, 1, 7, 4, 8, 3, 5]
    [2, 6, 8, 3, 1, 4, 7, 5]
    [2, 7, 3, 6, 8, 5, 1, 4]
    [2, 7, 5, 8, 1, 4, 6, 3]
    [3, 5, 2, 8, 1, 7, 4, 6]
    [3, 5, 8, 4, 1, 7, 2, 6]
    [3, 6, 2, 5, 8, 1, 7, 4]
    ");
}

#[test]
fn fundamental_classes_counted_by_brute_force_agree() {
    // Count the classes a second way: canonical forms of every solution.
    for n in 4..=9 {
        let classes: BTreeSet<Vec<usize>> = nqueens::queens(n)
            .solutions()
            .map(|q| queens_orbit(&q).into_iter().min().unwrap())
            .collect();
        assert_eq!(
            classes.len() as u64,
            fundamental(n).count().unwrap().solutions,
            "n = {n}"
        );
    }
}

#[test]
fn any_puzzle_can_declare_its_symmetries() {
    // Pairs {a, b} of different digits with a + b = 9: (a, b) and (b, a) are one class.
    let swap = Symmetry::new("swap", |v, x| (VarId::from_index(1 - v.index()), x));
    let pairs = constraints! {
        let a = amb(0..=9);
        let b = amb(0..=9);
        require a + b == 9;
    }
    .symmetries([swap]);
    assert_eq!(pairs.count().unwrap().solutions, 10);
    let classes: Vec<(i32, i32)> = pairs
        .up_to_symmetry()
        .solutions()
        .map(|s| (s.a, s.b))
        .collect();
    assert_eq!(classes, [(0, 9), (1, 8), (2, 7), (3, 6), (4, 5)]);
}

#[test]
fn a_symmetry_that_is_not_a_bijection_is_an_error() {
    let bad = Symmetry::new("first value", |v, _| (v, 0));
    let puzzle = nqueens::queens(4).symmetries([bad]).up_to_symmetry();
    let error = puzzle.count().unwrap_err();
    assert!(error.to_string().contains("not a bijection"), "{error}");
}
