//! Explanations of time-table reasoning, pointwise (as Schutt, Feydy, Stuckey and Wallace
//! explain the cumulative propagator): a start pushed over times where the other tasks'
//! compulsory parts leave it no room is explained by the tasks that cover one time point
//! for each stretch of starts it passed; an overload, by the tasks that cover one point.
//! Every bound is read as it was before the atom explained, and lifted: a task covers
//! point `t` when `t - d + 1 <= s <= t`, whatever its bounds were.

use crate::propagators::view::IntView;
use crate::store::{Atoms, Pred, Rel};

/// Whether a resource over these views can be explained by its time table: each read by
/// its bounds, no variable named twice.
pub(crate) fn explainable<'v>(views: impl Iterator<Item = &'v IntView> + Clone) -> bool {
    let mut vars: Vec<usize> = views.clone().filter_map(IntView::var).collect();
    let named = vars.len();
    vars.sort_unstable();
    vars.dedup();
    vars.len() == named && views.into_iter().all(IntView::explainable)
}

/// A task's bounds before the atom explained.
#[derive(Clone, Copy, Debug)]
struct Known {
    s_min: i128,
    s_max: i128,
    d_min: i128,
    r_min: i128,
}

impl Known {
    /// Whether its compulsory part covers time `t` with a positive demand.
    fn covers(&self, t: i128) -> bool {
        self.d_min > 0 && self.r_min > 0 && self.s_max <= t && t < self.s_min + self.d_min
    }
}

/// A resource's tasks as they were before the atom at `at`: what its explanations read.
pub(crate) struct TimeTable<'v> {
    starts: &'v [IntView],
    durations: &'v [IntView],
    demands: &'v [IntView],
    capacity: &'v IntView,
    tasks: Vec<Known>,
    /// The largest capacity left.
    cap: i128,
    atoms: &'v Atoms,
    at: u32,
}

/// Which way a start was pushed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Push {
    Up,
    Down,
}

impl<'v> TimeTable<'v> {
    /// Reads the tasks' bounds before position `at` (every view
    /// [`explainable`](IntView::explainable)).
    pub(crate) fn new(
        starts: &'v [IntView],
        durations: &'v [IntView],
        demands: &'v [IntView],
        capacity: &'v IntView,
        atoms: &'v Atoms,
        at: u32,
    ) -> Self {
        let tasks = (0..starts.len())
            .map(|k| {
                let (s_min, s_max) = starts[k].bounds_before(atoms, at);
                Known {
                    s_min,
                    s_max,
                    d_min: durations[k].bounds_before(atoms, at).0.max(0),
                    r_min: demands[k].bounds_before(atoms, at).0.max(0),
                }
            })
            .collect();
        TimeTable {
            starts,
            durations,
            demands,
            capacity,
            tasks,
            cap: capacity.bounds_before(atoms, at).1,
            atoms,
            at,
        }
    }

    /// The profile of the compulsory parts of every task but `skip`: segments
    /// `(from, to, height)` in time order.
    fn profile(&self, skip: Option<usize>) -> Vec<(i128, i128, i128)> {
        let mut events = Vec::new();
        for (k, t) in self.tasks.iter().enumerate() {
            if Some(k) != skip && t.d_min > 0 && t.r_min > 0 && t.s_max < t.s_min + t.d_min {
                events.push((t.s_max, t.r_min));
                events.push((t.s_min + t.d_min, -t.r_min));
            }
        }
        events.sort_unstable();
        let mut profile = Vec::new();
        let (mut height, mut k) = (0, 0);
        while k < events.len() {
            let from = events[k].0;
            while k < events.len() && events[k].0 == from {
                height += events[k].1;
                k += 1;
            }
            if let Some(&(to, _)) = events.get(k) {
                if height > 0 {
                    profile.push((from, to, height));
                }
            }
        }
        profile
    }

