//! Variables over a range of integers (`Model::range_var`): their values are the range
//! itself, two numbers, not a list. A model over ranges has the same solutions as the
//! same model over listed values, on both engines and against a brute force; a solution's
//! value is read without a list; a range too wide for a variable, or too wide to list
//! where an expression must list its values, is a clear error.

use std::collections::BTreeSet;

use ambsolve::{Cmp, Dfa, Engine, IntExpr, Lit, Model, SearchError, Strategy, Var};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn between(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next() % (high - low + 1) as u64) as i64
    }
}

/// `Σ coefficient × variable` compared to a constant.
type Linear = (Vec<(i64, usize)>, Cmp, i64);

/// One random model, built over ranges or over listed values: bounds per variable, then
/// linear constraints (every comparison), a reified equality over one variable, and
/// sometimes an all-different.
struct Shape {
    bounds: Vec<(i64, i64)>,
    linears: Vec<Linear>,
    reified: Vec<(usize, i64, usize)>,
    distinct: bool,
}

impl Shape {
    fn random(rng: &mut Rng) -> Shape {
        let n = rng.between(2, 4) as usize;
        let bounds = (0..n)
            .map(|_| {
                let low = rng.between(-4, 3);
                (low, low + rng.between(0, 4))
            })
            .collect();
        let cmps = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
        let linears = (0..rng.between(1, 3))
            .map(|_| {
                let terms = (0..rng.between(1, 3))
                    .map(|_| (rng.between(-3, 3), rng.between(0, n as i64 - 1) as usize))
                    .collect();
                let cmp = cmps[rng.between(0, 5) as usize];
                (terms, cmp, rng.between(-5, 5))
            })
            .collect();
        let reified = (0..rng.between(0, 2))
            .map(|_| {
                let x = rng.between(0, n as i64 - 1) as usize;
                let b = rng.between(0, n as i64 - 1) as usize;
                (x, rng.between(-3, 3), b)
            })
            .collect();
        Shape {
            bounds,
            linears,
            reified,
            distinct: rng.between(0, 2) == 0,
        }
    }

    /// The model, and its variables; `ranges` picks how they are declared.
    fn build(&self, ranges: bool) -> (Model<'static>, Vec<Var<i64>>, Vec<Var<i64>>) {
        let mut m = Model::new();
        let xs: Vec<Var<i64>> = self
            .bounds
            .iter()
            .map(|&(low, high)| {
                if ranges {
                    m.range_var(low..=high)
                } else {
                    m.var(low..=high)
                }
            })
            .collect();
        let bs: Vec<Var<i64>> = self
            .reified
            .iter()
            .map(|_| {
                if ranges {
                    m.range_var(0..=1)
                } else {
                    m.var(0..=1i64)
                }
            })
            .collect();
        for (terms, cmp, rhs) in &self.linears {
            m.linear(terms.iter().map(|&(c, x)| (c, &xs[x])), *cmp, *rhs);
        }
        for (k, &(x, value, _)) in self.reified.iter().enumerate() {
            m.linear_reified([(1, &xs[x])], Cmp::Eq, value, &bs[k]);
        }
        if self.distinct {
            m.all_different(&xs);
        }
        (m, xs, bs)
    }

    /// Whether `values` (of the variables, then the literals) satisfy the model.
    fn holds(&self, values: &[i64], literals: &[i64]) -> bool {
        let linear = self.linears.iter().all(|(terms, cmp, rhs)| {
            let sum: i64 = terms.iter().map(|&(c, x)| c * values[x]).sum();
            cmp.holds(sum, *rhs)
        });
        let reified = self
            .reified
            .iter()
            .zip(literals)
            .all(|(&(x, value, _), &b)| (values[x] == value) == (b == 1));
        let distinct = !self.distinct
            || (0..values.len()).all(|i| (i + 1..values.len()).all(|j| values[i] != values[j]));
        linear && reified && distinct
    }

    /// Every solution, by brute force.
    fn brute_force(&self) -> BTreeSet<Vec<i64>> {
        let mut lists: Vec<Vec<i64>> = self
            .bounds
            .iter()
            .map(|&(l, h)| (l..=h).collect())
            .collect();
        lists.extend(self.reified.iter().map(|_| vec![0, 1]));
        let n = self.bounds.len();
        let mut out = BTreeSet::new();
        let mut at = vec![0usize; lists.len()];
        'all: loop {
            let values: Vec<i64> = at.iter().zip(&lists).map(|(&i, l)| l[i]).collect();
            if self.holds(&values[..n], &values[n..]) {
                out.insert(values);
            }
            for k in (0..lists.len()).rev() {
                at[k] += 1;
                if at[k] < lists[k].len() {
                    continue 'all;
                }
                at[k] = 0;
            }
            break;
        }
        out
    }
}

