//! The search tree built from an engine's events: its totals against the search's own
//! statistics on both engines, its stored nodes, and its SVG picture (a snapshot, well
//! formed XML, bounded size on a large search).

use ambsolve::{Checking, Engine, NodeOutcome, Puzzle, SearchTree, Strategy, Summary};
use ambsolve_examples::puzzles::queens::queens;
use ambsolve_examples::svg;

/// Counts `puzzle`'s solutions while a tree (storing at most `limit` nodes) watches.
fn grow(puzzle: Puzzle<'static, Vec<usize>>, limit: usize) -> (SearchTree, Summary) {
    let tree = SearchTree::with_limit(limit);
    let summary = puzzle
        .observe(tree.clone())
        .count()
        .expect("the search runs");
    (tree, summary)
}

/// n-queens generate-and-test: every row chosen, checked at the leaves.
fn naive(n: usize, engine: Engine) -> Puzzle<'static, Vec<usize>> {
    queens(n).engine(engine).checking(Checking::AtEnd)
}

/// Labels nodes with 1-based columns, as the sources print them.
fn column(node: &ambsolve::TreeNode) -> String {
    (node.value + 1).to_string()
}

/// Checks the trail engine's relation: one node per decision.
fn assert_trail_totals(tree: &SearchTree, summary: &Summary) {
    let totals = tree.stats();
    let stats = summary.stats;
    assert_eq!(totals.nodes, stats.nodes);
    assert_eq!(totals.failures, stats.failures);
    assert_eq!(totals.solutions, stats.solutions);
    assert_eq!(u64::from(totals.max_depth), stats.max_depth);
    assert_eq!(totals.runs, 0);
}

/// Checks the replay engine's relation: `stats.nodes` counts new choice frames (each
/// frame's first alternative); every run after the first starts by advancing a recorded
/// choice to its next alternative, a node too. So the tree has `nodes + runs - 1` nodes.
fn assert_replay_totals(tree: &SearchTree, summary: &Summary) {
    let totals = tree.stats();
    let stats = summary.stats;
    assert_eq!(totals.runs, stats.runs);
    assert_eq!(totals.nodes, stats.nodes + stats.runs - 1);
    assert_eq!(totals.failures, stats.failures);
    assert_eq!(totals.solutions, stats.solutions);
    // Every run ends in a failure or a solution.
    assert_eq!(stats.runs, stats.failures + stats.solutions);
    assert_eq!(u64::from(totals.max_depth), stats.max_depth);
}

/// The stored nodes agree with the totals when nothing is folded: one stored node per
/// node tried plus the roots, and the outcomes add up.
fn assert_whole(tree: &SearchTree) {
    let totals = tree.stats();
    let nodes = tree.nodes();
    assert_eq!(totals.stored_depth, None);
    let roots = nodes.iter().filter(|n| n.parent.is_none()).count() as u64;
    assert_eq!(roots, 1 + totals.restarts);
    assert_eq!(nodes.len() as u64, totals.nodes + roots);
    let count = |o: NodeOutcome| nodes.iter().filter(|n| n.outcome == o).count() as u64;
    assert_eq!(count(NodeOutcome::Failed), totals.failures);
    assert_eq!(count(NodeOutcome::Solution), totals.solutions);
    assert_eq!(count(NodeOutcome::Unfinished), 0);
    for (i, node) in nodes.iter().enumerate() {
        let children = nodes.iter().filter(|c| c.parent == Some(i)).count() as u32;
        assert_eq!(node.children, children, "node {i}");
        assert_eq!(node.folded_nodes, 0);
        if let Some(p) = node.parent {
            assert_eq!(nodes[p].depth + 1, node.depth);
            assert!(p < i, "a parent comes first");
        }
    }
}

#[test]
fn four_queens_trail_tree_matches_the_stats() {
    let (tree, summary) = grow(queens(4), 20_000);
    assert_eq!(summary.solutions, 2);
    assert_trail_totals(&tree, &summary);
    assert_whole(&tree);
    // Propagation prunes: some choice below the first row had fewer than 4 columns.
    assert!(tree.nodes().iter().any(|n| n.pruned > 0));
}

