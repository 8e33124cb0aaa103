//! Parallel search by choice prefixes ("embarrassingly parallel search", Régin, Rezgui
//! and Malapert, CP 2013): the search is cut into many more subproblems than threads,
//! each a path of choices below which an ordinary engine runs, and the subproblems are
//! searched on a rayon pool.
//!
//! - **Cutting.** The engine runs with a cutoff depth: every node it reaches at that depth,
//!   and every solution above it, is a subproblem. The depth grows until there are enough
//!   of them. Listed in the order the engine met them, they cover its tree exactly.
//! - **Counting** hands every subproblem to the pool at once (work stealing balances
//!   them) and adds up the counts; a finished subproblem can be recorded in a
//!   [`Checkpoint`], so that a stopped count is finished later without doing it again.
//! - **Listing** keeps the sequential order: a window of the next subproblems is searched
//!   in parallel, each buffering a bounded number of solutions, and solutions are handed
//!   out from the first subproblem of the window only; the others wait (paused, their
//!   engines kept). `first()` is therefore the sequential first solution.
//! - **Optimising** shares the best cost between the engines (one [`Incumbent`]); the
//!   improving solutions are handed out in the order they were found, so each is better
//!   than the last.
//!
//! Limits hold across threads: the node limit is one budget that engines draw from in
//! chunks, the deadline and the cancellation flag are the same for all, and an error in
//! one engine stops the others.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::checkpoint::{Checkpoint, Entry, fingerprint, recount};
use super::{engine, engine_with, symmetry_tables};
use crate::choice::{Scope, Subproblem};
use crate::control::{Control, Counted, Interrupt, Search, Step, Team, count_by_advancing};
use crate::error::SearchError;
use crate::limits::{Limits, StopReason};
use crate::model::{Assignment, Model};
use crate::options::Options;
use crate::stats::Stats;
use crate::symmetry::Tables;

/// An engine that can move between threads.
pub(super) type Engine<'a> = Box<dyn Search<Item = Assignment> + Send + 'a>;

/// Subproblems per thread when none are asked for, and at least this many in all.
const PER_THREAD: usize = 32;
const AT_LEAST: usize = 64;

/// Cutting stops deepening at this depth, or once it has this many subproblems.
const MAX_CUTOFF: u32 = 64;
const MAX_SUBPROBLEMS: usize = 1 << 20;

/// How many subproblems a search is cut into at least, from its options.
pub(super) fn target(options: &Options) -> usize {
    options
        .subproblems
        .unwrap_or_else(|| (PER_THREAD * options.threads.max(1)).max(AT_LEAST))
        .max(1)
}

/// Cuts the search of `model` with `options` into at least `at_least` subproblems (fewer
/// only if the tree has fewer nodes than that above its leaves), in the engine's order.
/// Also returns the statistics of the last cut, whose nodes are exactly those above the
/// subproblems.
///
/// # Errors
/// The error that stopped the engine; [`SearchError::Unsupported`] if the search was
/// cancelled meanwhile.
pub(super) fn split(
    model: &Arc<Model<'_>>,
    options: &Options,
    at_least: usize,
) -> Result<(Vec<Subproblem>, Stats), SearchError> {
    if options.engine == crate::options::Engine::Local {
        return Err(SearchError::Unsupported(
            "local search does not cut a search into subproblems (it has no tree): use the \
             trail engine"
                .into(),
        ));
    }
    if options.strategy.learns() {
        return Err(SearchError::Unsupported(
            "a variable order that learns weights (dom_w_deg) follows no fixed tree: \
             its search cannot be cut into subproblems"
                .into(),
        ));
    }
    let mut options = options.clone();
    // Cut without a bound: a solution found while cutting is the subproblem that yields
    // it, and must not count as found yet.
    options.incumbent = None;
    options.observer = None;
    let limits = Limits {
        cancel: options.limits.cancel.clone(),
        ..Limits::default()
    };
    let mut cutoff = 1;
    loop {
        options.scope = Scope {
            prefix: options.scope.prefix.clone(),
            cutoff: Some(cutoff + options.scope.prefix.len() as u32),
        };
        let mut engine = engine(model, &options)?;
        let mut control = Control::new(limits.clone());
        let (mut paths, mut cuts) = (Vec::new(), 0);
        loop {
            match engine.advance(&mut control)? {
                Step::Solution => paths.push(Subproblem::from(engine.path())),
                Step::Cut => {
                    cuts += 1;
                    paths.push(Subproblem::from(engine.path()));
                }
                Step::Interrupted(Interrupt::Stop(StopReason::Exhausted)) => break,
                Step::Interrupted(_) => {
                    return Err(SearchError::Unsupported(
                        "the search was cancelled while it was being cut into subproblems".into(),
                    ));
                }
            }
        }
        if paths.len() >= at_least
            || cuts == 0
            || cutoff >= MAX_CUTOFF
            || paths.len() >= MAX_SUBPROBLEMS
        {
            // A solution met while cutting is a subproblem that finds it again.
            let mut stats = engine.stats();
            stats.solutions = 0;
            return Ok((paths, stats));
        }
        cutoff += 1;
    }
}

