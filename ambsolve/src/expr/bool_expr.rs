//! [`BoolExpr`]: a boolean expression over variables and comparisons, and how it is built.

use std::fmt;
use std::sync::Arc;

use crate::expr::{BoolNode, IntExpr, IntNode, MAX_DEPTH};
use crate::model::Lit;
use crate::var::Var;

/// A boolean expression: constants, literals (boolean variables, see [`Lit`]),
/// comparisons of [`IntExpr`]s, and `!`, `&`, `|`, `^` (the operators),
/// [`implies`](BoolExpr::implies), [`iff`](BoolExpr::iff), [`all`](BoolExpr::all) and
/// [`any`](BoolExpr::any) over them. [`Model::add`](crate::Model::add) requires one to
/// hold; [`Model::reify`](crate::Model::reify) gives a literal that says whether it does.
///
/// ```
/// use ambsolve::{BoolExpr, Engine, IntExpr, Model};
///
/// // Two jobs of lengths 3 and 2 on one machine: one ends before the other starts.
/// let mut m = Model::new();
/// let s = [m.var(0..5i64), m.var(0..5i64)];
/// let (a, b) = (IntExpr::from(&s[0]), IntExpr::from(&s[1]));
/// m.add((a.clone() + 3).le(&b) | (b + 2).le(&a));
/// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 3 + 6);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
#[derive(Clone)]
pub struct BoolExpr {
    pub(crate) node: Arc<BoolNode>,
    /// How deep it nests: 1 for a leaf.
    pub(crate) depth: u32,
}

impl BoolExpr {
    /// An expression of `node`, whose children are `depth - 1` deep at most; too deep, an
    /// invalid expression.
    pub(crate) fn with_depth(node: BoolNode, depth: u32) -> BoolExpr {
        if depth > MAX_DEPTH {
            return BoolExpr::invalid(format!(
                "an expression nests more than {MAX_DEPTH} operations deep"
            ));
        }
        BoolExpr {
            node: Arc::new(node),
            depth,
        }
    }

    /// An expression that makes the model invalid with `message` when it is added.
    pub(crate) fn invalid(message: impl Into<Arc<str>>) -> BoolExpr {
        BoolExpr {
            node: Arc::new(BoolNode::Invalid(message.into())),
            depth: 1,
        }
    }

    /// Its node.
    pub(crate) fn node(&self) -> &BoolNode {
        &self.node
    }

    /// The constant `value`.
    pub fn constant(value: bool) -> BoolExpr {
        BoolExpr {
            node: Arc::new(BoolNode::Const(value)),
            depth: 1,
        }
    }

    /// Its value if it is a constant.
    pub(crate) fn as_const(&self) -> Option<bool> {
        match self.node() {
            BoolNode::Const(b) => Some(*b),
            _ => None,
        }
    }

    /// Whether every one of `items` holds (true for none).
    pub fn all<B: Into<BoolExpr>>(items: impl IntoIterator<Item = B>) -> BoolExpr {
        items.into_iter().fold(BoolExpr::constant(true), |all, b| {
            all.joined(b.into(), true)
        })
    }

    /// Whether at least one of `items` holds (false for none).
    pub fn any<B: Into<BoolExpr>>(items: impl IntoIterator<Item = B>) -> BoolExpr {
        items.into_iter().fold(BoolExpr::constant(false), |any, b| {
            any.joined(b.into(), false)
        })
    }

    /// `self -> other`: `!self | other`.
    pub fn implies(&self, other: impl Into<BoolExpr>) -> BoolExpr {
        (!self.clone()).joined(other.into(), false)
    }

    /// `self <-> other`: both hold or neither does.
    pub fn iff(&self, other: impl Into<BoolExpr>) -> BoolExpr {
        let other = other.into();
        match (self.as_const(), other.as_const()) {
            (Some(true), _) => other,
            (_, Some(true)) => self.clone(),
            (Some(false), _) => !other,
            (_, Some(false)) => !self.clone(),
            _ => {
                let depth = self.depth.max(other.depth) + 1;
                BoolExpr::with_depth(BoolNode::Iff(self.clone(), other), depth)
            }
        }
    }

    /// 1 if it holds, else 0 (MiniZinc's `bool2int`), as an integer expression.
    pub fn to_int(&self) -> IntExpr {
        match self.as_const() {
            Some(b) => IntExpr::constant(i64::from(b)),
            None => IntExpr::with_depth(IntNode::Bool(self.clone()), self.depth + 1),
        }
    }

