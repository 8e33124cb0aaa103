//! The job shop: jobs made of tasks, each on one machine for a given time; a job's tasks
//! run in order, a machine runs one task at a time; the last task should end as early as
//! possible. Branch and bound finds a schedule and proves its makespan optimal.
//!
//! ```text
//! cargo run --release --example jobshop -- tests/data/jobshop/ft06.txt
//! cargo run --release --example jobshop -- tests/data/jobshop/la01.txt --stats
//! ```
//!
//! The file is in the classic text format (OR-Library): a line `jobs machines`, then per
//! job a line of `machine duration` pairs, the job's tasks in order, machines numbered
//! from 0. Blank lines and `#` comments are skipped.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;

use ambsolve::{Cmp, Lns, Model, Puzzle, Strategy, Var, VarOrder};
use ambsolve_examples::cli::{self, Bounds, Output};
use ambsolve_examples::puzzles::jobshop::{self, Instance};
use clap::Parser;

/// Schedule the jobs of FILE with the least makespan, and prove it least.
///
/// Prints each machine's tasks in time order (`job@start+duration`), then `makespan: M`.
/// A limit, Ctrl-C, SIGTERM or SIGHUP stops the search and prints the best schedule found,
/// marked partial and not proved optimal (exit status 130 for a signal). A malformed file
/// is an error naming its line (exit status 2).
#[derive(Parser, Debug)]
#[command(name = "jobshop")]
struct Args {
    /// The instance: `jobs machines`, then one line of `machine duration` pairs per job.
    file: PathBuf,
    /// Print what the search did.
    #[arg(long)]
    stats: bool,
    /// Search without learning from conflicts (plain branch and bound, deciding the
    /// makespan first).
    #[arg(long)]
    no_learning: bool,
    /// Improve by large neighbourhood search after the first schedule, taking turns with
    /// the complete search (which still proves the least makespan).
    #[arg(long)]
    lns: bool,
    /// The seed of the neighbourhoods `--lns` draws.
    #[arg(long, value_name = "SEED", default_value_t = 0, requires = "lns")]
    lns_seed: u64,
    #[command(flatten)]
    bounds: Bounds,
}

/// The model: a start per task, a job's tasks one after the other, one task at a time on
/// each machine (`disjunctive`), the makespan after every job's last task, minimised.
pub(crate) fn jobshop(
    instance: &Instance,
    learning: bool,
) -> Puzzle<'static, (Vec<Vec<i64>>, i64)> {
    let horizon = instance.horizon();
    let mut m = Model::new();
    // Each start lies between the durations before it in its job and the horizon less
    // the durations from it on.
    let starts: Vec<Vec<Var<i64>>> = instance
        .jobs
        .iter()
        .map(|job| {
            let total: i64 = job.iter().map(|t| t.1).sum();
            let mut before = 0;
            job.iter()
                .map(|&(_, duration)| {
                    let start = m.var(before..=horizon - (total - before));
                    before += duration;
                    start
                })
                .collect()
        })
        .collect();
    let makespan = m.named_var("makespan", 0..=horizon);
    for (job, s) in instance.jobs.iter().zip(&starts) {
        for k in 0..job.len() {
            // s[k] + d[k] <= s[k + 1], and the last task ends by the makespan.
            let next = s.get(k + 1).unwrap_or(&makespan);
            m.linear([(1, &s[k]), (-1, next)], Cmp::Le, -job[k].1);
        }
    }
    for machine in 0..instance.machines {
        let (on, durations): (Vec<&Var<i64>>, Vec<i64>) = instance
            .jobs
            .iter()
            .zip(&starts)
            .flat_map(|(job, s)| job.iter().zip(s))
            .filter(|((m, _), _)| *m == machine)
            .map(|(&(_, duration), start)| (start, duration))
            .unzip();
        m.disjunctive(on, durations);
    }
    m.minimize([(1, &makespan)]);
    // Fewest values first, ties to the makespan, then the tasks job by job. At the root
    // the makespan has the fewest values (every start's window is at least as wide), so it
    // is decided first, smallest first: each value asks whether a schedule that short
    // exists, which the machines' edge finding mostly refutes at once, and the first
    // schedule found is optimal; the search then proves it.
    let order: Vec<_> = std::iter::once(makespan.id())
        .chain(starts.iter().flatten().map(Var::id))
        .collect();
    // A refuted start is propagated before the next one is tried (binary branching).
    let strategy = Strategy::new()
        .vars(VarOrder::FirstFailThen(order.into()))
        .propagate_refutations(true)
        .learning(learning);
    let shape: Vec<usize> = starts.iter().map(Vec::len).collect();
    let (ids, end): (Vec<_>, _) = (starts.iter().flatten().cloned().collect(), makespan);
    Puzzle::new(m, move |a| {
        let mut flat = ids.iter().map(|v| *a.value(v));
        let schedule = shape
            .iter()
            .map(|&n| flat.by_ref().take(n).collect())
            .collect();
        (schedule, *a.value(&end))
    })
    .strategy(strategy)
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let name = args.file.display().to_string();
    let file = match File::open(&args.file) {
        Ok(file) => BufReader::new(file),
        Err(e) => return cli::input_error("jobshop", format!("cannot read {name}: {e}")),
    };
    let instance = match jobshop::read(file) {
        Ok(instance) => instance,
        Err(e) => return cli::input_error("jobshop", format!("{name}: {e}")),
    };
    let mut puzzle = jobshop(&instance, !args.no_learning).limits(args.bounds.limits());
    if args.lns {
        puzzle = puzzle.lns(Lns::new().seed(args.lns_seed));
    }
    let mut out = Output::new();
    let improving = match cli::improve(
        puzzle,
        &mut out,
        ("schedule", "schedules"),
        true,
        |(schedule, _): &(Vec<Vec<i64>>, i64), makespan| match jobshop::check(&instance, schedule) {
            Ok(length) if length == makespan => Ok(()),
            Ok(length) => Err(format!(
                "a schedule of makespan {length} was reported as {makespan}"
            )),
            Err(e) => Err(format!(
                "the search returned a schedule that is not one: {e}"
            )),
        },
        None::<fn(&ambsolve::Improvement<_>) -> String>,
        |out, (schedule, _), makespan| {
            for line in machine_lines(&instance, &schedule) {
                out.line(line);
            }
            out.line(format!("makespan: {makespan}"));
        },
    ) {
        Ok(improving) => improving,
        Err(status) => return status,
    };
    if args.stats {
        out.line(format!("statistics: {}", improving.stats()));
    }
    out.flush();
    cli::exit_status(improving.stop_reason())
}

/// One line per machine: its tasks in time order, as `job@start+duration`.
fn machine_lines(instance: &Instance, schedule: &[Vec<i64>]) -> Vec<String> {
    let mut on: Vec<Vec<(i64, usize, i64)>> = vec![Vec::new(); instance.machines];
    for (j, (job, starts)) in instance.jobs.iter().zip(schedule).enumerate() {
        for (&(machine, duration), &start) in job.iter().zip(starts) {
            on[machine].push((start, j, duration));
        }
    }
    on.iter_mut()
        .enumerate()
        .map(|(machine, tasks)| {
            tasks.sort_unstable();
            let tasks: Vec<String> = tasks
                .iter()
                .map(|(start, job, duration)| format!("{job}@{start}+{duration}"))
                .collect();
            format!("machine {machine}: {}", tasks.join(" "))
        })
        .collect()
}
