//! Input files read line by line in bounded memory: a line too long, a NUL byte or text
//! that is not UTF-8 is an error naming its line, found without reading the rest.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// Why an input file cannot be read, with the 1-based number of the line at fault.
#[derive(Debug)]
#[non_exhaustive]
pub enum InputError {
    /// Reading failed.
    Read {
        /// The line being read.
        line: usize,
        /// What the system said.
        error: io::Error,
    },
    /// The line is longer than the bound (its end was not read).
    TooLong {
        /// The line.
        line: usize,
        /// The bound, in bytes.
        max: usize,
    },
    /// The line holds a NUL byte: the file is binary, not text.
    Binary {
        /// The line.
        line: usize,
    },
    /// The line is not valid UTF-8.
    NotUtf8 {
        /// The line.
        line: usize,
    },
    /// The line is text, but not what the file should hold.
    Invalid {
        /// The line.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The text holds nothing to read (it is empty, or blank).
    Empty {
        /// What it should hold, in the plural: `"lists"`.
        what: &'static str,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Read { line, error } => write!(f, "line {line}: cannot read: {error}"),
            InputError::TooLong { line, max } => {
                write!(
                    f,
                    "line {line}: longer than {max} bytes (is it the right file?)"
                )
            }
            InputError::Binary { line } => {
                write!(
                    f,
                    "line {line}: a NUL byte: this is a binary file, not text"
                )
            }
            InputError::NotUtf8 { line } => write!(f, "line {line}: not valid UTF-8 text"),
            InputError::Invalid { line, message } => write!(f, "line {line}: {message}"),
            InputError::Empty { what } => write!(f, "no {what}: the file is empty or blank"),
        }
    }
}

impl std::error::Error for InputError {}

/// The lines of a text, read one at a time into one buffer of at most `max` bytes (plus the
/// line end), whatever the size of the input.
///
/// A line ends with `\n` or `\r\n` (the last one may have no end); a UTF-8 byte order mark
/// at the start of the text is dropped. After an error nothing more is read.
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    max: usize,
    number: usize,
    buffer: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Lines<R> {
    /// Reads `reader`, refusing lines longer than `max` bytes.
    pub fn new(reader: R, max: usize) -> Self {
        Lines {
            reader,
            max,
            number: 0,
            buffer: Vec::new(),
            done: false,
        }
    }

    /// The next line, without its end, and its number (1-based); `None` at the end.
    ///
    /// # Errors
    /// An [`InputError`] naming the line: a read error, a line longer than the bound, a NUL
    /// byte, or text that is not UTF-8. Nothing more is read after an error.
    pub fn next_line(&mut self) -> Option<Result<(usize, &str), InputError>> {
        if self.done {
            return None;
        }
        self.number += 1;
        let line = self.number;
        match self.read_line() {
            Ok(Some(range)) => Some(
                std::str::from_utf8(&self.buffer[range])
                    .map(|text| (line, text))
                    .map_err(|_| InputError::NotUtf8 { line }),
            ),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(error) => {
                self.done = true;
                Some(Err(error))
            }
        }
    }

    /// Reads nothing more: [`next_line`](Lines::next_line) gives `None` from now on (a
    /// caller that found a line malformed stops the reading this way).
    pub fn stop(&mut self) {
        self.done = true;
    }

    /// Reads the next line into the buffer and checks it; gives where its text lies in the
    /// buffer, or `None` at the end of the input.
    fn read_line(&mut self) -> Result<Option<std::ops::Range<usize>>, InputError> {
        let line = self.number;
        self.buffer.clear();
        // The line's bytes, its `\r\n`, and one more byte to see that it is too long.
        let bound = self.max as u64 + 2;
        let read = (&mut self.reader)
            .take(bound)
            .read_until(b'\n', &mut self.buffer)
            .map_err(|error| InputError::Read { line, error })?;
        if read == 0 {
            return Ok(None);
        }
        let mut text = &self.buffer[..];
        text = text.strip_suffix(b"\n").unwrap_or(text);
        text = text.strip_suffix(b"\r").unwrap_or(text);
        let mut start = 0;
        if line == 1 && text.starts_with(BOM) {
            start = BOM.len();
        }
        let text = &text[start..];
        if text.contains(&0) {
            return Err(InputError::Binary { line });
        }
        if text.len() > self.max {
            return Err(InputError::TooLong {
                line,
                max: self.max,
            });
        }
        if std::str::from_utf8(text).is_err() {
            return Err(InputError::NotUtf8 { line });
        }
        Ok(Some(start..start + text.len()))
    }
}

