//! The Golomb ruler (CSPLib problem 6): N marks, every distance between two marks
//! different, as short as possible. Branch and bound finds shorter and shorter rulers,
//! then proves the last one optimal.
//!
//! ```text
//! cargo run --release --example golomb -- 9
//! cargo run --release --example golomb -- 10 --progress
//! cargo run --release --example golomb -- 12 --time-limit 10
//! ```

// The model, in `model.rs` beside this file (`pub`: the tests and benches include the same
// file as `ambsolve_examples::puzzles::golomb`).
pub mod model;

use std::process::ExitCode;

use ambsolve::Engine;
use ambsolve_examples::cli::{self, Bounds, EngineArg, Output};
use ambsolve_examples::puzzles::golomb::is_golomb;
use clap::Parser;
use model::golomb;

/// The most marks taken. The time to prove the optimum grows about tenfold with each mark
/// (BENCHMARKS.md has the times); on large rulers the search still improves its ruler
/// until a limit or Ctrl-C stops it, and prints the best found.
const MAX_N: u64 = 40;

/// Find the shortest Golomb ruler with N marks, and prove it is the shortest.
///
/// The time to prove grows about tenfold with each mark (the replay engine, without
/// propagation, is much slower than the trail engine).
/// A limit, Ctrl-C, SIGTERM or SIGHUP stops the search and prints the best ruler found,
/// marked partial and not proved optimal (exit status 130 for a signal). On a terminal, a
/// search that runs for more than a second shows its time, nodes and best length so far
/// on standard error.
#[derive(Parser, Debug)]
#[command(name = "golomb")]
struct Args {
    /// The number of marks (1 to 40).
    #[arg(value_parser = clap::value_parser!(u64).range(1..=MAX_N))]
    n: u64,
    /// Print each shorter ruler as it is found, with the time.
    #[arg(long)]
    progress: bool,
    /// The engine: trail or replay (local search does not optimise: it proves nothing).
    #[arg(long, value_enum, default_value = "trail")]
    engine: EngineArg,
    /// Print what the search did.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    bounds: Bounds,
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    if args.engine == EngineArg::Local {
        return cli::usage_error::<Args>(
            "local search does not optimise (it proves nothing, not even optimality): use \
             --engine trail or replay",
        );
    }
    let engine = Engine::from(args.engine);
    let n = args.n as usize;
    let mut puzzle = golomb(n).engine(engine).limits(args.bounds.limits());
    let progress = cli::Progress::on_terminal();
    if let Some(progress) = &progress {
        puzzle = puzzle.observe(progress.observer());
    }
    let mut out = Output::new();
    let mut improving = puzzle.try_improving();
    let mut best = None;
    let mut found = 0u64;
    for step in improving.by_ref() {
        let step = match step {
            Ok(step) => step,
            Err(error) => {
                out.flush();
                return cli::search_error(&error);
            }
        };
        if !is_golomb(&step.solution) || step.solution.len() != n {
            out.flush();
            cli::note(format!("error: not a Golomb ruler: {:?}", step.solution));
            return ExitCode::FAILURE;
        }
        if let Some(progress) = &progress {
            progress.clear();
            progress.note(format!(", best length {} so far", step.objective));
        }
        if args.progress {
            out.line(format!(
                "found length {} after {:.3?}: {}",
                step.objective,
                step.found_after,
                marks(&step.solution)
            ));
            out.flush();
        }
        found += 1;
        best = Some(step);
    }
    if let Some(progress) = &progress {
        progress.clear();
    }
    cli::best_lines(
        &mut out,
        &improving,
        best,
        found,
        ("ruler", "rulers"),
        |out, ruler, length| {
            out.line(format!("marks: {}", marks(&ruler)));
            out.line(format!("length: {length}"));
        },
    );
    let stop = improving.stop_reason();
    if args.stats {
        out.line(format!("engine: {engine}"));
        out.line(format!("statistics: {}", improving.stats()));
    }
    out.flush();
    cli::exit_status(stop)
}

fn marks(marks: &[i64]) -> String {
    let text: Vec<String> = marks.iter().map(i64::to_string).collect();
    text.join(" ")
}
