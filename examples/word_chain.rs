//! The word-chain puzzle: pick one word from each list so that each word's last letter is
//! the next word's first letter.
//!
//! ```text
//! cargo run --release --example word_chain                      # that thing grows slowly
//! cargo run --release --example word_chain -- --file lists.txt  # one list per line
//! cargo run --release --example word_chain -- --file lists.txt --count
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use ambsolve::{Puzzle, constraints};
use clap::Parser;

/// Chain one word from each list: each word's last letter is the next word's first letter.
#[derive(Parser, Debug)]
#[command(name = "word_chain")]
struct Args {
    /// Read the lists from FILE, one list per line, words separated by white space.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print only the number of chains.
    #[arg(long)]
    count: bool,
}

/// The classic lists of the sources.
pub const CLASSIC: [&[&str]; 4] = [
    &["the", "that", "a"],
    &["frog", "elephant", "thing"],
    &["walked", "treaded", "grows"],
    &["slowly", "quickly"],
];

/// Whether `b` may follow `a`: `a`'s last letter is `b`'s first.
pub fn linked(a: &str, b: &str) -> bool {
    a.chars().last().is_some_and(|last| b.starts_with(last))
}

/// Every chain through `lists`: one word from each list, each linked to the next.
pub fn chains(lists: &[Vec<String>]) -> Puzzle<'_, Vec<&str>> {
    let k = lists.len();
    constraints! {
        let w[i < k] = amb(lists[i].iter().map(String::as_str));
        for i in 1..k {
            require linked(w[i - 1], w[i]);
        }
    }
    .map(|chain| chain.w)
}

/// Reads one list per line. Errors name the file and the line.
pub fn parse_lists(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut lists = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        if words.is_empty() {
            return Err(format!(
                "line {}: empty list (every line must hold at least one word)",
                number + 1
            ));
        }
        lists.push(words);
    }
    if lists.is_empty() {
        return Err("no lists: the file is empty".into());
    }
    Ok(lists)
}

fn main() -> ExitCode {
    let args: Args = ambsolve_examples::cli::parse();
    let lists: Vec<Vec<String>> = match &args.file {
        None => CLASSIC
            .iter()
            .map(|l| l.iter().map(|w| w.to_string()).collect())
            .collect(),
        Some(path) => {
            let parsed = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|text| {
                    parse_lists(&text).map_err(|e| format!("{}: {e}", path.display()))
                });
            match parsed {
                Ok(lists) => lists,
                Err(message) => return ambsolve_examples::cli::input_error("word_chain", message),
            }
        }
    };
    let puzzle = chains(&lists);
    let result = if args.count {
        puzzle.count().map(|summary| summary.solutions)
    } else {
        let mut solutions = puzzle.solutions();
        let mut count = 0u64;
        for chain in solutions.by_ref() {
            println!("{}", chain.join(" "));
            count += 1;
        }
        solutions.error().cloned().map_or(Ok(count), Err)
    };
    match result {
        Ok(count) => {
            println!("solutions: {count}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("word_chain: {error}");
            ExitCode::FAILURE
        }
    }
}
