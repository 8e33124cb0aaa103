//! The MiniZinc benchmark suite (`tests/minizinc/`, 31 instances compiled to FlatZinc with
//! ambsolve's mznlib): every instance the front end supports is solved, with Gecode's
//! verdict and objective (`expected.tsv`), and every solution found is checked against the
//! FlatZinc model's own constraints (`Model::check`, the constraints' meaning, independent
//! of the engine; `builtins.rs` checks that meaning against the FlatZinc
//! specification builtin by builtin); every other instance must fail with the
//! "unsupported constraint" error naming exactly the builtins `blocked.tsv` lists for it
//! (none today), so that the list stays true as the vocabulary grows.
//!
//! Instances in [`SLOW`] run only with
//! `cargo test --release -p ambsolve-fzn --test fzn suite:: -- --ignored`; those in
//! `tests/minizinc/unsolved.tsv` (ambsolve finds no proof within a minute today) run for a second, every solution found
//! checked and its objective no better than Gecode's optimum.
//! Regenerate the `.fzn` files with `ambsolve-fzn/tests/minizinc/compile.sh`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ambsolve_fzn::{FznError, FznModel, SolveOptions, Status};

/// Instances too slow for `cargo test` in a debug build (paths of `.fzn` files under
/// `tests/minizinc/`): none today (the slowest, `photo`, takes about 15 s).
const SLOW: &[&str] = &[];

/// Instances ambsolve does not solve to optimality within a minute (release build) today,
/// as `tests/minizinc/unsolved.tsv` lists them with the reason (`run-minizinc.sh` reads it
/// too).
fn unsolved() -> Vec<String> {
    let text = fs::read_to_string(suite_dir().join("unsolved.tsv")).expect("unsolved.tsv");
    text.lines()
        .skip(1)
        .map(|line| line.split('\t').next().expect("a path").to_string())
        .collect()
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/minizinc")
}

/// One row of `expected.tsv`, with its `.fzn` file and its row of `blocked.tsv`.
#[derive(Debug)]
struct Instance {
    fzn: String,
    verdict: String,
    objective: Option<i64>,
    blocked: Vec<String>,
}

fn instances() -> Vec<Instance> {
    let dir = suite_dir();
    let expected = fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let blocked = fs::read_to_string(dir.join("blocked.tsv")).expect("blocked.tsv");
    let blocked: Vec<(String, Vec<String>)> = blocked
        .lines()
        .skip(1)
        .map(|line| {
            let (fzn, names) = line.split_once('\t').expect("two columns");
            let names = names.split_whitespace().map(str::to_string).collect();
            (fzn.to_string(), names)
        })
        .collect();
    let rows: Vec<Instance> = expected
        .lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let fzn = format!("{}.fzn", cells[1].strip_suffix(".dzn").expect("a .dzn"));
            let blocked = blocked
                .iter()
                .find(|(f, _)| *f == fzn)
                .unwrap_or_else(|| panic!("{fzn} is missing from blocked.tsv"))
                .1
                .clone();
            Instance {
                fzn,
                verdict: cells[2].to_string(),
                objective: cells.get(3).and_then(|c| c.parse().ok()),
                blocked,
            }
        })
        .collect();
    assert_eq!(rows.len(), 31, "31 instances");
    assert_eq!(
        blocked.len(),
        rows.len(),
        "blocked.tsv has one row an instance"
    );
    rows
}

/// The builtins a FlatZinc file calls, read from its text (independently of the parser).
fn builtins_called(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("constraint "))
        .filter_map(|rest| {
            rest.split_once('(')
                .map(|(name, _)| name.trim().to_string())
        })
        .collect()
}

#[test]
fn blocked_tsv_lists_exactly_the_builtins_each_instance_calls_and_ambsolve_lacks() {
    let supported: BTreeSet<&str> = ambsolve_fzn::supported_builtins().collect();
    for instance in instances() {
        let text = fs::read_to_string(suite_dir().join(&instance.fzn)).expect("the .fzn");
        let lacking: BTreeSet<String> = builtins_called(&text)
            .into_iter()
            .filter(|name| !supported.contains(name.as_str()))
            .collect();
        let listed: BTreeSet<String> = instance.blocked.iter().cloned().collect();
        assert_eq!(
            listed, lacking,
            "{}: blocked.tsv is out of date",
            instance.fzn
        );
    }
}

