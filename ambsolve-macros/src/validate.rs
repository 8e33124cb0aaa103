//! Checks a parsed body and classifies its constraints into a plan, with every error.

use std::collections::BTreeSet;

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{BinOp, Expr, Ident, Pat};

use quote::ToTokens;

use crate::analyze::{self, Choices};
use crate::ast::{Body, Choice, Item, Require, Sense};
use crate::checks::{
    Errors, check_binding, check_comprehensions, check_pat, choice_list, float_literal, sums,
};
use crate::formula::{Comparison, Reader};
use crate::globals;
use crate::linear;
use crate::objective;
use crate::plan::{Constraint, Goal, Operand, Plan, Step};
use crate::signatures;

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
    let steps = steps(&body.items, &dims, &BTreeSet::new(), true, &mut errors);
    let mut objectives = body.items.iter().filter_map(|item| match item {
        Item::Objective(objective) => Some(objective),
        _ => None,
    });
    if let Some(first) = objectives.next() {
        for other in objectives {
            let mut error = syn::Error::new(
                other.keyword,
                "a second objective: constraints! takes one `minimize` or `maximize`; list several in order to optimise them lexicographically (`minimize (lateness, makespan);`), or weigh them in one sum (`minimize 3 * x + y;`)",
            );
            error.combine(syn::Error::new(
                first.keyword,
                "the first objective is here",
            ));
            errors.push(error);
        }
    }
    errors.finish(Plan { choices, steps })
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

/// The steps of `items`. `locals` are the names the macro's own `for`s and `let`s bind
/// around them.
fn steps<'a>(
    items: &'a [Item],
    dims: &Choices,
    locals: &BTreeSet<String>,
    top: bool,
    errors: &mut Errors,
) -> Vec<Step<'a>> {
    let mut out = Vec::new();
    let mut locals = locals.clone();
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
                for constraint in classify(require, dims, &locals, errors) {
                    out.push(Step::Constraint(constraint));
                }
            }
            Item::Post(post) => {
                let mentions = analyze::mentions(&post.expr, dims);
                let mut failed = false;
                for error in mentions.errors {
                    errors.push(error);
                    failed = true;
                }
                if !failed && mentions.slots.is_empty() {
                    errors.push(syn::Error::new(
                        post.keyword,
                        format!(
                            "post needs a propagator over choices: write `post among(&x, 3, 2);` with chosen names ({})",
                            choice_list(dims)
                        ),
                    ));
                } else if !failed {
                    out.push(Step::Constraint(Constraint::Post {
                        expr: &post.expr,
                        slots: mentions.slots,
                    }));
                }
            }
            Item::Objective(objective) => {
                let word = match objective.sense {
                    Sense::Minimize => "minimize",
                    Sense::Maximize => "maximize",
                };
                if !top {
                    errors.push(syn::Error::new(
                        objective.keyword,
                        format!("{word} cannot stand inside `for` or `if`: state the objective once, at the top of constraints!, and gather its terms with a sum, as in `{word} sum(x[i] for i in 0..n);`"),
                    ));
                    continue;
                }
                match objective::classify(objective, dims, word) {
                    Ok(constraints) => out.extend(constraints.into_iter().map(Step::Constraint)),
                    Err(error) => errors.push(error),
                }
            }
            Item::For(item) => {
                check_binding(&item.pat, dims, errors);
                no_choice(&item.iter, dims, "a `for` range", errors);
                let mut inner = locals.clone();
                bind(&item.pat, &mut inner);
                let body = steps(&item.body, dims, &inner, false, errors);
                out.push(Step::For { item, body });
            }
            Item::If(item) => {
                no_choice(&item.cond, dims, "an `if` condition", errors);
                let then = steps(&item.then, dims, &locals, false, errors);
                let otherwise = steps(&item.otherwise, dims, &locals, false, errors);
                out.push(Step::If {
                    item,
                    then,
                    otherwise,
                });
            }
            Item::Let(item) => {
                check_binding(&item.pat, dims, errors);
                no_choice(&item.expr, dims, "a plain `let`", errors);
                bind(&item.pat, &mut locals);
                out.push(Step::Let(item));
            }
        }
    }
    out
}

