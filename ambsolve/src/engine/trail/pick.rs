//! Which variable the trail engine branches on next: the strategy's phases and variable
//! orders, prepared once, read at every node.
//!
//! A phase under a rule that compares its candidates (first-fail, `dom_w_deg`, ..) scans
//! them at every node while they are few. A long one keeps them ranked instead: a heap of
//! `(rank, position)` entries, fed by the variables whose domain changed since the last
//! pick (the store lists them, undo included) and by those whose weights grew. An entry
//! whose rank is no longer its variable's, or whose variable is fixed, is dropped when it
//! comes up: the variable has a fresher entry, or gets one when undo frees it. So a pick
//! costs a logarithm per change instead of a pass over every variable, and picks exactly
//! what the scan picks (ties to the earliest candidate).

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::TrailEngine;
use crate::model::Model;
use crate::propagators::Fixpoint;
use crate::store::Store;
use crate::strategy::{Strategy, ValueKey, VarOrder, complete_order};
use crate::var::VarId;

/// Phases with at least this many candidates, under a rule that compares them, keep
/// them ranked (below it, a scan is cheaper than keeping a heap up to date).
const RANK_FROM: usize = 256;

/// Ranked phases are scanned instead at a pick after more than one ranked candidate in
/// `SCAN_SHARE` changed: pushing a heap entry costs about that many candidates scanned.
const SCAN_SHARE: usize = 32;

/// The phase length from which candidates are ranked (tests set it to compare a ranked
/// search with a scanning one).
#[cfg(not(test))]
fn rank_from() -> usize {
    RANK_FROM
}

#[cfg(test)]
fn rank_from() -> usize {
    tests::RANK_FROM.with(std::cell::Cell::get)
}

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

/// One phase: its variables in the order that breaks ties, and its rule; a long phase
/// under a comparing rule keeps them ranked.
struct PhasePick {
    candidates: Vec<u32>,
    rule: Rule,
    ranked: Option<Ranked>,
}

/// Where a candidate stands under its phase's rule, least first: `num / den` as a
/// fraction (`den` is 1 but for `dom_w_deg`), then `then`.
#[derive(Clone, Copy, Debug)]
struct Rank {
    num: u64,
    den: u64,
    then: u64,
}

impl Rank {
    fn plain(num: u64, then: u64) -> Self {
        Rank { num, den: 1, then }
    }

    fn order(&self, other: &Rank) -> Ordering {
        let left = u128::from(self.num) * u128::from(other.den);
        let right = u128::from(other.num) * u128::from(self.den);
        left.cmp(&right).then(self.then.cmp(&other.then))
    }

    /// The same numbers (not only an equal fraction): what the rank was computed from
    /// has not changed.
    fn same(&self, other: &Rank) -> bool {
        (self.num, self.den, self.then) == (other.num, other.den, other.then)
    }
}

