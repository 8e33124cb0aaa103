//! The colouring example as a user runs it: random graphs coloured and checked, proof told
//! from giving up, bad arguments.

use crate::common;

use common::{assert_usage_error, run_example, stderr, stdout};

#[test]
fn colouring_finds_and_checks_a_colouring_of_a_random_graph() {
    let out = run_example("colouring", &["--stats"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("graph: 10000 vertices, 30000 edges (uniform, seed 1)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "colouring with 4 colours: found, verified (the ends of all 30000 edges differ)"
        ),
        "{text}"
    );
    assert!(text.contains("moves: "), "{text}");
    let out = run_example(
        "colouring",
        &[
            "--vertices",
            "12",
            "--degree",
            "3",
            "--colours",
            "3",
            "--list",
        ],
    );
    let text = stdout(&out);
    let colours: Vec<usize> = text
        .lines()
        .filter_map(|l| {
            let (vertex, colour) = l.split_once(' ')?;
            vertex.parse::<usize>().ok()?;
            colour.parse().ok()
        })
        .collect();
    assert_eq!(colours.len(), 12, "{text}");
    let graph = ambsolve_examples::puzzles::colouring::Graph::uniform(12, 3, 1);
    assert_eq!(graph.clash(&colours, 3), None, "{text}");
}

#[test]
fn colouring_tells_proof_from_giving_up() {
    // A dense graph of 30 vertices has no 3-colouring: the trail engine proves it.
    let dense = ["--vertices", "30", "--degree", "20", "--colours", "3"];
    let mut args = dense.to_vec();
    args.extend(["--engine", "trail"]);
    let out = run_example("colouring", &args);
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("no colouring with 3 colours exists"),
        "{}",
        stdout(&out)
    );
    // Local search only gives up.
    let mut args = dense.to_vec();
    args.extend(["--node-limit", "5000"]);
    let out = run_example("colouring", &args);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("no colouring found by local search within the limit (stopped by --node-limit after 5000 steps"),
        "{text}"
    );
    assert!(
        !text.contains("no colouring with 3 colours exists"),
        "{text}"
    );
}

#[test]
fn colouring_bad_arguments_print_usage_and_exit_2() {
    for args in [
        &["--vertices", "0"][..],
        &["--colours", "0"],
        &["--degree", "x"],
        &["--engine", "trail", "--vertices", "5000"],
        &["extra"],
    ] {
        assert_usage_error("colouring", args);
    }
}
