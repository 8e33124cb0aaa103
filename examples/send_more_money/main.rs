//! SEND + MORE = MONEY: each letter a different digit, no leading zero.
//!
//! ```text
//! cargo run --release --example send_more_money
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::send_more_money`).
pub mod model;

use std::process::ExitCode;

use ambsolve_examples::cli;
use clap::Parser;
use model::{send_more_money, spell};

/// Solve SEND + MORE = MONEY: each letter a different digit, no leading zero.
#[derive(Parser, Debug)]
#[command(name = "send_more_money")]
struct Args {}

fn main() -> ExitCode {
    let Args {} = cli::parse();
    cli::print_all(send_more_money().try_solutions(), |out, digits| {
        out.line(spell(digits));
    })
}
