//! Colour the seven regions of Australia with three colours, neighbours different.
//!
//! ```text
//! cargo run --release --example map_colouring
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::map_colouring`).
pub mod model;

use std::process::ExitCode;

use ambsolve_examples::cli;
use clap::Parser;
use model::{REGIONS, australia};

/// Colour Australia's seven regions with three colours, neighbours different: all 18 ways.
#[derive(Parser, Debug)]
#[command(name = "map_colouring")]
struct Args {}

fn main() -> ExitCode {
    let Args {} = cli::parse();
    cli::print_all(australia().try_solutions(), |out, colouring| {
        let pairs: Vec<String> = REGIONS
            .iter()
            .zip(colouring)
            .map(|(r, c)| format!("{r}={c}"))
            .collect();
        out.line(pairs.join(" "));
    })
}
