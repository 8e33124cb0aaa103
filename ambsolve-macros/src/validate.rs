//! Checks a parsed body and classifies its constraints, collecting every error with the
//! user's span.

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote_spanned};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Ident, Pat};

use crate::analyze::{self, Choices, Linear, Slot};
use crate::ast::{Body, Choice, Comprehension, Item, Let, Require};

/// A checked body: the choices in order, and what to do to build the model.
pub(crate) struct Plan<'a> {
    pub(crate) choices: Vec<&'a Choice>,
    pub(crate) steps: Vec<Step<'a>>,
    pub(crate) dims: Choices,
}

/// One thing to do while building the model.
pub(crate) enum Step<'a> {
    /// A choice, declared where it stands (its values may use earlier `let`s).
    Choice(&'a Choice),
    Constraint(Constraint<'a>),
    For {
        item: &'a crate::ast::For,
        body: Vec<Step<'a>>,
    },
    If {
        item: &'a crate::ast::If,
        then: Vec<Step<'a>>,
        otherwise: Vec<Step<'a>>,
    },
    Let(&'a Let),
}

/// A term of an all-different: a slot (or a whole array) plus an optional offset.
pub(crate) struct Term {
    pub(crate) slot: Slot,
    pub(crate) offset: Option<TokenStream>,
}

/// A classified constraint.
pub(crate) enum Constraint<'a> {
    /// `all_different(a, b + 1, q)` or `all_different(q[i] + i for i in 0..n)`.
    AllDifferent {
        span: Span,
        terms: Vec<Term>,
        comprehension: Option<&'a Comprehension>,
    },
    /// `lhs CMP rhs`, linear: `Σ terms + constant CMP 0`.
    Linear {
        span: Span,
        form: Linear,
        cmp: Ident,
        sums: Vec<&'a Comprehension>,
    },
    /// A condition on one chosen value: narrows its domain.
    Restrict { slot: Slot, condition: Expr },
    /// A condition on several chosen values.
    Predicate {
        slots: Vec<Slot>,
        condition: Expr,
        outer: Vec<Ident>,
    },
}

/// Collects errors; returns the first combined with the others.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    fn finish<T>(self, value: T) -> syn::Result<T> {
        match self.0 {
            Some(error) => Err(error),
            None => Ok(value),
        }
    }
}

pub(crate) fn validate(body: &Body) -> syn::Result<Plan<'_>> {
    let mut errors = Errors::default();
    let mut dims = Choices::new();
    let mut choices = Vec::new();
    for item in &body.items {
        if let Item::Choice(choice) = item {
            let name = choice.name.to_string();
            if dims.contains_key(&name) {
                errors.push(syn::Error::new(
                    choice.name.span(),
                    format!("`{name}` is chosen twice: give this choice another name"),
                ));
                continue;
            }
            check_choice(choice, &dims, &mut errors);
            dims.insert(name, choice.dims.len());
            choices.push(choice);
        }
    }
    if choices.is_empty() {
        errors.push(syn::Error::new(
            Span::call_site(),
            "constraints! needs at least one choice: `let x = amb(values);`",
        ));
    }
    let steps = steps(&body.items, &dims, true, &mut errors);
    errors.finish(Plan {
        choices,
        steps,
        dims,
    })
}

