//! A worker rank of a distributed run: it asks rank 0 for tasks, keeps one queued beyond
//! its threads, runs them on its threads and sends their results back, then waits for
//! rank 0 to close the run.

use std::sync::mpsc::{self, Sender};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::Instant;

use mpi::Tag;
use mpi::point_to_point::Destination;
use mpi::topology::Communicator;

use super::{Done, Event, Task, TaskLimits, TaskResult, next_event, serve, wire};
use crate::error::SearchError;

/// A worker rank: asks rank 0 for tasks, runs them, sends back their results.
pub(super) fn worker<C: Communicator, W>(
    world: &C,
    threads: usize,
    work: &W,
) -> Result<(), SearchError>
where
    W: Fn(&[u32], TaskLimits) -> Result<TaskResult, SearchError> + Sync,
{
    let root = world.process_at_rank(0);
    // Each task with the time it came: the time left to the deadline runs from then.
    let (inbox, tasks) = mpsc::channel::<(Task, Instant)>();
    let tasks = Mutex::new(tasks);
    thread::scope(|scope| {
        let next = || {
            let tasks = tasks.lock().unwrap_or_else(PoisonError::into_inner);
            let ((slot, path, limits), came) = tasks.recv().ok()?;
            Some((slot, path, limits.after(came.elapsed())))
        };
        let (sender, done) = mpsc::channel();
        for _ in 0..threads {
            let sender = sender.clone();
            scope.spawn(move || serve(next, work, sender));
        }
        drop(sender);
        let mut exchange = Exchange {
            root: &root,
            inbox: &inbox,
            asked: 0,
            running: 0,
            stopped: false,
            failed: false,
        };
        // One task more than threads: a thread that finishes finds the next task waiting
        // instead of waiting for a round trip to rank 0 (a few wake-ups on busy cores).
        for _ in 0..=threads {
            exchange.request();
        }
        while exchange.asked > 0 || exchange.running > 0 {
            let local = (exchange.running > 0).then_some(&done);
            match next_event(&root, exchange.asked > 0, local) {
                Event::Message((_, kind, bytes)) => exchange.answered(kind, &bytes),
                Event::Done(finished) => exchange.finished(finished),
                // Every thread ended with tasks still given to them (after a failure).
                Event::Idle => exchange.running = 0,
            }
        }
        drop(inbox);
    });
    root.send_with_tag(&[0u8; 0][..], wire::BYE);
    // Wait for rank 0 to close the run, so that nothing of the next run reaches this one.
    loop {
        match next_event(&root, true, None) {
            Event::Message((_, wire::END, bytes)) if bytes.is_empty() => return Ok(()),
            Event::Message((_, wire::END, bytes)) => {
                return Err(SearchError::Distributed(
                    String::from_utf8_lossy(&bytes).into_owned(),
                ));
            }
            _ => {}
        }
    }
}

/// A worker's side of its exchange with rank 0: requests sent and not answered, tasks
/// given to its threads (queued or running) and not finished, and whether it asks for
/// more (not once rank 0 said STOP, or a task here failed: then WORK is dropped).
struct Exchange<'r, P> {
    root: &'r P,
    inbox: &'r Sender<(Task, Instant)>,
    asked: usize,
    running: usize,
    stopped: bool,
    failed: bool,
}

impl<P: Destination> Exchange<'_, P> {
    /// Asks rank 0 for a task.
    fn request(&mut self) {
        self.root.send_with_tag(&[0u8; 0][..], wire::REQUEST);
        self.asked += 1;
    }

    /// Tells rank 0 that task `slot` (or the exchange) failed, and stops asking.
    fn fail(&mut self, slot: u64, message: &str) {
        self.root
            .send_with_tag(&wire::failed(slot, message)[..], wire::FAILED);
        (self.stopped, self.failed) = (true, true);
    }

    /// Rank 0's answer to a request: a task for the threads, or STOP.
    fn answered(&mut self, kind: Tag, bytes: &[u8]) {
        self.asked = self.asked.saturating_sub(1);
        match kind {
            wire::STOP => self.stopped = true,
            wire::WORK if self.failed => {}
            wire::WORK => match wire::read_work(bytes)
                .map(|(slot, limits, path)| self.inbox.send(((slot, path, limits), Instant::now())))
            {
                Some(Ok(())) => self.running += 1,
                _ => self.fail(wire::NO_SLOT, "a malformed task from rank 0"),
            },
            _ => self.fail(
                wire::NO_SLOT,
                &format!("an unexpected message (tag {kind})"),
            ),
        }
    }

    /// A task finished on a thread: its result goes to rank 0, and another is asked for.
    fn finished(&mut self, finished: Done) {
        self.running -= 1;
        match finished.result {
            Ok(result) => {
                let bytes = wire::result(finished.slot, &result, finished.busy);
                self.root.send_with_tag(&bytes[..], wire::RESULT);
                if !self.stopped {
                    self.request();
                }
            }
            Err(error) => self.fail(finished.slot as u64, &error.to_string()),
        }
    }
}
