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
    /// Trail engine: the trail length to undo to when leaving this alternative.
    pub(crate) mark: u32,
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

    /// Drops the frames at depth `depth` and below it.
    pub(crate) fn truncate(&mut self, depth: usize) {
        self.frames.truncate(depth);
    }

    /// Pops exhausted frames and moves the deepest open frame to its next alternative.
    ///
    /// Returns `false` when no open frame is left: the search tree is exhausted.
    pub(crate) fn advance(&mut self) -> bool {
        while let Some(top) = self.frames.last_mut() {
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
    pub(crate) fn progress(&self) -> f64 {
        let mut done = 0.0;
        let mut weight = 1.0;
        for frame in &self.frames {
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
    #[cfg(test)]
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
