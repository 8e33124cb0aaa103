//! The regular constraint by Pesant's layered graph ("A regular language membership
//! constraint for finite sequences of variables", CP 2004): layer `i` holds the
//! automaton's states after `i` items. A pass forward marks the states reachable from
//! the start through values left; a pass backward keeps those that also reach an
//! accepting state at the last layer, and the values of item `i` on a transition between
//! two kept states: `O(n × transitions)`, domain consistent when no variable repeats.
//!
//! Incremental: a run keeps, in trailed cells of the store, the states on some accepted
//! path of each layer and the symbols each item read at its end, so that an undo brings
//! back those of the run before it. The next run (every item reading only symbols it read
//! then, as the trail ensures) finds the first and last items that lost one, passes
//! forward from the first only until a layer past the last reaches every state kept
//! there, and backward only until a layer before the first comes out as kept: the layers
//! outside are the kept ones (a state on an accepted path now was on one then; the
//! forward pass may start from the kept states, since those it leaves out lie on no
//! accepted path). Where a variable repeats, or the kept state would be too large, each
//! run starts from scratch. The backward pass reads, per symbol present, the states with
//! a transition on it into each live state as one mask (where the masks fit): a few
//! words per live state, instead of every transition of every state reached.

use std::sync::Arc;

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::{Automaton, Regular};
use crate::propagator::BuiltinPropagator;
use crate::store::{Atoms, Pred, Store};
use crate::var::VarId;

/// No symbol: a value no transition reads.
pub(super) const NONE: u32 = u32::MAX;

/// An item: a constant's symbol, or a variable with the symbol of each value index.
pub(super) enum Item {
    Const(u32),
    Var { var: usize, symbols: Arc<[u32]> },
}

pub(crate) struct RegularProp {
    pub(super) automaton: Arc<Automaton>,
    pub(super) items: Vec<Item>,
    scope: Vec<VarId>,
    /// Words per layer of the state sets.
    pub(super) words: usize,
    /// Words per item of the symbol sets.
    sets_words: usize,
    /// Layer `i`'s reachable states at `reached[i * words..]` (`n + 1` layers): scratch.
    reached: Vec<u64>,
    /// A layer's new live states, an item's new symbols: scratch.
    layer: Vec<u64>,
    set: Vec<u64>,
    /// Where the last run's state is kept, in `1 + (n + 1) * words + n * sets_words`
    /// trailed cells from this one: whether it may be built on (1), the states of each
    /// layer on some accepted path, the symbols each item read. `None`: each run starts
    /// from scratch, the live states in `alive`.
    kept: Option<usize>,
    alive: Vec<u64>,
    /// Per item, whether a value of its variable reads no symbol: scratch.
    reads_none: Vec<bool>,
    /// Per symbol `s` and state `to`, the states with a transition on `s` into `to`, at
    /// `preds[(s * states + to) * words..]`; empty where too large (then the backward pass
    /// reads the transitions).
    preds: Vec<u64>,
    /// The symbols item `i` may read at `present[starts[i]..starts[i + 1]]`: scratch.
    present: Vec<u32>,
    starts: Vec<usize>,
    /// Per symbol: marked present in the current layer; supported by a kept transition.
    marked: Vec<bool>,
    supported: Vec<bool>,
    /// Whether a variable is read by several items: then a pass that narrows one of
    /// them can cut paths at another, and the pass is repeated until nothing changes.
    pub(super) repeats: bool,
    /// The layered graph an explanation read last, for the next ones of the same run.
    pub(super) explained: super::regular_explain::Cached,
}

impl RegularProp {
    /// The most trailed cells a propagator keeps its state in.
    const KEPT_CELLS: usize = 1 << 16;
    /// The most words of predecessor masks.
    const MASK_WORDS: usize = 1 << 16;

