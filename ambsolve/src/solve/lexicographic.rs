//! Several objectives in order (lexicographic optimisation): the first is optimised, then
//! the second with the first fixed at its optimum, and so on, each stage a
//! branch-and-bound search of its own with its own proof.

use std::sync::Arc;

use super::{BoxedSearch, start};
use crate::control::{Control, Incumbent, Interrupt, Search, Step};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::model::{Assignment, Cmp, Model, ObjectiveDef, Sense, Term};
use crate::options::Options;
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

/// The lexicographic optimisation of a model with further objectives
/// ([`Model::then_objective`]): a [`Search`] of improving solutions, each better than the
/// last in the objectives' order. Each stage is a branch-and-bound search of its own on
/// the model with the objectives before it fixed at their optima, started below the
/// best solution's cost, so every solution it finds is better than those before.
pub(super) struct LexSearch<'a> {
    model: Arc<Model<'a>>,
    /// What each stage's search runs with (its incumbent made afresh).
    options: Options,
    defs: Vec<ObjectiveDef>,
    /// The objective the current stage optimises.
    stage: usize,
    current: BoxedSearch<'a, Assignment>,
    /// The costs of the objectives of the stages proved, in order.
    fixed: Vec<i64>,
    /// Every objective's cost at the best solution, once there is one.
    best: Option<Vec<i64>>,
    /// The solution found, to hand out, and every objective's value at it.
    pending: Option<Assignment>,
    values: Vec<i64>,
    /// What the finished stages' searches did.
    spent: Stats,
    /// Every stage is exhausted.
    done: bool,
}

impl<'a> LexSearch<'a> {
    /// The search of `model`, which has further objectives, as `options` say.
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] for an observed search (an observer follows one
    /// search tree, and each stage has its own); the first stage's errors.
    pub(super) fn new(model: &Arc<Model<'a>>, options: &Options) -> Result<Self, SearchError> {
        if options.observer.is_some() {
            return Err(SearchError::Unsupported(
                "a lexicographic optimisation searches one tree per objective, and an observer \
                 follows one: observe a model with one objective"
                    .into(),
            ));
        }
        let mut options = options.clone();
        options.incumbent = Some(Arc::new(Incumbent::new()));
        let first = model
            .lexicographic_stage(0, &[], None)
            .expect("the first stage has no bound");
        let current = start(&Arc::new(first), &options)?;
        Ok(LexSearch {
            model: Arc::clone(model),
            options,
            defs: model.objectives().cloned().collect(),
            stage: 0,
            current,
            fixed: Vec::new(),
            best: None,
            pending: None,
            values: Vec::new(),
            spent: Stats::default(),
            done: false,
        })
    }

    /// Moves on from the stage just exhausted to the next one that can improve on the
    /// best solution; `false` when every stage is exhausted.
    fn next_stage(&mut self) -> Result<bool, SearchError> {
        let Some(best) = &self.best else {
            // The first stage found no solution: the model has none.
            return Ok(false);
        };
        loop {
            if self.stage + 1 == self.defs.len() {
                return Ok(false);
            }
            self.fixed.push(best[self.stage]);
            self.stage += 1;
            // `None`: no cost is below the best's, which is optimal for this stage too.
            if let Some(model) =
                self.model
                    .lexicographic_stage(self.stage, &self.fixed, Some(best[self.stage]))
            {
                let mut options = self.options.clone();
                options.incumbent = Some(Arc::new(Incumbent::new()));
                let next = start(&Arc::new(model), &options)?;
                self.spent += self.current.stats();
                self.current = next;
                return Ok(true);
            }
        }
    }
}

impl Search for LexSearch<'_> {
    type Item = Assignment;

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        while !self.done {
            match self.current.advance(control)? {
                Step::Solution => {
                    let solution = self.current.take_solution();
                    let values = solution.indices();
                    self.best = Some(self.defs.iter().map(|d| d.cost(values)).collect());
                    self.values = self.defs.iter().map(|d| d.value(values)).collect();
                    self.pending = Some(solution);
                    return Ok(Step::Solution);
                }
                Step::Interrupted(Interrupt::Stop(StopReason::Exhausted)) => {
                    self.done = !self.next_stage()?;
                }
                step => return Ok(step),
            }
        }
        Ok(Step::Interrupted(Interrupt::Stop(StopReason::Exhausted)))
    }

    fn take_solution(&mut self) -> Assignment {
        self.pending.take().expect("a solution to take")
    }

    fn stats(&self) -> Stats {
        let mut stats = self.spent;
        stats += self.current.stats();
        stats
    }

    fn progress(&self) -> f64 {
        if self.done {
            return 1.0;
        }
        (self.stage as f64 + self.current.progress()) / self.defs.len() as f64
    }

    fn objective(&self) -> Option<i64> {
        self.values.first().copied()
    }

    fn objectives(&self) -> Vec<i64> {
        self.values.clone()
    }

    fn path(&self) -> Vec<u32> {
        self.current.path()
    }

    fn subproblems(&self) -> Option<(usize, usize)> {
        self.current.subproblems()
    }

    fn workers(&self) -> Vec<std::time::Duration> {
        self.current.workers()
    }
}
