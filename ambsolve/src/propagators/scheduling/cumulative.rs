//! `cumulative` by the time table: each task's compulsory part (from its latest start to its
//! earliest end, at its least demand) adds to a profile; the profile may not rise above the
//! largest capacity left (and raises the least one); no task may start or end where its
//! least demand would raise the profile above it; a task's demand is at most what the
//! profile leaves during its compulsory part.
//!
//! Durations and demands are read by their bounds (the least ones build the profile and
//! push the starts), so variables there are handled as well as constants, and all of it
//! is exact in `i128`.

use crate::choice::Fail;
use crate::model::Cumulative;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::scheduling::explain::{TimeTable, explainable};
use crate::propagators::to_fixpoint;
use crate::propagators::view::IntView;
use crate::store::{Atoms, BOUNDS, Pred, Rel, Store};
use crate::var::VarId;

/// A task's bounds.
#[derive(Clone, Copy, Debug, Default)]
struct Task {
    s_min: i128,
    s_max: i128,
    d_min: i128,
    r_min: i128,
    /// Whether its compulsory part is in the profile (a task placed at a demand it does
    /// not surely have, to see whether it fits, is not).
    in_profile: bool,
}

impl Task {
    /// Its compulsory part `from..to`, if it has one: it surely runs then, at a demand of
    /// at least `r_min`.
    fn compulsory(&self) -> Option<(i128, i128)> {
        let (from, to) = (self.s_max, self.s_min + self.d_min);
        (self.d_min > 0 && from < to).then_some((from, to))
    }

    /// The height its compulsory part adds to the profile over `from..to` (a segment of
    /// the profile, which lies within the part or outside it).
    fn own(&self, from: i128, to: i128) -> i128 {
        match self.compulsory() {
            Some((a, b)) if self.in_profile && a <= from && to <= b => self.r_min,
            _ => 0,
        }
    }
}

/// The profile: the load of the compulsory parts, as segments `from..to` of constant
/// positive height, in time order, without overlap.
#[derive(Clone, Copy, Debug)]
struct Segment {
    from: i128,
    to: i128,
    height: i128,
}

pub(crate) struct CumulativeProp {
    starts: Vec<IntView>,
    durations: Vec<IntView>,
    demands: Vec<IntView>,
    capacity: IntView,
    scope: Vec<VarId>,
    tasks: Vec<Task>,
    events: Vec<(i128, i128)>,
    profile: Vec<Segment>,
    /// Whether it explains its changes (the time table's, pointwise): every view read
    /// by its bounds, no variable twice.
    explains: bool,
}

impl CumulativeProp {
    pub(crate) fn new(def: &Cumulative) -> Self {
        let starts: Vec<IntView> = def.starts.iter().map(IntView::new).collect();
        let durations: Vec<IntView> = def.durations.iter().map(IntView::new).collect();
        let demands: Vec<IntView> = def.demands.iter().map(IntView::new).collect();
        let capacity = IntView::new(&def.capacity);
        let explains = explainable(
            starts
                .iter()
                .chain(&durations)
                .chain(&demands)
                .chain([&capacity]),
        );
        CumulativeProp {
            starts,
            durations,
            demands,
            capacity,
            scope: def.vars.clone(),
            tasks: Vec::new(),
            events: Vec::new(),
            profile: Vec::new(),
            explains,
        }
    }

    /// Builds the profile of the compulsory parts; returns its peak.
    fn build_profile(&mut self) -> i128 {
        self.events.clear();
        for t in &self.tasks {
            if let Some((from, to)) = t.compulsory() {
                if t.r_min > 0 {
                    self.events.push((from, t.r_min));
                    self.events.push((to, -t.r_min));
                }
            }
        }
        self.events.sort_unstable();
        self.profile.clear();
        let (mut height, mut peak) = (0i128, 0i128);
        let mut k = 0;
        while k < self.events.len() {
            let at = self.events[k].0;
            while k < self.events.len() && self.events[k].0 == at {
                height += self.events[k].1;
                k += 1;
            }
            if height > 0 {
                if let Some(&(next, _)) = self.events.get(k) {
                    self.profile.push(Segment {
                        from: at,
                        to: next,
                        height,
                    });
                }
            }
            peak = peak.max(height);
        }
        peak
    }

