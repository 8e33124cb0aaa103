//! The global constraints written as calls (`require NAME(args);`, the grammar's
//! `GlobalName`): each name, its parameters and the `Model` method it calls. Data only,
//! read by the parser (which calls take comprehensions) and by `globals.rs` (which checks
//! the arguments).

/// What a parameter of a global constraint takes.
#[derive(Clone, Copy)]
pub(crate) enum Param {
    /// Integers: an array of choices (a grid's row, a slice, a comprehension), or a list
    /// of build-time integers.
    Ints,
    /// One integer: a choice, or a build-time integer.
    Int,
    /// Literals: an array of boolean (or 0/1) choices (a row, a slice, a comprehension
    /// of conditions).
    Lits,
    /// A build-time value passed as it is written (an `i64`, a `bool`, a `&Dfa`..).
    Plain,
}

use Param::{Int, Ints, Lits, Plain};

/// A global constraint written as a call: its name, its parameters, and the `Model`
/// method it calls (the same name unless given) with a trailing `bool` (if given).
pub(crate) struct Global {
    pub(crate) name: &'static str,
    pub(crate) params: &'static [Param],
    pub(crate) method: Option<(&'static str, bool)>,
}

const fn same(name: &'static str, params: &'static [Param]) -> Global {
    Global {
        name,
        params,
        method: None,
    }
}

/// The global constraints written as calls. The method of the same name on `Model` takes
/// the parameters in this order (MiniZinc's, but for `nvalue`, `count` and `among`, which
/// are integer functions: `count(x, v) == k`).
pub(crate) const GLOBALS: &[Global] = &[
    // order
    same("increasing", &[Ints]),
    same("strictly_increasing", &[Ints]),
    same("decreasing", &[Ints]),
    same("strictly_decreasing", &[Ints]),
    // sequences
    same("lex_lesseq", &[Ints, Ints]),
    same("lex_less", &[Ints, Ints]),
    same("all_equal", &[Ints]),
    same("regular", &[Ints, Plain]),
    // lookups
    same("element", &[Int, Ints, Int]),
    same("element_offset", &[Int, Plain, Ints, Int]),
    // counting
    same("at_most", &[Plain, Ints, Int]),
    same("at_least", &[Plain, Ints, Int]),
    Global {
        name: "global_cardinality",
        params: &[Ints, Plain, Ints],
        method: Some(("global_cardinality", false)),
    },
    Global {
        name: "global_cardinality_closed",
        params: &[Ints, Plain, Ints],
        method: Some(("global_cardinality", true)),
    },
    // scheduling
    same("disjunctive", &[Ints, Ints]),
    same("disjunctive_strict", &[Ints, Ints]),
    same("cumulative", &[Ints, Ints, Ints, Int]),
    same("disjunctive_optional", &[Ints, Ints, Lits]),
    same("cumulative_optional", &[Ints, Ints, Ints, Lits, Int]),
    // packing
    same("bin_packing_load", &[Ints, Ints, Ints]),
    same("bin_packing", &[Plain, Ints, Ints]),
    same("bin_packing_capa", &[Ints, Ints, Ints]),
    same("diffn", &[Ints, Ints, Ints, Ints]),
    same("diffn_nonstrict", &[Ints, Ints, Ints, Ints]),
    // symmetry
    same("value_precede_chain", &[Ints, Ints]),
    same("value_precede", &[Plain, Plain, Ints]),
    // tours
    same("circuit", &[Ints]),
    same("circuit_offset", &[Ints, Plain]),
    same("subcircuit", &[Ints]),
    same("subcircuit_offset", &[Ints, Plain]),
    same("inverse", &[Ints, Ints]),
    same("inverse_offset", &[Ints, Plain, Ints, Plain]),
    same("all_different_except", &[Ints, Plain]),
];

/// The names of the global constraints written as calls.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    GLOBALS.iter().map(|g| g.name)
}
