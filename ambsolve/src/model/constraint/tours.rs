//! Tours and permutations: circuits and subcircuits of successors, inverse functions, and
//! all-different except one value.
//!
//! Its `Model` methods: tours and permutations: circuits, subcircuits, inverse functions and
//! all-different except one value.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{Constraint, Int, IntArg, Meaning, vars_of};
use crate::var::VarId;

/// `succ[i]` is the node after node `i` (nodes numbered from `offset`): the successors
/// form one cycle through every node (`circuit`), or (`subcircuit`) the nodes with
/// `succ[i] != i` form one cycle and the others point to themselves.
///
/// As MiniZinc's `circuit` and `subcircuit`: every successor is one of the nodes; a
/// circuit never has `succ[i] == i` (one node alone is no circuit), a subcircuit's cycle
/// has at least two nodes or none; over no node both hold.
pub(crate) struct Circuit {
    pub(crate) succ: Vec<Int>,
    pub(crate) offset: i64,
    /// A subcircuit: nodes may stay out, pointing to themselves.
    pub(crate) sub: bool,
    pub(crate) vars: Vec<VarId>,
}

impl Circuit {
    pub(crate) fn new(succ: Vec<Int>, offset: i64, sub: bool) -> Self {
        let vars = vars_of(&succ);
        Circuit {
            succ,
            offset,
            sub,
            vars,
        }
    }

    /// The node each node points to, or `None` if one points outside the nodes.
    fn successors(&self, values: &[u32]) -> Option<Vec<usize>> {
        let n = self.succ.len() as i128;
        self.succ
            .iter()
            .map(|s| {
                let node = i128::from(s.value(values)) - i128::from(self.offset);
                (0..n).contains(&node).then_some(node as usize)
            })
            .collect()
    }
}

/// Whether following `next` from `start` comes back to `start` after exactly `length`
/// steps and not before (then the nodes met are `length` distinct ones).
fn cycle_through(next: &[usize], start: usize, length: usize) -> bool {
    let mut at = start;
    for step in 1..=length {
        at = next[at];
        if at == start {
            return step == length;
        }
    }
    false
}

impl Meaning for Circuit {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let Some(next) = self.successors(values) else {
            return false;
        };
        if self.sub {
            let inside: Vec<usize> = (0..next.len()).filter(|&i| next[i] != i).collect();
            match inside.first() {
                None => true,
                Some(&start) => cycle_through(&next, start, inside.len()),
            }
        } else {
            next.is_empty() || (next.len() >= 2 && cycle_through(&next, 0, next.len()))
        }
    }

    fn describe(&self) -> String {
        let succ: Vec<String> = self.succ.iter().map(Int::describe).collect();
        let word = if self.sub { "subcircuit" } else { "circuit" };
        format!(
            "{word} of nodes numbered from {} [{}]",
            self.offset,
            succ.join(", ")
        )
    }
}

/// `f[i] == j` exactly when `g[j] == i`, positions of `f` numbered from `f_offset` and of
/// `g` from `g_offset` (MiniZinc's `inverse` over index sets starting there): every value
/// of `f` is a position of `g` and every value of `g` a position of `f`.
pub(crate) struct Inverse {
    pub(crate) f: Vec<Int>,
    pub(crate) f_offset: i64,
    pub(crate) g: Vec<Int>,
    pub(crate) g_offset: i64,
    pub(crate) vars: Vec<VarId>,
}

impl Inverse {
    pub(crate) fn new(f: Vec<Int>, f_offset: i64, g: Vec<Int>, g_offset: i64) -> Self {
        let vars = vars_of(f.iter().chain(&g));
        Inverse {
            f,
            f_offset,
            g,
            g_offset,
            vars,
        }
    }
}

/// Whether `from[i]` names a position `j` of `to` (numbered from `to_offset`) such that
/// `to[j]` names `i` back (positions of `from` numbered from `from_offset`), for every `i`.
fn inverts(from: &[Int], from_offset: i64, to: &[Int], to_offset: i64, values: &[u32]) -> bool {
    from.iter().enumerate().all(|(i, x)| {
        let j = i128::from(x.value(values)) - i128::from(to_offset);
        (0..to.len() as i128).contains(&j)
            && i128::from(to[j as usize].value(values)) - i128::from(from_offset) == i as i128
    })
}

