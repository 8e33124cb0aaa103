//! `result = table[row][col]` over entries that are constants or variables: every
//! position left is read; it stays while its entry can still equal `result` (their
//! values meet: exactly when the entry is a constant or has few values, by bounds
//! otherwise); `result` keeps what the positions left can give; once one entry is left,
//! it and `result` are made equal. Domain consistent on the indices and `result` over a
//! constant table. In a search that learns, below the root, an entry variable and `result`
//! meet, and keep each other's values, by their bounds alone (see [`domain_pass`]).
//!
//! Over one row (`result = a[i]`, as FlatZinc's `array_var_int_element`) it explains what
//! it prunes (a search that learns): an index value by its entry's bounds and `result`'s
//! apart (or a constant the other lacks); `result`'s ends and values by what every
//! index value left gives; the one entry left, by the index fixed and `result`.

use crate::choice::Fail;
use crate::model::Element;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::arith::pairs::{
    Members, entries_into, keep_marked, keep_members_of, keep_values_of_in,
};
use crate::propagators::domain_pass;
use crate::propagators::view::{Change, IntView};
use crate::store::{Atoms, Pred, Store};
use crate::var::VarId;

/// An entry variable with at most this many values left is checked value by value
/// against `result`.
const SMALL: u32 = 256;

pub(crate) struct ElementProp {
    row: IntView,
    row_offset: i128,
    col: IntView,
    col_offset: i128,
    table: Vec<Vec<IntView>>,
    result: IntView,
    scope: Vec<VarId>,
    /// Buffers kept between calls: the rows and columns left, which of them an entry
    /// supports, the positions `(row, column)` of the entries left, and values.
    rows: Vec<(u32, i64)>,
    cols: Vec<(u32, i64)>,
    row_ok: Vec<bool>,
    col_ok: Vec<bool>,
    alive: Vec<(usize, usize)>,
    members: Vec<i64>,
    values: Vec<i64>,
}

