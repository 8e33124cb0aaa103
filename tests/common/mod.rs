//! Helpers shared by the integration tests: reference data, independent checkers, and the
//! example binaries.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// A line of `tests/data/nqueens-counts.tsv`: board size, all solutions, fundamental ones.
#[derive(Clone, Copy, Debug)]
pub struct QueensCount {
    pub n: usize,
    pub all: u64,
    pub fundamental: u64,
}

/// The OEIS counts (A000170, A002562) shipped in `tests/data`.
pub fn queens_counts() -> Vec<QueensCount> {
    let text = std::fs::read_to_string(data_dir().join("nqueens-counts.tsv"))
        .expect("tests/data/nqueens-counts.tsv is part of the repository");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("n\t"))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            QueensCount {
                n: fields[0].parse().unwrap(),
                all: fields[1].parse().unwrap(),
                fundamental: fields[2].parse().unwrap(),
            }
        })
        .collect()
}

pub mod differential;

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

/// An independent check of an n-queens solution given as 0-based columns, one per row.
pub fn is_queens_solution(queens: &[usize]) -> bool {
    let n = queens.len();
    queens.iter().all(|&c| c < n)
        && (0..n).all(|a| {
            (a + 1..n).all(|b| queens[a] != queens[b] && queens[a].abs_diff(queens[b]) != b - a)
        })
}

/// Runs an example binary (built on first use with `cargo build --example`) and returns
/// its output.
pub fn run_example(name: &str, args: &[&str]) -> Output {
    Command::new(example_binary(name))
        .args(args)
        .output()
        .expect("the example binary runs")
}

/// The path of an example binary of this package, built if needed.
///
/// Built with `--workspace`: its dependencies then get the features they get in
/// `cargo test --workspace` (the dev-dependencies of every crate of the workspace count),
/// so the example that command has just built is reused; built for this package alone,
/// `syn` and every example would be built a second time.
pub fn example_binary(name: &str) -> PathBuf {
    static BUILT: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if !built.iter().any(|b| b == name) {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--quiet", "--workspace", "--example", name])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building example {name} failed");
        built.push(name.to_string());
    }
    let exe = std::env::current_exe().expect("the test binary knows its path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps");
    profile_dir.join("examples").join(name)
}

/// Runs an example with `input` on its standard input, and returns its output.
pub fn run_example_with_input(name: &str, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(example_binary(name))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example binary runs");
    let mut stdin = child.stdin.take().expect("a piped standard input");
    stdin.write_all(input).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// Runs an example whose standard output is a pipe closed before it writes (as `| head
/// -0` would), and returns its output (its standard error and how it ended).
pub fn run_example_into_closed_pipe(name: &str, args: &[&str]) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(example_binary(name))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example binary runs");
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 output")
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8 output")
}

/// Every tuple of indices into `lists` (last position fastest: lexicographic order) for
/// which `holds` is true: brute force, independent of the engines.
pub fn brute_force<T>(lists: &[Vec<T>], holds: impl Fn(&[usize]) -> bool) -> Vec<Vec<u32>> {
    if lists.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut index = vec![0usize; lists.len()];
    loop {
        if holds(&index) {
            found.push(index.iter().map(|&i| i as u32).collect());
        }
        let mut p = lists.len();
        loop {
            if p == 0 {
                return found;
            }
            p -= 1;
            index[p] += 1;
            if index[p] < lists[p].len() {
                break;
            }
            index[p] = 0;
        }
    }
}

/// A flag that another thread sets after `delay`, and that thread.
pub fn cancel_after(
    delay: std::time::Duration,
) -> (ambsolve::CancelFlag, std::thread::JoinHandle<()>) {
    let flag = ambsolve::CancelFlag::new();
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            flag.cancel();
        })
    };
    (flag, setter)
}

/// The n-queens model through the function API: one variable per row, three
/// all-different constraints.
pub fn queens_model(n: usize) -> ambsolve::Model<'static> {
    let mut m = ambsolve::Model::new();
    let q = m.vars("q", n, 0..n);
    m.all_different(&q);
    m.all_different_offset(q.iter().zip(0..));
    m.all_different_offset(q.iter().zip(0..).map(|(v, i)| (v, -i)));
    m
}

/// Every assignment of `lists`, as value tuples.
pub fn assignments(lists: &[Vec<i64>]) -> Vec<Vec<i64>> {
    lists.iter().fold(vec![Vec::new()], |partial, list| {
        partial
            .into_iter()
            .flat_map(|p| {
                list.iter().map(move |&x| {
                    let mut next = p.clone();
                    next.push(x);
                    next
                })
            })
            .collect()
    })
}

/// The 8 images of a board (columns per row) under the square's symmetries.
pub fn queens_orbit(q: &[usize]) -> Vec<Vec<usize>> {
    let n = q.len();
    let cells: Vec<(usize, usize)> = q.iter().enumerate().map(|(r, &c)| (r, c)).collect();
    type CellMap = fn(usize, usize, usize) -> (usize, usize);
    let maps: [CellMap; 8] = [
        |_, r, c| (r, c),
        |l, r, c| (c, l - r),
        |l, r, c| (l - r, l - c),
        |l, r, c| (l - c, r),
        |l, r, c| (r, l - c),
        |l, r, c| (l - r, c),
        |_, r, c| (c, r),
        |l, r, c| (l - c, l - r),
    ];
    maps.iter()
        .map(|f| {
            let mut image = vec![0; n];
            for &(r, c) in &cells {
                let (r2, c2) = f(n - 1, r, c);
                image[r2] = c2;
            }
            image
        })
        .collect()
}

// ---- running the examples from the command line ----

/// `example` run with `args` prints its usage on standard error, nothing on standard
/// output, and exits with status 2.
pub fn assert_usage_error(example: &str, args: &[&str]) {
    let out = run_example(example, args);
    assert_eq!(out.status.code(), Some(2), "{example} {args:?}");
    assert!(
        stderr(&out).contains(&format!("Usage: {example}")),
        "{example} {args:?}: {}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty(), "{example} {args:?}");
}

pub fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ambsolve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

pub fn stat(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .and_then(|v| v.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

/// Three lists of a hundred words that all link: a million chains.
pub fn linkable_lists(lines: usize, words: usize) -> String {
    let list: Vec<String> = (0..words).map(|i| format!("a{i}a")).collect();
    vec![list.join(" "); lines].join("\n") + "\n"
}

/// Starts an example, sends it `signal` after `after`, and returns its output.
#[cfg(unix)]
pub fn signalled(
    name: &str,
    args: &[&str],
    signal: &str,
    after: std::time::Duration,
) -> std::process::Output {
    use std::process::{Command, Stdio};
    let child = Command::new(example_binary(name))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait_with_output().unwrap()
}

/// A directory of its own for a test's files.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ambsolve-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
