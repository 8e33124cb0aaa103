//! Order over sequences: each value at most (or at least) the next.
//!
//! Its `Model` methods: order over sequences: monotone chains, lexicographic order,
//! equality.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{Constraint, Int, IntArg, Meaning, vars_of};
use crate::var::VarId;

/// `x[0] <= x[1] <= ..` (or `>=`, or strictly, as its fields say).
pub(crate) struct Monotone {
    pub(crate) items: Vec<Int>,
    pub(crate) descending: bool,
    pub(crate) strict: bool,
    pub(crate) vars: Vec<VarId>,
}

impl Monotone {
    pub(crate) fn new(items: Vec<Int>, descending: bool, strict: bool) -> Self {
        let vars = vars_of(&items);
        Monotone {
            items,
            descending,
            strict,
            vars,
        }
    }

    /// Whether `a` may stand right before `b`.
    pub(crate) fn in_order(&self, a: i64, b: i64) -> bool {
        match (self.descending, self.strict) {
            (false, false) => a <= b,
            (false, true) => a < b,
            (true, false) => a >= b,
            (true, true) => a > b,
        }
    }
}

impl Meaning for Monotone {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.items
            .windows(2)
            .all(|w| self.in_order(w[0].value(values), w[1].value(values)))
    }

    fn describe(&self) -> String {
        let items: Vec<String> = self.items.iter().map(Int::describe).collect();
        let word = match (self.descending, self.strict) {
            (false, false) => "increasing",
            (false, true) => "strictly increasing",
            (true, false) => "decreasing",
            (true, true) => "strictly decreasing",
        };
        format!("{word} [{}]", items.join(", "))
    }
}

/// `xs <= ys` (or `<` if strict) lexicographically: compared item by item from the first,
/// the first difference decides; when one is a prefix of the other, the shorter is the
/// smaller (as MiniZinc's `lex_lesseq` and `lex_less`).
pub(crate) struct Lex {
    pub(crate) xs: Vec<Int>,
    pub(crate) ys: Vec<Int>,
    pub(crate) strict: bool,
    pub(crate) vars: Vec<VarId>,
}

impl Lex {
    pub(crate) fn new(xs: Vec<Int>, ys: Vec<Int>, strict: bool) -> Self {
        let vars = vars_of(xs.iter().chain(&ys));
        Lex {
            xs,
            ys,
            strict,
            vars,
        }
    }

    /// Whether two sequences equal up to the shorter one's length are in order: the
    /// first no longer than the second (strictly shorter if strict).
    pub(crate) fn prefix_in_order(&self) -> bool {
        if self.strict {
            self.xs.len() < self.ys.len()
        } else {
            self.xs.len() <= self.ys.len()
        }
    }
}

impl Meaning for Lex {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        for (x, y) in self.xs.iter().zip(&self.ys) {
            let (x, y) = (x.value(values), y.value(values));
            if x != y {
                return x < y;
            }
        }
        self.prefix_in_order()
    }

    fn describe(&self) -> String {
        let all = |items: &[Int]| items.iter().map(Int::describe).collect::<Vec<_>>();
        format!(
            "[{}] lexicographically {} [{}]",
            all(&self.xs).join(", "),
            if self.strict { "<" } else { "<=" },
            all(&self.ys).join(", ")
        )
    }
}

/// Every item takes the same value.
pub(crate) struct AllEqual {
    pub(crate) items: Vec<Int>,
    pub(crate) vars: Vec<VarId>,
}

impl AllEqual {
    pub(crate) fn new(items: Vec<Int>) -> Self {
        let vars = vars_of(&items);
        AllEqual { items, vars }
    }
}

impl Meaning for AllEqual {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.items
            .windows(2)
            .all(|w| w[0].value(values) == w[1].value(values))
    }

    fn describe(&self) -> String {
        let items: Vec<String> = self.items.iter().map(Int::describe).collect();
        format!("all equal [{}]", items.join(", "))
    }
}

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
            self.post(Constraint::AllEqual(Arc::new(AllEqual::new(items))));
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
        self.post(Constraint::Lex(Arc::new(Lex::new(xs, ys, strict))));
    }

    fn monotone<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        descending: bool,
        strict: bool,
    ) {
        if let Some(items) = self.ints(items) {
            self.post(Constraint::Monotone(Arc::new(Monotone::new(
                items, descending, strict,
            ))));
        }
    }
}
