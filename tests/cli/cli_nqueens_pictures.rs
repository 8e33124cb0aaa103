//! The nqueens example's pictures of a search: boards as SVG, the search tree, the step by
//! step trace, the animated board.

use crate::common;

use common::{run_example, stderr, stdout};

#[test]
fn nqueens_svg_of_four_queens() {
    let dir = common::temp_dir("svg");
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
fn nqueens_draws_its_search_tree() {
    let dir = common::temp_dir("tree");
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
    let dir = common::temp_dir("animate");
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
