//! The handlers of the integer FlatZinc builtins (linear constraints, comparisons,
//! arithmetic, element, domains) and their reified (`_reif`) and half-reified (`_imp`)
//! forms: each turns one constraint item into `Model` constraints, through the public API
//! only. Booleans are 0/1 integer variables (`builtins_bool.rs` has the logic, and
//! `builtins_global.rs` the global constraints of the mznlib).

use std::collections::HashMap;

use ambsolve::{Cmp, Lit, Var};

use super::call::{Call, Handler};
use super::context::{Context, Elem, MAX_LISTED};
use super::membership;
use crate::error::FznError;

/// The builtins of integers this file handles, with their handlers (see
/// [`builtins`](super::post_constraints::builtins)).
pub(crate) const BUILTINS: &[(&str, Handler)] = &[
    // Linear (in)equalities: Σ a_i x_i cmp c, and tied to a literal r (`_reif`: r <-> ..,
    // `_imp`: r -> ..).
    ("int_lin_eq", int_lin),
    ("int_lin_le", int_lin),
    ("int_lin_ne", int_lin),
    ("int_lin_eq_reif", int_lin),
    ("int_lin_le_reif", int_lin),
    ("int_lin_ne_reif", int_lin),
    ("int_lin_eq_imp", int_lin),
    ("int_lin_le_imp", int_lin),
    ("int_lin_ne_imp", int_lin),
    ("bool_lin_eq", int_lin),
    ("bool_lin_le", int_lin),
    // Comparisons of two integers (or booleans, 0/1), as linear constraints.
    ("int_eq", compare),
    ("int_ne", compare),
    ("int_le", compare),
    ("int_lt", compare),
    ("int_eq_reif", compare),
    ("int_ne_reif", compare),
    ("int_le_reif", compare),
    ("int_lt_reif", compare),
    ("int_eq_imp", compare),
    ("int_ne_imp", compare),
    ("int_le_imp", compare),
    ("int_lt_imp", compare),
    ("bool_eq", compare),
    ("bool_ne", compare),
    ("bool_le", compare),
    ("bool_lt", compare),
    ("bool_eq_reif", compare),
    ("bool_ne_reif", compare),
    ("bool_le_reif", compare),
    ("bool_lt_reif", compare),
    ("bool_eq_imp", compare),
    ("bool_ne_imp", compare),
    ("bool_le_imp", compare),
    ("bool_lt_imp", compare),
    // A boolean and its integer are one 0/1 variable; merged unless one is a constant.
    ("bool2int", compare),
    ("bool_not", bool_not),
    // Arithmetic.
    ("int_plus", int_plus),
    ("int_times", int_binary),
    ("int_div", int_binary),
    ("int_mod", int_binary),
    ("int_pow", int_binary),
    ("int_pow_fixed", int_binary),
    ("int_min", int_binary),
    ("int_max", int_binary),
    ("int_abs", int_abs),
    ("array_int_maximum", array_extreme),
    ("array_int_minimum", array_extreme),
    // Domains.
    ("set_in", set_in),
    ("set_in_reif", set_in),
    ("set_in_imp", set_in),
    // Element, arrays numbered from 1.
    ("array_int_element", array_element),
    ("array_bool_element", array_element),
    ("array_var_int_element", array_element),
    ("array_var_bool_element", array_element),
];

/// How a constraint is tied to a literal: posted as is, reified (`r <-> c`, FlatZinc's
/// `_reif`) or half-reified (`r -> c`, `_imp`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tie {
    /// The constraint holds.
    Plain,
    /// The literal is true exactly when the constraint holds.
    Reified(Lit),
    /// The literal true implies the constraint.
    Implied(Lit),
}

/// The tie of a builtin by its name's suffix: `_reif` and `_imp` take their literal from
/// the last argument (which `args` then leaves out).
fn tie<'c>(ctx: &mut Context, call: &'c Call<'_>) -> Result<(Tie, &'c [flatzinc::Expr]), FznError> {
    let reified = call.name.ends_with("_reif");
    if !reified && !call.name.ends_with("_imp") {
        return Ok((Tie::Plain, call.args));
    }
    let Some((last, rest)) = call.args.split_last() else {
        return Err(FznError::invalid(
            call.line,
            format!("`{}` takes a literal last", call.name),
        ));
    };
    let lit = ctx.lit_arg(call.line, last)?;
    Ok((
        if reified {
            Tie::Reified(lit)
        } else {
            Tie::Implied(lit)
        },
        rest,
    ))
}