/// Adds the names `pat` binds to `locals`.
fn bind(pat: &Pat, locals: &mut BTreeSet<String>) {
    locals.extend(analyze::bound_names(pat).into_iter().map(Ident::to_string));
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
fn conjuncts<'a>(expr: &'a Expr, out: &mut Vec<&'a Expr>) {
    match expr {
        Expr::Binary(b) if matches!(b.op, BinOp::And(_)) => {
            conjuncts(&b.left, out);
            conjuncts(&b.right, out);
        }
        Expr::Paren(p) if matches!(&*p.expr, Expr::Binary(b) if matches!(b.op, BinOp::And(_))) => {
            conjuncts(&p.expr, out)
        }
        other => out.push(other),
    }
}

fn classify<'a>(
    require: &'a Require,
    dims: &Choices,
    locals: &BTreeSet<String>,
    errors: &mut Errors,
) -> Vec<Constraint<'a>> {
    let mut parts = Vec::new();
    conjuncts(&require.condition, &mut parts);
    let mut out = Vec::new();
    for part in parts {
        match classify_one(part, require, dims, locals) {
            Ok(constraint) => out.push(constraint),
            Err(error) => errors.push(error),
        }
    }
    out
}

fn classify_one<'a>(
    part: &'a Expr,
    require: &'a Require,
    dims: &Choices,
    locals: &BTreeSet<String>,
) -> syn::Result<Constraint<'a>> {
    if let Expr::Call(call) = part {
        if let Expr::Path(func) = &*call.func {
            if func.path.is_ident("all_different") {
                return all_different(call, require, dims);
            }
        }
    }
    if let Some(global) = globals::global(part, dims, &require.comprehensions) {
        return global;
    }
    if let Some(error) = globals::predicate_spelling(part, dims) {
        return Err(error);
    }
    for name in signatures::names() {
        if let Some(found) = call_named(part, name) {
            return Err(syn::Error::new(
                found,
                format!("{name}(..) is a constraint of its own: write `require {name}(..);`"),
            ));
        }
    }
    // A placeholder left here is misplaced: all_different(..) must stand alone, and the
    // integer functions of comprehensions work only in expressions (handled below).
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
        if let Some(constraint) = linear(part, require, dims)? {
            return Ok(constraint);
        }
        if let Some(constraint) = formula(part, require, dims, None)? {
            return Ok(constraint);
        }
        return Err(syn::Error::new(
            comprehension.placeholder.span(),
            "sum(..), count(..), min(..), max(..) and nvalue(..) of a comprehension work in integer expressions and comparisons such as `require sum(x[i] for i in 0..n) == 10;` or `require max(s[i] + d[i] for i in 0..n) <= 20;`",
        ));
    }
    let mentions = analyze::mentions(part, dims);
    if let Some(error) = mentions.errors.into_iter().reduce(|mut a, b| {
        a.combine(b);
        a
    }) {
        // A choice read at a chosen index (`q[k]`) is an element constraint when the
        // comparison is linear; anywhere else it is an error.
        if let Some(constraint) = linear(part, require, dims)? {
            return Ok(constraint);
        }
        if let Some(constraint) = formula(part, require, dims, None)? {
            return Ok(constraint);
        }
        return Err(error);
    }
    if mentions.slots.is_empty() {
        return Err(no_choice_error(part, dims, &mentions.outer));
    }
    typos(&mentions.outer, dims)?;
    if mentions.slots.len() > 1 {
        if let Some(constraint) = linear(part, require, dims)? {
            return Ok(constraint);
        }
    }
    if let [slot] = mentions.slots.as_slice() {
        if slot.depth == 0 {
            return Ok(Constraint::Restrict {
                slot: slot.clone(),
                condition: part,
            });
        }
    }
    // The macro's own loop variables and lets are copied into the predicate; values from
    // outside are borrowed.
    let borrowed = mentions
        .outer
        .into_iter()
        .filter(|name| !locals.contains(&name.to_string()))
        .collect();
    let predicate = Constraint::Predicate {
        slots: mentions.slots,
        condition: part,
        borrowed,
    };
    // Two choices compared are a linear constraint already (or a predicate over values
    // of other types).
    if plain_comparison(part, dims) {
        return Ok(predicate);
    }
    Ok(formula(part, require, dims, Some(predicate))?
        .unwrap_or_else(|| unreachable!("formula() falls back on the predicate it is given")))
}

