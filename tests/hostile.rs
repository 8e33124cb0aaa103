//! The library's edges, tried as a hostile but fair user would: variables of another model,
//! limits reached before or during expensive work, panics inside a search, literals that
//! fit no `i32`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread::sleep;
use std::time::{Duration, Instant};

use ambsolve::{
    CancelFlag, Context, Engine, Fail, Limits, Model, Propagator, SearchError, StopReason,
    constraints,
};

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
    let cases: [(&str, AddWith); 10] = [
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
        ("require1", |m, s| m.require1(s, |v| *v > 0)),
        ("require2", |m, s| {
            let x = m.var(0..3);
            m.require2(&x, s, |a, b| a < b)
        }),
        ("require3", |m, s| {
            let x = m.var(0..3);
            m.require3(&x, &x, s, |a, _, c| a < c)
        }),
        ("require_all", |m, s| {
            m.require_all(std::slice::from_ref(s), |v| *v[0] > 0)
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
    copy.require1(&x, |v| *v == 2);
    assert_eq!(copy.error(), None);
    let solution = copy.solve(Engine::Trail).first().unwrap().unwrap();
    assert_eq!(*solution.value(&x), 2);

    let mut other = Model::new();
    let y = other.var(0..3);
    let read = catch_unwind(AssertUnwindSafe(|| *solution.value(&y)));
    assert!(read.is_err(), "reading a variable of another model panics");
}

/// A small model: 3 × 3 × 3 = 27 solutions, far fewer nodes than any polling interval.
fn small() -> Model<'static> {
    let mut m = Model::new();
    for _ in 0..3 {
        let _ = m.var(0..3);
    }
    m
}

#[test]
fn a_flag_set_before_the_search_stops_every_entry_point() {
    let flag = CancelFlag::new();
    flag.cancel();
    for engine in ENGINES {
        let solver = || {
            small()
                .solve(engine)
                .limits(Limits::new().cancel(flag.clone()))
        };
        let summary = solver().count().unwrap();
        assert_eq!(
            (summary.solutions, summary.stop_reason),
            (0, StopReason::Cancelled),
            "{engine}"
        );
        assert_eq!(solver().first().unwrap(), None);
        let mut solutions = solver().solutions();
        assert_eq!(solutions.next(), None);
        assert_eq!(solutions.stop_reason(), Some(StopReason::Cancelled));
        let mut budgeted = solver().solutions();
        assert_eq!(budgeted.count_for(Duration::from_secs(1)), Ok(0));
        assert_eq!(budgeted.stop_reason(), Some(StopReason::Cancelled));
    }
}

#[test]
fn a_zero_time_limit_stops_before_any_solution() {
    for engine in ENGINES {
        let summary = small()
            .solve(engine)
            .limits(Limits::new().time(Duration::ZERO))
            .count()
            .unwrap();
        assert_eq!(
            (summary.solutions, summary.stop_reason),
            (0, StopReason::TimeLimit),
            "{engine}"
        );
    }
}

#[test]
fn a_flag_set_between_two_solutions_stops_the_next_call() {
    let flag = CancelFlag::new();
    let mut solutions = small()
        .solve(Engine::Trail)
        .limits(Limits::new().cancel(flag.clone()))
        .solutions();
    assert!(solutions.next().is_some());
    flag.cancel();
    assert_eq!(solutions.next(), None);
    assert_eq!(solutions.stop_reason(), Some(StopReason::Cancelled));
}

/// A constraint that holds always and takes `cost` every time it runs.
struct Slow(Duration);

impl Propagator for Slow {
    fn propagate(&self, _: &mut Context<'_>) -> Result<(), Fail> {
        sleep(self.0);
        Ok(())
    }
}

#[test]
fn a_time_limit_is_met_when_nodes_are_expensive() {
    // 4^6 = 4096 leaves at 2 ms a propagation: 1024 nodes between two reads of the clock
    // (the old fixed interval) would overshoot a 100 ms limit by two seconds.
    let mut m = Model::new();
    let vars: Vec<_> = (0..6).map(|_| m.var(0..4)).collect();
    let scope: Vec<_> = vars.iter().map(|v| v.id()).collect();
    m.propagator(&scope, Slow(Duration::from_millis(2)));
    for engine in ENGINES {
        let started = Instant::now();
        let summary = m
            .solve(engine)
            .limits(Limits::new().time(Duration::from_millis(100)))
            .count()
            .unwrap();
        let took = started.elapsed();
        assert_eq!(summary.stop_reason, StopReason::TimeLimit, "{engine}");
        assert!(took < Duration::from_millis(800), "{engine}: {took:?}");
    }
}

#[test]
fn a_search_a_panic_unwound_out_of_is_not_continued() {
    for engine in ENGINES {
        let mut m = Model::new();
        let x = m.var(0..4);
        let y = m.var(0..4);
        m.require2(&x, &y, |a, b| {
            assert!(!(*a == 1 && *b == 2), "the user's predicate panics");
            a != b
        });
        let mut solutions = m.solve(engine).try_solutions();
        let mut seen = Vec::new();
        let unwound = loop {
            match catch_unwind(AssertUnwindSafe(|| solutions.next())) {
                Ok(Some(Ok(solution))) => seen.push((*solution.value(&x), *solution.value(&y))),
                Ok(other) => panic!("{engine}: the search went past the panic: {other:?}"),
                Err(_) => break true,
            }
        };
        assert!(unwound);
        // The panic comes at (1, 2): on replay after (1, 0), on the trail engine as soon as
        // x = 1 is decided (forward checking tries y = 2 then).
        let before = [(0, 1), (0, 2), (0, 3), (1, 0)];
        assert!(
            seen.len() >= 3 && seen[..] == before[..seen.len()],
            "{engine}: {seen:?}"
        );
        assert_eq!(
            solutions.next(),
            Some(Err(SearchError::Unwound)),
            "{engine}"
        );
        assert_eq!(solutions.next(), None);
    }
}

#[test]
fn literals_take_no_type_from_their_neighbours() {
    let big = constraints! {
        let x = amb([1_000_000_000i64, 2_000_000_000, 3_000_000_000]);
        let y = amb([0i64, 1_000_000_000, 2_000_000_000]);
        require x + y >= 3000000000;
    };
    // Pairs with x + y >= 3e9: (1e9, 2e9), (2e9, 1e9), (2e9, 2e9), (3e9, *) = 6.
    for engine in ENGINES {
        assert_eq!(big.clone().engine(engine).count().unwrap().solutions, 6);
    }
}

#[test]
fn a_constant_out_of_range_makes_the_model_invalid() {
    let huge: i128 = i128::from(i64::MAX) * 4;
    let puzzle = constraints! {
        let x = amb(0..3i64);
        let y = amb(0..3i64);
        require x + y < huge;
    };
    let error = puzzle.count().unwrap_err();
    assert!(
        matches!(&error, SearchError::InvalidModel(m) if m.contains("does not fit in an i64")),
        "{error}"
    );
}
