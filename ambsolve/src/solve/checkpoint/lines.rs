//! A checkpoint file read one line at a time, each of bounded length, so that reading a
//! file that is not a checkpoint (huge, binary, endless) stops at its first bad line
//! having held at most one line in memory.

use std::io::{BufRead, Read};

/// The longest line a checkpoint file may have, its end of line included: an entry's
/// four numbers of up to 20 digits and its check take under 110 bytes.
pub(crate) const MAX_LINE: usize = 200;

/// The lines of a reader, numbered from 1.
pub(crate) struct Lines<R> {
    reader: R,
    line: Vec<u8>,
    number: usize,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(reader: R) -> Self {
        Lines {
            reader,
            line: Vec::with_capacity(MAX_LINE),
            number: 0,
        }
    }

    /// How many lines were read so far: the number of the line last read.
    pub(crate) fn read(&self) -> usize {
        self.number
    }

    /// The next line, without its end of line; `None` at the end of the file.
    ///
    /// # Errors
    /// Why the line is not one of a checkpoint (too long, not text, not ended, unreadable),
    /// to be reported with its number (one more than [`read`](Lines::read) before the call).
    pub(crate) fn next_line(&mut self) -> Result<Option<&str>, String> {
        self.line.clear();
        let read = (&mut self.reader)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut self.line)
            .map_err(|e| format!("cannot be read: {e}"))?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        if self.line.pop() != Some(b'\n') {
            return Err(if read >= MAX_LINE {
                format!("longer than {MAX_LINE} bytes")
            } else {
                "cut short (the file does not end with an end of line)".into()
            });
        }
        std::str::from_utf8(&self.line)
            .map(Some)
            .map_err(|_| "not text (not valid UTF-8)".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_bounded_and_must_end() {
        let mut lines = Lines::new(&b"one\ntwo\n"[..]);
        assert_eq!(lines.next_line(), Ok(Some("one")));
        assert_eq!(lines.next_line(), Ok(Some("two")));
        assert_eq!(lines.read(), 2);
        assert_eq!(lines.next_line(), Ok(None));
        let long = vec![b'x'; 10 * MAX_LINE];
        let mut lines = Lines::new(&long[..]);
        assert!(lines.next_line().unwrap_err().contains("longer than"));
        let exact = format!("{}\n", "y".repeat(MAX_LINE - 1));
        assert!(Lines::new(exact.as_bytes()).next_line().unwrap().is_some());
        let mut cut = Lines::new(&b"one\ntw"[..]);
        cut.next_line().unwrap();
        assert!(cut.next_line().unwrap_err().contains("cut short"));
        let mut binary = Lines::new(&b"\xff\xfe\n"[..]);
        assert!(binary.next_line().unwrap_err().contains("not text"));
    }
}
