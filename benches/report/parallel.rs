//! The report's section on every core and many machines: counts on threads, MPI rows,
//! and the plan for the paper's largest count.

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use ambsolve_examples::puzzles::queens as nqueens;

use crate::support::{bitmask_count, median};
use crate::{seconds, verdict};

/// One count on `threads` threads: median wall time, the summary, subproblems and the
/// imbalance (busiest thread over the mean).
fn threaded_count(
    runs: usize,
    puzzle: impl Fn() -> ambsolve::Puzzle<'static, Vec<usize>>,
    threads: usize,
) -> (Duration, u64, usize, f64) {
    let (time, (count, parts, imbalance)) = median(runs, || {
        let mut solutions = puzzle().threads(threads).solutions();
        let count = solutions.count_all().unwrap();
        assert_eq!(
            solutions.stop_reason(),
            Some(ambsolve::StopReason::Exhausted)
        );
        let busy: Vec<f64> = solutions
            .worker_times()
            .iter()
            .map(Duration::as_secs_f64)
            .collect();
        let mean = busy.iter().sum::<f64>() / busy.len().max(1) as f64;
        let slowest = busy.iter().copied().fold(0.0, f64::max);
        let parts = solutions.subproblems().map_or(1, |(_, all)| all);
        (count, parts, if mean > 0.0 { slowest / mean } else { 1.0 })
    });
    (time, count, parts, imbalance)
}

/// Counting on every core, through symmetry, and over MPI processes.
pub(crate) fn parallel_section(md: &mut String, quick: bool) {
    writeln!(
        md,
        "## n-queens counts on every core, through symmetry, over MPI\n"
    )
    .unwrap();
    writeln!(md, "The search is cut into subproblems (paths of choices, 32 per thread and at least 64) searched").unwrap();
    writeln!(md, "on a rayon pool; the count is the sum (checked against the bitmask counter). Imbalance: the").unwrap();
    writeln!(md, "busiest thread's search time over the mean. Target: 2 threads at least 1.8× faster than one.\n").unwrap();
    writeln!(
        md,
        "| n | counted | 1 thread | 2 threads | speed-up | subproblems | imbalance | target |"
    )
    .unwrap();
    writeln!(md, "| --- | --- | --- | --- | --- | --- | --- | --- |").unwrap();
    let sizes: &[(usize, usize)] = if quick {
        &[(12, 3), (13, 3)]
    } else {
        &[(15, 3), (16, 3)]
    };
    let mut through_times = Vec::new();
    for &(n, runs) in sizes {
        let expected = bitmask_count(n);
        for (what, through) in [("plainly", false), ("through symmetry", true)] {
            let puzzle = move || {
                // The strategy the example counts with, either way.
                if through {
                    nqueens::queens_through_symmetry(n)
                } else {
                    nqueens::queens(n)
                }
                .strategy(nqueens::count_strategy(n))
            };
            let (one, count, _, _) = threaded_count(runs, puzzle, 1);
            let (two, count2, parts, imbalance) = threaded_count(runs, puzzle, 2);
            assert_eq!((count, count2), (expected, expected));
            let ratio = one.as_secs_f64() / two.as_secs_f64();
            if through {
                through_times.push((n, one, two));
            }
            writeln!(
                md,
                "| {n} | {what} | {} | {} | {ratio:.2}× | {parts} | {imbalance:.2} | at least 1.8× — {} |",
                seconds(one),
                seconds(two),
                verdict(ratio >= 1.8)
            )
            .unwrap();
        }
    }
    // The moonshot: n = 16 on this machine against the C bitmask counter (3.5 s, measured
    // for the issue), with the Rust one side by side.
    if let Some(&(n, _, two)) = through_times.iter().find(|t| t.0 == 16) {
        let (bitmask, _) = median(3, || bitmask_count(std::hint::black_box(n)));
        writeln!(
            md,
            "\nThe moonshot, `nqueens 16 --count` (through symmetry, 2 threads): **{}**, against the C bitmask\n\
             counter's 3.5 s on one core (the Rust bitmask counter here: {}) — {}.\n",
            seconds(two),
            seconds(bitmask),
            verdict(two < Duration::from_secs_f64(3.5))
        )
        .unwrap();
    }
    mpi_rows(md, if quick { 12 } else { 15 });
    paper_plan(md, &through_times);
}

