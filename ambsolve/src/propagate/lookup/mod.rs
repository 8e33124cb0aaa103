//! Propagators of lookups with chosen indices (element constraints).

mod element;
mod element_const;

pub(super) use self::element::ElementProp;
pub(super) use self::element_const::ElementConstProp;
