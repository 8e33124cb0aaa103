//! A solution of a model: one value index per variable.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use crate::var::{ModelId, Var, VarId};

/// A solution of a [`Model`](crate::Model): the value index of every variable.
///
/// Two assignments compare (and hash) by their value indices alone.
#[derive(Clone, Debug)]
pub struct Assignment {
    model: ModelId,
    indices: Box<[u32]>,
}

impl Assignment {
    pub(crate) fn new(model: ModelId, indices: impl Into<Box<[u32]>>) -> Self {
        Assignment {
            model,
            indices: indices.into(),
        }
    }

    /// The model this assignment solves.
    pub(crate) fn model(&self) -> ModelId {
        self.model
    }

    /// The value of `var`.
    ///
    /// # Panics
    /// If `var` is not a variable of the model this assignment solves.
    pub fn value<'v, T>(&self, var: &'v Var<T>) -> &'v T {
        assert!(
            var.model == self.model,
            "variable {:?} is not a variable of the model this assignment solves",
            var.id
        );
        &var.values[self.index(var.id) as usize]
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
        self.indices[var.into().index()]
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
