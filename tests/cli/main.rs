//! The examples as a user runs them: every example's command line (`cli`), the examples at
//! their bounds, and one module per example with more to it (`cli_<example>`). One test
//! binary (`cargo test --test cli`); the example binaries are built on first use
//! (`common::example_binary`).

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_bounds;
mod cli_checkpoints;
mod cli_colouring;
mod cli_nonogram;
mod cli_nqueens;
mod cli_nqueens_pictures;
mod cli_optimisation;
mod cli_scheduling;
mod cli_sudoku;
mod cli_word_chain;
