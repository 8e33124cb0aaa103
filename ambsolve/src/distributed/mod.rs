//! Independent tasks handed out over the processes of an MPI job (feature `mpi`).
//!
//! A search cut into independent tasks, each a path of choice indices, runs on many
//! machines: rank 0 holds the list and hands tasks out one at a time, to whichever
//! process asks first, so a process that drew quick tasks simply asks more often. Every
//! process, rank 0 included, runs `threads` tasks at once on worker threads; all MPI calls
//! stay on the thread that called [`init`] (MPI's *funneled* threading level).
//!
//! The protocol, each message a few bytes tagged with its kind:
//!
//! ```text
//! worker ── REQUEST ──────────────► rank 0     one per thread, and one more
//! worker ◄── WORK (slot, limits, path) rank 0  or STOP: nothing left (or a limit)
//! worker ── RESULT (slot, result) ► rank 0     then REQUEST again
//! worker ── FAILED (slot, error) ─► rank 0     rank 0 hands out nothing more
//! worker ── BYE ──────────────────► rank 0     its last message of this run
//! worker ◄── END (error, if any) ── rank 0     once every worker has said BYE
//! ```
//!
//! A worker keeps one task queued beyond its threads, so that a thread that finishes
//! starts the next task at once instead of waiting for a round trip to rank 0; rank 0's
//! own threads take tasks straight from the list. Waiting is a short sleep between
//! non-blocking probes, not MPI's blocking calls (which spin on a core in Open MPI and
//! would take it from the tasks when processes share cores).
//!
//! Limits hold for the whole run ([`distribute_within`]): rank 0 keeps the deadline, the
//! node budget and the cancellation flag of the job, hands every task out with the time
//! left and a share of the nodes left ([`TaskLimits`]), and hands out nothing more once a
//! limit is reached or a task comes back stopped; what every task counted, stopped ones
//! included, is summed, and [`Distributed::stopped`] says why the run is partial.
//!
//! ```no_run
//! use ambsolve::distributed::{self, Communicator, TaskResult};
//! use ambsolve::Stats;
//!
//! let universe = distributed::init()?;
//! let world = universe.world();
//! // The tasks matter on rank 0 only: (an index of the caller's, a path).
//! let tasks = if world.rank() == 0 { (0..100).map(|i| (i, vec![i as u32])).collect() } else { Vec::new() };
//! let work = |path: &[u32]| Ok(TaskResult { solutions: u64::from(path[0] % 3), ..TaskResult::default() });
//! let checkpoint = |_index: usize, _result: &TaskResult| {}; // rank 0 only
//! let totals = distributed::distribute(&world, 1, tasks, work, checkpoint)?;
//! if let Some(totals) = totals {
//!     println!("{} solutions, tasks per rank {:?}", totals.solutions, totals.tasks);
//! }
//! # Ok::<(), ambsolve::SearchError>(())
//! ```

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// What a program needs of MPI (the rsmpi bindings this module is built on), and no more:
/// the [`Universe`] [`init`] returns (its `world()` is the communicator of every process
/// of the job, a [`SimpleCommunicator`]), and the [`Communicator`] trait, which gives a
/// communicator's `rank()` and `size()` (a [`Rank`]) and is what [`distribute`] and
/// `Solver::count_distributed` take.
pub use mpi::environment::Universe;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
pub use mpi::topology::{Communicator, Rank, SimpleCommunicator};
use mpi::{Tag, Threading};

use crate::error::SearchError;
use crate::limits::StopReason;
use crate::stats::Stats;

mod budget;
mod wire;
mod worker;

use budget::Budget;
pub use budget::{JobLimits, TaskLimits};
use worker::worker;

/// What one task found: its solutions and what its search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskResult {
    /// Solutions the task counted.
    pub solutions: u64,
    /// What its search did.
    pub stats: Stats,
    /// Why the task stopped before its end (its [`TaskLimits`], a cancellation), if it
    /// did: its count is then partial, and rank 0 hands out no more tasks.
    pub stopped: Option<StopReason>,
}

