//! Pass: the solve item's search annotations (`int_search`, `bool_search`, `seq_search`,
//! `restart_luby`) become a [`Strategy`], as far as today's `Strategy` can express them;
//! what it cannot is followed in part and noted (`-v` prints the notes).
//!
//! - Variable order: one order for the whole search. Every listed variable, in the order
//!   of the annotations, comes first ([`VarOrder::Given`]); with `first_fail` in any part,
//!   the variable with the fewest values left goes first, ties in that order
//!   ([`VarOrder::FirstFailThen`]), which also weighs the variables of later parts (a
//!   `seq_search` of two `first_fail` parts is one first-fail over both). `input_order`
//!   is exact; `anti_first_fail`, `smallest`, `largest`, `occurrence`,
//!   `most_constrained`, `max_regret` and `dom_w_deg` have no counterpart and fall back to
//!   the annotations' order.
//! - Value order: when every part agrees, its order for all the variables (those no
//!   annotation lists too); else per variable, the unlisted ones ascending. `indomain_min` (and the old `indomain`) ascending,
//!   `indomain_max` descending, `indomain_median` and `indomain_middle` middle-out over the
//!   variable's initial values, `indomain_random` a shuffle fixed by the seed; the
//!   engine branches on values (`x = v`, then `x ≠ v`), so `indomain_split` and
//!   `indomain_interval` become ascending and `indomain_reverse_split` descending.
//! - Restarts: `restart_luby(scale)` is [`Restarts::luby`] (restarts stop at the first
//!   solution); `restart_constant`, `restart_linear` and `restart_geometric` are ignored.

use std::sync::Arc;

use ambsolve::{Restarts, Strategy, ValueOrder, VarId, VarOrder};
use flatzinc::{AnnExpr, Annotation, Expr};

use super::context::{Context, Elem};
use crate::error::FznError;

/// How one part of a search annotation picks values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Values {
    Ascending,
    Descending,
    MiddleOut,
    Random,
}

/// One `int_search` / `bool_search`: its variables and orders.
struct Part {
    vars: Vec<VarId>,
    first_fail: bool,
    values: Values,
}

/// Builds the strategy of the solve item's annotations (none if it has none).
///
/// # Errors
/// A malformed search annotation (its variables not an array).
pub(crate) fn run(ctx: &mut Context<'_>, seed: u64) -> Result<(), FznError> {
    let line = ctx.ast.solve.line;
    let mut parts = Vec::new();
    let mut restarts = None;
    for annotation in &ctx.ast.solve.item.annotations {
        collect(ctx, line, annotation, &mut parts, &mut restarts)?;
    }
    if parts.is_empty() && restarts.is_none() {
        return Ok(());
    }
    let order: Vec<VarId> = parts.iter().flat_map(|p| p.vars.iter().copied()).collect();
    let vars = if parts.iter().any(|p| p.first_fail) {
        VarOrder::FirstFailThen(order.into())
    } else {
        VarOrder::Given(order.into())
    };
    let mut strategy = Strategy::new()
        .vars(vars)
        .values(value_order(ctx, &parts, seed));
    if let Some(restarts) = restarts {
        strategy = strategy.restarts(restarts);
    }
    ctx.strategy = Some(strategy);
    Ok(())
}

