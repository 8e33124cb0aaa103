//! A search tree as a picture: the nodes an [`ambsolve::SearchTree`] stored, laid out
//! depth by depth and drawn as SVG, deep levels collapsed into counted triangles.

use std::fmt::Write as _;

use ambsolve::{NodeOutcome, SearchTree, TreeNode, TreeStats};

use super::escape;

/// How many nodes a picture draws at most (collapsed triangles included).
const DRAWN: usize = 3_000;

/// Pixels between two depths.
const LEVEL: f64 = 56.0;

/// The longest label drawn, in characters.
const LABEL_CHARS: usize = 16;

/// The tree as an SVG picture under `title`, each node labelled with its value index. See
/// [`tree_with`].
pub fn tree(tree: &SearchTree, title: &str) -> String {
    tree_with(tree, title, |node| node.value.to_string())
}

/// The tree as an SVG picture under `title`, each node labelled with `label(node)` (an
/// empty string for none): `|node| (node.value + 1).to_string()` labels n-queens' nodes
/// with columns from 1.
///
/// The root is at the top, each depth one row below; leaves take consecutive slots and a
/// parent is centred over its children. Failed nodes are red crosses, solutions green
/// discs, inner nodes white discs, unfinished nodes dashed circles. Under a node whose
/// choice had values pruned by propagation, a grey `✂k` says how many. The title line
/// carries the exact totals.
///
/// At most about 3,000 nodes are drawn: below the deepest depth that fits (and below the
/// depth the tree stores), each subtree is a grey triangle labelled with its node count
/// (and its solutions, in green), so the picture stays under a few megabytes whatever the
/// search. It is plain SVG 1.1: no script, no external font.
///
/// ```
/// use ambsolve::{Engine, Model, SearchTree};
///
/// let mut m = Model::new();
/// let x = m.var(0..3);
/// let y = m.var(0..3);
/// m.require((&x, &y), |x, y| x != y);
/// let tree = SearchTree::new();
/// m.solve(Engine::Trail).observe(tree.clone()).count()?;
/// let svg = ambsolve_examples::svg::tree(&tree, "x != y");
/// assert!(svg.starts_with("<svg") && svg.contains("solutions 6"));
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
pub fn tree_with(tree: &SearchTree, title: &str, label: impl Fn(&TreeNode) -> String) -> String {
    let nodes = tree.nodes();
    render(&nodes, &tree.stats(), title, &label)
}

/// What a drawn node stands for below it, beyond its drawn descendants.
#[derive(Clone, Copy, Debug, Default)]
struct Below {
    nodes: u64,
    failures: u64,
    solutions: u64,
    depth: u32,
}

impl Below {
    /// What a node folded by the tree stands for.
    fn folded(node: &TreeNode) -> Self {
        Below {
            nodes: node.folded_nodes,
            failures: node.folded_failures,
            solutions: node.folded_solutions,
            depth: node.folded_depth,
        }
    }

    /// Adds `other`, and (if `node` is given) one node of its outcome at its depth.
    fn add(&mut self, node: Option<&TreeNode>, other: Below) {
        if let Some(node) = node {
            self.nodes += 1;
            self.failures += u64::from(node.outcome == NodeOutcome::Failed);
            self.solutions += u64::from(node.outcome == NodeOutcome::Solution);
            self.depth = self.depth.max(node.depth);
        }
        self.nodes += other.nodes;
        self.failures += other.failures;
        self.solutions += other.solutions;
        self.depth = self.depth.max(other.depth);
    }
}

/// Where each drawn node goes, and what is collapsed under the deepest drawn ones.
struct Layout {
    /// Drawn nodes (positions in the node list), in depth-first order.
    drawn: Vec<usize>,
    /// Horizontal slot of each node (fractional for parents), by node position.
    x: Vec<f64>,
    /// What each node at the drawn depth stands for below it.
    below: Vec<Below>,
    /// Leaf slots used.
    slots: usize,
    /// The deepest drawn depth.
    depth: u32,
    /// Roots not drawn (too many runs).
    hidden_roots: usize,
}

/// The deepest depth whose nodes, with those above, fit in `budget` (0 at least).
fn drawn_depth(nodes: &[TreeNode], budget: usize) -> u32 {
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
    depth
}