/// Cuts the search of a count that may be resumable: into as many subproblems as the
/// checkpoint being resumed was cut into, else `at_least`; with the cutting's statistics
/// and the checkpoint, if any, opened (resumed, after a few of its finished subproblems
/// are searched again: see [`recount`]; or written afresh at once so that a count
/// stopped before any subproblem is done can resume).
///
/// # Errors
/// The cutting's errors; [`SearchError::Checkpoint`] if the file cannot be read or
/// written, is corrupted, or belongs to another search.
pub(super) fn cut_for_count(
    model: &Arc<Model<'_>>,
    options: &Options,
    at_least: usize,
) -> Result<(Vec<Subproblem>, Stats, Option<Checkpoint>), SearchError> {
    let target = match &options.checkpoint {
        Some(c) if c.resume => Checkpoint::target_of(&c.path)?,
        _ => at_least,
    };
    let (subproblems, stats) = split(model, options, target)?;
    let checkpoint = match &options.checkpoint {
        None => None,
        Some(c) => {
            let print = fingerprint(model, options, &subproblems);
            Some(if c.resume {
                let resumed = Checkpoint::resume(&c.path, print, subproblems.len())?;
                recount(model, options, &subproblems, &resumed)?;
                resumed
            } else {
                let mut fresh = Checkpoint::new(&c.path, print, target, subproblems.len());
                fresh.flush()?;
                fresh
            })
        }
    };
    Ok((subproblems, stats, checkpoint))
}

/// A solution found by a worker, waiting to be handed out.
struct Found {
    solution: Assignment,
    objective: Option<i64>,
    weight: u64,
}

/// One subproblem's search, from the moment it is started until it is finished.
struct Work<'a> {
    index: usize,
    engine: Option<Engine<'a>>,
    control: Option<Control>,
    found: VecDeque<Found>,
    /// Counting: solutions (and what they stand for) counted since last collected.
    counted: u64,
    weighted: u64,
    /// All the solutions it found (and what they stand for), listed or counted, for its
    /// checkpoint entry.
    total: (u64, u64),
    end: Option<StopReason>,
    error: Option<SearchError>,
}

impl<'a> Work<'a> {
    fn new(index: usize) -> Self {
        Work {
            index,
            engine: None,
            control: None,
            found: VecDeque::new(),
            counted: 0,
            weighted: 0,
            total: (0, 0),
            end: None,
            error: None,
        }
    }

    fn is_finished(&self) -> bool {
        self.end.is_some() || self.error.is_some()
    }

    /// Starts the engine if needed. False (with the error kept) if it cannot start.
    fn start(&mut self, shared: &Context<'a, '_>) -> bool {
        if self.engine.is_some() {
            return true;
        }
        let mut options = shared.options.clone();
        options.scope = Scope {
            prefix: shared.subproblems[self.index].path().to_vec(),
            cutoff: None,
        };
        match engine_with(shared.model, &options, shared.symmetry.clone()) {
            Ok(engine) => {
                self.engine = Some(engine);
                self.control = Some(shared.outer.worker(shared.team));
                true
            }
            Err(error) => {
                self.fail(error, shared.team);
                false
            }
        }
    }

    fn fail(&mut self, error: SearchError, team: &Team) {
        self.error = Some(error);
        team.halt.store(true, Ordering::Relaxed);
    }

