//! What `constraints!` builds expressions with: a [`Node`] is an integer expression, a
//! boolean one, or something else (a string, a float, a value of your own type). A
//! condition whose every leaf is an integer or a boolean is flattened into constraints
//! ([`require`]); one with another leaf is left to the predicate the macro writes beside
//! it. The macro cannot see types: the leaves are probed where the user's code is
//! concrete (autoref specialisation: `(&&&Leaf(&x)).node()` picks the integer impl, then
//! the boolean one, then the other), or converted through traits that only integers and
//! booleans implement ([`var`], [`value`]) where no predicate could stand in.

use std::cell::Cell;

use crate::expr::{BoolExpr, IntExpr};
use crate::model::Arg;
use crate::model::{Cmp, IntArg, Integer, Lit, Model, Sense};
use crate::var::Var;

/// A value of a condition while the model is built.
#[derive(Clone, Debug)]
pub enum Node {
    /// An integer expression.
    Int(IntExpr),
    /// A boolean expression.
    Bool(BoolExpr),
    /// Anything else (or an operation the layer does not compute, such as a bitwise `!`
    /// on an integer): the condition stays a predicate.
    Other,
}

impl Node {
    /// As an integer (a boolean is 0 or 1, as MiniZinc's `bool2int`).
    fn int(self) -> Option<IntExpr> {
        match self {
            Node::Int(e) => Some(e),
            Node::Bool(b) => Some(b.to_int()),
            Node::Other => None,
        }
    }
}

/// A chosen value on its way into an expression: `(&&&Leaf(&x)).node()`.
#[derive(Debug)]
pub struct Leaf<'v, T>(pub &'v Var<T>);

/// The integer side of [`Leaf`], chosen first: a variable whose values fit in `i64`.
pub trait LeafInt {
    /// The variable as an expression.
    fn node(&self) -> Node;
}

impl<T: Integer> LeafInt for &&Leaf<'_, T> {
    fn node(&self) -> Node {
        let arg = IntArg::from(self.0);
        match &arg.0 {
            Arg::Var { images: Err(_), .. } => Node::Other,
            _ => Node::Int(IntExpr::from(arg)),
        }
    }
}

/// The boolean side of [`Leaf`].
pub trait LeafBool {
    /// The variable as an expression.
    fn node(&self) -> Node;
}

impl LeafBool for &Leaf<'_, bool> {
    fn node(&self) -> Node {
        Node::Bool(BoolExpr::from(self.0))
    }
}

/// The other side of [`Leaf`]: any value.
pub trait LeafOther {
    /// [`Node::Other`].
    fn node(&self) -> Node;
}

impl<T> LeafOther for Leaf<'_, T> {
    fn node(&self) -> Node {
        Node::Other
    }
}

/// A value known while the model is built, on its way into an expression:
/// `(&&&Value(&v)).node()`.
#[derive(Debug)]
pub struct Value<'v, T: ?Sized>(pub &'v T);

/// The integer side of [`Value`], chosen first.
pub trait ValueInt {
    /// The value as an exact constant.
    fn node(&self) -> Node;
}

impl<T: Integer + TryInto<i128>> ValueInt for &&Value<'_, T> {
    fn node(&self) -> Node {
        Node::Int(IntExpr::exact((*self.0).try_into().ok()))
    }
}

/// The boolean side of [`Value`].
pub trait ValueBool {
    /// The value as a constant.
    fn node(&self) -> Node;
}

impl ValueBool for &Value<'_, bool> {
    fn node(&self) -> Node {
        Node::Bool(BoolExpr::constant(*self.0))
    }
}

/// The other side of [`Value`]: any value.
pub trait ValueOther {
    /// [`Node::Other`].
    fn node(&self) -> Node;
}

impl<T: ?Sized> ValueOther for Value<'_, T> {
    fn node(&self) -> Node {
        Node::Other
    }
}

/// A choice that sums, counts, lookups among choices and objectives compute with.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is neither integers nor booleans, and this expression computes with them",
    label = "sums, counts, objectives and lookups at chosen indices need integer or boolean choices",
    note = "compare values of other types in a condition of their own (`require fits(x, y);`)"
)]
pub trait Choice {
    /// The variable as an expression.
    fn node(&self) -> Node;
}

impl<T: Integer> Choice for Var<T> {
    fn node(&self) -> Node {
        Node::Int(IntExpr::from(self))
    }
}

impl Choice for Var<bool> {
    fn node(&self) -> Node {
        Node::Bool(BoolExpr::from(self))
    }
}

/// A choice where only integers and booleans make sense.
pub fn var<C: Choice + ?Sized>(choice: &C) -> Node {
    choice.node()
}

/// A row of choices where only integers and booleans make sense.
pub fn vars<C: Choice>(row: &[C]) -> Vec<Node> {
    row.iter().map(Choice::node).collect()
}

