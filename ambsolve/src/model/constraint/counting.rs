//! Counting: how many items of a sequence take given values, and how many distinct
//! values a sequence takes.
//!
//! Its `Model` methods: counting: occurrences of values, cardinalities, distinct values.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::constraint::{Constraint, Int, IntArg, Meaning, describe_all, vars_of};
use crate::model::{Cmp, Model};
use crate::var::VarId;

/// How many of `items` lie in a set of constant values, compared with `count`:
/// `|{i : items[i] ∈ values}| cmp count`, `cmp` being `==`, `<=` or `>=`. `among`,
/// `count` with a constant value, `at_most` and `at_least`.
pub(crate) struct CountIn {
    pub(crate) items: Vec<Int>,
    /// Sorted, without repeats.
    pub(crate) values: Vec<i64>,
    pub(crate) count: Int,
    /// `Eq`, `Le` or `Ge`: the number of occurrences on the left.
    pub(crate) cmp: Cmp,
    pub(crate) vars: Vec<VarId>,
}

impl CountIn {
    pub(crate) fn new(items: Vec<Int>, mut values: Vec<i64>, count: Int, cmp: Cmp) -> Self {
        values.sort_unstable();
        values.dedup();
        let vars = vars_of(items.iter().chain([&count]));
        CountIn {
            items,
            values,
            count,
            cmp,
            vars,
        }
    }

    /// Whether `value` is one of the counted values.
    pub(crate) fn counts(&self, value: i64) -> bool {
        self.values.binary_search(&value).is_ok()
    }
}

impl Meaning for CountIn {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let occurrences = self
            .items
            .iter()
            .filter(|x| self.counts(x.value(values)))
            .count();
        self.cmp
            .holds(occurrences as i128, i128::from(self.count.value(values)))
    }

    fn describe(&self) -> String {
        format!(
            "count of [{}] in {:?} {:?} {}",
            describe_all(&self.items),
            self.values,
            self.cmp,
            self.count.describe()
        )
    }
}

/// How many of `items` equal the variable `value`, compared with `count`:
/// `|{i : items[i] = value}| cmp count` (`count` with a variable value).
pub(crate) struct CountEq {
    pub(crate) items: Vec<Int>,
    pub(crate) value: Int,
    pub(crate) count: Int,
    /// `Eq`, `Le` or `Ge`: the number of occurrences on the left.
    pub(crate) cmp: Cmp,
    pub(crate) vars: Vec<VarId>,
}

impl CountEq {
    pub(crate) fn new(items: Vec<Int>, value: Int, count: Int, cmp: Cmp) -> Self {
        let vars = vars_of(items.iter().chain([&value, &count]));
        CountEq {
            items,
            value,
            count,
            cmp,
            vars,
        }
    }
}

impl Meaning for CountEq {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let value = self.value.value(values);
        let occurrences = self
            .items
            .iter()
            .filter(|x| x.value(values) == value)
            .count();
        self.cmp
            .holds(occurrences as i128, i128::from(self.count.value(values)))
    }

    fn describe(&self) -> String {
        format!(
            "count of [{}] equal to {} {:?} {}",
            describe_all(&self.items),
            self.value.describe(),
            self.cmp,
            self.count.describe()
        )
    }
}

/// `counts[j] = |{i : items[i] = values[j]}|` for every `j` (a value listed twice has its
/// counts equal); closed: every item takes one of `values`.
pub(crate) struct Cardinality {
    pub(crate) items: Vec<Int>,
    pub(crate) values: Vec<i64>,
    pub(crate) counts: Vec<Int>,
    pub(crate) closed: bool,
    pub(crate) vars: Vec<VarId>,
}

impl Cardinality {
    pub(crate) fn new(items: Vec<Int>, values: Vec<i64>, counts: Vec<Int>, closed: bool) -> Self {
        let vars = vars_of(items.iter().chain(&counts));
        Cardinality {
            items,
            values,
            counts,
            closed,
            vars,
        }
    }
}

