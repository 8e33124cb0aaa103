//! The search tree as data: an [`Observer`] that builds the tree of choices from an
//! engine's [`Event`]s, in bounded memory. Drawing it is not the core's business (the
//! examples' `ambsolve_examples::svg::tree` draws it as SVG).

use std::sync::{Arc, Mutex, MutexGuard};

use crate::observe::{Event, Observer};
use crate::var::VarId;

/// How many nodes [`SearchTree::new`] stores.
const DEFAULT_STORED: usize = 20_000;

/// No node: the parent of a root.
const NONE: u32 = u32::MAX;

/// How a node of the tree ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NodeOutcome {
    /// It has children: the search chose below it.
    Inner,
    /// It failed: propagation emptied a domain, or a condition did not hold.
    Failed,
    /// It is a solution.
    Solution,
    /// Nothing happened below it yet: the search stopped (or is still) there.
    Unfinished,
}

/// A node of a [`SearchTree`], as [`SearchTree::nodes`] lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeNode {
    /// Its parent's position in the list; `None` for a root (one per run: the first, then
    /// one after each restart).
    pub parent: Option<usize>,
    /// Its depth: 0 for a root, 1 for the nodes of the first choice.
    pub depth: u32,
    /// Which alternative of its parent's choice it is, from 0.
    pub index: u32,
    /// The value index it tried (on the replay engine, the same as `index`).
    pub value: u32,
    /// The variable it chose (trail engine).
    pub var: Option<VarId>,
    /// How it ended.
    pub outcome: NodeOutcome,
    /// How many children it has (the stored ones and the folded ones).
    pub children: u32,
    /// How many alternatives the choice below it had.
    pub alternatives: u32,
    /// How many values propagation had pruned before the choice below it: the variable's
    /// values minus `alternatives` (trail engine; always 0 on the replay engine).
    pub pruned: u32,
    /// Nodes below it that are not stored (once the tree holds its limit of nodes).
    pub folded_nodes: u64,
    /// Failed nodes among the folded ones.
    pub folded_failures: u64,
    /// Solutions among the folded ones.
    pub folded_solutions: u64,
    /// The depth of the deepest folded node (0 when none is folded).
    pub folded_depth: u32,
}

/// The totals of a [`SearchTree`]: exact, whatever it stores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeStats {
    /// Nodes tried (`Try` events; the roots are not counted). On the trail engine this is
    /// [`Stats::nodes`](crate::Stats::nodes); on the replay engine, whose `nodes` counts
    /// new choice frames only, it is `nodes + runs - 1` after a search that ran to its end
    /// (each run after the first starts on an advanced choice).
    pub nodes: u64,
    /// Failed nodes (`Fail` events, a failed root included).
    pub failures: u64,
    /// Solutions.
    pub solutions: u64,
    /// The deepest node tried.
    pub max_depth: u32,
    /// Restarts (trail engine): each starts a new root.
    pub restarts: u64,
    /// Runs (replay engine).
    pub runs: u64,
    /// Nodes stored, roots included.
    pub stored: usize,
    /// The deepest depth still stored, once the limit of stored nodes was reached (deeper
    /// nodes are folded into their ancestor at that depth); `None` while every node is
    /// stored.
    pub stored_depth: Option<u32>,
}

/// A stored node.
#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    depth: u32,
    index: u32,
    value: u32,
    var: Option<VarId>,
    outcome: NodeOutcome,
    children: u32,
    alternatives: u32,
    pruned: u32,
    folded: Folded,
}

/// What a stored node stands for below it, beyond its stored descendants.
#[derive(Clone, Copy, Debug, Default)]
struct Folded {
    nodes: u64,
    failures: u64,
    solutions: u64,
    depth: u32,
}

impl Folded {
    /// Adds one node of outcome `outcome` at `depth`, with what is folded below it.
    fn add(&mut self, depth: u32, outcome: NodeOutcome, below: Folded) {
        self.nodes += 1 + below.nodes;
        self.failures += u64::from(outcome == NodeOutcome::Failed) + below.failures;
        self.solutions += u64::from(outcome == NodeOutcome::Solution) + below.solutions;
        self.depth = self.depth.max(depth).max(below.depth);
    }
}

impl Node {
    fn root() -> Self {
        Node {
            parent: NONE,
            depth: 0,
            index: 0,
            value: 0,
            var: None,
            outcome: NodeOutcome::Unfinished,
            children: 0,
            alternatives: 0,
            pruned: 0,
            folded: Folded::default(),
        }
    }
}

