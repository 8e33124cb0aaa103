//! Conditions and objectives read as formulas: logic and exact integer arithmetic over
//! chosen values, lookups at chosen indices, sums and counts, which the model flattens
//! into propagating constraints (`ambsolve::BoolExpr`, `IntExpr`).
//!
//! A formula is *probed* when the condition is also a Rust expression over the chosen
//! values: its leaves become integers or booleans where the user's types are, and the
//! condition falls back to its predicate otherwise (strings, floats, your own types). It
//! is *exact* when no predicate can stand in (a sum of comparisons, a lookup among
//! choices at a chosen index, an objective): then its leaves must be integers or
//! booleans, a compile error on the user's token otherwise.

use std::collections::BTreeSet;

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, UnOp};

use crate::analyze::{self, Choices, Slot};
use crate::arrows::{IFF, IMPLIES};
use crate::ast::Comprehension;

/// A formula over the user's syntax.
pub(crate) struct Formula<'a> {
    pub(crate) kind: Kind<'a>,
    /// The user's expression, for spans.
    pub(crate) span: Span,
}

/// The operators of two operands.
#[derive(Clone, Copy)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    And,
    Or,
    Xor,
    Implies,
    Iff,
}

impl Op {
    /// The function of `__private::dsl` that applies it.
    pub(crate) fn function(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Rem => "rem",
            Op::Pow => "pow",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Implies => "implies",
            Op::Iff => "iff",
        }
    }
}

/// A comparison: of a linear constraint, or inside a formula.
#[derive(Clone, Copy)]
pub(crate) enum Comparison {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Comparison {
    /// The comparison an operator makes, if it makes one.
    pub(crate) fn of(op: &syn::BinOp) -> Option<Comparison> {
        Some(match op {
            syn::BinOp::Eq(_) => Comparison::Eq,
            syn::BinOp::Ne(_) => Comparison::Ne,
            syn::BinOp::Lt(_) => Comparison::Lt,
            syn::BinOp::Le(_) => Comparison::Le,
            syn::BinOp::Gt(_) => Comparison::Gt,
            syn::BinOp::Ge(_) => Comparison::Ge,
            _ => return None,
        })
    }

    /// Its name in `ambsolve::Cmp`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Comparison::Eq => "Eq",
            Comparison::Ne => "Ne",
            Comparison::Lt => "Lt",
            Comparison::Le => "Le",
            Comparison::Gt => "Gt",
            Comparison::Ge => "Ge",
        }
    }
}

