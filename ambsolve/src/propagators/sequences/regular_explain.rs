//! Explanations of the regular constraint, for a search that learns.
//!
//! Over the domains before the atom to explain, `reach[k]` holds the states of layer `k`
//! that some path from the start reaches, and `live[k]` those from which some path reaches
//! an accepting state at the last layer. A value is gone from item `i` because every
//! transition on its symbol at layer `i` leaves a state outside `reach[i]` or enters one
//! outside `live[i + 1]`; a failure, because no accepting state is in `reach[n]`.
//!
//! Each state cut off is then explained in turn, layer by layer away from the item: a state
//! out of reach at layer `k`, by each transition into it, either its symbol gone from item
//! `k - 1` (a predicate), or its source out of reach at layer `k - 1` (explained in turn);
//! a dead state likewise forward, down to the accepting states. A symbol is gone from an
//! item when each value index that reads it is: `x != u` inside the ends, an end past `u`
//! outside them. The explanation is the cut these symbols make in the layered graph:
//! nearer the item than the fallback's whole scope, and checked to hold (when it does not,
//! as with a variable read by several items, the engine falls back).

use std::cell::RefCell;

use super::regular::{Item, NONE, RegularProp};
use crate::model::Automaton;
use crate::propagators::dedup_from;
use crate::store::{Atoms, Cause, Pred};

/// The layered graph of the last explanation, with what it was read at: the trail's
/// [`undos`](Atoms::undos) and the position before which the domains were read.
#[derive(Default)]
pub(super) struct Cached(RefCell<Option<(u64, u32, Layers)>>);

/// Bit `q` of a layer's state set.
#[inline]
fn has(set: &[u64], q: usize) -> bool {
    set[q / 64] & (1 << (q % 64)) != 0
}

#[inline]
fn add(set: &mut [u64], q: usize) {
    set[q / 64] |= 1 << (q % 64);
}

/// The layered graph over the domains before an atom: which symbols each item may read,
/// and the states reached and live per layer. The layers are computed as they are asked
/// for: states reached from the start up to the last layer asked (`reached_to`), live
/// states from the end down to the first asked (`live_from`). An explanation of a value
/// of item `i` reads reach up to layer `i` and life from layer `i + 1`, a failure reach
/// alone: about half of the graph.
struct Layers {
    symbols: usize,
    words: usize,
    /// `present[k * symbols + s]`: item `k` may read symbol `s`.
    present: Vec<bool>,
    reach: Vec<u64>,
    live: Vec<u64>,
    /// Layers `0..=reached_to` of `reach` are computed.
    reached_to: usize,
    /// Layers `live_from..=n` of `live` are computed.
    live_from: usize,
}

impl Layers {
    fn present(&self, k: usize, s: u32) -> bool {
        self.present[k * self.symbols + s as usize]
    }

    fn reach(&self, k: usize) -> &[u64] {
        debug_assert!(k <= self.reached_to, "reach of layer {k} not computed");
        &self.reach[k * self.words..(k + 1) * self.words]
    }

    fn live(&self, k: usize) -> &[u64] {
        debug_assert!(k >= self.live_from, "life of layer {k} not computed");
        &self.live[k * self.words..(k + 1) * self.words]
    }

    /// Computes the states reached up to layer `to`.
    fn reach_to(&mut self, a: &Automaton, to: usize) {
        let w = self.words;
        while self.reached_to < to {
            let k = self.reached_to;
            for q in 0..a.states as usize {
                if !has(self.reach(k), q) {
                    continue;
                }
                for t in a.first[q] as usize..a.first[q + 1] as usize {
                    if self.present(k, a.on[t]) {
                        add(&mut self.reach[(k + 1) * w..], a.to[t] as usize);
                    }
                }
            }
            self.reached_to += 1;
        }
    }

    /// Computes the live states down to layer `from`.
    fn live_from(&mut self, a: &Automaton, from: usize) {
        let w = self.words;
        while self.live_from > from {
            let k = self.live_from - 1;
            for q in 0..a.states as usize {
                let lives = (a.first[q] as usize..a.first[q + 1] as usize)
                    .any(|t| self.present(k, a.on[t]) && has(self.live(k + 1), a.to[t] as usize));
                if lives {
                    add(&mut self.live[k * w..], q);
                }
            }
            self.live_from = k;
        }
    }
}

impl RegularProp {
    /// The most layers × (states + symbols) an explanation reads.
    const EXPLAINED_CELLS: usize = 1 << 22;
    /// The most values of a variable an explanation reads.
    const EXPLAINED_VALUES: usize = 1 << 12;

