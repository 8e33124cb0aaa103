//! Declaring variables (alone, as arrays, as grids), narrowing their values before the
//! search, and their names.

use std::ops::RangeInclusive;
use std::sync::Arc;

use super::Model;
use super::names::{Name, NameRun};
use crate::domain::Domain;
use crate::var::{Values, Var, VarId};

impl<'a> Model<'a> {
    /// A variable taking one of `values`. Its name is `x<N>`, N its position.
    pub fn var<T>(&mut self, values: impl IntoIterator<Item = T>) -> Var<T> {
        self.var_sharing(Name::Default, values.into_iter().collect::<Arc<[T]>>())
    }

    /// A variable with a name (used in error messages and debugging).
    pub fn named_var<T>(
        &mut self,
        name: impl Into<String>,
        values: impl IntoIterator<Item = T>,
    ) -> Var<T> {
        let name: String = name.into();
        self.var_sharing(
            Name::Given(name.into()),
            values.into_iter().collect::<Arc<[T]>>(),
        )
    }

    /// A named variable over a list of values shared with other variables, and a name
    /// shared with whoever holds it: nothing is copied, so a model of millions of
    /// variables over a few domains keeps a few lists (`fzn-ambsolve` declares its
    /// variables so).
    pub fn named_var_shared<T>(&mut self, name: Arc<str>, values: &Arc<[T]>) -> Var<T> {
        self.var_sharing(Name::Given(name), Arc::clone(values))
    }

