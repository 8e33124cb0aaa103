//! The choice stack: an explicit heap stack of choice frames shared by every engine, and
//! [`Fail`], the failure that travels back to it.
//!
//! Search never recurses: a depth of a million choices is a million frames in a `Vec`,
//! not a million Rust stack frames.

use std::fmt;

/// The failure of a path: "no solution down this path". It travels by `?`.
///
/// Returned by [`Amb::require`](crate::Amb::require), [`Amb::fail`](crate::Amb::fail), by
/// a [`choose`](crate::Amb::choose) with no alternatives, and by a
/// [`Propagator`](crate::Propagator) that empties a domain. It carries nothing: why a path
/// failed does not matter, only that it did; the search backtracks to the last choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fail;

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no solution down this path")
    }
}

impl std::error::Error for Fail {}

/// A subtree of a search: the path of choices that leads to it, one alternative index per
/// choice point, from the root down.
///
/// A search cut into subproblems ([`Solver::split`](crate::Solver::split)) covers its
/// tree exactly: the subproblems, searched one after the other in the order they are
/// listed, yield the same solutions in the same order as the whole search, and their
/// counts add up to its count. Each one can be searched on its own, by any instance of
/// the same engine with the same options ([`Solver::subproblem`](crate::Solver::subproblem)),
/// on any thread or machine: it is a plain value, written as the indices joined by dots
/// (`3.0.12`; the root, the whole search, is `.`), and read back with [`str::parse`].
///
/// A path means something only for the engine, options and model that produced it: the
/// alternatives of a choice point are the values the engine has left there, in its order.
///
/// ```
/// use ambsolve::Subproblem;
///
/// let s: Subproblem = "3.0.12".parse()?;
/// assert_eq!(s.path(), [3, 0, 12]);
/// assert_eq!(s.to_string(), "3.0.12");
/// assert_eq!(Subproblem::root().to_string().parse::<Subproblem>()?, Subproblem::root());
/// assert!("3..1".parse::<Subproblem>().is_err());
/// # Ok::<(), ambsolve::ParseSubproblemError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Subproblem {
    path: Vec<u32>,
}

impl Subproblem {
    /// The whole search.
    pub fn root() -> Self {
        Self::default()
    }

    /// The alternative index taken at each choice point, from the root down.
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// How many choices lead to it.
    pub fn depth(&self) -> usize {
        self.path.len()
    }
}

impl From<Vec<u32>> for Subproblem {
    fn from(path: Vec<u32>) -> Self {
        Subproblem { path }
    }
}

impl fmt::Display for Subproblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            return f.write_str(".");
        }
        for (k, index) in self.path.iter().enumerate() {
            if k > 0 {
                f.write_str(".")?;
            }
            write!(f, "{index}")?;
        }
        Ok(())
    }
}

/// Why a string is not a [`Subproblem`]: it must be `.` or indices joined by dots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSubproblemError {
    text: String,
}

impl fmt::Display for ParseSubproblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a subproblem: expected `.` or indices joined by dots, like `3.0.12`",
            self.text.escape_debug()
        )
    }
}

impl std::error::Error for ParseSubproblemError {}

impl std::str::FromStr for Subproblem {
    type Err = ParseSubproblemError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text == "." {
            return Ok(Subproblem::root());
        }
        text.split('.')
            .map(|part| {
                // Digits only: no sign, no spaces.
                if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                part.parse::<u32>().ok()
            })
            .collect::<Option<Vec<u32>>>()
            .map(Subproblem::from)
            .ok_or_else(|| ParseSubproblemError {
                text: text.chars().take(80).collect(),
            })
    }
}

/// Where an engine searches: below a path (a subproblem), and down to a depth at which it
/// stops and reports the node instead of going deeper (how a search is cut into
/// subproblems).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Scope {
    /// The choices replayed before the search starts; it never backtracks above them.
    pub(crate) prefix: Vec<u32>,
    /// A node at this depth that is not a solution is reported as a cut, not searched.
    pub(crate) cutoff: Option<u32>,
}

impl Scope {
    /// The whole tree.
    pub(crate) fn is_whole(&self) -> bool {
        self.prefix.is_empty() && self.cutoff.is_none()
    }
}

/// One open choice point.
///
/// The replay engine uses `index` and `arity` only. The trail engine also records the
/// variable it branched on, the value index it is trying and the trail mark to undo to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    /// Which alternative is being explored, `0..arity`.
    pub(crate) index: u32,
    /// How many alternatives this choice has.
    pub(crate) arity: u32,
    /// Trail engine: the variable branched on (unused by replay).
    pub(crate) var: u32,
    /// Trail engine: the value index being tried (unused by replay).
    pub(crate) value: u32,
    /// Trail engine: the store's mark to undo to when leaving this alternative.
    pub(crate) mark: u64,
}

