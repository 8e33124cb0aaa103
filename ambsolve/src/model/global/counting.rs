//! Counting: how many items of a sequence take given values, and how many distinct
//! values a sequence takes.

use crate::model::Cmp;
use crate::model::global::{Int, Meaning, vars_of};
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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

/// `a, b, c`: how a list of arguments reads in a description.
fn describe_all(items: &[Int]) -> String {
    items
        .iter()
        .map(Int::describe)
        .collect::<Vec<_>>()
        .join(", ")
}
