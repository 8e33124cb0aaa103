//! Tours and permutations (`circuit`, `subcircuit`, `inverse`, `all_different_except`):
//! known counts on both engines, random small models against a brute force whose checks
//! are written here independently of the library, local search finding tours; and the
//! `tsp` example, its shortest tours checked against a brute force up to 9 cities.
//!
//! The property test runs a few hundred models in CI; the long run:
//!
//! ```sh
//! PROPTEST_CASES=20000 cargo test --release --test families vocab_tours::
//! ```

use crate::common;

use std::collections::HashSet;

use ambsolve::{Engine, IntArg, Limits, Model, Strategy as Search, Var};
use ambsolve_examples::puzzles::tsp;
use common::differential::{self, sorted_solutions as solutions};
use common::{run_example, stderr, stdout, temp_file};
use proptest::prelude::*;

fn count(m: &Model<'_>, engine: Engine) -> u64 {
    m.solve(engine).count().unwrap().solutions
}

fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

#[test]
fn the_complete_graph_on_n_nodes_has_n_minus_1_factorial_circuits() {
    for n in 0..=7u64 {
        for offset in [0, 1, -3] {
            let mut m = Model::new();
            let first = offset;
            let succ = m.vars("succ", n as usize, first..first + n as i64);
            m.circuit_offset(&succ, offset);
            let expected = match n {
                0 => 1,
                1 => 0, // no node follows itself
                _ => factorial(n - 1),
            };
            assert_eq!(count(&m, Engine::Trail), expected, "n = {n}");
            if n <= 6 {
                assert_eq!(count(&m, Engine::Replay), expected, "n = {n}, replay");
            }
        }
    }
}

#[test]
fn subcircuits_of_the_complete_graph_are_counted_by_their_length() {
    // The empty one, and for each k >= 2 a cycle through k chosen nodes: C(n, k) (k - 1)!.
    for n in 0..=6u64 {
        let expected = 1
            + (2..=n)
                .map(|k| binomial(n, k) * factorial(k - 1))
                .sum::<u64>();
        let mut m = Model::new();
        let succ = m.vars("succ", n as usize, 1..=n as i64);
        m.subcircuit_offset(&succ, 1);
        assert_eq!(count(&m, Engine::Trail), expected, "n = {n}");
        assert_eq!(count(&m, Engine::Replay), expected, "n = {n}, replay");
    }
    // MiniZinc's counts for 1..=5 nodes (`subcircuit` over `1..n`, Gecode, all solutions).
    let known = [1, 2, 6, 21, 85];
    for (n, &expected) in (1..=5).zip(&known) {
        let mut m = Model::new();
        let succ = m.vars("succ", n, 0..n as i64);
        m.subcircuit(&succ);
        assert_eq!(count(&m, Engine::Trail), expected);
    }
}

#[test]
fn every_permutation_has_one_inverse() {
    for n in 0..=5usize {
        let mut m = Model::new();
        let f = m.vars("f", n, 1..=n as i64);
        let g = m.vars("g", n, 0..n as i64);
        m.inverse_offset(&f, 0, &g, 1);
        assert_eq!(count(&m, Engine::Trail), factorial(n as u64), "n = {n}");
        assert_eq!(count(&m, Engine::Replay), factorial(n as u64));
    }
    // Arrays of different lengths cannot be inverse.
    let mut m = Model::new();
    let f = m.vars("f", 2, 0..3i64);
    let g = m.vars("g", 3, 0..3i64);
    m.inverse(&f, &g);
    assert_eq!(count(&m, Engine::Trail), 0);
    assert_eq!(count(&m, Engine::Replay), 0);
}

#[test]
fn all_different_except_zero_counts_partial_injections() {
    // n items over 0..=k: choose which items are non-zero, then an injection into 1..=k.
    for (n, k) in [(3u64, 3u64), (4, 2), (4, 5)] {
        let expected: u64 = (0..=n.min(k))
            .map(|j| binomial(n, j) * (k - j + 1..=k).product::<u64>())
            .sum();
        let mut m = Model::new();
        let x = m.vars("x", n as usize, 0..=k as i64);
        m.all_different_except(&x, 0);
        assert_eq!(count(&m, Engine::Trail), expected, "n = {n}, k = {k}");
        assert_eq!(count(&m, Engine::Replay), expected);
    }
}

