//! `Model` methods for logic: clauses, parity, and linear constraints tied to literals.

use std::sync::Arc;

use crate::model::global::{Arg, Clause, Global, Int, IntArg, LinearReif, Lit, Reification, Xor};
use crate::model::{Cmp, Constraint, Model, Term};

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
            self.global(Global::Clause(Arc::new(Clause::new(lits))));
        }
    }

    /// An odd number of `lits` are true (`a ^ b ^ c`). `bool_xor(a, b, r)` of FlatZinc,
    /// `r == a ^ b`, is `xor([a, b, !r])`.
    pub fn xor<L: Into<Lit>>(&mut self, lits: impl IntoIterator<Item = L>) {
        if let Some(lits) = self.lits(lits) {
            self.global(Global::Xor(Arc::new(Xor::new(lits))));
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
            self.global(Global::LinearReif(Arc::new(LinearReif::new(
                def,
                lit,
                reification,
            ))));
        }
    }

    // ---- what the kinds of `global/` share ----

    /// Adds a constraint of one of the kinds of `global/`.
    pub(crate) fn global(&mut self, global: Global) {
        self.constraints.push(Constraint::Global(global));
    }

    /// `lit`, if it is a literal this model can use; else the model remembers why not.
    pub(crate) fn lit(&mut self, lit: Lit) -> Option<Lit> {
        if !self.declared(lit.model, lit.var) || !self.known(&[lit.var]) {
            return None;
        }
        if lit.repeated {
            let name = self.name(lit.var);
            self.fail(format!(
                "{name} is used as a literal but lists false or true twice, or takes an integer other than 0 and 1"
            ));
            return None;
        }
        Some(lit)
    }

    /// Every literal of `lits`, if the model can use them all.
    pub(crate) fn lits<L: Into<Lit>>(
        &mut self,
        lits: impl IntoIterator<Item = L>,
    ) -> Option<Vec<Lit>> {
        lits.into_iter()
            .map(|l| self.lit(l.into()))
            .collect::<Option<Vec<Lit>>>()
    }

    /// `arg` as the model uses it, if it can; else the model remembers why not.
    pub(crate) fn int(&mut self, arg: impl Into<IntArg>) -> Option<Int> {
        match arg.into().0 {
            Arg::Const(c) => Some(Int::Const(c)),
            Arg::Var { var, model, images } => {
                if !self.declared(model, var) || !self.known(&[var]) {
                    return None;
                }
                match images {
                    Ok(images) => Some(Int::Var { var, images }),
                    Err(at) => {
                        self.out_of_range(var, at);
                        None
                    }
                }
            }
        }
    }

    /// Every argument of `args`, if the model can use them all.
    pub(crate) fn ints<A: Into<IntArg>>(
        &mut self,
        args: impl IntoIterator<Item = A>,
    ) -> Option<Vec<Int>> {
        args.into_iter()
            .map(|a| self.int(a))
            .collect::<Option<Vec<Int>>>()
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
