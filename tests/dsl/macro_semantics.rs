//! What `constraints!` builds and how it checks: classification of each `require`, early
//! checking against checking at the end, captured values, arrays and loops.

use ambsolve::{Checking, Engine, constraints};

fn describe(model: &ambsolve::Model<'_>) -> String {
    format!("{model:?}")
}

#[test]
fn each_require_becomes_the_strongest_fitting_constraint() {
    let n = 4;
    let puzzle = constraints! {
        let q[n] = amb(0..n);
        let x = amb(0..10);
        let y = amb(0..10);
        let word = amb(["ant", "bee"]);
        require all_different(q);                      // all-different
        require all_different(q[i] + i for i in 0..n); // all-different with offsets
        require x + 2 * y == 9;                        // linear
        require x != 3;                                // one choice: a restriction, no constraint
        require word.len() == 3 && q[0] < q[1];        // a restriction and a predicate
        require x < y;                                 // two integer choices compared: linear
    };
    insta::assert_snapshot!(describe(puzzle.model()), @r#"Model { vars: ["q[0]", "q[1]", "q[2]", "q[3]", "x", "y", "word"], constraints: [all_different over 4 variables, all_different over 4 variables, linear sum of 2 terms Eq 9, linear sum of 2 terms Lt 0, linear sum of 2 terms Lt 0], objective: None, error: None }"#);
    let solutions: Vec<_> = puzzle.solutions().collect();
    assert!(!solutions.is_empty());
    for s in &solutions {
        assert!(s.x + 2 * s.y == 9 && s.x != 3 && s.x < s.y && s.q[0] < s.q[1]);
    }
    // x + 2y = 9, x < y, x != 3: (1, 4) only; q: 2 × 3 permutations-with-offsets... counted
    // against a brute force below.
    let brute = (0..n)
        .flat_map(|a| {
            (0..n).flat_map(move |b| (0..n).flat_map(move |c| (0..n).map(move |d| [a, b, c, d])))
        })
        .filter(|q| {
            (0..4).all(|i| (i + 1..4).all(|j| q[i] != q[j] && q[i] + i != q[j] + j)) && q[0] < q[1]
        })
        .count();
    let xy = (0..10)
        .flat_map(|x| (0..10).map(move |y| (x, y)))
        .filter(|&(x, y)| x + 2 * y == 9 && x != 3 && x < y)
        .count();
    assert_eq!(solutions.len(), brute * xy * 2);
}

#[test]
fn early_checking_visits_orders_of_magnitude_fewer_nodes() {
    let n = 8;
    let queens = constraints! {
        let q[n] = amb(0..n);
        require all_different(q);
        require all_different(q[i] + i for i in 0..n);
        require all_different(q[i] - i for i in 0..n);
    };
    for engine in [Engine::Replay, Engine::Trail] {
        let early = queens.solver().count().unwrap();
        let queens = constraints! {
            let q[n] = amb(0..n);
            require all_different(q);
            require all_different(q[i] + i for i in 0..n);
            require all_different(q[i] - i for i in 0..n);
        }
        .engine(engine);
        let early_here = queens.count().unwrap();
        let at_end = queens.checking(Checking::AtEnd).count().unwrap();
        assert_eq!(
            (early.solutions, early_here.solutions, at_end.solutions),
            (92, 92, 92)
        );
        let ratio = at_end.stats.nodes as f64 / early_here.stats.nodes as f64;
        assert!(
            ratio > 1000.0,
            "{engine:?}: early {} nodes, at the end {}",
            early_here.stats.nodes,
            at_end.stats.nodes
        );
        eprintln!(
            "{engine:?}: early {} nodes, at the end {} nodes ({ratio:.0}×)",
            early_here.stats.nodes, at_end.stats.nodes
        );
    }
}

#[test]
fn the_replay_engine_checks_each_constraint_right_after_its_last_choice() {
    // The JavaScript ambRun order: a run fails as soon as a constraint over the choices
    // made so far fails. With the check between w1 and w2 only, w3 and w4 are never
    // chosen on a path where w1 and w2 do not link.
    let linked = |a: &str, b: &str| a.ends_with(&b[..1]);
    let chain = constraints! {
        let w1 = amb(["the", "that", "a"]);
        let w2 = amb(["frog", "elephant", "thing"]);
        let w3 = amb(["walked", "treaded", "grows"]);
        let w4 = amb(["slowly", "quickly"]);
        require linked(w1, w2);
        require linked(w2, w3);
        require linked(w3, w4);
    }
    .engine(Engine::Replay);
    let early = chain.count().unwrap();
    let at_end = chain.checking(Checking::AtEnd).count().unwrap();
    assert_eq!((early.solutions, at_end.solutions), (1, 1));
    // Checked at the end, every one of the 3 × 3 × 3 × 2 paths runs to the end.
    assert_eq!(at_end.stats.runs, 54);
    // Checked early: the 9 (w1, w2) pairs, then only linked pairs go on.
    assert!(early.stats.runs < 20, "{}", early.stats);
}

#[test]
fn values_come_from_the_surrounding_scope() {
    let words = vec!["apple".to_string(), "egg".to_string(), "grape".to_string()];
    let minimum = 4;
    let puzzle = constraints! {
        let a = amb(&words);
        let b = amb(&words);
        require a != b;
        require a.len() + b.len() > minimum && a.ends_with(&b[..1]);
    };
    let pairs: Vec<(String, String)> = puzzle
        .solutions()
        .map(|s| (s.a.clone(), s.b.clone()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("apple".to_string(), "egg".to_string()),
            ("egg".to_string(), "grape".to_string()),
            ("grape".to_string(), "egg".to_string())
        ]
    );
    // The words are borrowed, not moved: still usable here.
    assert_eq!(words.len(), 3);
}

#[test]
fn arrays_loops_ifs_and_lets() {
    let givens = [[1u8, 0, 0], [0, 0, 0], [0, 0, 3]];
    let puzzle = constraints! {
        let size = 3;
        let g[size][size] = amb(1..=3u8);
        let labels[i < size] = amb([format!("row {i}"), format!("line {i}")]);
        for r in 0..size {
            require all_different(g[r][c] for c in 0..size);
            require all_different(g[c][r] for c in 0..size);
            if r == 0 {
                require labels[r] == "row 0";
            } else {
                require labels[r].starts_with("line");
            }
        }
        for r in 0..size {
            for c in 0..size {
                if givens[r][c] != 0 {
                    require g[r][c] == givens[r][c];
                }
            }
        }
    };
    let solutions: Vec<_> = puzzle.solutions().collect();
    // Of the 4 Latin squares of order 3 with g[0][0] = 1 (rows 123/231/312, 123/312/231,
    // 132/213/321, 132/321/213) only the last has g[2][2] = 3; one labelling.
    assert_eq!(solutions.len(), 1);
    for s in &solutions {
        assert_eq!(s.g[0][0], 1);
        assert_eq!(s.g[2][2], 3);
        assert_eq!(s.labels, ["row 0", "line 1", "line 2"]);
    }
    assert_eq!(solutions[0].g, [[1, 3, 2], [3, 2, 1], [2, 1, 3]]);
    assert_eq!(puzzle.engine(Engine::Replay).count().unwrap().solutions, 1);
}

#[test]
fn sums_over_comprehensions_are_linear() {
    let weights = [3, 5, 7];
    let knapsack = constraints! {
        let take[3] = amb(0..=4);
        require sum(weights[i] * take[i] for i in 0..3) == 20;
        require sum(take[i] for i in 0..3) <= 4;
    };
    let mut found: Vec<Vec<i32>> = knapsack.solutions().map(|s| s.take).collect();
    found.sort();
    let mut expected = Vec::new();
    for a in 0..=4 {
        for b in 0..=4 {
            for c in 0..=4 {
                if 3 * a + 5 * b + 7 * c == 20 && a + b + c <= 4 {
                    expected.push(vec![a, b, c]);
                }
            }
        }
    }
    assert_eq!(found, expected);
    assert!(describe(knapsack.model()).contains("linear sum of 3 terms Eq 20"));
}

#[test]
fn solutions_are_typed_structs() {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    enum Colour {
        Red,
        Green,
    }
    let puzzle = constraints! {
        let colour = amb([Colour::Red, Colour::Green]);
        let count = amb(1..=2u8);
        require colour == Colour::Green || count == 2;
        require colour != Colour::Red || count > 1;
    };
    let first = puzzle.first().unwrap().unwrap();
    assert_eq!((first.colour, first.count), (Colour::Red, 2));
    // The struct derives Debug, Clone, PartialEq, Eq, Hash and Ord for its fields' types.
    let all: std::collections::BTreeSet<_> = puzzle.solutions().collect();
    assert_eq!(all.len(), 3);
    insta::assert_snapshot!(format!("{first:?}"), @"Solution { colour: Red, count: 2 }");
}

#[test]
fn called_functions_are_captured_by_value() {
    fn linked<S: AsRef<str>>(a: S, b: S) -> bool {
        a.as_ref().chars().last() == b.as_ref().chars().next()
    }
    // A generic function, and a local closure used by two constraints of a puzzle that
    // outlives it (it is copied in, not borrowed).
    fn puzzle() -> ambsolve::Puzzle<'static, (i32, i32, &'static str, &'static str)> {
        let near = |a: i32, b: i32| (a - b).abs() == 1;
        constraints! {
            let x = amb(0..5);
            let y = amb(0..5);
            let a = amb(["ant", "tea", "eel"]);
            let b = amb(["ant", "tea", "eel"]);
            require near(x, y) && x < y;
            require near(y, x + 2) || x == y;
            require linked(a, b);
        }
        .map(|s| (s.x, s.y, s.a, s.b))
    }
    let solutions: Vec<_> = puzzle().solutions().collect();
    let pairs = [(0, 1), (1, 2), (2, 3), (3, 4)].len();
    let chains = solutions.iter().filter(|s| (s.0, s.1) == (0, 1)).count();
    assert_eq!(chains, 2, "ant-tea and tea-ant... {solutions:?}");
    assert_eq!(solutions.len(), pairs * 2);
}