fn check_choice(choice: &Choice, earlier: &Choices, errors: &mut Errors) {
    if choice.dims.len() > 2 {
        errors.push(syn::Error::new(
            choice.name.span(),
            format!("`{}` has {} dimensions; arrays of choices have one or two: `q[n]`, `g[rows][cols]`", choice.name, choice.dims.len()),
        ));
    }
    for dim in &choice.dims {
        if let Some(found) = analyze::first_choice_in(&dim.len, earlier) {
            errors.push(syn::Error::new(
                found.span(),
                format!("the length of `{}` cannot depend on the choice `{found}`: lengths are known before the search", choice.name),
            ));
        }
        if let Some(binder) = &dim.binder {
            if earlier.contains_key(&binder.to_string()) || *binder == choice.name {
                errors.push(syn::Error::new(
                    binder.span(),
                    format!("`{binder}` is a choice: name this index differently"),
                ));
            }
        }
    }
    if let Some(found) = analyze::first_choice_in(&choice.values, earlier) {
        errors.push(syn::Error::new(
            found.span(),
            format!(
                "the values of `{}` cannot depend on the choice `{found}`: choose from all possible values and add a `require`",
                choice.name
            ),
        ));
    }
    if is_empty_literal(&choice.values) {
        errors.push(syn::Error::new_spanned(
            &choice.values,
            format!(
                "amb of an empty list leaves `{}` nothing to choose: give it at least one value",
                choice.name
            ),
        ));
    }
}

/// `[]`, `&[]`, `vec![]`, `""`-free empty forms and literal empty ranges like `0..0`.
fn is_empty_literal(expr: &Expr) -> bool {
    match expr {
        Expr::Array(array) => array.elems.is_empty(),
        Expr::Reference(reference) => is_empty_literal(&reference.expr),
        Expr::Paren(paren) => is_empty_literal(&paren.expr),
        Expr::Macro(mac) => mac.mac.path.is_ident("vec") && mac.mac.tokens.is_empty(),
        Expr::Range(range) => {
            let literal = |e: &Option<Box<Expr>>| match e.as_deref() {
                Some(Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(int),
                    ..
                })) => int.base10_parse::<i128>().ok(),
                _ => None,
            };
            match (literal(&range.start), literal(&range.end)) {
                (Some(start), Some(end)) => match range.limits {
                    syn::RangeLimits::HalfOpen(_) => start >= end,
                    syn::RangeLimits::Closed(_) => start > end,
                },
                _ => false,
            }
        }
        _ => false,
    }
}

fn steps<'a>(items: &'a [Item], dims: &Choices, top: bool, errors: &mut Errors) -> Vec<Step<'a>> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Item::Choice(choice) => {
                if top {
                    out.push(Step::Choice(choice));
                } else {
                    errors.push(syn::Error::new(
                        choice.name.span(),
                        format!(
                            "choices are declared at the top of constraints!, not inside `for` or `if`: for one per index write `let {}[i < n] = amb(..);`",
                            choice.name
                        ),
                    ));
                }
            }
            Item::Require(require) => {
                for constraint in classify(require, dims, errors) {
                    out.push(Step::Constraint(constraint));
                }
            }
            Item::For(item) => {
                check_binding(&item.pat, dims, errors);
                no_choice(&item.iter, dims, "a `for` range", errors);
                let body = steps(&item.body, dims, false, errors);
                out.push(Step::For { item, body });
            }
            Item::If(item) => {
                no_choice(&item.cond, dims, "an `if` condition", errors);
                let then = steps(&item.then, dims, false, errors);
                let otherwise = steps(&item.otherwise, dims, false, errors);
                out.push(Step::If {
                    item,
                    then,
                    otherwise,
                });
            }
            Item::Let(item) => {
                check_binding(&item.pat, dims, errors);
                no_choice(&item.expr, dims, "a plain `let`", errors);
                out.push(Step::Let(item));
            }
        }
    }
    out
}

fn check_binding(pat: &Pat, dims: &Choices, errors: &mut Errors) {
    struct Names<'e> {
        dims: &'e Choices,
        found: Vec<Ident>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Names<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            if self.dims.contains_key(&p.ident.to_string()) {
                self.found.push(p.ident.clone());
            }
        }
    }
    let mut names = Names {
        dims,
        found: Vec::new(),
    };
    syn::visit::Visit::visit_pat(&mut names, pat);
    for ident in names.found {
        errors.push(syn::Error::new(
            ident.span(),
            format!("`{ident}` is a choice: give this binding another name"),
        ));
    }
}

