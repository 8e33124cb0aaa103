//! The model API from a user's side: limits on the trail engine, building errors, the
//! engine switch, typed values.

use std::time::Duration;

use ambsolve::{Cmp, Engine, Limits, Model, SearchError, StopReason};

use crate::common;

use common::queens_model as queens;

#[test]
fn trail_limits_end_with_their_reasons() {
    let model = queens(12);
    let nodes = model
        .solve(Engine::Trail)
        .limits(Limits::new().nodes(50))
        .count()
        .unwrap();
    assert_eq!(nodes.stop_reason, StopReason::NodeLimit);
    assert_eq!(nodes.stats.nodes, 50);

    let mut solutions = model
        .solve(Engine::Trail)
        .limits(Limits::new().solutions(3))
        .solutions();
    assert_eq!(solutions.by_ref().count(), 3);
    assert_eq!(solutions.stop_reason(), Some(StopReason::SolutionLimit));

    let big = queens(28);
    let timed = big
        .solve(Engine::Trail)
        .limits(Limits::new().time(Duration::from_millis(30)))
        .count()
        .unwrap();
    assert_eq!(timed.stop_reason, StopReason::TimeLimit);

    let (flag, canceller) = common::cancel_after(Duration::from_millis(30));
    let cancelled = big
        .solve(Engine::Trail)
        .limits(Limits::new().cancel(flag))
        .count()
        .unwrap();
    canceller.join().unwrap();
    assert_eq!(cancelled.stop_reason, StopReason::Cancelled);
}

#[test]
fn a_paused_count_resumes_where_it_stopped() {
    let model = queens(9);
    let mut solutions = model.solve(Engine::Trail).solutions();
    let mut total = 0;
    let mut pauses = 0;
    while solutions.stop_reason().is_none() {
        total += solutions.count_for(Duration::ZERO).unwrap();
        pauses += 1;
    }
    assert_eq!(total, 352);
    // 9 queens takes a few thousand decisions: a zero budget pauses every 1024.
    assert!(pauses > 1, "a zero budget pauses");
    assert_eq!(solutions.progress(), 1.0);
}

#[test]
fn building_errors_surface_when_solving() {
    let mut m = Model::new();
    let big = m.var([u64::MAX]);
    m.linear([(1, &big)], Cmp::Eq, 0);
    let error = m.solve(Engine::Trail).count().unwrap_err();
    assert!(
        matches!(&error, SearchError::InvalidModel(message) if message.contains("does not fit in an i64")),
        "{error}"
    );

    let mut other = Model::new();
    let stray = other.vars("s", 3, 0..3u8);
    let mut m = Model::new();
    let _ = m.var(0..3u8);
    m.all_different(&stray);
    let error = m.solve(Engine::Replay).first().unwrap_err();
    assert!(
        error.to_string().contains("declared by another model"),
        "{error}"
    );

    let mut m = Model::new();
    let x = m.vars("x", 2, 0..3u8);
    m.table(&x, [vec![0u8, 1, 2]]);
    assert!(
        m.error()
            .is_some_and(|e| e.contains("3 values for 2 variables"))
    );
}

#[test]
fn switching_engines_is_one_word() {
    let model = queens(6);
    let [trail, replay] =
        [Engine::Trail, Engine::Replay].map(|engine| model.solve(engine).count().unwrap());
    assert_eq!((trail.solutions, replay.solutions), (4, 4));
    assert!(trail.stats.propagations > 0 && trail.stats.runs == 0);
    assert!(replay.stats.runs > 0 && replay.stats.propagations == 0);
}

#[test]
fn values_can_be_any_type() {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum Pet {
        Cat,
        Dog,
        Fish,
    }
    let mut m = Model::new();
    let owners = m.vars("owner", 3, [Pet::Cat, Pet::Dog, Pet::Fish]);
    m.all_different(&owners);
    m.require(&owners[0], |p| *p != Pet::Cat);
    m.require((&owners[1], &owners[2]), |a, b| {
        *a == Pet::Cat || *b == Pet::Cat
    });
    let found: Vec<Vec<Pet>> = m
        .solve(Engine::Trail)
        .map(|s| s.values(&owners).into_iter().copied().collect())
        .solutions()
        .collect();
    assert_eq!(
        found,
        [
            vec![Pet::Dog, Pet::Cat, Pet::Fish],
            vec![Pet::Dog, Pet::Fish, Pet::Cat],
            vec![Pet::Fish, Pet::Cat, Pet::Dog],
            vec![Pet::Fish, Pet::Dog, Pet::Cat],
        ]
    );
}

/// `require` takes one variable, a tuple of up to six of any types, or a slice, array or
/// `Vec` of one type; `require_indices` takes value indices: all post the same condition.
#[test]
fn require_takes_a_variable_a_tuple_or_a_slice() {
    let mut m = Model::new();
    let v = m.vars("v", 6, 0..3i64);
    let label = m.var(["zero", "one", "two"]);
    let brute = (0..3i64.pow(6))
        .filter(|&k| (0..6).map(|i| k / 3i64.pow(i) % 3).sum::<i64>() == 6)
        .count() as u64;
    let sum_is_six = |x: &[&i64]| x.iter().copied().sum::<i64>() == 6;
    let mut ways: Vec<(&str, Model<'_>)> = Vec::new();
    let mut tuple = m.clone();
    tuple.require(
        (&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
        |a, b, c, d, e, f| a + b + c + d + e + f == 6,
    );
    ways.push(("a tuple of six", tuple));
    let mut slice = m.clone();
    slice.require(&v[..], sum_is_six);
    ways.push(("a slice", slice));
    let mut vec = m.clone();
    vec.require(&v, sum_is_six);
    ways.push(("a Vec", vec));
    let array: [ambsolve::Var<i64>; 6] = std::array::from_fn(|i| v[i].clone());
    let mut arr = m.clone();
    arr.require(&array, sum_is_six);
    ways.push(("an array", arr));
    let mut indices = m.clone();
    let ids: Vec<_> = v.iter().map(|x| x.id()).collect();
    indices.require_indices(&ids, |i| i.iter().sum::<u32>() == 6);
    ways.push(("value indices", indices));
    for (how, mut model) in ways {
        // A variable alone, and a tuple of variables of different types.
        model.require(&label, |l| *l != "zero");
        model.require((&v[0], &label), |x, l| (*x == 0) == (*l == "one"));
        for engine in [Engine::Trail, Engine::Replay] {
            let count = model.solve(engine).count().expect("a valid model");
            // The label is fixed by v[0]: "one" when it is 0, else "two".
            assert_eq!(count.solutions, brute, "{how} on {engine}");
        }
    }
}
