//! The replay engine: `amb`/`fail` by re-running a closure and replaying its recorded choices.
//!
//! This is JavaScript's `ambRun` done right. The closure is the program. Each
//! [`Amb::choose`] either answers from the recorded path (while the run replays the prefix)
//! or pushes a new choice frame at its first alternative. When a run fails, the engine pops
//! exhausted frames, advances the deepest open one and runs the closure again. Solutions
//! therefore come in lexicographic order of their choice indices, depth-first, exactly the
//! order of `ambRun`. Memory is the path: one frame per choice depth.

mod model;
mod order;

pub(crate) use self::model::model_program;

use std::fmt;

use crate::choice::{ChoiceStack, Fail, Frame, Scope};
use crate::control::{Control, Interrupt, Search, Step};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::observe::{Event, Shared};
use crate::stats::Stats;

/// Counters the replay engine keeps across runs.
#[derive(Clone, Copy, Debug, Default)]
struct Counters {
    runs: u64,
    nodes: u64,
    replayed: u64,
    failures: u64,
    solutions: u64,
    max_depth: u64,
}

/// The choice context a replayed program receives: `choose`, `require`, `fail`.
///
/// ```
/// // Pythagorean triples with sides up to 20, in the order ambRun finds them.
/// let triples: Vec<(u32, u32, u32)> = ambsolve::replay(|amb| {
///     let a = amb.choose(1..=20)?;
///     let b = amb.choose(a..=20)?;
///     let c = amb.choose(b..=20)?;
///     amb.require(a * a + b * b == c * c)?;
///     Ok((a, b, c))
/// })
/// .solutions()
/// .collect();
/// assert_eq!(triples[..2], [(3, 4, 5), (5, 12, 13)]);
/// ```
pub struct Amb<'run> {
    stack: &'run mut ChoiceStack,
    control: &'run mut Control,
    counters: &'run mut Counters,
    depth: usize,
    interrupt: Option<Interrupt>,
    error: Option<SearchError>,
    /// Whether the run failed on a bound that holds for every path below its last choice.
    pruned: bool,
    observer: Option<&'run Shared>,
    /// The depth from which this run's choices are new nodes of the tree: past the
    /// recorded path, or its last choice if the engine advanced it before the run.
    new_from: usize,
    /// A new choice at this depth ends the run as a cut (the search is being split).
    cutoff: Option<usize>,
    cut: bool,
}

