//! Graph colouring: one of K colours for each vertex of a graph, the two ends of every
//! edge different.

use ambsolve::{CancelFlag, Puzzle, constraints};
use ambsolve_examples::puzzles::colouring::Graph;

/// The puzzle: one colour in `0..colours` per vertex of `graph`, the ends of each edge
/// different. A solution is the colour of each vertex.
pub fn colouring(graph: &Graph, colours: usize) -> Puzzle<'static, Vec<usize>> {
    colouring_until(graph, colours, &CancelFlag::new())
}

/// [`colouring`], built until `cancel` is set (it is read every 65,536 edges): once it is,
/// the model leaves the remaining edges out (tell by the flag; do not search it).
pub fn colouring_until(
    graph: &Graph,
    colours: usize,
    cancel: &CancelFlag,
) -> Puzzle<'static, Vec<usize>> {
    let n = graph.vertices;
    let edges = graph.edges.clone();
    let cancel = cancel.clone();
    let until = |(i, _): &(usize, &(usize, usize))| i % 65_536 != 0 || !cancel.is_cancelled();
    constraints! {
        let c[n] = amb(0..colours);
        for (_, &(a, b)) in edges.iter().enumerate().take_while(until) {
            require c[a] != c[b];
        }
    }
    .map(|s| s.c)
}
