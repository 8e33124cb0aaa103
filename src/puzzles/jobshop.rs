//! Job-shop instances in the classic text format (OR-Library, Taillard's "standard" form),
//! and an independent check of a schedule. The model is in `examples/jobshop.rs`.
//!
//! The format: a first line `jobs machines`, then one line per job of `machines` pairs
//! `machine duration`, the job's tasks in the order they must run (machines numbered from
//! 0). Blank lines and `#` comments are skipped.

use std::io::BufRead;

use crate::input::{InputError, Lines};

/// The longest line read, in bytes.
pub const MAX_LINE: usize = 1 << 16;

/// The largest instance taken: tasks times the sum of all durations (each task's start
/// ranges over the sum of all durations, one bit each).
pub const MAX_SIZE: u64 = 2_000_000_000;

/// A job-shop instance: each job's tasks, in order, as `(machine, duration)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The number of machines.
    pub machines: usize,
    /// Each job's tasks in the order they run: the machine and the duration.
    pub jobs: Vec<Vec<(usize, i64)>>,
}

impl Instance {
    /// The sum of all durations: a schedule running one task at a time ends by then.
    pub fn horizon(&self) -> i64 {
        self.jobs.iter().flatten().map(|t| t.1).sum()
    }

    /// The number of tasks.
    pub fn tasks(&self) -> usize {
        self.jobs.iter().map(Vec::len).sum()
    }
}

/// Reads an instance (see the module's documentation for the format).
///
/// # Errors
/// An [`InputError`] naming the line at fault: not two positive counts on the first line,
/// a job line without exactly `machines` pairs, a machine out of range, a negative
/// duration, a number that is not one, a line too many or too few, or an instance larger
/// than [`MAX_SIZE`].
pub fn read(reader: impl BufRead) -> Result<Instance, InputError> {
    let mut lines = Lines::new(reader, MAX_LINE);
    let mut header: Option<(usize, usize)> = None;
    let mut jobs: Vec<Vec<(usize, i64)>> = Vec::new();
    let mut last = 0;
    let mut horizon: u64 = 0;
    while let Some(next) = lines.next_line() {
        let (line, text) = next?;
        last = line;
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let invalid = |message: String| InputError::Invalid { line, message };
        let numbers = numbers(text).map_err(invalid)?;
        let Some((count, machines)) = header else {
            header = Some(counts(&numbers).map_err(invalid)?);
            continue;
        };
        if jobs.len() == count {
            return Err(invalid(format!(
                "one line more than the {count} jobs the first line announces"
            )));
        }
        let job = job(&numbers, machines).map_err(invalid)?;
        horizon = job
            .iter()
            .fold(horizon, |h, &(_, d)| h.saturating_add(d as u64));
        let tasks = (jobs.len() as u64 + 1) * machines as u64;
        if horizon.saturating_mul(tasks) > MAX_SIZE {
            return Err(invalid(format!(
                "too large: {tasks} tasks over a sum of durations of {horizon} (at most \
                 {MAX_SIZE} for their product)"
            )));
        }
        jobs.push(job);
    }
    match header {
        None => Err(InputError::Empty {
            what: "job-shop lines",
        }),
        Some((count, _)) if jobs.len() < count => Err(InputError::Invalid {
            line: last + 1,
            message: format!(
                "the file ends after {} of the {count} jobs the first line announces",
                jobs.len()
            ),
        }),
        Some((_, machines)) => Ok(Instance { machines, jobs }),
    }
}

/// The numbers of a line.
fn numbers(text: &str) -> Result<Vec<i64>, String> {
    text.split_whitespace()
        .map(|word| {
            word.parse::<i64>()
                .map_err(|_| format!("{word:?} is not a whole number"))
        })
        .collect()
}

/// The first line: the numbers of jobs and of machines.
fn counts(numbers: &[i64]) -> Result<(usize, usize), String> {
    match numbers {
        &[jobs, machines] if jobs > 0 && machines > 0 => {
            let jobs = usize::try_from(jobs).map_err(|e| e.to_string())?;
            let machines = usize::try_from(machines).map_err(|e| e.to_string())?;
            Ok((jobs, machines))
        }
        _ => Err(format!(
            "the first line should be two positive numbers, jobs and machines; found {numbers:?}"
        )),
    }
}

