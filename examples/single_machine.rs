//! Weighted tardiness on one machine: jobs with a duration, a due date and a weight, run
//! one at a time; each unit of time a job ends after its due date costs its weight; the
//! total cost should be as low as possible. Branch and bound finds an order and proves it
//! best.
//!
//! ```text
//! cargo run --release --example single_machine -- 10
//! cargo run --release --example single_machine -- 10 --seed 3 --pairs --stats
//! cargo run --release --example single_machine -- 10 --seed 2 --dominance --stats
//! cargo run --release --example single_machine -- 20 --time-limit 10
//! ```
//!
//! The instance is drawn from the seed: durations and weights in 1..=10, due dates in
//! the middle of the schedule, so that most jobs are late and the order matters.

use std::process::ExitCode;
use std::sync::Arc;

use ambsolve::{Cmp, Model, Phase, Puzzle, Strategy, ValueOrder, Var, VarOrder, value_images};
use ambsolve_examples::cli::{self, Bounds, Output};
use ambsolve_examples::puzzles::single_machine::{
    Job, dominance, may_precede, random_jobs, weighted_tardiness,
};
use clap::Parser;

/// The most jobs taken. Proving the optimum takes a fraction of a second for 10 jobs and
/// grows fast with each job (20 jobs: run with a limit, which stops the search with the
/// best order found).
const MAX_JOBS: u64 = 100;

/// Order N jobs on one machine for the least weighted tardiness, and prove it least.
///
/// Prints the jobs in the order they run (start, end, due date, weight, lateness), then
/// `weighted tardiness: W`. A limit, Ctrl-C, SIGTERM or SIGHUP stops the search and prints
/// the best order found, marked partial and not proved optimal (exit status 130 for a
/// signal).
#[derive(Parser, Debug)]
#[command(name = "single_machine")]
struct Args {
    /// The number of jobs (1 to 100).
    #[arg(default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=MAX_JOBS))]
    n: u64,
    /// The seed of the random instance.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write "one job at a time" pair by pair, as `s[a] + d[a] <= s[b] || s[b] + d[b] <=
    /// s[a]` (checked once both starts are chosen), instead of `disjunctive`: the same
    /// search, for comparison.
    #[arg(long)]
    pairs: bool,
    /// Also add two dominance rules (some optimal order keeps both): a job runs before
    /// another whenever it is no longer, due no later and weighs no less; and two jobs
    /// never run one right after the other when exchanging them would cost less.
    #[arg(long)]
    dominance: bool,
    /// Print what the search did.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    bounds: Bounds,
}

/// How "one job at a time" is written, and what else the model knows.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Form {
    /// A predicate per pair of jobs instead of `disjunctive`.
    pub(crate) pairs: bool,
    /// The dominance rules: precedences, and neighbours that must not be exchanged.
    pub(crate) dominance: bool,
}

/// The model: a start per job, no two jobs at once, each job's lateness at least its end
/// less its due date (and at least 0: at the optimum it is exactly `max(0, end - due)`),
/// the weighted sum of latenesses minimised.
pub(crate) fn single_machine(jobs: &[Job], form: Form) -> Puzzle<'static, Vec<i64>> {
    let total: i64 = jobs.iter().map(|j| j.duration).sum();
    let mut m = Model::new();
    // The jobs fill 0..total without a gap (a gap would only delay the jobs after it).
    let starts: Vec<Var<i64>> = jobs.iter().map(|j| m.var(0..=total - j.duration)).collect();
    let late: Vec<Var<i64>> = (0..jobs.len()).map(|_| m.var(0..=total)).collect();
    for ((job, start), late) in jobs.iter().zip(&starts).zip(&late) {
        // late >= start + duration - due
        m.linear([(1, late), (-1, start)], Cmp::Ge, job.duration - job.due);
    }
    if form.pairs {
        for a in 0..jobs.len() {
            for b in a + 1..jobs.len() {
                let (da, db) = (jobs[a].duration, jobs[b].duration);
                m.require((&starts[a], &starts[b]), move |&sa, &sb| {
                    sa + da <= sb || sb + db <= sa
                });
            }
        }
    } else {
        m.disjunctive(&starts, jobs.iter().map(|j| j.duration));
    }
    if form.dominance {
        for (a, b) in dominance(jobs) {
            // s[b] - s[a] >= d[a]
            m.linear(
                [(1, &starts[b]), (-1, &starts[a])],
                Cmp::Ge,
                jobs[a].duration,
            );
        }
        // Two neighbours that an exchange would make cheaper (or as cheap, and earlier by
        // a fixed tie rule) never run one right after the other.
        let shared: Arc<[Job]> = jobs.into();
        for a in 0..jobs.len() {
            for b in a + 1..jobs.len() {
                let (da, db) = (jobs[a].duration, jobs[b].duration);
                let jobs = Arc::clone(&shared);
                m.require((&starts[a], &starts[b]), move |&sa, &sb| {
                    (sa + da != sb || may_precede(&jobs, a, b, sa))
                        && (sb + db != sa || may_precede(&jobs, b, a, sb))
                });
            }
        }
    }
    m.minimize(jobs.iter().zip(&late).map(|(job, late)| (job.weight, late)));
    // The search: the starts in declaration order, each at its earliest first, then the
    // latenesses, least first; a start refuted (`s != t`) is propagated before the next
    // one is tried, so that the latest starts that the bound on the cost allows, and the
    // precedences the resource then detects, skip the starts that cannot do better. With
    // the dominance rules, the schedule is built from the front instead: the job that can
    // start earliest starts first (ties to the first declared), so that the neighbour
    // rule judges each job as it is placed (in declaration order, 20 jobs find no order
    // that keeps it within 10 s).
    let strategy = if form.dominance {
        let by_earliest = VarOrder::Smallest(value_images(&starts));
        let ids = starts.iter().map(Var::id);
        Strategy::new().phase(Phase::new(ids, by_earliest, ValueOrder::Ascending))
    } else {
        Strategy::new()
    }
    .propagate_refutations(true);
    Puzzle::new(m, move |a| starts.iter().map(|s| *a.value(s)).collect()).strategy(strategy)
}

fn main() -> ExitCode {
    let args: Args = cli::parse();
    let jobs = random_jobs(args.n as usize, args.seed);
    let form = Form {
        pairs: args.pairs,
        dominance: args.dominance,
    };
    let puzzle = single_machine(&jobs, form).limits(args.bounds.limits());
    let mut out = Output::new();
    let improving = match cli::improve(
        puzzle,
        &mut out,
        ("order", "orders"),
        true,
        |starts: &Vec<i64>, cost| match weighted_tardiness(&jobs, starts) {
            Ok(found) if found == cost => Ok(()),
            Ok(found) => Err(format!(
                "an order of weighted tardiness {found} was reported as {cost}"
            )),
            Err(e) => Err(format!(
                "the search returned an order that is not a schedule: {e}"
            )),
        },
        None::<fn(&ambsolve::Improvement<_>) -> String>,
        |out, starts, cost| {
            let mut order: Vec<usize> = (0..jobs.len()).collect();
            order.sort_by_key(|&j| starts[j]);
            for j in order {
                let job = jobs[j];
                let end = starts[j] + job.duration;
                out.line(format!(
                    "job {j}: {}..{end} (due {}, weight {}, late {})",
                    starts[j],
                    job.due,
                    job.weight,
                    (end - job.due).max(0)
                ));
            }
            out.line(format!("weighted tardiness: {cost}"));
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