fn no_choice(expr: &Expr, dims: &Choices, what: &str, errors: &mut Errors) {
    if let Some(found) = analyze::first_choice_in(expr, dims) {
        errors.push(syn::Error::new(
            found.span(),
            format!("{what} is evaluated while building the model, before any choice: `{found}` can only appear in a `require`"),
        ));
    }
}

/// Splits a condition on top-level `&&`.
fn conjuncts(expr: &Expr, out: &mut Vec<Expr>) {
    match expr {
        Expr::Binary(b) if matches!(b.op, BinOp::And(_)) => {
            conjuncts(&b.left, out);
            conjuncts(&b.right, out);
        }
        Expr::Paren(p) if matches!(&*p.expr, Expr::Binary(b) if matches!(b.op, BinOp::And(_))) => {
            conjuncts(&p.expr, out)
        }
        other => out.push(other.clone()),
    }
}

fn classify<'a>(require: &'a Require, dims: &Choices, errors: &mut Errors) -> Vec<Constraint<'a>> {
    let mut parts = Vec::new();
    conjuncts(&require.condition, &mut parts);
    let sums: BTreeSet<String> = require
        .comprehensions
        .iter()
        .map(|c| c.placeholder.to_string())
        .collect();
    let find = |ident: &Ident| {
        require
            .comprehensions
            .iter()
            .find(|c| c.placeholder == *ident)
    };
    let mut out = Vec::new();
    for part in parts {
        match classify_one(&part, require, dims, &sums, &find) {
            Ok(constraint) => out.push(constraint),
            Err(error) => errors.push(error),
        }
    }
    out
}

fn classify_one<'a>(
    part: &Expr,
    require: &'a Require,
    dims: &Choices,
    sums: &BTreeSet<String>,
    find: &dyn Fn(&Ident) -> Option<&'a Comprehension>,
) -> syn::Result<Constraint<'a>> {
    if let Expr::Call(call) = part {
        if let Expr::Path(func) = &*call.func {
            if func.path.is_ident("all_different") {
                return all_different(call, dims, find);
            }
        }
    }
    // A placeholder left here is misplaced: all_different(..) must stand alone, and
    // sum(..) works only in linear comparisons (handled below).
    if let Some(comprehension) = require
        .comprehensions
        .iter()
        .find(|c| analyze::mentions_any(part, &BTreeSet::from([c.placeholder.to_string()])))
    {
        if let Some(found) = call_named(part, "all_different") {
            return Err(syn::Error::new(
                found,
                "all_different(..) is a constraint of its own: write `require all_different(..);`",
            ));
        }
        if let Some(constraint) = linear(part, dims, sums, find)? {
            return Ok(constraint);
        }
        return Err(syn::Error::new(
            comprehension.placeholder.span(),
            "sum(.. for ..) works in linear comparisons such as `require sum(x[i] for i in 0..n) == 10;`",
        ));
    }
    let mentions = analyze::mentions(part, dims);
    if let Some(error) = mentions.errors.into_iter().reduce(|mut a, b| {
        a.combine(b);
        a
    }) {
        return Err(error);
    }
    if mentions.slots.is_empty() {
        return Err(no_choice_error(part, dims, &mentions.outer));
    }
    typos(&mentions.outer, dims)?;
    if let Some(constraint) = linear(part, dims, sums, find)? {
        if mentions.slots.len() > 1 {
            return Ok(constraint);
        }
    }
    if let [slot] = mentions.slots.as_slice() {
        let full = slot.indices.len() == dims[&slot.name.to_string()];
        if full {
            return Ok(Constraint::Restrict {
                slot: slot.clone(),
                condition: part.clone(),
            });
        }
    }
    Ok(Constraint::Predicate {
        slots: mentions.slots,
        condition: part.clone(),
        outer: mentions.outer,
    })
}

/// The span of a call to `name` inside `expr`.
fn call_named(expr: &Expr, name: &str) -> Option<Span> {
    struct Finder<'n> {
        name: &'n str,
        found: Option<Span>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if let Expr::Path(p) = &*call.func {
                if p.path.is_ident(self.name) {
                    self.found = Some(p.span());
                }
            }
            syn::visit::visit_expr_call(self, call);
        }
    }
    let mut finder = Finder { name, found: None };
    syn::visit::Visit::visit_expr(&mut finder, expr);
    finder.found
}

