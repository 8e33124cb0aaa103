//! `Model` methods for the objective: what to minimise or maximise, and its value.

use super::constraint::Constraint;
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
        self.objective = self.checked_objective(sense, terms, constant);
    }

    /// The objective `Σ coefficient × variable + constant` as engines see it (a cost to
    /// minimise); `None` if the model became invalid.
    fn checked_objective<X: Into<Term>>(
        &mut self,
        sense: Sense,
        terms: impl IntoIterator<Item = X>,
        constant: i64,
    ) -> Option<ObjectiveDef> {
        let sign = match sense {
            Sense::Minimize => 1,
            Sense::Maximize => -1,
        };
        let cost = self.linear_def(terms, Cmp::Lt, 0, sign)?;
        ObjectiveDef::new(sense, cost, constant)
            .map_err(|message| self.fail(message))
            .ok()
    }

    /// Adds a further objective `Σ coefficient × variable + constant` (lexicographic
    /// optimisation): [`best`](crate::Solver::best) and
    /// [`improving`](crate::Solver::improving) optimise the model's
    /// [`objective`](Model::objective) first, then this one among the solutions where
    /// the first is at its optimum, then the next one added, and so on, each with a
    /// proof of its own. Each improvement is better than the last in that order:
    /// [`Improvement::objectives`](crate::Improvement::objectives) gives every
    /// objective's value. Without an objective set first the model is invalid.
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, Model, Sense};
    ///
    /// // The most items within a budget of 10, then the cheapest such choice.
    /// let costs = [4, 3, 5, 2];
    /// let mut m = Model::new();
    /// let take = m.vars("take", 4, 0..2i64);
    /// let cost = || costs.iter().zip(&take).map(|(&c, t)| (c, t));
    /// m.linear(cost(), Cmp::Le, 10);
    /// m.maximize(take.iter().map(|t| (1, t)));
    /// m.then_objective(Sense::Minimize, cost(), 0);
    /// let best = m.solve(Engine::Trail).best()?;
    /// assert_eq!((best.objectives, best.proved), (vec![3, 9], true));
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn then_objective<X: Into<Term>>(
        &mut self,
        sense: Sense,
        terms: impl IntoIterator<Item = X>,
        constant: i64,
    ) {
        if self.objective.is_none() {
            return self.fail(
                "a further objective (then_objective) needs the model's objective first"
                    .to_string(),
            );
        }
        if let Some(def) = self.checked_objective(sense, terms, constant) {
            self.then.push(def);
        }
    }

    /// Removes the objective, and any further ones, if any.
    pub(crate) fn clear_objective(&mut self) {
        self.objective = None;
        self.then.clear();
    }

    /// The objectives in order: the model's, then the further ones.
    pub(crate) fn objectives(&self) -> impl Iterator<Item = &ObjectiveDef> {
        self.objective.iter().chain(&self.then)
    }

    /// Whether the model has objectives after its first (a lexicographic optimisation).
    pub(crate) fn is_lexicographic(&self) -> bool {
        !self.then.is_empty()
    }

    /// The search of objective `stage` (0 the model's own): this model, with the
    /// objectives before it fixed at the costs `fixed`, this one its only objective,
    /// and its cost kept below `below` if given. `None` if no cost is below `below`.
    pub(crate) fn lexicographic_stage(
        &self,
        stage: usize,
        fixed: &[i64],
        below: Option<i64>,
    ) -> Option<Model<'a>> {
        let defs: Vec<ObjectiveDef> = self.objectives().cloned().collect();
        let mut m = self.clone();
        m.clear_objective();
        for (def, &cost) in defs.iter().zip(fixed) {
            m.cost_within(def, Cmp::Eq, cost);
        }
        let def = &defs[stage];
        if let Some(below) = below {
            m.cost_within(def, Cmp::Le, below.checked_sub(1)?);
        }
        m.objective = Some(def.clone());
        Some(m)
    }

    /// The constraint `cost cmp bound` on the cost of objective `def`.
    fn cost_within(&mut self, def: &ObjectiveDef, cmp: Cmp, bound: i64) {
        let mut linear = def.cost.clone();
        linear.cmp = cmp;
        match i64::try_from(def.terms_at_most(i128::from(bound))) {
            Ok(rhs) => {
                linear.rhs = rhs;
                self.constraints.push(Constraint::Linear(linear));
            }
            Err(_) => self.fail(format!(
                "a lexicographic stage bounds an objective's sum at {}, which does not fit in an i64",
                def.terms_at_most(i128::from(bound))
            )),
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

    /// Every objective's value at `assignment`, in order (the model's, then the further
    /// ones of [`then_objective`](Model::then_objective)); empty if the model has no
    /// objective or the assignment does not give every variable a value in range.
    pub fn objective_values(&self, assignment: &Assignment) -> Vec<i64> {
        let values = assignment.indices();
        let fits = values.len() == self.num_vars()
            && values.iter().zip(&self.universes).all(|(&i, &u)| i < u);
        if !fits {
            return Vec::new();
        }
        self.objectives().map(|o| o.value(values)).collect()
    }

    pub(crate) fn objective_def(&self) -> Option<&ObjectiveDef> {
        self.objective.as_ref()
    }
}