/// What a distributed run did, on rank 0.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Distributed {
    /// The sum of every task's solutions.
    pub solutions: u64,
    /// Every task's statistics summed (`max_depth`: the largest; `elapsed`: the sum, time
    /// spent searching on every thread of every process).
    pub stats: Stats,
    /// Tasks each rank ran, indexed by rank.
    pub tasks: Vec<u64>,
    /// Time each rank spent running tasks (wall time around each task, summed over its
    /// threads), indexed by rank.
    pub busy: Vec<Duration>,
    /// Wall time of the whole run on rank 0.
    pub elapsed: Duration,
    /// Why the run stopped before every task had run to its end, if it did (a limit of
    /// [`JobLimits`], a task that stopped): the sums are then partial.
    pub stopped: Option<StopReason>,
}

impl Distributed {
    /// How unevenly the work was spread: the busiest rank's time over the mean (1.0 is
    /// perfect balance; 1.0 also when nothing ran).
    pub fn imbalance(&self) -> f64 {
        let busy: Vec<f64> = self.busy.iter().map(Duration::as_secs_f64).collect();
        let mean = busy.iter().sum::<f64>() / busy.len().max(1) as f64;
        let slowest = busy.iter().copied().fold(0.0, f64::max);
        if mean > 0.0 { slowest / mean } else { 1.0 }
    }
}

/// Starts MPI at the threading level [`distribute`] needs (funneled: threads run tasks,
/// only this thread calls MPI). Keep the universe alive for as long as MPI is used;
/// dropping it finalises MPI.
///
/// # Errors
///
/// [`SearchError::Distributed`] if MPI was already started or cannot give that level.
pub fn init() -> Result<Universe, SearchError> {
    let Some((universe, level)) = mpi::initialize_with_threading(Threading::Funneled) else {
        return Err(SearchError::Distributed(
            "MPI was already initialised".to_string(),
        ));
    };
    if level < Threading::Funneled {
        return Err(SearchError::Distributed(format!(
            "the MPI library gives threading level {level:?}; tasks run on threads, so \
             at least Funneled is needed"
        )));
    }
    Ok(universe)
}

/// Runs `tasks` over every process of `world`, each task once, and sums their results
/// on rank 0.
///
/// Call it on every rank of `world` (an intra-communicator, such as
/// `universe.world()`), from the thread that called [`init`]. `tasks` are read on rank 0
/// only (pass an empty list elsewhere): each is an index of the caller's and a path, given
/// to `work` on whichever process is free first. Every process runs up to `threads` tasks
/// at once (0 counts as 1); rank 0 runs its share besides handing tasks out.
///
/// On rank 0, `on_result(index, result)` is called on this thread for each task as it
/// finishes (in the order they finish; the place to write a checkpoint), and the totals
/// are returned; other ranks return `Ok(None)`.
///
/// # Errors
///
/// The first task that returns an error (or panics: [`SearchError::Unwound`]) stops the
/// run: no task is handed out any more, tasks already handed out may still run (their
/// results still reach `on_result`), and every rank returns an error: rank 0 the task's own error when the
/// task ran on rank 0, otherwise a [`SearchError::Distributed`] naming the rank and
/// giving the error's message; the other ranks a [`SearchError::Distributed`] with the
/// same message. A malformed message between processes is an error in the same way.
pub fn distribute<C, W, R>(
    world: &C,
    threads: usize,
    tasks: Vec<(usize, Vec<u32>)>,
    work: W,
    on_result: R,
) -> Result<Option<Distributed>, SearchError>
where
    C: Communicator,
    W: Fn(&[u32]) -> Result<TaskResult, SearchError> + Sync,
    R: FnMut(usize, &TaskResult),
{
    let work = |path: &[u32], _: TaskLimits| work(path);
    distribute_within(
        world,
        threads,
        tasks,
        &JobLimits::default(),
        work,
        on_result,
    )
}

/// [`distribute`] within the limits of the whole run, `limits` (read on rank 0): rank 0
/// hands each task out with the [`TaskLimits`] that `work` must keep (the time left until
/// the deadline, a share of the nodes left), and hands out nothing more once a limit is
/// reached, the flag is set or a task comes back stopped
/// ([`TaskResult::stopped`]). Every result is summed, a stopped task's too, but
/// `on_result` is called for the tasks that ran to their end only (a stopped task's count
/// is partial: it is not a result to record); [`Distributed::stopped`] says why the run
/// ended early, if it did.
///
/// # Errors
/// As [`distribute`].
pub fn distribute_within<C, W, R>(
    world: &C,
    threads: usize,
    tasks: Vec<(usize, Vec<u32>)>,
    limits: &JobLimits,
    work: W,
    on_result: R,
) -> Result<Option<Distributed>, SearchError>
where
    C: Communicator,
    W: Fn(&[u32], TaskLimits) -> Result<TaskResult, SearchError> + Sync,
    R: FnMut(usize, &TaskResult),
{
    let threads = threads.max(1);
    if world.rank() == 0 {
        // Tasks that hold a share at once: each thread's, each worker's one queued more,
        // and one taken before the result of the last is in.
        let slots = usize::try_from(world.size()).unwrap_or(1).max(1) * (threads + 1) + 1;
        let budget = Budget::new(limits, tasks.len(), slots);
        root(world, threads, &tasks, &budget, &work, on_result).map(Some)
    } else {
        worker(world, threads, &work).map(|()| None)
    }
}

