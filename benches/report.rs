//! The speed targets, measured: writes BENCHMARKS.md (Markdown) to standard output.
//!
//! ```text
//! cargo bench --bench report > BENCHMARKS.md          # all of it, about ten minutes
//! cargo bench --bench report -- --quick > /tmp/r.md   # smaller sizes, fewer runs
//! cargo bench --bench report -- --only-local           # the local-search section alone
//! cargo bench --bench report -- --only-tours           # the tours section alone (tsp)
//! cargo bench --bench report -- --only-scheduling      # the scheduling section alone
//! cargo bench --bench report -- --only-strategies      # the variable orders section alone
//! cargo bench --bench report -- --only-replay          # the replay engine section alone
//! ```
//!
//! Times are medians of several runs (the machine is shared and noisy: read ratios, not
//! digits). Peak memory is measured in a child process running one job alone.

#[path = "report/golomb.rs"]
mod golomb;
#[path = "report/large.rs"]
mod large;
#[path = "report/local.rs"]
mod local;
#[path = "report/parallel.rs"]
mod parallel;
#[path = "report/queens.rs"]
mod queens;
#[path = "report/scheduling.rs"]
mod scheduling;
#[path = "report/small.rs"]
mod small;
#[path = "report/strategies.rs"]
mod strategies;
mod support;
#[path = "report/tours.rs"]
mod tours;

use std::fmt::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

use ambsolve::Engine;
use ambsolve_examples::puzzles::queens as nqueens;
use support::peak_kib;

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "**not met**" }
}

/// Runs one job in a child process (this binary with `--child JOB ARG`) and returns its
/// peak resident memory in KiB.
fn child_peak(job: &str, arg: usize) -> u64 {
    let exe = std::env::current_exe().expect("the bench knows its path");
    let out = Command::new(exe)
        .args(["--child", job, &arg.to_string()])
        .output()
        .expect("the child runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("peak_kib ").and_then(|k| k.parse().ok()))
        .unwrap_or(0)
}

fn child(job: &str, arg: usize) {
    match job {
        "idle" => {}
        "count" => {
            let summary = nqueens::queens(arg)
                .strategy(nqueens::count_strategy(arg))
                .count()
                .unwrap();
            assert!(summary.stop_reason.is_complete());
        }
        "first" => {
            let puzzle = nqueens::queens(arg);
            let model = puzzle.model();
            let found = model
                .solve(Engine::Trail)
                .strategy(nqueens::first_strategy())
                .first()
                .unwrap();
            assert!(found.is_some());
        }
        "local" => {
            let board = nqueens::queens(arg)
                .engine(Engine::Local)
                .seed(1)
                .first()
                .unwrap()
                .expect("a board");
            assert_eq!(nqueens::attack(&board), None);
        }
        "alldiff" => {
            let first = large::wide_all_different(arg);
            assert!(first);
        }
        "equal" => {
            let (solutions, _) = large::equal_count(arg as i64);
            assert_eq!(solutions, arg as u64);
        }
        "build" => {
            let puzzle = nqueens::queens(arg);
            assert_eq!(puzzle.model().num_vars(), arg);
        }
        other => panic!("unknown child job {other}"),
    }
    println!("peak_kib {}", peak_kib());
}

/// A section of the report: it writes itself, smaller when asked to be quick.
type Section = fn(&mut String, bool);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(&args[i + 1], args[i + 2].parse().expect("a size"));
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let started = Instant::now();
    let mut md = String::new();
    let sections: [(&str, Section); 7] = [
        ("--only-learning", queens::learning_section),
        ("--only-large", large::large_section),
        ("--only-local", local::local_section),
        ("--only-strategies", strategies::section),
        ("--only-tours", tours::section),
        ("--only-scheduling", scheduling::section),
        ("--only-replay", queens::replay_section),
    ];
    if let Some((_, section)) = sections
        .iter()
        .find(|(flag, _)| args.contains(&flag.to_string()))
    {
        section(&mut md, quick);
        print!("{md}");
        eprintln!("report written in {:.0?}", started.elapsed());
        return;
    }
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    writeln!(md, "# Benchmarks\n").unwrap();
    writeln!(
        md,
        "Regenerate with `cargo bench --bench report > BENCHMARKS.md` (about ten minutes)."
    )
    .unwrap();
    writeln!(
        md,
        "Machine: {cpu}, {cores} cores. Times are medians of several runs; the machine is shared,"
    )
    .unwrap();
    writeln!(
        md,
        "so compare ratios rather than digits. Micro-benches: `cargo bench --bench engines`.\n"
    )
    .unwrap();

    queens::counts(&mut md, quick);
    queens::firsts(&mut md, quick);
    queens::learning_section(&mut md, quick);
    local::local_section(&mut md, quick);
    large::large_section(&mut md, quick);
    small::sudoku_section(&mut md);
    small::send_more_money_section(&mut md);
    golomb::golomb_section(&mut md, quick);
    tours::section(&mut md, quick);
    scheduling::section(&mut md, quick);
    strategies::section(&mut md, quick);
    parallel::parallel_section(&mut md, quick);
    queens::replay_section(&mut md, quick);
    writeln!(
        md,
        "\nReport generated in {:.0} s.",
        started.elapsed().as_secs_f64()
    )
    .unwrap();
    // The MiniZinc suite against Gecode needs `minizinc`: `benches/minizinc.sh` measures it
    // and keeps its section in benches/minizinc.md, carried over here as last measured.
    // So is the Challenge-style suite against Gecode, Chuffed and Pumpkin
    // (`benches/challenge.sh`, benches/challenge.md), and large neighbourhood search on its
    // optimisation instances (`benches/lns.sh`, benches/lns.md).
    for kept in [
        "/benches/minizinc.md",
        "/benches/challenge.md",
        "/benches/lns.md",
    ] {
        let path = format!("{}{kept}", env!("CARGO_MANIFEST_DIR"));
        if let Ok(section) = std::fs::read_to_string(path) {
            write!(md, "\n{section}").unwrap();
        }
    }
    print!("{md}");
}
