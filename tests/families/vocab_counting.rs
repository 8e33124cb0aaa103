//! The counting constraints (`count`, `among`, `at_most`, `at_least`,
//! `global_cardinality`, `nvalue`): known answers, both engines against a brute force
//! over small random models (with an independent reading of each constraint), local
//! search, and arguments refused.
//!
//! More random cases:
//! `PROPTEST_CASES=5000 cargo test --release --test families vocab_counting::`.

use crate::common;

use common::differential::Arg;

use common::differential;
use common::differential::count_both as count;

use ambsolve::{Engine, Model, SearchError, Var};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Kind {
    Count(Vec<usize>, Arg, Arg),
    Among(Vec<usize>, Vec<i64>, Arg),
    AtMost(i64, Vec<usize>, Arg),
    AtLeast(i64, Vec<usize>, Arg),
    Cardinality(Vec<usize>, Vec<i64>, Vec<Arg>, bool),
    NValue(Arg, Vec<usize>),
}

#[derive(Clone, Debug)]
struct Spec {
    lists: Vec<Vec<i64>>,
    kinds: Vec<Kind>,
}

/// How many of `items` (positions) hold a value for which `wanted` holds.
fn occurrences(items: &[usize], values: &[i64], wanted: impl Fn(i64) -> bool) -> i64 {
    items.iter().filter(|&&i| wanted(values[i])).count() as i64
}

/// Each kind read independently of the library.
fn holds(kind: &Kind, values: &[i64]) -> bool {
    match kind {
        Kind::Count(items, value, count) => {
            let v = value.value(values);
            occurrences(items, values, |x| x == v) == count.value(values)
        }
        Kind::Among(items, set, count) => {
            occurrences(items, values, |x| set.contains(&x)) == count.value(values)
        }
        Kind::AtMost(k, items, value) => {
            let v = value.value(values);
            occurrences(items, values, |x| x == v) <= *k
        }
        Kind::AtLeast(k, items, value) => {
            let v = value.value(values);
            occurrences(items, values, |x| x == v) >= *k
        }
        Kind::Cardinality(items, set, counts, closed) => {
            set.iter()
                .zip(counts)
                .all(|(&v, c)| occurrences(items, values, |x| x == v) == c.value(values))
                && (!closed || items.iter().all(|&i| set.contains(&values[i])))
        }
        Kind::NValue(count, items) => {
            let mut taken: Vec<i64> = items.iter().map(|&i| values[i]).collect();
            taken.sort_unstable();
            taken.dedup();
            taken.len() as i64 == count.value(values)
        }
    }
}

fn build(spec: &Spec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    let pick = |items: &[usize]| -> Vec<&Var<i64>> { items.iter().map(|&i| &vars[i]).collect() };
    for kind in &spec.kinds {
        match kind {
            Kind::Count(items, value, count) => {
                m.count(pick(items), value.of(&vars), count.of(&vars))
            }
            Kind::Among(items, set, count) => m.among(pick(items), set, count.of(&vars)),
            Kind::AtMost(k, items, value) => m.at_most(*k, pick(items), value.of(&vars)),
            Kind::AtLeast(k, items, value) => m.at_least(*k, pick(items), value.of(&vars)),
            Kind::Cardinality(items, set, counts, closed) => m.global_cardinality(
                pick(items),
                set,
                counts.iter().map(|c| c.of(&vars)),
                *closed,
            ),
            Kind::NValue(count, items) => m.nvalue(count.of(&vars), pick(items)),
        }
    }
    m
}

/// Every index tuple whose values satisfy every kind, in lexicographic order.
fn brute_force(spec: &Spec) -> Vec<Vec<u32>> {
    differential::brute_force_values(&spec.lists, |values| {
        spec.kinds.iter().all(|k| holds(k, values))
    })
}

fn arg(vars: usize) -> impl Strategy<Value = Arg> {
    prop_oneof![
        (-1i64..=3).prop_map(Arg::Const),
        (0..vars).prop_map(Arg::Var)
    ]
}

