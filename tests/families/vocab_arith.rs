//! Arithmetic (`times`, `div`, `rem`, `pow`, `pow_reciprocal`, `abs`, `min`, `max`) and
//! lookups (`element`, `element_offset`, `element2d`) through the `Model` API: known
//! answers, optima, both engines against a brute force written here from Rust's own
//! arithmetic, values at the ends of `i64`, local search, and invalid arguments.
//!
//! CI runs a few hundred random models. The long run, as many as you like:
//!
//! ```sh
//! PROPTEST_CASES=20000 cargo test --release --test families vocab_arith::
//! ```

use crate::common;

use ambsolve::{Cmp, Engine, IntArg, Limits, Model, SearchError, Strategy as Search, Var};
use common::differential::{self, count_both as count};
use proptest::prelude::*;

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

#[test]
fn products_quotients_and_remainders_count_as_rust_computes_them() {
    // x * y == 12 over 1..=12: the divisors of 12.
    let mut m = Model::new();
    let x = m.var(1..=12i64);
    let y = m.var(1..=12i64);
    m.times(&x, &y, 12);
    assert_eq!(count(&m), 6);
    // x / y == q and x % y == r over signed ranges: exactly Rust's pairs.
    for (q, r) in [(2i64, 1i64), (-3, -1), (0, 0), (1, -2)] {
        let mut m = Model::new();
        let x = m.var(-9..=9i64);
        let y = m.var(-4..=4i64);
        m.div(&x, &y, q);
        m.rem(&x, &y, r);
        let expected = (-9..=9i64)
            .flat_map(|x| (-4..=4i64).map(move |y| (x, y)))
            .filter(|&(x, y)| y != 0 && x / y == q && x % y == r)
            .count() as u64;
        assert_eq!(count(&m), expected, "q {q}, r {r}");
    }
}

#[test]
fn pythagorean_triples_up_to_20() {
    // a^2 + b^2 == c^2, a < b, c <= 20, the squares by times(a, a, ..) and pow(c, 2, ..).
    let mut m = Model::new();
    let a = m.var(1..=20i64);
    let b = m.var(1..=20i64);
    let c = m.var(1..=20i64);
    let (a2, b2, c2) = (m.var(1..=400i64), m.var(1..=400i64), m.var(1..=400i64));
    m.times(&a, &a, &a2);
    m.times(&b, &b, &b2);
    m.pow(&c, 2, &c2);
    m.linear([(1, &a2), (1, &b2), (-1, &c2)], Cmp::Eq, 0);
    m.linear([(1, &a), (-1, &b)], Cmp::Lt, 0);
    assert_eq!(count(&m), 6); // (3,4,5) (6,8,10) (5,12,13) (9,12,15) (8,15,17) (12,16,20)
}

#[test]
fn powers_absolute_values_least_and_greatest() {
    // 2^y == 1024.
    let mut m = Model::new();
    let y = m.var(0..100i64);
    m.pow(2, &y, 1024);
    let only = m.solve(Engine::Trail).first().unwrap().unwrap();
    assert_eq!(*only.value(&y), 10);
    // Huge exponents: nothing overflows, no power of 3 is 0.
    let mut m = Model::new();
    let y = m.var([0i64, 40, 1 << 40, i64::MAX]);
    let z = m.var([0i64, 1, i64::MAX]);
    m.pow(3, &y, &z);
    assert_eq!(count(&m), 1); // 3^0 == 1
    // |x - y| as abs over a difference: pairs of 0..5 at distance 2.
    let mut m = Model::new();
    let x = m.var(0..5i64);
    let y = m.var(0..5i64);
    let d = m.var(-4..=4i64);
    m.linear([(1, &x), (-1, &y), (-1, &d)], Cmp::Eq, 0);
    m.abs(&d, 2);
    assert_eq!(count(&m), 6);
    // The least of three is 1 and the greatest 3: over 0..=4, by inclusion-exclusion
    // over {1,2,3}^3: 27 - 2 * 8 + 1 = 12.
    let mut m = Model::new();
    let x = m.vars("x", 3, 0..=4i64);
    m.min(&x, 1);
    m.max(&x, 3);
    assert_eq!(count(&m), 12);
}

