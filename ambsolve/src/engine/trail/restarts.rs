//! Restarts on the trail engine: after a budget of failures (Luby), a first-solution
//! search starts again from the root with its value order shuffled.

use super::TrailEngine;
use super::pick::ValuePick;
use crate::choice::ChoiceStack;
use crate::observe::Event;
use crate::strategy::{Restarts, ValueOrder};

/// The strategy's restarts, the run under way (0 before any restart) and its failures.
pub(super) struct Restarting {
    pub(super) restarts: Option<Restarts>,
    pub(super) run: u64,
    pub(super) run_failures: u64,
}

impl Restarting {
    pub(super) fn new(restarts: Option<Restarts>) -> Self {
        Restarting {
            restarts,
            run: 0,
            run_failures: 0,
        }
    }
}

impl TrailEngine<'_> {
    /// The value order of the current run: the strategy's, shuffled after a restart.
    pub(super) fn run_value_order(&self) -> ValueOrder {
        match (&self.restarts.restarts, self.restarts.run) {
            (Some(restarts), run) if run > 0 => ValueOrder::Random(restarts.seed.wrapping_add(run)),
            _ => self.values.order.clone(),
        }
    }

    /// Starts a new run from the root, if the restart budget of this one is spent.
    pub(super) fn maybe_restart(&mut self) -> bool {
        let Some(restarts) = self.restarts.restarts else {
            return false;
        };
        if self.scope.floor > 0 || self.scope.cutoff.is_some() {
            // A subproblem, or a search being split, keeps to its order.
            return false;
        }
        if self.counters.solutions > 0
            || self.restarts.run_failures <= restarts.budget(self.restarts.run)
        {
            return false;
        }
        self.store.undo_to(0);
        self.store.set_level(0);
        self.stack = ChoiceStack::new();
        self.values.listed.clear();
        self.values.starts.clear();
        self.restarts.run += 1;
        self.restarts.run_failures = 0;
        self.counters.restarts += 1;
        self.report(|| Event::Restart);
        // After a restart values are listed (shuffled) whatever the strategy's order.
        self.values.pick = ValuePick::Listed;
        true
    }
}
