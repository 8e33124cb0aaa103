//! The assignment problem: each worker a different task, the total cost read from a cost
//! table (a lookup at each chosen task). Lists the assignments within a budget, or, with
//! `--cheapest`, finds the cheapest one and proves it is.
//!
//! ```text
//! cargo run --release --example assignment -- 16
//! cargo run --release --example assignment -- --cheapest
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::assignment`).
pub mod model;

use std::process::ExitCode;

use ambsolve_examples::cli::{self, Bounds};
use clap::{ArgGroup, Parser};
use model::{COSTS, assignments, cheapest, cost};

/// Print every assignment of five workers to five tasks costing at most BUDGET, with its
/// cost, then the count; or, with --cheapest, the cheapest assignment.
#[derive(Parser, Debug)]
#[command(name = "assignment")]
#[command(group(ArgGroup::new("what").required(true).args(["budget", "cheapest"])))]
struct Args {
    /// The most the five tasks may cost in all.
    budget: Option<i64>,
    /// Find the cheapest assignment and prove that none is cheaper, instead of listing
    /// those within a budget.
    #[arg(long)]
    cheapest: bool,
    #[command(flatten)]
    bounds: Bounds,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    // Exactly one of the two, clap checks.
    let Some(budget) = args.budget else {
        let puzzle = cheapest(&COSTS).limits(args.bounds.limits());
        return cli::print_best(
            puzzle.try_improving(),
            ("assignment", "assignments"),
            |out, tasks, total| {
                out.line(format!("assignment: {}", named(&tasks)));
                out.line(format!("cost: {total}"));
            },
        );
    };
    let puzzle = assignments(&COSTS, budget).limits(args.bounds.limits());
    cli::print_all(puzzle.try_solutions(), |out, tasks| {
        out.line(format!("{} (cost {})", named(&tasks), cost(&COSTS, &tasks)));
    })
}

/// `task 2, task 5, ..`: the task of each worker in turn, counted from 1.
fn named(tasks: &[usize]) -> String {
    let named: Vec<String> = tasks.iter().map(|t| format!("task {}", t + 1)).collect();
    named.join(", ")
}
