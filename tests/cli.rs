//! The examples as a user runs them: outputs, exit statuses and error messages.

mod common;

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
        let out = run_example("nqueens", args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("Usage: nqueens"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{args:?}");
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
    let empty_line = temp_file("empty-line.txt", "a b\n\nc\n");
    let empty_file = temp_file("empty.txt", "");
    let cases = [
        (
            empty_line.to_str().unwrap().to_string(),
            "line 2: empty list",
        ),
        (
            empty_file.to_str().unwrap().to_string(),
            "the file is empty",
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
