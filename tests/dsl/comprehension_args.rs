//! Lists written as comprehensions and slices: `min`, `max` and `nvalue` of a
//! comprehension of expressions (in conditions and objectives, as MiniZinc's
//! `max(i in 1..n)(s[i] + d[i])`), and the global constraints written as calls taking a
//! column (`g[r][c] for r in 0..n`), a slice (`x[1..n]`) or a comprehension of
//! expressions wherever they take an array. Each on random small instances, on both
//! engines, against a brute force over every assignment; none leaves a predicate.

use ambsolve::{Engine, Puzzle, constraints};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }

    /// A value list of 1 to 3 values in -1..=3 (repeats and any order).
    fn domain(&mut self) -> Vec<i64> {
        (0..1 + self.below(3))
            .map(|_| self.below(5) as i64 - 1)
            .collect()
    }

    fn domains(&mut self, n: usize) -> Vec<Vec<i64>> {
        (0..n).map(|_| self.domain()).collect()
    }
}

/// Every assignment of the value lists (a value listed twice is two assignments).
fn assignments(domains: &[Vec<i64>]) -> Vec<Vec<i64>> {
    domains.iter().fold(vec![Vec::new()], |acc, domain| {
        acc.iter()
            .flat_map(|prefix| {
                domain.iter().map(move |&v| {
                    let mut next = prefix.clone();
                    next.push(v);
                    next
                })
            })
            .collect()
    })
}

fn brute(domains: &[Vec<i64>], holds: impl Fn(&[i64]) -> bool) -> u64 {
    assignments(domains).iter().filter(|a| holds(a)).count() as u64
}

/// `puzzle` has `expected` solutions on both engines and no predicate.
fn agree<S>(puzzle: &Puzzle<'_, S>, expected: u64, what: &str) {
    let model = format!("{:?}", puzzle.model());
    assert!(
        !model.contains("predicate"),
        "{what}: not flattened: {model}"
    );
    for engine in ENGINES {
        let count = puzzle.clone().engine(engine).count().unwrap().solutions;
        assert_eq!(count, expected, "{what} on {engine:?}: {model}");
    }
}

fn nvalue_of(x: &[i64]) -> i64 {
    let mut values = x.to_vec();
    values.sort_unstable();
    values.dedup();
    values.len() as i64
}

#[test]
fn min_max_and_nvalue_of_comprehensions() {
    let mut rng = Rng(11);
    for case in 0..40 {
        let n = 1 + rng.below(3);
        let mut doms = rng.domains(n + 1);
        let k_dom = doms.pop().unwrap();
        let w: Vec<i64> = (0..n).map(|_| rng.below(5) as i64 - 2).collect();
        let mut all = doms.clone();
        all.push(k_dom.clone());
        let what = format!("case {case}: {doms:?} k {k_dom:?} w {w:?}");

        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            let k = amb(k_dom.clone());
            require max(x[i] + w[i] for i in 0..n) == k;
        };
        let expected = brute(&all, |a| (0..n).map(|i| a[i] + w[i]).max() == Some(a[n]));
        agree(&puzzle, expected, &format!("max(x[i] + w[i]) == k, {what}"));

        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            let k = amb(k_dom.clone());
            require min(x[i] * x[i] - k for i in 0..n) >= 0 || k == 3;
        };
        let expected = brute(&all, |a| {
            (0..n).map(|i| a[i] * a[i] - a[n]).min() >= Some(0) || a[n] == 3
        });
        agree(&puzzle, expected, &format!("min(x[i]² - k) >= 0, {what}"));

        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            let k = amb(k_dom.clone());
            require nvalue(x[i] - i for i in 0..n) == k + 1;
        };
        let expected = brute(&all, |a| {
            let shifted: Vec<i64> = (0..n).map(|i| a[i] - i as i64).collect();
            nvalue_of(&shifted) == a[n] + 1
        });
        agree(
            &puzzle,
            expected,
            &format!("nvalue(x[i] - i) == k + 1, {what}"),
        );
    }
}

