//! Explanations of the unary rules (`disjunctive`): detectable precedences, edge finding,
//! not-first/not-last and overload checking, found lazily when conflict analysis asks.
//!
//! The rules are not replayed: a witness is searched among the tasks' bounds before the
//! atom explained, in the forms Vilím's rules reason in (as Schutt et al. and Pumpkin
//! explain them): a set `Ω` of tasks that must all precede task `k`, and a subset of it
//! whose earliest completion bounds `k`'s start. Each form reasons on earliest starts;
//! the same code on the mirrored windows (time reversed) explains latest completions.
//! Every bound is lifted as far as the witness allows.
//!
//! - Detectable precedences: each `j` of `Ω` cannot follow `k` (`lst_j < est_k + p_k`).
//! - Edge finding: `Ω`'s tasks lie within `a..b` and `k` starts at `a` or later, but
//!   `a + p_Ω + p_k > b`: `k` cannot end by `b`, so it follows them all.
//! - Not-last (lowering `lct_k`): `Ω` cannot all complete by `lst_k`, so one of them
//!   follows `k`, which ends by the latest of their latest starts.
//! - Overload: `Ω`'s tasks lie within `a..b` and `p_Ω > b - a`.

use crate::propagators::view::IntView;
use crate::store::{Atoms, Pred, Rel};

/// A task of a positive least duration as the rules read it: it runs for `p` within
/// `est..lct`.
#[derive(Clone, Copy, Debug)]
struct Win {
    est: i128,
    lct: i128,
    p: i128,
}

impl Win {
    fn lst(&self) -> i128 {
        self.lct - self.p
    }

    fn mirror(&self) -> Win {
        Win {
            est: -self.lct,
            lct: -self.est,
            p: self.p,
        }
    }
}

/// What a witness asks of a task, in the frame it reasons in.
#[derive(Clone, Copy, Debug)]
enum Ask {
    /// Its start at `v` or later.
    Est(usize, i128),
    /// Its completion at `v` or earlier (its start by `v - p`, its duration at least `p`).
    Lct(usize, i128),
}

/// A unary resource's tasks as they were before the atom at `at`: what the explanations
/// of its rules read.
pub(crate) struct UnaryWitness<'v> {
    starts: &'v [IntView],
    durations: &'v [IntView],
    atoms: &'v Atoms,
    at: u32,
    /// Each task's window (`None`: a least duration of 0 or less, which the rules skip),
    /// forward and mirrored.
    forward: Vec<Option<Win>>,
    mirrored: Vec<Option<Win>>,
}

impl<'v> UnaryWitness<'v> {
    /// Reads the tasks' bounds before position `at` (every view
    /// [`explainable`](IntView::explainable), no variable twice).
    pub(crate) fn new(
        starts: &'v [IntView],
        durations: &'v [IntView],
        atoms: &'v Atoms,
        at: u32,
    ) -> Self {
        let forward: Vec<Option<Win>> = (0..starts.len())
            .map(|k| {
                let (s_min, s_max) = starts[k].bounds_before(atoms, at);
                let p = durations[k].bounds_before(atoms, at).0;
                (p > 0).then_some(Win {
                    est: s_min,
                    lct: s_max + p,
                    p,
                })
            })
            .collect();
        let mirrored = forward.iter().map(|w| w.map(|w| w.mirror())).collect();
        UnaryWitness {
            starts,
            durations,
            atoms,
            at,
            forward,
            mirrored,
        }
    }

    /// Explains a start's bound (`pred`), or, `pred` `None`, a failure; false where no
    /// witness of the rules is found among the bounds.
    pub(crate) fn explain(&self, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some(pred) = pred else {
            return self.failure(&mut Vec::new(), out);
        };
        let var = pred.var as usize;
        let Some(k) = self.starts.iter().position(|s| s.var() == Some(var)) else {
            return false;
        };
        let Some(w) = self.forward[k] else {
            return false;
        };
        let view = &self.starts[k];
        let (low, high) = self.atoms.ends_before(var, self.at);
        match pred.rel {
            Rel::Ge if pred.value > low => {
                // Every value left below the new end must go: the start passes the
                // largest of them (the holes above it the engine adds).
                let need = view.image(self.atoms.left_below(var, pred.value, self.at)) + 1;
                self.either(
                    |asks| raise(&self.forward, k, need, asks),
                    |asks| lower(&self.mirrored, k, -need, asks),
                    out,
                )
            }
            Rel::Le if pred.value < high => {
                let most = view.image(self.atoms.left_above(var, pred.value, self.at)) - 1 + w.p;
                self.either(
                    |asks| lower(&self.forward, k, most, asks),
                    |asks| raise(&self.mirrored, k, -most, asks),
                    out,
                )
            }
            _ => false,
        }
    }