impl Amb<'_> {
    /// Chooses one of `values`: the first on a fresh path, the next one each time the
    /// search comes back here. Any `IntoIterator` works: ranges, arrays, slices (their
    /// items are references), `Vec`s, iterator chains.
    ///
    /// Iterators with an exact `size_hint` (ranges, slices, `Vec`s, maps over them) are
    /// read only up to the chosen item. Others (a `filter`, say) are walked to the end
    /// once per call, without storing anything: replay must check the number of
    /// alternatives, and keeps only the chosen one.
    ///
    /// # Errors
    /// [`Fail`] when `values` is empty, and when the search must stop here (a limit was
    /// reached, or the program turned out not to be deterministic; the iterator reports
    /// which).
    #[inline]
    pub fn choose<I: IntoIterator>(&mut self, values: I) -> Result<I::Item, Fail> {
        let mut iter = values.into_iter();
        if let (low, Some(high)) = iter.size_hint() {
            if low == high {
                let index = self.choose_index(low)?;
                return match iter.nth(index) {
                    Some(value) => Ok(value),
                    None => self.stop_with(SearchError::ShortIterator {
                        depth: self.depth - 1,
                    }),
                };
            }
        }
        // One pass: the item at the recorded index (the first on a new path), and the count.
        let wanted = self.stack.get(self.depth).map_or(0, |f| f.index as usize);
        let mut chosen = None;
        let mut alternatives = 0;
        for item in iter {
            if alternatives == wanted {
                chosen = Some(item);
            }
            alternatives += 1;
        }
        let index = self.choose_index(alternatives)?;
        debug_assert_eq!(index, wanted);
        chosen.map_or_else(
            || {
                self.stop_with(SearchError::ShortIterator {
                    depth: self.depth - 1,
                })
            },
            Ok,
        )
    }

    /// Chooses an index in `0..alternatives`, in increasing order.
    ///
    /// # Errors
    /// As for [`choose`](Amb::choose): [`Fail`] when `alternatives` is 0 or the search
    /// must stop here.
    #[inline]
    pub fn choose_index(&mut self, alternatives: usize) -> Result<usize, Fail> {
        let index = self.pick(alternatives)?;
        if self.observer.is_some() {
            self.observed_try(None, index as u32, alternatives as u32, alternatives as u32);
        }
        Ok(index)
    }

    /// A model's choice for `var` (of `universe` values) among the value indices
    /// `values`: as [`choose_index`](Amb::choose_index), reported to an observer with the
    /// variable and the value. Returns the position in `values`.
    pub(crate) fn choose_value(
        &mut self,
        var: crate::var::VarId,
        universe: u32,
        values: &[u32],
    ) -> Result<usize, Fail> {
        let index = self.pick(values.len())?;
        if self.observer.is_some() {
            self.observed_try(Some(var), values[index], values.len() as u32, universe);
        }
        Ok(index)
    }

    /// Whether the choice just made is a node this run adds to the tree: a fresh one, or
    /// the recorded one the engine advanced before the run.
    fn is_new(&self) -> bool {
        self.depth >= self.new_from
    }

    /// Reports the choice just made, if it is a new node.
    #[cold]
    #[inline(never)]
    fn observed_try(
        &self,
        var: Option<crate::var::VarId>,
        value: u32,
        alternatives: u32,
        universe: u32,
    ) {
        if !self.is_new() {
            return;
        }
        if let (Some(observer), Some(frame)) = (self.observer, self.stack.get(self.depth - 1)) {
            observer.send(Event::Try {
                depth: self.depth as u32,
                var,
                value,
                index: frame.index,
                alternatives,
                universe,
            });
        }
    }

    /// Chooses an index in `0..alternatives`: the recorded one while replaying, else the
    /// first of a new frame.
    #[inline]
    fn pick(&mut self, alternatives: usize) -> Result<usize, Fail> {
        let depth = self.depth;
        if let Some(frame) = self.stack.get_mut(depth) {
            if frame.arity == UNKNOWN {
                // A subproblem's path: the choice is met for the first time here.
                if frame.index as usize >= alternatives {
                    let index = frame.index;
                    return self.stop_with(SearchError::NoSuchSubproblem { depth, index });
                }
                frame.arity = alternatives as u32;
            }
            let (index, recorded) = (frame.index, frame.arity);
            if recorded as usize == alternatives {
                self.counters.replayed += 1;
                self.depth += 1;
                return Ok(index as usize);
            }
            return self.stop_with(SearchError::Nondeterministic {
                depth,
                recorded: recorded as usize,
                replayed: alternatives,
            });
        }
        self.choose_new(alternatives)
    }

    /// A choice past the recorded path: push a frame at its first alternative.
    fn choose_new(&mut self, alternatives: usize) -> Result<usize, Fail> {
        let depth = self.depth;
        if alternatives == 0 {
            return Err(Fail);
        }
        if self.cutoff == Some(depth) {
            self.cut = true;
            return Err(Fail);
        }
        let Ok(arity) = u32::try_from(alternatives) else {
            return self.stop_with(SearchError::TooManyAlternatives {
                depth,
                alternatives,
            });
        };
        if let Err(interrupt) = self.control.before_node(self.counters.nodes) {
            self.interrupt = Some(interrupt);
            return Err(Fail);
        }
        self.stack.push(Frame::new(arity));
        self.counters.nodes += 1;
        self.depth += 1;
        self.counters.max_depth = self.counters.max_depth.max(self.depth as u64);
        Ok(0)
    }

    /// Fails the run unless `condition` holds.
    ///
    /// # Errors
    /// [`Fail`] when `condition` is false.
    pub fn require(&self, condition: bool) -> Result<(), Fail> {
        if condition { Ok(()) } else { Err(Fail) }
    }

    /// Fails the run: `amb.fail()?` rejects the current choices.
    ///
    /// # Errors
    /// Always [`Fail`].
    pub fn fail<T>(&self) -> Result<T, Fail> {
        Err(Fail)
    }

    /// How many choices this run has made so far.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Fails the run on a condition that can change between runs but only ever excludes
    /// more (a branch-and-bound cost bound): every path through the choices made so far
    /// is ruled out, including recorded ones this run has not replayed yet.
    pub(crate) fn prune(&mut self) -> Fail {
        self.pruned = true;
        Fail
    }

    #[cold]
    fn stop_with<T>(&mut self, error: SearchError) -> Result<T, Fail> {
        self.error.get_or_insert(error);
        Err(Fail)
    }
}

