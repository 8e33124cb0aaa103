//! Packing (`bin_packing_load`, `bin_packing`, `bin_packing_capa`): known answers, both
//! engines (and learning) against a brute force over small random models (with an
//! independent reading of each constraint), local search, the `constraints!` calls, and
//! arguments refused.
//!
//! More random cases:
//! `PROPTEST_CASES=5000 cargo test --release --test families vocab_packing::`.

use crate::common;

use common::differential::{self, Arg, count_both as count};

use ambsolve::{Engine, IntArg, Model, Var, constraints};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Kind {
    /// Loads, bins, weights, the first bin's number.
    Load(Vec<Arg>, Vec<Arg>, Vec<i64>, i64),
    /// Capacity, bins, weights.
    Capacity(i64, Vec<Arg>, Vec<i64>),
    /// Capacities, bins, weights, the first bin's number.
    Capacities(Vec<i64>, Vec<Arg>, Vec<i64>, i64),
}

#[derive(Clone, Debug)]
struct Spec {
    lists: Vec<Vec<i64>>,
    kinds: Vec<Kind>,
}

/// The weight in bin `b` of items in `bins` weighing `weights`.
fn load(bins: &[i64], weights: &[i64], b: i64) -> i64 {
    bins.iter()
        .zip(weights)
        .filter(|&(&bin, _)| bin == b)
        .map(|(_, w)| w)
        .sum()
}

/// Each kind read independently of the library: MiniZinc's definitions.
fn holds(kind: &Kind, values: &[i64]) -> bool {
    let all = |args: &[Arg]| -> Vec<i64> { args.iter().map(|a| a.value(values)).collect() };
    match kind {
        Kind::Load(loads, bins, weights, first) => {
            let (loads, bins) = (all(loads), all(bins));
            let last = first + loads.len() as i64 - 1;
            bins.iter().all(|b| (*first..=last).contains(b))
                && loads
                    .iter()
                    .enumerate()
                    .all(|(k, &l)| l == load(&bins, weights, first + k as i64))
        }
        Kind::Capacity(capacity, bins, weights) => {
            let bins = all(bins);
            bins.iter().all(|&b| load(&bins, weights, b) <= *capacity)
        }
        Kind::Capacities(capacities, bins, weights, first) => {
            let bins = all(bins);
            let last = first + capacities.len() as i64 - 1;
            bins.iter().all(|b| (*first..=last).contains(b))
                && capacities
                    .iter()
                    .enumerate()
                    .all(|(k, &c)| load(&bins, weights, first + k as i64) <= c)
        }
    }
}

