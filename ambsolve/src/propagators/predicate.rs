//! Predicates over named variables: checked once all are fixed, forward-checked when one
//! is left open.

use smallvec::SmallVec;

use std::sync::Arc;

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::{Check, PredicateDef};
use crate::propagator::BuiltinPropagator;
use crate::store::FIXED;
use crate::store::Store;
use crate::var::VarId;

pub(super) struct Predicate<'a> {
    scope: Arc<[VarId]>,
    check: Check<'a>,
}

impl<'a> Predicate<'a> {
    pub(super) fn new(def: &PredicateDef<'a>) -> Self {
        Predicate {
            scope: Arc::clone(&def.vars),
            check: Arc::clone(&def.check),
        }
    }
}

impl<'a> Kind<'a> for PredicateDef<'a> {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(Predicate::new(self))
    }
}

/// Woken when a variable is fixed: it checks only when at most one is left open.
impl BuiltinPropagator for Predicate<'_> {
    fn wakes(&self, _local: usize) -> u8 {
        FIXED
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let mut tuple: SmallVec<[u32; 8]> = SmallVec::with_capacity(self.scope.len());
        let mut open = None;
        for (position, var) in self.scope.iter().enumerate() {
            let var = var.index();
            if store.is_fixed(var) {
                tuple.push(store.min(var).ok_or(Fail)?);
            } else if open.is_some() && open.map(|(_, v)| v) != Some(var) {
                return Ok(()); // two open variables: nothing to check yet
            } else {
                open = Some((position, var));
                tuple.push(0);
            }
        }
        match open {
            None => {
                if (self.check)(&tuple) {
                    Ok(())
                } else {
                    Err(Fail)
                }
            }
            Some((_, var)) => {
                // Forward checking: keep the values of the open variable that pass. The
                // same variable may stand at several positions.
                let positions: SmallVec<[usize; 2]> = (0..self.scope.len())
                    .filter(|&p| self.scope[p].index() == var)
                    .collect();
                store.retain(var, |i| {
                    for &p in &positions {
                        tuple[p] = i;
                    }
                    (self.check)(&tuple)
                })?;
                Ok(())
            }
        }
    }
}