#[test]
fn an_unsupported_instance_names_its_first_unsupported_constraint_and_the_others() {
    for instance in instances().into_iter().filter(|i| !i.blocked.is_empty()) {
        let error = FznModel::from_path(suite_dir().join(&instance.fzn), 0)
            .expect_err(&format!("{} uses unsupported builtins", instance.fzn));
        assert!(
            matches!(error, FznError::Unsupported { .. }),
            "{}: {error}",
            instance.fzn
        );
        assert_eq!(error.unsupported(), instance.blocked, "{}", instance.fzn);
        let line = error.line().expect("a line");
        let message = error.to_string();
        let first = format!(
            "unsupported constraint `{}` (line {line})",
            instance.blocked[0]
        );
        assert!(message.starts_with(&first), "{}: {message}", instance.fzn);
        // The line named is where the builtin is first called.
        let text = fs::read_to_string(suite_dir().join(&instance.fzn)).expect("the .fzn");
        let called = text.lines().nth(line - 1).expect("the line exists");
        assert!(
            called.starts_with(&format!("constraint {}(", instance.blocked[0])),
            "{}: line {line} is {called:?}",
            instance.fzn
        );
    }
}

/// Solves one supported instance and checks its verdict, objective and every solution.
fn solve_and_check(instance: &Instance) {
    let model = FznModel::from_path(suite_dir().join(&instance.fzn), 0)
        .unwrap_or_else(|e| panic!("{}: {e}", instance.fzn));
    let mut options = SolveOptions::default();
    options.time = Some(Duration::from_secs(120));
    let mut printed = Vec::new();
    let mut found = 0;
    let outcome = ambsolve_fzn::solve(&model, &options, &mut printed, |solution| {
        found += 1;
        if let Err(error) = model.model().check(solution) {
            panic!("{}: a solution breaks the model: {error}", instance.fzn);
        }
    })
    .unwrap_or_else(|e| panic!("{}: {e}", instance.fzn));
    let printed = String::from_utf8(printed).expect("UTF-8");
    let expected_status = match instance.verdict.as_str() {
        "OPTIMAL" => Status::Optimal,
        "SAT" => Status::Satisfied,
        "UNSAT" => Status::Unsatisfiable,
        other => panic!("unknown verdict {other}"),
    };
    assert_eq!(
        outcome.status, expected_status,
        "{}: {printed}",
        instance.fzn
    );
    assert_eq!(outcome.objective, instance.objective, "{}", instance.fzn);
    if expected_status == Status::Unsatisfiable {
        assert_eq!(printed, "=====UNSATISFIABLE=====\n", "{}", instance.fzn);
        return;
    }
    assert!(found >= 1, "{}", instance.fzn);
    // One solution printed (the best, for an optimisation), then the status line.
    assert_eq!(
        printed.matches("----------\n").count(),
        1,
        "{}: {printed}",
        instance.fzn
    );
    let tail = match expected_status {
        Status::Optimal => "----------\n==========\n",
        _ => "----------\n",
    };
    assert!(printed.ends_with(tail), "{}: {printed}", instance.fzn);
}

#[test]
fn every_supported_instance_gets_gecodes_verdict_with_every_solution_checked() {
    let unsolved = unsolved();
    let runnable: Vec<Instance> = instances()
        .into_iter()
        .filter(|i| {
            i.blocked.is_empty() && !SLOW.contains(&i.fzn.as_str()) && !unsolved.contains(&i.fzn)
        })
        .collect();
    assert_eq!(
        runnable.len(),
        31 - SLOW.len() - unsolved.len(),
        "every instance is supported"
    );
    for instance in &runnable {
        solve_and_check(instance);
    }
}

#[test]
#[ignore = "slow instances: cargo test --release -p ambsolve-fzn --test fzn suite:: -- --ignored"]
fn the_slow_supported_instances_get_gecodes_verdict() {
    for instance in instances()
        .into_iter()
        .filter(|i| i.blocked.is_empty() && SLOW.contains(&i.fzn.as_str()))
    {
        solve_and_check(&instance);
    }
}

#[test]
fn the_unsolved_instances_print_only_checked_solutions_no_better_than_the_optimum() {
    for instance in instances()
        .into_iter()
        .filter(|i| unsolved().contains(&i.fzn))
    {
        let model = FznModel::from_path(suite_dir().join(&instance.fzn), 0)
            .unwrap_or_else(|e| panic!("{}: {e}", instance.fzn));
        let mut options = SolveOptions::default();
        options.time = Some(Duration::from_secs(1));
        let outcome = ambsolve_fzn::solve(&model, &options, &mut std::io::sink(), |solution| {
            if let Err(error) = model.model().check(solution) {
                panic!("{}: a solution breaks the model: {error}", instance.fzn);
            }
        })
        .unwrap_or_else(|e| panic!("{}: {e}", instance.fzn));
        let optimum = instance.objective.expect("an optimisation");
        if let Some(found) = outcome.objective {
            let sense = model.model().sense().expect("an objective");
            let no_better = match sense {
                ambsolve::Sense::Minimize => found >= optimum,
                ambsolve::Sense::Maximize => found <= optimum,
            };
            assert!(
                no_better,
                "{}: {found} beats the optimum {optimum}",
                instance.fzn
            );
        }
        assert_ne!(outcome.status, Status::Unsatisfiable, "{}", instance.fzn);
    }
}