#[test]
fn a_tour_whose_nodes_are_out_of_range_is_no_tour_and_no_panic() {
    // Node numbers near the ends of i64: successors that cannot be nodes.
    let mut m = Model::new();
    let succ = m.vars("succ", 3, [i64::MAX - 1, i64::MAX, i64::MIN]);
    m.circuit_offset(&succ, i64::MAX - 1);
    assert_eq!(count(&m, Engine::Trail), 0);
    assert_eq!(count(&m, Engine::Replay), 0);
    let mut m = Model::new();
    let succ = m.vars("succ", 2, [i64::MAX - 1, i64::MAX]);
    m.circuit_offset(&succ, i64::MAX - 1);
    assert_eq!(count(&m, Engine::Trail), 1);
    m.inverse_offset(&succ, i64::MAX - 1, &succ, i64::MIN);
    assert_eq!(count(&m, Engine::Trail), 0);
}

#[test]
fn a_variable_of_another_model_makes_the_model_invalid() {
    let mut other = Model::new();
    let x = other.var(0..3i64);
    let mut m = Model::new();
    let succ = m.vars("succ", 2, 0..2i64);
    m.circuit([IntArg::from(&succ[0]), IntArg::from(&x)]);
    assert!(m.error().is_some_and(|e| e.contains("another model")));
    assert!(m.solve(Engine::Trail).count().is_err());
}

#[test]
fn local_search_finds_tours() {
    for n in [4, 6, 8] {
        let mut m = Model::new();
        let succ = m.vars("succ", n, 0..n as i64);
        m.circuit(&succ);
        let found = m
            .solve(Engine::Local)
            .seed(7)
            .limits(Limits::new().nodes(200_000))
            .first()
            .unwrap()
            .unwrap_or_else(|| panic!("no tour of {n} nodes"));
        let next: Vec<i64> = succ.iter().map(|s| *found.value(s)).collect();
        assert!(is_circuit(&next, 0), "{next:?}");
    }
}

// ---- the meaning, written again here ----

/// Whether `succ` (node numbers from `offset`) is one cycle through every node: the walk
/// from the first node meets every node once before it comes back.
fn is_circuit(succ: &[i64], offset: i64) -> bool {
    let n = succ.len();
    if n == 0 {
        return true;
    }
    let mut seen = vec![false; n];
    let mut at = 0usize;
    for _ in 0..n {
        if seen[at] {
            return false;
        }
        seen[at] = true;
        let next = i128::from(succ[at]) - i128::from(offset);
        if !(0..n as i128).contains(&next) || next as usize == at {
            return false;
        }
        at = next as usize;
    }
    at == 0
}

/// Whether the nodes `i` with `succ[i] != i` form one cycle (or none).
fn is_subcircuit(succ: &[i64], offset: i64) -> bool {
    let n = succ.len();
    let node = |v: i64| {
        let j = i128::from(v) - i128::from(offset);
        (0..n as i128).contains(&j).then_some(j as usize)
    };
    let Some(next) = succ
        .iter()
        .map(|&v| node(v))
        .collect::<Option<Vec<usize>>>()
    else {
        return false;
    };
    let inside: HashSet<usize> = (0..n).filter(|&i| next[i] != i).collect();
    let Some(&start) = inside.iter().min() else {
        return true;
    };
    let mut met = HashSet::new();
    let mut at = start;
    while met.insert(at) {
        at = next[at];
    }
    at == start && met == inside
}

fn is_inverse(f: &[i64], f_offset: i64, g: &[i64], g_offset: i64) -> bool {
    let position = |v: i64, offset: i64, len: usize| {
        let j = i128::from(v) - i128::from(offset);
        (0..len as i128).contains(&j).then_some(j as usize)
    };
    let one_way = |a: &[i64], a_offset: i64, b: &[i64], b_offset: i64| {
        a.iter().enumerate().all(|(i, &v)| {
            position(v, b_offset, b.len())
                .is_some_and(|j| position(b[j], a_offset, a.len()) == Some(i))
        })
    };
    one_way(f, f_offset, g, g_offset) && one_way(g, g_offset, f, f_offset)
}

fn all_different_except(xs: &[i64], value: i64) -> bool {
    (0..xs.len()).all(|i| (i + 1..xs.len()).all(|j| xs[i] == value || xs[i] != xs[j]))
}

// ---- random models ----