/// The arguments of a call (without the literal of a `_reif` / `_imp` form), checking
/// there are `count`.
fn arguments<'c>(
    call: &Call<'_>,
    args: &'c [flatzinc::Expr],
    count: usize,
) -> Result<&'c [flatzinc::Expr], FznError> {
    if args.len() == count {
        Ok(args)
    } else {
        Err(FznError::invalid(
            call.line,
            format!(
                "`{}` takes {} arguments, not {}",
                call.name,
                call.args.len() - args.len() + count,
                call.args.len()
            ),
        ))
    }
}

/// The comparison a linear builtin's name states (`int_lin_le_reif`: `Le`).
fn cmp_of(name: &str) -> Cmp {
    let stem = name.trim_end_matches("_reif").trim_end_matches("_imp");
    match stem.rsplit('_').next() {
        Some("eq") => Cmp::Eq,
        Some("ne") => Cmp::Ne,
        Some("le") => Cmp::Le,
        Some("lt") => Cmp::Lt,
        Some("ge") => Cmp::Ge,
        Some("gt") => Cmp::Gt,
        _ => unreachable!("the table names only comparisons here: {name}"),
    }
}

/// `int_lin_{eq,le,ne}(as, xs, c)` (and `_reif`, `_imp`; `bool_lin_{eq,le}`, whose
/// right-hand side may be a variable): `Σ as[i]·xs[i] cmp c`.
pub(crate) fn int_lin(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let (tie, args) = tie(ctx, call)?;
    let [coefs, xs, rhs] = arguments(call, args, 3)? else {
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
    let mut terms: Vec<(i64, Elem)> = coefs.into_iter().zip(xs).collect();
    terms.push((-1, ctx.elem(call.line, rhs)?));
    post_linear(ctx, call.line, terms, cmp_of(call.name), 0, tie)
}

/// `int_{eq,ne,le,lt}(a, b)` (and `_reif`, `_imp`; the `bool_` ones over 0/1, and
/// `bool2int` when an earlier pass did not merge it): `a cmp b`.
pub(crate) fn compare(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let (tie, args) = tie(ctx, call)?;
    let [a, b] = arguments(call, args, 2)? else {
        unreachable!("two arguments")
    };
    let (a, b) = (ctx.elem(call.line, a)?, ctx.elem(call.line, b)?);
    let cmp = if call.name == "bool2int" {
        Cmp::Eq
    } else {
        cmp_of(call.name)
    };
    post_linear(ctx, call.line, vec![(1, a), (-1, b)], cmp, 0, tie)
}

/// `bool_not(a, b)`: `a != b`, as `a + b = 1`.
pub(crate) fn bool_not(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [a, b] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let (a, b) = (ctx.elem(call.line, a)?, ctx.elem(call.line, b)?);
    post_linear(ctx, call.line, vec![(1, a), (1, b)], Cmp::Eq, 1, Tie::Plain)
}

/// `int_plus(a, b, c)`: `a + b = c`.
pub(crate) fn int_plus(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [a, b, c] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let terms = vec![
        (1, ctx.elem(call.line, a)?),
        (1, ctx.elem(call.line, b)?),
        (-1, ctx.elem(call.line, c)?),
    ];
    post_linear(ctx, call.line, terms, Cmp::Eq, 0, Tie::Plain)
}

/// `int_{times,div,mod,pow,min,max}(a, b, c)` and `int_pow_fixed`: `c = a op b`.
/// FlatZinc's `div` truncates toward zero and `mod` takes the sign of `a`, as Rust's `/`
/// and `%` (and `Model::div`, `Model::rem`); `pow` with a negative exponent is the
/// truncated reciprocal `1 div pow(a, -b)` (undefined for `a = 0`), as the FlatZinc
/// specification defines `int_pow` (`Model::pow_reciprocal`).
pub(crate) fn int_binary(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [a, b, c] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let elems = [
        ctx.elem(call.line, a)?,
        ctx.elem(call.line, b)?,
        ctx.elem(call.line, c)?,
    ];
    let [a, b, c] = elems.map(|e| ctx.arg(e));
    let model = &mut ctx.model;
    match call.name {
        "int_times" => model.times(a, b, c),
        "int_div" => model.div(a, b, c),
        "int_mod" => model.rem(a, b, c),
        "int_pow" | "int_pow_fixed" => model.pow_reciprocal(a, b, c),
        "int_min" => model.min([a, b], c),
        "int_max" => model.max([a, b], c),
        other => unreachable!("not a binary operation: {other}"),
    }
    Ok(())
}

/// `int_abs(a, b)`: `b = |a|`.
pub(crate) fn int_abs(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [a, b] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let (a, b) = (ctx.elem(call.line, a)?, ctx.elem(call.line, b)?);
    let (a, b) = (ctx.arg(a), ctx.arg(b));
    ctx.model.abs(a, b);
    Ok(())
}

/// `array_int_{maximum,minimum}(m, xs)`: `m` is the greatest / least of `xs`.
pub(crate) fn array_extreme(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [m, xs] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let m = ctx.int_arg(call.line, m)?;
    let xs = ctx.int_args(call.line, xs)?;
    if call.name == "array_int_maximum" {
        ctx.model.max(xs, m);
    } else {
        ctx.model.min(xs, m);
    }
    Ok(())
}

/// `set_in(x, S)`: `x ∈ S`, a restriction of `x`'s domain; `set_in_reif(x, S, r)`: `r`
/// is true exactly when `x ∈ S`, and `set_in_imp`: `r` implies it — both as a table over
/// `(x, r)`. (`merge_equivalences` has already narrowed the domain of a variable `x` to
/// `S`, so the plain form is left with constants.) Over a domain of more than
/// `MAX_LISTED` values, neither a restriction nor a table, which go value by value, but
/// the bounds and intervals of `membership`.
pub(crate) fn set_in(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let (tie, args) = tie(ctx, call)?;
    let [x, set] = arguments(call, args, 2)? else {
        unreachable!("two arguments")
    };
    let x = ctx.elem(call.line, x)?;
    let set = ctx.set(call.line, set)?;
    let domain = ctx.domain(x);
    let x_var = ctx.var(x);
    let listed = domain.len() <= MAX_LISTED;
    let (lit, full) = match tie {
        Tie::Plain if listed => {
            ctx.model.restrict(&x_var, |v| set.contains(*v));
            return Ok(());
        }
        Tie::Plain => {
            membership::constrain(&mut ctx.model, &x_var, &domain, &set);
            return Ok(());
        }
        Tie::Reified(lit) => (lit, true),
        Tie::Implied(lit) => (lit, false),
    };
    if !listed {
        membership::reify(&mut ctx.model, &x_var, &domain, &set, lit, full);
        return Ok(());
    }
    let r = ctx.elem(call.line, call.args.last().expect("a literal"))?;
    let r = ctx.var(r);
    let mut rows: Vec<[i64; 2]> = Vec::new();
    for v in domain.values() {
        let inside = set.contains(v);
        rows.push([v, i64::from(inside)]);
        if !full && inside {
            rows.push([v, 0]);
        }
    }
    ctx.model.table(&[x_var, r], rows);
    Ok(())
}

/// `array_{int,bool}_element(i, as, y)` and `array_var_{int,bool}_element(i, xs, y)`:
/// `y = as[i]`, the array numbered from 1 (`Model::element_offset`).
pub(crate) fn array_element(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [index, array, result] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let index = ctx.int_arg(call.line, index)?;
    let array = ctx.int_args(call.line, array)?;
    let result = ctx.int_arg(call.line, result)?;
    ctx.model.element_offset(index, 1, array, result);
    Ok(())
}

/// Posts `Σ coef·elem cmp rhs` (tied to a literal as `tie` says): constants move to the
/// right-hand side, a variable met twice (or two merged ones) gets one term with the
/// coefficients added.
pub(crate) fn post_linear(
    ctx: &mut Context,
    line: usize,
    terms: Vec<(i64, Elem)>,
    cmp: Cmp,
    rhs: i64,
    tie: Tie,
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
    let mut vars: Vec<(i64, Var<i64>)> = Vec::new();
    for (root, coef) in by_root {
        if coef != 0 {
            let coef = i64::try_from(coef).map_err(|_| overflow())?;
            vars.push((coef, ctx.var(Elem::Var(root))));
        }
    }
    let terms = vars.iter().map(|(c, v)| (*c, v));
    match tie {
        Tie::Plain => ctx.model.linear(terms, cmp, rhs),
        Tie::Reified(lit) => ctx.model.linear_reified(terms, cmp, rhs, lit),
        Tie::Implied(lit) => ctx.model.linear_implied(terms, cmp, rhs, lit),
    }
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
                    constraint float_times(x, y, z);\nconstraint float_times(y, y, z);\n\
                    constraint set_card(x, y);\nsolve satisfy;\n";
        let error = FznModel::from_str(text).expect_err("float_times");
        assert_eq!(
            error.to_string(),
            "unsupported constraint `float_times` (line 5); also unsupported: `set_card` (line 7)"
        );
    }
}