fn no_choice_error(part: &Expr, dims: &Choices, outer: &[Ident]) -> syn::Error {
    if let Err(typo) = typos(outer, dims) {
        return typo;
    }
    syn::Error::new_spanned(
        part,
        format!(
            "this constraint mentions no choice, so it is true or false before any search: require a condition on the chosen names ({})",
            choice_list(dims)
        ),
    )
}

fn choice_list(dims: &Choices) -> String {
    dims.keys()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A name of two letters or more one edit away from a choice is most likely a misspelt
/// choice.
fn typos(outer: &[Ident], dims: &Choices) -> syn::Result<()> {
    for ident in outer {
        let name = ident.to_string();
        if name.len() < 2 {
            continue;
        }
        if let Some(close) = dims
            .keys()
            .find(|c| c.len() >= 2 && analyze::distance(&name, c) == 1)
        {
            return Err(syn::Error::new(
                ident.span(),
                format!(
                    "unknown name `{ident}`: this block chooses {} — did you mean `{close}`? (a value from outside must not be named this much like a choice)",
                    choice_list(dims)
                ),
            ));
        }
    }
    Ok(())
}

const COMPARISONS: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];

/// `lhs CMP rhs` with both sides linear and some arithmetic: a linear constraint.
fn linear<'a>(
    part: &Expr,
    dims: &Choices,
    sums: &BTreeSet<String>,
    find: &dyn Fn(&Ident) -> Option<&'a Comprehension>,
) -> syn::Result<Option<Constraint<'a>>> {
    let Expr::Binary(b) = part else {
        return Ok(None);
    };
    let op = b.op.to_token_stream().to_string();
    if !COMPARISONS.contains(&op.as_str()) {
        return Ok(None);
    }
    let (Some(left), Some(right)) = (
        analyze::linearize(&b.left, dims, sums),
        analyze::linearize(&b.right, dims, sums),
    ) else {
        return Ok(None);
    };
    if !(left.arithmetic || right.arithmetic) {
        return Ok(None);
    }
    let cmp = Ident::new(
        match op.as_str() {
            "==" => "Eq",
            "!=" => "Ne",
            "<" => "Lt",
            "<=" => "Le",
            ">" => "Gt",
            _ => "Ge",
        },
        b.op.span(),
    );
    let mut form = left;
    let negated = right.negate();
    form.terms.extend(negated.terms);
    form.sums.extend(negated.sums);
    form.constant.extend(negated.constant);
    let mut comprehensions = Vec::new();
    for (_, placeholder) in &form.sums {
        let comprehension = find(placeholder).expect("placeholders come from this require");
        check_sum_element(comprehension, dims)?;
        comprehensions.push(comprehension);
    }
    Ok(Some(Constraint::Linear {
        span: part.span(),
        form,
        cmp,
        sums: comprehensions,
    }))
}

/// The element of a `sum(..)` must itself be linear in the choices.
fn check_sum_element(comprehension: &Comprehension, dims: &Choices) -> syn::Result<()> {
    for (_, range) in &comprehension.loops {
        if let Some(found) = analyze::first_choice_in(range, dims) {
            return Err(syn::Error::new(
                found.span(),
                "a comprehension range is evaluated while building the model: it cannot use a choice",
            ));
        }
    }
    match analyze::linearize(&comprehension.element, dims, &BTreeSet::new()) {
        Some(_) => Ok(()),
        None => Err(syn::Error::new_spanned(
            &comprehension.element,
            "the element of sum(..) must be linear in the choices, like `x[i]` or `w[i] * x[i]`",
        )),
    }
}

