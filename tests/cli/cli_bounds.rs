//! The examples at their bounds: sizes refused for their memory, every phase stopped by a
//! signal, progress shown on a terminal, a closed standard output, standard input, and
//! arguments refused before the search.

use crate::common;

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{example_binary, run_example, stderr, stdout};

/// Runs `command`, sending it `signal` after `after` if given, and fails the test if it
/// has not ended `within` after it started (it is killed then).
fn run_within(
    mut command: Command,
    signal: Option<(&str, Duration)>,
    within: Duration,
) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example runs");
    let mut signalled = signal.is_none();
    loop {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            return (out, started.elapsed());
        }
        if let Some((name, after)) = signal {
            if !signalled && started.elapsed() >= after {
                let pid = child.id().to_string();
                let sent = Command::new("kill")
                    .args([&format!("-{name}"), &pid])
                    .status();
                assert!(sent.unwrap().success());
                signalled = true;
            }
        }
        if started.elapsed() > within {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {within:?}: {}{}",
                stdout(&out),
                stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn example(name: &str, args: &[&str]) -> Command {
    let mut command = Command::new(example_binary(name));
    command.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

#[test]
fn colouring_refuses_a_graph_too_big_for_memory_before_drawing_it() {
    let args = ["--vertices", "1000000", "--degree", "100"];
    let (out, _) = run_within(example("colouring", &args), None, Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(
        text.contains("--vertices 1000000 --degree 100 would take about 35.1 GB (50000000 edges)"),
        "{text}"
    );
    assert!(text.contains("Usage: colouring"), "{text}");
    assert!(stdout(&out).is_empty());
    // The help says where the bound is.
    let help = stdout(&run_example("colouring", &["--help"]));
    assert!(help.contains("exceeds 16 GiB"), "{help}");
}

#[cfg(unix)]
#[test]
fn colouring_signals_stop_the_drawing_of_the_graph_and_the_building() {
    // A million vertices take seconds to draw and build: a signal stops it at once.
    let args = ["--vertices", "1000000", "--degree", "10"];
    for signal in ["TERM", "INT"] {
        let sent = Some((signal, Duration::from_millis(400)));
        let (out, took) = run_within(example("colouring", &args), sent, Duration::from_secs(20));
        assert_eq!(out.status.code(), Some(130), "{signal}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.starts_with("partial: interrupted by Ctrl-C, SIGTERM or SIGHUP while "),
            "{signal}: {text}"
        );
        assert!(took < Duration::from_secs(4), "{signal}: {took:?}");
    }
}

/// Runs `command` under a pseudo-terminal (`script`), so that standard error is a
/// terminal; returns what the terminal showed and the exit status.
#[cfg(target_os = "linux")]
fn on_a_terminal(name: &str, args: &[&str]) -> (String, Option<i32>) {
    let line = std::iter::once(example_binary(name).display().to_string())
        .chain(args.iter().map(|a| (*a).to_string()))
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    (stdout(&out), out.status.code())
}

#[cfg(target_os = "linux")]
#[test]
fn long_searches_show_progress_on_a_terminal_and_keep_the_partial_result() {
    let (shown, status) = on_a_terminal(
        "colouring",
        &[
            "--vertices",
            "2000",
            "--engine",
            "trail",
            "--time-limit",
            "2.5",
        ],
    );
    assert_eq!(status, Some(0), "{shown}");
    assert!(shown.contains(" searching for 1s: "), "{shown}");
    assert!(shown.contains(" nodes ("), "{shown}");
    assert!(shown.contains("/s) (Ctrl-C stops)"), "{shown}");
    assert!(
        shown.contains("partial: stopped by --time-limit; 0 colourings"),
        "{shown}"
    );
    let (shown, status) = on_a_terminal(
        "golomb",
        &["9", "--engine", "replay", "--time-limit", "2.5"],
    );
    assert_eq!(status, Some(0), "{shown}");
    assert!(shown.contains(" searching for 1s: "), "{shown}");
    assert!(shown.contains(", best so far: "), "{shown}");
    assert!(
        shown.contains("partial: stopped by --time-limit; "),
        "{shown}"
    );
    assert!(shown.contains("not proved optimal"), "{shown}");
    // Not on a terminal: no progress line.
    let out = run_example(
        "golomb",
        &["9", "--engine", "replay", "--time-limit", "1.5"],
    );
    assert!(!stderr(&out).contains("searching"), "{}", stderr(&out));
}

#[cfg(target_os = "linux")]
#[test]
fn a_long_count_shows_its_share_done_and_time_left_on_a_terminal() {
    // One thread: the share of the first choices' branches finished.
    let (shown, status) = on_a_terminal(
        "nqueens",
        &["17", "--count", "--threads", "1", "--time-limit", "1.8"],
    );
    assert_eq!(status, Some(0), "{shown}");
    assert!(shown.contains("% ["), "{shown}");
    assert!(shown.contains(" left: "), "{shown}");
    assert!(shown.contains(" solutions ("), "{shown}");
    assert!(shown.contains("/s) (Ctrl-C stops)"), "{shown}");
    assert!(
        shown.contains("partial: stopped by --time-limit; "),
        "{shown}"
    );
    // Several: the subproblems finished and their rate.
    let (shown, status) = on_a_terminal(
        "nqueens",
        &["17", "--count", "--threads", "2", "--time-limit", "1.8"],
    );
    assert_eq!(status, Some(0), "{shown}");
    assert!(shown.contains(" subproblems ("), "{shown}");
    assert!(shown.contains(" left: "), "{shown}");
    // Not on a terminal: nothing on standard error.
    let out = run_example("nqueens", &["17", "--count", "--time-limit", "1.5"]);
    assert_eq!(stderr(&out), "", "no progress when piped");
}

#[test]
fn golomb_on_local_search_is_a_usage_error() {
    let out = run_example("golomb", &["10", "--engine", "local"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("local search does not optimise"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("Usage: golomb"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_output_is_an_error() {
    let out = Command::new("sh")
        .args(["-c", "exec \"$0\" 8 --all >&-"])
        .arg(example_binary("nqueens"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "cannot write to standard output: Bad file descriptor (os error 9)\n"
    );
    // Into /dev/null is writing, and succeeds.
    let out = Command::new("sh")
        .args(["-c", "exec \"$0\" 8 --all >/dev/null"])
        .arg(example_binary("nqueens"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const SOLVED: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

#[test]
fn sudoku_reads_standard_input_for_a_dash() {
    let input = format!("1\n{PUZZLE}\nx\n");
    let out = common::run_example_with_input("sudoku", &["-"], input.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{SOLVED}\n"));
    assert_eq!(
        stderr(&out),
        "sudoku: standard input: line 3: a puzzle has 81 cells, this line has 1 character\n"
    );
}

#[test]
fn sudoku_skips_a_count_line_before_the_first_puzzle_only() {
    let dir = common::temp_dir("bounds");
    let path = dir.join("counts.txt");
    std::fs::write(&path, format!("2\n{PUZZLE}\n123\n{PUZZLE}\n")).unwrap();
    let out = run_example("sudoku", &[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{SOLVED}\n"));
    assert!(
        stderr(&out).ends_with(
            ": line 3: a puzzle has 81 cells, this line has 3 characters (a count line may \
             only come before the first puzzle)\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_resumable_count_spends_the_cutting_nodes_whole_and_says_so() {
    let dir = common::temp_dir("bounds");
    let file = dir.join("cut.txt");
    let file = file.to_str().unwrap();
    let args = ["12", "--count", "--node-limit", "0", "--checkpoint", file];
    let out = run_example("nqueens", &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("solutions: 0\npartial: stopped by --node-limit after "),
        "{text}"
    );
    // What it did is what the help says, and the file it wrote finishes the count.
    let help = stdout(&run_example("nqueens", &["--help"]));
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("count against --node-limit, and are spent whole even under a smaller limit"),
        "{help}"
    );
    let out = run_example("nqueens", &["12", "--count", "--resume", file]);
    assert_eq!(stdout(&out), "solutions: 14200\n", "{}", stderr(&out));
}
