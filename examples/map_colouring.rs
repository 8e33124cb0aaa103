//! Colour the seven regions of Australia with three colours, neighbours different.
//!
//! ```text
//! cargo run --release --example map_colouring
//! ```

use std::process::ExitCode;

use ambsolve_examples::cli;
use ambsolve_examples::puzzles::map_colouring::{REGIONS, australia};

fn main() -> ExitCode {
    cli::print_all(australia().try_solutions(), |out, colouring| {
        let pairs: Vec<String> = REGIONS
            .iter()
            .zip(colouring)
            .map(|(r, c)| format!("{r}={c}"))
            .collect();
        out.line(pairs.join(" "));
    })
}