    /// Appends that task `k` covers time `t` at its least demand: its start within
    /// `t - d + 1..=t`, its duration at least `d`, its demand at least `r`.
    fn covering(&self, k: usize, t: i128, out: &mut Vec<Pred>) {
        let task = self.tasks[k];
        self.starts[k].explain_within(t - task.d_min + 1, t, out);
        self.durations[k].explain_within(task.d_min, i128::MAX, out);
        self.demands[k].explain_within(task.r_min, i128::MAX, out);
    }

    /// Appends tasks (not `skip`) covering `t` whose demands sum above `room`, the largest
    /// first; false if those covering it do not.
    fn point(&self, t: i128, room: i128, skip: Option<usize>, out: &mut Vec<Pred>) -> bool {
        let mut covering: Vec<usize> = (0..self.tasks.len())
            .filter(|&k| Some(k) != skip && self.tasks[k].covers(t))
            .collect();
        covering.sort_by_key(|&k| std::cmp::Reverse(self.tasks[k].r_min));
        let mut sum = 0;
        for k in covering {
            if sum > room {
                break;
            }
            sum += self.tasks[k].r_min;
            self.covering(k, t, out);
        }
        sum > room
    }

    /// The capacity at most what it was.
    fn capacity(&self, out: &mut Vec<Pred>) {
        self.capacity.explain_within(i128::MIN, self.cap, out);
    }

    /// An overload: the tasks covering one point of the profile above the capacity.
    fn overload(&self, out: &mut Vec<Pred>) -> bool {
        let profile = self.profile(None);
        let Some(&(t, _, _)) = profile.iter().find(|&&(_, _, h)| h > self.cap) else {
            return false;
        };
        self.capacity(out);
        self.point(t, self.cap, None, out)
    }

    /// Explains a failure (an overload, or a task left no start) or a start's bound
    /// pushed; false for anything else, or where the time table does not justify it.
    pub(crate) fn explain(&self, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some(pred) = pred else {
            let from = out.len();
            let mut explained = self.overload(out);
            for k in 0..self.starts.len() {
                if explained {
                    break;
                }
                out.truncate(from);
                explained = self.pushed(k, Push::Up, None, out);
            }
            return explained;
        };
        let var = Some(pred.var as usize);
        let Some(k) = self.starts.iter().position(|s| s.var() == var) else {
            return false;
        };
        match pred.rel {
            Rel::Ge => self.pushed(k, Push::Up, Some(pred.value), out),
            Rel::Le => self.pushed(k, Push::Down, Some(pred.value), out),
            Rel::Eq | Rel::Ne => false,
        }
    }

    /// Explains task `k`'s demand capped at `most`: a point of its compulsory part where
    /// the others' demands leave no more.
    pub(crate) fn demand_capped(&self, k: usize, most: i128, out: &mut Vec<Pred>) -> bool {
        let task = self.tasks[k];
        let (from, to) = (task.s_max, task.s_min + task.d_min);
        if task.d_min <= 0 || from >= to {
            return false;
        }
        let profile = self.profile(Some(k));
        let Some(&(a, _, _)) = profile
            .iter()
            .filter(|&&(a, b, _)| a < to && b > from)
            .max_by_key(|&&(_, _, h)| h)
        else {
            return false;
        };
        let t = a.max(from);
        // The others' demands at `t` above `cap - most - 1` leave `most` at most.
        if !self.point(t, self.cap - most - 1, Some(k), out) {
            return false;
        }
        self.starts[k].explain_within(t - task.d_min + 1, t, out);
        self.durations[k].explain_within(task.d_min, i128::MAX, out);
        self.capacity(out);
        true
    }

    /// Explains task `k`'s demand at most `least - 1`: at a demand of `least` it would fit
    /// at none of its starts (an optional task left no room is absent).
    pub(crate) fn no_place(&self, k: usize, least: i128, out: &mut Vec<Pred>) -> bool {
        self.pushed_at(k, Push::Up, None, least, out)
    }