/// One value order for all the parts: theirs if they agree, else a key per variable.
fn value_order(ctx: &Context<'_>, parts: &[Part], seed: u64) -> ValueOrder {
    let simple = |v: Values| match v {
        Values::Ascending => ValueOrder::Ascending,
        Values::Descending => ValueOrder::Descending,
        Values::MiddleOut => ValueOrder::MiddleOut,
        Values::Random => ValueOrder::Random(seed),
    };
    match parts.first() {
        None => return ValueOrder::Ascending,
        Some(first) if parts.iter().all(|p| p.values == first.values) => {
            return simple(first.values);
        }
        Some(_) => {}
    }
    let mut per_var = vec![Values::Ascending; ctx.model.num_vars()];
    // The first part naming a variable decides, as the search meets it there first.
    for part in parts.iter().rev() {
        for var in &part.vars {
            per_var[var.index()] = part.values;
        }
    }
    let universes: Arc<[u32]> = ctx.model.universes().into();
    let per_var: Arc<[Values]> = per_var.into();
    ValueOrder::By(Arc::new(move |var: VarId, index: u32| {
        let i = i64::from(index);
        match per_var
            .get(var.index())
            .copied()
            .unwrap_or(Values::Ascending)
        {
            Values::Ascending => i,
            Values::Descending => -i,
            Values::MiddleOut => {
                let last = i64::from(universes[var.index()]) - 1;
                // Twice the distance from the middle, the lower side first.
                (2 * i - last).abs() * 2 + i64::from(2 * i > last)
            }
            Values::Random => mix(seed ^ (var.index() as u64).rotate_left(32) ^ u64::from(index)),
        }
    }))
}

/// A 63-bit hash (SplitMix64's finaliser), for a seeded shuffle.
fn mix(mut z: u64) -> i64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 1) as i64
}

/// Reads one annotation of the solve item into `parts` and `restarts`.
fn collect(
    ctx: &mut Context<'_>,
    line: usize,
    annotation: &Annotation,
    parts: &mut Vec<Part>,
    restarts: &mut Option<Restarts>,
) -> Result<(), FznError> {
    let args = &annotation.expressions;
    match annotation.id.as_str() {
        "seq_search" | "warm_start_array" => {
            if let [AnnExpr::Annotations(inner)] = args.as_slice() {
                for annotation in inner {
                    collect(ctx, line, annotation, parts, restarts)?;
                }
            }
        }
        "int_search" | "bool_search" => {
            let [AnnExpr::Expr(vars), var_sel, val_sel, ..] = args.as_slice() else {
                return Err(FznError::invalid(
                    line,
                    format!("malformed `{}`", annotation.id),
                ));
            };
            let (var_sel, val_sel) = (word(var_sel), word(val_sel));
            let first_fail = match var_sel {
                "input_order" => false,
                "first_fail" => true,
                other => {
                    ctx.notes.push(format!(
                        "line {line}: variable selection `{other}` is not supported: \
                         the annotation's order instead"
                    ));
                    false
                }
            };
            let values = match val_sel {
                "indomain_min" | "indomain" => Values::Ascending,
                "indomain_max" => Values::Descending,
                "indomain_median" | "indomain_middle" => Values::MiddleOut,
                "indomain_random" => Values::Random,
                "indomain_split" | "indomain_interval" => {
                    ctx.notes.push(format!(
                        "line {line}: `{val_sel}` splits domains; ambsolve branches on values: \
                         ascending instead"
                    ));
                    Values::Ascending
                }
                "indomain_reverse_split" => {
                    ctx.notes.push(format!(
                        "line {line}: `indomain_reverse_split` splits domains; ambsolve \
                         branches on values: descending instead"
                    ));
                    Values::Descending
                }
                other => {
                    ctx.notes.push(format!(
                        "line {line}: value selection `{other}` is not supported: ascending instead"
                    ));
                    Values::Ascending
                }
            };
            let elems = ctx.elems(line, vars)?;
            let mut ids = Vec::new();
            for elem in elems {
                if let Elem::Var(_) = elem {
                    ids.push(ctx.var(elem).id());
                }
            }
            parts.push(Part {
                vars: ids,
                first_fail,
                values,
            });
        }
        "restart_luby" => match args.as_slice() {
            [AnnExpr::Expr(Expr::Int(scale))] => {
                *restarts = Some(Restarts::luby(u64::try_from(*scale).unwrap_or(1)));
            }
            _ => return Err(FznError::invalid(line, "malformed `restart_luby`")),
        },
        "restart_none" => *restarts = None,
        other => ctx.notes.push(format!(
            "line {line}: search annotation `{other}` is not supported: ignored"
        )),
    }
    Ok(())
}

