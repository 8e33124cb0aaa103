//! Pass: the solve item's search annotations (`int_search`, `bool_search`, `seq_search`,
//! `restart_*`) become a [`Strategy`].
//!
//! - Each `int_search` / `bool_search` is a [`Phase`] over its variables, in the order of
//!   the annotations (a `seq_search`, or several annotations, in turn); the variables no
//!   annotation lists come last, by ambsolve's own order (first-fail, ascending values).
//! - Variable selection: `input_order`, `first_fail`, `anti_first_fail`, `smallest`,
//!   `largest` (by the variables' values), `occurrence`, `most_constrained` and
//!   `dom_w_deg` are the [`VarOrder`] of the same name; `max_regret` (and anything else)
//!   falls back to the annotation's order, with a note.
//! - Value selection: `indomain_min` (and the old `indomain`) ascending, `indomain_max`
//!   descending, `indomain_median` the median first, `indomain_middle` middle-out over the
//!   initial values, `indomain_random` a shuffle fixed by the seed, `indomain_split`
//!   and `indomain_reverse_split` binary splits (`x <= mid` / `x > mid`);
//!   `indomain_interval` is a split too (noted). Others: ascending, noted.
//! - `warm_start(x, v)` (also inside `warm_start_array`): hints, the values the search
//!   tries first ([`Model::hint`](ambsolve::Model::hint)).
//! - Restarts: `restart_luby(scale)`, `restart_geometric(base, scale)`,
//!   `restart_constant(scale)`, `restart_linear(scale)` are the [`Restarts`] schedules
//!   (seeded by `-r`); `restart_none` none.
//!
//! A note goes to `-v` for each annotation followed only in part.

use ambsolve::{Phase, Restarts, Strategy, ValueKey, ValueOrder, VarId, VarOrder, value_images};
use flatzinc::{AnnExpr, Annotation, Expr, SolveItem};

use super::context::{Context, Elem};
use crate::ast::Located;
use crate::error::FznError;

/// Builds the strategy of the solve item's annotations (none if it has none).
///
/// # Errors
/// A malformed search annotation (its variables not an array, a restart's argument not a
/// number).
pub(crate) fn run(
    ctx: &mut Context,
    solve: &Located<SolveItem>,
    seed: u64,
) -> Result<(), FznError> {
    let line = solve.line;
    let mut phases = Vec::new();
    let mut restarts = None;
    let mut reader = Reader {
        line,
        seed,
        key: None,
        phases: &mut phases,
        restarts: &mut restarts,
    };
    for annotation in &solve.item.annotations {
        reader.collect(ctx, annotation)?;
    }
    if phases.is_empty() && restarts.is_none() {
        return Ok(());
    }
    let mut strategy = Strategy::first_fail();
    for phase in phases {
        strategy = strategy.phase(phase);
    }
    if let Some(restarts) = restarts {
        strategy = strategy.restarts(restarts.seed(seed));
    }
    ctx.strategy = Some(strategy);
    Ok(())
}

/// What the annotations read so far ask for.
struct Reader<'r> {
    line: usize,
    seed: u64,
    /// The variables' values, for `smallest` and `largest` (made when one asks).
    key: Option<ValueKey>,
    phases: &'r mut Vec<Phase>,
    restarts: &'r mut Option<Restarts>,
}

