//! n-queens: place N queens on an N×N board so that no two attack each other.
//!
//! ```text
//! cargo run --release --example nqueens -- 8            # count, then draw the first
//! cargo run --release --example nqueens -- 8 --all      # every solution, 1-based columns
//! cargo run --release --example nqueens -- 8 --first    # only the first solution
//! ```

use std::process::ExitCode;

use ambsolve::{Amb, Fail};
use clap::Parser;

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
    /// Print only the first solution.
    #[arg(long, group = "mode")]
    first: bool,
}

/// The amb program: one queen per row, each column chosen in turn and checked against the
/// queens above it (columns and both diagonals), so a bad column fails at once.
pub fn queens(n: usize) -> impl FnMut(&mut Amb<'_>) -> Result<Vec<usize>, Fail> {
    let mut cols = vec![false; n];
    let mut diag = vec![false; 2 * n];
    let mut anti = vec![false; 2 * n];
    let mut queens = Vec::with_capacity(n);
    move |amb| {
        cols.fill(false);
        diag.fill(false);
        anti.fill(false);
        queens.clear();
        for row in 0..n {
            let col = amb.choose(0..n)?;
            let (d, a) = (row + col, row + n - col);
            amb.require(!cols[col] && !diag[d] && !anti[a])?;
            (cols[col], diag[d], anti[a]) = (true, true, true);
            queens.push(col);
        }
        Ok(queens.clone())
    }
}

/// A solution as the sources print it: 1-based columns, `[2, 4, 1, 3]`.
pub fn columns(queens: &[usize]) -> String {
    let cols: Vec<String> = queens.iter().map(|c| (c + 1).to_string()).collect();
    format!("[{}]", cols.join(", "))
}

/// A solution drawn as a board, one row per line.
pub fn board(queens: &[usize]) -> String {
    let n = queens.len();
    let mut out = String::new();
    for &col in queens {
        let row: Vec<&str> = (0..n).map(|c| if c == col { "Q" } else { "." }).collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

fn main() -> ExitCode {
    let args: Args = ambsolve_examples::cli::parse();
    let n = args.n as usize;
    let solver = || ambsolve::replay(queens(n));
    let result = if args.all {
        let mut count = 0u64;
        let mut solutions = solver().solutions();
        for queens in solutions.by_ref() {
            println!("{}", columns(&queens));
            count += 1;
        }
        solutions.error().cloned().map_or(Ok(count), Err)
    } else if args.first {
        solver().first().map(|first| match first {
            Some(queens) => {
                print!("{}\n{}", columns(&queens), board(&queens));
                1
            }
            None => 0,
        })
    } else {
        solver().count().map(|summary| summary.solutions)
    };
    let count = match result {
        Ok(count) => count,
        Err(error) => {
            eprintln!("nqueens: {error}");
            return ExitCode::FAILURE;
        }
    };
    if !args.first {
        println!("solutions: {count}");
    }
    if count == 0 {
        println!(
            "no solution: {n} queens cannot share a {n}×{n} board without attacking each other"
        );
    } else if !args.all && !args.first && !args.count {
        if let Ok(Some(queens)) = solver().first() {
            print!("first solution {}:\n{}", columns(&queens), board(&queens));
        }
    }
    ExitCode::SUCCESS
}
