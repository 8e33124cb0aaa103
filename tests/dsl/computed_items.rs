//! `all_different` over several comprehensions and over items computed from several
//! choices (an auxiliary choice each), on both engines, against brute force.

use ambsolve::{Engine, constraints};
use ambsolve_examples::puzzles::langford::{is_langford, langford, langford_up_to_reversal};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

#[test]
fn langford_counts_match_the_known_ones() {
    // CSPLib 24: n = 3, 4, 7 give 2, 2, 52 sequences (each with its reverse).
    for (n, expected) in [(3, 2), (4, 2), (5, 0), (7, 52)] {
        for engine in ENGINES {
            let puzzle = langford(n).engine(engine);
            let rows: Vec<Vec<usize>> = puzzle.solutions().collect();
            assert_eq!(rows.len(), expected, "n = {n} on {engine}");
            assert!(rows.iter().all(|r| is_langford(r)), "n = {n} on {engine}");
        }
    }
}

#[test]
fn langford_up_to_reversal_counts_each_pair_of_mirror_images_once() {
    for (n, expected) in [(3, 1), (4, 1), (7, 26)] {
        for engine in ENGINES {
            let rows: Vec<Vec<usize>> = langford_up_to_reversal(n)
                .engine(engine)
                .solutions()
                .collect();
            assert_eq!(rows.len(), expected, "n = {n} on {engine}");
            // The kept rows and their mirror images are every sequence, each once.
            let mut both: Vec<Vec<usize>> = rows
                .iter()
                .flat_map(|row| [row.clone(), row.iter().rev().copied().collect()])
                .collect();
            both.sort();
            let mut all: Vec<Vec<usize>> = langford(n).solutions().collect();
            all.sort();
            assert_eq!(both, all, "n = {n} on {engine}");
        }
    }
}

#[test]
fn differences_of_marks_are_all_different() {
    // Golomb rulers with 4 marks up to length 6: marks ascending from 0, all pairwise
    // differences distinct. The optimal ruler 0 1 4 6 and its mirror 0 2 5 6.
    let n = 4;
    let rulers = constraints! {
        let m[n] = amb(0..=6i32);
        require m[0] == 0;
        for i in 1..n {
            require m[i - 1] < m[i];
        }
        require all_different(m[j] - m[i] for i in 0..n for j in i + 1..n);
    };
    let mut expected = Vec::new();
    for a in 1..=6 {
        for b in a + 1..=6 {
            for c in b + 1..=6 {
                let marks = [0, a, b, c];
                let mut diffs: Vec<i32> = (0..4)
                    .flat_map(|i| (i + 1..4).map(move |j| marks[j] - marks[i]))
                    .collect();
                let total = diffs.len();
                diffs.sort();
                diffs.dedup();
                if diffs.len() == total {
                    expected.push(marks.to_vec());
                }
            }
        }
    }
    for engine in ENGINES {
        let got: Vec<Vec<i32>> = rulers
            .clone()
            .engine(engine)
            .solutions()
            .map(|s| s.m)
            .collect();
        let mut sorted = got.clone();
        sorted.sort();
        assert_eq!(sorted, expected, "{engine}");
    }
}

#[test]
fn items_mix_types_offsets_and_computed_values() {
    // x: u8, y: i64; all different among x, y + 2 and x + y.
    let mixed = constraints! {
        let x = amb(0..4u8);
        let y = amb(-2..2i64);
        require all_different(x, y + 2, x + y);
    };
    let mut expected = 0;
    for x in 0..4i64 {
        for y in -2..2i64 {
            let items = [x, y + 2, x + y];
            if items[0] != items[1] && items[0] != items[2] && items[1] != items[2] {
                expected += 1;
            }
        }
    }
    for engine in ENGINES {
        assert_eq!(
            mixed.clone().engine(engine).count().unwrap().solutions,
            expected,
            "{engine}"
        );
    }
}
