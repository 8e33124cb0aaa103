//! The scheduling constraints (`disjunctive`, `disjunctive_strict`, `cumulative`, and
//! the optional tasks of `disjunctive_optional` and `cumulative_optional`): known
//! answers, both engines against a brute force over small random models (with an
//! independent reading of each constraint), local search, and arguments refused.
//!
//! More random cases:
//! `PROPTEST_CASES=5000 cargo test --release --test families vocab_scheduling::`.

use crate::common;

use common::differential::{self, Arg, count_both as count, engines_agree_on, local_finds_only_on};

use ambsolve::{Engine, IntArg, Limits, Lit, Model, SearchError, Var};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Kind {
    /// Starts, durations, strict.
    Disjunctive(Vec<Arg>, Vec<Arg>, bool),
    /// Starts, durations, demands, capacity.
    Cumulative(Vec<Arg>, Vec<Arg>, Vec<Arg>, Arg),
}

#[derive(Clone, Debug)]
struct Spec {
    lists: Vec<Vec<i64>>,
    kinds: Vec<Kind>,
}

/// Each kind read independently of the library: MiniZinc's definitions, pair by pair for
/// a unary resource and time by time for a cumulative one.
fn holds(kind: &Kind, values: &[i64]) -> bool {
    let all = |args: &[Arg]| -> Vec<i64> { args.iter().map(|a| a.value(values)).collect() };
    match kind {
        Kind::Disjunctive(s, d, strict) => {
            let (s, d) = (all(s), all(d));
            d.iter().all(|&d| d >= 0)
                && (0..s.len()).all(|i| {
                    (i + 1..s.len()).all(|j| {
                        (!strict && (d[i] == 0 || d[j] == 0))
                            || s[i] + d[i] <= s[j]
                            || s[j] + d[j] <= s[i]
                    })
                })
        }
        Kind::Cumulative(s, d, r, capacity) => {
            let (s, d, r, capacity) = (all(s), all(d), all(r), capacity.value(values));
            if d.iter().chain(&r).any(|&x| x < 0) || (!s.is_empty() && capacity < 0) {
                return false;
            }
            // The load only rises at a start: checking at every start is enough.
            s.iter().all(|&t| {
                let load: i64 = (0..s.len())
                    .filter(|&k| s[k] <= t && t < s[k] + d[k])
                    .map(|k| r[k])
                    .sum();
                load <= capacity
            })
        }
    }
}

