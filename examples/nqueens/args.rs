//! The command line of nqueens: its arguments, and which go together and up to which size.

use std::path::PathBuf;

use ambsolve_examples::cli::{Bounds, EngineArg};
use clap::Parser;

/// Place N queens on an N×N board so that no two attack each other.
///
/// A count that runs longer than a second shows its progress on a terminal. Ctrl-C,
/// SIGTERM, SIGHUP, --time-limit and --node-limit stop a search and print what was found,
/// marked partial (exit status 130 for a signal, 0 for a limit). Sizes a mode cannot handle
/// in about a minute are refused (exit status 2).
///
/// Every board is checked (columns and diagonals all distinct) before it is printed. With
/// --first, a board above 1000 queens is printed as a checksum line, with the time; --all
/// prints every board as its columns, whatever its size.
#[derive(Parser, Debug)]
#[command(name = "nqueens")]
pub(crate) struct Args {
    /// Board size (at least 1).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub(crate) n: u32,
    /// Print only the number of solutions.
    #[arg(long, group = "mode")]
    pub(crate) count: bool,
    /// Print every solution as a list of 1-based columns, then the count.
    #[arg(long, group = "mode")]
    pub(crate) all: bool,
    /// Print only the first solution found: by local search above N = 100 (where it is the
    /// faster, see BENCHMARKS.md), else by first-fail on the trail engine, unless --engine
    /// says otherwise.
    #[arg(long, group = "mode")]
    pub(crate) first: bool,
    /// Count (or list) one solution per class of the 8 symmetries of the board.
    #[arg(long)]
    pub(crate) fundamental: bool,
    /// Count every solution one by one. By default a count searches one solution per
    /// class of the 8 symmetries of the board and counts each as the size of its class
    /// (the same number, sooner); a trace, a tree, an animation or --naive always watch
    /// the plain search.
    #[arg(long)]
    pub(crate) plain: bool,
    /// The search engine [default: trail; for --first above N = 100, local]. Local search
    /// (min-conflicts) finds solutions of huge boards but proves nothing: it cannot count,
    /// and it stops on a limit (by default a budget of 1,000,000 + 20 N steps).
    #[arg(long, value_enum)]
    pub(crate) engine: Option<EngineArg>,
    /// The seed of local search's random choices (the same seed gives the same board).
    #[arg(long, value_name = "S")]
    pub(crate) seed: Option<u64>,
    /// Check the constraints only once all queens are placed (generate and test).
    #[arg(long)]
    pub(crate) naive: bool,
    /// Print what the search did: nodes, failures, propagations or replays, depth, time.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Draw the solutions (at most 240) into an SVG file.
    #[arg(long, value_name = "FILE")]
    pub(crate) svg: Option<PathBuf>,
    /// Draw the tree of choices of the search into an SVG file: nodes by depth (labelled
    /// with their column), failures, solutions, values ruled out before each choice; big
    /// trees are cut into triangles labelled with their size. With --naive: the generate
    /// and test tree.
    #[arg(long, value_name = "FILE")]
    pub(crate) tree: Option<PathBuf>,
    /// Write an HTML page that replays the search on the board, step by step (N up to 8;
    /// the first 20,000 steps).
    #[arg(long, value_name = "FILE")]
    pub(crate) animate: Option<PathBuf>,
    /// Print the search step by step (rows top-down, columns left to right): each queen
    /// tried, each failure and why, each backtrack; on the replay engine each run and the
    /// choices it replays. At most --trace-lines lines.
    #[arg(long)]
    pub(crate) trace: bool,
    /// The most lines --trace prints.
    #[arg(long, value_name = "LINES", default_value_t = 400, requires = "trace")]
    pub(crate) trace_lines: usize,
    /// Search on K threads (default: every core; one with --first). The search is cut
    /// into subproblems; counts, the order of solutions and the first solution are those
    /// of one thread. A traced or drawn search, and --first on the trail engine
    /// (restarts), run on one thread whatever K is.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) threads: Option<u32>,
    /// Make the count resumable: record each finished subproblem and its count in FILE
    /// (rewritten atomically as each one finishes; a FILE that exists must be a regular
    /// file). After Ctrl-C, a limit or a crash, --resume FILE finishes the count. The
    /// nodes spent cutting the search into subproblems (a few hundred) count against
    /// --node-limit, and are spent whole even under a smaller limit, so that FILE can be
    /// written.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Count over the processes of an MPI job: `mpirun -np K nqueens N --count --mpi`
    /// (build with `--features mpi`). Rank 0 cuts the search into subproblems and hands
    /// them out; each process runs --threads of them at once (default 1 with --mpi: one
    /// process per core). Goes with --checkpoint and --resume. --time-limit and
    /// --node-limit hold for the whole job (the nodes are shared out as subproblems are
    /// handed out: the job stops, never later, when one uses up its share); a limit, or
    /// Ctrl-C or SIGTERM to mpirun, makes rank 0 print what was summed, marked partial.
    #[arg(long)]
    pub(crate) mpi: bool,
    /// Finish a count from the checkpoint FILE (written by --checkpoint for the same N,
    /// engine and options; another, or a corrupted one, is refused), recording progress
    /// in it as it goes.
    #[arg(long, value_name = "FILE")]
    pub(crate) resume: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) bounds: Bounds,
}

