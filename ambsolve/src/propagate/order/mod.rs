//! Propagators of order over sequences: monotone chains, lexicographic order, equality.

mod all_equal;
mod lex;
mod monotone;

pub(super) use self::all_equal::AllEqualProp;
pub(super) use self::lex::LexProp;
pub(super) use self::monotone::MonotoneProp;
