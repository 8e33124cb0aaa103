//! Strongly connected components of a directed graph given by a successor function
//! (Tarjan's algorithm, without recursion).

const UNSEEN: u32 = u32::MAX;

/// Scratch space for [`Scc::run`], kept from one propagation to the next.
#[derive(Debug, Default)]
pub(super) struct Scc {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    cursor: Vec<usize>,
    stack: Vec<u32>,
    calls: Vec<u32>,
    /// The component of each node, numbered in the order they are completed.
    pub(super) component: Vec<u32>,
}

impl Scc {
    /// Finds the components of the graph over nodes `0..nodes` whose edges out of `v` are
    /// given one at a time by `next(v, &mut cursor)` (the cursor starts at 0 for each node;
    /// `next` moves it on and gives the next neighbour, or `None` after the last).
    /// Fills [`component`](Scc::component) and returns the number of components.
    pub(super) fn run(
        &mut self,
        nodes: usize,
        mut next: impl FnMut(usize, &mut usize) -> Option<usize>,
    ) -> u32 {
        self.index.clear();
        self.index.resize(nodes, UNSEEN);
        self.low.clear();
        self.low.resize(nodes, 0);
        self.on_stack.clear();
        self.on_stack.resize(nodes, false);
        self.cursor.clear();
        self.cursor.resize(nodes, 0);
        self.component.clear();
        self.component.resize(nodes, UNSEEN);
        self.stack.clear();
        self.calls.clear();
        let (mut counter, mut components) = (0u32, 0u32);
        for root in 0..nodes {
            if self.index[root] != UNSEEN {
                continue;
            }
            self.enter(root, &mut counter);
            while let Some(&v) = self.calls.last() {
                let v = v as usize;
                if let Some(w) = next(v, &mut self.cursor[v]) {
                    if self.index[w] == UNSEEN {
                        self.enter(w, &mut counter);
                    } else if self.on_stack[w] {
                        self.low[v] = self.low[v].min(self.index[w]);
                    }
                    continue;
                }
                self.calls.pop();
                if let Some(&u) = self.calls.last() {
                    let u = u as usize;
                    self.low[u] = self.low[u].min(self.low[v]);
                }
                if self.low[v] == self.index[v] {
                    while let Some(w) = self.stack.pop() {
                        self.on_stack[w as usize] = false;
                        self.component[w as usize] = components;
                        if w as usize == v {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
        components
    }

    fn enter(&mut self, v: usize, counter: &mut u32) {
        self.index[v] = *counter;
        self.low[v] = *counter;
        *counter += 1;
        self.stack.push(v as u32);
        self.on_stack[v] = true;
        self.calls.push(v as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::Scc;

    #[test]
    fn components_of_small_graphs() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 4 → 3, 5 alone.
        let edges: Vec<Vec<usize>> = vec![vec![1], vec![2], vec![0, 3], vec![4], vec![3], vec![]];
        let mut scc = Scc::default();
        let count = scc.run(edges.len(), |v, at| {
            let w = edges[v].get(*at).copied();
            *at += 1;
            w
        });
        assert_eq!(count, 3);
        let c = &scc.component;
        assert!(c[0] == c[1] && c[1] == c[2]);
        assert!(c[3] == c[4] && c[3] != c[0]);
        assert!(c[5] != c[0] && c[5] != c[3]);
    }
}