fn build(spec: &Spec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    let of = |args: &[Arg]| -> Vec<IntArg> { args.iter().map(|a| a.of(&vars)).collect() };
    for kind in &spec.kinds {
        match kind {
            Kind::Load(loads, bins, w, 0) if loads.len() % 2 == 0 => {
                m.bin_packing_load(of(loads), of(bins), w.clone());
            }
            Kind::Load(loads, bins, w, first) => {
                m.bin_packing_load_offset(of(loads), of(bins), w.clone(), *first);
            }
            Kind::Capacity(c, bins, w) => m.bin_packing(*c, of(bins), w.clone()),
            Kind::Capacities(c, bins, w, 0) => m.bin_packing_capa(c.clone(), of(bins), w.clone()),
            Kind::Capacities(c, bins, w, first) => {
                m.bin_packing_capa_offset(c.clone(), of(bins), w.clone(), *first);
            }
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

/// A load or a bin: mostly a variable, sometimes a small constant.
fn arg(vars: usize) -> impl Strategy<Value = Arg> {
    prop_oneof![
        1 => (-1i64..=4).prop_map(Arg::Const),
        4 => (0..vars).prop_map(Arg::Var),
    ]
}

fn kind(vars: usize) -> impl Strategy<Value = Kind> {
    (1usize..=3, 0usize..=4, -1i64..=1).prop_flat_map(move |(bins, items, first)| {
        let weights = move || proptest::collection::vec(0i64..=3, items);
        let item_bins = move || proptest::collection::vec(arg(vars), items);
        prop_oneof![
            (
                proptest::collection::vec(arg(vars), bins),
                item_bins(),
                weights()
            )
                .prop_map(move |(l, b, w)| Kind::Load(l, b, w, first)),
            (0i64..=4, item_bins(), weights()).prop_map(|(c, b, w)| Kind::Capacity(c, b, w)),
            (
                proptest::collection::vec(0i64..=4, bins),
                item_bins(),
                weights()
            )
                .prop_map(move |(c, b, w)| Kind::Capacities(c, b, w, first)),
        ]
    })
}

fn spec() -> impl Strategy<Value = Spec> {
    // Value lists that repeat, fall and mix, negative values included.
    differential::lists_and_kinds(-2..=4, kind).prop_map(|(lists, kinds)| Spec { lists, kinds })
}

proptest! {
    #![proptest_config(differential::cases(300))]

    #[test]
    fn both_engines_agree_with_the_brute_force(spec in spec()) {
        // `bin_packing` and `bin_packing_capa` add a load per bin, which the bins determine.
        differential::engines_agree_on(&build(&spec), &brute_force(&spec), spec.lists.len())?;
    }

    #[test]
    fn local_search_finds_only_solutions(spec in spec()) {
        differential::local_finds_only_on(&build(&spec), &brute_force(&spec), spec.lists.len())?;
    }
}

#[test]
fn packings_count_as_by_hand() {
    // Weights 3, 2, 2 into bins 0 and 1 loaded 5 and 2: item 0 with one of the others.
    let mut m = Model::new();
    let bins = m.vars("bin", 3, 0..2i64);
    m.bin_packing_load([5, 2], &bins, [3, 2, 2]);
    assert_eq!(count(&m), 2);
    // Four items of weight 1 into two bins of capacity 2: 4 choose 2.
    let mut m = Model::new();
    let bins = m.vars("bin", 4, 0..2i64);
    m.bin_packing(2, &bins, [1, 1, 1, 1]);
    assert_eq!(count(&m), 6);
    // Capacities 1 and 3 for weights 1, 1, 1: bin 0 holds at most one item.
    let mut m = Model::new();
    let bins = m.vars("bin", 3, 0..2i64);
    m.bin_packing_capa([1, 3], &bins, [1, 1, 1]);
    assert_eq!(count(&m), 1 + 3);
}

#[test]
fn the_fewest_bins_are_proved() {
    // Six items (weights 4, 4, 3, 3, 2, 2: 18) in bins of capacity 6: three bins at
    // least, and three suffice (4 + 2, 4 + 2, 3 + 3).
    let weights = [4i64, 4, 3, 3, 2, 2];
    let mut m = Model::new();
    let bins = m.vars("bin", 6, 0..6i64);
    let used = m.var(1..=6i64);
    m.bin_packing(6, &bins, weights);
    for bin in &bins {
        m.linear([(1, bin), (-1, &used)], ambsolve::Cmp::Lt, 0);
    }
    m.minimize([(1, &used)]);
    for engine in [Engine::Trail, Engine::Replay] {
        let best = m.solve(engine).best().unwrap();
        assert_eq!((best.objective, best.proved), (Some(3), true), "{engine:?}");
    }
}

#[test]
fn the_calls_of_constraints_pack() {
    let w = [3i64, 2, 2, 1];
    let puzzle = constraints! {
        let bin[4] = amb(0..3i64);
        let load[3] = amb(0..=8i64);
        require bin_packing_load(load, bin, w);
        require bin_packing(4, bin, w);
        require bin_packing_capa([4, 3, 2], bin[1..4], w[1..4]);
        require load[0] >= load[1] && load[1] >= load[2];
    };
    let expected = (0..81u32)
        .filter(|code| {
            let bins: Vec<i64> = (0..4).map(|k| i64::from(code / 3u32.pow(k) % 3)).collect();
            let loads: Vec<i64> = (0..3).map(|b| load(&bins, &w, b)).collect();
            loads.iter().all(|&l| l <= 4)
                && (0..3).all(|b| load(&bins[1..], &w[1..], b) <= [4, 3, 2][b as usize])
                && loads[0] >= loads[1]
                && loads[1] >= loads[2]
        })
        .count() as u64;
    assert!(expected > 0);
    for engine in [Engine::Trail, Engine::Replay] {
        let found = puzzle.clone().engine(engine).count().unwrap().solutions;
        assert_eq!(found, expected, "{engine:?}");
    }
}

#[test]
fn bad_arguments_make_the_model_invalid() {
    let mut m = Model::new();
    let bins = m.vars("bin", 2, 0..2i64);
    m.bin_packing_load([3, 0], &bins, [1, -2]);
    assert!(m.error().is_some_and(|e| e.contains("negative weight")));
    let mut m = Model::new();
    let bins = m.vars("bin", 2, 0..2i64);
    m.bin_packing(3, &bins, [1]);
    assert!(
        m.error()
            .is_some_and(|e| e.contains("2 items but 1 weights"))
    );
    let mut m = Model::new();
    let bins = m.vars("bin", 2, 0..2i64);
    let w = m.var(0..2i64);
    m.bin_packing(3, &bins, [IntArg::from(&w), IntArg::from(1)]);
    assert!(m.error().is_some_and(|e| e.contains("constants")));
}
