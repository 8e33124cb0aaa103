//! Graph colouring by local search: K colours for the vertices of a big random graph, the
//! two ends of every edge different.
//!
//! ```text
//! cargo run --release --example colouring                        # 10,000 vertices, degree 6, 4 colours
//! cargo run --release --example colouring -- --vertices 100000 --stats
//! cargo run --release --example colouring -- --colours 3 --planted   # a 3-colouring is hidden in it
//! cargo run --release --example colouring -- --vertices 12 --degree 3 --colours 3 --list
//! ```

use std::process::ExitCode;
use std::time::Instant;

use ambsolve::{Engine, StopReason};
use ambsolve_examples::cli::{self, Bounds, EngineArg, Output};
use ambsolve_examples::puzzles::colouring::{Graph, colouring};
use clap::Parser;

/// Colour the vertices of a random graph with K colours so that the two ends of every edge
/// differ, by local search (min-conflicts); the colouring is checked edge by edge before it
/// is printed.
///
/// The graph is drawn from --seed: each pair of vertices as likely as any other (with 4
/// colours a colouring very likely exists up to an average degree of about 8), or with
/// --planted, with a hidden K-colouring planted so that one surely exists. Local search
/// proves nothing: if it finds no colouring within its limit (by default 1,000,000 + 50 V
/// steps), it says so, never that none exists.
#[derive(Parser, Debug)]
#[command(name = "colouring")]
struct Args {
    /// The number of vertices.
    #[arg(long, value_name = "V", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    vertices: u32,
    /// The average degree (edges per vertex).
    #[arg(long, value_name = "D", default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    degree: u32,
    /// The number of colours.
    #[arg(long, value_name = "K", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    colours: u32,
    /// Plant a hidden K-colouring in the graph, so that one exists.
    #[arg(long)]
    planted: bool,
    /// The seed of the graph and of the search.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The search engine (the trail engine proves that no colouring exists, on small
    /// graphs).
    #[arg(long, value_enum, default_value_t = EngineArg::Local)]
    engine: EngineArg,
    /// Print the colour of every vertex, one line per vertex.
    #[arg(long)]
    list: bool,
    /// Print what the search did: steps, moves, restarts, time.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    bounds: Bounds,
}

/// The complete engines are refused above this many vertices.
const COMPLETE_UP_TO: u32 = 2_000;

/// The steps local search takes when no limit is given.
fn local_budget(vertices: u32) -> u64 {
    1_000_000 + 50 * u64::from(vertices)
}

/// The FNV-1a hash (64 bits) of the colours, one byte each.
fn checksum(colours: &[usize]) -> u64 {
    colours.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &c| {
        (hash ^ c as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    if args.engine != EngineArg::Local && args.vertices > COMPLETE_UP_TO {
        return cli::usage_error::<Args>(&format!(
            "{} vertices are too many for the {} engine: at most {COMPLETE_UP_TO} (use --engine local)",
            args.vertices,
            Engine::from(args.engine)
        ));
    }
    let (v, k) = (args.vertices as usize, args.colours as usize);
    let started = Instant::now();
    let graph = if args.planted {
        Graph::planted(v, args.degree as usize, k, args.seed)
    } else {
        Graph::uniform(v, args.degree as usize, args.seed)
    };
    let engine = Engine::from(args.engine);
    let mut limits = args.bounds.limits();
    let budget = (engine == Engine::Local
        && args.bounds.node_limit.is_none()
        && args.bounds.time_limit.is_none())
    .then(|| local_budget(args.vertices));
    if let Some(steps) = budget {
        limits = limits.nodes(steps);
    }
    let puzzle = colouring(&graph, k)
        .engine(engine)
        .seed(args.seed)
        .limits(limits);
    let building = started.elapsed();

    let mut out = Output::new();
    out.line(format!(
        "graph: {v} vertices, {} edges ({}, seed {})",
        graph.edges.len(),
        if args.planted {
            format!("a {k}-colouring planted")
        } else {
            "uniform".to_string()
        },
        args.seed
    ));
    let mut solutions = puzzle.try_solutions();
    let found = match solutions.next().transpose() {
        Ok(found) => found,
        Err(error) => {
            out.flush();
            return cli::search_error(&error);
        }
    };
    let stats = solutions.stats();
    let stop = solutions.stop_reason();
    match &found {
        Some(colours) => {
            if let Some((a, b)) = graph.clash(colours, k) {
                out.flush();
                cli::note(format!(
                    "error: the search returned a colouring in which vertices {a} and {b} clash"
                ));
                return ExitCode::FAILURE;
            }
            out.line(format!(
                "colouring with {k} colours: found, verified (the ends of all {} edges differ)",
                graph.edges.len()
            ));
            let mut used = vec![0usize; k];
            for &c in colours {
                used[c] += 1;
            }
            let used: Vec<String> = used.iter().map(usize::to_string).collect();
            out.line(format!("vertices per colour: {}", used.join(", ")));
            out.line(format!(
                "checksum: {:#018x} (FNV-1a of the colours)",
                checksum(colours)
            ));
            if args.list {
                for (vertex, c) in colours.iter().enumerate() {
                    out.line(format!("{vertex} {c}"));
                }
            }
        }
        None if stop == Some(StopReason::Exhausted) => {
            out.line(format!("no colouring with {k} colours exists"));
        }
        None if engine == Engine::Local => {}
        None => {
            if let Some(line) =
                cli::partial_line(stop, 0, "colourings", &stats, solutions.progress())
            {
                out.line(line);
            }
        }
    }
    if engine == Engine::Local {
        if let Some(line) = cli::local_stop_line(
            stop,
            u64::from(found.is_some()),
            ("colouring", "colourings"),
            &stats,
            budget,
        ) {
            out.line(line);
        }
    }
    out.line(format!(
        "time: {:.3?} searching, {building:.3?} drawing the graph and building the model",
        stats.elapsed
    ));
    if args.stats {
        out.line(format!("engine: {engine}"));
        out.line(format!("steps: {}", stats.nodes));
        if engine == Engine::Local {
            out.line(format!(
                "moves: {}, of them plateau steps: {}",
                stats.moves, stats.plateau
            ));
        } else {
            out.line(format!("failures: {}", stats.failures));
        }
        out.line(format!("restarts: {}", stats.restarts));
    }
    out.flush();
    cli::exit_status(stop)
}