    /// Searches on until `cap` solutions wait, or the subproblem ends or pauses.
    fn list(&mut self, cap: usize, shared: &Context<'a, '_>) {
        if self.is_finished() || self.found.len() >= cap || !self.start(shared) {
            return;
        }
        let (engine, control) = (
            self.engine.as_mut().expect("started"),
            self.control.as_mut().expect("started"),
        );
        control.set_pause(shared.outer.pause_at());
        while self.found.len() < cap {
            match engine.advance(control) {
                Ok(Step::Solution) => {
                    let weight = engine.weight();
                    self.total.0 += 1;
                    self.total.1 += weight;
                    self.found.push_back(Found {
                        objective: engine.objective(),
                        weight,
                        solution: engine.take_solution(),
                    });
                }
                Ok(Step::Cut) => {}
                Ok(Step::Interrupted(Interrupt::Pause)) => return,
                Ok(Step::Interrupted(Interrupt::Stop(reason))) => {
                    self.end = Some(reason);
                    return;
                }
                Err(error) => {
                    self.fail(error, shared.team);
                    return;
                }
            }
        }
    }

    /// Counts until the subproblem ends or pauses.
    fn count(&mut self, shared: &Context<'a, '_>) {
        if self.is_finished() || !self.start(shared) {
            return;
        }
        let (engine, control) = (
            self.engine.as_mut().expect("started"),
            self.control.as_mut().expect("started"),
        );
        control.set_pause(shared.outer.pause_at());
        match engine.count(control, u64::MAX) {
            Ok(counted) => {
                self.counted += counted.found;
                self.weighted += counted.weighted;
                self.total.0 += counted.found;
                self.total.1 += counted.weighted;
                if let Some(Interrupt::Stop(reason)) = counted.end {
                    self.end = Some(reason);
                }
            }
            Err(error) => self.fail(error, shared.team),
        }
    }

    /// Its checkpoint entry: what it found, and its nodes.
    fn entry(&self) -> Entry {
        Entry {
            found: self.total.0,
            weighted: self.total.1,
            nodes: self.stats().nodes,
        }
    }

    /// Its engine's statistics so far.
    fn stats(&self) -> Stats {
        self.engine.as_ref().map(|e| e.stats()).unwrap_or_default()
    }

    /// Gives back the nodes it took and did not use, and drops the engine.
    fn close(&mut self) -> Stats {
        let stats = self.stats();
        if let Some(control) = &mut self.control {
            control.release(stats.nodes);
        }
        self.engine = None;
        self.control = None;
        stats
    }
}

/// What every worker of one batch reads.
struct Context<'a, 'b> {
    model: &'b Arc<Model<'a>>,
    symmetry: &'b Option<Tables>,
    options: &'b Options,
    subproblems: &'b [Subproblem],
    outer: &'b Control,
    team: &'b Arc<Team>,
    busy: &'b [AtomicU64],
}

impl Context<'_, '_> {
    /// Runs `f`, adding the time it takes to the current pool thread's.
    fn timed<R>(&self, f: impl FnOnce() -> R) -> R {
        let started = Instant::now();
        let result = f();
        let thread = rayon::current_thread_index().unwrap_or(0);
        if let Some(busy) = self.busy.get(thread) {
            let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            busy.fetch_add(nanos, Ordering::Relaxed);
        }
        result
    }
}

/// The search of one model cut into subproblems, on a pool of threads.
pub(super) struct Parallel<'a> {
    model: Arc<Model<'a>>,
    /// The options of every subproblem's engine (the scope is set per subproblem).
    options: Options,
    pool: rayon::ThreadPool,
    team: Arc<Team>,
    /// Cut on the first call.
    subproblems: Option<Vec<Subproblem>>,
    /// The symmetry tables every subproblem's engine starts from, made once.
    symmetry: Option<Tables>,
    /// Subproblems started or waiting, in order; those from `next` on are not yet here.
    queue: VecDeque<Work<'a>>,
    next: usize,
    /// Finished subproblems, and the statistics of their engines and of the cut.
    finished: usize,
    stats: Stats,
    /// Solutions ready to hand out (optimising: from every subproblem, in the order found).
    ready: VecDeque<Found>,
    current: Option<Found>,
    /// Solutions a listing subproblem buffers at most before the others go first; grows.
    cap: usize,
    checkpoint: Option<Checkpoint>,
    /// Counts of subproblems finished in an earlier run, not yet reported.
    restored: Counted,
    /// Whether the checkpoint resumed from held finished subproblems.
    resumed: bool,
    /// The limit, the error or the exhaustion that ended the search.
    end: Option<Result<StopReason, SearchError>>,
    /// Nanoseconds each pool thread spent searching.
    busy: Vec<AtomicU64>,
}