/// The UTF-8 byte order mark some editors write at the start of a text file.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// The file a program is given, `-` for standard input, opened for reading, and its name
/// for messages (`standard input` or the path).
///
/// # Errors
/// `cannot read <name>: <why>` if the file cannot be opened.
pub fn open(path: &Path) -> Result<(String, Box<dyn BufRead>), String> {
    if path.as_os_str() == "-" {
        return Ok(("standard input".to_string(), Box::new(io::stdin().lock())));
    }
    let name = path.display().to_string();
    match std::fs::File::open(path) {
        Ok(file) => Ok((name, Box::new(BufReader::new(file)))),
        Err(e) => Err(format!("cannot read {name}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8], max: usize) -> Vec<Result<(usize, String), String>> {
        let mut lines = Lines::new(text, max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line() {
            out.push(
                line.map(|(n, l)| (n, l.to_string()))
                    .map_err(|e| e.to_string()),
            );
        }
        out
    }

    fn ok(lines: &[(usize, &str)]) -> Vec<Result<(usize, String), String>> {
        lines.iter().map(|&(n, l)| Ok((n, l.to_string()))).collect()
    }

    #[test]
    fn lines_end_with_lf_or_crlf_and_the_last_may_have_no_end() {
        assert_eq!(
            all(b"ab\r\ncd\n\nef", 8),
            ok(&[(1, "ab"), (2, "cd"), (3, ""), (4, "ef")])
        );
        assert_eq!(all(b"", 8), ok(&[]));
        assert_eq!(all(b"\n", 8), ok(&[(1, "")]));
    }

    #[test]
    fn a_byte_order_mark_is_dropped_from_the_first_line_only() {
        assert_eq!(
            all("\u{feff}ab\n\u{feff}cd\n".as_bytes(), 8),
            ok(&[(1, "ab"), (2, "\u{feff}cd")])
        );
    }

    #[test]
    fn a_line_of_exactly_the_bound_is_read_and_one_more_byte_is_an_error() {
        assert_eq!(all(b"abcd\r\nefgh", 4), ok(&[(1, "abcd"), (2, "efgh")]));
        assert_eq!(
            all(b"ab\nabcde\nab\n", 4),
            vec![
                Ok((1, "ab".to_string())),
                Err("line 2: longer than 4 bytes (is it the right file?)".to_string())
            ]
        );
        assert_eq!(all(b"abcde", 4).len(), 1, "nothing after the error");
    }

    #[test]
    fn an_endless_line_is_refused_after_reading_the_bound() {
        let endless = std::io::BufReader::new(std::io::repeat(b'x'));
        let mut lines = Lines::new(endless, 4096);
        let error = lines.next_line().unwrap().unwrap_err();
        assert!(matches!(error, InputError::TooLong { line: 1, max: 4096 }));
        assert!(lines.buffer.capacity() < 3 * 4096);
        assert!(lines.next_line().is_none());
    }

    #[test]
    fn binary_and_non_utf8_lines_are_errors() {
        assert_eq!(
            all(b"ab\n\0\0\0", 8),
            vec![
                Ok((1, "ab".to_string())),
                Err("line 2: a NUL byte: this is a binary file, not text".to_string())
            ]
        );
        let zeros = std::io::BufReader::new(std::io::repeat(0));
        let error = Lines::new(zeros, 16).next_line().unwrap().unwrap_err();
        assert!(matches!(error, InputError::Binary { line: 1 }));
        assert_eq!(
            all(b"\xff\xfe\n", 8),
            vec![Err("line 1: not valid UTF-8 text".to_string())]
        );
    }
}
