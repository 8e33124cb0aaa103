//! The examples as a user runs them: outputs, exit statuses and error messages.

mod common;

use ambsolve_examples::puzzles::golomb::is_golomb;
use common::{run_example, stderr, stdout};

#[test]
fn nqueens_counts_then_draws_the_first_board() {
    let out = run_example("nqueens", &["6"]);
    assert!(out.status.success());
    insta::assert_snapshot!(stdout(&out), @r"
    solutions: 4
    first solution [2, 4, 6, 1, 3, 5]:
    . Q . . . .
    . . . Q . .
    . . . . . Q
    Q . . . . .
    . . Q . . .
    . . . . Q .
    ");
}

#[test]
fn nqueens_all_prints_one_column_list_per_line_and_the_count_last() {
    let out = run_example("nqueens", &["4", "--all"]);
    assert!(out.status.success());
    insta::assert_snapshot!(stdout(&out), @r"
    [2, 4, 1, 3]
    [3, 1, 4, 2]
    solutions: 2
    ");
}

#[test]
fn nqueens_count_prints_only_the_count() {
    let out = run_example("nqueens", &["8", "--count"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "solutions: 92\n");
}

#[test]
fn nqueens_counts_through_the_board_symmetries_unless_told_plain() {
    for engine in ["trail", "replay"] {
        let through = stdout(&run_example(
            "nqueens",
            &["9", "--count", "--stats", "--engine", engine],
        ));
        let plain = stdout(&run_example(
            "nqueens",
            &["9", "--count", "--stats", "--plain", "--engine", engine],
        ));
        assert!(through.starts_with("solutions: 352\n"), "{through}");
        assert!(plain.starts_with("solutions: 352\n"), "{plain}");
        // The search found the 46 representatives and weighed each by its class.
        assert_eq!(stat(&through, "representatives"), 46, "{through}");
        assert!(!plain.contains("representatives"), "{plain}");
        assert!(
            stat(&through, "nodes") * 3 < stat(&plain, "nodes"),
            "{through}\n{plain}"
        );
    }
}

#[test]
fn nqueens_without_solutions_says_so_and_succeeds() {
    for n in ["2", "3"] {
        for mode in [&[][..], &["--count"], &["--first"], &["--all"]] {
            let mut args = vec![n];
            args.extend_from_slice(mode);
            let out = run_example("nqueens", &args);
            assert!(out.status.success(), "{args:?}");
            assert!(
                stdout(&out).contains("no solution"),
                "{args:?}: {}",
                stdout(&out)
            );
        }
    }
}

#[test]
fn nqueens_bad_arguments_print_usage_and_exit_2() {
    for args in [
        &["0"][..],
        &["eight"],
        &["-3"],
        &["8", "--bogus"],
        &[],
        &["8", "--all", "--count"],
    ] {
        assert_usage_error("nqueens", args);
    }
}

#[test]
fn word_chain_classic() {
    let out = run_example("word_chain", &[]);
    assert!(out.status.success());
    insta::assert_snapshot!(stdout(&out), @r"
    that thing grows slowly
    solutions: 1
    ");
}

/// `example` run with `args` prints its usage on standard error, nothing on standard
/// output, and exits with status 2.
fn assert_usage_error(example: &str, args: &[&str]) {
    let out = run_example(example, args);
    assert_eq!(out.status.code(), Some(2), "{example} {args:?}");
    assert!(
        stderr(&out).contains(&format!("Usage: {example}")),
        "{example} {args:?}: {}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty(), "{example} {args:?}");
}

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ambsolve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn word_chain_reads_lists_from_a_file() {
    let path = temp_file("lists.txt", "ab ac\nba bb ca\naz\n");
    let out = run_example("word_chain", &["--file", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out), @r"
    ab ba az
    ac ca az
    solutions: 2
    ");
    let out = run_example("word_chain", &["--file", path.to_str().unwrap(), "--count"]);
    assert_eq!(stdout(&out), "solutions: 2\n");
}

#[test]
fn word_chain_bad_files_are_clear_errors_with_status_2() {
    let blank_file = temp_file("blank.txt", " \n\n");
    let empty_file = temp_file("empty.txt", "");
    let binary_file = temp_file("binary.txt", "ab\n\0\0\n");
    let cases = [
        (
            blank_file.to_str().unwrap().to_string(),
            "no lists: the file is empty or blank",
        ),
        (
            empty_file.to_str().unwrap().to_string(),
            "no lists: the file is empty or blank",
        ),
        (
            binary_file.to_str().unwrap().to_string(),
            "line 2: a NUL byte: this is a binary file, not text",
        ),
        (
            "/nonexistent/lists.txt".to_string(),
            "cannot read /nonexistent/lists.txt",
        ),
    ];
    for (path, message) in cases {
        let out = run_example("word_chain", &["--file", &path]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        assert!(stderr(&out).contains(message), "{path}: {}", stderr(&out));
    }
    let out = run_example("word_chain", &["--file"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Usage: word_chain"));
}

#[test]
fn nqueens_engines_agree_from_the_command_line() {
    for engine in ["trail", "replay"] {
        let out = run_example("nqueens", &["6", "--all", "--engine", engine]);
        assert!(out.status.success(), "{engine}");
        insta::allow_duplicates! {
            insta::assert_snapshot!(stdout(&out), @r"
            [2, 4, 6, 1, 3, 5]
            [3, 6, 2, 5, 1, 4]
            [4, 1, 5, 2, 6, 3]
            [5, 3, 1, 6, 4, 2]
            solutions: 4
            ");
        }
    }
    let out = run_example("nqueens", &["6", "--engine", "bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Usage: nqueens"));
}

#[test]
fn nqueens_first_answers_a_thousand_queens() {
    let out = run_example("nqueens", &["1000", "--first"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let first_line = text.lines().next().unwrap();
    let columns: Vec<usize> = first_line
        .trim_matches(|c| c == '[' || c == ']')
        .split(", ")
        .map(|c| c.parse::<usize>().unwrap() - 1)
        .collect();
    assert!(common::is_queens_solution(&columns));
    assert_eq!(
        text.lines().count(),
        1 + 1000,
        "the columns, then the board"
    );
}

#[test]
fn nqueens_all_into_a_closed_pipe_ends_quietly() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::example_binary("nqueens"))
        .args(["12", "--all"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn sudoku_solves_a_file_and_summarizes() {
    let path = temp_file(
        "sudoku.txt",
        "# two puzzles\n2\n\n\
         4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
         000000010400000000020000000000050407008000300001090000300400200050100000000806000\r\n",
    );
    let out = run_example("sudoku", &[path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out), @r"
    417369825632158947958724316825437169791586432346912758289643571573291684164875293
    693784512487512936125963874932651487568247391741398625319475268856129743274836159
    solved: 2 of 2
    ");
}

#[test]
fn sudoku_malformed_lines_are_reported_with_their_number() {
    let cases = [
        (
            "short.txt",
            "# fine\n123\n4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4....\n",
            "line 3: a puzzle has 81 cells, this line has 79 characters",
        ),
        (
            "letter.txt",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....x\n",
            "line 1: 'x' is not a digit",
        ),
    ];
    for (name, text, message) in cases {
        let path = temp_file(name, text);
        let out = run_example("sudoku", &[path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(stderr(&out).contains(message), "{name}: {}", stderr(&out));
    }
    let out = run_example("sudoku", &["/nonexistent/puzzles.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"));
    let out = run_example("sudoku", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Usage: sudoku"));
}

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

#[test]
fn nqueens_fundamental_lists_the_12_representatives() {
    let out = run_example("nqueens", &["8", "--all", "--fundamental"]);
    assert!(out.status.success());
    insta::assert_snapshot!(stdout(&out), @r"
    [1, 5, 8, 6, 3, 7, 2, 4]
    [1, 6, 8, 3, 7, 4, 2, 5]
    [2, 4, 6, 8, 3, 1, 7, 5]
    [2, 5, 7, 1, 3, 8, 6, 4]
    [2, 5, 7, 4, 1, 8, 6, 3]
    [2, 6, 1, 7, 4, 8, 3, 5]
    [2, 6, 8, 3, 1, 4, 7, 5]
    [2, 7, 3, 6, 8, 5, 1, 4]
    [2, 7, 5, 8, 1, 4, 6, 3]
    [3, 5, 2, 8, 1, 7, 4, 6]
    [3, 5, 8, 4, 1, 7, 2, 6]
    [3, 6, 2, 5, 8, 1, 7, 4]
    solutions: 12
    (one per class under the 8 symmetries of the board: rotations and reflections)
    ");
    let counted = run_example(
        "nqueens",
        &["10", "--count", "--fundamental", "--engine", "replay"],
    );
    assert_eq!(stdout(&counted), "solutions: 92\n");
}

#[test]
fn nqueens_svg_of_four_queens() {
    let dir = std::env::temp_dir().join(format!("ambsolve-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("four.svg");
    let out = run_example("nqueens", &["4", "--all", "--svg", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        svg.matches("<circle").count(),
        8,
        "two boards of four queens"
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn nqueens_sizes_too_large_for_a_mode_are_usage_errors() {
    let cases: [(&[&str], &str); 7] = [
        (&["10", "--naive"], "N = 10 is too large with --naive"),
        (&["21", "--count"], "N = 21 is too large to count"),
        (
            &["16", "--engine", "replay"],
            "N = 16 is too large to count or list on the replay engine",
        ),
        (
            &["16", "--fundamental", "--engine", "replay"],
            "N = 16 is too large to count or list on the replay engine",
        ),
        (
            &["33", "--first", "--engine", "replay"],
            "N = 33 is too large for --first on the replay engine",
        ),
        (
            &["20001", "--first", "--engine", "trail"],
            "N = 20001 is too large for --first",
        ),
        (
            &["101", "--first", "--svg", "/tmp/x.svg"],
            "N = 101 is too large to draw",
        ),
    ];
    for (args, message) in cases {
        let out = run_example("nqueens", args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("Usage: nqueens"), "{args:?}");
    }
}

#[test]
fn nqueens_first_on_big_boards_is_local_search_verified_and_summed_up() {
    let out = run_example("nqueens", &["5000", "--first", "--stats"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "first solution: 5000 queens, verified (no two share a column or a diagonal)"
    );
    assert!(lines[1].starts_with("checksum: 0x"), "{text}");
    assert!(lines[2].starts_with("time: "), "{text}");
    assert!(
        text.contains("engine: Local, min-conflicts local search"),
        "{text}"
    );
    assert!(text.contains("moves: "), "{text}");
    assert!(text.contains("restarts: "), "{text}");
    // A seed gives one board; another seed (very likely) another.
    let checksum = |seed: &str| {
        let out = run_example("nqueens", &["5000", "--first", "--seed", seed]);
        stdout(&out).lines().nth(1).unwrap().to_string()
    };
    assert_eq!(checksum("7"), checksum("7"));
    assert_ne!(checksum("7"), checksum("8"));
}

#[test]
fn nqueens_local_search_never_claims_that_no_solution_exists() {
    for n in ["2", "3"] {
        let out = run_example("nqueens", &[n, "--first", "--engine", "local"]);
        assert!(out.status.success(), "{n}");
        let text = stdout(&out);
        assert!(
            text.starts_with("no solution found by local search within the limit (stopped after its default budget of "),
            "{n}: {text}"
        );
        assert!(!text.contains("no solution:"), "{n}: {text}");
    }
    let out = run_example(
        "nqueens",
        &["3", "--first", "--engine", "local", "--time-limit", "0.05"],
    );
    assert!(
        stdout(&out).contains("within the limit (stopped by --time-limit"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn nqueens_all_on_local_search_lists_distinct_verified_boards() {
    let out = run_example(
        "nqueens",
        &["8", "--all", "--engine", "local", "--node-limit", "20000"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let boards: Vec<Vec<usize>> = text
        .lines()
        .filter(|l| l.starts_with('['))
        .map(|l| {
            l.trim_matches(|c| c == '[' || c == ']')
                .split(", ")
                .map(|c| c.parse::<usize>().unwrap() - 1)
                .collect()
        })
        .collect();
    assert!(boards.len() > 1, "{text}");
    assert!(
        boards.iter().all(|b| common::is_queens_solution(b)),
        "{text}"
    );
    let distinct: std::collections::BTreeSet<_> = boards.iter().collect();
    assert_eq!(distinct.len(), boards.len(), "{text}");
    assert!(
        text.contains(&format!("solutions: {}\n", boards.len())),
        "{text}"
    );
    assert!(
        text.contains("local search stopped by --node-limit after 20000 steps"),
        "{text}"
    );
}

#[test]
fn nqueens_local_search_refuses_what_it_cannot_do() {
    for args in [
        &["8", "--engine", "local"][..],
        &["8", "--count", "--engine", "local"],
        &["8", "--first", "--engine", "local", "--fundamental"],
        &["8", "--first", "--engine", "local", "--naive"],
        &["8", "--first", "--engine", "local", "--trace"],
        &["8", "--count", "--engine", "local", "--checkpoint", "x.txt"],
    ] {
        let out = run_example("nqueens", args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("local search proves nothing and has no tree"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    for args in [&["10000001", "--first"][..], &["8", "--seed", "x"]] {
        assert_usage_error("nqueens", args);
    }
}

#[test]
fn colouring_finds_and_checks_a_colouring_of_a_random_graph() {
    let out = run_example("colouring", &["--stats"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("graph: 10000 vertices, 30000 edges (uniform, seed 1)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "colouring with 4 colours: found, verified (the ends of all 30000 edges differ)"
        ),
        "{text}"
    );
    assert!(text.contains("moves: "), "{text}");
    let out = run_example(
        "colouring",
        &[
            "--vertices",
            "12",
            "--degree",
            "3",
            "--colours",
            "3",
            "--list",
        ],
    );
    let text = stdout(&out);
    let colours: Vec<usize> = text
        .lines()
        .filter_map(|l| {
            let (vertex, colour) = l.split_once(' ')?;
            vertex.parse::<usize>().ok()?;
            colour.parse().ok()
        })
        .collect();
    assert_eq!(colours.len(), 12, "{text}");
    let graph = ambsolve_examples::puzzles::colouring::Graph::uniform(12, 3, 1);
    assert_eq!(graph.clash(&colours, 3), None, "{text}");
}

#[test]
fn colouring_tells_proof_from_giving_up() {
    // A dense graph of 30 vertices has no 3-colouring: the trail engine proves it.
    let dense = ["--vertices", "30", "--degree", "20", "--colours", "3"];
    let mut args = dense.to_vec();
    args.extend(["--engine", "trail"]);
    let out = run_example("colouring", &args);
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("no colouring with 3 colours exists"),
        "{}",
        stdout(&out)
    );
    // Local search only gives up.
    let mut args = dense.to_vec();
    args.extend(["--node-limit", "5000"]);
    let out = run_example("colouring", &args);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("no colouring found by local search within the limit (stopped by --node-limit after 5000 steps"),
        "{text}"
    );
    assert!(
        !text.contains("no colouring with 3 colours exists"),
        "{text}"
    );
}

#[test]
fn colouring_bad_arguments_print_usage_and_exit_2() {
    for args in [
        &["--vertices", "0"][..],
        &["--colours", "0"],
        &["--degree", "x"],
        &["--engine", "trail", "--vertices", "5000"],
        &["extra"],
    ] {
        assert_usage_error("colouring", args);
    }
}

#[test]
fn nqueens_unwritable_svg_path_is_a_clear_error() {
    let out = run_example("nqueens", &["6", "--svg", "/nonexistent/dir/q.svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot write /nonexistent/dir/q.svg"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty(), "no search ran");
}

fn stat(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .and_then(|v| v.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

#[test]
fn nqueens_stats_show_what_early_checking_saves() {
    let early = stdout(&run_example("nqueens", &["7", "--count", "--stats"]));
    let naive = stdout(&run_example(
        "nqueens",
        &["7", "--count", "--stats", "--naive"],
    ));
    for text in [&early, &naive] {
        assert_eq!(stat(text, "solutions"), 40);
        for field in ["failures", "propagations", "max depth"] {
            stat(text, field);
        }
        assert!(text.contains("time: "));
    }
    assert!(naive.contains("checked at the end"));
    // Generate and test tries every one of the 7^7 boards.
    assert_eq!(
        stat(&naive, "nodes"),
        (1..=7).map(|k| 7u64.pow(k)).sum::<u64>()
    );
    assert!(stat(&early, "nodes") * 1000 < stat(&naive, "nodes"));
    let replay = stdout(&run_example(
        "nqueens",
        &["7", "--count", "--stats", "--engine", "replay"],
    ));
    assert!(
        replay.contains("runs: ") && replay.contains("choices replayed: "),
        "{replay}"
    );
}

#[cfg(unix)]
#[test]
fn nqueens_ctrl_c_prints_the_partial_count() {
    use std::process::{Command, Stdio};
    let child = Command::new(common::example_binary("nqueens"))
        .args(["18", "--count"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let text = stdout(&out);
    assert!(
        text.contains("partial: interrupted by Ctrl-C, SIGTERM or SIGHUP;"),
        "{text}"
    );
    assert!(stat(&text, "solutions") > 0, "{text}");
}

// Issue 13: faults, limits and hostile input.

/// Every example with arguments that make it print something.
const EVERY_EXAMPLE: [(&str, &[&str]); 20] = [
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
    use std::process::{Command, Stdio};
    for (name, args) in EVERY_EXAMPLE {
        let mut child = Command::new(common::example_binary(name))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{name} {args:?}: {:?}", out.status);
        assert!(stderr(&out).is_empty(), "{name} {args:?}: {}", stderr(&out));
    }
}

/// Three lists of a hundred words that all link: a million chains.
fn linkable_lists(lines: usize, words: usize) -> String {
    let list: Vec<String> = (0..words).map(|i| format!("a{i}a")).collect();
    vec![list.join(" "); lines].join("\n") + "\n"
}

#[test]
fn word_chain_into_head_ends_quietly() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let path = temp_file("million.txt", &linkable_lists(3, 100));
    let mut child = Command::new(common::example_binary("word_chain"))
        .args(["--file", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "a0a a0a a0a\n");
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
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

#[test]
fn word_chain_count_stops_at_a_limit_and_says_which() {
    let path = temp_file("huge.txt", &linkable_lists(12, 100));
    let path = path.to_str().unwrap();
    let out = run_example(
        "word_chain",
        &["--file", path, "--count", "--time-limit", "0.3"],
    );
    assert!(out.status.success(), "{:?}", out.status);
    let text = stdout(&out);
    assert!(stat(&text, "solutions") > 0, "{text}");
    assert!(
        text.contains("\npartial: stopped by --time-limit; "),
        "{text}"
    );
    let out = run_example(
        "word_chain",
        &["--file", path, "--count", "--node-limit", "1000"],
    );
    assert!(out.status.success(), "{:?}", out.status);
    let text = stdout(&out);
    assert!(
        text.contains("\npartial: stopped by --node-limit after 1000 nodes; "),
        "{text}"
    );
    // Listing stops the same way.
    let out = run_example("word_chain", &["--file", path, "--node-limit", "13"]);
    assert!(out.status.success(), "{:?}", out.status);
    let text = stdout(&out);
    let listed = text.lines().filter(|l| l.starts_with("a0a ")).count() as u64;
    assert!(listed > 0, "{text}");
    assert_eq!(stat(&text, "solutions"), listed, "{text}");
    assert!(
        text.contains("\npartial: stopped by --node-limit after 13 nodes; "),
        "{text}"
    );
    for bad in ["-1", "soon", "NaN"] {
        let out = run_example("word_chain", &["--count", "--time-limit", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("expected a number of seconds"),
            "{bad}: {}",
            stderr(&out)
        );
    }
}

/// Starts an example, sends it `signal` after `after`, and returns its output.
#[cfg(unix)]
fn signalled(
    name: &str,
    args: &[&str],
    signal: &str,
    after: std::time::Duration,
) -> std::process::Output {
    use std::process::{Command, Stdio};
    let child = Command::new(common::example_binary(name))
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
fn nqueens_stops_at_a_limit_and_marks_the_count_partial() {
    let out = run_example("nqueens", &["18", "--count", "--time-limit", "0.2"]);
    assert!(out.status.success(), "{:?}", out.status);
    let text = stdout(&out);
    assert!(stat(&text, "solutions") > 0, "{text}");
    assert!(
        text.contains("partial: stopped by --time-limit; "),
        "{text}"
    );
    let out = run_example("nqueens", &["8", "--all", "--node-limit", "100"]);
    assert!(out.status.success(), "{:?}", out.status);
    let text = stdout(&out);
    let listed = text.lines().filter(|l| l.starts_with('[')).count() as u64;
    assert_eq!(stat(&text, "solutions"), listed, "{text}");
    assert!(listed < 92, "{text}");
    assert!(
        text.contains("partial: stopped by --node-limit after 100 nodes; "),
        "{text}"
    );
    // A first solution not found within the limit is not "no solution".
    let out = run_example("nqueens", &["3", "--first", "--node-limit", "1"]);
    let text = stdout(&out);
    assert!(!text.contains("no solution"), "{text}");
    assert!(
        text.starts_with("partial: stopped by --node-limit"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn sudoku_reads_dev_zero_in_bounded_memory_and_refuses_it() {
    let out = run_example("sudoku", &["/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "sudoku: /dev/zero: line 1: a NUL byte: this is a binary file, not text\n"
    );
    let out = run_example("word_chain", &["--file", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 1: a NUL byte"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sudoku_streams_its_file_and_bounds_a_line() {
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    // A line of a megabyte is refused after 4 KiB, with its number.
    let long = temp_file("long.txt", &format!("{puzzle}\n{}", ".".repeat(1 << 20)));
    let out = run_example("sudoku", &[long.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(": line 2: longer than 4096 bytes (is it the right file?)\n"),
        "{}",
        stderr(&out)
    );
    // Each puzzle is solved as it is read: the first is printed before the error.
    assert_eq!(
        stdout(&out),
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293\n"
    );
    let not_utf8 = temp_file("latin1.txt", "# caf\u{e9}\n");
    std::fs::write(&not_utf8, b"# caf\xe9\n").unwrap();
    let out = run_example("sudoku", &[not_utf8.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(": line 1: not valid UTF-8 text\n"),
        "{}",
        stderr(&out)
    );
    let out = run_example("sudoku", &["tests"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}

#[test]
fn sudoku_only_a_short_number_is_a_count_line() {
    let puzzle =
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
    let path = temp_file(
        "eighty.txt",
        &format!("123456\n{puzzle}\n{}\n{puzzle}\n", &puzzle[1..]),
    );
    let out = run_example("sudoku", &[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(": line 3: a puzzle has 81 cells, this line has 80 characters\n"),
        "{}",
        stderr(&out)
    );
    let path = temp_file("seven.txt", &format!("1234567\n{puzzle}\n"));
    let out = run_example("sudoku", &[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 1: a puzzle has 81 cells"),
        "{}",
        stderr(&out)
    );
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
fn word_chain_bounds_a_line_and_the_number_of_words() {
    let long = temp_file("long-list.txt", &"ab ".repeat(400_000));
    let out = run_example("word_chain", &["--file", long.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(": line 1: longer than 1048576 bytes (is it the right file?)\n"),
        "{}",
        stderr(&out)
    );
    let many = temp_file("many-words.txt", &linkable_lists(21, 5000));
    let out = run_example("word_chain", &["--file", many.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(": line 21: more than 100000 words in all\n"),
        "{}",
        stderr(&out)
    );
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

/// The lines of an optimisation's output that do not depend on the time it took: the
/// time in `proved optimal in ..` and the partial line's figures are cut off.
fn steady_lines(output: &str) -> String {
    output
        .lines()
        .map(|line| {
            if line.starts_with("proved optimal in ") {
                "proved optimal in ..".to_string()
            } else if let Some((why, _)) = line.split_once(';') {
                format!("{why}; ..")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The ruler on the `marks: ..` line of golomb's output, checked to be a Golomb ruler
/// with `n` marks whose length is on the `length: ..` line; `None` without a marks line.
fn golomb_marks(text: &str, n: usize) -> Option<Vec<i64>> {
    let line = text.lines().find_map(|line| line.strip_prefix("marks: "))?;
    let marks: Vec<i64> = line.split(' ').map(|m| m.parse().unwrap()).collect();
    assert!(is_golomb(&marks) && marks.len() == n, "{marks:?}");
    assert!(
        text.contains(&format!("\nlength: {}\n", marks[n - 1])),
        "{text}"
    );
    Some(marks)
}

#[test]
fn golomb_proves_the_shortest_ruler() {
    for (n, engine, length) in [("8", "trail", 34), ("7", "replay", 25)] {
        let out = run_example("golomb", &[n, "--engine", engine]);
        assert!(out.status.success(), "{engine}: {}", stderr(&out));
        let text = stdout(&out);
        let marks = golomb_marks(&text, n.parse().unwrap()).expect("a ruler");
        assert_eq!(marks.last(), Some(&length), "{engine}: {text}");
        assert!(text.contains("proved optimal in "), "{engine}: {text}");
        assert!(!text.contains("partial"), "{engine}: {text}");
    }
    let out = run_example("golomb", &["8"]);
    assert!(stdout(&out).contains("length: 34\nproved optimal in "));
}

#[test]
fn golomb_stopped_by_a_node_limit_prints_its_best_ruler_unproved() {
    let out = run_example("golomb", &["10", "--node-limit", "1000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("partial: stopped by --node-limit after 1000 nodes; "),
        "{text}"
    );
    assert!(text.ends_with("not proved optimal\n"), "{text}");
    assert!(!text.contains("proved optimal in"), "{text}");
    if golomb_marks(&text, 10).is_none() {
        assert!(text.starts_with("no ruler found\n"), "{text}");
    }
}

#[test]
fn golomb_bad_arguments_print_usage_and_exit_2() {
    for args in [
        &["0"][..],
        &["41"],
        &["x"],
        &["-3"],
        &[],
        &["8", "--engine", "bogus"],
        &["8", "--node-limit", "many"],
    ] {
        assert_usage_error("golomb", args);
    }
}

#[test]
fn assignment_cheapest_proves_the_least_cost() {
    let out = run_example("assignment", &["--cheapest"]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(steady_lines(&stdout(&out)), @r"
    assignment: task 2, task 5, task 3, task 4, task 1
    cost: 14
    proved optimal in ..
    ");
    let out = run_example("assignment", &["--cheapest", "--node-limit", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(steady_lines(&stdout(&out)), @r"
    no assignment found
    partial: stopped by --node-limit after 0 nodes; ..
    not proved optimal
    ");
    for args in [
        &["--cheapest", "14"][..],
        &[],
        &["--cheapest", "--cheapest"],
    ] {
        assert_usage_error("assignment", args);
    }
}

#[test]
fn knapsack_proves_the_most_valuable_choice() {
    let out = run_example("knapsack", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(steady_lines(&stdout(&out)), @r"
    items: 1 3 5 7 8 9 14 15
    weight: 749 of 750
    value: 1458
    proved optimal in ..
    ");
    let out = run_example("knapsack", &["--capacity", "1000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Two choices are worth 1934 within 1000 (brute force); either may come.
    assert!(text.contains("value: 1934\n"), "{text}");
    assert!(text.contains("proved optimal in "), "{text}");
    let out = run_example("knapsack", &["--capacity", "0"]);
    insta::assert_snapshot!(steady_lines(&stdout(&out)), @r"
    items: none
    weight: 0 of 0
    value: 0
    proved optimal in ..
    ");
    for args in [
        &["--capacity", "-1"][..],
        &["--capacity", "x"],
        &["--capacity"],
        &["750"],
    ] {
        assert_usage_error("knapsack", args);
    }
}

#[test]
fn nqueens_trace_of_four_queens_reads_step_by_step() {
    let out = run_example("nqueens", &["4", "--trace", "--count"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let expected_start = "\
row 1: try column 1
  row 2: try column 3 (2 of 4 columns left)
  fail: no safe column is left for row 3
  back to row 2: its next column
  row 2: try column 4
  fail: row 3 can only take column 2; then no safe column is left for row 4
back to row 1: its next column
row 1: try column 2
solution: row 1 in column 2, and the rows left forced by propagation
";
    assert!(text.starts_with(expected_start), "{text}");
    assert!(text.ends_with("solutions: 2\n"), "{text}");
    // On the replay engine: runs, each with the choices it replays.
    let out = run_example(
        "nqueens",
        &["4", "--trace", "--count", "--engine", "replay"],
    );
    let text = stdout(&out);
    assert!(
        text.starts_with("run 1: from the first choice\nrow 1: try column 1\n"),
        "{text}"
    );
    assert!(
        text.contains("run 2: replay 2 choices: row 1 in column 1, and the last one moved to its next alternative\n  row 2: try column 4\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "solution: row 1 in column 2, row 2 in column 4, row 3 in column 1, row 4 in column 3\n"
        ),
        "{text}"
    );
    // Generate and test: failures are attacks between placed queens.
    let out = run_example(
        "nqueens",
        &["4", "--trace", "--naive", "--count", "--trace-lines", "6"],
    );
    let text = stdout(&out);
    assert!(
        text.contains("fail: the queen of row 2 is the same column as the queen of row 1"),
        "{text}"
    );
    assert!(
        text.contains("... (trace stopped after 6 lines)\n"),
        "{text}"
    );
    assert_eq!(
        text.lines().count(),
        8,
        "6 lines, the cut, the count: {text}"
    );
}

#[test]
fn word_chain_trace_shows_each_run_and_its_prefix_on_replay() {
    let out = run_example("word_chain", &["--trace", "--engine", "replay"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "\
run 1: from the first choice
list 1: try \"the\"
  list 2: try \"elephant\" (1 of 3 words left)
    list 3: try \"treaded\" (1 of 3 words left)
    fail: no word of list 4 starts with 'd'
back to list 1: its next word
run 2: replay the first choice, moved to its next alternative
list 1: try \"that\"
  list 2: try \"thing\" (1 of 3 words left)
    list 3: try \"grows\" (1 of 3 words left)
      list 4: try \"slowly\" (1 of 2 words left)
      solution: \"that thing grows slowly\"
back to list 1: its next word
run 3: replay the first choice, moved to its next alternative
list 1: try \"a\"
fail: no word of list 2 starts with 'a'
that thing grows slowly
solutions: 1
"
    );
    let out = run_example("word_chain", &["--trace-lines", "3"]);
    assert_eq!(out.status.code(), Some(2), "--trace-lines needs --trace");
}

#[test]
fn nqueens_draws_its_search_tree() {
    let dir = std::env::temp_dir().join(format!("ambsolve-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (args, title) in [
        (
            vec!["4", "--count"],
            "4 queens, trail engine, checked early — nodes 8, failures 4, solutions 2",
        ),
        (
            vec!["4", "--count", "--engine", "replay"],
            "4 queens, replay engine, checked early — nodes 16, failures 4, solutions 2",
        ),
        (
            vec!["6", "--count", "--naive"],
            "6 queens, trail engine, generate and test — nodes 55986",
        ),
    ] {
        let path = dir.join("tree.svg");
        let mut all: Vec<&str> = args.clone();
        let path_text = path.to_str().unwrap().to_string();
        all.extend(["--tree", &path_text]);
        let out = run_example("nqueens", &all);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(
            svg.starts_with("<?xml") || svg.starts_with("<svg"),
            "{args:?}"
        );
        assert!(
            svg.contains(title),
            "{args:?}: {}",
            &svg[..svg.len().min(600)]
        );
        assert!(svg.trim_end().ends_with("</svg>"), "{args:?}");
        assert!(svg.len() < 2_000_000, "{args:?}: {} bytes", svg.len());
    }
    let out = run_example("nqueens", &["4", "--tree", "/nonexistent/dir/tree.svg"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn nqueens_animates_its_search_on_a_board() {
    let dir = std::env::temp_dir().join(format!("ambsolve-animate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("board.html");
    let path_text = path.to_str().unwrap().to_string();
    for engine in ["trail", "replay"] {
        let out = run_example(
            "nqueens",
            &["5", "--count", "--engine", engine, "--animate", &path_text],
        );
        assert!(out.status.success(), "{engine}: {}", stderr(&out));
        let page = std::fs::read_to_string(&path).unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"), "{engine}");
        assert!(page.contains("const N = 5;"), "{engine}");
        // Every solution of 5-queens is replayed on the board.
        assert_eq!(page.matches("[\"solution\",").count(), 10, "{engine}");
        assert!(
            page.contains("[\"try\",1,0,0]"),
            "{engine}: row 1 tries column 1 first"
        );
        assert!(page.trim_end().ends_with("</html>"), "{engine}");
    }
    let out = run_example("nqueens", &["9", "--animate", &path_text]);
    assert_eq!(out.status.code(), Some(2), "at most 8 queens to animate");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn nqueens_counts_on_threads_and_refuses_bad_thread_counts() {
    for threads in ["1", "2", "4"] {
        let out = run_example(
            "nqueens",
            &["10", "--count", "--threads", threads, "--stats"],
        );
        assert!(out.status.success(), "{threads}: {:?}", out.status);
        let text = stdout(&out);
        assert_eq!(stat(&text, "solutions"), 724, "{threads}: {text}");
        if threads != "1" {
            assert!(text.contains("subproblems: "), "{threads}: {text}");
            assert!(text.contains("imbalance"), "{threads}: {text}");
        }
    }
    // The same solutions in the same order on several threads.
    let one = run_example("nqueens", &["7", "--all", "--threads", "1"]);
    let two = run_example("nqueens", &["7", "--all", "--threads", "2"]);
    assert_eq!(stdout(&one), stdout(&two));
    for bad in [
        &["8", "--threads", "0"][..],
        &["8", "--threads", "many"],
        &["8", "--all", "--checkpoint", "x.txt"],
        &["8", "--first", "--resume", "x.txt"],
        &["8", "--count", "--checkpoint", "x.txt", "--resume", "x.txt"],
        &["6", "--count", "--trace", "--checkpoint", "x.txt"],
    ] {
        assert_usage_error("nqueens", bad);
    }
}

#[test]
fn nqueens_resumes_a_stopped_count_and_refuses_another_puzzles_checkpoint() {
    let dir = std::env::temp_dir().join(format!("ambsolve-cli-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("q11.txt");
    let file = file.to_str().unwrap();
    let out = run_example(
        "nqueens",
        &[
            "11",
            "--count",
            "--checkpoint",
            file,
            "--node-limit",
            "4000",
        ],
    );
    assert!(out.status.success(), "{:?}", out.status);
    let text = stdout(&out);
    assert!(text.contains("partial: stopped by --node-limit"), "{text}");
    let partial = stat(&text, "solutions");
    assert!(partial < 2680, "{text}");
    let out = run_example(
        "nqueens",
        &["11", "--count", "--resume", file, "--threads", "2"],
    );
    assert!(out.status.success(), "{:?} {}", out.status, stderr(&out));
    assert_eq!(stat(&stdout(&out), "solutions"), 2680, "{}", stdout(&out));
    // Another size, another engine: refused, with the reason, status 1.
    for args in [
        &["12", "--count", "--resume", file][..],
        &["11", "--count", "--resume", file, "--engine", "replay"],
    ] {
        let out = run_example("nqueens", args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains("another search"), "{}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    }
    // Not a checkpoint at all, or no file.
    std::fs::write(dir.join("junk.txt"), "hello\n").unwrap();
    let junk = dir.join("junk.txt");
    let out = run_example(
        "nqueens",
        &["11", "--count", "--resume", junk.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not a checkpoint"),
        "{}",
        stderr(&out)
    );
    let missing = dir.join("missing.txt");
    let out = run_example(
        "nqueens",
        &["11", "--count", "--resume", missing.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn nqueens_killed_mid_count_resumes_with_nothing_lost() {
    let dir = std::env::temp_dir().join(format!("ambsolve-cli-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("q13.txt");
    let file = file.to_str().unwrap();
    // Killed outright (no chance to write anything more) once some subproblems are done.
    let mut child = std::process::Command::new(common::example_binary("nqueens"))
        .args(["13", "--count", "--threads", "2", "--checkpoint", file])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let done_lines = || {
        std::fs::read_to_string(file)
            .map(|t| t.lines().filter(|l| l.starts_with("done ")).count())
            .unwrap_or(0)
    };
    while done_lines() < 3 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap();
    assert!(
        child.wait().unwrap().code().is_none(),
        "killed by the signal"
    );
    let text = std::fs::read_to_string(file).unwrap();
    let all: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("subproblems "))
        .unwrap()
        .parse()
        .unwrap();
    let done = done_lines();
    assert!(
        done >= 3 && done < all,
        "killed half-way: {done} of {all} done"
    );
    let out = run_example("nqueens", &["13", "--count", "--resume", file, "--stats"]);
    assert!(out.status.success(), "{:?} {}", out.status, stderr(&out));
    let text = stdout(&out);
    assert_eq!(stat(&text, "solutions"), 73_712, "{text}");
    // The finished ones were not searched again: all are done, the earlier ones restored.
    assert!(
        text.contains(&format!("subproblems: {all} of {all} done")),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A directory of its own for a test's files.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ambsolve-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn nqueens_refuses_a_corrupted_checkpoint_naming_the_line() {
    let dir = temp_dir("corrupt");
    let file = dir.join("q10.txt");
    let path = file.to_str().unwrap();
    let args = ["10", "--count", "--plain", "--threads", "1"];
    let stopped = run_example(
        "nqueens",
        &[&args[..], &["--checkpoint", path, "--node-limit", "3000"]].concat(),
    );
    assert!(stopped.status.success(), "{}", stderr(&stopped));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (first, entry) = (lines.iter())
        .enumerate()
        .find(|(_, l)| l.starts_with("done "))
        .unwrap();
    let fields: Vec<&str> = entry.split(' ').collect();
    let unfinished = (0..)
        .find(|i| !text.contains(&format!("\ndone {i} ")))
        .unwrap();
    let count: u64 = fields[3].parse().unwrap();
    let corrupted = [
        // One more solution in a finished subproblem; a finished one said to be another.
        entry.replacen(&format!(" {count} "), &format!(" {} ", count + 1), 1),
        entry.replacen(
            &format!("done {} ", fields[1]),
            &format!("done {unfinished} "),
            1,
        ),
    ];
    for changed in corrupted {
        let mut bad = lines.clone();
        bad[first] = &changed;
        std::fs::write(&file, bad.join("\n") + "\n").unwrap();
        let out = run_example("nqueens", &[&args[..], &["--resume", path]].concat());
        assert_eq!(out.status.code(), Some(1), "{changed}: {}", stdout(&out));
        let line = format!("line {}: corrupted", first + 1);
        assert!(stderr(&out).contains(&line), "{changed}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    }
    // Untouched, it finishes the count.
    std::fs::write(&file, &text).unwrap();
    let out = run_example("nqueens", &[&args[..], &["--resume", path]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stat(&stdout(&out), "solutions"), 724);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn nqueens_refuses_a_huge_checkpoint_at_its_first_bad_line() {
    let dir = temp_dir("huge");
    let file = dir.join("q8.txt");
    let path = file.to_str().unwrap();
    let out = run_example("nqueens", &["8", "--count", "--checkpoint", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    let header: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    // 64 MB of short lines (held as lines, 1.7 GB), then a line of a megabyte: each
    // refused at once, at line 6.
    let short = header.clone() + &"y\n".repeat(32 << 20);
    let long = header + "done " + &"1".repeat(1 << 20) + "\n";
    for (body, why) in [(short, "line 6: corrupted"), (long, "line 6: longer than")] {
        std::fs::write(&file, body).unwrap();
        // In 512 MB of address space at most, where it does not fit.
        let out = std::process::Command::new("sh")
            .args(["-c", "ulimit -v 524288 && exec \"$0\" \"$@\""])
            .arg(common::example_binary("nqueens"))
            .args(["8", "--count", "--resume", path])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn nqueens_checkpoint_refuses_what_is_not_a_regular_file_and_one_file_for_two_outputs() {
    let dir = temp_dir("paths");
    let target = dir.join("precious.txt");
    std::fs::write(&target, "keep me\n").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for (path, kind) in [(&link, "a symbolic link"), (&dir, "a directory")] {
        let path = path.to_str().unwrap();
        for option in ["--checkpoint", "--resume"] {
            let out = run_example("nqueens", &["6", "--count", option, path]);
            assert_eq!(out.status.code(), Some(1), "{option} {path}");
            assert!(
                stderr(&out).contains(&format!("{kind}, not a regular file")),
                "{}",
                stderr(&out)
            );
        }
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
    // One file for two outputs: a usage error, before anything is written.
    let svg = dir.join("out.svg");
    let same = dir.join(".").join("out.svg");
    let (svg, same) = (svg.to_str().unwrap(), same.to_str().unwrap());
    for args in [
        &["5", "--all", "--svg", svg, "--tree", svg][..],
        &["5", "--all", "--svg", svg, "--tree", same],
        &["5", "--count", "--tree", svg, "--animate", svg],
    ] {
        assert_usage_error("nqueens", args);
        let out = run_example("nqueens", args);
        assert!(
            stderr(&out).contains("name the same file"),
            "{}",
            stderr(&out)
        );
        assert!(!dir.join("out.svg").exists(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