/// A value known while the model is built, where only integers and booleans make sense.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is neither an integer nor a boolean, and this expression computes with them",
    label = "sums, counts, objectives and lookups at chosen indices compute with integers"
)]
pub trait Constant {
    /// The value as a constant.
    fn node(&self) -> Node;
}

macro_rules! constant {
    ($($t:ty),*) => {$(
        impl Constant for $t {
            fn node(&self) -> Node {
                Node::Int(IntExpr::from(*self))
            }
        }
    )*};
}

constant!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

impl Constant for bool {
    fn node(&self) -> Node {
        Node::Bool(BoolExpr::constant(*self))
    }
}

/// A value known while the model is built, where only integers and booleans make sense.
pub fn value<C: Constant + ?Sized>(constant: &C) -> Node {
    constant.node()
}

/// A boolean, as it is: `a <-> b` in a predicate is `truth(a) == truth(b)`, so that
/// anything but two booleans is a type error on the user's side.
pub fn truth(b: bool) -> bool {
    b
}

/// A build-time integer as an argument of a global constraint; out of `i64` (or not an
/// integer), the model becomes invalid.
pub fn int_arg<C: Constant + ?Sized>(model: &mut Model<'_>, value: &C) -> IntArg {
    let exact = match value.node() {
        Node::Int(e) => e.as_const().flatten(),
        _ => None,
    };
    match exact.and_then(|c| i64::try_from(c).ok()) {
        Some(c) => IntArg::from(c),
        None => {
            model.invalid(
                "an integer argument of a global constraint does not fit in an i64".to_string(),
            );
            IntArg::from(0)
        }
    }
}

/// Build-time integers as arguments of a global constraint (see [`int_arg`]).
pub fn int_args<'v, C: Constant + 'v>(
    model: &mut Model<'_>,
    values: impl IntoIterator<Item = &'v C>,
) -> Vec<IntArg> {
    values.into_iter().map(|v| int_arg(model, v)).collect()
}

/// An item of a list of literals written as a comprehension (a task's presence): a
/// condition as the literal that holds when it does, an integer (a choice over 0 and 1)
/// as the literal that it is 1, required to be 0 or 1.
pub fn lit_item(model: &mut Model<'_>, item: Node) -> Lit {
    match item {
        Node::Bool(b) => model.reify(b),
        Node::Int(e) => {
            model.add(e.clone().ge(0));
            model.add(e.clone().le(1));
            model.reify(e.eq(1))
        }
        Node::Other => {
            model.invalid(
                "an item of a global constraint's list of literals is neither a boolean nor an integer"
                    .to_string(),
            );
            model.reify(true)
        }
    }
}

/// An item of a global constraint's list written as a comprehension: a build-time
/// integer as it is, a choice as its variable, an expression of choices as an auxiliary
/// variable equal to it (see [`Model::int_var`]); a boolean is 0 or 1.
pub fn int_item(model: &mut Model<'_>, item: Node) -> IntArg {
    let Some(expr) = item.int() else {
        model.invalid(
            "an item of a global constraint's list is neither an integer nor a boolean".to_string(),
        );
        return IntArg::from(0);
    };
    if let Some(Some(value)) = expr.as_const() {
        return match i64::try_from(value) {
            Ok(value) => IntArg::from(value),
            Err(_) => {
                model.invalid(format!(
                    "an item of a global constraint's list, {value}, does not fit in an i64"
                ));
                IntArg::from(0)
            }
        };
    }
    IntArg::from(&model.int_var(expr))
}

/// An integer literal, exact.
pub fn int(value: i128) -> Node {
    Node::Int(IntExpr::exact(Some(value)))
}

fn arithmetic(a: Node, b: Node, f: impl FnOnce(IntExpr, IntExpr) -> IntExpr) -> Node {
    match (a.int(), b.int()) {
        (Some(a), Some(b)) => Node::Int(f(a, b)),
        _ => Node::Other,
    }
}

/// `a + b`.
pub fn add(a: Node, b: Node) -> Node {
    arithmetic(a, b, |a, b| a + b)
}

/// `a - b`.
pub fn sub(a: Node, b: Node) -> Node {
    arithmetic(a, b, |a, b| a - b)
}

/// `a * b`.
pub fn mul(a: Node, b: Node) -> Node {
    arithmetic(a, b, |a, b| a * b)
}

/// `a / b`, truncating.
pub fn div(a: Node, b: Node) -> Node {
    arithmetic(a, b, |a, b| a / b)
}

/// `a % b`, truncating.
pub fn rem(a: Node, b: Node) -> Node {
    arithmetic(a, b, |a, b| a % b)
}

/// `a.pow(b)` or `pow(a, b)`.
pub fn pow(a: Node, b: Node) -> Node {
    arithmetic(a, b, |a, b| a.pow(b))
}

