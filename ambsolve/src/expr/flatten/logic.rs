//! Booleans: a required expression becomes clauses, parity and (reified) linear
//! constraints; one inside another gets a literal fully equivalent to it.

use crate::expr::flatten::{Cx, Flat, Lin, Truth, Val};
use crate::expr::{BoolExpr, BoolNode, IntExpr, IntNode};
use crate::model::Arg;
use crate::model::{Cmp, Lit};
use crate::var::VarId;

impl Flat<'_, '_> {
    /// Requires `b`.
    pub(crate) fn post(&mut self, b: &BoolExpr) {
        if self.failed() {
            return;
        }
        match b.node() {
            BoolNode::Const(true) => {}
            BoolNode::Const(false) => self.post_false(),
            BoolNode::Lit(lit) => {
                if let Some(lit) = self.model.lit(*lit) {
                    self.model.clause([lit]);
                }
            }
            BoolNode::And(items) => items.iter().for_each(|item| self.post(item)),
            BoolNode::Or(items) => {
                let truths: Vec<Truth> = items.iter().map(|item| self.truth(item)).collect();
                self.post_clause(truths);
            }
            BoolNode::Not(inner) => self.post_not(inner),
            BoolNode::Xor(a, c) => {
                let (a, c) = (self.truth(a), self.truth(c));
                self.post_parity(a, c, true);
            }
            BoolNode::Iff(a, c) => self.post_iff(a, c),
            BoolNode::Cmp(a, cmp, c) => self.post_cmp(a, *cmp, c),
            BoolNode::Invalid(message) => {
                let message = message.to_string();
                self.fail(message);
            }
        }
    }

    /// Requires `!b`.
    fn post_not(&mut self, b: &BoolExpr) {
        match b.node() {
            BoolNode::Not(inner) => self.post(inner),
            BoolNode::Or(items) => items.iter().for_each(|item| self.post_not(item)),
            BoolNode::And(items) => {
                let truths: Vec<Truth> = items.iter().map(|item| !self.truth(item)).collect();
                self.post_clause(truths);
            }
            // Without a partial function, the negation of a comparison is the negated
            // comparison (with one, an undefined value makes both false).
            BoolNode::Cmp(a, cmp, c) if total(a) && total(c) => {
                self.post_cmp(a, cmp.negated(), c);
            }
            _ => {
                let truth = !self.truth(b);
                self.post_clause(vec![truth]);
            }
        }
    }

    /// Requires `a cmp c`: partial functions post their constraints plainly (an
    /// undefined value rules the assignment out).
    fn post_cmp(&mut self, a: &IntExpr, cmp: Cmp, c: &IntExpr) {
        if cmp == Cmp::Eq && (self.post_defined(a, c) || self.post_defined(c, a)) {
            return;
        }
        let mut cx = Cx::root();
        let lin = self.difference(a, c, &mut cx);
        if self.failed() {
            return;
        }
        if cx.undefined {
            return self.post_false();
        }
        self.post_lin(lin, cmp);
    }

    /// `a - c` as a linear form (what it needs defined noted in `cx`).
    fn difference(&mut self, a: &IntExpr, c: &IntExpr, cx: &mut Cx) -> Lin {
        let mut lin = Lin::default();
        self.lin(a, 1, cx, &mut lin);
        self.lin(c, -1, cx, &mut lin);
        lin
    }

    /// Requires `e == var` for a function `e` (a product, a quotient, ..) and a variable
    /// `var`, with `var` as the function's result (no auxiliary variable); `false` when
    /// they are not of that shape.
    fn post_defined(&mut self, e: &IntExpr, var: &IntExpr) -> bool {
        let IntNode::Var(arg) = var.node() else {
            return false;
        };
        let function = matches!(
            e.node(),
            IntNode::Mul(..)
                | IntNode::Div(..)
                | IntNode::Rem(..)
                | IntNode::Pow(..)
                | IntNode::Abs(_)
                | IntNode::Min(_)
                | IntNode::Max(_)
                | IntNode::Element { .. }
                | IntNode::Element2d { .. }
                | IntNode::NValue(_)
                | IntNode::Count(..)
                | IntNode::Among(..)
        );
        if !function {
            return false;
        }
        let Some(Val::Var(target)) = self.operand_of(arg) else {
            return false; // a constant, or the model is invalid
        };
        if reads(e, target.var) {
            return false;
        }
        let mut cx = Cx::root();
        let value = self.nonlinear_into(e, &mut cx, Some(target.clone()));
        if cx.undefined {
            self.post_false();
            return true;
        }
        match value {
            Some(Val::Var(op)) if op.var == target.var => {}
            Some(value) => {
                let mut lin = Lin::default();
                match value {
                    Val::Const(c) => lin.constant = c,
                    Val::Var(op) => lin.push(1, op),
                }
                lin.push(-1, target);
                self.post_lin(lin, Cmp::Eq);
            }
            None => {}
        }
        true
    }