    /// The layered graph over the domains before `at`; `None` when too large to read.
    fn layers_before(&self, atoms: &Atoms, at: u32) -> Option<Layers> {
        let a = &*self.automaton;
        let (n, w, symbols) = (self.items.len(), self.words, a.symbols.len());
        if (n + 1) * (w * 64 + symbols) > Self::EXPLAINED_CELLS {
            return None;
        }
        let mut present = vec![false; n * symbols];
        for (k, item) in self.items.iter().enumerate() {
            let row = &mut present[k * symbols..(k + 1) * symbols];
            match item {
                Item::Const(NONE) => {}
                Item::Const(s) => row[*s as usize] = true,
                Item::Var {
                    var,
                    symbols: images,
                } => {
                    if images.len() > Self::EXPLAINED_VALUES {
                        return None;
                    }
                    let (low, high) = atoms.ends_before(*var, at);
                    for u in low..=high.min(images.len() as u32 - 1) {
                        let s = images[u as usize];
                        if s != NONE && !atoms.absent_before(*var, u, at) {
                            row[s as usize] = true;
                        }
                    }
                }
            }
        }
        let mut layers = Layers {
            symbols,
            words: w,
            present,
            reach: vec![0; (n + 1) * w],
            live: vec![0; (n + 1) * w],
            reached_to: 0,
            live_from: n,
        };
        add(&mut layers.reach[..w], a.start as usize);
        for q in 0..a.states as usize {
            if a.accepting[q] {
                add(&mut layers.live[n * w..], q);
            }
        }
        Some(layers)
    }

    /// Explains `pred` (made true by the atom at `at`), or with `None` the failure: see
    /// the module's comment. False where the layered graph does not show it.
    pub(super) fn explain_cut(
        &self,
        atoms: &Atoms,
        at: u32,
        pred: Option<Pred>,
        out: &mut Vec<Pred>,
    ) -> bool {
        // One pass (no variable read twice) removes what the domains as it began do not
        // support: every atom of the run is explained by the graph over those, read once
        // for all of them. A failure, or a repeated pass, reads the domains before `at`.
        let base = match pred {
            Some(_) if !self.repeats => match atoms.at(at).cause {
                Cause::Prop { start, .. } => start,
                _ => at,
            },
            _ => at,
        };
        let mut cached = self.explained.0.borrow_mut();
        let key = (atoms.undos(), base);
        if cached
            .as_ref()
            .is_none_or(|(undos, read, _)| (*undos, *read) != key)
        {
            *cached = None;
            let Some(layers) = self.layers_before(atoms, base) else {
                return false;
            };
            *cached = Some((key.0, key.1, layers));
        }
        let Some((_, _, layers)) = cached.as_mut() else {
            return false;
        };
        let a = &*self.automaton;
        let (n, w, states) = (self.items.len(), self.words, a.states as usize);
        // The states to explain cut off, per layer: out of reach, and dead.
        let mut unreached = vec![0u64; (n + 1) * w];
        let mut dead = vec![0u64; (n + 1) * w];
        let from = out.len();
        match pred {
            Some(pred) => {
                let Some(values) = atoms.removed_by(at, pred, 64, out) else {
                    return false;
                };
                for u in values {
                    // An item of this variable on which no transition reads `u`'s symbol.
                    let cut = self.items.iter().enumerate().find(|(i, item)| match item {
                        Item::Var { var, symbols } if *var == pred.var as usize => {
                            let s = symbols.get(u as usize).copied().unwrap_or(NONE);
                            layers.reach_to(a, *i);
                            layers.live_from(a, i + 1);
                            s == NONE
                                || (0..states).all(|q| {
                                    (a.first[q] as usize..a.first[q + 1] as usize).all(|t| {
                                        a.on[t] != s
                                            || !has(layers.reach(*i), q)
                                            || !has(layers.live(i + 1), a.to[t] as usize)
                                    })
                                })
                        }
                        _ => false,
                    });
                    let Some((i, Item::Var { symbols, .. })) = cut else {
                        return false;
                    };
                    let s = symbols.get(u as usize).copied().unwrap_or(NONE);
                    if s == NONE {
                        continue;
                    }
                    for q in 0..states {
                        for t in a.first[q] as usize..a.first[q + 1] as usize {
                            if a.on[t] != s {
                                continue;
                            }
                            if !has(layers.reach(i), q) {
                                add(&mut unreached[i * w..], q);
                            } else {
                                add(&mut dead[(i + 1) * w..], a.to[t] as usize);
                            }
                        }
                    }
                }
            }
            None => {
                layers.reach_to(a, n);
                for q in 0..states {
                    if a.accepting[q] {
                        if has(layers.reach(n), q) {
                            return false;
                        }
                        add(&mut unreached[n * w..], q);
                    }
                }
            }
        }
        // The symbols gone from each item that the cut needs.
        let mut needed = vec![false; layers.present.len()];
        for k in (1..=n).rev() {
            if unreached[k * w..(k + 1) * w].iter().all(|&b| b == 0) {
                continue;
            }
            for q in 0..states {
                for t in a.first[q] as usize..a.first[q + 1] as usize {
                    if !has(&unreached[k * w..], a.to[t] as usize) {
                        continue;
                    }
                    let s = a.on[t];
                    let before = &mut unreached[(k - 1) * w..k * w];
                    if !layers.present(k - 1, s) {
                        if !has(before, q) {
                            needed[(k - 1) * layers.symbols + s as usize] = true;
                        }
                    } else if has(layers.reach(k - 1), q) {
                        // Not cut off after all.
                        return false;
                    } else {
                        add(before, q);
                    }
                }
            }
        }
        for k in 0..n {
            if dead[k * w..(k + 1) * w].iter().all(|&b| b == 0) {
                continue;
            }
            for q in 0..states {
                if !has(&dead[k * w..], q) {
                    continue;
                }
                for t in a.first[q] as usize..a.first[q + 1] as usize {
                    let (s, to) = (a.on[t], a.to[t] as usize);
                    let after = &mut dead[(k + 1) * w..(k + 2) * w];
                    if !layers.present(k, s) {
                        if !has(after, to) {
                            needed[k * layers.symbols + s as usize] = true;
                        }
                    } else if has(layers.live(k + 1), to) {
                        return false;
                    } else {
                        add(after, to);
                    }
                }
            }
        }
        // The predicates that make those symbols gone.
        for (k, item) in self.items.iter().enumerate() {
            let Item::Var { var, symbols } = item else {
                continue;
            };
            let row = &needed[k * layers.symbols..(k + 1) * layers.symbols];
            if !row.iter().any(|&b| b) {
                continue;
            }
            let gone = symbols
                .iter()
                .enumerate()
                .filter(|&(_, &s)| s != NONE && row[s as usize])
                .map(|(u, _)| u as u32);
            atoms.explain_gone(*var, at, gone, out);
        }
        dedup_from(out, from);
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Dfa, Model};
    use crate::store::{Cause, Pred, Store};

