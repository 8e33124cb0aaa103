//! The engines, one folder each: they search a model, and never import each other.
//!
//! Three words keep one meaning each: an **engine** is one way of searching (the
//! [`Engine`](crate::Engine) a user picks, and its folder here); a **search** is one run of
//! an engine, driven step by step through the [`Search`](crate::control::Search) trait
//! (which the seam's parallel search and its mapped searches implement too); the
//! **trail** is the undo log of the store (`trail.rs`), after which the trail engine is
//! named.
//!
//! - [`trail`]: depth-first search over a store of domains, propagating after every
//!   decision and undoing changes from the trail on backtracking ([`trail::TrailEngine`]);
//! - [`replay`]: `amb` programs re-run from the start after each failure, replaying the
//!   recorded choices; a model runs as such a program ([`replay::ReplayEngine`]);
//! - [`local`]: min-conflicts local search over complete assignments
//!   ([`local::LocalEngine`]).

pub(crate) mod local;
pub(crate) mod replay;
pub(crate) mod trail;