#[derive(Clone, Debug)]
enum Kind {
    Circuit(i64),
    Subcircuit(i64),
    /// `f` is the first `usize` items, numbered from the first offset.
    Inverse(usize, i64, i64),
    Except(i64),
}

#[derive(Clone, Debug)]
enum Item {
    Var(usize),
    Const(i64),
}

#[derive(Clone, Debug)]
struct Spec {
    lists: Vec<Vec<i64>>,
    items: Vec<Item>,
    kind: Kind,
}

fn spec() -> impl Strategy<Value = Spec> {
    let kind = prop_oneof![
        (-2i64..=2).prop_map(Kind::Circuit),
        (-2i64..=2).prop_map(Kind::Subcircuit),
        (0usize..=3, -1i64..=1, -1i64..=1).prop_map(|(n, a, b)| Kind::Inverse(n, a, b)),
        (-1i64..=1).prop_map(Kind::Except),
    ];
    (kind, 0usize..=4, 1usize..=6).prop_flat_map(|(kind, n, vars)| {
        let items = match kind {
            Kind::Inverse(nf, ..) => nf * 2 + usize::from(n == 4),
            _ => n,
        };
        // Values from just below to just above the node numbers (all offsets within -2..=2).
        let list = proptest::collection::vec(-3i64..=6, 1..=4);
        let item = prop_oneof![
            4 => (0..vars).prop_map(Item::Var),
            1 => (-3i64..=6).prop_map(Item::Const),
        ];
        (
            proptest::collection::vec(list, vars),
            proptest::collection::vec(item, items),
            Just(kind),
        )
            .prop_map(|(lists, items, kind)| Spec { lists, items, kind })
    })
}

fn build(spec: &Spec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    let items: Vec<IntArg> = spec
        .items
        .iter()
        .map(|item| match item {
            Item::Var(i) => IntArg::from(&vars[*i]),
            Item::Const(c) => IntArg::from(*c),
        })
        .collect();
    match spec.kind {
        Kind::Circuit(offset) => m.circuit_offset(items, offset),
        Kind::Subcircuit(offset) => m.subcircuit_offset(items, offset),
        Kind::Inverse(nf, f_offset, g_offset) => {
            let g = items[nf..].to_vec();
            m.inverse_offset(items[..nf].to_vec(), f_offset, g, g_offset)
        }
        Kind::Except(value) => m.all_different_except(items, value),
    }
    m
}

fn holds(spec: &Spec, values: &[i64]) -> bool {
    let items: Vec<i64> = spec
        .items
        .iter()
        .map(|item| match item {
            Item::Var(i) => values[*i],
            Item::Const(c) => *c,
        })
        .collect();
    match spec.kind {
        Kind::Circuit(offset) => is_circuit(&items, offset),
        Kind::Subcircuit(offset) => is_subcircuit(&items, offset),
        Kind::Inverse(nf, f_offset, g_offset) => {
            is_inverse(&items[..nf], f_offset, &items[nf..], g_offset)
        }
        Kind::Except(value) => all_different_except(&items, value),
    }
}

proptest! {
    #![proptest_config(differential::cases(400))]

    #[test]
    fn engines_agree_with_brute_force(spec in spec()) {
        let expected = differential::brute_force_values(&spec.lists, |values| holds(&spec, values));
        let m = build(&spec);
        prop_assert_eq!(m.error(), None);
        prop_assert_eq!(&solutions(&m, Engine::Trail, Search::new()), &expected, "trail");
        prop_assert_eq!(&solutions(&m, Engine::Trail, Search::first_fail()), &expected);
        prop_assert_eq!(&solutions(&m, Engine::Replay, Search::new()), &expected, "replay");
    }
}

// ---- the tsp example ----

/// The value of the `key: value` line of the example's output.
fn field(out: &str, key: &str) -> Option<String> {
    out.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
        .map(str::to_string)
}

