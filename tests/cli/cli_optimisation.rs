//! The optimising examples as a user runs them: golomb (on one thread or several), the
//! cheapest assignment and the knapsack proved optimal, or stopped by a limit unproved.

use crate::common;

use ambsolve_examples::puzzles::golomb::is_golomb;
use common::{assert_usage_error, run_example, stderr, stdout};

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
fn golomb_on_threads_proves_the_same_optimum() {
    for (n, length) in [(7usize, 25), (8, 34), (9, 44)] {
        for threads in ["1", "2", "3"] {
            let out = run_example("golomb", &[&n.to_string(), "--threads", threads, "--stats"]);
            assert!(out.status.success(), "{threads}: {}", stderr(&out));
            let text = stdout(&out);
            let marks = golomb_marks(&text, n).expect("a ruler");
            assert_eq!(marks.last(), Some(&length), "{threads} threads: {text}");
            assert!(text.contains("proved optimal in "), "{threads}: {text}");
            assert!(
                text.contains(&format!(", threads: {threads}\n")),
                "{threads}: {text}"
            );
        }
    }
    for threads in ["0", "1025", "x"] {
        assert_usage_error("golomb", &["8", "--threads", threads]);
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
