//! Nonograms: a grid whose rows and columns must hold runs of black cells of the lengths
//! their clues give, in order, with at least one white cell between two runs. Each row
//! and each column is a `regular` constraint over an automaton built from its clue.
//!
//! ```text
//! cargo run --release --example nonogram -- tests/data/nonogram/letter_a.txt
//! cargo run --release --example nonogram -- tests/data/nonogram/dom_06.txt --count
//! ```
//!
//! The puzzle file, line by line (blank lines and `#` comments are skipped):
//!
//! ```text
//! 5 5          the number of rows, then of columns (1 to 500 each)
//! 3            one line per row, top to bottom: its run lengths, left to right,
//! 1 1          separated by spaces; `0` for a row with no black cell
//! 5
//! 1 1
//! 1 1
//! 4            then one line per column, left to right: its run lengths, top to
//! 1 1          bottom
//! 1 1
//! 1 1
//! 4
//! ```
//!
//! A line that does not read as the format says is an error naming it (exit status 2).
//! A puzzle without a picture says which clues conflict: a minimal set of them (give up
//! any one and the others have a picture), by `Model::explain_infeasible`.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use ambsolve::{Dfa, Engine, Infeasibility, Model, Strategy, Var};
use ambsolve_examples::cli::{self, Bounds, Output};
use ambsolve_examples::input::{self, InputError, Lines};
use clap::Parser;

/// The most rows or columns a puzzle may have.
const MAX_SIDE: usize = 500;

/// The longest line read, in bytes.
const MAX_LINE: usize = 4096;

/// Solve the nonogram of FILE and print its picture (`#` black, `.` white), or count its
/// solutions.
///
/// Ctrl-C, SIGTERM or SIGHUP stop the search and say so (exit status 130); a malformed
/// file is an error naming its line (exit status 2).
#[derive(Parser, Debug)]
#[command(name = "nonogram")]
struct Args {
    /// The puzzle: a line `ROWS COLUMNS`, then one clue line per row and one per column
    /// (run lengths separated by spaces, `0` for none). Blank lines and `#` comments are
    /// skipped; a line holds at most 4 KiB. `-` reads standard input.
    file: PathBuf,
    /// Count the solutions instead of printing the first (a well-made puzzle has one).
    #[arg(long)]
    count: bool,
    /// Print what the search did.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    bounds: Bounds,
}

/// A puzzle: the clue of each row and of each column.
#[derive(Debug)]
struct Puzzle {
    rows: Vec<Vec<usize>>,
    columns: Vec<Vec<usize>>,
}

// ---- the model ----

/// The automaton of a line whose runs are `clue`, over 0 (white) and 1 (black).
///
/// It reads the shortest line of the clue, `1^c1 0 1^c2 0 .. 1^ck`, one state per cell
/// read (state `i` has read `i` cells of it); whites may also come before the first run,
/// after the last, and between two runs (a state just past a run's gap loops on white).
/// The last state accepts.
fn line_automaton(clue: &[usize]) -> Dfa {
    let mut shortest: Vec<bool> = Vec::new();
    for (k, &run) in clue.iter().enumerate() {
        if k > 0 {
            shortest.push(false);
        }
        shortest.extend(std::iter::repeat_n(true, run));
    }
    let last = shortest.len();
    let mut dfa = Dfa::new(last + 1, 0);
    dfa.accept(last);
    for (state, &black) in shortest.iter().enumerate() {
        let after_white = state == 0 || !shortest[state - 1];
        if black {
            dfa.transition(state, 1, state + 1);
            if after_white {
                dfa.transition(state, 0, state);
            }
        } else {
            dfa.transition(state, 0, state + 1);
        }
    }
    dfa.transition(last, 0, last);
    dfa
}

/// The model: a 0/1 cell per square, each row and each column read by its clue's
/// automaton, named by its clue (for the conflict a puzzle without a picture reports).
fn nonogram(puzzle: &Puzzle) -> (Model<'static>, Vec<Vec<Var<u8>>>) {
    let mut m = Model::new();
    let cells = m.grid("cell", puzzle.rows.len(), puzzle.columns.len(), 0..2u8);
    for (r, (row, clue)) in cells.iter().zip(&puzzle.rows).enumerate() {
        m.named(format!("row {}: {}", r + 1, clue_text(clue)), |m| {
            m.regular(row, &line_automaton(clue));
        });
    }
    for (c, clue) in puzzle.columns.iter().enumerate() {
        m.named(format!("column {}: {}", c + 1, clue_text(clue)), |m| {
            m.regular(cells.iter().map(|row| &row[c]), &line_automaton(clue));
        });
    }
    (m, cells)
}