/// Checks a run's tour (from city 1 back to it, every city once) against `dist`, and
/// gives its length.
fn checked_tour(out: &str, dist: &[Vec<i64>]) -> i64 {
    let tour: Vec<usize> = field(out, "tour")
        .unwrap_or_else(|| panic!("no tour in {out}"))
        .split(' ')
        .map(|c| c.parse::<usize>().unwrap() - 1)
        .collect();
    let n = dist.len();
    assert_eq!(tour.len(), n + 1, "{out}");
    assert_eq!((tour[0], tour[n]), (0, 0), "{out}");
    let mut cities = tour[..n].to_vec();
    cities.sort_unstable();
    assert_eq!(cities, (0..n).collect::<Vec<_>>(), "{out}");
    let length: i64 = tour.windows(2).map(|w| dist[w[0]][w[1]]).sum();
    assert_eq!(field(out, "length"), Some(length.to_string()), "{out}");
    assert!(out.contains("proved optimal in"), "{out}");
    length
}

#[test]
fn tsp_finds_the_shortest_tour_of_random_instances() {
    for (n, seed) in [
        (2, 1),
        (3, 1),
        (4, 2),
        (5, 1),
        (6, 3),
        (7, 1),
        (8, 5),
        (9, 1),
        (9, 2),
    ] {
        let out = run_example(
            "tsp",
            &["--cities", &n.to_string(), "--seed", &seed.to_string()],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let out = stdout(&out);
        let instance = tsp::random(n, seed);
        assert_eq!(
            field(&out, "instance"),
            Some(format!("random-{n}-{seed}, {n} cities"))
        );
        let shortest = tsp::shortest_by_brute_force(&instance.dist);
        assert_eq!(Some(checked_tour(&out, &instance.dist)), shortest, "{out}");
    }
}

#[test]
fn tsp_reads_tsplib_matrices_and_coordinates() {
    // Asymmetric matrices (ATSP), from a small generator of our own.
    let mut state = 12345u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 100) as i64
    };
    for n in [4, 7, 9] {
        let dist: Vec<Vec<i64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| if i == j { 0 } else { 1 + next() })
                    .collect()
            })
            .collect();
        let rows: Vec<String> = dist
            .iter()
            .map(|r| r.iter().map(i64::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let text = format!(
            "NAME: atsp{n}\nTYPE: ATSP\nDIMENSION: {n}\nEDGE_WEIGHT_TYPE: EXPLICIT\n\
             EDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n{}\nEOF\n",
            rows.join("\n")
        );
        let path = temp_file(&format!("atsp{n}.atsp"), &text);
        let out = run_example("tsp", &[path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        let out = stdout(&out);
        assert_eq!(
            field(&out, "instance"),
            Some(format!("atsp{n}, {n} cities"))
        );
        assert_eq!(
            Some(checked_tour(&out, &dist)),
            tsp::shortest_by_brute_force(&dist),
            "{out}"
        );
    }
    // Points on a 3 × 4 rectangle and one in its middle (rounded Euclidean distances).
    let text = "NAME: box\nTYPE: TSP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EUC_2D\n\
                NODE_COORD_SECTION\n1 0 0\n2 4 0\n3 4 3\n4 0 3\n5 2 1.5\nEOF\n";
    let out = run_example("tsp", &[temp_file("box.tsp", text).to_str().unwrap()]);
    let out = stdout(&out);
    let dist = tsp::parse_tsplib(text.as_bytes()).unwrap().dist;
    // The rectangle (14), one side of 4 replaced by two legs of 2.5, rounded to 3.
    assert_eq!(checked_tour(&out, &dist), 14 - 4 + 3 + 3);
}

#[test]
fn tsp_refuses_bad_input_with_status_2() {
    let bad = temp_file(
        "bad.tsp",
        "DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 x\n",
    );
    let missing = std::env::temp_dir().join("ambsolve-tsp-no-such-file.tsp");
    let cases: [(Vec<&str>, &str); 5] = [
        (vec![bad.to_str().unwrap()], "line 4: \"x\": not a number"),
        (vec![missing.to_str().unwrap()], "cannot read"),
        (vec!["--cities", "1"], "--cities"),
        (
            vec!["--cities", "5", bad.to_str().unwrap()],
            "cannot be used with",
        ),
        (vec!["--cities", "ten"], "--cities"),
    ];
    for (args, wanted) in cases {
        let out = run_example("tsp", &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(wanted), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn tsp_stopped_by_a_limit_prints_its_best_tour_marked_partial() {
    let out = run_example("tsp", &["--cities", "12", "--node-limit", "20"]);
    assert!(out.status.success());
    let out = stdout(&out);
    assert!(out.contains("partial: stopped by --node-limit"), "{out}");
    assert!(out.contains("not proved optimal"), "{out}");
}
