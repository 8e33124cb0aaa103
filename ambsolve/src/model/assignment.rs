//! A solution of a model: one value index per variable.

use crate::var::{Var, VarId};

/// A solution of a [`Model`](crate::Model): the value index of every variable.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Assignment(Box<[u32]>);

impl Assignment {
    pub(crate) fn new(indices: impl Into<Box<[u32]>>) -> Self {
        Assignment(indices.into())
    }

    /// The value of `var`.
    ///
    /// # Panics
    /// If `var` is not a variable of the model this assignment solves.
    pub fn value<'v, T>(&self, var: &'v Var<T>) -> &'v T {
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
        self.0[var.into().index()]
    }

    /// The value index of every variable, by position.
    pub fn indices(&self) -> &[u32] {
        &self.0
    }
}