    /// Requires `a <-> c`: a comparison tied to the other side's literal directly.
    fn post_iff(&mut self, a: &BoolExpr, c: &BoolExpr) {
        let (cmp, other) = match (a.node(), c.node()) {
            (BoolNode::Cmp(..), _) => (a, c),
            (_, BoolNode::Cmp(..)) => (c, a),
            _ => {
                let (a, c) = (self.truth(a), self.truth(c));
                return self.post_parity(a, c, false);
            }
        };
        match self.truth(other) {
            Truth::Const(true) => self.post(cmp),
            Truth::Const(false) => self.post_not(cmp),
            Truth::Lit(lit) => {
                let BoolNode::Cmp(x, op, y) = cmp.node() else {
                    unreachable!("matched a comparison above")
                };
                self.reify_cmp_into(x, *op, y, lit);
            }
        }
    }

    /// Requires `a ^ c` (`odd`) or `a <-> c`.
    fn post_parity(&mut self, a: Truth, c: Truth, odd: bool) {
        match (a, c) {
            (Truth::Const(x), other) | (other, Truth::Const(x)) => {
                // x ^ other must be `odd`: other must be `odd ^ x`.
                let wanted = if odd != x { other } else { !other };
                self.post_clause(vec![wanted]);
            }
            (Truth::Lit(x), Truth::Lit(y)) => {
                if odd {
                    self.model.xor([x, y]);
                } else {
                    self.model.clause([!x, y]);
                    self.model.clause([x, !y]);
                }
            }
        }
    }

    /// Requires at least one of `truths`.
    fn post_clause(&mut self, truths: Vec<Truth>) {
        let mut lits = Vec::with_capacity(truths.len());
        for truth in truths {
            match truth {
                Truth::Const(true) => return,
                Truth::Const(false) => {}
                Truth::Lit(lit) => lits.push(lit),
            }
        }
        if !self.failed() {
            self.model.clause(lits);
        }
    }

    /// Requires `lit <-> (a cmp c)`.
    fn reify_cmp_into(&mut self, a: &IntExpr, cmp: Cmp, c: &IntExpr, lit: Lit) {
        let mut cx = Cx::reified();
        let lin = self.difference(a, c, &mut cx);
        if self.failed() {
            return;
        }
        if cx.undefined {
            return self.model.clause([!lit]);
        }
        if cx.defined.is_empty() {
            return self.reify_lin_into(lin, cmp, lit);
        }
        let holds = self.reify_lin(lin, cmp);
        let mut all: Vec<Truth> = cx.defined.iter().map(|&d| Truth::Lit(d)).collect();
        all.push(holds);
        let conjunction = self.join(all, true);
        self.post_parity(Truth::Lit(lit), conjunction, false);
    }

    /// The truth of `b`: a constant, or a literal fully equivalent to it.
    pub(crate) fn truth(&mut self, b: &BoolExpr) -> Truth {
        if self.failed() {
            return Truth::Const(false);
        }
        match b.node() {
            BoolNode::Const(value) => Truth::Const(*value),
            BoolNode::Lit(lit) => match self.model.lit(*lit) {
                Some(lit) => Truth::Lit(lit),
                None => Truth::Const(false),
            },
            BoolNode::Not(inner) => !self.truth(inner),
            BoolNode::And(items) | BoolNode::Or(items) => {
                let and = matches!(b.node(), BoolNode::And(_));
                let truths: Vec<Truth> = items.iter().map(|item| self.truth(item)).collect();
                self.join(truths, and)
            }
            BoolNode::Xor(a, c) | BoolNode::Iff(a, c) => {
                let odd = matches!(b.node(), BoolNode::Xor(..));
                let (a, c) = (self.truth(a), self.truth(c));
                match (a, c) {
                    (Truth::Const(x), other) | (other, Truth::Const(x)) => {
                        if odd != x {
                            other
                        } else {
                            !other
                        }
                    }
                    (Truth::Lit(x), Truth::Lit(y)) => {
                        // x ^ y ^ !r is odd: r = x ^ y; x ^ y ^ r is odd: r = x <-> y.
                        let r = self.new_lit(if odd { "xor" } else { "iff" });
                        self.model.xor([x, y, if odd { !r } else { r }]);
                        Truth::Lit(r)
                    }
                }
            }
            BoolNode::Cmp(a, cmp, c) => self.truth_of_cmp(a, *cmp, c),
            BoolNode::Invalid(message) => {
                let message = message.to_string();
                self.fail(message);
                Truth::Const(false)
            }
        }
    }

