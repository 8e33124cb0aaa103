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
        .map(|(job, &start)| job.weight * (start + job.duration - job.due).max(0))
        .sum())
}

/// The least weighted tardiness of `jobs` over every order (each job starting when the one
/// before ends), by brute force: `n!` orders, with a prefix cut once its cost reaches the
/// best found. Independent of the engines, for tests.
pub fn brute_force(jobs: &[Job]) -> i64 {
    fn go(jobs: &[Job], left: &mut Vec<usize>, time: i64, cost: i64, best: &mut i64) {
        if cost >= *best {
            return;
        }
        if left.is_empty() {
            *best = cost;
            return;
        }
        for k in 0..left.len() {
            let j = left.swap_remove(k);
            let end = time + jobs[j].duration;
            let late = jobs[j].weight * (end - jobs[j].due).max(0);
            go(jobs, left, end, cost + late, best);
            left.push(j);
            let last = left.len() - 1;
            left.swap(k, last);
        }
    }
    let mut best = i64::MAX;
    go(jobs, &mut (0..jobs.len()).collect(), 0, 0, &mut best);
    best
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
