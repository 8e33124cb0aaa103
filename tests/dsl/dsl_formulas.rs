//! Conditions and objectives that `constraints!` flattens into propagating constraints
//! (logic over comparisons, exact arithmetic, lookups at chosen indices, sums and counts)
//! mean exactly what they meant as predicates: each is built both ways (formulas, and
//! predicates only), solved on both engines, and compared solution by solution with each
//! other and with a brute force over exact integers.

use std::fmt::Debug;

use ambsolve::__private::dsl::predicates_only;
use ambsolve::{Engine, Puzzle, constraints};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

/// The puzzle of a body twice: flattened where it can be, and with every condition that
/// has a predicate built as that predicate; both mapped to the same view.
macro_rules! both {
    ($view:expr; $($body:tt)*) => {{
        let formulas = constraints! { $($body)* }.map($view);
        predicates_only(true);
        let predicates = constraints! { $($body)* }.map($view);
        predicates_only(false);
        (formulas, predicates)
    }};
}

/// Every solution of `puzzle` on `engine`, sorted.
fn sorted<S: Ord>(puzzle: &Puzzle<'_, S>, engine: Engine) -> Vec<S> {
    let mut all: Vec<S> = puzzle
        .clone()
        .engine(engine)
        .try_solutions()
        .map(|s| s.unwrap_or_else(|e| panic!("{engine:?}: {e}")))
        .collect();
    all.sort();
    all
}

/// Both puzzles have the `expected` solutions (sorted) on both engines, and the first
/// has no predicate left (it propagates).
fn agree<S: Ord + Debug>((formulas, predicates): &(Puzzle<'_, S>, Puzzle<'_, S>), expected: &[S]) {
    let model = format!("{:?}", formulas.model());
    assert!(!model.contains("predicate"), "not flattened: {model}");
    for engine in ENGINES {
        assert_eq!(sorted(formulas, engine), expected, "formulas on {engine:?}");
        assert_eq!(
            sorted(predicates, engine),
            expected,
            "predicates on {engine:?}"
        );
    }
}

/// The pairs of `xs × ys` (in order) for which `holds`.
fn pairs<A: Copy + Ord, B: Copy + Ord>(
    xs: impl IntoIterator<Item = A>,
    ys: impl IntoIterator<Item = B> + Clone,
    holds: impl Fn(A, B) -> bool,
) -> Vec<(A, B)> {
    let mut out: Vec<(A, B)> = xs
        .into_iter()
        .flat_map(|x| ys.clone().into_iter().map(move |y| (x, y)))
        .filter(|&(x, y)| holds(x, y))
        .collect();
    out.sort();
    out
}

#[test]
fn logic_over_comparisons_means_what_it_says() {
    let puzzles = both!(|s| (s.x, s.y);
        let x = amb(-3..=3i64);
        let y = amb(-3..=3i32);
        require (x < y) || (y + 3 < x);
        require (x > 0) -> (y != 0);
        require !(x == 1) <-> (x + y > -2) || x == 2;
        require (x > 2) ^ (y > 2) || x < 3;
    );
    let expected = pairs(-3..=3i64, -3..=3i32, |x, y| {
        let y = i64::from(y);
        (x < y || y + 3 < x)
            && (x <= 0 || y != 0)
            && ((x != 1) == (x + y > -2 || x == 2))
            && (((x > 2) ^ (y > 2)) || x < 3)
    });
    agree(&puzzles, &expected);
}

#[test]
fn implication_nests_to_the_right_and_iff_binds_least() {
    let puzzles = both!(|s| (s.a, s.b, s.c);
        let a = amb([false, true]);
        let b = amb([false, true]);
        let c = amb([false, true]);
        require a -> b -> c;
        require a -> b <-> c;
    );
    let mut expected = Vec::new();
    for a in [false, true] {
        for b in [false, true] {
            for c in [false, true] {
                if (!a || (!b || c)) && ((!a || b) == c) {
                    expected.push((a, b, c));
                }
            }
        }
    }
    agree(&puzzles, &expected);
}

#[test]
fn a_boolean_choice_reifies_a_comparison() {
    let puzzles = both!(|s| (s.b, s.x, s.y);
        let b = amb([false, true]);
        let x = amb(0..6i64);
        let y = amb(0..6u8);
        require b == (x + y <= 5);
        require (x < y) == b || x == 0;
    );
    let mut expected = Vec::new();
    for b in [false, true] {
        for x in 0..6i64 {
            for y in 0..6u8 {
                let y64 = i64::from(y);
                if b == (x + y64 <= 5) && ((x < y64) == b || x == 0) {
                    expected.push((b, x, y));
                }
            }
        }
    }
    agree(&puzzles, &expected);
    // The reified form prunes: fixing b = false leaves x + y > 5 only.
    let (formulas, _) = &puzzles;
    assert!(format!("{:?}", formulas.model()).contains("Full-reified linear"));
}

