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

use ambsolve::{Engine, Improvement};
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
    /// Search on K threads (1 to 1024): branch and bound shares the best length found
    /// between them, and proves the same optimum (the rulers found on the way, and which
    /// optimal ruler is printed, may differ from run to run). On a terminal, a search on
    /// several threads shows its time and best length, without counting nodes.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
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
    let threads = args.threads as usize;
    let puzzle = golomb(n)
        .engine(engine)
        .threads(threads)
        .limits(args.bounds.limits());
    let mut out = Output::new();
    let check = |ruler: &Vec<i64>, _: i64| {
        if is_golomb(ruler) && ruler.len() == n {
            Ok(())
        } else {
            Err(format!("not a Golomb ruler: {ruler:?}"))
        }
    };
    let each = |step: &Improvement<Vec<i64>>| {
        format!(
            "found length {} after {:.3?}: {}",
            step.objective,
            step.found_after,
            marks(&step.solution)
        )
    };
    let improving = match cli::improve(
        puzzle,
        &mut out,
        ("ruler", "rulers"),
        threads == 1,
        check,
        args.progress
            .then_some(&each as &dyn Fn(&Improvement<Vec<i64>>) -> String),
        |out, ruler, length| {
            out.line(format!("marks: {}", marks(&ruler)));
            out.line(format!("length: {length}"));
        },
    ) {
        Ok(improving) => improving,
        Err(status) => return status,
    };
    if args.stats {
        out.line(format!("engine: {engine}, threads: {threads}"));
        out.line(format!("statistics: {}", improving.stats()));
    }
    out.flush();
    cli::exit_status(improving.stop_reason())
}

/// The marks of a ruler, separated by spaces.
fn marks(marks: &[i64]) -> String {
    let text: Vec<String> = marks.iter().map(i64::to_string).collect();
    text.join(" ")
}
