//! Integer and boolean expressions over a model's variables ([`IntExpr`], [`BoolExpr`]),
//! which [`Model::add`](crate::Model::add) flattens into the model's constraints with
//! auxiliary variables, as MiniZinc flattens its models.
//!
//! An expression is plain data (cheap to clone: its parts are shared). Integers are exact:
//! constants are `i128`s while an expression is built, every auxiliary variable is sized
//! from its operands' bounds, and a value that does not fit makes the model invalid,
//! never wrong. Partial functions (`/` and `%` by zero, `pow` with a negative exponent,
//! an index outside its list) follow MiniZinc's *relational semantics*: the comparison
//! containing an undefined value is false (so a required one rules the assignment out,
//! and one under `!` is true).

mod bool_expr;
pub mod dsl;
mod flatten;
mod int_expr;
mod model_api;
mod ops;
mod optional;
mod primitives;

use std::sync::Arc;

pub use self::bool_expr::BoolExpr;
pub use self::int_expr::IntExpr;
use crate::model::{Cmp, IntArg, Lit};

/// How deep an expression may nest (sums, products, conjunctions and the like of one kind
/// are kept flat, so only alternating kinds nest). A deeper expression is refused as
/// [`InvalidModel`](crate::SearchError::InvalidModel) when it is added: flattening and
/// dropping it recurse, and they must not exhaust a thread's stack.
pub(crate) const MAX_DEPTH: u32 = 1000;

/// The node of an integer expression.
#[derive(Clone)]
pub(crate) enum IntNode {
    /// A constant: an exact integer, or `None` once undefined (a constant division by
    /// zero, a value beyond `i128`).
    Const(Option<i128>),
    /// A variable with integer values (an `IntArg` that is not a constant).
    Var(IntArg),
    /// `Σ coefficient × item + constant`.
    Sum(Vec<(i128, IntExpr)>, i128),
    Mul(IntExpr, IntExpr),
    /// Truncating division, as Rust's `/`.
    Div(IntExpr, IntExpr),
    /// The remainder of truncating division, as Rust's `%`.
    Rem(IntExpr, IntExpr),
    Pow(IntExpr, IntExpr),
    Abs(IntExpr),
    Min(Vec<IntExpr>),
    Max(Vec<IntExpr>),
    /// `array[index - offset]`.
    Element {
        index: IntExpr,
        offset: i128,
        array: Vec<IntExpr>,
    },
    /// `table[row][col]` (rows may differ in length).
    Element2d {
        row: IntExpr,
        col: IntExpr,
        table: Vec<Vec<IntExpr>>,
    },
    /// How many distinct values the items take.
    NValue(Vec<IntExpr>),
    /// How many of the items equal the value.
    Count(Vec<IntExpr>, IntExpr),
    /// How many of the items take one of the values (sorted, distinct).
    Among(Vec<IntExpr>, Arc<[i64]>),
    /// 1 if the boolean holds, else 0 (`bool2int`).
    Bool(BoolExpr),
    /// An expression that could not be built: the model becomes invalid with this message
    /// when it is added.
    Invalid(Arc<str>),
}

/// The node of a boolean expression.
#[derive(Clone)]
pub(crate) enum BoolNode {
    Const(bool),
    Lit(Lit),
    Not(BoolExpr),
    And(Vec<BoolExpr>),
    Or(Vec<BoolExpr>),
    Xor(BoolExpr, BoolExpr),
    Iff(BoolExpr, BoolExpr),
    Cmp(IntExpr, Cmp, IntExpr),
    Invalid(Arc<str>),
}

/// An exact product or sum of constants (`None` past `i128`).
pub(crate) fn checked(
    a: Option<i128>,
    b: Option<i128>,
    f: fn(i128, i128) -> Option<i128>,
) -> Option<i128> {
    a.zip(b).and_then(|(a, b)| f(a, b))
}
