//! The sequence constraints (`regular` over a `Dfa`, `lex_lesseq`, `lex_less`,
//! `all_equal`): known answers, MiniZinc's `regular` read into a `Dfa`, both engines
//! against a brute force over small random models (with an independent reading of each
//! constraint), local search, and automata refused.
//!
//! More random cases:
//! `PROPTEST_CASES=5000 cargo test --release --test families vocab_sequences::`.

use crate::common;

use common::differential::Arg;

use common::differential;
use common::differential::count_both as count;

use ambsolve::{Dfa, Engine, IntArg, Model, SearchError, Var};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Kind {
    Regular(Vec<Arg>, Dfa),
    Lex(Vec<Arg>, Vec<Arg>, bool),
    AllEqual(Vec<Arg>),
}

#[derive(Clone, Debug)]
struct Spec {
    lists: Vec<Vec<i64>>,
    kinds: Vec<Kind>,
}

fn args(items: &[Arg], vars: &[Var<i64>]) -> Vec<IntArg> {
    items.iter().map(|a| a.of(vars)).collect()
}

/// Each kind read independently of the library.
fn holds(kind: &Kind, values: &[i64]) -> bool {
    let word = |items: &[Arg]| -> Vec<i64> { items.iter().map(|a| a.value(values)).collect() };
    match kind {
        Kind::Regular(items, dfa) => {
            let mut state = dfa.start();
            for symbol in word(items) {
                let next = dfa
                    .transitions()
                    .iter()
                    .find(|t| t.0 == state && t.1 == symbol);
                match next {
                    Some(t) => state = t.2,
                    None => return false,
                }
            }
            dfa.accepting().contains(&state)
        }
        // Vectors compare lexicographically, a proper prefix first.
        Kind::Lex(xs, ys, strict) if *strict => word(xs) < word(ys),
        Kind::Lex(xs, ys, _) => word(xs) <= word(ys),
        Kind::AllEqual(items) => word(items).windows(2).all(|w| w[0] == w[1]),
    }
}

fn build(spec: &Spec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    for kind in &spec.kinds {
        match kind {
            Kind::Regular(items, dfa) => m.regular(args(items, &vars), dfa),
            Kind::Lex(xs, ys, false) => m.lex_lesseq(args(xs, &vars), args(ys, &vars)),
            Kind::Lex(xs, ys, true) => m.lex_less(args(xs, &vars), args(ys, &vars)),
            Kind::AllEqual(items) => m.all_equal(args(items, &vars)),
        }
    }
    m
}

fn brute_force(spec: &Spec) -> Vec<Vec<u32>> {
    differential::brute_force_values(&spec.lists, |values| {
        spec.kinds.iter().all(|k| holds(k, values))
    })
}

fn arg(vars: usize) -> impl Strategy<Value = Arg> + Clone {
    prop_oneof![1 => (-1i64..=3).prop_map(Arg::Const), 4 => (0..vars).prop_map(Arg::Var)]
}

/// A random deterministic automaton over symbols -1..=3, with up to 4 states.
fn dfa() -> impl Strategy<Value = Dfa> {
    (1usize..=4)
        .prop_flat_map(|states| {
            let target = proptest::option::weighted(0.5, 0..states);
            (
                Just(states),
                0..states,
                proptest::collection::vec(any::<bool>(), states),
                proptest::collection::vec(proptest::collection::vec(target, 5), states),
            )
        })
        .prop_map(|(states, start, accepting, table)| {
            let mut dfa = Dfa::new(states, start);
            for (q, &accept) in accepting.iter().enumerate() {
                if accept {
                    dfa.accept(q);
                }
            }
            for (q, row) in table.iter().enumerate() {
                for (symbol, to) in (-1i64..).zip(row) {
                    if let Some(to) = to {
                        dfa.transition(q, symbol, *to);
                    }
                }
            }
            dfa
        })
}