pub(crate) enum Kind<'a> {
    /// A chosen value.
    Leaf(Slot),
    /// A value known while the model is built.
    Value(&'a Expr),
    /// An integer literal without a suffix: exact, whatever its size.
    Int(&'a syn::LitInt),
    Not(Box<Formula<'a>>),
    Neg(Box<Formula<'a>>),
    Abs(Box<Formula<'a>>),
    /// `as` a type: a boolean as 0 or 1.
    Cast(Box<Formula<'a>>),
    Binary(Op, Box<Formula<'a>>, Box<Formula<'a>>),
    Compare(Comparison, Span, Box<Formula<'a>>, Box<Formula<'a>>),
    /// `min(a, b, ..)` (or max).
    Extreme(bool, Vec<Formula<'a>>),
    /// A function of a whole array of choices (`sum(q)`, `min(q)`, `max(q)`,
    /// `nvalue(q)`, `count(q, v)`): the `__private::dsl` function that computes it, and
    /// its other argument.
    OfArray(&'static str, Slot, Option<Box<Formula<'a>>>),
    /// `among(q, values)`: how many of an array of choices take one of the build-time
    /// `values` (a list of `i64`).
    Among(Slot, &'a Expr),
    /// A table of build-time values read at one or two indices, some chosen.
    Lookup(&'a Expr, Vec<Formula<'a>>),
    /// An array (or grid) of choices read at one or two indices, some chosen.
    Element(Slot, Vec<Formula<'a>>),
    /// `count(a, b, ..)`: how many of the conditions hold.
    Count(Vec<Formula<'a>>),
    /// `sum(..)`, `count(..)`, `min(..)`, `max(..)` or `nvalue(..)` of a comprehension.
    Fold(Fold, &'a Comprehension, Box<Formula<'a>>),
}

/// What an integer function of a comprehension computes from its items.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fold {
    Sum,
    /// How many of the items (conditions) hold.
    Count,
    Min,
    Max,
    /// How many distinct values the items take.
    Nvalue,
}

impl Fold {
    fn of(name: &str) -> Option<Fold> {
        Some(match name {
            "sum" => Fold::Sum,
            "count" => Fold::Count,
            "min" => Fold::Min,
            "max" => Fold::Max,
            "nvalue" => Fold::Nvalue,
            _ => return None,
        })
    }

    /// The `__private::dsl` function that computes it from the items' nodes.
    pub(crate) fn function(self) -> &'static str {
        match self {
            Fold::Sum => "sum",
            Fold::Count => "count",
            Fold::Min => "min_of",
            Fold::Max => "max_of",
            Fold::Nvalue => "nvalue",
        }
    }
}

impl Formula<'_> {
    /// Whether no predicate can stand in for it: it sums or counts, reads among choices at
    /// a chosen index, or takes the least or greatest of a whole array.
    pub(crate) fn exact_only(&self) -> bool {
        match &self.kind {
            Kind::Element(..)
            | Kind::Fold(..)
            | Kind::OfArray(..)
            | Kind::Among(..)
            | Kind::Count(_) => true,
            Kind::Leaf(_) | Kind::Value(_) | Kind::Int(_) => false,
            Kind::Not(a) | Kind::Neg(a) | Kind::Abs(a) | Kind::Cast(a) => a.exact_only(),
            Kind::Binary(_, a, b) | Kind::Compare(_, _, a, b) => a.exact_only() || b.exact_only(),
            Kind::Extreme(_, items) | Kind::Lookup(_, items) => {
                items.iter().any(Formula::exact_only)
            }
        }
    }

    /// Calls `f` on this formula and every formula inside it.
    pub(crate) fn visit(&self, f: &mut dyn FnMut(&Formula<'_>)) {
        f(self);
        match &self.kind {
            Kind::Leaf(_)
            | Kind::Value(_)
            | Kind::Int(_)
            | Kind::OfArray(_, _, None)
            | Kind::Among(..) => {}
            Kind::Fold(_, _, a)
            | Kind::Not(a)
            | Kind::Neg(a)
            | Kind::Abs(a)
            | Kind::Cast(a)
            | Kind::OfArray(_, _, Some(a)) => a.visit(f),
            Kind::Binary(_, a, b) | Kind::Compare(_, _, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Kind::Extreme(_, items)
            | Kind::Lookup(_, items)
            | Kind::Element(_, items)
            | Kind::Count(items) => items.iter().for_each(|item| item.visit(f)),
        }
    }

    /// Whether it reads a chosen value (else it is a constant).
    fn varies(&self) -> bool {
        match &self.kind {
            Kind::Leaf(_) | Kind::Element(..) | Kind::OfArray(..) | Kind::Among(..) => true,
            Kind::Value(_) | Kind::Int(_) => false,
            Kind::Fold(_, _, element) => element.varies(),
            Kind::Not(a) | Kind::Neg(a) | Kind::Abs(a) | Kind::Cast(a) => a.varies(),
            Kind::Binary(_, a, b) | Kind::Compare(_, _, a, b) => a.varies() || b.varies(),
            Kind::Extreme(_, items) | Kind::Lookup(_, items) | Kind::Count(items) => {
                items.iter().any(Formula::varies)
            }
        }
    }
}

/// Reads expressions as formulas.
pub(crate) struct Reader<'c, 'a> {
    dims: &'c Choices,
    comprehensions: &'a [Comprehension],
    placeholders: BTreeSet<String>,
}

impl<'c, 'a> Reader<'c, 'a> {
    pub(crate) fn new(dims: &'c Choices, comprehensions: &'a [Comprehension]) -> Self {
        Reader {
            dims,
            comprehensions,
            placeholders: comprehensions
                .iter()
                .map(|c| c.placeholder.to_string())
                .collect(),
        }
    }

    /// `expr` as a formula that reads some choice, if it is one.
    pub(crate) fn formula(&self, expr: &'a Expr) -> Option<Formula<'a>> {
        self.read(expr).filter(Formula::varies)
    }

    fn constant(&self, expr: &Expr) -> bool {
        analyze::first_choice_in(expr, self.dims).is_none()
            && !analyze::mentions_any(expr, &self.placeholders)
    }

    fn boxed(&self, expr: &'a Expr) -> Option<Box<Formula<'a>>> {
        self.read(expr).map(Box::new)
    }

    pub(crate) fn read(&self, expr: &'a Expr) -> Option<Formula<'a>> {
        let span = expr.span();
        let kind = match expr {
            Expr::Paren(p) => return self.read(&p.expr),
            Expr::Group(g) => return self.read(&g.expr),
            Expr::Lit(lit) => match &lit.lit {
                syn::Lit::Int(int) if int.suffix().is_empty() => Kind::Int(int),
                syn::Lit::Float(_) => return None,
                _ => Kind::Value(expr),
            },
            Expr::Binary(b) => self.binary(b)?,
            Expr::Unary(u) => match u.op {
                UnOp::Not(_) => Kind::Not(self.boxed(&u.expr)?),
                UnOp::Neg(_) => Kind::Neg(self.boxed(&u.expr)?),
                _ if self.constant(expr) => Kind::Value(expr),
                _ => return None,
            },
            Expr::MethodCall(call) => self.method(call, expr)?,
            Expr::Call(call) => self.call(call, expr)?,
            Expr::Cast(cast) => Kind::Cast(self.boxed(&cast.expr)?),
            Expr::Index(_) | Expr::Path(_) => self.place(expr)?,
            _ if self.constant(expr) => Kind::Value(expr),
            _ => return None,
        };
        Some(Formula { kind, span })
    }

    fn binary(&self, b: &'a syn::ExprBinary) -> Option<Kind<'a>> {
        if let Some(cmp) = Comparison::of(&b.op) {
            return Some(Kind::Compare(
                cmp,
                b.op.span(),
                self.boxed(&b.left)?,
                self.boxed(&b.right)?,
            ));
        }
        let op = match b.op {
            BinOp::Add(_) => Op::Add,
            BinOp::Sub(_) => Op::Sub,
            BinOp::Mul(_) => Op::Mul,
            BinOp::Div(_) => Op::Div,
            BinOp::Rem(_) => Op::Rem,
            BinOp::And(_) | BinOp::BitAnd(_) => Op::And,
            BinOp::Or(_) | BinOp::BitOr(_) => Op::Or,
            BinOp::BitXor(_) => Op::Xor,
            _ => return None,
        };
        Some(Kind::Binary(
            op,
            self.boxed(&b.left)?,
            self.boxed(&b.right)?,
        ))
    }

    /// `x.abs()`, `x.pow(k)`, `x.min(y)`, `x.max(y)` (as exact integers have them).
    fn method(&self, call: &'a syn::ExprMethodCall, expr: &'a Expr) -> Option<Kind<'a>> {
        let args: Vec<&'a Expr> = call.args.iter().collect();
        let method = call.method.to_string();
        match (method.as_str(), args.as_slice()) {
            ("abs", []) => Some(Kind::Abs(self.boxed(&call.receiver)?)),
            ("pow", [k]) => Some(Kind::Binary(
                Op::Pow,
                self.boxed(&call.receiver)?,
                self.boxed(k)?,
            )),
            ("min" | "max", [other]) => Some(Kind::Extreme(
                method == "max",
                vec![self.read(&call.receiver)?, self.read(other)?],
            )),
            _ if self.constant(expr) => Some(Kind::Value(expr)),
            _ => None,
        }
    }

    /// `a -> b`, `a <-> b` (their markers), `abs(x)`, `pow(x, k)`, `min(a, b, ..)`,
    /// `max(..)`, `min(q)` over an array, `sum(..)`, `count(..)`, `among(q, values)`.
    fn call(&self, call: &'a syn::ExprCall, expr: &'a Expr) -> Option<Kind<'a>> {
        let Expr::Path(func) = &*call.func else {
            return self.constant(expr).then_some(Kind::Value(expr));
        };
        let Some(name) = func.path.get_ident().map(ToString::to_string) else {
            return self.constant(expr).then_some(Kind::Value(expr));
        };
        let args: Vec<&'a Expr> = call.args.iter().collect();
        let two = |op: Op| -> Option<Kind<'a>> {
            match args.as_slice() {
                [a, b] => Some(Kind::Binary(op, self.boxed(a)?, self.boxed(b)?)),
                _ => None,
            }
        };
        match name.as_str() {
            IMPLIES => two(Op::Implies),
            IFF => two(Op::Iff),
            "abs" if args.len() == 1 => Some(Kind::Abs(self.boxed(args[0])?)),
            "pow" => two(Op::Pow),
            "min" | "max" | "sum" | "nvalue"
                if args.len() == 1 && self.array(args[0]).is_some() =>
            {
                let function = match name.as_str() {
                    "min" => "min_of",
                    "max" => "max_of",
                    "sum" => "sum_of",
                    _ => "nvalue",
                };
                Some(Kind::OfArray(function, self.array(args[0])?, None))
            }
            "count" if args.len() == 2 && self.array(args[0]).is_some() => Some(Kind::OfArray(
                "count_eq",
                self.array(args[0])?,
                Some(self.boxed(args[1])?),
            )),
            "among"
                if args.len() == 2 && self.array(args[0]).is_some() && self.constant(args[1]) =>
            {
                Some(Kind::Among(self.array(args[0])?, args[1]))
            }
            "min" | "max" if args.len() >= 2 => {
                let items: Option<Vec<Formula<'a>>> = args.iter().map(|a| self.read(a)).collect();
                Some(Kind::Extreme(name == "max", items?))
            }
            "count" if !args.is_empty() && self.comprehension(args[0]).is_none() => {
                let items: Option<Vec<Formula<'a>>> = args.iter().map(|a| self.read(a)).collect();
                Some(Kind::Count(items?))
            }
            "sum" | "count" | "min" | "max" | "nvalue" => {
                let [arg] = args.as_slice() else {
                    return None;
                };
                let comprehension = self.comprehension(arg)?;
                let inner = Reader::new(self.dims, &[]);
                let element = inner.read(&comprehension.element)?;
                Some(Kind::Fold(
                    Fold::of(&name)?,
                    comprehension,
                    Box::new(element),
                ))
            }
            _ if self.constant(expr) => Some(Kind::Value(expr)),
            _ => None,
        }
    }

    /// The comprehension whose placeholder `expr` is, if it is one.
    fn comprehension(&self, expr: &Expr) -> Option<&'a Comprehension> {
        let Expr::Path(path) = expr else {
            return None;
        };
        let ident = path.path.get_ident()?;
        self.comprehensions.iter().find(|c| c.placeholder == *ident)
    }

    /// `expr` if it is a whole array (or a grid's row) of choices.
    fn array(&self, expr: &Expr) -> Option<Slot> {
        analyze::slot_of(expr, self.dims).filter(|s| s.depth == 1 && self.index_free(s))
    }

    /// Whether a slot's indices are all known while the model is built.
    fn index_free(&self, slot: &Slot) -> bool {
        slot.indices
            .iter()
            .all(|i| analyze::first_choice_in(i, self.dims).is_none())
    }

    /// A name or an indexing: a chosen value, a build-time value, or a lookup at chosen
    /// indices (in a table of values, or among choices).
    fn place(&self, expr: &'a Expr) -> Option<Kind<'a>> {
        if let Some(slot) = analyze::slot_of(expr, self.dims) {
            if self.index_free(&slot) {
                return (slot.depth == 0).then_some(Kind::Leaf(slot));
            }
            // The indices from the first chosen one on are read at chosen values.
            let first = slot
                .indices
                .iter()
                .position(|i| analyze::first_choice_in(i, self.dims).is_some())?;
            let rest = &slot.indices[first..];
            let base = Slot {
                name: slot.name.clone(),
                indices: slot.indices[..first].to_vec(),
                depth: slot.depth + rest.len(),
                span: slot.span,
            };
            if !(1..=2).contains(&rest.len()) || base.depth != rest.len() {
                return None;
            }
            // The slot's indices are clones of the user's: find the originals to borrow.
            let indices = indices_of(expr, rest.len());
            let read: Option<Vec<Formula<'a>>> =
                indices.into_iter().map(|i| self.read(i)).collect();
            return Some(Kind::Element(base, read?));
        }
        if self.constant(expr) {
            return Some(Kind::Value(expr));
        }
        let Expr::Index(outer) = expr else {
            return None;
        };
        if self.constant(&outer.expr) {
            return Some(Kind::Lookup(&outer.expr, vec![self.read(&outer.index)?]));
        }
        match &*outer.expr {
            Expr::Index(inner) if self.constant(&inner.expr) => Some(Kind::Lookup(
                &inner.expr,
                vec![self.read(&inner.index)?, self.read(&outer.index)?],
            )),
            _ => None,
        }
    }
}

/// The last `n` index expressions of `expr` (`a[i][j]`: `[i, j]` for 2), outermost last.
fn indices_of(expr: &Expr, n: usize) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut base = expr;
    while out.len() < n {
        match base {
            Expr::Index(index) => {
                out.push(&*index.index);
                base = &index.expr;
            }
            Expr::Paren(p) => base = &p.expr,
            _ => break,
        }
    }
    out.reverse();
    out
}
