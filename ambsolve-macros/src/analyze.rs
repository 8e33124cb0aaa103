//! What a condition says about the choices: which ones it mentions, whether it is linear,
//! and how to rewrite it over chosen values.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Expr, ExprPath, Ident, Pat, UnOp};

/// The choices of a body: name → number of dimensions (0 for a scalar).
pub(crate) type Choices = BTreeMap<String, usize>;

/// A place in a condition where a chosen value is read.
#[derive(Clone)]
pub(crate) struct Slot {
    pub(crate) name: Ident,
    /// Index expressions (evaluated while building the model), one per dimension used.
    pub(crate) indices: Vec<Expr>,
    /// The whole expression, for spans.
    pub(crate) span: Span,
}

impl Slot {
    /// A key identifying the same slot written twice.
    pub(crate) fn key(&self) -> String {
        let mut key = self.name.to_string();
        for index in &self.indices {
            key.push('[');
            key.push_str(&index.to_token_stream().to_string());
            key.push(']');
        }
        key
    }

    /// The expression of the variable handle (or array of handles) this slot reads.
    pub(crate) fn handle(&self) -> TokenStream {
        let name = &self.name;
        let indices = self.indices.iter().map(|i| quote_spanned!(i.span()=> [#i]));
        quote_spanned!(self.span=> #name #(#indices)*)
    }
}

/// If `expr` reads a chosen value (or an array of them), the slot it reads. A choice takes
/// at most as many indices as it has dimensions: `s[..1]` on a chosen string indexes the
/// value, so the slot is the inner `s`.
pub(crate) fn slot_of(expr: &Expr, choices: &Choices) -> Option<Slot> {
    let mut indices = Vec::new();
    let mut base = expr;
    loop {
        match base {
            Expr::Index(index) => {
                indices.push((*index.index).clone());
                base = &index.expr;
            }
            Expr::Paren(paren) if indices.is_empty() => base = &paren.expr,
            Expr::Path(path) => {
                let ident = path.path.get_ident()?;
                let dims = *choices.get(&ident.to_string())?;
                if indices.len() > dims {
                    return None;
                }
                indices.reverse();
                return Some(Slot {
                    name: ident.clone(),
                    indices,
                    span: expr.span(),
                });
            }
            _ => return None,
        }
    }
}

/// Everything a condition mentions: its slots (in order of appearance, the same slot
/// once), the names it binds itself, and the plain names it reads from outside.
#[derive(Default)]
pub(crate) struct Mentions {
    pub(crate) slots: Vec<Slot>,
    pub(crate) errors: Vec<syn::Error>,
    /// Names bound inside the condition (closure parameters, `let`s, match arms).
    pub(crate) bound: BTreeSet<String>,
    /// Single-segment lowercase paths that are not choices: values from outside.
    pub(crate) outer: Vec<Ident>,
}

struct Collector<'c> {
    choices: &'c Choices,
    mentions: Mentions,
}

impl Collector<'_> {
    fn add(&mut self, slot: Slot) {
        for index in &slot.indices {
            if let Some(inner) = first_choice_in(index, self.choices) {
                self.mentions.errors.push(syn::Error::new(
                    inner.span(),
                    format!(
                        "an index of `{}` cannot be a chosen value (`{inner}`): indices are known while building; choose the element itself instead",
                        slot.name
                    ),
                ));
                return;
            }
        }
        if !self.mentions.slots.iter().any(|s| s.key() == slot.key()) {
            self.mentions.slots.push(slot);
        }
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        if let Some(slot) = slot_of(expr, self.choices) {
            // Visit the indices for their own outer names, then record the slot.
            for index in &slot.indices {
                self.visit_expr(index);
            }
            self.add(slot);
            return;
        }
        if let Expr::Path(path) = expr {
            if let Some(ident) = path.path.get_ident() {
                if is_value_name(ident) && !self.mentions.outer.iter().any(|o| o == ident) {
                    self.mentions.outer.push(ident.clone());
                }
            }
        }
        // A called function (`linked(a, b)`) is a fn item or a closure: captured by value,
        // so generic functions work and the puzzle does not borrow it.
        if let Expr::Call(call) = expr {
            for arg in &call.args {
                self.visit_expr(arg);
            }
            if !matches!(&*call.func, Expr::Path(p) if p.path.get_ident().is_some()) {
                self.visit_expr(&call.func);
            }
            return;
        }
        syn::visit::visit_expr(self, expr);
    }

    fn visit_pat(&mut self, pat: &'ast Pat) {
        if let Pat::Ident(p) = pat {
            if self.choices.contains_key(&p.ident.to_string()) {
                self.mentions.errors.push(syn::Error::new(
                    p.ident.span(),
                    format!("`{}` is a choice: give this binding another name", p.ident),
                ));
            }
            self.mentions.bound.insert(p.ident.to_string());
        }
        syn::visit::visit_pat(self, pat);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // Look into macro arguments that parse as expressions (format!, vec!, assert!).
        let parser = syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = syn::parse::Parser::parse2(parser, mac.tokens.clone()) {
            for arg in &args {
                self.visit_expr(arg);
            }
        }
    }
}

/// A name that may be a local value (lowercase first letter), not a type, constant or
/// variant.
fn is_value_name(ident: &Ident) -> bool {
    let name = ident.to_string();
    name.starts_with(|c: char| c.is_lowercase() || c == '_') && name != "self"
}

/// The slots and names `expr` mentions.
pub(crate) fn mentions(expr: &Expr, choices: &Choices) -> Mentions {
    let mut collector = Collector {
        choices,
        mentions: Mentions::default(),
    };
    collector.visit_expr(expr);
    let mut mentions = collector.mentions;
    let bound = mentions.bound.clone();
    mentions.outer.retain(|o| !bound.contains(&o.to_string()));
    mentions
}

/// The first choice name `expr` mentions, if any.
pub(crate) fn first_choice_in(expr: &Expr, choices: &Choices) -> Option<Ident> {
    struct Finder<'c> {
        choices: &'c Choices,
        found: Option<Ident>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_expr_path(&mut self, path: &'ast ExprPath) {
            if let Some(ident) = path.path.get_ident() {
                if self.found.is_none() && self.choices.contains_key(&ident.to_string()) {
                    self.found = Some(ident.clone());
                }
            }
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            for token in mac.tokens.clone() {
                if let proc_macro2::TokenTree::Ident(ident) = token {
                    if self.found.is_none() && self.choices.contains_key(&ident.to_string()) {
                        self.found = Some(ident);
                    }
                }
            }
        }
    }
    let mut finder = Finder {
        choices,
        found: None,
    };
    finder.visit_expr(expr);
    finder.found
}

/// Rewrites a condition over chosen values: each element slot becomes the identifier
/// given for it, and each outer name `x` becomes `(*ref_x)`.
pub(crate) struct Rewriter<'c> {
    pub(crate) choices: &'c Choices,
    /// Slot key → identifier of its value.
    pub(crate) elements: BTreeMap<String, Ident>,
    /// Outer name → identifier of a reference to it.
    pub(crate) outer: BTreeMap<String, Ident>,
}

