//! SEND + MORE = MONEY: each letter a different digit, no leading zero.
//!
//! ```text
//! cargo run --release --example send_more_money
//! ```

use std::process::ExitCode;

use ambsolve_examples::cli;
use ambsolve_examples::puzzles::send_more_money::{send_more_money, spell};
use clap::Parser;

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
