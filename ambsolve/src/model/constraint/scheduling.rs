//! Scheduling: tasks (a start and a duration each) on a unary resource (`disjunctive`) or on
//! a resource of some capacity (`cumulative`), as MiniZinc defines them.
//!
//! Its `Model` methods: scheduling: tasks on a unary resource and on a cumulative one.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{Constraint, Int, IntArg, Meaning, describe_all, vars_of};
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
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
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
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
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

impl<'a> Model<'a> {
    /// No two tasks overlap (a *unary resource*, MiniZinc's `disjunctive`): task `i` runs
    /// from `starts[i]` for `durations[i]`, and for every two tasks
    /// `s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]`. A task of duration 0 is free: it may
    /// stand anywhere, even inside another task (see
    /// [`disjunctive_strict`](Model::disjunctive_strict) for the other reading). Every
    /// duration must be at least 0 (a negative one makes the constraint false).
    ///
    /// Starts and durations are variables with integer values or constants (see
    /// [`IntArg`]). The trail engine reasons on the tasks' time windows (overload checking,
    /// detectable precedences, not-first/not-last and edge finding, after Vilím's Θ-trees,
    /// on the least duration of each task) and on pairs of tasks whose duration may be 0 or
    /// is not fixed (pruning durations too).
    ///
    /// # Errors
    /// Starts and durations of different lengths make the model invalid (as does an
    /// argument the model cannot use, see [`IntArg`]).
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, Model};
    ///
    /// // Three tasks of lengths 2, 1 and 1 in the window 0..4, one at a time: they fill
    /// // it, in any of 3! orders.
    /// let mut m = Model::new();
    /// let s = m.vars("s", 3, 0..4i64);
    /// m.disjunctive(&s, [2, 1, 1]);
    /// m.linear([(1, &s[0])], Cmp::Le, 2); // the first task ends by 4 too
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 6);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn disjunctive<S: Into<IntArg>, D: Into<IntArg>>(
        &mut self,
        starts: impl IntoIterator<Item = S>,
        durations: impl IntoIterator<Item = D>,
    ) {
        self.unary(starts, durations, false);
    }

    /// No two tasks overlap, tasks of duration 0 included (MiniZinc's
    /// `disjunctive_strict`): for every two tasks `s[i] + d[i] <= s[j] || s[j] + d[j] <=
    /// s[i]`, so a task of duration 0 may stand at another's start or end but not strictly
    /// inside it. Every duration must be at least 0. Arguments and propagation as for
    /// [`disjunctive`](Model::disjunctive).
    ///
    /// # Errors
    /// As for [`disjunctive`](Model::disjunctive).
    ///
    /// ```
    /// use ambsolve::{Engine, IntArg, Model};
    ///
    /// // A task of length 3 at 0, and a task of length 0 anywhere in 0..5: strictly, not
    /// // at 1 or 2; plainly, anywhere.
    /// for (strict, solutions) in [(true, 3), (false, 5)] {
    ///     let mut m = Model::new();
    ///     let point = m.var(0..5i64);
    ///     let starts = [IntArg::from(0), IntArg::from(&point)];
    ///     if strict {
    ///         m.disjunctive_strict(starts, [3, 0]);
    ///     } else {
    ///         m.disjunctive(starts, [3, 0]);
    ///     }
    ///     assert_eq!(m.solve(Engine::Trail).count()?.solutions, solutions);
    ///     assert_eq!(m.solve(Engine::Replay).count()?.solutions, solutions);
    /// }
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn disjunctive_strict<S: Into<IntArg>, D: Into<IntArg>>(
        &mut self,
        starts: impl IntoIterator<Item = S>,
        durations: impl IntoIterator<Item = D>,
    ) {
        self.unary(starts, durations, true);
    }

    /// At every time, the tasks running then use at most `capacity` (a *cumulative
    /// resource*, MiniZinc's `cumulative`): task `i` runs from `starts[i]` for
    /// `durations[i]` (at `t` when `s[i] <= t < s[i] + d[i]`) and uses `demands[i]`; the
    /// demands of the tasks running at any time add up to at most `capacity`. Durations
    /// and demands must be at least 0, and with at least one task the capacity too
    /// (otherwise the constraint is false).
    ///
    /// Every argument is a variable with integer values or a constant (see [`IntArg`]).
    /// The trail engine propagates by the time table: each task's *compulsory part* (from
    /// its latest start to its earliest end, at its least demand) adds to a profile, no
    /// task may start or end where it would raise the profile above the largest capacity
    /// left, demands are bounded by what the profile leaves, and the capacity is at least
    /// the profile's peak.
    ///
    /// # Errors
    /// Starts, durations and demands of different lengths make the model invalid (as does
    /// an argument the model cannot use, see [`IntArg`]).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Two tasks of length 2 using 1 and 2 of a capacity 2, starting in 0..3: they may
    /// // not overlap, so one starts at 0 and the other at 2.
    /// let mut m = Model::new();
    /// let s = m.vars("s", 2, 0..3i64);
    /// m.cumulative(&s, [2, 2], [1, 2], 2);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn cumulative<S: Into<IntArg>, D: Into<IntArg>, R: Into<IntArg>>(
        &mut self,
        starts: impl IntoIterator<Item = S>,
        durations: impl IntoIterator<Item = D>,
        demands: impl IntoIterator<Item = R>,
        capacity: impl Into<IntArg>,
    ) {
        let (Some(starts), Some(durations), Some(demands), Some(capacity)) = (
            self.ints(starts),
            self.ints(durations),
            self.ints(demands),
            self.int(capacity),
        ) else {
            return;
        };
        if self.same_lengths(
            "cumulative",
            &starts,
            &[("durations", &durations), ("demands", &demands)],
        ) {
            self.post(Constraint::Cumulative(Arc::new(Cumulative::new(
                starts, durations, demands, capacity,
            ))));
        }
    }

    fn unary<S: Into<IntArg>, D: Into<IntArg>>(
        &mut self,
        starts: impl IntoIterator<Item = S>,
        durations: impl IntoIterator<Item = D>,
        strict: bool,
    ) {
        let (Some(starts), Some(durations)) = (self.ints(starts), self.ints(durations)) else {
            return;
        };
        let kind = if strict {
            "disjunctive_strict"
        } else {
            "disjunctive"
        };
        if self.same_lengths(kind, &starts, &[("durations", &durations)]) {
            self.post(Constraint::Disjunctive(Arc::new(Disjunctive::new(
                starts, durations, strict,
            ))));
        }
    }

    /// Whether each of `others` has one item per start; else the model is invalid.
    fn same_lengths(&mut self, kind: &str, starts: &[Int], others: &[(&str, &[Int])]) -> bool {
        for (what, items) in others {
            if items.len() != starts.len() {
                self.invalid(format!(
                    "{kind}: {} starts but {} {what} (one per task)",
                    starts.len(),
                    items.len()
                ));
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::sequenced;
    use crate::model::Model;

    #[test]
    fn a_task_of_duration_zero_may_touch_but_not_enter_another() {
        assert!(sequenced(&mut [(0, 3), (3, 0), (3, 2)]));
        assert!(sequenced(&mut [(0, 3), (0, 0)]));
        assert!(sequenced(&mut [(2, 0), (2, 0)]));
        assert!(!sequenced(&mut [(0, 3), (1, 0)]));
        assert!(!sequenced(&mut [(0, 3), (2, 2)]));
        assert!(!sequenced(&mut [(5, 1), (0, 10)]));
    }

    #[test]
    fn arrays_of_different_lengths_make_the_model_invalid() {
        let mut m = Model::new();
        let s = m.vars("s", 3, 0..4i64);
        m.disjunctive(&s, [1, 2]);
        let error = m.error().map(str::to_string);
        assert_eq!(
            error.as_deref(),
            Some("disjunctive: 3 starts but 2 durations (one per task)")
        );
        let mut m = Model::new();
        let s = m.vars("s", 2, 0..4i64);
        m.cumulative(&s, [1, 2], [1, 1, 1], 2);
        assert!(m.error().is_some_and(|e| e.contains("3 demands")));
        let mut m = Model::new();
        let s = m.vars("s", 2, 0..4i64);
        m.disjunctive_strict(&s, [1, 2]);
        m.cumulative(&s, [1, 2], [1, 1], 2);
        assert_eq!(m.error(), None);
    }

    #[test]
    fn another_models_variable_makes_the_model_invalid() {
        let mut other = Model::new();
        let x = other.var(0..3i64);
        let mut m = Model::new();
        m.var(0..3i64);
        m.cumulative([&x], [1], [1], 1);
        assert!(m.error().is_some_and(|e| e.contains("another model")));
    }
}
