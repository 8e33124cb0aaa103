//! `Model` methods for order over sequences: monotone chains, lexicographic order,
//! equality.

use std::sync::Arc;

use crate::model::Model;
use crate::model::global::{AllEqual, Global, IntArg, Lex, Monotone};

impl<'a> Model<'a> {
    /// `items[0] <= items[1] <= ..`: each item at most the next. Items are variables with
    /// integer values or constants (see [`IntArg`]).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..4);
    /// m.increasing(&x);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 20); // multisets of 3 of 4
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn increasing<A: Into<IntArg>>(&mut self, items: impl IntoIterator<Item = A>) {
        self.monotone(items, false, false);
    }

    /// `items[0] < items[1] < ..`.
    pub fn strictly_increasing<A: Into<IntArg>>(&mut self, items: impl IntoIterator<Item = A>) {
        self.monotone(items, false, true);
    }

    /// `items[0] >= items[1] >= ..`.
    pub fn decreasing<A: Into<IntArg>>(&mut self, items: impl IntoIterator<Item = A>) {
        self.monotone(items, true, false);
    }

    /// `items[0] > items[1] > ..`.
    pub fn strictly_decreasing<A: Into<IntArg>>(&mut self, items: impl IntoIterator<Item = A>) {
        self.monotone(items, true, true);
    }

    /// `xs <= ys` lexicographically: compared item by item from the first, the first
    /// difference decides; if one sequence is a prefix of the other, the shorter is the
    /// smaller (so sequences of different lengths are allowed, as in MiniZinc). For
    /// symmetry breaking: two interchangeable rows `a` and `b` ordered by
    /// `lex_lesseq(&a, &b)`.
    ///
    /// The trail engine enforces it by bounds on the first pair of items not fixed
    /// equal, strictly when the rest of the sequences cannot be in order (the two-pointer
    /// algorithm of Frisch et al.): domain consistent when no variable repeats.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Two rows of two bits, the first no larger: 10 of the 16 pairs (6 pairs of
    /// // distinct rows, and the 4 equal ones).
    /// let mut m = Model::new();
    /// let a = m.vars("a", 2, 0..2);
    /// let b = m.vars("b", 2, 0..2);
    /// m.lex_lesseq(&a, &b);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 10);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 10);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn lex_lesseq<A: Into<IntArg>, B: Into<IntArg>>(
        &mut self,
        xs: impl IntoIterator<Item = A>,
        ys: impl IntoIterator<Item = B>,
    ) {
        self.lex(xs, ys, false);
    }

    /// `xs < ys` lexicographically (see [`lex_lesseq`](Model::lex_lesseq)): in order and
    /// not equal. A sequence is smaller than any longer one it is a prefix of.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let a = m.vars("a", 2, 0..2);
    /// let b = m.vars("b", 2, 0..2);
    /// m.lex_less(&a, &b);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn lex_less<A: Into<IntArg>, B: Into<IntArg>>(
        &mut self,
        xs: impl IntoIterator<Item = A>,
        ys: impl IntoIterator<Item = B>,
    ) {
        self.lex(xs, ys, true);
    }

    /// Every item takes the same value (no item or one: always true). The trail engine
    /// keeps in each item only the values every item can take (domain consistent).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(0..5);
    /// let y = m.var([3i64, 4, 7]);
    /// m.all_equal([&x, &y]);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2); // 3 and 4
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn all_equal<A: Into<IntArg>>(&mut self, items: impl IntoIterator<Item = A>) {
        if let Some(items) = self.ints(items) {
            self.global(Global::AllEqual(Arc::new(AllEqual::new(items))));
        }
    }

    fn lex<A: Into<IntArg>, B: Into<IntArg>>(
        &mut self,
        xs: impl IntoIterator<Item = A>,
        ys: impl IntoIterator<Item = B>,
        strict: bool,
    ) {
        let (Some(xs), Some(ys)) = (self.ints(xs), self.ints(ys)) else {
            return;
        };
        self.global(Global::Lex(Arc::new(Lex::new(xs, ys, strict))));
    }

    fn monotone<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        descending: bool,
        strict: bool,
    ) {
        if let Some(items) = self.ints(items) {
            self.global(Global::Monotone(Arc::new(Monotone::new(
                items, descending, strict,
            ))));
        }
    }
}
