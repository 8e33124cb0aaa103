//! Restart schedules: after a budget of failures a search starts over; the budgets of the
//! successive runs follow a schedule (Luby, geometric, constant, linear).

/// How the failure budgets of the successive runs grow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Schedule {
    /// `scale × luby(run + 1)`.
    Luby(u64),
    /// `base × factor^run`, rounded down (`factor >= 1`).
    Geometric(u64, f64),
    /// `scale` every run.
    Constant(u64),
    /// `scale × (run + 1)`.
    Linear(u64),
}

/// Restarts: after a budget of failures the search starts over from the root with its
/// value order shuffled (a [`VarOrder::DomWDeg`](crate::VarOrder::DomWDeg) keeps the
/// weights it learned, so the next run branches differently). The budgets of the
/// successive runs follow a schedule: [`Restarts::luby`] (`scale × 1, 1, 2, 1, 1, 2, 4,
/// …`), [`Restarts::geometric`], [`Restarts::constant`], [`Restarts::linear`]. This cuts
/// off the long unlucky runs that make a fixed order stall on some sizes.
///
/// - **Satisfaction**: restarts stop at the first solution: from there the search runs to
///   its end without restarting, so enumerating and counting still see every solution
///   exactly once (in a different order than without restarts).
/// - **Optimisation** (branch and bound): restarts go on after each improving solution,
///   and every run keeps the cost below the best found so far, so each solution reported
///   is strictly better than the one before; the search proves the optimum when a run
///   exhausts its tree.
///
/// With a growing schedule (Luby, geometric with a factor above 1, linear) some run
/// eventually has a budget larger than the whole tree, so the search is complete: it
/// ends, proving unsatisfiability or optimality as it would without restarts. A
/// [`Restarts::constant`] schedule never grows: a tree that needs more failures than its
/// budget is never searched to its end, and such a search ends only at a limit (a time
/// limit, say), like other solvers' constant restarts.
///
/// Restarts follow no fixed order, so a search with restarts runs on one thread and is
/// not cut into subproblems.
#[derive(Clone, Copy, Debug)]
pub struct Restarts {
    pub(crate) schedule: Schedule,
    pub(crate) seed: u64,
}

impl PartialEq for Restarts {
    fn eq(&self, other: &Self) -> bool {
        let key = |r: &Restarts| match r.schedule {
            Schedule::Luby(s) => (0, s, 0),
            Schedule::Geometric(b, f) => (1, b, f.to_bits()),
            Schedule::Constant(s) => (2, s, 0),
            Schedule::Linear(s) => (3, s, 0),
        };
        key(self) == key(other) && self.seed == other.seed
    }
}

// The factor of a geometric schedule is finite (checked when it is made).
impl Eq for Restarts {}

/// The seed of the shuffles after a restart, unless [`Restarts::seed`] sets one.
const DEFAULT_SEED: u64 = 0x5eed;

impl Restarts {
    fn with(schedule: Schedule) -> Self {
        Restarts {
            schedule,
            seed: DEFAULT_SEED,
        }
    }

    /// Luby restarts with budgets of `scale` failures times the Luby sequence
    /// (`scale` at least 1).
    ///
    /// ```
    /// use ambsolve::Restarts;
    /// let budgets: Vec<u64> = (0..7).map(|run| Restarts::luby(10).budget(run)).collect();
    /// assert_eq!(budgets, [10, 10, 20, 10, 10, 20, 40]);
    /// ```
    pub fn luby(scale: u64) -> Self {
        Self::with(Schedule::Luby(scale.max(1)))
    }

    /// Geometric restarts: run `k` has a budget of `base × factor^k` failures, rounded down
    /// (`base` at least 1; a `factor` below 1, or not a number, counts as 1, a constant
    /// schedule).
    ///
    /// ```
    /// use ambsolve::Restarts;
    /// let budgets: Vec<u64> = (0..4).map(|run| Restarts::geometric(10, 1.5).budget(run)).collect();
    /// assert_eq!(budgets, [10, 15, 22, 33]);
    /// ```
    pub fn geometric(base: u64, factor: f64) -> Self {
        let factor = if factor.is_finite() && factor >= 1.0 {
            factor
        } else if factor == f64::INFINITY {
            f64::MAX
        } else {
            1.0
        };
        Self::with(Schedule::Geometric(base.max(1), factor))
    }

    /// Constant restarts: every run has a budget of `scale` failures (at least 1). Such a
    /// search is not complete: see the type's documentation.
    pub fn constant(scale: u64) -> Self {
        Self::with(Schedule::Constant(scale.max(1)))
    }

    /// Linear restarts: run `k` has a budget of `scale × (k + 1)` failures (`scale` at
    /// least 1).
    pub fn linear(scale: u64) -> Self {
        Self::with(Schedule::Linear(scale.max(1)))
    }

    /// The seed of the shuffles after a restart. Default: a fixed seed, so runs repeat.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The failure budget of run `run` (0 is the first run).
    pub fn budget(&self, run: u64) -> u64 {
        match self.schedule {
            Schedule::Luby(scale) => scale.saturating_mul(luby(run.saturating_add(1))),
            Schedule::Geometric(base, factor) => {
                let budget = base as f64 * factor.powf(run as f64);
                if budget >= u64::MAX as f64 {
                    u64::MAX
                } else {
                    budget as u64
                }
            }
            Schedule::Constant(scale) => scale,
            Schedule::Linear(scale) => scale.saturating_mul(run.saturating_add(1)),
        }
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, … (1-based).
pub(crate) fn luby(mut i: u64) -> u64 {
    loop {
        // Find k with 2^(k-1) <= i < 2^k.
        let k = 64 - i.leading_zeros();
        if k == 64 || i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(u64::MAX), 1 << 63);
    }

    #[test]
    fn schedules() {
        let budgets = |r: Restarts| (0..5).map(|run| r.budget(run)).collect::<Vec<_>>();
        assert_eq!(budgets(Restarts::constant(7)), [7; 5]);
        assert_eq!(budgets(Restarts::linear(3)), [3, 6, 9, 12, 15]);
        assert_eq!(budgets(Restarts::geometric(2, 2.0)), [2, 4, 8, 16, 32]);
        assert_eq!(budgets(Restarts::geometric(2, f64::NAN)), [2; 5]);
        assert_eq!(Restarts::geometric(2, f64::INFINITY).budget(3), u64::MAX);
        assert_eq!(Restarts::linear(u64::MAX).budget(3), u64::MAX);
        assert_eq!(Restarts::luby(0), Restarts::luby(1));
        assert_ne!(Restarts::luby(1), Restarts::luby(1).seed(3));
        assert_ne!(Restarts::luby(1), Restarts::constant(1));
    }
}
