//! The 0/1 knapsack: the most valuable items that fit, on instance P07 of Kreher and
//! Stinson (15 items, capacity 750). Branch and bound finds better and better choices,
//! then proves the last one optimal.
//!
//! ```text
//! cargo run --release --example knapsack
//! cargo run --release --example knapsack -- --capacity 1000
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::knapsack`).
pub mod model;

use std::process::ExitCode;

use ambsolve_examples::cli::{self, Bounds};
use clap::Parser;
use model::{P07, P07_CAPACITY, knapsack, totals};

/// Choose among the 15 items of the knapsack instance P07 the most valuable ones whose
/// total weight is within the capacity, and prove that no choice is worth more.
#[derive(Parser, Debug)]
#[command(name = "knapsack")]
struct Args {
    /// The most the items taken may weigh in all.
    #[arg(
        long,
        value_name = "C",
        default_value_t = P07_CAPACITY,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(i64).range(0..)
    )]
    capacity: i64,
    #[command(flatten)]
    bounds: Bounds,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let puzzle = knapsack(&P07, args.capacity).limits(args.bounds.limits());
    cli::print_best(
        puzzle.try_improving(),
        ("selection", "selections"),
        |out, taken, value| {
            let (weight, _) = totals(&P07, &taken);
            let numbers: Vec<String> = taken.iter().map(|i| (i + 1).to_string()).collect();
            if numbers.is_empty() {
                out.line("items: none");
            } else {
                out.line(format!("items: {}", numbers.join(" ")));
            }
            out.line(format!("weight: {weight} of {}", args.capacity));
            out.line(format!("value: {value}"));
        },
    )
}