/// A single machine: the makespan `max(s[i] + d[i])` minimised, as a MiniZinc user writes
/// it; the optimum checked against every schedule.
#[test]
fn a_makespan_written_as_a_max_is_minimised() {
    let mut rng = Rng(12);
    for case in 0..12 {
        let n = 2 + rng.below(2);
        let d: Vec<i64> = (0..n).map(|_| 1 + rng.below(3) as i64).collect();
        let release: Vec<i64> = (0..n).map(|_| rng.below(3) as i64).collect();
        let horizon = 8i64;
        let puzzle = constraints! {
            let s[i < n] = amb(release[i]..=horizon);
            require disjunctive(s, d);
            minimize max(s[i] + d[i] for i in 0..n);
        };
        let doms: Vec<Vec<i64>> = (0..n).map(|i| (release[i]..=horizon).collect()).collect();
        let best = assignments(&doms)
            .iter()
            .filter(|s| (0..n).all(|i| (0..i).all(|j| s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i])))
            .map(|s| (0..n).map(|i| s[i] + d[i]).max().unwrap())
            .min();
        for engine in ENGINES {
            let found = puzzle.clone().engine(engine).best().unwrap();
            assert!(found.proved, "case {case}");
            assert_eq!(
                found.objective, best,
                "case {case}: d {d:?} release {release:?} on {engine:?}"
            );
        }
    }
}

/// A grid's columns, slices and comprehensions of expressions as the arrays of globals.
#[test]
fn globals_take_columns_slices_and_comprehensions() {
    let mut rng = Rng(13);
    for case in 0..40 {
        let (rows, cols) = (2 + rng.below(2), 2);
        let doms = rng.domains(rows * cols);
        let cell = |a: &[i64], r: usize, c: usize| a[r * cols + c];
        let what = format!("case {case}: {rows}×{cols} {doms:?}");

        let puzzle = constraints! {
            let g[r < rows][c < cols] = amb(doms[r * cols + c].clone());
            require increasing(g[r][1] for r in 0..rows);
            require all_equal(g[r][0] + r for r in 0..rows);
        };
        let expected = brute(&doms, |a| {
            (1..rows).all(|r| cell(a, r - 1, 1) <= cell(a, r, 1))
                && (1..rows).all(|r| cell(a, r, 0) + r as i64 == cell(a, 0, 0))
        });
        agree(&puzzle, expected, &format!("column increasing, {what}"));

        let puzzle = constraints! {
            let g[r < rows][c < cols] = amb(doms[r * cols + c].clone());
            require lex_lesseq(g[r][0] for r in 0..rows, g[r][1] for r in 0..rows);
        };
        let expected = brute(&doms, |a| {
            let x: Vec<i64> = (0..rows).map(|r| cell(a, r, 0)).collect();
            let y: Vec<i64> = (0..rows).map(|r| cell(a, r, 1)).collect();
            x <= y
        });
        agree(&puzzle, expected, &format!("lex_lesseq of columns, {what}"));

        let n = rows * cols;
        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            require strictly_increasing(x[1..n]);
            require all_different_except(x[..2], 0);
        };
        let expected = brute(&doms, |a| {
            (2..n).all(|i| a[i - 1] < a[i]) && (a[0] != a[1] || a[0] == 0)
        });
        agree(&puzzle, expected, &format!("slices, {what}"));
    }
}

/// Tasks on machines given as a grid of start times per job and machine: each machine's
/// tasks are a column, its durations a column of a table.
#[test]
fn disjunctive_over_a_column_of_a_job_shop() {
    let mut rng = Rng(14);
    for case in 0..10 {
        let (jobs, machines) = (2, 2);
        let d: Vec<Vec<i64>> = (0..jobs)
            .map(|_| (0..machines).map(|_| 1 + rng.below(2) as i64).collect())
            .collect();
        let horizon = 4i64;
        let puzzle = constraints! {
            let s[j < jobs][m < machines] = amb(0..=horizon);
            for m in 0..machines {
                require disjunctive(s[j][m] for j in 0..jobs, d[j][m] for j in 0..jobs);
            }
            for j in 0..jobs {
                require s[j][0] + d[j][0] <= s[j][1];
            }
        };
        let doms = vec![(0..=horizon).collect::<Vec<i64>>(); jobs * machines];
        let expected = brute(&doms, |a| {
            let s = |j: usize, m: usize| a[j * machines + m];
            (0..machines).all(|m| s(0, m) + d[0][m] <= s(1, m) || s(1, m) + d[1][m] <= s(0, m))
                && (0..jobs).all(|j| s(j, 0) + d[j][0] <= s(j, 1))
        });
        agree(&puzzle, expected, &format!("case {case}: d {d:?}"));
    }
}
