//! The 3×3 magic squares: 1 to 9, every row, column and diagonal summing to 15.
//!
//! ```text
//! cargo run --release --example magic_square
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::magic_square`).
pub mod model;

use std::process::ExitCode;

use ambsolve_examples::cli;
use clap::Parser;
use model::magic_squares;

/// Print the 8 magic squares of order 3 (1 to 9, every line summing to 15).
#[derive(Parser, Debug)]
#[command(name = "magic_square")]
struct Args {}

fn main() -> ExitCode {
    let Args {} = cli::parse();
    cli::print_all(magic_squares().try_solutions(), |out, square| {
        let rows: Vec<String> = square
            .iter()
            .map(|r| r.iter().map(i32::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        out.line(rows.join(" | "));
    })
}
