//! Lookups with chosen indices (element constraints): `result = array[index]` and
//! `result = table[row][col]`, over constants and variables; an index outside the array
//! makes the constraint false.
//!
//! Its `Model` methods: lookups with chosen indices (element constraints).

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{Constraint, Int, IntArg, Meaning, vars_of};
use crate::var::VarId;

/// `result = table[row - row_offset][col - col_offset]`, false when the position is
/// outside the table (whose rows may differ in length). A one-dimensional element is the
/// table of one row, read at the constant row 0.
pub(crate) struct Element {
    pub(crate) row: Int,
    pub(crate) row_offset: i64,
    pub(crate) col: Int,
    pub(crate) col_offset: i64,
    pub(crate) table: Vec<Vec<Int>>,
    pub(crate) result: Int,
    /// Whether it was posted as a two-dimensional lookup (for its description).
    pub(crate) two_d: bool,
    pub(crate) vars: Vec<VarId>,
}

impl Element {
    pub(crate) fn new(
        (row, row_offset): (Int, i64),
        (col, col_offset): (Int, i64),
        table: Vec<Vec<Int>>,
        result: Int,
        two_d: bool,
    ) -> Self {
        let vars = vars_of(
            [&row, &col]
                .into_iter()
                .chain(table.iter().flatten())
                .chain([&result]),
        );
        Element {
            row,
            row_offset,
            col,
            col_offset,
            table,
            result,
            two_d,
            vars,
        }
    }

    /// The entry at `row`, `col` (values, before the offsets), if there is one.
    pub(crate) fn entry(&self, row: i64, col: i64) -> Option<&Int> {
        let at =
            |value: i64, offset: i64| usize::try_from(i128::from(value) - i128::from(offset)).ok();
        self.table
            .get(at(row, self.row_offset)?)?
            .get(at(col, self.col_offset)?)
    }
}

impl Meaning for Element {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.entry(self.row.value(values), self.col.value(values))
            .is_some_and(|entry| entry.value(values) == self.result.value(values))
    }

    fn describe(&self) -> String {
        let row = |r: &Vec<Int>| {
            let items: Vec<String> = r.iter().map(Int::describe).collect();
            format!("[{}]", items.join(", "))
        };
        if self.two_d {
            let rows: Vec<String> = self.table.iter().map(row).collect();
            format!(
                "element2d({} - {}, {} - {}, [{}], {})",
                self.row.describe(),
                self.row_offset,
                self.col.describe(),
                self.col_offset,
                rows.join(", "),
                self.result.describe()
            )
        } else {
            format!(
                "element({} - {}, {}, {})",
                self.col.describe(),
                self.col_offset,
                self.table.first().map_or_else(|| "[]".to_string(), row),
                self.result.describe()
            )
        }
    }
}

/// `result = entries[i]` when `index` takes value index `i`, false where that entry is
/// `None`: a constant array read at a chosen index, each of the index's values mapped to
/// its entry once, when the constraint is posted.
pub(crate) struct ElementConst {
    pub(crate) index: VarId,
    pub(crate) entries: Arc<[Option<i64>]>,
    pub(crate) result: Int,
    pub(crate) vars: Vec<VarId>,
}

impl ElementConst {
    pub(crate) fn new(index: VarId, entries: Arc<[Option<i64>]>, result: Int) -> Self {
        let mut vars = vec![index];
        vars.extend(result.var());
        ElementConst {
            index,
            entries,
            result,
            vars,
        }
    }
}

impl Meaning for ElementConst {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.entries[values[self.index.index()] as usize] == Some(self.result.value(values))
    }

    fn describe(&self) -> String {
        let entries: Vec<String> = self
            .entries
            .iter()
            .map(|e| e.map_or_else(|| "-".to_string(), |e| e.to_string()))
            .collect();
        format!(
            "element of {:?} by value index [{}] = {}",
            self.index,
            entries.join(", "),
            self.result.describe()
        )
    }
}

