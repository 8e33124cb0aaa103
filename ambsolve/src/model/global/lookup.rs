//! Lookups with chosen indices (element constraints): `result = array[index]` and
//! `result = table[row][col]`, over constants and variables; an index outside the array
//! makes the constraint false.

use std::sync::Arc;

use crate::model::global::{Int, Meaning, vars_of};
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
