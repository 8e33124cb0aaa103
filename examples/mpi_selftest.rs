//! A self-test of `ambsolve::distributed` under `mpirun`: synthetic tasks whose results
//! are known in advance, handed out over every rank; rank 0 checks that each task ran
//! exactly once and that the totals are right, then that a failing task stops the run
//! with its error on every rank, and that a node budget and a deadline hold for the
//! whole run. Then real counts: n-queens 1..=13 and the corpus
//! puzzles counted with `count_distributed` over
//! every rank, each equal to the one-process count (and to the OEIS counts).
//!
//! ```text
//! cargo build --release --features mpi --example mpi_selftest
//! mpirun -np 3 target/release/examples/mpi_selftest      # as root: --allow-run-as-root
//! ```
//!
//! Prints the totals and the tasks each rank ran; exits 0 if every check passed, 1 if not.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ambsolve::distributed::{self, JobLimits, TaskLimits, TaskResult};
use ambsolve::distributed::{Communicator, SimpleCommunicator};
use ambsolve::{Puzzle, SearchError, Stats, StopReason};
use ambsolve_examples::puzzles::queens::queens;
use ambsolve_examples::puzzles::{langford, magic_square, send_more_money};

/// n-queens counts (OEIS A000170) for n = 1..=13.
const QUEENS: [u64; 13] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

/// Counts `puzzle` over every rank and, on rank 0, against one process and `expected`.
fn check_count<S>(
    world: &SimpleCommunicator,
    name: &str,
    puzzle: Puzzle<'_, S>,
    expected: Option<u64>,
) -> Vec<String> {
    let distributed = puzzle.solver().count_distributed(world, 1);
    let distributed = match distributed {
        Ok(Some(counted)) => counted.summary.solutions,
        Ok(None) => return Vec::new(),
        Err(error) => return vec![format!("{name}: {error}")],
    };
    let alone = match puzzle.count() {
        Ok(summary) => summary.solutions,
        Err(error) => return vec![format!("{name} on one process: {error}")],
    };
    let mut problems = Vec::new();
    if distributed != alone {
        problems.push(format!(
            "{name}: {distributed} over the ranks, {alone} on one"
        ));
    }
    if expected.is_some_and(|e| e != alone) {
        problems.push(format!("{name}: {alone}, expected {expected:?}"));
    }
    problems
}

/// The real counts.
fn check_counts(world: &SimpleCommunicator) -> Vec<String> {
    let mut problems = Vec::new();
    for (n, &count) in (1..).zip(&QUEENS) {
        problems.extend(check_count(
            world,
            &format!("{n} queens"),
            queens(n),
            Some(count),
        ));
    }
    problems.extend(check_count(
        world,
        "Langford 7",
        langford::langford(7),
        Some(52),
    ));
    problems.extend(check_count(
        world,
        "magic squares",
        magic_square::magic_squares(),
        Some(8),
    ));
    problems.extend(check_count(
        world,
        "SEND+MORE=MONEY",
        send_more_money::send_more_money(),
        Some(1),
    ));
    if world.rank() == 0 && problems.is_empty() {
        println!("counts: n-queens 1..=13, Langford 7, magic squares, SEND+MORE=MONEY agree");
    }
    problems
}

/// Tasks of the main check.
const TASKS: usize = 200;

/// The path of task `index`: one to four choices, all derived from the index.
fn path_of(index: usize) -> Vec<u32> {
    let i = index as u32;
    [i % 7, i / 7, (i * 31) % 11, i % 3][..1 + index % 4].to_vec()
}

/// What a task "finds": a hash of its path (FNV-1a over its words).
fn solutions_of(path: &[u32]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &choice in path {
        hash = (hash ^ u64::from(choice)).wrapping_mul(0x0100_0000_01b3);
    }
    hash % 1000
}

/// The work a task does: between 0.2 and 1 million steps, depending on its path.
fn steps_of(path: &[u32]) -> u64 {
    200_000 * (1 + solutions_of(path) % 5)
}

