//! What nqueens prints once the search is over: the first board or the count, why a search
//! stopped early, and the statistics.

use std::process::ExitCode;

use ambsolve::{Engine, Limits, Stats};
use ambsolve_examples::cli::{self, Output};
use ambsolve_examples::puzzles::queens::{board, checksum, columns};

use crate::args::{Args, what};
use crate::model::{fundamental_queens, queens};
use crate::setup::Setup;
use crate::{Outcome, verify};

/// Boards above this size are printed as a checksum line, not drawn.
pub(crate) const DRAWN_UP_TO: usize = 1000;

/// Prints what was found: the first board, or the count (and the first board drawn);
/// why a search stopped early; the statistics.
pub(crate) fn report(
    args: &Args,
    setup: &Setup,
    outcome: &Outcome,
    out: &mut Output,
) -> Result<(), ExitCode> {
    let n = args.n as usize;
    let partial = cli::is_partial(outcome.stop);
    let none = || {
        format!("no solution: {n} queens cannot share a {n}×{n} board without attacking each other")
    };
    if args.first {
        match outcome.shown.first() {
            Some(queens) if n > DRAWN_UP_TO => {
                out.line(format!(
                    "first solution: {n} queens, verified (no two share a column or a diagonal)"
                ));
                out.line(format!(
                    "checksum: {:#018x} (FNV-1a of the columns)",
                    checksum(queens)
                ));
                out.line(format!(
                    "time: {:.3?} searching, {:.3?} building the model",
                    outcome.stats.elapsed, setup.building
                ));
            }
            Some(queens) => {
                out.line(columns(queens));
                out.line(board(queens));
            }
            None if !partial => out.line(none()),
            None => {}
        }
    } else {
        out.line(format!("solutions: {}", outcome.count));
    }
    if !args.first && setup.engine != Engine::Local {
        if args.fundamental && !partial && !args.count {
            out.line(
                "(one per class under the 8 symmetries of the board: rotations and reflections)",
            );
        }
        if outcome.count == 0 && !partial {
            out.line(none());
        } else if !args.all && !args.count && !partial {
            draw_first(args, setup, outcome, out)?;
        }
    }
    let stop_line = if setup.engine == Engine::Local {
        cli::local_stop_line(
            outcome.stop,
            outcome.count,
            ("solution", "distinct solutions"),
            &outcome.stats,
            setup.budget,
        )
    } else {
        cli::partial_line(
            outcome.stop,
            outcome.count,
            what(args),
            &outcome.stats,
            outcome.progress,
        )
    };
    if let Some(line) = stop_line {
        out.line(line);
    }
    if args.stats {
        let (engine, classes) = (setup.engine, setup.through_symmetry);
        print_stats(out, &outcome.stats, engine, args.naive, classes);
        if let Some(line) = cli::parallel_line(outcome.subproblems, &outcome.workers) {
            out.line(line);
        }
    }
    Ok(())
}

/// Draws the first solution, in top-down order (the lexicographically first): the one
/// kept, or found by a search of its own.
pub(crate) fn draw_first(
    args: &Args,
    setup: &Setup,
    outcome: &Outcome,
    out: &mut Output,
) -> Result<(), ExitCode> {
    let n = args.n as usize;
    let top_down = if args.fundamental {
        fundamental_queens(n)
    } else {
        queens(n)
    };
    let first = match outcome.shown.first() {
        Some(queens) => Some(queens.clone()),
        None => top_down
            .engine(setup.engine)
            .limits(Limits::new().cancel(cli::interrupt_flag()))
            .first()
            .map_err(|error| {
                out.flush();
                cli::search_error(&error)
            })?,
    };
    if let Some(queens) = first {
        if let Some(status) = verify(&queens) {
            out.flush();
            return Err(status);
        }
        out.line(format!("first solution {}:", columns(&queens)));
        out.line(board(&queens));
    }
    Ok(())
}

/// The statistics of a search, as --stats prints them.
pub(crate) fn print_stats(
    out: &mut Output,
    stats: &Stats,
    engine: Engine,
    naive: bool,
    classes: bool,
) {
    let checking = if naive {
        "at the end (generate and test)"
    } else {
        "early"
    };
    if engine == Engine::Local {
        out.line("engine: Local, min-conflicts local search");
        out.line(format!(
            "steps: {} (values given in starting assignments, and repair steps)",
            stats.nodes
        ));
        out.line(format!(
            "moves: {}, of them plateau steps: {}",
            stats.moves, stats.plateau
        ));
        out.line(format!("restarts: {}", stats.restarts));
        out.line(format!("solutions: {}", stats.solutions));
        out.line(format!("time: {:.3?}", stats.elapsed));
        return;
    }
    out.line(format!(
        "engine: {engine:?}, constraints checked {checking}"
    ));
    out.line(format!("nodes: {}", stats.nodes));
    out.line(format!("failures: {}", stats.failures));
    match engine {
        Engine::Trail => out.line(format!("propagations: {}", stats.propagations)),
        Engine::Replay => out.line(format!(
            "runs: {}, choices replayed: {}",
            stats.runs, stats.replayed
        )),
        _ => {}
    }
    out.line(format!("max depth: {}", stats.max_depth));
    if classes {
        out.line(format!(
            "representatives: {} (one per class of the board's 8 symmetries, each counted \
             as the size of its class; --plain counts every solution)",
            stats.solutions
        ));
    } else {
        out.line(format!("solutions: {}", stats.solutions));
    }
    if stats.restarts > 0 {
        out.line(format!("restarts: {}", stats.restarts));
    }
    out.line(format!("time: {:.3?}", stats.elapsed));
}
