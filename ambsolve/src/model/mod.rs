//! The model: variables with their value lists, and constraints over them.
//!
//! A [`Model`] is what `constraints!` builds, and it is a complete API of its own. It is
//! plain data: it knows no engine, store or iterator. The seam
//! ([`Model::solve`](crate::Model::solve), in `solve.rs`) hands it to an engine.

mod assignment;
mod build_logic;
mod build_order;
mod build_tours;
mod check;
mod constraint;
pub(crate) mod global;
mod integer;
mod mark;
mod objective;
mod order;
mod term;

use std::hash::Hash;
use std::sync::Arc;

use hashbrown::{HashMap, HashSet};

pub use self::assignment::Assignment;
pub use self::check::CheckError;
pub(crate) use self::constraint::{
    AllDifferentDef, Check, Constraint, CustomDef, KeyRun, Keys, LinearDef, PredicateDef, TableDef,
    TermKeys,
};
#[cfg(any(test, feature = "debug-checks"))]
pub(crate) use self::global::Meaning;
pub(crate) use self::global::{Clause, Global, Int, LinearReif, Reification, Xor};
pub use self::global::{IntArg, Lit};
pub use self::integer::Integer;
pub(crate) use self::integer::Trend;
pub(crate) use self::integer::{consecutive_start, images};
pub(crate) use self::objective::ObjectiveDef;
pub use self::objective::Sense;
pub use self::term::{Cmp, Term};
use crate::domain::Domain;
use crate::error::SearchError;
use crate::propagator::Propagator;
use crate::symmetry::{Symmetry, Tables};
use crate::var::{Identity, ModelId, Var, VarId};

/// A variable's name, rendered when asked for (building a model allocates no strings for
/// unnamed variables or arrays).
#[derive(Clone, Debug)]
enum Name {
    Default,
    Given(Box<str>),
    Indexed(Arc<str>, u32),
    /// A cell `(row, column)` of a grid with `columns` columns.
    Cell(Arc<str>, u32, u32, u32),
}

/// The names of a run of variables declared one after another: `first`, `first + 1`, ..
/// up to the next run. A run of default names, of one array's elements or of one grid's
/// cells is one entry, however many variables it names.
#[derive(Clone, Debug)]
struct NameRun {
    first: u32,
    /// The name of the run's first variable; the others follow it.
    name: Name,
}

impl NameRun {
    /// Whether variable `var` named `name` continues this run.
    fn continues(&self, var: u32, name: &Name) -> bool {
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
    fn render(&self, var: VarId) -> String {
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

/// Variables, their values, and constraints.
///
/// Building a model never fails on the spot: a mistake (a variable of another model, a
/// value list too long, a value out of `i64` range in an arithmetic constraint, a table
/// tuple of the wrong length) is remembered; [`error`](Model::error) tells it, and solving
/// reports it as [`SearchError::InvalidModel`] (from `first()`, `count()` and
/// `try_solutions()`; a plain `solutions()` loop panics with the message).
///
/// A model is a plain value: `Clone`, and `Send + Sync` (its predicates and propagators
/// must be), so it can be solved on several engines or threads at once. Cloning shares the
/// constraints' closures and tables instead of copying them.
///
/// Every variable (its [`Var`], and its [`VarId`] from [`Var::id`] or
/// [`var_ids`](Model::var_ids)) remembers the model that declared it, and a model refuses
/// another model's, from every method: the model becomes invalid. A clone has the same
/// variables as its original, so each takes the other's, until one of them declares a
/// variable: from then on, the variables either declares are its own, refused by the
/// other (`let b = a.clone()`, then `a` and `b` each declare a variable at the same
/// position: neither takes the other's). A `VarId` made from a position
/// ([`VarId::from_index`]) is taken by any model that has that position.
///
/// ```
/// use ambsolve::{Cmp, Engine, Model};
///
/// // x + y == 10, x < y, both in 0..10, all different.
/// let mut m = Model::new();
/// let x = m.var(0..10);
/// let y = m.var(0..10);
/// m.linear([(1, &x), (1, &y)], Cmp::Eq, 10);
/// m.linear([(1, &x), (-1, &y)], Cmp::Lt, 0);
/// let pairs: Vec<(i32, i32)> = m
///     .solve(Engine::Trail)
///     .solutions()
///     .map(|s| (*s.value(&x), *s.value(&y)))
///     .collect();
/// assert_eq!(pairs, [(1, 9), (2, 8), (3, 7), (4, 6)]);
/// ```
#[derive(Clone)]
pub struct Model<'a> {
    /// Shared by clones until one of them declares a variable; carried by every variable.
    identity: Arc<Identity>,
    /// The variables' names, as runs of consecutive variables.
    names: Vec<NameRun>,
    universes: Vec<u32>,
    /// Domains narrowed before solving by [`restrict`](Model::restrict); others are full.
    initial: HashMap<u32, Domain>,
    /// Maps sending solutions to solutions, for solving up to symmetry.
    symmetries: Vec<Symmetry>,
    constraints: Vec<Constraint<'a>>,
    /// What to minimise or maximise, if anything.
    objective: Option<ObjectiveDef>,
    error: Option<String>,
}

impl Default for Model<'_> {
    fn default() -> Self {
        Model {
            identity: Arc::new(Identity::fresh()),
            names: Vec::new(),
            universes: Vec::new(),
            initial: HashMap::new(),
            symmetries: Vec::new(),
            constraints: Vec::new(),
            objective: None,
            error: None,
        }
    }
}

impl<'a> Model<'a> {
    /// An empty model, with an identity of its own: its variables are refused by other
    /// models.
    pub fn new() -> Self {
        Self::default()
    }