impl ElementProp {
    pub(crate) fn new(def: &Element) -> Self {
        ElementProp {
            row: IntView::new(&def.row),
            row_offset: i128::from(def.row_offset),
            col: IntView::new(&def.col),
            col_offset: i128::from(def.col_offset),
            table: def
                .table
                .iter()
                .map(|r| r.iter().map(IntView::new).collect())
                .collect(),
            result: IntView::new(&def.result),
            scope: def.vars.clone(),
            rows: Vec::new(),
            cols: Vec::new(),
            row_ok: Vec::new(),
            col_ok: Vec::new(),
            alive: Vec::new(),
            members: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The entry at the row and column values `r` and `c`, if there is one.
    fn entry(&self, r: i64, c: i64) -> Option<&IntView> {
        let (row, col) = self.position(r, c)?;
        Some(&self.table[row][col])
    }

    /// The position in the table of the row and column values `r` and `c`, if the table
    /// has one there.
    fn position(&self, r: i64, c: i64) -> Option<(usize, usize)> {
        let at = |v: i64, offset: i128| usize::try_from(i128::from(v) - offset).ok();
        let row = at(r, self.row_offset)?;
        let col = at(c, self.col_offset)?;
        (col < self.table.get(row)?.len()).then_some((row, col))
    }
}

/// Whether `entry` and `result` may still be equal: by their values where one is a
/// constant; else by their bounds, and by their values too where the entry has few and
/// `values` (see [`domain_pass`]).
fn meets(
    entry: &IntView,
    result: &IntView,
    members: &Members<'_>,
    store: &Store,
    values: bool,
) -> Result<bool, Fail> {
    if let IntView::Const(c) = entry {
        return Ok(members.contains(store, i128::from(*c)));
    }
    if entry.var() == result.var() {
        return Ok(true);
    }
    if let IntView::Const(c) = result {
        return Ok(entry.contains(store, i128::from(*c)));
    }
    if entry.max(store)? < result.min(store)? || entry.min(store)? > result.max(store)? {
        return Ok(false);
    }
    if !values || entry.size(store) > SMALL {
        return Ok(true);
    }
    Ok(entry
        .values(store)
        .any(|v| members.contains(store, i128::from(v))))
}

/// Explanations (a search that learns), over one row: `result = a[i]`.
impl ElementProp {
    /// The most index values an explanation lists one by one.
    const EXPLAINED_POSITIONS: u32 = 256;

    /// The entry at value index `u` of the index's variable (`None` outside the row).
    fn entry_at(&self, u: u32) -> Option<&IntView> {
        let position = usize::try_from(self.col.image(u) - self.col_offset).ok()?;
        self.table[0].get(position)
    }

    /// Appends why `entry` and `result` could not be equal before `at`: their bounds
    /// apart, or a constant the other lacked. `None`, a place outside the row, is never
    /// a solution.
    fn explain_apart(
        &self,
        entry: Option<&IntView>,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
    ) -> bool {
        let Some(entry) = entry else {
            return true;
        };
        if entry.var().is_some() && entry.var() == self.result.var() {
            return false;
        }
        if let IntView::Const(c) = entry {
            return self.result.explain_lacks(atoms, at, i128::from(*c), out);
        }
        if let IntView::Const(c) = &self.result {
            return entry.explain_lacks(atoms, at, i128::from(*c), out);
        }
        let (el, eh) = entry.bounds_before(atoms, at);
        let (rl, rh) = self.result.bounds_before(atoms, at);
        if eh < rl {
            entry.explain_within(i128::MIN, rl - 1, out);
            self.result.explain_within(rl, i128::MAX, out);
        } else if el > rh {
            entry.explain_within(rh + 1, i128::MAX, out);
            self.result.explain_within(i128::MIN, rh, out);
        } else {
            return false;
        }
        true
    }

    /// Appends the index's domain before `at` as far as `ok` needs it: its ends, and
    /// each value between them gone, or else its entry `ok` (which appends why).
    fn explain_positions(
        &self,
        atoms: &Atoms,
        at: u32,
        out: &mut Vec<Pred>,
        ok: impl Fn(Option<&IntView>, &mut Vec<Pred>) -> bool,
    ) -> bool {
        let Some(var) = self.col.var() else {
            return false;
        };
        let (low, high) = atoms.ends_before(var, at);
        if high - low > Self::EXPLAINED_POSITIONS {
            return false;
        }
        out.push(Pred::ge(var, low));
        out.push(Pred::le(var, high));
        let mut gone = Vec::new();
        for u in low..=high {
            if atoms.absent_before(var, u, at) {
                gone.push(u);
            } else if !ok(self.entry_at(u), out) {
                return false;
            }
        }
        atoms.explain_gone(var, at, gone.into_iter(), out);
        true
    }

    /// Appends why `change` holds of `result`: every entry the index still reached gave
    /// it.
    fn explain_result(&self, change: Change, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        self.explain_positions(atoms, at, out, |entry, out| {
            let Some(entry) = entry else {
                return true;
            };
            let (el, eh) = entry.bounds_before(atoms, at);
            match change {
                Change::AtLeast(least) if el >= least => {
                    entry.explain_within(least, i128::MAX, out);
                    true
                }
                Change::AtMost(most) if eh <= most => {
                    entry.explain_within(i128::MIN, most, out);
                    true
                }
                Change::Lacks(value) => entry.explain_lacks(atoms, at, value, out),
                _ => false,
            }
        })
    }

    /// Appends why `pred` (on the index's variable) removed what it did: each index
    /// value it took, still there before, had its entry apart from `result`.
    fn explain_index(&self, atoms: &Atoms, at: u32, pred: Pred, out: &mut Vec<Pred>) -> bool {
        match atoms.removed_by(at, pred, Self::EXPLAINED_POSITIONS, out) {
            Some(mut taken) => taken.all(|u| self.explain_apart(self.entry_at(u), atoms, at, out)),
            None => false,
        }
    }

    /// Appends why `pred` holds of the entry at the index's value, fixed before `at`: it
    /// is `result`.
    fn explain_entry(&self, atoms: &Atoms, at: u32, pred: Pred, out: &mut Vec<Pred>) -> bool {
        let Some(index) = self.col.var() else {
            return false;
        };
        let Some(u) = atoms.fixed_before(index, at) else {
            return false;
        };
        let Some(entry) = self.entry_at(u) else {
            return false;
        };
        if entry.var() != Some(pred.var as usize) || entry.var() == self.result.var() {
            return false;
        }
        let (rl, rh) = self.result.bounds_before(atoms, at);
        match entry.change(atoms, at, pred) {
            Some(Change::AtLeast(least)) if rl >= least => {
                self.result.explain_within(least, i128::MAX, out);
            }
            Some(Change::AtMost(most)) if rh <= most => {
                self.result.explain_within(i128::MIN, most, out);
            }
            Some(Change::Lacks(value)) => {
                if !self.result.explain_lacks(atoms, at, value, out) {
                    return false;
                }
            }
            _ => return false,
        }
        out.push(Pred::ge(index, u));
        out.push(Pred::le(index, u));
        true
    }
}

impl<'a> Kind<'a> for Element {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(ElementProp::new(self))
    }
}

impl BuiltinPropagator for ElementProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// Over one row, its entries and `result` read by their bounds.
    fn explains(&self) -> bool {
        matches!(self.row, IntView::Const(_))
            && self.table.len() == 1
            && self.result.explainable()
            && self.table[0].iter().all(IntView::explainable)
    }

