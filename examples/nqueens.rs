//! n-queens: place N queens on an N×N board so that no two attack each other.
//!
//! ```text
//! cargo run --release --example nqueens -- 8                  # count, then draw the first
//! cargo run --release --example nqueens -- 14 --count --stats # one board per class, weighed
//! cargo run --release --example nqueens -- 14 --count --plain # every board, one by one
//! cargo run --release --example nqueens -- 8 --all            # every solution, 1-based columns
//! cargo run --release --example nqueens -- 8 --fundamental    # one per class of symmetries: 12
//! cargo run --release --example nqueens -- 8 --all --fundamental --svg queens.svg
//! cargo run --release --example nqueens -- 8 --stats --naive  # generate and test, in numbers
//! cargo run --release --example nqueens -- 1000 --first       # large boards at once (local search)
//! cargo run --release --example nqueens -- 1000000 --first --stats  # a million queens, verified
//! cargo run --release --example nqueens -- 50 --first --engine local --seed 7  # another seed
//! cargo run --release --example nqueens -- 8 --count --tree tree.svg          # the search tree
//! cargo run --release --example nqueens -- 8 --count --naive --tree naive.svg # generate and test
//! cargo run --release --example nqueens -- 4 --count --trace  # step by step
//! cargo run --release --example nqueens -- 6 --count --animate board.html  # replayed on a board
//! cargo run --release --example nqueens -- 15 --count --threads 2   # on two threads (default: all)
//! cargo run --release --example nqueens -- 16 --count --checkpoint q16.txt  # Ctrl-C, then:
//! cargo run --release --example nqueens -- 16 --count --resume q16.txt      # finishes the count
//! ```

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ambsolve::{
    Checking, Engine, Event, Limits, Observer, Recorder, SearchTree, Stats, StopReason,
};
use ambsolve_examples::cli::{self, Bounds, EngineArg, Output};
use ambsolve_examples::puzzles::queens::{
    attack, board, checksum, columns, count_strategy, first_strategy, fundamental_queens, queens,
    queens_through_symmetry,
};
use ambsolve_examples::trace::{self, Trace};
use ambsolve_examples::{animate, svg};
use clap::Parser;