fn solutions(shape: &Shape, ranges: bool, engine: Engine) -> BTreeSet<Vec<i64>> {
    let (m, xs, bs) = shape.build(ranges);
    m.solve(engine)
        .solutions()
        .map(|s| {
            xs.iter()
                .chain(&bs)
                .map(|x| s.int_value(x))
                .collect::<Vec<i64>>()
        })
        .collect()
}

#[test]
fn ranges_and_listed_values_have_the_same_solutions() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for case in 0..300 {
        let shape = Shape::random(&mut rng);
        let expected = shape.brute_force();
        for engine in [Engine::Trail, Engine::Replay] {
            for ranges in [true, false] {
                assert_eq!(
                    solutions(&shape, ranges, engine),
                    expected,
                    "case {case}, {engine:?}, ranges: {ranges}"
                );
            }
        }
    }
}

#[test]
fn a_range_reads_its_values_without_a_list_and_lists_them_when_asked() {
    let mut m = Model::new();
    let x = m.range_var(-3..=5);
    assert_eq!(x.num_values(), 9);
    assert_eq!(*x.value(4), 1);
    assert_eq!(x.values(), (-3..=5).collect::<Vec<i64>>());
    let (low, high) = (4, 3);
    let empty = m.range_var(low..=high);
    assert_eq!(empty.num_values(), 0);
    assert_eq!(m.universes(), [9, 0]);
    let named = m.named_range_var("cost", 0..=10);
    assert_eq!(m.name(named.id()), "cost");

    // A range over 0 and 1 is a literal; a wider one is refused as one.
    let mut m = Model::new();
    let b = m.range_var(0..=1);
    let c = m.range_var(1..=1);
    m.clause([!Lit::from(&b), Lit::from(&c)]);
    assert_eq!(m.solve(Engine::Trail).count().unwrap().solutions, 2);
    let wide = m.range_var(0..=2);
    m.clause([Lit::from(&wide)]);
    assert!(
        m.error().is_some_and(|e| e.contains("literal")),
        "{:?}",
        m.error()
    );
}

#[test]
fn a_range_of_millions_of_values_solves_by_its_bounds() {
    // 3x == 3_000_000 and x <= y - 1_000 over five million values each: the linear
    // propagator moves bounds, the solution is read back without a list.
    let mut m = Model::new();
    let x = m.range_var(0..=5_000_000);
    let y = m.range_var(-5_000_000..=5_000_000);
    m.linear([(3, &x)], Cmp::Eq, 3_000_000);
    m.linear([(1, &x), (-1, &y)], Cmp::Le, -1_000);
    m.minimize([(1, &y)]);
    let best = m.solve(Engine::Trail).best().unwrap();
    let solution = best.solution.expect("a solution");
    assert_eq!(solution.int_value(&x), 1_000_000);
    assert_eq!(solution.int_value(&y), 1_001_000);
}

#[test]
fn ranges_over_every_i32_search_by_bounds() {
    // Four billion values each: the bounds of the sums move the ranges' ends, the search
    // takes the smallest value left and propagates its refutation, and the objective's
    // bound proves it, with no list or bitset of their values anywhere.
    let mut m = Model::new();
    let all = -(1i64 << 31) + 1..=(1i64 << 31) - 1;
    let x = m.range_var(all.clone());
    let y = m.range_var(all);
    assert_eq!(x.num_values(), u32::MAX as usize);
    m.linear([(3, &x), (-1, &y)], Cmp::Eq, 7);
    m.linear([(1, &y)], Cmp::Ge, 1_000_000_000);
    m.minimize([(1, &y)]);
    let best = m
        .solve(Engine::Trail)
        .strategy(Strategy::first_fail().propagate_refutations(true))
        .best()
        .unwrap();
    assert!(best.proved);
    let solution = best.solution.expect("a solution");
    assert_eq!(
        (solution.int_value(&x), solution.int_value(&y)),
        (333_333_336, 1_000_000_001)
    );
    assert!(best.stats.nodes < 10, "{} nodes", best.stats.nodes);
}

#[test]
fn an_element_into_a_wide_range_tabulates_its_entries_only() {
    // y = [10, 20, 30][i] with y over every i32: the propagator's tables are as long as
    // the entries, and the solutions those of the entries. (The replay engine would
    // choose y first, value by value: it enumerates what no linear constraint bounds.)
    let mut m = Model::new();
    let i = m.range_var(0..=2);
    let y = m.range_var(-(1i64 << 31) + 1..=(1i64 << 31) - 1);
    m.element(&i, [10, 20, 30], &y);
    m.linear([(1, &y)], Cmp::Ne, 20);
    let found: BTreeSet<(i64, i64)> = m
        .solve(Engine::Trail)
        .solutions()
        .map(|s| (s.int_value(&i), s.int_value(&y)))
        .collect();
    assert_eq!(found, BTreeSet::from([(0, 10), (2, 30)]));
}

