//! The part of the tree the trail engine searches: below a subproblem's path (replayed
//! first, never backtracked above), cut at a depth when the search is being split.

use super::{Phase, TrailEngine};
use crate::choice::Scope;
use crate::error::SearchError;

/// The subproblem searched: its path (replayed at the start) and the depth at which
/// nodes are reported as cuts.
pub(super) struct Subtree {
    pub(super) prefix: Vec<u32>,
    pub(super) cutoff: Option<u32>,
    /// Frames at the subproblem's node and above, never backtracked.
    pub(super) floor: usize,
    /// Replaying the subproblem's path.
    pub(super) entering: bool,
}

impl Subtree {
    pub(super) fn new(scope: &Scope) -> Self {
        Subtree {
            prefix: scope.prefix.clone(),
            cutoff: scope.cutoff,
            floor: 0,
            entering: !scope.prefix.is_empty(),
        }
    }
}

impl TrailEngine<'_> {
    /// Replays the subproblem's path: each choice as the search made it, at the
    /// alternative the path gives. False if the path's node has no solution left (a
    /// branch and bound's bound may have ruled it out since the path was cut).
    ///
    /// # Errors
    /// [`SearchError::NoSuchSubproblem`] if the path does not lead to a live node: a
    /// choice has no such alternative, or no choice is left (past a solution), or a node
    /// on the way, the last one included, fails.
    pub(super) fn enter_prefix(&mut self) -> Result<bool, SearchError> {
        let path = std::mem::take(&mut self.scope.prefix);
        for (depth, &index) in path.iter().enumerate() {
            let missing = || SearchError::NoSuchSubproblem { depth, index };
            let var = self.select_var().ok_or_else(missing)?;
            self.open(var);
            // The alternatives before the path's, passed as the search passed them (with
            // their refutations, if the strategy propagates them).
            while self.stack.top().expect("a frame is open").index < index {
                let top = *self.stack.top().expect("a frame is open");
                self.store.undo_to(top.mark);
                self.refute(&top).map_err(|_| missing())?;
                let (next, value) = self.value_after(&top).ok_or_else(missing)?;
                let frame = self.stack.top_mut().expect("a frame is open");
                frame.index = next;
                frame.value = value;
            }
            if self.stack.top().expect("a frame is open").index != index {
                return Err(missing());
            }
            self.counters.replayed += 1;
            self.try_top(false);
            if self.phase == Phase::Backtrack {
                // Replayed without the bound, a node fails as it did when the path was
                // cut: a path through it names no subproblem.
                return Err(missing());
            }
        }
        self.scope.floor = self.stack.len();
        self.scope.prefix = path;
        self.scope.entering = false;
        let mut entered = true;
        if self.bound.is_set() {
            // The bound found so far, from the subproblem's node on.
            self.sync_bound();
            if self.propagate().is_err() {
                self.node_failed();
                entered = false;
            }
        }
        Ok(entered)
    }

    /// The error for a subproblem whose path ends at a node that fails.
    pub(super) fn failed_subproblem(&self) -> SearchError {
        let depth = self.scope.floor - 1;
        SearchError::NoSuchSubproblem {
            depth,
            index: self.scope.prefix[depth],
        }
    }
}
