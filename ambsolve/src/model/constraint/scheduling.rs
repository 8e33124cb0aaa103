//! Scheduling: tasks (a start and a duration each) on a unary resource (`disjunctive`) or on
//! a resource of some capacity (`cumulative`), as MiniZinc defines them.
//!
//! Its `Model` methods: scheduling: tasks on a unary resource and on a cumulative one.

use std::borrow::Cow;
use std::sync::Arc;

use crate::expr::{BoolExpr, IntExpr};
use crate::model::constraint::args::Arg;
use crate::model::constraint::{Constraint, Int, IntArg, Meaning, describe_all, vars_of};
use crate::model::{Cmp, Lit, Model};
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

    /// Optional tasks on a unary resource (CP-SAT's optional intervals in a
    /// `NoOverlap`, MiniZinc's `disjunctive` over `var opt int` starts): task `i` runs
    /// from `starts[i]` for `durations[i]` if `presence[i]` holds, and is absent
    /// otherwise, taking no time on the resource (its start and duration are then free,
    /// but every duration must still be at least 0). The present tasks do not overlap, as
    /// for [`disjunctive`](Model::disjunctive) (one of duration 0 is free).
    ///
    /// Presence prunes both ways. Each task's duration on the resource is `durations[i]`
    /// when present and 0 when absent, and a [`disjunctive`](Model::disjunctive) over
    /// those runs its rules on the tasks known present, and its pair by pair reasoning
    /// on the others: an optional task that must overlap a present one is absent. A time
    /// table over the same tasks (a [`cumulative`](Model::cumulative) of capacity 1 whose
    /// demands are the presences) makes absent an optional task that fits in no gap the
    /// present ones leave in its window.
    ///
    /// # Errors
    /// Starts, durations and presences of different lengths make the model invalid (as
    /// does an argument the model cannot use, see [`IntArg`] and [`Lit`]).
    ///
    /// ```
    /// use ambsolve::{Engine, Lit, Model};
    ///
    /// // Three jobs of length 2 that may each run on machine A or on machine B, in the
    /// // window 0..4 (starts 0..=2): one machine holds at most two of them.
    /// let mut m = Model::new();
    /// let s = m.vars("s", 3, 0..3i64);
    /// let on_a = m.vars("on_a", 3, [false, true]);
    /// let on_b: Vec<Lit> = on_a.iter().map(|a| !Lit::from(a)).collect();
    /// m.disjunctive_optional(&s, [2, 2, 2], &on_a);
    /// m.disjunctive_optional(&s, [2, 2, 2], on_b);
    /// let count = m.solve(Engine::Trail).count()?.solutions;
    /// assert_eq!(count, m.solve(Engine::Replay).count()?.solutions);
    /// // 6 splits of 2 + 1, each with the pair at 0 and 2 (2 ways) and the one alone
    /// // anywhere (3 ways).
    /// assert_eq!(count, 6 * 2 * 3);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn disjunctive_optional<S: Into<IntArg>, D: Into<IntArg>, P: Into<Lit>>(
        &mut self,
        starts: impl IntoIterator<Item = S>,
        durations: impl IntoIterator<Item = D>,
        presence: impl IntoIterator<Item = P>,
    ) {
        let starts: Vec<IntArg> = starts.into_iter().map(Into::into).collect();
        let durations: Vec<IntArg> = durations.into_iter().map(Into::into).collect();
        let presence: Vec<Lit> = presence.into_iter().map(Into::into).collect();
        if !self.optional_lengths(
            "disjunctive_optional",
            starts.len(),
            &[
                ("durations", durations.len()),
                ("presences", presence.len()),
            ],
        ) {
            return;
        }
        let on_resource: Vec<IntArg> = durations
            .iter()
            .zip(&presence)
            .map(|(d, &p)| self.if_present(d.clone(), p))
            .collect();
        let demands: Vec<IntArg> = presence
            .iter()
            .map(|&p| IntArg::from(&self.int_var(IntExpr::from(BoolExpr::from(p)))))
            .collect();
        self.unary(starts.iter().cloned(), on_resource, false);
        // Every duration at least 0, present or not, as the time table requires.
        self.cumulative(starts, durations, demands, 1);
    }

    /// Optional tasks on a cumulative resource (CP-SAT's optional intervals in a
    /// `Cumulative`, MiniZinc's `cumulative` over `var opt int` starts): task `i` runs
    /// from `starts[i]` for `durations[i]` using `demands[i]` if `presence[i]` holds, and
    /// uses nothing when absent (its start is then free). The present tasks running at
    /// any time use at most `capacity`. Every duration and demand must be at least 0,
    /// present or not, and with at least one task the capacity too, as for
    /// [`cumulative`](Model::cumulative).
    ///
    /// Presence prunes both ways: the time table of a [`cumulative`](Model::cumulative)
    /// runs over each task's demand when present and 0 when absent, so present tasks
    /// build the profile and are pushed by it, and an optional task whose compulsory
    /// part the profile has no room for, or that fits nowhere in its window, is absent.
    ///
    /// # Errors
    /// Arguments of different lengths make the model invalid (as does an argument the
    /// model cannot use, see [`IntArg`] and [`Lit`]).
    ///
    /// ```
    /// use ambsolve::{Cmp, Engine, Model};
    ///
    /// // Four tasks of length 3 and demand 2 on a capacity 3 over 0..6 (starts 0..=3):
    /// // at most two run, one after the other. The most that can run is 2.
    /// let mut m = Model::new();
    /// let s = m.vars("s", 4, 0..4i64);
    /// let run = m.vars("run", 4, 0..2i64);
    /// m.cumulative_optional(&s, [3; 4], [2; 4], &run, 3);
    /// m.maximize(run.iter().map(|r| (1, r)));
    /// let best = m.solve(Engine::Trail).best()?;
    /// assert_eq!((best.objective, best.proved), (Some(2), true));
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn cumulative_optional<S, D, R, P>(
        &mut self,
        starts: impl IntoIterator<Item = S>,
        durations: impl IntoIterator<Item = D>,
        demands: impl IntoIterator<Item = R>,
        presence: impl IntoIterator<Item = P>,
        capacity: impl Into<IntArg>,
    ) where
        S: Into<IntArg>,
        D: Into<IntArg>,
        R: Into<IntArg>,
        P: Into<Lit>,
    {
        let starts: Vec<IntArg> = starts.into_iter().map(Into::into).collect();
        let durations: Vec<IntArg> = durations.into_iter().map(Into::into).collect();
        let demands: Vec<IntArg> = demands.into_iter().map(Into::into).collect();
        let presence: Vec<Lit> = presence.into_iter().map(Into::into).collect();
        if !self.optional_lengths(
            "cumulative_optional",
            starts.len(),
            &[
                ("durations", durations.len()),
                ("demands", demands.len()),
                ("presences", presence.len()),
            ],
        ) {
            return;
        }
        let used: Vec<IntArg> = demands
            .iter()
            .zip(&presence)
            .map(|(r, &p)| {
                // At least 0 when absent too.
                self.add(IntExpr::from(r.clone()).ge(0));
                self.if_present(r.clone(), p)
            })
            .collect();
        self.cumulative(starts, durations, used, capacity);
    }

    /// `value` when `present` holds, else 0: a new auxiliary variable (or the constant
    /// 0).
    fn if_present(&mut self, value: IntArg, present: Lit) -> IntArg {
        match value.0 {
            Arg::Const(0) => IntArg::from(0),
            Arg::Const(c) => {
                let used = self.named_var("if present", if c > 0 { [0, c] } else { [c, 0] });
                self.mark_auxiliary(used.id());
                self.linear_reified([(1, &used)], Cmp::Eq, c, present);
                IntArg::from(&used)
            }
            Arg::Var { .. } => {
                let product = IntExpr::from(value) * IntExpr::from(BoolExpr::from(present));
                IntArg::from(&self.int_var(product))
            }
        }
    }

    /// Whether each list has one item per start; else the model is invalid.
    fn optional_lengths(&mut self, kind: &str, starts: usize, others: &[(&str, usize)]) -> bool {
        for &(what, len) in others {
            if len != starts {
                self.invalid(format!(
                    "{kind}: {starts} starts but {len} {what} (one per task)"
                ));
                return false;
            }
        }
        true
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
