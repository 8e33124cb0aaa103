//! Why an assignment is not a solution of a model.

use std::fmt;

use super::{Assignment, Model};
use crate::var::VarId;

/// What [`Model::check`](crate::Model::check) found wrong with an assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CheckError {
    /// The assignment gives `values` value indices for a model of `vars` variables.
    WrongLength {
        /// Value indices given.
        values: usize,
        /// Variables of the model.
        vars: usize,
    },
    /// A value index is past the end of its variable's value list.
    OutOfRange {
        /// The variable's name.
        var: String,
        /// The index given.
        index: u32,
        /// How many values the variable has.
        values: u32,
    },
    /// The value was removed from the variable by [`Model::restrict`](crate::Model::restrict).
    Restricted {
        /// The variable's name.
        var: String,
        /// The index given.
        index: u32,
    },
    /// A constraint does not hold.
    Violated {
        /// The constraint's position among the model's constraints (0 is the first added).
        position: usize,
        /// A short description of it.
        constraint: String,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::WrongLength { values, vars } => {
                write!(f, "{values} values for a model of {vars} variables")
            }
            CheckError::OutOfRange { var, index, values } => {
                write!(
                    f,
                    "value index {index} of {var} is out of range (it has {values} values)"
                )
            }
            CheckError::Restricted { var, index } => {
                write!(
                    f,
                    "value index {index} of {var} was ruled out by a restriction"
                )
            }
            CheckError::Violated {
                position,
                constraint,
            } => write!(f, "constraint {position} ({constraint}) does not hold"),
        }
    }
}

impl std::error::Error for CheckError {}

impl<'a> Model<'a> {
    /// Whether value indices `values` (one per variable) satisfy every restriction and
    /// every constraint.
    pub(crate) fn satisfied(&self, values: &[u32]) -> bool {
        self.initial
            .iter()
            .all(|(&var, domain)| domain.contains(values[var as usize]))
            && self.constraints.iter().all(|c| c.check(values))
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
            if !c.check(values) {
                return Err(CheckError::Violated {
                    position,
                    constraint: c.describe(),
                });
            }
        }
        Ok(())
    }
}
