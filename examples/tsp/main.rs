//! The travelling salesman: the shortest tour through every city, proved shortest by
//! branch and bound. The model is in `model.rs`, beside this file.
//!
//! ```text
//! cargo run --release --example tsp -- --cities 12 --seed 1
//! cargo run --release --example tsp -- path/to/instance.tsp --progress
//! ```

mod model;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ambsolve::{Engine, Improvement};
use ambsolve_examples::cli::{self, Bounds, Output};
use ambsolve_examples::input;
use ambsolve_examples::puzzles::tsp::{self, Instance, MAX_CITIES};
use clap::Parser;

/// Find the shortest tour through every city and prove it shortest: a seeded random
/// instance (cities on a 1000 × 1000 grid, Euclidean distances rounded), or a TSPLIB file.
///
/// Prints the tour (cities numbered from 1, from city 1 back to it) and `length: L`.
/// Each two cities more take about five times as long (BENCHMARKS.md has the times);
/// beyond a few hundred cities even the first tour is slow to come (up to 1000 are read).
/// A limit, Ctrl-C, SIGTERM or SIGHUP stops the search and prints the best tour found, marked
/// partial and not proved optimal (exit status 130 for a signal). A file that cannot be
/// read is an error naming its line (exit status 2).
#[derive(Parser, Debug)]
#[command(name = "tsp")]
struct Args {
    /// A TSPLIB file (`EUC_2D`, `CEIL_2D` or `ATT` coordinates, or `EXPLICIT` weights as
    /// `FULL_MATRIX`, `UPPER_ROW`, `LOWER_ROW`, `UPPER_DIAG_ROW` or `LOWER_DIAG_ROW`); `-`
    /// reads standard input. Without it, a random instance.
    file: Option<PathBuf>,
    /// The number of cities of the random instance (2 to 1000).
    #[arg(long, conflicts_with = "file", value_parser = clap::value_parser!(u64).range(2..=MAX_CITIES as u64))]
    cities: Option<u64>,
    /// The seed of the random instance: the same seed, the same cities.
    #[arg(long, conflicts_with = "file", default_value_t = 1)]
    seed: u64,
    /// Print each shorter tour's length as it is found, with the time.
    #[arg(long)]
    progress: bool,
    /// Print what the search did.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    bounds: Bounds,
}

/// The number of cities of a random instance when `--cities` is not given.
const DEFAULT_CITIES: u64 = 10;

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let instance = match &args.file {
        Some(path) => match read(path) {
            Ok(instance) => instance,
            Err(message) => return cli::input_error("tsp", message),
        },
        None => tsp::random(args.cities.unwrap_or(DEFAULT_CITIES) as usize, args.seed),
    };
    let mut out = Output::new();
    out.line(format!(
        "instance: {}, {} cities",
        instance.name,
        instance.cities()
    ));
    let puzzle = model::tsp(&instance.dist)
        .engine(Engine::Trail)
        .limits(args.bounds.limits());
    let check = |succ: &Vec<usize>, length: i64| {
        if instance.length(succ) == length {
            Ok(())
        } else {
            Err("the tour's length is not the objective's value".to_string())
        }
    };
    let each = |step: &Improvement<Vec<usize>>| {
        format!(
            "found length {} after {:.3?}",
            step.objective, step.found_after
        )
    };
    let improving = match cli::improve(
        puzzle,
        &mut out,
        ("tour", "tours"),
        true,
        check,
        args.progress
            .then_some(&each as &dyn Fn(&Improvement<Vec<usize>>) -> String),
        |out, succ, length| {
            out.line(format!("tour: {}", tour(&succ)));
            out.line(format!("length: {length}"));
        },
    ) {
        Ok(improving) => improving,
        Err(status) => return status,
    };
    let stop = improving.stop_reason();
    if args.stats {
        out.line(format!("statistics: {}", improving.stats()));
    }
    out.flush();
    cli::exit_status(stop)
}

/// The instance of a TSPLIB file (`-`: standard input), or why it cannot be read.
fn read(path: &Path) -> Result<Instance, String> {
    let (name, reader) = input::open(path)?;
    tsp::parse_tsplib(reader).map_err(|e| format!("{name}: {e}"))
}

/// The tour from city 1 back to it, cities numbered from 1.
fn tour(succ: &[usize]) -> String {
    let mut cities = vec![1];
    let mut at = succ.first().copied().unwrap_or(0);
    while at != 0 && cities.len() <= succ.len() {
        cities.push(at + 1);
        at = succ[at];
    }
    cities.push(1);
    let text: Vec<String> = cities.iter().map(usize::to_string).collect();
    text.join(" ")
}
