//! Global constraints in `constraints!`, as an outside crate uses them: the library's
//! `among`, and a propagator of this crate's own, both through `post`, on both engines,
//! against brute force.

use ambsolve::{Context, Engine, Fail, Propagator, Var, VarId, among, constraints};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

/// Every assignment of `n` variables over `0..d`, in lexicographic order.
fn all_rows(n: usize, d: i32) -> Vec<Vec<i32>> {
    let mut rows = vec![Vec::new()];
    for _ in 0..n {
        rows = rows
            .into_iter()
            .flat_map(|row| {
                (0..d).map(move |v| {
                    let mut longer = row.clone();
                    longer.push(v);
                    longer
                })
            })
            .collect();
    }
    rows
}

#[test]
fn among_counts_exactly() {
    let n = 5;
    for (value, count) in [(0, 0), (1, 2), (2, 5), (2, 6)] {
        let rows = constraints! {
            let x[n] = amb(0..3);
            post among(&x, value, count);
        };
        let expected: Vec<Vec<i32>> = all_rows(n, 3)
            .into_iter()
            .filter(|r| r.iter().filter(|&&v| v == value).count() == count)
            .collect();
        for engine in ENGINES {
            let got: Vec<Vec<i32>> = rows
                .clone()
                .engine(engine)
                .solutions()
                .map(|s| s.x)
                .collect();
            assert_eq!(got, expected, "among({value}, {count}) on {engine}");
        }
    }
}

#[test]
fn among_over_elements_and_words() {
    let words = ["ant", "bee", "cat"];
    let picks = constraints! {
        let a = amb(words);
        let b = amb(words);
        let c = amb(words);
        post among([&a, &c], "bee", 1);
        require a != b;
    };
    for engine in ENGINES {
        let got: Vec<[&str; 3]> = picks
            .clone()
            .engine(engine)
            .solutions()
            .map(|s| [s.a, s.b, s.c])
            .collect();
        assert!(!got.is_empty());
        let mut expected = Vec::new();
        for a in words {
            for b in words {
                for c in words {
                    if a != b && usize::from(a == "bee") + usize::from(c == "bee") == 1 {
                        expected.push([a, b, c]);
                    }
                }
            }
        }
        assert_eq!(got, expected, "{engine}");
    }
}

/// This crate's own global: the values of `vars` never decrease (on value indices, all
/// variables over one sorted list).
struct NonDecreasing(Vec<VarId>);

fn non_decreasing<T>(vars: &[Var<T>]) -> NonDecreasing {
    NonDecreasing(vars.iter().map(Var::id).collect())
}

impl Propagator for NonDecreasing {
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
        for pair in self.0.windows(2) {
            let low = cx.min(pair[0]).ok_or(Fail)?;
            cx.retain(pair[1], |i| i >= low)?;
        }
        for pair in self.0.windows(2).rev() {
            let high = cx.max(pair[1]).ok_or(Fail)?;
            cx.retain(pair[0], |i| i <= high)?;
        }
        Ok(())
    }
}

#[test]
fn a_propagator_of_ones_own_is_posted_like_the_library_ones() {
    let n = 4;
    let sequences = constraints! {
        let x[n] = amb(0..4);
        post non_decreasing(&x);
        post among(&x, 3, 1);
    };
    let expected: Vec<Vec<i32>> = all_rows(n, 4)
        .into_iter()
        .filter(|r| {
            r.windows(2).all(|w| w[0] <= w[1]) && r.iter().filter(|&&v| v == 3).count() == 1
        })
        .collect();
    for engine in ENGINES {
        let got: Vec<Vec<i32>> = sequences
            .clone()
            .engine(engine)
            .solutions()
            .map(|s| s.x)
            .collect();
        assert_eq!(got, expected, "{engine}");
    }
}
