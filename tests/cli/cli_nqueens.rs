//! The nqueens example as a user runs it: counts (through the board's symmetries or plain),
//! lists, first solutions (local search on big boards), statistics, sizes refused, limits and
//! Ctrl-C.

use crate::common;

use common::{assert_usage_error, run_example, stat, stderr, stdout};

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
    let out = common::run_example_into_closed_pipe("nqueens", &["12", "--all"]);
    assert!(out.status.success(), "{:?}", out.status);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
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
fn nqueens_help_and_behaviour_agree_on_big_boards() {
    let help = stdout(&run_example("nqueens", &["--help"]));
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    // What the help says: --first prints a big board as a checksum, --all as its columns.
    assert!(
        help.contains("With --first, a board above 1000 queens is printed as a checksum line"),
        "{help}"
    );
    assert!(
        help.contains("--all prints every board as its columns, whatever its size"),
        "{help}"
    );
    assert!(!help.contains("unless --all"), "{help}");
    // And what it does: the two do not go together, --all lists columns.
    assert_usage_error("nqueens", &["1001", "--first", "--all"]);
    let out = run_example(
        "nqueens",
        &[
            "1001",
            "--all",
            "--engine",
            "local",
            "--seed",
            "1",
            "--node-limit",
            "20000",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let first = text.lines().next().expect("a board");
    let columns: Vec<&str> = first.trim_matches(['[', ']']).split(", ").collect();
    assert_eq!(columns.len(), 1001, "{first}");
    assert!(!text.contains("checksum"), "{text}");
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

/// `--first` searches on one thread unless told otherwise: on more, the threads would
/// search later subproblems in vain while the first solution comes from the first (on
/// the replay engine at N = 30, twice the nodes and half as fast again).
#[test]
fn nqueens_first_searches_on_one_thread_by_default() {
    for engine in ["replay", "trail"] {
        let args = ["14", "--first", "--stats", "--engine", engine];
        let default = stdout(&run_example("nqueens", &args));
        let one = stdout(&run_example(
            "nqueens",
            &[&args[..], &["--threads", "1"]].concat(),
        ));
        assert!(!default.contains("subproblems:"), "{default}");
        assert_eq!(stat(&default, "nodes"), stat(&one, "nodes"), "{engine}");
    }
    // Asked for, threads still cut it into subproblems.
    let two = stdout(&run_example(
        "nqueens",
        &[
            "14",
            "--first",
            "--stats",
            "--engine",
            "replay",
            "--threads",
            "2",
        ],
    ));
    assert!(two.contains("subproblems:"), "{two}");
}

#[cfg(unix)]
#[test]
fn nqueens_ctrl_c_prints_the_partial_count() {
    let after = std::time::Duration::from_millis(700);
    let out = common::signalled("nqueens", &["18", "--count"], "INT", after);
    assert_eq!(out.status.code(), Some(130));
    let text = stdout(&out);
    assert!(
        text.contains("partial: interrupted by Ctrl-C, SIGTERM or SIGHUP;"),
        "{text}"
    );
    assert!(stat(&text, "solutions") > 0, "{text}");
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
