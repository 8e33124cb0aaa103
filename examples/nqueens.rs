//! n-queens: place N queens on an N×N board so that no two attack each other.
//!
//! ```text
//! cargo run --release --example nqueens -- 8            # count, then draw the first
//! cargo run --release --example nqueens -- 8 --all      # every solution, 1-based columns
//! cargo run --release --example nqueens -- 1000 --first # first-fail: large boards at once
//! cargo run --release --example nqueens -- 8 --engine replay
//! ```

use std::process::ExitCode;

use ambsolve::{Engine, Puzzle, Restarts, Strategy, ValueOrder, constraints};
use ambsolve_examples::cli::{self, Output};
use clap::{Parser, ValueEnum};

/// Place N queens on an N×N board so that no two attack each other.
#[derive(Parser, Debug)]
#[command(name = "nqueens")]
struct Args {
    /// Board size (at least 1).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    n: u32,
    /// Print only the number of solutions.
    #[arg(long, group = "mode")]
    count: bool,
    /// Print every solution as a list of 1-based columns, then the count.
    #[arg(long, group = "mode")]
    all: bool,
    /// Print only the first solution (found with first-fail on the trail engine).
    #[arg(long, group = "mode")]
    first: bool,
    /// The search engine.
    #[arg(long, value_enum, default_value_t = EngineArg::Trail)]
    engine: EngineArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineArg {
    Trail,
    Replay,
}

/// The puzzle: one queen per row, `q[row]` its column; no two share a column or a
/// diagonal.
pub fn queens(n: usize) -> Puzzle<'static, Vec<usize>> {
    constraints! {
        let q[n] = amb(0..n);
        require all_different(q);
        require all_different(q[i] + i for i in 0..n);
        require all_different(q[i] - i for i in 0..n);
    }
    .map(|solution| solution.q)
}

/// The strategy for a first solution on a large board: fewest columns left first,
/// central columns first, restarts against unlucky runs.
pub fn first_strategy() -> Strategy {
    Strategy::first_fail()
        .values(ValueOrder::MiddleOut)
        .restarts(Restarts::luby(100))
}

/// A solution as the sources print it: 1-based columns, `[2, 4, 1, 3]`.
pub fn columns(queens: &[usize]) -> String {
    let cols: Vec<String> = queens.iter().map(|c| (c + 1).to_string()).collect();
    format!("[{}]", cols.join(", "))
}

/// A solution drawn as a board, one row per line.
pub fn board(queens: &[usize]) -> String {
    let n = queens.len();
    let rows: Vec<String> = queens
        .iter()
        .map(|&col| {
            (0..n)
                .map(|c| if c == col { "Q" } else { "." })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    rows.join("\n")
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let n = args.n as usize;
    let engine = match args.engine {
        EngineArg::Trail => Engine::Trail,
        EngineArg::Replay => Engine::Replay,
    };
    let mut puzzle = queens(n).engine(engine);
    if args.first && engine == Engine::Trail {
        puzzle = puzzle.strategy(first_strategy());
    }
    let mut out = Output::new();
    let result = if args.all {
        let mut count = 0u64;
        let mut solutions = puzzle.solutions();
        for queens in solutions.by_ref() {
            out.line(columns(&queens));
            count += 1;
        }
        solutions.error().cloned().map_or(Ok(count), Err)
    } else if args.first {
        puzzle.first().map(|first| match first {
            Some(queens) => {
                out.line(columns(&queens));
                out.line(board(&queens));
                1
            }
            None => 0,
        })
    } else {
        puzzle.count().map(|summary| summary.solutions)
    };
    let count = match result {
        Ok(count) => count,
        Err(error) => {
            eprintln!("nqueens: {error}");
            return ExitCode::FAILURE;
        }
    };
    if !args.first {
        out.line(format!("solutions: {count}"));
    }
    if count == 0 {
        out.line(format!(
            "no solution: {n} queens cannot share a {n}×{n} board without attacking each other"
        ));
    } else if !args.all && !args.first && !args.count {
        if let Ok(Some(queens)) = puzzle.first() {
            out.line(format!("first solution {}:", columns(&queens)));
            out.line(board(&queens));
        }
    }
    ExitCode::SUCCESS
}
