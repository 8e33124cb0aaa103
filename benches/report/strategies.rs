//! The report's section on variable orders: the engine's own order (automatic), first-fail
//! and dom/wdeg side by side on puzzles of the repository, with the ratios of their times.

use std::fmt::Write as _;
use std::time::Duration;

use ambsolve::{Limits, StopReason, Strategy, VarOrder};
use ambsolve_examples::puzzles::golomb::golomb;
use ambsolve_examples::puzzles::queens::queens;
use ambsolve_examples::puzzles::sudoku;

use crate::{seconds, support::median};

/// The orders compared, by name.
fn orders() -> [Strategy; 3] {
    [
        Strategy::new(),
        Strategy::first_fail(),
        Strategy::new().vars(VarOrder::DomWDeg),
    ]
}

/// One measurement: the median time, the nodes, and whether every run finished within
/// the limit.
struct Cell {
    time: Duration,
    nodes: u64,
    done: bool,
}

/// Measures `job` (which gives its nodes and whether it finished) under each order.
fn measure(runs: usize, mut job: impl FnMut(Strategy) -> (u64, bool)) -> Vec<Cell> {
    orders()
        .into_iter()
        .map(|strategy| {
            let mut done = true;
            let (time, nodes) = median(runs, || {
                let (nodes, finished) = job(strategy.clone());
                done &= finished;
                nodes
            });
            Cell { time, nodes, done }
        })
        .collect()
}

/// One row of the table; counts in `wins` the comparisons (ff < auto, dwd < auto,
/// dwd < ff) the first order wins.
fn row(md: &mut String, name: &str, cells: &[Cell], limit: Duration, wins: &mut [u32; 4]) {
    let cell = |c: &Cell| {
        if c.done {
            format!("{} ({})", seconds(c.time), c.nodes)
        } else {
            format!("> {} (limit)", seconds(limit))
        }
    };
    let ratio = |a: &Cell, b: &Cell| {
        if a.done && b.done {
            let r = a.time.as_secs_f64() / b.time.as_secs_f64();
            if r < 0.01 {
                format!("1/{:.0}", 1.0 / r)
            } else {
                format!("{r:.2}")
            }
        } else {
            "—".into()
        }
    };
    let [auto, ff, dwd] = cells else {
        unreachable!("three orders")
    };
    let faster = |a: &Cell, b: &Cell| a.done && (!b.done || a.time < b.time);
    wins[0] += u32::from(faster(ff, auto));
    wins[1] += u32::from(faster(dwd, auto));
    wins[2] += u32::from(faster(dwd, ff));
    wins[3] += 1;
    writeln!(
        md,
        "| {name} | {} | {} | {} | {} | {} | {} |",
        cell(auto),
        cell(ff),
        cell(dwd),
        ratio(ff, auto),
        ratio(dwd, auto),
        ratio(dwd, ff),
    )
    .unwrap();
    eprintln!("strategies: {name} done");
}

/// Writes the section.
pub(crate) fn section(md: &mut String, quick: bool) {
    let runs = if quick { 3 } else { 5 };
    let limit = Duration::from_secs(if quick { 5 } else { 20 });
    let limits = || Limits::new().time(limit);
    writeln!(md, "## Variable orders: automatic, first-fail, dom/wdeg\n").unwrap();
    writeln!(
        md,
        "`cargo bench --bench report -- --only-strategies`. Trail engine, one thread, ascending \
         values; each cell is the median time of {runs} runs and (in brackets) the nodes, a run \
         stopped at {} if it gets there; the ratios are of times (below 1: faster than the \
         order it is compared with). `automatic` is the trail engine's default (declaration \
         order), `dom_w_deg` learns a weight per constraint from the failures of its \
         propagator.\n",
        seconds(limit)
    )
    .unwrap();
    writeln!(
        md,
        "| puzzle | automatic | first_fail | dom_w_deg | ff / auto | dwd / auto | dwd / ff |\n\
         |---|---|---|---|---|---|---|"
    )
    .unwrap();
    let mut wins = [0u32; 4];
    let sizes: &[usize] = if quick { &[8, 10] } else { &[10, 11, 12] };
    for &n in sizes {
        let cells = measure(runs, |strategy| {
            let summary = queens(n)
                .strategy(strategy)
                .limits(limits())
                .count()
                .unwrap();
            (
                summary.stats.nodes,
                summary.stop_reason == StopReason::Exhausted,
            )
        });
        row(
            md,
            &format!("queens {n}, count all"),
            &cells,
            limit,
            &mut wins,
        );
    }
    {
        let n = 30;
        let cells = measure(runs, |strategy| {
            let mut solutions = queens(n).strategy(strategy).limits(limits()).solutions();
            let found = solutions.next().is_some();
            (solutions.stats().nodes, found)
        });
        row(md, &format!("queens {n}, first"), &cells, limit, &mut wins);
    }
    let rulers: &[usize] = if quick { &[7, 8] } else { &[8, 9, 10] };
    for &n in rulers {
        let cells = measure(runs, |strategy| {
            let best = golomb(n)
                .strategy(strategy)
                .limits(limits())
                .best()
                .unwrap();
            (best.stats.nodes, best.proved)
        });
        row(
            md,
            &format!("golomb {n}, proved optimal"),
            &cells,
            limit,
            &mut wins,
        );
    }
    for set in ["hardest.txt", "top95.txt"] {
        let puzzles = sudoku::parse_puzzles(&crate::support::sudoku_file(set)).unwrap();
        let cells = measure(runs, |strategy| {
            let (mut nodes, mut all) = (0, true);
            for (_, grid) in &puzzles {
                let puzzle = sudoku::sudoku(grid).strategy(strategy.clone());
                let mut solutions = puzzle.limits(limits()).solutions();
                all &= solutions.next().is_some();
                nodes += solutions.stats().nodes;
            }
            (nodes, all)
        });
        let name = format!("sudoku `{set}` ({} puzzles), first each", puzzles.len());
        row(md, &name, &cells, limit, &mut wins);
    }
    refutations(md, runs, limits);
    let [ff, dwd, dwd_ff, rows] = wins;
    writeln!(
        md,
        "\nFaster than automatic: first-fail on {ff} of {rows} rows, dom/wdeg on {dwd}; dom/wdeg \
         faster than first-fail on {dwd_ff}. No order is faster everywhere, so the trail \
         engine's default stays declaration order (the puzzles choose their own: first-fail \
         for sudoku and large boards), and `fzn-ambsolve -f` stays first-fail. Declaration \
         order wins on Golomb rulers (the marks are ordered: the first unfixed mark is the \
         natural choice, and learning weights there costs nodes), dom/wdeg on the sudoku sets \
         (fewer nodes), first-fail and dom/wdeg on any board where a first solution is \
         wanted.\n"
    )
    .unwrap();
}