impl Frame {
    /// A fresh frame at its first alternative, with no trail information.
    pub(crate) fn new(arity: u32) -> Self {
        Frame {
            index: 0,
            arity,
            var: 0,
            value: 0,
            mark: 0,
        }
    }

    /// Whether every alternative after the current one has been used up.
    pub(crate) fn is_last(&self) -> bool {
        self.index + 1 >= self.arity
    }
}

/// The explicit stack of choice frames.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChoiceStack {
    frames: Vec<Frame>,
}

impl ChoiceStack {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn len(&self) -> usize {
        self.frames.len()
    }

    pub(crate) fn push(&mut self, frame: Frame) {
        self.frames.push(frame);
    }

    pub(crate) fn top(&self) -> Option<&Frame> {
        self.frames.last()
    }

    pub(crate) fn pop(&mut self) -> Option<Frame> {
        self.frames.pop()
    }

    pub(crate) fn top_mut(&mut self) -> Option<&mut Frame> {
        self.frames.last_mut()
    }

    pub(crate) fn get(&self, depth: usize) -> Option<&Frame> {
        self.frames.get(depth)
    }

    pub(crate) fn get_mut(&mut self, depth: usize) -> Option<&mut Frame> {
        self.frames.get_mut(depth)
    }

    /// Drops the frames at depth `depth` and below it.
    pub(crate) fn truncate(&mut self, depth: usize) {
        self.frames.truncate(depth);
    }

    /// Pops exhausted frames and moves the deepest open frame to its next alternative.
    ///
    /// Returns `false` when no open frame is left: the search tree is exhausted.
    #[cfg(test)]
    pub(crate) fn advance(&mut self) -> bool {
        self.advance_above(0)
    }

    /// As [`advance`](ChoiceStack::advance), leaving the first `floor` frames alone: they
    /// lead to the subtree being searched. False when no open frame is left above them.
    pub(crate) fn advance_above(&mut self, floor: usize) -> bool {
        while self.frames.len() > floor {
            let top = self.frames.last_mut().expect("more frames than the floor");
            if top.is_last() {
                self.frames.pop();
            } else {
                top.index += 1;
                return true;
            }
        }
        false
    }

    /// The share of the search tree already finished, estimated from the open frames:
    /// each frame contributes its finished alternatives, weighted by the share of the tree
    /// its parent alternative stands for.
    #[cfg(test)]
    pub(crate) fn progress(&self) -> f64 {
        self.progress_from(0)
    }

    /// The share of the subtree below the first `floor` frames already finished.
    pub(crate) fn progress_from(&self, floor: usize) -> f64 {
        let mut done = 0.0;
        let mut weight = 1.0;
        for frame in self.frames.iter().skip(floor) {
            let arity = f64::from(frame.arity.max(1));
            done += weight * f64::from(frame.index) / arity;
            weight /= arity;
            if weight < 1e-12 {
                break;
            }
        }
        done
    }

    /// The path to the current node: the alternative chosen at each depth.
    pub(crate) fn path(&self) -> Vec<u32> {
        self.frames.iter().map(|f| f.index).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(frames: &[(u32, u32)]) -> ChoiceStack {
        let mut s = ChoiceStack::new();
        for &(index, arity) in frames {
            s.push(Frame {
                index,
                ..Frame::new(arity)
            });
        }
        s
    }

    #[test]
    fn advance_moves_the_deepest_open_frame() {
        let mut s = stack(&[(0, 2), (1, 3)]);
        assert!(s.advance());
        assert_eq!(s.path(), vec![0, 2]);
    }

    #[test]
    fn advance_pops_exhausted_frames() {
        let mut s = stack(&[(0, 2), (2, 3), (0, 1)]);
        assert!(s.advance());
        assert_eq!(s.path(), vec![1]);
        s.top_mut().unwrap().index = 1;
        assert!(!s.advance());
        assert_eq!(s.len(), 0);
    }

    #[test]
    fn progress_weights_nested_frames() {
        assert_eq!(stack(&[]).progress(), 0.0);
        assert_eq!(stack(&[(1, 2)]).progress(), 0.5);
        assert_eq!(stack(&[(1, 2), (1, 2)]).progress(), 0.75);
    }

    #[test]
    fn a_million_frames_need_no_recursion() {
        let mut s = ChoiceStack::new();
        for _ in 0..1_000_000 {
            s.push(Frame::new(1));
        }
        assert!(!s.advance());
    }
}