/// `-a`.
pub fn neg(a: Node) -> Node {
    a.int().map_or(Node::Other, |a| Node::Int(-a))
}

/// `a.abs()` or `abs(a)`.
pub fn abs(a: Node) -> Node {
    a.int().map_or(Node::Other, |a| Node::Int(a.abs()))
}

/// The least (`max`: greatest) of `items`.
pub fn extreme(items: Vec<Node>, max: bool) -> Node {
    let items: Option<Vec<IntExpr>> = items.into_iter().map(Node::int).collect();
    match items {
        Some(items) if max => Node::Int(IntExpr::max_of(items)),
        Some(items) => Node::Int(IntExpr::min_of(items)),
        None => Node::Other,
    }
}

/// `a as T`: a boolean is 0 or 1; an integer keeps Rust's cast (which may wrap), so the
/// condition stays a predicate.
pub fn cast(a: Node) -> Node {
    match a {
        Node::Bool(b) => Node::Int(b.to_int()),
        _ => Node::Other,
    }
}

/// `a as T` where no predicate stands in: a boolean is 0 or 1, an integer its exact
/// value.
pub fn cast_exact(a: Node) -> Node {
    a.int().map_or(Node::Other, Node::Int)
}

fn logic(a: Node, b: Node, f: impl FnOnce(BoolExpr, BoolExpr) -> BoolExpr) -> Node {
    match (a, b) {
        (Node::Bool(a), Node::Bool(b)) => Node::Bool(f(a, b)),
        _ => Node::Other,
    }
}

/// `!a` (on an integer, Rust's bitwise not: left to a predicate).
pub fn not(a: Node) -> Node {
    match a {
        Node::Bool(b) => Node::Bool(!b),
        _ => Node::Other,
    }
}

/// `a && b`, or `a & b` on booleans.
pub fn and(a: Node, b: Node) -> Node {
    logic(a, b, |a, b| a & b)
}

/// `a || b`, or `a | b` on booleans.
pub fn or(a: Node, b: Node) -> Node {
    logic(a, b, |a, b| a | b)
}

/// `a ^ b` on booleans.
pub fn xor(a: Node, b: Node) -> Node {
    logic(a, b, |a, b| a ^ b)
}

/// `a -> b`.
pub fn implies(a: Node, b: Node) -> Node {
    logic(a, b, |a, b| a.implies(b))
}

/// `a <-> b`.
pub fn iff(a: Node, b: Node) -> Node {
    logic(a, b, |a, b| a.iff(b))
}

/// `a CMP b`: integers compared exactly; two booleans are equal when both hold or
/// neither does (and ordered as 0 and 1).
pub fn compare(a: Node, cmp: Cmp, b: Node) -> Node {
    match (a, b, cmp) {
        (Node::Bool(a), Node::Bool(b), Cmp::Eq) => Node::Bool(a.iff(b)),
        (Node::Bool(a), Node::Bool(b), Cmp::Ne) => Node::Bool(a ^ b),
        (a, b, cmp) => match (a.int(), b.int()) {
            (Some(a), Some(b)) => Node::Bool(a.compare(cmp, b)),
            _ => Node::Other,
        },
    }
}

/// `sum(..)` of integers (a boolean counts 1 when it holds).
pub fn sum(items: Vec<Node>) -> Node {
    let items: Option<Vec<IntExpr>> = items.into_iter().map(Node::int).collect();
    items.map_or(Node::Other, |items| Node::Int(IntExpr::sum(items)))
}

/// `sum(q)` over an array.
pub fn sum_of(items: Vec<Node>) -> Node {
    sum(items)
}

/// `min(q)` over an array.
pub fn min_of(items: Vec<Node>) -> Node {
    extreme(items, false)
}

/// `max(q)` over an array.
pub fn max_of(items: Vec<Node>) -> Node {
    extreme(items, true)
}

/// `count(q, value)`: how many of `items` equal `value` (the model's `count` when all
/// are integers).
pub fn count_eq(items: Vec<Node>, value: Node) -> Node {
    if let Node::Int(v) = &value {
        if items.iter().all(|item| matches!(item, Node::Int(_))) {
            let items = items.into_iter().filter_map(Node::int);
            return Node::Int(IntExpr::count_eq(items, v.clone()));
        }
    }
    let equal = items
        .into_iter()
        .map(|item| compare(item, Cmp::Eq, value.clone()))
        .collect();
    count(equal)
}

/// `among(q, values)`: how many of `items` take one of `values`.
pub fn among(items: Vec<Node>, values: &[i64]) -> Node {
    let items: Option<Vec<IntExpr>> = items.into_iter().map(Node::int).collect();
    items.map_or(Node::Other, |items| {
        Node::Int(IntExpr::among(items, values))
    })
}