#[test]
fn products_and_maxima_as_objectives() {
    // x + y == 10: the product is least at 1 * 9 and greatest at 5 * 5.
    for (maximize, optimum) in [(false, 9), (true, 25)] {
        let mut m = Model::new();
        let x = m.var(1..=9i64);
        let y = m.var(1..=9i64);
        let p = m.var(0..=81i64);
        m.linear([(1, &x), (1, &y)], Cmp::Eq, 10);
        m.times(&x, &y, &p);
        if maximize {
            m.maximize([(1, &p)]);
        } else {
            m.minimize([(1, &p)]);
        }
        for engine in ENGINES {
            let best = m.solve(engine).best().unwrap();
            assert!(best.proved);
            assert_eq!(best.objective, Some(optimum), "{engine}");
        }
    }
    // The latest end of three tasks (durations 3, 2, 4, distinct starts), minimized: the
    // longest starts first, and all end at 4.
    let mut m = Model::new();
    let starts = m.vars("s", 3, 0..6i64);
    let ends = m.vars("e", 3, 0..12i64);
    for (k, d) in [3i64, 2, 4].into_iter().enumerate() {
        m.linear([(1, &ends[k]), (-1, &starts[k])], Cmp::Eq, d);
    }
    m.all_different(&starts);
    let makespan = m.var(0..12i64);
    m.max(&ends, &makespan);
    m.minimize([(1, &makespan)]);
    for engine in ENGINES {
        let best = m.solve(engine).best().unwrap();
        assert_eq!(best.objective, Some(4), "{engine}");
    }
}

#[test]
fn lookups_over_constants_variables_and_tables() {
    // A distance table read at two chosen cities: pairs at distance at most 4.
    let dist = [[0i64, 2, 9, 10], [2, 0, 6, 4], [9, 6, 0, 3], [10, 4, 3, 0]];
    let mut m = Model::new();
    let from = m.var(0..4i64);
    let to = m.var(0..4i64);
    let d = m.var(1..=4i64);
    m.element2d(&from, &to, dist, &d);
    let expected = (0..4)
        .flat_map(|a| (0..4).map(move |b| dist[a][b]))
        .filter(|&v| (1..=4).contains(&v))
        .count() as u64;
    assert_eq!(count(&m), expected);
    // array[k] over variables, numbered from 1: the k-th of three increasing choices is 2.
    let mut m = Model::new();
    let order = m.vars("o", 3, 0..4i64);
    let k = m.var(0..=4i64);
    m.strictly_increasing(&order);
    m.element_offset(&k, 1, &order, 2);
    let mut expected = 0;
    for a in 0..4 {
        for b in a + 1..4 {
            for c in b + 1..4 {
                expected += [a, b, c].iter().filter(|&&v| v == 2).count() as u64;
            }
        }
    }
    assert_eq!(count(&m), expected);
    // A table of variables and constants mixed: t[r][c] == 5.
    let mut m = Model::new();
    let v = m.var(4..=6i64);
    let (r, c) = (m.var(0..2i64), m.var(0..3i64));
    let table = vec![
        vec![IntArg::from(5), IntArg::from(&v), IntArg::from(1)],
        vec![IntArg::from(&v), IntArg::from(5)],
    ];
    m.element2d(&r, &c, table, 5);
    // (0,0) any v: 3; (0,1) v = 5: 1; (1,0) v = 5: 1; (1,1) any v: 3; (1,2) past the row.
    assert_eq!(count(&m), 8);
}

#[test]
fn the_ends_of_i64_neither_overflow_nor_panic() {
    let ends = [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX];
    let mut m = Model::new();
    let x = m.var(ends);
    let y = m.var(ends);
    let z = m.var(ends);
    m.times(&x, &y, &z);
    let expected = brute3(&ends, |a, b, c| {
        i128::from(a) * i128::from(b) == i128::from(c)
    });
    assert_eq!(count(&m), expected);
    for (name, holds) in [
        (
            "div",
            (|a: i64, b: i64, c: i64| b != 0 && i128::from(a) / i128::from(b) == i128::from(c))
                as fn(i64, i64, i64) -> bool,
        ),
        ("rem", |a, b, c| {
            b != 0 && i128::from(a) % i128::from(b) == i128::from(c)
        }),
        ("abs", |a, _, c| i128::from(a).abs() == i128::from(c)),
    ] {
        let mut m = Model::new();
        let x = m.var(ends);
        let y = m.var(ends);
        let z = m.var(ends);
        match name {
            "div" => m.div(&x, &y, &z),
            "rem" => m.rem(&x, &y, &z),
            _ => m.abs(&x, &z), // y free
        }
        assert_eq!(count(&m), brute3(&ends, holds), "{name}");
    }
    // An offset at the end of i64: no position, no solution, no panic.
    let mut m = Model::new();
    let i = m.var(ends);
    m.element_offset(&i, i64::MIN, [1i64, 2, 3], 2);
    assert_eq!(count(&m), 1); // i64::MIN + 1
}

