//! A user's [`Propagator`], run through a [`Context`] over the store.

use std::sync::Arc;

use crate::choice::Fail;
use crate::model::CustomDef;
use crate::propagator::{Context, Propagator};
use crate::store::Store;
use crate::var::VarId;

pub(super) struct Custom<'a> {
    scope: Arc<[VarId]>,
    propagator: Arc<dyn Propagator + 'a>,
}

impl<'a> Custom<'a> {
    pub(super) fn new(def: &CustomDef<'a>) -> Self {
        Custom {
            scope: Arc::clone(&def.vars),
            propagator: Arc::clone(&def.propagator),
        }
    }

    pub(super) fn vars(&self) -> &[VarId] {
        &self.scope
    }

    pub(super) fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.propagator
            .propagate(&mut Context::new(store, &self.scope))
    }
}
