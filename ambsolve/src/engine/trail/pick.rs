//! Which variable the trail engine branches on next, and in which order it tries its
//! values: prepared once from the [`Strategy`](crate::Strategy), read at every node.

use super::TrailEngine;
use crate::choice::Frame;
use crate::store::Store;
use crate::strategy::{
    ValueOrder, VarOrder, complete_order, middle_out_index, middle_out_position, order_values,
};
use crate::var::VarId;

/// How the next variable is picked, prepared from a [`VarOrder`].
pub(super) enum VarPick {
    Input,
    FirstFail,
    /// A full order and each variable's position in it.
    Given {
        order: Vec<u32>,
        position: Vec<u32>,
    },
    /// First-fail, ties broken by rank (lower first).
    FirstFailRanked(Vec<u32>),
}

impl VarPick {
    pub(super) fn new(order: &VarOrder, num_vars: usize) -> Self {
        let full_order = |given: &[VarId]| {
            let order: Vec<u32> = complete_order(given, num_vars)
                .into_iter()
                .map(|v| v as u32)
                .collect();
            let mut position = vec![0; num_vars];
            for (p, &v) in order.iter().enumerate() {
                position[v as usize] = p as u32;
            }
            (order, position)
        };
        match order {
            VarOrder::Automatic | VarOrder::Input => VarPick::Input,
            VarOrder::FirstFail => VarPick::FirstFail,
            VarOrder::Given(given) => {
                let (order, position) = full_order(given);
                VarPick::Given { order, position }
            }
            VarOrder::FirstFailThen(given) => VarPick::FirstFailRanked(full_order(given).1),
        }
    }

    /// The variables in the order this pick prefers them when domains tie.
    pub(super) fn ranking(&self, num_vars: usize) -> Vec<usize> {
        match self {
            VarPick::Input | VarPick::FirstFail => (0..num_vars).collect(),
            VarPick::Given { order, .. } => order.iter().map(|&v| v as usize).collect(),
            VarPick::FirstFailRanked(rank) => {
                let mut order: Vec<usize> = (0..num_vars).collect();
                order.sort_by_key(|&v| rank[v]);
                order
            }
        }
    }
}

/// How values are enumerated: straight off the domain bits, or from a list built at the
/// decision (for orders that are not index order).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ValuePick {
    Ascending,
    Descending,
    /// Middle-out, walked straight off the domain.
    MiddleOut,
    Listed,
}

/// The value order and, for listed orders, the candidates of every open frame.
pub(super) struct Values {
    /// The strategy's value order.
    pub(super) order: ValueOrder,
    pub(super) pick: ValuePick,
    /// Listed values: candidates of every open frame, `starts[d]` where frame `d`'s begin.
    pub(super) listed: Vec<u32>,
    pub(super) starts: Vec<u32>,
}

impl Values {
    pub(super) fn new(order: &ValueOrder) -> Self {
        let pick = match order {
            ValueOrder::Ascending => ValuePick::Ascending,
            ValueOrder::Descending => ValuePick::Descending,
            ValueOrder::MiddleOut => ValuePick::MiddleOut,
            _ => ValuePick::Listed,
        };
        Values {
            order: order.clone(),
            pick,
            listed: Vec::new(),
            starts: Vec::new(),
        }
    }
}

impl TrailEngine<'_> {
    /// The next variable to branch on, or `None` when every variable is fixed.
    pub(super) fn select_var(&self) -> Option<usize> {
        let store = &self.store;
        let n = store.num_vars();
        match &self.vars {
            VarPick::Input => {
                let from = self.stack.top().map_or(0, |f| f.var as usize + 1);
                (from..n).find(|&v| !store.is_fixed(v))
            }
            VarPick::Given { order, position } => {
                let from = self
                    .stack
                    .top()
                    .map_or(0, |f| position[f.var as usize] as usize + 1);
                order[from..]
                    .iter()
                    .map(|&v| v as usize)
                    .find(|&v| !store.is_fixed(v))
            }
            VarPick::FirstFail => {
                let mut best: Option<(u32, usize)> = None;
                for v in 0..n {
                    let size = store.size(v);
                    if size > 1 && best.is_none_or(|(s, _)| size < s) {
                        best = Some((size, v));
                        if size == 2 {
                            break;
                        }
                    }
                }
                best.map(|(_, v)| v)
            }
            VarPick::FirstFailRanked(rank) => (0..n)
                .filter(|&v| store.size(v) > 1)
                .min_by_key(|&v| (store.size(v), rank[v])),
        }
    }

    /// Opens a frame on `var` at its first value, without trying it.
    pub(super) fn open(&mut self, var: usize) {
        let mark = self.store.mark();
        let arity = self.store.size(var);
        let value = match self.values.pick {
            ValuePick::Ascending => self.store.min(var),
            ValuePick::Descending => self.store.max(var),
            ValuePick::MiddleOut => self.middle_out_from(var, 0),
            ValuePick::Listed => {
                let start = self.values.listed.len();
                self.values.starts.push(start as u32);
                self.values.listed.extend(self.store.iter(var));
                let order = self.run_value_order();
                let universe = self.store.universe(var);
                order_values(
                    &order,
                    Store::var_id(var),
                    universe,
                    &mut self.values.listed[start..],
                    self.restarts.run,
                );
                self.values.listed.get(start).copied()
            }
        };
        let value = value.expect("a variable picked for branching has values");
        self.stack.push(Frame {
            index: 0,
            arity,
            var: var as u32,
            value,
            mark,
        });
        self.store.set_level(self.stack.len() as u32);
        self.counters.max_depth = self.counters.max_depth.max(self.stack.len() as u64);
    }

    /// The first value of `var`'s domain at or after middle-out position `from`.
    fn middle_out_from(&self, var: usize, from: u32) -> Option<u32> {
        let universe = self.store.universe(var);
        (from..universe)
            .map(|k| middle_out_index(universe, k))
            .find(|&index| self.store.contains(var, index))
    }

    /// The value after the one `top` tries, in the frame's value order, with the store
    /// as it was when the frame was opened.
    pub(super) fn value_after(&self, top: &Frame) -> Option<u32> {
        let var = top.var as usize;
        match self.values.pick {
            ValuePick::Ascending => self.store.next_at_or_after(var, top.value + 1),
            ValuePick::Descending => top
                .value
                .checked_sub(1)
                .and_then(|v| self.store.prev_at_or_before(var, v)),
            ValuePick::MiddleOut => {
                let universe = self.store.universe(var);
                self.middle_out_from(var, middle_out_position(universe, top.value) + 1)
            }
            ValuePick::Listed => {
                let start = *self
                    .values
                    .starts
                    .last()
                    .expect("listed frames have a start") as usize;
                self.values
                    .listed
                    .get(start + top.index as usize + 1)
                    .copied()
            }
        }
    }

    /// Pops the top frame's listed values, if values are listed.
    pub(super) fn drop_listed(&mut self) {
        if self.values.pick == ValuePick::Listed {
            let start = self
                .values
                .starts
                .pop()
                .expect("listed frames have a start");
            self.values.listed.truncate(start as usize);
        }
    }
}
