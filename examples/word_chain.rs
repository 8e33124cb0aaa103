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

use ambsolve_examples::cli;
use ambsolve_examples::puzzles::word_chain::{chains, classic_lists, parse_lists};
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

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let lists: Vec<Vec<String>> = match &args.file {
        None => classic_lists(),
        Some(path) => {
            let parsed = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|text| {
                    parse_lists(&text).map_err(|e| format!("{}: {e}", path.display()))
                });
            match parsed {
                Ok(lists) => lists,
                Err(message) => return cli::input_error("word_chain", message),
            }
        }
    };
    let puzzle = chains(&lists);
    if !args.count {
        return cli::print_all(puzzle.try_solutions(), |out, chain| {
            out.line(chain.join(" "));
        });
    }
    match puzzle.count() {
        Ok(summary) => {
            println!("solutions: {}", summary.solutions);
            ExitCode::SUCCESS
        }
        Err(error) => cli::search_error(&error),
    }
}
