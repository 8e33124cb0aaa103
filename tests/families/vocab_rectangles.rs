//! Rectangles (`diffn`, `diffn_nonstrict`): known answers, both engines (and learning)
//! against a brute force over small random models (with an independent reading of each
//! constraint: MiniZinc's decomposition), local search, the `constraints!` calls, and
//! arguments refused.
//!
//! More random cases:
//! `PROPTEST_CASES=5000 cargo test --release --test families vocab_rectangles::`.

use crate::common;

use common::differential::{self, Arg, count_both as count};

use ambsolve::{Engine, IntArg, Model, Var, constraints};
use proptest::prelude::*;

/// One rectangle: corner `x`, `y`, sizes `w` by `h`.
#[derive(Clone, Debug)]
struct Rect {
    x: Arg,
    y: Arg,
    w: Arg,
    h: Arg,
}

#[derive(Clone, Debug)]
struct Kind {
    rects: Vec<Rect>,
    nonstrict: bool,
}

#[derive(Clone, Debug)]
struct Spec {
    lists: Vec<Vec<i64>>,
    kinds: Vec<Kind>,
}

/// Whether rectangles `[x, y, w, h]` are pairwise apart: MiniZinc's `fzn_diffn` and
/// (`nonstrict`) `fzn_diffn_nonstrict`, read independently of the library.
fn all_apart(r: &[[i64; 4]], nonstrict: bool) -> bool {
    (0..r.len()).all(|i| {
        (i + 1..r.len()).all(|j| {
            let (a, b) = (r[i], r[j]);
            (nonstrict && [a[2], a[3], b[2], b[3]].contains(&0))
                || a[0] + a[2] <= b[0]
                || a[1] + a[3] <= b[1]
                || b[0] + b[2] <= a[0]
                || b[1] + b[3] <= a[1]
        })
    })
}

fn holds(kind: &Kind, values: &[i64]) -> bool {
    let r: Vec<[i64; 4]> = kind
        .rects
        .iter()
        .map(|r| {
            [
                r.x.value(values),
                r.y.value(values),
                r.w.value(values),
                r.h.value(values),
            ]
        })
        .collect();
    all_apart(&r, kind.nonstrict)
}

fn build(spec: &Spec) -> Model<'static> {
    let mut m = Model::new();
    let vars: Vec<Var<i64>> = spec.lists.iter().map(|l| m.var(l.clone())).collect();
    for kind in &spec.kinds {
        let side = |pick: fn(&Rect) -> &Arg| -> Vec<IntArg> {
            kind.rects.iter().map(|r| pick(r).of(&vars)).collect()
        };
        let (x, y, w, h) = (
            side(|r| &r.x),
            side(|r| &r.y),
            side(|r| &r.w),
            side(|r| &r.h),
        );
        if kind.nonstrict {
            m.diffn_nonstrict(x, y, w, h);
        } else {
            m.diffn(x, y, w, h);
        }
    }
    m
}

fn brute_force(spec: &Spec) -> Vec<Vec<u32>> {
    differential::brute_force_values(&spec.lists, |values| {
        spec.kinds.iter().all(|k| holds(k, values))
    })
}

/// A corner or a size: mostly a variable, sometimes a small constant (negative sizes
/// included: MiniZinc does not forbid them).
fn arg(vars: usize) -> impl Strategy<Value = Arg> {
    prop_oneof![
        1 => (-1i64..=3).prop_map(Arg::Const),
        3 => (0..vars).prop_map(Arg::Var),
    ]
}

fn kind(vars: usize) -> impl Strategy<Value = Kind> {
    let rect =
        (arg(vars), arg(vars), arg(vars), arg(vars)).prop_map(|(x, y, w, h)| Rect { x, y, w, h });
    (proptest::collection::vec(rect, 0..=3), any::<bool>())
        .prop_map(|(rects, nonstrict)| Kind { rects, nonstrict })
}

