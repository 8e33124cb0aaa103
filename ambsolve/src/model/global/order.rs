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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
