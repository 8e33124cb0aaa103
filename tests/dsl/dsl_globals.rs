//! The counting, sequence and lookup families as `constraints!` writes them: `count(x, v)`,
//! `among(x, values)` and `nvalue(x)` as integers (in comparisons, logic and objectives),
//! and `require at_most(..)`, `at_least`, `global_cardinality(_closed)`, `regular`,
//! `lex_lesseq`, `lex_less`, `all_equal`, `element` as calls. Each on random small
//! instances (value lists with negatives and repeats), on both engines, against a brute
//! force over every assignment; none of them leaves a predicate in the model.

use ambsolve::{Dfa, Engine, Puzzle, constraints};

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

/// The number of assignments of `domains` for which `holds`.
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

fn count_of(x: &[i64], v: i64) -> i64 {
    x.iter().filter(|&&y| y == v).count() as i64
}

fn nvalue_of(x: &[i64]) -> i64 {
    let mut values = x.to_vec();
    values.sort_unstable();
    values.dedup();
    values.len() as i64
}

#[test]
fn count_among_and_nvalue_are_integers() {
    let mut rng = Rng(1);
    for case in 0..60 {
        let n = 1 + rng.below(3);
        let mut doms = rng.domains(n + 2);
        let (v_dom, k_dom) = (doms.pop().unwrap(), doms.pop().unwrap());
        let vals: Vec<i64> = (0..rng.below(3)).map(|_| rng.below(4) as i64 - 1).collect();
        let mut all = doms.clone();
        all.push(k_dom.clone());
        all.push(v_dom.clone());
        let split = |a: &[i64]| (a[..n].to_vec(), a[n], a[n + 1]);
        let what = format!("case {case}: {doms:?} k {k_dom:?} v {v_dom:?} values {vals:?}");

        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            let k = amb(k_dom.clone());
            let v = amb(v_dom.clone());
            require count(x, v) == k;
        };
        let expected = brute(&all, |a| {
            let (x, k, v) = split(a);
            count_of(&x, v) == k
        });
        agree(&puzzle, expected, &format!("count(x, v) == k, {what}"));

        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            let k = amb(k_dom.clone());
            let v = amb(v_dom.clone());
            require among(x, &vals) < k || nvalue(x) == v;
        };
        let expected = brute(&all, |a| {
            let (x, k, v) = split(a);
            let among = x.iter().filter(|y| vals.contains(y)).count() as i64;
            among < k || nvalue_of(&x) == v
        });
        agree(
            &puzzle,
            expected,
            &format!("among < k || nvalue == v, {what}"),
        );

        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            let k = amb(k_dom.clone());
            let v = amb(v_dom.clone());
            require (count(x, 2) >= k) -> (count(x, v) + nvalue(x) <= 3);
        };
        let expected = brute(&all, |a| {
            let (x, k, v) = split(a);
            count_of(&x, 2) < k || count_of(&x, v) + nvalue_of(&x) <= 3
        });
        agree(&puzzle, expected, &format!("count in logic, {what}"));
    }
}

#[test]
fn counts_in_objectives() {
    let mut rng = Rng(2);
    for case in 0..30 {
        let n = 2 + rng.below(2);
        let doms = rng.domains(n);
        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            maximize 2 * count(x, 1) - nvalue(x) + among(x, &[0, 3]);
        };
        let best = assignments(&doms)
            .iter()
            .map(|x| {
                let among = x.iter().filter(|&&y| y == 0 || y == 3).count() as i64;
                2 * count_of(x, 1) - nvalue_of(x) + among
            })
            .max()
            .unwrap();
        for engine in ENGINES {
            let found = puzzle.clone().engine(engine).best().unwrap();
            assert!(found.proved);
            assert_eq!(found.objective, Some(best), "case {case}: {doms:?}");
        }
    }
}