/// A clue as its file writes it: run lengths separated by spaces, `0` for none.
fn clue_text(clue: &[usize]) -> String {
    if clue.is_empty() {
        return "0".to_string();
    }
    clue.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

// ---- the file ----

/// Reads a puzzle, checking every line as it comes.
fn read(reader: impl BufRead) -> Result<Puzzle, InputError> {
    let mut lines = Lines::new(reader, MAX_LINE);
    let mut size: Option<(usize, usize)> = None;
    let (mut rows, mut columns) = (Vec::new(), Vec::new());
    let mut last = 0;
    while let Some(line) = lines.next_line() {
        let (number, text) = line?;
        last = number;
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let invalid = |message: String| InputError::Invalid {
            line: number,
            message,
        };
        let Some((height, width)) = size else {
            size = Some(dimensions(text).map_err(invalid)?);
            continue;
        };
        let (list, length, what) = if rows.len() < height {
            (&mut rows, width, "row")
        } else if columns.len() < width {
            (&mut columns, height, "column")
        } else {
            return Err(invalid(format!(
                "more lines than the {height} row and {width} column clues"
            )));
        };
        list.push(clue(text, length, what).map_err(invalid)?);
    }
    let Some((height, width)) = size else {
        return Err(InputError::Empty { what: "puzzles" });
    };
    if columns.len() < width {
        return Err(InputError::Invalid {
            line: last + 1,
            message: format!(
                "the file ends after {} of the {height} row clues and {} of the {width} column clues",
                rows.len(),
                columns.len()
            ),
        });
    }
    Ok(Puzzle { rows, columns })
}

/// `ROWS COLUMNS`.
fn dimensions(text: &str) -> Result<(usize, usize), String> {
    let wrong = || {
        format!("expected the number of rows and of columns (1 to {MAX_SIDE} each), not {text:?}")
    };
    let numbers: Vec<usize> = text
        .split_whitespace()
        .map(|word| word.parse::<usize>().map_err(|_| wrong()))
        .collect::<Result<_, _>>()?;
    match numbers[..] {
        [rows, columns] if (1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&columns) => {
            Ok((rows, columns))
        }
        _ => Err(wrong()),
    }
}

/// A clue of a line of `length` cells (a `what`: row or column).
fn clue(text: &str, length: usize, what: &str) -> Result<Vec<usize>, String> {
    let mut runs = Vec::new();
    for word in text.split_whitespace() {
        let run: usize = word.parse().map_err(|_| {
            format!("{word:?} is not a run length (a whole number, or 0 for an empty {what})")
        })?;
        runs.push(run);
    }
    if runs == [0] {
        return Ok(Vec::new());
    }
    if runs.contains(&0) {
        return Err(format!(
            "a run of 0 cells: 0 stands alone, for an empty {what}"
        ));
    }
    // The runs and a white cell between each two.
    let needed = runs
        .iter()
        .try_fold(runs.len() - 1, |sum: usize, &run| sum.checked_add(run));
    match needed {
        Some(needed) if needed <= length => Ok(runs),
        _ => Err(format!(
            "the clue {text} needs more than the {length} cells of a {what}"
        )),
    }
}

// ---- the program ----

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let (name, file) = match input::open(&args.file) {
        Ok(opened) => opened,
        Err(message) => return cli::input_error("nonogram", message),
    };
    let puzzle = match read(file) {
        Ok(puzzle) => puzzle,
        Err(e) => return cli::input_error("nonogram", format!("{name}: {e}")),
    };
    let (model, cells) = nonogram(&puzzle);
    let solutions = model
        .solve(Engine::Trail)
        .strategy(Strategy::first_fail())
        .limits(args.bounds.limits())
        .solutions();
    let mut out = Output::new();
    let (stop, stats) = if args.count {
        let mut solutions = solutions;
        match cli::count_with_progress(&mut solutions) {
            Ok(count) => {
                let (stop, stats) = (solutions.stop_reason(), solutions.stats());
                cli::count_lines(&mut out, count, stop, &stats, solutions.progress());
                (stop, stats)
            }
            Err(error) => return cli::search_error(&error),
        }
    } else {
        let mut first = solutions.fallible();
        match first.next() {
            Some(Ok(picture)) => {
                for row in &cells {
                    let line: String = row
                        .iter()
                        .map(|cell| if *picture.value(cell) == 1 { '#' } else { '.' })
                        .collect();
                    out.line(line);
                }
            }
            Some(Err(error)) => return cli::search_error(&error),
            None => {
                let (stop, stats) = (first.stop_reason(), first.stats());
                match cli::partial_line(stop, 0, "solutions", &stats, first.progress()) {
                    Some(line) => out.line(line),
                    None => {
                        out.line("no solution");
                        // Which clues conflict: a minimal set of them.
                        match model.explain_infeasible_within(args.bounds.limits()) {
                            Ok(Infeasibility::Conflict(parts)) if !parts.is_empty() => {
                                out.line("these clues conflict:");
                                for part in parts {
                                    out.line(format!("  {part}"));
                                }
                            }
                            Ok(_) => {}
                            Err(error) => return cli::search_error(&error),
                        }
                    }
                }
            }
        }
        (first.stop_reason(), first.stats())
    };
    if args.stats {
        out.line(format!("statistics: {stats}"));
    }
    out.flush();
    cli::exit_status(stop)
}
