//! `Model` methods for the objective: what to minimise or maximise, and its value.

use super::{Assignment, Cmp, Model, ObjectiveDef, Sense, Term};

impl<'a> Model<'a> {
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

    /// Removes the objective, if any.
    pub(crate) fn clear_objective(&mut self) {
        self.objective = None;
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
}
