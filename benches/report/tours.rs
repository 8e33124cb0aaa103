//! The report's section on tours: the `tsp` example's model proved optimal, side by side
//! with Gecode on the same instances, and the tours of a complete graph counted with
//! `circuit` and with all-different plus a check of the cycle.

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use ambsolve::{Engine, Model, Strategy};
use ambsolve_examples::puzzles::tsp;

use crate::support::{gecode_effort, last_value, median};
use crate::{seconds, verdict};

#[path = "../../examples/tsp/model.rs"]
mod model;

/// The MiniZinc model Gecode solves: the same successors, `circuit`, each leg an element
/// of the distance matrix, first fail on the legs, shortest first (its best search of
/// three tried: on the legs, on the successors, its default).
const MZN: &str = "include \"globals.mzn\";
int: n;
array[1..n, 1..n] of int: d;
array[1..n] of var 1..n: succ;
array[1..n] of var 0..max(d): leg;
constraint circuit(succ);
constraint forall(i in 1..n)(leg[i] = d[i, succ[i]]);
solve :: int_search(leg, first_fail, indomain_min) minimize sum(leg);
output [\"length: \\(sum(leg))\\n\"];
";

/// Gecode on `dist` through MiniZinc (`-G std`: the Debian package's Gecode library does
/// not match its MiniZinc, so `circuit` is MiniZinc's decomposition): the length it
/// proves, its nodes and its own solve time (flattening and start-up left out). `None`
/// when MiniZinc or Gecode is not installed or fails.
fn gecode(dist: &[Vec<i64>], name: &str) -> Option<(i64, u64, Duration)> {
    let dir = std::env::temp_dir().join(format!("ambsolve-bench-tsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let (mzn, dzn) = (dir.join("tsp.mzn"), dir.join(format!("{name}.dzn")));
    let rows: Vec<String> = dist
        .iter()
        .map(|r| r.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
        .collect();
    std::fs::write(&mzn, MZN).ok()?;
    let data = format!("n = {};\nd = [|{}|];\n", dist.len(), rows.join("|"));
    std::fs::write(&dzn, data).ok()?;
    let out = Command::new("minizinc")
        .args(["--solver", "gecode", "-G", "std", "-s"])
        .arg(&mzn)
        .arg(&dzn)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !text.contains("==========") {
        return None;
    }
    let length = last_value(&text, "length")?;
    let (nodes, time) = gecode_effort(&text)?;
    Some((length, nodes, time))
}

/// The tours of the complete graph on `n` nodes, counted by the trail engine: with
/// `circuit`, or with all-different and a check of the cycle once every successor is
/// fixed. Returns (tours, nodes).
fn count_tours(n: usize, with_circuit: bool) -> (u64, u64) {
    let mut m = Model::new();
    let succ = m.vars("succ", n, 0..n);
    if with_circuit {
        m.circuit(&succ);
    } else {
        m.all_different(&succ);
        m.require(&succ[..], move |next: &[&usize]| {
            let mut at = 0;
            (1..=n).all(|step| {
                at = *next[at];
                (at == 0) == (step == n)
            })
        });
    }
    let summary = m
        .solve(Engine::Trail)
        .strategy(Strategy::new())
        .count()
        .unwrap();
    (summary.solutions, summary.stats.nodes)
}

pub(crate) fn section(md: &mut String, quick: bool) {
    for line in [
        "## Tours: `tsp` proved optimal (trail engine, `circuit` and a table per leg)\n",
        "The model of `examples/tsp/model.rs`: a successor per city, `circuit` over them (all",
        "different by a matching, no early closing of a chain of fixed edges, strongly connected),",
        "the leg out of each city tied to its successor by a table of (city, distance), and the",
        "sum of the legs minimised; first fail on the successors, nearest city first. Random",
        "cities on a 1000 × 1000 grid (`tsp --cities N --seed S`). A time is building the model",
        "and proving the optimum (median). Gecode: the same instance through MiniZinc, `circuit`",
        "plus an element per leg, first fail on the legs, shortest first; its own solve time",
        "(flattening and start-up left out), `-G std`: the Debian package's Gecode library does",
        "not load with its MiniZinc, so `circuit` (and the all-different in it) are MiniZinc's",
        "decompositions, weaker than Gecode's own `circuit`. Target: 12 cities proved optimal in",
        "under 1 s.\n",
        "| cities | seed | length | nodes | ambsolve | Gecode nodes | Gecode | Gecode / ambsolve | target |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ] {
        writeln!(md, "{line}").unwrap();
    }
    let rows: &[(usize, u64, usize)] = if quick {
        &[(10, 1, 3), (12, 1, 3)]
    } else {
        &[
            (10, 1, 5),
            (12, 1, 5),
            (12, 2, 5),
            (12, 3, 5),
            (14, 1, 3),
            (16, 1, 3),
        ]
    };
    for &(n, seed, runs) in rows {
        let instance = tsp::random(n, seed);
        let (time, best) = median(runs, || model::tsp(&instance.dist).best().unwrap());
        assert!(best.proved);
        let length = best.objective.expect("a tour");
        let succ = best.solution.expect("a tour");
        assert_eq!(instance.length(&succ), length);
        let mut improving = model::tsp(&instance.dist).improving();
        improving.by_ref().for_each(drop);
        let nodes = improving.stats().nodes;
        let (gecode_nodes, gecode_time, ratio) = match gecode(&instance.dist, &instance.name) {
            Some((g_length, g_nodes, g_time)) => {
                assert_eq!(
                    g_length, length,
                    "Gecode and ambsolve disagree on {}",
                    instance.name
                );
                (
                    g_nodes.to_string(),
                    seconds(g_time),
                    format!("{:.1}×", g_time.as_secs_f64() / time.as_secs_f64()),
                )
            }
            None => ("—".into(), "not measured".into(), "—".into()),
        };
        let target = if n == 12 {
            verdict(time < Duration::from_secs(1))
        } else {
            ""
        };
        writeln!(
            md,
            "| {n} | {seed} | {length} | {nodes} | {} | {gecode_nodes} | {gecode_time} | {ratio} | {target} |",
            seconds(time)
        )
        .unwrap();
    }
    let n = if quick { 8 } else { 9 };
    let (with, (tours, nodes)) = median(3, || count_tours(n, true));
    let (without, (checked, checked_nodes)) = median(3, || count_tours(n, false));
    assert_eq!(tours, checked);
    writeln!(
        md,
        "\nCounting the {tours} tours of the complete graph on {n} nodes: `circuit` {} ({nodes} \
         nodes), all-different plus a check of the cycle once fixed {} ({checked_nodes} nodes): \
         {:.1}× the time.\n",
        seconds(with),
        seconds(without),
        without.as_secs_f64() / with.as_secs_f64()
    )
    .unwrap();
}
