//! The propagator of each constraint kind of `model/global/`.

use crate::model::Global;
use crate::propagate::kernel::Kernel;
use crate::propagate::logic::{ClauseProp, LinearReifProp, XorProp};
use crate::propagate::order::MonotoneProp;
use crate::propagate::scheduling::{CumulativeProp, DisjunctiveProp};
use crate::store::Store;

/// The trail engine's propagator for `global`, its trailed cells allocated in `store`.
pub(super) fn build(global: &Global, _store: &mut Store) -> Box<dyn Kernel> {
    match global {
        Global::Clause(def) => Box::new(ClauseProp::new(def)),
        Global::LinearReif(def) => Box::new(LinearReifProp::new(def)),
        Global::Xor(def) => Box::new(XorProp::new(def)),
        Global::Monotone(def) => Box::new(MonotoneProp::new(def)),
        Global::Disjunctive(def) => Box::new(DisjunctiveProp::new(def)),
        Global::Cumulative(def) => Box::new(CumulativeProp::new(def)),
    }
}
