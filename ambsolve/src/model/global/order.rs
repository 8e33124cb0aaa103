//! Order over sequences: each value at most (or at least) the next.

use crate::model::global::{Int, Meaning, vars_of};
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