impl fmt::Debug for Amb<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Amb")
            .field("depth", &self.depth)
            .field("recorded", &self.stack.len())
            .finish_non_exhaustive()
    }
}

/// The arity of a frame replayed from a subproblem's path before its choice is met.
const UNKNOWN: u32 = 0;

/// The replay engine's state between runs.
pub(crate) struct ReplayEngine<F, T> {
    program: F,
    stack: ChoiceStack,
    /// Frames of the subproblem's path, never advanced.
    floor: usize,
    cutoff: Option<usize>,
    counters: Counters,
    /// Whether the path must move on before the next run (after a finished run).
    advance_first: bool,
    solution: Option<T>,
    observer: Option<Shared>,
}

impl<F, T> ReplayEngine<F, T>
where
    F: FnMut(&mut Amb<'_>) -> Result<T, Fail>,
{
    pub(crate) fn new(program: F) -> Self {
        ReplayEngine {
            program,
            stack: ChoiceStack::new(),
            floor: 0,
            cutoff: None,
            counters: Counters::default(),
            advance_first: false,
            solution: None,
            observer: None,
        }
    }

    /// The same search, below `scope`'s path and cut at its depth.
    pub(crate) fn scoped(mut self, scope: &Scope) -> Self {
        for &index in &scope.prefix {
            self.stack.push(Frame {
                index,
                ..Frame::new(UNKNOWN)
            });
        }
        self.floor = scope.prefix.len();
        self.cutoff = scope.cutoff.map(|c| c as usize);
        self
    }

    /// The same search, reporting its events to `observer`.
    pub(crate) fn observed(mut self, observer: Option<Shared>) -> Self {
        self.observer = observer;
        self
    }

    /// The solution found by the last `advance`, not taken yet.
    pub(crate) fn solution(&self) -> Option<&T> {
        self.solution.as_ref()
    }
}

/// The step of a search with no path left.
const EXHAUSTED: Step = Step::Interrupted(Interrupt::Stop(StopReason::Exhausted));

/// How a run of the program ended, read off its [`Amb`] when the program returns.
enum Ending<T> {
    /// It met a [`SearchError`] (a nondeterministic program, a path that is not there):
    /// the search stops with it.
    Error(SearchError),
    /// A limit or a pause stopped it at a new choice. The path up to that choice stays
    /// recorded: resuming runs it again.
    Interrupted(Interrupt),
    /// It failed on a bound ([`Amb::prune`]), which rules out every path below its last
    /// choice. (The callers of `prune` return its `Fail` at once: such a run meets
    /// nothing else.)
    Pruned,
    /// A new choice at the cutoff depth: the node is a subproblem, for another search.
    Cut,
    /// It failed.
    Failed,
    /// It returned a solution.
    Solution(T),
}

impl Amb<'_> {
    /// How the run ended, given what the program returned: an error first, then an
    /// interrupt, a failure on a bound, a cut, and what the program returned.
    fn ending<T>(self, result: Result<T, Fail>) -> Ending<T> {
        if let Some(error) = self.error {
            return Ending::Error(error);
        }
        if let Some(interrupt) = self.interrupt {
            return Ending::Interrupted(interrupt);
        }
        match result {
            Err(Fail) if self.pruned => Ending::Pruned,
            _ if self.cut => Ending::Cut,
            Err(Fail) => Ending::Failed,
            Ok(solution) => Ending::Solution(solution),
        }
    }
}

