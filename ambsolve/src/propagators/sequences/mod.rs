//! Propagators of sequences read by an automaton.

mod regular;
mod regular_explain;