/// `x CMP y`, both sides a single chosen value.
fn plain_comparison(part: &Expr, dims: &Choices) -> bool {
    let strip = |e: &Expr| -> Expr {
        match e {
            Expr::Paren(p) => (*p.expr).clone(),
            other => other.clone(),
        }
    };
    match strip(part) {
        Expr::Binary(b) if Comparison::of(&b.op).is_some() => [&b.left, &b.right]
            .iter()
            .all(|side| analyze::slot_of(&strip(side), dims).is_some_and(|s| s.depth == 0)),
        _ => false,
    }
}

/// `part` as a formula, if it reads as one: with `fallback` (a predicate of the same
/// meaning) unless no predicate can stand in for it; `fallback` itself if it does not
/// read as a formula.
fn formula<'a>(
    part: &'a Expr,
    require: &'a Require,
    dims: &Choices,
    fallback: Option<Constraint<'a>>,
) -> syn::Result<Option<Constraint<'a>>> {
    if float_literal(part).is_some() {
        return Ok(fallback);
    }
    let reader = Reader::new(dims, &require.comprehensions);
    let Some(formula) = reader.formula(part) else {
        return Ok(fallback);
    };
    check_comprehensions(&formula, dims)?;
    let fallback = if formula.exact_only() {
        None
    } else {
        // Without a predicate planned (a chosen index, a comprehension), none can be.
        fallback.map(Box::new)
    };
    Ok(Some(Constraint::Formula {
        span: part.span(),
        formula,
        fallback,
        text: part.to_token_stream().to_string(),
    }))
}

/// Whether `expr` holds a literal that is no integer (a string, a character, a
/// boolean): no linear constraint compares with it.
fn text_literal(expr: &Expr) -> bool {
    struct TextFinder(bool);
    impl<'ast> Visit<'ast> for TextFinder {
        fn visit_lit(&mut self, lit: &'ast syn::Lit) {
            self.0 |= !matches!(lit, syn::Lit::Int(_) | syn::Lit::Float(_));
        }
    }
    let mut finder = TextFinder(false);
    finder.visit_expr(expr);
    finder.0
}

/// The span of a call to `name` inside `expr`.
fn call_named(expr: &Expr, name: &str) -> Option<Span> {
    struct CallFinder<'n> {
        name: &'n str,
        found: Option<Span>,
    }
    impl<'ast> syn::visit::Visit<'ast> for CallFinder<'_> {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if let Expr::Path(p) = &*call.func {
                if p.path.is_ident(self.name) {
                    self.found = Some(p.span());
                }
            }
            syn::visit::visit_expr_call(self, call);
        }
    }
    let mut finder = CallFinder { name, found: None };
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