/// Runs one synthetic task: burns `steps_of(path)` steps of a xorshift, then reports.
fn run(path: &[u32]) -> TaskResult {
    let mut x = 0x9e37_79b9_7f4a_7c15 ^ solutions_of(path);
    for _ in 0..steps_of(path) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x = black_box(x);
    }
    run_cheaply(path)
}

/// Distributes `tasks` synthetic tasks on `threads` threads a rank; on rank 0, checks that
/// each ran once with its own result and that the totals add up. Returns what failed.
fn check_totals(world: &SimpleCommunicator, tasks: usize, threads: usize) -> Vec<String> {
    let root = world.rank() == 0;
    let list = if root {
        (0..tasks).map(|i| (i, path_of(i))).collect()
    } else {
        Vec::new()
    };
    let mut runs = vec![0u32; tasks];
    let mut problems = Vec::new();
    let on_result = |index: usize, result: &TaskResult| {
        runs[index] += 1;
        if *result != run_cheaply(&path_of(index)) {
            problems.push(format!("task {index}: wrong result {result:?}"));
        }
    };
    let outcome = distributed::distribute(world, threads, list, |path| Ok(run(path)), on_result);
    let totals = match outcome {
        Ok(Some(totals)) => totals,
        Ok(None) if !root => return problems,
        Ok(None) => return vec!["rank 0 got no totals".to_string()],
        Err(error) => return vec![format!("rank {}: {error}", world.rank())],
    };
    for (index, &count) in runs.iter().enumerate() {
        if count != 1 {
            problems.push(format!("task {index} ran {count} times"));
        }
    }
    let paths: Vec<Vec<u32>> = (0..tasks).map(path_of).collect();
    let solutions: u64 = paths.iter().map(|p| solutions_of(p)).sum();
    let steps: u64 = paths.iter().map(|p| steps_of(p)).sum();
    if totals.solutions != solutions || totals.stats.solutions != solutions {
        problems.push(format!(
            "{} solutions in all, expected {solutions}",
            totals.solutions
        ));
    }
    if totals.stats.nodes != steps || totals.stats.max_depth != 4 {
        problems.push(format!("summed stats wrong: {}", totals.stats));
    }
    if totals.tasks.iter().sum::<u64>() != tasks as u64 {
        problems.push(format!("tasks per rank {:?} do not add up", totals.tasks));
    }
    if let Some(idle) = totals.tasks.iter().position(|&n| n == 0) {
        problems.push(format!("rank {idle} ran no task of {tasks}"));
    }
    let busy: Vec<String> = totals
        .busy
        .iter()
        .map(|b| format!("{:.2}", b.as_secs_f64()))
        .collect();
    println!(
        "{tasks} tasks, {threads} thread(s) a rank: solutions {} (expected {solutions}), \
         tasks per rank {:?}, busy per rank [{}] s, imbalance {:.2}, wall {:.2?}",
        totals.solutions,
        totals.tasks,
        busy.join(", "),
        totals.imbalance(),
        totals.elapsed,
    );
    problems
}

/// The result `run` gives, without the work.
fn run_cheaply(path: &[u32]) -> TaskResult {
    let mut stats = Stats::default();
    stats.nodes = steps_of(path);
    stats.max_depth = path.len() as u64;
    stats.solutions = solutions_of(path);
    TaskResult {
        solutions: solutions_of(path),
        stats,
        stopped: None,
    }
}

