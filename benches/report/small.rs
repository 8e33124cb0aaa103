//! The report's small puzzles: sudoku (`top95.txt`) and SEND + MORE = MONEY.

use std::fmt::Write as _;
use std::time::Duration;

use ambsolve::Engine;
use ambsolve_examples::puzzles::{send_more_money, sudoku};

use crate::support::{self, median};
use crate::{seconds, verdict};

/// Sudoku: every puzzle of `top95.txt` on the trail engine.
pub(crate) fn sudoku_section(md: &mut String) {
    writeln!(md, "## Sudoku, `top95.txt` (trail engine, first-fail)\n").unwrap();
    let puzzles = sudoku::parse_puzzles(&support::sudoku_file("top95.txt")).unwrap();
    let mut per_puzzle: Vec<Duration> = Vec::new();
    for (_, grid) in &puzzles {
        let (t, solved) = median(7, || sudoku::solve(grid));
        assert!(solved.unwrap().is_some());
        per_puzzle.push(t);
    }
    let (total, _) = median(7, || {
        puzzles
            .iter()
            .filter(|(_, g)| sudoku::solve(g).unwrap().is_some())
            .count()
    });
    per_puzzle.sort();
    let med = per_puzzle[per_puzzle.len() / 2];
    let worst = *per_puzzle.last().unwrap();
    writeln!(
        md,
        "Each puzzle from its 81 characters: model built, propagated, searched.\n"
    )
    .unwrap();
    writeln!(md, "| measure | time | target |").unwrap();
    writeln!(md, "| --- | --- | --- |").unwrap();
    writeln!(
        md,
        "| all 95 puzzles | {} | under 30 ms — {} |",
        seconds(total),
        verdict(total < Duration::from_millis(30))
    )
    .unwrap();
    writeln!(
        md,
        "| median puzzle | {} | under 100 µs — {} |",
        seconds(med),
        verdict(med < Duration::from_micros(100))
    )
    .unwrap();
    writeln!(md, "| slowest puzzle | {} | |\n", seconds(worst)).unwrap();
}

/// SEND + MORE = MONEY: every solution, the model built once and built each time.
pub(crate) fn send_more_money_section(md: &mut String) {
    writeln!(md, "## SEND + MORE = MONEY, all solutions (trail engine)\n").unwrap();
    let puzzle = send_more_money::send_more_money();
    let model = puzzle.model();
    let (solve, summary) = median(201, || model.solve(Engine::Trail).count().unwrap());
    let (build_and_solve, _) = median(201, || {
        send_more_money::send_more_money()
            .count()
            .unwrap()
            .solutions
    });
    assert_eq!(summary.solutions, 1);
    writeln!(md, "| measure | time | target |").unwrap();
    writeln!(md, "| --- | --- | --- |").unwrap();
    writeln!(
        md,
        "| search for all solutions | {} | under 0.1 ms — {} |",
        seconds(solve),
        verdict(solve < Duration::from_micros(100))
    )
    .unwrap();
    writeln!(
        md,
        "| building the model too | {} | |",
        seconds(build_and_solve)
    )
    .unwrap();
    writeln!(
        md,
        "\n{} decisions, {} failures, {} propagations.\n",
        summary.stats.nodes, summary.stats.failures, summary.stats.propagations
    )
    .unwrap();
}
