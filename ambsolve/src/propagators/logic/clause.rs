//! `l1 || l2 || ..`: once every literal but one is false, the last is made true.

use crate::choice::Fail;
use crate::model::Clause;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::LitView;
use crate::store::{Atoms, FIXED, Pred, Store};
use crate::var::VarId;

pub(crate) struct ClauseProp {
    lits: Vec<LitView>,
    scope: Vec<VarId>,
    /// Whether the last run left a literal true.
    satisfied: bool,
    /// Whether no variable carries two literals (then it explains its changes).
    distinct: bool,
}

impl ClauseProp {
    pub(crate) fn new(def: &Clause) -> Self {
        let lits: Vec<LitView> = def.lits.iter().map(LitView::new).collect();
        let mut vars: Vec<usize> = lits.iter().map(|l| l.var).collect();
        vars.sort_unstable();
        vars.dedup();
        ClauseProp {
            distinct: vars.len() == lits.len(),
            lits,
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

    fn explains(&self) -> bool {
        self.distinct
    }

    /// The literal made true, by every other one false (its variable without the value
    /// that makes it true); a failure, by all of them false.
    fn explain(&self, _atoms: &Atoms, _at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let made = pred.map(|p| p.var as usize);
        for lit in &self.lits {
            if Some(lit.var) != made {
                out.extend(lit.when_true().map(|t| Pred::ne(lit.var, t)));
            }
        }
        true
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

    #[test]
    fn clauses_sharing_variables_explain_what_they_fix() {
        // Random small formulas: the learning search's conflicts ask each clause why it
        // fixed a literal, and why it failed.
        fuzz(400, |rng| {
            let mut m = Model::new();
            let vars: Vec<Lit> = (0..3 + rng.below(3))
                .map(|_| match rng.below(2) {
                    0 => Lit::from(&m.var([false, true])),
                    _ => Lit::from(&m.var([1i64, 0])),
                })
                .collect();
            for _ in 0..3 + rng.below(6) {
                let mut picked: Vec<Lit> = Vec::new();
                for _ in 0..1 + rng.below(3) {
                    let lit = vars[rng.below(vars.len() as u64) as usize];
                    if picked.iter().all(|p| p.var() != lit.var()) {
                        picked.push(if rng.below(2) == 0 { lit } else { !lit });
                    }
                }
                m.clause(picked);
            }
            m
        });
    }
}
