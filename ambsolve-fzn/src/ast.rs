//! The FlatZinc model as parsed: its items sorted by kind, each with its line.
//!
//! The items themselves are the [`flatzinc`] crate's types; this only groups them and
//! remembers where each came from, so that every later error can name its line.

use flatzinc::{ConstraintItem, ParDeclItem, SolveItem, VarDeclItem};

/// An item and the line (1-based) it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Located<T> {
    /// The line of the file.
    pub line: usize,
    /// The item.
    pub item: T,
}

/// A FlatZinc model: parameters, variables, constraints and the solve item, each in the
/// order of the file. Predicate declarations are dropped (they only declare what the
/// constraints may call).
#[derive(Clone, Debug, PartialEq)]
pub struct Ast {
    /// Parameter declarations (`int: n = 3;`, `array [1..2] of int: c = [1, 2];`).
    pub parameters: Vec<Located<ParDeclItem>>,
    /// Variable declarations, single variables and arrays.
    pub variables: Vec<Located<VarDeclItem>>,
    /// Constraint items.
    pub constraints: Vec<Located<ConstraintItem>>,
    /// The solve item.
    pub solve: Located<SolveItem>,
}
