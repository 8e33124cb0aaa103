//! Sudoku: grids read from text, line by line, and solved; the model is the example's,
//! `examples/sudoku/model.rs`, included here for the tests and benches.

use std::io::BufRead;

use ambsolve::SearchError;

use crate::input::{InputError, Lines};

#[path = "../../examples/sudoku/model.rs"]
mod model;

pub use model::*;

/// The longest line a file of puzzles may hold, in bytes: a longer one is an error, found
/// without reading the rest of it.
pub const MAX_LINE: usize = 4096;

/// The most digits a count line (the number of puzzles, which some files start with) has.
pub const MAX_COUNT_DIGITS: usize = 6;

/// Reads one line of a file of puzzles: `Some(grid)` for a puzzle (81 characters, row by
/// row, a digit for a given, `.` or `0` for a blank), `None` for a line to skip (blank, a
/// `#` comment, or a count: a number of at most [`MAX_COUNT_DIGITS`] digits). White space
/// around the line is ignored. A file may start with a count line only: [`Puzzles`] takes
/// one after the first puzzle for a puzzle cut short.
///
/// # Errors
/// Anything else, as a message without the line number.
pub fn parse_line(raw: &str) -> Result<Option<Grid>, String> {
    let line = raw.trim();
    if line.is_empty() || line.starts_with('#') || is_count(line) {
        return Ok(None);
    }
    let length = line.chars().count();
    if length != 81 {
        let plural = if length == 1 { "" } else { "s" };
        return Err(format!(
            "a puzzle has 81 cells, this line has {length} character{plural}"
        ));
    }
    let mut grid = [0u8; 81];
    for (cell, c) in grid.iter_mut().zip(line.chars()) {
        *cell = match c {
            '1'..='9' => c as u8 - b'0',
            '.' | '0' => 0,
            other => return Err(format!("{other:?} is not a digit, '.' or '0'")),
        };
    }
    Ok(Some(grid))
}

/// Whether a trimmed line is a count line: a number of at most [`MAX_COUNT_DIGITS`] digits.
fn is_count(line: &str) -> bool {
    !line.is_empty() && line.len() <= MAX_COUNT_DIGITS && line.bytes().all(|b| b.is_ascii_digit())
}

/// The puzzles of a text, read one line at a time (see [`parse_line`]; lines are at most
/// [`MAX_LINE`] bytes, a UTF-8 byte order mark at the start is dropped), each with its line
/// number (1-based). A count line is skipped before the first puzzle only; after it, a
/// short number is a malformed puzzle. Memory stays bounded whatever the size of the
/// input; after an error the iterator ends.
#[derive(Debug)]
pub struct Puzzles<R> {
    lines: Lines<R>,
    /// Whether a puzzle was read: count lines are no longer skipped.
    started: bool,
}

impl<R: BufRead> Puzzles<R> {
    /// The puzzles of `reader`.
    pub fn new(reader: R) -> Self {
        Puzzles {
            lines: Lines::new(reader, MAX_LINE),
            started: false,
        }
    }
}

impl<R: BufRead> Iterator for Puzzles<R> {
    type Item = Result<(usize, Grid), InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (line, text) = match self.lines.next_line()? {
                Ok(line) => line,
                Err(error) => return Some(Err(error)),
            };
            let parsed = if self.started && is_count(text.trim()) {
                let length = text.trim().len();
                let plural = if length == 1 { "" } else { "s" };
                Err(format!(
                    "a puzzle has 81 cells, this line has {length} character{plural} (a count \
                     line may only come before the first puzzle)"
                ))
            } else {
                parse_line(text)
            };
            match parsed {
                Ok(Some(grid)) => {
                    self.started = true;
                    return Some(Ok((line, grid)));
                }
                Ok(None) => {}
                Err(message) => {
                    self.lines.stop();
                    return Some(Err(InputError::Invalid { line, message }));
                }
            }
        }
    }
}

/// Reads every puzzle of a text (see [`Puzzles`]), each with its line number.
///
/// # Errors
/// The first malformed line, with its number.
pub fn parse_puzzles(text: &str) -> Result<Vec<(usize, Grid)>, String> {
    Puzzles::new(text.as_bytes())
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())
}

/// The first solution of a puzzle, or `None` if it has none.
///
/// # Errors
/// The [`SearchError`] that ended the search, if one did.
pub fn solve(grid: &Grid) -> Result<Option<Grid>, SearchError> {
    let Some(rows) = sudoku(grid).first()? else {
        return Ok(None);
    };
    let mut out = [0u8; 81];
    for (o, d) in out.iter_mut().zip(rows.iter().flatten()) {
        *o = *d;
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_short_number_is_a_count_line() {
        assert_eq!(parse_line("95"), Ok(None));
        assert_eq!(parse_line(" 123456 "), Ok(None));
        assert_eq!(
            parse_line("1234567"),
            Err("a puzzle has 81 cells, this line has 7 characters".to_string())
        );
        let eighty = "0".repeat(80);
        assert_eq!(
            parse_line(&eighty),
            Err("a puzzle has 81 cells, this line has 80 characters".to_string())
        );
        assert!(matches!(parse_line(&"0".repeat(81)), Ok(Some(grid)) if grid == [0; 81]));
    }

    #[test]
    fn puzzles_are_read_one_line_at_a_time_and_stop_at_an_error() {
        let text = format!(
            "\u{feff}# a file\n3\n{}\r\n{}\n{}\n",
            "1".repeat(81),
            "x",
            "2".repeat(81)
        );
        let mut puzzles = Puzzles::new(text.as_bytes());
        assert!(matches!(puzzles.next(), Some(Ok((3, grid))) if grid == [1; 81]));
        let error = puzzles.next().unwrap().unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 4: a puzzle has 81 cells, this line has 1 character"
        );
        assert!(puzzles.next().is_none(), "nothing after the error");
    }

    #[test]
    fn a_count_line_is_skipped_before_the_first_puzzle_only() {
        let text = format!("95\n{}\n123\n", "1".repeat(81));
        let mut puzzles = Puzzles::new(text.as_bytes());
        assert!(matches!(puzzles.next(), Some(Ok((2, _)))));
        let error = puzzles.next().unwrap().unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 3: a puzzle has 81 cells, this line has 3 characters (a count line may \
             only come before the first puzzle)"
        );
    }
}