    /// The truth of `a cmp c`, false where a partial function in it is undefined.
    fn truth_of_cmp(&mut self, a: &IntExpr, cmp: Cmp, c: &IntExpr) -> Truth {
        let mut cx = Cx::reified();
        let lin = self.difference(a, c, &mut cx);
        if self.failed() || cx.undefined {
            return Truth::Const(false);
        }
        let holds = self.reify_lin(lin, cmp);
        if cx.defined.is_empty() {
            return holds;
        }
        let mut all: Vec<Truth> = cx.defined.iter().map(|&d| Truth::Lit(d)).collect();
        all.push(holds);
        self.join(all, true)
    }

    /// A literal equivalent to the conjunction (`and`) or the disjunction of `truths`.
    pub(crate) fn join(&mut self, truths: Vec<Truth>, and: bool) -> Truth {
        let mut lits: Vec<Lit> = Vec::with_capacity(truths.len());
        for truth in truths {
            match truth {
                // `false` decides a conjunction, `true` a disjunction.
                Truth::Const(b) if b != and => return Truth::Const(b),
                Truth::Const(_) => {}
                Truth::Lit(lit) => {
                    if !lits.contains(&lit) {
                        lits.push(lit);
                    }
                }
            }
        }
        match lits.as_slice() {
            [] => return Truth::Const(and),
            [only] => return Truth::Lit(*only),
            _ => {}
        }
        // For a conjunction r <-> l1 && l2 ..: r -> li, and (l1 && l2 ..) -> r; a
        // disjunction is the same over the negations.
        let r = self.new_lit(if and { "and" } else { "or" });
        let (r_pos, flip) = if and { (r, false) } else { (!r, true) };
        let lits: Vec<Lit> = lits
            .into_iter()
            .map(|l| if flip { !l } else { l })
            .collect();
        for &l in &lits {
            self.model.clause([!r_pos, l]);
        }
        let mut back: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        back.push(r_pos);
        self.model.clause(back);
        Truth::Lit(r)
    }
}

/// Whether `e` may read the variable `var` (a boolean inside it is assumed to).
fn reads(e: &IntExpr, var: VarId) -> bool {
    match e.node() {
        IntNode::Const(_) | IntNode::Invalid(_) => false,
        IntNode::Var(arg) => match &arg.0 {
            Arg::Var { var: v, .. } => *v == var,
            Arg::Const(_) => false,
        },
        IntNode::Bool(_) => true,
        IntNode::Sum(items, _) => items.iter().any(|(_, item)| reads(item, var)),
        IntNode::Mul(a, b) | IntNode::Div(a, b) | IntNode::Rem(a, b) | IntNode::Pow(a, b) => {
            reads(a, var) || reads(b, var)
        }
        IntNode::Abs(a) => reads(a, var),
        IntNode::Min(items)
        | IntNode::Max(items)
        | IntNode::NValue(items)
        | IntNode::Among(items, _) => items.iter().any(|item| reads(item, var)),
        IntNode::Count(items, value) => {
            reads(value, var) || items.iter().any(|item| reads(item, var))
        }
        IntNode::Element { index, array, .. } => {
            reads(index, var) || array.iter().any(|item| reads(item, var))
        }
        IntNode::Element2d { row, col, table } => {
            reads(row, var) || reads(col, var) || table.iter().flatten().any(|c| reads(c, var))
        }
    }
}

/// Whether `e` is defined whatever its variables take (it has no partial function, or
/// only ones whose constant arguments are safe).
pub(crate) fn total(e: &IntExpr) -> bool {
    match e.node() {
        IntNode::Const(c) => c.is_some(),
        IntNode::Var(_) | IntNode::Bool(_) => true,
        IntNode::Sum(items, _) => items.iter().all(|(_, item)| total(item)),
        IntNode::Mul(a, b) => total(a) && total(b),
        IntNode::Abs(a) => total(a),
        IntNode::Min(items)
        | IntNode::Max(items)
        | IntNode::NValue(items)
        | IntNode::Among(items, _) => items.iter().all(total),
        IntNode::Count(items, value) => total(value) && items.iter().all(total),
        IntNode::Div(a, b) | IntNode::Rem(a, b) => {
            total(a) && matches!(b.as_const(), Some(Some(d)) if d != 0)
        }
        IntNode::Pow(a, b) => total(a) && matches!(b.as_const(), Some(Some(d)) if d >= 0),
        IntNode::Element { .. } | IntNode::Element2d { .. } | IntNode::Invalid(_) => false,
    }
}