/// Chooses the drawn depth and places the drawn nodes.
fn layout(nodes: &[TreeNode], budget: usize) -> Layout {
    let depth = drawn_depth(nodes, budget);
    // Roots beyond the budget (runs) are not drawn at all.
    let mut roots = 0usize;
    let mut hidden_roots = 0usize;
    let mut shown = vec![false; nodes.len()];
    let mut below = vec![Below::default(); nodes.len()];
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
        let anchor = at_depth[i];
        if anchor == i {
            below[i].add(None, Below::folded(node));
        } else if anchor != usize::MAX {
            below[anchor].add(Some(node), Below::folded(node));
        }
    }
    let drawn: Vec<usize> = (0..nodes.len()).filter(|&i| shown[i]).collect();
    let (x, slots) = place(nodes, &drawn);
    Layout {
        drawn,
        x,
        below,
        slots,
        depth,
        hidden_roots,
    }
}

/// The horizontal slot of each drawn node, and the slots used: leaves take consecutive
/// slots (a gap between runs), a parent is centred over its children.
fn place(nodes: &[TreeNode], drawn: &[usize]) -> (Vec<f64>, usize) {
    let mut has_child = vec![false; nodes.len()];
    for &i in drawn {
        if let Some(p) = nodes[i].parent {
            has_child[p] = true;
        }
    }
    let mut x = vec![0.0f64; nodes.len()];
    let mut slot = 0usize;
    for &i in drawn {
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
    (x, slot.max(1))
}

/// The title line: `title` and the exact totals.
fn heading(title: &str, totals: &TreeStats) -> String {
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
    heading
}

/// The legend line: the marks, and what is collapsed or not drawn.
fn legend(layout: &Layout) -> String {
    let mut legend =
        String::from("× failed   ● solution   ○ inner   ✂k: k values ruled out before the choice");
    if layout.below.iter().any(|b| b.nodes > 0) {
        let _ = write!(
            legend,
            "   ▲ subtree below depth {}: its nodes (solutions)",
            layout.depth
        );
    }
    if layout.hidden_roots > 0 {
        let _ = write!(legend, "   ({} later runs not drawn)", layout.hidden_roots);
    }
    legend
}

/// The picture's measures, and where each drawn node goes.
struct Canvas<'l> {
    layout: &'l Layout,
    nodes: &'l [TreeNode],
    /// Pixels per slot, the nodes' radius, the left edge of the tree.
    slot: f64,
    r: f64,
    x0: f64,
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    /// Room beside each drawn node: the distance to its neighbours at the same depth.
    gap_left: Vec<f64>,
    gap_right: Vec<f64>,
}

impl<'l> Canvas<'l> {
    fn new(layout: &'l Layout, nodes: &'l [TreeNode], heading: &str, legend: &str) -> Self {
        let slot: f64 = match layout.slots {
            0..=40 => 36.0,
            41..=120 => 24.0,
            121..=400 => 14.0,
            _ => 10.0,
        };
        let collapsed = layout.below.iter().any(|b| b.nodes > 0);
        let (left, top) = (24.0, 84.0);
        let tree_width = layout.slots as f64 * slot;
        let text_width =
            (9.0 * heading.chars().count() as f64).max(6.2 * legend.chars().count() as f64);
        let width = (tree_width.max(text_width) + 2.0 * left).max(560.0).ceil();
        let tree_height = f64::from(layout.depth) * LEVEL + if collapsed { 90.0 } else { 24.0 };
        let mut canvas = Canvas {
            layout,
            nodes,
            slot,
            r: (slot * 0.22).clamp(2.5, 6.0),
            // A tree narrower than its title is centred.
            x0: (width - tree_width) / 2.0,
            left,
            top,
            width,
            height: (top + tree_height + 16.0).ceil(),
            gap_left: vec![f64::INFINITY; nodes.len()],
            gap_right: vec![f64::INFINITY; nodes.len()],
        };
        canvas.measure_gaps();
        canvas
    }

    /// Where node `i` is drawn.
    fn at(&self, i: usize) -> (f64, f64) {
        (
            self.x0 + (self.layout.x[i] + 0.5) * self.slot,
            self.top + f64::from(self.nodes[i].depth) * LEVEL,
        )
    }