/// The number of triples of `values` where `holds`.
fn brute3(values: &[i64], holds: impl Fn(i64, i64, i64) -> bool) -> u64 {
    let mut n = 0;
    for &a in values {
        for &b in values {
            for &c in values {
                n += u64::from(holds(a, b, c));
            }
        }
    }
    n
}

#[test]
fn local_search_finds_products() {
    let mut m = Model::new();
    let x = m.var(1..=12i64);
    let y = m.var(1..=12i64);
    m.times(&x, &y, 12);
    m.max([&x, &y], 4);
    for seed in 0..5 {
        let found = m
            .solve(Engine::Local)
            .seed(seed)
            .limits(Limits::new().nodes(100_000))
            .first()
            .unwrap()
            .expect("a solution within the steps");
        m.check(&found).unwrap();
        let (a, b) = (*found.value(&x), *found.value(&y));
        assert!(a * b == 12 && a.max(b) == 4, "{a} * {b}");
    }
}

#[test]
fn invalid_arguments_make_the_model_invalid() {
    let solve = |m: &Model<'_>| m.solve(Engine::Trail).count().map(|s| s.solutions);
    let mut m = Model::new();
    let z = m.var(0..3i64);
    m.min(Vec::<i64>::new(), &z);
    assert!(matches!(solve(&m), Err(SearchError::InvalidModel(e)) if e.contains("no item")));
    let mut other = Model::new();
    let foreign = other.var(0..3i64);
    let mut m = Model::new();
    let i = m.var(0..3i64);
    m.element(&i, [&foreign], 1);
    assert!(matches!(solve(&m), Err(SearchError::InvalidModel(e)) if e.contains("another model")));
    let mut m = Model::new();
    let big = m.var([u64::MAX]);
    m.abs(&big, 1);
    assert!(matches!(solve(&m), Err(SearchError::InvalidModel(e)) if e.contains("i64")));
}

// ---- random small models: both engines against a brute force ----

/// An argument: one of the model's variables, or a constant.
#[derive(Clone, Debug)]
enum A {
    Var(usize),
    Const(i64),
}

#[derive(Clone, Debug)]
enum Spec {
    /// 0 times, 1 div, 2 rem, 3 pow, 4 pow_reciprocal.
    Binary(u8, A, A, A),
    Abs(A, A),
    Extreme(bool, Vec<A>, A),
    Element(A, i64, Vec<A>, A),
    Element2d(A, A, Vec<Vec<A>>, A),
}

#[derive(Clone, Debug)]
struct ModelSpec {
    lists: Vec<Vec<i64>>,
    specs: Vec<Spec>,
}

fn list() -> impl Strategy<Value = Vec<i64>> {
    prop_oneof![
        (-4i64..=3, 1i64..=5).prop_map(|(low, n)| (low..low + n).collect()),
        // Repeating, falling, mixed.
        proptest::collection::vec(-5i64..=5, 1..=5),
        Just(vec![i64::MIN, -2, 0, 2, i64::MAX]),
    ]
}

fn arg(vars: usize) -> impl Strategy<Value = A> {
    prop_oneof![3 => (0..vars).prop_map(A::Var), 1 => (-4i64..=4).prop_map(A::Const)]
}

fn spec(vars: usize) -> impl Strategy<Value = Spec> {
    let a = || arg(vars);
    let items = || proptest::collection::vec(arg(vars), 1..=3);
    prop_oneof![
        (0u8..5, a(), a(), a()).prop_map(|(op, x, y, z)| Spec::Binary(op, x, y, z)),
        (a(), a()).prop_map(|(x, z)| Spec::Abs(x, z)),
        (any::<bool>(), items(), a()).prop_map(|(g, xs, z)| Spec::Extreme(g, xs, z)),
        (
            a(),
            -1i64..=1,
            proptest::collection::vec(arg(vars), 0..=4),
            a()
        )
            .prop_map(|(i, o, xs, r)| Spec::Element(i, o, xs, r)),
        (a(), a(), proptest::collection::vec(items(), 0..=3), a())
            .prop_map(|(r, c, t, x)| Spec::Element2d(r, c, t, x)),
    ]
}

