//! Pythagorean triples: i ≤ j ≤ k ≤ N with i² + j² = k².
//!
//! ```text
//! cargo run --release --example pythagorean -- 30
//! ```

use ambsolve::{Puzzle, constraints};
use ambsolve_examples::cli::{self, Output};
use clap::Parser;

/// Print the Pythagorean triples i ≤ j ≤ k ≤ N.
#[derive(Parser, Debug)]
#[command(name = "pythagorean")]
struct Args {
    /// The largest side (1 to 100,000).
    #[arg(value_parser = clap::value_parser!(u64).range(1..=100_000))]
    n: u64,
}

/// The puzzle; a solution is a triple `(i, j, k)`.
pub fn triples(n: u64) -> Puzzle<'static, (u64, u64, u64)> {
    constraints! {
        let i = amb(1..=n);
        let j = amb(1..=n);
        let k = amb(1..=n);
        require i <= j && j <= k;
        require i * i + j * j == k * k;
    }
    .map(|s| (s.i, s.j, s.k))
}

fn main() {
    let args: Args = cli::parse();
    let mut out = Output::new();
    let mut count = 0;
    for (i, j, k) in triples(args.n).solutions() {
        out.line(format!("{i}² + {j}² = {k}²"));
        count += 1;
    }
    out.line(format!("solutions: {count}"));
}
