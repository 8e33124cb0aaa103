//! Propagators of logic: clauses, parity, linear constraints tied to literals.

mod clause;
mod eq_reif;
mod linear_reif;
mod xor;

pub(super) use self::eq_reif::EqReifProp;
