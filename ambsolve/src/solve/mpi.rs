//! A count over the processes of an MPI job (feature `mpi`): rank 0 cuts the search into
//! subproblems and hands them out through [`distribute`](crate::distributed::distribute);
//! with a checkpoint, finished subproblems are recorded as their results arrive, so that a
//! job that loses a process is resumed without doing them again. The limits hold for the
//! whole job: rank 0 keeps the deadline, the node budget and the flag (see
//! [`distribute_within`]), and a stopped job's count is what the processes summed.

use std::sync::Arc;
use std::time::Instant;

use mpi::topology::Communicator;

use super::checkpoint::{Checkpoint, Entry};
use super::{Solver, Summary, check, parallel};
use crate::choice::Subproblem;
use crate::distributed::{Distributed, JobLimits, TaskLimits, TaskResult, distribute_within};
use crate::error::SearchError;
use crate::limits::StopReason;
use crate::model::Model;
use crate::options::Options;

/// Subproblems per thread of every process when none are asked for.
const PER_WORKER: usize = 32;

/// What a distributed count found, on rank 0.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DistributedCount {
    /// The count (subproblems finished by an earlier run included), `Exhausted`, and
    /// the statistics of every subproblem's search plus the cutting.
    pub summary: Summary,
    /// What the processes did in this run: tasks and busy time per rank.
    pub run: Distributed,
    /// Subproblems in all, and how many of them an earlier run had finished.
    pub subproblems: usize,
    /// Subproblems restored from the checkpoint.
    pub restored: usize,
    /// Subproblems finished, restored ones included (all of them unless the job stopped
    /// on a limit or a signal).
    pub finished: usize,
}

impl<T> Solver<'_, T> {
    /// Counts the solutions over every process of an MPI job `world` (call it on every
    /// rank, with the same solver): rank 0 cuts the search into subproblems, hands them
    /// out to whichever process is free, `threads` at a time per process, and adds up
    /// their counts. Returns the count on rank 0, `None` elsewhere. The count equals the
    /// one-process count.
    ///
    /// The limits (rank 0's options) hold for the whole job: the time limit runs from the
    /// start of this call on rank 0 to a deadline every subproblem stops at; the node
    /// limit is one budget, the cutting's nodes included, shared out as subproblems are
    /// handed out (each gets an equal share of what is left and gives back what it did
    /// not use; one that uses up its share stops the job, which so never takes more); the
    /// cancellation flag stops rank 0 handing out (each process's searches stop on their
    /// own flag: give every rank the flag its signal handler sets). A stopped job returns
    /// what every subproblem counted, stopped ones included, with the reason as the
    /// summary's `stop_reason`.
    ///
    /// With [`checkpoint`](Solver::checkpoint) or [`resume`](Solver::resume), rank 0
    /// records each finished subproblem as its result arrives (a stopped one is not
    /// recorded): a job stopped by a limit, by Ctrl-C or by the loss of a process is
    /// finished by a job that resumes from the file, doing no finished subproblem again.
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] for a hand-written `amb` program or a branch and
    /// bound; [`SearchError::Distributed`] if a subproblem failed on another process; the
    /// checkpoint's and the model's errors (rank 0's errors before the distribution end
    /// the other ranks' calls with `Ok(None)`).
    pub fn count_distributed<C: Communicator>(
        self,
        world: &C,
        threads: usize,
    ) -> Result<Option<DistributedCount>, SearchError> {
        let Some(model) = self.model else {
            return Err(SearchError::Unsupported(
                "a hand-written amb program cannot be distributed: write it as a model".into(),
            ));
        };
        let options = self.options;
        check(&model, &options)?;
        let started = Instant::now();
        let (mut plan, early) = if world.rank() == 0 {
            match Plan::new(&model, &options, world.size() as usize, threads) {
                Ok(plan) => (Some(plan), None),
                Err(error) => (None, Some(error)),
            }
        } else {
            (None, None)
        };
        let tasks = plan.as_ref().map(Plan::tasks).unwrap_or_default();
        let limits = JobLimits {
            // The cutting's nodes count against the budget.
            nodes: options
                .limits
                .nodes
                .map(|n| n.saturating_sub(plan.as_ref().map_or(0, |p| p.summary.stats.nodes))),
            deadline: options.limits.time.and_then(|t| started.checked_add(t)),
            cancel: options.limits.cancel.clone(),
        };
        let mut one = options.clone();
        one.threads = 1;
        one.checkpoint = None;
        let work = |path: &[u32], limits: TaskLimits| {
            let mut one = one.clone();
            one.limits.nodes = limits.nodes;
            one.limits.time = limits.time;
            let summary = Solver::for_model(Arc::clone(&model))
                .with_options(one)
                .subproblem(&Subproblem::from(path.to_vec()))
                .count()?;
            Ok(TaskResult {
                solutions: summary.solutions,
                stats: summary.stats,
                stopped: (summary.stop_reason != StopReason::Exhausted)
                    .then_some(summary.stop_reason),
            })
        };
        let mut failed = None;
        let mut finished = 0;
        let record = |index: usize, result: &TaskResult| {
            finished += 1;
            if let Some(plan) = &mut plan {
                if let Err(error) = plan.record(index, result) {
                    failed.get_or_insert(error);
                }
            }
        };
        // Run even if rank 0 could not cut the search, so that the other ranks end.
        let run = distribute_within(world, threads, tasks, &limits, work, record);
        if let Some(error) = early {
            return Err(error);
        }
        let Some(plan) = plan else {
            return run.map(|_| None);
        };
        let flushed = plan.finish();
        let run = run?.expect("rank 0 gets the totals");
        if let Some(error) = failed {
            return Err(error);
        }
        let (subproblems, restored, mut summary) = flushed?;
        summary.solutions += run.solutions;
        summary.stats += run.stats;
        summary.stats.elapsed = started.elapsed();
        if let Some(stop) = run.stopped {
            summary.stop_reason = stop;
        }
        Ok(Some(DistributedCount {
            summary,
            run,
            subproblems,
            restored,
            finished: restored + finished,
        }))
    }
}