/// Counting over 1 and 2 MPI processes with `nqueens --mpi`, if MPI is installed (the
/// example is built with the `mpi` feature for it).
fn mpi_rows(md: &mut String, n: usize) {
    writeln!(
        md,
        "### Over MPI processes (`mpirun -np K nqueens {n} --count --plain --mpi`)\n"
    )
    .unwrap();
    let have_mpi = Command::new("mpirun")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let built = have_mpi
        && Command::new(env!("CARGO"))
            .args([
                "build",
                "--release",
                "--quiet",
                "--features",
                "mpi",
                "--example",
                "nqueens",
            ])
            .status()
            .is_ok_and(|s| s.success());
    if !built {
        writeln!(
            md,
            "Not measured: MPI is not installed here (`.ci/mpi` installs it).\n"
        )
        .unwrap();
        return;
    }
    let exe =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/examples/nqueens");
    let run = |ranks: usize| {
        let (time, out) = median(3, || {
            Command::new("mpirun")
                .args([
                    "--oversubscribe",
                    "--allow-run-as-root",
                    "-np",
                    &ranks.to_string(),
                ])
                .arg(&exe)
                .args([&n.to_string(), "--count", "--plain", "--mpi", "--stats"])
                .output()
                .expect("mpirun runs")
        });
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let count: u64 = text
            .lines()
            .find_map(|l| l.strip_prefix("solutions: "))
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let imbalance = text
            .lines()
            .find_map(|l| l.rsplit_once("imbalance ").map(|(_, i)| i.to_string()))
            .unwrap_or_default();
        let parts = text
            .lines()
            .find_map(|l| l.split("subproblems: ").nth(1))
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or("?")
            .to_string();
        (time, count, imbalance, parts)
    };
    let (one, c1, _, _) = run(1);
    let (two, c2, imbalance, parts) = run(2);
    assert_eq!((c1, c2), (bitmask_count(n), bitmask_count(n)));
    let ratio = one.as_secs_f64() / two.as_secs_f64();
    writeln!(
        md,
        "| processes | time (whole job) | speed-up | subproblems | imbalance | target |"
    )
    .unwrap();
    writeln!(md, "| --- | --- | --- | --- | --- | --- |").unwrap();
    writeln!(md, "| 1 | {} | | | | |", seconds(one)).unwrap();
    writeln!(
        md,
        "| 2 | {} | {ratio:.2}× | {parts} | {imbalance} | at least 1.7× — {} |\n",
        seconds(two),
        verdict(ratio >= 1.7)
    )
    .unwrap();
}

/// On paper: the count of n = 20 and 21 on 64 machines, from the rates measured above.
fn paper_plan(md: &mut String, through: &[(usize, Duration, Duration)]) {
    let (Some(&(a, ta, _)), Some(&(b, tb, _))) = (through.first(), through.last()) else {
        return;
    };
    if b <= a {
        return;
    }
    // The growth per queen, from the two sizes measured (the ratio of counts grows a little
    // with n, so this underestimates slightly).
    let growth = (tb.as_secs_f64() / ta.as_secs_f64()).powf(1.0 / (b - a) as f64);
    let one_core = |n: usize| tb.as_secs_f64() * growth.powi(n as i32 - b as i32);
    let workers = 64.0 * 2.0;
    let hours = |s: f64| s / 3600.0;
    writeln!(md, "### On paper: n = 20 and 21 on 64 machines\n").unwrap();
    writeln!(md, "From the counts through symmetry above (one core: {} for n = {b}, ×{growth:.1} per queen):", seconds(tb)).unwrap();
    writeln!(md).unwrap();
    writeln!(
        md,
        "| n | solutions | one core | 64 machines × 2 cores (90 % efficient) | subproblems |"
    )
    .unwrap();
    writeln!(md, "| --- | --- | --- | --- | --- |").unwrap();
    for (n, count) in [(20, "39,029,188,884"), (21, "314,666,222,712")] {
        let alone = one_core(n);
        let spread = alone / (workers * 0.9);
        writeln!(
            md,
            "| {n} | {count} | {:.0} h | {:.0} min | 8,192 (64 per worker) |",
            hours(alone),
            spread / 60.0
        )
        .unwrap();
    }
    writeln!(md).unwrap();
    writeln!(md, "How it runs: `mpirun -np 128 --hostfile machines nqueens 21 --count --mpi --checkpoint q21.txt`").unwrap();
    writeln!(md, "(`--subproblems` is not needed: 32 per worker thread is the default; at 128 workers that is 4,096,").unwrap();
    writeln!(md, "and 8,192 balances the last minutes better). Rank 0 cuts the search (depth 4 or 5: milliseconds)").unwrap();
    writeln!(
        md,
        "and hands subproblems out one at a time to whichever process asks. **What is sent:** a"
    )
    .unwrap();
    writeln!(md, "subproblem is its index and a path of 4 or 5 choice indices (under 40 bytes); a result is the").unwrap();
    writeln!(md, "count and 14 words of statistics (about 120 bytes); about 1 MB in all for the whole job, against hours of search:").unwrap();
    writeln!(md, "the network is idle. Rank 0 rewrites the checkpoint (8,192 lines, ~400 KB) after each result at").unwrap();
    writeln!(md, "first and once a second past 4,096 entries; a lost machine costs the subproblems it held (a few").unwrap();
    writeln!(
        md,
        "seconds of work each) and a `--resume q21.txt` run finishes the count.\n"
    )
    .unwrap();
}