#[test]
fn a_refuting_search_tree_matches_the_stats() {
    // Refuted values propagated: a choice closed by its refutation is no node.
    for n in [4, 6] {
        let refuting = Strategy::new().propagate_refutations(true);
        let (tree, summary) = grow(queens(n).strategy(refuting), 20_000);
        let plain = queens(n).count().unwrap();
        assert_eq!(summary.solutions, plain.solutions);
        assert!(
            summary.stats.nodes < plain.stats.nodes,
            "{n}: no value skipped"
        );
        assert_trail_totals(&tree, &summary);
        assert_whole(&tree);
    }
}

#[test]
fn four_queens_replay_tree_matches_the_stats() {
    let (tree, summary) = grow(queens(4).engine(Engine::Replay), 20_000);
    assert_eq!(summary.solutions, 2);
    assert_replay_totals(&tree, &summary);
    assert_whole(&tree);
    // The replay engine reports the values its checks ruled out before each choice.
    assert!(tree.nodes().iter().any(|n| n.pruned > 0));
}

#[test]
fn four_queens_generate_and_test_trees_match_the_stats_on_both_engines() {
    let (trail, summary) = grow(naive(4, Engine::Trail), 20_000);
    assert_eq!(summary.solutions, 2);
    assert_trail_totals(&trail, &summary);
    assert_whole(&trail);
    // Every row, every column: 4 + 16 + 64 + 256 nodes, the 256 leaves tested.
    assert_eq!(trail.stats().nodes, 340);
    assert_eq!(trail.stats().failures, 254);

    let (replay, summary) = grow(naive(4, Engine::Replay), 20_000);
    assert_eq!(summary.solutions, 2);
    assert_replay_totals(&replay, &summary);
    assert_whole(&replay);
    // The same tree, node for node.
    let shape = |t: &SearchTree| {
        t.nodes()
            .iter()
            .map(|n| (n.parent, n.depth, n.index, n.value, n.outcome, n.children))
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(&trail), shape(&replay));
}

#[test]
fn four_queens_trail_tree_picture() {
    let (tree, _) = grow(queens(4), 20_000);
    let svg = svg::tree_with(&tree, "4-queens, trail engine", column);
    well_formed(&svg);
    insta::assert_snapshot!("four_queens_trail_tree", svg);
}

#[test]
fn a_large_generate_and_test_tree_is_folded_and_its_picture_bounded() {
    // 6-queens generate-and-test: 6 + 36 + ... + 6^6 = 55,986 nodes.
    let (tree, summary) = grow(naive(6, Engine::Trail), 20_000);
    assert_eq!(summary.solutions, 4);
    assert_trail_totals(&tree, &summary);
    let totals = tree.stats();
    assert_eq!(totals.nodes, 55_986);
    assert!(totals.stored <= 20_000);
    // Depths 0..=5 hold 9,331 nodes: they fit in half the store, depth 6 does not.
    assert_eq!(totals.stored_depth, Some(5));
    // What is stored plus what is folded is the whole tree, outcomes included.
    let nodes = tree.nodes();
    let folded: u64 = nodes.iter().map(|n| n.folded_nodes).sum();
    assert_eq!(nodes.len() as u64 - 1 + folded, totals.nodes);
    let failures = nodes
        .iter()
        .filter(|n| n.outcome == NodeOutcome::Failed)
        .count() as u64
        + nodes.iter().map(|n| n.folded_failures).sum::<u64>();
    assert_eq!(failures, totals.failures);
    let solutions: u64 = nodes.iter().map(|n| n.folded_solutions).sum();
    assert_eq!(solutions, 4);

    let svg = svg::tree_with(&tree, "6-queens, generate and test", column);
    well_formed(&svg);
    assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
    let title = svg
        .lines()
        .find(|l| l.contains("nodes 5"))
        .unwrap_or_default();
    assert!(
        title.contains("nodes 55986, failures 46652, solutions 4, max depth 6"),
        "{title}"
    );
    // Drawn down to depth 4 (1,555 nodes; depth 5 would pass the display budget), each
    // depth-4 node over a triangle of its 6 + 36 nodes, the 4 solutions in green ones.
    assert!(svg.contains("subtree below depth 4"));
    assert_eq!(svg.matches("Z\"").count(), 1_296);
    let green = svg.matches("Z\" fill=\"#bfe8c6\"").count();
    assert!((1..=4).contains(&green), "{green} triangles with solutions");
    assert_eq!(svg.matches(">42<").count(), 1_296 - green);
    assert_eq!(svg.matches(">42 (").count(), green);
}