fn kind(vars: usize) -> impl Strategy<Value = Kind> {
    // Items repeat; value lists repeat, fall and mix.
    let items = proptest::collection::vec(0..vars, 0..=4);
    let set = proptest::collection::vec(-2i64..=3, 0..=3);
    prop_oneof![
        (items.clone(), arg(vars), arg(vars)).prop_map(|(i, v, c)| Kind::Count(i, v, c)),
        (items.clone(), set.clone(), arg(vars)).prop_map(|(i, s, c)| Kind::Among(i, s, c)),
        (-1i64..=3, items.clone(), arg(vars)).prop_map(|(k, i, v)| Kind::AtMost(k, i, v)),
        (-1i64..=3, items.clone(), arg(vars)).prop_map(|(k, i, v)| Kind::AtLeast(k, i, v)),
        (items.clone(), set, any::<bool>())
            .prop_flat_map(move |(i, s, closed)| {
                let counts = proptest::collection::vec(arg(vars), s.len());
                (Just(i), Just(s), counts, Just(closed))
            })
            .prop_map(|(i, s, c, closed)| Kind::Cardinality(i, s, c, closed)),
        (arg(vars), items).prop_map(|(c, i)| Kind::NValue(c, i)),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    differential::lists_and_kinds(-2..=3, kind).prop_map(|(lists, kinds)| Spec { lists, kinds })
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

#[test]
fn magic_series_count_themselves() {
    // x[i] is the number of i in x: a closed cardinality whose counts are its items.
    for (n, expected) in [(3, 0), (4, 2), (5, 1), (6, 0), (7, 1), (8, 1)] {
        let mut m = Model::new();
        let x = m.vars("x", n, 0..n as i64);
        let values: Vec<i64> = (0..n as i64).collect();
        m.global_cardinality(&x, &values, &x, true);
        assert_eq!(count(&m), expected, "magic series of {n}");
    }
    // Found, and it is the known one.
    let mut m = Model::new();
    let x = m.vars("x", 7, 0..7i64);
    m.global_cardinality(&x, &[0, 1, 2, 3, 4, 5, 6], &x, true);
    let series = m.solve(Engine::Trail).first().unwrap().unwrap();
    assert_eq!(series.values(&x), [&3, &2, &1, &1, &0, &0, &0]);
}

#[test]
fn counts_match_the_combinatorics() {
    // Exactly two 1s among five digits 0..3: C(5, 2) places, 2^3 fillings.
    let mut m = Model::new();
    let x = m.vars("x", 5, 0..3i64);
    m.count(&x, 1, 2);
    assert_eq!(count(&m), 10 * 8);
    // Four digits 0..4 taking exactly two distinct values: C(4, 2) pairs, 2^4 - 2 words.
    let mut m = Model::new();
    let x = m.vars("x", 4, 0..4i64);
    m.nvalue(2, &x);
    assert_eq!(count(&m), 6 * 14);
    // At most one 0 and at least two 2s among four digits 0..3.
    let mut m = Model::new();
    let x = m.vars("x", 4, 0..3i64);
    m.at_most(1, &x, 0);
    m.at_least(2, &x, 2);
    // No 0: 2s at least two of four over {1, 2}: 16 - 1 - 4 = 11. One 0: 4 places, the
    // other three over {1, 2} with at least two 2s: 4.
    assert_eq!(count(&m), 11 + 4 * 4);
    // Among with a chosen count, summed over the count: every word once.
    let mut m = Model::new();
    let x = m.vars("x", 3, 0..4i64);
    let c = m.var(0..4i64);
    m.among(&x, &[1, 3], &c);
    assert_eq!(count(&m), 64);
}

#[test]
fn a_count_of_a_chosen_value_follows_it() {
    // c counts the items equal to x[0]: at least 1, and each word has one c.
    let mut m = Model::new();
    let x = m.vars("x", 4, 0..3i64);
    let c = m.var(0..6i64);
    m.count(&x, &x[0], &c);
    assert_eq!(count(&m), 81);
    m.count(&x, &x[0], 1); // x[0]'s value appears once: 3 × 2^3
    assert_eq!(count(&m), 24);
}

#[test]
fn arguments_that_do_not_fit_are_refused() {
    let mut m = Model::new();
    let x = m.vars("x", 3, 0..3i64);
    m.global_cardinality(&x, &[0, 1], [1], false);
    let error = m.solve(Engine::Trail).count().unwrap_err();
    assert!(
        matches!(&error, SearchError::InvalidModel(message) if message.contains("2 values but 1 counts")),
        "{error}"
    );
    let mut other = Model::new();
    let y = other.var(0..3i64);
    let mut m = Model::new();
    let x = m.vars("x", 2, 0..3i64);
    m.nvalue(&y, &x);
    let error = m.solve(Engine::Replay).count().unwrap_err();
    assert!(matches!(error, SearchError::InvalidModel(_)), "{error}");
    let mut m = Model::new();
    let big = m.var([u64::MAX]);
    m.count([&big], 1, 1);
    assert!(
        m.error()
            .is_some_and(|e| e.contains("does not fit in an i64"))
    );
}

#[test]
fn an_empty_sequence_counts_nothing() {
    let mut m = Model::new();
    let c = m.var(0..3i64);
    let none: [&Var<i64>; 0] = [];
    m.nvalue(&c, none);
    m.count(none, 1, &c);
    assert_eq!(count(&m), 1);
    m.among(none, &[1], 1);
    assert_eq!(count(&m), 0);
}
