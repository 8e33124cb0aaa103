//! A solution of a model: one value index per variable.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::var::{Identity, ModelId, Var, VarId};

/// A solution of a [`Model`](crate::Model): the value index of every variable.
///
/// Two assignments compare (and hash) by their value indices alone.
#[derive(Clone, Debug)]
pub struct Assignment {
    /// The identity of the model it solves.
    model: Arc<Identity>,
    indices: Box<[u32]>,
}

impl Assignment {
    pub(crate) fn new(model: Arc<Identity>, indices: impl Into<Box<[u32]>>) -> Self {
        Assignment {
            model,
            indices: indices.into(),
        }
    }

    /// Whether variable `index` declared by `model` is one of the model this assignment
    /// solves.
    pub(crate) fn accepts(&self, model: ModelId, index: u32) -> bool {
        (index as usize) < self.indices.len() && self.model.accepts(model, index)
    }

    /// The value of `var`.
    ///
    /// # Panics
    /// If `var` is not a variable of the model this assignment solves.
    pub fn value<'v, T>(&self, var: &'v Var<T>) -> &'v T {
        &var.values[self.index_of(var)]
    }

    /// The value of an integer variable, worked out from its value index: for a
    /// variable from [`Model::range_var`](crate::Model::range_var), no list of values is
    /// built.
    ///
    /// # Panics
    /// If `var` is not a variable of the model this assignment solves.
    pub fn int_value(&self, var: &Var<i64>) -> i64 {
        *var.values.at(self.index_of(var))
    }

    /// The value index of `var`, a typed variable of the model this assignment solves.
    ///
    /// # Panics
    /// If `var` is another model's.
    fn index_of<T>(&self, var: &Var<T>) -> usize {
        assert!(
            self.accepts(var.model, var.id.raw()),
            "variable {:?} is not a variable of the model this assignment solves",
            var.id
        );
        self.indices[var.id.index()] as usize
    }

    /// The values of several variables, in order.
    pub fn values<'v, T>(&self, vars: &'v [Var<T>]) -> Vec<&'v T> {
        vars.iter().map(|v| self.value(v)).collect()
    }

    /// The value index of `var`.
    ///
    /// # Panics
    /// If `var` is not a variable of the model this assignment solves.
    pub fn index(&self, var: impl Into<VarId>) -> u32 {
        let var = var.into();
        assert!(
            var.index() < self.indices.len() && self.model.accepts_id(var),
            "variable {var:?} is not a variable of the model this assignment solves"
        );
        self.indices[var.index()]
    }

    /// The value index of every variable, by position.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }
}

impl PartialEq for Assignment {
    fn eq(&self, other: &Self) -> bool {
        self.indices == other.indices
    }
}

impl Eq for Assignment {}

impl PartialOrd for Assignment {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Assignment {
    fn cmp(&self, other: &Self) -> Ordering {
        self.indices.cmp(&other.indices)
    }
}

impl Hash for Assignment {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.indices.hash(state);
    }
}