    /// The least start of `task` at or after its own at which it overlaps no segment
    /// where its least demand would exceed `most`.
    fn earliest(&self, task: &Task, most: i128) -> i128 {
        let mut start = task.s_min;
        let first = self.profile.partition_point(|s| s.to <= start);
        for seg in &self.profile[first..] {
            if seg.from >= start + task.d_min {
                break;
            }
            if seg.height - task.own(seg.from, seg.to) + task.r_min > most && seg.to > start {
                start = seg.to;
            }
        }
        start
    }

    /// The largest start of `task` at or before its own, the same way from the other end.
    fn latest(&self, task: &Task, most: i128) -> i128 {
        let mut start = task.s_max;
        let end = self
            .profile
            .partition_point(|s| s.from < start + task.d_min);
        for seg in self.profile[..end].iter().rev() {
            if seg.to <= start {
                break;
            }
            if seg.height - task.own(seg.from, seg.to) + task.r_min > most
                && seg.from < start + task.d_min
            {
                start = seg.from - task.d_min;
            }
        }
        start
    }

    /// The highest load of the profile without `task`'s own part, over `from..to`.
    fn load_within(&self, task: &Task, from: i128, to: i128) -> i128 {
        let first = self.profile.partition_point(|s| s.to <= from);
        self.profile[first..]
            .iter()
            .take_while(|s| s.from < to)
            .map(|s| s.height - task.own(s.from, s.to))
            .max()
            .unwrap_or(0)
    }
}

impl<'a> Kind<'a> for Cumulative {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(CumulativeProp::new(self))
    }
}

impl BuiltinPropagator for CumulativeProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, _local: usize) -> u8 {
        BOUNDS
    }

    fn expensive(&self) -> bool {
        true
    }

    fn explains(&self) -> bool {
        self.explains
    }

    /// A start pushed, by the tasks covering a point for each stretch of starts passed; a
    /// demand capped, by the tasks covering a point of its compulsory part; a failure, by
    /// an overload or a task left no start. Changes to durations and the capacity are
    /// left to the scope's domains.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let table = TimeTable::new(
            &self.starts,
            &self.durations,
            &self.demands,
            &self.capacity,
            atoms,
            at,
        );
        if let Some(pred) = pred {
            let var = Some(pred.var as usize);
            if let Some(k) = self.demands.iter().position(|r| r.var() == var) {
                if pred.rel != Rel::Le {
                    return false;
                }
                let most = self.demands[k].image(pred.value);
                let from = out.len();
                if table.demand_capped(k, most, out) {
                    return true;
                }
                out.truncate(from);
                // Or no place at the least demand above `most` it had.
                let (low, high) = atoms.ends_before(pred.var as usize, at);
                let above = (low..=high)
                    .filter(|&i| !atoms.gone_before(pred.var as usize, i, at))
                    .map(|i| self.demands[k].image(i))
                    .filter(|&r| r > most)
                    .min();
                return above.is_some_and(|least| table.no_place(k, least, out));
            }
        }
        table.explain(pred, out)
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        if self.starts.is_empty() {
            return Ok(());
        }
        let scope = std::mem::take(&mut self.scope);
        let result = to_fixpoint(store, &scope, |store| self.pass(store));
        self.scope = scope;
        result
    }
}