/// Rank 0's side: the subproblems, what an earlier run finished, the checkpoint.
struct Plan {
    subproblems: Vec<Subproblem>,
    checkpoint: Option<Checkpoint>,
    restored: usize,
    summary: Summary,
}

impl Plan {
    fn new(
        model: &Arc<Model<'_>>,
        options: &Options,
        ranks: usize,
        threads: usize,
    ) -> Result<Self, SearchError> {
        if options.incumbent.is_some() {
            return Err(SearchError::Unsupported(
                "a distributed search counts; it does not optimise".into(),
            ));
        }
        let workers = options
            .subproblems
            .unwrap_or(PER_WORKER * ranks * threads.max(1))
            .max(1);
        let (subproblems, stats, checkpoint) = parallel::cut_for_count(model, options, workers)?;
        let mut summary = Summary {
            solutions: 0,
            stop_reason: StopReason::Exhausted,
            stats,
        };
        let restored = checkpoint.as_ref().map_or(0, |c| c.done().len());
        if let Some(checkpoint) = &checkpoint {
            let done = checkpoint.totals();
            summary.solutions += done.weighted;
            summary.stats.solutions += done.found;
            summary.stats.nodes += done.nodes;
        }
        Ok(Plan {
            subproblems,
            checkpoint,
            restored,
            summary,
        })
    }

    /// The subproblems left, with their indices.
    fn tasks(&self) -> Vec<(usize, Vec<u32>)> {
        let done = |i: &usize| {
            self.checkpoint
                .as_ref()
                .is_some_and(|c| c.done().contains_key(i))
        };
        self.subproblems
            .iter()
            .enumerate()
            .filter(|(i, _)| !done(i))
            .map(|(i, s)| (i, s.path().to_vec()))
            .collect()
    }

    fn record(&mut self, index: usize, result: &TaskResult) -> Result<(), SearchError> {
        match &mut self.checkpoint {
            Some(checkpoint) => checkpoint.record(
                index,
                Entry {
                    found: result.stats.solutions,
                    weighted: result.solutions,
                    nodes: result.stats.nodes,
                },
            ),
            None => Ok(()),
        }
    }

    /// The checkpoint written; the subproblems in all, those restored, and their summary.
    fn finish(mut self) -> Result<(usize, usize, Summary), SearchError> {
        if let Some(checkpoint) = &mut self.checkpoint {
            checkpoint.flush()?;
        }
        Ok((self.subproblems.len(), self.restored, self.summary))
    }
}
