//! `minimize EXPR;` and `maximize EXPR;`: a linear objective when `EXPR` is linear, a
//! formula (products, quotients, lookups at chosen indices, counts) otherwise.

use quote::ToTokens;
use syn::spanned::Spanned;

use crate::analyze::{self, Choices};
use crate::ast::Objective;
use crate::checks::{check_comprehensions, choice_list, float_literal, sums};
use crate::formula::Reader;
use crate::linear;
use crate::plan::{Constraint, Goal};

/// The objective's constraints, one per objective in order: `minimize (a, b);` lists
/// several (lexicographic: `b` among the solutions where `a` is at its optimum), as
/// `minimize a;` one. `word` is `minimize` or `maximize`.
pub(crate) fn classify<'a>(
    objective: &'a Objective,
    dims: &Choices,
    word: &str,
) -> syn::Result<Vec<Constraint<'a>>> {
    let parts: Vec<&'a syn::Expr> = match &objective.expr {
        syn::Expr::Tuple(tuple) if !tuple.elems.is_empty() => tuple.elems.iter().collect(),
        expr => vec![expr],
    };
    parts
        .into_iter()
        .enumerate()
        .map(|(k, expr)| classify_one(objective, expr, k > 0, dims, word))
        .collect()
}

/// One objective, `expr`; `then`: a further one, after the first.
fn classify_one<'a>(
    objective: &'a Objective,
    expr: &'a syn::Expr,
    then: bool,
    dims: &Choices,
    word: &str,
) -> syn::Result<Constraint<'a>> {
    if let Some(float) = float_literal(expr) {
        return Err(syn::Error::new(
            float,
            format!("{word} takes an integer expression, and this is a float"),
        ));
    }
    let form = linear::linearize(expr, dims, &objective.comprehensions);
    let sums_linear = form.as_ref().is_some_and(|form| {
        form.sums
            .iter()
            .all(|(_, c)| linear::linearize(&c.element, dims, &[]).is_some())
    });
    if let Some(form) = form.filter(|_| sums_linear) {
        if form.terms.is_empty() && form.lookups.is_empty() && form.sums.is_empty() {
            let mentions = analyze::mentions(expr, dims);
            if let Some(error) = mentions.errors.into_iter().next() {
                return Err(error);
            }
            return Err(constant(expr, dims, word));
        }
        return Ok(Constraint::Linear {
            span: objective.keyword,
            goal: Goal::Objective(objective.sense, then),
            terms: form.terms,
            lookups: form.lookups,
            constant: form.constant,
            sums: sums(form.sums, dims)?,
        });
    }
    let reader = Reader::new(dims, &objective.comprehensions);
    match reader.formula(expr) {
        Some(formula) => {
            check_comprehensions(&formula, dims)?;
            Ok(Constraint::Objective {
                span: objective.keyword,
                sense: objective.sense,
                then,
                formula,
                text: expr.to_token_stream().to_string(),
            })
        }
        None if analyze::first_choice_in(expr, dims).is_none()
            && objective.comprehensions.is_empty() =>
        {
            Err(constant(expr, dims, word))
        }
        None => Err(syn::Error::new(
            expr.span(),
            format!(
                "{word} takes an integer expression of the choices: arithmetic (`{word} 3 * x + y * z;`, `/`, `%`, `abs(x)`, `min(a, b)`, `pow(x, 2)`), lookups (`{word} sum(dist[x[i]][x[i + 1]] for i in 0..n - 1);`) and counts (`{word} count(x[i] == 0 for i in 0..n);`)"
            ),
        )),
    }
}

fn constant(expr: &syn::Expr, dims: &Choices, word: &str) -> syn::Error {
    syn::Error::new_spanned(
        expr,
        format!(
            "{word} needs an expression of the choices ({}): this one is a constant",
            choice_list(dims)
        ),
    )
}
