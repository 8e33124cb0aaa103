//! A search that cannot go on is never mistaken for "no more solutions": a broken model is
//! an error from every entry point, and a nondeterministic program ends its search with its
//! error (a plain `for` loop panics with the message).

use ambsolve::{Engine, Model, SearchError, replay};

/// A model whose constraint names a variable of another model.
fn broken_model() -> Model<'static> {
    let mut other = Model::new();
    let _ = other.var(0..3);
    let stranger = other.var(0..3);
    let mut m = Model::new();
    let x = m.var(0..3);
    m.all_different([&x, &stranger]);
    m
}

#[test]
fn a_broken_model_is_an_error_from_every_entry_point() {
    let model = broken_model();
    assert!(model.error().is_some());
    for engine in [Engine::Trail, Engine::Replay] {
        let solver = || model.solve(engine);
        assert!(matches!(
            solver().count(),
            Err(SearchError::InvalidModel(_))
        ));
        assert!(matches!(
            solver().first(),
            Err(SearchError::InvalidModel(_))
        ));
        let items: Vec<_> = solver().try_solutions().collect();
        assert!(
            matches!(items[..], [Err(SearchError::InvalidModel(ref m))] if m.contains("declared by another model")),
            "{items:?}"
        );
    }
}

#[test]
#[should_panic(expected = "invalid model")]
fn a_broken_model_in_a_for_loop_panics_with_the_message() {
    let mut printed = 0;
    for _ in broken_model().solve(Engine::Trail).solutions() {
        printed += 1;
    }
    // Not reached: the loop must not end as if there were no solutions.
    assert_eq!(printed, usize::MAX);
}

#[test]
#[should_panic(expected = "not deterministic")]
fn a_nondeterministic_program_in_a_for_loop_panics_with_the_message() {
    let mut calls = 0;
    let program = replay(move |amb| {
        calls += 1;
        amb.choose(0..2)?;
        amb.choose(0..calls)?;
        amb.fail::<()>()
    });
    for () in program.solutions() {}
}

#[test]
fn a_nondeterministic_program_ends_try_solutions_with_its_error() {
    let mut calls = 0;
    let program = replay(move |amb| {
        calls += 1;
        let x = amb.choose(0..2)?;
        amb.choose(0..calls)?;
        Ok(x)
    });
    // Run 1 records arity 1 at depth 1, run 2 (first choice advanced) records arity 2,
    // run 3 replays that frame and sees 3 alternatives.
    let mut results = program.try_solutions();
    assert_eq!(results.next(), Some(Ok(0)));
    assert_eq!(results.next(), Some(Ok(1)));
    assert_eq!(
        results.next(),
        Some(Err(SearchError::Nondeterministic {
            depth: 1,
            recorded: 2,
            replayed: 3
        }))
    );
    assert_eq!(results.next(), None);
    assert!(results.error().is_some());
}
