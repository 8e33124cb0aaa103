//! Pass: each constraint item becomes `Model` constraints, through the table of builtins
//! [`BUILTINS`] (name → handler). A builtin missing from the table is an error naming it
//! and its line; every unsupported builtin of the file is listed, none skipped.

use std::collections::HashMap;

use flatzinc::ConstraintItem;

use super::builtins as int;
use super::builtins_bool as logic;
use super::builtins_global as global;
use super::call::{Call, Handler};
use super::context::Context;
use crate::ast::Located;
use crate::error::FznError;
use crate::parser::ReadLimits;

/// Every builtin ambsolve supports, with its handler. Adding one is a line here and its
/// handler in `builtins.rs` (integers), `builtins_bool.rs` (logic) or
/// `builtins_global.rs` (the globals of the mznlib). Booleans are 0/1 integer variables.
pub(crate) const BUILTINS: &[(&str, Handler)] = &[
    // Linear (in)equalities: Σ a_i x_i cmp c, and tied to a literal r (`_reif`: r <-> ..,
    // `_imp`: r -> ..).
    ("int_lin_eq", int::int_lin),
    ("int_lin_le", int::int_lin),
    ("int_lin_ne", int::int_lin),
    ("int_lin_eq_reif", int::int_lin),
    ("int_lin_le_reif", int::int_lin),
    ("int_lin_ne_reif", int::int_lin),
    ("int_lin_eq_imp", int::int_lin),
    ("int_lin_le_imp", int::int_lin),
    ("int_lin_ne_imp", int::int_lin),
    ("bool_lin_eq", int::int_lin),
    ("bool_lin_le", int::int_lin),
    // Comparisons of two integers (or booleans, 0/1), as linear constraints.
    ("int_eq", int::compare),
    ("int_ne", int::compare),
    ("int_le", int::compare),
    ("int_lt", int::compare),
    ("int_eq_reif", int::compare),
    ("int_ne_reif", int::compare),
    ("int_le_reif", int::compare),
    ("int_lt_reif", int::compare),
    ("int_eq_imp", int::compare),
    ("int_ne_imp", int::compare),
    ("int_le_imp", int::compare),
    ("int_lt_imp", int::compare),
    ("bool_eq", int::compare),
    ("bool_ne", int::compare),
    ("bool_le", int::compare),
    ("bool_lt", int::compare),
    ("bool_eq_reif", int::compare),
    ("bool_ne_reif", int::compare),
    ("bool_le_reif", int::compare),
    ("bool_lt_reif", int::compare),
    ("bool_eq_imp", int::compare),
    ("bool_ne_imp", int::compare),
    ("bool_le_imp", int::compare),
    ("bool_lt_imp", int::compare),
    // A boolean and its integer are one 0/1 variable; merged unless one is a constant.
    ("bool2int", int::compare),
    ("bool_not", int::bool_not),
    // Arithmetic.
    ("int_plus", int::int_plus),
    ("int_times", int::int_binary),
    ("int_div", int::int_binary),
    ("int_mod", int::int_binary),
    ("int_pow", int::int_binary),
    ("int_pow_fixed", int::int_binary),
    ("int_min", int::int_binary),
    ("int_max", int::int_binary),
    ("int_abs", int::int_abs),
    ("array_int_maximum", int::array_extreme),
    ("array_int_minimum", int::array_extreme),
    // Domains.
    ("set_in", int::set_in),
    ("set_in_reif", int::set_in),
    ("set_in_imp", int::set_in),
    // Element, arrays numbered from 1.
    ("array_int_element", int::array_element),
    ("array_bool_element", int::array_element),
    ("array_var_int_element", int::array_element),
    ("array_var_bool_element", int::array_element),
    // Logic: clauses and parity.
    ("bool_and", logic::bool_and),
    ("bool_and_imp", logic::bool_and),
    ("bool_or", logic::bool_or),
    ("bool_or_imp", logic::bool_or),
    ("bool_xor", logic::bool_xor),
    ("bool_xor_imp", logic::bool_xor),
    ("bool_clause", logic::bool_clause),
    ("bool_clause_reif", logic::bool_clause),
    ("bool_clause_imp", logic::bool_clause),
    ("array_bool_and", logic::array_bool_and),
    ("array_bool_and_imp", logic::array_bool_and),
    ("array_bool_or", logic::array_bool_or),
    ("array_bool_or_imp", logic::array_bool_or),
    ("array_bool_xor", logic::array_bool_xor),
    // Natively supported globals (mznlib/fzn_*.mzn).
    ("fzn_all_different_int", global::all_different_int),
    ("fzn_alldifferent_except_0", global::all_different_except),
    (
        "ambsolve_all_different_except",
        global::all_different_except,
    ),
    ("fzn_table_int", global::table),
    ("fzn_table_bool", global::table),
    ("fzn_all_equal_int", global::order),
    ("fzn_increasing_int", global::order),
    ("fzn_increasing_bool", global::order),
    ("fzn_decreasing_int", global::order),
    ("fzn_decreasing_bool", global::order),
    ("fzn_lex_lesseq_int", global::lex),
    ("fzn_lex_lesseq_bool", global::lex),
    ("fzn_lex_less_int", global::lex),
    ("fzn_lex_less_bool", global::lex),
    ("fzn_count_eq", global::count_eq),
    ("fzn_count_eq_par", global::count_eq),
    ("fzn_among", global::among),
    ("fzn_at_most_int", global::occurrences),
    ("fzn_at_least_int", global::occurrences),
    ("fzn_exactly_int", global::occurrences),
    ("fzn_global_cardinality", global::global_cardinality),
    ("fzn_global_cardinality_closed", global::global_cardinality),
    ("fzn_nvalue", global::nvalue),
    ("fzn_regular", global::regular),
    ("ambsolve_circuit", global::circuit),
    ("ambsolve_subcircuit", global::circuit),
    ("ambsolve_inverse", global::inverse),
    ("fzn_disjunctive", global::disjunctive),
    ("fzn_disjunctive_strict", global::disjunctive),
    ("fzn_cumulative", global::cumulative),
];

