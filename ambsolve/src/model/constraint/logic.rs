//! Logic over constraints: clauses, parity, and linear constraints tied to a literal
//! (reified: the literal says whether the constraint holds; half-reified: the literal
//! true implies it).
//!
//! Its `Model` methods: logic: clauses, parity, and linear constraints tied to literals.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::constraint::{Constraint, LinearDef, Lit, Meaning};
use crate::model::{Cmp, Model, Term};
use crate::var::VarId;

/// At least one literal is true (`b1 || !b2 || b3`). With no literal it never holds.
pub(crate) struct Clause {
    pub(crate) lits: Vec<Lit>,
    pub(crate) vars: Vec<VarId>,
}

impl Clause {
    pub(crate) fn new(lits: Vec<Lit>) -> Self {
        let vars = lits.iter().map(|l| l.var).collect();
        Clause { lits, vars }
    }
}

impl Meaning for Clause {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.lits.iter().any(|l| l.truth(values[l.var.index()]))
    }

    fn describe(&self) -> String {
        format!("clause of {} literals {:?}", self.lits.len(), self.lits)
    }
}

/// An odd number of the literals are true.
pub(crate) struct Xor {
    pub(crate) lits: Vec<Lit>,
    pub(crate) vars: Vec<VarId>,
}

impl Xor {
    pub(crate) fn new(lits: Vec<Lit>) -> Self {
        let vars = lits.iter().map(|l| l.var).collect();
        Xor { lits, vars }
    }
}

impl Meaning for Xor {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.lits
            .iter()
            .filter(|l| l.truth(values[l.var.index()]))
            .count()
            % 2
            == 1
    }

    fn describe(&self) -> String {
        format!("xor of {} literals {:?}", self.lits.len(), self.lits)
    }
}

/// How a literal is tied to a constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Reification {
    /// The literal is true exactly when the constraint holds.
    Full,
    /// The literal true implies the constraint (false says nothing).
    Half,
}

/// A linear constraint tied to a literal.
pub(crate) struct LinearReif {
    pub(crate) linear: LinearDef,
    pub(crate) lit: Lit,
    pub(crate) reification: Reification,
    /// The linear constraint's variables, then the literal's.
    pub(crate) vars: Vec<VarId>,
}

impl LinearReif {
    pub(crate) fn new(linear: LinearDef, lit: Lit, reification: Reification) -> Self {
        let mut vars: Vec<VarId> = linear.terms.iter().map(|t| t.0).collect();
        vars.push(lit.var);
        LinearReif {
            linear,
            lit,
            reification,
            vars,
        }
    }
}

impl Meaning for LinearReif {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let lit = self.lit.truth(values[self.lit.var.index()]);
        let linear = self
            .linear
            .cmp
            .holds(self.linear.sum(values), i128::from(self.linear.rhs));
        match self.reification {
            Reification::Full => lit == linear,
            Reification::Half => !lit || linear,
        }
    }

    fn describe(&self) -> String {
        let terms: Vec<(VarId, i64)> = self.linear.terms.iter().map(|t| (t.0, t.1)).collect();
        format!(
            "{:?}-reified linear {terms:?} {:?} {} by {:?}",
            self.reification, self.linear.cmp, self.linear.rhs, self.lit
        )
    }
}

