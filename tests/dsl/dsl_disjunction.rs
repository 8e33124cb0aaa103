//! A single machine written with the pairwise `||` of `constraints!` (`s[a] + d[a] <=
//! s[b] || s[b] + d[b] <= s[a]`): a clause of reified linear inequalities, which prunes
//! as soon as one side is false, against the same model with each disjunction a checked
//! predicate (the form before issue 22).
//!
//! `cargo test --release --test dsl dsl_disjunction:: -- --ignored --nocapture` measures
//! the ten-job instance (the predicate form is stopped after 5 million nodes).

use ambsolve::__private::dsl::predicates_only;
use ambsolve::{Engine, Limits, Stats, constraints};

/// Jobs of a single machine: durations, weights and due dates, from a fixed seed.
fn jobs(n: usize) -> Jobs {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |k: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % k) as i64
    };
    let d: Vec<i64> = (0..n).map(|_| 1 + next(9)).collect();
    let w: Vec<i64> = (0..n).map(|_| 1 + next(4)).collect();
    let total: i64 = d.iter().sum();
    let due: Vec<i64> = (0..n).map(|_| next(total as u64)).collect();
    (d, w, due)
}

/// Jobs: durations, weights and due dates.
type Jobs = (Vec<i64>, Vec<i64>, Vec<i64>);

/// Weighted tardiness on one machine, no two jobs overlapping, built with every
/// condition a predicate when `predicates`: the proved optimum, the trail engine's
/// statistics and the model as text. With a node limit, the objective is the best found
/// and `proved` says whether the search finished.
fn machine((d, w, due): &Jobs, predicates: bool, nodes: Option<u64>) -> (i64, bool, Stats, String) {
    let n = d.len();
    let horizon: i64 = d.iter().sum();
    predicates_only(predicates);
    let puzzle = constraints! {
        let s[n] = amb(0..horizon);
        for j in 0..n {
            require s[j] + d[j] <= horizon;
        }
        for a in 0..n {
            for b in a + 1..n {
                require s[a] + d[a] <= s[b] || s[b] + d[b] <= s[a];
            }
        }
        minimize sum(w[j] * max(s[j] + d[j] - due[j], 0) for j in 0..n);
    };
    predicates_only(false);
    let limits = nodes.map_or_else(Limits::new, |n| Limits::new().nodes(n));
    let best = puzzle
        .clone()
        .engine(Engine::Trail)
        .limits(limits)
        .best()
        .unwrap();
    let model = format!("{:?}", puzzle.model());
    (best.objective.unwrap(), best.proved, best.stats, model)
}

/// The best weighted tardiness by brute force over the orders of the jobs (each job as
/// early as its predecessors allow, which some optimal schedule does).
fn brute_force(n: usize) -> i64 {
    let (d, w, due) = jobs(n);
    let mut order: Vec<usize> = (0..n).collect();
    let mut best = i64::MAX;
    permutations(&mut order, 0, &mut |order| {
        let (mut t, mut cost) = (0, 0);
        for &j in order {
            t += d[j];
            cost += w[j] * (t - due[j]).max(0);
        }
        best = best.min(cost);
    });
    best
}

fn permutations(items: &mut [usize], k: usize, visit: &mut impl FnMut(&[usize])) {
    if k == items.len() {
        return visit(items);
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, visit);
        items.swap(k, i);
    }
}

/// The formula form and the predicate form of `n` jobs: their optima and statistics.
fn both(n: usize) -> ((i64, Stats), (i64, Stats)) {
    let jobs = jobs(n);
    let (best, proved, stats, model) = machine(&jobs, false, None);
    assert!(
        proved && !model.contains("predicate"),
        "not flattened: {model}"
    );
    let (best_pred, proved, stats_pred, model) = machine(&jobs, true, None);
    assert!(proved && model.contains("predicate"));
    ((best, stats), (best_pred, stats_pred))
}

#[test]
fn the_pairwise_disjunction_prunes_and_finds_the_optimum() {
    let n = 7;
    let ((best, stats), (best_pred, stats_pred)) = both(n);
    assert_eq!(best, brute_force(n));
    assert_eq!(best_pred, best);
    // A clause of reified inequalities prunes where the predicate waits for both starts.
    assert!(
        stats.nodes * 3 < stats_pred.nodes,
        "{} nodes against the predicate form's {}",
        stats.nodes,
        stats_pred.nodes
    );
}

/// Where the measurement stops the predicate form.
const LIMIT: u64 = 5_000_000;

/// Ten jobs with hard deadlines (a random order's completion times plus a slack of 0 to
/// 7), a schedule meeting them all searched on the trail engine: nodes to the first one.
fn deadlines(predicates: bool) -> (u64, bool) {
    let n = 10;
    let (d, _, _) = jobs(n);
    let mut state = 7u64;
    let mut next = |k: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % k
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, next(i as u64 + 1) as usize);
    }
    let mut deadline = vec![0i64; n];
    let mut t = 0;
    for &j in &order {
        t += d[j];
        deadline[j] = t + next(8) as i64;
    }
    let horizon: i64 = d.iter().sum();
    predicates_only(predicates);
    let puzzle = constraints! {
        let s[n] = amb(0..horizon);
        for j in 0..n {
            require s[j] + d[j] <= deadline[j];
        }
        for a in 0..n {
            for b in a + 1..n {
                require s[a] + d[a] <= s[b] || s[b] + d[b] <= s[a];
            }
        }
    };
    predicates_only(false);
    let summary = puzzle
        .engine(Engine::Trail)
        .limits(Limits::new().solutions(1).nodes(LIMIT))
        .count()
        .unwrap();
    (summary.stats.nodes, summary.solutions == 1)
}

#[test]
#[ignore = "a measurement: run it in release with --nocapture to see the figures"]
fn ten_jobs_nodes_against_the_predicate_form() {
    let started = std::time::Instant::now();
    let (nodes, found) = deadlines(false);
    let formula_time = started.elapsed();
    assert!(found);
    let started = std::time::Instant::now();
    let (nodes_pred, found_pred) = deadlines(true);
    let predicate_time = started.elapsed();
    println!(
        "10 jobs with deadlines, first schedule: formulas {nodes} nodes in {formula_time:?}; predicates {nodes_pred} nodes in {predicate_time:?} ({}); ratio {}{:.0}",
        if found_pred {
            "found"
        } else {
            "stopped at the node limit"
        },
        if found_pred { "" } else { "at least " },
        nodes_pred as f64 / nodes.max(1) as f64
    );
}