#[test]
fn products_quotients_remainders_and_powers_are_exact_with_undefined_false() {
    let puzzles = both!(|s| (s.x, s.y, s.z);
        let x = amb(0..6u8);
        let y = amb(-3..=3i64);
        let z = amb(0..12usize);
        require x * y == z - 3 || x / y == 1;
        require x % y != 1;
        require abs(y - 2) <= x || pow(y, 2) == z;
        require min(x, z) + max(y, 1) >= 2 && x.pow(2) != z;
    );
    let mut expected = Vec::new();
    for x in 0..6u8 {
        for y in -3..=3i64 {
            for z in 0..12usize {
                let (xi, yi, zi) = (i128::from(x), i128::from(y), z as i128);
                let quotient = (yi != 0).then(|| xi / yi);
                let remainder = (yi != 0).then(|| xi % yi);
                let holds = (xi * yi == zi - 3 || quotient == Some(1))
                    && remainder.is_some_and(|r| r != 1)
                    && ((yi - 2).abs() <= xi || yi * yi == zi)
                    && xi.min(zi) + yi.max(1) >= 2
                    && xi * xi != zi;
                if holds {
                    expected.push((x, y, z));
                }
            }
        }
    }
    agree(&puzzles, &expected);
}

#[test]
fn a_division_by_zero_under_not_is_true() {
    let puzzles = both!(|s| (s.x, s.y);
        let x = amb(-4..=4i64);
        let y = amb(-2..=2i64);
        require !(x / y == 2);
        require !(x % y == 0) || x > 2;
    );
    let expected = pairs(-4..=4i64, -2..=2i64, |x, y| {
        let div = (y != 0).then(|| x / y);
        let rem = (y != 0).then(|| x % y);
        div != Some(2) && (rem != Some(0) || x > 2)
    });
    agree(&puzzles, &expected);
}

#[test]
fn values_near_the_ends_of_i64_are_exact_or_kept_as_predicates() {
    let big = [i64::MIN, i64::MIN + 1, -1, i64::MAX - 1, i64::MAX];
    let (formulas, predicates) = both!(|s| (s.x, s.y);
        let x = amb(big);
        let y = amb([-1i64, 1, 2]);
        require x / y != x || y == 1;
        require (x < 0) -> (x % y == 0 || y == 2);
    );
    let expected = pairs(big, [-1i64, 1, 2], |x, y| {
        let (x, y) = (i128::from(x), i128::from(y));
        (x / y != x || y == 1) && (x >= 0 || x % y == 0 || y == 2)
    });
    for engine in ENGINES {
        assert_eq!(
            sorted(&formulas, engine),
            expected,
            "formulas on {engine:?}"
        );
        assert_eq!(
            sorted(&predicates, engine),
            expected,
            "predicates on {engine:?}"
        );
    }
    // i64::MIN / -1 does not fit in an i64: that condition stays a predicate, the other
    // propagates.
    let model = format!("{:?}", formulas.model());
    assert_eq!(model.matches("predicate").count(), 1, "{model}");
}

#[test]
fn conditions_over_other_types_stay_predicates() {
    let words = constraints! {
        let a = amb(["ant", "bee"]);
        let b = amb(["ant", "bee"]);
        require (a == "ant") -> (b == "bee");
        require (a.len() == 3) <-> (b != "cow");
    };
    assert_eq!(words.count().unwrap().solutions, 3);
    let model = format!("{:?}", words.model());
    assert!(model.contains("predicate"), "{model}");
}

#[test]
fn sums_and_counts_of_comparisons() {
    let n = 4;
    let puzzle = constraints! {
        let x[n] = amb(0..4i64);
        require sum(x[i] == 3 for i in 0..n) <= 1;
        require sum((x[i] == 0) as i64 for i in 0..n) == 1;
        require count(x[i] > x[i + 1] for i in 0..n - 1) >= 1;
    }
    .map(|s| s.x);
    let mut expected = Vec::new();
    for code in 0..4i64.pow(4) {
        let x: Vec<i64> = (0..4).map(|i| code / 4i64.pow(i) % 4).collect();
        let threes = x.iter().filter(|&&v| v == 3).count();
        let zeros = x.iter().filter(|&&v| v == 0).count();
        let falls = x.windows(2).filter(|w| w[0] > w[1]).count();
        if threes <= 1 && zeros == 1 && falls >= 1 {
            expected.push(x);
        }
    }
    expected.sort();
    for engine in ENGINES {
        assert_eq!(sorted(&puzzle, engine), expected, "{engine:?}");
    }
}

