//! Search statistics, shared by every engine.

use std::fmt;
use std::time::Duration;

/// What a search did. Fields an engine does not use stay zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Choices made: new choice frames (replay) or decisions (trail); local search:
    /// steps (each value given in a starting assignment, each repair step).
    pub nodes: u64,
    /// Dead ends: closure runs that failed (replay), or decisions and propagations that
    /// emptied a domain (trail).
    pub failures: u64,
    /// Solutions found: counting through symmetry, the representatives (one per class).
    pub solutions: u64,
    /// The deepest the choice stack has been.
    pub max_depth: u64,
    /// Replay engine: how many times the closure was run.
    pub runs: u64,
    /// Replay engine: choices answered from the recorded prefix instead of made anew.
    pub replayed: u64,
    /// Trail engine: propagator invocations.
    pub propagations: u64,
    /// Trail engine: restarts made before the first solution. Local engine: fresh
    /// starting assignments after the first one.
    pub restarts: u64,
    /// Local engine: moves made (a variable changed its value to repair a conflict).
    pub moves: u64,
    /// Local engine: moves that left the number of conflicts as it was (plateau steps).
    pub plateau: u64,
    /// Trail engine, learning: nogoods learned from conflicts.
    pub learned: u64,
    /// Wall time spent searching.
    pub elapsed: Duration,
}

/// Statistics of searches added up (the pieces of one search cut into subproblems, say):
/// counts and times are summed (saturating), `max_depth` is the deepest of the two.
impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, more: Stats) {
        self.nodes = self.nodes.saturating_add(more.nodes);
        self.failures = self.failures.saturating_add(more.failures);
        self.solutions = self.solutions.saturating_add(more.solutions);
        self.max_depth = self.max_depth.max(more.max_depth);
        self.runs = self.runs.saturating_add(more.runs);
        self.replayed = self.replayed.saturating_add(more.replayed);
        self.propagations = self.propagations.saturating_add(more.propagations);
        self.restarts = self.restarts.saturating_add(more.restarts);
        self.moves = self.moves.saturating_add(more.moves);
        self.learned = self.learned.saturating_add(more.learned);
        self.plateau = self.plateau.saturating_add(more.plateau);
        self.elapsed = self.elapsed.saturating_add(more.elapsed);
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {}, failures {}, solutions {}, max depth {}",
            self.nodes, self.failures, self.solutions, self.max_depth
        )?;
        if self.runs > 0 {
            write!(f, ", runs {}, replayed {}", self.runs, self.replayed)?;
        }
        if self.propagations > 0 {
            write!(f, ", propagations {}", self.propagations)?;
        }
        if self.restarts > 0 {
            write!(f, ", restarts {}", self.restarts)?;
        }
        if self.moves > 0 {
            write!(f, ", moves {}, plateau steps {}", self.moves, self.plateau)?;
        }
        if self.learned > 0 {
            write!(f, ", learned {}", self.learned)?;
        }
        write!(f, ", time {:.3?}", self.elapsed)
    }
}
