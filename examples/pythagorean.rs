//! Pythagorean triples: i ≤ j ≤ k ≤ N with i² + j² = k².
//!
//! ```text
//! cargo run --release --example pythagorean -- 30
//! ```

use std::process::ExitCode;

use ambsolve_examples::cli;
use ambsolve_examples::puzzles::pythagorean::triples;
use clap::Parser;

/// Print the Pythagorean triples i ≤ j ≤ k ≤ N.
#[derive(Parser, Debug)]
#[command(name = "pythagorean")]
struct Args {
    /// The largest side (1 to 100,000).
    #[arg(value_parser = clap::value_parser!(u64).range(1..=100_000))]
    n: u64,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    cli::print_all(triples(args.n).try_solutions(), |out, (i, j, k)| {
        out.line(format!("{i}² + {j}² = {k}²"));
    })
}
