//! `circuit` and `subcircuit` over successor variables: all different by a matching, no
//! cycle of fixed edges shorter than the tour may be, and only edges within one strongly
//! connected component of the graph left.
//!
//! The successors are read as a matrix of nodes (row `i`: the nodes `succ[i]` may still
//! point to), reasoned on to a fixpoint, and the values lost written back:
//! - all different, domain consistent ([`Matching`]);
//! - a chain of fixed edges `a → .. → b` shorter than the tour may not close: `b` loses
//!   `a` (for a subcircuit, when some node outside the chain must be in); a cycle of fixed
//!   edges is the whole tour, or fails (for a subcircuit it leaves every other node out);
//! - the edges left must join the tour's nodes in one strongly connected component: a
//!   circuit whose graph is not strongly connected fails; a subcircuit loses every edge
//!   between two components, and once some node must be in, every node outside its
//!   component is left out.

use crate::choice::Fail;
use crate::model::Circuit;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::tours::matching::Matching;
use crate::propagators::tours::rows::{Rows, read_row_from, write_row};
use crate::propagators::tours::scc::Scc;
use crate::propagators::view::IntView;
use crate::store::Store;
use crate::var::VarId;

const NONE: u32 = u32::MAX;

pub(crate) struct CircuitProp {
    succ: Vec<IntView>,
    offset: i64,
    sub: bool,
    /// Some variable stands at two positions: a value removed at one may go at the other,
    /// so the domains are read again after a change.
    shared: bool,
    scope: Vec<VarId>,
    /// Every row, `0..n`, for the matching.
    all: Vec<usize>,
    dom: Rows,
    before: Rows,
    /// The rows as the last propagation left them: read again unchanged, they are at the
    /// fixpoint of every rule (the propagator woken by its own changes has nothing to do).
    last: Rows,
    matching: Matching,
    scc: Scc,
    /// The fixed successor (not itself) and predecessor of each node, and a mark per node
    /// (the chain or cycle it was last seen on).
    succ_fixed: Vec<u32>,
    pred: Vec<u32>,
    mark: Vec<u32>,
}

impl CircuitProp {
    pub(crate) fn new(def: &Circuit) -> Self {
        let n = def.succ.len();
        let mut vars = def.vars.clone();
        vars.sort_unstable();
        vars.dedup();
        CircuitProp {
            succ: def.succ.iter().map(IntView::new).collect(),
            offset: def.offset,
            sub: def.sub,
            shared: vars.len() < def.vars.len(),
            scope: def.vars.clone(),
            all: (0..n).collect(),
            dom: Rows::new(n, n),
            before: Rows::new(n, n),
            last: Rows::new(0, 0),
            matching: Matching::default(),
            scc: Scc::default(),
            succ_fixed: vec![NONE; n],
            pred: vec![NONE; n],
            mark: vec![0; n],
        }
    }