    pub(crate) fn new(def: &Regular, store: &mut Store) -> Self {
        let automaton = Arc::clone(&def.automaton);
        let symbol = |v: i64| automaton.symbol(v).unwrap_or(NONE);
        let items = def
            .items
            .iter()
            .map(|x| match x {
                crate::model::Int::Const(c) => Item::Const(symbol(*c)),
                crate::model::Int::Var { var, images } => Item::Var {
                    var: var.index(),
                    symbols: images.iter().map(symbol).collect(),
                },
            })
            .collect::<Vec<_>>();
        let n = items.len();
        let words = (automaton.states as usize).div_ceil(64);
        let symbols = automaton.symbols.len();
        let sets_words = symbols.div_ceil(64);
        // The items' variables, in order, each as often as it is read.
        let mut read = def.vars.clone();
        read.sort_unstable();
        read.dedup();
        let repeats = read.len() < def.vars.len();
        let cells = 1 + (n + 1) * words + n * sets_words;
        let kept = (!repeats && cells <= Self::KEPT_CELLS).then(|| {
            let first = store.alloc_aux(0);
            for _ in 1..cells {
                store.alloc_aux(0);
            }
            first
        });
        let states = automaton.states as usize;
        let mut preds = Vec::new();
        if symbols * states * words <= Self::MASK_WORDS {
            preds = vec![0; symbols * states * words];
            for q in 0..states {
                for t in automaton.first[q] as usize..automaton.first[q + 1] as usize {
                    let to = automaton.to[t] as usize;
                    let at = (automaton.on[t] as usize * states + to) * words + q / 64;
                    preds[at] |= 1 << (q % 64);
                }
            }
        }
        RegularProp {
            preds,
            items,
            scope: def.vars.clone(),
            words,
            sets_words,
            reached: vec![0; (n + 1) * words],
            layer: vec![0; words],
            set: vec![0; sets_words],
            alive: if kept.is_some() {
                Vec::new()
            } else {
                vec![0; (n + 1) * words]
            },
            kept,
            reads_none: vec![false; n],
            present: Vec::new(),
            starts: Vec::with_capacity(n + 1),
            marked: vec![false; symbols],
            supported: vec![false; symbols],
            automaton,
            repeats,
            explained: Default::default(),
        }
    }