impl<'a> Model<'a> {
    /// At least one of `lits` is true: the clause `l1 || l2 || ..`. Literals are boolean
    /// variables or their negations (see [`Lit`]). A clause of no literal can never hold:
    /// the model then has no solution.
    ///
    /// ```
    /// use ambsolve::{Engine, Lit, Model};
    ///
    /// // Exactly one of three: at least one, and no two.
    /// let mut m = Model::new();
    /// let b: Vec<_> = (0..3).map(|_| m.var([false, true])).collect();
    /// let lit = |v: &ambsolve::Var<bool>| Lit::from(v);
    /// m.clause(b.iter().map(lit));
    /// for i in 0..3 {
    ///     for j in i + 1..3 {
    ///         m.clause([!lit(&b[i]), !lit(&b[j])]);
    ///     }
    /// }
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 3);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn clause<L: Into<Lit>>(&mut self, lits: impl IntoIterator<Item = L>) {
        if let Some(lits) = self.lits(lits) {
            self.post(Constraint::Clause(Arc::new(Clause::new(lits))));
        }
    }

    /// An odd number of `lits` are true (`a ^ b ^ c`). `bool_xor(a, b, r)` of FlatZinc,
    /// `r == a ^ b`, is `xor([a, b, !r])`.
    pub fn xor<L: Into<Lit>>(&mut self, lits: impl IntoIterator<Item = L>) {
        if let Some(lits) = self.lits(lits) {
            self.post(Constraint::Xor(Arc::new(Xor::new(lits))));
        }
    }

    /// `lit` is true exactly when `Σ coefficient × variable cmp rhs` holds (a *reified*
    /// linear constraint). Terms are as for [`linear`](Model::linear).
    ///
    /// The trail engine enforces the sum once `lit` is fixed (true: the constraint; false:
    /// its negation) and fixes `lit` once the sum's bounds decide it, so a disjunction of
    /// linear constraints, `clause([b1, b2])` over two reified ones, prunes as soon as one
    /// side cannot hold.
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, Lit, Model};
    ///
    /// // Two jobs of lengths 3 and 2 on one machine: one before the other.
    /// let mut m = Model::new();
    /// let s = [m.var(0..5), m.var(0..5)];
    /// let before = m.var([false, true]);
    /// let after = m.var([false, true]);
    /// m.linear_reified([(1, &s[0]), (-1, &s[1])], Cmp::Le, -3, &before); // s0 + 3 <= s1
    /// m.linear_reified([(1, &s[1]), (-1, &s[0])], Cmp::Le, -2, &after); // s1 + 2 <= s0
    /// m.clause([Lit::from(&before), Lit::from(&after)]);
    /// let n = m.solve(Engine::Trail).count()?.solutions;
    /// assert_eq!(n, m.solve(Engine::Replay).count()?.solutions);
    /// assert_eq!(n, 3 + 6); // s0 + 3 <= s1 <= 4: 3 ways; s1 + 2 <= s0 <= 4: 6 ways
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn linear_reified<X: Into<Term>>(
        &mut self,
        terms: impl IntoIterator<Item = X>,
        cmp: Cmp,
        rhs: i64,
        lit: impl Into<Lit>,
    ) {
        self.linear_tied(terms, cmp, rhs, lit.into(), Reification::Full);
    }

    /// `lit` true implies `Σ coefficient × variable cmp rhs` (a *half-reified* linear
    /// constraint: `lit` false says nothing about the sum).
    pub fn linear_implied<X: Into<Term>>(
        &mut self,
        terms: impl IntoIterator<Item = X>,
        cmp: Cmp,
        rhs: i64,
        lit: impl Into<Lit>,
    ) {
        self.linear_tied(terms, cmp, rhs, lit.into(), Reification::Half);
    }

    fn linear_tied<X: Into<Term>>(
        &mut self,
        terms: impl IntoIterator<Item = X>,
        cmp: Cmp,
        rhs: i64,
        lit: Lit,
        reification: Reification,
    ) {
        let Some(lit) = self.lit(lit) else {
            return;
        };
        if let Some(def) = self.linear_def(terms, cmp, rhs, 1) {
            self.post(Constraint::LinearReif(Arc::new(LinearReif::new(
                def,
                lit,
                reification,
            ))));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Lit, Model};

    #[test]
    fn a_literal_over_other_values_or_a_repeated_one_makes_the_model_invalid() {
        let mut m = Model::new();
        let wide = m.var(0..3i64);
        m.clause([Lit::from(&wide)]);
        assert!(m.error().is_some_and(|e| e.contains("literal")));
        let mut m = Model::new();
        let twice = m.var([true, false, true]);
        m.clause([Lit::from(&twice)]);
        assert!(m.error().is_some_and(|e| e.contains("literal")));
        let mut other = Model::new();
        let b = other.var([false, true]);
        let mut m = Model::new();
        m.var([false, true]);
        m.clause([Lit::from(&b)]);
        assert!(m.error().is_some_and(|e| e.contains("another model")));
        let mut m = Model::new();
        let one = m.var([1u8]);
        m.clause([Lit::from(&one)]);
        assert_eq!(m.error(), None);
    }
}
