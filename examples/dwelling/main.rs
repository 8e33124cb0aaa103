//! SICP's multiple-dwelling puzzle: Baker, Cooper, Fletcher, Miller and Smith live on
//! different floors of a five-floor building. Who lives where?
//!
//! ```text
//! cargo run --release --example dwelling
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::dwelling`).
pub mod model;

use std::process::ExitCode;

use ambsolve_examples::cli;
use clap::Parser;
use model::dwelling;

/// SICP's multiple dwelling: who lives on which floor of a five-floor building.
#[derive(Parser, Debug)]
#[command(name = "dwelling")]
struct Args {}

fn main() -> ExitCode {
    let Args {} = cli::parse();
    cli::print_all(dwelling().try_solutions(), |out, floors| {
        for (name, floor) in floors {
            out.line(format!("{name} lives on floor {floor}"));
        }
    })
}