    /// The room beside each drawn node (depth-first order lists each depth left to right);
    /// the first and last nodes of a depth have the room they have on their other side.
    fn measure_gaps(&mut self) {
        let mut last_at_depth: Vec<Option<usize>> = vec![None; self.layout.depth as usize + 1];
        for &i in &self.layout.drawn {
            let d = self.nodes[i].depth as usize;
            if let Some(previous) = last_at_depth[d] {
                let gap = self.at(i).0 - self.at(previous).0;
                self.gap_left[i] = gap;
                self.gap_right[previous] = gap;
            }
            last_at_depth[d] = Some(i);
        }
        for &i in &self.layout.drawn {
            if self.gap_left[i].is_infinite() {
                self.gap_left[i] = self.gap_right[i];
            }
            if self.gap_right[i].is_infinite() {
                self.gap_right[i] = self.gap_left[i];
            }
        }
    }
}

/// The picture's elements, one string per layer (each layer a group carrying the shared
/// attributes, so each element is short).
#[derive(Default)]
struct Layers {
    edges: String,
    triangles: String,
    counts: String,
    pruned: String,
    stubs: String,
    inner: String,
    unfinished: String,
    solutions: String,
    failures: String,
    labels: String,
    runs: String,
}

impl Layers {
    /// The edge to node `i`'s parent, or a root's run number (after restarts).
    fn edge(&mut self, canvas: &Canvas<'_>, i: usize, run: &mut usize, restarts: bool) {
        let (x, y) = canvas.at(i);
        match canvas.nodes[i].parent {
            Some(p) => {
                let (px, py) = canvas.at(p);
                let _ = writeln!(
                    self.edges,
                    r#"<path d="M{}{}L{} {}"/>"#,
                    num(px),
                    sp(py),
                    num(x),
                    num(y)
                );
            }
            None => {
                *run += 1;
                if restarts {
                    let _ = writeln!(
                        self.runs,
                        r#"<text x="{}" y="{}">run {run}</text>"#,
                        num(x),
                        num(y - canvas.r - 6.0)
                    );
                }
            }
        }
    }

