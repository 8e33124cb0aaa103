//! Value precedence: interchangeable values taken in order of first use (MiniZinc's
//! `value_precede` and `value_precede_chain`), to break the symmetry between them.
//!
//! Its `Model` methods: value precedence, of two values or a chain.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{Constraint, Int, IntArg, Meaning, describe_all, vars_of};
use crate::var::VarId;

/// For each two consecutive values `s = values[k]`, `t = values[k + 1]`: an item equal to
/// `t` has an item equal to `s` before it.
pub(crate) struct ValuePrecede {
    pub(crate) values: Vec<i64>,
    pub(crate) items: Vec<Int>,
    pub(crate) vars: Vec<VarId>,
}

impl ValuePrecede {
    pub(crate) fn new(values: Vec<i64>, items: Vec<Int>) -> Self {
        let vars = vars_of(&items);
        ValuePrecede {
            values,
            items,
            vars,
        }
    }
}

impl Meaning for ValuePrecede {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let taken: Vec<i64> = self.items.iter().map(|x| x.value(values)).collect();
        self.values.windows(2).all(|pair| {
            let (s, t) = (pair[0], pair[1]);
            let first_s = taken.iter().position(|&v| v == s);
            let first_t = taken.iter().position(|&v| v == t);
            match (first_s, first_t) {
                (_, None) => true,
                (Some(s), Some(t)) => s < t,
                (None, Some(_)) => false,
            }
        })
    }

    fn describe(&self) -> String {
        format!(
            "values {:?} in order of first use among [{}]",
            self.values,
            describe_all(&self.items)
        )
    }
}

impl<'a> Model<'a> {
    /// Value `s` is used before value `t`: an item equal to `t` has an item equal to `s`
    /// before it (MiniZinc's `value_precede`). See
    /// [`value_precede_chain`](Model::value_precede_chain).
    pub fn value_precede<A: Into<IntArg>>(
        &mut self,
        s: i64,
        t: i64,
        items: impl IntoIterator<Item = A>,
    ) {
        self.value_precede_chain([s, t], items);
    }

    /// The `values` are used in their order: an item equal to `values[k + 1]` has an item
    /// equal to `values[k]` before it (MiniZinc's `value_precede_chain`). Where values
    /// are interchangeable (colours, bins, groups), this keeps one solution of each class
    /// that renames them: the first item takes the first value, the next new value is the
    /// second, and so on. The values are constants, the items variables or constants.
    ///
    /// The trail engine removes a value from the items before the first that may take the
    /// value it follows (and from that one), and fixes the one item left that can take the
    /// value before an item fixed to its successor.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Three items coloured 0, 1 or 2, the colours interchangeable: of the 27
    /// // colourings, 5 are left, one per partition of the items.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..3i64);
    /// m.value_precede_chain([0, 1, 2], &x);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 5);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 5);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn value_precede_chain<V: Into<IntArg>, A: Into<IntArg>>(
        &mut self,
        values: impl IntoIterator<Item = V>,
        items: impl IntoIterator<Item = A>,
    ) {
        let (Some(values), Some(items)) = (self.ints(values), self.ints(items)) else {
            return;
        };
        let mut constants = Vec::with_capacity(values.len());
        for value in values {
            match value {
                Int::Const(c) => constants.push(c),
                Int::Var { .. } => {
                    self.invalid("value_precede_chain: the values are constants".to_string());
                    return;
                }
            }
        }
        if constants.len() >= 2 {
            self.post(Constraint::ValuePrecede(Arc::new(ValuePrecede::new(
                constants, items,
            ))));
        }
    }
}
