//! The handlers of the supported FlatZinc builtins: each turns one constraint item into
//! `Model` constraints, through the public API only.

use std::collections::HashMap;

use ambsolve::{Cmp, Var};

use super::context::{Context, Elem};
use super::post_constraints::Call;
use crate::error::FznError;

/// `int_lin_eq(as, xs, c)`: `Σ as[i]·xs[i] = c`.
pub(crate) fn int_lin_eq(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    lin(ctx, call, Cmp::Eq)
}

/// `int_lin_le(as, xs, c)`: `Σ as[i]·xs[i] ≤ c`.
pub(crate) fn int_lin_le(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    lin(ctx, call, Cmp::Le)
}

/// `int_lin_ne(as, xs, c)`: `Σ as[i]·xs[i] ≠ c`.
pub(crate) fn int_lin_ne(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    lin(ctx, call, Cmp::Ne)
}

fn lin(ctx: &mut Context<'_>, call: &Call<'_>, cmp: Cmp) -> Result<(), FznError> {
    let [coefs, xs, rhs] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let coefs = ctx.ints(call.line, coefs)?;
    let xs = ctx.elems(call.line, xs)?;
    if coefs.len() != xs.len() {
        return Err(FznError::invalid(
            call.line,
            format!(
                "`{}` has {} coefficients for {} variables",
                call.name,
                coefs.len(),
                xs.len()
            ),
        ));
    }
    let rhs = ctx.int(call.line, rhs)?;
    linear(
        ctx,
        call.line,
        coefs.into_iter().zip(xs).collect(),
        cmp,
        rhs,
    )
}

/// `int_eq(a, b)` (and `bool_eq`, `bool2int`, when an earlier pass did not merge them):
/// `a = b`.
pub(crate) fn int_eq(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    compare(ctx, call, Cmp::Eq)
}

/// `int_ne(a, b)`: `a ≠ b`.
pub(crate) fn int_ne(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    compare(ctx, call, Cmp::Ne)
}

/// `int_le(a, b)`: `a ≤ b`.
pub(crate) fn int_le(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    compare(ctx, call, Cmp::Le)
}

/// `int_lt(a, b)`: `a < b`.
pub(crate) fn int_lt(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    compare(ctx, call, Cmp::Lt)
}

fn compare(ctx: &mut Context<'_>, call: &Call<'_>, cmp: Cmp) -> Result<(), FznError> {
    let [a, b] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let (a, b) = (ctx.elem(call.line, a)?, ctx.elem(call.line, b)?);
    linear(ctx, call.line, vec![(1, a), (-1, b)], cmp, 0)
}

/// `int_plus(a, b, c)`: `a + b = c`.
pub(crate) fn int_plus(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    let [a, b, c] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let terms = vec![
        (1, ctx.elem(call.line, a)?),
        (1, ctx.elem(call.line, b)?),
        (-1, ctx.elem(call.line, c)?),
    ];
    linear(ctx, call.line, terms, Cmp::Eq, 0)
}

/// `set_in(x, S)`: `x ∈ S`, a restriction of `x`'s domain.
pub(crate) fn set_in(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    let [x, set] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let x = ctx.elem(call.line, x)?;
    let set = ctx.set(call.line, set)?;
    let x = ctx.var(x);
    ctx.model.restrict(&x, |v| set.binary_search(v).is_ok());
    Ok(())
}

/// `array_int_element(i, as, y)` (and `array_bool_element`): `as[i] = y`, `as` a 1-based
/// array of constants: a table over `(i, y)`.
pub(crate) fn array_int_element(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    let [index, array, result] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let index = ctx.elem(call.line, index)?;
    let array = ctx.ints(call.line, array)?;
    let result = ctx.elem(call.line, result)?;
    let vars = [ctx.var(index), ctx.var(result)];
    let tuples: Vec<[i64; 2]> = (1i64..).zip(array).map(|(i, a)| [i, a]).collect();
    ctx.model.table(&vars, tuples);
    Ok(())
}

