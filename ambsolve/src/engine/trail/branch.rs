//! How the trail engine branches on the variable it picked: on its values in the
//! strategy's order (one alternative a value), or on halves of its domain (two
//! alternatives); each phase of the strategy has its own way.

use super::TrailEngine;
use crate::choice::{Fail, Frame};
use crate::store::Store;
use crate::strategy::{Strategy, ValueOrder, middle_out_index, middle_out_position, order_values};

/// How a frame's alternatives are enumerated: values straight off the domain bits, values
/// from a list built at the decision (for orders that are not index order), or the two
/// halves of the domain.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ValuePick {
    Ascending,
    Descending,
    /// Middle-out, walked straight off the domain.
    MiddleOut,
    Listed,
    /// Two alternatives, `x <= mid` and `x > mid` (mid the frame's value); `true`: the
    /// upper half first.
    Split(bool),
}

impl ValuePick {
    fn of(order: &ValueOrder) -> Self {
        match order {
            ValueOrder::Ascending => ValuePick::Ascending,
            ValueOrder::Descending => ValuePick::Descending,
            ValueOrder::MiddleOut => ValuePick::MiddleOut,
            ValueOrder::Split => ValuePick::Split(false),
            ValueOrder::ReverseSplit => ValuePick::Split(true),
            _ => ValuePick::Listed,
        }
    }
}

/// Each phase's value order and pick (the last: the strategy's own, for the variables no
/// phase lists) and, for listed orders, the candidates of every open listed frame.
pub(super) struct Values {
    pub(super) orders: Vec<ValueOrder>,
    pub(super) picks: Vec<ValuePick>,
    /// Listed values: candidates of every open listed frame, `starts[d]` where the `d`-th
    /// listed frame's begin.
    pub(super) listed: Vec<u32>,
    pub(super) starts: Vec<u32>,
    /// Propagating each refuted value before the next one (binary branching).
    pub(super) refutations: bool,
}

impl Values {
    pub(super) fn new(strategy: &Strategy) -> Self {
        let orders: Vec<ValueOrder> = strategy
            .phases
            .iter()
            .map(|p| p.values.clone())
            .chain([strategy.values.clone()])
            .collect();
        let picks = orders.iter().map(ValuePick::of).collect();
        Values {
            orders,
            picks,
            listed: Vec::new(),
            starts: Vec::new(),
            refutations: strategy.refutations,
        }
    }

    /// After a restart (shuffled), or with hints (the hinted value first), values are
    /// listed whatever the orders; splits stay.
    pub(super) fn list_all(&mut self) {
        self.listed.clear();
        self.starts.clear();
        for pick in &mut self.picks {
            if !matches!(pick, ValuePick::Split(_)) {
                *pick = ValuePick::Listed;
            }
        }
    }
}