impl VisitMut for Rewriter<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if let Some(slot) = slot_of(expr, self.choices) {
            if let Some(ident) = self.elements.get(&slot.key()) {
                let span = expr.span();
                let mut ident = ident.clone();
                // Keep the binding's name resolution; take the user's location for errors.
                ident.set_span(ident.span().located_at(span));
                *expr = syn::parse_quote!(#ident);
                return;
            }
        }
        if let Expr::Path(path) = expr {
            if let Some(ident) = path.path.get_ident() {
                if let Some(reference) = self.outer.get(&ident.to_string()) {
                    let span = ident.span();
                    *expr = syn::parse_quote_spanned!(span=> (*#reference));
                    return;
                }
            }
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}

/// A coefficient: 1, -1, or an `i64` expression evaluated while building the model.
#[derive(Clone)]
pub(crate) enum Coef {
    One,
    MinusOne,
    Times(TokenStream),
}

/// `a × b`, without writing out factors of ±1.
pub(crate) fn times(a: &Coef, b: &Coef) -> Coef {
    match (a, b) {
        (Coef::One, other) | (other, Coef::One) => other.clone(),
        (Coef::MinusOne, Coef::MinusOne) => Coef::One,
        (Coef::MinusOne, Coef::Times(t)) | (Coef::Times(t), Coef::MinusOne) => {
            Coef::Times(quote!(-(#t)))
        }
        (Coef::Times(a), Coef::Times(b)) => Coef::Times(quote!((#a) * (#b))),
    }
}

/// `-a`.
pub(crate) fn negated(a: &Coef) -> Coef {
    times(a, &Coef::MinusOne)
}

/// A coefficient as an expression.
pub(crate) fn coef_tokens(a: &Coef) -> TokenStream {
    match a {
        Coef::One => quote!(1i64),
        Coef::MinusOne => quote!(-1i64),
        Coef::Times(t) => t.clone(),
    }
}

/// A linear form: `Σ coef × slot + Σ coef × sum(comprehension) + Σ constant`.
#[derive(Default)]
pub(crate) struct Linear {
    pub(crate) terms: Vec<(Coef, Slot)>,
    pub(crate) sums: Vec<(Coef, Ident)>,
    pub(crate) constant: Vec<Coef>,
    /// Whether it multiplies or adds (a bare choice is not "arithmetic").
    pub(crate) arithmetic: bool,
}

impl Linear {
    fn scaled(mut self, factor: &Coef) -> Linear {
        for (coef, _) in &mut self.terms {
            *coef = times(coef, factor);
        }
        for (coef, _) in &mut self.sums {
            *coef = times(coef, factor);
        }
        for c in &mut self.constant {
            *c = times(c, factor);
        }
        self.arithmetic = true;
        self
    }

    /// `-self`.
    pub(crate) fn negate(mut self) -> Linear {
        for (coef, _) in &mut self.terms {
            *coef = negated(coef);
        }
        for (coef, _) in &mut self.sums {
            *coef = negated(coef);
        }
        for c in &mut self.constant {
            *c = negated(c);
        }
        self
    }

    fn plus(mut self, other: Linear) -> Linear {
        self.terms.extend(other.terms);
        self.sums.extend(other.sums);
        self.constant.extend(other.constant);
        self.arithmetic = true;
        self
    }
}

/// `expr` as a linear form over choices, if it is one. `sums` names the placeholders of
/// `sum(..)` comprehensions.
pub(crate) fn linearize(expr: &Expr, choices: &Choices, sums: &BTreeSet<String>) -> Option<Linear> {
    if first_choice_in(expr, choices).is_none() && !mentions_any(expr, sums) {
        let span = expr.span();
        return Some(Linear {
            constant: vec![Coef::Times(
                quote_spanned!(span=> ::ambsolve::__private::int(#expr)),
            )],
            ..Linear::default()
        });
    }
    if let Some(slot) = slot_of(expr, choices) {
        let dims = choices[&slot.name.to_string()];
        if slot.indices.len() != dims {
            return None;
        }
        return Some(Linear {
            terms: vec![(Coef::One, slot)],
            ..Linear::default()
        });
    }
    match expr {
        Expr::Paren(p) => linearize(&p.expr, choices, sums),
        Expr::Group(g) => linearize(&g.expr, choices, sums),
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
            linearize(&u.expr, choices, sums).map(|l| {
                let mut l = l.negate();
                l.arithmetic = true;
                l
            })
        }
        Expr::Binary(b) => match b.op {
            BinOp::Add(_) => {
                Some(linearize(&b.left, choices, sums)?.plus(linearize(&b.right, choices, sums)?))
            }
            BinOp::Sub(_) => {
                let right = linearize(&b.right, choices, sums)?.negate();
                Some(linearize(&b.left, choices, sums)?.plus(right))
            }
            BinOp::Mul(_) => {
                let (left, right) = (
                    constant_of(&b.left, choices, sums),
                    constant_of(&b.right, choices, sums),
                );
                match (left, right) {
                    (Some(factor), None) => {
                        Some(linearize(&b.right, choices, sums)?.scaled(&Coef::Times(factor)))
                    }
                    (None, Some(factor)) => {
                        Some(linearize(&b.left, choices, sums)?.scaled(&Coef::Times(factor)))
                    }
                    _ => None,
                }
            }
            _ => None,
        },
        Expr::Call(call) => {
            // `sum(placeholder)`
            let Expr::Path(func) = &*call.func else {
                return None;
            };
            if !func.path.is_ident("sum") || call.args.len() != 1 {
                return None;
            }
            let Expr::Path(arg) = &call.args[0] else {
                return None;
            };
            let ident = arg.path.get_ident()?;
            sums.contains(&ident.to_string()).then(|| Linear {
                sums: vec![(Coef::One, ident.clone())],
                arithmetic: true,
                ..Linear::default()
            })
        }
        _ => None,
    }
}

/// An expression without choices, as an `i64` coefficient.
fn constant_of(expr: &Expr, choices: &Choices, sums: &BTreeSet<String>) -> Option<TokenStream> {
    if first_choice_in(expr, choices).is_some() || mentions_any(expr, sums) {
        return None;
    }
    let span = expr.span();
    Some(quote_spanned!(span=> ::ambsolve::__private::int(#expr)))
}

/// Whether `expr` mentions one of `names`.
pub(crate) fn mentions_any(expr: &Expr, names: &BTreeSet<String>) -> bool {
    struct Finder<'n> {
        names: &'n BTreeSet<String>,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_ident(&mut self, ident: &'ast Ident) {
            self.found |= self.names.contains(&ident.to_string());
        }
    }
    let mut finder = Finder {
        names,
        found: false,
    };
    finder.visit_expr(expr);
    finder.found
}

/// The Levenshtein distance between two short names.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = if ca == cb {
                previous
            } else {
                1 + previous.min(row[j]).min(row[j + 1])
            };
            previous = current;
        }
    }
    row[b.len()]
}
