//! The expression layer (`IntExpr`, `BoolExpr`, `Model::add`) means exactly what its
//! expressions say: random expressions over small domains (negative values, zero, value
//! lists that repeat or fall), each required, reified and optimised, counted on both
//! engines and compared with a brute force over exact integers, undefined values
//! (division by zero, negative exponents, indices outside) false at their comparison.
//!
//! `EXPR_CASES=N cargo test --release --test api expressions::` runs N random cases
//! (default 300).

use ambsolve::{BoolExpr, Engine, IntExpr, Lit, Model, Var};

/// A small deterministic random source.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// An expression as data, to build both an `IntExpr` and a brute-force evaluator.
#[derive(Clone, Debug)]
enum I {
    Const(i64),
    Var(usize),
    Add(Box<I>, Box<I>),
    Sub(Box<I>, Box<I>),
    Mul(Box<I>, Box<I>),
    Div(Box<I>, Box<I>),
    Rem(Box<I>, Box<I>),
    Abs(Box<I>),
    Min(Box<I>, Box<I>),
    Max(Box<I>, Box<I>),
    Pow(Box<I>, Box<I>),
    Element(Box<I>, Vec<I>),
    Element2d(Box<I>, Box<I>, Vec<Vec<I>>),
    Count(Vec<B>),
    NValue(Vec<I>),
    CountEq(Vec<I>, Box<I>),
    Among(Vec<I>, Vec<i64>),
}

#[derive(Clone, Debug)]
enum B {
    Const(bool),
    Flag(usize),
    Cmp(I, u8, I),
    Not(Box<B>),
    And(Box<B>, Box<B>),
    Or(Box<B>, Box<B>),
    Xor(Box<B>, Box<B>),
    Implies(Box<B>, Box<B>),
    Iff(Box<B>, Box<B>),
}

fn gen_int(rng: &mut Rng, depth: u32, vars: usize) -> I {
    if depth == 0 || rng.below(4) == 0 {
        return if rng.below(3) == 0 {
            I::Const(rng.below(7) as i64 - 3)
        } else {
            I::Var(rng.below(vars))
        };
    }
    let mut sub = || Box::new(gen_int(rng, depth - 1, vars));
    let (a, b) = (sub(), sub());
    match rng.below(16) {
        0 => I::Add(a, b),
        1 => I::Sub(a, b),
        2 | 3 => I::Mul(a, b),
        4 => I::Div(a, b),
        5 => I::Rem(a, b),
        6 => I::Abs(a),
        7 => I::Min(a, b),
        8 => I::Max(a, b),
        9 => I::Pow(a, Box::new(I::Const(rng.below(4) as i64 - 1))),
        10 => {
            let items = (0..1 + rng.below(4))
                .map(|_| gen_int(rng, 0, vars))
                .collect();
            I::Element(a, items)
        }
        11 => {
            let rows = (0..1 + rng.below(3))
                .map(|_| {
                    (0..1 + rng.below(3))
                        .map(|_| gen_int(rng, 0, vars))
                        .collect()
                })
                .collect();
            I::Element2d(a, b, rows)
        }
        12 => I::Count(vec![gen_bool(rng, depth - 1, vars), gen_bool(rng, 0, vars)]),
        13 => I::NValue(vec![*a, *b, gen_int(rng, 0, vars)]),
        14 => I::CountEq(vec![*a, gen_int(rng, 0, vars), gen_int(rng, 0, vars)], b),
        _ => {
            let values = (0..rng.below(3)).map(|_| rng.below(5) as i64 - 2).collect();
            I::Among(vec![*a, *b, gen_int(rng, 0, vars)], values)
        }
    }
}

fn gen_bool(rng: &mut Rng, depth: u32, vars: usize) -> B {
    let cmp = |rng: &mut Rng| rng.below(6) as u8;
    if depth == 0 || rng.below(3) == 0 {
        return match rng.below(8) {
            0 => B::Const(rng.below(2) == 0),
            1 => B::Flag(rng.below(2)),
            _ => {
                let op = cmp(rng);
                B::Cmp(gen_int(rng, depth, vars), op, gen_int(rng, depth, vars))
            }
        };
    }
    let mut sub = || Box::new(gen_bool(rng, depth - 1, vars));
    let (a, b) = (sub(), sub());
    match rng.below(6) {
        0 => B::Not(a),
        1 => B::And(a, b),
        2 => B::Or(a, b),
        3 => B::Xor(a, b),
        4 => B::Implies(a, b),
        _ => B::Iff(a, b),
    }
}

