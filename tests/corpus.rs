//! Puzzles with known answers, on both engines; every solution checked independently.

mod common;

#[path = "../examples/nqueens.rs"]
#[allow(dead_code, unreachable_pub)]
mod nqueens;
#[path = "../examples/send_more_money.rs"]
#[allow(dead_code, unreachable_pub)]
mod send_more_money;
#[path = "../examples/sudoku.rs"]
#[allow(dead_code, unreachable_pub)]
mod sudoku;

use ambsolve::{Engine, StopReason};
use common::{data_dir, is_queens_solution, queens_counts};

#[test]
fn nqueens_counts_match_oeis_on_the_trail_engine() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 12) {
        let (model, _) = nqueens::queens_model(expected.n);
        let summary = model.solve(Engine::Trail).count().unwrap();
        assert_eq!(summary.solutions, expected.all, "n = {}", expected.n);
        assert_eq!(summary.stop_reason, StopReason::Exhausted);
    }
}

#[test]
fn nqueens_counts_match_oeis_on_the_replay_engine() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 12) {
        let (model, _) = nqueens::queens_model(expected.n);
        let summary = model.solve(Engine::Replay).count().unwrap();
        assert_eq!(summary.solutions, expected.all, "n = {}", expected.n);
    }
}

#[test]
fn every_queens_solution_satisfies_the_model_and_an_independent_check() {
    for n in 1..=9 {
        let (model, q) = nqueens::queens_model(n);
        for engine in [Engine::Trail, Engine::Replay] {
            for solution in model.solve(engine).solutions() {
                assert_eq!(model.check(&solution), Ok(()));
                let queens: Vec<usize> = solution.values(&q).into_iter().copied().collect();
                assert!(
                    is_queens_solution(&queens),
                    "{engine:?} n = {n}: {queens:?}"
                );
            }
        }
    }
}

#[test]
fn first_fail_finds_large_boards() {
    for n in [50, 200, 1000] {
        let (model, q) = nqueens::queens_model(n);
        let solution = model
            .solve(Engine::Trail)
            .strategy(nqueens::first_strategy())
            .first()
            .unwrap()
            .expect("large boards have solutions");
        let queens: Vec<usize> = solution.values(&q).into_iter().copied().collect();
        assert!(is_queens_solution(&queens), "n = {n}");
    }
}

#[test]
fn first_fail_finds_every_board_from_4_to_120() {
    for n in 4..=120 {
        let (model, q) = nqueens::queens_model(n);
        let mut solutions = model
            .solve(Engine::Trail)
            .strategy(nqueens::first_strategy())
            .limits(ambsolve::Limits::new().nodes(100_000))
            .solutions();
        let solution = solutions
            .next()
            .unwrap_or_else(|| panic!("n = {n}: {:?}", solutions.stats()));
        let queens: Vec<usize> = solution.values(&q).into_iter().copied().collect();
        assert!(is_queens_solution(&queens), "n = {n}");
    }
}

#[test]
fn send_more_money_has_one_solution_on_both_engines() {
    let (model, letters) = send_more_money::send_more_money();
    for engine in [Engine::Trail, Engine::Replay] {
        let sums: Vec<String> = model
            .solve(engine)
            .solutions()
            .map(|s| send_more_money::spell(letters.each_ref().map(|l| *s.value(l))))
            .collect();
        assert_eq!(sums, ["9567 + 1085 = 10652"], "{engine:?}");
    }
}

/// An independent sudoku check: rows, columns and boxes hold 1..=9, givens kept.
fn is_sudoku_solution(puzzle: &sudoku::Grid, solution: &sudoku::Grid) -> bool {
    let unit_ok = |cells: [usize; 9]| {
        let mut seen = [false; 10];
        cells.iter().all(|&c| {
            let d = solution[c] as usize;
            (1..=9).contains(&d) && !std::mem::replace(&mut seen[d], true)
        })
    };
    (0..9).all(|k| {
        unit_ok(std::array::from_fn(|i| 9 * k + i))
            && unit_ok(std::array::from_fn(|i| 9 * i + k))
            && unit_ok(std::array::from_fn(|i| {
                27 * (k / 3) + 3 * (k % 3) + 9 * (i / 3) + i % 3
            }))
    }) && puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
}

fn solve_file(name: &str) -> usize {
    let text = std::fs::read_to_string(data_dir().join("sudoku").join(name)).unwrap();
    let puzzles = sudoku::parse_puzzles(&text).unwrap();
    for (line, puzzle) in &puzzles {
        let solution =
            sudoku::solve(puzzle).unwrap_or_else(|| panic!("{name} line {line} has no solution"));
        assert!(is_sudoku_solution(puzzle, &solution), "{name} line {line}");
    }
    puzzles.len()
}

#[test]
fn hard_sudoku_sets_all_solve() {
    assert_eq!(solve_file("top95.txt"), 95);
    assert_eq!(solve_file("hardest.txt"), 11);
}

#[test]
fn the_1465_sudoku_set_all_solves() {
    assert_eq!(solve_file("top1465.txt"), 1465);
}

#[test]
fn sudoku_on_the_replay_engine_agrees() {
    // An easy puzzle (many givens) so that generate-and-check stays small.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let mut puzzle: sudoku::Grid = [0; 81];
    for (i, c) in solved.bytes().enumerate() {
        puzzle[i] = if i % 4 == 0 { 0 } else { c - b'0' };
    }
    let (model, cells) = sudoku::sudoku_model(&puzzle);
    let by_engine: Vec<Vec<String>> = [Engine::Trail, Engine::Replay]
        .map(|engine| {
            model
                .solve(engine)
                .solutions()
                .map(|s| {
                    cells
                        .iter()
                        .map(|c| char::from(b'0' + s.value(c)))
                        .collect()
                })
                .collect()
        })
        .into();
    assert_eq!(by_engine[0], [solved]);
    assert_eq!(by_engine[0], by_engine[1]);
}
