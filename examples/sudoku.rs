//! Sudoku: solves every puzzle of a file, one per line.
//!
//! ```text
//! cargo run --release --example sudoku -- tests/data/sudoku/top95.txt
//! ```
//!
//! A puzzle is 81 characters, row by row: a digit for a given, `.` or `0` for a blank.
//! Blank lines, `#` comments and a bare count line are skipped; anything else is an error
//! naming its line.

use std::path::PathBuf;
use std::process::ExitCode;

use ambsolve_examples::cli::{self, Output};
use ambsolve_examples::puzzles::sudoku::{line, parse_puzzles, solve};
use clap::Parser;

/// Solve every sudoku of FILE; print each solution (81 characters) and a summary.
#[derive(Parser, Debug)]
#[command(name = "sudoku")]
struct Args {
    /// Puzzles, one per line: 81 characters, a digit or `.`/`0` for a blank.
    file: PathBuf,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            return cli::input_error(
                "sudoku",
                format!("cannot read {}: {e}", args.file.display()),
            );
        }
    };
    let puzzles = match parse_puzzles(&text) {
        Ok(puzzles) => puzzles,
        Err(e) => return cli::input_error("sudoku", format!("{}: {e}", args.file.display())),
    };
    let mut out = Output::new();
    let mut solved = 0;
    for (number, grid) in &puzzles {
        match solve(grid) {
            Ok(Some(solution)) => {
                out.line(line(&solution));
                solved += 1;
            }
            Ok(None) => out.line(format!("no solution (line {number})")),
            Err(error) => {
                out.flush();
                return cli::search_error(&error);
            }
        }
    }
    out.line(format!("solved: {solved} of {}", puzzles.len()));
    ExitCode::SUCCESS
}
