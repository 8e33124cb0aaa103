//! The differential tests' shared pieces: random value lists with random constraints over
//! them, the brute force's solutions, and each engine's, compared.

use ambsolve::{
    Engine, IntArg, Limits, Model, Restarts, Strategy as Search, ValueOrder, Var, VarOrder,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError};

/// An argument of a random constraint: a constant or one of the model's variables (by
/// position).
#[derive(Clone, Debug)]
pub enum Arg {
    Const(i64),
    Var(usize),
}

impl Arg {
    /// Its value in an assignment of the model's variables.
    pub fn value(&self, values: &[i64]) -> i64 {
        match self {
            Arg::Const(c) => *c,
            Arg::Var(v) => values[*v],
        }
    }

    /// It as an argument of a `Model` method, over the model's variables `vars`.
    pub fn of(&self, vars: &[Var<i64>]) -> IntArg {
        match self {
            Arg::Const(c) => IntArg::from(*c),
            Arg::Var(v) => IntArg::from(&vars[*v]),
        }
    }
}

/// Cases per property: `PROPTEST_CASES` if set, else `default`.
pub fn cases(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default);
    Config::with_cases(cases)
}

/// Small random models: 1 to 5 value lists (1 to 4 values each in `values`, repeats and
/// any order allowed) and 1 or 2 constraints drawn by `kind` over that many variables.
pub fn lists_and_kinds<K: std::fmt::Debug + Clone, S: Strategy<Value = K>>(
    values: std::ops::RangeInclusive<i64>,
    kind: impl Fn(usize) -> S + Clone,
) -> impl Strategy<Value = (Vec<Vec<i64>>, Vec<K>)> {
    let list = proptest::collection::vec(values, 1..=4);
    proptest::collection::vec(list, 1..=5).prop_flat_map(move |lists| {
        let kinds = proptest::collection::vec(kind(lists.len()), 1..=2);
        (Just(lists), kinds)
    })
}

/// Every index tuple of `lists` whose values make `holds` true, in lexicographic order.
pub fn brute_force_values(lists: &[Vec<i64>], holds: impl Fn(&[i64]) -> bool) -> Vec<Vec<u32>> {
    super::brute_force(lists, |index| {
        let values: Vec<i64> = index.iter().zip(lists).map(|(&i, l)| l[i]).collect();
        holds(&values)
    })
}

/// The solutions `engine` finds with `strategy`, as value indices, in the order found.
///
/// # Panics
/// If the search reports an error.
pub fn solutions_in_order(model: &Model<'_>, engine: Engine, strategy: Search) -> Vec<Vec<u32>> {
    let found: Result<Vec<Vec<u32>>, _> = model
        .solve(engine)
        .strategy(strategy)
        .try_solutions()
        .map(|a| a.map(|a| a.indices().to_vec()))
        .collect();
    found.unwrap_or_else(|error| panic!("{engine:?}: {error}"))
}

/// The solutions `engine` finds with `strategy`, as value indices, sorted.
///
/// # Panics
/// If the search reports an error.
pub fn sorted_solutions(model: &Model<'_>, engine: Engine, strategy: Search) -> Vec<Vec<u32>> {
    let mut found = solutions_in_order(model, engine, strategy);
    found.sort();
    found
}

/// The trail engine (in input order and first-fail) and the replay engine each find
/// exactly `expected`.
pub fn engines_agree(model: &Model<'_>, expected: &[Vec<u32>]) -> Result<(), TestCaseError> {
    engines_agree_on(model, expected, usize::MAX)
}

