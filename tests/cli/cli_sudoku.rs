//! The sudoku example as a user runs it: files solved as they are read, malformed lines named,
//! bounded lines and memory, count lines.

use crate::common;

use common::{run_example, stderr, stdout, temp_file};

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
fn a_puzzle_without_a_solution_names_a_minimal_conflict() {
    // Two 5s in the first row: they and the row's rule conflict; the other givens (a 7
    // in the last row) play no part.
    let line = format!("55{}7", ".".repeat(78));
    let path = temp_file("conflict.txt", &format!("{line}\n"));
    let out = run_example("sudoku", &[path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out), @r"
    no solution (line 1)
      these clues and rules conflict:
        all_different over 9 variables (over g[0][0], g[0][1], g[0][2], g[0][3], g[0][4], g[0][5], and 3 more)
        the given 5 at row 1, column 1
        the given 5 at row 1, column 2
    solved: 0 of 1
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
