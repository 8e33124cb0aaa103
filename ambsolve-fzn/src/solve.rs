//! Running a compiled model as a FlatZinc solver: the search MiniZinc's flags ask for, and
//! its output — each solution then `----------`, and the status line (`==========`,
//! `=====UNSATISFIABLE=====`, `=====UNKNOWN=====`) — with `%%%mzn-stat` statistics.

use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

use ambsolve::{
    Assignment, CancelFlag, Engine, Limits, Lns, SearchError, Stats, StopReason, Strategy, VarOrder,
};

use crate::model::FznModel;

/// What MiniZinc asks of a search (its standard flags). The default: one solution (for an
/// optimisation, the best, printed once), the model's search annotations, one thread.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SolveOptions {
    /// `-a`: every solution of a satisfaction problem; every improving solution of an
    /// optimisation.
    pub all: bool,
    /// `-i`: every improving solution of an optimisation (satisfaction: no effect).
    pub intermediate: bool,
    /// `-n N`: stop after N solutions (for an optimisation, N improving ones).
    pub solutions: Option<u64>,
    /// `-f`: ignore the search annotations, search as a model without them: on one thread
    /// `dom_w_deg` (ascending values), on more first-fail.
    pub free: bool,
    /// `-s`: print `%%%mzn-stat` statistics after the status.
    pub statistics: bool,
    /// `-t MS`: stop after this long, printing what was found.
    pub time: Option<Duration>,
    /// `-p K`: threads.
    pub threads: usize,
    /// `-r SEED`: the seed of random choices.
    pub seed: u64,
    /// Stops the search when set (Ctrl-C, SIGTERM), printing what was found.
    pub cancel: Option<CancelFlag>,
    /// Whether to learn from conflicts ([`Strategy::learning`]: nogoods, backjumps, activity
    /// search with restarts), on one thread (more threads search without it). `None`, the
    /// default: learn where the search is free (`-f`, or a model without search
    /// annotations), since the learning search picks its own variables; follow the
    /// model's annotations with the plain search otherwise. `Some(true)` (`--learning`)
    /// learns in any case (annotations then only break activity ties); `Some(false)`
    /// (`--no-learning`) never does.
    pub learning: Option<bool>,
    /// Whether an optimisation on one thread uses large neighbourhood search
    /// ([`Lns`]): neighbourhoods of the best solution, the model's decisions (the
    /// variables not `is_defined_var`) fixed outside them, taking turns with the complete
    /// search. `None`, the default: where the search is free (`-f`, or a model without
    /// search annotations), as learning is. `Some(true)` (`--lns`) uses it in any case;
    /// `Some(false)` (`--no-lns`) never does.
    pub lns: Option<bool>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            all: false,
            intermediate: false,
            solutions: None,
            free: false,
            learning: None,
            lns: None,
            statistics: false,
            time: None,
            threads: 1,
            seed: 0,
            cancel: None,
        }
    }
}

/// How a search ended, as the FlatZinc status line says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Solutions found, the search not finished (no status line).
    Satisfied,
    /// Every solution found (`==========`).
    AllSolutions,
    /// The last solution is optimal (`==========`).
    Optimal,
    /// No solution exists (`=====UNSATISFIABLE=====`).
    Unsatisfiable,
    /// Stopped before finding a solution (`=====UNKNOWN=====`).
    Unknown,
}

impl Status {
    /// The status line, if the status has one.
    pub fn line(self) -> Option<&'static str> {
        match self {
            Status::Satisfied => None,
            Status::AllSolutions | Status::Optimal => Some("=========="),
            Status::Unsatisfiable => Some("=====UNSATISFIABLE====="),
            Status::Unknown => Some("=====UNKNOWN====="),
        }
    }
}

/// What a search did.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// Solutions printed.
    pub printed: u64,
    /// The objective of the last solution found, for an optimisation.
    pub objective: Option<i64>,
    /// The engine's statistics.
    pub stats: Stats,
    /// Why the engine stopped.
    pub stop_reason: StopReason,
}

