//! The limits of a distributed run, held by rank 0: the job's node budget shared out task
//! by task, its deadline, its cancellation flag, and the limits each task is handed.

use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use crate::limits::{CancelFlag, StopReason};

/// The limits of a whole distributed run, held by rank 0 (other ranks ignore them): once
/// one is reached rank 0 hands out no more tasks, and each task it hands out gets
/// [`TaskLimits`] that end it at the job's deadline and within the job's nodes.
#[derive(Clone, Debug, Default)]
pub struct JobLimits {
    /// The nodes every task of the run may take together.
    pub nodes: Option<u64>,
    /// When the run stops.
    pub deadline: Option<Instant>,
    /// Set: the run stops (tasks already running stop through their own flags; give each
    /// process's searches the flag its signal handler sets).
    pub cancel: Option<CancelFlag>,
}

/// The limits a task is handed with: the nodes it may take, the time left until the job's
/// deadline. `None`: no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskLimits {
    /// The nodes it may take: its share of the job's budget.
    pub nodes: Option<u64>,
    /// The time left until the job's deadline.
    pub time: Option<Duration>,
}

impl TaskLimits {
    /// These limits `waited` after they were handed out: the time left shortened by it.
    pub(super) fn after(self, waited: Duration) -> Self {
        TaskLimits {
            nodes: self.nodes,
            time: self.time.map(|t| t.saturating_sub(waited)),
        }
    }
}

/// Rank 0's account of the job's limits while tasks are handed out.
///
/// Each task handed out takes an equal share of the nodes not yet given out (the nodes
/// left over the `slots` tasks that can hold a share at once), and gives back what it did not use
/// when its result arrives; so the tasks together never take more than the budget, and a
/// task that uses up its share stops the run.
#[derive(Debug)]
pub(super) struct Budget {
    limits: JobLimits,
    slots: u64,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Nodes not given out.
    left: u64,
    /// Nodes given to each task handed out and not yet back (by slot).
    given: Vec<u64>,
    /// Why rank 0 stopped handing tasks out, if it did.
    stopped: Option<StopReason>,
}

impl Budget {
    /// The account of `limits` over `tasks` tasks, `slots` of which run at once.
    pub(super) fn new(limits: &JobLimits, tasks: usize, slots: usize) -> Self {
        Budget {
            limits: limits.clone(),
            slots: slots.max(1) as u64,
            state: Mutex::new(State {
                left: limits.nodes.unwrap_or(0),
                given: vec![0; tasks],
                stopped: None,
            }),
        }
    }

    /// The limits of task `slot`, handed out now; `None` if a limit of the job stops the
    /// run (then no task is handed out any more).
    pub(super) fn hand_out(&self, slot: usize) -> Option<TaskLimits> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.stopped.is_some() {
            return None;
        }
        let now = Instant::now();
        let stop = if self
            .limits
            .cancel
            .as_ref()
            .is_some_and(CancelFlag::is_cancelled)
        {
            Some(StopReason::Cancelled)
        } else if self.limits.deadline.is_some_and(|d| now >= d) {
            Some(StopReason::TimeLimit)
        } else if self.limits.nodes.is_some() && state.left == 0 {
            Some(StopReason::NodeLimit)
        } else {
            None
        };
        if stop.is_some() {
            state.stopped = stop;
            return None;
        }
        let nodes = self.limits.nodes.map(|_| {
            let share = (state.left / self.slots).max(1);
            state.left -= share;
            if let Some(given) = state.given.get_mut(slot) {
                *given = share;
            }
            share
        });
        Some(TaskLimits {
            nodes,
            time: self
                .limits
                .deadline
                .map(|d| d.saturating_duration_since(now)),
        })
    }

    /// Task `slot` came back having used `nodes`: what it did not use goes back to the
    /// budget.
    pub(super) fn give_back(&self, slot: usize, nodes: u64) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(given) = state.given.get_mut(slot) {
            let unused = std::mem::take(given).saturating_sub(nodes);
            state.left += unused;
        }
    }

    /// Hands out nothing more: a task stopped on `reason`.
    pub(super) fn stop(&self, reason: StopReason) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.stopped.get_or_insert(reason);
    }

    /// Why rank 0 stopped handing tasks out, if it did.
    pub(super) fn stopped(&self) -> Option<StopReason> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_never_add_up_to_more_than_the_budget_and_unused_nodes_come_back() {
        let limits = JobLimits {
            nodes: Some(100),
            ..JobLimits::default()
        };
        let budget = Budget::new(&limits, 10, 2);
        let first = budget.hand_out(0).unwrap();
        let second = budget.hand_out(1).unwrap();
        assert_eq!((first.nodes, second.nodes), (Some(50), Some(25)));
        assert_eq!(first.time, None);
        budget.give_back(0, 10); // 40 back: 65 left
        assert_eq!(budget.hand_out(2).unwrap().nodes, Some(32));
        budget.give_back(1, 25);
        budget.give_back(2, 32);
        // 33 left, then 17, 8, 4, 2, 1, 1: never more than the budget in all.
        let mut given = 0;
        for slot in 3..10 {
            given += budget.hand_out(slot).unwrap().nodes.unwrap();
        }
        assert_eq!(given, 33);
        assert_eq!(budget.hand_out(9), None);
        assert_eq!(budget.stopped(), Some(StopReason::NodeLimit));
    }

    #[test]
    fn the_deadline_and_the_flag_stop_handing_out() {
        let cancel = CancelFlag::new();
        let limits = JobLimits {
            deadline: Some(Instant::now() + Duration::from_secs(60)),
            cancel: Some(cancel.clone()),
            ..JobLimits::default()
        };
        let budget = Budget::new(&limits, 3, 1);
        let time = budget.hand_out(0).unwrap().time.unwrap();
        assert!(time > Duration::from_secs(59) && time <= Duration::from_secs(60));
        cancel.cancel();
        assert_eq!(budget.hand_out(1), None);
        assert_eq!(budget.stopped(), Some(StopReason::Cancelled));
        let past = JobLimits {
            deadline: Some(Instant::now()),
            ..JobLimits::default()
        };
        assert_eq!(Budget::new(&past, 1, 1).hand_out(0), None);
        let free = Budget::new(&JobLimits::default(), 1, 1);
        assert_eq!(free.hand_out(0), Some(TaskLimits::default()));
        free.stop(StopReason::TimeLimit);
        assert_eq!(free.hand_out(0), None);
        assert_eq!(free.stopped(), Some(StopReason::TimeLimit));
    }
}
