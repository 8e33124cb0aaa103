//! Vilím's Θ-Λ tree: the earliest completion time of a set Θ of tasks, and of Θ with at
//! most one task of a second set Λ added, kept under insertions and removals in O(log n).
//!
//! The leaves are the tasks in order of earliest start; a node holds, for the tasks of its
//! leaves, the total duration `p` and the earliest completion `ect` of those in Θ, and the
//! same with one grey task (of Λ) allowed (`p_bar`, `ect_bar`), with the grey task
//! responsible for each. Combining a left node `l` and a right node `r`:
//! `p = l.p + r.p`, `ect = max(r.ect, l.ect + r.p)`,
//! `p_bar = max(l.p_bar + r.p, l.p + r.p_bar)`,
//! `ect_bar = max(r.ect_bar, l.ect + r.p_bar, l.ect_bar + r.p)`.
//! (P. Vilím, "Filtering algorithms for the unary resource constraint", 2008.)

use crate::propagators::scheduling::Window;

/// The earliest completion of no task: far below any time, yet safe to add durations to.
pub(super) const NONE: i64 = i64::MIN / 4;

/// No grey task.
const NO_TASK: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    p: i64,
    ect: i64,
    p_bar: i64,
    ect_bar: i64,
    /// The grey task that `p_bar` counts, if any.
    by_p: u32,
    /// The grey task that `ect_bar` counts, if any.
    by_ect: u32,
}

const EMPTY: Node = Node {
    p: 0,
    ect: NONE,
    p_bar: 0,
    ect_bar: NONE,
    by_p: NO_TASK,
    by_ect: NO_TASK,
};

/// The node over `l` and `r` (left and right) when Λ is empty: the bars copy the rest.
#[inline]
fn combine_theta(l: &Node, r: &Node) -> Node {
    let p = l.p + r.p;
    let ect = r.ect.max(l.ect + r.p);
    Node {
        p,
        ect,
        p_bar: p,
        ect_bar: ect,
        by_p: NO_TASK,
        by_ect: NO_TASK,
    }
}

/// The node over `l` and `r`; of equal options, one with a grey task is kept (so that the
/// root's grey task is responsible whenever `ect_bar > ect`).
#[inline]
fn combine(l: &Node, r: &Node) -> Node {
    let (left_bar, right_bar) = (l.p_bar + r.p, l.p + r.p_bar);
    let (p_bar, by_p) = if left_bar > right_bar || (left_bar == right_bar && r.by_p == NO_TASK) {
        (left_bar, l.by_p)
    } else {
        (right_bar, r.by_p)
    };
    let mut ect_bar = r.ect_bar;
    let mut by_ect = r.by_ect;
    for (value, by) in [(l.ect + r.p_bar, r.by_p), (l.ect_bar + r.p, l.by_ect)] {
        if value > ect_bar || (value == ect_bar && by_ect == NO_TASK) {
            (ect_bar, by_ect) = (value, by);
        }
    }
    Node {
        p: l.p + r.p,
        ect: r.ect.max(l.ect + r.p),
        p_bar,
        ect_bar: ect_bar.max(NONE),
        by_p,
        by_ect,
    }
}

/// A Θ-Λ tree over a set of task windows (their durations positive).
#[derive(Default)]
pub(super) struct ThetaTree {
    /// A heap: node `k`'s children are `2k` and `2k + 1`; the leaves start at `leaves`.
    nodes: Vec<Node>,
    leaves: usize,
    /// Each task's leaf, counted from `leaves`.
    rank: Vec<usize>,
    /// The windows of the tasks, as given to `reset`.
    windows: Vec<Window>,
    by_est: Vec<u32>,
    /// Whether Λ may hold tasks (else the cheaper combination is used).
    lambda: bool,
}

impl ThetaTree {
    /// Empties Θ and Λ and places the leaves of `windows` by earliest start; `lambda`:
    /// whether tasks will be made grey.
    pub(super) fn reset(&mut self, windows: &[Window], lambda: bool) {
        self.lambda = lambda;
        let n = windows.len();
        self.windows.clear();
        self.windows.extend_from_slice(windows);
        self.by_est.clear();
        self.by_est.extend(0..n as u32);
        self.by_est.sort_by_key(|&i| windows[i as usize].est);
        self.rank.clear();
        self.rank.resize(n, 0);
        for (position, &task) in self.by_est.iter().enumerate() {
            self.rank[task as usize] = position;
        }
        self.leaves = n.next_power_of_two().max(1);
        self.nodes.clear();
        self.nodes.resize(2 * self.leaves, EMPTY);
    }

    fn set_leaf(&mut self, task: usize, leaf: Node) {
        let mut k = self.leaves + self.rank[task];
        self.nodes[k] = leaf;
        while k > 1 {
            k /= 2;
            self.nodes[k] = self.combined(k);
        }
    }

