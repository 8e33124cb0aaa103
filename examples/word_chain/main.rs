//! The word-chain puzzle: pick one word from each list so that each word's last letter is
//! the next word's first letter.
//!
//! ```text
//! cargo run --release --example word_chain                      # that thing grows slowly
//! cargo run --release --example word_chain -- --file lists.txt  # one list per line
//! cargo run --release --example word_chain -- --file lists.txt --count --time-limit 10
//! cargo run --release --example word_chain -- --trace --engine replay   # step by step
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::word_chain`).
pub mod model;

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;

use ambsolve::Engine;
use ambsolve_examples::cli::{self, Bounds, EngineArg, Output};
use ambsolve_examples::puzzles::word_chain::read_lists;
use ambsolve_examples::trace::{self, Trace};
use clap::Parser;
use model::{chains, classic_lists};

/// Chain one word from each list: each word's last letter is the next word's first.
///
/// A long search shows its progress on a terminal (with --count); Ctrl-C, SIGTERM, SIGHUP,
/// --time-limit and --node-limit stop it and print what was found, marked partial (exit
/// status 130 for a signal, 0 for a limit).
#[derive(Parser, Debug)]
#[command(name = "word_chain")]
struct Args {
    /// Read the lists from FILE: one list per line, words separated by white space. Blank
    /// lines are skipped; a line holds at most 1 MiB, the file at most 100,000 words.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print only the number of chains.
    #[arg(long)]
    count: bool,
    /// The engine: trail (propagation) or replay (re-runs the choices, as ambRun).
    #[arg(long, value_enum, default_value = "trail")]
    engine: EngineArg,
    /// Print the search step by step: each word tried, each failure and why, each
    /// backtrack; on the replay engine each run and the choices it replays. At most
    /// --trace-lines lines.
    #[arg(long)]
    trace: bool,
    /// The most lines --trace prints.
    #[arg(long, value_name = "LINES", default_value_t = 400, requires = "trace")]
    trace_lines: usize,
    #[command(flatten)]
    bounds: Bounds,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let lists: Vec<Vec<String>> = match &args.file {
        None => classic_lists(),
        Some(path) => {
            let read = File::open(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|file| {
                    read_lists(BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))
                });
            match read {
                Ok(lists) => lists,
                Err(message) => return cli::input_error("word_chain", message),
            }
        }
    };
    let engine = Engine::from(args.engine);
    let mut puzzle = chains(&lists).engine(engine).limits(args.bounds.limits());
    if args.trace {
        let narrator = trace::Chain {
            lists: lists.clone(),
        };
        puzzle = puzzle.observe(Trace::new(narrator, args.trace_lines));
    }
    if !args.count {
        return cli::print_all(puzzle.try_solutions(), |out, chain| {
            out.line(chain.join(" "));
        });
    }
    let mut solutions = puzzle.solutions();
    let count = match cli::count_with_progress(&mut solutions) {
        Ok(count) => count,
        Err(error) => return cli::search_error(&error),
    };
    let stop = solutions.stop_reason();
    let mut out = Output::new();
    cli::count_lines(
        &mut out,
        count,
        stop,
        &solutions.stats(),
        solutions.progress(),
    );
    out.flush();
    cli::exit_status(stop)
}
