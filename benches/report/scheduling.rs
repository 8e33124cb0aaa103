//! The report's section on scheduling: one machine with 10 jobs written with a predicate
//! per pair of jobs and with `disjunctive`, and the `jobshop` example proving ft06 and
//! la01, side by side with Gecode on the same instances.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use ambsolve_examples::puzzles::jobshop::{self, Instance};
use ambsolve_examples::puzzles::single_machine::{brute_force, random_jobs};

use crate::support::{gecode_effort, last_value, median};
use crate::{seconds, verdict};

/// The examples' own models (their `main` and arguments are not used here).
#[allow(dead_code)]
#[path = "../../examples/jobshop.rs"]
pub(crate) mod jobshop_example;
#[allow(dead_code)]
#[path = "../../examples/single_machine.rs"]
pub(crate) mod single_machine_example;

/// How long Gecode is given per instance.
const GECODE_LIMIT: Duration = Duration::from_secs(20);

/// What Gecode did on one instance.
struct Gecode {
    /// The makespan proved optimal, if it was.
    proved: Option<i64>,
    nodes: u64,
    /// Its own solve time (flattening and start-up left out).
    time: Duration,
}

/// A job-shop instance shipped in `tests/data/jobshop/` (`ft06`, `la01`).
pub(crate) fn shipped_instance(name: &str) -> Instance {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/jobshop")
        .join(format!("{name}.txt"));
    let reader = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
    jobshop::read(reader).unwrap()
}