/// The exact value of an expression (`None`: undefined) at integer values `x` and
/// boolean flags `f`.
fn eval_int(e: &I, x: &[i64], f: &[bool]) -> Option<i128> {
    let two = |a: &I, b: &I| Some((eval_int(a, x, f)?, eval_int(b, x, f)?));
    match e {
        I::Const(c) => Some(i128::from(*c)),
        I::Var(v) => Some(i128::from(x[*v])),
        I::Add(a, b) => two(a, b).map(|(a, b)| a + b),
        I::Sub(a, b) => two(a, b).map(|(a, b)| a - b),
        I::Mul(a, b) => two(a, b).map(|(a, b)| a * b),
        I::Div(a, b) => two(a, b).and_then(|(a, b)| a.checked_div(b)),
        I::Rem(a, b) => two(a, b).and_then(|(a, b)| a.checked_rem(b)),
        I::Abs(a) => eval_int(a, x, f).map(i128::abs),
        I::Min(a, b) => two(a, b).map(|(a, b)| a.min(b)),
        I::Max(a, b) => two(a, b).map(|(a, b)| a.max(b)),
        I::Pow(a, b) => two(a, b).and_then(|(a, b)| a.checked_pow(u32::try_from(b).ok()?)),
        I::Element(i, items) => {
            let i = eval_int(i, x, f)?;
            let items: Option<Vec<i128>> = items.iter().map(|e| eval_int(e, x, f)).collect();
            items?.get(usize::try_from(i).ok()?).copied()
        }
        I::Element2d(r, c, rows) => {
            let (r, c) = two(r, c)?;
            let rows: Option<Vec<Vec<i128>>> = rows
                .iter()
                .map(|row| row.iter().map(|e| eval_int(e, x, f)).collect())
                .collect();
            let rows = rows?;
            let row = rows.get(usize::try_from(r).ok()?)?;
            row.get(usize::try_from(c).ok()?).copied()
        }
        I::Count(items) => Some(items.iter().filter(|b| eval_bool(b, x, f)).count() as i128),
        I::NValue(items) => {
            let mut values: Vec<i128> = items
                .iter()
                .map(|e| eval_int(e, x, f))
                .collect::<Option<_>>()?;
            values.sort_unstable();
            values.dedup();
            Some(values.len() as i128)
        }
        I::CountEq(items, value) => {
            let value = eval_int(value, x, f)?;
            let items: Vec<i128> = items
                .iter()
                .map(|e| eval_int(e, x, f))
                .collect::<Option<_>>()?;
            Some(items.iter().filter(|&&v| v == value).count() as i128)
        }
        I::Among(items, values) => {
            let items: Vec<i128> = items
                .iter()
                .map(|e| eval_int(e, x, f))
                .collect::<Option<_>>()?;
            Some(
                items
                    .iter()
                    .filter(|&&v| values.iter().any(|&w| i128::from(w) == v))
                    .count() as i128,
            )
        }
    }
}

fn holds(op: u8, a: i128, b: i128) -> bool {
    match op {
        0 => a == b,
        1 => a != b,
        2 => a < b,
        3 => a <= b,
        4 => a > b,
        _ => a >= b,
    }
}

fn eval_bool(e: &B, x: &[i64], f: &[bool]) -> bool {
    match e {
        B::Const(b) => *b,
        B::Flag(k) => f[*k],
        B::Cmp(a, op, b) => match (eval_int(a, x, f), eval_int(b, x, f)) {
            (Some(a), Some(b)) => holds(*op, a, b),
            _ => false,
        },
        B::Not(a) => !eval_bool(a, x, f),
        B::And(a, b) => eval_bool(a, x, f) && eval_bool(b, x, f),
        B::Or(a, b) => eval_bool(a, x, f) || eval_bool(b, x, f),
        B::Xor(a, b) => eval_bool(a, x, f) ^ eval_bool(b, x, f),
        B::Implies(a, b) => !eval_bool(a, x, f) || eval_bool(b, x, f),
        B::Iff(a, b) => eval_bool(a, x, f) == eval_bool(b, x, f),
    }
}

struct Vars {
    ints: Vec<Var<i64>>,
    flags: Vec<Var<bool>>,
}