impl Reader<'_> {
    /// Reads one annotation of the solve item.
    fn collect(&mut self, ctx: &mut Context, annotation: &Annotation) -> Result<(), FznError> {
        let line = self.line;
        let args = &annotation.expressions;
        let id = annotation.id.as_str();
        match id {
            "seq_search" | "warm_start_array" => {
                if let [AnnExpr::Annotations(inner)] = args.as_slice() {
                    for annotation in inner {
                        self.collect(ctx, annotation)?;
                    }
                }
            }
            "int_search" | "bool_search" => {
                let [AnnExpr::Expr(vars), var_sel, val_sel, ..] = args.as_slice() else {
                    return Err(FznError::invalid(line, format!("malformed `{id}`")));
                };
                let order = self.var_order(ctx, word(var_sel));
                let values = self.value_order(ctx, word(val_sel));
                let elems = ctx.elems(line, vars)?;
                let mut ids: Vec<VarId> = Vec::new();
                for elem in elems {
                    if let Elem::Var(_) = elem {
                        ids.push(ctx.var(elem).id());
                    }
                }
                self.phases.push(Phase::new(ids, order, values));
            }
            "restart_luby" | "restart_constant" | "restart_linear" => {
                let scale = match args.as_slice() {
                    [AnnExpr::Expr(Expr::Int(scale))] => u64::try_from(*scale).unwrap_or(1),
                    _ => return Err(FznError::invalid(line, format!("malformed `{id}`"))),
                };
                *self.restarts = Some(match id {
                    "restart_luby" => Restarts::luby(scale),
                    "restart_constant" => Restarts::constant(scale),
                    _ => Restarts::linear(scale),
                });
            }
            "restart_geometric" => match args.as_slice() {
                [AnnExpr::Expr(base), AnnExpr::Expr(Expr::Int(scale))] => {
                    let factor = match base {
                        Expr::Float(f) => *f,
                        Expr::Int(i) => *i as f64,
                        _ => return Err(FznError::invalid(line, "malformed `restart_geometric`")),
                    };
                    let scale = u64::try_from(*scale).unwrap_or(1);
                    *self.restarts = Some(Restarts::geometric(scale, factor));
                }
                _ => return Err(FznError::invalid(line, "malformed `restart_geometric`")),
            },
            "restart_none" => *self.restarts = None,
            "warm_start" => {
                // `warm_start(x, v)`: the values the search tries first (`Model::hint`).
                let [AnnExpr::Expr(vars), AnnExpr::Expr(values)] = args.as_slice() else {
                    return Err(FznError::invalid(line, "malformed `warm_start`"));
                };
                let vars = ctx.elems(line, vars)?;
                let values = ctx.elems(line, values)?;
                for (var, value) in vars.into_iter().zip(values) {
                    if let (Elem::Var(_), Elem::Const(value)) = (&var, value) {
                        let var = ctx.var(var);
                        ctx.model.hint(&var, value);
                    }
                }
            }
            other => ctx.notes.push(format!(
                "line {line}: search annotation `{other}` is not supported: ignored"
            )),
        }
        Ok(())
    }

    /// The variable order a variable selection names.
    fn var_order(&mut self, ctx: &mut Context, selection: &str) -> VarOrder {
        let mut key = || {
            self.key
                .get_or_insert_with(|| value_images(ctx.vars.iter().flatten()))
                .clone()
        };
        match selection {
            "input_order" => VarOrder::Input,
            "first_fail" => VarOrder::FirstFail,
            "anti_first_fail" => VarOrder::AntiFirstFail,
            "smallest" => VarOrder::Smallest(key()),
            "largest" => VarOrder::Largest(key()),
            "occurrence" => VarOrder::Occurrence,
            "most_constrained" => VarOrder::MostConstrained,
            "dom_w_deg" => VarOrder::DomWDeg,
            other => {
                ctx.notes.push(format!(
                    "line {}: variable selection `{other}` is not supported: the \
                     annotation's order instead",
                    self.line
                ));
                VarOrder::Input
            }
        }
    }

    /// The value order a value selection names.
    fn value_order(&self, ctx: &mut Context, selection: &str) -> ValueOrder {
        match selection {
            "indomain_min" | "indomain" => ValueOrder::Ascending,
            "indomain_max" => ValueOrder::Descending,
            "indomain_median" => ValueOrder::Median,
            "indomain_middle" => ValueOrder::MiddleOut,
            "indomain_random" => ValueOrder::Random(self.seed),
            "indomain_split" => ValueOrder::Split,
            "indomain_reverse_split" => ValueOrder::ReverseSplit,
            "indomain_interval" => {
                ctx.notes.push(format!(
                    "line {}: `indomain_interval` splits domains in halves, not at their \
                     intervals",
                    self.line
                ));
                ValueOrder::Split
            }
            other => {
                ctx.notes.push(format!(
                    "line {}: value selection `{other}` is not supported: ascending instead",
                    self.line
                ));
                ValueOrder::Ascending
            }
        }
    }
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
        let options = SolveOptions {
            free,
            ..SolveOptions::default()
        };
        first_under(constraint, annotation, &options)
    }

    /// As `first_with`, under the given options.
    fn first_under(
        constraint: &str,
        annotation: &str,
        options: &SolveOptions,
    ) -> (String, Vec<String>) {
        let text = format!(
            "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\nvar 1..4: z :: output_var;\n\
             constraint int_ne(z, 1);\n{constraint}\nsolve {annotation} satisfy;\n"
        );
        let model = FznModel::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let mut out = Vec::new();
        solve(&model, options, &mut out, |_| {}).expect("solved");
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
        // The median of the values left: 2 of 1..3, 3 of z's 2..4.
        assert_eq!(out, "x = 2; y = 2; z = 3; ---------- ");
        let (out, _) = first(
            ":: int_search([x, y, z], input_order, indomain_reverse_split, complete)",
            false,
        );
        assert_eq!(out, "x = 3; y = 3; z = 4; ---------- ");
        let (out, _) = first(
            ":: seq_search([int_search([x], input_order, indomain_min, complete), \
             int_search([y, z], input_order, indomain_max, complete)])",
            false,
        );
        assert_eq!(out, "x = 1; y = 3; z = 4; ---------- ");
    }

    #[test]
    fn variable_orders_and_free_search() {
        // Input order over [z, x], then the unlisted y by ambsolve's own order (ascending).
        let (out, _) = first(
            ":: int_search([z, x], input_order, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 3; y = 1; z = 4; ---------- ");
        // Two phases, each its own value order; the unlisted y ascending.
        let (out, _) = first(
            ":: seq_search([int_search([z], input_order, indomain_max, complete), \
             int_search([x], input_order, indomain_median, complete)])",
            false,
        );
        assert_eq!(out, "x = 2; y = 1; z = 4; ---------- ");
        // With y + z <= 5, the variable decided first takes its largest value: z in input
        // order, y (2 values left against z's 3) first-fail; x last, ascending.
        let sum = "constraint int_le(y, 2);\nconstraint int_lin_le([1, 1], [y, z], 5);";
        let (out, _) = first_with(
            sum,
            ":: int_search([z, y], input_order, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 1; y = 1; z = 4; ---------- ");
        let (out, _) = first_with(
            sum,
            ":: int_search([z, y], first_fail, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 1; y = 2; z = 3; ---------- ");
        // Largest: z (up to 4) first; smallest: y (from 1, listed before x) first.
        let (out, _) = first_with(
            sum,
            ":: int_search([x, y, z], largest, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 3; y = 1; z = 4; ---------- ");
        let (out, _) = first_with(
            sum,
            ":: int_search([z, y, x], smallest, indomain_max, complete)",
            false,
        );
        assert_eq!(out, "x = 3; y = 2; z = 3; ---------- ");
        // Free search that learns (the default) takes turns with the annotation across
        // restarts, beginning with it: z and x at their largest, then y ascending.
        let annotation = ":: int_search([z, x], input_order, indomain_max, complete)";
        let (out, _) = first(annotation, true);
        assert_eq!(out, "x = 3; y = 1; z = 4; ---------- ");
        // Free search without learning ignores the annotation: dom_w_deg, ascending.
        let options = SolveOptions {
            free: true,
            learning: Some(false),
            ..SolveOptions::default()
        };
        let (out, _) = first_under("", annotation, &options);
        assert_eq!(out, "x = 1; y = 1; z = 2; ---------- ");
    }

    #[test]
    fn what_the_strategy_cannot_express_is_noted() {
        let (_, notes) = first(
            ":: seq_search([int_search([x], dom_w_deg, indomain_split, complete), \
             int_search([y], max_regret, indomain_interval, complete), int_default_search(first_fail, indomain_min)])",
            false,
        );
        assert_eq!(
            notes,
            [
                "line 6: variable selection `max_regret` is not supported: the annotation's order instead",
                "line 6: `indomain_interval` splits domains in halves, not at their intervals",
                "line 6: search annotation `int_default_search` is not supported: ignored",
            ]
        );
    }
}