/// `fzn_all_different_int(xs)`: the values of `xs` are pairwise different.
pub(crate) fn all_different_int(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    let [xs] = call.arity(1)? else {
        unreachable!("one argument")
    };
    let xs = ctx.elems(call.line, xs)?;
    let vars: Vec<Var<i64>> = xs.into_iter().map(|x| ctx.var(x)).collect();
    ctx.model.all_different_offset(vars.iter().map(|v| (v, 0)));
    Ok(())
}

/// `fzn_table_int(xs, t)`: the values of `xs` form a row of `t` (its rows flattened one
/// after another).
pub(crate) fn table_int(ctx: &mut Context<'_>, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, table] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let xs = ctx.elems(call.line, xs)?;
    let table = ctx.ints(call.line, table)?;
    if xs.is_empty() || table.len() % xs.len() != 0 {
        return Err(FznError::invalid(
            call.line,
            format!(
                "`{}`: a table of {} values does not split into rows of {}",
                call.name,
                table.len(),
                xs.len()
            ),
        ));
    }
    let vars: Vec<Var<i64>> = xs.into_iter().map(|x| ctx.var(x)).collect();
    ctx.model.table(&vars, table.chunks(vars.len()));
    Ok(())
}

/// Posts `Σ coef·elem cmp rhs`: constants move to the right-hand side, a variable met
/// twice (or two merged ones) gets one term with the coefficients added.
pub(crate) fn linear(
    ctx: &mut Context<'_>,
    line: usize,
    terms: Vec<(i64, Elem)>,
    cmp: Cmp,
    rhs: i64,
) -> Result<(), FznError> {
    let overflow = || {
        FznError::invalid(
            line,
            "a linear constraint's coefficients or constants overflow an i64",
        )
    };
    let mut rhs = i128::from(rhs);
    let mut by_root: Vec<(usize, i128)> = Vec::new();
    let mut position: HashMap<usize, usize> = HashMap::new();
    for (coef, elem) in terms {
        match elem {
            Elem::Const(value) => rhs -= i128::from(coef) * i128::from(value),
            Elem::Var(decl) => {
                let root = ctx.root(decl);
                let at = *position.entry(root).or_insert_with(|| {
                    by_root.push((root, 0));
                    by_root.len() - 1
                });
                by_root[at].1 += i128::from(coef);
            }
        }
    }
    let rhs = i64::try_from(rhs).map_err(|_| overflow())?;
    let mut vars = Vec::new();
    for (root, coef) in by_root {
        if coef != 0 {
            let coef = i64::try_from(coef).map_err(|_| overflow())?;
            vars.push((coef, ctx.var(Elem::Var(root))));
        }
    }
    ctx.model
        .linear(vars.iter().map(|(c, v)| (*c, v)), cmp, rhs);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{FznModel, SolveOptions, solve};

    /// Every solution of a FlatZinc model over `x` and `y`, as `"x y"`, in search order;
    /// each checked against the model.
    fn solutions(constraints: &str) -> Vec<String> {
        let text = format!(
            "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n{constraints}\nsolve satisfy;\n"
        );
        let model = FznModel::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let options = SolveOptions {
            all: true,
            ..SolveOptions::default()
        };
        let mut found = Vec::new();
        solve(&model, &options, &mut std::io::sink(), |s| {
            model
                .model()
                .check(s)
                .expect("a solution satisfies the model");
            let text = model.render(s);
            let values: Vec<&str> = text
                .lines()
                .map(|l| l.split(" = ").nth(1).expect("x = v;").trim_end_matches(';'))
                .collect();
            found.push(values.join(" "));
        })
        .expect("solved");
        found.sort();
        found
    }

    #[test]
    fn linear_builtins_mean_their_sums() {
        assert_eq!(
            solutions("constraint int_lin_eq([2, -1], [x, y], 1);"),
            ["1 1", "2 3"]
        );
        assert_eq!(
            solutions("constraint int_lin_le([1, 1], [x, y], 3);"),
            ["1 1", "1 2", "2 1"]
        );
        assert_eq!(
            solutions("constraint int_lin_ne([1, 1], [x, y], 4);"),
            ["1 1", "1 2", "2 1", "2 3", "3 2", "3 3"]
        );
        // Constants among the variables move to the right-hand side; a variable met twice
        // gets one term.
        assert_eq!(
            solutions("constraint int_lin_eq([1, 1, 1], [x, 2, x], 4);"),
            ["1 1", "1 2", "1 3"]
        );
    }

    #[test]
    fn comparisons_and_plus_are_linear() {
        assert_eq!(
            solutions("constraint int_lt(x, y);\nconstraint int_le(y, 2);"),
            ["1 2"]
        );
        assert_eq!(
            solutions("constraint int_ne(x, 2);\nconstraint int_eq(y, 3);"),
            ["1 3", "3 3"]
        );
        assert_eq!(
            solutions("constraint int_plus(x, 1, y);\nconstraint int_le(2, x);"),
            ["2 3"]
        );
        // Merged by merge_equivalences: the equality holds without a constraint.
        assert_eq!(
            solutions("constraint int_eq(x, y);\nconstraint int_ne(x, 2);"),
            ["1 1", "3 3"]
        );
    }

    #[test]
    fn element_of_constants_set_in_and_the_globals() {
        assert_eq!(
            solutions("constraint array_int_element(x, [3, 1, 3], y);"),
            ["1 3", "2 1", "3 3"]
        );
        assert_eq!(
            solutions("constraint set_in(x, {1, 3});\nconstraint int_eq(y, 2);"),
            ["1 2", "3 2"]
        );
        assert_eq!(
            solutions("constraint fzn_all_different_int([x, y, 2]);"),
            ["1 3", "3 1"]
        );
        assert_eq!(
            solutions("constraint fzn_table_int([x, y], [1, 2, 3, 3, 2, 2]);"),
            ["1 2", "2 2", "3 3"]
        );
    }

    #[test]
    fn a_malformed_argument_is_an_error_on_its_line() {
        let text = "var 1..3: x;\nconstraint int_lin_eq([1, 1], [x], 1);\nsolve satisfy;\n";
        let error = FznModel::from_str(text).expect_err("two coefficients, one variable");
        assert_eq!(
            error.to_string(),
            "line 2: `int_lin_eq` has 2 coefficients for 1 variables"
        );
        let text = "var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;\n";
        let error = FznModel::from_str(text).expect_err("one argument");
        assert_eq!(
            error.to_string(),
            "line 2: `int_le` takes 2 arguments, not 1"
        );
        let text = "var 1..3: x;\nconstraint int_le(x, z);\nsolve satisfy;\n";
        let error = FznModel::from_str(text).expect_err("unknown");
        assert_eq!(error.to_string(), "line 2: unknown identifier `z`");
        let text = "var 1..3: x;\nconstraint fzn_table_int([x, x], [1, 2, 3]);\nsolve satisfy;\n";
        let error = FznModel::from_str(text).expect_err("ragged table");
        assert_eq!(error.line(), Some(2));
    }

    #[test]
    fn an_unsupported_builtin_is_named_with_its_line_and_never_skipped() {
        let text = "var 1..3: x;\nvar 1..3: y;\nvar 1..9: z;\nconstraint int_le(x, y);\n\
                    constraint int_times(x, y, z);\nconstraint int_times(y, y, z);\n\
                    constraint bool_clause([], []);\nsolve satisfy;\n";
        let error = FznModel::from_str(text).expect_err("int_times");
        assert_eq!(
            error.to_string(),
            "unsupported constraint `int_times` (line 5); also unsupported: `bool_clause` (line 7)"
        );
    }
}