/// Place N queens on an N×N board so that no two attack each other.
///
/// A count that runs longer than a second shows its progress on a terminal. Ctrl-C,
/// SIGTERM, SIGHUP, --time-limit and --node-limit stop a search and print what was found,
/// marked partial (exit status 130 for a signal, 0 for a limit). Sizes a mode cannot handle
/// in about a minute are refused (exit status 2).
///
/// Every board is checked (columns and diagonals all distinct) before it is printed;
/// boards above 1000 queens are printed as a checksum line, with the time, unless --all
/// asks for their columns.
#[derive(Parser, Debug)]
#[command(name = "nqueens")]
struct Args {
    /// Board size (at least 1).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    n: u32,
    /// Print only the number of solutions.
    #[arg(long, group = "mode")]
    count: bool,
    /// Print every solution as a list of 1-based columns, then the count.
    #[arg(long, group = "mode")]
    all: bool,
    /// Print only the first solution found: by local search above N = 100 (where it is
    /// faster: 0.7 ms against 21 ms at N = 1000), else by first-fail on the trail engine,
    /// unless --engine says otherwise.
    #[arg(long, group = "mode")]
    first: bool,
    /// Count (or list) one solution per class of the 8 symmetries of the board.
    #[arg(long)]
    fundamental: bool,
    /// Count every solution one by one. By default a count searches one solution per
    /// class of the 8 symmetries of the board and counts each as the size of its class
    /// (the same number, sooner); a trace, a tree, an animation or --naive always watch
    /// the plain search.
    #[arg(long)]
    plain: bool,
    /// The search engine [default: trail; for --first above N = 100, local]. Local search
    /// (min-conflicts) finds solutions of huge boards but proves nothing: it cannot count,
    /// and it stops on a limit (by default a budget of 1,000,000 + 20 N steps).
    #[arg(long, value_enum)]
    engine: Option<EngineArg>,
    /// The seed of local search's random choices (the same seed gives the same board).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Check the constraints only once all queens are placed (generate and test).
    #[arg(long)]
    naive: bool,
    /// Print what the search did: nodes, failures, propagations or replays, depth, time.
    #[arg(long)]
    stats: bool,
    /// Draw the solutions (at most 240) into an SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Draw the tree of choices of the search into an SVG file: nodes by depth (labelled
    /// with their column), failures, solutions, values ruled out before each choice; big
    /// trees are cut into triangles labelled with their size. With --naive: the generate
    /// and test tree.
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,
    /// Write an HTML page that replays the search on the board, step by step (N up to 8;
    /// the first 20,000 steps).
    #[arg(long, value_name = "FILE")]
    animate: Option<PathBuf>,
    /// Print the search step by step (rows top-down, columns left to right): each queen
    /// tried, each failure and why, each backtrack; on the replay engine each run and the
    /// choices it replays. At most --trace-lines lines.
    #[arg(long)]
    trace: bool,
    /// The most lines --trace prints.
    #[arg(long, value_name = "LINES", default_value_t = 400, requires = "trace")]
    trace_lines: usize,
    /// Search on K threads (default: every core). The search is cut into subproblems;
    /// counts, the order of solutions and the first solution are those of one thread.
    /// A traced or drawn search, and --first (restarts), run on one thread.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Make the count resumable: record each finished subproblem and its count in FILE
    /// (rewritten atomically as each one finishes; a FILE that exists must be a regular
    /// file). After Ctrl-C, a limit or a crash, --resume FILE finishes the count. The
    /// nodes spent cutting the search into subproblems (a few hundred) count against
    /// --node-limit, and are spent whole even under a smaller limit, so that FILE can be
    /// written.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    checkpoint: Option<PathBuf>,
    /// Count over the processes of an MPI job: `mpirun -np K nqueens N --count --mpi`
    /// (build with `--features mpi`). Rank 0 cuts the search into subproblems and hands
    /// them out; each process runs --threads of them at once (default 1 with --mpi: one
    /// process per core). Goes with --checkpoint and --resume. --time-limit and
    /// --node-limit hold for the whole job (the nodes are shared out as subproblems are
    /// handed out: the job stops, never later, when one uses up its share); a limit, or
    /// Ctrl-C or SIGTERM to mpirun, makes rank 0 print what was summed, marked partial.
    #[arg(long)]
    mpi: bool,
    /// Finish a count from the checkpoint FILE (written by --checkpoint for the same N,
    /// engine and options; another, or a corrupted one, is refused), recording progress
    /// in it as it goes.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    #[command(flatten)]
    bounds: Bounds,
}

/// Above this size, --first uses local search unless --engine says otherwise: from about
/// N = 50 it finds a first board faster than first-fail on the trail engine (N = 100:
/// 0.08 ms against 0.2 ms; N = 1000: 0.7 ms against 21 ms; N = 5000: 1.6 ms against 1 s).
const LOCAL_ABOVE: u32 = 100;

/// Boards above this size are printed as a checksum line, not drawn.
const DRAWN_UP_TO: usize = 1000;

/// The steps local search takes when no limit is given: enough for any board it solves
/// (a first solution of N queens takes about N + 4,000 steps at N = 10^7, under 2,000
/// for every N up to 1000), few enough that N = 2 and N = 3, which have none, end in a
/// fraction of a second.
fn local_budget(n: u32) -> u64 {
    1_000_000 + 20 * u64::from(n)
}

/// The engine the arguments ask for.
fn engine_of(args: &Args) -> EngineArg {
    match args.engine {
        Some(engine) => engine,
        None if args.first && args.n > LOCAL_ABOVE => EngineArg::Local,
        None => EngineArg::Trail,
    }
}

/// The largest board each mode takes, and why; what goes with what.
fn check_size(args: &Args) -> Result<(), String> {
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
        (_, EngineArg::Local) => limit(
            10_000_000,
            "for local search (10,000,000 takes about 15 s and 1 GB)",
        ),
        (true, EngineArg::Trail) => limit(
            20_000,
            "for --first on the trail engine (time and memory grow with N²: 34 s and 0.9 GB at 20,000)",
        ),
        (true, EngineArg::Replay) => limit(
            32,
            "for --first on the replay engine, which has no first-fail (32 takes about 40 s)",
        ),
        (false, EngineArg::Trail) => limit(20, "to count or list (the count for 20 is 39 billion)"),
        (false, EngineArg::Replay) => limit(
            15,
            "to count or list on the replay engine (15 takes about 45 s)",
        ),
    }
}

