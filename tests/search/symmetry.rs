//! Solving up to symmetry: one representative per class, counted exactly once.

use crate::common;

use std::collections::BTreeSet;

use ambsolve::{Engine, Model, SearchError, Symmetry, Var, VarId, constraints};
use ambsolve_examples::puzzles::queens as nqueens;
use ambsolve_examples::puzzles::queens::board_symmetries;
use common::{queens_counts, queens_orbit};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

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

#[test]
fn generators_alone_give_one_solution_per_class() {
    // A quarter turn and a mirror generate the 8 symmetries of the board: up to
    // symmetry closes them into the group (before, it kept the least member under these
    // two only: 31 classes of 8 queens, 251 of 10).
    let generators = |n: usize| {
        let rows: Vec<VarId> = (0..n).map(VarId::from_index).collect();
        board_symmetries(&rows)
            .into_iter()
            .filter(|s| ["rotate 90°", "mirror left-right"].contains(&s.name()))
            .collect::<Vec<_>>()
    };
    for (n, classes) in [(8, 12), (10, 92)] {
        let puzzle = nqueens::queens(n)
            .symmetries(generators(n))
            .up_to_symmetry();
        assert_eq!(puzzle.count().unwrap().solutions, classes, "n = {n}");
        // The same representatives as with the whole group declared.
        let reps: Vec<Vec<usize>> = puzzle.solutions().collect();
        let whole: Vec<Vec<usize>> = fundamental(n).solutions().collect();
        assert_eq!(reps, whole, "n = {n}");
    }
    let replay = nqueens::queens(8)
        .symmetries(generators(8))
        .up_to_symmetry()
        .engine(Engine::Replay);
    assert_eq!(replay.count().unwrap().solutions, 12);
}

#[test]
fn a_group_too_large_to_enumerate_is_refused_up_to_symmetry() {
    // A cycle and a transposition of 8 variables: all 40320 permutations.
    let cycle = Symmetry::new("cycle", |v, x| (VarId::from_index((v.index() + 1) % 8), x));
    let swap = Symmetry::new("swap 0 1", |v, x| match v.index() {
        0 | 1 => (VarId::from_index(1 - v.index()), x),
        _ => (v, x),
    });
    let mut m = Model::new();
    let _ = m.vars("x", 8, 0..2);
    m.symmetries([cycle, swap]);
    for engine in ENGINES {
        let error = m.solve(engine).up_to_symmetry().count().unwrap_err();
        assert!(
            matches!(&error, SearchError::Unsupported(m) if m.contains("more than 1024")),
            "{error}"
        );
        // Counting through them counts plainly.
        let through = m.solve(engine).count_through_symmetry().count().unwrap();
        assert_eq!(through.solutions, 256);
    }
}

/// x over `xs` and y over `ys` with different value indices, and the symmetry swapping
/// them index for index.
fn swapped_pair(
    xs: std::ops::Range<i64>,
    ys: std::ops::Range<i64>,
) -> (Model<'static>, Var<i64>, Var<i64>) {
    let mut m = Model::new();
    let x = m.var(xs);
    let y = m.var(ys);
    m.require_indices(&[x.id(), y.id()], |i| i[0] != i[1]);
    m.symmetries([Symmetry::new("swap", |v, i| {
        (VarId::from_index(1 - v.index()), i)
    })]);
    (m, x, y)
}

#[test]
fn optimising_up_to_symmetry_refuses_a_symmetry_that_changes_the_objective() {
    // x != y over 0..3, maximise 2x + y: the swap sends (1, 2), worth 4, to (2, 1), worth
    // 5. Before, up to symmetry kept (1, 2) and "proved" 4.
    let (m, x, y) = swapped_pair(0..3, 0..3);
    let mut weighted = m.clone();
    weighted.maximize([(2, &x), (1, &y)]);
    for engine in ENGINES {
        let plain = weighted.solve(engine).best().unwrap();
        assert_eq!((plain.objective, plain.proved), (Some(5), true));
        let error = weighted.solve(engine).up_to_symmetry().best().unwrap_err();
        assert!(
            matches!(&error, SearchError::Unsupported(m) if m.contains("`swap`")),
            "{engine}: {error}"
        );
        let improving: Vec<_> = weighted
            .solve(engine)
            .up_to_symmetry()
            .try_improving()
            .collect();
        assert!(matches!(improving[..], [Err(SearchError::Unsupported(_))]));
        // Listing and counting up to symmetry do not look at the objective.
        let classes = weighted.solve(engine).up_to_symmetry().count().unwrap();
        assert_eq!(classes.solutions, 3);
    }
    // x + y keeps its value under the swap: optimised up to symmetry.
    let mut sum = m.clone();
    sum.maximize([(1, &x), (1, &y)]);
    for engine in ENGINES {
        let best = sum.solve(engine).up_to_symmetry().best().unwrap();
        assert_eq!((best.objective, best.proved), (Some(3), true));
    }
    // x over 0..3 and y over 10..13: the swap moves x + y by +10 on x and -10 on y, so
    // it keeps the sum; 2x + y it does not.
    let (m, x, y) = swapped_pair(0..3, 10..13);
    let mut sum = m.clone();
    sum.maximize([(1, &x), (1, &y)]);
    let mut weighted = m.clone();
    weighted.minimize([(2, &x), (1, &y)]);
    for engine in ENGINES {
        let best = sum.solve(engine).up_to_symmetry().best().unwrap();
        assert_eq!((best.objective, best.proved), (Some(13), true));
        assert!(weighted.solve(engine).up_to_symmetry().best().is_err());
        assert_eq!(weighted.solve(engine).best().unwrap().objective, Some(11));
    }
}
