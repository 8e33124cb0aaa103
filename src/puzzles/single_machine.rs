//! Weighted tardiness on one machine: seeded random instances, an independent check of a
//! schedule, and a brute force over every order. The model is in
//! `examples/single_machine.rs`.

use super::split_mix::SplitMix;

/// A job: how long it runs, when it is due, and what each unit of lateness costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Its processing time (at least 1).
    pub duration: i64,
    /// When it should end.
    pub due: i64,
    /// The cost of each unit of time it ends after `due`.
    pub weight: i64,
}

impl Job {
    /// What the job costs if it ends at `end`: its weight for each unit of time past its
    /// due date.
    pub fn cost(&self, end: i64) -> i64 {
        self.weight * (end - self.due).max(0)
    }
}

/// `n` jobs drawn from `seed`, in the usual way of the literature (Potts and Van
/// Wassenhove): durations and weights uniform in 1..=10, due dates uniform in
/// `P/5..=3P/5` where `P` is the sum of the durations (tardiness factor 0.6, range 0.4:
/// most jobs end late, and the order matters).
pub fn random_jobs(n: usize, seed: u64) -> Vec<Job> {
    let mut rng = SplitMix(seed);
    let durations: Vec<i64> = (0..n).map(|_| rng.within(1, 10)).collect();
    let weights: Vec<i64> = (0..n).map(|_| rng.within(1, 10)).collect();
    let total: i64 = durations.iter().sum();
    durations
        .iter()
        .zip(weights)
        .map(|(&duration, weight)| Job {
            duration,
            due: rng.within(total / 5, 3 * total / 5),
            weight,
        })
        .collect()
}

/// The weighted tardiness of `starts` (one per job), `Σ weight × max(0, end − due)`, if
/// no two jobs overlap and every start is at least 0.
///
/// # Errors
/// Which jobs overlap, or which starts before 0.
pub fn weighted_tardiness(jobs: &[Job], starts: &[i64]) -> Result<i64, String> {
    if starts.len() != jobs.len() {
        return Err("not one start per job".into());
    }
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| starts[j]);
    let mut free = 0;
    for &j in &order {
        if starts[j] < free {
            return Err(format!("job {j} starts before the machine is free"));
        }
        free = starts[j] + jobs[j].duration;
    }
    Ok(jobs
        .iter()
        .zip(starts)
        .map(|(job, &start)| job.cost(start + job.duration))
        .sum())
}