    /// A point in `v..v + d` where the others leave task `k`, at demand `demand`, no
    /// room: the latest when pushing up (it covers the most starts above), the earliest
    /// when pushing down.
    fn blocked(
        &self,
        profile: &[(i128, i128, i128)],
        k: usize,
        v: i128,
        push: Push,
        demand: i128,
    ) -> Option<i128> {
        let task = self.tasks[k];
        let (from, to) = (v, v + task.d_min - 1);
        let full = |&&(a, b, h): &&(i128, i128, i128)| a <= to && b > from && h + demand > self.cap;
        match push {
            Push::Up => profile
                .iter()
                .rev()
                .find(full)
                .map(|&(_, b, _)| (b - 1).min(to)),
            Push::Down => profile.iter().find(full).map(|&(a, _, _)| a.max(from)),
        }
    }

    /// Explains task `k`'s start pushed (up: to index `target` and above; down: to
    /// `target` and below), or, `target` `None`, all of its starts left without room (a
    /// failure). The holes a push stepped over are the engine's to add; a failure adds
    /// its own.
    fn pushed(&self, k: usize, push: Push, target: Option<u32>, out: &mut Vec<Pred>) -> bool {
        self.pushed_at(k, push, target, self.tasks[k].r_min, out)
    }

    /// As [`pushed`](TimeTable::pushed), for task `k` at demand `demand`: its own least
    /// demand (which the explanation then names), or one it does not surely have (a
    /// failure at it says its demand is below it).
    fn pushed_at(
        &self,
        k: usize,
        push: Push,
        target: Option<u32>,
        demand: i128,
        out: &mut Vec<Pred>,
    ) -> bool {
        let task = self.tasks[k];
        let IntView::Var { var, .. } = self.starts[k] else {
            return false;
        };
        if task.d_min <= 0 || demand <= 0 {
            return false;
        }
        let profile = self.profile(Some(k));
        let (low, high) = self.atoms.ends_before(var, self.at);
        // The starts to cover, in the order of the push.
        let (mut index, last) = match (push, target) {
            (Push::Up, Some(target)) if target > low => (low, target - 1),
            (Push::Down, Some(target)) if target < high => (high, target + 1),
            (Push::Up, None) => (low, high),
            _ => return false,
        };
        let view = &self.starts[k];
        let (mut first, mut reach) = (None, None);
        loop {
            if self.atoms.gone_before(var, index, self.at) {
                if target.is_none() {
                    out.push(Pred::ne(var, index));
                }
            } else {
                let Some(t) = self.blocked(&profile, k, view.image(index), push, demand) else {
                    return false;
                };
                if !self.point(t, self.cap - demand, Some(k), out) {
                    return false;
                }
                first.get_or_insert(t);
                // The starts that overlap `t` are covered: on past them.
                let (r, next) = match push {
                    Push::Up => (t, Some(view.indices_within(t + 1, i128::MAX).0)),
                    Push::Down => {
                        let r = t - task.d_min + 1;
                        (r, view.indices_within(i128::MIN, r - 1).1.checked_sub(1))
                    }
                };
                reach = Some(r);
                match (push, next) {
                    (Push::Up, Some(n)) if n <= last => index = n,
                    (Push::Down, Some(n)) if n >= last => index = n,
                    _ => break,
                }
                continue;
            }
            if index == last {
                break;
            }
            match push {
                Push::Up => index += 1,
                Push::Down => index -= 1,
            }
        }
        // The task's own part, lifted to the points that block it.
        match (first, reach) {
            (Some(first), Some(reach)) => match push {
                Push::Up => {
                    let most = if target.is_none() { reach } else { i128::MAX };
                    view.explain_within(first - task.d_min + 1, most, out);
                }
                Push::Down => view.explain_within(i128::MIN, first, out),
            },
            // Every start passed was a hole: the end before makes the push.
            _ if target.is_some() => out.push(match push {
                Push::Up => Pred::ge(var, low),
                Push::Down => Pred::le(var, high),
            }),
            _ => return false,
        }
        self.durations[k].explain_within(task.d_min, i128::MAX, out);
        if demand <= task.r_min {
            self.demands[k].explain_within(task.r_min, i128::MAX, out);
        }
        self.capacity(out);
        true
    }
}