/// How long a rank sleeps between looks for a message when it has nothing else to do.
const POLL: Duration = Duration::from_micros(500);

/// A task to run: its slot, its path, its limits.
type Task = (usize, Vec<u32>, TaskLimits);

/// A task finished on one of this process's threads.
struct Done {
    slot: usize,
    result: Result<TaskResult, SearchError>,
    busy: Duration,
}

/// Runs tasks from `next` until it has none, sending each outcome to `done`; stops after
/// a failure.
fn serve<W>(next: impl Fn() -> Option<Task>, work: &W, done: Sender<Done>)
where
    W: Fn(&[u32], TaskLimits) -> Result<TaskResult, SearchError>,
{
    while let Some((slot, path, limits)) = next() {
        let start = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| work(&path, limits)))
            .unwrap_or(Err(SearchError::Unwound));
        let failed = result.is_err();
        let busy = start.elapsed();
        if done.send(Done { slot, result, busy }).is_err() || failed {
            break;
        }
    }
}

/// A message received: its sender, its tag and its bytes.
type Received = (Rank, Tag, Vec<u8>);

/// The next message from `source` if one has arrived.
fn try_receive(source: &impl Source) -> Option<Received> {
    let (bytes, status) = source
        .immediate_matched_probe()?
        .matched_receive_vec::<u8>();
    Some((status.source_rank(), status.tag(), bytes))
}

/// What a rank waits for: a message, or a task finished on one of its threads.
enum Event {
    Message(Received),
    Done(Done),
    /// Every thread has ended.
    Idle,
}

/// Waits for the next message from `source` (if `messages`) or finished task (if `local`).
fn next_event(source: &impl Source, messages: bool, local: Option<&Receiver<Done>>) -> Event {
    loop {
        if messages {
            if let Some(message) = try_receive(source) {
                return Event::Message(message);
            }
        }
        match local {
            Some(local) if messages => match local.recv_timeout(POLL) {
                Ok(done) => return Event::Done(done),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Event::Idle,
            },
            Some(local) => {
                return local.recv().map_or(Event::Idle, Event::Done);
            }
            None if messages => thread::sleep(POLL),
            None => return Event::Idle,
        }
    }
}

/// Rank 0: hands tasks out, runs its own share, collects every result.
fn root<C: Communicator, W, R>(
    world: &C,
    threads: usize,
    tasks: &[(usize, Vec<u32>)],
    budget: &Budget,
    work: &W,
    on_result: R,
) -> Result<Distributed, SearchError>
where
    W: Fn(&[u32], TaskLimits) -> Result<TaskResult, SearchError> + Sync,
    R: FnMut(usize, &TaskResult),
{
    let started = Instant::now();
    let ranks = usize::try_from(world.size()).unwrap_or(1).max(1);
    let dispenser = Dispenser {
        tasks,
        budget,
        next: Mutex::new(0),
    };
    let mut books = Books::new(tasks, budget, on_result, ranks);
    hand_out_and_collect(world, threads, &dispenser, work, &mut books);
    let error = books.outcome(dispenser.handed_out());
    // Every worker waits for the run's end, with the error's message if there is one.
    let end = match &error {
        Some(SearchError::Distributed(message)) => message.clone(),
        Some(error) => error.to_string(),
        None => String::new(),
    };
    for rank in 1..world.size() {
        world
            .process_at_rank(rank)
            .send_with_tag(end.as_bytes(), wire::END);
    }
    books.totals.elapsed = started.elapsed();
    match error {
        Some(error) => Err(error),
        None => Ok(books.totals),
    }
}

/// Rank 0's list of tasks, handed out in order to its own threads and to the workers'
/// requests, each with its share of the budget.
struct Dispenser<'t> {
    tasks: &'t [(usize, Vec<u32>)],
    budget: &'t Budget,
    /// The next task to hand out (`tasks.len()`: none any more).
    next: Mutex<usize>,
}