    /// The asks of `forward` (a witness in the forward frame), else of `mirrored` (in the
    /// mirrored one), emitted.
    fn either(
        &self,
        forward: impl FnOnce(&mut Vec<Ask>) -> bool,
        mirrored: impl FnOnce(&mut Vec<Ask>) -> bool,
        out: &mut Vec<Pred>,
    ) -> bool {
        let mut asks = Vec::new();
        if forward(&mut asks) {
            return self.emit(&asks, false, out);
        }
        asks.clear();
        mirrored(&mut asks) && self.emit(&asks, true, out)
    }

    /// A failure: an overload, or a task whose start the rules push past its latest
    /// start (or whose completion before its earliest completion).
    fn failure(&self, asks: &mut Vec<Ask>, out: &mut Vec<Pred>) -> bool {
        for mirrored in [false, true] {
            let windows = if mirrored {
                &self.mirrored
            } else {
                &self.forward
            };
            asks.clear();
            if overload(windows, asks) {
                return self.emit(asks, mirrored, out);
            }
        }
        for k in 0..self.forward.len() {
            for mirrored in [false, true] {
                let windows = if mirrored {
                    &self.mirrored
                } else {
                    &self.forward
                };
                let Some(w) = windows[k] else { continue };
                asks.clear();
                if raise(windows, k, w.lst() + 1, asks) {
                    asks.push(Ask::Lct(k, w.lct));
                    return self.emit(asks, mirrored, out);
                }
                asks.clear();
                if lower(windows, k, w.est + w.p - 1, asks) {
                    asks.push(Ask::Est(k, w.est));
                    return self.emit(asks, mirrored, out);
                }
            }
        }
        false
    }

    /// Appends the predicates the asks (of the frame `mirrored` or not) stand for.
    fn emit(&self, asks: &[Ask], mirrored: bool, out: &mut Vec<Pred>) -> bool {
        for &ask in asks {
            // In the mirror, a start at `v` or later is a completion at `-v` or earlier.
            let ask = match (ask, mirrored) {
                (ask, false) => ask,
                (Ask::Est(j, v), true) => Ask::Lct(j, -v),
                (Ask::Lct(j, v), true) => Ask::Est(j, -v),
            };
            match ask {
                Ask::Est(j, v) => self.starts[j].explain_within(v, i128::MAX, out),
                Ask::Lct(j, v) => {
                    let p = self.forward[j].map_or(0, |w| w.p);
                    self.starts[j].explain_within(i128::MIN, v - p, out);
                }
            }
            let j = match ask {
                Ask::Est(j, _) | Ask::Lct(j, _) => j,
            };
            if let Some(w) = self.forward[j] {
                self.durations[j].explain_within(w.p, i128::MAX, out);
            }
        }
        true
    }
}

/// The tasks but `k`, those `keep` accepts, by earliest start, latest first.
fn by_est_desc(w: &[Option<Win>], k: usize, keep: impl Fn(&Win) -> bool) -> Vec<(usize, Win)> {
    let mut tasks: Vec<(usize, Win)> = w
        .iter()
        .enumerate()
        .filter_map(|(j, t)| t.filter(|t| j != k && keep(t)).map(|t| (j, t)))
        .collect();
    tasks.sort_by_key(|&(_, t)| std::cmp::Reverse(t.est));
    tasks
}

/// The tasks but `k` by earliest start, latest first, and their distinct latest
/// completions in order: the candidate ends `b` of a set within `a..b`.
fn with_ends(w: &[Option<Win>], k: usize) -> (Vec<(usize, Win)>, Vec<i128>) {
    let tasks = by_est_desc(w, k, |_| true);
    let mut ends: Vec<i128> = tasks.iter().map(|&(_, t)| t.lct).collect();
    ends.sort_unstable();
    ends.dedup();
    (tasks, ends)
}

/// Asks for a witness that task `k` starts at `need` or later: detectable precedences,
/// then edge finding.
fn raise(w: &[Option<Win>], k: usize, need: i128, asks: &mut Vec<Ask>) -> bool {
    let Some(wk) = w[k] else { return false };
    if wk.est >= need {
        return false;
    }
    precedences(w, k, wk, need, asks) || edge_finding(w, k, wk, need, asks)
}