/// Above this size, --first uses local search unless --engine says otherwise: from about
/// N = 50 it finds a first board faster than first-fail on the trail engine (BENCHMARKS.md,
/// "Local search", has the two side by side).
const LOCAL_ABOVE: u32 = 100;

/// The steps local search takes when no limit is given: enough for any board it solves
/// (a first solution of N queens takes about N + 4,000 steps at N = 10^7, under 2,000
/// for every N up to 1000), few enough that N = 2 and N = 3, which have none, end in a
/// fraction of a second.
pub(crate) fn local_budget(n: u32) -> u64 {
    1_000_000 + 20 * u64::from(n)
}

/// The engine the arguments ask for.
pub(crate) fn engine_of(args: &Args) -> EngineArg {
    match args.engine {
        Some(engine) => engine,
        None if args.first && args.n > LOCAL_ABOVE => EngineArg::Local,
        None => EngineArg::Trail,
    }
}

/// The largest board each mode takes, and why; what goes with what.
pub(crate) fn check_size(args: &Args) -> Result<(), String> {
    let n = args.n;
    let engine = engine_of(args);
    let resumable = args.checkpoint.is_some() || args.resume.is_some();
    let watched = args.trace || args.tree.is_some() || args.animate.is_some();
    if args.mpi {
        if !cfg!(feature = "mpi") {
            return Err("this nqueens was built without MPI: build it with \
                 `cargo build --release --features mpi --example nqueens`"
                .into());
        }
        if args.all || args.first || args.svg.is_some() || watched || args.naive {
            return Err(
                "--mpi counts: it goes with --count, --checkpoint and --resume only".into(),
            );
        }
    }
    if resumable && (args.all || args.first || args.svg.is_some() || watched) {
        return Err(
            "--checkpoint and --resume make a count resumable: they go with counting only \
             (not with --all, --first, --svg, --trace, --tree or --animate)"
                .into(),
        );
    }
    let limit = |max: u32, why: &str| {
        if n > max {
            Err(format!("N = {n} is too large {why}: at most {max}"))
        } else {
            Ok(())
        }
    };
    if engine == EngineArg::Local {
        let mut refused = Vec::new();
        if !args.first && !args.all {
            refused.push("counting (use --first, or --all to list what it finds)");
        }
        if args.fundamental {
            refused.push("--fundamental");
        }
        if args.naive {
            refused.push("--naive");
        }
        if watched {
            refused.push("--trace, --tree or --animate (it has no tree of choices)");
        }
        if resumable {
            refused.push("--checkpoint or --resume");
        }
        if !refused.is_empty() {
            return Err(format!(
                "local search proves nothing and has no tree: it does not go with {}",
                refused.join(", ")
            ));
        }
    }
    if args.naive {
        limit(
            9,
            "with --naive, which tries all N^N boards (9^9 is already 387 million)",
        )?;
    }
    if args.svg.is_some() {
        limit(100, "to draw")?;
    }
    if args.animate.is_some() {
        limit(8, "to animate")?;
    }
    match (args.first, engine) {
        (_, EngineArg::Local) => {
            limit(10_000_000, "for local search (time and memory grow with N)")
        }
        (true, EngineArg::Trail) => limit(
            20_000,
            "for --first on the trail engine (time and memory grow with N²)",
        ),
        (true, EngineArg::Replay) => limit(
            32,
            "for --first on the replay engine, which has no first-fail",
        ),
        (false, EngineArg::Trail) => limit(20, "to count or list (the count for 20 is 39 billion)"),
        (false, EngineArg::Replay) => limit(
            15,
            "to count or list on the replay engine, which has no propagation",
        ),
    }
}

/// Whether the arguments ask for a count (no list, no first solution, no picture).
pub(crate) fn counting(args: &Args) -> bool {
    !args.all && !args.first && args.svg.is_none()
}

/// What is counted: solutions, or fundamental ones.
pub(crate) fn what(args: &Args) -> &'static str {
    if args.fundamental {
        "fundamental solutions"
    } else {
        "solutions"
    }
}