fn model_spec() -> impl Strategy<Value = ModelSpec> {
    (1usize..=4).prop_flat_map(|vars| {
        (
            proptest::collection::vec(list(), vars),
            proptest::collection::vec(spec(vars), 1..=2),
        )
            .prop_map(|(lists, specs)| ModelSpec { lists, specs })
    })
}

/// The value of `a` under `values`.
fn value(a: &A, values: &[i64]) -> i64 {
    match a {
        A::Var(v) => values[*v],
        A::Const(c) => *c,
    }
}

/// `x^y` for `y >= 0` over `i128`, `None` beyond it (then beyond every `i64` too).
fn power(x: i128, y: i64) -> Option<i128> {
    if x.abs() <= 1 {
        return Some(if y == 0 {
            1
        } else if x == -1 && y % 2 == 1 {
            -1
        } else {
            x.abs()
        });
    }
    let mut p: i128 = 1;
    for _ in 0..y.min(200) {
        p = p.checked_mul(x)?;
    }
    Some(p)
}

/// Whether `spec` holds under `values`, computed here, apart from the library.
fn holds(spec: &Spec, values: &[i64]) -> bool {
    let v = |a: &A| value(a, values);
    match spec {
        Spec::Binary(op, x, y, z) => {
            let (a, b, c) = (i128::from(v(x)), v(y), i128::from(v(z)));
            let b128 = i128::from(b);
            match op {
                0 => a * b128 == c,
                1 => b != 0 && a / b128 == c,
                2 => b != 0 && a % b128 == c,
                3 => b >= 0 && power(a, b) == Some(c),
                _ if b >= 0 => power(a, b) == Some(c),
                // 1 / x^-y, truncated.
                _ => {
                    let reciprocal = match a {
                        1 => 1,
                        -1 if b % 2 != 0 => -1,
                        -1 => 1,
                        _ => 0,
                    };
                    a != 0 && reciprocal == c
                }
            }
        }
        Spec::Abs(x, z) => i128::from(v(x)).abs() == i128::from(v(z)),
        Spec::Extreme(greatest, xs, z) => {
            let items = xs.iter().map(v);
            let e = if *greatest { items.max() } else { items.min() };
            e == Some(v(z))
        }
        Spec::Element(i, offset, xs, r) => {
            let p = i128::from(v(i)) - i128::from(*offset);
            usize::try_from(p)
                .ok()
                .and_then(|p| xs.get(p))
                .is_some_and(|e| v(e) == v(r))
        }
        Spec::Element2d(row, col, t, r) => usize::try_from(v(row))
            .ok()
            .and_then(|a| t.get(a))
            .and_then(|line| line.get(usize::try_from(v(col)).ok()?))
            .is_some_and(|e| v(e) == v(r)),
    }
}

fn build(spec: &ModelSpec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    let arg = |a: &A| match a {
        A::Var(i) => IntArg::from(&vars[*i]),
        A::Const(c) => IntArg::from(*c),
    };
    let args = |xs: &[A]| xs.iter().map(arg).collect::<Vec<IntArg>>();
    for s in &spec.specs {
        match s {
            Spec::Binary(op, x, y, z) => {
                let (x, y, z) = (arg(x), arg(y), arg(z));
                match op {
                    0 => m.times(x, y, z),
                    1 => m.div(x, y, z),
                    2 => m.rem(x, y, z),
                    3 => m.pow(x, y, z),
                    _ => m.pow_reciprocal(x, y, z),
                }
            }
            Spec::Abs(x, z) => m.abs(arg(x), arg(z)),
            Spec::Extreme(true, xs, z) => m.max(args(xs), arg(z)),
            Spec::Extreme(false, xs, z) => m.min(args(xs), arg(z)),
            Spec::Element(i, offset, xs, r) => m.element_offset(arg(i), *offset, args(xs), arg(r)),
            Spec::Element2d(row, col, t, r) => {
                m.element2d(arg(row), arg(col), t.iter().map(|line| args(line)), arg(r))
            }
        }
    }
    m
}

proptest! {
    #![proptest_config(differential::cases(400))]

    #[test]
    fn engines_agree_with_brute_force(spec in model_spec()) {
        let model = build(&spec);
        prop_assert_eq!(model.error(), None);
        let expected = differential::brute_force_values(&spec.lists, |values| {
            spec.specs.iter().all(|s| holds(s, values))
        });
        for engine in ENGINES {
            let got = differential::sorted_solutions(&model, engine, Search::new());
            prop_assert_eq!(&got, &expected, "{:?}", engine);
        }
    }
}
