//! Variables' names, kept as runs: a run of default names, of one array's elements or of
//! one grid's cells is one entry, however many variables it names.

use std::sync::Arc;

use crate::var::VarId;

/// A variable's name, rendered when asked for (building a model allocates no strings for
/// unnamed variables or arrays).
#[derive(Clone, Debug)]
pub(super) enum Name {
    Default,
    Given(Arc<str>),
    Indexed(Arc<str>, u32),
    /// A cell `(row, column)` of a grid with `columns` columns.
    Cell(Arc<str>, u32, u32, u32),
}

/// The names of a run of variables declared one after another: `first`, `first + 1`, ..
/// up to the next run. A run of default names, of one array's elements or of one grid's
/// cells is one entry, however many variables it names.
#[derive(Clone, Debug)]
pub(super) struct NameRun {
    pub(super) first: u32,
    /// The name of the run's first variable; the others follow it.
    pub(super) name: Name,
}

impl NameRun {
    /// Whether variable `var` named `name` continues this run.
    pub(super) fn continues(&self, var: u32, name: &Name) -> bool {
        let k = var - self.first;
        match (&self.name, name) {
            (Name::Default, Name::Default) => true,
            (Name::Indexed(base, i), Name::Indexed(other, j)) => {
                Arc::ptr_eq(base, other) && i.checked_add(k) == Some(*j)
            }
            (Name::Cell(base, r, c, columns), Name::Cell(other, r2, c2, columns2)) => {
                let at = |r: u32, c: u32| u64::from(r) * u64::from(*columns) + u64::from(c);
                Arc::ptr_eq(base, other)
                    && columns == columns2
                    && at(*r, *c) + u64::from(k) == at(*r2, *c2)
            }
            _ => false,
        }
    }

    /// The name of the run's `k`-th variable.
    pub(super) fn render(&self, var: VarId) -> String {
        let k = var.raw() - self.first;
        match &self.name {
            Name::Default => format!("x{}", var.index()),
            Name::Given(name) => name.to_string(),
            Name::Indexed(base, i) => format!("{base}[{}]", i + k),
            Name::Cell(base, r, c, columns) => {
                let at = u64::from(*r) * u64::from(*columns) + u64::from(*c) + u64::from(k);
                let columns = u64::from((*columns).max(1));
                format!("{base}[{}][{}]", at / columns, at % columns)
            }
        }
    }
}