impl Dispenser<'_> {
    fn next(&self) -> std::sync::MutexGuard<'_, usize> {
        self.next.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next task, if any is left and the budget allows it.
    fn take(&self) -> Option<Task> {
        let mut next = self.next();
        let slot = *next;
        let path = &self.tasks.get(slot)?.1;
        let limits = self.budget.hand_out(slot)?;
        *next += 1;
        Some((slot, path.clone(), limits))
    }

    /// Hands out nothing more.
    fn close(&self) {
        *self.next() = self.tasks.len();
    }

    /// How many tasks were handed out.
    fn handed_out(&self) -> usize {
        (*self.next()).min(self.tasks.len())
    }
}

/// Rank 0's loop: its threads run tasks from `dispenser` while it answers the workers'
/// requests and records every result in `books`, until every thread has ended and every
/// worker has said BYE (after an error, nothing more is handed out).
fn hand_out_and_collect<C: Communicator, W, R>(
    world: &C,
    threads: usize,
    dispenser: &Dispenser<'_>,
    work: &W,
    books: &mut Books<'_, R>,
) where
    W: Fn(&[u32], TaskLimits) -> Result<TaskResult, SearchError> + Sync,
    R: FnMut(usize, &TaskResult),
{
    let ranks = books.totals.tasks.len();
    let any = world.any_process();
    let mut said_bye = vec![false; ranks];
    said_bye[0] = true;
    let mut workers_left = ranks - 1;
    thread::scope(|scope| {
        let (sender, done) = mpsc::channel();
        for _ in 0..threads {
            let sender = sender.clone();
            scope.spawn(move || serve(|| dispenser.take(), work, sender));
        }
        drop(sender);
        let mut local = Some(&done);
        while workers_left > 0 || local.is_some() {
            match next_event(&any, workers_left > 0, local) {
                Event::Idle => local = None,
                Event::Done(finished) => books.record(0, finished),
                Event::Message((rank, wire::REQUEST, _)) => {
                    let reply = match dispenser.take() {
                        Some((slot, path, limits)) => {
                            books.sent_to[slot] = Some(rank);
                            (wire::WORK, wire::work(slot, limits, &path))
                        }
                        None => (wire::STOP, Vec::new()),
                    };
                    world
                        .process_at_rank(rank)
                        .send_with_tag(&reply.1[..], reply.0);
                }
                Event::Message((rank, wire::BYE, _)) => {
                    let index = usize::try_from(rank).unwrap_or(0);
                    if !std::mem::replace(&mut said_bye[index], true) {
                        workers_left -= 1;
                    }
                }
                Event::Message((rank, kind, bytes)) => {
                    if let Err(error) = books.message(rank, kind, &bytes) {
                        books.fail(error);
                    }
                }
            }
            if books.error.is_some() {
                dispenser.close();
            }
        }
    });
}

/// Rank 0's record of the run: which tasks went where, which are done, the totals.
struct Books<'t, R> {
    tasks: &'t [(usize, Vec<u32>)],
    budget: &'t Budget,
    on_result: R,
    done: Vec<bool>,
    /// The rank each task was sent to (None: not sent, or taken by rank 0's threads).
    sent_to: Vec<Option<Rank>>,
    totals: Distributed,
    error: Option<SearchError>,
}

impl<'t, R: FnMut(usize, &TaskResult)> Books<'t, R> {
    /// Nothing done yet, over `ranks` processes.
    fn new(tasks: &'t [(usize, Vec<u32>)], budget: &'t Budget, on_result: R, ranks: usize) -> Self {
        Books {
            tasks,
            budget,
            on_result,
            done: vec![false; tasks.len()],
            sent_to: vec![None; tasks.len()],
            totals: Distributed {
                solutions: 0,
                stats: Stats::default(),
                tasks: vec![0; ranks],
                busy: vec![Duration::ZERO; ranks],
                elapsed: Duration::ZERO,
                stopped: None,
            },
            error: None,
        }
    }