#[test]
fn a_tiny_store_folds_everything_but_the_totals_stay_exact() {
    for limit in [1, 2, 7, 50] {
        let (tree, summary) = grow(naive(4, Engine::Replay), limit);
        assert_replay_totals(&tree, &summary);
        let nodes = tree.nodes();
        assert!(nodes.len() <= limit.max(1));
        let folded: u64 = nodes.iter().map(|n| n.folded_nodes).sum();
        assert_eq!(nodes.len() as u64 - 1 + folded, 340);
        well_formed(&svg::tree(&tree, "tiny"));
    }
}

#[test]
fn titles_are_escaped() {
    let (tree, _) = grow(queens(4), 100);
    let svg = svg::tree(&tree, "a <b> & \"c\"");
    well_formed(&svg);
    assert!(svg.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
}

/// A small XML well-formedness check: tags balance, attributes are quoted, `&` starts a
/// known entity, no `<` in text.
fn well_formed(svg: &str) {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = svg;
    let mut roots = 0;
    while let Some(at) = rest.find('<') {
        check_text(&rest[..at]);
        let end = rest[at..].find('>').expect("a tag ends") + at;
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name.trim()), "closing </{name}>");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attributes) = tag.split_once(' ').unwrap_or((tag, ""));
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()),
            "tag name {name:?}"
        );
        check_attributes(attributes);
        if open.is_empty() {
            roots += 1;
        }
        if !self_closing {
            open.push(name);
        }
    }
    check_text(rest);
    assert!(open.is_empty(), "unclosed {open:?}");
    assert_eq!(roots, 1, "one root element");
}

/// `name="value"` pairs, the values escaped.
fn check_attributes(mut text: &str) {
    loop {
        text = text.trim_start();
        if text.is_empty() {
            return;
        }
        let eq = text.find("=\"").expect("name=\"value\"");
        let name = &text[..eq];
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':'),
            "attribute {name:?}"
        );
        let value_end = text[eq + 2..].find('"').expect("a closing quote") + eq + 2;
        check_text(&text[eq + 2..value_end]);
        text = &text[value_end + 1..];
    }
}

/// Text with no `<` and only known entities.
fn check_text(text: &str) {
    assert!(!text.contains('<'));
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        let entity = &rest[at..];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                .iter()
                .any(|e| entity.starts_with(e)),
            "entity at {entity:.10}"
        );
        rest = &rest[at + 1..];
    }
}

#[test]
fn eight_queens_generate_and_test_picture_is_bounded() {
    // 8 + 64 + ... + 8^8 = 19,173,960 nodes, every leaf tested.
    let (tree, summary) = grow(naive(8, Engine::Trail), 20_000);
    assert_eq!(summary.solutions, 92);
    assert_trail_totals(&tree, &summary);
    let totals = tree.stats();
    assert_eq!(totals.nodes, 19_173_960);
    assert_eq!(totals.failures, 16_777_216 - 92);
    // Depths 0..=4 (4,681 nodes) fit in half the store; depth 5 would not.
    assert_eq!(totals.stored, 4_681);
    assert_eq!(totals.stored_depth, Some(4));
    let svg = svg::tree_with(&tree, "8-queens, generate and test", column);
    well_formed(&svg);
    assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
    assert!(svg.contains("nodes 19173960, failures 16777124, solutions 92, max depth 8"));
    // Drawn to depth 3 (585 nodes), each depth-3 node over a triangle of 37,448 nodes.
    assert_eq!(svg.matches("Z\"").count(), 512);
    assert_eq!(svg.matches(">37448").count(), 512);
}