    /// `x0 == x1` as an automaton. The same run position explained twice, the trail
    /// undone between: the second explanation reads the new domains, not the graph the
    /// first one read.
    #[test]
    fn an_explanation_after_an_undo_reads_the_domains_again() {
        let mut m = Model::new();
        let x: Vec<_> = (0..2).map(|_| m.var(0..2i64)).collect();
        let mut dfa = Dfa::new(4, 0);
        dfa.transition(0, 0, 1)
            .transition(0, 1, 2)
            .transition(1, 0, 3)
            .transition(2, 1, 3)
            .accept(3);
        m.regular(&x, &dfa);
        let (x0, x1) = (x[0].id().index(), x[1].id().index());
        let mut store = Store::with_domains(m.universes(), |_| None);
        let mut propagator = m.constraints()[0].kind().propagator(&mut store);
        store.record_atoms();
        store.set_level(1);
        let mark = store.mark();
        for (gone, explained, expected) in [
            (1, Pred::le(x1, 0), Pred::le(x0, 0)),
            (0, Pred::ge(x1, 1), Pred::ge(x0, 1)),
        ] {
            store.undo_to(mark);
            store.atoms_mut().expect("recording").undo_to(0, |_| {});
            store.set_cause(Cause::Decision);
            store.remove(x0, gone).expect("x0 keeps a value");
            store.clear_events();
            store.set_cause_prop(0);
            let at = store.atoms().expect("recording").len() as u32;
            propagator.propagate(&mut store).expect("x1 follows");
            let atoms = store.atoms().expect("recording");
            assert_eq!(atoms.at(at).pred, explained);
            let mut out = Vec::new();
            assert!(propagator.explain(atoms, at, Some(explained), &mut out));
            assert_eq!(out, [expected]);
        }
    }
}