#[test]
fn at_most_at_least_and_cardinalities_as_calls() {
    let mut rng = Rng(3);
    for case in 0..60 {
        let n = 1 + rng.below(3);
        let mut doms = rng.domains(n + 2);
        let (c1_dom, c0_dom) = (doms.pop().unwrap(), doms.pop().unwrap());
        let mut all = doms.clone();
        all.push(c0_dom.clone());
        all.push(c1_dom.clone());
        let k = rng.below(3) as i64;
        let what = format!("case {case}: {doms:?} counts {c0_dom:?} {c1_dom:?} k {k}");

        let puzzle = constraints! {
            let x[i < n] = amb(doms[i].clone());
            let c[j < 2] = amb(if j == 0 { c0_dom.clone() } else { c1_dom.clone() });
            require at_most(k, x, c[0]);
            require at_least(1, x, c[1]);
        };
        let expected = brute(&all, |a| {
            let x = &a[..n];
            count_of(x, a[n]) <= k && count_of(x, a[n + 1]) >= 1
        });
        agree(&puzzle, expected, &format!("at_most, at_least: {what}"));

        for closed in [false, true] {
            let cardinality = |a: &[i64]| {
                let x = &a[..n];
                count_of(x, 0) == a[n]
                    && count_of(x, 2) == a[n + 1]
                    && (!closed || x.iter().all(|&y| y == 0 || y == 2))
            };
            let expected = brute(&all, cardinality);
            let puzzle = if closed {
                constraints! {
                    let x[i < n] = amb(doms[i].clone());
                    let c[j < 2] = amb(if j == 0 { c0_dom.clone() } else { c1_dom.clone() });
                    require global_cardinality_closed(x, &[0, 2], c);
                }
                .map(|_| ())
            } else {
                constraints! {
                    let x[i < n] = amb(doms[i].clone());
                    let c[j < 2] = amb(if j == 0 { c0_dom.clone() } else { c1_dom.clone() });
                    require global_cardinality(x, &[0, 2], c);
                }
                .map(|_| ())
            };
            agree(&puzzle, expected, &format!("closed {closed}: {what}"));
        }
    }
}

#[test]
fn sequences_and_element_as_calls() {
    // Words with no two 1s in a row.
    let mut dfa = Dfa::new(2, 0);
    dfa.accept(0).accept(1);
    dfa.transition(0, 0, 0)
        .transition(0, 1, 1)
        .transition(1, 0, 0)
        .transition(0, -1, 0)
        .transition(1, -1, 0);
    let mut rng = Rng(4);
    for case in 0..60 {
        let n = 1 + rng.below(3);
        let mut doms = rng.domains(2 * n + 2);
        let (v_dom, i_dom) = (doms.pop().unwrap(), doms.pop().unwrap());
        let all = {
            let mut all = doms.clone();
            all.push(i_dom.clone());
            all.push(v_dom.clone());
            all
        };
        let (xs, ys) = (&doms[..n], &doms[n..]);
        let what = format!("case {case}: {doms:?} i {i_dom:?} v {v_dom:?}");
        let lex = |a: &[i64], b: &[i64], strict: bool| a < b || (!strict && a == b);

        let puzzle = constraints! {
            let x[i < n] = amb(xs[i].clone());
            let y[i < n] = amb(ys[i].clone());
            let i = amb(i_dom.clone());
            let v = amb(v_dom.clone());
            require regular(x, &dfa);
            require lex_lesseq(x, y);
            require element(i, y, v);
        };
        let expected = brute(&all, |a| {
            let (x, y, i, v) = (&a[..n], &a[n..2 * n], a[2 * n], a[2 * n + 1]);
            dfa.accepts(x)
                && lex(x, y, false)
                && usize::try_from(i).is_ok_and(|i| y.get(i) == Some(&v))
        });
        agree(
            &puzzle,
            expected,
            &format!("regular, lex_lesseq, element: {what}"),
        );

        let puzzle = constraints! {
            let x[i < n] = amb(xs[i].clone());
            let y[i < n] = amb(ys[i].clone());
            let i = amb(i_dom.clone());
            let v = amb(v_dom.clone());
            require lex_less(y, x);
            require all_equal(y);
            require element(v, [3, 1, 4], i);
        };
        let expected = brute(&all, |a| {
            let (x, y, i, v) = (&a[..n], &a[n..2 * n], a[2 * n], a[2 * n + 1]);
            lex(y, x, true)
                && y.iter().all(|&w| w == y[0])
                && usize::try_from(v).is_ok_and(|v| [3, 1, 4].get(v) == Some(&i))
        });
        agree(
            &puzzle,
            expected,
            &format!("lex_less, all_equal, element: {what}"),
        );
    }
}