impl Meaning for Cardinality {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let taken: Vec<i64> = self.items.iter().map(|x| x.value(values)).collect();
        let counted = self.values.iter().zip(&self.counts).all(|(&v, count)| {
            let occurrences = taken.iter().filter(|&&x| x == v).count();
            occurrences as i128 == i128::from(count.value(values))
        });
        counted && (!self.closed || taken.iter().all(|x| self.values.contains(x)))
    }

    fn describe(&self) -> String {
        format!(
            "{} global cardinality of [{}] over {:?} counted by [{}]",
            if self.closed { "closed" } else { "open" },
            describe_all(&self.items),
            self.values,
            describe_all(&self.counts)
        )
    }
}

/// `count` is the number of distinct values among `items` (0 for no item).
pub(crate) struct NValue {
    pub(crate) count: Int,
    pub(crate) items: Vec<Int>,
    pub(crate) vars: Vec<VarId>,
}

impl NValue {
    pub(crate) fn new(count: Int, items: Vec<Int>) -> Self {
        let vars = vars_of([&count].into_iter().chain(&items));
        NValue { count, items, vars }
    }
}

impl Meaning for NValue {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let mut taken: Vec<i64> = self.items.iter().map(|x| x.value(values)).collect();
        taken.sort_unstable();
        taken.dedup();
        taken.len() as i128 == i128::from(self.count.value(values))
    }

    fn describe(&self) -> String {
        format!(
            "{} distinct values among [{}]",
            self.count.describe(),
            describe_all(&self.items)
        )
    }
}

