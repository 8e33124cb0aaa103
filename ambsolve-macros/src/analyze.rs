//! Queries over the user's syntax: which choices an expression reads, and which names.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, ExprPath, Ident, Pat};

/// The choices of a body: name → number of dimensions (0 for a scalar).
pub(crate) type Choices = BTreeMap<String, usize>;

/// A place in a condition where a chosen value (or a row or array of them) is read.
#[derive(Clone)]
pub(crate) struct Slot {
    pub(crate) name: Ident,
    /// Index expressions (evaluated while building the model), one per dimension used.
    pub(crate) indices: Vec<Expr>,
    /// The dimensions left unindexed: 0 for one chosen value, 1 for a row or an array.
    pub(crate) depth: usize,
    /// The whole expression, for spans.
    pub(crate) span: Span,
}

impl Slot {
    /// A key identifying the same slot written twice.
    pub(crate) fn key(&self) -> String {
        key(&self.name, &self.indices)
    }
}

fn key<'e>(name: &Ident, indices: impl IntoIterator<Item = &'e Expr>) -> String {
    let mut key = name.to_string();
    for index in indices {
        key.push('[');
        key.push_str(&index.to_token_stream().to_string());
        key.push(']');
    }
    key
}

/// `NAME`, `NAME[i]`, `NAME[i][j]`.., possibly in parentheses as a whole: the name and
/// its indices, outermost first.
fn indexed_name(expr: &Expr) -> Option<(&Ident, Vec<&Expr>)> {
    let mut indices = Vec::new();
    let mut base = expr;
    loop {
        match base {
            Expr::Index(index) => {
                indices.push(&*index.index);
                base = &index.expr;
            }
            Expr::Paren(paren) if indices.is_empty() => base = &paren.expr,
            Expr::Path(path) => {
                let ident = path.path.get_ident()?;
                indices.reverse();
                return Some((ident, indices));
            }
            _ => return None,
        }
    }
}

/// If `expr` reads a chosen value (or an array of them), the slot it reads. A choice takes
/// at most as many indices as it has dimensions: `s[..1]` on a chosen string indexes the
/// value, so the slot is the inner `s`.
pub(crate) fn slot_of(expr: &Expr, choices: &Choices) -> Option<Slot> {
    let (ident, indices) = indexed_name(expr)?;
    let dims = *choices.get(&ident.to_string())?;
    let depth = dims.checked_sub(indices.len())?;
    Some(Slot {
        name: ident.clone(),
        indices: indices.into_iter().cloned().collect(),
        depth,
        span: expr.span(),
    })
}

/// The key `expr` has if it reads a slot: an expression with the key of a slot that a
/// condition reads is a reading of that slot.
pub(crate) fn slot_key(expr: &Expr) -> Option<String> {
    indexed_name(expr).map(|(name, indices)| key(name, indices))
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
                        "`{}` read at a chosen index (`{inner}`) works only in a linear comparison, such as `{}[{inner}] == 2` or `x + {}[{inner}] <= 5`",
                        slot.name, slot.name, slot.name
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
    struct ChoiceFinder<'c> {
        choices: &'c Choices,
        found: Option<Ident>,
    }
    impl<'ast> Visit<'ast> for ChoiceFinder<'_> {
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
    let mut finder = ChoiceFinder {
        choices,
        found: None,
    };
    finder.visit_expr(expr);
    finder.found
}

/// Whether `expr` mentions one of `names`.
pub(crate) fn mentions_any(expr: &Expr, names: &BTreeSet<String>) -> bool {
    struct NameFinder<'n> {
        names: &'n BTreeSet<String>,
        found: bool,
    }
    impl<'ast> Visit<'ast> for NameFinder<'_> {
        fn visit_ident(&mut self, ident: &'ast Ident) {
            self.found |= self.names.contains(&ident.to_string());
        }
    }
    let mut finder = NameFinder {
        names,
        found: false,
    };
    finder.visit_expr(expr);
    finder.found
}

/// The names a pattern binds (those of `name` and `name @ ..`, not inside the latter).
pub(crate) fn bound_names(pat: &Pat) -> Vec<&Ident> {
    struct Bindings<'ast>(Vec<&'ast Ident>);
    impl<'ast> Visit<'ast> for Bindings<'ast> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push(&p.ident);
        }
    }
    let mut bindings = Bindings(Vec::new());
    bindings.visit_pat(pat);
    bindings.0
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
