//! What the benches share: the reference counter, the puzzles, timing helpers.
#![allow(dead_code, unreachable_pub)]

use std::path::Path;
use std::time::{Duration, Instant};

/// The limit: a plain bitmask n-queens counter (no symmetry), one queen per row, free
/// columns and both diagonals as bit masks.
pub fn bitmask_count(n: usize) -> u64 {
    fn place(all: u64, cols: u64, left: u64, right: u64) -> u64 {
        if cols == all {
            return 1;
        }
        let mut free = all & !(cols | left | right);
        let mut count = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            count += place(all, cols | bit, (left | bit) << 1, (right | bit) >> 1);
        }
        count
    }
    assert!(n < 64);
    place((1u64 << n) - 1, 0, 0, 0)
}

/// The puzzles of `tests/data/sudoku/<name>`.
pub fn sudoku_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/sudoku")
        .join(name);
    std::fs::read_to_string(path).expect("the sudoku sets are part of the repository")
}

/// Runs `f` `runs` times; the median wall time and the last result.
pub fn median<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let result = std::hint::black_box(f());
        times.push(started.elapsed());
        last = Some(result);
    }
    times.sort();
    (times[times.len() / 2], last.expect("at least one run"))
}

/// Peak resident memory of this process so far, in KiB (Linux), or 0.
pub fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kib| kib.parse().ok())
        })
        .unwrap_or(0)
}

/// What Gecode did by MiniZinc's statistics (its output with `-s`): the nodes and its own
/// solve time (flattening and start-up left out).
pub fn gecode_effort(minizinc_output: &str) -> Option<(u64, Duration)> {
    let stat = |key: &str| {
        minizinc_output
            .lines()
            .find_map(|l| l.strip_prefix(&format!("%%%mzn-stat: {key}=")))
    };
    let nodes = stat("nodes")?.parse().ok()?;
    let time = Duration::try_from_secs_f64(stat("solveTime")?.parse().ok()?).ok()?;
    Some((nodes, time))
}

/// The number on the last line of MiniZinc's output that starts with `key: ` (the last
/// solution's value).
pub fn last_value(minizinc_output: &str, key: &str) -> Option<i64> {
    minizinc_output
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(": ")?.parse().ok())
}
