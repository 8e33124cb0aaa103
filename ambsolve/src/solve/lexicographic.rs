//! Several objectives in order (lexicographic optimisation): the first is optimised, then
//! the second with the first fixed at its optimum, and so on, each stage a
//! branch-and-bound search of its own with its own proof.

use crate::error::SearchError;
use crate::limits::StopReason;
use crate::model::{Assignment, Cmp, Model, Sense, Term};
use crate::solve::Solver;
use crate::stats::Stats;

/// What [`Model::best_lexicographic`] found.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LexBest {
    /// The best solution found: optimal for every objective in order when `proved`;
    /// `None` if the model has no solution (`proved`) or none was found before a limit.
    pub solution: Option<Assignment>,
    /// The value of each objective reached, in order: every objective's when `proved`;
    /// else those of the stages run, the last one's the best found when a limit stopped
    /// it.
    pub objectives: Vec<i64>,
    /// Whether every stage was exhausted: each objective is optimal given the ones
    /// before it at their optima (or the model has no solution).
    pub proved: bool,
    /// Why the last stage run stopped.
    pub stop_reason: StopReason,
    /// What the stages did, added up.
    pub stats: Stats,
}

impl<'a> Model<'a> {
    /// Optimises `objectives` in order (lexicographically): the first as
    /// [`best`](crate::Solver::best) would, then the second among the solutions where the
    /// first is at its optimum, and so on. Each objective is `(sense, terms)`, as for
    /// [`objective`](Model::objective); the model's own objective, if any, is replaced.
    /// `solver` starts each stage's search from the stage's model (its engine,
    /// strategy and limits are yours): `|m| m.solve(Engine::Trail)`.
    ///
    /// A stage that a limit stops ends the whole: its best solution and the values so
    /// far are returned, not proved.
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, Model, Sense};
    ///
    /// // Two tasks of length 2 and 3 on one machine, in 0..10: first the smallest
    /// // lateness of task b after its due date 3, then the earliest end.
    /// let mut m = Model::new();
    /// let a = m.var(0..10i64);
    /// let b = m.var(0..10i64);
    /// let late = m.var(0..10i64);
    /// let end = m.var(0..13i64);
    /// m.disjunctive([&a, &b], [2, 3]);
    /// m.linear([(1, &b), (-1, &late)], Cmp::Le, 0); // b + 3 - 3 <= late
    /// m.linear([(1, &a), (-1, &end)], Cmp::Le, -2);
    /// m.linear([(1, &b), (-1, &end)], Cmp::Le, -3);
    /// let best = m.best_lexicographic(
    ///     [(Sense::Minimize, vec![(1, &late).into()]), (Sense::Minimize, vec![(1, &end).into()])],
    ///     |m| m.solve(Engine::Trail),
    /// )?;
    /// assert_eq!((best.objectives, best.proved), (vec![0, 5], true));
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    ///
    /// # Errors
    /// What a stage's search returns: [`SearchError::InvalidModel`] for a model built
    /// wrongly (an objective whose values do not fit in an `i64` among them).
    pub fn best_lexicographic(
        &self,
        objectives: impl IntoIterator<Item = (Sense, Vec<Term>)>,
        solver: impl Fn(&Model<'a>) -> Solver<'a, Assignment>,
    ) -> Result<LexBest, SearchError> {
        let objectives: Vec<(Sense, Vec<Term>)> = objectives.into_iter().collect();
        let mut stage_model = self.clone();
        stage_model.clear_objective();
        let mut found = LexBest {
            solution: None,
            objectives: Vec::new(),
            proved: true,
            stop_reason: StopReason::Exhausted,
            stats: Stats::default(),
        };
        if objectives.is_empty() {
            // Nothing to optimise: any solution is the best.
            found.solution = solver(&stage_model).first()?;
            return Ok(found);
        }
        for (sense, terms) in objectives {
            let mut m = stage_model.clone();
            m.objective(sense, terms.iter().cloned(), 0);
            let best = solver(&m).best()?;
            found.stats += best.stats;
            found.stop_reason = best.stop_reason;
            found.proved = best.proved;
            let Some(value) = best.objective else {
                // No solution: proved, the model has none (first stage); else a limit
                // stopped the stage, and the last stage's best stands.
                return Ok(found);
            };
            found.objectives.push(value);
            found.solution = best.solution;
            if !best.proved {
                return Ok(found);
            }
            // The next stages keep this objective at its optimum.
            stage_model.linear(terms, Cmp::Eq, value);
        }
        Ok(found)
    }
}