    /// The live states of layer `k` (of `w` words): kept from `first`, or in `alive`.
    fn alive<'s>(
        kept: Option<usize>,
        alive: &'s [u64],
        store: &'s Store,
        w: usize,
        k: usize,
    ) -> &'s [u64] {
        match kept {
            Some(first) => store.aux_slice(first + 1 + k * w, w),
            None => &alive[k * w..(k + 1) * w],
        }
    }

    /// Replaces the live states of layer `k` by `layer`; whether they were the same.
    fn set_alive(&mut self, store: &mut Store, k: usize) -> bool {
        let w = self.words;
        match self.kept {
            Some(first) => store.set_aux_slice(first + 1 + k * w, &self.layer),
            None => {
                let here = &mut self.alive[k * w..(k + 1) * w];
                let same = *here == *self.layer;
                here.copy_from_slice(&self.layer);
                same
            }
        }
    }

    /// The first cell of the symbols item `i` read, in the state kept from `first`.
    fn set_cell(&self, first: usize, i: usize) -> usize {
        first + 1 + (self.items.len() + 1) * self.words + i * self.sets_words
    }

    /// The symbols item `i` read when the last run ended (kept state only).
    fn read_set<'s>(&self, store: &'s Store, first: usize, i: usize) -> &'s [u64] {
        store.aux_slice(self.set_cell(first, i), self.sets_words)
    }

    /// One forward and backward pass over the layered graph, keeping the values on some
    /// accepted path; whether it removed any. Incremental where a state is kept (see the
    /// module's comment).
    fn pass(&mut self, store: &mut Store) -> Result<bool, Fail> {
        self.collect_present(store);
        let n = self.items.len();
        // The kept state holds where every item reads only symbols it read then (as the
        // trail ensures: checked all the same, it costs a bit per symbol).
        let valid = self.kept.is_some_and(|first| {
            store.aux(first) == 1
                && (0..n).all(|i| {
                    let set = self.read_set(store, first, i);
                    self.present[self.starts[i]..self.starts[i + 1]]
                        .iter()
                        .all(|&s| set[s as usize / 64] >> (s % 64) & 1 == 1)
                })
        });
        // The items that lost a symbol since (or read none).
        let (lo, hi) = match self.kept {
            Some(first) if valid => {
                let lost = |i: &usize| {
                    let read: u32 = self
                        .read_set(store, first, *i)
                        .iter()
                        .map(|b| b.count_ones())
                        .sum();
                    (self.starts[i + 1] - self.starts[*i]) as u32 != read || self.reads_none[*i]
                };
                match ((0..n).find(lost), (0..n).rev().find(lost)) {
                    (Some(lo), Some(hi)) => (lo, hi),
                    // Nothing lost: the last run's fixpoint stands.
                    _ => return Ok(false),
                }
            }
            _ => (0, n.saturating_sub(1)),
        };
        if let Some(first) = self.kept {
            // Not to be built on until this run succeeds.
            store.set_aux(first, 0);
        }
        let Some(mut same) = self.forward(store, valid, lo, hi) else {
            return Err(Fail);
        };
        let mut changed = false;
        for i in (0..n).rev() {
            if valid && same && i < lo {
                // Layer `i + 1` lives as before, and no item up to `i` changed: neither
                // did anything before it.
                break;
            }
            same = self.backward(store, i);
            let layer = self.starts[i]..self.starts[i + 1];
            let kept = self.present[layer.clone()]
                .iter()
                .filter(|&&s| self.supported[s as usize])
                .count();
            if kept == 0 {
                return Err(Fail);
            }
            if let Item::Var { var, symbols } = &self.items[i] {
                let supported = &self.supported;
                if kept < layer.len() || self.reads_none[i] {
                    changed |= store.retain(*var, |x| {
                        let s = symbols[x as usize];
                        s != NONE && supported[s as usize]
                    })?;
                }
            }
            self.set.fill(0);
            for &s in &self.present[layer] {
                if self.supported[s as usize] {
                    self.set[s as usize / 64] |= 1 << (s % 64);
                }
                self.supported[s as usize] = false;
            }
            if let Some(first) = self.kept {
                store.set_aux_slice(self.set_cell(first, i), &self.set);
            }
        }
        if let Some(first) = self.kept {
            store.set_aux(first, 1);
        }
        Ok(changed)
    }

    /// Lists the symbols each item may read.
    fn collect_present(&mut self, store: &Store) {
        self.present.clear();
        self.starts.clear();
        for (item, reads_none) in self.items.iter().zip(&mut self.reads_none) {
            self.starts.push(self.present.len());
            *reads_none = false;
            match item {
                Item::Const(NONE) => {}
                Item::Const(s) => self.present.push(*s),
                Item::Var { var, symbols } => {
                    for index in store.iter(*var) {
                        let s = symbols[index as usize];
                        *reads_none |= s == NONE;
                        if s != NONE && !self.marked[s as usize] {
                            self.marked[s as usize] = true;
                            self.present.push(s);
                        }
                    }
                    let from = *self.starts.last().unwrap_or(&0);
                    for &s in &self.present[from..] {
                        self.marked[s as usize] = false;
                    }
                }
            }
        }
        self.starts.push(self.present.len());
    }

    /// The forward pass: the states reachable after each item, from layer `lo` (from the
    /// start, unless the kept state is `valid`: then from its live states of layer `lo`,
    /// and only until a layer past item `hi` reaches all the states kept live there: each
    /// kept state after it is still reached). `None` if no accepting state is reachable
    /// at the end, else whether the last layer lives as before.
    fn forward(&mut self, store: &mut Store, valid: bool, lo: usize, hi: usize) -> Option<bool> {
        let (w, a) = (self.words, &*self.automaton);
        let n = self.items.len();
        if valid {
            // Up to layer `lo`, nothing changed: the live states stand for the reached.
            for k in 0..=lo {
                let alive = Self::alive(self.kept, &self.alive, store, w, k);
                self.reached[k * w..(k + 1) * w].copy_from_slice(alive);
            }
        } else {
            self.reached[..w].fill(0);
            self.reached[a.start as usize / 64] |= 1 << (a.start % 64);
        }
        let mut i = lo;
        while i < n {
            let layer = &self.present[self.starts[i]..self.starts[i + 1]];
            for &s in layer {
                self.marked[s as usize] = true;
            }
            let (here, next) = self.reached.split_at_mut((i + 1) * w);
            let here = &here[i * w..];
            let next = &mut next[..w];
            next.fill(0);
            for (word, &bits) in here.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let q = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    for t in a.first[q] as usize..a.first[q + 1] as usize {
                        if self.marked[a.on[t] as usize] {
                            let to = a.to[t] as usize;
                            next[to / 64] |= 1 << (to % 64);
                        }
                    }
                }
            }
            for &s in layer {
                self.marked[s as usize] = false;
            }
            i += 1;
            if valid && i > hi && i < n {
                let alive = Self::alive(self.kept, &self.alive, store, w, i);
                let reached = &self.reached[i * w..(i + 1) * w];
                if alive.iter().zip(reached).all(|(&live, &r)| live & !r == 0) {
                    // The kept live states stand for the layers after this one.
                    for k in i + 1..=n {
                        let alive = Self::alive(self.kept, &self.alive, store, w, k);
                        self.reached[k * w..(k + 1) * w].copy_from_slice(alive);
                    }
                    break;
                }
            }
        }
        let mut any = false;
        for word in 0..w {
            let mut bits = self.reached[n * w + word];
            let mut accepting = 0u64;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if a.accepting[word * 64 + bit] {
                    accepting |= 1 << bit;
                }
            }
            self.layer[word] = accepting;
            any |= accepting != 0;
        }
        let same = self.set_alive(store, n);
        any.then_some(same)
    }

    /// The backward pass for item `i`: the states of layer `i` with a transition on a
    /// present symbol into a live state of layer `i + 1`, marking those symbols
    /// supported. Whether layer `i` lives as it did before.
    fn backward(&mut self, store: &mut Store, i: usize) -> bool {
        let (w, a) = (self.words, &*self.automaton);
        let layer = &self.present[self.starts[i]..self.starts[i + 1]];
        if !self.preds.is_empty() {
            // Per present symbol, the reached predecessors of each live state.
            let states = a.states as usize;
            let next = Self::alive(self.kept, &self.alive, store, w, i + 1);
            let reached = &self.reached[i * w..(i + 1) * w];
            self.layer.fill(0);
            for &s in layer {
                let mut any = 0;
                for (word, &bits) in next.iter().enumerate() {
                    let mut bits = bits;
                    while bits != 0 {
                        let to = word * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let from = &self.preds[(s as usize * states + to) * w..][..w];
                        for ((live, &p), &r) in self.layer.iter_mut().zip(from).zip(reached) {
                            any |= p & r;
                            *live |= p & r;
                        }
                    }
                }
                if any != 0 {
                    self.supported[s as usize] = true;
                }
            }
            return self.set_alive(store, i);
        }
        for &s in layer {
            self.marked[s as usize] = true;
        }
        let next = Self::alive(self.kept, &self.alive, store, w, i + 1);
        for (word, slot) in self.layer.iter_mut().enumerate() {
            let mut bits = self.reached[i * w + word];
            let mut live = 0u64;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let q = word * 64 + bit;
                for t in a.first[q] as usize..a.first[q + 1] as usize {
                    let (s, to) = (a.on[t] as usize, a.to[t] as usize);
                    if self.marked[s] && next[to / 64] & (1 << (to % 64)) != 0 {
                        self.supported[s] = true;
                        live |= 1 << bit;
                    }
                }
            }
            *slot = live;
        }
        for &s in layer {
            self.marked[s as usize] = false;
        }
        self.set_alive(store, i)
    }
}