fn spec() -> impl Strategy<Value = Spec> {
    differential::lists_and_kinds(-1..=3, kind).prop_map(|(lists, kinds)| Spec { lists, kinds })
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

/// The placements of squares of sides `sides` in an `n` by `n` box, counted by trying
/// every corner.
fn placements_by_hand(sides: &[i64], n: i64) -> u64 {
    let corners: Vec<(i64, i64)> = (0..=n).flat_map(|x| (0..=n).map(move |y| (x, y))).collect();
    let mut count = 0;
    let mut at = vec![0usize; sides.len()];
    'next: loop {
        let placed: Vec<(i64, i64)> = at.iter().map(|&k| corners[k]).collect();
        let fits = placed
            .iter()
            .zip(sides)
            .all(|(&(x, y), &s)| x + s <= n && y + s <= n);
        let squares: Vec<[i64; 4]> = placed
            .iter()
            .zip(sides)
            .map(|(&(x, y), &s)| [x, y, s, s])
            .collect();
        if fits && all_apart(&squares, false) {
            count += 1;
        }
        for digit in &mut at {
            *digit += 1;
            if *digit < corners.len() {
                continue 'next;
            }
            *digit = 0;
        }
        return count;
    }
}

#[test]
fn squares_in_a_box_count_as_by_hand() {
    // Squares of sides 2, 2, 1 and 1 in a 4 by 4 box.
    let sides = [2i64, 2, 1, 1];
    let n = 4;
    let mut m = Model::new();
    let x: Vec<Var<i64>> = sides.iter().map(|s| m.var(0..=n - s)).collect();
    let y: Vec<Var<i64>> = sides.iter().map(|s| m.var(0..=n - s)).collect();
    m.diffn(&x, &y, sides, sides);
    let expected = placements_by_hand(&sides, n);
    assert!(expected > 0);
    assert_eq!(count(&m), expected);
}

#[test]
fn a_perfect_packing_is_found_and_a_too_full_box_refused() {
    // Sides 3, 2, 2, 2, 1, 1, 1, 1, 1 (area 9 + 12 + 5 = 26) do not fit in 5 by 5; with the
    // last square gone (area 25) they do.
    let solve = |sides: &[i64]| {
        let mut m = Model::new();
        let x: Vec<Var<i64>> = sides.iter().map(|s| m.var(0..=5 - s)).collect();
        let y: Vec<Var<i64>> = sides.iter().map(|s| m.var(0..=5 - s)).collect();
        m.diffn(&x, &y, sides.to_vec(), sides.to_vec());
        [Engine::Trail, Engine::Replay].map(|e| m.solve(e).first().unwrap().is_some())
    };
    assert_eq!(solve(&[3, 2, 2, 2, 1, 1, 1, 1, 1]), [false, false]);
    assert_eq!(solve(&[3, 2, 2, 1, 1, 1, 1, 1]), [true, true]);
}

#[test]
fn the_calls_of_constraints_place_rectangles() {
    let w = [2i64, 1, 1];
    let puzzle = constraints! {
        let x[3] = amb(0..3i64);
        let y[3] = amb(0..2i64);
        // Heights 1, 2 and h.
        let height[3] = amb(0..=2i64);
        require height[0] == 1 && height[1] == 2;
        require diffn(x, y, w, height);
        require diffn_nonstrict(x[0..2], y[0..2], [1, 1], height[1..3]);
    };
    let expected = (0..3u32 * 3 * 3 * 2 * 2 * 2 * 3)
        .filter(|code| {
            let digit = |base: u32, below: u32| (code / below % base) as i64;
            let x = [digit(3, 1), digit(3, 3), digit(3, 9)];
            let y = [digit(2, 27), digit(2, 54), digit(2, 108)];
            let h = digit(3, 216);
            let r = [[x[0], y[0], 2, 1], [x[1], y[1], 1, 2], [x[2], y[2], 1, h]];
            all_apart(&r, false) && all_apart(&[[x[0], y[0], 1, 2], [x[1], y[1], 1, h]], true)
        })
        .count() as u64;
    assert!(expected > 0);
    for engine in [Engine::Trail, Engine::Replay] {
        let found = puzzle.clone().engine(engine).count().unwrap().solutions;
        assert_eq!(found, expected, "{engine:?}");
    }
}

#[test]
fn lists_of_different_lengths_make_the_model_invalid() {
    let mut m = Model::new();
    let x = m.vars("x", 2, 0..2i64);
    m.diffn(&x, &x, [1, 1], [1]);
    assert!(
        m.error().is_some_and(|e| e.contains("diffn: 2 x but 1 dy")),
        "{:?}",
        m.error()
    );
}