/// The tree being built.
#[derive(Debug)]
struct Tree {
    nodes: Vec<Node>,
    /// The most nodes stored.
    cap: usize,
    /// Nodes deeper than this are folded (`u32::MAX` until the cap is first reached).
    limit: u32,
    /// The stored nodes of the current path, by depth (a root first).
    path: Vec<u32>,
    totals: TreeStats,
}

impl Tree {
    fn new(cap: usize) -> Self {
        Tree {
            nodes: vec![Node::root()],
            cap: cap.max(1),
            limit: u32::MAX,
            path: vec![0],
            totals: TreeStats::default(),
        }
    }

    fn event(&mut self, event: &Event) {
        match *event {
            Event::Try {
                depth,
                var,
                value,
                index,
                alternatives,
                universe,
            } => {
                self.totals.nodes += 1;
                self.totals.max_depth = self.totals.max_depth.max(depth);
                let node = Node {
                    parent: NONE,
                    depth,
                    index,
                    value,
                    var,
                    outcome: NodeOutcome::Unfinished,
                    children: 0,
                    alternatives: 0,
                    pruned: 0,
                    folded: Folded::default(),
                };
                self.tried(node, alternatives, universe.saturating_sub(alternatives));
            }
            Event::Fail { depth } => {
                self.totals.failures += 1;
                self.ended(depth, NodeOutcome::Failed);
            }
            Event::Solution { depth } => {
                self.totals.solutions += 1;
                self.ended(depth, NodeOutcome::Solution);
            }
            Event::Backtrack { depth } => self.path.truncate(depth as usize + 1),
            Event::Restart => {
                self.totals.restarts += 1;
                self.new_root();
            }
            Event::Run { .. } => self.totals.runs += 1,
        }
    }

    /// A node tried at `node.depth`: stored under the path's node above it, or folded.
    fn tried(&mut self, mut node: Node, alternatives: u32, pruned: u32) {
        let depth = node.depth;
        // The path holds the stored nodes at depths 0..depth (fewer once folding).
        self.path.truncate((depth as usize).max(1));
        if depth <= self.limit && self.nodes.len() >= self.cap && self.limit > 0 {
            self.compact();
        }
        let Some(&last) = self.path.last() else {
            return;
        };
        let parent = &mut self.nodes[last as usize];
        let is_parent = parent.depth + 1 == depth;
        if is_parent {
            parent.children = parent.children.saturating_add(1);
            parent.alternatives = alternatives;
            parent.pruned = pruned;
        }
        if is_parent && depth <= self.limit && self.nodes.len() < self.cap {
            node.parent = last;
            self.path.push(self.nodes.len() as u32);
            self.nodes.push(node);
        } else {
            // Folded into the deepest stored node of the path: its ancestor at the limit.
            let folded = &mut self.nodes[last as usize].folded;
            folded.add(depth, NodeOutcome::Unfinished, Folded::default());
        }
    }

    /// The node at `depth` on the path ended with `outcome`.
    fn ended(&mut self, depth: u32, outcome: NodeOutcome) {
        let Some(&last) = self.path.last() else {
            return;
        };
        let node = &mut self.nodes[last as usize];
        if node.depth == depth {
            // A node with children already is an inner node that a replayed run failed
            // in again (a branch and bound's pruning): it stays inner.
            if node.children == 0 {
                node.outcome = outcome;
            }
        } else {
            match outcome {
                NodeOutcome::Failed => node.folded.failures += 1,
                NodeOutcome::Solution => node.folded.solutions += 1,
                _ => {}
            }
        }
    }

    /// A new root after a restart (or, when only roots fit, the last root goes on).
    fn new_root(&mut self) {
        if self.nodes.len() >= self.cap && self.limit > 0 {
            self.compact();
        }
        if self.nodes.len() < self.cap {
            self.path = vec![self.nodes.len() as u32];
            self.nodes.push(Node::root());
        } else {
            let last = self.nodes.iter().rposition(|n| n.parent == NONE);
            self.path = vec![last.unwrap_or(0) as u32];
        }
    }

