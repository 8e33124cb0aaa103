//! Sudoku: solves every puzzle of a file, one per line, as it reads them.
//!
//! ```text
//! cargo run --release --example sudoku -- tests/data/sudoku/top95.txt
//! ```
//!
//! A puzzle is 81 characters, row by row: a digit for a given, `.` or `0` for a blank.
//! Blank lines, `#` comments and a count line (at most 6 digits, before the first puzzle)
//! are skipped; anything else is an error naming its line. `-` reads standard input.
//! A puzzle without a solution is followed by a minimal set of its givens and rules that
//! conflict (`Model::explain_infeasible`).

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::sudoku`).
pub mod model;

use std::path::PathBuf;
use std::process::ExitCode;

use ambsolve::{Infeasibility, Limits, Part};
use ambsolve_examples::cli::{self, Output};
use ambsolve_examples::input;
use ambsolve_examples::puzzles::sudoku::Puzzles;
use clap::Parser;
use model::{Grid, sudoku};

/// Solve every sudoku of FILE as it is read; print each solution (81 characters) and a
/// summary.
///
/// Ctrl-C, SIGTERM or SIGHUP stop at the puzzle being solved and print the summary of those
/// done, marked partial (exit status 130). A malformed line stops the program with its
/// number (exit status 2), after the solutions of the lines before it.
#[derive(Parser, Debug)]
#[command(name = "sudoku")]
struct Args {
    /// Puzzles, one per line: 81 characters, a digit or `.`/`0` for a blank. Blank lines,
    /// `#` comments and a count line (at most 6 digits, before the first puzzle) are
    /// skipped; a line holds at most 4 KiB. `-` reads standard input.
    file: PathBuf,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let (name, file) = match input::open(&args.file) {
        Ok(opened) => opened,
        Err(message) => return cli::input_error("sudoku", message),
    };
    let interrupt = cli::interrupt_flag();
    let mut out = Output::new();
    let (mut solved, mut read) = (0u64, 0u64);
    for puzzle in Puzzles::new(file) {
        let (number, grid) = match puzzle {
            Ok(puzzle) => puzzle,
            Err(e) => {
                out.flush();
                return cli::input_error("sudoku", format!("{name}: {e}"));
            }
        };
        let solution = sudoku(&grid)
            .limits(Limits::new().cancel(interrupt.clone()))
            .first();
        if interrupt.is_cancelled() {
            out.line(format!("solved: {solved} of {read}"));
            out.line(format!(
                "partial: interrupted by Ctrl-C, SIGTERM or SIGHUP at the puzzle of line {number}"
            ));
            out.flush();
            return ExitCode::from(cli::INTERRUPTED);
        }
        read += 1;
        match solution {
            Ok(Some(solution)) => {
                out.line(digits(&solution));
                solved += 1;
            }
            Ok(None) => {
                out.line(format!("no solution (line {number})"));
                let puzzle = sudoku(&grid);
                match puzzle
                    .model()
                    .explain_infeasible_within(Limits::new().cancel(interrupt.clone()))
                {
                    Ok(Infeasibility::Conflict(parts)) if !parts.is_empty() => {
                        out.line("  these clues and rules conflict:".to_string());
                        for part in &parts {
                            out.line(format!("    {}", clue_or_rule(part, &grid)));
                        }
                    }
                    Ok(_) => {}
                    Err(error) => {
                        out.flush();
                        return cli::search_error(&error);
                    }
                }
            }
            Err(error) => {
                out.flush();
                return cli::search_error(&error);
            }
        }
    }
    out.line(format!("solved: {solved} of {read}"));
    ExitCode::SUCCESS
}

/// A solved grid as one line of 81 digits, row by row.
fn digits(rows: &[Vec<u8>]) -> String {
    rows.iter()
        .flatten()
        .map(|&d| char::from(b'0' + d))
        .collect()
}

/// A part of a conflict in the puzzle's words: a cell's domain is its given digit.
fn clue_or_rule(part: &Part, grid: &Grid) -> String {
    if let Part::Domain { var, .. } = part {
        let cell = var
            .strip_prefix("g[")
            .and_then(|rest| rest.strip_suffix(']'))
            .and_then(|rest| rest.split_once("]["))
            .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
        if let Some((r, c)) = cell.filter(|&(r, c)| r < 9 && c < 9) {
            return format!(
                "the given {} at row {}, column {}",
                grid[9 * r + c],
                r + 1,
                c + 1
            );
        }
    }
    part.to_string()
}
