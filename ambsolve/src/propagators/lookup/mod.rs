//! Propagators of lookups with chosen indices (element constraints).

mod element;
mod element_const;