/// Detectable precedences: the tasks that cannot follow `k` precede it, and the latest
/// of them by earliest start that complete by `need` at the earliest push it there.
fn precedences(w: &[Option<Win>], k: usize, wk: Win, need: i128, asks: &mut Vec<Ask>) -> bool {
    let before = by_est_desc(w, k, |t| t.lst() < wk.est + wk.p);
    let (mut sum, mut latest) = (0, i128::MIN);
    for (n, &(_, t)) in before.iter().enumerate() {
        sum += t.p;
        latest = latest.max(t.lst());
        if t.est + sum >= need {
            // Lifted: each starts by `latest`, which `k` cannot precede, and at
            // `need - sum` or later.
            for &(j, t) in &before[..=n] {
                asks.push(Ask::Est(j, need - sum));
                asks.push(Ask::Lct(j, latest + t.p));
            }
            asks.push(Ask::Est(k, latest - wk.p + 1));
            return true;
        }
    }
    false
}

/// Edge finding: tasks within `a..b` that, with `k` starting at `a` or later, do not fit
/// if `k` ends by `b`; `k` follows them all, and the subset that completes latest at the
/// earliest pushes it to `need`.
fn edge_finding(w: &[Option<Win>], k: usize, wk: Win, need: i128, asks: &mut Vec<Ask>) -> bool {
    let (tasks, ends) = with_ends(w, k);
    for &b in &ends {
        let (mut sum, mut ect, mut ect_at) = (0, i128::MIN, 0);
        let mut inside = Vec::new();
        for &(j, t) in &tasks {
            if t.lct > b {
                continue;
            }
            sum += t.p;
            inside.push((j, t));
            if t.est + sum > ect {
                (ect, ect_at) = (t.est + sum, inside.len());
            }
            let a = t.est.min(wk.est);
            if a + sum + wk.p > b && ect >= need {
                // The subset that completes latest: `inside[..ect_at]`; the rest only
                // overloads, and goes where the slack allows.
                let completes: i128 = inside[..ect_at].iter().map(|&(_, t)| t.p).sum();
                let mut slack = a + sum + wk.p - 1 - b;
                let mut omega: Vec<(usize, Win)> = inside[..ect_at].to_vec();
                for &(j, t) in &inside[ect_at..] {
                    if t.p <= slack {
                        slack -= t.p;
                    } else {
                        omega.push((j, t));
                    }
                }
                let b = b + slack;
                for (n, &(j, _)) in omega.iter().enumerate() {
                    let least = if n < ect_at {
                        a.max(need - completes)
                    } else {
                        a
                    };
                    asks.push(Ask::Est(j, least));
                    asks.push(Ask::Lct(j, b));
                }
                asks.push(Ask::Est(k, a));
                return true;
            }
        }
    }
    false
}

/// Asks for a witness that task `k` completes at `most` or earlier: not-last.
fn lower(w: &[Option<Win>], k: usize, most: i128, asks: &mut Vec<Ask>) -> bool {
    let Some(wk) = w[k] else { return false };
    if wk.lct <= most {
        return false;
    }
    // Tasks starting by `most` at the latest, which cannot all complete by `lst_k`.
    let candidates = by_est_desc(w, k, |t| t.lst() <= most);
    let mut sum = 0;
    for (n, &(_, t)) in candidates.iter().enumerate() {
        sum += t.p;
        if t.est + sum > wk.lst() {
            for &(j, t) in &candidates[..=n] {
                asks.push(Ask::Est(j, wk.lst() + 1 - sum));
                asks.push(Ask::Lct(j, most + t.p));
            }
            asks.push(Ask::Lct(k, wk.lct));
            return true;
        }
    }
    false
}

/// Asks for an overload: tasks within `a..b` whose durations sum above `b - a`.
fn overload(w: &[Option<Win>], asks: &mut Vec<Ask>) -> bool {
    let (tasks, ends) = with_ends(w, usize::MAX);
    for &b in &ends {
        let mut sum = 0;
        let mut inside = Vec::new();
        for &(j, t) in &tasks {
            if t.lct > b {
                continue;
            }
            sum += t.p;
            inside.push((j, t));
            if t.est + sum > b {
                let a = t.est;
                // Drop what the slack allows (the shortest first), and lift `b`.
                inside.sort_by_key(|&(_, t)| t.p);
                let mut slack = a + sum - 1 - b;
                let mut kept = Vec::new();
                for &(j, t) in &inside {
                    if t.p <= slack {
                        slack -= t.p;
                    } else {
                        kept.push(j);
                    }
                }
                for j in kept {
                    asks.push(Ask::Est(j, a));
                    asks.push(Ask::Lct(j, b + slack));
                }
                return true;
            }
        }
    }
    false
}
