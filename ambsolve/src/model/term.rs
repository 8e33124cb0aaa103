//! Linear terms `coefficient × variable` and comparison operators.

use crate::model::integer::{Images, Integer, images_of};
use crate::var::{ModelId, Var, VarId};

/// How the two sides of a linear constraint compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `sum == rhs`
    Eq,
    /// `sum != rhs`
    Ne,
    /// `sum < rhs`
    Lt,
    /// `sum <= rhs`
    Le,
    /// `sum > rhs`
    Gt,
    /// `sum >= rhs`
    Ge,
}

impl Cmp {
    /// The comparison that holds exactly when this one does not: `<` for `>=`.
    pub fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }

    /// Whether `lhs` compares to `rhs` this way.
    pub fn holds<T: Ord>(self, lhs: T, rhs: T) -> bool {
        match self {
            Cmp::Eq => lhs == rhs,
            Cmp::Ne => lhs != rhs,
            Cmp::Lt => lhs < rhs,
            Cmp::Le => lhs <= rhs,
            Cmp::Gt => lhs > rhs,
            Cmp::Ge => lhs >= rhs,
        }
    }
}

/// One term `coefficient × variable` of a linear constraint, with the integer image of each
/// of the variable's values.
///
/// Build one with [`Term::new`] or from a pair `(coefficient, &var)`.
#[derive(Clone, Debug)]
pub struct Term {
    pub(crate) var: VarId,
    /// The model that declared the variable.
    pub(crate) model: ModelId,
    pub(crate) coef: i64,
    pub(crate) images: Result<Images, usize>,
}

impl Term {
    /// `coef × var`.
    pub fn new<T: Integer>(coef: i64, var: &Var<T>) -> Self {
        Term {
            var: var.id,
            model: var.model,
            coef,
            images: images_of(&var.values),
        }
    }
}

impl<T: Integer> From<(i64, &Var<T>)> for Term {
    fn from((coef, var): (i64, &Var<T>)) -> Self {
        Term::new(coef, var)
    }
}

impl<T: Integer> From<&Var<T>> for Term {
    fn from(var: &Var<T>) -> Self {
        Term::new(1, var)
    }
}