    /// `self && other` (or `self || other` when `!and`), kept flat: a conjunction is
    /// extended in place when it is not shared, and constants are folded.
    pub(crate) fn joined(mut self, other: BoolExpr, and: bool) -> BoolExpr {
        match (self.as_const(), other.as_const()) {
            (Some(b), _) => return if b == and { other } else { self },
            (_, Some(b)) => return if b == and { self } else { other },
            _ => {}
        }
        let same = |node: &BoolNode| {
            matches!(
                (node, and),
                (BoolNode::And(_), true) | (BoolNode::Or(_), false)
            )
        };
        if !same(self.node()) {
            let depth = self.depth + 1;
            let items = vec![self];
            let node = if and {
                BoolNode::And(items)
            } else {
                BoolNode::Or(items)
            };
            self = BoolExpr::with_depth(node, depth);
            if !same(self.node()) {
                return self; // too deep: invalid
            }
        }
        let more: Vec<BoolExpr> = match other.node() {
            BoolNode::And(items) | BoolNode::Or(items) if same(other.node()) => items.clone(),
            _ => vec![other],
        };
        let depth = more.iter().map(|b| b.depth + 1).fold(self.depth, u32::max);
        if depth > MAX_DEPTH {
            return BoolExpr::with_depth(BoolNode::Const(false), depth);
        }
        if let BoolNode::And(items) | BoolNode::Or(items) = Arc::make_mut(&mut self.node) {
            items.extend(more);
        }
        self.depth = depth;
        self
    }
}

impl std::ops::Not for BoolExpr {
    type Output = BoolExpr;

    /// Holds exactly when `self` does not.
    fn not(self) -> BoolExpr {
        match self.node() {
            BoolNode::Const(b) => BoolExpr::constant(!b),
            BoolNode::Not(inner) => inner.clone(),
            BoolNode::Lit(lit) => BoolExpr::from(!*lit),
            _ => {
                let depth = self.depth + 1;
                BoolExpr::with_depth(BoolNode::Not(self), depth)
            }
        }
    }
}

impl std::ops::Not for &BoolExpr {
    type Output = BoolExpr;

    fn not(self) -> BoolExpr {
        !self.clone()
    }
}

macro_rules! logic_op {
    ($($trait:ident $method:ident $doc:literal => $body:expr),*) => {$(
        impl<R: Into<BoolExpr>> std::ops::$trait<R> for BoolExpr {
            type Output = BoolExpr;

            #[doc = $doc]
            fn $method(self, other: R) -> BoolExpr {
                let f: fn(BoolExpr, BoolExpr) -> BoolExpr = $body;
                f(self, other.into())
            }
        }

        impl<R: Into<BoolExpr>> std::ops::$trait<R> for &BoolExpr {
            type Output = BoolExpr;

            #[doc = $doc]
            fn $method(self, other: R) -> BoolExpr {
                std::ops::$trait::$method(self.clone(), other)
            }
        }
    )*};
}

logic_op!(
    BitAnd bitand "Both hold." => |a, b| a.joined(b, true),
    BitOr bitor "At least one holds." => |a, b| a.joined(b, false),
    BitXor bitxor "Exactly one holds." => |a, b| match (a.as_const(), b.as_const()) {
        (Some(x), _) => if x { !b } else { b },
        (_, Some(y)) => if y { !a } else { a },
        _ => {
            let depth = a.depth.max(b.depth) + 1;
            BoolExpr::with_depth(BoolNode::Xor(a, b), depth)
        }
    }
);

impl From<bool> for BoolExpr {
    fn from(value: bool) -> BoolExpr {
        BoolExpr::constant(value)
    }
}

impl From<Lit> for BoolExpr {
    /// The literal's truth.
    fn from(lit: Lit) -> BoolExpr {
        BoolExpr {
            node: Arc::new(BoolNode::Lit(lit)),
            depth: 1,
        }
    }
}

impl From<&Var<bool>> for BoolExpr {
    /// The variable's value.
    fn from(var: &Var<bool>) -> BoolExpr {
        BoolExpr::from(Lit::from(var))
    }
}

impl From<&BoolExpr> for BoolExpr {
    fn from(b: &BoolExpr) -> BoolExpr {
        b.clone()
    }
}

impl fmt::Debug for BoolExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, op: &str, items: &[BoolExpr]| {
            f.write_str("(")?;
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    write!(f, " {op} ")?;
                }
                write!(f, "{item:?}")?;
            }
            f.write_str(")")
        };
        match self.node() {
            BoolNode::Const(b) => write!(f, "{b}"),
            BoolNode::Lit(lit) => write!(f, "{lit:?}"),
            BoolNode::Not(b) => write!(f, "!{b:?}"),
            BoolNode::And(items) => list(f, "&&", items),
            BoolNode::Or(items) => list(f, "||", items),
            BoolNode::Xor(a, b) => write!(f, "({a:?} ^ {b:?})"),
            BoolNode::Iff(a, b) => write!(f, "({a:?} <-> {b:?})"),
            BoolNode::Cmp(a, cmp, b) => write!(f, "({a:?} {cmp:?} {b:?})"),
            BoolNode::Invalid(message) => write!(f, "invalid({message})"),
        }
    }
}
