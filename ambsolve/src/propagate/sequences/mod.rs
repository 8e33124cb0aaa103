//! Propagators of sequences read by an automaton.

mod regular;

pub(super) use self::regular::RegularProp;