    /// Reads every row; a value outside the nodes (or, for a circuit, a node's own) is
    /// removed from the store first. Returns whether the store changed.
    fn read(&mut self, store: &mut Store) -> Result<bool, Fail> {
        let n = self.succ.len();
        let last = i128::from(self.offset) + n as i128 - 1;
        let (offset, mut changed) = (self.offset, false);
        for (i, view) in self.succ.iter().enumerate() {
            let outside = read_row_from(view, store, offset, &mut self.dom, i)?;
            let own = !self.sub && self.dom.has(i, i);
            if outside || own {
                view.keep_within(store, i128::from(self.offset), last)?;
                if own {
                    view.remove(store, i128::from(self.offset) + i as i128)?;
                }
                read_row_from(view, store, offset, &mut self.dom, i)?;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// The node `i` surely points to, if it is fixed and not to itself (as [`chains`]
    /// found it).
    ///
    /// [`chains`]: CircuitProp::chains
    fn fixed_next(&self, i: usize) -> Option<usize> {
        let j = self.succ_fixed[i];
        (j != NONE).then_some(j as usize)
    }

    /// Whether node `k` must be in the tour (cannot point to itself).
    fn forced(&self, k: usize) -> bool {
        !self.dom.has(k, k)
    }

    /// Leaves node `k` out of a subcircuit: it points to itself. Returns whether its row
    /// changed.
    fn leave_out(&mut self, k: usize) -> Result<bool, Fail> {
        if self.forced(k) {
            return Err(Fail);
        }
        let changed = self.dom.count(k) > 1;
        self.dom.clear(k);
        self.dom.set(k, k);
        Ok(changed)
    }

    /// Chains and cycles of fixed edges. Returns whether a row changed.
    fn chains(&mut self) -> Result<bool, Fail> {
        let n = self.succ.len();
        self.pred.fill(NONE);
        self.mark.fill(0);
        for i in 0..n {
            self.succ_fixed[i] = match self.dom.single(i) {
                Some(j) if j != i => {
                    self.pred[j] = i as u32;
                    j as u32
                }
                _ => NONE,
            };
        }
        let forced_total = (0..n).filter(|&k| self.forced(k)).count();
        let mut changed = false;
        let mut label = 0u32;
        // Chains a → .. → b, from each node with a fixed successor and no fixed predecessor.
        for a in 0..n {
            if self.pred[a] != NONE || self.fixed_next(a).is_none() {
                continue;
            }
            label += 1;
            let (mut b, mut length, mut forced_in) = (a, 1, 0);
            self.mark[a] = label;
            forced_in += usize::from(self.forced(a));
            while let Some(j) = self.fixed_next(b) {
                if self.mark[j] == label || length > n {
                    return Err(Fail);
                }
                b = j;
                self.mark[b] = label;
                length += 1;
                forced_in += usize::from(self.forced(b));
            }
            let must_stay_open = if self.sub {
                forced_total > forced_in
            } else {
                length < n
            };
            if must_stay_open {
                changed |= self.dom.unset(b, a);
            }
        }
        // What is left with a fixed successor lies on a cycle of fixed edges.
        for start in 0..n {
            if self.mark[start] != 0 || self.fixed_next(start).is_none() {
                continue;
            }
            label += 1;
            let (mut at, mut length) = (start, 0);
            while self.mark[at] == 0 {
                self.mark[at] = label;
                length += 1;
                match self.fixed_next(at) {
                    Some(j) => at = j,
                    None => return Err(Fail),
                }
            }
            if !self.sub {
                if length < n {
                    return Err(Fail);
                }
                continue;
            }
            for k in 0..n {
                if self.mark[k] != label {
                    changed |= self.leave_out(k)?;
                }
            }
        }
        Ok(changed)
    }

    /// Strongly connected components of the graph of the edges left (a node's edge to
    /// itself left out). Returns whether a row changed.
    fn components(&mut self) -> Result<bool, Fail> {
        let n = self.succ.len();
        let dom = &self.dom;
        let count = self.scc.run(n, |i, at| {
            let mut j = dom.next(i, *at)?;
            if j == i {
                j = dom.next(i, i + 1)?;
            }
            *at = j + 1;
            Some(j)
        });
        if !self.sub {
            return if count > 1 { Err(Fail) } else { Ok(false) };
        }
        let component = &self.scc.component;
        let mut changed = false;
        for i in 0..n {
            let mut at = 0;
            while let Some(j) = self.dom.next(i, at) {
                at = j + 1;
                if j != i && component[i] != component[j] {
                    self.dom.unset(i, j);
                    changed = true;
                }
            }
        }
        let mut inside = None;
        for k in 0..n {
            if self.forced(k) {
                match inside {
                    None => inside = Some(self.scc.component[k]),
                    Some(c) if c != self.scc.component[k] => return Err(Fail),
                    Some(_) => {}
                }
            }
        }
        if let Some(c) = inside {
            for k in 0..n {
                if self.scc.component[k] != c {
                    changed |= self.leave_out(k)?;
                }
            }
        }
        Ok(changed)
    }

    /// Every rule, to a fixpoint, on the rows.
    fn reason(&mut self) -> Result<(), Fail> {
        loop {
            let mut changed = self.matching.prune(&mut self.dom, &self.all)?;
            changed |= self.chains()?;
            changed |= self.components()?;
            if !changed {
                return Ok(());
            }
        }
    }
}

impl<'a> Kind<'a> for Circuit {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(CircuitProp::new(self))
    }
}

impl BuiltinPropagator for CircuitProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        if self.succ.is_empty() {
            return Ok(());
        }
        loop {
            if self.read(store)? && self.shared {
                continue;
            }
            if self.dom == self.last {
                return Ok(());
            }
            self.before.clone_from(&self.dom);
            self.reason()?;
            let (offset, mut changed) = (i128::from(self.offset), false);
            for (i, view) in self.succ.iter().enumerate() {
                let value = |c| offset + c as i128;
                changed |= write_row(view, store, &self.before, &self.dom, i, value)?;
            }
            if !(changed && self.shared) {
                self.last.clone_from(&self.dom);
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    /// `n` successor items over nodes numbered from `offset`: ranges that may reach past
    /// the nodes, constants, value lists that repeat and mix, and variables used twice.
    pub(in crate::propagators::tours) fn successors(
        m: &mut Model<'static>,
        rng: &mut Rng,
        n: usize,
        offset: i64,
    ) -> Vec<IntArg> {
        let mut items: Vec<IntArg> = Vec::new();
        for _ in 0..n {
            let item = match rng.below(10) {
                0 => IntArg::from(offset + rng.below(n as u64 + 2) as i64 - 1),
                1 => IntArg::from(&m.var([offset + 2, offset, offset, offset + n as i64])),
                2 if !items.is_empty() => items[rng.below(items.len() as u64) as usize].clone(),
                3 => IntArg::from(&m.var([offset + 1, offset - 1])),
                _ => {
                    let low = offset - 1 + rng.below(2) as i64;
                    let high = offset + n as i64 - rng.below(2) as i64;
                    IntArg::from(&m.var(low..=high))
                }
            };
            items.push(item);
        }
        items
    }

    #[test]
    fn circuits_agree_with_their_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let n = rng.below(6) as usize;
            let offset = [0, 1, -2, 5][rng.below(4) as usize];
            let succ = successors(&mut m, rng, n, offset);
            match offset {
                0 => m.circuit(succ),
                _ => m.circuit_offset(succ, offset),
            }
            m
        });
    }

