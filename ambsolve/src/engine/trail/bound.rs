//! Branch and bound on the trail engine: the best cost found (shared between searches)
//! kept as a bound the propagation enforces, and each solution checked against it.

use std::sync::Arc;

use crate::control::Incumbent;
use crate::model::Model;
use crate::propagators::Fixpoint;
use crate::store::Store;

/// The best cost so far (shared) and the objective's value at the solution the search
/// stands on.
pub(super) struct Bound {
    incumbent: Option<Arc<Incumbent>>,
    pub(super) value: Option<i64>,
    /// The bound on the objective's terms that a cost of 0 stands for.
    zero: i128,
}

impl Bound {
    /// `incumbent` if the model has an objective to bound.
    pub(super) fn new(incumbent: Option<Arc<Incumbent>>, model: &Model<'_>) -> Self {
        Bound {
            incumbent: incumbent.filter(|_| model.objective_def().is_some()),
            value: None,
            zero: model.objective_def().map_or(0, |o| o.terms_at_most(0)),
        }
    }

    /// Whether the search optimises.
    pub(super) fn is_set(&self) -> bool {
        self.incumbent.is_some()
    }

    /// The next propagation keeps the cost below the best solution found so far. The bound
    /// is not trailed, and what it pruned below one node is undone when the search
    /// backtracks: so its propagator is scheduled at every node, not only after an
    /// improvement (else a subtree whose cost's variables did not change since, such as one
    /// with the objective variable already fixed, never sees the better bound and is
    /// searched to its leaves).
    #[inline]
    pub(super) fn sync(&mut self, fixpoint: &mut Fixpoint<'_>) {
        if let Some(best) = self.incumbent.as_ref().and_then(|i| i.bound()) {
            fixpoint.tighten(self.zero + i128::from(best) - 1);
        }
    }

    /// Whether the solution `store` holds improves on the best one (always true without
    /// an objective); if so it becomes the best.
    pub(super) fn improves(&mut self, model: &Model<'_>, store: &Store) -> bool {
        let Some(incumbent) = &self.incumbent else {
            return true;
        };
        let Some(objective) = model.objective_def() else {
            return true;
        };
        let cost = objective.cost(&store.assignment());
        // Another search sharing the incumbent may have found better since this node
        // was propagated.
        if !incumbent.improve(cost) {
            return false;
        }
        self.value = Some(objective.value_of(cost));
        true
    }
}