/// What was found, and whether the search ran to its end.
struct Outcome {
    count: u64,
    shown: Vec<Vec<usize>>,
    stats: Stats,
    stop: Option<StopReason>,
    /// The share of the search done, for a partial count.
    progress: f64,
    /// A search cut into subproblems: finished and in all; each thread's busy time.
    subproblems: Option<(usize, usize)>,
    workers: Vec<std::time::Duration>,
}

impl Outcome {
    /// `count` solutions, `shown` of them kept, and what `search` says of itself.
    fn of<T>(count: u64, shown: Vec<Vec<usize>>, search: &ambsolve::SearchHandle<'_, T>) -> Self {
        Outcome {
            count,
            shown,
            stats: search.stats(),
            stop: search.stop_reason(),
            progress: search.progress(),
            subproblems: search.subproblems(),
            workers: search.worker_times(),
        }
    }
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    run(&args).unwrap_or_else(|status| status)
}

/// The program; an early end (a usage error, a failed search or write) is an `Err`
/// carrying its exit status.
fn run(args: &Args) -> Result<ExitCode, ExitCode> {
    if let Err(message) = check_size(args) {
        return Err(cli::usage_error::<Args>(&message));
    }
    let files = [
        ("--svg", args.svg.as_deref()),
        ("--tree", args.tree.as_deref()),
        ("--animate", args.animate.as_deref()),
        ("--checkpoint", args.checkpoint.as_deref()),
        ("--resume", args.resume.as_deref()),
    ];
    if let Err(message) = cli::distinct_files(&files) {
        return Err(cli::usage_error::<Args>(&message));
    }
    // Open the output files first: a bad path is reported before any search.
    let mut files = Files::open(args)?;
    let setup = Setup::new(args, &files);
    if args.mpi {
        return Ok(count_on_mpi(&setup.puzzle, setup.threads, args.stats));
    }
    let mut out = Output::new();
    let outcome = search(args, &setup, files.picture.is_some(), &mut out)?;
    report(args, &setup, &outcome, &mut out)?;
    files.write(args, &setup, &outcome)?;
    out.flush();
    Ok(cli::exit_status(outcome.stop))
}

/// The files the program writes pictures and pages to, opened before the search.
struct Files {
    picture: Option<OutputFile>,
    tree: Option<OutputFile>,
    animation: Option<OutputFile>,
}

impl Files {
    fn open(args: &Args) -> Result<Self, ExitCode> {
        let open = |path: &Option<PathBuf>| path.as_deref().map(OutputFile::create).transpose();
        Ok(Files {
            picture: open(&args.svg)?,
            tree: open(&args.tree)?,
            animation: open(&args.animate)?,
        })
    }

    /// Draws the boards, the animated page and the search tree, where asked for.
    fn write(&mut self, args: &Args, setup: &Setup, outcome: &Outcome) -> Result<(), ExitCode> {
        let n = args.n;
        let partial = if cli::is_partial(outcome.stop) {
            " (partial)"
        } else {
            ""
        };
        if let Some(file) = &mut self.picture {
            let title = if args.first {
                format!("{n} queens: the first solution")
            } else {
                format!("{n} queens: {} {}{partial}", outcome.count, what(args))
            };
            file.write(&svg::boards(&title, &outcome.shown, outcome.count))?;
        }
        // How the search checked its constraints, for the titles of its pictures.
        let how = if args.naive {
            "generate and test"
        } else {
            "checked early"
        };
        let engine = setup.engine;
        if let Some(file) = &mut self.animation {
            let title = format!("{n} queens, {engine} engine, {how}");
            let recorder = &setup.recorder;
            let page =
                animate::board_page(n as usize, &title, &recorder.events(), recorder.dropped());
            file.write(&page)?;
        }
        if let Some(file) = &mut self.tree {
            let title = format!("{n} queens, {engine} engine, {how}{partial}");
            file.write(&svg::tree_with(&setup.tree, &title, |node| {
                (node.value + 1).to_string()
            }))?;
        }
        Ok(())
    }
}

/// The puzzle as the arguments set it up, and what watches its search.
struct Setup {
    puzzle: ambsolve::Puzzle<'static, Vec<usize>>,
    engine: Engine,
    /// The steps local search gets when no limit is given.
    budget: Option<u64>,
    /// The time building the model took.
    building: std::time::Duration,
    /// Whether a count goes through the board's symmetries.
    through_symmetry: bool,
    threads: usize,
    tree: SearchTree,
    recorder: Recorder,
}

