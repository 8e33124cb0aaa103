//! One meaning for every condition: integer arithmetic over choices is exact (no wrap, no
//! overflow panic, signed and unsigned alike), whether `constraints!` compiles a condition
//! to a linear constraint, a domain restriction or a predicate, on both engines, in debug
//! and release builds. Each count is compared with a brute force over `i128`. Literals take
//! no type from their neighbours, and a constant out of range makes the model invalid.

use ambsolve::{Engine, Puzzle, SearchError, constraints};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

/// The pairs of `xs × ys` for which `holds` is true, on exact integers.
fn brute(xs: &[i128], ys: &[i128], holds: impl Fn(i128, i128) -> bool) -> u64 {
    xs.iter()
        .flat_map(|&x| ys.iter().map(move |&y| (x, y)))
        .filter(|&(x, y)| holds(x, y))
        .count() as u64
}

fn counts<S>(puzzle: &Puzzle<'_, S>) -> [u64; 2] {
    ENGINES.map(|engine| puzzle.clone().engine(engine).count().unwrap().solutions)
}

fn digits() -> Vec<i128> {
    (0..10).collect()
}

#[test]
fn a_difference_of_unsigned_choices_means_the_same_linear_or_not() {
    let expected = brute(&digits(), &digits(), |x, y| x - y < 2);
    assert_eq!(expected, 64);
    let linear = constraints! {
        let x = amb(0..10usize);
        let y = amb(0..10usize);
        require x - y < 2;
    };
    let predicate = constraints! {
        let x = amb(0..10usize);
        let y = amb(0..10usize);
        require !(x - y >= 2);
    };
    let or = constraints! {
        let x = amb(0..10usize);
        let y = amb(0..10usize);
        require x - y < 2 || x == 100;
    };
    assert_eq!(counts(&linear), [expected; 2]);
    assert_eq!(counts(&predicate), [expected; 2]);
    assert_eq!(counts(&or), [expected; 2]);
}

#[test]
fn remainders_products_quotients_and_abs_are_exact() {
    let d = digits();
    let remainder = constraints! {
        let x = amb(0..10usize);
        let y = amb(0..10usize);
        require (x - y) % 3 == 0;
    };
    assert_eq!(
        counts(&remainder),
        [brute(&d, &d, |x, y| (x - y) % 3 == 0); 2]
    );
    assert_eq!(counts(&remainder)[0], 34);

    let product = constraints! {
        let x = amb(0..10u8);
        let y = amb(0..10u8);
        require x * y - 20 > x + y;
    };
    assert_eq!(
        counts(&product),
        [brute(&d, &d, |x, y| x * y - 20 > x + y); 2]
    );

    let quotient = constraints! {
        let x = amb(0..10u32);
        let y = amb(0..10u32);
        require x / (y - 3) == 2;
    };
    // Dividing by zero (y = 3) makes the comparison false; division truncates toward zero.
    let expected = brute(&d, &d, |x, y| y != 3 && x / (y - 3) == 2);
    assert_eq!(counts(&quotient), [expected; 2]);

    let close = constraints! {
        let x = amb(0..10usize);
        let y = amb(0..10usize);
        require (x - y).abs() <= 1;
    };
    assert_eq!(
        counts(&close),
        [brute(&d, &d, |x, y| (x - y).abs() <= 1); 2]
    );

    let negated = constraints! {
        let x = amb(0..10u16);
        let y = amb(0..10u16);
        require -x + y == 3;
    };
    assert_eq!(counts(&negated), [brute(&d, &d, |x, y| -x + y == 3); 2]);
}

#[test]
fn mixed_types_conditionals_and_negations_are_exact() {
    let xs: Vec<i128> = (0..8).collect();
    let ys: Vec<i128> = (-4..4).collect();
    let mixed = constraints! {
        let x = amb(0..8u8);
        let y = amb(-4..4i64);
        require x + y < 2 && !(x * y == -4);
    };
    let expected = brute(&xs, &ys, |x, y| x + y < 2 && x * y != -4);
    assert_eq!(counts(&mixed), [expected; 2]);

    let branches = constraints! {
        let x = amb(0..8u8);
        let y = amb(-4..4i64);
        require (if x > 3 { x - 5 } else { y + 1 }) >= 0 || x % 2 == 1;
    };
    let expected = brute(&xs, &ys, |x, y| {
        (if x > 3 { x - 5 } else { y + 1 }) >= 0 || x % 2 == 1
    });
    assert_eq!(counts(&branches), [expected; 2]);
}

#[test]
fn a_restriction_on_one_choice_is_exact_too() {
    let restricted = constraints! {
        let x = amb(0..10usize);
        let y = amb(0..3usize);
        require x - 5 >= 1;
        require y == y;
    };
    assert_eq!(counts(&restricted), [4 * 3; 2]);
}

#[test]
fn values_near_the_ends_of_their_types_do_not_wrap() {
    let big = [u64::MAX - 1, u64::MAX];
    let wide = constraints! {
        let x = amb(big);
        let y = amb(big);
        require (x + y) / 2 >= y;
        require x * y % 2 == 0 || x > 0;
    };
    // (x + y) / 2 >= y holds for x >= y: 3 of the 4 pairs; no sum wraps.
    assert_eq!(counts(&wide), [3; 2]);
    // A linear constraint computes with i64 images: values beyond are refused, clearly.
    let linear = constraints! {
        let x = amb(big);
        let y = amb(big);
        require x + y > x;
    };
    let error = linear.count().unwrap_err().to_string();
    assert!(error.contains("does not fit in an i64"), "{error}");
    let small = constraints! {
        let x = amb([i8::MIN, -1, i8::MAX]);
        let y = amb([i8::MIN, i8::MAX]);
        require x - y == 1 || -x == 128;
    };
    // -1 - (-128) = 127, not 1; 127 - 127 = 0; -(-128) = 128 for both y.
    let xs = [-128, -1, 127];
    let ys = [-128, 127];
    assert_eq!(
        counts(&small),
        [brute(&xs, &ys, |x, y| x - y == 1 || -x == 128); 2]
    );
}

#[test]
fn floats_keep_their_rust_meaning_in_predicates() {
    let halves = constraints! {
        let x = amb([0.5f64, 1.5, 2.5]);
        let y = amb([0.25f64, 1.0]);
        require x + y <= 2.0;
    };
    // 0.5 + 0.25, 0.5 + 1.0, 1.5 + 0.25.
    assert_eq!(counts(&halves), [3; 2]);
}

#[test]
fn literals_take_no_type_from_their_neighbours() {
    let big = constraints! {
        let x = amb([1_000_000_000i64, 2_000_000_000, 3_000_000_000]);
        let y = amb([0i64, 1_000_000_000, 2_000_000_000]);
        require x + y >= 3000000000;
    };
    // Pairs with x + y >= 3e9: (1e9, 2e9), (2e9, 1e9), (2e9, 2e9), (3e9, *) = 6.
    for engine in ENGINES {
        assert_eq!(big.clone().engine(engine).count().unwrap().solutions, 6);
    }
}

#[test]
fn a_constant_out_of_range_makes_the_model_invalid() {
    let huge: i128 = i128::from(i64::MAX) * 4;
    let puzzle = constraints! {
        let x = amb(0..3i64);
        let y = amb(0..3i64);
        require x + y < huge;
    };
    let error = puzzle.count().unwrap_err();
    assert!(
        matches!(&error, SearchError::InvalidModel(m) if m.contains("does not fit in an i64")),
        "{error}"
    );
}
