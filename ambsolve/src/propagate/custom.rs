//! A user's [`Propagator`], run through a [`Context`].

use crate::model::{CustomDef, VarId};
use crate::propagate::{Context, Propagator};
use crate::replay::Fail;
use crate::store::Store;

pub(super) struct Custom<'m> {
    scope: &'m [VarId],
    propagator: &'m (dyn Propagator + 'm),
}

impl<'m> Custom<'m> {
    pub(super) fn new(def: &'m CustomDef<'_>) -> Self {
        Custom {
            scope: &def.vars,
            propagator: &*def.propagator,
        }
    }

    pub(super) fn vars(&self) -> &[VarId] {
        self.scope
    }

    pub(super) fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.propagator
            .propagate(&mut Context::new(store, self.scope))
    }
}
