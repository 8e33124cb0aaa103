//! Deterministic finite automata, the words a `regular` constraint accepts: [`Dfa`] as a
//! user builds it, and [`Automaton`], its checked form with transitions in arrays.

use std::fmt::Write as _;

/// A deterministic finite automaton over integer symbols: what
/// [`Model::regular`](crate::Model::regular) takes.
///
/// States are numbered `0..states`; one is the start, some are accepting. A transition
/// `(from, symbol, to)` reads `symbol` in state `from` and moves to `to`; a symbol with
/// no transition from the current state rejects the word. A word is accepted when,
/// read from the start, it ends in an accepting state (so the empty word is accepted
/// exactly when the start state is accepting).
///
/// The builder methods take and return `&mut Dfa`, so they chain and work in loops. A
/// state out of range, or two transitions on one symbol from one state to different
/// states, are found when the automaton is used: the model becomes invalid with a message
/// saying which (see [`Model::regular`](crate::Model::regular)).
///
/// ```
/// use ambsolve::Dfa;
///
/// // Words over {0, 1} with no two 1s in a row: state 1 just read a 1.
/// let mut dfa = Dfa::new(2, 0);
/// dfa.accept(0).accept(1);
/// dfa.transition(0, 0, 0).transition(0, 1, 1).transition(1, 0, 0);
/// assert!(dfa.accepts(&[1, 0, 1, 0, 0, 1]));
/// assert!(!dfa.accepts(&[0, 1, 1]));
/// assert!(!dfa.accepts(&[2])); // no transition on 2
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    states: usize,
    start: usize,
    accepting: Vec<usize>,
    transitions: Vec<(usize, i64, usize)>,
}

impl Dfa {
    /// An automaton with states `0..states`, starting in `start`, with no accepting state
    /// and no transition yet (it accepts nothing).
    pub fn new(states: usize, start: usize) -> Self {
        Dfa {
            states,
            start,
            accepting: Vec::new(),
            transitions: Vec::new(),
        }
    }

    /// Makes `state` accepting (again: no effect).
    pub fn accept(&mut self, state: usize) -> &mut Self {
        self.accepting.push(state);
        self
    }

    /// Adds the transition from `from` on `symbol` to `to` (the same transition again: no
    /// effect).
    pub fn transition(&mut self, from: usize, symbol: i64, to: usize) -> &mut Self {
        self.transitions.push((from, symbol, to));
        self
    }

    /// The number of states.
    pub fn states(&self) -> usize {
        self.states
    }

    /// The start state.
    pub fn start(&self) -> usize {
        self.start
    }

    /// The accepting states, as given (a state may repeat).
    pub fn accepting(&self) -> &[usize] {
        &self.accepting
    }

    /// The transitions `(from, symbol, to)`, as given.
    pub fn transitions(&self) -> &[(usize, i64, usize)] {
        &self.transitions
    }

    /// Whether the automaton accepts `word`. An automaton that is not valid (see the
    /// type's documentation) follows the first transition given for a state and symbol.
    pub fn accepts(&self, word: &[i64]) -> bool {
        let mut state = self.start;
        for &symbol in word {
            match self
                .transitions
                .iter()
                .find(|&&(from, s, _)| from == state && s == symbol)
            {
                Some(&(_, _, to)) => state = to,
                None => return false,
            }
        }
        state < self.states && self.accepting.contains(&state)
    }
}

/// A checked [`Dfa`]: its symbols sorted, each state's transitions in one run of arrays
/// sorted by symbol.
#[derive(Clone, Debug)]
pub(crate) struct Automaton {
    pub(crate) states: u32,
    pub(crate) start: u32,
    pub(crate) accepting: Vec<bool>,
    /// Every symbol some transition reads, sorted, without repeats.
    pub(crate) symbols: Vec<i64>,
    /// The transitions of state `q` are at `first[q]..first[q + 1]` of `on` (a symbol's
    /// position in `symbols`, rising) and `to`.
    pub(crate) first: Vec<u32>,
    pub(crate) on: Vec<u32>,
    pub(crate) to: Vec<u32>,
}