    /// Lowers the depth limit so that at most half the cap is stored, folding the deeper
    /// nodes into their ancestors at the new limit.
    fn compact(&mut self) {
        let mut per_depth: Vec<usize> = Vec::new();
        for node in &self.nodes {
            let d = node.depth as usize;
            if per_depth.len() <= d {
                per_depth.resize(d + 1, 0);
            }
            per_depth[d] += 1;
        }
        let mut limit = 0u32;
        let mut kept = 0usize;
        for (d, &count) in per_depth.iter().enumerate() {
            kept += count;
            if d > 0 && kept > self.cap / 2 {
                break;
            }
            limit = d as u32;
        }
        let limit = limit.min(self.limit.saturating_sub(1));
        // Nodes come in pre-order: a parent before its children.
        let mut new_id = vec![NONE; self.nodes.len()];
        let mut kept_nodes: Vec<Node> = Vec::with_capacity(self.cap);
        for i in 0..self.nodes.len() {
            let node = &self.nodes[i];
            if node.depth <= limit {
                let mut node = node.clone();
                if node.parent != NONE {
                    node.parent = new_id[node.parent as usize];
                }
                new_id[i] = kept_nodes.len() as u32;
                kept_nodes.push(node);
            } else {
                // Its parent is kept (at the limit) or already mapped to the kept ancestor.
                let ancestor = new_id[node.parent as usize];
                new_id[i] = ancestor;
                let (depth, outcome, below) = (node.depth, node.outcome, node.folded);
                kept_nodes[ancestor as usize]
                    .folded
                    .add(depth, outcome, below);
            }
        }
        self.path.truncate(limit as usize + 1);
        for id in &mut self.path {
            *id = new_id[*id as usize];
        }
        self.nodes = kept_nodes;
        self.limit = limit;
        self.totals.stored_depth = Some(limit);
    }
}

/// The tree of choices of a search, built from its [`Event`]s: a handle, cheap to clone,
/// to give to [`Solver::observe`](crate::Solver::observe) or
/// [`Puzzle::observe`](crate::Puzzle::observe) and read back (during or after the
/// search) as [`nodes`](Self::nodes) and [`stats`](Self::stats): enough to draw it (the
/// examples draw it as SVG, `ambsolve_examples::svg::tree`).
///
/// Both engines' events build the same kind of tree: the root (depth 0), one node per
/// alternative tried, each marked failed, solution, inner or unfinished. A restart (trail
/// engine) starts a new root: the tree is a forest of one tree per run, drawn side by
/// side. The replay engine's runs are not nodes: a run goes on from the choice it
/// advanced.
///
/// Memory is bounded: at most a fixed number of nodes are stored (20,000 by
/// [`new`](Self::new)). When the store is full, the deepest levels are folded away: the
/// tree keeps the levels down to a depth that fits in half of it, and every deeper node
/// (already stored or still to come) is counted on its ancestor at that depth as folded
/// nodes, failures and solutions. The totals ([`stats`](Self::stats)) stay exact.
///
/// ```
/// use ambsolve::{Engine, Model, NodeOutcome, SearchTree};
///
/// let mut m = Model::new();
/// let x = m.var(0..3);
/// let y = m.var(0..3);
/// m.all_different([&x, &y]);
/// let tree = SearchTree::new();
/// let summary = m.solve(Engine::Trail).observe(tree.clone()).count()?;
/// let totals = tree.stats();
/// assert_eq!(totals.nodes, summary.stats.nodes);
/// assert_eq!(totals.solutions, 6);
/// let nodes = tree.nodes();
/// assert_eq!(nodes.len() as u64, 1 + totals.nodes); // the root and every node tried
/// assert_eq!(nodes.iter().filter(|n| n.outcome == NodeOutcome::Solution).count(), 6);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SearchTree {
    inner: Arc<Mutex<Tree>>,
}

impl Default for SearchTree {
    fn default() -> Self {
        Self::new()
    }
}

impl SearchTree {
    /// An empty tree storing at most 20,000 nodes.
    pub fn new() -> Self {
        Self::with_limit(DEFAULT_STORED)
    }

    /// An empty tree storing at most `nodes` nodes (at least 1: the root).
    pub fn with_limit(nodes: usize) -> Self {
        SearchTree {
            inner: Arc::new(Mutex::new(Tree::new(nodes))),
        }
    }

    /// The tree, even if a panic poisoned its lock (it is only ever appended to).
    fn tree(&self) -> MutexGuard<'_, Tree> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The totals so far: exact, folded nodes included.
    pub fn stats(&self) -> TreeStats {
        let tree = self.tree();
        TreeStats {
            stored: tree.nodes.len(),
            ..tree.totals
        }
    }

