//! The zebra puzzle (Einstein's riddle): five houses in a row, each with its colour,
//! owner, drink, smoke and pet. Who drinks water? Who owns the zebra?
//!
//! ```text
//! cargo run --release --example zebra
//! ```
//! Each name is a choice holding the number (1 to 5) of its house.

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::zebra`).
pub mod model;

use std::process::ExitCode;

use ambsolve_examples::cli;
use clap::Parser;
use model::zebra;

/// Solve the zebra puzzle: who drinks water, who owns the zebra?
#[derive(Parser, Debug)]
#[command(name = "zebra")]
struct Args {}

fn main() -> ExitCode {
    let Args {} = cli::parse();
    cli::print_all(zebra().try_solutions(), |out, answer| {
        out.line(format!(
            "the {} drinks water; the {} owns the zebra",
            answer.water, answer.zebra
        ));
    })
}