    #[inline]
    fn combined(&self, k: usize) -> Node {
        let (l, r) = (&self.nodes[2 * k], &self.nodes[2 * k + 1]);
        if self.lambda {
            combine(l, r)
        } else {
            combine_theta(l, r)
        }
    }

    /// Puts every task in Θ (in O(n), instead of n insertions).
    pub(super) fn fill(&mut self) {
        for task in 0..self.windows.len() {
            let leaf = self.white(task);
            self.nodes[self.leaves + self.rank[task]] = leaf;
        }
        for k in (1..self.leaves).rev() {
            self.nodes[k] = self.combined(k);
        }
    }

    fn white(&self, task: usize) -> Node {
        let w = self.windows[task];
        Node {
            p: w.p,
            ect: w.est + w.p,
            p_bar: w.p,
            ect_bar: w.est + w.p,
            by_p: NO_TASK,
            by_ect: NO_TASK,
        }
    }

    /// Puts `task` in Θ.
    pub(super) fn insert(&mut self, task: usize) {
        let leaf = self.white(task);
        self.set_leaf(task, leaf);
    }

    /// Moves `task` to Λ (grey).
    pub(super) fn make_grey(&mut self, task: usize) {
        debug_assert!(self.lambda, "a tree reset without Λ");
        let w = self.windows[task];
        self.set_leaf(
            task,
            Node {
                p: 0,
                ect: NONE,
                p_bar: w.p,
                ect_bar: w.est + w.p,
                by_p: task as u32,
                by_ect: task as u32,
            },
        );
    }

    /// Takes `task` out of Θ and Λ.
    pub(super) fn remove(&mut self, task: usize) {
        self.set_leaf(task, EMPTY);
    }

    /// Whether `task` is in Θ.
    pub(super) fn contains(&self, task: usize) -> bool {
        self.nodes[self.leaves + self.rank[task]].p > 0
    }

    /// The earliest completion time of Θ ([`NONE`] if Θ is empty).
    pub(super) fn ect(&self) -> i64 {
        self.nodes[1].ect
    }

    /// The earliest completion time of Θ with at most one task of Λ.
    pub(super) fn ect_bar(&self) -> i64 {
        self.nodes[1].ect_bar
    }

    /// The task of Λ that [`ect_bar`](Self::ect_bar) counts, if one does.
    pub(super) fn responsible(&self) -> Option<usize> {
        let by = self.nodes[1].by_ect;
        (by != NO_TASK).then_some(by as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::{NONE, ThetaTree};
    use crate::propagators::checker::Rng;
    use crate::propagators::scheduling::Window;

    /// The earliest completion of a set, by its definition: the most, over every task `k`
    /// of the set, of `est[k]` plus the durations of the tasks starting no earlier.
    fn ect_of(windows: &[Window], set: &[usize]) -> i64 {
        set.iter()
            .map(|&k| {
                let from = windows[k].est;
                let p: i64 = set
                    .iter()
                    .filter(|&&j| windows[j].est >= from)
                    .map(|&j| windows[j].p)
                    .sum();
                from + p
            })
            .max()
            .unwrap_or(NONE)
    }

    #[test]
    fn the_tree_agrees_with_the_definition_on_random_sets() {
        let mut rng = Rng::new(7);
        let mut tree = ThetaTree::default();
        for _ in 0..300 {
            let n = 1 + rng.below(9) as usize;
            let windows: Vec<Window> = (0..n)
                .map(|_| {
                    let est = rng.below(20) as i64 - 5;
                    let p = 1 + rng.below(6) as i64;
                    Window {
                        est,
                        lct: est + p + rng.below(10) as i64,
                        p,
                    }
                })
                .collect();
            tree.reset(&windows, true);
            tree.fill();
            let all: Vec<usize> = (0..n).collect();
            assert_eq!(tree.ect(), ect_of(&windows, &all));
            // 0: out, 1: in Θ, 2: in Λ.
            let state: Vec<u64> = (0..n).map(|_| rng.below(3)).collect();
            for (k, &s) in state.iter().enumerate() {
                match s {
                    1 => tree.insert(k),
                    2 => tree.make_grey(k),
                    _ => tree.remove(k),
                }
            }
            let theta: Vec<usize> = (0..n).filter(|&k| state[k] == 1).collect();
            assert_eq!(tree.ect(), ect_of(&windows, &theta));
            let with_one = (0..n)
                .filter(|&k| state[k] == 2)
                .map(|g| {
                    let mut set = theta.clone();
                    set.push(g);
                    ect_of(&windows, &set)
                })
                .fold(tree.ect(), i64::max);
            assert_eq!(tree.ect_bar(), with_one);
            if tree.ect_bar() > tree.ect() {
                let g = tree.responsible().expect("a grey task is responsible");
                let mut set = theta.clone();
                set.push(g);
                assert_eq!(ect_of(&windows, &set), tree.ect_bar());
            }
        }
    }
}
