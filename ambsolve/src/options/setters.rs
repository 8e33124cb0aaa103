//! The builder methods of [`Solver`](crate::Solver) and [`Puzzle`](crate::Puzzle), written
//! once: [`setters!`] expands to them inside each type's `impl`, where they set a field of
//! its `options: Options` and return it. A new option is a field of [`Options`] and one
//! method here, whatever type takes it.

#[cfg(doc)]
use super::Options;

/// Expands to the methods that set [`Options`], for a type with an `options: Options`
/// field: `impl<..> Solver<..> { crate::options::setters!(); .. }`. Each takes the value
/// and returns it changed, so that settings chain. The documentation is written here,
/// once, for both types (its links are absolute, so they resolve where it is expanded).
macro_rules! setters {
    () => {
        /// Which engine runs the model. Default: [`Engine::Trail`](crate::Engine::Trail). A
        /// hand-written `amb` program always runs on the replay engine and ignores this.
        #[must_use = "a builder method returns the changed value"]
        pub fn engine(mut self, engine: $crate::options::Engine) -> Self {
            self.options.engine = engine;
            self
        }

        /// Sets the limits. Default: none.
        #[must_use = "a builder method returns the changed value"]
        pub fn limits(mut self, limits: $crate::limits::Limits) -> Self {
            self.options.limits = limits;
            self
        }

        /// Seeds the random choices of the local engine ([`Engine::Local`](crate::Engine::Local)):
        /// the same seed, model and limits give the same run. Other engines ignore it. Default: a
        /// fixed seed, so runs repeat.
        #[must_use = "a builder method returns the changed value"]
        pub fn seed(mut self, seed: u64) -> Self {
            self.options.seed = seed;
            self
        }

        /// Optimises by large neighbourhood search ([`Lns`](crate::Lns)) on the trail engine,
        /// with or without [`learning`](crate::Strategy::learning): after a first solution,
        /// neighbourhoods of the best solution are searched under a small budget, taking
        /// turns with the complete search (which proves optimality when given the time).
        /// For [`improving`](crate::Solver::improving) and [`best`](crate::Solver::best)
        /// only: any other search with it, or one on another engine, on several threads,
        /// observed, cut into subproblems or resumable, is
        /// [`Unsupported`](crate::SearchError::Unsupported).
        #[must_use = "a builder method returns the changed value"]
        pub fn lns(mut self, lns: $crate::options::Lns) -> Self {
            self.options.lns = Some(lns);
            self
        }

        /// Sets the search strategy: variable order, value order (or splits), phases,
        /// restarts. Default: [`Strategy::default`](crate::Strategy::default): each engine's
        /// own variable order ([`VarOrder::Automatic`](crate::VarOrder::Automatic): declaration
        /// order on the trail engine, [`Model::replay_order`](crate::Model::replay_order) on
        /// the replay engine), ascending values, no phases, no restarts.
        ///
        /// The trail engine follows all of it. The replay engine of a model follows the static
        /// part: a given variable order, the phases' variables in turn, and the value orders;
        /// it has no domains, so the dynamic orders (first-fail, dom/wdeg, ..) mean input
        /// order there, and it refuses splits
        /// ([`SearchError::Unsupported`](crate::SearchError::Unsupported)). A hand-written
        /// `amb` program makes its own choices and ignores the strategy.
        #[must_use = "a builder method returns the changed value"]
        pub fn strategy(mut self, strategy: $crate::strategy::Strategy) -> Self {
            self.options.strategy = strategy;
            self
        }

        /// Sets when a model's constraints are checked. Default:
        /// [`Checking::Early`](crate::Checking::Early). A hand-written `amb` program checks where
        /// it calls `require` and ignores this.
        #[must_use = "a builder method returns the changed value"]
        pub fn checking(mut self, checking: $crate::options::Checking) -> Self {
            self.options.checking = checking;
            self
        }

        /// Keeps one solution per class of the model's declared symmetries: the least in
        /// lexicographic order of value indices (the variables in index order) of all the images of
        /// a solution under the group the declared symmetries generate, pruning during the search.
        /// The declared symmetries may be generators only: the search closes them into their group.
        /// A model without symmetries, or a hand-written `amb` program, is unaffected.
        ///
        /// - A group of more than 1024 elements is
        ///   [`SearchError::Unsupported`](crate::SearchError::Unsupported) when the search starts
        ///   (one member of each class could not be told from the others).
        /// - Optimising ([`improving`](Self::improving), [`best`](Self::best)) up to symmetry finds
        ///   the optimum only if the symmetries keep the objective's value. Each declared symmetry
        ///   is checked on the objective's definition when the search starts: every assignment and
        ///   its image must have the same value (not only the solutions: a symmetry that keeps it
        ///   on the solutions alone is refused too); one that does not is
        ///   [`SearchError::Unsupported`](crate::SearchError::Unsupported), with its name.
        ///
        /// ```
        /// use ambsolve::{Cmp, Engine, Model, SearchError, Symmetry, VarId};
        ///
        /// // x != y, swapping them is a symmetry.
        /// let mut m = Model::new();
        /// let x = m.var(0..3);
        /// let y = m.var(0..3);
        /// m.linear([(1, &x), (-1, &y)], Cmp::Ne, 0);
        /// m.symmetries([Symmetry::new("swap", |v, a| (VarId::from_index(1 - v.index()), a))]);
        /// assert_eq!(m.solve(Engine::Trail).up_to_symmetry().count()?.solutions, 3);
        /// // x + y keeps its value under the swap: the optimum is proved up to symmetry.
        /// let mut sum = m.clone();
        /// sum.maximize([(1, &x), (1, &y)]);
        /// assert_eq!(sum.solve(Engine::Trail).up_to_symmetry().best()?.objective, Some(3));
        /// // 2x + y does not: (1, 2) is worth 4, its image (2, 1) is worth 5.
        /// let mut weighted = m.clone();
        /// weighted.maximize([(2, &x), (1, &y)]);
        /// let refused = weighted.solve(Engine::Trail).up_to_symmetry().best();
        /// assert!(matches!(refused, Err(SearchError::Unsupported(m)) if m.contains("`swap`")));
        /// # Ok::<(), ambsolve::SearchError>(())
        /// ```
        #[must_use = "a builder method returns the changed value"]
        pub fn up_to_symmetry(mut self) -> Self {
            self.options.up_to_symmetry = true;
            self
        }

        /// Counts through the model's declared symmetries: the search keeps one representative per
        /// class, with the pruning of [`up_to_symmetry`](Self::up_to_symmetry), and counting adds
        /// for each the size of its class (the number of distinct images of it under the
        /// symmetries, itself included), so that [`count`](Self::count),
        /// [`Solutions::count_all`](crate::Solutions::count_all),
        /// [`Solutions::count_for`](crate::Solutions::count_for) and
        /// [`Solutions::summarize`](crate::Solutions::summarize) give the plain count, sooner.
        /// Default: off.
        ///
        /// - [`solutions`](Self::solutions) yields the representatives only. Which member
        ///   represents a class is the least in lexicographic order of value indices with the
        ///   variables read in the order the engine chooses them (the strategy's ranking, or the
        ///   replay engine's order), not necessarily in index order as up to symmetry.
        /// - [`Summary::solutions`](crate::Summary::solutions) is the weighted count;
        ///   [`Stats::solutions`](crate::Stats) is the number of representatives found, and a
        ///   solution limit ([`Limits::solutions`](crate::Limits::solutions)) counts
        ///   representatives too.
        /// - The declared symmetries may be generators only: the search closes them under
        ///   composition. A group of more than 1024 elements is not enumerated: the search then
        ///   counts plainly, without pruning.
        /// - It takes precedence over [`up_to_symmetry`](Self::up_to_symmetry) when both are set;
        ///   optimising ([`improving`](Self::improving), [`best`](Self::best)) ignores it. A model
        ///   without symmetries, or a hand-written `amb` program, is unaffected.
        ///
        /// ```
        /// use ambsolve::{Model, Symmetry, VarId};
        ///
        /// // Pairs of different digits: (a, b) and (b, a) are one class.
        /// let mut m = Model::new();
        /// let a = m.var(0..10);
        /// let b = m.var(0..10);
        /// m.all_different([&a, &b]);
        /// m.symmetries([Symmetry::new("swap", |v, x| (VarId::from_index(1 - v.index()), x))]);
        /// let summary = m.solve(ambsolve::Engine::Trail).count_through_symmetry().count()?;
        /// assert_eq!(summary.solutions, 90);
        /// assert_eq!(summary.stats.solutions, 45); // the representatives, a < b
        /// # Ok::<(), ambsolve::SearchError>(())
        /// ```
        #[must_use = "a builder method returns the changed value"]
        pub fn count_through_symmetry(mut self) -> Self {
            self.options.count_through_symmetry = true;
            self
        }

        /// Reports every step of the search to `observer` (see [`Event`](crate::Event)):
        /// choices tried, failures, solutions, backtracks, restarts, replay runs. Keep a
        /// handle to it (a [`Recorder`](crate::Recorder), or your own type behind an `Arc`) to
        /// read what it gathered.
        #[must_use = "a builder method returns the changed value"]
        pub fn observe(mut self, observer: impl $crate::observe::Observer + 'static) -> Self {
            self.options.observer = Some($crate::observe::Shared::new(observer));
            self
        }

        /// Searches a model on `threads` threads (a rayon pool of its own). Default: 1; 0 means 1.
        /// More than 1024 is [`SearchError::Unsupported`](crate::SearchError::Unsupported) when the
        /// search starts.
        ///
        /// The search is cut into subproblems (see [`split`](Self::split)), 32 per thread and at
        /// least 64 unless [`subproblems`](Self::subproblems) says otherwise, and the results are
        /// what one thread gives:
        /// - [`count`](Self::count) is exact: the subproblems' counts added up;
        /// - [`solutions`](Self::solutions) yields the same solutions in the same order,
        ///   [`first`](Self::first) the same first one: later subproblems are searched ahead, a
        ///   bounded number of solutions each, and wait for the earlier ones;
        /// - [`improving`](Self::improving) and [`best`](Self::best) share the best cost between
        ///   the threads and prove the same optimum (the improving solutions on the way may
        ///   differ);
        /// - statistics add up over the threads (a count's nodes are the one-thread count's); the
        ///   time limit and the cancellation flag stop every thread.
        ///
        /// A search with a node limit runs on one thread, so that what it finds does not depend on
        /// how the threads raced for the nodes; a resumable count (see
        /// [`checkpoint`](Self::checkpoint)) is the exception: its threads share the budget (the
        /// nodes spent cutting the search included), and what they leave undone is finished when it
        /// resumes.
        ///
        /// A search that is observed, or has restarts, runs on one thread; so does a hand-written
        /// `amb` program (its closure is not shared).
        ///
        /// ```
        /// use ambsolve::{Engine, Model};
        ///
        /// let mut m = Model::new();
        /// let q: Vec<_> = (0..8).map(|_| m.var(0..8i64)).collect();
        /// m.all_different(&q);
        /// m.all_different_offset(q.iter().enumerate().map(|(i, v)| (v, i as i64)));
        /// m.all_different_offset(q.iter().enumerate().map(|(i, v)| (v, -(i as i64))));
        /// let one: Vec<_> = m.solve(Engine::Trail).solutions().collect();
        /// let four: Vec<_> = m.solve(Engine::Trail).threads(4).solutions().collect();
        /// assert_eq!(one.len(), 92);
        /// assert_eq!(four, one);
        /// assert_eq!(m.solve(Engine::Replay).threads(2).count()?.solutions, 92);
        /// # Ok::<(), ambsolve::SearchError>(())
        /// ```
        #[must_use = "a builder method returns the changed value"]
        pub fn threads(mut self, threads: usize) -> Self {
            self.options.threads = threads;
            self
        }

        /// Cuts a search on several threads (or a resumable count) into at least `n`
        /// subproblems. Default: 32 per thread, and at least 64.
        #[must_use = "a builder method returns the changed value"]
        pub fn subproblems(mut self, n: usize) -> Self {
            self.options.subproblems = Some(n);
            self
        }

        /// Searches only below `subproblem`, one of those [`split`](Self::split) cut the same
        /// search into (same model, engine and options). A path that does not lead to a live node
        /// of the tree (an alternative a choice does not have, a path past a solution, through a
        /// node that fails or ending at one) is
        /// [`SearchError::NoSuchSubproblem`](crate::SearchError::NoSuchSubproblem), on every
        /// engine.
        #[must_use = "a builder method returns the changed value"]
        pub fn subproblem(mut self, subproblem: &$crate::choice::Subproblem) -> Self {
            self.options.scope.prefix = subproblem.path().to_vec();
            self
        }

        /// Counts resumably: each finished subproblem, with its count, is recorded in the file at
        /// `path` (rewritten atomically after each one; once it records thousands, at most once a
        /// second, and when the count ends or stops). Starts afresh, whatever the file holds; see
        /// [`resume`](Self::resume).
        ///
        /// The count fails with [`SearchError::Checkpoint`](crate::SearchError::Checkpoint) if the
        /// file cannot be written, or if `path` exists and is not a regular file (a symbolic link,
        /// a directory, a device, a pipe): the file is rewritten by renaming a new one over its
        /// path, which would replace whatever is there.
        #[must_use = "a builder method returns the changed value"]
        pub fn checkpoint(mut self, path: impl AsRef<::std::path::Path>) -> Self {
            self.options.checkpoint = Some($crate::options::Checkpointing {
                path: path.as_ref().to_path_buf(),
                resume: false,
            });
            self
        }

        /// Finishes a count from the checkpoint file at `path`: the subproblems it records as
        /// finished are not searched again, their counts are added, and the file goes on being
        /// written. The file must come from the same search (same model, engine and strategy); any
        /// number of threads may finish it.
        ///
        /// What is checked before the count goes on
        /// ([`SearchError::Checkpoint`](crate::SearchError::Checkpoint) otherwise):
        /// - the file is a regular file whose lines all pass their checks (each ends with a CRC-32:
        ///   a change of up to 4 consecutive bytes within a line's text or within its check is
        ///   always caught, any other with probability 1 - 2^-32); the error names the first bad
        ///   line. Lines taken out are not an error: those subproblems are searched again. Reading
        ///   stops at the first bad line, holding one line at a time.
        /// - its fingerprint is that of this search: the model's structure (not its closures), the
        ///   engine, the strategy and the options that shape the tree, the subproblems' paths;
        /// - a few of its finished subproblems, searched again, find what it records in the nodes
        ///   it records (up to 8, chosen at random with a seed drawn from the file, within 1/16 of
        ///   the finished subproblems' nodes, or the cheapest one). This catches a model that
        ///   differs only in a closure (a predicate, a propagator, a symmetry map) *where it is
        ///   searched again*; one that differs only in other subproblems is not detected, and gives
        ///   a wrong total.
        ///
        /// A checkpoint resumes a *count*: listing the solutions from one that has finished
        /// subproblems is [`SearchError::Unsupported`](crate::SearchError::Unsupported).
        ///
        /// ```
        /// use ambsolve::{Engine, Limits, Model, StopReason};
        ///
        /// let mut m = Model::new();
        /// let q: Vec<_> = (0..8).map(|_| m.var(0..8i64)).collect();
        /// m.all_different(&q);
        /// m.all_different_offset(q.iter().enumerate().map(|(i, v)| (v, i as i64)));
        /// m.all_different_offset(q.iter().enumerate().map(|(i, v)| (v, -(i as i64))));
        /// let file = std::env::temp_dir().join(format!("queens-{}.checkpoint", std::process::id()));
        /// let stopped = m.solve(Engine::Trail).checkpoint(&file).limits(Limits::new().nodes(300)).count()?;
        /// assert_eq!(stopped.stop_reason, StopReason::NodeLimit);
        /// let finished = m.solve(Engine::Trail).resume(&file).threads(2).count()?;
        /// assert_eq!(finished.stop_reason, StopReason::Exhausted);
        /// assert_eq!(finished.solutions, 92);
        /// # std::fs::remove_file(&file).ok();
        /// # Ok::<(), ambsolve::SearchError>(())
        /// ```
        #[must_use = "a builder method returns the changed value"]
        pub fn resume(mut self, path: impl AsRef<::std::path::Path>) -> Self {
            self.options.checkpoint = Some($crate::options::Checkpointing {
                path: path.as_ref().to_path_buf(),
                resume: true,
            });
            self
        }

        /// Replaces every option at once.
        #[must_use = "a builder method returns the changed value"]
        pub fn with_options(mut self, options: $crate::options::Options) -> Self {
            self.options = options;
            self
        }

        /// The options the search runs with.
        pub fn options(&self) -> &$crate::options::Options {
            &self.options
        }
    };
}

pub(crate) use setters;