impl<'a> Model<'a> {
    /// `result == array[index]`, indices from 0; an index outside the array makes the
    /// constraint false. The array's entries are constants or variables, mixed (see
    /// [`IntArg`]); so are `index` and `result`.
    ///
    /// Over constants (a chosen index into a fixed array) the trail engine keeps exactly
    /// the values of `index` and `result` that some entry supports (domain consistency).
    /// Over variables it keeps the indices whose entry can still equal `result`, narrows
    /// `result` to what those entries can take, and once the index is known makes its
    /// entry and `result` equal.
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, IntArg, Model};
    ///
    /// let mut m = Model::new();
    /// let i = m.var(0..6i64); // 5 is past the end: never chosen
    /// let price = m.var(0..10i64);
    /// m.element(&i, [3i64, 1, 4, 1, 5], &price);
    /// m.linear([(1, &price)], Cmp::Eq, 1);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2); // i = 1 or 3
    ///
    /// // Constants and variables mixed: [a, 2][j] == 2.
    /// let mut m = Model::new();
    /// let a = m.var(0..3i64);
    /// let j = m.var(0..2i64);
    /// m.element(&j, [IntArg::from(&a), IntArg::from(2)], 2);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 4); // j = 0, a = 2; j = 1, any a
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 4);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn element<A: Into<IntArg>>(
        &mut self,
        index: impl Into<IntArg>,
        array: impl IntoIterator<Item = A>,
        result: impl Into<IntArg>,
    ) {
        self.element_offset(index, 0, array, result);
    }

    /// `result == array[index - offset]`: as [`element`](Model::element), the array
    /// numbered from `offset` (FlatZinc's `array_int_element` and
    /// `array_var_int_element` number from 1).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let i = m.var(0..=4i64);
    /// m.element_offset(&i, 1, [10i64, 20, 30], 20); // array[1] is 10
    /// let only = m.solve(Engine::Trail).first()?.unwrap();
    /// assert_eq!(*only.value(&i), 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn element_offset<A: Into<IntArg>>(
        &mut self,
        index: impl Into<IntArg>,
        offset: i64,
        array: impl IntoIterator<Item = A>,
        result: impl Into<IntArg>,
    ) {
        let (Some(index), Some(array), Some(result)) =
            (self.int(index), self.ints(array), self.int(result))
        else {
            return;
        };
        if let Int::Var { var, images } = &index {
            let constants: Option<Vec<i64>> = array
                .iter()
                .map(|entry| match entry {
                    Int::Const(c) => Some(*c),
                    Int::Var { .. } => None,
                })
                .collect();
            if let Some(constants) = constants {
                let entries = images
                    .iter()
                    .map(|v| {
                        let at = usize::try_from(i128::from(v) - i128::from(offset)).ok()?;
                        constants.get(at).copied()
                    })
                    .collect();
                return self.element_entries(*var, entries, result);
            }
        }
        let element = Element::new(
            (Int::Const(0), 0),
            (index, offset),
            vec![array],
            result,
            false,
        );
        self.post(Constraint::Element(Arc::new(element)));
    }

    /// `result == table[row][col]`, rows and columns numbered from 0; a position outside
    /// the table (rows may differ in length) makes the constraint false. Entries are
    /// constants or variables, mixed. The trail engine keeps the rows, columns and
    /// results some entry supports (domain consistency over a constant table), and once
    /// the position is known makes its entry and `result` equal.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // A city pair at distance 2 (the table holds no diagonal of zeros).
    /// let dist = [[0i64, 2, 9], [2, 0, 4], [9, 4, 0]];
    /// let mut m = Model::new();
    /// let from = m.var(0..3i64);
    /// let to = m.var(0..3i64);
    /// m.element2d(&from, &to, dist, 2);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2); // (0, 1) and (1, 0)
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn element2d<A: Into<IntArg>, R: IntoIterator<Item = A>>(
        &mut self,
        row: impl Into<IntArg>,
        col: impl Into<IntArg>,
        table: impl IntoIterator<Item = R>,
        result: impl Into<IntArg>,
    ) {
        let (Some(row), Some(col)) = (self.int(row), self.int(col)) else {
            return;
        };
        let Some(table) = table
            .into_iter()
            .map(|r| self.ints(r))
            .collect::<Option<Vec<Vec<Int>>>>()
        else {
            return;
        };
        let Some(result) = self.int(result) else {
            return;
        };
        let element = Element::new((row, 0), (col, 0), table, result, true);
        self.post(Constraint::Element(Arc::new(element)));
    }

    /// `result == entries[i]` when `index` takes its value index `i` (`None`: that value
    /// is ruled out): a constant array read at a chosen index, with each of the index's
    /// values already mapped to its entry. `element` over constants comes here, and so
    /// does `constraints!`'s `table[x]`, whatever the type of `x`'s values.
    pub(crate) fn element_entries(&mut self, index: VarId, entries: Vec<Option<i64>>, result: Int) {
        if !self.known(&[index]) {
            return;
        }
        if entries.len() != self.universes[index.index()] as usize {
            return self.invalid(format!(
                "element over {}: {} entries for {} values",
                self.name(index),
                entries.len(),
                self.universes[index.index()]
            ));
        }
        // A result over millions of values (a range, an unbounded `var int`) stands behind
        // an alias over the entries: the propagator's tables are as long as the entries.
        let result = self.listed_if_wide(result, |_| {
            let mut values: Vec<i64> = entries.iter().flatten().copied().collect();
            values.sort_unstable();
            values.dedup();
            values
        });
        let element = ElementConst::new(index, entries.into(), result);
        self.post(Constraint::ElementConst(Arc::new(element)));
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};

    #[test]
    fn another_models_variable_anywhere_makes_the_model_invalid() {
        let mut other = Model::new();
        let foreign = other.var(0..3i64);
        let mut m = Model::new();
        let i = m.var(0..3i64);
        m.element(&i, [IntArg::from(1), IntArg::from(&foreign)], 1);
        assert!(m.error().is_some_and(|e| e.contains("another model")));
        let mut m = Model::new();
        let i = m.var(0..3i64);
        m.element2d(&i, 0, [[1i64, 2]], &foreign);
        assert!(m.error().is_some_and(|e| e.contains("another model")));
    }
}
