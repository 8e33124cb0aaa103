//! n-queens: place N queens on an N×N board so that no two attack each other.
//!
//! ```text
//! cargo run --release --example nqueens -- 8                  # count, then draw the first
//! cargo run --release --example nqueens -- 14 --count --stats # one board per class, weighed
//! cargo run --release --example nqueens -- 14 --count --plain # every board, one by one
//! cargo run --release --example nqueens -- 8 --all            # every solution, 1-based columns
//! cargo run --release --example nqueens -- 8 --fundamental    # one per class of symmetries: 12
//! cargo run --release --example nqueens -- 8 --all --fundamental --svg queens.svg
//! cargo run --release --example nqueens -- 8 --stats --naive  # generate and test, in numbers
//! cargo run --release --example nqueens -- 1000 --first       # large boards at once (local search)
//! cargo run --release --example nqueens -- 1000000 --first --stats  # a million queens, verified
//! cargo run --release --example nqueens -- 50 --first --engine local --seed 7  # another seed
//! cargo run --release --example nqueens -- 8 --count --tree tree.svg          # the search tree
//! cargo run --release --example nqueens -- 8 --count --naive --tree naive.svg # generate and test
//! cargo run --release --example nqueens -- 4 --count --trace  # step by step
//! cargo run --release --example nqueens -- 6 --count --animate board.html  # replayed on a board
//! cargo run --release --example nqueens -- 15 --count --threads 2   # on two threads (default: all)
//! cargo run --release --example nqueens -- 16 --count --checkpoint q16.txt  # Ctrl-C, then:
//! cargo run --release --example nqueens -- 16 --count --resume q16.txt      # finishes the count
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::queens`).

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::queens`).
pub mod model;

mod args;
mod files;
mod mpi;
mod report;
mod setup;

use std::process::ExitCode;

use ambsolve::{Stats, StopReason};
use ambsolve_examples::cli::{self, Output};
use ambsolve_examples::puzzles::queens::{attack, columns};
use ambsolve_examples::svg;
use mpi::count_on_mpi;
use report::report;

use args::{Args, check_size};
use files::Files;
use setup::Setup;

/// What was found, and whether the search ran to its end.
struct Outcome {
    count: u64,
    shown: Vec<Vec<usize>>,
    stats: Stats,
    stop: Option<StopReason>,
    /// The share of the search done, for a partial count.
    progress: f64,
    /// A search cut into subproblems: finished and in all; each thread's busy time.
    subproblems: Option<(usize, usize)>,
    workers: Vec<std::time::Duration>,
}

impl Outcome {
    /// `count` solutions, `shown` of them kept, and what `search` says of itself.
    fn of<T>(count: u64, shown: Vec<Vec<usize>>, search: &ambsolve::SearchHandle<'_, T>) -> Self {
        Outcome {
            count,
            shown,
            stats: search.stats(),
            stop: search.stop_reason(),
            progress: search.progress(),
            subproblems: search.subproblems(),
            workers: search.worker_times(),
        }
    }
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    run(&args).unwrap_or_else(|status| status)
}

/// The program; an early end (a usage error, a failed search or write) is an `Err`
/// carrying its exit status.
fn run(args: &Args) -> Result<ExitCode, ExitCode> {
    if let Err(message) = check_size(args) {
        return Err(cli::usage_error::<Args>(&message));
    }
    let files = [
        ("--svg", args.svg.as_deref()),
        ("--tree", args.tree.as_deref()),
        ("--animate", args.animate.as_deref()),
        ("--checkpoint", args.checkpoint.as_deref()),
        ("--resume", args.resume.as_deref()),
    ];
    if let Err(message) = cli::distinct_files(&files) {
        return Err(cli::usage_error::<Args>(&message));
    }
    // Open the output files first: a bad path is reported before any search.
    let mut files = Files::open(args)?;
    let setup = Setup::new(args, &files);
    if args.mpi {
        return Ok(count_on_mpi(&setup.puzzle, setup.threads, args.stats));
    }
    let mut out = Output::new();
    let outcome = search(args, &setup, files.picture.is_some(), &mut out)?;
    report(args, &setup, &outcome, &mut out)?;
    files.write(args, &setup, &outcome)?;
    out.flush();
    Ok(cli::exit_status(outcome.stop))
}

/// Runs the search: lists the solutions (printing them with --all, keeping what is to be
/// shown or drawn), or counts them with progress.
fn search(
    args: &Args,
    setup: &Setup,
    drawing: bool,
    out: &mut Output,
) -> Result<Outcome, ExitCode> {
    let keep = if drawing { svg::MAX_BOARDS } else { 0 };
    let solutions = setup.puzzle.solutions();
    if !(args.all || args.first || keep > 0) {
        let mut solutions = solutions;
        let count =
            cli::count_with_progress(&mut solutions).map_err(|error| cli::search_error(&error))?;
        return Ok(Outcome::of(count, Vec::new(), &solutions));
    }
    let mut solutions = solutions.fallible();
    let mut count = 0u64;
    let mut shown = Vec::new();
    for queens in solutions.by_ref() {
        let queens = queens.map_err(|error| {
            out.flush();
            cli::search_error(&error)
        })?;
        if let Some(status) = verify(&queens) {
            out.flush();
            return Err(status);
        }
        if args.all {
            out.line(columns(&queens));
        }
        if shown.len() < keep.max(usize::from(args.first)) {
            shown.push(queens);
        }
        count += 1;
        if args.first {
            break;
        }
    }
    Ok(Outcome::of(count, shown, &solutions))
}

/// Checks a board the search returned, independently of the model; a board with two
/// queens attacking each other is reported (status 1) instead of printed.
fn verify(queens: &[usize]) -> Option<ExitCode> {
    let (a, b) = attack(queens)?;
    cli::note(format!(
        "error: the search returned a board whose queens in rows {} and {} attack each other",
        a + 1,
        b + 1
    ));
    Some(ExitCode::FAILURE)
}