#[test]
fn scheduling_as_calls() {
    // Tasks with chosen starts and durations: every two apart (MiniZinc's reading: a task
    // of duration 0 is free, unless strict), or at most `capacity` in use at any time.
    let apart = |s: &[i64], d: &[i64], a: usize, b: usize, strict: bool| {
        (!strict && (d[a] == 0 || d[b] == 0)) || s[a] + d[a] <= s[b] || s[b] + d[b] <= s[a]
    };
    let mut rng = Rng(11);
    for case in 0..40 {
        let n = 1 + rng.below(3);
        let doms: Vec<Vec<i64>> = (0..2 * n)
            .map(|k| {
                let low = rng.below(3) as i64 - usize::from(k >= n) as i64;
                (low..=low + rng.below(3) as i64).collect()
            })
            .collect();
        let (starts, durations) = (&doms[..n], &doms[n..]);
        let what = format!("case {case}: {doms:?}");
        let pairs = |a: &[i64], strict: bool| {
            let (s, d) = (&a[..n], &a[n..]);
            d.iter().all(|&d| d >= 0)
                && (0..n).all(|x| (x + 1..n).all(|y| apart(s, d, x, y, strict)))
        };

        let puzzle = constraints! {
            let s[i < n] = amb(starts[i].clone());
            let d[i < n] = amb(durations[i].clone());
            require disjunctive(s, d);
        };
        agree(
            &puzzle,
            brute(&doms, |a| pairs(a, false)),
            &format!("disjunctive: {what}"),
        );

        let puzzle = constraints! {
            let s[i < n] = amb(starts[i].clone());
            let d[i < n] = amb(durations[i].clone());
            require disjunctive_strict(s, d);
        };
        agree(
            &puzzle,
            brute(&doms, |a| pairs(a, true)),
            &format!("strict: {what}"),
        );

        let demands: Vec<i64> = (0..n).map(|_| rng.below(3) as i64).collect();
        let capacity = 1 + rng.below(2) as i64;
        let puzzle = constraints! {
            let s[i < n] = amb(starts[i].clone());
            let d[i < n] = amb(durations[i].clone());
            require cumulative(s, d, &demands, &capacity);
        };
        let expected = brute(&doms, |a| {
            let (s, d) = (&a[..n], &a[n..]);
            d.iter().all(|&d| d >= 0)
                && (-2..8).all(|t| {
                    let used: i64 = (0..n)
                        .filter(|&k| s[k] <= t && t < s[k] + d[k])
                        .map(|k| demands[k])
                        .sum();
                    used <= capacity
                })
        });
        agree(
            &puzzle,
            expected,
            &format!("cumulative {demands:?} {capacity}: {what}"),
        );
    }
}

#[test]
fn optional_tasks_take_presences_as_arrays_rows_and_conditions() {
    // Three tasks, each on machine A (`a[i]`) or on machine B (`!a[i]`, a comprehension
    // of conditions); and the same with 0/1 integer choices in a grid, rows as presences.
    let d = [2i64, 2, 3];
    let machines = constraints! {
        let s[3] = amb(0..4i64);
        let a[3] = amb([false, true]);
        require disjunctive_optional(s, &d, a);
        require disjunctive_optional(s, &d, !a[i] for i in 0..3);
    };
    let apart = |s: &[i64], on: &[bool]| {
        (0..3).all(|i| {
            (i + 1..3).all(|j| !(on[i] && on[j]) || s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i])
        })
    };
    let domains: Vec<Vec<i64>> = vec![(0..4).collect(); 3]
        .into_iter()
        .chain(vec![vec![0, 1]; 3])
        .collect();
    let expected = brute(&domains, |v| {
        let (s, a) = v.split_at(3);
        let on_a: Vec<bool> = a.iter().map(|&x| x == 1).collect();
        let on_b: Vec<bool> = on_a.iter().map(|&x| !x).collect();
        apart(s, &on_a) && apart(s, &on_b)
    });
    agree(&machines, expected, "disjunctive_optional");

    let r = [1i64, 2, 1];
    let grid = constraints! {
        let s[3] = amb(0..4i64);
        let on[2][3] = amb(0..2i64);
        require cumulative_optional(s, &d, &r, on[0], 2);
        require cumulative_optional(s, &d, &r, on[1], 1);
        for i in 0..3 {
            require on[0][i] + on[1][i] == 1;
        }
    };
    let expected = brute(
        &vec![(0..4).collect::<Vec<i64>>(); 3]
            .into_iter()
            .chain(vec![vec![0, 1]; 6])
            .collect::<Vec<_>>(),
        |v| {
            let (s, on) = v.split_at(3);
            let fits = |row: &[i64], capacity: i64| {
                (0..8).all(|t| {
                    (0..3)
                        .filter(|&i| row[i] == 1 && s[i] <= t && t < s[i] + d[i])
                        .map(|i| r[i])
                        .sum::<i64>()
                        <= capacity
                })
            };
            (0..3).all(|i| on[i] + on[3 + i] == 1) && fits(&on[..3], 2) && fits(&on[3..], 1)
        },
    );
    agree(&grid, expected, "cumulative_optional");
}