/// [`engines_agree`] on the first `vars` variables of each solution: a model whose
/// constraints add variables that its first ones determine (a packing's loads).
pub fn engines_agree_on(
    model: &Model<'_>,
    expected: &[Vec<u32>],
    vars: usize,
) -> Result<(), TestCaseError> {
    let cut = |mut found: Vec<Vec<u32>>| {
        for solution in &mut found {
            solution.truncate(vars);
        }
        found
    };
    let input = || Search::new().vars(VarOrder::Input);
    prop_assert_eq!(
        cut(sorted_solutions(model, Engine::Trail, input())),
        expected,
        "trail"
    );
    prop_assert_eq!(
        cut(sorted_solutions(model, Engine::Replay, input())),
        expected,
        "replay"
    );
    let first_fail = cut(sorted_solutions(model, Engine::Trail, Search::first_fail()));
    prop_assert_eq!(first_fail, expected, "trail, first fail");
    // Learning alone, and learning that takes turns with a strategy of its own (a
    // restart at every conflict, so that every kind of run comes up).
    let alternating = Search::first_fail()
        .values(ValueOrder::Descending)
        .restarts(Restarts::luby(1))
        .alternating(true);
    for (strategy, what) in [
        (Search::new(), "trail, learning"),
        (alternating, "trail, learning, alternating"),
    ] {
        let learning: Result<Vec<Vec<u32>>, _> = model
            .solve(Engine::Trail)
            .strategy(strategy.learning(true))
            .try_solutions()
            .map(|a| a.map(|a| a.indices().to_vec()))
            .collect();
        match learning {
            Ok(mut found) => {
                found.sort();
                prop_assert_eq!(cut(found), expected, "{}", what);
            }
            // What learning refuses, it says so (a task list naming a start twice).
            Err(ambsolve::SearchError::Unsupported(_)) => {}
            Err(error) => panic!("{what}: {error}"),
        }
    }
    Ok(())
}

/// Local search (seeded, 2,000 steps) yields only solutions of `expected`.
pub fn local_finds_only(model: &Model<'_>, expected: &[Vec<u32>]) -> Result<(), TestCaseError> {
    local_finds_only_on(model, expected, usize::MAX)
}

/// [`local_finds_only`] on the first `vars` variables of each solution.
pub fn local_finds_only_on(
    model: &Model<'_>,
    expected: &[Vec<u32>],
    vars: usize,
) -> Result<(), TestCaseError> {
    let found = model
        .solve(Engine::Local)
        .seed(7)
        .limits(Limits::new().nodes(2_000))
        .solutions()
        .take(3);
    for assignment in found {
        let indices = assignment.indices();
        prop_assert!(expected.contains(&indices[..indices.len().min(vars)].to_vec()));
    }
    Ok(())
}

/// Both complete engines' count of `model`, which must agree.
///
/// # Panics
/// If they differ or report an error.
pub fn count_both(model: &Model<'_>) -> u64 {
    let trail = model.solve(Engine::Trail).count().unwrap().solutions;
    let replay = model.solve(Engine::Replay).count().unwrap().solutions;
    assert_eq!(trail, replay, "trail and replay disagree");
    match model
        .solve(Engine::Trail)
        .strategy(Search::new().learning(true))
        .count()
    {
        Ok(learning) => assert_eq!(
            trail, learning.solutions,
            "trail with and without learning disagree"
        ),
        Err(ambsolve::SearchError::Unsupported(_)) => {}
        Err(error) => panic!("learning: {error}"),
    }
    trail
}

/// A random linear constraint on two variables of a small model: `a * x + b * y cmp c`,
/// the variables by position (the random models of the search tests).
pub type Pair = (i64, usize, i64, usize, ambsolve::Cmp, i64);

/// Random [`Pair`]s over `vars` variables: coefficients in -2..=2, constants in -3..=5,
/// any of `<=`, `>=`, `==`, `!=`.
pub fn pair(vars: usize) -> impl Strategy<Value = Pair> {
    use ambsolve::Cmp;
    let cmp = prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq), Just(Cmp::Ne)];
    (-2i64..=2, 0..vars, -2i64..=2, 0..vars, cmp, -3i64..=5)
}

/// Whether `pair` holds where the variables take `values`.
pub fn pair_holds(&(a, x, b, y, cmp, c): &Pair, values: &[i64]) -> bool {
    use ambsolve::Cmp;
    let s = a * values[x] + b * values[y];
    match cmp {
        Cmp::Le => s <= c,
        Cmp::Ge => s >= c,
        Cmp::Eq => s == c,
        _ => s != c,
    }
}

/// Every assignment of `vars` variables over `0..values`, the first variable varying
/// fastest.
pub fn assignments(vars: usize, values: i64) -> impl Iterator<Item = Vec<i64>> {
    (0..values.pow(vars as u32)).map(move |code| {
        (0..vars)
            .map(|i| code / values.pow(i as u32) % values)
            .collect()
    })
}
