//! Limits and cancellation as a user meets them: a flag set before the search or between two
//! solutions, a zero time limit, a time limit met when nodes are expensive, and a search that
//! a panic unwound out of is not continued.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread::sleep;
use std::time::{Duration, Instant};

use ambsolve::{
    CancelFlag, Context, Engine, Fail, Limits, Model, Propagator, SearchError, StopReason,
};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

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
        m.require((&x, &y), |a, b| {
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
