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
    let overflow = || FznError::invalid(line, "a linear constraint's constants overflow an i64");
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
