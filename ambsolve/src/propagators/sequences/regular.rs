//! The regular constraint by Pesant's layered graph ("A regular language membership
//! constraint for finite sequences of variables", CP 2004): layer `i` holds the
//! automaton's states after `i` items. A pass forward marks the states reachable from
//! the start through values left; a pass backward keeps those that also reach an
//! accepting state at the last layer, and the values of item `i` on a transition between
//! two kept states. From scratch at each run, `O(n × transitions)`; domain consistent
//! when no variable repeats.

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
    /// Layer `i`'s reachable states at `reached[i * words..]` (`n + 1` layers): scratch.
    reached: Vec<u64>,
    /// Layer `i`'s states that also reach an accepting state, likewise: scratch.
    alive: Vec<u64>,
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
    pub(crate) fn new(def: &Regular) -> Self {
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
        // The items' variables, in order, each as often as it is read.
        let mut read = def.vars.clone();
        read.sort_unstable();
        read.dedup();
        let repeats = read.len() < def.vars.len();
        RegularProp {
            items,
            scope: def.vars.clone(),
            words,
            reached: vec![0; (n + 1) * words],
            alive: vec![0; (n + 1) * words],
            present: Vec::new(),
            starts: Vec::with_capacity(n + 1),
            marked: vec![false; symbols],
            supported: vec![false; symbols],
            automaton,
            repeats,
            explained: Default::default(),
        }
    }

    /// One forward and backward pass over the layered graph, keeping the values on some
    /// accepted path; whether it removed any.
    fn pass(&mut self, store: &mut Store) -> Result<bool, Fail> {
        self.collect_present(store);
        if !self.forward() {
            return Err(Fail);
        }
        let mut changed = false;
        for i in (0..self.items.len()).rev() {
            self.backward(i);
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
                if kept < layer.len() || store.iter(*var).any(|x| symbols[x as usize] == NONE) {
                    changed |= store.retain(*var, |x| {
                        let s = symbols[x as usize];
                        s != NONE && supported[s as usize]
                    })?;
                }
            }
            for &s in &self.present[layer] {
                self.supported[s as usize] = false;
            }
        }
        Ok(changed)
    }

    /// Lists the symbols each item may read.
    fn collect_present(&mut self, store: &Store) {
        self.present.clear();
        self.starts.clear();
        for item in &self.items {
            self.starts.push(self.present.len());
            match item {
                Item::Const(NONE) => {}
                Item::Const(s) => self.present.push(*s),
                Item::Var { var, symbols } => {
                    for index in store.iter(*var) {
                        let s = symbols[index as usize];
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

    /// The forward pass: the states reachable after each item. False if no accepting
    /// state is reachable at the end.
    fn forward(&mut self) -> bool {
        let (w, a) = (self.words, &*self.automaton);
        self.reached.fill(0);
        self.reached[a.start as usize / 64] |= 1 << (a.start % 64);
        for i in 0..self.items.len() {
            let layer = &self.present[self.starts[i]..self.starts[i + 1]];
            for &s in layer {
                self.marked[s as usize] = true;
            }
            let (here, next) = self.reached.split_at_mut((i + 1) * w);
            let here = &here[i * w..];
            let next = &mut next[..w];
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
        }
        let n = self.items.len();
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
            self.alive[n * w + word] = accepting;
            any |= accepting != 0;
        }
        any
    }

    /// The backward pass for item `i`: the states of layer `i` with a transition on a
    /// present symbol into a live state of layer `i + 1`, marking those symbols
    /// supported.
    fn backward(&mut self, i: usize) {
        let (w, a) = (self.words, &*self.automaton);
        let layer = &self.present[self.starts[i]..self.starts[i + 1]];
        for &s in layer {
            self.marked[s as usize] = true;
        }
        let (here, next) = self.alive.split_at_mut((i + 1) * w);
        let here = &mut here[i * w..];
        let next = &next[..w];
        for (word, slot) in here.iter_mut().enumerate() {
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
    }
}

impl<'a> Kind<'a> for Regular {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(RegularProp::new(self))
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
    use crate::propagators::checker::tests::{arg, fuzz, fuzz_domain_consistent, pooled_items};

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