impl TrailEngine<'_> {
    /// How `var`'s frames branch, and the phase it belongs to.
    fn pick_of(&self, var: usize) -> (ValuePick, usize) {
        let phase = self.vars.phase_of[var] as usize;
        (self.values.picks[phase], phase)
    }

    /// Opens a frame on `var` at its first alternative, without trying it.
    pub(super) fn open(&mut self, var: usize) {
        let mark = self.store.mark();
        let (pick, phase) = self.pick_of(var);
        let mut arity = self.store.size(var);
        let value = match pick {
            ValuePick::Ascending => self.store.min(var),
            ValuePick::Descending => self.store.max(var),
            ValuePick::MiddleOut => self.middle_out_from(var, 0),
            ValuePick::Split(_) => {
                arity = 2;
                let (low, high) = (self.store.min(var), self.store.max(var));
                low.zip(high).map(|(low, high)| low + (high - low) / 2)
            }
            ValuePick::Listed => {
                let start = self.values.listed.len();
                self.values.starts.push(start as u32);
                self.values.listed.extend(self.store.iter(var));
                let order = self.run_value_order(phase);
                let universe = self.store.universe(var);
                order_values(
                    &order,
                    Store::var_id(var),
                    universe,
                    &mut self.values.listed[start..],
                    self.restarts.run,
                );
                if let Some(hint) = self.hints.get(var).copied().flatten() {
                    let listed = &mut self.values.listed[start..];
                    if let Some(at) = listed.iter().position(|&v| v == hint) {
                        listed[..=at].rotate_right(1);
                    }
                }
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
        self.enter_level();
        self.counters.max_depth = self.counters.max_depth.max(self.stack.len() as u64);
    }

    /// Makes `top`'s alternative true in the store: its variable fixed to its value, or
    /// narrowed to the half of its domain the alternative stands for.
    pub(super) fn apply(&mut self, top: &Frame) -> Result<(), Fail> {
        let var = top.var as usize;
        match self.pick_of(var).0 {
            ValuePick::Split(upper_first) => {
                if (top.index == 0) != upper_first {
                    // x <= mid
                    self.store.remove_range(var, top.value + 1, u32::MAX)
                } else {
                    // x > mid
                    self.store.remove_range(var, 0, top.value)
                }
            }
            _ => self.store.assign(var, top.value),
        }
    }

    /// Refuting the value `top` tried (binary branching): the store back at the frame's
    /// mark, the values tried so far are removed (those before the next in the value
    /// order, or the one tried) and the model propagated; the frame's mark moves past
    /// these removals, which hold for the rest of its values. Does nothing unless the
    /// strategy asks for it, nor for a split (already binary), nor when generating and
    /// testing (nothing is propagated then).
    ///
    /// The removals are made at the frame's refutation level, below the level of its
    /// alternatives (see [`TrailEngine::enter_level`]), so that undoing an alternative
    /// to the moved mark restores every cell it changed.
    pub(super) fn refute(&mut self, top: &Frame) -> Result<(), Fail> {
        let var = top.var as usize;
        let pick = self.pick_of(var).0;
        if !self.values.refutations || self.at_end || matches!(pick, ValuePick::Split(_)) {
            return Ok(());
        }
        let depth = self.stack.len() as u32;
        self.store.set_level(2 * depth);
        let removed = match pick {
            ValuePick::Ascending => self.store.remove_range(var, 0, top.value),
            ValuePick::Descending => self.store.remove_range(var, top.value, u32::MAX),
            _ => self.store.remove(var, top.value).map(|_| ()),
        };
        self.sync_bound();
        let result = removed.and_then(|()| self.propagate());
        let frame = self.stack.top_mut().expect("a frame is open");
        frame.mark = self.store.mark();
        self.enter_level();
        result
    }

    /// Enters the trail level of the top frame's alternatives: `2d + 1` at depth `d`, 0 at
    /// the root. A frame's refutations (see [`TrailEngine::refute`]) are made at `2d`.
    pub(super) fn enter_level(&mut self) {
        let depth = self.stack.len() as u32;
        self.store
            .set_level(if depth == 0 { 0 } else { 2 * depth + 1 });
    }

    /// The first value of `var`'s domain at or after middle-out position `from`.
    fn middle_out_from(&self, var: usize, from: u32) -> Option<u32> {
        let universe = self.store.universe(var);
        (from..universe)
            .map(|k| middle_out_index(universe, k))
            .find(|&index| self.store.contains(var, index))
    }

    /// The alternative after the one `top` tries, in the frame's value order, with the
    /// store as it was when the frame was opened, or after its refutations: its index and
    /// its value (a split's second half: the same middle). The index counts the values
    /// tried, except in a listed order, where it is the value's position in the list
    /// (values that refutations removed are passed over, and counted).
    pub(super) fn value_after(&self, top: &Frame) -> Option<(u32, u32)> {
        let var = top.var as usize;
        let value = match self.pick_of(var).0 {
            ValuePick::Ascending => self.store.next_at_or_after(var, top.value + 1),
            ValuePick::Descending => top
                .value
                .checked_sub(1)
                .and_then(|v| self.store.prev_at_or_before(var, v)),
            ValuePick::MiddleOut => {
                let universe = self.store.universe(var);
                self.middle_out_from(var, middle_out_position(universe, top.value) + 1)
            }
            ValuePick::Split(_) => (top.index == 0).then_some(top.value),
            ValuePick::Listed => {
                let start = *self
                    .values
                    .starts
                    .last()
                    .expect("listed frames have a start") as usize;
                let list = &self.values.listed[start..];
                let from = (top.index as usize + 1).min(list.len());
                return list[from..]
                    .iter()
                    .position(|&v| self.store.contains(var, v))
                    .map(|k| ((from + k) as u32, list[from + k]));
            }
        };
        value.map(|value| (top.index + 1, value))
    }

    /// Pops the listed values of `popped` (a frame just popped), if it listed them.
    pub(super) fn drop_listed(&mut self, popped: &Frame) {
        if self.pick_of(popped.var as usize).0 == ValuePick::Listed {
            let start = self
                .values
                .starts
                .pop()
                .expect("listed frames have a start");
            self.values.listed.truncate(start as usize);
        }
    }
}