fn build_int(e: &I, v: &Vars) -> IntExpr {
    let two = |a: &I, b: &I| (build_int(a, v), build_int(b, v));
    match e {
        I::Const(c) => IntExpr::from(*c),
        I::Var(k) => IntExpr::from(&v.ints[*k]),
        I::Add(a, b) => {
            let (a, b) = two(a, b);
            a + b
        }
        I::Sub(a, b) => {
            let (a, b) = two(a, b);
            a - b
        }
        I::Mul(a, b) => {
            let (a, b) = two(a, b);
            a * b
        }
        I::Div(a, b) => {
            let (a, b) = two(a, b);
            a / b
        }
        I::Rem(a, b) => {
            let (a, b) = two(a, b);
            a % b
        }
        I::Abs(a) => build_int(a, v).abs(),
        I::Min(a, b) => {
            let (a, b) = two(a, b);
            a.min(b)
        }
        I::Max(a, b) => {
            let (a, b) = two(a, b);
            a.max(b)
        }
        I::Pow(a, b) => {
            let (a, b) = two(a, b);
            a.pow(b)
        }
        I::Element(i, items) => {
            IntExpr::element(build_int(i, v), items.iter().map(|e| build_int(e, v)))
        }
        I::Element2d(r, c, rows) => IntExpr::element2d(
            build_int(r, v),
            build_int(c, v),
            rows.iter()
                .map(|row| row.iter().map(|e| build_int(e, v)).collect::<Vec<_>>()),
        ),
        I::Count(items) => IntExpr::count(items.iter().map(|b| build_bool(b, v))),
        I::NValue(items) => IntExpr::nvalue(items.iter().map(|e| build_int(e, v))),
        I::CountEq(items, value) => {
            IntExpr::count_eq(items.iter().map(|e| build_int(e, v)), build_int(value, v))
        }
        I::Among(items, values) => IntExpr::among(items.iter().map(|e| build_int(e, v)), values),
    }
}

fn build_bool(e: &B, v: &Vars) -> BoolExpr {
    let two = |a: &B, b: &B| (build_bool(a, v), build_bool(b, v));
    match e {
        B::Const(b) => BoolExpr::from(*b),
        B::Flag(k) => BoolExpr::from(&v.flags[*k]),
        B::Cmp(a, op, b) => {
            let (a, b) = (build_int(a, v), build_int(b, v));
            match op {
                0 => a.eq(b),
                1 => a.ne(b),
                2 => a.lt(b),
                3 => a.le(b),
                4 => a.gt(b),
                _ => a.ge(b),
            }
        }
        B::Not(a) => !build_bool(a, v),
        B::And(a, b) => {
            let (a, b) = two(a, b);
            a & b
        }
        B::Or(a, b) => {
            let (a, b) = two(a, b);
            a | b
        }
        B::Xor(a, b) => {
            let (a, b) = two(a, b);
            a ^ b
        }
        B::Implies(a, b) => {
            let (a, b) = two(a, b);
            a.implies(b)
        }
        B::Iff(a, b) => {
            let (a, b) = two(a, b);
            a.iff(b)
        }
    }
}

/// Value lists: negative values, zero, repeats, falling and mixed orders.
const DOMAINS: [&[i64]; 6] = [
    &[-2, -1, 0, 1, 2],
    &[0, 1],
    &[3, -1, 0],
    &[2, 2, -3],
    &[-3, 0, 4, 1],
    &[1, 2],
];

struct Case {
    domains: Vec<&'static [i64]>,
    model: Model<'static>,
    vars: Vars,
}

fn case(rng: &mut Rng) -> Case {
    let domains: Vec<&[i64]> = (0..3).map(|_| rng.pick(&DOMAINS)).collect();
    let mut model = Model::new();
    let ints = domains
        .iter()
        .map(|d| model.var(d.iter().copied()))
        .collect();
    let flags = (0..2).map(|_| model.var([false, true])).collect();
    Case {
        domains,
        model,
        vars: Vars { ints, flags },
    }
}

/// Every assignment of the case's variables: values by index (repeats count twice).
fn assignments(domains: &[&[i64]]) -> Vec<(Vec<i64>, Vec<bool>)> {
    let mut out: Vec<(Vec<i64>, Vec<bool>)> = vec![(Vec::new(), Vec::new())];
    for d in domains {
        out = out
            .into_iter()
            .flat_map(|(x, f)| {
                d.iter().map(move |&v| {
                    let mut x = x.clone();
                    x.push(v);
                    (x, f.clone())
                })
            })
            .collect();
    }
    out.into_iter()
        .flat_map(|(x, _)| {
            [[false, false], [false, true], [true, false], [true, true]]
                .map(|f| (x.clone(), f.to_vec()))
        })
        .collect()
}

