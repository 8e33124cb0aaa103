//! The word_chain example as a user runs it: the classic lists, lists from a file (bounded
//! lines and words, clear errors), a closed pipe, limits, and the trace on the replay engine.

use crate::common;

use common::{linkable_lists, run_example, stat, stderr, stdout, temp_file};

#[test]
fn word_chain_classic() {
    let out = run_example("word_chain", &[]);
    assert!(out.status.success());
    insta::assert_snapshot!(stdout(&out), @r"
    that thing grows slowly
    solutions: 1
    ");
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
