//! Search annotations: under every variable and value selection, a `seq_search` of them,
//! and every restart schedule, the hand-written models in `tests/search/` have the same
//! number of solutions (`-a`) and the same optimum as free search (`-f`), every printed
//! solution checked against the model; where the order is deterministic, the first
//! solution is the one expected.

use std::path::PathBuf;

use ambsolve_fzn::{FznModel, SolveOptions, solve};

const VAR_SELECTIONS: [&str; 8] = [
    "input_order",
    "first_fail",
    "anti_first_fail",
    "smallest",
    "largest",
    "occurrence",
    "most_constrained",
    "dom_w_deg",
];

const VALUE_SELECTIONS: [&str; 7] = [
    "indomain_min",
    "indomain_max",
    "indomain_median",
    "indomain_middle",
    "indomain_random",
    "indomain_split",
    "indomain_reverse_split",
];

/// Restart annotations, written right after the search annotation: the `flatzinc` crate
/// (0.3) reads no space between an annotation with arguments and the next `::`.
const RESTARTS: [&str; 5] = [
    "",
    "::restart_luby(2)",
    "::restart_geometric(1.5, 2)",
    "::restart_linear(3)",
    "::restart_constant(100000)",
];

fn text(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/search")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The model with `annotation` on its solve item.
fn annotated(name: &str, annotation: &str) -> FznModel {
    let source = text(name).replace("solve ", &format!("solve {annotation} "));
    let model = FznModel::from_str(&source).unwrap_or_else(|e| panic!("{annotation}: {e}"));
    assert!(
        model.notes().is_empty(),
        "{annotation}: {:?}",
        model.notes()
    );
    model
}

/// The printed solutions (each checked) and the last objective, with `-a` (and `-f`).
fn run(model: &FznModel, free: bool) -> (Vec<String>, Option<i64>) {
    let mut options = SolveOptions::default();
    options.all = true;
    options.free = free;
    let mut out = Vec::new();
    let outcome = solve(model, &options, &mut out, |solution| {
        model
            .model()
            .check(solution)
            .expect("a solution of the model");
    })
    .expect("solved");
    let out = String::from_utf8(out).expect("UTF-8");
    assert!(
        out.ends_with("==========\n"),
        "the search ends proved: {out}"
    );
    let solutions = out
        .split("----------\n")
        .filter(|s| !s.starts_with("=="))
        .map(|s| s.replace('\n', " "))
        .collect();
    (solutions, outcome.objective)
}

/// Every `int_search` / `bool_search` of `vars`, one phase and two.
fn annotations(vars: &[&str], search: &str) -> Vec<String> {
    let (first, rest) = vars.split_at(vars.len() / 2);
    let list = |v: &[&str]| v.join(", ");
    let mut all = Vec::new();
    for var_sel in VAR_SELECTIONS {
        for val_sel in VALUE_SELECTIONS {
            all.push(format!(
                ":: {search}([{}], {var_sel}, {val_sel}, complete)",
                list(vars)
            ));
        }
        all.push(format!(
            ":: seq_search([{search}([{}], {var_sel}, indomain_split, complete), \
             {search}([{}], first_fail, indomain_max, complete)])",
            list(rest),
            list(first)
        ));
    }
    // Some variables only: the rest by ambsolve's own order.
    all.push(format!(
        ":: {search}([{}], dom_w_deg, indomain_reverse_split, complete)",
        list(first)
    ));
    let mut with_restarts = Vec::new();
    for restarts in RESTARTS {
        for annotation in &all {
            with_restarts.push(format!("{annotation}{restarts}"));
        }
    }
    with_restarts
}

#[test]
fn every_annotation_counts_the_queens_as_free_search() {
    let (free, _) = run(&annotated("queens6.fzn", ""), true);
    assert_eq!(free.len(), 4);
    let mut sorted_free = free.clone();
    sorted_free.sort();
    let rows = ["q1", "q2", "q3", "q4", "q5", "q6"];
    for annotation in annotations(&rows, "int_search") {
        let (mut found, _) = run(&annotated("queens6.fzn", &annotation), false);
        found.sort();
        assert_eq!(found, sorted_free, "{annotation}");
    }
}

#[test]
fn every_annotation_finds_the_optimum_of_free_search() {
    let (_, free) = run(&annotated("knapsack.fzn", ""), true);
    assert_eq!(free, Some(28));
    let items = ["x1", "x2", "x3", "x4", "x5"];
    for annotation in annotations(&items, "int_search") {
        let (improving, best) = run(&annotated("knapsack.fzn", &annotation), false);
        assert_eq!(best, free, "{annotation}");
        assert!(!improving.is_empty());
    }
}

#[test]
fn every_bool_search_counts_as_free_search() {
    let (free, _) = run(&annotated("bools.fzn", ""), true);
    assert_eq!(free.len(), 10);
    for annotation in annotations(&["a", "b", "c", "d"], "bool_search") {
        let (found, _) = run(&annotated("bools.fzn", &annotation), false);
        assert_eq!(found.len(), free.len(), "{annotation}");
    }
}

#[test]
fn deterministic_orders_give_the_expected_first_solution() {
    let first = |annotation: &str| run(&annotated("queens6.fzn", annotation), false).0[0].clone();
    let least = "q1 = 2; q2 = 4; q3 = 6; q4 = 1; q5 = 3; q6 = 5; ";
    let greatest = "q1 = 5; q2 = 3; q3 = 1; q4 = 6; q5 = 4; q6 = 2; ";
    let all = "q1, q2, q3, q4, q5, q6";
    for (value_selection, expected) in [
        ("indomain_min", least),
        ("indomain_split", least),
        ("indomain_max", greatest),
        ("indomain_reverse_split", greatest),
    ] {
        let annotation =
            format!(":: int_search([{all}], input_order, {value_selection}, complete)");
        assert_eq!(first(&annotation), expected, "{annotation}");
    }
    // Rows in reverse: the first solution is the mirror image of the least one.
    let reversed = ":: int_search([q6, q5, q4, q3, q2, q1], input_order, indomain_min, complete)";
    assert_eq!(
        first(reversed),
        "q1 = 5; q2 = 3; q3 = 1; q4 = 6; q5 = 4; q6 = 2; "
    );
}

#[test]
fn a_warm_start_is_the_first_solution() {
    // 6-queens has 4 solutions; a warm start on one that ascending values find last.
    let all = "q1, q2, q3, q4, q5, q6";
    let hinted = "q1 = 5; q2 = 3; q3 = 1; q4 = 6; q5 = 4; q6 = 2; ";
    for (annotation, free) in [
        (format!(":: warm_start([{all}], [5, 3, 1, 6, 4, 2])"), true),
        (format!(":: warm_start([{all}], [5, 3, 1, 6, 4, 2])"), false),
        (
            ":: warm_start_array([warm_start([q1, q2, q3], [5, 3, 1]), warm_start([q4, q5, q6], [6, 4, 2])])"
                .to_string(),
            false,
        ),
    ] {
        let model = annotated("queens6.fzn", &annotation);
        let (found, _) = run(&model, free);
        assert_eq!(found.len(), 4, "{annotation}: every solution still found");
        assert_eq!(found[0], hinted, "{annotation}, free: {free}");
    }
    // A warm start that is no solution changes no count.
    let (found, _) = run(
        &annotated(
            "queens6.fzn",
            &format!(":: warm_start([{all}], [1, 1, 1, 1, 1, 1])"),
        ),
        true,
    );
    assert_eq!(found.len(), 4);
}
