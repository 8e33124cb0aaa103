//! Sequences read by an automaton: `regular`.
//!
//! Its `Model` methods: sequences read by an automaton.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::model::constraint::{Automaton, Constraint, Dfa, Int, IntArg, Meaning, vars_of};
use crate::var::VarId;

/// The items, read in order as a word, are accepted by a deterministic automaton.
pub(crate) struct Regular {
    pub(crate) items: Vec<Int>,
    pub(crate) automaton: Arc<Automaton>,
    pub(crate) vars: Vec<VarId>,
}

impl Regular {
    pub(crate) fn new(items: Vec<Int>, automaton: Automaton) -> Self {
        let vars = vars_of(&items);
        Regular {
            items,
            automaton: Arc::new(automaton),
            vars,
        }
    }
}

impl Meaning for Regular {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.automaton
            .accepts(self.items.iter().map(|x| x.value(values)))
    }

    fn describe(&self) -> String {
        let items: Vec<String> = self.items.iter().map(Int::describe).collect();
        format!(
            "regular [{}] by a {}",
            items.join(", "),
            self.automaton.describe()
        )
    }
}

impl<'a> Model<'a> {
    /// The items, read in order as a word, are accepted by the deterministic automaton
    /// `dfa` (see [`Dfa`]): the *regular* constraint. Items are variables with integer
    /// values or constants (see [`IntArg`]); a value no transition reads is never taken.
    ///
    /// The trail engine propagates it on the layered graph of the automaton's states
    /// (Pesant's algorithm: the states reachable from the start and those that reach an
    /// accepting state after each item), keeping exactly the values that lie on some
    /// accepted word (domain consistent when no variable repeats).
    ///
    /// # Errors
    /// A `dfa` whose start, accepting or transition states are not among its states, or
    /// with two transitions on one symbol from one state to different states, makes the
    /// model invalid (searches return
    /// [`SearchError::InvalidModel`](crate::SearchError::InvalidModel)) with a message
    /// naming the fault.
    ///
    /// ```
    /// use ambsolve::{Dfa, Engine, Model};
    ///
    /// // Five bits whose 1s form one block of two: 4 places for the block.
    /// let mut dfa = Dfa::new(4, 0);
    /// dfa.accept(2).accept(3);
    /// dfa.transition(0, 0, 0).transition(0, 1, 1); // before the block
    /// dfa.transition(1, 1, 2); // its second cell
    /// dfa.transition(2, 0, 3).transition(3, 0, 3); // after it
    /// let mut m = Model::new();
    /// let x = m.vars("x", 5, 0..2);
    /// m.regular(&x, &dfa);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 4);
    /// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 4);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn regular<A: Into<IntArg>>(&mut self, items: impl IntoIterator<Item = A>, dfa: &Dfa) {
        let Some(items) = self.ints(items) else {
            return;
        };
        match Automaton::new(dfa) {
            Ok(automaton) => {
                // An item over millions of values stands behind a listed alias over the
                // symbols it can read: the propagator reads each item's values one by one.
                let items = items
                    .into_iter()
                    .map(|item| {
                        self.listed_if_wide(item, |images| {
                            let (low, high) = images.extremes().unwrap_or((0, -1));
                            automaton
                                .symbols
                                .iter()
                                .copied()
                                .filter(|s| {
                                    (low..=high).contains(s) && images.position(*s).is_some()
                                })
                                .collect()
                        })
                    })
                    .collect();
                self.post(Constraint::Regular(Arc::new(Regular::new(
                    items, automaton,
                ))));
            }
            Err(message) => self.invalid(format!("regular: {message}")),
        }
    }
}