    /// The run's error once every rank is done, if any (a task handed out whose result
    /// never came is one); tasks left unhanded because a limit stopped the run make it
    /// partial.
    fn outcome(&mut self, handed_out: usize) -> Option<SearchError> {
        if handed_out < self.tasks.len() {
            let stopped = self.budget.stopped();
            self.totals.stopped = self.totals.stopped.or(stopped);
        }
        let error = self.error.take();
        if error.is_some() {
            return error;
        }
        let slot = self.done[..handed_out].iter().position(|&done| !done)?;
        Some(SearchError::Distributed(format!(
            "task {} was handed out but its result never came",
            self.tasks[slot].0
        )))
    }

    /// Counts a finished task of `rank`.
    fn record(&mut self, rank: Rank, finished: Done) {
        match finished.result {
            Ok(result) => {
                self.done[finished.slot] = true;
                let at = usize::try_from(rank).unwrap_or(0);
                self.totals.tasks[at] += 1;
                self.totals.busy[at] += finished.busy;
                self.totals.solutions = self.totals.solutions.saturating_add(result.solutions);
                self.totals.stats += result.stats;
                self.budget.give_back(finished.slot, result.stats.nodes);
                match result.stopped {
                    // A partial count: summed, but not a result to record.
                    Some(reason) => {
                        self.budget.stop(reason);
                        self.totals.stopped.get_or_insert(reason);
                    }
                    None => (self.on_result)(self.tasks[finished.slot].0, &result),
                }
            }
            Err(error) => self.fail(error),
        }
    }

    /// Keeps the run's first error.
    fn fail(&mut self, error: SearchError) {
        self.error.get_or_insert(error);
    }

