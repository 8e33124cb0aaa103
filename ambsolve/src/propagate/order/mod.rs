//! Propagators of order over sequences.

mod monotone;

pub(super) use self::monotone::MonotoneProp;