/// The constraint annotations of the FlatZinc specification (propagation strength and
/// what a constraint defines: ambsolve chooses its own).
const CONSTRAINT_ANNOTATIONS: &[&str] = &[
    "defines_var",
    "domain",
    "bounds",
    "boundsZ",
    "boundsR",
    "domain_change_constraint",
    "promise_ctx_monotone",
    "promise_ctx_antitone",
];

/// The handler of a builtin, if ambsolve supports it.
pub(crate) fn handler(name: &str) -> Option<Handler> {
    static TABLE: std::sync::OnceLock<HashMap<&'static str, Handler>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| BUILTINS.iter().copied().collect())
        .get(name)
        .copied()
}

/// Posts every constraint not already expressed by an earlier pass.
///
/// # Errors
/// [`FznError::Unsupported`] listing every builtin the table lacks (with the first line
/// each appears on), checked before anything is posted; else the first argument error.
pub(crate) fn run(
    ctx: &mut Context,
    constraints: Vec<Located<ConstraintItem>>,
    limits: &ReadLimits,
) -> Result<(), FznError> {
    let mut unsupported: Vec<(String, usize)> = Vec::new();
    for located in &constraints {
        let name = &located.item.id;
        if handler(name).is_none() && !unsupported.iter().any(|(n, _)| n == name) {
            unsupported.push((name.clone(), located.line));
        }
    }
    if !unsupported.is_empty() {
        return Err(FznError::Unsupported {
            builtins: unsupported,
        });
    }
    for (at, located) in constraints.into_iter().enumerate() {
        if at % 1024 == 1023 {
            limits.check()?;
        }
        ctx.unknown_annotations(located.line, &located.item.annos, CONSTRAINT_ANNOTATIONS);
        if ctx.consumed[at] {
            continue;
        }
        let call = Call {
            name: &located.item.id,
            args: &located.item.exprs,
            line: located.line,
        };
        let post = handler(call.name).expect("checked above");
        post(ctx, &call)?;
    }
    Ok(())
}
