//! Langford pairs (CSPLib problem 24): each of 1..N twice in a row of 2N places, with k
//! numbers between the two k's. Written as a user would, on either engine.
//!
//! ```text
//! cargo run --release --example langford -- 8
//! cargo run --release --example langford -- 4 --all --fundamental --engine replay --stats
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::langford`).
pub mod model;

use std::process::ExitCode;

use ambsolve::Engine;
use ambsolve_examples::cli::{self, Bounds, EngineArg, Output};
use clap::Parser;
use model::{langford, langford_up_to_reversal};

/// The largest N taken: N = 12 has 216,288 sequences, and the work grows about tenfold with
/// each N.
const MAX_N: usize = 12;

/// Count (or list) the Langford sequences of order N.
#[derive(Parser, Debug)]
#[command(name = "langford")]
struct Args {
    /// The order: each of 1..N appears twice (1 to 12).
    #[arg(value_parser = clap::value_parser!(u64).range(1..))]
    n: u64,
    /// Print every sequence, not only the count.
    #[arg(long)]
    all: bool,
    /// Count a sequence and its reverse once.
    #[arg(long)]
    fundamental: bool,
    /// The engine.
    #[arg(long, value_enum, default_value = "trail")]
    engine: EngineArg,
    /// Print what the search did (and, on replay, the order of the choices).
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    bounds: Bounds,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let Ok(n) = usize::try_from(args.n)
        .map_err(drop)
        .and_then(|n| if n <= MAX_N { Ok(n) } else { Err(()) })
    else {
        return cli::usage_error::<Args>(&format!(
            "N = {} is too large: at most {MAX_N} (the number of sequences grows about tenfold with each N)",
            args.n
        ));
    };
    let engine = Engine::from(args.engine);
    let puzzle = if args.fundamental {
        langford_up_to_reversal(n)
    } else {
        langford(n)
    }
    .engine(engine)
    .limits(args.bounds.limits());
    let mut out = Output::new();
    let mut solutions = puzzle.solutions().fallible();
    let mut count = 0u64;
    if args.all {
        for row in solutions.by_ref() {
            match row {
                Ok(row) => {
                    let cells: Vec<String> = row.iter().map(usize::to_string).collect();
                    out.line(cells.join(" "));
                    count += 1;
                }
                Err(error) => {
                    out.flush();
                    return cli::search_error(&error);
                }
            }
        }
    } else {
        match solutions.count_all() {
            Ok(found) => count = found,
            Err(error) => return cli::search_error(&error),
        }
    }
    let stop = solutions.stop_reason();
    let stats = solutions.stats();
    cli::count_lines(&mut out, count, stop, &stats, solutions.progress());
    if args.stats {
        out.line(format!("engine: {engine}"));
        out.line(format!("statistics: {stats}"));
        if engine == Engine::Replay {
            let model = puzzle.model();
            let order: Vec<String> = model
                .replay_order()
                .into_iter()
                .map(|v| model.name(v))
                .collect();
            out.line(format!("choice order: {}", order.join(" ")));
        }
    }
    out.flush();
    cli::exit_status(stop)
}