/// Runs `tasks` synthetic tasks within job-wide `limits`, each task keeping its
/// [`TaskLimits`] (a task whose steps exceed its share of nodes, or whose time runs out,
/// stops); on rank 0, checks that the run stopped for `expected`, that the nodes summed
/// stay within the budget, and that only tasks that ran to their end were recorded.
fn check_limits(
    world: &SimpleCommunicator,
    limits: &JobLimits,
    expected: StopReason,
) -> Vec<String> {
    let root = world.rank() == 0;
    let list = if root {
        (0..TASKS).map(|i| (i, path_of(i))).collect()
    } else {
        Vec::new()
    };
    let work = |path: &[u32], limits: TaskLimits| {
        let started = Instant::now();
        let mut result = run_cheaply(path);
        if limits.nodes.is_some_and(|n| n < steps_of(path)) {
            result.stats.nodes = limits.nodes.unwrap_or(0);
            result.stopped = Some(StopReason::NodeLimit);
        }
        while result.stopped.is_none() && started.elapsed() < Duration::from_millis(5) {
            if limits.time.is_some_and(|t| started.elapsed() >= t) {
                result.stopped = Some(StopReason::TimeLimit);
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        Ok(result)
    };
    let mut recorded = 0;
    let on_result = |index: usize, result: &TaskResult| {
        recorded += 1;
        assert!(
            result.stopped.is_none(),
            "task {index} recorded although stopped"
        );
    };
    let outcome = distributed::distribute_within(world, 1, list, limits, work, on_result);
    let totals = match outcome {
        Ok(Some(totals)) => totals,
        Ok(None) if !root => return Vec::new(),
        Ok(None) => return vec!["rank 0 got no totals".to_string()],
        Err(error) => return vec![format!("rank {}: {error}", world.rank())],
    };
    let mut problems = Vec::new();
    if totals.stopped != Some(expected) {
        problems.push(format!(
            "a run within {limits:?} stopped for {:?}, expected {expected:?}",
            totals.stopped
        ));
    }
    if limits.nodes.is_some_and(|n| totals.stats.nodes > n) {
        problems.push(format!(
            "{} nodes summed, over the budget of {limits:?}",
            totals.stats.nodes
        ));
    }
    if recorded == 0 || recorded >= TASKS {
        problems.push(format!(
            "{recorded} of {TASKS} tasks recorded within {limits:?}"
        ));
    }
    println!(
        "within {:?}: stopped ({:?}) after {recorded} of {TASKS} tasks, {} nodes",
        expected, totals.stopped, totals.stats.nodes
    );
    problems
}

/// Distributes tasks one of which fails; checks that every rank gets its error.
fn check_failure(world: &SimpleCommunicator) -> Vec<String> {
    const FAILING: usize = 17;
    let list = if world.rank() == 0 {
        (0..40).map(|i| (i, path_of(i))).collect()
    } else {
        Vec::new()
    };
    let work = |path: &[u32]| {
        if path == path_of(FAILING) {
            Err(SearchError::InvalidModel("a synthetic failure".to_string()))
        } else {
            std::thread::sleep(Duration::from_millis(1));
            Ok(run_cheaply(path))
        }
    };
    match distributed::distribute(world, 1, list, work, |_, _| {}) {
        Err(error)
            if error.to_string().contains("a synthetic failure")
                && error
                    .to_string()
                    .matches("distributed search failed")
                    .count()
                    <= 1 =>
        {
            if world.rank() == 0 {
                println!("a failing task stopped the run on every rank: {error}");
            }
            Vec::new()
        }
        Err(error) => vec![format!("rank {}: another error: {error}", world.rank())],
        Ok(_) => vec![format!(
            "rank {}: the run succeeded although task {FAILING} failed",
            world.rank()
        )],
    }
}

fn main() -> ExitCode {
    let universe = match distributed::init() {
        Ok(universe) => universe,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let world = universe.world();
    if world.rank() == 0 {
        println!("mpi self-test on {} rank(s)", world.size());
    }
    let mut problems = check_totals(&world, TASKS, 1);
    problems.extend(check_totals(&world, TASKS / 2, 2));
    problems.extend(check_failure(&world));
    // The limits hold for the whole run: a node budget of a tenth of the tasks' steps, a
    // deadline of a tenth of a second (each task takes 5 ms).
    let budget = JobLimits {
        nodes: Some(TASKS as u64 * 60_000),
        ..JobLimits::default()
    };
    problems.extend(check_limits(&world, &budget, StopReason::NodeLimit));
    let deadline = JobLimits {
        deadline: Some(Instant::now() + Duration::from_millis(100)),
        ..JobLimits::default()
    };
    problems.extend(check_limits(&world, &deadline, StopReason::TimeLimit));
    problems.extend(check_counts(&world));
    for problem in &problems {
        eprintln!("FAILED: {problem}");
    }
    if !problems.is_empty() {
        return ExitCode::FAILURE;
    }
    if world.rank() == 0 {
        println!("ok");
    }
    ExitCode::SUCCESS
}