fn cases() -> u64 {
    std::env::var("EXPR_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

fn count(model: &Model<'_>, engine: Engine, what: &str) -> u64 {
    match model.solve(engine).count() {
        Ok(summary) => summary.solutions,
        Err(e) => panic!("{what} on {engine:?}: {e}"),
    }
}

#[test]
fn a_required_expression_has_the_brute_force_count_on_both_engines() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for k in 0..cases() {
        let mut c = case(&mut rng);
        let b = gen_bool(&mut rng, 3, 3);
        c.model.add(build_bool(&b, &c.vars));
        let expected = assignments(&c.domains)
            .iter()
            .filter(|(x, f)| eval_bool(&b, x, f))
            .count() as u64;
        for engine in [Engine::Trail, Engine::Replay] {
            let what = format!("case {k}: {b:?}");
            assert_eq!(
                count(&c.model, engine, &what),
                expected,
                "{what} on {engine:?}"
            );
        }
    }
}

#[test]
fn a_reified_expression_is_determined_and_says_whether_it_holds() {
    let mut rng = Rng(0x5eed_1234_abcd_0002);
    for k in 0..cases() {
        let mut c = case(&mut rng);
        let b = gen_bool(&mut rng, 3, 3);
        let lit = c.model.reify(build_bool(&b, &c.vars));
        // Every assignment stays (the literal is determined), and the literal is false
        // exactly where the expression is: requiring its negation counts those.
        let all = assignments(&c.domains);
        let expected_false = all.iter().filter(|(x, f)| !eval_bool(&b, x, f)).count() as u64;
        let what = format!("case {k}: {b:?}");
        for engine in [Engine::Trail, Engine::Replay] {
            assert_eq!(count(&c.model, engine, &what), all.len() as u64, "{what}");
        }
        c.model.clause([!lit]);
        for engine in [Engine::Trail, Engine::Replay] {
            assert_eq!(count(&c.model, engine, &what), expected_false, "{what}");
        }
    }
}

#[test]
fn an_integer_expression_s_value_is_its_exact_value_where_defined() {
    let mut rng = Rng(0x5eed_1234_abcd_0003);
    for k in 0..cases() {
        let mut c = case(&mut rng);
        let e = gen_int(&mut rng, 3, 3);
        let value = c.model.int_var(build_int(&e, &c.vars));
        let what = format!("case {k}: {e:?}");
        let mut expected: Vec<(Vec<i64>, Vec<bool>, i128)> = assignments(&c.domains)
            .into_iter()
            .filter_map(|(x, f)| eval_int(&e, &x, &f).map(|v| (x, f, v)))
            .collect();
        expected.sort();
        for engine in [Engine::Trail, Engine::Replay] {
            let solver = c.model.solve(engine);
            let mut found: Vec<(Vec<i64>, Vec<bool>, i128)> = solver
                .try_solutions()
                .map(|s| {
                    let s = s.unwrap_or_else(|e| panic!("{what}: {e}"));
                    (
                        c.vars.ints.iter().map(|v| *s.value(v)).collect(),
                        c.vars.flags.iter().map(|v| *s.value(v)).collect(),
                        i128::from(*s.value(&value)),
                    )
                })
                .collect();
            found.sort();
            assert_eq!(found, expected, "{what} on {engine:?}");
        }
    }
}

#[test]
fn an_objective_expression_reaches_the_brute_force_optimum() {
    let mut rng = Rng(0x5eed_1234_abcd_0004);
    for k in 0..cases() / 3 {
        let mut c = case(&mut rng);
        let e = gen_int(&mut rng, 2, 3);
        c.model.maximize_expr(build_int(&e, &c.vars));
        let expected = assignments(&c.domains)
            .iter()
            .filter_map(|(x, f)| eval_int(&e, x, f))
            .max()
            .map(|v| v as i64);
        let what = format!("case {k}: {e:?}");
        for engine in [Engine::Trail, Engine::Replay] {
            let best = c
                .model
                .solve(engine)
                .best()
                .unwrap_or_else(|err| panic!("{what}: {err}"));
            assert_eq!(best.objective, expected, "{what} on {engine:?}");
        }
    }
}

#[test]
fn literals_and_booleans_mix_with_integers() {
    // b == (x + y <= 2) and count(x == 1, y == 1, b) == 2.
    let mut m = Model::new();
    let x = m.var(-2..=2i64);
    let y = m.var(-2..=2i64);
    let b = m.var([false, true]);
    let (ex, ey) = (IntExpr::from(&x), IntExpr::from(&y));
    m.add(BoolExpr::from(&b).iff((ex.clone() + &ey).le(2)));
    m.add(IntExpr::count([ex.eq(1), ey.eq(1), BoolExpr::from(Lit::from(&b))]).eq(2));
    let brute = (-2..=2i64)
        .flat_map(|x| (-2..=2i64).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let b = x + y <= 2;
            [x == 1, y == 1, b].iter().filter(|&&h| h).count() == 2
        })
        .count() as u64;
    for engine in [Engine::Trail, Engine::Replay] {
        assert_eq!(count(&m, engine, "mix"), brute);
    }
}