/// A search that could not be run.
#[derive(Debug)]
#[non_exhaustive]
pub enum SolveError {
    /// The engine refused the model or stopped on an error.
    Search(SearchError),
    /// The output could not be written.
    Io(io::Error),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Search(error) => write!(f, "{error}"),
            SolveError::Io(error) => write!(f, "cannot write the output: {error}"),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<io::Error> for SolveError {
    fn from(error: io::Error) -> Self {
        SolveError::Io(error)
    }
}

impl From<SearchError> for SolveError {
    fn from(error: SearchError) -> Self {
        SolveError::Search(error)
    }
}

/// The search of a model without search annotations (or with `-f`), on `threads` threads.
/// On one thread, `dom_w_deg` over every variable with ascending values: the variable with
/// the fewest values per failure of its constraints (the weights are learned as the search
/// fails, as Gecode's default AFC), which finds the variables that decide a model where a
/// fixed order cannot (on the suite with `-f`: league 9.7 million nodes to 141, photo 1.5
/// million to 55,000, jobshop_ft06 3,389 to 643). Such a search follows no fixed tree and
/// cannot be cut into subproblems, so on more threads it is first-fail, which can.
fn free_search(threads: usize) -> Strategy {
    if threads <= 1 {
        Strategy::new().vars(VarOrder::DomWDeg)
    } else {
        Strategy::first_fail()
    }
}

/// Solves `model` as `options` say, writing the FlatZinc output to `out` (flushed after
/// each solution, so MiniZinc sees it at once) and calling `on_solution` with every
/// solution the engine finds, printed or not (an optimisation without `-a`/`-i` prints
/// only its last).
///
/// # Errors
/// [`SolveError::Search`] if the engine refuses the model (an invalid model: a value out of
/// `i64` range in a sum, say) or stops on an error; [`SolveError::Io`] if writing fails.
pub fn solve(
    model: &FznModel,
    options: &SolveOptions,
    out: &mut dyn Write,
    mut on_solution: impl FnMut(&Assignment),
) -> Result<Outcome, SolveError> {
    let free = options.free || model.strategy.is_none();
    // Learning runs on one thread.
    let learning = options.learning.unwrap_or(free) && options.threads <= 1;
    // Binary branching (`x = v`, then `x != v` propagated), as FlatZinc's
    // `int_search` reads in Gecode and Chuffed.
    // A free search that learns takes turns with the model's own search across
    // restarts, as Chuffed's `-f` does: the model's order finds solutions, activity proves.
    let strategy = match (&model.strategy, options.free) {
        (Some(strategy), false) => strategy.clone(),
        (Some(strategy), true) if learning => strategy.clone().alternating(true),
        _ => free_search(options.threads),
    }
    .propagate_refutations(true);
    let mut limits = Limits::new();
    if let Some(time) = options.time {
        limits = limits.time(time);
    }
    if let Some(cancel) = &options.cancel {
        limits = limits.cancel(cancel.clone());
    }
    let optimising = model.model.sense().is_some();
    let solutions = match (options.all || optimising, options.solutions) {
        (_, Some(n)) => Some(n),
        (true, None) => None,
        (false, None) => Some(1),
    };
    if let Some(n) = solutions {
        limits = limits.solutions(n);
    }
    let strategy = strategy.learning(learning);
    let mut solver = ambsolve::Model::solve_shared(&model.model, Engine::Trail)
        .strategy(strategy)
        .limits(limits)
        .threads(options.threads.max(1))
        .seed(options.seed);
    if optimising && options.threads <= 1 && options.lns.unwrap_or(free) {
        solver = solver.lns(
            Lns::new()
                .seed(options.seed)
                .vars(model.decisions.iter().copied()),
        );
    }
    let print = |solution: &Assignment, out: &mut dyn Write| -> io::Result<()> {
        out.write_all(model.render(solution).as_bytes())?;
        out.write_all(b"----------\n")?;
        out.flush()
    };
    let outcome = if optimising {
        let each = options.all || options.intermediate;
        let mut improving = solver.try_improving();
        let (mut last, mut objective, mut printed) = (None, None, 0);
        for improvement in improving.by_ref() {
            let improvement = improvement?;
            on_solution(&improvement.solution);
            objective = Some(improvement.objective);
            if each {
                print(&improvement.solution, out)?;
                printed += 1;
            } else {
                last = Some(improvement.solution);
            }
        }
        if let Some(solution) = &last {
            print(solution, out)?;
            printed += 1;
        }
        let stop_reason = improving.stop_reason().unwrap_or(StopReason::Exhausted);
        let status = match (stop_reason, objective) {
            (StopReason::Exhausted, Some(_)) => Status::Optimal,
            (StopReason::Exhausted, None) => Status::Unsatisfiable,
            (_, Some(_)) => Status::Satisfied,
            (_, None) => Status::Unknown,
        };
        Outcome {
            status,
            printed,
            objective,
            stats: improving.stats(),
            stop_reason,
        }
    } else {
        let mut found = solver.try_solutions();
        let mut printed = 0;
        for solution in found.by_ref() {
            let solution = solution?;
            on_solution(&solution);
            print(&solution, out)?;
            printed += 1;
        }
        let stop_reason = found.stop_reason().unwrap_or(StopReason::Exhausted);
        let status = match (stop_reason, printed) {
            (StopReason::Exhausted, 0) => Status::Unsatisfiable,
            (StopReason::Exhausted, _) => Status::AllSolutions,
            (_, 0) => Status::Unknown,
            (_, _) => Status::Satisfied,
        };
        Outcome {
            status,
            printed,
            objective: None,
            stats: found.stats(),
            stop_reason,
        }
    };
    if let Some(line) = outcome.status.line() {
        writeln!(out, "{line}")?;
    }
    if options.statistics {
        write_statistics(model, &outcome, out)?;
    }
    out.flush()?;
    Ok(outcome)
}

/// The `%%%mzn-stat: name=value` lines, then `%%%mzn-stat-end`.
fn write_statistics(model: &FznModel, outcome: &Outcome, out: &mut dyn Write) -> io::Result<()> {
    let stats = &outcome.stats;
    let mut lines = vec![
        format!("initTime={:.6}", model.init_time().as_secs_f64()),
        format!("solveTime={:.6}", stats.elapsed.as_secs_f64()),
        format!("solutions={}", stats.solutions),
        format!("variables={}", model.model().num_vars()),
        format!("propagators={}", model.model().num_constraints()),
        format!("nodes={}", stats.nodes),
        format!("failures={}", stats.failures),
        format!("restarts={}", stats.restarts),
        format!("peakDepth={}", stats.max_depth),
        format!("propagations={}", stats.propagations),
    ];
    if let Some(objective) = outcome.objective {
        lines.push(format!("objective={objective}"));
    }
    for line in lines {
        writeln!(out, "%%%mzn-stat: {line}")?;
    }
    writeln!(out, "%%%mzn-stat-end")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The output of `text` solved with `options`, and the outcome.
    fn run(text: &str, options: &SolveOptions) -> (String, Outcome) {
        let model = FznModel::from_str(text).unwrap_or_else(|e| panic!("{e}"));
        let mut out = Vec::new();
        let outcome = solve(&model, options, &mut out, |s| {
            model
                .model()
                .check(s)
                .expect("every solution satisfies the model");
        })
        .expect("solved");
        (String::from_utf8(out).expect("UTF-8"), outcome)
    }

    const PAIRS: &str = "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n\
                         constraint int_lt(x, y);\nsolve satisfy;\n";

    const KNAPSACK: &str = "var 0..3: a :: output_var;\nvar 0..3: b :: output_var;\n\
                            var 0..30: v :: output_var;\n\
                            constraint int_lin_le([2, 3], [a, b], 7);\n\
                            constraint int_lin_eq([4, 5, -1], [a, b, v], 0);\n\
                            solve maximize v;\n";

    fn options(change: impl FnOnce(&mut SolveOptions)) -> SolveOptions {
        let mut options = SolveOptions::default();
        change(&mut options);
        options
    }

    #[test]
    fn satisfaction_prints_one_solution_or_all_with_the_final_line() {
        let (out, outcome) = run(PAIRS, &SolveOptions::default());
        assert_eq!(out, "x = 1;\ny = 2;\n----------\n");
        assert_eq!(outcome.status, Status::Satisfied);
        let (out, outcome) = run(PAIRS, &options(|o| o.all = true));
        assert_eq!(
            out,
            "x = 1;\ny = 2;\n----------\nx = 1;\ny = 3;\n----------\nx = 2;\ny = 3;\n----------\n==========\n"
        );
        assert_eq!((outcome.status, outcome.printed), (Status::AllSolutions, 3));
        let (out, outcome) = run(PAIRS, &options(|o| o.solutions = Some(2)));
        assert_eq!(out.matches("----------").count(), 2);
        assert_eq!(outcome.status, Status::Satisfied, "{out}");
        // Asking for more solutions than there are completes the search.
        let (out, _) = run(PAIRS, &options(|o| o.solutions = Some(5)));
        assert!(out.ends_with("----------\n==========\n"), "{out}");
        // Learning: every solution once, in its own order, and the final line.
        let (out, outcome) = run(
            PAIRS,
            &options(|o| {
                o.all = true;
                o.learning = Some(true);
            }),
        );
        let mut blocks: Vec<&str> = out.split("----------\n").collect();
        assert_eq!(blocks.pop(), Some("==========\n"), "{out}");
        blocks.sort_unstable();
        assert_eq!(
            blocks,
            ["x = 1;\ny = 2;\n", "x = 1;\ny = 3;\n", "x = 2;\ny = 3;\n"]
        );
        assert_eq!((outcome.status, outcome.printed), (Status::AllSolutions, 3));
    }

    #[test]
    fn no_solution_is_unsatisfiable_and_a_stopped_search_unknown() {
        let unsat = PAIRS.replace("int_lt(x, y)", "int_lt(x, 1)");
        let (out, outcome) = run(&unsat, &SolveOptions::default());
        assert_eq!(out, "=====UNSATISFIABLE=====\n");
        assert_eq!(outcome.status, Status::Unsatisfiable);
        let cancelled = CancelFlag::new();
        cancelled.cancel();
        let (out, outcome) = run(PAIRS, &options(|o| o.cancel = Some(cancelled.clone())));
        assert_eq!(out, "=====UNKNOWN=====\n");
        assert_eq!(outcome.status, Status::Unknown);
        let (out, _) = run(KNAPSACK, &options(|o| o.cancel = Some(cancelled)));
        assert_eq!(out, "=====UNKNOWN=====\n");
    }

    #[test]
    fn large_neighbourhood_search_fixes_decisions_and_proves_the_same_optimum() {
        let defined = KNAPSACK
            .replace(
                "var 0..30: v :: output_var;",
                "var 0..30: v :: output_var :: is_defined_var;",
            )
            .replace("[a, b, v], 0);", "[a, b, v], 0) :: defines_var(v);");
        let model = FznModel::from_str(&defined).unwrap_or_else(|e| panic!("{e}"));
        let decisions: Vec<String> = model
            .decisions
            .iter()
            .map(|&v| model.model().name(v))
            .collect();
        assert_eq!(decisions, ["a", "b"]);
        for text in [KNAPSACK, defined.as_str()] {
            for lns in [Some(true), Some(false)] {
                let (out, outcome) = run(text, &options(|o| o.lns = lns));
                assert!(out.ends_with("v = 13;\n----------\n==========\n"), "{out}");
                assert_eq!(outcome.status, Status::Optimal);
            }
        }
    }

    #[test]
    fn optimisation_prints_the_best_or_every_improvement() {
        let (out, outcome) = run(KNAPSACK, &SolveOptions::default());
        assert_eq!(out, "a = 2;\nb = 1;\nv = 13;\n----------\n==========\n");
        assert_eq!(
            (outcome.status, outcome.objective),
            (Status::Optimal, Some(13))
        );
        for each in [
            options(|o| o.all = true),
            options(|o| o.intermediate = true),
        ] {
            let (out, outcome) = run(KNAPSACK, &each);
            let printed = out.matches("----------").count() as u64;
            assert!(printed >= 2, "{out}");
            assert_eq!(outcome.printed, printed);
            assert!(out.ends_with("v = 13;\n----------\n==========\n"), "{out}");
        }
        // A limit of one improving solution: printed, not proved.
        let (out, outcome) = run(KNAPSACK, &options(|o| o.solutions = Some(1)));
        assert_eq!(out.matches("----------").count(), 1);
        assert_eq!(outcome.status, Status::Satisfied, "{out}");
        let minimise = KNAPSACK.replace("maximize v", "minimize v");
        let (out, _) = run(&minimise, &SolveOptions::default());
        assert_eq!(out, "a = 0;\nb = 0;\nv = 0;\n----------\n==========\n");
    }

    #[test]
    fn statistics_follow_the_status_line() {
        let (out, _) = run(KNAPSACK, &options(|o| o.statistics = true));
        let lines: Vec<&str> = out.lines().collect();
        let at = lines
            .iter()
            .position(|l| *l == "==========")
            .expect("optimal");
        let names: Vec<&str> = lines[at + 1..]
            .iter()
            .map(|l| {
                l.strip_prefix("%%%mzn-stat: ")
                    .map_or(*l, |stat| stat.split('=').next().expect("name=value"))
            })
            .collect();
        assert_eq!(
            names,
            [
                "initTime",
                "solveTime",
                "solutions",
                "variables",
                "propagators",
                "nodes",
                "failures",
                "restarts",
                "peakDepth",
                "propagations",
                "objective",
                "%%%mzn-stat-end"
            ]
        );
        assert!(out.contains("%%%mzn-stat: objective=13\n"), "{out}");
        assert!(out.contains("%%%mzn-stat: variables=3\n"), "{out}");
    }

    #[test]
    fn edge_cases_empty_domains_empty_sums_and_constant_objectives() {
        // Merging x and y leaves no value: unsatisfiable, for a satisfaction or an
        // optimisation alike.
        let disjoint = "var 1..3: x :: output_var;\nvar 5..6: y;\nconstraint int_eq(x, y);\n";
        for solve_item in ["solve satisfy;\n", "solve minimize x;\n"] {
            let (out, _) = run(&format!("{disjoint}{solve_item}"), &SolveOptions::default());
            assert_eq!(out, "=====UNSATISFIABLE=====\n", "{solve_item}");
        }
        let empty_sum =
            "var 1..2: x :: output_var;\nconstraint int_lin_le([], [], -1);\nsolve satisfy;\n";
        let (out, _) = run(empty_sum, &SolveOptions::default());
        assert_eq!(out, "=====UNSATISFIABLE=====\n");
        let constant = "var 1..2: x :: output_var;\nsolve maximize 3;\n";
        let (out, outcome) = run(constant, &SolveOptions::default());
        assert_eq!(out, "x = 1;\n----------\n==========\n");
        assert_eq!(outcome.objective, Some(3));
        let overflow = "var 1..3: x;\nconstraint int_lin_le([9223372036854775807, 9223372036854775807], [x, x], 1);\nsolve satisfy;\n";
        let error = FznModel::from_str(overflow).expect_err("2 * i64::MAX");
        assert_eq!(
            error.to_string(),
            "line 2: a linear constraint's coefficients or constants overflow an i64"
        );
    }

    #[test]
    fn threads_find_the_same_optimum() {
        let (out, _) = run(KNAPSACK, &options(|o| o.threads = 2));
        assert!(out.ends_with("v = 13;\n----------\n==========\n"), "{out}");
    }
}