#[test]
fn lookups_at_chosen_indices_anywhere() {
    let n = 4;
    let dist = vec![
        vec![0i64, 3, 5, 2],
        vec![3, 0, 4, 7],
        vec![5, 4, 0, 6],
        vec![2, 7, 6, 0],
    ];
    let cost = [[1i64, 4, 2, 8], [3, 3, 1, 2], [5, 1, 2, 2], [2, 6, 1, 3]];
    // A path visiting every city once (by i64 choices, a static lookup), at most 12 long.
    let tour = constraints! {
        let x[n] = amb(0..4i64);
        require all_different(x);
        require sum(dist[x[i]][x[i + 1]] for i in 0..n - 1) <= 12;
        require count(cost[0][x[0]] * x[1] == 4) == 0;
    }
    .map(|s| s.x);
    let mut expected = Vec::new();
    for code in 0..4usize.pow(4) {
        let x: Vec<usize> = (0..4).map(|i| code / 4usize.pow(i as u32) % 4).collect();
        let distinct = (0..4).all(|i| (i + 1..4).all(|j| x[i] != x[j]));
        let length: i64 = (0..3).map(|i| dist[x[i]][x[i + 1]]).sum();
        if distinct && length <= 12 && cost[0][x[0]] * x[1] as i64 != 4 {
            expected.push(x.iter().map(|&v| v as i64).collect::<Vec<i64>>());
        }
    }
    expected.sort();
    for engine in ENGINES {
        assert_eq!(sorted(&tour, engine), expected, "{engine:?}");
    }
    // Over usize choices the same lookups also read as Rust: both builds agree.
    let puzzles = both!(|s| (s.a, s.b);
        let a = amb(0..5usize);
        let b = amb(0..4usize);
        require dist[a][b] + dist[b][a] >= 8 || cost[b][a] == 1;
    );
    let expected = pairs(0..5usize, 0..4usize, |a, b| {
        let d = |i: usize, j: usize| dist.get(i).and_then(|r| r.get(j)).copied();
        let c = cost.get(b).and_then(|r| r.get(a)).copied();
        // An index outside a table makes the comparison false.
        d(a, b).zip(d(b, a)).is_some_and(|(p, q)| p + q >= 8) || c == Some(1)
    });
    // (a = 4 reads past dist's rows: the predicate would panic there, so only the
    // formulas are compared with the brute force.)
    for engine in ENGINES {
        assert_eq!(sorted(&puzzles.0, engine), expected, "{engine:?}");
    }
}

#[test]
fn an_array_of_choices_read_at_a_chosen_index() {
    let puzzle = constraints! {
        let q[3] = amb(0..4i64);
        let k = amb(0..4usize);
        require q[k] * q[0] == 2 || q[k] - k == 3;
    }
    .map(|s| (s.q, s.k));
    let mut expected = Vec::new();
    for code in 0..4i64.pow(3) {
        let q: Vec<i64> = (0..3).map(|i| code / 4i64.pow(i) % 4).collect();
        for k in 0..4usize {
            let holds = q
                .get(k)
                .is_some_and(|&v| v * q[0] == 2 || v - k as i64 == 3);
            if holds {
                expected.push((q.clone(), k));
            }
        }
    }
    expected.sort();
    for engine in ENGINES {
        assert_eq!(sorted(&puzzle, engine), expected, "{engine:?}");
    }
}

#[test]
fn functions_of_whole_arrays_and_order_globals() {
    let n = 4;
    let puzzle = constraints! {
        let x[n] = amb(0..4i64);
        require increasing(x);
        require count(x, 2) == 1;
        require nvalue(x) == 3;
        require sum(x) - min(x) * max(x) >= 0;
    }
    .map(|s| s.x);
    let mut expected = Vec::new();
    for code in 0..4i64.pow(4) {
        let x: Vec<i64> = (0..4).map(|i| code / 4i64.pow(i) % 4).collect();
        let mut distinct = x.clone();
        distinct.sort();
        distinct.dedup();
        let (lo, hi) = (*x.iter().min().unwrap(), *x.iter().max().unwrap());
        if x.windows(2).all(|w| w[0] <= w[1])
            && x.iter().filter(|&&v| v == 2).count() == 1
            && distinct.len() == 3
            && x.iter().sum::<i64>() - lo * hi >= 0
        {
            expected.push(x);
        }
    }
    expected.sort();
    for engine in ENGINES {
        assert_eq!(sorted(&puzzle, engine), expected, "{engine:?}");
    }
}

