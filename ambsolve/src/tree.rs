//! The search tree as data and as a picture: an [`Observer`] that builds the tree of
//! choices from an engine's [`Event`]s, in bounded memory, and draws it as SVG.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::observe::{Event, Observer};
use crate::var::VarId;

/// How many nodes [`SearchTree::new`] stores.
const DEFAULT_STORED: usize = 20_000;

/// How many nodes a picture draws at most (collapsed triangles included).
const DRAWN: usize = 3_000;

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
/// search) as [`nodes`](Self::nodes), [`stats`](Self::stats) or an SVG picture.
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
/// use ambsolve::{Engine, Model, SearchTree};
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
/// let svg = tree.svg("x != y");
/// assert!(svg.starts_with("<svg") && svg.contains("solutions 6"));
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

    /// The tree as an SVG picture under `title`, each node labelled with its value index.
    /// See [`svg_with`](Self::svg_with).
    pub fn svg(&self, title: &str) -> String {
        self.svg_with(title, |node| node.value.to_string())
    }

    /// The tree as an SVG picture under `title`, each node labelled with `label(node)`
    /// (an empty string for none): `|node| (node.value + 1).to_string()` labels
    /// n-queens' nodes with columns from 1.
    ///
    /// The root is at the top, each depth one row below; leaves take consecutive slots
    /// and a parent is centred over its children. Failed nodes are red crosses,
    /// solutions green discs, inner nodes white discs, unfinished nodes dashed circles.
    /// Under a node whose choice had values pruned by propagation, a grey `✂k` says how
    /// many. The title line carries the exact totals.
    ///
    /// At most about 3,000 nodes are drawn: below the deepest depth that fits (and below
    /// the depth the tree stores), each subtree is a grey triangle labelled with its node
    /// count (and its solutions, in green), so the picture stays under a few megabytes
    /// whatever the search. It is plain SVG 1.1: no script, no external font.
    pub fn svg_with(&self, title: &str, label: impl Fn(&TreeNode) -> String) -> String {
        let tree = self.tree();
        let mut totals = tree.totals;
        totals.stored = tree.nodes.len();
        let nodes: Vec<TreeNode> = tree.nodes.iter().map(public).collect();
        drop(tree);
        render(&nodes, &totals, title, &label)
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

/// Where each drawn node goes, and what is collapsed under the deepest drawn ones.
struct Layout {
    /// Drawn nodes (positions in the node list), in depth-first order.
    drawn: Vec<usize>,
    /// Horizontal slot of each node (fractional for parents), by node position.
    x: Vec<f64>,
    /// What each node at the drawn depth stands for below it.
    below: Vec<Folded>,
    /// Leaf slots used.
    slots: usize,
    /// The deepest drawn depth.
    depth: u32,
    /// Roots not drawn (too many runs).
    hidden_roots: usize,
}

/// Chooses the drawn depth and places the drawn nodes.
fn layout(nodes: &[TreeNode], budget: usize) -> Layout {
    let mut per_depth: Vec<usize> = Vec::new();
    for node in nodes {
        let d = node.depth as usize;
        if per_depth.len() <= d {
            per_depth.resize(d + 1, 0);
        }
        per_depth[d] += 1;
    }
    let mut depth = 0u32;
    let mut count = 0usize;
    for (d, &n) in per_depth.iter().enumerate() {
        count += n;
        if d > 0 && count > budget {
            break;
        }
        depth = d as u32;
    }
    // Roots beyond the budget (runs) are not drawn at all.
    let mut roots = 0usize;
    let mut hidden_roots = 0usize;
    let mut shown = vec![false; nodes.len()];
    let mut below = vec![Folded::default(); nodes.len()];
    let mut at_depth = vec![usize::MAX; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        match node.parent {
            None => {
                roots += 1;
                shown[i] = roots <= budget.max(1);
                hidden_roots += usize::from(!shown[i]);
                at_depth[i] = i;
            }
            Some(p) => {
                shown[i] = shown[p] && node.depth <= depth;
                at_depth[i] = if node.depth <= depth { i } else { at_depth[p] };
            }
        }
        let own = Folded {
            nodes: node.folded_nodes,
            failures: node.folded_failures,
            solutions: node.folded_solutions,
            depth: node.folded_depth,
        };
        let anchor = at_depth[i];
        if anchor == i {
            let b = &mut below[i];
            b.nodes += own.nodes;
            b.failures += own.failures;
            b.solutions += own.solutions;
            b.depth = b.depth.max(own.depth);
        } else if anchor != usize::MAX {
            below[anchor].add(node.depth, node.outcome, own);
        }
    }
    let drawn: Vec<usize> = (0..nodes.len()).filter(|&i| shown[i]).collect();
    let mut has_child = vec![false; nodes.len()];
    for &i in &drawn {
        if let Some(p) = nodes[i].parent {
            has_child[p] = true;
        }
    }
    let mut x = vec![0.0f64; nodes.len()];
    let mut slot = 0usize;
    for &i in &drawn {
        if nodes[i].parent.is_none() && slot > 0 {
            slot += 1; // a gap between runs
        }
        if !has_child[i] {
            x[i] = slot as f64;
            slot += 1;
        }
    }
    let mut span = vec![(f64::INFINITY, f64::NEG_INFINITY); nodes.len()];
    for &i in drawn.iter().rev() {
        if has_child[i] {
            let (first, last) = span[i];
            x[i] = (first + last) / 2.0;
        }
        if let Some(p) = nodes[i].parent {
            span[p] = (span[p].0.min(x[i]), span[p].1.max(x[i]));
        }
    }
    Layout {
        drawn,
        x,
        below,
        slots: slot.max(1),
        depth,
        hidden_roots,
    }
}

/// Pixels between two depths.
const LEVEL: f64 = 56.0;

/// The longest label drawn, in characters.
const LABEL_CHARS: usize = 16;

/// Writes the picture: edges, collapsed subtrees, pruning marks, nodes, then labels, each
/// layer a group that carries the shared attributes (so each element is short).
fn render(
    nodes: &[TreeNode],
    totals: &TreeStats,
    title: &str,
    label: &dyn Fn(&TreeNode) -> String,
) -> String {
    let layout = layout(nodes, DRAWN);
    let slot: f64 = match layout.slots {
        0..=40 => 36.0,
        41..=120 => 24.0,
        121..=400 => 14.0,
        _ => 10.0,
    };

    let mut heading = format!(
        "{title} — nodes {}, failures {}, solutions {}, max depth {}",
        totals.nodes, totals.failures, totals.solutions, totals.max_depth
    );
    if totals.restarts > 0 {
        let _ = write!(heading, ", restarts {}", totals.restarts);
    }
    if totals.runs > 0 {
        let _ = write!(heading, ", runs {}", totals.runs);
    }
    let collapsed = layout.below.iter().any(|b| b.nodes > 0);
    let mut legend =
        String::from("× failed   ● solution   ○ inner   ✂k: k values ruled out before the choice");
    if collapsed {
        let _ = write!(
            legend,
            "   ▲ subtree below depth {}: its nodes (solutions)",
            layout.depth
        );
    }
    if layout.hidden_roots > 0 {
        let _ = write!(legend, "   ({} later runs not drawn)", layout.hidden_roots);
    }

    let (left, top) = (24.0, 84.0);
    let tree_width = layout.slots as f64 * slot;
    let text_width =
        (9.0 * heading.chars().count() as f64).max(6.2 * legend.chars().count() as f64);
    let width = (tree_width.max(text_width) + 2.0 * left).max(560.0).ceil();
    let tree_height = f64::from(layout.depth) * LEVEL + if collapsed { 90.0 } else { 24.0 };
    let height = (top + tree_height + 16.0).ceil();
    // A tree narrower than its title is centred.
    let x0 = (width - tree_width) / 2.0;
    let r = (slot * 0.22).clamp(2.5, 6.0);
    let at = |i: usize| {
        (
            x0 + (layout.x[i] + 0.5) * slot,
            top + f64::from(nodes[i].depth) * LEVEL,
        )
    };

    // Room beside each drawn node: the distance to its neighbours at the same depth
    // (depth-first order lists each depth left to right).
    let mut gap_left = vec![f64::INFINITY; nodes.len()];
    let mut gap_right = vec![f64::INFINITY; nodes.len()];
    let mut last_at_depth: Vec<Option<usize>> = vec![None; layout.depth as usize + 1];
    for &i in &layout.drawn {
        let d = nodes[i].depth as usize;
        if let Some(previous) = last_at_depth[d] {
            let gap = at(i).0 - at(previous).0;
            gap_left[i] = gap;
            gap_right[previous] = gap;
        }
        last_at_depth[d] = Some(i);
    }
    // The first and last nodes of a depth have the room they have on their other side.
    for &i in &layout.drawn {
        if gap_left[i].is_infinite() {
            gap_left[i] = gap_right[i];
        }
        if gap_right[i].is_infinite() {
            gap_right[i] = gap_left[i];
        }
    }

    let mut edges = String::new();
    let mut triangles = String::new();
    let mut counts = String::new();
    let mut pruned = String::new();
    let mut stubs = String::new();
    let mut inner = String::new();
    let mut unfinished = String::new();
    let mut solutions = String::new();
    let mut failures = String::new();
    let mut labels = String::new();
    let mut runs = String::new();
    let mut run = 0;
    for &i in &layout.drawn {
        let node = &nodes[i];
        let (x, y) = at(i);
        let (xs, ys) = (num(x), num(y));
        match node.parent {
            Some(p) => {
                let (px, py) = at(p);
                let _ = writeln!(edges, r#"<path d="M{}{}L{xs} {ys}"/>"#, num(px), sp(py));
            }
            None => {
                run += 1;
                if totals.restarts > 0 {
                    let _ = writeln!(
                        runs,
                        r#"<text x="{xs}" y="{}">run {run}</text>"#,
                        num(y - r - 6.0)
                    );
                }
            }
        }
        let below = layout.below[i];
        if below.nodes > 0 {
            let half = (slot * 0.42).max(3.0);
            let bottom = y + LEVEL * 0.6;
            let green = below.solutions > 0;
            let _ = writeln!(
                triangles,
                r#"<path d="M{xs} {ys}L{}{}h{}Z"{}/>"#,
                num(x - half),
                sp(bottom),
                num(2.0 * half),
                if green { r##" fill="#bfe8c6""## } else { "" }
            );
            let mut text = below.nodes.to_string();
            if green {
                let _ = write!(text, " ({})", below.solutions);
            }
            let colour = if green { r##" fill="#116622""## } else { "" };
            if gap_left[i].min(gap_right[i]) >= 6.0 * text.len() as f64 + 4.0 {
                let _ = writeln!(
                    counts,
                    r#"<text x="{xs}" y="{}" text-anchor="middle"{colour}>{text}</text>"#,
                    num(bottom + 11.0)
                );
            } else {
                // No room across: the count reads downwards.
                let _ = writeln!(
                    counts,
                    r#"<text transform="translate({}{}) rotate(90)"{colour}>{text}</text>"#,
                    num(x - 3.0),
                    sp(bottom + 4.0)
                );
            }
        }
        if node.pruned > 0 && node.children > 0 {
            let text = format!("✂{}", node.pruned);
            if gap_right[i] >= 6.0 * text.chars().count() as f64 + r + 6.0 {
                let _ = writeln!(
                    pruned,
                    r#"<text x="{}" y="{}">{text}</text>"#,
                    num(x + r + 2.0),
                    num(y + r + 8.0)
                );
            } else {
                let length = 1.5 * f64::from(node.pruned.min(8)) + 1.0;
                let _ = writeln!(
                    stubs,
                    r#"<path d="M{}{}h{}"/>"#,
                    num(x + r),
                    sp(y),
                    num(length)
                );
            }
        }
        let _ = match node.outcome {
            NodeOutcome::Failed => writeln!(
                failures,
                r#"<path d="M{}{}l{d} {d}m0 -{d}l-{d} {d}"/>"#,
                num(x - r),
                sp(y - r),
                d = num(2.0 * r)
            ),
            NodeOutcome::Solution => writeln!(
                solutions,
                r#"<circle cx="{xs}" cy="{ys}" r="{}"/>"#,
                num(r + 1.0)
            ),
            NodeOutcome::Inner => {
                writeln!(inner, r#"<circle cx="{xs}" cy="{ys}" r="{}"/>"#, num(r))
            }
            NodeOutcome::Unfinished => writeln!(
                unfinished,
                r#"<circle cx="{xs}" cy="{ys}" r="{}"/>"#,
                num(r)
            ),
        };
        if node.parent.is_some() {
            let text: String = label(node).chars().take(LABEL_CHARS).collect();
            let room = 6.0 * text.chars().count() as f64 + r + 4.0;
            if !text.is_empty() && gap_left[i] >= room {
                let _ = writeln!(
                    labels,
                    r#"<text x="{}" y="{}">{}</text>"#,
                    num(x - r - 2.0),
                    num(y - r),
                    escape(&text)
                );
            }
        }
    }

    let mut svg = String::with_capacity(
        1024 + edges.len()
            + triangles.len()
            + counts.len()
            + pruned.len()
            + stubs.len()
            + inner.len()
            + unfinished.len()
            + solutions.len()
            + failures.len()
            + labels.len()
            + runs.len(),
    );
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"##
    );
    let _ = writeln!(
        svg,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        svg,
        r##"<text x="{left}" y="26" font-size="16" fill="#222222">{}</text>"##,
        escape(&heading)
    );
    let _ = writeln!(
        svg,
        r##"<text x="{left}" y="48" font-size="11" fill="#555555">{}</text>"##,
        escape(&legend)
    );
    let layers = [
        (r##"fill="none" stroke="#9a9a9a""##, edges),
        (r##"fill="#e4e4e4" stroke="#8a8a8a""##, triangles),
        (r##"font-size="9" fill="#555555""##, counts),
        (r##"font-size="9" fill="#8a8a8a""##, pruned),
        (r##"stroke="#b0b0b0" stroke-width="2""##, stubs),
        (r##"fill="#ffffff" stroke="#555555""##, inner),
        (
            r##"fill="#ffffff" stroke="#555555" stroke-dasharray="2 2""##,
            unfinished,
        ),
        (r##"fill="#22a03a" stroke="#116622""##, solutions),
        (r##"stroke="#d02020" stroke-width="2""##, failures),
        (
            r##"font-size="10" fill="#333333" text-anchor="end""##,
            labels,
        ),
        (
            r##"font-size="10" fill="#555555" text-anchor="middle""##,
            runs,
        ),
    ];
    for (attributes, elements) in layers {
        if !elements.is_empty() {
            let _ = writeln!(svg, "<g {attributes}>");
            svg.push_str(&elements);
            svg.push_str("</g>\n");
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// A coordinate, to a tenth of a pixel, without a trailing `.0`.
fn num(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{:.1}", tenths as f64 / 10.0)
    }
}

/// A second coordinate after a first: a space, or nothing before a minus sign.
fn sp(v: f64) -> String {
    let n = num(v);
    if n.starts_with('-') {
        n
    } else {
        format!(" {n}")
    }
}

/// `text` with XML's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
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

    #[test]
    fn coordinates_and_text_are_short_and_escaped() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.25), "12.3");
        assert_eq!(num(-3.5), "-3.5");
        assert_eq!(sp(-3.0), "-3");
        assert_eq!(sp(4.0), " 4");
        assert_eq!(escape("a<b & 'c'"), "a&lt;b &amp; &apos;c&apos;");
    }
}
