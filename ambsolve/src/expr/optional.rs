//! Optional tasks (`Model::disjunctive_optional`, `Model::cumulative_optional`): tasks with
//! a presence literal, decomposed onto the scheduling kinds, each task's duration or
//! demand on the resource its own when present and 0 when absent (variables the model
//! makes for itself, through expressions where the amount is a variable).

use crate::expr::{BoolExpr, IntExpr};
use crate::model::{Arg, Cmp, IntArg, Lit, Model};

impl Model<'_> {
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
        self.disjunctive(starts.iter().cloned(), on_resource);
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
}
