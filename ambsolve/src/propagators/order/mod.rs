//! Propagators of order over sequences: monotone chains, lexicographic order, equality.

mod all_equal;
mod lex;
mod monotone;
