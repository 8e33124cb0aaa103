//! An odd number of literals true: once every literal but one is fixed, the last takes
//! the value that makes the count odd.

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::Xor;
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::LitView;
use crate::store::{Atoms, FIXED, Pred, Store};
use crate::var::VarId;

pub(crate) struct XorProp {
    lits: Vec<LitView>,
    scope: Vec<VarId>,
}

impl XorProp {
    pub(crate) fn new(def: &Xor) -> Self {
        XorProp {
            lits: def.lits.iter().map(LitView::new).collect(),
            scope: def.vars.clone(),
        }
    }
}

impl<'a> Kind<'a> for Xor {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(XorProp::new(self))
    }
}

impl BuiltinPropagator for XorProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, _local: usize) -> u8 {
        FIXED
    }

    fn explains(&self) -> bool {
        true
    }

    /// The literal made true or false, by the values of the others (each variable
    /// without the value that would flip its literal); a failure, by all of them.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let made = pred.map(|p| p.var as usize);
        for lit in &self.lits {
            if Some(lit.var) == made {
                continue;
            }
            let (low, high) = atoms.ends_before(lit.var, at);
            if low != high {
                return false;
            }
            // The value of the other side is gone (a literal that has no such value
            // needs nothing).
            let gone = if Some(low) == lit.when_true() {
                lit.when_false()
            } else if Some(low) == lit.when_false() {
                lit.when_true()
            } else {
                return false;
            };
            out.extend(gone.map(|g| Pred::ne(lit.var, g)));
        }
        true
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let mut open = None;
        let mut odd = false;
        for (k, lit) in self.lits.iter().enumerate() {
            match lit.value(store) {
                Some(value) => odd ^= value,
                None if open.is_some_and(|o: usize| self.lits[o].var != lit.var) => {
                    return Ok(());
                }
                None => open = Some(k),
            }
        }
        match open {
            None if odd => Ok(()),
            None => Err(Fail),
            // A variable under several open literals: decided by the meaning once fixed.
            Some(k)
                if self
                    .lits
                    .iter()
                    .filter(|l| l.var == self.lits[k].var)
                    .count()
                    > 1 =>
            {
                Ok(())
            }
            Some(k) => self.lits[k].set(store, !odd).map(|_| ()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Lit, Model};
    use crate::propagators::checker::tests::fuzz;

    #[test]
    fn parity_agrees_with_its_meaning() {
        fuzz(300, |rng| {
            let mut m = Model::new();
            let n = 1 + rng.below(3) as usize;
            let b: Vec<_> = (0..n).map(|_| m.var([false, true])).collect();
            let lits: Vec<Lit> = (0..1 + rng.below(4))
                .map(|_| {
                    let lit = Lit::from(&b[rng.below(n as u64) as usize]);
                    if rng.below(2) == 0 { lit } else { !lit }
                })
                .collect();
            m.xor(lits);
            m
        });
    }
}