    /// Reads a RESULT or FAILED message from `rank`.
    fn message(&mut self, rank: Rank, kind: Tag, bytes: &[u8]) -> Result<(), SearchError> {
        let malformed = |what: &str| {
            SearchError::Distributed(format!(
                "malformed message (tag {kind}) from rank {rank}: {what}"
            ))
        };
        let (slot, outcome) = match kind {
            wire::RESULT => {
                let (slot, result, busy) = wire::read_result(bytes).map_err(malformed)?;
                (slot, Ok((result, busy)))
            }
            wire::FAILED => {
                let (slot, message) = wire::read_failed(bytes).map_err(malformed)?;
                (slot, Err(message))
            }
            _ => return Err(malformed("unknown kind")),
        };
        let known = usize::try_from(slot)
            .ok()
            .filter(|&s| s < self.tasks.len() && self.sent_to[s] == Some(rank));
        match (known, outcome) {
            (Some(slot), Ok((result, busy))) if !self.done[slot] => {
                self.record(
                    rank,
                    Done {
                        slot,
                        result: Ok(result),
                        busy,
                    },
                );
                Ok(())
            }
            (_, Ok(_)) => Err(malformed("a result for a task it was not running")),
            (Some(slot), Err(message)) => Err(SearchError::Distributed(format!(
                "task {} failed on rank {rank}: {message}",
                self.tasks[slot].0
            ))),
            (None, Err(message)) => {
                Err(SearchError::Distributed(format!("rank {rank}: {message}")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_runs_tasks_until_none_is_left_or_one_fails() {
        let work = |path: &[u32], _: TaskLimits| match path {
            [7] => panic!("a task that panics"),
            [9] => Err(SearchError::InvalidModel("nine".to_string())),
            _ => Ok(TaskResult::default()),
        };
        let run = |paths: &[u32]| {
            let left = Mutex::new(paths.iter().enumerate().rev().collect::<Vec<_>>());
            let next = || {
                let (slot, &p) = left.lock().unwrap().pop()?;
                Some((slot, vec![p], TaskLimits::default()))
            };
            let (sender, done) = mpsc::channel();
            serve(next, &work, sender);
            done.iter().map(|d| d.result).collect::<Vec<_>>()
        };
        assert_eq!(
            run(&[1, 2]),
            [Ok(TaskResult::default()), Ok(TaskResult::default())]
        );
        assert_eq!(
            run(&[1, 9, 2]),
            [
                Ok(TaskResult::default()),
                Err(SearchError::InvalidModel("nine".to_string()))
            ]
        );
        assert_eq!(run(&[7, 1]), [Err(SearchError::Unwound)]);
    }

    /// Rank 0's books over three tasks (indices 10, 11, 12), the first sent to rank 2,
    /// keeping the results it is given.
    fn books<'t>(
        tasks: &'t [(usize, Vec<u32>)],
        results: &'t mut Vec<(usize, TaskResult)>,
    ) -> Books<'t, impl FnMut(usize, &TaskResult) + 't> {
        Books {
            tasks,
            budget: Box::leak(Box::new(Budget::new(&JobLimits::default(), 3, 1))),
            on_result: move |index, result: &TaskResult| results.push((index, *result)),
            done: vec![false; 3],
            sent_to: vec![Some(2), None, None],
            totals: Distributed {
                solutions: 0,
                stats: Stats::default(),
                tasks: vec![0; 3],
                busy: vec![Duration::ZERO; 3],
                elapsed: Duration::ZERO,
                stopped: None,
            },
            error: None,
        }
    }

    #[test]
    fn rank_0_counts_a_result_once_and_refuses_what_does_not_fit() {
        let tasks = [(10, vec![0]), (11, vec![1]), (12, vec![2])];
        let mut seen = Vec::new();
        let mut books = books(&tasks, &mut seen);
        let result = TaskResult {
            solutions: 5,
            stats: Stats::default(),
            stopped: None,
        };
        let message = |slot: usize| wire::result(slot, &result, Duration::from_millis(2));
        let refused = |outcome: Result<(), SearchError>, what: &str| match outcome {
            Err(SearchError::Distributed(m)) => assert!(m.contains(what), "{m}"),
            other => panic!("expected an error about {what}, got {other:?}"),
        };
        // From the wrong rank, for a task never sent, for a slot out of range.
        refused(books.message(1, wire::RESULT, &message(0)), "not running");
        refused(books.message(2, wire::RESULT, &message(1)), "not running");
        refused(books.message(2, wire::RESULT, &message(3)), "not running");
        refused(
            books.message(2, wire::RESULT, &message(usize::MAX)),
            "not running",
        );
        // Cut short, too long, empty, of an unknown kind.
        let whole = message(0);
        refused(
            books.message(2, wire::RESULT, &whole[..whole.len() - 1]),
            "too short",
        );
        refused(
            books.message(2, wire::RESULT, &[whole.clone(), vec![0]].concat()),
            "too long",
        );
        refused(books.message(2, wire::FAILED, &[]), "no task number");
        refused(books.message(2, 99, &whole), "unknown kind");
        assert_eq!(books.totals.tasks, [0, 0, 0]);
        // The right one, once.
        assert_eq!(books.message(2, wire::RESULT, &whole), Ok(()));
        refused(books.message(2, wire::RESULT, &whole), "not running");
        assert_eq!(books.totals.tasks, [0, 0, 1]);
        assert_eq!(books.totals.busy[2], Duration::from_millis(2));
        assert_eq!(books.totals.solutions, 5);
        // A failure names the task (by the caller's index) and the rank.
        let failed = wire::failed(0, "invalid model: x");
        refused(
            books.message(2, wire::FAILED, &failed),
            "task 10 failed on rank 2: invalid",
        );
        let mut unplaced = wire::failed(wire::NO_SLOT, "");
        unplaced.extend_from_slice(&[0xff, b'!']);
        refused(
            books.message(1, wire::FAILED, &unplaced),
            "rank 1: \u{fffd}!",
        );
        drop(books);
        assert_eq!(seen, [(10, result)]);
    }

    #[test]
    fn a_stopped_task_is_summed_but_not_recorded_and_stops_the_handing_out() {
        let tasks = [(10, vec![0]), (11, vec![1]), (12, vec![2])];
        let mut seen = Vec::new();
        let mut books = books(&tasks, &mut seen);
        let stopped = TaskResult {
            solutions: 4,
            stats: Stats::default(),
            stopped: Some(StopReason::TimeLimit),
        };
        let message = wire::result(0, &stopped, Duration::ZERO);
        assert_eq!(books.message(2, wire::RESULT, &message), Ok(()));
        assert_eq!(books.totals.solutions, 4);
        assert_eq!(books.totals.stopped, Some(StopReason::TimeLimit));
        assert_eq!(books.budget.hand_out(1), None);
        drop(books);
        assert!(seen.is_empty(), "{seen:?}");
    }

    #[test]
    fn imbalance_is_the_busiest_over_the_mean() {
        let mut totals = Distributed {
            solutions: 0,
            stats: Stats::default(),
            tasks: vec![1, 1],
            busy: vec![Duration::from_secs(3), Duration::from_secs(1)],
            elapsed: Duration::ZERO,
            stopped: None,
        };
        assert_eq!(totals.imbalance(), 1.5);
        totals.busy = vec![Duration::ZERO; 2];
        assert_eq!(totals.imbalance(), 1.0);
    }
}
