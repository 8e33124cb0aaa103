//! The word chain: lists of words read from a file, line by line; the model is the
//! example's, `examples/word_chain/model.rs`, included here for the tests and benches.

use std::io::BufRead;

use crate::input::{InputError, Lines};

#[path = "../../examples/word_chain/model.rs"]
mod model;

pub use model::*;

/// The longest line a file of lists may hold, in bytes: a longer one is an error, found
/// without reading the rest of it.
pub const MAX_LINE: usize = 1 << 20;

/// The most words a file of lists may hold, all lists together.
pub const MAX_WORDS: usize = 100_000;

/// Reads one list per line, words separated by white space, a line at a time (lines of at
/// most [`MAX_LINE`] bytes, at most [`MAX_WORDS`] words in all). Blank lines are skipped;
/// a UTF-8 byte order mark at the start is dropped.
///
/// # Errors
/// A line that cannot be read or is too long, too many words, or no words at all.
pub fn read_lists(reader: impl BufRead) -> Result<Vec<Vec<String>>, InputError> {
    let mut lines = Lines::new(reader, MAX_LINE);
    let mut lists = Vec::new();
    let mut words = 0;
    while let Some(line) = lines.next_line() {
        let (number, text) = line?;
        let list: Vec<String> = text.split_whitespace().map(String::from).collect();
        if list.is_empty() {
            continue;
        }
        words += list.len();
        if words > MAX_WORDS {
            return Err(InputError::Invalid {
                line: number,
                message: format!("more than {MAX_WORDS} words in all"),
            });
        }
        lists.push(list);
    }
    if lists.is_empty() {
        return Err(InputError::Empty { what: "lists" });
    }
    Ok(lists)
}

/// Reads lists from a text, as [`read_lists`] does.
///
/// # Errors
/// As [`read_lists`], as a message.
pub fn parse_lists(text: &str) -> Result<Vec<Vec<String>>, String> {
    read_lists(text.as_bytes()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_and_a_byte_order_mark_are_skipped() {
        let lists = parse_lists("\u{feff}ab ac\n\n  \nba\r\n\n").unwrap();
        assert_eq!(lists, [vec!["ab", "ac"], vec!["ba"]]);
        assert_eq!(
            parse_lists(" \n\n"),
            Err("no lists: the file is empty or blank".to_string())
        );
    }

    #[test]
    fn the_number_of_words_is_bounded() {
        let line = vec!["w"; 1000].join(" ");
        let text = vec![line; MAX_WORDS / 1000 + 1].join("\n");
        assert_eq!(
            parse_lists(&text),
            Err(format!(
                "line {}: more than {MAX_WORDS} words in all",
                MAX_WORDS / 1000 + 1
            ))
        );
    }
}