fn kind(vars: usize) -> impl Strategy<Value = Kind> {
    // Items repeat variables, mix in constants, and the two sides of a lex differ in
    // length.
    let items = proptest::collection::vec(arg(vars), 0..=4);
    prop_oneof![
        (items.clone(), dfa()).prop_map(|(i, d)| Kind::Regular(i, d)),
        (items.clone(), items.clone(), any::<bool>()).prop_map(|(x, y, s)| Kind::Lex(x, y, s)),
        items.prop_map(Kind::AllEqual),
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

/// Words over {0, 1} with no two 1s in a row.
fn no_two_ones() -> Dfa {
    let mut dfa = Dfa::new(2, 0);
    dfa.accept(0).accept(1);
    dfa.transition(0, 0, 0)
        .transition(0, 1, 1)
        .transition(1, 0, 0);
    dfa
}

#[test]
fn words_without_two_ones_in_a_row_are_fibonacci_numbers() {
    let fibonacci = [1u64, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144];
    for (n, &expected) in fibonacci.iter().enumerate() {
        let mut m = Model::new();
        let x = m.vars("x", n, 0..2i64);
        m.regular(&x, &no_two_ones());
        assert_eq!(count(&m), expected, "length {n}");
    }
    // Other values of the items are never taken; constants are read as they are.
    let mut m = Model::new();
    let x = m.vars("x", 3, -1..3i64);
    let word: Vec<IntArg> = vec![(&x[0]).into(), 1.into(), (&x[1]).into(), (&x[2]).into()];
    m.regular(word, &no_two_ones());
    assert_eq!(count(&m), 2); // 0 1 0 0 and 0 1 0 1
}

/// MiniZinc's `regular(x, Q, S, d, q0, F)` (states 1..Q, symbols 1..S, `d[q][s]` the
/// next state, 0 failing) as a `Dfa`: state `q` is `q - 1`, the symbols stay, and a
/// 0 in the table is no transition.
fn from_minizinc(q: usize, s: usize, d: &[usize], q0: usize, f: &[usize]) -> Dfa {
    let mut dfa = Dfa::new(q, q0 - 1);
    for &state in f {
        dfa.accept(state - 1);
    }
    for from in 1..=q {
        for symbol in 1..=s {
            let to = d[(from - 1) * s + symbol - 1];
            if to != 0 {
                dfa.transition(from - 1, symbol as i64, to - 1);
            }
        }
    }
    dfa
}

#[test]
fn minizinc_regular_tables_read_as_automata() {
    // The benchmark model `non.mzn` builds, for the clue "3 1" (pattern 1 1 1 0 1), the
    // table below over symbols 1 (white) and 2 (black), states 1..6, accepting {6}.
    let table = [1, 2, 0, 3, 0, 4, 5, 0, 5, 6, 6, 0];
    let dfa = from_minizinc(6, 2, &table, 1, &[6]);
    let mut m = Model::new();
    let row = m.vars("row", 7, 1..3i64);
    m.regular(&row, &dfa);
    // A block of 3 and a block of 1 in 7 cells: 2 spare whites over 3 gaps.
    assert_eq!(count(&m), 6);
    let first = m.solve(Engine::Trail).first().unwrap().unwrap();
    assert_eq!(first.values(&row), [&1, &1, &2, &2, &2, &1, &2]);
}

#[test]
fn rows_ordered_lexicographically_break_their_symmetry() {
    // Two rows of three bits.
    for (strict, expected) in [(false, 36), (true, 28)] {
        let mut m = Model::new();
        let a = m.vars("a", 3, 0..2i64);
        let b = m.vars("b", 3, 0..2i64);
        if strict {
            m.lex_less(&a, &b);
        } else {
            m.lex_lesseq(&a, &b);
        }
        assert_eq!(count(&m), expected);
    }
    // Three interchangeable rows of two bits, in order: the multisets of 3 of 4 rows
    // (20), or the sets (4).
    for (strict, expected) in [(false, 20), (true, 4)] {
        let mut m = Model::new();
        let rows: Vec<Vec<Var<i64>>> = (0..3).map(|_| m.vars("r", 2, 0..2i64)).collect();
        for pair in rows.windows(2) {
            if strict {
                m.lex_less(&pair[0], &pair[1]);
            } else {
                m.lex_lesseq(&pair[0], &pair[1]);
            }
        }
        assert_eq!(count(&m), expected);
    }
}

#[test]
fn a_prefix_comes_first() {
    // [x] against [y, z]: x < y, or x = y (then [x] is a proper prefix: smaller).
    let mut m = Model::new();
    let x = m.var(0..3i64);
    let y = m.vars("y", 2, 0..3i64);
    m.lex_less([&x], &y);
    assert_eq!(count(&m), (3 + 3) * 3); // x <= y[0]: 6 pairs, z free
    // [y, z] <= [x]: y < x, z free; equal first items make the longer one larger.
    let mut m = Model::new();
    let x = m.var(0..3i64);
    let y = m.vars("y", 2, 0..3i64);
    m.lex_lesseq(&y, [&x]);
    assert_eq!(count(&m), 3 * 3);
    // Empty sequences: [] <= anything; nothing < [].
    let mut m = Model::new();
    let y = m.vars("y", 2, 0..3i64);
    let none: [&Var<i64>; 0] = [];
    m.lex_lesseq(none, &y);
    assert_eq!(count(&m), 9);
    m.lex_less(&y, none);
    assert_eq!(count(&m), 0);
}

#[test]
fn all_equal_keeps_what_every_item_has() {
    let mut m = Model::new();
    let a = m.var([5i64, 1, 3, 1]);
    let b = m.var(0..4i64);
    let c = m.var([3i64, 7, 1]);
    m.all_equal([&a, &b, &c]);
    assert_eq!(count(&m), 3); // 1 (two indices of a) and 3
    m.all_equal([IntArg::from(&a), IntArg::from(3)]);
    assert_eq!(count(&m), 1);
}

#[test]
fn automata_with_states_out_of_range_or_two_ways_are_refused() {
    let refused = |dfa: &Dfa, says: &str| {
        let mut m = Model::new();
        let x = m.vars("x", 2, 0..2i64);
        m.regular(&x, dfa);
        let error = m.solve(Engine::Trail).count().unwrap_err();
        assert!(
            matches!(&error, SearchError::InvalidModel(message) if message.contains(says)),
            "{error}"
        );
    };
    refused(
        &Dfa::new(2, 2),
        "start state 2 is not one of its 2 states (0..2)",
    );
    refused(Dfa::new(2, 0).accept(5), "accepting state 5");
    refused(
        Dfa::new(2, 0).transition(0, 1, 9),
        "transition (0, 1, 9)'s target 9",
    );
    refused(
        Dfa::new(2, 0).transition(0, 1, 0).transition(0, 1, 1),
        "state 0 has two transitions on symbol 1 (to 0 and to 1)",
    );
    // No state at all: nothing can start.
    refused(&Dfa::new(0, 0), "start state 0 is not one of its 0 states");
}
