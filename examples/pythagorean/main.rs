//! Pythagorean triples: i ≤ j ≤ k ≤ N with i² + j² = k².
//!
//! ```text
//! cargo run --release --example pythagorean -- 30
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::pythagorean`).
pub mod model;

use std::process::ExitCode;

use ambsolve_examples::cli::{self, Bounds};
use clap::Parser;
use model::triples;

/// The largest N taken: the search tries the N³/6 triples i ≤ j ≤ k one by one.
const MAX_N: u64 = 2_000;

/// Print the Pythagorean triples i ≤ j ≤ k ≤ N.
///
/// Ctrl-C, SIGTERM, SIGHUP, --time-limit and --node-limit stop the search and print the
/// count of the triples found, marked partial (exit status 130 for a signal, 0 for a
/// limit).
#[derive(Parser, Debug)]
#[command(name = "pythagorean")]
struct Args {
    /// The largest side (1 to 2,000: the search is cubic in N).
    #[arg(value_parser = clap::value_parser!(u64).range(1..))]
    n: u64,
    #[command(flatten)]
    bounds: Bounds,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    if args.n > MAX_N {
        return cli::usage_error::<Args>(&format!(
            "N = {} is too large: at most {MAX_N} (the search tries all N³/6 triples i ≤ j ≤ k)",
            args.n
        ));
    }
    let puzzle = triples(args.n).limits(args.bounds.limits());
    cli::print_all(puzzle.try_solutions(), |out, (i, j, k)| {
        out.line(format!("{i}² + {j}² = {k}²"));
    })
}