fn all_different<'a>(
    call: &syn::ExprCall,
    dims: &Choices,
    find: &dyn Fn(&Ident) -> Option<&'a Comprehension>,
) -> syn::Result<Constraint<'a>> {
    let span = call.span();
    if call.args.is_empty() {
        return Err(syn::Error::new(
            span,
            "all_different needs the choices it ranges over: `all_different(q)` or `all_different(a, b, c)`",
        ));
    }
    if let [Expr::Path(arg)] = call.args.iter().collect::<Vec<_>>().as_slice() {
        if let Some(comprehension) = arg.path.get_ident().and_then(find) {
            for (pat, range) in &comprehension.loops {
                check_pat(pat, dims)?;
                if let Some(found) = analyze::first_choice_in(range, dims) {
                    return Err(syn::Error::new(
                        found.span(),
                        "a comprehension range is evaluated while building the model: it cannot use a choice",
                    ));
                }
            }
            let term = term(&comprehension.element, dims)?;
            return Ok(Constraint::AllDifferent {
                span,
                terms: vec![term],
                comprehension: Some(comprehension),
            });
        }
    }
    let terms = call
        .args
        .iter()
        .map(|arg| term(arg, dims))
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(Constraint::AllDifferent {
        span,
        terms,
        comprehension: None,
    })
}

fn check_pat(pat: &Pat, dims: &Choices) -> syn::Result<()> {
    let mut errors = Errors::default();
    check_binding(pat, dims, &mut errors);
    errors.finish(())
}

/// `X`, `X + offset`, `X - offset` or `offset + X`, X a chosen value or array.
fn term(expr: &Expr, dims: &Choices) -> syn::Result<Term> {
    let bare = |e: &Expr| -> syn::Result<Option<Slot>> {
        let Some(slot) = analyze::slot_of(e, dims) else {
            return Ok(None);
        };
        let mentions = analyze::mentions(e, dims);
        if let Some(error) = mentions.errors.into_iter().next() {
            return Err(error);
        }
        Ok(Some(slot))
    };
    let offset_of = |e: &Expr, negative: bool| -> syn::Result<TokenStream> {
        if let Some(found) = analyze::first_choice_in(e, dims) {
            return Err(syn::Error::new(
                found.span(),
                "an all_different offset must not be a choice: write `x + 3` or `q[i] + i`",
            ));
        }
        let span = e.span();
        Ok(if negative {
            quote_spanned!(span=> -::ambsolve::__private::int(#e))
        } else {
            quote_spanned!(span=> ::ambsolve::__private::int(#e))
        })
    };
    if let Some(slot) = bare(expr)? {
        return Ok(Term { slot, offset: None });
    }
    if let Expr::Binary(b) = expr {
        let negative = match b.op {
            BinOp::Add(_) => false,
            BinOp::Sub(_) => true,
            _ => return Err(not_a_term(expr, dims)),
        };
        if let Some(slot) = bare(&b.left)? {
            return Ok(Term {
                slot,
                offset: Some(offset_of(&b.right, negative)?),
            });
        }
        if !negative {
            if let Some(slot) = bare(&b.right)? {
                return Ok(Term {
                    slot,
                    offset: Some(offset_of(&b.left, false)?),
                });
            }
        }
    }
    if let Expr::Paren(p) = expr {
        return term(&p.expr, dims);
    }
    Err(not_a_term(expr, dims))
}

fn not_a_term(expr: &Expr, dims: &Choices) -> syn::Error {
    let names: Vec<&str> = dims.keys().map(String::as_str).collect();
    if let Expr::Path(p) = expr {
        if let Some(ident) = p.path.get_ident() {
            let close = dims
                .keys()
                .find(|c| analyze::distance(&ident.to_string(), c) <= 2);
            let hint = close
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            return syn::Error::new(
                ident.span(),
                format!(
                    "unknown name `{ident}` in all_different: it takes chosen names ({}){hint}",
                    names.join(", ")
                ),
            );
        }
    }
    syn::Error::new_spanned(
        expr,
        "all_different takes chosen values, optionally plus or minus an offset: `a`, `q[i] + i`, `q` (a whole array)",
    )
}