#[test]
fn a_function_equal_to_a_variable_takes_it_as_its_result() {
    // z lists a value twice: each of its indices is a solution of its own.
    let xs: [i64; 5] = [-2, -1, 0, 1, 3];
    let zs: [i64; 7] = [0, 1, 1, -2, 4, 9, -3];
    type Case = (fn(i64, i64) -> Option<i64>, fn(IntExpr, IntExpr) -> IntExpr);
    let cases: [(&str, Case); 7] = [
        ("x * y", (|x, y| Some(x * y), |x, y| x * y)),
        ("x / y", (|x, y| x.checked_div(y), |x, y| x / y)),
        ("x % y", (|x, y| x.checked_rem(y), |x, y| x % y)),
        ("abs(x)", (|x, _| Some(x.abs()), |x, _| x.abs())),
        ("max(x, y)", (|x, y| Some(x.max(y)), |x, y| x.max(y))),
        ("x ^ 2", (|x, _| Some(x * x), |x, _| x.pow(2))),
        (
            "[x, y, 1][y]",
            (
                |x, y| [x, y, 1].get(usize::try_from(y).ok()?).copied(),
                |x, y| IntExpr::element(y.clone(), [x, y, IntExpr::from(1)]),
            ),
        ),
    ];
    for (what, (meaning, build)) in cases {
        let mut m = Model::new();
        let x = m.var(xs);
        let y = m.var(xs);
        let z = m.var(zs);
        m.add(build(IntExpr::from(&x), IntExpr::from(&y)).eq(&z));
        let expected = xs
            .iter()
            .flat_map(|&x| xs.iter().map(move |&y| (x, y)))
            .map(|(x, y)| zs.iter().filter(|&&z| meaning(x, y) == Some(z)).count() as u64)
            .sum::<u64>();
        for engine in [Engine::Trail, Engine::Replay] {
            assert_eq!(
                count(&m, engine, what),
                expected,
                "{what} == z on {engine:?}"
            );
        }
    }
}

#[test]
fn functions_post_the_model_s_own_kinds() {
    type Build = fn(&Var<i64>, &Var<i64>, &Var<i64>) -> BoolExpr;
    let cases: [(&str, Build); 10] = [
        ("times(", |x, y, z| (IntExpr::from(x) * y).eq(z)),
        ("div(", |x, y, z| (IntExpr::from(x) / y).le(z)),
        ("rem(", |x, y, z| (IntExpr::from(x) % y).ne(z)),
        ("pow(", |x, y, _| IntExpr::from(x).pow(y).ge(2)),
        ("abs(", |x, y, _| (IntExpr::from(x) - y).abs().le(1)),
        ("max(", |x, y, z| IntExpr::from(x).max(y).lt(z)),
        ("element", |x, y, z| IntExpr::element(x, [y, z]).eq(1)),
        ("element2d", |x, y, _| {
            IntExpr::element2d(x, y, [[1, 2], [3, 4]]).ge(3)
        }),
        ("count of", |x, y, z| IntExpr::count_eq([x, y], z).eq(1)),
        ("distinct values", |x, y, z| {
            IntExpr::nvalue([x, y, z]).eq(2)
        }),
    ];
    for (kind, build) in cases {
        let mut m = Model::new();
        let [x, y, z] = [m.var(0..3i64), m.var(-1..=2i64), m.var(0..2i64)];
        m.add(build(&x, &y, &z));
        let model = format!("{m:?}");
        assert!(model.contains(kind), "{kind} not posted: {model}");
        assert!(!model.contains("table"), "{kind} as a table: {model}");
    }
}
