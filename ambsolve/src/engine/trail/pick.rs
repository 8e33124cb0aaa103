//! Which variable the trail engine branches on next: the strategy's phases and variable
//! orders, prepared once, read at every node.

use super::TrailEngine;
use crate::model::Model;
use crate::strategy::{Strategy, ValueKey, VarOrder, complete_order};
use crate::var::VarId;

/// How one phase picks among its candidates.
enum Rule {
    /// The first unfixed candidate, in the candidates' order.
    Sequential,
    FirstFail,
    AntiFirstFail,
    Smallest(ValueKey),
    Largest(ValueKey),
    Occurrence,
    MostConstrained,
    DomWDeg,
}

impl Rule {
    fn of(order: &VarOrder) -> Rule {
        match order {
            VarOrder::FirstFail | VarOrder::FirstFailThen(_) => Rule::FirstFail,
            VarOrder::AntiFirstFail => Rule::AntiFirstFail,
            VarOrder::Smallest(key) => Rule::Smallest(key.clone()),
            VarOrder::Largest(key) => Rule::Largest(key.clone()),
            VarOrder::Occurrence => Rule::Occurrence,
            VarOrder::MostConstrained => Rule::MostConstrained,
            VarOrder::DomWDeg => Rule::DomWDeg,
            _ => Rule::Sequential,
        }
    }
}

/// One phase: its variables in the order that breaks ties, and its rule.
struct PhasePick {
    candidates: Vec<u32>,
    rule: Rule,
}

/// How the next variable is picked: the strategy's phases (the last one holds the
/// variables no phase lists, under the strategy's own order), each variable's phase and
/// position in it, and what the rules read (occurrences).
pub(super) struct VarPick {
    phases: Vec<PhasePick>,
    /// Each variable's phase: the first that lists it.
    pub(super) phase_of: Vec<u32>,
    /// Each variable's position among its phase's candidates.
    position: Vec<u32>,
    /// The number of the model's constraints on each variable (for the rules that read
    /// it; empty otherwise).
    occurrences: Vec<u32>,
}

impl VarPick {
    pub(super) fn new(strategy: &Strategy, model: &Model<'_>) -> Self {
        let n = model.num_vars();
        let rest = strategy.phases.len() as u32;
        let mut phase_of = vec![rest; n];
        let mut listed: Vec<Vec<u32>> = Vec::new();
        for (p, phase) in strategy.phases.iter().enumerate() {
            let mut mine = Vec::new();
            for &v in phase.vars.iter() {
                let v = v.index();
                if v < n && phase_of[v] == rest {
                    phase_of[v] = p as u32;
                    mine.push(v as u32);
                }
            }
            listed.push(mine);
        }
        let rest_vars: Vec<u32> = (0..n as u32)
            .filter(|&v| phase_of[v as usize] == rest)
            .collect();
        listed.push(rest_vars);
        let mut orders: Vec<&VarOrder> = strategy.phases.iter().map(|p| &p.order).collect();
        orders.push(&strategy.vars);
        let mut position = vec![0; n];
        let phases: Vec<PhasePick> = listed
            .into_iter()
            .zip(orders)
            .map(|(vars, order)| {
                let candidates = ranked(vars, order.named(), n);
                for (k, &v) in candidates.iter().enumerate() {
                    position[v as usize] = k as u32;
                }
                PhasePick {
                    candidates,
                    rule: Rule::of(order),
                }
            })
            .collect();
        let reads_occurrences = phases
            .iter()
            .any(|p| matches!(p.rule, Rule::Occurrence | Rule::MostConstrained));
        let occurrences = if reads_occurrences {
            occurrences(model)
        } else {
            Vec::new()
        };
        VarPick {
            phases,
            phase_of,
            position,
            occurrences,
        }
    }

    /// The variables in the order the picks prefer them when everything else ties.
    pub(super) fn ranking(&self) -> Vec<usize> {
        self.phases
            .iter()
            .flat_map(|p| p.candidates.iter().map(|&v| v as usize))
            .collect()
    }
}

/// `vars` (in their order) with those `named` first, in the named order.
fn ranked(vars: Vec<u32>, named: &[VarId], n: usize) -> Vec<u32> {
    if named.is_empty() {
        return vars;
    }
    let mut rank = vec![u32::MAX; n];
    for (k, v) in complete_order(named, n).into_iter().enumerate() {
        rank[v] = k as u32;
    }
    let mut vars = vars;
    vars.sort_by_key(|&v| rank[v as usize]);
    vars
}