    // ---- variables ----

    /// A variable taking one of `values`. Its name is `x<N>`, N its position.
    pub fn var<T>(&mut self, values: impl IntoIterator<Item = T>) -> Var<T> {
        self.var_sharing(Name::Default, values.into_iter().collect())
    }

    /// A variable with a name (used in error messages and debugging).
    pub fn named_var<T>(
        &mut self,
        name: impl Into<String>,
        values: impl IntoIterator<Item = T>,
    ) -> Var<T> {
        let name: String = name.into();
        self.var_sharing(Name::Given(name.into()), values.into_iter().collect())
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

    fn var_sharing<T>(&mut self, name: Name, values: Arc<[T]>) -> Var<T> {
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

    /// The domain `var` starts from, if [`restrict`](Model::restrict) narrowed it
    /// (`None`: all its values).
    #[inline]
    pub(crate) fn initial_domain(&self, var: usize) -> Option<&Domain> {
        if self.initial.is_empty() {
            return None;
        }
        u32::try_from(var).ok().and_then(|v| self.initial.get(&v))
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

    /// The number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    // ---- constraints ----

    /// The values of `vars` are pairwise different. Takes anything iterating over
    /// variables: `&q`, `&[a, b, c]`, `q.iter().step_by(2)`.
    pub fn all_different<'v, T: Eq + Hash + 'v>(
        &mut self,
        vars: impl IntoIterator<Item = &'v Var<T>>,
    ) {
        let vars: Vec<&Var<T>> = vars.into_iter().collect();
        if !self.owns(vars.iter().copied()) {
            return;
        }
        let ids: Vec<VarId> = vars.iter().map(|v| v.id).collect();
        // The common case: every variable shares one value list. Its keys are the position
        // of each value's first occurrence (found without hashing for short lists).
        if let Some(first) = vars.first() {
            if vars.iter().all(|v| Arc::ptr_eq(&v.values, &first.values)) {
                let keys = Keys::from_images(first_positions(&first.values));
                return self.all_different_keys(ids, TermKeys::same(keys, vars.len()));
            }
        }
        let mut interned: HashMap<&T, i64> = HashMap::new();
        // Variables sharing one value list share its keys: compute them once per list.
        let mut per_list: HashMap<*const T, Keys> = HashMap::new();
        let mut runs: Vec<KeyRun> = Vec::new();
        for var in vars {
            let list_keys = per_list.entry(var.values.as_ptr()).or_insert_with(|| {
                let images: Vec<i64> = var
                    .values
                    .iter()
                    .map(|value| {
                        let next = interned.len() as i64;
                        *interned.entry(value).or_insert(next)
                    })
                    .collect();
                Keys::from_images(images)
            });
            let universe = u32::try_from(var.values.len()).unwrap_or(u32::MAX);
            if !runs
                .last_mut()
                .is_some_and(|run| run.extend(list_keys, 0, universe))
            {
                runs.push(KeyRun::new(list_keys.clone(), 0, universe));
            }
        }
        match Keys::fit(&runs) {
            Ok(keys) => self.all_different_keys(ids, keys),
            Err(message) => self.fail(message),
        }
    }

    /// The values `x_i + offset_i` are pairwise different: `all_different(q[i] + i)` is
    /// `all_different_offset(q.iter().zip(0..))`.
    pub fn all_different_offset<'v, T: Integer + 'v>(
        &mut self,
        terms: impl IntoIterator<Item = (&'v Var<T>, i64)>,
    ) {
        let mut ids = Vec::new();
        // Terms as runs of one value list with offsets in arithmetic progression (one run
        // for `q[i] + i`), so that a million terms cost no more than one.
        let mut runs: Vec<KeyRun> = Vec::new();
        // Variables sharing one value list share its images: compute them once per list.
        let mut per_list: HashMap<*const T, Keys> = HashMap::new();
        for (var, offset) in terms {
            if !self.owns([var]) {
                return;
            }
            let base = match per_list.get(&var.values.as_ptr()) {
                Some(base) => base,
                None => match images(&var.values) {
                    Ok(images) => per_list
                        .entry(var.values.as_ptr())
                        .or_insert(Keys::from_images(images)),
                    Err(at) => return self.out_of_range(var.id, at),
                },
            };
            let universe = u32::try_from(var.values.len()).unwrap_or(u32::MAX);
            if !runs
                .last_mut()
                .is_some_and(|run| run.extend(base, offset, universe))
            {
                runs.push(KeyRun::new(base.clone(), offset, universe));
            }
            ids.push(var.id);
        }
        // Offsets near the ends of i64 push keys out of it: `fit` renumbers them exactly.
        match Keys::fit(&runs) {
            Ok(keys) => self.all_different_keys(ids, keys),
            Err(message) => self.fail(message),
        }
    }

    fn all_different_keys(&mut self, vars: Vec<VarId>, keys: TermKeys) {
        if self.known(&vars) {
            self.constraints
                .push(Constraint::AllDifferent(AllDifferentDef { vars, keys }));
        }
    }

    /// `Σ coefficient × variable` compares to `rhs` as `cmp` says. Terms are pairs
    /// `(coefficient, &var)` or [`Term`]s; values are the variables' integer values.
    pub fn linear<X: Into<Term>>(
        &mut self,
        terms: impl IntoIterator<Item = X>,
        cmp: Cmp,
        rhs: i64,
    ) {
        if let Some(def) = self.linear_def(terms, cmp, rhs, 1) {
            self.constraints.push(Constraint::Linear(def));
        }
    }

    /// The linear constraint `Σ sign × coefficient × variable cmp rhs`, checked (`sign` is
    /// 1, or -1 to negate every coefficient); `None` if the model became invalid.
    fn linear_def<X: Into<Term>>(
        &mut self,
        terms: impl IntoIterator<Item = X>,
        cmp: Cmp,
        rhs: i64,
        sign: i64,
    ) -> Option<LinearDef> {
        let mut resolved = Vec::new();
        for term in terms {
            let term: Term = term.into();
            if !self.declared(term.model, term.var) {
                return None;
            }
            let Some(coef) = term.coef.checked_mul(sign) else {
                self.fail(format!(
                    "the coefficient {} of {} cannot be negated in an i64",
                    term.coef,
                    self.name(term.var)
                ));
                return None;
            };
            match term.images {
                Ok(images) => resolved.push((term.var, coef, images)),
                Err(at) => {
                    self.out_of_range(term.var, at);
                    return None;
                }
            }
        }
        let vars: Vec<VarId> = resolved.iter().map(|t| t.0).collect();
        if !self.known(&vars) {
            return None;
        }
        let trends: Vec<Trend> = resolved.iter().map(|t| Trend::of(&t.2)).collect();
        let extremes: Vec<(i128, i128)> = resolved
            .iter()
            .zip(&trends)
            .map(|((_, coef, images), &trend)| {
                let at = |x: i64| i128::from(*coef) * i128::from(x);
                let (Some(&first), Some(&last)) = (images.first(), images.last()) else {
                    return (0, 0);
                };
                let (low, high) = match trend {
                    Trend::Rising => (first, last),
                    Trend::Falling => (last, first),
                    Trend::Mixed => {
                        let low = images.iter().copied().min().unwrap_or(0);
                        (low, images.iter().copied().max().unwrap_or(0))
                    }
                };
                let (a, b) = (at(low), at(high));
                (a.min(b), a.max(b))
            })
            .collect();
        // Each product fits in an i128 (|a·x| <= 2^126), but a sum of several may not:
        // every sum the engines form, plus or minus the right-hand side, must.
        let bound = extremes
            .iter()
            .try_fold(0i128, |sum, &(low, high)| {
                sum.checked_add(low.abs().max(high.abs()))
            })
            .filter(|&sum| sum <= i128::MAX - i128::from(u64::MAX));
        if bound.is_none() {
            self.fail(format!(
                "linear sum of {} terms: its terms can add up to more than an i128 holds",
                resolved.len()
            ));
            return None;
        }
        Some(LinearDef {
            terms: resolved,
            extremes,
            trends,
            cmp,
            rhs,
        })
    }

    // ---- objective ----

    /// Asks for the solutions that make `Σ coefficient × variable` as small as possible:
    /// what [`best`](crate::Solver::best) and [`improving`](crate::Solver::improving)
    /// search for. Terms are as for [`linear`](Model::linear). A model has at most one
    /// objective; `solutions()`, `first()` and `count()` ignore it.
    pub fn minimize<X: Into<Term>>(&mut self, terms: impl IntoIterator<Item = X>) {
        self.objective(Sense::Minimize, terms, 0);
    }

    /// Asks for the solutions that make `Σ coefficient × variable` as large as possible
    /// (see [`minimize`](Model::minimize)).
    pub fn maximize<X: Into<Term>>(&mut self, terms: impl IntoIterator<Item = X>) {
        self.objective(Sense::Maximize, terms, 0);
    }

    /// Sets the objective `Σ coefficient × variable + constant`, to minimise or maximise
    /// as `sense` says. The objective's value must fit in an `i64` for every assignment;
    /// a second objective makes the model invalid.
    pub fn objective<X: Into<Term>>(
        &mut self,
        sense: Sense,
        terms: impl IntoIterator<Item = X>,
        constant: i64,
    ) {
        if self.objective.is_some() {
            return self.fail("a model has one objective, and this one has two".to_string());
        }
        let sign = match sense {
            Sense::Minimize => 1,
            Sense::Maximize => -1,
        };
        let Some(cost) = self.linear_def(terms, Cmp::Lt, 0, sign) else {
            return;
        };
        match ObjectiveDef::new(sense, cost, constant) {
            Ok(def) => self.objective = Some(def),
            Err(message) => self.fail(message),
        }
    }

    /// Whether the objective is minimised or maximised, if the model has one.
    pub fn sense(&self) -> Option<Sense> {
        self.objective.as_ref().map(|o| o.sense)
    }

    /// The objective's value at `assignment`, if the model has an objective and the
    /// assignment gives every variable a value in range.
    pub fn objective_value(&self, assignment: &Assignment) -> Option<i64> {
        let objective = self.objective.as_ref()?;
        let values = assignment.indices();
        let fits = values.len() == self.num_vars()
            && values.iter().zip(&self.universes).all(|(&i, &u)| i < u);
        fits.then(|| objective.value(values))
    }

    pub(crate) fn objective_def(&self) -> Option<&ObjectiveDef> {
        self.objective.as_ref()
    }

    /// The values of `vars` form one of `tuples`. Tuples naming a value a variable does
    /// not have can never match and are dropped.
    pub fn table<T: Eq + Hash, R: AsRef<[T]>>(
        &mut self,
        vars: &[Var<T>],
        tuples: impl IntoIterator<Item = R>,
    ) {
        if !self.owns(vars) {
            return;
        }
        let lookup: Vec<HashMap<&T, Vec<u32>>> = vars
            .iter()
            .map(|var| {
                let mut map: HashMap<&T, Vec<u32>> = HashMap::new();
                for (i, value) in var.values.iter().enumerate() {
                    map.entry(value).or_default().push(i as u32);
                }
                map
            })
            .collect();
        let mut index_tuples: Vec<Vec<u32>> = Vec::new();
        for tuple in tuples {
            let tuple = tuple.as_ref();
            if let Err(message) = tuple_fits(tuple.len(), vars.len()) {
                return self.fail(message);
            }
            // Every combination of indices holding these values (value lists may repeat).
            let mut partial: Vec<Vec<u32>> = vec![Vec::new()];
            for (value, map) in tuple.iter().zip(&lookup) {
                let Some(indices) = map.get(value) else {
                    partial.clear();
                    break;
                };
                partial = partial
                    .into_iter()
                    .flat_map(|p| indices.iter().map(move |&i| [p.as_slice(), &[i]].concat()))
                    .collect();
            }
            index_tuples.extend(partial);
        }
        let ids: Vec<VarId> = vars.iter().map(|v| v.id).collect();
        self.table_indices(&ids, index_tuples);
    }

    /// The value indices of `vars` form one of `tuples` (index-level form of
    /// [`table`](Model::table)).
    pub fn table_indices<R: AsRef<[u32]>>(
        &mut self,
        vars: &[VarId],
        tuples: impl IntoIterator<Item = R>,
    ) {
        if !self.known(vars) {
            return;
        }
        let mut flat = Vec::new();
        let mut allowed = HashSet::new();
        for tuple in tuples {
            let tuple = tuple.as_ref();
            if let Err(message) = tuple_fits(tuple.len(), vars.len()) {
                return self.fail(message);
            }
            if tuple
                .iter()
                .zip(vars)
                .any(|(&i, v)| i >= self.universes[v.index()])
            {
                continue;
            }
            if allowed.insert(Box::<[u32]>::from(tuple)) {
                flat.extend_from_slice(tuple);
            }
        }
        self.constraints.push(Constraint::Table(TableDef {
            vars: vars.to_vec(),
            tuples: flat.into(),
            allowed: Arc::new(allowed),
        }));
    }

    /// A binary relation given as a predicate: the pairs it allows are computed once and
    /// kept as a table, so the trail engine enforces it fully (arc consistency).
    pub fn relation<A, B>(&mut self, x: &Var<A>, y: &Var<B>, allowed: impl Fn(&A, &B) -> bool) {
        if !(self.owns([x]) && self.owns([y])) {
            return;
        }
        let mut pairs = Vec::new();
        for (i, a) in x.values.iter().enumerate() {
            for (j, b) in y.values.iter().enumerate() {
                if allowed(a, b) {
                    pairs.push([i as u32, j as u32]);
                }
            }
        }
        self.table_indices(&[x.id, y.id], pairs);
    }

    /// A condition over the value indices of `vars` (in order): checked as soon as all of
    /// them are fixed, and used for forward checking when one is left open. The typed
    /// forms [`require1`](Model::require1) .. [`require_all`](Model::require_all) are
    /// usually handier.
    pub fn predicate(&mut self, vars: &[VarId], check: impl Fn(&[u32]) -> bool + Send + Sync + 'a) {
        if self.known(vars) {
            self.constraints.push(Constraint::Predicate(PredicateDef {
                vars: vars.into(),
                check: Arc::new(check),
            }));
        }
    }

    /// A condition on one variable's value.
    pub fn require1<A: Send + Sync + 'a>(
        &mut self,
        x: &Var<A>,
        check: impl Fn(&A) -> bool + Send + Sync + 'a,
    ) {
        if !self.owns([x]) {
            return;
        }
        let xs = Arc::clone(&x.values);
        self.predicate(&[x.id], move |i| check(&xs[i[0] as usize]));
    }

    /// A condition on two variables' values.
    pub fn require2<A, B>(
        &mut self,
        x: &Var<A>,
        y: &Var<B>,
        check: impl Fn(&A, &B) -> bool + Send + Sync + 'a,
    ) where
        A: Send + Sync + 'a,
        B: Send + Sync + 'a,
    {
        if !(self.owns([x]) && self.owns([y])) {
            return;
        }
        let (xs, ys) = (Arc::clone(&x.values), Arc::clone(&y.values));
        self.predicate(&[x.id, y.id], move |i| {
            check(&xs[i[0] as usize], &ys[i[1] as usize])
        });
    }

    /// A condition on three variables' values.
    pub fn require3<A, B, C>(
        &mut self,
        x: &Var<A>,
        y: &Var<B>,
        z: &Var<C>,
        check: impl Fn(&A, &B, &C) -> bool + Send + Sync + 'a,
    ) where
        A: Send + Sync + 'a,
        B: Send + Sync + 'a,
        C: Send + Sync + 'a,
    {
        if !(self.owns([x]) && self.owns([y]) && self.owns([z])) {
            return;
        }
        let (xs, ys, zs) = (
            Arc::clone(&x.values),
            Arc::clone(&y.values),
            Arc::clone(&z.values),
        );
        self.predicate(&[x.id, y.id, z.id], move |i| {
            check(&xs[i[0] as usize], &ys[i[1] as usize], &zs[i[2] as usize])
        });
    }

    /// A condition on the values of several variables of one type, in order.
    pub fn require_all<T: Send + Sync + 'a>(
        &mut self,
        vars: &[Var<T>],
        check: impl Fn(&[&T]) -> bool + Send + Sync + 'a,
    ) {
        if !self.owns(vars) {
            return;
        }
        let lists: Vec<Arc<[T]>> = vars.iter().map(|v| Arc::clone(&v.values)).collect();
        let ids: Vec<VarId> = vars.iter().map(|v| v.id).collect();
        self.predicate(&ids, move |indices| {
            let values: smallvec::SmallVec<[&T; 8]> = lists
                .iter()
                .zip(indices)
                .map(|(list, &i)| &list[i as usize])
                .collect();
            check(&values)
        });
    }

    /// Declares symmetries: maps sending solutions to solutions. They change nothing unless
    /// a search is asked for one solution per class with
    /// [`up_to_symmetry`](crate::Solver::up_to_symmetry), or counts with them
    /// ([`count_through_symmetry`](crate::Solver::count_through_symmetry): one
    /// representative per class, weighed by the size of its class). Generators of the
    /// group are enough (a quarter turn and a mirror for the eight symmetries of a
    /// square board): the search closes them into their group.
    pub fn symmetries(&mut self, symmetries: impl IntoIterator<Item = Symmetry>) {
        self.symmetries.extend(symmetries);
    }

    /// The symmetries declared, in order.
    pub(crate) fn declared_symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// The tables of the declared symmetries, in order, when solving up to symmetry.
    pub(crate) fn symmetry_tables(&self) -> Result<Tables, SearchError> {
        Tables::checked(&self.symmetries, &self.universes, |w| {
            self.identity.accepts_id(w)
        })
        .map_err(SearchError::InvalidModel)
    }

    /// A custom propagator, woken whenever a domain of `scope` changes. See [`Propagator`].
    pub fn propagator(&mut self, scope: &[VarId], propagator: impl Propagator + 'a) {
        if self.known(scope) {
            self.constraints.push(Constraint::Custom(CustomDef {
                vars: scope.into(),
                propagator: Arc::new(propagator),
            }));
        }
    }

    // ---- checking ----

    /// Whether value indices `values` (one per variable) satisfy every restriction and
    /// every constraint.
    pub(crate) fn satisfied(&self, values: &[u32]) -> bool {
        self.initial
            .iter()
            .all(|(&var, domain)| domain.contains(values[var as usize]))
            && self
                .constraints
                .iter()
                .all(|c| c.check(values, &self.universes))
    }

    /// Whether `assignment` satisfies every restriction and every constraint.
    ///
    /// # Errors
    /// A [`CheckError`] naming what is wrong: the assignment's length, a value index out
    /// of a variable's range, a value [`restrict`](Model::restrict) removed, or the first
    /// violated constraint.
    pub fn check(&self, assignment: &Assignment) -> Result<(), CheckError> {
        let values = assignment.indices();
        if values.len() != self.num_vars() {
            return Err(CheckError::WrongLength {
                values: values.len(),
                vars: self.num_vars(),
            });
        }
        for (v, (&index, &universe)) in values.iter().zip(&self.universes).enumerate() {
            let var = VarId::from_index(v);
            if index >= universe {
                return Err(CheckError::OutOfRange {
                    var: self.name(var),
                    index,
                    values: universe,
                });
            }
            if self.initial_domain(v).is_some_and(|d| !d.contains(index)) {
                return Err(CheckError::Restricted {
                    var: self.name(var),
                    index,
                });
            }
        }
        for (position, c) in self.constraints.iter().enumerate() {
            if !c.check(values, &self.universes) {
                return Err(CheckError::Violated {
                    position,
                    constraint: c.describe(),
                });
            }
        }
        Ok(())
    }

    pub(crate) fn constraints(&self) -> &[Constraint<'a>] {
        &self.constraints
    }

    /// The building error, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The identity of this model, carried by its variables and its assignments.
    pub(crate) fn identity(&self) -> &Arc<Identity> {
        &self.identity
    }

    /// Whether every one of `vars` is one of this model's (see [`Identity`]); else the
    /// model remembers the error.
    fn owns<'v, T: 'v>(&mut self, vars: impl IntoIterator<Item = &'v Var<T>>) -> bool {
        vars.into_iter().all(|var| self.declared(var.model, var.id))
    }

    /// Whether the variable `var` declared by the model `model` is one of this model's:
    /// declared by it, or by a model it was cloned from before either declared another
    /// variable; else the model remembers the error.
    fn declared(&mut self, model: ModelId, var: VarId) -> bool {
        if var.index() < self.num_vars() && self.identity.accepts(model, var.raw()) {
            return true;
        }
        self.fail(format!(
            "variable {var:?} was declared by another model (or by a clone of this one, \
             after they parted)"
        ));
        false
    }

    /// Whether every one of `vars` is one of this model's: an id of this model (or of a
    /// model it was cloned from, for the variables they share), or a position below the
    /// number of variables; else the model remembers the error.
    fn known(&mut self, vars: &[VarId]) -> bool {
        if let Some(v) = vars.iter().find(|&&v| !self.identity.accepts_id(v)) {
            self.fail(format!(
                "variable {v:?} was declared by another model (or by a clone of this one, \
                 after they parted)"
            ));
            return false;
        }
        match vars.iter().find(|v| v.index() >= self.num_vars()) {
            Some(v) => {
                self.fail(format!("{v:?} is not a variable of this model"));
                false
            }
            None => true,
        }
    }

    /// Makes the model invalid: value `at` of `var` has no `i64` image.
    pub(crate) fn out_of_range(&mut self, var: VarId, at: usize) {
        let name = if var.index() < self.num_vars() && self.identity.accepts_id(var) {
            self.name(var)
        } else {
            format!("{var:?}")
        };
        self.fail(format!("value {at} of {name} does not fit in an i64"));
    }

    fn fail(&mut self, message: String) {
        self.error.get_or_insert(message);
    }

    /// Makes the model invalid with `message` (the first such message is kept).
    pub(crate) fn invalid(&mut self, message: String) {
        self.fail(message);
    }
}

/// For each value of `list`, the position of its first occurrence: `0, 1, 2, ..` when
/// the values are distinct (found without hashing for short lists, and without a map
/// when they are all distinct).
fn first_positions<T: Eq + Hash>(list: &[T]) -> Vec<i64> {
    if list.len() <= 32 {
        return (0..list.len())
            .map(|i| list.iter().position(|v| *v == list[i]).unwrap_or(i) as i64)
            .collect();
    }
    let mut seen: HashSet<&T> = HashSet::with_capacity(list.len());
    if list.iter().all(|v| seen.insert(v)) {
        return (0..list.len() as i64).collect();
    }
    drop(seen);
    let mut first: HashMap<&T, i64> = HashMap::with_capacity(list.len());
    list.iter()
        .enumerate()
        .map(|(i, v)| *first.entry(v).or_insert(i as i64))
        .collect()
}

/// A table tuple must give one value per variable.
fn tuple_fits(values: usize, vars: usize) -> Result<(), String> {
    if values == vars {
        Ok(())
    } else {
        Err(format!(
            "a table tuple has {values} values for {vars} variables"
        ))
    }
}

impl std::fmt::Debug for Model<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.var_ids().map(|v| self.name(v)).collect();
        f.debug_struct("Model")
            .field("vars", &names)
            .field("constraints", &self.constraints)
            .field("objective", &self.objective.as_ref().map(|o| o.sense))
            .field("error", &self.error)
            .finish()
    }
}