impl Setup {
    fn new(args: &Args, files: &Files) -> Self {
        let n = args.n as usize;
        let engine = Engine::from(engine_of(args));
        let mut limits = args.bounds.limits();
        // Local search never ends by itself: without a limit it gets a budget of steps.
        let budget = (engine == Engine::Local
            && args.bounds.node_limit.is_none()
            && args.bounds.time_limit.is_none())
        .then(|| local_budget(args.n));
        if let Some(steps) = budget {
            limits = limits.nodes(steps);
        }
        let built = std::time::Instant::now();
        let watched = args.trace || files.tree.is_some() || files.animation.is_some();
        // A count searches one representative per class of the board's symmetries and
        // weighs each by its class, unless the plain search is asked for or watched.
        let through_symmetry =
            counting(args) && !args.fundamental && !args.plain && !args.naive && !watched;
        let mut puzzle = if args.fundamental {
            fundamental_queens(n)
        } else if through_symmetry {
            queens_through_symmetry(n)
        } else {
            queens(n)
        }
        .engine(engine)
        .limits(limits);
        let building = built.elapsed();
        if let Some(seed) = args.seed {
            puzzle = puzzle.seed(seed);
        }
        let mut setup = Setup {
            puzzle,
            engine,
            budget,
            building,
            through_symmetry,
            threads: match args.threads {
                Some(k) => k as usize,
                None if args.mpi => 1,
                None => cli::cores(),
            },
            tree: SearchTree::new(),
            recorder: Recorder::new(20_000),
        };
        setup.watch_or_steer(args, files);
        let mut puzzle = setup.puzzle.clone().threads(setup.threads);
        if args.naive {
            puzzle = puzzle.checking(Checking::AtEnd);
        }
        if let Some(file) = &args.checkpoint {
            puzzle = puzzle.checkpoint(file);
        }
        if let Some(file) = &args.resume {
            puzzle = puzzle.resume(file);
        }
        setup.puzzle = puzzle;
        setup
    }

    /// Watching the search (a trace, the tree, the steps of an animation, any of them)
    /// keeps it top-down, as the sources explain and draw it; else the trail engine gets
    /// the strategy that suits the mode.
    fn watch_or_steer(&mut self, args: &Args, files: &Files) {
        let mut watchers: Vec<Box<dyn Observer>> = Vec::new();
        if args.trace {
            let board = trace::Queens { n: args.n as usize };
            watchers.push(Box::new(Trace::new(board, args.trace_lines)));
        }
        if files.tree.is_some() {
            watchers.push(Box::new(self.tree.clone()));
        }
        if files.animation.is_some() {
            watchers.push(Box::new(self.recorder.clone()));
        }
        let puzzle = self.puzzle.clone();
        self.puzzle = if !watchers.is_empty() {
            puzzle.observe(move |event: &Event| {
                for watcher in &mut watchers {
                    watcher.event(event);
                }
            })
        } else if self.engine == Engine::Trail && !args.naive && args.first {
            puzzle.strategy(first_strategy())
        } else if self.engine == Engine::Trail && !args.naive && counting(args) && !args.fundamental
        {
            puzzle.strategy(count_strategy(args.n as usize))
        } else {
            puzzle
        };
    }
}

/// Whether the arguments ask for a count (no list, no first solution, no picture).
fn counting(args: &Args) -> bool {
    !args.all && !args.first && args.svg.is_none()
}

/// What is counted: solutions, or fundamental ones.
fn what(args: &Args) -> &'static str {
    if args.fundamental {
        "fundamental solutions"
    } else {
        "solutions"
    }
}

/// Runs the search: lists the solutions (printing them with --all, keeping what is to be
/// shown or drawn), or counts them with progress.
fn search(
    args: &Args,
    setup: &Setup,
    drawing: bool,
    out: &mut Output,
) -> Result<Outcome, ExitCode> {
    let keep = if drawing { svg::MAX_BOARDS } else { 0 };
    let solutions = setup.puzzle.solutions();
    if !(args.all || args.first || keep > 0) {
        let mut solutions = solutions;
        let count =
            cli::count_with_progress(&mut solutions).map_err(|error| cli::search_error(&error))?;
        return Ok(Outcome::of(count, Vec::new(), &solutions));
    }
    let mut solutions = solutions.fallible();
    let mut count = 0u64;
    let mut shown = Vec::new();
    for queens in solutions.by_ref() {
        let queens = queens.map_err(|error| {
            out.flush();
            cli::search_error(&error)
        })?;
        if let Some(status) = verify(&queens) {
            out.flush();
            return Err(status);
        }
        if args.all {
            out.line(columns(&queens));
        }
        if shown.len() < keep.max(usize::from(args.first)) {
            shown.push(queens);
        }
        count += 1;
        if args.first {
            break;
        }
    }
    Ok(Outcome::of(count, shown, &solutions))
}