impl Meaning for Inverse {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        inverts(&self.f, self.f_offset, &self.g, self.g_offset, values)
            && inverts(&self.g, self.g_offset, &self.f, self.f_offset, values)
    }

    fn describe(&self) -> String {
        let f: Vec<String> = self.f.iter().map(Int::describe).collect();
        let g: Vec<String> = self.g.iter().map(Int::describe).collect();
        format!(
            "inverse of [{}] numbered from {} and [{}] numbered from {}",
            f.join(", "),
            self.f_offset,
            g.join(", "),
            self.g_offset
        )
    }
}

/// The items other than `value` are pairwise different (`value` may repeat).
pub(crate) struct AllDifferentExcept {
    pub(crate) items: Vec<Int>,
    pub(crate) value: i64,
    pub(crate) vars: Vec<VarId>,
}

impl AllDifferentExcept {
    pub(crate) fn new(items: Vec<Int>, value: i64) -> Self {
        let vars = vars_of(&items);
        AllDifferentExcept { items, value, vars }
    }
}

impl Meaning for AllDifferentExcept {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let mut taken: Vec<i64> = self
            .items
            .iter()
            .map(|x| x.value(values))
            .filter(|&v| v != self.value)
            .collect();
        taken.sort_unstable();
        taken.windows(2).all(|w| w[0] != w[1])
    }

    fn describe(&self) -> String {
        let items: Vec<String> = self.items.iter().map(Int::describe).collect();
        format!("all different except {} [{}]", self.value, items.join(", "))
    }
}