fn build(spec: &Spec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    let of = |args: &[Arg]| -> Vec<IntArg> { args.iter().map(|a| a.of(&vars)).collect() };
    for kind in &spec.kinds {
        match kind {
            Kind::Disjunctive(s, d, false) => m.disjunctive(of(s), of(d)),
            Kind::Disjunctive(s, d, true) => m.disjunctive_strict(of(s), of(d)),
            Kind::Cumulative(s, d, r, c) => m.cumulative(of(s), of(d), of(r), c.of(&vars)),
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

/// A start: a constant or a variable. A duration, demand or capacity: mostly a small
/// constant (0 and, rarely, -1 included) or a variable.
fn arg(vars: usize, low: i64, high: i64) -> impl Strategy<Value = Arg> {
    prop_oneof![
        2 => (low..=high).prop_map(Arg::Const),
        3 => (0..vars).prop_map(Arg::Var),
    ]
}

fn kind(vars: usize) -> impl Strategy<Value = Kind> {
    (1usize..=4).prop_flat_map(move |n| {
        let starts = move || proptest::collection::vec(arg(vars, -1, 4), n);
        let amounts = move || proptest::collection::vec(arg(vars, -1, 3), n);
        prop_oneof![
            (starts(), amounts(), any::<bool>())
                .prop_map(|(s, d, strict)| Kind::Disjunctive(s, d, strict)),
            (starts(), amounts(), amounts(), arg(vars, -1, 3))
                .prop_map(|(s, d, r, c)| Kind::Cumulative(s, d, r, c)),
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
        differential::engines_agree(&build(&spec), &brute_force(&spec))?;
    }

    #[test]
    fn local_search_finds_only_solutions(spec in spec()) {
        differential::local_finds_only(&build(&spec), &brute_force(&spec))?;
    }
}

/// Optional tasks: starts, durations, (demands, capacity for a cumulative resource), and
/// each task's presence, a 0/1 variable of its own.
#[derive(Clone, Debug)]
enum Optional {
    Unary(Vec<Arg>, Vec<Arg>, Vec<usize>),
    Cumulative(Vec<Arg>, Vec<Arg>, Vec<Arg>, Vec<usize>, Arg),
}

#[derive(Clone, Debug)]
struct OptionalSpec {
    /// The value lists, the presences' three `[0, 1]` lists last.
    lists: Vec<Vec<i64>>,
    kinds: Vec<Optional>,
}

/// MiniZinc's reading of optional tasks (`disjunctive` and `cumulative` over `var opt
/// int` starts): the present tasks as the plain kind reads them; every duration and
/// demand at least 0, present or not.
fn optional_holds(kind: &Optional, values: &[i64]) -> bool {
    let all = |args: &[Arg]| -> Vec<i64> { args.iter().map(|a| a.value(values)).collect() };
    let keep = |items: Vec<i64>, p: &[usize]| -> Vec<Arg> {
        items
            .iter()
            .zip(p)
            .filter(|&(_, &v)| values[v] == 1)
            .map(|(&x, _)| Arg::Const(x))
            .collect()
    };
    match kind {
        Optional::Unary(s, d, p) => {
            let (s, d) = (all(s), all(d));
            d.iter().all(|&d| d >= 0)
                && holds(&Kind::Disjunctive(keep(s, p), keep(d, p), false), values)
        }
        Optional::Cumulative(s, d, r, p, c) => {
            let (s, d, r) = (all(s), all(d), all(r));
            let capacity = c.value(values);
            d.iter().chain(&r).all(|&x| x >= 0)
                && (s.is_empty() || capacity >= 0)
                && holds(
                    &Kind::Cumulative(keep(s, p), keep(d, p), keep(r, p), Arg::Const(capacity)),
                    values,
                )
        }
    }
}

fn build_optional(spec: &OptionalSpec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    let of = |args: &[Arg]| -> Vec<IntArg> { args.iter().map(|a| a.of(&vars)).collect() };
    let present = |p: &[usize]| -> Vec<&Var<i64>> { p.iter().map(|&v| &vars[v]).collect() };
    for kind in &spec.kinds {
        match kind {
            Optional::Unary(s, d, p) => m.disjunctive_optional(of(s), of(d), present(p)),
            Optional::Cumulative(s, d, r, p, c) => {
                m.cumulative_optional(of(s), of(d), of(r), present(p), c.of(&vars));
            }
        }
    }
    m
}

/// Every index tuple whose values satisfy every kind of optional tasks.
fn optional_brute_force(spec: &OptionalSpec) -> Vec<Vec<u32>> {
    differential::brute_force_values(&spec.lists, |values| {
        spec.kinds.iter().all(|k| optional_holds(k, values))
    })
}

fn optional_spec() -> impl Strategy<Value = OptionalSpec> {
    let kind = |vars: usize| {
        (1usize..=4).prop_flat_map(move |n| {
            let starts = move || proptest::collection::vec(arg(vars, -1, 4), n);
            let amounts = move || proptest::collection::vec(arg(vars, -1, 3), n);
            // Presence slots, shared between tasks and resources now and then.
            let presence = move || proptest::collection::vec(0usize..3, n);
            prop_oneof![
                (starts(), amounts(), presence()).prop_map(|(s, d, p)| Optional::Unary(s, d, p)),
                (starts(), amounts(), amounts(), presence(), arg(vars, -1, 3))
                    .prop_map(|(s, d, r, p, c)| Optional::Cumulative(s, d, r, p, c)),
            ]
        })
    };
    differential::lists_and_kinds(-2..=4, kind).prop_map(|(mut lists, mut kinds)| {
        let plain = lists.len();
        lists.extend([vec![0, 1], vec![0, 1], vec![0, 1]]);
        for kind in &mut kinds {
            let (Optional::Unary(_, _, p) | Optional::Cumulative(_, _, _, p, _)) = kind;
            for slot in p {
                *slot += plain;
            }
        }
        OptionalSpec { lists, kinds }
    })
}

proptest! {
    #![proptest_config(differential::cases(300))]

    #[test]
    fn optional_tasks_agree_with_the_brute_force(spec in optional_spec()) {
        let expected = optional_brute_force(&spec);
        engines_agree_on(&build_optional(&spec), &expected, spec.lists.len())?;
    }

    #[test]
    fn local_search_finds_only_schedules_of_present_tasks(spec in optional_spec()) {
        let expected = optional_brute_force(&spec);
        local_finds_only_on(&build_optional(&spec), &expected, spec.lists.len())?;
    }
}

#[test]
fn unit_tasks_in_a_tight_window_count_as_permutations() {
    for n in 1..=6usize {
        let mut m = Model::new();
        let s = m.vars("s", n, 0..n as i64);
        m.disjunctive(&s, vec![1; n]);
        assert_eq!(count(&m), (1..=n as u64).product::<u64>(), "{n} tasks");
    }
}

#[test]
fn two_tasks_count_as_by_hand() {
    // Lengths 2 and 3, starts in 0..=5: the first before (4 + 3 + 2 + 1) or after
    // (3 + 2 + 1) the second.
    let mut m = Model::new();
    let s = m.vars("s", 2, 0..=5i64);
    m.disjunctive(&s, [2, 3]);
    assert_eq!(count(&m), 16);
    // Three tasks of length 2 and demand 1 on a capacity 2, starts in 0..=2: of the 27
    // triples, those whose three tasks share a time (the latest start less than the
    // earliest plus 2: 3 equal, 6 over {0, 1}, 6 over {1, 2}) are out.
    let mut m = Model::new();
    let s = m.vars("s", 3, 0..=2i64);
    m.cumulative(&s, [2, 2, 2], [1, 1, 1], 2);
    assert_eq!(count(&m), 12);
}

#[test]
fn tasks_of_duration_zero_are_free_unless_strict() {
    // A task of length 4 at 0 and one of length 0 anywhere in 0..=5: plainly 6 places,
    // strictly not at 1, 2 or 3.
    for (strict, expected) in [(false, 6), (true, 3)] {
        let mut m = Model::new();
        let p = m.var(0..=5i64);
        let starts = [IntArg::from(0), IntArg::from(&p)];
        if strict {
            m.disjunctive_strict(starts, [4, 0]);
        } else {
            m.disjunctive(starts, [4, 0]);
        }
        assert_eq!(count(&m), expected, "strict: {strict}");
    }
    // A duration that may be 0: the plain reading lets it stand inside the other task.
    let mut m = Model::new();
    let d = m.var(0..=2i64);
    let s = m.var(0..=3i64);
    m.disjunctive(
        [IntArg::from(0), IntArg::from(&s)],
        [IntArg::from(3), IntArg::from(&d)],
    );
    // d = 0: 4 starts; d = 1: s = 3; d = 2: s = 3 (ends at 5).
    assert_eq!(count(&m), 4 + 1 + 1);
    // A negative duration or demand makes the constraint false.
    let mut m = Model::new();
    let s = m.vars("s", 2, 0..3i64);
    m.disjunctive(&s, [1, -1]);
    assert_eq!(count(&m), 0);
    let mut m = Model::new();
    let s = m.vars("s", 2, 0..3i64);
    m.cumulative(&s, [1, 1], [1, -1], 3);
    assert_eq!(count(&m), 0);
}

#[test]
fn optima_are_proved() {
    // Three tasks of length 3 each using 2 of a capacity 3: one at a time, makespan 9.
    let mut m = Model::new();
    let s = m.vars("s", 3, 0..=20i64);
    let end = m.var(0..=30i64);
    m.cumulative(&s, [3, 3, 3], [2, 2, 2], 3);
    for x in &s {
        m.linear([(1, x), (-1, &end)], ambsolve::Cmp::Le, -3);
    }
    m.minimize([(1, &end)]);
    for engine in [Engine::Trail, Engine::Replay] {
        let best = m.solve(engine).best().unwrap();
        assert_eq!((best.objective, best.proved), (Some(9), true), "{engine:?}");
    }
    // The least capacity that runs tasks of lengths 2, 3, 2 with demands 2, 1, 3 by
    // time 4: the tasks of demands 2 and 3 may not meet (else 5), the one of length 3
    // meets one of them: 4.
    let mut m = Model::new();
    let s: Vec<Var<i64>> = [2, 3, 2].iter().map(|&d| m.var(0..=4 - d)).collect();
    let capacity = m.var(0..=10i64);
    m.cumulative(&s, [2, 3, 2], [2, 1, 3], &capacity);
    m.minimize([(1, &capacity)]);
    for engine in [Engine::Trail, Engine::Replay] {
        let best = m.solve(engine).best().unwrap();
        assert_eq!((best.objective, best.proved), (Some(4), true), "{engine:?}");
    }
}

#[test]
fn local_search_finds_schedules() {
    // Five tasks on one machine, filling 0..15 exactly, and a cumulative resource.
    let mut m = Model::new();
    let s = m.vars("s", 5, 0..=12i64);
    let d = [1i64, 2, 3, 4, 5];
    let ends: Vec<Var<i64>> = (0..5).map(|k| m.var(0..=15 - d[k])).collect();
    for k in 0..5 {
        m.linear([(1, &s[k]), (-1, &ends[k])], ambsolve::Cmp::Eq, 0);
    }
    m.disjunctive(&s, d);
    let c = m.vars("c", 4, 0..=4i64);
    m.cumulative(&c, [2, 2, 2, 2], [1, 1, 1, 1], 2);
    let found = m
        .solve(Engine::Local)
        .seed(3)
        .limits(Limits::new().nodes(200_000))
        .first()
        .unwrap()
        .expect("local search finds a schedule");
    let starts: Vec<i64> = found.values(&s).into_iter().copied().collect();
    let ok = (0..5).all(|i| {
        (i + 1..5).all(|j| starts[i] + d[i] <= starts[j] || starts[j] + d[j] <= starts[i])
    });
    assert!(ok, "{starts:?}");
}

#[test]
fn arguments_that_do_not_fit_are_refused() {
    let mut m = Model::new();
    let s = m.vars("s", 3, 0..3i64);
    m.disjunctive(&s, [1, 1]);
    let error = m.solve(Engine::Trail).count().unwrap_err();
    assert!(
        matches!(&error, SearchError::InvalidModel(message)
            if message.contains("disjunctive: 3 starts but 2 durations")),
        "{error}"
    );
    let mut m = Model::new();
    let s = m.vars("s", 2, 0..3i64);
    m.cumulative(&s, [1, 1], [1], 1);
    let error = m.solve(Engine::Local).count().unwrap_err();
    assert!(
        matches!(&error, SearchError::InvalidModel(message) if message.contains("1 demands")),
        "{error}"
    );
    let mut other = Model::new();
    let y = other.var(0..3i64);
    let mut m = Model::new();
    let s = m.vars("s", 2, 0..3i64);
    m.disjunctive_strict(&s, [IntArg::from(&y), IntArg::from(1)]);
    let error = m.solve(Engine::Replay).count().unwrap_err();
    assert!(matches!(error, SearchError::InvalidModel(_)), "{error}");
    let mut m = Model::new();
    let big = m.var([u64::MAX]);
    let s = m.vars("s", 1, 0..3i64);
    m.cumulative(&s, [1], [1], &big);
    assert!(
        m.error()
            .is_some_and(|e| e.contains("does not fit in an i64"))
    );
}

#[test]
fn optional_tasks_refuse_arguments_that_do_not_fit() {
    let mut m = Model::new();
    let s = m.vars("s", 2, 0..3i64);
    let p = m.vars("p", 1, [false, true]);
    m.disjunctive_optional(&s, [1, 1], &p);
    let error = m.solve(Engine::Trail).count().unwrap_err();
    assert!(
        matches!(&error, SearchError::InvalidModel(message)
            if message.contains("disjunctive_optional: 2 starts but 1 presences")),
        "{error}"
    );
    // A presence over values other than 0 and 1, and one of another model.
    let mut m = Model::new();
    let s = m.vars("s", 2, 0..3i64);
    let wide = m.var(0..3i64);
    let p = m.var([false, true]);
    m.cumulative_optional(&s, [1, 1], [1, 1], [Lit::from(&wide), Lit::from(&p)], 1);
    let error = m.solve(Engine::Replay).count().unwrap_err();
    assert!(
        matches!(&error, SearchError::InvalidModel(message) if message.contains("literal")),
        "{error}"
    );
    let mut other = Model::new();
    let stranger = other.var([false, true]);
    let mut m = Model::new();
    let s = m.vars("s", 1, 0..3i64);
    m.disjunctive_optional(&s, [2], [&stranger]);
    let error = m.solve(Engine::Trail).count().unwrap_err();
    assert!(matches!(error, SearchError::InvalidModel(_)), "{error}");
}

#[test]
fn the_ends_of_i64_are_exact() {
    // Starts near i64's ends: sums of starts and durations overflow i64 yet are reasoned
    // on exactly (i128).
    let mut m = Model::new();
    let a = m.var([i64::MAX - 1, i64::MAX]);
    let b = m.var([i64::MIN, i64::MAX - 3, i64::MAX - 2]);
    m.disjunctive([&a, &b], [2, 2]);
    // (a, b): b = MIN always fits; b = MAX - 3 fits before a = MAX - 1 and a = MAX;
    // b = MAX - 2 fits before a = MAX only.
    assert_eq!(count(&m), 2 + 2 + 1);
    let mut m = Model::new();
    let s = m.vars("s", 2, [i64::MIN, i64::MIN + 1]);
    let r = m.var([i64::MAX - 1, i64::MAX]);
    m.cumulative(&s, [1, 1], [IntArg::from(&r), IntArg::from(1)], i64::MAX);
    // Equal starts (2 ways): the tasks meet, r + 1 <= MAX, so r = MAX - 1 only; starts
    // apart (2 ways): r takes either value.
    assert_eq!(count(&m), 2 + 2 * 2);
}
