//! The handlers of the boolean FlatZinc builtins (`bool_and`, `bool_or`, `bool_xor`,
//! `bool_clause`, `array_bool_{and,or,xor}` and their `_reif` / `_imp` forms) as clauses
//! and parity constraints over literals (booleans are 0/1 integer variables; the
//! comparisons of two booleans and `bool_lin_*` are linear, in `builtins.rs`).

use ambsolve::Lit;

use super::call::{Call, Handler};
use super::context::Context;
use crate::error::FznError;

/// The builtins of logic this file handles, with their handlers (see
/// [`builtins`](super::post_constraints::builtins)).
pub(crate) const BUILTINS: &[(&str, Handler)] = &[
    // Logic: clauses and parity.
    ("bool_and", bool_and),
    ("bool_and_imp", bool_and),
    ("bool_or", bool_or),
    ("bool_or_imp", bool_or),
    ("bool_xor", bool_xor),
    ("bool_xor_imp", bool_xor),
    ("bool_clause", bool_clause),
    ("bool_clause_reif", bool_clause),
    ("bool_clause_imp", bool_clause),
    ("array_bool_and", array_bool_and),
    ("array_bool_and_imp", array_bool_and),
    ("array_bool_or", array_bool_or),
    ("array_bool_or_imp", array_bool_or),
    ("array_bool_xor", array_bool_xor),
];

/// Whether `r` is tied to the condition both ways (`_reif`, or the plain three-argument
/// `bool_and(a, b, r)`) or only `r -> condition` (`_imp`).
fn both_ways(call: &Call<'_>) -> bool {
    !call.name.ends_with("_imp")
}

/// Posts `r <-> (l1 || l2 || ..)` (only `r -> ..` when not `both`).
fn or_tied(ctx: &mut Context, lits: &[Lit], r: Lit, both: bool) {
    ctx.model.clause(lits.iter().copied().chain([!r]));
    if both {
        for &l in lits {
            ctx.model.clause([r, !l]);
        }
    }
}

/// Posts `r <-> (l1 && l2 && ..)` (only `r -> ..` when not `both`).
fn and_tied(ctx: &mut Context, lits: &[Lit], r: Lit, both: bool) {
    for &l in lits {
        ctx.model.clause([!r, l]);
    }
    if both {
        ctx.model.clause(lits.iter().map(|&l| !l).chain([r]));
    }
}

/// `bool_and(a, b, r)`: `r <-> a && b` (`_imp`: `r -> a && b`).
pub(crate) fn bool_and(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [a, b, r] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let lits = [ctx.lit_arg(call.line, a)?, ctx.lit_arg(call.line, b)?];
    let r = ctx.lit_arg(call.line, r)?;
    and_tied(ctx, &lits, r, both_ways(call));
    Ok(())
}

/// `bool_or(a, b, r)`: `r <-> a || b` (`_imp`: `r -> a || b`).
pub(crate) fn bool_or(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [a, b, r] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let lits = [ctx.lit_arg(call.line, a)?, ctx.lit_arg(call.line, b)?];
    let r = ctx.lit_arg(call.line, r)?;
    or_tied(ctx, &lits, r, both_ways(call));
    Ok(())
}

/// `bool_xor(a, b)`: `a != b`; `bool_xor(a, b, r)`: `r <-> a != b` (a parity
/// constraint); `bool_xor_imp(a, b, r)`: `r -> a != b` (two clauses).
pub(crate) fn bool_xor(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    if call.args.len() == 2 && call.name == "bool_xor" {
        let lits = [
            ctx.lit_arg(call.line, &call.args[0])?,
            ctx.lit_arg(call.line, &call.args[1])?,
        ];
        ctx.model.xor(lits);
        return Ok(());
    }
    let [a, b, r] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let (a, b, r) = (
        ctx.lit_arg(call.line, a)?,
        ctx.lit_arg(call.line, b)?,
        ctx.lit_arg(call.line, r)?,
    );
    if both_ways(call) {
        ctx.model.xor([a, b, !r]);
    } else {
        ctx.model.clause([!r, a, b]);
        ctx.model.clause([!r, !a, !b]);
    }
    Ok(())
}

/// `bool_clause(as, bs)`: some `as[i]` is true or some `bs[j]` false; `bool_clause_reif`
/// (`_imp`) ties that to `r` both ways (one way).
pub(crate) fn bool_clause(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let (pos, neg, r) = match call.args {
        [pos, neg] if call.name == "bool_clause" => (pos, neg, None),
        [pos, neg, r] if call.name != "bool_clause" => (pos, neg, Some(r)),
        _ => {
            let count = if call.name == "bool_clause" { 2 } else { 3 };
            call.arity(count)?;
            unreachable!("arity refused")
        }
    };
    let mut all = ctx.lit_args(call.line, pos)?;
    all.extend(ctx.lit_args(call.line, neg)?.into_iter().map(|l| !l));
    match r {
        None => ctx.model.clause(all),
        Some(r) => {
            let r = ctx.lit_arg(call.line, r)?;
            or_tied(ctx, &all, r, both_ways(call));
        }
    }
    Ok(())
}

/// `array_bool_and(as, r)`: `r <-> as[1] && as[2] && ..` (`_imp`: `r -> ..`).
pub(crate) fn array_bool_and(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, r] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let xs = ctx.lit_args(call.line, xs)?;
    let r = ctx.lit_arg(call.line, r)?;
    and_tied(ctx, &xs, r, both_ways(call));
    Ok(())
}

/// `array_bool_or(as, r)`: `r <-> as[1] || as[2] || ..` (`_imp`: `r -> ..`).
pub(crate) fn array_bool_or(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, r] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let xs = ctx.lit_args(call.line, xs)?;
    let r = ctx.lit_arg(call.line, r)?;
    or_tied(ctx, &xs, r, both_ways(call));
    Ok(())
}

/// `array_bool_xor(as)`: an odd number of `as` are true.
pub(crate) fn array_bool_xor(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs] = call.arity(1)? else {
        unreachable!("one argument")
    };
    let xs = ctx.lit_args(call.line, xs)?;
    ctx.model.xor(xs);
    Ok(())
}
