//! The nonogram example as a user runs it: pictures, counts, and malformed files named
//! by their line.

use crate::common;

use common::{data_dir, run_example, run_example_with_input, stderr, stdout, temp_file};

fn puzzle(name: &str) -> String {
    data_dir()
        .join("nonogram")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn the_letter_a_is_drawn() {
    let out = run_example("nonogram", &[&puzzle("letter_a.txt")]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out), @r"
    .###.
    #...#
    #####
    #...#
    #...#
    ");
}

#[test]
fn dom_06_of_the_minizinc_benchmarks_has_one_picture() {
    let out = run_example("nonogram", &[&puzzle("dom_06.txt")]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out), @r"
    ..........###
    ............#
    ........###.#
    ..........#..
    ......###.#..
    ........#....
    ....###.#....
    ......#......
    ..###.#......
    ....#........
    ###.#........
    ..#..........
    ..#..........
    ");
    let out = run_example("nonogram", &[&puzzle("dom_06.txt"), "--count"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "solutions: 1\n");
}

#[test]
fn a_puzzle_is_read_from_standard_input_and_may_have_no_picture() {
    // Two rows of one black cell each, but no column holds one: a row and the two
    // columns conflict (a minimal set of clues).
    let out = run_example_with_input("nonogram", &["-"], b"2 2\n1\n1\n0\n0\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "no solution\nthese clues conflict:\n  row 1: 1\n  column 1: 0\n  column 2: 0\n"
    );
    // Two pictures: a diagonal either way.
    let path = temp_file("two.txt", "2 2\n1\n1\n1\n1\n");
    let out = run_example("nonogram", &[path.to_str().unwrap(), "--count"]);
    assert_eq!(stdout(&out), "solutions: 2\n");
}

#[test]
fn malformed_files_are_errors_naming_their_line() {
    let cases = [
        (
            "size.txt",
            "# a comment\n5 x\n",
            "line 2: expected the number of rows and of columns (1 to 500 each), not \"5 x\"",
        ),
        ("zero.txt", "0 3\n", "line 1: expected the number of rows"),
        ("huge.txt", "501 3\n", "line 1: expected the number of rows"),
        (
            "three.txt",
            "2 2 2\n",
            "line 1: expected the number of rows",
        ),
        (
            "long.txt",
            "2 3\n\n2 2\n",
            "line 3: the clue 2 2 needs more than the 3 cells of a row",
        ),
        (
            "word.txt",
            "2 3\n1\n1 a\n",
            "line 3: \"a\" is not a run length",
        ),
        (
            "negative.txt",
            "2 3\n-1\n",
            "line 2: \"-1\" is not a run length",
        ),
        (
            "gap.txt",
            "2 3\n1 0\n",
            "line 2: a run of 0 cells: 0 stands alone, for an empty row",
        ),
        (
            "column.txt",
            "1 2\n1\n2\n",
            "line 3: the clue 2 needs more than the 1 cells of a column",
        ),
        (
            "short.txt",
            "2 2\n1\n1\n1\n",
            "line 5: the file ends after 2 of the 2 row clues and 1 of the 2 column clues",
        ),
        (
            "extra.txt",
            "1 1\n1\n1\n# fine\n1\n",
            "line 5: more lines than the 1 row and 1 column clues",
        ),
        (
            "empty.txt",
            "\n# nothing\n",
            "no puzzles: the file is empty or blank",
        ),
        ("binary.txt", "1 1\n\0\n", "line 2: a NUL byte"),
    ];
    for (name, text, message) in cases {
        let path = temp_file(name, text);
        let out = run_example("nonogram", &[path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(stderr(&out).contains(message), "{name}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{name}");
    }
    let endless = format!("1 1\n{}\n", "1 ".repeat(3000));
    let path = temp_file("endless.txt", &endless);
    let out = run_example("nonogram", &[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 2: longer than 4096 bytes"),
        "{}",
        stderr(&out)
    );
    let out = run_example("nonogram", &["/nonexistent/puzzle.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read /nonexistent/puzzle.txt"));
    let out = run_example("nonogram", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Usage: nonogram"));
}

#[test]
fn a_limit_stops_the_count_and_says_so() {
    let out = run_example(
        "nonogram",
        &[&puzzle("dom_06.txt"), "--count", "--node-limit", "50"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("partial: stopped by --node-limit after 50 nodes"),
        "{text}"
    );
}