/// Pairs `(a, b)` such that some optimal order runs job `a` before job `b`, all of them
/// at once: `a` is no longer, due no later and weighs no less than `b` (ties broken by
/// duration, then due date, then weight, then index, so that no two jobs claim each other).
/// A dominance rule of the literature (Rinnooy Kan, Lageweg and Lenstra, 1975: an exchange
/// of `a` and `b` never costs more); the model may add `s[a] + d[a] <= s[b]` for each.
pub fn dominance(jobs: &[Job]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for a in 0..jobs.len() {
        for b in 0..jobs.len() {
            if dominates(jobs, a, b) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// Whether job `a` may run right before job `b` when `a` starts at `t`, by the adjacent
/// interchange rule: exchanging the two (`b` at `t`, then `a`) would cost more, or as much
/// and `(a, b)` is a [`dominance`] pair or neither is and `a` comes first by index. Some
/// optimal order keeps this for every two neighbours and every [`dominance`] pair at once:
/// the first by index among the optimal orders that keep the pairs (an exchange of
/// neighbours that breaks this rule would cost less, or as much and give an earlier order
/// that still keeps the pairs).
pub fn may_precede(jobs: &[Job], a: usize, b: usize, t: i64) -> bool {
    let cost = |first: usize, second: usize| {
        let (x, y) = (jobs[first], jobs[second]);
        let end = t + x.duration;
        x.cost(end) + y.cost(end + y.duration)
    };
    let (kept, exchanged) = (cost(a, b), cost(b, a));
    kept < exchanged
        || (kept == exchanged && dominates(jobs, a, b))
        || (kept == exchanged && !dominates(jobs, b, a) && a < b)
}

/// Whether `(a, b)` is a [`dominance`] pair.
fn dominates(jobs: &[Job], a: usize, b: usize) -> bool {
    let key = |k: usize| (jobs[k].duration, jobs[k].due, -jobs[k].weight, k);
    let (x, y) = (jobs[a], jobs[b]);
    x.duration <= y.duration && x.due <= y.due && x.weight >= y.weight && key(a) < key(b)
}

/// The least weighted tardiness of `jobs` over every order (each job starting when the one
/// before ends), by brute force: `n!` orders, with a prefix cut once its cost reaches the
/// best found. Independent of the engines, for tests.
pub fn brute_force(jobs: &[Job]) -> i64 {
    brute_force_respecting(jobs, &[])
}

/// [`brute_force`] over the orders that run `a` before `b` for each pair `(a, b)` of
/// `before`.
pub fn brute_force_respecting(jobs: &[Job], before: &[(usize, usize)]) -> i64 {
    brute_force_where(jobs, before, false)
}

/// [`brute_force_respecting`] the [`dominance`] pairs, over the orders whose neighbours
/// all keep [`may_precede`]: equal to [`brute_force`] if the two rules together keep an
/// optimal order.
pub fn brute_force_dominated(jobs: &[Job]) -> i64 {
    brute_force_where(jobs, &dominance(jobs), true)
}

fn brute_force_where(jobs: &[Job], before: &[(usize, usize)], neighbours: bool) -> i64 {
    struct Search<'j> {
        jobs: &'j [Job],
        before: &'j [(usize, usize)],
        neighbours: bool,
        /// The last job placed and its start.
        last: Option<(usize, i64)>,
        done: Vec<bool>,
        best: i64,
    }
    fn go(s: &mut Search<'_>, time: i64, cost: i64) {
        if cost >= s.best {
            return;
        }
        if s.done.iter().all(|&d| d) {
            s.best = cost;
            return;
        }
        for j in 0..s.jobs.len() {
            let ready = !s.done[j] && s.before.iter().all(|&(a, b)| b != j || s.done[a]);
            let kept = match s.last {
                Some((last, start)) if s.neighbours => may_precede(s.jobs, last, j, start),
                _ => true,
            };
            if ready && kept {
                let job = s.jobs[j];
                let end = time + job.duration;
                let last = s.last.replace((j, time));
                s.done[j] = true;
                go(s, end, cost + job.cost(end));
                s.done[j] = false;
                s.last = last;
            }
        }
    }
    let mut search = Search {
        jobs,
        before,
        neighbours,
        last: None,
        done: vec![false; jobs.len()],
        best: i64::MAX,
    };
    go(&mut search, 0, 0);
    search.best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_repeat_with_their_seed_and_differ_between_seeds() {
        assert_eq!(random_jobs(10, 1), random_jobs(10, 1));
        assert_ne!(random_jobs(10, 1), random_jobs(10, 2));
        for job in random_jobs(20, 5) {
            assert!((1..=10).contains(&job.duration) && (1..=10).contains(&job.weight));
        }
    }

    #[test]
    fn the_brute_force_agrees_with_every_order_on_small_instances() {
        let jobs = random_jobs(5, 3);
        let mut least = i64::MAX;
        // Every permutation by its Lehmer code.
        for code in 0..120 {
            let (mut left, mut rest, mut starts) = ((0..5).collect::<Vec<_>>(), code, vec![0; 5]);
            let mut time = 0;
            for k in (1..=5).rev() {
                let j = left.remove(rest % k);
                rest /= k;
                starts[j] = time;
                time += jobs[j].duration;
            }
            least = least.min(weighted_tardiness(&jobs, &starts).unwrap());
        }
        assert_eq!(brute_force(&jobs), least);
    }

    /// 1 to 7 jobs over small ranges, so that they often tie on one, two or all three
    /// properties.
    fn tied_jobs(rng: &mut SplitMix) -> Vec<Job> {
        let n = 1 + rng.below(7);
        (0..n)
            .map(|_| Job {
                duration: rng.within(1, 4),
                due: rng.within(0, 2 * n as i64),
                weight: rng.within(1, 4),
            })
            .collect()
    }

    #[test]
    fn the_dominance_rule_keeps_an_optimal_order_on_random_instances() {
        let mut rng = SplitMix(11);
        let mut pruned = 0;
        for _ in 0..1500 {
            let jobs = tied_jobs(&mut rng);
            let pairs = dominance(&jobs);
            pruned += pairs.len();
            assert_eq!(
                brute_force_respecting(&jobs, &pairs),
                brute_force(&jobs),
                "{jobs:?}: {pairs:?}"
            );
        }
        assert!(pruned > 3000, "the rule seldom applies: {pruned} pairs");
    }

    #[test]
    fn both_dominance_rules_together_keep_an_optimal_order_on_random_instances() {
        let mut rng = SplitMix(17);
        let (mut pruned, mut refused_both) = (0, 0);
        for _ in 0..1500 {
            let jobs = tied_jobs(&mut rng);
            let n = jobs.len();
            assert_eq!(brute_force_dominated(&jobs), brute_force(&jobs), "{jobs:?}");
            for a in 0..n {
                for b in 0..n {
                    for t in 0..8 {
                        if a != b && !may_precede(&jobs, a, b, t) {
                            pruned += 1;
                            refused_both += usize::from(!may_precede(&jobs, b, a, t));
                        }
                    }
                }
            }
        }
        assert!(
            pruned > 10_000,
            "the neighbour rule seldom applies: {pruned}"
        );
        // Of two neighbours, exactly one order is kept (no pair is refused both ways).
        assert_eq!(refused_both, 0);
    }

    #[test]
    fn an_overlap_is_not_a_schedule() {
        let jobs = [
            Job {
                duration: 3,
                due: 3,
                weight: 1,
            },
            Job {
                duration: 2,
                due: 4,
                weight: 2,
            },
        ];
        assert_eq!(weighted_tardiness(&jobs, &[0, 3]), Ok(2));
        assert_eq!(weighted_tardiness(&jobs, &[2, 0]), Ok(2));
        assert!(weighted_tardiness(&jobs, &[0, 2]).is_err());
    }
}
