//! The checks that the constraints (`validate.rs`) and the objective (`objective.rs`)
//! share: errors collected, bindings that would hide a choice, comprehensions, float
//! literals, and the `sum(..)`s of a linear form, each element linear.

use proc_macro2::Span;
use syn::visit::Visit;
use syn::{Expr, Pat};

use crate::analyze::{self, Choices};
use crate::ast::Comprehension;
use crate::formula::{Formula, Kind};
use crate::linear::{self, Linear};
use crate::plan::Sum;

/// Collects errors; returns the first combined with the others.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn finish<T>(self, value: T) -> syn::Result<T> {
        match self.0 {
            Some(error) => Err(error),
            None => Ok(value),
        }
    }
}

/// Reports each name `pat` binds that is a choice.
pub(crate) fn check_binding(pat: &Pat, dims: &Choices, errors: &mut Errors) {
    for ident in analyze::bound_names(pat) {
        if dims.contains_key(&ident.to_string()) {
            errors.push(syn::Error::new(
                ident.span(),
                format!("`{ident}` is a choice: give this binding another name"),
            ));
        }
    }
}

/// The names `pat` binds are no choices.
pub(crate) fn check_pat(pat: &Pat, dims: &Choices) -> syn::Result<()> {
    let mut errors = Errors::default();
    check_binding(pat, dims, &mut errors);
    errors.finish(())
}

/// Checks the comprehensions of a formula: their ranges are known before any choice, and
/// their patterns do not rebind a choice.
pub(crate) fn check_comprehensions(formula: &Formula<'_>, dims: &Choices) -> syn::Result<()> {
    let mut result = Ok(());
    formula.visit(&mut |f| {
        if let Kind::Fold(_, comprehension, _) = &f.kind {
            for (pat, range) in &comprehension.loops {
                if let Err(error) = check_pat(pat, dims) {
                    result = Err(error);
                }
                if let Some(found) = analyze::first_choice_in(range, dims) {
                    result = Err(syn::Error::new(
                        found.span(),
                        "a comprehension range is evaluated while building the model: it cannot use a choice",
                    ));
                }
            }
        }
    });
    result
}

/// The span of the first float literal in `expr`.
pub(crate) fn float_literal(expr: &Expr) -> Option<Span> {
    struct FloatFinder(Option<Span>);
    impl<'ast> Visit<'ast> for FloatFinder {
        fn visit_lit_float(&mut self, lit: &'ast syn::LitFloat) {
            self.0.get_or_insert(lit.span());
        }
    }
    let mut finder = FloatFinder(None);
    finder.visit_expr(expr);
    finder.0
}

/// The choices' names, for messages: `a, b, q`.
pub(crate) fn choice_list(dims: &Choices) -> String {
    dims.keys()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `sum(..)`s of a linear form, each element linear in the choices.
pub(crate) fn sums<'a>(
    form: Vec<(linear::Coef<'a>, &'a Comprehension)>,
    dims: &Choices,
) -> syn::Result<Vec<Sum<'a>>> {
    let mut sums = Vec::new();
    for (coef, comprehension) in form {
        let element = sum_element(comprehension, dims)?;
        sums.push(Sum {
            loops: &comprehension.loops,
            terms: element
                .terms
                .into_iter()
                .map(|(c, slot)| (coef.times(&c), slot))
                .collect(),
            lookups: element
                .lookups
                .into_iter()
                .map(|(c, lookup)| (coef.times(&c), lookup))
                .collect(),
            constant: element.constant.iter().map(|c| coef.times(c)).collect(),
        });
    }
    Ok(sums)
}

/// The element of a `sum(..)`, which must itself be linear in the choices, as a linear
/// form.
fn sum_element<'a>(comprehension: &'a Comprehension, dims: &Choices) -> syn::Result<Linear<'a>> {
    for (_, range) in &comprehension.loops {
        if let Some(found) = analyze::first_choice_in(range, dims) {
            return Err(syn::Error::new(
                found.span(),
                "a comprehension range is evaluated while building the model: it cannot use a choice",
            ));
        }
    }
    linear::linearize(&comprehension.element, dims, &[]).ok_or_else(|| {
        syn::Error::new_spanned(
            &comprehension.element,
            "the element of sum(..) must be linear in the choices, like `x[i]` or `w[i] * x[i]`",
        )
    })
}
