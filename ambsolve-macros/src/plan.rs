//! The plan: a checked body as plain data over the user's syntax, ready to expand.

use proc_macro2::Span;
use syn::{Expr, Ident, Pat};

use crate::analyze::Slot;
use crate::ast::{Choice, For, If, Let, Sense};
use crate::formula::{Comparison, Formula};
use crate::linear::{Coef, Lookup};

/// A checked body: the choices in order, and what to do to build the model.
pub(crate) struct Plan<'a> {
    pub(crate) choices: Vec<&'a Choice>,
    pub(crate) steps: Vec<Step<'a>>,
}

/// One thing to do while building the model.
pub(crate) enum Step<'a> {
    /// A choice, declared where it stands (its values may use earlier `let`s).
    Choice(&'a Choice),
    Constraint(Constraint<'a>),
    For {
        item: &'a For,
        body: Vec<Step<'a>>,
    },
    If {
        item: &'a If,
        then: Vec<Step<'a>>,
        otherwise: Vec<Step<'a>>,
    },
    Let(&'a Let),
}

/// A classified constraint.
pub(crate) enum Constraint<'a> {
    /// `all_different(a, b + 1, q)`, `all_different(q[i] + i for i in 0..n)`, or several
    /// of these mixed: its items, each an operand repeated for each value of its loops
    /// (none outside a comprehension).
    AllDifferent {
        span: Span,
        items: Vec<(Operand<'a>, &'a [(Pat, Expr)])>,
    },
    /// A linear form `Σ coef × slot + Σ sums + Σ constant`, compared with 0 (`lhs CMP
    /// rhs` as `lhs - rhs CMP 0`) or stated as the objective.
    Linear {
        span: Span,
        goal: Goal,
        terms: Vec<(Coef<'a>, Slot)>,
        lookups: Vec<(Coef<'a>, Lookup<'a>)>,
        constant: Vec<Coef<'a>>,
        sums: Vec<Sum<'a>>,
    },
    /// `post EXPR;`: the propagator `EXPR` builds from the variables, over the slots it
    /// mentions.
    Post { expr: &'a Expr, slots: Vec<Slot> },
    /// A condition on one chosen value: narrows its domain.
    Restrict { slot: Slot, condition: &'a Expr },
    /// A condition read as a formula: flattened into constraints when every leaf is an
    /// integer or a boolean, else the predicate `fallback` (without one, the leaves must
    /// be integers or booleans). `text` is the condition as written, for messages.
    Formula {
        span: Span,
        formula: Formula<'a>,
        fallback: Option<Box<Constraint<'a>>>,
        text: String,
    },
    /// An objective read as a formula (it is not linear).
    Objective {
        span: Span,
        sense: Sense,
        /// A further objective (`minimize (a, b);`'s `b`).
        then: bool,
        formula: Formula<'a>,
        text: String,
    },
    /// `require NAME(args);`: the global constraint `Model::NAME` (the method to call),
    /// with a trailing `bool` argument when `closed` is given.
    Global {
        span: Span,
        name: Ident,
        args: Vec<GlobalArg<'a>>,
        closed: Option<bool>,
    },
    /// A condition on several chosen values.
    Predicate {
        slots: Vec<Slot>,
        condition: &'a Expr,
        /// The values from outside the macro that the condition reads: borrowed.
        borrowed: Vec<Ident>,
    },
}

/// An argument of a global constraint.
pub(crate) enum GlobalArg<'a> {
    /// An array of choices (or a grid's row).
    Choices(Slot),
    /// One choice.
    Choice(Slot),
    /// A list of build-time integers.
    Values(&'a Expr),
    /// A build-time integer.
    Value(&'a Expr),
    /// A build-time value, passed as it is written.
    Plain(&'a Expr),
    /// A list written as a comprehension (`s[j][m] for j in 0..n`, `s[i] + d[i] for i in
    /// 0..n`): each item an integer (a choice, a build-time value, or an expression of
    /// choices, which an auxiliary choice stands for).
    Items {
        loops: &'a [(Pat, Expr)],
        element: Formula<'a>,
        /// Each item a literal (a condition, or a 0/1 integer), not an integer.
        lits: bool,
    },
}

/// An operand of an all-different.
pub(crate) enum Operand<'a> {
    /// A slot (an element, a row or a whole array) plus constants evaluated while building
    /// the model (none: the bare values, of any type).
    Shifted { slot: Slot, offset: Vec<Coef<'a>> },
    /// A linear expression of several choices (or a scaled one, `2 * x`): an auxiliary
    /// choice stands for its value.
    Computed {
        span: Span,
        terms: Vec<(Coef<'a>, Slot)>,
        constant: Vec<Coef<'a>>,
    },
}

/// The part of a linear constraint that a `sum(.. for ..)` contributes: its element as a
/// linear form (already times the sum's coefficient), once for each value of the loops.
pub(crate) struct Sum<'a> {
    pub(crate) loops: &'a [(Pat, Expr)],
    pub(crate) terms: Vec<(Coef<'a>, Slot)>,
    pub(crate) lookups: Vec<(Coef<'a>, Lookup<'a>)>,
    pub(crate) constant: Vec<Coef<'a>>,
}

/// What a linear form is for.
#[derive(Clone, Copy)]
pub(crate) enum Goal {
    /// Compared with 0; the span is the comparison operator's.
    Compare(Comparison, Span),
    /// `minimize` or `maximize`; `true` for a further objective (`minimize (a, b);`'s
    /// `b`).
    Objective(Sense, bool),
}