/// Prints what was found: the first board, or the count (and the first board drawn);
/// why a search stopped early; the statistics.
fn report(args: &Args, setup: &Setup, outcome: &Outcome, out: &mut Output) -> Result<(), ExitCode> {
    let n = args.n as usize;
    let partial = cli::is_partial(outcome.stop);
    let none = || {
        format!("no solution: {n} queens cannot share a {n}×{n} board without attacking each other")
    };
    if args.first {
        match outcome.shown.first() {
            Some(queens) if n > DRAWN_UP_TO => {
                out.line(format!(
                    "first solution: {n} queens, verified (no two share a column or a diagonal)"
                ));
                out.line(format!(
                    "checksum: {:#018x} (FNV-1a of the columns)",
                    checksum(queens)
                ));
                out.line(format!(
                    "time: {:.3?} searching, {:.3?} building the model",
                    outcome.stats.elapsed, setup.building
                ));
            }
            Some(queens) => {
                out.line(columns(queens));
                out.line(board(queens));
            }
            None if !partial => out.line(none()),
            None => {}
        }
    } else {
        out.line(format!("solutions: {}", outcome.count));
    }
    if !args.first && setup.engine != Engine::Local {
        if args.fundamental && !partial && !args.count {
            out.line(
                "(one per class under the 8 symmetries of the board: rotations and reflections)",
            );
        }
        if outcome.count == 0 && !partial {
            out.line(none());
        } else if !args.all && !args.count && !partial {
            draw_first(args, setup, outcome, out)?;
        }
    }
    let stop_line = if setup.engine == Engine::Local {
        cli::local_stop_line(
            outcome.stop,
            outcome.count,
            ("solution", "distinct solutions"),
            &outcome.stats,
            setup.budget,
        )
    } else {
        cli::partial_line(
            outcome.stop,
            outcome.count,
            what(args),
            &outcome.stats,
            outcome.progress,
        )
    };
    if let Some(line) = stop_line {
        out.line(line);
    }
    if args.stats {
        let (engine, classes) = (setup.engine, setup.through_symmetry);
        print_stats(out, &outcome.stats, engine, args.naive, classes);
        if let Some(line) = cli::parallel_line(outcome.subproblems, &outcome.workers) {
            out.line(line);
        }
    }
    Ok(())
}

/// Draws the first solution, in top-down order (the lexicographically first): the one
/// kept, or found by a search of its own.
fn draw_first(
    args: &Args,
    setup: &Setup,
    outcome: &Outcome,
    out: &mut Output,
) -> Result<(), ExitCode> {
    let n = args.n as usize;
    let top_down = if args.fundamental {
        fundamental_queens(n)
    } else {
        queens(n)
    };
    let first = match outcome.shown.first() {
        Some(queens) => Some(queens.clone()),
        None => top_down
            .engine(setup.engine)
            .limits(Limits::new().cancel(cli::interrupt_flag()))
            .first()
            .map_err(|error| {
                out.flush();
                cli::search_error(&error)
            })?,
    };
    if let Some(queens) = first {
        if let Some(status) = verify(&queens) {
            out.flush();
            return Err(status);
        }
        out.line(format!("first solution {}:", columns(&queens)));
        out.line(board(&queens));
    }
    Ok(())
}