/// Gecode on `instance` through MiniZinc and `tests/data/jobshop/jobshop.mzn` (the same
/// model and search as the example), with MiniZinc's decomposition of `disjunctive`
/// (`std`: pairs of reified inequalities) or Gecode's own unary resource (`native`).
/// `None` when MiniZinc or Gecode is not installed or fails.
fn gecode(instance: &Instance, name: &str, native: bool) -> Option<Gecode> {
    let dir = std::env::temp_dir().join(format!("ambsolve-bench-js-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let dzn = dir.join(format!("{name}.dzn"));
    let rows = |f: &dyn Fn(&(usize, i64)) -> String| -> String {
        let rows: Vec<String> = instance
            .jobs
            .iter()
            .map(|job| job.iter().map(f).collect::<Vec<_>>().join(","))
            .collect();
        rows.join("|")
    };
    let data = format!(
        "jobs = {};\nmachines = {};\nmachine = [|{}|];\nduration = [|{}|];\n",
        instance.jobs.len(),
        instance.machines,
        rows(&|t| t.0.to_string()),
        rows(&|t| t.1.to_string())
    );
    std::fs::write(&dzn, data).ok()?;
    let mzn = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jobshop/jobshop.mzn");
    let mut command = Command::new("minizinc");
    command.args(["--solver", "gecode", "-s", "--time-limit"]);
    command.arg(GECODE_LIMIT.as_millis().to_string());
    if !native {
        command.args(["-G", "std"]);
    }
    let out = command
        .arg(&mzn)
        .arg(&dzn)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let (nodes, time) = gecode_effort(&text)?;
    Some(Gecode {
        proved: last_value(&text, "makespan").filter(|_| text.contains("==========")),
        nodes,
        time,
    })
}

fn gecode_cells(run: Option<Gecode>, makespan: i64, time: Duration) -> [String; 3] {
    match run {
        Some(g) => {
            if let Some(proved) = g.proved {
                assert_eq!(proved, makespan, "Gecode and ambsolve disagree");
            }
            let shown = match g.proved {
                Some(_) => seconds(g.time),
                None => format!("not proved in {}", seconds(g.time)),
            };
            let ratio = match g.proved {
                Some(_) => format!("{:.1}×", g.time.as_secs_f64() / time.as_secs_f64()),
                None => format!("> {:.0}×", g.time.as_secs_f64() / time.as_secs_f64()),
            };
            [g.nodes.to_string(), shown, ratio]
        }
        None => ["—".into(), "not measured (no MiniZinc)".into(), "—".into()],
    }
}

const SINGLE_MACHINE_TEXT: [&str; 19] = [
    "## Scheduling: one machine, and the job shop (trail engine, `disjunctive`)\n",
    "### One machine, 10 jobs, weighted tardiness\n",
    "The model of `examples/single_machine.rs` (`single_machine 10 --seed S`): a start per job in",
    "`0..=P - d` (`P` the sum of the durations), a lateness per job at least its end less its due",
    "date, the weighted latenesses minimised; the example's search (the starts in order, earliest",
    "first, each refuted start propagated before the next is tried: `propagate_refutations`;",
    "with the dominance rules, the job that can start earliest first: the schedule is built from",
    "the front, so that the neighbour rule judges each job as it is placed).",
    "Written (a) with a predicate per pair of jobs, `s[a] + d[a] <= s[b] || s[b] + d[b] <= s[a]`",
    "through `Model::require` (`--pairs`, checked once both starts are fixed), (b) with",
    "`disjunctive` (edge finding, detectable precedences, not-first/not-last), and (c) as (b) with",
    "two dominance rules (`--dominance`: a job no longer, due no later and no lighter than another",
    "runs first; two jobs never run one right after the other when exchanging them would cost",
    "less). A time is building the model and proving the optimum",
    "(median of 3 runs for (b) and (c), one run for (a)); each optimum is checked against a brute",
    "force over every order. Target: at least 100× fewer nodes than (a), and under 10 ms (the",
    "issue's instance is the example's default, seed 1).\n",
    "| seed | optimum | (a) nodes | (a) time | (b) nodes | (b) time | (c) nodes | (c) time | nodes (a)/(b) | nodes (a)/(c) | time (a)/(c) | target (c) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
];

fn single_machine_rows(md: &mut String, quick: bool) {
    for line in SINGLE_MACHINE_TEXT {
        writeln!(md, "{line}").unwrap();
    }
    let seeds: &[u64] = if quick { &[1] } else { &[1, 2, 3] };
    for &seed in seeds {
        let jobs = random_jobs(10, seed);
        let optimum = brute_force(&jobs);
        let run = |pairs: bool, dominance: bool| {
            let form = single_machine_example::Form { pairs, dominance };
            let best = single_machine_example::single_machine(&jobs, form)
                .best()
                .unwrap();
            assert!(best.proved);
            assert_eq!(best.objective, Some(optimum));
            best.stats.nodes
        };
        let (a_time, a_nodes) = median(1, || run(true, false));
        let (b_time, b_nodes) = median(3, || run(false, false));
        let (c_time, c_nodes) = median(3, || run(false, true));
        let ratio = |a: u64, b: u64| a as f64 / b as f64;
        let met = ratio(a_nodes, c_nodes) >= 100.0 && c_time < Duration::from_millis(10);
        writeln!(
            md,
            "| {seed} | {optimum} | {a_nodes} | {} | {b_nodes} | {} | {c_nodes} | {} | {:.1}× | {:.1}× | {:.1}× | {} |",
            seconds(a_time),
            seconds(b_time),
            seconds(c_time),
            ratio(a_nodes, b_nodes),
            ratio(a_nodes, c_nodes),
            a_time.as_secs_f64() / c_time.as_secs_f64(),
            verdict(met)
        )
        .unwrap();
    }
}

pub(crate) fn section(md: &mut String, quick: bool) {
    single_machine_rows(md, quick);
    for line in [
        "\n### Job shop: `jobshop` proving ft06 and la01\n",
        "The model of `examples/jobshop.rs`: a start per task, each job's tasks in order, a",
        "`disjunctive` per machine, the makespan after every job's end, minimised; the makespan",
        "decided first, least first, then the starts, fewest values first. A time is building the",
        "model and proving the optimum (median of 3 runs). Gecode: the same model and search",
        "(`tests/data/jobshop/jobshop.mzn`) through MiniZinc, its own solve time (flattening and",
        "start-up left out), given at most 20 s: with `-G std` MiniZinc decomposes `disjunctive`",
        "into reified inequalities per pair; without it, Gecode's own unary resource runs (its",
        "library loads for this model). Target: la01 proved in under 10 s.\n",
        "| instance | makespan | nodes | ambsolve | Gecode `-G std` nodes | Gecode `-G std` | Gecode / ambsolve | Gecode own nodes | Gecode own | Gecode / ambsolve | target |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ] {
        writeln!(md, "{line}").unwrap();
    }
    for (file, optimum) in [("ft06", 55), ("la01", 666)] {
        let instance = shipped_instance(file);
        let (time, best) = median(3, || {
            jobshop_example::jobshop(&instance, false).best().unwrap()
        });
        assert!(best.proved);
        assert_eq!(best.objective, Some(optimum));
        let (schedule, makespan) = best.solution.expect("a schedule");
        assert_eq!(jobshop::check(&instance, &schedule), Ok(makespan));
        let [std_nodes, std_time, std_ratio] =
            gecode_cells(gecode(&instance, file, false), makespan, time);
        let [own_nodes, own_time, own_ratio] =
            gecode_cells(gecode(&instance, file, true), makespan, time);
        let target = if file == "la01" {
            verdict(time < Duration::from_secs(10))
        } else {
            ""
        };
        writeln!(
            md,
            "| {file} | {makespan} | {} | {} | {std_nodes} | {std_time} | {std_ratio} | {own_nodes} | {own_time} | {own_ratio} | {target} |",
            best.stats.nodes,
            seconds(time)
        )
        .unwrap();
    }
    let started = Instant::now();
    let twenty = random_jobs(20, 1);
    let form = single_machine_example::Form {
        pairs: false,
        dominance: true,
    };
    let best = single_machine_example::single_machine(&twenty, form)
        .limits(ambsolve::Limits::new().time(Duration::from_secs(if quick { 2 } else { 10 })))
        .best()
        .unwrap();
    writeln!(
        md,
        "\nOne machine with 20 jobs (`single_machine 20 --dominance`, seed 1): weighted tardiness {} found in \
         {} ({} nodes), {}.\n",
        best.objective.map_or("none".into(), |o| o.to_string()),
        seconds(started.elapsed()),
        best.stats.nodes,
        if best.proved {
            "proved optimal"
        } else {
            "not proved optimal within the limit"
        }
    )
    .unwrap();
}
