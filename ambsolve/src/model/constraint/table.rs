//! Table constraints: the allowed tuples of value indices.
//!
//! Its `Model` methods: table constraints: tuples of values or of value indices, and binary
//! relations computed into a table.

use std::borrow::Cow;
use std::hash::Hash;
use std::sync::Arc;

use hashbrown::{HashMap, HashSet};
use smallvec::SmallVec;

use crate::model::constraint::{Constraint, Int, Meaning};
use crate::model::{Images, Model};
use crate::var::{Var, VarId};

#[derive(Clone)]
pub(crate) struct TableDef {
    pub(crate) vars: Vec<VarId>,
    /// Allowed tuples of value indices, flattened, `vars.len()` per tuple.
    pub(crate) tuples: Arc<[u32]>,
    pub(crate) allowed: Arc<HashSet<Box<[u32]>>>,
}

impl Meaning for TableDef {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let tuple: SmallVec<[u32; 8]> = self.vars.iter().map(|&v| values[v.index()]).collect();
        self.allowed.contains(tuple.as_slice())
    }

    fn describe(&self) -> String {
        format!(
            "table over {} variables with {} tuples",
            self.vars.len(),
            self.tuples.len() / self.vars.len().max(1)
        )
    }
}

impl<'a> Model<'a> {
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
        let tuples: Vec<R> = tuples.into_iter().collect();
        let mut ids: Vec<VarId> = vars.iter().map(|v| v.id).collect();
        let mut lookup: Vec<HashMap<&T, Vec<u32>>> = Vec::with_capacity(vars.len());
        for (column, var) in vars.iter().enumerate() {
            let mut map: HashMap<&T, Vec<u32>> = HashMap::new();
            if let Some(spread) = var.values.wide_range(super::TABULATED_AT_MOST) {
                // A range of millions of values: the column's values it holds, behind a
                // listed alias, so that the table's supports are as long as the column.
                let (first, len) = (spread.first, i64::from(spread.len));
                let held = |value: &T| {
                    let x = (spread.to_int)(value);
                    (first..first + len).contains(&x).then_some(x)
                };
                let mut values: Vec<i64> = tuples
                    .iter()
                    .filter_map(|t| t.as_ref().get(column).and_then(held))
                    .collect();
                values.sort_unstable();
                values.dedup();
                for tuple in &tuples {
                    let Some(value) = tuple.as_ref().get(column) else {
                        continue;
                    };
                    if let Some(at) = held(value).and_then(|x| values.binary_search(&x).ok()) {
                        map.entry(value).or_insert_with(|| vec![at as u32]);
                    }
                }
                let images = Images::Range {
                    first,
                    len: spread.len,
                };
                if let Int::Var { var, .. } = self.listed_alias(var.id, &images, values) {
                    ids[column] = var;
                }
            } else {
                for (i, value) in var.values.iter().enumerate() {
                    map.entry(value).or_default().push(i as u32);
                }
            }
            lookup.push(map);
        }
        let mut index_tuples: Vec<Vec<u32>> = Vec::new();
        for tuple in &tuples {
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

    /// A binary relation given as a closure: the pairs it allows are computed once and
    /// kept as a table, so the trail engine enforces it fully (arc consistency), where
    /// [`require`](Model::require) checks its closure once the variables are fixed.
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
