//! `constraints!`: what each `require` becomes, exact arithmetic in conditions, computed
//! items, lookups, formulas, disjunctions and the global constraints as the macro writes
//! them (its compile errors and warning-free expansion are the core crate's
//! `ambsolve/tests/ui.rs`, trybuild over `ambsolve/tests/ui/`).
//! One test binary (`cargo test --test dsl`); each file a module, one feature each
//! (ARCHITECTURE.md, "Where the tests are").

mod comprehension_args;
mod computed_items;
mod dsl_disjunction;
mod dsl_formulas;
mod dsl_globals;
mod exact_arithmetic;
mod globals;
mod lookups;
mod macro_semantics;
