//! What `constraints!` builds expressions with (see `lib.rs`'s `__private`).
