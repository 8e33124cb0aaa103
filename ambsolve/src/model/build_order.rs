//! `Model` methods for order over sequences.

use std::sync::Arc;

use crate::model::Model;
use crate::model::global::{Global, IntArg, Monotone};

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
