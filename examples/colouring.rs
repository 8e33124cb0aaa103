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
use ambsolve_examples::puzzles::colouring::{Graph, colouring_until};
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
///
/// The graph and its model take memory in proportion to the edges (V × D / 2): about
/// 700 bytes an edge (1,300 on the trail engine) and 64 a vertex. A size whose estimate
/// exceeds 16 GiB, or the memory this machine has available, is refused before anything
/// is drawn (--vertices 1000000 --degree 100 would need about 35 GB).
///
/// Ctrl-C, SIGTERM or SIGHUP stop any phase, drawing the graph and building the model
/// included (exit status 130). On a terminal a complete search (trail or replay engine)
/// that runs for more than a second shows its time and nodes on standard error.
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

/// The most memory a graph and its model may take, whatever the machine has.
const MEMORY_BOUND: u64 = 16 << 30;

/// The memory the graph of `vertices` vertices and average degree `degree` and its model
/// take on `engine`, estimated (measured: about 600 bytes an edge on local search and
/// replay, 1,200 on the trail engine, 40 bytes a vertex; rounded up).
fn memory_estimate(vertices: u32, degree: u32, engine: Engine) -> u64 {
    let edges = Graph::edges_of(vertices as usize, degree as usize);
    let per_edge = if engine == Engine::Trail { 1_300 } else { 700 };
    edges.saturating_mul(per_edge) + 64 * u64::from(vertices)
}

/// The memory available on this machine (`MemAvailable`, Linux), if known.
fn memory_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = info
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Why a graph of this size is refused for its memory, if it is.
fn too_big(args: &Args, engine: Engine) -> Option<String> {
    let needed = memory_estimate(args.vertices, args.degree, engine);
    let gb = |bytes: u64| bytes as f64 / 1e9;
    let (bound, what) = match memory_available() {
        Some(free) if free < MEMORY_BOUND => (free, "the memory available on this machine"),
        _ => (MEMORY_BOUND, "the bound of 16 GiB"),
    };
    (needed > bound).then(|| {
        format!(
            "--vertices {} --degree {} would take about {:.1} GB ({} edges), more than {what} \
             ({:.1} GB): use fewer vertices or a smaller degree",
            args.vertices,
            args.degree,
            gb(needed),
            Graph::edges_of(args.vertices as usize, args.degree as usize),
            gb(bound)
        )
    })
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
    let engine = Engine::from(args.engine);
    if let Some(message) = too_big(&args, engine) {
        return cli::usage_error::<Args>(&message);
    }
    // Signals stop every phase: drawing and building read the flag too.
    let interrupt = cli::interrupt_flag();
    let (v, k) = (args.vertices as usize, args.colours as usize);
    let started = Instant::now();
    let size = (v, args.degree as usize, k);
    let graph = Graph::draw_until(size, args.planted, args.seed, &interrupt);
    if interrupt.is_cancelled() {
        return interrupted("drawing the graph");
    }
    let mut limits = args.bounds.limits();
    let budget = (engine == Engine::Local
        && args.bounds.node_limit.is_none()
        && args.bounds.time_limit.is_none())
    .then(|| local_budget(args.vertices));
    if let Some(steps) = budget {
        limits = limits.nodes(steps);
    }
    let mut puzzle = colouring_until(&graph, k, &interrupt)
        .engine(engine)
        .seed(args.seed)
        .limits(limits);
    if interrupt.is_cancelled() {
        return interrupted("building the model");
    }
    let building = started.elapsed();
    let progress = cli::Progress::on_terminal();
    if engine != Engine::Local {
        if let Some(progress) = &progress {
            puzzle = puzzle.observe(progress.observer());
        }
    }

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
    out.flush();
    let mut solutions = puzzle.try_solutions();
    let found = match solutions.next().transpose() {
        Ok(found) => found,
        Err(error) => {
            out.flush();
            return cli::search_error(&error);
        }
    };
    if let Some(progress) = &progress {
        progress.clear();
    }
    let stats = solutions.stats();
    let stop = solutions.stop_reason();
    match &found {
        Some(colours) => {
            if let Err(status) = print_colouring(&mut out, &graph, colours, k, args.list) {
                return status;
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
        print_stats(&mut out, engine, &stats);
    }
    out.flush();
    cli::exit_status(stop)
}

/// Checks the colouring found against the graph, independently of the model (a clash is
/// an error, status 1), then prints it: the colours used, a checksum, and with `list`
/// each vertex's colour.
fn print_colouring(
    out: &mut Output,
    graph: &Graph,
    colours: &[usize],
    k: usize,
    list: bool,
) -> Result<(), ExitCode> {
    if let Some((a, b)) = graph.clash(colours, k) {
        out.flush();
        cli::note(format!(
            "error: the search returned a colouring in which vertices {a} and {b} clash"
        ));
        return Err(ExitCode::FAILURE);
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
    if list {
        for (vertex, c) in colours.iter().enumerate() {
            out.line(format!("{vertex} {c}"));
        }
    }
    Ok(())
}

/// What the search did.
fn print_stats(out: &mut Output, engine: Engine, stats: &ambsolve::Stats) {
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

/// A signal stopped the program while it was `doing` something before the search: says
/// so, and gives the status 130.
fn interrupted(doing: &str) -> ExitCode {
    let mut out = Output::new();
    out.line(format!(
        "partial: interrupted by Ctrl-C, SIGTERM or SIGHUP while {doing}; no search was run"
    ));
    out.flush();
    ExitCode::from(cli::INTERRUPTED)
}