/// The table of refutations: each puzzle's own search, its refuted values propagated or
/// not (`Strategy::propagate_refutations`).
fn refutations(md: &mut String, runs: usize, limits: impl Fn() -> Limits) {
    use crate::scheduling::{jobshop_example, single_machine_example};
    writeln!(
        md,
        "\n### Refutations propagated or not\n\n\
         The same searches, the trail engine's default (each value of a choice tried on the \
         domain the choice had) and `propagate_refutations(true)` (binary branching: before \
         the next value, the values tried are removed and the model propagated). Median of \
         {runs} runs, nodes in brackets.\n\n\
         | puzzle | values one after the other | refutations propagated | ratio of times |\n\
         |---|---|---|---|"
    )
    .unwrap();
    let both = |md: &mut String, name: &str, job: &dyn Fn(bool) -> u64| {
        let (plain, plain_nodes) = median(runs, || job(false));
        let (refuting, refuting_nodes) = median(runs, || job(true));
        writeln!(
            md,
            "| {name} | {} ({plain_nodes}) | {} ({refuting_nodes}) | {:.2} |",
            seconds(plain),
            seconds(refuting),
            refuting.as_secs_f64() / plain.as_secs_f64()
        )
        .unwrap();
    };
    let strategy = |on: bool| Strategy::new().propagate_refutations(on);
    both(md, "queens 11, count all", &|on| {
        queens(11)
            .strategy(strategy(on))
            .count()
            .unwrap()
            .stats
            .nodes
    });
    both(md, "golomb 9, proved optimal", &|on| {
        let best = golomb(9)
            .strategy(strategy(on))
            .limits(limits())
            .best()
            .unwrap();
        assert!(best.proved);
        best.stats.nodes
    });
    let puzzles = sudoku::parse_puzzles(&crate::support::sudoku_file("top95.txt")).unwrap();
    both(md, "sudoku `top95.txt`, first each (first-fail)", &|on| {
        let mut nodes = 0;
        for (_, grid) in &puzzles {
            let puzzle =
                sudoku::sudoku(grid).strategy(Strategy::first_fail().propagate_refutations(on));
            let mut solutions = puzzle.solutions();
            assert!(solutions.next().is_some());
            nodes += solutions.stats().nodes;
        }
        nodes
    });
    let jobs = ambsolve_examples::puzzles::single_machine::random_jobs(10, 1);
    both(md, "one machine, 10 jobs, seed 1 (`disjunctive`)", &|on| {
        let form = single_machine_example::Form::default();
        let puzzle = single_machine_example::single_machine(&jobs, form);
        let best = puzzle.strategy(strategy(on)).best().unwrap();
        assert!(best.proved);
        best.stats.nodes
    });
    let instance = crate::scheduling::shipped_instance("la01");
    both(md, "job shop la01, proved optimal (its own order)", &|on| {
        let puzzle = jobshop_example::jobshop(&instance, false);
        let order = puzzle.options().strategy.clone();
        let best = puzzle
            .strategy(order.propagate_refutations(on))
            .best()
            .unwrap();
        assert!(best.proved);
        best.stats.nodes
    });
}