/// `nvalue(q)`: how many distinct values `items` take.
pub fn nvalue(items: Vec<Node>) -> Node {
    let items: Option<Vec<IntExpr>> = items.into_iter().map(Node::int).collect();
    items.map_or(Node::Other, |items| Node::Int(IntExpr::nvalue(items)))
}

/// `count(..)`: how many of `items` hold.
pub fn count(items: Vec<Node>) -> Node {
    let items: Option<Vec<BoolExpr>> = items
        .into_iter()
        .map(|n| match n {
            Node::Bool(b) => Some(b),
            _ => None,
        })
        .collect();
    items.map_or(Node::Other, |items| Node::Int(IntExpr::count(items)))
}

/// `items[index]` over expressions: integers, or booleans (then a boolean).
pub fn element(index: Node, items: Vec<Node>) -> Node {
    let Some(index) = index.int() else {
        return Node::Other;
    };
    if !items.is_empty() && items.iter().all(|n| matches!(n, Node::Bool(_))) {
        let ints = items.into_iter().filter_map(Node::int);
        return Node::Bool(IntExpr::element(index, ints).eq(1));
    }
    let items: Option<Vec<IntExpr>> = items.into_iter().map(Node::int).collect();
    items.map_or(Node::Other, |items| {
        Node::Int(IntExpr::element(index, items))
    })
}

/// `rows[row][col]` over expressions (rows may differ in length).
pub fn element2d(row: Node, col: Node, rows: Vec<Vec<Node>>) -> Node {
    let (Some(row), Some(col)) = (row.int(), col.int()) else {
        return Node::Other;
    };
    let all_bool = rows.iter().flatten().all(|n| matches!(n, Node::Bool(_)));
    let rows: Option<Vec<Vec<IntExpr>>> = rows
        .into_iter()
        .map(|r| r.into_iter().map(Node::int).collect())
        .collect();
    match rows {
        Some(rows) if all_bool && rows.iter().any(|r| !r.is_empty()) => {
            Node::Bool(IntExpr::element2d(row, col, rows).eq(1))
        }
        Some(rows) => Node::Int(IntExpr::element2d(row, col, rows)),
        None => Node::Other,
    }
}

/// `table[index]`, the table's `len` entries read by `read`.
pub fn lookup(index: Node, len: usize, read: impl FnMut(usize) -> Node) -> Node {
    element(index, (0..len).map(read).collect())
}

/// `table[row][col]`, the table's `rows` rows of `len(i)` entries read by `read`.
pub fn lookup2(
    row: Node,
    col: Node,
    rows: usize,
    mut len: impl FnMut(usize) -> usize,
    mut read: impl FnMut(usize, usize) -> Node,
) -> Node {
    let table = (0..rows)
        .map(|i| (0..len(i)).map(|j| read(i, j)).collect())
        .collect();
    element2d(row, col, table)
}

/// Requires `condition` if it is a boolean expression that flattens (and says so); else
/// posts nothing and returns `false`, for the caller's predicate: a condition whose
/// flattening would make the model invalid (an auxiliary variable too wide, a value
/// beyond `i64`) keeps its exact meaning as a predicate.
pub fn require(model: &mut Model<'_>, condition: Node) -> bool {
    let Node::Bool(b) = condition else {
        return false;
    };
    if model.error().is_some() || PREDICATES_ONLY.with(Cell::get) {
        return model.error().is_some();
    }
    let mark = model.mark();
    model.add(b);
    if model.error().is_some() {
        model.undo_to(mark);
        return false;
    }
    true
}

thread_local! {
    static PREDICATES_ONLY: Cell<bool> = const { Cell::new(false) };
}

/// Tests only: while `on`, conditions that have a predicate to fall back on are built as
/// that predicate on this thread, so that a test can compare both meanings.
pub fn predicates_only(on: bool) {
    PREDICATES_ONLY.with(|p| p.set(on));
}

/// Requires `condition`, which has no predicate to fall back on: anything but a
/// boolean expression makes the model invalid, naming the condition's `text`.
pub fn require_only(model: &mut Model<'_>, condition: Node, text: &str) {
    match condition {
        Node::Bool(b) => model.add(b),
        _ => model.invalid(format!(
            "`{text}` mixes values constraints! cannot compute with (integers, booleans and others, or a bitwise operation)"
        )),
    }
}

/// The objective: minimise or maximise `expr`, an integer expression; `then`: a further
/// objective (`minimize (a, b);`'s after the first).
pub fn objective(model: &mut Model<'_>, sense: Sense, then: bool, expr: Node, text: &str) {
    match expr.int() {
        Some(e) => model.objective_expr(sense, e, then),
        None => model.invalid(format!(
            "the objective `{text}` is not an integer expression"
        )),
    }
}
