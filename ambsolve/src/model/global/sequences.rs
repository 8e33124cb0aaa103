//! Sequences read by an automaton: `regular`.

use std::sync::Arc;

use crate::model::global::{Automaton, Int, Meaning, vars_of};
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
    fn vars(&self) -> &[VarId] {
        &self.vars
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