impl<'a> Kind<'a> for Regular {
    fn propagator(&self, store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(RegularProp::new(self, store))
    }
}

impl BuiltinPropagator for RegularProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// Over distinct variables one pass is domain consistent: a second finds nothing.
    fn idempotent(&self) -> bool {
        !self.repeats
    }

    fn explains(&self) -> bool {
        true
    }

    /// By a cut of the layered graph ([`regular_explain`](super::regular_explain)).
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        self.explain_cut(atoms, at, pred, out)
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        while self.pass(store)? && self.repeats {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Dfa, IntArg, Model};
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::{
        arg, fuzz, fuzz_domain_consistent, fuzz_incremental, pooled_items,
    };

    /// A random automaton over symbols -1..=4 with up to 4 states.
    fn dfa(rng: &mut Rng) -> Dfa {
        let states = 1 + rng.below(4) as usize;
        let mut dfa = Dfa::new(states, rng.below(states as u64) as usize);
        for q in 0..states {
            if rng.below(2) == 0 {
                dfa.accept(q);
            }
            for symbol in -1..=4 {
                if rng.below(3) == 0 {
                    dfa.transition(q, symbol, rng.below(states as u64) as usize);
                }
            }
        }
        dfa
    }

    #[test]
    fn regular_agrees_with_its_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let (_, items) = pooled_items(&mut m, rng);
            m.regular(items, &dfa(rng));
            m
        });
    }

    #[test]
    fn regular_over_distinct_variables_is_domain_consistent() {
        fuzz_domain_consistent(400, |rng| {
            let mut m = Model::new();
            let items: Vec<IntArg> = (0..rng.below(5)).map(|_| arg(&mut m, rng)).collect();
            m.regular(items, &dfa(rng));
            m
        });
    }

    #[test]
    fn regular_kept_between_runs_prunes_as_from_scratch() {
        // Distinct variables, narrowed and undone as a search does: the layers kept in
        // trailed cells must leave what a run from scratch leaves.
        fuzz_incremental(600, |rng| {
            let mut m = Model::new();
            let n = 1 + rng.below(7) as usize;
            let items: Vec<IntArg> = (0..n).map(|_| IntArg::from(&m.var(-1..5i64))).collect();
            m.regular(items, &dfa(rng));
            m
        });
    }

    #[test]
    fn regular_under_a_sum_agrees_with_its_meaning() {
        // Distinct variables under two automata and a sum of mixed signs: the learning
        // search meets conflicts and asks the automata why values went (checked under
        // `debug-checks`).
        use crate::model::Cmp;
        fuzz(600, |rng| {
            let mut m = Model::new();
            let n = 2 + rng.below(4) as usize;
            let vars: Vec<_> = (0..n)
                .map(|_| {
                    let low = rng.below(3) as i64 - 1;
                    m.var(low..low + 2 + rng.below(3) as i64)
                })
                .collect();
            let terms: Vec<(i64, _)> = vars
                .iter()
                .map(|v| (if rng.below(3) == 0 { -1 } else { 1 }, v))
                .collect();
            m.linear(terms, Cmp::Eq, rng.below(2 * n as u64) as i64);
            let items: Vec<IntArg> = vars.iter().map(IntArg::from).collect();
            m.regular(items.clone(), &dfa(rng));
            if rng.below(2) == 0 {
                m.regular(items.into_iter().rev().collect::<Vec<_>>(), &dfa(rng));
            }
            m
        });
    }
}
