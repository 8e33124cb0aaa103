//! Graph colouring: give each vertex of a graph one of K colours, the two ends of every
//! edge different. The graphs are random, drawn from a seed, with a hidden K-colouring
//! planted so that one exists: each vertex gets a hidden colour, and edges join only
//! vertices of different hidden colours. The model is the example's,
//! `examples/colouring/model.rs`, included here for the tests and benches.

use std::collections::HashSet;

use ambsolve::CancelFlag;

use super::split_mix::SplitMix;

#[path = "../../examples/colouring/model.rs"]
mod model;

pub use model::*;

/// An undirected graph: vertices `0..vertices`, edges `(a, b)` with `a < b`, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// The number of vertices.
    pub vertices: usize,
    /// The edges, each `(a, b)` with `a < b`.
    pub edges: Vec<(usize, usize)>,
}

impl Graph {
    /// A random graph of `vertices` vertices and about `vertices × degree / 2` edges (the
    /// average degree is `degree`, fewer if there are not enough pairs), drawn from `seed`,
    /// in which a hidden `colours`-colouring is planted (`colours >= 2`): its edges join
    /// only vertices of different hidden colours.
    pub fn planted(vertices: usize, degree: usize, colours: usize, seed: u64) -> Self {
        Self::draw(vertices, degree, colours.max(2), seed, &CancelFlag::new())
    }

    /// [`Graph::planted`], or [`Graph::uniform`] if `planted` is false, drawn until `cancel`
    /// is set (it is read every 65,536 edges): a graph drawn to its end is the same, a
    /// cancelled one has fewer edges (tell by the flag).
    pub fn draw_until(
        (vertices, degree, colours): (usize, usize, usize),
        planted: bool,
        seed: u64,
        cancel: &CancelFlag,
    ) -> Self {
        let colours = if planted { colours.max(2) } else { 1 };
        Self::draw(vertices, degree, colours, seed, cancel)
    }

    /// A random graph of `vertices` vertices and about `vertices × degree / 2` edges,
    /// each pair of vertices as likely as any other, drawn from `seed`. Whether it can be
    /// coloured with K colours is not known in advance (with 4 colours, very likely up to
    /// an average degree of about 8).
    pub fn uniform(vertices: usize, degree: usize, seed: u64) -> Self {
        Self::draw(vertices, degree, 1, seed, &CancelFlag::new())
    }

    /// The number of edges of a graph of `vertices` vertices and average degree `degree`
    /// (fewer if there are not enough pairs), before it is drawn (with or without a planted
    /// colouring, the bound of the uniform graph).
    pub fn edges_of(vertices: usize, degree: usize) -> u64 {
        let all = vertices as u128;
        let pairs = all * all.saturating_sub(1) / 2;
        (all * degree as u128 / 2)
            .min(pairs)
            .try_into()
            .unwrap_or(u64::MAX)
    }

    /// Edges between vertices of different hidden colours among `colours` (any two
    /// different vertices if `colours` is 1), until `cancel` is set.
    fn draw(
        vertices: usize,
        degree: usize,
        colours: usize,
        seed: u64,
        cancel: &CancelFlag,
    ) -> Self {
        let mut rng = SplitMix(seed);
        let hidden: Vec<usize> = (0..vertices)
            .map(|v| if colours > 1 { rng.below(colours) } else { v })
            .collect();
        let colours = if colours > 1 {
            colours
        } else {
            vertices.max(1)
        };
        // Pairs of vertices of different hidden colours, at most.
        let mut per_colour = vec![0u128; colours];
        for &c in &hidden {
            per_colour[c] += 1;
        }
        let all = vertices as u128;
        let same: u128 = per_colour
            .iter()
            .map(|&k| k * k.saturating_sub(1) / 2)
            .sum();
        let pairs = (all * all.saturating_sub(1) / 2).saturating_sub(same);
        let wanted = (vertices as u128 * degree as u128 / 2).min(pairs) as usize;
        let mut seen = HashSet::with_capacity(wanted);
        let mut edges = Vec::with_capacity(wanted);
        while edges.len() < wanted {
            if edges.len() % 65_536 == 0 && cancel.is_cancelled() {
                break;
            }
            let (a, b) = (rng.below(vertices), rng.below(vertices));
            if hidden[a] == hidden[b] {
                continue;
            }
            let edge = (a.min(b), a.max(b));
            if seen.insert(edge) {
                edges.push(edge);
            }
        }
        Graph { vertices, edges }
    }

    /// The first edge whose ends share a colour, or a vertex with a colour out of range
    /// (`(v, v)`), if any: a check of a colouring that knows nothing of the model.
    pub fn clash(&self, colouring: &[usize], colours: usize) -> Option<(usize, usize)> {
        if colouring.len() != self.vertices {
            return Some((colouring.len(), colouring.len()));
        }
        if let Some(v) = colouring.iter().position(|&c| c >= colours) {
            return Some((v, v));
        }
        self.edges
            .iter()
            .copied()
            .find(|&(a, b)| colouring[a] == colouring[b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planted_graphs_are_reproducible_simple_and_colourable() {
        let g = Graph::planted(200, 6, 4, 9);
        assert_eq!(g, Graph::planted(200, 6, 4, 9));
        assert_ne!(g, Graph::planted(200, 6, 4, 10));
        assert_eq!(g.edges.len(), 600);
        let distinct: HashSet<_> = g.edges.iter().collect();
        assert_eq!(distinct.len(), g.edges.len());
        assert!(g.edges.iter().all(|&(a, b)| a < b && b < 200));
    }

    #[test]
    fn drawing_and_building_stop_when_cancelled() {
        let cancel = CancelFlag::new();
        let whole = Graph::draw_until((300, 6, 4), true, 9, &cancel);
        assert_eq!(whole, Graph::planted(300, 6, 4, 9));
        assert_eq!(
            Graph::draw_until((300, 6, 4), false, 9, &cancel),
            Graph::uniform(300, 6, 9)
        );
        assert_eq!(Graph::edges_of(300, 6), 900);
        assert_eq!(Graph::edges_of(3, 10), 3);
        assert_eq!(
            colouring_until(&whole, 4, &cancel)
                .model()
                .num_constraints(),
            900
        );
        cancel.cancel();
        assert!(
            Graph::draw_until((300, 6, 4), true, 9, &cancel)
                .edges
                .is_empty()
        );
        assert_eq!(
            colouring_until(&whole, 4, &cancel)
                .model()
                .num_constraints(),
            0
        );
    }

    #[test]
    fn a_small_graph_has_few_edges_and_clashes_are_found() {
        let g = Graph::planted(3, 10, 3, 1);
        assert!(g.edges.len() <= 3);
        let path = Graph {
            vertices: 3,
            edges: vec![(0, 1), (1, 2)],
        };
        assert_eq!(path.clash(&[0, 1, 0], 2), None);
        assert_eq!(path.clash(&[0, 0, 1], 2), Some((0, 1)));
        assert_eq!(path.clash(&[0, 2, 0], 2), Some((1, 1)));
        assert_eq!(path.clash(&[0, 1], 2), Some((2, 2)));
    }
}