/// `lhs CMP rhs` with both sides linear and some arithmetic: a linear constraint.
fn linear<'a>(
    part: &'a Expr,
    require: &'a Require,
    dims: &Choices,
) -> syn::Result<Option<Constraint<'a>>> {
    let Expr::Binary(b) = part else {
        return Ok(None);
    };
    let Some(cmp) = Comparison::of(&b.op) else {
        return Ok(None);
    };
    let (Some(left), Some(right)) = (
        linear::linearize(&b.left, dims, &require.comprehensions),
        linear::linearize(&b.right, dims, &require.comprehensions),
    ) else {
        return Ok(None);
    };
    if !(left.arithmetic || right.arithmetic) || text_literal(part) {
        return Ok(None);
    }
    // Floats compare with their Rust meaning, in a predicate; a sum(..) has no predicate
    // form, so a float in one is an error on the float.
    if let Some(float) = float_literal(part) {
        if left.sums.is_empty() && right.sums.is_empty() {
            return Ok(None);
        }
        return Err(syn::Error::new(
            float,
            "sum(..) is an integer linear constraint and this is a float: to compare a \
             float sum, compute it in a function of the whole array, as in \
             `require total(&w) <= 2.5;`",
        ));
    }
    let form = left.minus(right);
    // A sum of non-linear elements (products, comparisons) is a formula.
    if form
        .sums
        .iter()
        .any(|(_, c)| linear::linearize(&c.element, dims, &[]).is_none())
    {
        return Ok(None);
    }
    let sums = sums(form.sums, dims)?;
    Ok(Some(Constraint::Linear {
        span: part.span(),
        goal: Goal::Compare(cmp, b.op.span()),
        terms: form.terms,
        lookups: form.lookups,
        constant: form.constant,
        sums,
    }))
}

fn all_different<'a>(
    call: &'a syn::ExprCall,
    require: &'a Require,
    dims: &Choices,
) -> syn::Result<Constraint<'a>> {
    let span = call.span();
    if call.args.is_empty() {
        return Err(syn::Error::new(
            span,
            "all_different needs the choices it ranges over: `all_different(q)` or `all_different(a, b, c)`",
        ));
    }
    let mut items = Vec::new();
    for arg in &call.args {
        let comprehension = match arg {
            Expr::Path(path) => path.path.get_ident().and_then(|ident| {
                require
                    .comprehensions
                    .iter()
                    .find(|c| c.placeholder == *ident)
            }),
            _ => None,
        };
        let Some(comprehension) = comprehension else {
            items.push((operand(arg, dims)?, &[][..]));
            continue;
        };
        for (pat, range) in &comprehension.loops {
            check_pat(pat, dims)?;
            if let Some(found) = analyze::first_choice_in(range, dims) {
                return Err(syn::Error::new(
                    found.span(),
                    "a comprehension range is evaluated while building the model: it cannot use a choice",
                ));
            }
        }
        items.push((
            operand(&comprehension.element, dims)?,
            &comprehension.loops[..],
        ));
    }
    Ok(Constraint::AllDifferent { span, items })
}

/// `X`, `X + offset`, `X - offset` or `offset + X`, X a chosen value or array.
fn operand<'a>(expr: &'a Expr, dims: &Choices) -> syn::Result<Operand<'a>> {
    if let Some(slot) = analyze::slot_of(expr, dims) {
        let mentions = analyze::mentions(expr, dims);
        if let Some(error) = mentions.errors.into_iter().next() {
            return Err(error);
        }
        return Ok(Operand::Shifted {
            slot,
            offset: Vec::new(),
        });
    }
    if let Expr::Paren(p) = expr {
        return operand(&p.expr, dims);
    }
    let Some(form) = linear::linearize(expr, dims, &[]) else {
        let mentions = analyze::mentions(expr, dims);
        if let Some(error) = mentions.errors.into_iter().next() {
            return Err(error);
        }
        return Err(not_an_operand(expr, dims));
    };
    if form.terms.is_empty() || !form.lookups.is_empty() {
        return Err(not_an_operand(expr, dims));
    }
    if let [(coef, slot)] = &form.terms[..] {
        if coef.is_one() {
            return Ok(Operand::Shifted {
                slot: slot.clone(),
                offset: form.constant,
            });
        }
    }
    Ok(Operand::Computed {
        span: expr.span(),
        terms: form.terms,
        constant: form.constant,
    })
}

fn not_an_operand(expr: &Expr, dims: &Choices) -> syn::Error {
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
        "all_different takes chosen values, with offsets or combined linearly: `a`, `q[i] + i`, `m[j] - m[i]`, `q` (a whole array)",
    )
}