/// A job line: `machines` pairs `machine duration`.
fn job(numbers: &[i64], machines: usize) -> Result<Vec<(usize, i64)>, String> {
    if numbers.len() != 2 * machines {
        return Err(format!(
            "a job is {machines} pairs \"machine duration\" ({} numbers); this line has {}",
            2 * machines,
            numbers.len()
        ));
    }
    numbers
        .chunks(2)
        .map(|pair| {
            let (machine, duration) = (pair[0], pair[1]);
            let machine = usize::try_from(machine)
                .ok()
                .filter(|&m| m < machines)
                .ok_or_else(|| {
                    format!(
                        "machine {machine} does not exist (machines are numbered 0 to {})",
                        machines - 1
                    )
                })?;
            if duration < 0 {
                return Err(format!("duration {duration} is negative"));
            }
            Ok((machine, duration))
        })
        .collect()
}

/// What is wrong with `starts` (one per task, job by job) as a schedule of `instance`, if
/// anything: a job's task starting before the one before it ends, or two tasks of
/// positive durations on one machine at once. `Ok` gives the makespan, the latest end.
///
/// # Errors
/// The first fault found, in words.
pub fn check(instance: &Instance, starts: &[Vec<i64>]) -> Result<i64, String> {
    if starts.len() != instance.jobs.len()
        || starts
            .iter()
            .zip(&instance.jobs)
            .any(|(s, job)| s.len() != job.len())
    {
        return Err("not one start per task".into());
    }
    let mut on: Vec<Vec<(i64, i64, usize)>> = vec![Vec::new(); instance.machines];
    let mut makespan = 0;
    for (j, (job, s)) in instance.jobs.iter().zip(starts).enumerate() {
        let mut ready = 0;
        for (k, (&(machine, duration), &start)) in job.iter().zip(s).enumerate() {
            if start < ready {
                return Err(format!(
                    "job {j}'s task {k} starts before its previous ends"
                ));
            }
            ready = start + duration;
            makespan = makespan.max(ready);
            if duration > 0 {
                on[machine].push((start, start + duration, j));
            }
        }
    }
    for (machine, tasks) in on.iter_mut().enumerate() {
        tasks.sort_unstable();
        if let Some(w) = tasks.windows(2).find(|w| w[1].0 < w[0].1) {
            return Err(format!(
                "jobs {} and {} overlap on machine {machine}",
                w[0].2, w[1].2
            ));
        }
    }
    Ok(makespan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        read(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn an_instance_is_read_with_comments_and_blank_lines() {
        let text = "# two jobs\n2 2\n\n0 3 1 2\n1 4 0 1\n";
        let instance = read(text.as_bytes()).unwrap();
        assert_eq!(instance.machines, 2);
        assert_eq!(
            instance.jobs,
            vec![vec![(0, 3), (1, 2)], vec![(1, 4), (0, 1)]]
        );
        assert_eq!((instance.horizon(), instance.tasks()), (10, 4));
        assert_eq!(check(&instance, &[vec![0, 4], vec![0, 4]]), Ok(6));
        assert!(check(&instance, &[vec![0, 3], vec![0, 4]]).is_err());
        assert!(check(&instance, &[vec![0, 4], vec![0, 2]]).is_err());
    }

    #[test]
    fn every_fault_names_its_line() {
        assert_eq!(error(""), "no job-shop lines: the file is empty or blank");
        assert!(error("2\n").starts_with("line 1: the first line should be"));
        assert!(error("0 3\n").starts_with("line 1: the first line should be"));
        assert!(error("1 2\n0 3 1\n").starts_with("line 2: a job is 2 pairs"));
        assert!(error("1 2\n0 3 2 1\n").starts_with("line 2: machine 2 does not exist"));
        assert!(error("1 2\n0 3 1 -1\n").starts_with("line 2: duration -1 is negative"));
        assert!(error("1 2\n0 3 1 x\n").starts_with("line 2: \"x\" is not a whole number"));
        assert!(error("1 1\n0 3\n0 3\n").starts_with("line 3: one line more"));
        assert!(error("2 1\n0 3\n").starts_with("line 3: the file ends after 1 of the 2"));
        let huge = format!("1 2\n0 {} 1 1\n", i64::MAX);
        assert!(error(&huge).starts_with("line 2: too large"));
    }
}
