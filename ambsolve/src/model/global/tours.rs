//! Tours and permutations: circuits and subcircuits of successors, inverse functions, and
//! all-different except one value.

use crate::model::global::{Int, Meaning, vars_of};
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
