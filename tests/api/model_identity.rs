//! A model's variables and their identity: a variable (or an id) of another model, or of a
//! clone that has diverged, is refused by every method, on every engine; a clone that
//! declares nothing keeps its variables, and an assignment knows its model.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ambsolve::{Cmp, Context, Engine, Fail, Model, Propagator, SearchError, Var};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

fn assert_invalid(model: &Model<'_>, what: &str) {
    let message = model.error().unwrap_or_else(|| panic!("{what}: accepted"));
    assert!(message.contains("another model"), "{what}: {message}");
    for engine in ENGINES {
        assert!(
            matches!(
                model.solve(engine).count(),
                Err(SearchError::InvalidModel(_))
            ),
            "{what} on {engine}"
        );
    }
}

#[test]
fn a_variable_of_another_model_is_refused_by_every_typed_method() {
    let mut other = Model::new();
    let _ = other.var(0..3);
    let stranger = other.var(0..3); // position 1, which exists in the models below too
    type AddWith = fn(&mut Model<'static>, &ambsolve::Var<i32>);
    let cases: [(&str, AddWith); 13] = [
        ("all_different", |m, s| {
            let x = m.var(0..3);
            m.all_different([&x, s])
        }),
        ("all_different_offset", |m, s| {
            let x = m.var(0..3);
            m.all_different_offset([(&x, 0), (s, 1)])
        }),
        ("linear", |m, s| {
            let x = m.var(0..3);
            m.linear([(1, &x), (1, s)], ambsolve::Cmp::Eq, 2)
        }),
        ("restrict", |m, s| m.restrict(s, |v| *v > 0)),
        ("table", |m, s| m.table(std::slice::from_ref(s), [[1]])),
        ("relation", |m, s| {
            let x = m.var(0..3);
            m.relation(&x, s, |a, b| a < b)
        }),
        ("require one", |m, s| m.require(s, |v| *v > 0)),
        ("require pair", |m, s| {
            let x = m.var(0..3);
            m.require((&x, s), |a, b| a < b)
        }),
        ("require triple", |m, s| {
            let x = m.var(0..3);
            m.require((&x, &x, s), |a, _, c| a < c)
        }),
        ("require slice", |m, s| {
            m.require(std::slice::from_ref(s), |v| *v[0] > 0)
        }),
        ("require array", |m, s| {
            let array: [Var<i32>; 1] = [s.clone()];
            m.require(&array, |v| *v[0] > 0)
        }),
        ("require vec", |m, s| {
            m.require(&vec![s.clone()], |v| *v[0] > 0)
        }),
        ("require six", |m, s| {
            let x = m.var(0..3);
            m.require((&x, &x, &x, &x, &x, s), |_, _, _, _, _, f| *f > 0)
        }),
    ];
    for (what, add) in cases {
        let mut m = Model::new();
        let _ = m.var(0..3);
        let _ = m.var(0..3);
        add(&mut m, &stranger);
        assert_invalid(&m, what);
    }
}

#[test]
fn a_clone_shares_its_variables_and_an_assignment_knows_its_model() {
    let mut m = Model::new();
    let x = m.var(0..3);
    let mut copy = m.clone();
    copy.require(&x, |v| *v == 2);
    assert_eq!(copy.error(), None);
    let solution = copy.solve(Engine::Trail).first().unwrap().unwrap();
    assert_eq!(*solution.value(&x), 2);

    let mut other = Model::new();
    let y = other.var(0..3);
    let read = catch_unwind(AssertUnwindSafe(|| *solution.value(&y)));
    assert!(read.is_err(), "reading a variable of another model panics");
}

/// Engines that search a model, local search included.
const ALL_ENGINES: [Engine; 3] = [Engine::Trail, Engine::Replay, Engine::Local];

/// `model` is invalid because of a variable it does not own, on every engine.
fn assert_refused(model: &Model<'_>, what: &str) {
    let message = model.error().unwrap_or_else(|| panic!("{what}: accepted"));
    assert!(message.contains("another model"), "{what}: {message}");
    for engine in ALL_ENGINES {
        let first = catch_unwind(AssertUnwindSafe(|| model.solve(engine).first()));
        assert!(
            matches!(first, Ok(Err(SearchError::InvalidModel(_)))),
            "{what} on {engine}: {first:?}"
        );
    }
}

#[test]
fn a_variable_of_a_diverged_clone_is_refused_by_every_typed_method() {
    // `a` and its clone `b` each declare a variable at position 1, over lists of other
    // lengths: each model refuses the other's (before, it stood for the model's own
    // variable at that position, and the engines panicked on its values or constrained
    // the wrong variable).
    type AddWith = fn(&mut Model<'static>, &Var<i64>);
    let cases: [(&str, AddWith); 8] = [
        ("all_different", |m, s| m.all_different([s])),
        ("all_different_offset", |m, s| {
            m.all_different_offset([(s, 1)])
        }),
        ("linear", |m, s| m.linear([(1, s)], Cmp::Eq, 4)),
        ("restrict", |m, s| m.restrict(s, |v| *v > 0)),
        ("table", |m, s| m.table(std::slice::from_ref(s), [[1]])),
        ("require one", |m, s| m.require(s, |v| *v == 4)),
        ("maximize", |m, s| m.maximize([(1, s)])),
        ("require slice", |m, s| {
            m.require(std::slice::from_ref(s), |v| *v[0] > 0)
        }),
    ];
    for (what, add) in cases {
        let mut a = Model::new();
        let shared = a.var(0..3i64);
        let mut b = a.clone();
        let mine = a.var(0..5i64);
        let theirs = b.var(0..2i64);
        let mut a_with_b = a.clone();
        add(&mut a_with_b, &theirs);
        assert_refused(&a_with_b, what);
        let mut b_with_a = b.clone();
        add(&mut b_with_a, &mine);
        assert_refused(&b_with_a, what);
        // Their common variable, and each one's own, are taken.
        for (m, own) in [(&a, &mine), (&b, &theirs)] {
            for var in [&shared, own] {
                let mut m = m.clone();
                add(&mut m, var);
                assert_eq!(m.error(), None, "{what}");
            }
        }
    }
}

#[test]
fn a_clone_that_declares_nothing_keeps_its_variables_and_assignments_read_them() {
    let mut a = Model::new();
    let x = a.var(0..3);
    let b = a.clone();
    // `a` declares after the clone: its new variable is its own, x is still common.
    let y = a.var(0..3);
    a.require((&x, &y), |x, y| x < y);
    let mut c = b.clone();
    c.require(&x, |v| *v == 2);
    assert_eq!(c.error(), None);
    let solution = c.solve(Engine::Trail).first().unwrap().unwrap();
    assert_eq!(*solution.value(&x), 2);
    assert_eq!(solution.index(&x), 2);
    let read = catch_unwind(AssertUnwindSafe(|| *solution.value(&y)));
    assert!(read.is_err(), "y is not a variable of c");
    let from_a = a.solve(Engine::Replay).first().unwrap().unwrap();
    assert_eq!((*from_a.value(&x), *from_a.value(&y)), (0, 1));
}

#[test]
fn an_id_of_another_model_is_refused_by_every_method_taking_ids() {
    let mut other = Model::new();
    let _ = other.var(0..3);
    let stranger = other.var(0..3).id(); // position 1, which the models below have too
    type AddWith = fn(&mut Model<'static>, ambsolve::VarId);
    let cases: [(&str, AddWith); 4] = [
        ("require_indices", |m, s| {
            m.require_indices(&[s], |i| i[0] == 1)
        }),
        ("table_indices", |m, s| m.table_indices(&[s], [[1u32]])),
        ("propagator", |m, s| m.propagator(&[s], Nothing)),
        ("symmetries", |m, s| {
            m.symmetries([ambsolve::Symmetry::new("to a stranger", move |v, x| {
                (if v.index() == 1 { s } else { v }, x)
            })])
        }),
    ];
    for (what, add) in cases {
        for diverged in [false, true] {
            let mut m = Model::new();
            let _ = m.var(0..3);
            let mut clone = m.clone();
            let _ = m.var(0..3);
            // Another model's variable at position 1, or the clone's own one there.
            let stranger = if diverged {
                clone.var(0..3).id()
            } else {
                stranger
            };
            add(&mut m, stranger);
            if what == "symmetries" {
                for engine in ENGINES {
                    let error = m.solve(engine).up_to_symmetry().count().unwrap_err();
                    assert!(
                        error.to_string().contains("another model"),
                        "{what}: {error}"
                    );
                }
            } else {
                assert_refused(&m, what);
            }
            // The same position as a plain index is the model's own variable.
            let mut plain = Model::new();
            let _ = plain.var(0..3);
            let _ = plain.var(0..3);
            add(&mut plain, ambsolve::VarId::from_index(1));
            assert_eq!(plain.error(), None, "{what}");
        }
    }
    // A strategy naming another model's variable.
    let mut m = Model::new();
    let _ = m.var(0..3);
    let _ = m.var(0..3);
    let order = ambsolve::Strategy::new().vars(ambsolve::VarOrder::Given([stranger].into()));
    for engine in ENGINES {
        let error = m.solve(engine).strategy(order.clone()).count().unwrap_err();
        assert!(
            matches!(error, SearchError::InvalidModel(_)),
            "{engine}: {error}"
        );
    }
    // Reading an assignment by another model's id panics, as indexing out of it does.
    let solution = m.solve(Engine::Trail).first().unwrap().unwrap();
    let read = catch_unwind(AssertUnwindSafe(|| solution.index(stranger)));
    assert!(read.is_err());
}

/// A propagator that prunes nothing.
struct Nothing;

impl Propagator for Nothing {
    fn propagate(&self, _cx: &mut Context<'_>) -> Result<(), Fail> {
        Ok(())
    }
}