#[test]
fn objectives_that_are_not_linear() {
    let product = constraints! {
        let x = amb(0..10i64);
        let y = amb(0..10u8);
        require x + y <= 7;
        maximize x * y;
    };
    let quotient = constraints! {
        let x = amb(-5..=5i64);
        let y = amb(-2..=2i64);
        minimize abs(x - 3) + x / y - count(x > y, y > 0);
    };
    let expected = (-5..=5i64)
        .flat_map(|x| (-2..=2i64).map(move |y| (x, y)))
        .filter(|&(_, y)| y != 0) // the objective is undefined there: ruled out
        .map(|(x, y)| (x - 3).abs() + x / y - i64::from(x > y) - i64::from(y > 0))
        .min();
    for engine in ENGINES {
        let best = product.clone().engine(engine).best().unwrap();
        assert_eq!(
            (best.objective, best.proved),
            (Some(12), true),
            "{engine:?}"
        );
        let best = quotient.clone().engine(engine).best().unwrap();
        assert_eq!(best.objective, expected, "{engine:?}");
    }
}

#[test]
fn several_objectives_are_optimised_in_order() {
    // minimize (a, b, c): the smallest spread, then among those the largest weighted
    // sum (a formula's objective after a linear one), then the smallest z.
    let weights = [3i64, -1, 2];
    let puzzle = constraints! {
        let v[3] = amb(0..4i64);
        require v[0] + v[1] + v[2] >= 4;
        require v[0] != v[2];
        minimize (
            max(v[0], v[1], v[2]) - min(v[0], v[1], v[2]),
            -sum(weights[i] * v[i] for i in 0..3),
            v[2],
        );
    };
    let values_at = |v: &[i64]| {
        let spread = v.iter().max().unwrap() - v.iter().min().unwrap();
        let weighted: i64 = weights.iter().zip(v).map(|(w, x)| w * x).sum();
        vec![spread, -weighted, v[2]]
    };
    let values = (0..64i64)
        .map(|k| [k % 4, k / 4 % 4, k / 16])
        .filter(|v| v.iter().sum::<i64>() >= 4 && v[0] != v[2])
        .map(|v| values_at(&v))
        .min()
        .expect("a solution");
    for engine in ENGINES {
        let mut last: Option<Vec<i64>> = None;
        for improvement in puzzle.clone().engine(engine).improving() {
            if let Some(last) = &last {
                assert!(improvement.objectives < *last, "{engine:?}");
            }
            last = Some(improvement.objectives);
        }
        let best = puzzle.clone().engine(engine).best().unwrap();
        assert!(best.proved, "{engine:?}");
        assert_eq!(best.objectives, values, "{engine:?}");
        let solution = best.solution.expect("a solution").v;
        assert_eq!(values_at(&solution), values, "{engine:?}");
        assert_eq!(last, Some(values.clone()), "{engine:?}");
    }
}

#[test]
fn a_tour_written_in_the_dsl_is_the_shortest() {
    // circuit over successors, the length a sum of lookups at chosen indices.
    let dist = [
        [0i64, 7, 3, 9, 4, 6],
        [7, 0, 5, 2, 8, 3],
        [3, 5, 0, 6, 2, 9],
        [9, 2, 6, 0, 5, 4],
        [4, 8, 2, 5, 0, 7],
        [6, 3, 9, 4, 7, 0],
    ];
    let n = dist.len();
    let tour = constraints! {
        let succ[n] = amb(0..n);
        require circuit(succ);
        minimize sum(dist[i][succ[i]] for i in 0..n);
    };
    // Every order of the cities 1..n after city 0.
    fn orders(rest: Vec<usize>) -> Vec<Vec<usize>> {
        if rest.is_empty() {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for (k, &city) in rest.iter().enumerate() {
            let mut others = rest.clone();
            others.remove(k);
            for mut tail in orders(others) {
                tail.insert(0, city);
                out.push(tail);
            }
        }
        out
    }
    let shortest = orders((1..n).collect())
        .into_iter()
        .map(|order| {
            let cities: Vec<usize> = std::iter::once(0).chain(order).collect();
            (0..n)
                .map(|i| dist[cities[i]][cities[(i + 1) % n]])
                .sum::<i64>()
        })
        .min();
    for engine in ENGINES {
        let best = tour.clone().engine(engine).best().unwrap();
        assert_eq!(
            (best.objective, best.proved),
            (shortest, true),
            "{engine:?}"
        );
    }
    // The same with all_different_except and inverse: a permutation and its inverse.
    let inverse = constraints! {
        let f[4] = amb(0..4i64);
        let g[4] = amb(0..4i64);
        require inverse(f, g);
        require all_different_except(g, 0);
        require f[0] != 0;
    };
    // f a permutation of 0..4 with f[0] != 0: 18 of them.
    assert_eq!(inverse.count().unwrap().solutions, 18);
}
