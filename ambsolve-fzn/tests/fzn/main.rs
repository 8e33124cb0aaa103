//! The FlatZinc front end's tests, one test binary (`cargo test -p ambsolve-fzn --test
//! fzn`): each builtin against its meaning, the command line, domains of any width
//! (unbounded, millions of values, holes), the public API only, search annotations, the
//! MiniZinc suite. The data they read sit beside this folder, in
//! `tests/minizinc/`, `tests/mznlib/` and `tests/search/`.

mod builtins;
mod cli;
mod domains;
mod public_api;
mod search_annotations;
mod suite;