    /// The stored nodes, in depth-first order (a parent before its children, the runs one
    /// after the other).
    pub fn nodes(&self) -> Vec<TreeNode> {
        self.tree().nodes.iter().map(public).collect()
    }
}

impl Observer for SearchTree {
    fn event(&mut self, event: &Event) {
        self.tree().event(event);
    }
}

/// A stored node as the public type.
fn public(node: &Node) -> TreeNode {
    TreeNode {
        parent: (node.parent != NONE).then_some(node.parent as usize),
        depth: node.depth,
        index: node.index,
        value: node.value,
        var: node.var,
        outcome: if node.outcome == NodeOutcome::Unfinished && node.children > 0 {
            NodeOutcome::Inner
        } else {
            node.outcome
        },
        children: node.children,
        alternatives: node.alternatives,
        pruned: node.pruned,
        folded_nodes: node.folded.nodes,
        folded_failures: node.folded.failures,
        folded_solutions: node.folded.solutions,
        folded_depth: node.folded.depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn try_at(depth: u32, index: u32, alternatives: u32, universe: u32) -> Event {
        Event::Try {
            depth,
            var: None,
            value: index,
            index,
            alternatives,
            universe,
        }
    }

    /// A complete binary tree of `depth` levels, explored depth first, every leaf failed.
    fn binary(tree: &mut Tree, depth: u32, at: u32) {
        if at == depth {
            tree.event(&Event::Fail { depth: at });
            return;
        }
        for index in 0..2 {
            if index > 0 {
                tree.event(&Event::Backtrack { depth: at });
            }
            tree.event(&try_at(at + 1, index, 2, 3));
            binary(tree, depth, at + 1);
        }
    }

    #[test]
    fn a_full_store_folds_the_deep_levels_and_keeps_the_totals() {
        let mut tree = Tree::new(40);
        binary(&mut tree, 6, 0);
        // 2 + 4 + ... + 64 nodes, 64 failed leaves.
        assert_eq!(tree.totals.nodes, 126);
        assert_eq!(tree.totals.failures, 64);
        assert!(tree.nodes.len() <= 40);
        let limit = tree.limit;
        assert!(tree.nodes.iter().all(|n| n.depth <= limit));
        let stored = tree.nodes.len() as u64 - 1;
        let folded: u64 = tree.nodes.iter().map(|n| n.folded.nodes).sum();
        assert_eq!(stored + folded, 126);
        let failed = tree
            .nodes
            .iter()
            .filter(|n| n.outcome == NodeOutcome::Failed);
        let folded_failures: u64 = tree.nodes.iter().map(|n| n.folded.failures).sum();
        assert_eq!(failed.count() as u64 + folded_failures, 64);
        // Every node at the limit stands for the same subtree below it.
        for node in tree.nodes.iter().filter(|n| n.depth == limit) {
            assert_eq!(node.folded.nodes, (1 << (7 - limit)) - 2);
            assert_eq!(node.folded.depth, 6);
            assert_eq!(node.children, 2);
            assert_eq!(node.pruned, 1);
        }
    }

    #[test]
    fn a_restart_starts_a_new_root() {
        let mut tree = Tree::new(100);
        tree.event(&try_at(1, 0, 2, 2));
        tree.event(&Event::Fail { depth: 1 });
        tree.event(&Event::Restart);
        tree.event(&try_at(1, 0, 2, 2));
        tree.event(&Event::Solution { depth: 1 });
        let roots: Vec<usize> = (0..tree.nodes.len())
            .filter(|&i| tree.nodes[i].parent == NONE)
            .collect();
        assert_eq!(roots, [0, 2]);
        assert_eq!(tree.nodes[3].parent, 2);
        assert_eq!(tree.nodes[3].outcome, NodeOutcome::Solution);
        assert_eq!(tree.totals.restarts, 1);
    }

    #[test]
    fn a_store_of_one_keeps_the_root_only() {
        let mut tree = Tree::new(0);
        binary(&mut tree, 3, 0);
        tree.event(&Event::Restart);
        binary(&mut tree, 2, 0);
        assert_eq!(tree.nodes.len(), 1);
        assert_eq!(tree.nodes[0].folded.nodes, 14 + 6);
        assert_eq!(tree.totals.nodes, 20);
    }
}
