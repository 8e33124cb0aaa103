//! Every example as a user runs it: unknown arguments, failed writes, closed pipes, signals,
//! input files with a byte order mark; and the small puzzles' answers (send_more_money, zebra,
//! dwelling, map_colouring, magic_square, pythagorean, langford, assignment). Each example
//! with more to it has its own `cli_<example>.rs`.

use crate::common;

use common::{linkable_lists, run_example, signalled, stat, stderr, stdout, temp_file};

#[test]
fn send_more_money_prints_its_sum() {
    let out = run_example("send_more_money", &[]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "9567 + 1085 = 10652\nsolutions: 1\n");
}

#[test]
fn the_puzzle_examples_print_their_answers() {
    let zebra = run_example("zebra", &[]);
    assert!(zebra.status.success());
    insta::assert_snapshot!(stdout(&zebra), @r"
    the Norwegian drinks water; the Japanese owns the zebra
    solutions: 1
    ");
    let dwelling = run_example("dwelling", &[]);
    insta::assert_snapshot!(stdout(&dwelling), @r"
    Baker lives on floor 3
    Cooper lives on floor 2
    Fletcher lives on floor 4
    Miller lives on floor 5
    Smith lives on floor 1
    solutions: 1
    ");
    let magic = run_example("magic_square", &[]);
    insta::assert_snapshot!(stdout(&magic), @r"
    2 7 6 | 9 5 1 | 4 3 8
    2 9 4 | 7 5 3 | 6 1 8
    4 3 8 | 9 5 1 | 2 7 6
    4 9 2 | 3 5 7 | 8 1 6
    6 1 8 | 7 5 3 | 2 9 4
    6 7 2 | 1 5 9 | 8 3 4
    8 1 6 | 3 5 7 | 4 9 2
    8 3 4 | 1 5 9 | 6 7 2
    solutions: 8
    ");
    let colours = run_example("map_colouring", &[]);
    let text = stdout(&colours);
    assert_eq!(text.lines().count(), 19);
    assert!(text.ends_with("solutions: 18\n"));
    assert!(
        text.starts_with("WA=red NT=green SA=blue Q=red NSW=green V=red T=red\n"),
        "{text}"
    );
}

#[test]
fn pythagorean_takes_its_bound_and_rejects_bad_ones() {
    let out = run_example("pythagorean", &["20"]);
    assert!(out.status.success());
    insta::assert_snapshot!(stdout(&out), @r"
    3² + 4² = 5²
    5² + 12² = 13²
    6² + 8² = 10²
    8² + 15² = 17²
    9² + 12² = 15²
    12² + 16² = 20²
    solutions: 6
    ");
    for args in [
        &[][..],
        &["0"],
        &["x"],
        &["20", "--all"],
        &["2001"],
        &["100000"],
    ] {
        let out = run_example("pythagorean", args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("Usage: pythagorean"), "{args:?}");
    }
    let out = run_example("pythagorean", &["2001"]);
    assert!(
        stderr(&out).starts_with("error: N = 2001 is too large: at most 2000 "),
        "{}",
        stderr(&out)
    );
    let out = run_example("pythagorean", &["2000", "--time-limit", "0.2"]);
    assert!(out.status.success(), "{:?}", out.status);
    assert!(
        stdout(&out).contains("\npartial: stopped by --time-limit; "),
        "{}",
        stdout(&out)
    );
}

// Issue 13: faults, limits and hostile input.

/// Every example with arguments that make it print something.
const EVERY_EXAMPLE: [(&str, &[&str]); 22] = [
    ("nqueens", &["6"]),
    ("nqueens", &["2000", "--first"]),
    ("colouring", &["--vertices", "300"]),
    ("word_chain", &[]),
    ("word_chain", &["--count"]),
    ("sudoku", &["tests/data/sudoku/hardest.txt"]),
    ("send_more_money", &[]),
    ("zebra", &[]),
    ("dwelling", &[]),
    ("map_colouring", &[]),
    ("magic_square", &[]),
    ("pythagorean", &["20"]),
    ("langford", &["4"]),
    ("langford", &["4", "--all", "--engine", "replay"]),
    ("assignment", &["16"]),
    ("assignment", &["--cheapest"]),
    ("golomb", &["6"]),
    ("knapsack", &[]),
    ("tsp", &["--cities", "6"]),
    ("nonogram", &["tests/data/nonogram/letter_a.txt"]),
    ("jobshop", &["tests/data/jobshop/ft06.txt"]),
    ("single_machine", &["6"]),
];

/// Runs an example with its standard output going to `stdout`.
fn run_into(name: &str, args: &[&str], stdout: std::process::Stdio) -> std::process::Output {
    std::process::Command::new(common::example_binary(name))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("the example binary runs")
}

#[cfg(target_os = "linux")]
#[test]
fn every_example_reports_a_failed_write_without_panicking() {
    for (name, args) in EVERY_EXAMPLE {
        let full = std::fs::File::create("/dev/full").unwrap();
        let out = run_into(name, args, full.into());
        assert_eq!(out.status.code(), Some(1), "{name} {args:?}");
        assert_eq!(
            stderr(&out),
            "cannot write to standard output: No space left on device (os error 28)\n",
            "{name} {args:?}"
        );
    }
}

#[test]
fn every_example_into_a_closed_pipe_ends_quietly() {
    for (name, args) in EVERY_EXAMPLE {
        let out = common::run_example_into_closed_pipe(name, args);
        assert!(out.status.success(), "{name} {args:?}: {:?}", out.status);
        assert!(stderr(&out).is_empty(), "{name} {args:?}: {}", stderr(&out));
    }
}

#[test]
fn every_example_rejects_unknown_arguments_with_usage_and_status_2() {
    for (name, args) in EVERY_EXAMPLE {
        for extra in ["--bogus", "extra"] {
            let mut args = args.to_vec();
            args.push(extra);
            let out = run_into(name, &args, std::process::Stdio::piped());
            assert_eq!(out.status.code(), Some(2), "{name} {args:?}");
            assert!(
                stderr(&out).contains(&format!("Usage: {name}")),
                "{name} {args:?}: {}",
                stderr(&out)
            );
            assert!(stdout(&out).is_empty(), "{name} {args:?}");
        }
    }
    for name in ["zebra", "word_chain", "sudoku"] {
        let out = run_example(name, &["--help"]);
        assert!(out.status.success(), "{name}");
        assert!(stdout(&out).contains(&format!("Usage: {name}")), "{name}");
    }
}

#[cfg(unix)]
#[test]
fn sigterm_and_sighup_keep_the_partial_count_as_ctrl_c_does() {
    let huge = temp_file("huge-signals.txt", &linkable_lists(12, 100));
    let huge = huge.to_str().unwrap();
    let runs: [(&str, &[&str], &str); 4] = [
        ("nqueens", &["18", "--count"], "TERM"),
        ("nqueens", &["18", "--count"], "HUP"),
        ("word_chain", &["--file", huge, "--count"], "INT"),
        ("word_chain", &["--file", huge, "--count"], "TERM"),
    ];
    for (name, args, signal) in runs {
        let out = signalled(name, args, signal, std::time::Duration::from_millis(500));
        assert_eq!(out.status.code(), Some(130), "{name} {signal}");
        let text = stdout(&out);
        assert!(stat(&text, "solutions") > 0, "{name} {signal}: {text}");
        assert!(
            text.contains("\npartial: interrupted by Ctrl-C, SIGTERM or SIGHUP; "),
            "{name} {signal}: {text}"
        );
    }
}

#[test]
fn a_byte_order_mark_and_blank_lines_are_accepted() {
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let path = temp_file("bom.txt", &format!("\u{feff}{puzzle}\n"));
    let out = run_example("sudoku", &[path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("solved: 1 of 1\n"),
        "{}",
        stdout(&out)
    );
    let path = temp_file("bom-lists.txt", "\u{feff}ab ac\n\nba bb ca\r\naz\n\n");
    let out = run_example("word_chain", &["--file", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ab ba az\nac ca az\nsolutions: 2\n");
}

#[test]
fn langford_counts_and_lists_on_both_engines() {
    for engine in ["trail", "replay"] {
        let out = run_example("langford", &["7", "--engine", engine]);
        assert!(out.status.success(), "{engine}");
        assert_eq!(stdout(&out), "solutions: 52\n", "{engine}");
        let out = run_example(
            "langford",
            &["4", "--all", "--fundamental", "--engine", engine],
        );
        assert_eq!(stdout(&out), "4 1 3 1 2 4 3 2\nsolutions: 1\n", "{engine}");
    }
    let out = run_example("langford", &["3", "--engine", "replay", "--stats"]);
    assert!(
        stdout(&out).contains("choice order: p[0] s[0] p[1] s[1] p[2] s[2]"),
        "{}",
        stdout(&out)
    );
    let out = run_example("langford", &["13"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("N = 13 is too large"));
}

#[test]
fn assignment_prints_the_assignments_within_the_budget() {
    let out = run_example("assignment", &["14"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "task 2, task 5, task 3, task 4, task 1 (cost 14)\nsolutions: 1\n"
    );
    let out = run_example("assignment", &["ten"]);
    assert_eq!(out.status.code(), Some(2));
}