#[test]
fn comparing_two_choices_means_the_same_as_a_predicate_whatever_the_values() {
    // Integers that fit in an i64 become a linear constraint; u64 values above i64::MAX,
    // and values that are not integers, stay a predicate. The answers are Rust's.
    let wide = constraints! {
        let x = amb([u64::MAX - 1, u64::MAX, 3]);
        let y = amb([0u64, u64::MAX, 4]);
        require x < y;
    };
    let words = constraints! {
        let a = amb(["ant", "bee", "cat"]);
        let b = amb(["bee", "ant"]);
        require a < b;
    };
    let small = constraints! {
        let x = amb(-3i16..=3);
        let y = amb(0i16..=2);
        require x >= y;
    };
    for engine in [Engine::Trail, Engine::Replay] {
        let pairs: Vec<(u64, u64)> = wide
            .clone()
            .engine(engine)
            .solutions()
            .map(|s| (s.x, s.y))
            .collect();
        assert_eq!(
            pairs,
            [(u64::MAX - 1, u64::MAX), (3, u64::MAX), (3, 4)],
            "{engine}"
        );
        let pairs: Vec<(&str, &str)> = words
            .clone()
            .engine(engine)
            .solutions()
            .map(|s| (s.a, s.b))
            .collect();
        assert_eq!(pairs, [("ant", "bee")], "{engine}");
        let count = small.clone().engine(engine).count().unwrap().solutions;
        let brute = (-3i16..=3)
            .flat_map(|x| (0i16..=2).map(move |y| (x, y)))
            .filter(|(x, y)| x >= y)
            .count() as u64;
        assert_eq!(count, brute, "{engine}");
    }
    assert!(format!("{:?}", small.model()).contains("linear sum of 2 terms Ge 0"));
    assert!(format!("{:?}", wide.model()).contains("predicate over 2 variables"));
}
