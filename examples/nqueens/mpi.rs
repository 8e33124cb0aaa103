//! `--mpi`: a count over the processes of an MPI job (feature `mpi`).

use std::process::ExitCode;

use ambsolve_examples::cli;

/// Counts over the processes of an MPI job; rank 0 prints the count.
#[cfg(feature = "mpi")]
pub(crate) fn count_on_mpi(
    puzzle: &ambsolve::Puzzle<'_, Vec<usize>>,
    threads: usize,
    stats: bool,
) -> ExitCode {
    use ambsolve::distributed;
    let universe = match distributed::init() {
        Ok(universe) => universe,
        Err(error) => return cli::search_error(&error),
    };
    let world = universe.world();
    let counted = puzzle.solver().count_distributed(&world, threads);
    let Some(counted) = (match counted {
        Ok(counted) => counted,
        Err(error) => return cli::search_error(&error),
    }) else {
        // Another rank: a signal stopped it as it stopped rank 0, which prints the count.
        let interrupted = cli::interrupt_flag().is_cancelled();
        return cli::exit_status(interrupted.then_some(ambsolve::StopReason::Cancelled));
    };
    let stop = Some(counted.summary.stop_reason);
    let mut out = cli::Output::new();
    let progress = counted.finished as f64 / counted.subproblems.max(1) as f64;
    cli::count_lines(
        &mut out,
        counted.summary.solutions,
        stop,
        &counted.summary.stats,
        progress,
    );
    if stats {
        let run = &counted.run;
        let busy: Vec<String> = run
            .busy
            .iter()
            .map(|b| format!("{:.3} s", b.as_secs_f64()))
            .collect();
        out.line(format!(
            "processes: {}, threads each: {threads}, subproblems: {} ({} restored from the checkpoint, {} finished)",
            run.tasks.len(),
            counted.subproblems,
            counted.restored,
            counted.finished
        ));
        out.line(format!(
            "tasks per process: {:?}, busy: {}; imbalance {:.2}",
            run.tasks,
            busy.join(", "),
            run.imbalance()
        ));
        out.line(format!("nodes: {}", counted.summary.stats.nodes));
        out.line(format!("time: {:.3?}", counted.summary.stats.elapsed));
    }
    out.flush();
    cli::exit_status(stop)
}

/// Without MPI built in, `--mpi` is refused before the search (see `check_size`).
#[cfg(not(feature = "mpi"))]
pub(crate) fn count_on_mpi(_: &ambsolve::Puzzle<'_, Vec<usize>>, _: usize, _: bool) -> ExitCode {
    cli::usage_error::<crate::args::Args>("this nqueens was built without MPI")
}
