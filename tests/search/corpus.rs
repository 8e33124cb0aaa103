//! Puzzles with known answers, written with `constraints!` in `ambsolve_examples::puzzles`,
//! on both engines; every solution checked independently.

use crate::common;

use ambsolve::{Engine, StopReason};
use ambsolve_examples::puzzles::queens as nqueens;
use ambsolve_examples::puzzles::{
    dwelling, magic_square, map_colouring, pythagorean, send_more_money, sudoku, word_chain, zebra,
};
use common::{data_dir, is_queens_solution, queens_counts};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

#[test]
fn nqueens_counts_match_oeis_on_the_trail_engine() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 12) {
        let summary = nqueens::queens(expected.n).count().unwrap();
        assert_eq!(summary.solutions, expected.all, "n = {}", expected.n);
        assert_eq!(summary.stop_reason, StopReason::Exhausted);
    }
}

#[test]
fn nqueens_counts_match_oeis_on_the_replay_engine() {
    for expected in queens_counts().into_iter().filter(|c| c.n <= 12) {
        let summary = nqueens::queens(expected.n)
            .engine(Engine::Replay)
            .count()
            .unwrap();
        assert_eq!(summary.solutions, expected.all, "n = {}", expected.n);
    }
}

#[test]
fn every_queens_solution_satisfies_the_model_and_an_independent_check() {
    for n in 1..=9 {
        let puzzle = nqueens::queens(n);
        for engine in ENGINES {
            for assignment in puzzle.model().solve(engine).solutions() {
                assert_eq!(puzzle.model().check(&assignment), Ok(()));
            }
            for queens in puzzle.solver().solutions() {
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
        let queens = nqueens::queens(n)
            .strategy(nqueens::first_strategy())
            .first()
            .unwrap()
            .expect("large boards have solutions");
        assert!(is_queens_solution(&queens), "n = {n}");
    }
}

#[test]
fn first_fail_finds_every_board_from_4_to_120() {
    for n in 4..=120 {
        let puzzle = nqueens::queens(n)
            .strategy(nqueens::first_strategy())
            .limits(ambsolve::Limits::new().nodes(100_000));
        let mut solutions = puzzle.solutions();
        let queens = solutions
            .next()
            .unwrap_or_else(|| panic!("n = {n}: {:?}", solutions.stats()));
        assert!(is_queens_solution(&queens), "n = {n}");
    }
}

#[test]
fn send_more_money_has_one_solution_on_both_engines() {
    for engine in ENGINES {
        let sums: Vec<String> = send_more_money::send_more_money()
            .engine(engine)
            .solutions()
            .map(send_more_money::spell)
            .collect();
        assert_eq!(sums, ["9567 + 1085 = 10652"], "{engine:?}");
    }
}

#[test]
fn the_word_chain_on_both_engines() {
    let lists = word_chain::classic_lists();
    for engine in ENGINES {
        let chains: Vec<String> = word_chain::chains(&lists)
            .engine(engine)
            .solutions()
            .map(|c| c.join(" "))
            .collect();
        assert_eq!(chains, ["that thing grows slowly"], "{engine:?}");
    }
}

#[test]
fn zebra_on_both_engines() {
    for engine in ENGINES {
        let answers: Vec<zebra::Answer> = zebra::zebra().engine(engine).solutions().collect();
        assert_eq!(
            answers,
            [zebra::Answer {
                water: "Norwegian",
                zebra: "Japanese"
            }],
            "{engine:?}"
        );
    }
}

#[test]
fn multiple_dwelling_on_both_engines() {
    for engine in ENGINES {
        let floors: Vec<_> = dwelling::dwelling().engine(engine).solutions().collect();
        assert_eq!(
            floors,
            [[
                ("Baker", 3),
                ("Cooper", 2),
                ("Fletcher", 4),
                ("Miller", 5),
                ("Smith", 1)
            ]],
            "{engine:?}"
        );
    }
}

#[test]
fn australia_has_18_colourings_on_both_engines() {
    let neighbours = [
        (0, 1),
        (0, 2),
        (1, 2),
        (1, 3),
        (2, 3),
        (2, 4),
        (2, 5),
        (3, 4),
        (4, 5),
    ];
    for engine in ENGINES {
        let colourings: Vec<_> = map_colouring::australia()
            .engine(engine)
            .solutions()
            .collect();
        assert_eq!(colourings.len(), 18, "{engine:?}");
        for c in &colourings {
            assert!(neighbours.iter().all(|&(a, b)| c[a] != c[b]), "{c:?}");
        }
    }
}

#[test]
fn there_are_8_magic_squares_on_both_engines() {
    for engine in ENGINES {
        let squares: Vec<Vec<Vec<i32>>> = magic_square::magic_squares()
            .engine(engine)
            .solutions()
            .collect();
        assert_eq!(squares.len(), 8, "{engine:?}");
        for s in &squares {
            let mut cells: Vec<i32> = s.iter().flatten().copied().collect();
            cells.sort_unstable();
            assert_eq!(cells, (1..=9).collect::<Vec<_>>());
            let lines = (0..3)
                .flat_map(|i| [s[i].iter().sum::<i32>(), (0..3).map(|j| s[j][i]).sum()])
                .chain([
                    (0..3).map(|i| s[i][i]).sum(),
                    (0..3).map(|i| s[i][2 - i]).sum(),
                ]);
            assert!(lines.into_iter().all(|sum| sum == 15), "{s:?}");
        }
    }
}

#[test]
fn pythagorean_triples_up_to_30_on_both_engines() {
    for engine in ENGINES {
        let triples: Vec<(u64, u64, u64)> = pythagorean::triples(30)
            .engine(engine)
            .solutions()
            .collect();
        assert_eq!(
            triples,
            [
                (3, 4, 5),
                (5, 12, 13),
                (6, 8, 10),
                (7, 24, 25),
                (8, 15, 17),
                (9, 12, 15),
                (10, 24, 26),
                (12, 16, 20),
                (15, 20, 25),
                (18, 24, 30),
                (20, 21, 29)
            ],
            "{engine:?}"
        );
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
        let solution = sudoku::solve(puzzle)
            .unwrap_or_else(|error| panic!("{name} line {line}: {error}"))
            .unwrap_or_else(|| panic!("{name} line {line} has no solution"));
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
    // An easy puzzle (a quarter of the cells blank) so that replay stays small.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let mut puzzle: sudoku::Grid = [0; 81];
    for (i, c) in solved.bytes().enumerate() {
        puzzle[i] = if i % 4 == 0 { 0 } else { c - b'0' };
    }
    let by_engine: Vec<Vec<String>> = ENGINES
        .map(|engine| {
            sudoku::sudoku(&puzzle)
                .engine(engine)
                .solutions()
                .map(|rows| {
                    rows.iter()
                        .flatten()
                        .map(|&d| char::from(b'0' + d))
                        .collect()
                })
                .collect()
        })
        .into();
    assert_eq!(by_engine[0], [solved]);
    assert_eq!(by_engine[0], by_engine[1]);
}
