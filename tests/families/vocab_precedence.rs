//! Value precedence (`value_precede_chain`, `value_precede`): known answers (Stirling
//! numbers), both engines (and learning) against a brute force over small random models
//! (with an independent reading of the constraint), local search, the `constraints!`
//! calls, and arguments refused.
//!
//! More random cases:
//! `PROPTEST_CASES=5000 cargo test --release --test families vocab_precedence::`.

use crate::common;

use common::differential::{self, Arg, count_both as count};

use ambsolve::{Engine, IntArg, Model, Var, constraints};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Kind {
    values: Vec<i64>,
    items: Vec<Arg>,
}

#[derive(Clone, Debug)]
struct Spec {
    lists: Vec<Vec<i64>>,
    kinds: Vec<Kind>,
}

/// MiniZinc's reading: each value of the chain is used, if at all, only after the one
/// before it was.
fn holds(kind: &Kind, values: &[i64]) -> bool {
    let taken: Vec<i64> = kind.items.iter().map(|a| a.value(values)).collect();
    kind.values
        .windows(2)
        .all(|pair| (0..taken.len()).all(|j| taken[j] != pair[1] || taken[..j].contains(&pair[0])))
}

fn build(spec: &Spec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    for kind in &spec.kinds {
        let items: Vec<IntArg> = kind.items.iter().map(|a| a.of(&vars)).collect();
        match kind.values.as_slice() {
            &[s, t] => m.value_precede(s, t, items),
            values => m.value_precede_chain(values.to_vec(), items),
        }
    }
    m
}

fn brute_force(spec: &Spec) -> Vec<Vec<u32>> {
    differential::brute_force_values(&spec.lists, |values| {
        spec.kinds.iter().all(|k| holds(k, values))
    })
}

fn kind(vars: usize) -> impl Strategy<Value = Kind> {
    let item = prop_oneof![
        1 => (-1i64..=3).prop_map(Arg::Const),
        4 => (0..vars).prop_map(Arg::Var),
    ];
    (
        proptest::collection::vec(-1i64..=3, 0..=4),
        proptest::collection::vec(item, 0..=5),
    )
        .prop_map(|(values, items)| Kind { values, items })
}

fn spec() -> impl Strategy<Value = Spec> {
    differential::lists_and_kinds(-2..=4, kind).prop_map(|(lists, kinds)| Spec { lists, kinds })
}

proptest! {
    #![proptest_config(differential::cases(300))]

    #[test]
    fn both_engines_agree_with_the_brute_force(spec in spec()) {
        differential::engines_agree(&build(&spec), &brute_force(&spec))?;
    }

    #[test]
    fn local_search_finds_only_solutions(spec in spec()) {
        differential::local_finds_only(&build(&spec), &brute_force(&spec))?;
    }
}

/// Stirling numbers of the second kind: partitions of `n` items into `k` blocks.
fn stirling(n: u64, k: u64) -> u64 {
    match (n, k) {
        (0, 0) => 1,
        (_, 0) | (0, _) => 0,
        _ => k * stirling(n - 1, k) + stirling(n - 1, k - 1),
    }
}

#[test]
fn interchangeable_colours_count_as_partitions() {
    // n items coloured from k interchangeable colours, in order of first use: one
    // colouring per partition into at most k blocks.
    for n in 1..=6usize {
        for k in 1..=4i64 {
            let mut m = Model::new();
            let x = m.vars("x", n, 0..k);
            m.value_precede_chain(0..k, &x);
            let expected: u64 = (0..=k as u64).map(|j| stirling(n as u64, j)).sum();
            assert_eq!(count(&m), expected, "{n} items, {k} colours");
        }
    }
}

#[test]
fn the_calls_of_constraints_break_symmetry() {
    let n = 5;
    let puzzle = constraints! {
        let x[n] = amb(0..3i64);
        require value_precede_chain([0, 1, 2], x);
        require value_precede(2, 0, x[3..5]);
    };
    let expected = (0..3u32.pow(n as u32))
        .filter(|code| {
            let x: Vec<i64> = (0..n as u32)
                .map(|k| i64::from(code / 3u32.pow(k) % 3))
                .collect();
            let chain = Kind {
                values: vec![0, 1, 2],
                items: (0..n).map(Arg::Var).collect(),
            };
            let tail = Kind {
                values: vec![2, 0],
                items: (3..n).map(Arg::Var).collect(),
            };
            holds(&chain, &x) && holds(&tail, &x)
        })
        .count() as u64;
    assert!(expected > 0);
    for engine in [Engine::Trail, Engine::Replay] {
        let found = puzzle.clone().engine(engine).count().unwrap().solutions;
        assert_eq!(found, expected, "{engine:?}");
    }
}

#[test]
fn variable_values_make_the_model_invalid() {
    let mut m = Model::new();
    let x = m.vars("x", 3, 0..3i64);
    let v = m.var(0..2i64);
    m.value_precede_chain([IntArg::from(0), IntArg::from(&v)], &x);
    assert!(m.error().is_some_and(|e| e.contains("constants")));
}
