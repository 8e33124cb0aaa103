//! Scheduling: tasks (a start and a duration each) on a unary resource (`disjunctive`) or on
//! a resource of some capacity (`cumulative`), as MiniZinc defines them.

use crate::model::global::{Int, Meaning, vars_of};
use crate::var::VarId;

/// No two tasks overlap: for every two tasks `i`, `j`,
/// `s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]`, and every duration is at least 0.
///
/// Not strict (MiniZinc's `disjunctive`): a task of duration 0 is free (it may stand
/// anywhere, even inside another task). Strict (`disjunctive_strict`): a task of duration 0
/// at `t` may not stand strictly inside another task (it may at its start or its end).
pub(crate) struct Disjunctive {
    pub(crate) starts: Vec<Int>,
    pub(crate) durations: Vec<Int>,
    pub(crate) strict: bool,
    pub(crate) vars: Vec<VarId>,
}

impl Disjunctive {
    pub(crate) fn new(starts: Vec<Int>, durations: Vec<Int>, strict: bool) -> Self {
        let vars = vars_of(starts.iter().chain(&durations));
        Disjunctive {
            starts,
            durations,
            strict,
            vars,
        }
    }
}

impl Meaning for Disjunctive {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn holds(&self, values: &[u32]) -> bool {
        // (start, duration) of the tasks that take part: all of them if strict, else
        // those of a positive duration.
        let mut tasks = Vec::with_capacity(self.starts.len());
        for (s, d) in self.starts.iter().zip(&self.durations) {
            let (s, d) = (i128::from(s.value(values)), i128::from(d.value(values)));
            if d < 0 {
                return false;
            }
            if self.strict || d > 0 {
                tasks.push((s, d));
            }
        }
        // In (start, duration) order, a task may overlap no earlier one exactly when it
        // starts at or after the latest end before it (see `sequenced`).
        sequenced(&mut tasks)
    }

    fn describe(&self) -> String {
        format!(
            "{} starts [{}] durations [{}]",
            if self.strict {
                "disjunctive_strict"
            } else {
                "disjunctive"
            },
            describe_all(&self.starts),
            describe_all(&self.durations)
        )
    }
}

/// Whether the tasks `(start, duration)` (durations at least 0) pairwise satisfy
/// `s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]`. Sorted by (start, duration), task `i`
/// before `j` has `s[i] < s[j]`, or `s[i] == s[j]` and `d[i] <= d[j]`: either way the pair
/// holds exactly when `s[i] + d[i] <= s[j]`, so each task must start at or after every end
/// before it.
fn sequenced(tasks: &mut [(i128, i128)]) -> bool {
    tasks.sort_unstable();
    let mut latest_end = i128::MIN;
    for &(s, d) in tasks.iter() {
        if s < latest_end {
            return false;
        }
        latest_end = latest_end.max(s + d);
    }
    true
}

/// At every time `t`, the demands of the tasks running at `t` (`s[i] <= t < s[i] + d[i]`)
/// add up to at most the capacity; every duration and demand is at least 0, and with at
/// least one task the capacity is at least 0 (as MiniZinc's `cumulative`).
pub(crate) struct Cumulative {
    pub(crate) starts: Vec<Int>,
    pub(crate) durations: Vec<Int>,
    pub(crate) demands: Vec<Int>,
    pub(crate) capacity: Int,
    pub(crate) vars: Vec<VarId>,
}

impl Cumulative {
    pub(crate) fn new(
        starts: Vec<Int>,
        durations: Vec<Int>,
        demands: Vec<Int>,
        capacity: Int,
    ) -> Self {
        let vars = vars_of(
            starts
                .iter()
                .chain(&durations)
                .chain(&demands)
                .chain(std::iter::once(&capacity)),
        );
        Cumulative {
            starts,
            durations,
            demands,
            capacity,
            vars,
        }
    }
}

impl Meaning for Cumulative {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn holds(&self, values: &[u32]) -> bool {
        let capacity = i128::from(self.capacity.value(values));
        if !self.starts.is_empty() && capacity < 0 {
            return false;
        }
        // (time, change of the load): an end sorts before a start at the same time.
        let mut events = Vec::with_capacity(2 * self.starts.len());
        for ((s, d), r) in self.starts.iter().zip(&self.durations).zip(&self.demands) {
            let s = i128::from(s.value(values));
            let d = i128::from(d.value(values));
            let r = i128::from(r.value(values));
            if d < 0 || r < 0 {
                return false;
            }
            if d > 0 && r > 0 {
                events.push((s, r));
                events.push((s + d, -r));
            }
        }
        events.sort_unstable_by_key(|&(t, change)| (t, change > 0));
        let mut load = 0i128;
        for (_, change) in events {
            load += change;
            if load > capacity {
                return false;
            }
        }
        true
    }

    fn describe(&self) -> String {
        format!(
            "cumulative starts [{}] durations [{}] demands [{}] capacity {}",
            describe_all(&self.starts),
            describe_all(&self.durations),
            describe_all(&self.demands),
            self.capacity.describe()
        )
    }
}

fn describe_all(items: &[Int]) -> String {
    items
        .iter()
        .map(Int::describe)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::sequenced;

    #[test]
    fn a_task_of_duration_zero_may_touch_but_not_enter_another() {
        assert!(sequenced(&mut [(0, 3), (3, 0), (3, 2)]));
        assert!(sequenced(&mut [(0, 3), (0, 0)]));
        assert!(sequenced(&mut [(2, 0), (2, 0)]));
        assert!(!sequenced(&mut [(0, 3), (1, 0)]));
        assert!(!sequenced(&mut [(0, 3), (2, 2)]));
        assert!(!sequenced(&mut [(5, 1), (0, 10)]));
    }
}
