//! The assignment problem with a budget: each worker a different task, the total cost read
//! from a cost table within the budget (a lookup at each chosen task).
//!
//! ```text
//! cargo run --release --example assignment -- 16
//! ```

use std::process::ExitCode;

use ambsolve_examples::cli::{self, Bounds};
use ambsolve_examples::puzzles::assignment::{COSTS, assignments, cost};
use clap::Parser;

/// Print every assignment of five workers to five tasks costing at most BUDGET, with its
/// cost, then the count.
#[derive(Parser, Debug)]
#[command(name = "assignment")]
struct Args {
    /// The most the five tasks may cost in all.
    budget: i64,
    #[command(flatten)]
    bounds: Bounds,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let puzzle = assignments(&COSTS, args.budget).limits(args.bounds.limits());
    cli::print_all(puzzle.try_solutions(), |out, tasks| {
        let named: Vec<String> = tasks.iter().map(|t| format!("task {}", t + 1)).collect();
        out.line(format!(
            "{} (cost {})",
            named.join(", "),
            cost(&COSTS, &tasks)
        ));
    })
}