impl<'a> Model<'a> {
    /// `count` is the number of `items` equal to `value`: `|{i : items[i] = value}| =
    /// count`. Items, the value and the count are variables with integer values or
    /// constants (see [`IntArg`]); an item may repeat (each position counts).
    ///
    /// The trail engine bounds the count by the items that surely and possibly take the
    /// value; once the count's bounds are reached it removes the value from the other
    /// items, or fixes to it every item that can take it. With a variable `value`, it
    /// keeps only the values whose count can still be met.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Three digits 0..3 holding exactly two 1s: 3 places for the other digit, 2 digits.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..3);
    /// m.count(&x, 1, 2);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 6);
    ///
    /// // A chosen value and a chosen count: c is how many of x equal v.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..2);
    /// let v = m.var(0..2);
    /// let c = m.var(0..4);
    /// m.count(&x, &v, &c);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 8 * 2); // c follows x and v
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn count<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        value: impl Into<IntArg>,
        count: impl Into<IntArg>,
    ) {
        self.occurrences(items, value.into(), count.into(), Cmp::Eq);
    }

    /// `count` is the number of `items` taking one of `values`: `|{i : items[i] ∈
    /// values}| = count` (a value listed twice counts once). Items and the count are
    /// variables with integer values or constants (see [`IntArg`]).
    ///
    /// Propagated as [`count`](Model::count) with a constant value. (The free function
    /// [`among`](crate::among) is the same constraint written on the public
    /// [`Propagator`](crate::Propagator) trait, as an example of a user's own global
    /// constraint.)
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Four digits 0..4, exactly one of them in {0, 2}: 4 places, 2 values there and
    /// // 2 elsewhere.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 4, 0..4);
    /// m.among(&x, &[0, 2], 1);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 4 * 2 * 2 * 2 * 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn among<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        values: &[i64],
        count: impl Into<IntArg>,
    ) {
        let (Some(items), Some(count)) = (self.ints(items), self.int(count)) else {
            return;
        };
        self.post(Constraint::CountIn(Arc::new(CountIn::new(
            items,
            values.to_vec(),
            count,
            Cmp::Eq,
        ))));
    }

    /// At most `k` of `items` equal `value` (MiniZinc's `at_most(k, x, v)`). A negative
    /// `k` can never hold.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..2);
    /// m.at_most(1, &x, 1); // 000, 001, 010, 100
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 4);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn at_most<A: Into<IntArg>>(
        &mut self,
        k: i64,
        items: impl IntoIterator<Item = A>,
        value: impl Into<IntArg>,
    ) {
        self.occurrences(items, value.into(), IntArg::from(k), Cmp::Le);
    }

    /// At least `k` of `items` equal `value` (MiniZinc's `at_least(k, x, v)`). A `k` of 0
    /// or less always holds.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..2);
    /// m.at_least(2, &x, 1); // 011, 101, 110, 111
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 4);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn at_least<A: Into<IntArg>>(
        &mut self,
        k: i64,
        items: impl IntoIterator<Item = A>,
        value: impl Into<IntArg>,
    ) {
        self.occurrences(items, value.into(), IntArg::from(k), Cmp::Ge);
    }

    /// `counts[j]` is the number of `items` equal to `values[j]`, for every `j`: the
    /// *global cardinality* constraint. Closed (`closed: true`), every item also takes
    /// one of `values`; open, items may take other values, which are not counted. A value
    /// listed twice has both its counts equal to its number of occurrences.
    ///
    /// The trail engine bounds each count by the items that surely and possibly take its
    /// value, and the counts together by the number of items that surely and possibly
    /// take a counted value (all of them, closed); a count's bound reached removes the
    /// value from the other items, or fixes to it every item that can take it.
    ///
    /// # Errors
    /// As many counts as values are needed: else the model becomes invalid (searches
    /// return [`SearchError::InvalidModel`](crate::SearchError::InvalidModel)).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Four items over 0..3: two 0s and one 1 (closed: the last item is a 2).
    /// let mut m = Model::new();
    /// let x = m.vars("x", 4, 0..3);
    /// m.global_cardinality(&x, &[0, 1, 2], [2, 1, 1], true);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 12); // 4! / 2!
    ///
    /// // Open, with chosen counts over values 0 and 1 only.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 2, 0..3);
    /// let c = m.vars("c", 2, 0..3);
    /// m.global_cardinality(&x, &[0, 1], &c, false);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 9); // the counts follow x
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn global_cardinality<A: Into<IntArg>, C: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        values: &[i64],
        counts: impl IntoIterator<Item = C>,
        closed: bool,
    ) {
        let (Some(items), Some(counts)) = (self.ints(items), self.ints(counts)) else {
            return;
        };
        if counts.len() != values.len() {
            self.invalid(format!(
                "global_cardinality: {} values but {} counts (one count a value)",
                values.len(),
                counts.len()
            ));
            return;
        }
        self.post(Constraint::Cardinality(Arc::new(Cardinality::new(
            items,
            values.to_vec(),
            counts,
            closed,
        ))));
    }

    /// `count` is the number of distinct values among `items` (0 when there is no item).
    ///
    /// The trail engine bounds the count below by the distinct values of the fixed items,
    /// and above by those plus the free items and by the size of the union of the
    /// domains; the bounds reached, it keeps the free items among the values already
    /// taken, or away from them, or fixes the only item that can take a value every
    /// solution needs.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Three items over 0..3 taking exactly two distinct values: 3 × 3 × 2 ways.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..3);
    /// m.nvalue(2, &x);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 18);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 18);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn nvalue<A: Into<IntArg>>(
        &mut self,
        count: impl Into<IntArg>,
        items: impl IntoIterator<Item = A>,
    ) {
        let (Some(count), Some(items)) = (self.int(count), self.ints(items)) else {
            return;
        };
        self.post(Constraint::NValue(Arc::new(NValue::new(count, items))));
    }

    /// `|{i : items[i] = value}| cmp count`.
    fn occurrences<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        value: IntArg,
        count: IntArg,
        cmp: Cmp,
    ) {
        let (Some(items), Some(value), Some(count)) =
            (self.ints(items), self.int(value), self.int(count))
        else {
            return;
        };
        let global = match value {
            Int::Const(v) => {
                Constraint::CountIn(Arc::new(CountIn::new(items, vec![v], count, cmp)))
            }
            value => Constraint::CountEq(Arc::new(CountEq::new(items, value, count, cmp))),
        };
        self.post(global);
    }
}
