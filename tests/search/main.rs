//! Searching: the engines agreeing, replay, local search, optimisation, symmetry, parallel
//! search, strategies, resumable counts, the search tree; and the two viewpoints, random
//! small models against brute force (`props`) and the example puzzles' known answers
//! (`corpus`). One test binary (`cargo test --test search`); each file a module, one
//! feature each (ARCHITECTURE.md, "Where the tests are").

#[path = "../common/mod.rs"]
mod common;

mod checkpoints;
mod corpus;
mod engines;
mod hints;
mod infeasible;
mod learning;
mod lexicographic;
mod lns;
mod local;
mod objectives;
mod parallel;
mod props;
mod replay;
mod strategy_heuristics;
mod symmetry;
mod symmetry_count;
mod tree;
