//! Why an assignment is not a solution of a model.

use std::fmt;

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