impl CumulativeProp {
    /// One pass over the profile of the compulsory parts.
    fn pass(&mut self, store: &mut Store) -> Result<(), Fail> {
        let n = self.starts.len();
        self.tasks.clear();
        for k in 0..n {
            self.durations[k].set_min(store, 0)?;
            self.demands[k].set_min(store, 0)?;
            self.tasks.push(Task {
                s_min: i128::from(self.starts[k].min(store)?),
                s_max: i128::from(self.starts[k].max(store)?),
                d_min: i128::from(self.durations[k].min(store)?),
                r_min: i128::from(self.demands[k].min(store)?),
                in_profile: true,
            });
        }
        // The peak is at least 0: with a task, the capacity must be too.
        let peak = self.build_profile();
        self.capacity.set_min(store, peak)?;
        let most = i128::from(self.capacity.max(store)?);
        for k in 0..n {
            let task = self.tasks[k];
            if task.d_min > 0 && task.r_min > 0 {
                let earliest = self.earliest(&task, most);
                if earliest > task.s_min {
                    self.starts[k].set_min(store, earliest)?;
                }
                let latest = self.latest(&task, most);
                if latest < task.s_max {
                    self.starts[k].set_max(store, latest)?;
                }
            }
            if let Some((from, to)) = task.compulsory() {
                let load = self.load_within(&task, from, to);
                self.demands[k].set_max(store, most - load)?;
            }
            if task.d_min > 0 && task.r_min == 0 {
                self.no_place(store, k, &task, most)?;
            }
        }
        Ok(())
    }

