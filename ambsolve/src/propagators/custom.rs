//! A user's [`Propagator`], run through a [`Context`] over the store.

use std::sync::Arc;

use crate::choice::Fail;
use crate::model::CustomDef;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
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
}

impl<'a> Kind<'a> for CustomDef<'a> {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(Custom::new(self))
    }
}

impl BuiltinPropagator for Custom<'_> {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.propagator
            .propagate(&mut Context::new(store, &self.scope))
    }
}