/// A candidate's rank when it was pushed, and its position in the phase.
#[derive(Clone, Copy, Debug)]
struct Entry {
    rank: Rank,
    position: u32,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank
            .order(&other.rank)
            .then(self.position.cmp(&other.position))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

/// A long phase's candidates ranked: a heap of entries, least first, with at least one
/// entry of its current rank for every candidate not fixed (stale ones are dropped as
/// they come up).
#[derive(Default)]
struct Ranked {
    heap: BinaryHeap<Reverse<Entry>>,
    /// Whether the heap holds an entry for every candidate not fixed (else the phase is
    /// scanned).
    filled: bool,
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
    /// The variables touched or reweighed since the last pick (a buffer).
    changed: Vec<u32>,
    /// The candidates of the ranked phases.
    ranked_len: usize,
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
                let rule = Rule::of(order);
                let long = candidates.len() >= rank_from().max(1);
                let ranked = (long && !matches!(rule, Rule::Sequential)).then(Ranked::default);
                PhasePick {
                    candidates,
                    rule,
                    ranked,
                }
            })
            .collect();
        let ranked_len = phases
            .iter()
            .filter(|p| p.ranked.is_some())
            .map(|p| p.candidates.len())
            .sum();
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
            changed: Vec::new(),
            ranked_len,
        }
    }

    /// Asks the store (and, for `dom_w_deg`, the propagation) to list what changes, if a
    /// phase keeps its candidates ranked.
    pub(super) fn track(&self, store: &mut Store, fixpoint: &mut Fixpoint<'_>) {
        if self.phases.iter().any(|p| p.ranked.is_some()) {
            store.track_touched();
        }
        let weighs = |p: &PhasePick| p.ranked.is_some() && matches!(p.rule, Rule::DomWDeg);
        if self.phases.iter().any(weighs) {
            fixpoint.track_reweighed();
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

/// The rank of candidate `v` under `rule` (for `dom_w_deg`, by its weight ceiling: at
/// most its exact ratio).
fn rank(
    rule: &Rule,
    v: usize,
    store: &Store,
    fixpoint: &Fixpoint<'_>,
    occurrences: &[u32],
) -> Rank {
    let size = u64::from(store.size(v));
    match rule {
        Rule::FirstFail => Rank::plain(size, 0),
        Rule::AntiFirstFail => Rank::plain(u64::from(u32::MAX) - size, 0),
        Rule::Smallest(key) => Rank::plain(ordered(end_images(key, v, store).0), 0),
        Rule::Largest(key) => Rank::plain(!ordered(end_images(key, v, store).1), 0),
        Rule::Occurrence => Rank::plain(u64::from(u32::MAX - occurrences[v]), 0),
        Rule::MostConstrained => Rank::plain(size, u64::from(u32::MAX - occurrences[v])),
        Rule::DomWDeg => Rank {
            num: size,
            den: u64::from(fixpoint.weight_ceiling(v)),
            then: 0,
        },
        Rule::Sequential => Rank::plain(0, 0),
    }
}

/// The heap entry of candidate `v`, at `position` in its phase, at its current rank.
fn entry(
    rule: &Rule,
    v: usize,
    position: u32,
    store: &Store,
    fixpoint: &Fixpoint<'_>,
    occurrences: &[u32],
) -> Reverse<Entry> {
    Reverse(Entry {
        rank: rank(rule, v, store, fixpoint, occurrences),
        position,
    })
}

/// The least and greatest images under `key` of the ends of `v`'s domain.
fn end_images(key: &ValueKey, v: usize, store: &Store) -> (i64, i64) {
    let id = Store::var_id(v);
    let low = key(id, store.min(v).unwrap_or(0));
    let high = key(id, store.max(v).unwrap_or(0));
    (low.min(high), low.max(high))
}

/// An i64 as a u64 in the same order.
fn ordered(x: i64) -> u64 {
    (x as u64) ^ (1 << 63)
}

impl TrailEngine<'_> {
    /// The next variable to branch on, or `None` when every variable is fixed.
    pub(super) fn select_var(&mut self) -> Option<usize> {
        self.refresh_ranks();
        // The phases before the top frame's are done: its variable was picked when they
        // were, and nothing comes unfixed further down.
        let top = self.stack.top().map(|f| f.var as usize);
        let first = top.map_or(0, |v| self.vars.phase_of[v] as usize);
        (first..self.vars.phases.len()).find_map(|p| {
            if self.vars.phases[p]
                .ranked
                .as_ref()
                .is_some_and(|r| r.filled)
            {
                return self.select_ranked(p);
            }
            // Sequential picks resume at the top frame's variable (not after it: a split
            // leaves it unfixed).
            let from = match top {
                Some(v) if p == first => self.vars.position[v] as usize,
                _ => 0,
            };
            self.select_in(p, from)
        })
    }

    /// Gives a fresh entry to every ranked candidate touched or reweighed since the last
    /// pick. When many changed (a fair share of the phase, as when every queen of a
    /// board loses values at each node), pushing them all costs more than a scan: the
    /// heap is dropped and the phase scanned, until a pick after few changes fills it
    /// again from scratch (also when stale entries outnumber the live ones).
    fn refresh_ranks(&mut self) {
        if self.vars.ranked_len == 0 {
            // No phase ranks its candidates (a small model): nothing is tracked.
            return;
        }
        let vars = &mut self.vars;
        let mut changed = std::mem::take(&mut vars.changed);
        self.store.take_touched(&mut changed);
        self.fixpoint.append_reweighed(&mut changed);
        let many = changed.len() > vars.ranked_len / SCAN_SHARE;
        let (store, fixpoint) = (&self.store, &self.fixpoint);
        let occurrences = &vars.occurrences;
        if !many {
            for &v in &changed {
                let v = v as usize;
                let phase = &mut vars.phases[vars.phase_of[v] as usize];
                let Some(ranked) = phase.ranked.as_mut().filter(|r| r.filled) else {
                    continue;
                };
                if !store.is_fixed(v) {
                    let at = vars.position[v];
                    let fresh = entry(&phase.rule, v, at, store, fixpoint, occurrences);
                    ranked.heap.push(fresh);
                }
            }
        }
        vars.changed = changed;
        for phase in &mut vars.phases {
            let Some(ranked) = &mut phase.ranked else {
                continue;
            };
            if many {
                ranked.filled = false;
                ranked.heap.clear();
                continue;
            }
            if ranked.filled && ranked.heap.len() <= 2 * phase.candidates.len() + 64 {
                continue;
            }
            let rule = &phase.rule;
            ranked.heap = (phase.candidates.iter().zip(0u32..))
                .filter(|&(&v, _)| !store.is_fixed(v as usize))
                .map(|(&v, at)| entry(rule, v as usize, at, store, fixpoint, occurrences))
                .collect();
            ranked.filled = true;
        }
    }

    /// The variable a ranked phase picks: its least live entry. For `dom_w_deg` the
    /// entries rank by the weight ceilings, at most each variable's exact ratio: entries
    /// are read until none left can beat the best exact ratio seen, then put back.
    fn select_ranked(&mut self, p: usize) -> Option<usize> {
        let store = &self.store;
        let fixpoint = &self.fixpoint;
        let phase = &mut self.vars.phases[p];
        let occurrences = &self.vars.occurrences;
        let rule = &phase.rule;
        let ranked = phase.ranked.as_mut().expect("a ranked phase");
        // Drops the entries that are stale or whose variable is fixed, from the top.
        let live = |heap: &mut BinaryHeap<Reverse<Entry>>| -> Option<Entry> {
            while let Some(&Reverse(entry)) = heap.peek() {
                let v = phase.candidates[entry.position as usize] as usize;
                if !store.is_fixed(v)
                    && entry
                        .rank
                        .same(&rank(rule, v, store, fixpoint, occurrences))
                {
                    return Some(entry);
                }
                heap.pop();
            }
            None
        };
        if !matches!(rule, Rule::DomWDeg) {
            let entry = live(&mut ranked.heap)?;
            return Some(phase.candidates[entry.position as usize] as usize);
        }
        let mut read = Vec::new();
        let mut best: Option<Entry> = None;
        while let Some(entry) = live(&mut ranked.heap) {
            if best.is_some_and(|b| b <= entry) {
                break;
            }
            ranked.heap.pop();
            read.push(Reverse(entry));
            let v = phase.candidates[entry.position as usize] as usize;
            let exact = Entry {
                rank: Rank {
                    num: u64::from(store.size(v)),
                    den: u64::from(fixpoint.weighted_degree(v, store)),
                    then: 0,
                },
                position: entry.position,
            };
            if best.is_none_or(|b| exact < b) {
                best = Some(exact);
            }
        }
        ranked.heap.extend(read);
        best.map(|b| phase.candidates[b.position as usize] as usize)
    }

    /// The variable phase `p` picks (sequential rules scan from candidate `from` on).
    fn select_in(&self, p: usize, from: usize) -> Option<usize> {
        self.vars.scan(p, from, &self.store, &self.fixpoint)
    }
}

impl VarPick {
    /// The number of phases (the last: the variables no phase lists).
    pub(super) fn num_phases(&self) -> usize {
        self.phases.len()
    }

    /// Phase `p`'s pick by a scan of its candidates (a sequential phase from position
    /// `from`): the variable its rule prefers, `None` when all are fixed.
    pub(super) fn scan(
        &self,
        p: usize,
        from: usize,
        store: &Store,
        fixpoint: &Fixpoint<'_>,
    ) -> Option<usize> {
        let phase = &self.phases[p];
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
            Rule::Smallest(key) => least(&|v| (ordered(end_images(key, v, store).0), 0)),
            Rule::Largest(key) => least(&|v| (!ordered(end_images(key, v, store).1), 0)),
            Rule::Occurrence => least(&|v| (u64::from(u32::MAX - self.occurrences[v]), 0)),
            Rule::MostConstrained => least(&|v| {
                let busy = u32::MAX - self.occurrences[v];
                (u64::from(store.size(v)), u64::from(busy))
            }),
            Rule::DomWDeg => {
                // The least size / weight: size(a) * weight(b) < size(b) * weight(a).
                let mut best: Option<(u64, u64, usize)> = None;
                for v in open() {
                    let size = u64::from(store.size(v));
                    // Not better even at its ceiling: the exact weight is not worth reading.
                    let ceiling = u64::from(fixpoint.weight_ceiling(v));
                    if best.is_some_and(|(s, w, _)| size * w >= s * ceiling) {
                        continue;
                    }
                    let weight = u64::from(fixpoint.weighted_degree(v, store));
                    if best.is_none_or(|(s, w, _)| size * w < s * weight) {
                        best = Some((size, weight, v));
                    }
                }
                best.map(|(_, _, v)| v)
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::cell::Cell;
    use std::sync::{Arc, Mutex};

    use crate::limits::Limits;
    use crate::model::{Cmp, Model};
    use crate::observe::Event;
    use crate::options::Engine;
    use crate::strategy::{Phase, Restarts, SplitMix, Strategy, ValueOrder, VarOrder};
    use crate::var::{Var, VarId};

    thread_local! {
        /// The phase length from which this thread's searches rank their candidates.
        pub(in crate::engine::trail) static RANK_FROM: Cell<usize> =
            const { Cell::new(super::RANK_FROM) };
    }

    /// A random model over 6 to 13 variables of 2 to 6 values (and sometimes one of 81):
    /// sums, all-differents and strict orders, some satisfiable and some not.
    fn random_model(random: &mut SplitMix) -> (Model<'static>, Vec<Var<i64>>) {
        let mut m = Model::new();
        let n = 6 + random.below(8) as usize;
        let mut vars: Vec<_> = (0..n)
            .map(|_| {
                let low = random.below(3) as i64;
                m.var(low..=low + 1 + random.below(5) as i64)
            })
            .collect();
        if random.below(3) == 0 {
            // A wide domain (two words), restored by undo from the log of removals.
            vars[0] = m.var(-40..=40i64);
            // Near another variable: propagation narrows it, undo gives its values back.
            m.linear([(1, &vars[0]), (-1, &vars[1])], Cmp::Ge, -1);
            m.linear([(1, &vars[0]), (-1, &vars[1])], Cmp::Le, 2);
        }
        for _ in 0..n {
            let pick = |random: &mut SplitMix| &vars[random.below(n as u64) as usize];
            match random.below(3) {
                0 => {
                    let terms: Vec<_> = (0..2 + random.below(3))
                        .map(|_| (random.below(5) as i64 - 2, pick(random)))
                        .collect();
                    let cmp = [Cmp::Le, Cmp::Ne, Cmp::Eq, Cmp::Ge][random.below(4) as usize];
                    m.linear(terms, cmp, random.below(7) as i64 - 1);
                }
                1 => {
                    let group: Vec<_> = (0..3).map(|_| pick(random).clone()).collect();
                    let (a, b, c) = (&group[0], &group[1], &group[2]);
                    if a.id() != b.id() && b.id() != c.id() && a.id() != c.id() {
                        m.all_different([a, b, c]);
                    }
                }
                _ => {
                    let (a, b) = (pick(random), pick(random));
                    m.linear([(1, a), (-1, b)], Cmp::Lt, 0);
                }
            }
        }
        (m, vars)
    }

    /// Every event of a search of all solutions (its first 3,000 nodes) and its
    /// statistics, with phases ranked from `rank_from` candidates on.
    fn trace(model: &Model<'static>, strategy: &Strategy, rank_from: usize) -> Vec<String> {
        RANK_FROM.with(|r| r.set(rank_from));
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&events);
        let mut solutions = model
            .solve(Engine::Trail)
            .strategy(strategy.clone())
            .limits(Limits::new().nodes(3_000))
            .observe(move |e: &Event| seen.lock().unwrap().push(format!("{e:?}")))
            .solutions();
        let found: Vec<String> = solutions.by_ref().map(|s| format!("{s:?}")).collect();
        let mut all = events.lock().unwrap().clone();
        all.extend(found);
        let stats = solutions.stats();
        all.push(format!(
            "{:?}",
            (stats.nodes, stats.failures, stats.propagations)
        ));
        RANK_FROM.with(|r| r.set(super::RANK_FROM));
        all
    }

    #[test]
    fn ranked_phases_pick_what_the_scan_picks() {
        let mut random = SplitMix::new(29);
        for _ in 0..60 {
            let (model, declared) = random_model(&mut random);
            let key = crate::strategy::value_images(&declared);
            let vars: Vec<VarId> = declared.iter().map(Var::id).collect();
            let half = vars.len() / 2;
            let mut strategies: Vec<Strategy> = [
                VarOrder::FirstFail,
                VarOrder::AntiFirstFail,
                VarOrder::Smallest(key.clone()),
                VarOrder::Largest(key),
                VarOrder::Occurrence,
                VarOrder::MostConstrained,
                VarOrder::DomWDeg,
                VarOrder::FirstFailThen(vars.iter().rev().copied().collect()),
            ]
            .into_iter()
            .map(|order| Strategy::new().vars(order))
            .collect();
            strategies.push(
                Strategy::new()
                    .phase(Phase::new(
                        vars[half..].iter().copied(),
                        VarOrder::DomWDeg,
                        ValueOrder::Median,
                    ))
                    .vars(VarOrder::AntiFirstFail)
                    .restarts(Restarts::luby(2)),
            );
            for strategy in &strategies {
                let ranked = trace(&model, strategy, 1);
                assert_eq!(ranked, trace(&model, strategy, usize::MAX), "{strategy:?}");
            }
        }
    }
}