    #[test]
    fn subcircuits_agree_with_their_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let n = rng.below(6) as usize;
            let offset = [0, 1, -2, 5][rng.below(4) as usize];
            let succ = successors(&mut m, rng, n, offset);
            match offset {
                0 => m.subcircuit(succ),
                _ => m.subcircuit_offset(succ, offset),
            }
            m
        });
    }
}

/// What the rules remove at once, beyond what the fuzz test (correctness only) can see.
#[cfg(test)]
mod strength {
    use crate::model::Model;
    use crate::propagators::tours::tests::propagated;

    /// `n` successors, `succ[i]` over the nodes `allowed(i)` (values `0..n` otherwise).
    fn tour(n: usize, sub: bool, allowed: impl Fn(usize) -> Vec<i64>) -> Model<'static> {
        let mut m = Model::new();
        let succ: Vec<_> = (0..n).map(|_| m.var(0..n as i64)).collect();
        for (i, s) in succ.iter().enumerate() {
            let keep = allowed(i);
            m.restrict(s, |v| keep.contains(v));
        }
        if sub {
            m.subcircuit(&succ);
        } else {
            m.circuit(&succ);
        }
        m
    }

    #[test]
    fn a_chain_of_fixed_edges_is_not_closed_early() {
        // 0 → 1 → 2 fixed: 2 may not go back to 0 (a matching alone would allow it:
        // 2 → 0, 3 → 4, 4 → 3).
        let m = tour(5, false, |i| match i {
            0 => vec![1],
            1 => vec![2],
            2 => vec![0, 3, 4],
            3 => vec![0, 4],
            _ => vec![0, 3],
        });
        assert_eq!(propagated(&m).unwrap()[2], [3, 4]);
    }

    #[test]
    fn values_that_are_no_node_are_removed() {
        // Over nodes 1..=3: a range reaching past them (read a word at a time), and a list
        // in no order.
        let mut m = Model::new();
        let a = m.var(1..=4i64);
        m.restrict(&a, |&v| v != 1);
        let b = m.var([4i64, 3, -1, 1, 3]);
        let c = m.var(1..=3i64);
        m.circuit_offset([&a, &b, &c], 1);
        let left = propagated(&m).unwrap();
        assert_eq!(left[0], [1, 2]); // a: 2 or 3 (not 1, its own, nor 4)
        assert_eq!(left[1], [1, 3, 4]); // b: 3 (listed twice) or 1, not 4 or -1
        assert_eq!(left[2], [0, 1]); // c: 1 or 2
    }

    #[test]
    fn values_that_no_matching_uses_are_removed() {
        // 0 and 1 take 2 and 3 between them: 2 and 3 go to 0 and 1.
        let m = tour(4, false, |i| match i {
            0 | 1 => vec![2, 3],
            _ => vec![0, 1, 2, 3],
        });
        let left = propagated(&m).unwrap();
        assert_eq!(left[2], [0, 1]);
        assert_eq!(left[3], [0, 1]);
    }

    #[test]
    fn a_circuit_over_two_separate_parts_fails_at_once() {
        // Nodes 0..3 and 3..6 with no edge between them.
        let m = tour(6, false, |i| {
            let base = (i / 3 * 3) as i64;
            (base..base + 3).collect()
        });
        assert!(propagated(&m).is_err());
    }

    #[test]
    fn a_subcircuit_keeps_to_the_part_of_the_nodes_that_must_be_in() {
        // Nodes 0..3 and 3..6, no edge between them; node 0 must be in: 3, 4, 5 are out.
        let m = tour(6, true, |i| {
            let base = (i / 3 * 3) as i64;
            (base..base + 3).filter(|&j| i != 0 || j != 0).collect()
        });
        let left = propagated(&m).unwrap();
        assert_eq!(left[0], [1, 2]);
        assert_eq!(left[3..], [vec![3], vec![4], vec![5]]);
        // With 3 forced in too, no single cycle can hold both.
        let m = tour(6, true, |i| {
            let base = (i / 3 * 3) as i64;
            (base..base + 3)
                .filter(|&j| !(i == 0 && j == 0 || i == 3 && j == 3))
                .collect()
        });
        assert!(propagated(&m).is_err());
    }

    #[test]
    fn a_subcircuit_edge_between_two_parts_is_removed() {
        // 0 → 1 → 0 and 2 → 3 → 2 possible, and an edge 1 → 2 that no cycle uses.
        let m = tour(4, true, |i| match i {
            0 => vec![0, 1],
            1 => vec![0, 1, 2],
            2 => vec![2, 3],
            _ => vec![2, 3],
        });
        assert_eq!(propagated(&m).unwrap()[1], [0, 1]);
    }

    #[test]
    fn a_subcircuit_chain_is_not_closed_while_a_node_outside_must_be_in() {
        // 0 → 1 fixed, node 2 must be in: 1 may not go back to 0 (a matching alone would
        // allow it: 1 → 0, 2 → 3, 3 → 2).
        let m = tour(4, true, |i| match i {
            0 => vec![1],
            1 => vec![0, 1, 2, 3],
            2 => vec![0, 3],
            _ => vec![0, 2, 3],
        });
        assert_eq!(propagated(&m).unwrap()[1], [2, 3]);
        // A fixed cycle 0 → 1 → 0 leaves the others out.
        let m = tour(4, true, |i| match i {
            0 => vec![1],
            1 => vec![0],
            _ => vec![0, 1, 2, 3],
        });
        assert_eq!(propagated(&m).unwrap()[2..], [vec![2], vec![3]]);
    }
}