/// Counts over the processes of an MPI job; rank 0 prints the count.
#[cfg(feature = "mpi")]
fn count_on_mpi(
    puzzle: &ambsolve::Puzzle<'_, Vec<usize>>,
    threads: usize,
    stats: bool,
) -> ExitCode {
    use ambsolve::distributed;
    let universe = match distributed::init() {
        Ok(universe) => universe,
        Err(error) => return cli::search_error(&error),
    };
    let world = universe.world();
    let counted = puzzle.solver().count_distributed(&world, threads);
    let Some(counted) = (match counted {
        Ok(counted) => counted,
        Err(error) => return cli::search_error(&error),
    }) else {
        // Another rank: a signal stopped it as it stopped rank 0, which prints the count.
        let interrupted = cli::interrupt_flag().is_cancelled();
        return cli::exit_status(interrupted.then_some(ambsolve::StopReason::Cancelled));
    };
    let stop = Some(counted.summary.stop_reason);
    let mut out = Output::new();
    let progress = counted.finished as f64 / counted.subproblems.max(1) as f64;
    cli::count_lines(
        &mut out,
        counted.summary.solutions,
        stop,
        &counted.summary.stats,
        progress,
    );
    if stats {
        let run = &counted.run;
        let busy: Vec<String> = run
            .busy
            .iter()
            .map(|b| format!("{:.3} s", b.as_secs_f64()))
            .collect();
        out.line(format!(
            "processes: {}, threads each: {threads}, subproblems: {} ({} restored from the checkpoint, {} finished)",
            run.tasks.len(),
            counted.subproblems,
            counted.restored,
            counted.finished
        ));
        out.line(format!(
            "tasks per process: {:?}, busy: {}; imbalance {:.2}",
            run.tasks,
            busy.join(", "),
            run.imbalance()
        ));
        out.line(format!("nodes: {}", counted.summary.stats.nodes));
        out.line(format!("time: {:.3?}", counted.summary.stats.elapsed));
    }
    out.flush();
    cli::exit_status(stop)
}

/// Without MPI built in, `--mpi` is refused before the search (see `check_size`).
#[cfg(not(feature = "mpi"))]
fn count_on_mpi(_: &ambsolve::Puzzle<'_, Vec<usize>>, _: usize, _: bool) -> ExitCode {
    cli::usage_error::<Args>("this nqueens was built without MPI")
}

/// Checks a board the search returned, independently of the model; a board with two
/// queens attacking each other is reported (status 1) instead of printed.
fn verify(queens: &[usize]) -> Option<ExitCode> {
    let (a, b) = attack(queens)?;
    cli::note(format!(
        "error: the search returned a board whose queens in rows {} and {} attack each other",
        a + 1,
        b + 1
    ));
    Some(ExitCode::FAILURE)
}

/// A file the program writes a picture or a page to, opened before the search.
struct OutputFile {
    path: PathBuf,
    file: File,
}

impl OutputFile {
    /// Creates `path`; a path that cannot be written is a usage error (status 2).
    fn create(path: &Path) -> Result<Self, ExitCode> {
        match File::create(path) {
            Ok(file) => Ok(OutputFile {
                path: path.to_path_buf(),
                file,
            }),
            Err(e) => Err(Self::error(path, &e)),
        }
    }

    /// Writes `text`; a failed write is reported as a usage error (status 2).
    fn write(&mut self, text: &str) -> Result<(), ExitCode> {
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| Self::error(&self.path, &e))
    }

    fn error(path: &Path, e: &std::io::Error) -> ExitCode {
        cli::input_error("nqueens", format!("cannot write {}: {e}", path.display()))
    }
}

fn print_stats(out: &mut Output, stats: &Stats, engine: Engine, naive: bool, classes: bool) {
    let checking = if naive {
        "at the end (generate and test)"
    } else {
        "early"
    };
    if engine == Engine::Local {
        out.line("engine: Local, min-conflicts local search");
        out.line(format!(
            "steps: {} (values given in starting assignments, and repair steps)",
            stats.nodes
        ));
        out.line(format!(
            "moves: {}, of them plateau steps: {}",
            stats.moves, stats.plateau
        ));
        out.line(format!("restarts: {}", stats.restarts));
        out.line(format!("solutions: {}", stats.solutions));
        out.line(format!("time: {:.3?}", stats.elapsed));
        return;
    }
    out.line(format!(
        "engine: {engine:?}, constraints checked {checking}"
    ));
    out.line(format!("nodes: {}", stats.nodes));
    out.line(format!("failures: {}", stats.failures));
    match engine {
        Engine::Trail => out.line(format!("propagations: {}", stats.propagations)),
        Engine::Replay => out.line(format!(
            "runs: {}, choices replayed: {}",
            stats.runs, stats.replayed
        )),
        _ => {}
    }
    out.line(format!("max depth: {}", stats.max_depth));
    if classes {
        out.line(format!(
            "representatives: {} (one per class of the board's 8 symmetries, each counted \
             as the size of its class; --plain counts every solution)",
            stats.solutions
        ));
    } else {
        out.line(format!("solutions: {}", stats.solutions));
    }
    if stats.restarts > 0 {
        out.line(format!("restarts: {}", stats.restarts));
    }
    out.line(format!("time: {:.3?}", stats.elapsed));
}