impl Automaton {
    /// Checks `dfa` and builds its arrays.
    ///
    /// # Errors
    /// What is wrong with it: a state out of range, two transitions on one symbol from one
    /// state to different states, more than `u32::MAX` states or transitions.
    pub(crate) fn new(dfa: &Dfa) -> Result<Self, String> {
        let states = u32::try_from(dfa.states)
            .ok()
            .filter(|_| dfa.transitions.len() < u32::MAX as usize)
            .ok_or_else(|| "the DFA has more than 2^32 - 1 states or transitions".to_string())?;
        let range = |what: &str, state: usize| {
            if state < dfa.states {
                Ok(state as u32)
            } else {
                Err(format!(
                    "the DFA's {what} {state} is not one of its {} states (0..{})",
                    dfa.states, dfa.states
                ))
            }
        };
        let start = range("start state", dfa.start)?;
        let mut accepting = vec![false; dfa.states];
        for &state in &dfa.accepting {
            accepting[range("accepting state", state)? as usize] = true;
        }
        let mut symbols: Vec<i64> = dfa.transitions.iter().map(|t| t.1).collect();
        symbols.sort_unstable();
        symbols.dedup();
        let mut arcs: Vec<(u32, u32, u32)> = Vec::with_capacity(dfa.transitions.len());
        for &(from, symbol, to) in &dfa.transitions {
            let what = format!("transition ({from}, {symbol}, {to})'s");
            let from = range(&format!("{what} state"), from)?;
            let to = range(&format!("{what} target"), to)?;
            let on = symbols.partition_point(|&s| s < symbol) as u32;
            arcs.push((from, on, to));
        }
        arcs.sort_unstable();
        arcs.dedup();
        if let Some(w) = arcs
            .windows(2)
            .find(|w| w[0].0 == w[1].0 && w[0].1 == w[1].1)
        {
            let (from, on) = (w[0].0, w[0].1);
            return Err(format!(
                "the DFA's state {from} has two transitions on symbol {} (to {} and to {}): a DFA has at most one",
                symbols[on as usize], w[0].2, w[1].2
            ));
        }
        let mut first = vec![0u32; dfa.states + 1];
        for &(from, _, _) in &arcs {
            first[from as usize + 1] += 1;
        }
        for q in 0..dfa.states {
            first[q + 1] += first[q];
        }
        Ok(Automaton {
            states,
            start,
            accepting,
            symbols,
            first,
            on: arcs.iter().map(|a| a.1).collect(),
            to: arcs.iter().map(|a| a.2).collect(),
        })
    }

    /// The position of `symbol` among the symbols, if a transition reads it.
    pub(crate) fn symbol(&self, symbol: i64) -> Option<u32> {
        self.symbols.binary_search(&symbol).ok().map(|s| s as u32)
    }

    /// The state reached from `state` on the symbol at position `on`, if any.
    pub(crate) fn next(&self, state: u32, on: u32) -> Option<u32> {
        let (from, to) = (
            self.first[state as usize] as usize,
            self.first[state as usize + 1] as usize,
        );
        let arcs = &self.on[from..to];
        arcs.binary_search(&on).ok().map(|k| self.to[from + k])
    }

    /// Whether it accepts `word`.
    pub(crate) fn accepts(&self, word: impl IntoIterator<Item = i64>) -> bool {
        let mut state = self.start;
        for symbol in word {
            match self.symbol(symbol).and_then(|on| self.next(state, on)) {
                Some(next) => state = next,
                None => return false,
            }
        }
        self.accepting[state as usize]
    }

    /// A description stating every parameter in a bounded length: the sizes, and a hash
    /// (FNV-1a) of the accepting states and transitions.
    pub(crate) fn describe(&self) -> String {
        let mut text = String::new();
        for (q, &accepting) in self.accepting.iter().enumerate() {
            if accepting {
                let _ = write!(text, "{q},");
            }
        }
        text.push(';');
        for q in 0..self.states as usize {
            for k in self.first[q] as usize..self.first[q + 1] as usize {
                let symbol = self.symbols[self.on[k] as usize];
                let _ = write!(text, "{q}:{symbol}:{},", self.to[k]);
            }
        }
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        format!(
            "DFA of {} states (start {}, {} accepting) and {} transitions, #{hash:016x}",
            self.states,
            self.start,
            self.accepting.iter().filter(|&&a| a).count(),
            self.to.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checked_automaton_reads_as_its_dfa() {
        let mut dfa = Dfa::new(3, 0);
        dfa.accept(2).accept(2);
        dfa.transition(0, 5, 1)
            .transition(1, -3, 2)
            .transition(2, 5, 0)
            .transition(0, 5, 1);
        let automaton = Automaton::new(&dfa).unwrap();
        assert_eq!(automaton.symbols, [-3, 5]);
        for word in [
            &[5, -3][..],
            &[5, -3, 5, 5, -3],
            &[],
            &[5],
            &[-3],
            &[5, -3, 7],
        ] {
            assert_eq!(automaton.accepts(word.iter().copied()), dfa.accepts(word));
        }
        assert!(automaton.accepts([5, -3]));
    }

    #[test]
    fn states_out_of_range_and_nondeterminism_are_named() {
        let error = |dfa: &Dfa| Automaton::new(dfa).unwrap_err();
        assert!(error(&Dfa::new(0, 0)).contains("start state 0 is not one of its 0 states"));
        assert!(error(Dfa::new(2, 0).accept(2)).contains("accepting state 2"));
        assert!(error(Dfa::new(2, 0).transition(0, 1, 3)).contains("(0, 1, 3)'s target 3"));
        assert!(error(Dfa::new(2, 0).transition(4, 1, 0)).contains("(4, 1, 0)'s state 4"));
        let two = error(Dfa::new(2, 0).transition(0, 1, 0).transition(0, 1, 1));
        assert!(
            two.contains("state 0 has two transitions on symbol 1"),
            "{two}"
        );
    }
}
