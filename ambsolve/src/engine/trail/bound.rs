//! Branch and bound on the trail engine: the best cost found (shared between searches)
//! kept as a bound the propagation enforces, and each solution checked against it.

use std::sync::Arc;

use crate::control::Incumbent;
use crate::model::Model;
use crate::propagate::Propagation;
use crate::store::Store;

/// The best cost so far (shared), the bound last propagated, and the objective's value at
/// the solution the search stands on.
pub(super) struct Bound {
    incumbent: Option<Arc<Incumbent>>,
    seen: Option<i64>,
    pub(super) value: Option<i64>,
}

impl Bound {
    /// `incumbent` if the model has an objective to bound.
    pub(super) fn new(incumbent: Option<Arc<Incumbent>>, model: &Model<'_>) -> Self {
        Bound {
            incumbent: incumbent.filter(|_| model.objective_def().is_some()),
            seen: None,
            value: None,
        }
    }

    /// Whether the search optimises.
    pub(super) fn is_set(&self) -> bool {
        self.incumbent.is_some()
    }

    /// If a better solution was found since the bound was last propagated, the next
    /// propagation keeps the cost below it.
    #[inline]
    pub(super) fn sync(&mut self, propagation: &mut Propagation<'_>) {
        if let Some(incumbent) = &self.incumbent {
            let bound = incumbent.bound();
            if bound != self.seen {
                self.seen = bound;
                if let Some(best) = bound {
                    propagation.tighten(i128::from(best) - 1);
                }
            }
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
