//! The propagator of each constraint kind of `model/global/`.

use crate::model::Global;
use crate::propagate::kernel::Kernel;
use crate::propagate::logic::{ClauseProp, LinearReifProp, XorProp};
use crate::propagate::order::MonotoneProp;
use crate::propagate::tours::{AllDifferentExceptProp, CircuitProp, InverseProp};
use crate::store::Store;

/// The trail engine's propagator for `global`, its trailed cells allocated in `store`.
pub(super) fn build(global: &Global, _store: &mut Store) -> Box<dyn Kernel> {
    match global {
        Global::Clause(def) => Box::new(ClauseProp::new(def)),
        Global::LinearReif(def) => Box::new(LinearReifProp::new(def)),
        Global::Xor(def) => Box::new(XorProp::new(def)),
        Global::Monotone(def) => Box::new(MonotoneProp::new(def)),
        Global::Circuit(def) => Box::new(CircuitProp::new(def)),
        Global::Inverse(def) => Box::new(InverseProp::new(def)),
        Global::AllDifferentExcept(def) => Box::new(AllDifferentExceptProp::new(def)),
    }
}
