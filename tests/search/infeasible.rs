//! Why no solution (`Model::explain_infeasible`): on random small models, against a brute
//! force, the answer is "satisfiable" exactly when a solution exists, and otherwise a
//! conflict that has no solution and is minimal (without any one of its parts, the
//! others have one); named blocks are kept or given up whole.
//!
//! More random cases: `PROPTEST_CASES=5000 cargo test --release --test search infeasible::`.

use crate::common::differential::{self, Pair, assignments, pair, pair_holds};

use ambsolve::{Cmp, Infeasibility, Model, Part};
use proptest::prelude::*;

const VALUES: i64 = 4;

#[derive(Clone, Debug)]
enum Item {
    /// `a * x + b * y cmp c`, named by its position.
    Linear(Pair),
    /// `x` kept to the values of the mask (`restrict`).
    Keep(usize, u8),
}

#[derive(Clone, Debug)]
struct Spec {
    vars: usize,
    items: Vec<Item>,
}

/// What a part of the answer stands for: a named item, or every `Keep` of a variable.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Unit {
    Item(usize),
    Domain(usize),
}

fn holds(item: &Item, v: &[i64]) -> bool {
    match *item {
        Item::Linear(ref pair) => pair_holds(pair, v),
        Item::Keep(x, mask) => mask >> v[x] & 1 == 1,
    }
}

/// Whether the items that `units` keep have a common solution (by brute force).
fn satisfiable(spec: &Spec, units: &[Unit]) -> bool {
    let kept = |k: usize, item: &Item| match item {
        Item::Keep(x, _) => units.contains(&Unit::Domain(*x)),
        Item::Linear(..) => units.contains(&Unit::Item(k)),
    };
    assignments(spec.vars, VALUES).any(|v| {
        spec.items
            .iter()
            .enumerate()
            .all(|(k, item)| !kept(k, item) || holds(item, &v))
    })
}

fn build(spec: &Spec) -> Model<'static> {
    let mut m = Model::new();
    let x = m.vars("x", spec.vars, 0..VALUES);
    for (k, item) in spec.items.iter().enumerate() {
        match *item {
            Item::Linear((a, i, b, j, cmp, c)) => {
                m.named(format!("item {k}"), |m| {
                    m.linear([(a, &x[i]), (b, &x[j])], cmp, c);
                });
            }
            Item::Keep(i, mask) => m.restrict(&x[i], |&v| mask >> v & 1 == 1),
        }
    }
    m
}

fn unit(part: &Part) -> Unit {
    match part {
        Part::Named { name, .. } => Unit::Item(
            name.strip_prefix("item ")
                .and_then(|k| k.parse().ok())
                .expect("an item's name"),
        ),
        Part::Domain { var, .. } => Unit::Domain(
            var.strip_prefix("x[")
                .and_then(|v| v.strip_suffix(']'))
                .and_then(|k| k.parse().ok())
                .expect("a variable's name"),
        ),
        Part::Constraint { description, .. } => panic!("an unnamed constraint: {description}"),
        other => panic!("an unknown part: {other:?}"),
    }
}

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..=3).prop_flat_map(|vars| {
        let item = prop_oneof![
            3 => pair(vars).prop_map(Item::Linear),
            1 => (0..vars, 0u8..16).prop_map(|(x, mask)| Item::Keep(x, mask)),
        ];
        proptest::collection::vec(item, 1..=8).prop_map(move |items| Spec { vars, items })
    })
}

proptest! {
    #![proptest_config(differential::cases(300))]

    #[test]
    fn a_conflict_has_no_solution_and_is_minimal(spec in spec()) {
        let every: Vec<Unit> = (0..spec.items.len())
            .map(Unit::Item)
            .chain((0..spec.vars).map(Unit::Domain))
            .collect();
        let why = build(&spec).explain_infeasible().unwrap();
        match &why {
            Infeasibility::Satisfiable => prop_assert!(satisfiable(&spec, &every)),
            Infeasibility::Conflict(parts) => {
                prop_assert!(!satisfiable(&spec, &every));
                let units: Vec<Unit> = parts.iter().map(unit).collect();
                prop_assert!(!satisfiable(&spec, &units), "{why}: has a solution");
                for k in 0..units.len() {
                    let mut fewer = units.clone();
                    fewer.remove(k);
                    prop_assert!(satisfiable(&spec, &fewer), "{why}: not minimal");
                }
            }
            other => prop_assert!(false, "{other:?}"),
        }
    }
}

#[test]
fn clues_that_conflict_are_named() {
    // A row of three all different in 1..=3, clues given in named blocks: the two clues
    // that say 2 conflict with the row, the third clue plays no part.
    let mut m = Model::new();
    let row = m.vars("cell", 3, 1..=3i64);
    m.named("the row", |m| m.all_different(&row));
    m.named("clue: cell 1 is 3", |m| {
        m.linear([(1, &row[0])], Cmp::Eq, 3)
    });
    m.named("clue: cell 2 is 2", |m| {
        m.linear([(1, &row[1])], Cmp::Eq, 2)
    });
    m.named("clue: cell 3 is 2", |m| {
        m.linear([(1, &row[2])], Cmp::Eq, 2)
    });
    let why = m.explain_infeasible().unwrap();
    assert_eq!(
        why.to_string(),
        "these cannot hold together:\n  the row\n  clue: cell 2 is 2\n  clue: cell 3 is 2"
    );
    // Unnamed constraints are parts of their own, described with the variables' names.
    let mut m = Model::new();
    let x = m.named_var("x", 0..3i64);
    let y = m.named_var("y", 0..3i64);
    m.linear([(1, &x), (1, &y)], Cmp::Ge, 5);
    m.linear([(1, &y)], Cmp::Le, 5);
    let why = m.explain_infeasible().unwrap();
    let parts = why.conflict().expect("a conflict");
    assert_eq!(parts.len(), 1);
    assert!(
        why.to_string().contains('x') && why.to_string().contains('y'),
        "{why}"
    );
    assert!(!why.to_string().contains("v0"), "{why}");
}

#[test]
fn a_satisfiable_model_and_a_limit_say_so() {
    let mut m = Model::new();
    let q = m.vars("q", 8, 0..8i64);
    m.all_different(&q);
    assert_eq!(m.explain_infeasible().unwrap(), Infeasibility::Satisfiable);
    // Pigeons: 9 into 8 holes, proved only by a long search; a node limit stops it.
    let mut m = Model::new();
    let p = m.vars("p", 9, 0..8i64);
    for i in 0..9 {
        for j in i + 1..9 {
            m.linear([(1, &p[i]), (-1, &p[j])], Cmp::Ne, 0);
        }
    }
    let limited = m
        .explain_infeasible_within(ambsolve::Limits::new().nodes(100))
        .unwrap();
    assert!(matches!(limited, Infeasibility::Unknown(_)), "{limited:?}");
}
