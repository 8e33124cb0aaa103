//! Propagators of scheduling: tasks on a unary resource (`disjunctive`) and on a
//! cumulative one (`cumulative`).

mod cumulative;
mod disjunctive;
mod explain;
mod theta_tree;
mod unary;
mod unary_explain;

/// A task as the unary rules see it: it runs for `p > 0` within `est..lct`. The rules
/// compute in `i64`: their caller gives them times within ±2⁵⁹ and durations summing to
/// at most 2⁵⁹, so that no sum overflows and [`theta_tree::NONE`] stays below every time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    /// Earliest start.
    pub(super) est: i64,
    /// Latest completion.
    pub(super) lct: i64,
    /// Duration (the least one, for a variable duration).
    pub(super) p: i64,
}

impl Window {
    /// Latest start.
    pub(super) fn lst(&self) -> i64 {
        self.lct - self.p
    }

    /// Earliest completion.
    pub(super) fn ect(&self) -> i64 {
        self.est + self.p
    }

    /// The same task with time reversed (`t` becomes `-t`): a rule that raises earliest
    /// starts, run on mirrored windows, lowers latest completions.
    pub(super) fn mirror(&self) -> Window {
        Window {
            est: -self.lct,
            lct: -self.est,
            p: self.p,
        }
    }
}