    /// By the role of the variable: `result`, the index, or the entry it fixed; a
    /// failure, by every index value's entry apart from `result`.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some(pred) = pred else {
            return self.explain_positions(atoms, at, out, |entry, out| {
                self.explain_apart(entry, atoms, at, out)
            });
        };
        let var = Some(pred.var as usize);
        let from = out.len();
        if self.result.var() == var {
            if let Some(change) = self.result.change(atoms, at, pred) {
                if self.explain_result(change, atoms, at, out) {
                    return true;
                }
            }
            out.truncate(from);
        }
        if self.col.var() == var {
            if self.explain_index(atoms, at, pred, out) {
                return true;
            }
            out.truncate(from);
        }
        self.explain_entry(atoms, at, pred, out)
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        entries_into(&self.row, store, &mut self.rows);
        entries_into(&self.col, store, &mut self.cols);
        let same_index = self.row.var().is_some() && self.row.var() == self.col.var();
        self.row_ok.clear();
        self.row_ok.resize(self.rows.len(), false);
        self.col_ok.clear();
        self.col_ok.resize(self.cols.len(), false);
        // The entries left (positions whose entry may equal result).
        self.alive.clear();
        let values = domain_pass(store);
        let members = Members::reusing(&self.result, store, std::mem::take(&mut self.members));
        for (k, &(ri, r)) in self.rows.iter().enumerate() {
            for (l, &(ci, c)) in self.cols.iter().enumerate() {
                if same_index && ri != ci {
                    continue;
                }
                let Some((row, col)) = self.position(r, c) else {
                    continue;
                };
                if meets(&self.table[row][col], &self.result, &members, store, values)? {
                    self.row_ok[k] = true;
                    self.col_ok[l] = true;
                    self.alive.push((row, col));
                }
            }
        }
        self.members = members.buffer();
        if self.alive.is_empty() {
            return Err(Fail);
        }
        keep_marked(&self.row, store, &self.rows, &self.row_ok)?;
        keep_marked(&self.col, store, &self.cols, &self.col_ok)?;
        // result: within what the entries left can take.
        let table = &self.table;
        let alive = self.alive.iter().map(|&(row, col)| &table[row][col]);
        let (mut low, mut high) = (i64::MAX, i64::MIN);
        for entry in alive.clone() {
            low = low.min(entry.min(store)?);
            high = high.max(entry.max(store)?);
        }
        self.result
            .keep_within(store, i128::from(low), i128::from(high))?;
        if values {
            keep_values_of_in(&self.result, store, alive.clone(), &mut self.values)?;
        }
        // One entry left: it is result.
        let (row, col) = self.alive[0];
        let entry = &table[row][col];
        if alive.clone().all(|e| e.same_as(entry))
            && entry.var().is_some()
            && entry.var() != self.result.var()
        {
            let (rl, rh) = (self.result.min(store)?, self.result.max(store)?);
            entry.keep_within(store, i128::from(rl), i128::from(rh))?;
            if values {
                keep_members_of(entry, store, &self.result)?;
            }
        }
        // Decide, whatever this propagation fixed.
        if let (Some(r), Some(c)) = (self.row.fixed(store), self.col.fixed(store)) {
            let entry = self.entry(r, c).ok_or(Fail)?;
            if let (Some(e), Some(w)) = (entry.fixed(store), self.result.fixed(store)) {
                if e != w {
                    return Err(Fail);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Constraint, IntArg, Model};
    use crate::propagators::arith::tests::{
        after_propagation, distinct, every_value_supported, int_arg,
    };
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;
    use crate::store::Store;

    /// An index: often one of the array's own variables, else a small range from -1.
    fn index(m: &mut Model<'static>, rng: &mut Rng, items: &[IntArg]) -> IntArg {
        match rng.below(5) {
            0 if !items.is_empty() => items[rng.below(items.len() as u64) as usize].clone(),
            1 => IntArg::from(rng.below(4) as i64 - 1),
            _ => IntArg::from(&m.var(-1..rng.below(5) as i64)),
        }
    }

    fn make_array(rng: &mut Rng) -> Model<'static> {
        {
            let mut m = Model::new();
            let n = rng.below(4) as usize;
            let mut array: Vec<IntArg> = Vec::new();
            for _ in 0..n {
                let item = match rng.below(5) {
                    0 if !array.is_empty() => array[rng.below(array.len() as u64) as usize].clone(),
                    _ => int_arg(&mut m, rng),
                };
                array.push(item);
            }
            let i = index(&mut m, rng, &array);
            let result = match rng.below(5) {
                0 => i.clone(),
                1 if !array.is_empty() => array[0].clone(),
                _ => int_arg(&mut m, rng),
            };
            m.element_offset(i, rng.below(2) as i64, array, result);
            m
        }
    }

    /// `result = a[i]` over entries read by their bounds (ranges and constants), with
    /// every change and failure explained and checked (a search that learns).
    #[cfg(feature = "debug-checks")]
    #[test]
    fn one_row_of_variables_explains_what_it_prunes() {
        crate::propagators::checker::tests::fuzz_explanations(3000, |rng| {
            let mut m = Model::new();
            let n = 1 + rng.below(4) as i64;
            let entries: Vec<IntArg> = (0..n)
                .map(|_| {
                    let low = rng.below(5) as i64 - 2;
                    match rng.below(4) {
                        0 => IntArg::from(low),
                        _ => IntArg::from(&m.var(low..low + 1 + rng.below(4) as i64)),
                    }
                })
                .collect();
            let index = m.var(-1..n + 1);
            let result = m.var(-3..4i64);
            m.element(&index, entries, &result);
            m
        });
    }

    #[test]
    fn lookups_in_arrays_of_variables_agree_with_their_meaning() {
        fuzz(600, make_array);
    }

    fn make_table(rng: &mut Rng) -> Model<'static> {
        {
            let mut m = Model::new();
            let rows = rng.below(4) as usize;
            let mut table: Vec<Vec<IntArg>> = Vec::new();
            let mut all: Vec<IntArg> = Vec::new();
            for _ in 0..rows {
                // Rows of different lengths; constants or variables.
                let len = rng.below(4) as usize;
                let row: Vec<IntArg> = (0..len)
                    .map(|_| match rng.below(3) {
                        0 => int_arg(&mut m, rng),
                        _ => IntArg::from(rng.below(5) as i64 - 2),
                    })
                    .collect();
                all.extend(row.iter().cloned());
                table.push(row);
            }
            let row = index(&mut m, rng, &all);
            let col = match rng.below(4) {
                0 => row.clone(),
                _ => index(&mut m, rng, &all),
            };
            let result = match rng.below(5) {
                0 => row.clone(),
                _ => int_arg(&mut m, rng),
            };
            m.element2d(row, col, table, result);
            m
        }
    }

    #[test]
    fn lookups_in_tables_agree_with_their_meaning() {
        fuzz(600, make_table);
    }

    #[test]
    fn lookups_over_distinct_variables_keep_only_supported_values() {
        let check = |global: &Constraint<'_>, store: &Store| {
            let vars = global.meaning().vars();
            if distinct(&vars) == vars.len() {
                every_value_supported(global, store)
            } else {
                Ok(())
            }
        };
        after_propagation(600, make_array, check);
        after_propagation(600, make_table, check);
    }

    #[test]
    fn a_run_that_fixes_everything_decides() {
        // element(i, [2, a, b], i) with a = 0, b = 5: positions 0 and 1 stay, i becomes
        // 0 (the values of what they hold within 0..=2), which reads 2: false.
        let mut m = Model::new();
        let i = m.var(0..=2i64);
        let a = m.var([0i64]);
        let b = m.var([5i64]);
        m.element(
            &i,
            [IntArg::from(2), IntArg::from(&a), IntArg::from(&b)],
            &i,
        );
        let Some(element) = m.constraints().first() else {
            panic!("one element");
        };
        let mut store = Store::new(m.universes());
        let mut propagator = element.kind().propagator(&mut store);
        assert!(propagator.propagate(&mut store).is_err());
    }
}