/// A run of the program: how it ended, after how many choices, and how long the path it
/// replayed was.
struct Run<T> {
    ending: Ending<T>,
    depth: usize,
    recorded: usize,
}

impl<F, T> ReplayEngine<F, T>
where
    F: FnMut(&mut Amb<'_>) -> Result<T, Fail>,
{
    /// Moves the recorded path on to its next alternative (never above the subproblem's
    /// frames), and reports the backtrack; `false` when no path is left.
    fn next_path(&mut self) -> bool {
        if !self.stack.advance_above(self.floor) {
            return false;
        }
        self.advance_first = false;
        if let Some(observer) = &self.observer {
            let depth = self.stack.len() as u32;
            observer.send(Event::Backtrack { depth: depth - 1 });
        }
        true
    }

    /// Runs the program once, along the recorded path. `advanced`: the path's last
    /// choice was moved on before the run, so it is a new node of the tree.
    fn run(&mut self, control: &mut Control, advanced: bool) -> Run<T> {
        self.counters.runs += 1;
        let recorded = self.stack.len();
        if let Some(observer) = &self.observer {
            observer.send(Event::Run {
                run: self.counters.runs,
                replayed: recorded as u32,
            });
        }
        let mut amb = Amb {
            stack: &mut self.stack,
            control,
            counters: &mut self.counters,
            depth: 0,
            interrupt: None,
            error: None,
            pruned: false,
            observer: self.observer.as_ref(),
            new_from: if advanced { recorded } else { recorded + 1 },
            cutoff: self.cutoff,
            cut: false,
        };
        let result = (self.program)(&mut amb);
        let depth = amb.depth;
        Run {
            ending: amb.ending(result),
            depth,
            recorded,
        }
    }

    /// What a run comes to: the step to report, or `None` to run the program again
    /// (after a failure). Every run that ends by itself (no error, no interrupt) moves
    /// the path on before the next.
    fn settle(&mut self, run: Run<T>) -> Result<Option<Step>, SearchError> {
        let Run {
            ending,
            depth,
            recorded,
        } = run;
        let step = match ending {
            Ending::Error(error) => return Err(error),
            // The path up to the interrupted choice is recorded; resuming re-runs it.
            Ending::Interrupted(interrupt) => return Ok(Some(Step::Interrupted(interrupt))),
            Ending::Pruned if depth < self.floor => {
                // The bound rules out the whole subproblem.
                self.stack.truncate(self.floor);
                Some(EXHAUSTED)
            }
            Ending::Pruned => {
                // The recorded paths below the run's last choice are ruled out too.
                self.stack.truncate(depth);
                self.failed(depth);
                None
            }
            Ending::Failed => {
                self.check_replayed(depth, recorded)?;
                self.check_subproblem_node(depth, recorded)?;
                self.failed(depth);
                None
            }
            Ending::Cut => {
                self.check_replayed(depth, recorded)?;
                Some(Step::Cut)
            }
            Ending::Solution(solution) => {
                self.check_replayed(depth, recorded)?;
                Some(self.found(solution, depth))
            }
        };
        self.advance_first = true;
        Ok(step)
    }

    /// A run that ends by itself must have replayed its whole recorded path (`depth`
    /// choices made of `recorded`).
    ///
    /// # Errors
    /// [`SearchError::NoSuchSubproblem`] when it ended before a choice of the
    /// subproblem's path (the path goes past a solution, or through a node that fails);
    /// else [`SearchError::EndedDuringReplay`].
    fn check_replayed(&self, depth: usize, recorded: usize) -> Result<(), SearchError> {
        if depth >= recorded {
            return Ok(());
        }
        Err(match self.stack.get(depth) {
            Some(frame) if frame.arity == UNKNOWN => SearchError::NoSuchSubproblem {
                depth,
                index: frame.index,
            },
            _ => SearchError::EndedDuringReplay { depth, recorded },
        })
    }

    /// A failed run must not end at the subproblem's node itself: the first run, which
    /// replays the subproblem's whole path (`recorded` choices, `depth` made).
    ///
    /// # Errors
    /// [`SearchError::NoSuchSubproblem`], at the path's last choice.
    fn check_subproblem_node(&self, depth: usize, recorded: usize) -> Result<(), SearchError> {
        if depth != self.floor || recorded != depth {
            return Ok(());
        }
        match depth.checked_sub(1) {
            Some(last) => Err(SearchError::NoSuchSubproblem {
                depth: last,
                index: self.stack.get(last).map_or(0, |f| f.index),
            }),
            None => Ok(()),
        }
    }

    /// Counts and reports a failed run, `depth` choices deep.
    fn failed(&mut self, depth: usize) {
        self.counters.failures += 1;
        if let Some(observer) = &self.observer {
            observer.send(Event::Fail {
                depth: depth as u32,
            });
        }
    }

    /// Counts, reports and keeps a solution, `depth` choices deep.
    fn found(&mut self, solution: T, depth: usize) -> Step {
        self.counters.solutions += 1;
        if let Some(observer) = &self.observer {
            observer.send(Event::Solution {
                depth: depth as u32,
            });
        }
        self.solution = Some(solution);
        Step::Solution
    }
}

impl<F, T> Search for ReplayEngine<F, T>
where
    F: FnMut(&mut Amb<'_>) -> Result<T, Fail>,
{
    type Item = T;

    /// Runs the program until a run has something to report. Each run replays the
    /// recorded path (moved on first, past the previous run's end) and goes on with new
    /// choices; how it ended ([`Ending`]) decides the step: an error or an interrupt is
    /// reported as it is, a cut or a solution too, after which the path moves on; after
    /// a failure the path moves on and the program runs again.
    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        loop {
            let advanced = self.advance_first;
            if advanced && !self.next_path() {
                return Ok(EXHAUSTED);
            }
            if let Err(interrupt) = control.before_run(self.counters.runs) {
                return Ok(Step::Interrupted(interrupt));
            }
            let run = self.run(control, advanced);
            if let Some(step) = self.settle(run)? {
                return Ok(step);
            }
        }
    }

    fn take_solution(&mut self) -> T {
        self.solution
            .take()
            .expect("take_solution is only called after advance found a solution")
    }

    fn stats(&self) -> Stats {
        let c = self.counters;
        Stats {
            nodes: c.nodes,
            failures: c.failures,
            solutions: c.solutions,
            max_depth: c.max_depth,
            runs: c.runs,
            replayed: c.replayed,
            ..Stats::default()
        }
    }

    fn progress(&self) -> f64 {
        self.stack.progress_from(self.floor)
    }

    fn path(&self) -> Vec<u32> {
        self.stack.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::solve::replay;

    #[test]
    fn solutions_come_in_lexicographic_order() {
        let pairs: Vec<_> = replay(|amb| Ok((amb.choose(0..2)?, amb.choose(['a', 'b'])?)))
            .solutions()
            .collect();
        assert_eq!(pairs, [(0, 'a'), (0, 'b'), (1, 'a'), (1, 'b')]);
    }

    #[test]
    fn an_empty_choice_fails_the_run() {
        let summary = replay(|amb| amb.choose(Vec::<u8>::new())).count().unwrap();
        assert_eq!(summary.solutions, 0);
        assert_eq!(summary.stop_reason, StopReason::Exhausted);
        assert_eq!(summary.stats.runs, 1);
        assert_eq!(summary.stats.failures, 1);
    }

    #[test]
    fn non_exact_iterators_are_collected() {
        let evens: Vec<u32> = replay(|amb| amb.choose((0..10).filter(|x| x % 2 == 0)))
            .solutions()
            .collect();
        assert_eq!(evens, [0, 2, 4, 6, 8]);
    }

    #[test]
    fn borrowed_and_owned_values_both_work() {
        let words = vec![String::from("a"), String::from("b")];
        let borrowed: Vec<&String> = replay(|amb| amb.choose(&words)).solutions().collect();
        assert_eq!(borrowed, [&words[0], &words[1]]);
        let owned: Vec<String> = replay(|amb| amb.choose(words.clone()))
            .solutions()
            .collect();
        assert_eq!(owned, words);
    }

    #[test]
    fn statistics_count_runs_and_replays() {
        // Two binary choices, every path fails: 4 runs; new choices: 2 in run 1 and the
        // second-level one in run 3; replayed: run 2 answers both choices from the path
        // (the advanced one too), run 3 the first, run 4 both.
        let summary = replay(|amb| {
            amb.choose(0..2)?;
            amb.choose(0..2)?;
            amb.fail::<()>()
        })
        .count()
        .unwrap();
        assert_eq!(summary.solutions, 0);
        assert_eq!(summary.stats.runs, 4);
        assert_eq!(summary.stats.nodes, 2 + 2 - 1);
        assert_eq!(summary.stats.replayed, 2 + 1 + 2);
        assert_eq!(summary.stats.failures, 4);
        assert_eq!(summary.stats.max_depth, 2);
    }

    #[test]
    fn a_changed_arity_is_reported_with_its_depth() {
        // Run 1 records arity 1 at depth 1; run 2 (first choice advanced) records arity 2
        // anew; run 3 replays that frame but now sees 3 alternatives.
        let mut calls = 0;
        let error = replay(move |amb| {
            calls += 1;
            amb.choose(0..2)?;
            amb.choose(0..calls)?;
            amb.fail::<()>()
        })
        .count()
        .unwrap_err();
        assert_eq!(
            error,
            SearchError::Nondeterministic {
                depth: 1,
                recorded: 2,
                replayed: 3
            }
        );
    }

    #[test]
    fn a_run_that_stops_short_of_its_recorded_path_is_reported() {
        let mut calls = 0;
        let error = replay(move |amb| {
            calls += 1;
            if calls > 1 {
                return amb.fail();
            }
            amb.choose(0..2)?;
            amb.fail::<()>()
        })
        .count()
        .unwrap_err();
        assert_eq!(
            error,
            SearchError::EndedDuringReplay {
                depth: 0,
                recorded: 1
            }
        );
    }

    #[test]
    fn a_solution_limit_of_zero_yields_nothing() {
        let mut solutions = replay(|amb| amb.choose(0..3))
            .limits(Limits::new().solutions(0))
            .solutions();
        assert_eq!(solutions.next(), None);
        assert_eq!(solutions.stop_reason(), Some(StopReason::SolutionLimit));
    }

    #[test]
    fn counting_for_a_budget_pauses_and_resumes() {
        // 4096 paths, each a run; a zero budget pauses after every polling interval of
        // work (1024 runs) but always makes progress.
        let mut solutions = replay(|amb| {
            for _ in 0..12 {
                amb.choose(0..2)?;
            }
            Ok(())
        })
        .solutions();
        let mut counts = Vec::new();
        while solutions.stop_reason().is_none() {
            counts.push(solutions.count_for(std::time::Duration::ZERO).unwrap());
        }
        assert_eq!(counts.iter().sum::<u64>(), 4096);
        assert!(counts.len() >= 4, "paused along the way: {counts:?}");
        assert!(
            counts.iter().all(|&c| c > 0),
            "every call made progress: {counts:?}"
        );
        assert_eq!(solutions.stop_reason(), Some(StopReason::Exhausted));
    }
}