impl<'a> Model<'a> {
    /// `succ[i]` is the node that follows node `i` on one cycle through all the nodes
    /// `0..n` (a Hamiltonian circuit; `n` is the number of items). Items are variables with
    /// integer values or constants (see [`IntArg`]); values outside `0..n` are never taken.
    ///
    /// As MiniZinc's `circuit`: no node follows itself, so one node alone has no circuit
    /// (and no node at all has one, the empty one).
    ///
    /// The trail engine keeps the successors all different (domain consistent, by a
    /// matching), forbids the edge that would close a chain of fixed edges into a cycle
    /// shorter than `n`, and fails as soon as the edges left cannot join every node into
    /// one strongly connected graph.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // The complete graph on 5 nodes has 4! = 24 directed Hamiltonian cycles.
    /// let mut m = Model::new();
    /// let succ = m.vars("succ", 5, 0..5i64);
    /// m.circuit(&succ);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 24);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 24);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn circuit<A: Into<IntArg>>(&mut self, succ: impl IntoIterator<Item = A>) {
        self.circuit_offset(succ, 0);
    }

    /// [`circuit`](Model::circuit) over nodes numbered from `offset`: `succ[i]` is the
    /// number of the node after node `offset + i` (FlatZinc numbers them from 1).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Nodes 1..=3: the tours 1 → 2 → 3 → 1 and 1 → 3 → 2 → 1.
    /// let mut m = Model::new();
    /// let succ = m.vars("succ", 3, 1..4i64);
    /// m.circuit_offset(&succ, 1);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn circuit_offset<A: Into<IntArg>>(
        &mut self,
        succ: impl IntoIterator<Item = A>,
        offset: i64,
    ) {
        self.tour(succ, offset, false);
    }

    /// The nodes `i` with `succ[i] != i` form one cycle, and the others point to
    /// themselves (they are left out of the tour). As MiniZinc's `subcircuit`: the cycle
    /// has at least two nodes, or there is none (every node points to itself), and every
    /// successor is one of the nodes `0..n`.
    ///
    /// The trail engine propagates it as [`circuit`](Model::circuit) does, over the nodes
    /// that may be in: all different by a matching, no cycle of fixed edges that would
    /// leave out a node that must be in, and only edges within one strongly connected
    /// component of the graph left (a node in no cycle is left out).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Over 4 nodes: the empty tour, 6 of two nodes, 8 of three and 6 of four.
    /// let mut m = Model::new();
    /// let succ = m.vars("succ", 4, 0..4i64);
    /// m.subcircuit(&succ);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 1 + 6 + 8 + 6);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 21);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn subcircuit<A: Into<IntArg>>(&mut self, succ: impl IntoIterator<Item = A>) {
        self.subcircuit_offset(succ, 0);
    }

    /// [`subcircuit`](Model::subcircuit) over nodes numbered from `offset`.
    pub fn subcircuit_offset<A: Into<IntArg>>(
        &mut self,
        succ: impl IntoIterator<Item = A>,
        offset: i64,
    ) {
        self.tour(succ, offset, true);
    }

    fn tour<A: Into<IntArg>>(&mut self, succ: impl IntoIterator<Item = A>, offset: i64, sub: bool) {
        if let Some(succ) = self.ints(succ) {
            self.post(Constraint::Circuit(Arc::new(Circuit::new(
                succ, offset, sub,
            ))));
        }
    }

    /// `f` and `g` are inverse functions: `f[i] == j` exactly when `g[j] == i` (positions
    /// from 0). Every value of `f` is a position of `g` and every value of `g` a position
    /// of `f`, so both are permutations of the same length (or there is no solution).
    ///
    /// The trail engine channels the two (a value of `f[i]` stays only while `g` can point
    /// back to `i`, and the other way) and keeps `f` all different by a matching: domain
    /// consistent.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Each of the 3! permutations has exactly one inverse.
    /// let mut m = Model::new();
    /// let f = m.vars("f", 3, 0..3i64);
    /// let g = m.vars("g", 3, 0..3i64);
    /// m.inverse(&f, &g);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn inverse<A: Into<IntArg>, B: Into<IntArg>>(
        &mut self,
        f: impl IntoIterator<Item = A>,
        g: impl IntoIterator<Item = B>,
    ) {
        self.inverse_offset(f, 0, g, 0);
    }

    /// [`inverse`](Model::inverse) with the positions of `f` numbered from `f_offset` and
    /// those of `g` from `g_offset`, as MiniZinc's `inverse` over arrays indexed from
    /// there: `f[i] == j` exactly when `g[j] == i`, where `f[i]` is the item at position
    /// `i - f_offset` of `f` and `g[j]` the item at position `j - g_offset` of `g`. The
    /// values of `f` are then positions of `g` (from `g_offset`) and those of `g`
    /// positions of `f` (from `f_offset`).
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Arrays indexed from 1, as in FlatZinc: f = [2, 3, 1] has the inverse [3, 1, 2].
    /// let mut m = Model::new();
    /// let g = m.vars("g", 3, 1..4i64);
    /// m.inverse_offset([2, 3, 1], 1, &g, 1);
    /// let found = m.solve(Engine::Trail).first()?.expect("an inverse");
    /// assert_eq!(g.iter().map(|v| *found.value(v)).collect::<Vec<_>>(), [3, 1, 2]);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn inverse_offset<A: Into<IntArg>, B: Into<IntArg>>(
        &mut self,
        f: impl IntoIterator<Item = A>,
        f_offset: i64,
        g: impl IntoIterator<Item = B>,
        g_offset: i64,
    ) {
        let Some(f) = self.ints(f) else {
            return;
        };
        if let Some(g) = self.ints(g) {
            self.post(Constraint::Inverse(Arc::new(Inverse::new(
                f, f_offset, g, g_offset,
            ))));
        }
    }

    /// The items that are not `value` are pairwise different; `value` itself may be taken
    /// by any number of them (`all_different_except(xs, 0)` is MiniZinc's
    /// `alldifferent_except_0`).
    ///
    /// The trail engine is domain consistent: the items that cannot take `value` are kept
    /// all different by a matching, and the others lose every value that all such
    /// matchings take.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// // Two items over 0..3: the 9 pairs but (1, 1) and (2, 2).
    /// let mut m = Model::new();
    /// let x = m.vars("x", 2, 0..3i64);
    /// m.all_different_except(&x, 0);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 7);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn all_different_except<A: Into<IntArg>>(
        &mut self,
        items: impl IntoIterator<Item = A>,
        value: i64,
    ) {
        if let Some(items) = self.ints(items) {
            self.post(Constraint::AllDifferentExcept(Arc::new(
                AllDifferentExcept::new(items, value),
            )));
        }
    }
}