    /// A variable over the integers of `range` (`low..=high`), named `x<N>`.
    ///
    /// Its values are the range itself, not a list: a variable over millions of values,
    /// or over every `i32`, costs as little as one over ten. At most `u32::MAX` values
    /// (a wider range makes the model invalid); an empty range gives a variable without
    /// values. Read a solution's value with
    /// [`Assignment::int_value`](crate::Assignment::int_value), which builds no list.
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.range_var(-2_000_000_000..=2_000_000_000);
    /// m.linear([(3, &x)], Cmp::Eq, 3_000_000_000);
    /// let solution = m.solve(Engine::Trail).first()?.expect("x = 1e9");
    /// assert_eq!(solution.int_value(&x), 1_000_000_000);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn range_var(&mut self, range: RangeInclusive<i64>) -> Var<i64> {
        self.range_var_named(Name::Default, range)
    }

    /// [`range_var`](Model::range_var) with a name (shared, not copied, when given as an
    /// `Arc<str>`).
    pub fn named_range_var(
        &mut self,
        name: impl Into<Arc<str>>,
        range: RangeInclusive<i64>,
    ) -> Var<i64> {
        self.range_var_named(Name::Given(name.into()), range)
    }

    fn range_var_named(&mut self, name: Name, range: RangeInclusive<i64>) -> Var<i64> {
        let (low, high) = range.into_inner();
        let len = (i128::from(high) - i128::from(low) + 1).max(0);
        if len > i128::from(u32::MAX) {
            let var = self.var_sharing(name, Arc::from([]));
            let name = self.name(var.id);
            self.fail(format!(
                "variable {name} ranges over {low}..={high}, {len} values: at most u32::MAX"
            ));
            return var;
        }
        self.var_sharing(name, Values::range(low, len as u32, |x| x, |x| *x))
    }

    /// `count` variables sharing one list of values, named `<name>[i]`.
    pub fn vars<T>(
        &mut self,
        name: &str,
        count: usize,
        values: impl IntoIterator<Item = T>,
    ) -> Vec<Var<T>> {
        let values: Arc<[T]> = values.into_iter().collect();
        let base: Arc<str> = Arc::from(name);
        (0..count)
            .map(|i| {
                let name = Name::Indexed(Arc::clone(&base), i as u32);
                self.var_sharing(name, Arc::clone(&values))
            })
            .collect()
    }

    fn var_sharing<T>(&mut self, name: Name, values: impl Into<Values<T>>) -> Var<T> {
        let values: Values<T> = values.into();
        let index = self.universes.len() as u32;
        if Arc::get_mut(&mut self.identity).is_none() {
            // A clone shares the identity: the variables from here on are this model's
            // own, refused by the other (see `Identity`).
            self.identity = Arc::new(self.identity.fork(index));
        }
        let id = VarId::of(self.identity.id(), index);
        match self.names.last() {
            Some(run) if run.continues(id.raw(), &name) => {}
            _ => self.names.push(NameRun {
                first: id.raw(),
                name,
            }),
        }
        let universe = u32::try_from(values.len()).unwrap_or_else(|_| {
            let name = self.name(id);
            self.fail(format!(
                "variable {name} has {} values, more than u32::MAX",
                values.len()
            ));
            0
        });
        self.universes.push(universe);
        Var {
            id,
            values,
            model: self.identity.id(),
        }
    }

    /// A `rows × cols` grid of variables sharing one list of values, named `<name>[r][c]`.
    pub fn grid<T>(
        &mut self,
        name: &str,
        rows: usize,
        cols: usize,
        values: impl IntoIterator<Item = T>,
    ) -> Vec<Vec<Var<T>>> {
        let values: Arc<[T]> = values.into_iter().collect();
        let base: Arc<str> = Arc::from(name);
        (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| {
                        let name = Name::Cell(Arc::clone(&base), r as u32, c as u32, cols as u32);
                        self.var_sharing(name, Arc::clone(&values))
                    })
                    .collect()
            })
            .collect()
    }

    /// Keeps only the values of `var` for which `keep` holds: a condition on one variable,
    /// applied to its domain before solving (no propagator, no check during search).
    pub fn restrict<T>(&mut self, var: &Var<T>, keep: impl Fn(&T) -> bool) {
        if !self.owns([var]) {
            return;
        }
        let universe = self.universes[var.id.index()];
        let domain = self
            .initial
            .entry(var.id.raw())
            .or_insert_with(|| Domain::full(universe));
        for (i, value) in var.values.iter().enumerate() {
            if !keep(value) {
                domain.remove(i as u32);
            }
        }
    }

    /// A hint (a warm start, CP-SAT's `AddHint`): the search tries `value` first for
    /// `var`. Hints may cover some variables or all of them, and need not be a solution:
    /// a value the variable lacks, or a hint no solution keeps, is no error, only a first
    /// try that fails. A later hint for the same variable replaces the earlier one.
    ///
    /// The trail engine branches on a hinted variable's hinted value first, while it is
    /// left (its variable order unchanged; a strategy that splits domains ignores hints);
    /// the search that learns starts from the hints as its saved phases. The replay and
    /// local engines ignore hints.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // The first solution found follows the hint where it can.
    /// let mut m = Model::new();
    /// let x = m.vars("x", 3, 0..5i64);
    /// m.all_different(&x);
    /// m.hint(&x[0], 4);
    /// m.hint(&x[2], 4); // conflicts with x[0]: tried, refuted, no error
    /// let first = m.solve(Engine::Trail).first()?.expect("a solution");
    /// assert_eq!([*first.value(&x[0]), *first.value(&x[1]), *first.value(&x[2])], [4, 0, 1]);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn hint<T: PartialEq>(&mut self, var: &Var<T>, value: T) {
        if !self.owns([var]) {
            return;
        }
        let index = match var.values.wide_range(0) {
            Some(spread) => {
                let offset = i128::from((spread.to_int)(&value)) - i128::from(spread.first);
                u32::try_from(offset).ok().filter(|&i| i < spread.len)
            }
            None => var
                .values
                .iter()
                .position(|v| *v == value)
                .and_then(|i| u32::try_from(i).ok()),
        };
        match index {
            Some(index) => {
                self.hints.insert(var.id.raw(), index);
            }
            None => {
                self.hints.remove(&var.id.raw());
            }
        }
    }

    /// Each variable's hinted value index ([`hint`](Model::hint)); empty if none is.
    pub(crate) fn hints(&self) -> Vec<Option<u32>> {
        if self.hints.is_empty() {
            return Vec::new();
        }
        let mut out = vec![None; self.universes.len()];
        for (&var, &index) in &self.hints {
            out[var as usize] = Some(index);
        }
        out
    }

    /// The domain `var` starts from, if [`restrict`](Model::restrict) narrowed it
    /// (`None`: all its values).
    #[inline]
    pub(crate) fn initial_domain(&self, var: usize) -> Option<&Domain> {
        if self.initial.is_empty() {
            return None;
        }
        u32::try_from(var).ok().and_then(|v| self.initial.get(&v))
    }

    /// Notes that `var` is auxiliary: made by the model for itself, a function of other
    /// variables (a large neighbourhood search never fixes it by default).
    pub(crate) fn mark_auxiliary(&mut self, var: VarId) {
        let raw = var.raw();
        if self.auxiliary.last().is_none_or(|&last| last < raw) {
            self.auxiliary.push(raw);
        }
    }

    /// Whether the variable at `var` is auxiliary ([`mark_auxiliary`](Model::mark_auxiliary)).
    pub(crate) fn is_auxiliary(&self, var: usize) -> bool {
        u32::try_from(var).is_ok_and(|v| self.auxiliary.binary_search(&v).is_ok())
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.universes.len()
    }

    /// The ids of all variables, in declaration order (each marked as its variable's
    /// [`Var::id`]: another model refuses them).
    pub fn var_ids(
        &self,
    ) -> impl DoubleEndedIterator<Item = VarId> + ExactSizeIterator + use<'_, 'a> {
        (0..self.universes.len() as u32).map(|index| self.identity.var_id(index))
    }

    /// The name of a variable.
    ///
    /// # Panics
    /// If `var` is not a variable of this model.
    pub fn name(&self, var: VarId) -> String {
        assert!(
            var.index() < self.num_vars() && self.identity.accepts_id(var),
            "{var:?} is not a variable of this model"
        );
        let run = self.names.partition_point(|run| run.first <= var.raw()) - 1;
        self.names[run].render(var)
    }

    /// The number of values of each variable, by position.
    pub fn universes(&self) -> &[u32] {
        &self.universes
    }
}
