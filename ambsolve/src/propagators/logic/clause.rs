//! `l1 || l2 || ..`: once every literal but one is false, the last is made true.

use crate::choice::Fail;
use crate::model::Clause;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::LitView;
use crate::store::{FIXED, Store};
use crate::var::VarId;

pub(crate) struct ClauseProp {
    lits: Vec<LitView>,
    scope: Vec<VarId>,
    /// Whether the last run left a literal true.
    satisfied: bool,
}

impl ClauseProp {
    pub(crate) fn new(def: &Clause) -> Self {
        ClauseProp {
            lits: def.lits.iter().map(LitView::new).collect(),
            scope: def.vars.clone(),
            satisfied: false,
        }
    }
}

impl<'a> Kind<'a> for Clause {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(ClauseProp::new(self))
    }
}

impl BuiltinPropagator for ClauseProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, _local: usize) -> u8 {
        FIXED
    }

    fn finishes(&self) -> bool {
        true
    }

    fn finished(&self) -> bool {
        self.satisfied
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.satisfied = false;
        let mut open = None;
        for (k, lit) in self.lits.iter().enumerate() {
            match lit.value(store) {
                Some(true) => {
                    self.satisfied = true;
                    return Ok(());
                }
                Some(false) => {}
                None if open.is_some() => return Ok(()),
                None => open = Some(k),
            }
        }
        match open {
            None => Err(Fail),
            Some(k) => {
                self.lits[k].set(store, true)?;
                self.satisfied = true;
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Lit, Model};
    use crate::propagators::checker::tests::fuzz;

    #[test]
    fn clauses_agree_with_their_meaning() {
        fuzz(300, |rng| {
            let mut m = Model::new();
            let n = 1 + rng.below(4) as usize;
            // Booleans, booleans listed true first, and 0/1 integers.
            let lits: Vec<Lit> = (0..n)
                .map(|_| {
                    let lit = match rng.below(3) {
                        0 => Lit::from(&m.var([false, true])),
                        1 => Lit::from(&m.var([true, false])),
                        _ => Lit::from(&m.var([1i64, 0])),
                    };
                    if rng.below(2) == 0 { lit } else { !lit }
                })
                .collect();
            m.clause(lits);
            m
        });
    }
}