    /// The triangle of what is collapsed below node `i`, with its count.
    fn collapsed(&mut self, canvas: &Canvas<'_>, i: usize) {
        let below = canvas.layout.below[i];
        if below.nodes == 0 {
            return;
        }
        let (x, y) = canvas.at(i);
        let half = (canvas.slot * 0.42).max(3.0);
        let bottom = y + LEVEL * 0.6;
        let green = below.solutions > 0;
        let _ = writeln!(
            self.triangles,
            r#"<path d="M{} {}L{}{}h{}Z"{}/>"#,
            num(x),
            num(y),
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
        if canvas.gap_left[i].min(canvas.gap_right[i]) >= 6.0 * text.len() as f64 + 4.0 {
            let _ = writeln!(
                self.counts,
                r#"<text x="{}" y="{}" text-anchor="middle"{colour}>{text}</text>"#,
                num(x),
                num(bottom + 11.0)
            );
        } else {
            // No room across: the count reads downwards.
            let _ = writeln!(
                self.counts,
                r#"<text transform="translate({}{}) rotate(90)"{colour}>{text}</text>"#,
                num(x - 3.0),
                sp(bottom + 4.0)
            );
        }
    }

    /// How many values propagation ruled out before node `i`'s choice: a `✂k`, or a
    /// stub when there is no room.
    fn pruned(&mut self, canvas: &Canvas<'_>, i: usize) {
        let node = &canvas.nodes[i];
        if node.pruned == 0 || node.children == 0 {
            return;
        }
        let ((x, y), r) = (canvas.at(i), canvas.r);
        let text = format!("✂{}", node.pruned);
        if canvas.gap_right[i] >= 6.0 * text.chars().count() as f64 + r + 6.0 {
            let _ = writeln!(
                self.pruned,
                r#"<text x="{}" y="{}">{text}</text>"#,
                num(x + r + 2.0),
                num(y + r + 8.0)
            );
        } else {
            let length = 1.5 * f64::from(node.pruned.min(8)) + 1.0;
            let _ = writeln!(
                self.stubs,
                r#"<path d="M{}{}h{}"/>"#,
                num(x + r),
                sp(y),
                num(length)
            );
        }
    }

    /// Node `i`'s mark, by its outcome.
    fn mark(&mut self, canvas: &Canvas<'_>, i: usize) {
        let ((x, y), r) = (canvas.at(i), canvas.r);
        let (xs, ys) = (num(x), num(y));
        let _ = match canvas.nodes[i].outcome {
            NodeOutcome::Failed => writeln!(
                self.failures,
                r#"<path d="M{}{}l{d} {d}m0 -{d}l-{d} {d}"/>"#,
                num(x - r),
                sp(y - r),
                d = num(2.0 * r)
            ),
            NodeOutcome::Solution => writeln!(
                self.solutions,
                r#"<circle cx="{xs}" cy="{ys}" r="{}"/>"#,
                num(r + 1.0)
            ),
            NodeOutcome::Unfinished => writeln!(
                self.unfinished,
                r#"<circle cx="{xs}" cy="{ys}" r="{}"/>"#,
                num(r)
            ),
            _ => writeln!(
                self.inner,
                r#"<circle cx="{xs}" cy="{ys}" r="{}"/>"#,
                num(r)
            ),
        };
    }

    /// Node `i`'s label, left of it, if there is room.
    fn label(&mut self, canvas: &Canvas<'_>, i: usize, label: &dyn Fn(&TreeNode) -> String) {
        let node = &canvas.nodes[i];
        if node.parent.is_none() {
            return;
        }
        let ((x, y), r) = (canvas.at(i), canvas.r);
        let text: String = label(node).chars().take(LABEL_CHARS).collect();
        let room = 6.0 * text.chars().count() as f64 + r + 4.0;
        if !text.is_empty() && canvas.gap_left[i] >= room {
            let _ = writeln!(
                self.labels,
                r#"<text x="{}" y="{}">{}</text>"#,
                num(x - r - 2.0),
                num(y - r),
                escape(&text)
            );
        }
    }

    /// The layers in drawing order, with the attributes their elements share.
    fn in_order(self) -> [(&'static str, String); 11] {
        [
            (r##"fill="none" stroke="#9a9a9a""##, self.edges),
            (r##"fill="#e4e4e4" stroke="#8a8a8a""##, self.triangles),
            (r##"font-size="9" fill="#555555""##, self.counts),
            (r##"font-size="9" fill="#8a8a8a""##, self.pruned),
            (r##"stroke="#b0b0b0" stroke-width="2""##, self.stubs),
            (r##"fill="#ffffff" stroke="#555555""##, self.inner),
            (
                r##"fill="#ffffff" stroke="#555555" stroke-dasharray="2 2""##,
                self.unfinished,
            ),
            (r##"fill="#22a03a" stroke="#116622""##, self.solutions),
            (r##"stroke="#d02020" stroke-width="2""##, self.failures),
            (
                r##"font-size="10" fill="#333333" text-anchor="end""##,
                self.labels,
            ),
            (
                r##"font-size="10" fill="#555555" text-anchor="middle""##,
                self.runs,
            ),
        ]
    }
}

/// Writes the picture: edges, collapsed subtrees, pruning marks, nodes, then labels.
fn render(
    nodes: &[TreeNode],
    totals: &TreeStats,
    title: &str,
    label: &dyn Fn(&TreeNode) -> String,
) -> String {
    let layout = layout(nodes, DRAWN);
    let (heading, legend) = (heading(title, totals), legend(&layout));
    let canvas = Canvas::new(&layout, nodes, &heading, &legend);
    let mut layers = Layers::default();
    let mut run = 0;
    for &i in &layout.drawn {
        layers.edge(&canvas, i, &mut run, totals.restarts > 0);
        layers.collapsed(&canvas, i);
        layers.pruned(&canvas, i);
        layers.mark(&canvas, i);
        layers.label(&canvas, i, label);
    }
    let layers = layers.in_order();
    let mut svg = String::with_capacity(1024 + layers.iter().map(|(_, e)| e.len()).sum::<usize>());
    let (width, height, left) = (canvas.width, canvas.height, canvas.left);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_are_short() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.25), "12.3");
        assert_eq!(num(-3.5), "-3.5");
        assert_eq!(sp(-3.0), "-3");
        assert_eq!(sp(4.0), " 4");
    }
}