/// How many of the model's constraints mention each variable (once per constraint).
fn occurrences(model: &Model<'_>) -> Vec<u32> {
    let mut counts = vec![0u32; model.num_vars()];
    for scope in model.scopes() {
        for v in scope {
            if let Some(count) = counts.get_mut(v) {
                *count = count.saturating_add(1);
            }
        }
    }
    counts
}

impl TrailEngine<'_> {
    /// The next variable to branch on, or `None` when every variable is fixed.
    pub(super) fn select_var(&self) -> Option<usize> {
        // The phases before the top frame's are done: its variable was picked when they
        // were, and nothing comes unfixed further down.
        let top = self.stack.top().map(|f| f.var as usize);
        let first = top.map_or(0, |v| self.vars.phase_of[v] as usize);
        (first..self.vars.phases.len()).find_map(|p| {
            // Sequential picks resume at the top frame's variable (not after it: a split
            // leaves it unfixed).
            let from = match top {
                Some(v) if p == first => self.vars.position[v] as usize,
                _ => 0,
            };
            self.select_in(p, from)
        })
    }

    /// The variable phase `p` picks (sequential rules scan from candidate `from` on).
    fn select_in(&self, p: usize, from: usize) -> Option<usize> {
        let store = &self.store;
        let phase = &self.vars.phases[p];
        let open = || {
            phase
                .candidates
                .iter()
                .map(|&v| v as usize)
                .filter(|&v| store.size(v) > 1)
        };
        // The first candidate with the least key (ties to the earliest).
        let least = |key: &dyn Fn(usize) -> (u64, u64)| {
            open()
                .map(|v| (key(v), v))
                .reduce(|best, next| if next.0 < best.0 { next } else { best })
                .map(|(_, v)| v)
        };
        let end_images = |key: &ValueKey, v: usize| {
            let id = crate::store::Store::var_id(v);
            let low = key(id, store.min(v).unwrap_or(0));
            let high = key(id, store.max(v).unwrap_or(0));
            (low.min(high), low.max(high))
        };
        // An i64 as a u64 in the same order.
        let ordered = |x: i64| (x as u64) ^ (1 << 63);
        match &phase.rule {
            Rule::Sequential => phase.candidates[from.min(phase.candidates.len())..]
                .iter()
                .map(|&v| v as usize)
                .find(|&v| !store.is_fixed(v)),
            Rule::FirstFail => {
                let mut best: Option<(u32, usize)> = None;
                for v in open() {
                    let size = store.size(v);
                    if best.is_none_or(|(s, _)| size < s) {
                        best = Some((size, v));
                        if size == 2 {
                            break;
                        }
                    }
                }
                best.map(|(_, v)| v)
            }
            Rule::AntiFirstFail => least(&|v| (u64::from(u32::MAX - store.size(v)), 0)),
            Rule::Smallest(key) => least(&|v| (ordered(end_images(key, v).0), 0)),
            Rule::Largest(key) => least(&|v| (!ordered(end_images(key, v).1), 0)),
            Rule::Occurrence => least(&|v| (u64::from(u32::MAX - self.vars.occurrences[v]), 0)),
            Rule::MostConstrained => least(&|v| {
                let busy = u32::MAX - self.vars.occurrences[v];
                (u64::from(store.size(v)), u64::from(busy))
            }),
            Rule::DomWDeg => {
                // The least size / weight: size(a) * weight(b) < size(b) * weight(a).
                let mut best: Option<(u64, u64, usize)> = None;
                for v in open() {
                    let size = u64::from(store.size(v));
                    // Not better even at its ceiling: the exact weight is not worth reading.
                    let ceiling = u64::from(self.propagation.weight_ceiling(v));
                    if best.is_some_and(|(s, w, _)| size * w >= s * ceiling) {
                        continue;
                    }
                    let weight = u64::from(self.propagation.weighted_degree(v, store));
                    if best.is_none_or(|(s, w, _)| size * w < s * weight) {
                        best = Some((size, weight, v));
                    }
                }
                best.map(|(_, _, v)| v)
            }
        }
    }
}
