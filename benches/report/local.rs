//! The report's section on local search: first solutions of huge boards, and colourings.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use ambsolve::Engine;
use ambsolve_examples::puzzles::colouring::{Graph, colouring};
use ambsolve_examples::puzzles::queens as nqueens;

use crate::support::median;
use crate::{child_peak, seconds, verdict};

pub(crate) fn local_section(md: &mut String, quick: bool) {
    writeln!(
        md,
        "## Local search (min-conflicts): first solutions of huge boards\n"
    )
    .unwrap();
    writeln!(md, "`Engine::Local` on the same n-queens model: a greedy start, then moves of queens in conflict to").unwrap();
    writeln!(md, "their least-conflicting column, random walk steps, restarts. A time is building the model and").unwrap();
    writeln!(md, "finding a board (`queens(n).engine(Engine::Local).seed(s).first()`), each board checked; peak").unwrap();
    writeln!(md, "memory is measured in a child process (seed 1). Targets: N = 10^6 under 2 s; N = 10^7 under").unwrap();
    writeln!(md, "30 s, peak memory under 1 GB.\n").unwrap();
    writeln!(md, "| N | seeds | median | worst | building the model (median) | steps (median) | moves (median) | restarts (most) | peak memory | target |").unwrap();
    writeln!(
        md,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    .unwrap();
    let sizes: &[(usize, u64)] = if quick {
        &[(100_000, 3), (1_000_000, 3)]
    } else {
        &[(1_000_000, 10), (10_000_000, 10)]
    };
    for &(n, seeds) in sizes {
        let mut times = Vec::new();
        let mut builds = Vec::new();
        let mut steps = Vec::new();
        let mut moves = Vec::new();
        let mut restarts = 0;
        for seed in 1..=seeds {
            let started = Instant::now();
            let puzzle = nqueens::queens(n).engine(Engine::Local).seed(seed);
            builds.push(started.elapsed());
            let mut solutions = puzzle.solutions();
            let board = solutions.next().expect("a board");
            times.push(started.elapsed());
            assert_eq!(nqueens::attack(&board), None, "n = {n}, seed {seed}");
            let stats = solutions.stats();
            steps.push(stats.nodes);
            moves.push(stats.moves);
            restarts = restarts.max(stats.restarts);
        }
        times.sort();
        builds.sort();
        steps.sort();
        moves.sort();
        let (median, worst) = (times[times.len() / 2], times[times.len() - 1]);
        let peak = child_peak("local", n) as f64 / 1024.0;
        let target = match n {
            1_000_000 => verdict(worst < Duration::from_secs(2)),
            10_000_000 => verdict(worst < Duration::from_secs(30) && peak < 1024.0),
            _ => "",
        };
        writeln!(
            md,
            "| {n} | {seeds} | {} | {} | {} | {} | {} | {restarts} | {peak:.0} MB | {target} |",
            seconds(median),
            seconds(worst),
            seconds(builds[builds.len() / 2]),
            steps[steps.len() / 2],
            moves[moves.len() / 2],
        )
        .unwrap();
    }
    let built: &[usize] = if quick {
        &[1_000_000]
    } else {
        &[1_000_000, 10_000_000]
    };
    let built: Vec<String> = built
        .iter()
        .map(|&n| {
            format!(
                "{:.0} MB at N = {n}",
                child_peak("build", n) as f64 / 1024.0
            )
        })
        .collect();
    writeln!(
        md,
        "\nBuilding the model alone (`queens(n)`, in a child process) peaks at {}: the model is O(N)",
        built.join(", ")
    )
    .unwrap();
    writeln!(
        md,
        "(an array of choices is a run, an all-different `q[i] + i` one run of offsets).\n"
    )
    .unwrap();
    small_boards(md, quick);
    side_by_side(md, quick);
    colourings(md, quick);
}

/// Every small board solved by local search, and the boards with no solution stopped by a limit.
fn small_boards(md: &mut String, quick: bool) {
    // Every small board.
    let last = if quick { 200 } else { 1000 };
    let started = Instant::now();
    let mut worst = (0, 0);
    for n in 4..=last {
        let mut solutions = nqueens::queens(n).engine(Engine::Local).seed(1).solutions();
        let board = solutions.next().expect("every N from 4 has a board");
        assert_eq!(nqueens::attack(&board), None, "n = {n}");
        worst = worst.max((solutions.stats().nodes, n));
    }
    let sweep = started.elapsed();
    let limit = 1_000_000;
    let none: Vec<String> = [2, 3]
        .iter()
        .map(|&n| {
            let started = Instant::now();
            let mut solutions = nqueens::queens(n)
                .engine(Engine::Local)
                .limits(ambsolve::Limits::new().nodes(limit))
                .solutions();
            assert!(solutions.next().is_none());
            assert_eq!(
                solutions.stop_reason(),
                Some(ambsolve::StopReason::NodeLimit)
            );
            format!("N = {n} in {}", seconds(started.elapsed()))
        })
        .collect();
    writeln!(
        md,
        "Every N from 4 to {last} (seed 1): solved, in {} for all of them; the most steps, {} at N = {}.",
        seconds(sweep),
        worst.0,
        worst.1
    )
    .unwrap();
    writeln!(
        md,
        "N = 2 and 3 have no solution: local search stops on a limit of {limit} steps ({}), and never says",
        none.join(", ")
    )
    .unwrap();
    writeln!(md, "that none exists.\n").unwrap();
}

/// Local search side by side with the complete engine (trail, first-fail).
fn side_by_side(md: &mut String, quick: bool) {
    // Side by side with the complete engine.
    writeln!(
        md,
        "Side by side with the complete engine (trail, first-fail, middle-out values, restarts):\n"
    )
    .unwrap();
    writeln!(
        md,
        "| N | local search | its peak memory | trail engine | its peak memory |"
    )
    .unwrap();
    writeln!(md, "| --- | --- | --- | --- | --- |").unwrap();
    let sizes: &[usize] = if quick { &[1000] } else { &[1000, 10_000] };
    for &n in sizes {
        let runs = if n >= 10_000 { 3 } else { 5 };
        let (local, _) = median(runs, || {
            nqueens::queens(n)
                .engine(Engine::Local)
                .first()
                .unwrap()
                .expect("a board")
        });
        let (trail, board) = median(runs, || {
            nqueens::queens(n)
                .strategy(nqueens::first_strategy())
                .first()
                .unwrap()
                .expect("a board")
        });
        assert_eq!(nqueens::attack(&board), None);
        let (local_peak, trail_peak) = (child_peak("local", n), child_peak("first", n));
        writeln!(
            md,
            "| {n} | {} | {:.1} MB | {} | {:.1} MB |",
            seconds(local),
            local_peak as f64 / 1024.0,
            seconds(trail),
            trail_peak as f64 / 1024.0
        )
        .unwrap();
    }
}

/// Graph colouring by local search on random graphs.
fn colourings(md: &mut String, quick: bool) {
    // Graph colouring.
    let (vertices, graphs) = if quick { (10_000, 3) } else { (10_000, 5) };
    let mut times = Vec::new();
    let mut moves = Vec::new();
    for seed in 1..=graphs {
        let graph = Graph::uniform(vertices, 6, seed);
        let started = Instant::now();
        let mut solutions = colouring(&graph, 4)
            .engine(Engine::Local)
            .seed(seed)
            .solutions();
        let colours = solutions.next().expect("a colouring");
        times.push(started.elapsed());
        moves.push(solutions.stats().moves);
        assert_eq!(graph.clash(&colours, 4), None);
    }
    times.sort();
    moves.sort();
    writeln!(
        md,
        "\nGraph colouring (`examples/colouring.rs`): uniform random graphs of {vertices} vertices and {} edges, 4",
        vertices * 3
    )
    .unwrap();
    writeln!(
        md,
        "colours, one `!=` per edge: coloured and checked in {} (median of {graphs} graphs; worst {}), {} moves",
        seconds(times[times.len() / 2]),
        seconds(times[times.len() - 1]),
        moves[moves.len() / 2]
    )
    .unwrap();
    writeln!(md, "(median).\n").unwrap();
}

pub(crate) fn is_solution(queens: &[usize]) -> bool {
    let n = queens.len();
    let mut cols = vec![false; n];
    let mut diag = vec![false; 2 * n];
    let mut anti = vec![false; 2 * n];
    queens.iter().enumerate().all(|(row, &c)| {
        let ok = c < n && !cols[c] && !diag[row + c] && !anti[row + n - c];
        if ok {
            (cols[c], diag[row + c], anti[row + n - c]) = (true, true, true);
        }
        ok
    })
}