    /// A task that may have a demand of 0 (an optional task: absent, it uses nothing),
    /// but that fits nowhere in its window at its least positive demand, has a demand of
    /// 0.
    fn no_place(&self, store: &mut Store, k: usize, task: &Task, most: i128) -> Result<(), Fail> {
        let Some(least) = self.demands[k].values(store).filter(|&r| r > 0).min() else {
            return Ok(());
        };
        let placed = Task {
            r_min: i128::from(least),
            in_profile: false,
            ..*task
        };
        if self.earliest(&placed, most) > task.s_max {
            self.demands[k].set_max(store, i128::from(least) - 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::BoolExpr;
    use crate::model::{Cmp, IntArg, Model};
    use crate::propagators::checker::tests::fuzz;
    use crate::propagators::scheduling::disjunctive::tests::{amount, start};

    #[test]
    fn cumulative_agrees_with_its_meaning() {
        fuzz(800, |rng| {
            let mut m = Model::new();
            let n = rng.below(4) as usize;
            let starts: Vec<IntArg> = (0..n).map(|_| start(&mut m, rng)).collect();
            let durations: Vec<IntArg> = (0..n).map(|_| amount(&mut m, rng)).collect();
            let demands: Vec<IntArg> = (0..n).map(|_| amount(&mut m, rng)).collect();
            let capacity = match rng.below(3) {
                0 => IntArg::from(&m.var(-1..4i64)),
                _ => IntArg::from(rng.below(5) as i64),
            };
            m.cumulative(starts, durations, demands, capacity);
            m
        });
    }

    #[test]
    fn optional_tasks_agree_with_their_meaning() {
        // Demands of 0 (absent) or more, and a sum asking most tasks to be present: the
        // learning search's conflicts ask why a demand was capped, and why starts moved.
        fuzz(600, |rng| {
            let mut m = Model::new();
            let n = 2 + rng.below(3) as usize;
            let starts: Vec<IntArg> = (0..n)
                .map(|_| {
                    let low = rng.below(3) as i64;
                    IntArg::from(&m.var(low..low + 2 + rng.below(3) as i64))
                })
                .collect();
            let durations: Vec<IntArg> = (0..n)
                .map(|_| IntArg::from(1 + rng.below(3) as i64))
                .collect();
            let demands: Vec<_> = (0..n).map(|_| m.var(0..2 + rng.below(2) as i64)).collect();
            let present = n as i64 - 1 - rng.below(2) as i64;
            m.linear(demands.iter().map(|d| (1, d)), Cmp::Ge, present);
            let demands: Vec<IntArg> = demands.iter().map(IntArg::from).collect();
            m.cumulative(starts, durations, demands, 1 + rng.below(2) as i64);
            m
        });
    }

    /// Optional tasks (`cumulative_optional`, `disjunctive_optional`) in wide windows and
    /// narrow ones, with a sum asking for most of them: presences follow from the profile
    /// (no place left, no room for a compulsory part), and the learning search asks why.
    #[test]
    fn optional_tasks_by_presence_agree_with_their_meaning() {
        fuzz(300, |rng| {
            let mut m = Model::new();
            let n = 2 + rng.below(2) as usize;
            let starts: Vec<IntArg> = (0..n)
                .map(|_| {
                    let low = rng.below(3) as i64;
                    IntArg::from(&m.var(low..low + 1 + rng.below(4) as i64))
                })
                .collect();
            let durations: Vec<IntArg> = (0..n)
                .map(|_| match rng.below(6) {
                    0 => IntArg::from(&m.var(0..3i64)),
                    _ => IntArg::from(1 + rng.below(3) as i64),
                })
                .collect();
            let presence: Vec<_> = (0..n).map(|_| m.var([false, true])).collect();
            let present: Vec<_> = presence
                .iter()
                .map(|p| m.int_var(BoolExpr::from(p)))
                .collect();
            let wanted = n as i64 - 1 - rng.below(2) as i64;
            m.linear(present.iter().map(|p| (1, p)), Cmp::Ge, wanted);
            if rng.below(2) == 0 {
                m.disjunctive_optional(starts, durations, &presence);
            } else {
                let demands: Vec<IntArg> = (0..n)
                    .map(|_| match rng.below(5) {
                        0 => IntArg::from(&m.var(0..3i64)),
                        _ => IntArg::from(1 + rng.below(2) as i64),
                    })
                    .collect();
                m.cumulative_optional(
                    starts,
                    durations,
                    demands,
                    &presence,
                    1 + rng.below(2) as i64,
                );
            }
            m
        });
    }

    #[test]
    fn larger_cumulative_resources_agree_with_their_meaning() {
        fuzz(300, |rng| {
            let mut m = Model::new();
            let n = 3 + rng.below(3) as usize;
            let starts: Vec<IntArg> = (0..n)
                .map(|_| {
                    let low = rng.below(4) as i64;
                    IntArg::from(&m.var(low..low + 2 + rng.below(3) as i64))
                })
                .collect();
            let durations: Vec<IntArg> = (0..n)
                .map(|_| IntArg::from(1 + rng.below(3) as i64))
                .collect();
            let demands: Vec<IntArg> = (0..n)
                .map(|_| IntArg::from(1 + rng.below(2) as i64))
                .collect();
            m.cumulative(starts, durations, demands, 2 + rng.below(2) as i64);
            m
        });
    }

    #[test]
    fn variable_capacities_agree_with_their_meaning() {
        // A capacity the search narrows (through a sum with another variable) while the
        // compulsory parts raise it, and demands that may be above it.
        fuzz(600, |rng| {
            let mut m = Model::new();
            let n = 2 + rng.below(3) as usize;
            let starts: Vec<IntArg> = (0..n)
                .map(|_| {
                    // Narrow windows give compulsory parts, wide ones none.
                    let low = rng.below(3) as i64;
                    IntArg::from(&m.var(low..low + 1 + rng.below(5) as i64))
                })
                .collect();
            let durations: Vec<IntArg> = (0..n)
                .map(|_| IntArg::from(1 + rng.below(2) as i64))
                .collect();
            let demands: Vec<IntArg> = (0..n)
                .map(|_| match rng.below(3) {
                    0 => IntArg::from(&m.var(1..4i64)),
                    _ => IntArg::from(1 + rng.below(3) as i64),
                })
                .collect();
            let capacity = m.var(0..5i64);
            let other = m.var(0..4i64);
            m.linear(
                [(1, &capacity), (1, &other)],
                Cmp::Le,
                2 + rng.below(3) as i64,
            );
            m.cumulative(starts, durations, demands, &capacity);
            m
        });
    }
}