#[test]
fn a_table_over_wide_ranges_tabulates_its_rows_only() {
    // (x, y) one of three rows, x and y over every i32, a row outside the ranges
    // dropped: the supports are as long as the columns, the solutions the rows.
    let mut m = Model::new();
    let all = -(1i64 << 31) + 1..=(1i64 << 31) - 1;
    let x = m.range_var(all.clone());
    let y = m.range_var(all);
    let small = m.range_var(0..=3);
    m.table(
        &[x.clone(), y.clone(), small.clone()],
        [[1, 2, 0], [-5, 1 << 40, 1], [3, 4, 1], [3, -4, 3]],
    );
    m.linear([(1, &y)], Cmp::Ne, 4);
    let found: BTreeSet<(i64, i64, i64)> = m
        .solve(Engine::Trail)
        .solutions()
        .map(|s| (s.int_value(&x), s.int_value(&y), s.int_value(&small)))
        .collect();
    assert_eq!(found, BTreeSet::from([(1, 2, 0), (3, -4, 3)]));
}

#[test]
fn a_word_over_wide_ranges_reads_only_its_symbols() {
    // Words over {0, 1} without two 1s in a row, three items over every i32: five.
    let mut dfa = Dfa::new(2, 0);
    dfa.accept(0).accept(1);
    dfa.transition(0, 0, 0)
        .transition(0, 1, 1)
        .transition(1, 0, 0);
    let mut m = Model::new();
    let xs: Vec<Var<i64>> = (0..3)
        .map(|_| m.range_var(-(1i64 << 31) + 1..=(1i64 << 31) - 1))
        .collect();
    m.regular(&xs, &dfa);
    assert_eq!(m.solve(Engine::Trail).count().unwrap().solutions, 5);
}

#[test]
fn counting_over_wide_ranges_costs_what_it_counts() {
    // Both items among {3, 5}: the ranges are cut to the set, not read value by value.
    let all = -(1i64 << 31) + 1..=(1i64 << 31) - 1;
    let mut m = Model::new();
    let a = m.range_var(all.clone());
    let b = m.range_var(all.clone());
    m.among([&a, &b], &[3, 5], 2);
    m.linear([(1, &a), (-1, &b)], Cmp::Le, 0);
    let found: BTreeSet<(i64, i64)> = m
        .solve(Engine::Trail)
        .solutions()
        .map(|s| (s.int_value(&a), s.int_value(&b)))
        .collect();
    assert_eq!(found, BTreeSet::from([(3, 3), (3, 5), (5, 5)]));

    // Two distinct values, b below a: the first solution at once, the union of the
    // domains never listed.
    let mut m = Model::new();
    let a = m.range_var(all.clone());
    let b = m.range_var(all);
    m.nvalue(2, [&a, &b]);
    m.linear([(1, &b), (-1, &a)], Cmp::Le, 0);
    let first = m.solve(Engine::Trail).first().unwrap().expect("a solution");
    let (a, b) = (first.int_value(&a), first.int_value(&b));
    assert!(b < a, "{a} {b}");
}

#[test]
fn too_wide_a_range_is_an_invalid_model() {
    let mut m = Model::new();
    let _ = m.named_range_var("huge", 0..=i64::from(u32::MAX));
    let error = m.error().expect("more than u32::MAX values");
    assert!(
        error.contains("huge") && error.contains("u32::MAX"),
        "{error}"
    );
    assert!(matches!(
        m.solve(Engine::Trail).count(),
        Err(SearchError::InvalidModel(_))
    ));
}

#[test]
fn an_expression_that_must_list_a_wide_range_says_so() {
    // The maximum of two variables is a variable over their values: a range of ten
    // million values is too wide to list; a linear expression over it is fine.
    let mut m = Model::new();
    let x = m.named_range_var("x", 0..=10_000_000);
    let y = m.named_range_var("y", 0..=10);
    let sum = m.int_var(IntExpr::from(&x) + &y);
    assert!(m.error().is_none(), "{:?}", m.error());
    assert_eq!(sum.num_values(), 10_000_011);
    let _ = m.int_var(IntExpr::max_of([IntExpr::from(&x), IntExpr::from(&y)]));
    let error = m.error().expect("too wide to list");
    assert!(error.contains("x ranges over 0..=10000000"), "{error}");
}
