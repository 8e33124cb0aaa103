//! The puzzle as the arguments set it up: engine, limits, strategy, threads, checkpoint,
//! and what watches the search (a trace, the tree, an animation).

use ambsolve::{Checking, Engine, Event, Observer, Recorder, SearchTree};
use ambsolve_examples::cli;
use ambsolve_examples::trace::{self, Trace};

use crate::args::{Args, counting, engine_of, local_budget};
use crate::files::Files;
use crate::model::{
    count_strategy, first_strategy, fundamental_queens, queens, queens_through_symmetry,
};

/// The puzzle as the arguments set it up, and what watches its search.
pub(crate) struct Setup {
    pub(crate) puzzle: ambsolve::Puzzle<'static, Vec<usize>>,
    pub(crate) engine: Engine,
    /// The steps local search gets when no limit is given.
    pub(crate) budget: Option<u64>,
    /// The time building the model took.
    pub(crate) building: std::time::Duration,
    /// Whether a count goes through the board's symmetries.
    pub(crate) through_symmetry: bool,
    pub(crate) threads: usize,
    pub(crate) tree: SearchTree,
    pub(crate) recorder: Recorder,
}

impl Setup {
    pub(crate) fn new(args: &Args, files: &Files) -> Self {
        let n = args.n as usize;
        let engine = Engine::from(engine_of(args));
        let mut limits = args.bounds.limits();
        // Local search never ends by itself: without a limit it gets a budget of steps.
        let budget = (engine == Engine::Local
            && args.bounds.node_limit.is_none()
            && args.bounds.time_limit.is_none())
        .then(|| local_budget(args.n));
        if let Some(steps) = budget {
            limits = limits.nodes(steps);
        }
        let built = std::time::Instant::now();
        let watched = args.trace || files.tree.is_some() || files.animation.is_some();
        // A count searches one representative per class of the board's symmetries and
        // weighs each by its class, unless the plain search is asked for or watched.
        let through_symmetry =
            counting(args) && !args.fundamental && !args.plain && !args.naive && !watched;
        let mut puzzle = if args.fundamental {
            fundamental_queens(n)
        } else if through_symmetry {
            queens_through_symmetry(n)
        } else {
            queens(n)
        }
        .engine(engine)
        .limits(limits);
        let building = built.elapsed();
        if let Some(seed) = args.seed {
            puzzle = puzzle.seed(seed);
        }
        let mut setup = Setup {
            puzzle,
            engine,
            budget,
            building,
            through_symmetry,
            threads: match args.threads {
                Some(k) => k as usize,
                // A first solution is the first subproblem's: more threads would search
                // the later ones in vain (twice the nodes at n = 30 on the replay engine).
                None if args.mpi || args.first => 1,
                None => cli::cores(),
            },
            tree: SearchTree::new(),
            recorder: Recorder::new(20_000),
        };
        setup.watch_or_steer(args, files);
        let mut puzzle = setup.puzzle.clone().threads(setup.threads);
        if args.naive {
            puzzle = puzzle.checking(Checking::AtEnd);
        }
        if let Some(file) = &args.checkpoint {
            puzzle = puzzle.checkpoint(file);
        }
        if let Some(file) = &args.resume {
            puzzle = puzzle.resume(file);
        }
        setup.puzzle = puzzle;
        setup
    }

    /// Watching the search (a trace, the tree, the steps of an animation, any of them)
    /// keeps it top-down, as the sources explain and draw it; else the trail engine gets
    /// the strategy that suits the mode.
    pub(crate) fn watch_or_steer(&mut self, args: &Args, files: &Files) {
        let mut watchers: Vec<Box<dyn Observer>> = Vec::new();
        if args.trace {
            let board = trace::Queens { n: args.n as usize };
            watchers.push(Box::new(Trace::new(board, args.trace_lines)));
        }
        if files.tree.is_some() {
            watchers.push(Box::new(self.tree.clone()));
        }
        if files.animation.is_some() {
            watchers.push(Box::new(self.recorder.clone()));
        }
        let puzzle = self.puzzle.clone();
        self.puzzle = if !watchers.is_empty() {
            puzzle.observe(move |event: &Event| {
                for watcher in &mut watchers {
                    watcher.event(event);
                }
            })
        } else if self.engine == Engine::Trail && !args.naive && args.first {
            puzzle.strategy(first_strategy())
        } else if self.engine == Engine::Trail && !args.naive && counting(args) && !args.fundamental
        {
            puzzle.strategy(count_strategy(args.n as usize))
        } else {
            puzzle
        };
    }
}