impl<'a> Parallel<'a> {
    /// A parallel search of `model`; `options.threads` threads.
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] if the thread pool cannot be built.
    pub(super) fn new(model: Arc<Model<'a>>, options: &Options) -> Result<Self, SearchError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads.max(1))
            .thread_name(|i| format!("ambsolve-{i}"))
            .build()
            .map_err(|e| SearchError::Unsupported(format!("cannot start threads: {e}")))?;
        let threads = options.threads.max(1);
        let mut options = options.clone();
        options.threads = 1;
        Ok(Parallel {
            model,
            options,
            pool,
            team: Arc::new(Team::default()),
            subproblems: None,
            symmetry: None,
            queue: VecDeque::new(),
            next: 0,
            finished: 0,
            stats: Stats::default(),
            ready: VecDeque::new(),
            current: None,
            cap: 1,
            checkpoint: None,
            restored: Counted::default(),
            resumed: false,
            end: None,
            busy: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// On the first call: cuts the search, opens the checkpoint, shares the node limit.
    fn prepare(&mut self, outer: &Control) -> Result<(), SearchError> {
        if self.subproblems.is_some() {
            return Ok(());
        }
        // A checkpoint resumed is checked within the time left (see `recount`).
        let mut options = self.options.clone();
        options.limits.time = outer.time_left();
        let (subproblems, stats, checkpoint) =
            cut_for_count(&self.model, &options, target(&self.options))?;
        self.stats = stats;
        self.symmetry = symmetry_tables(&self.model, &self.options)?;
        if let Some(checkpoint) = checkpoint {
            let done = checkpoint.totals();
            self.resumed = !checkpoint.done().is_empty();
            self.restored.found += done.found;
            self.restored.weighted += done.weighted;
            self.stats.nodes += done.nodes;
            self.stats.solutions += done.found;
            self.finished += checkpoint.done().len();
            self.checkpoint = Some(checkpoint);
        }
        // The nodes spent cutting the search count against the node limit.
        let budget = outer
            .node_limit()
            .map(|n| n.saturating_sub(self.stats.nodes));
        let team = Team {
            nodes: budget.map(AtomicU64::new),
            ..Team::default()
        };
        self.team = Arc::new(team);
        self.subproblems = Some(subproblems);
        Ok(())
    }

    fn total(&self) -> usize {
        self.subproblems.as_ref().map_or(0, Vec::len)
    }

    /// Whether subproblem `index` was finished by an earlier run (from the checkpoint).
    fn restored(&self, index: usize) -> bool {
        self.checkpoint
            .as_ref()
            .is_some_and(|c| c.done().contains_key(&index))
    }

    /// Moves subproblems into the queue until it holds `window` of them (all: `usize::MAX`).
    fn fill(&mut self, window: usize) {
        while self.queue.len() < window && self.next < self.total() {
            if !self.restored(self.next) {
                self.queue.push_back(Work::new(self.next));
            }
            self.next += 1;
        }
    }

    /// Records a finished subproblem: statistics, checkpoint.
    fn retire(&mut self, mut work: Work<'a>) -> Result<(), SearchError> {
        let entry = work.entry();
        self.stats += work.close();
        self.finished += 1;
        if let (Some(checkpoint), Some(StopReason::Exhausted)) = (&mut self.checkpoint, work.end) {
            checkpoint.record(work.index, entry)?;
        }
        Ok(())
    }

    /// Ends the search: the checkpoint written, the reason kept.
    fn end(&mut self, end: Result<StopReason, SearchError>) -> Result<StopReason, SearchError> {
        let flushed = self.checkpoint.as_mut().map_or(Ok(()), Checkpoint::flush);
        let end = flushed.and(end);
        self.end = Some(end.clone());
        end
    }

    /// The first error or limit among the queue's subproblems, if any.
    fn stopped(&self) -> Option<Result<StopReason, SearchError>> {
        if let Some(error) = self.queue.iter().find_map(|w| w.error.clone()) {
            return Some(Err(error));
        }
        self.queue
            .iter()
            .find_map(|w| w.end.filter(|&r| r != StopReason::Exhausted))
            .map(Ok)
    }

    /// Hands out the next solution, searching a window of subproblems as needed.
    fn list(&mut self, outer: &mut Control) -> Result<Step, SearchError> {
        let optimizing = self.options.incumbent.is_some();
        loop {
            if let Some(found) = self.ready.pop_front() {
                self.current = Some(found);
                return Ok(Step::Solution);
            }
            if !optimizing {
                if let Some(front) = self.queue.front_mut() {
                    if let Some(found) = front.found.pop_front() {
                        self.current = Some(found);
                        return Ok(Step::Solution);
                    }
                    if front.end == Some(StopReason::Exhausted) && front.error.is_none() {
                        // The first subproblem is done: the next one comes first now.
                        let work = self.queue.pop_front().expect("a front");
                        self.retire(work)?;
                        continue;
                    }
                }
            }
            if let Some(end) = self.stopped() {
                return self.end(end).map(|r| Step::Interrupted(Interrupt::Stop(r)));
            }
            self.fill(2 * self.pool.current_num_threads());
            if self.queue.is_empty() {
                return self
                    .end(Ok(StopReason::Exhausted))
                    .map(|r| Step::Interrupted(Interrupt::Stop(r)));
            }
            if let Some(reason) = outer.stopped() {
                return self
                    .end(Ok(reason))
                    .map(|r| Step::Interrupted(Interrupt::Stop(r)));
            }
            self.batch(outer);
            if optimizing {
                self.gather()?;
            }
            self.cap = (self.cap * 2).min(64);
        }
    }

    /// Searches the queue's subproblems in parallel until the first one has its solutions
    /// (or ends); the others then pause soon after, keeping theirs.
    fn batch(&mut self, outer: &Control) {
        let cap = self.cap;
        self.team.pause.store(false, Ordering::Relaxed);
        self.on_pool(outer, |k, work, context| {
            context.timed(|| work.list(cap, context));
            if k == 0 {
                context.team.pause.store(true, Ordering::Relaxed);
            }
        });
        self.team.pause.store(false, Ordering::Relaxed);
    }

    /// Runs `task` on the pool for every subproblem of the queue (one rayon task each,
    /// with its position in the queue), all sharing one [`Context`].
    fn on_pool(
        &mut self,
        outer: &Control,
        task: impl Fn(usize, &mut Work<'a>, &Context<'a, '_>) + Sync,
    ) {
        let context = Context {
            model: &self.model,
            symmetry: &self.symmetry,
            options: &self.options,
            subproblems: self.subproblems.as_deref().unwrap_or_default(),
            outer,
            team: &self.team,
            busy: &self.busy,
        };
        let works = self.queue.make_contiguous();
        self.pool.install(|| {
            works
                .par_iter_mut()
                .enumerate()
                .with_max_len(1)
                .for_each(|(k, work)| task(k, work, &context));
        });
    }

    /// Optimising: every solution found, in the order found, is ready to hand out.
    fn gather(&mut self) -> Result<(), SearchError> {
        let mut found: Vec<Found> = self
            .queue
            .iter_mut()
            .flat_map(|w| w.found.drain(..))
            .collect();
        // Each was recorded as better than every one before it, so the order they were
        // recorded in is that of falling cost (the clock, read after, may disagree).
        let maximize = self.model.sense() == Some(crate::model::Sense::Maximize);
        found.sort_by_key(|f| {
            let value = i128::from(f.objective.unwrap_or(0));
            std::cmp::Reverse(if maximize { -value } else { value })
        });
        self.ready.extend(found);
        // Finished subproblems leave the queue wherever they are.
        let mut kept = VecDeque::new();
        for work in std::mem::take(&mut self.queue) {
            if work.end == Some(StopReason::Exhausted) && work.error.is_none() {
                self.retire(work)?;
            } else {
                kept.push_back(work);
            }
        }
        self.queue = kept;
        Ok(())
    }

    /// Counts every subproblem left, on the pool, until they are done or the search
    /// stops or pauses.
    fn count_all(&mut self, outer: &mut Control) -> Result<Counted, SearchError> {
        let mut counted = std::mem::take(&mut self.restored);
        self.fill(usize::MAX);
        let recorder = Mutex::new((self.checkpoint.take(), None::<SearchError>));
        let pause_at = outer.pause_at();
        // The first subproblems of the queue always go on (each engine pauses only after
        // some work), so that every call makes progress, however short its budget.
        let always = self.pool.current_num_threads();
        self.on_pool(outer, |k, work, context| {
            let paused = k >= always && pause_at.is_some_and(|p| Instant::now() >= p);
            if paused || context.team.halt.load(Ordering::Relaxed) {
                return;
            }
            context.timed(|| work.count(context));
            if work.end == Some(StopReason::Exhausted) {
                let entry = work.entry();
                let mut guard = recorder.lock().unwrap_or_else(|e| e.into_inner());
                let (checkpoint, error) = &mut *guard;
                if let Some(checkpoint) = checkpoint {
                    if let Err(e) = checkpoint.record(work.index, entry) {
                        error.get_or_insert(e);
                        context.team.halt.store(true, Ordering::Relaxed);
                    }
                }
            }
        });
        let (checkpoint, error) = recorder.into_inner().unwrap_or_else(|e| e.into_inner());
        self.checkpoint = checkpoint;
        for work in &mut self.queue {
            counted.found += std::mem::take(&mut work.counted);
            counted.weighted += std::mem::take(&mut work.weighted);
        }
        let stop = self.stopped();
        // Finished ones leave the queue (already recorded in the checkpoint).
        let mut kept = VecDeque::new();
        for mut work in std::mem::take(&mut self.queue) {
            if work.end == Some(StopReason::Exhausted) {
                let stats = work.close();
                self.stats += stats;
                self.finished += 1;
            } else {
                kept.push_back(work);
            }
        }
        self.queue = kept;
        if let Some(error) = error {
            return Err(self.end(Err(error)).expect_err("an error"));
        }
        let end = match stop {
            Some(end) => Some(Interrupt::Stop(self.end(end)?)),
            None if self.queue.is_empty() => {
                Some(Interrupt::Stop(self.end(Ok(StopReason::Exhausted))?))
            }
            None => match outer.stopped() {
                Some(reason) => Some(Interrupt::Stop(self.end(Ok(reason))?)),
                None => Some(Interrupt::Pause),
            },
        };
        counted.end = end;
        Ok(counted)
    }
}

impl Search for Parallel<'_> {
    type Item = Assignment;

    fn advance(&mut self, control: &mut Control) -> Result<Step, SearchError> {
        if let Some(end) = &self.end {
            return end.clone().map(|r| Step::Interrupted(Interrupt::Stop(r)));
        }
        self.prepare(control)?;
        if self.resumed {
            return Err(SearchError::Unsupported(
                "a checkpoint resumes a count: the solutions of the subproblems it \
                 finished are not kept"
                    .into(),
            ));
        }
        self.list(control)
    }

    fn count(&mut self, control: &mut Control, max: u64) -> Result<Counted, SearchError> {
        if let Some(end) = &self.end {
            let reason = end.clone()?;
            return Ok(Counted {
                end: Some(Interrupt::Stop(reason)),
                ..Counted::default()
            });
        }
        self.prepare(control)?;
        if max != u64::MAX || self.options.incumbent.is_some() || !self.ready.is_empty() {
            // A solution limit (or an optimum) needs the solutions in order.
            return count_by_advancing(self, control, max);
        }
        self.count_all(control)
    }

    fn take_solution(&mut self) -> Assignment {
        self.current
            .take()
            .expect("take_solution is only called after advance found a solution")
            .solution
    }

    fn stats(&self) -> Stats {
        let mut stats = self.stats;
        for work in &self.queue {
            stats += work.stats();
        }
        stats
    }

    fn progress(&self) -> f64 {
        let total = self.total();
        if total == 0 {
            return 0.0;
        }
        let partial: f64 = self
            .queue
            .iter()
            .filter_map(|w| w.engine.as_ref().map(|e| e.progress()))
            .sum();
        ((self.finished as f64 + partial) / total as f64).min(1.0)
    }

    fn objective(&self) -> Option<i64> {
        self.current.as_ref().and_then(|f| f.objective)
    }

    fn path(&self) -> Vec<u32> {
        Vec::new()
    }

    fn weight(&self) -> u64 {
        self.current.as_ref().map_or(1, |f| f.weight)
    }

    fn subproblems(&self) -> Option<(usize, usize)> {
        self.subproblems
            .as_ref()
            .map(|all| (self.finished, all.len()))
    }

    fn workers(&self) -> Vec<Duration> {
        self.busy
            .iter()
            .map(|b| Duration::from_nanos(b.load(Ordering::Relaxed)))
            .collect()
    }
}