/// The identifier an annotation argument is (`first_fail`), or "" if it is not one.
fn word(arg: &AnnExpr) -> &str {
    match arg {
        AnnExpr::Expr(Expr::VarParIdentifier(word)) => word,
        AnnExpr::Annotations(annotations) => match annotations.as_slice() {
            [single] if single.expressions.is_empty() => &single.id,
            _ => "",
        },
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use crate::{FznModel, SolveOptions, solve};

    /// The model's first solution under `annotation`, and its notes.
    fn first(annotation: &str, free: bool) -> (String, Vec<String>) {
        first_with("", annotation, free)
    }

    /// As `first`, with one more constraint line.
    fn first_with(constraint: &str, annotation: &str, free: bool) -> (String, Vec<String>) {
        let text = format!(
            "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\nvar 1..4: z :: output_var;\n\
             constraint int_ne(z, 1);\n{constraint}\nsolve {annotation} satisfy;\n"
        );
        let model = FznModel::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let options = SolveOptions {
            free,
            ..SolveOptions::default()
        };
        let mut out = Vec::new();
        solve(&model, &options, &mut out, |_| {}).expect("solved");
        let out = String::from_utf8(out).expect("UTF-8").replace('\n', " ");
        (out, model.notes().to_vec())
    }

    #[test]
    fn value_orders_follow_the_annotation_per_variable() {
        let (out, notes) = first(
            ":: int_search([x, y, z], input_order, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 3; y = 3; z = 4; ---------- ");
        assert!(notes.is_empty(), "{notes:?}");
        let (out, _) = first(
            ":: int_search([x, y, z], input_order, indomain_median, complete)",
            false,
        );
        // Middle-out over the initial values 1..4: 2, 3, 1, 4.
        assert_eq!(out, "x = 2; y = 2; z = 2; ---------- ");
        let (out, _) = first(
            ":: seq_search([int_search([x], input_order, indomain_min, complete), \
             int_search([y, z], input_order, indomain_max, complete)])",
            false,
        );
        assert_eq!(out, "x = 1; y = 3; z = 4; ---------- ");
    }

    #[test]
    fn variable_orders_and_free_search() {
        // Input order over [z, x], then the unlisted y; one value order for all.
        let (out, _) = first(
            ":: int_search([z, x], input_order, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 3; y = 3; z = 4; ---------- ");
        // Two value orders: per variable, the unlisted y ascending.
        let (out, _) = first(
            ":: seq_search([int_search([z], input_order, indomain_max, complete), \
             int_search([x], input_order, indomain_median, complete)])",
            false,
        );
        assert_eq!(out, "x = 2; y = 1; z = 4; ---------- ");
        // With y + z <= 5, the variable decided first takes its largest value: z in input
        // order, y (2 values left against z's 3) first-fail.
        let sum = "constraint int_le(y, 2);\nconstraint int_lin_le([1, 1], [y, z], 5);";
        let (out, _) = first_with(
            sum,
            ":: int_search([z, y], input_order, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 3; y = 1; z = 4; ---------- ");
        let (out, _) = first_with(
            sum,
            ":: int_search([z, y], first_fail, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 3; y = 2; z = 3; ---------- ");
        // Free search ignores the annotation: first-fail, ascending values.
        let (out, _) = first(
            ":: int_search([z, x], input_order, indomain_max, complete)",
            true,
        );
        assert_eq!(out, "x = 1; y = 1; z = 2; ---------- ");
    }

    #[test]
    fn what_the_strategy_cannot_express_is_noted() {
        let (_, notes) = first(
            ":: seq_search([int_search([x], dom_w_deg, indomain_split, complete), \
             int_search([y], input_order, indomain_reverse_split, complete), warm_start([x], [1])])",
            false,
        );
        assert_eq!(
            notes,
            [
                "line 6: variable selection `dom_w_deg` is not supported: the annotation's order instead",
                "line 6: `indomain_split` splits domains; ambsolve branches on values: ascending instead",
                "line 6: `indomain_reverse_split` splits domains; ambsolve branches on values: descending instead",
                "line 6: search annotation `warm_start` is not supported: ignored",
            ]
        );
    }
}
