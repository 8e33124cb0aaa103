//! The propagator of each constraint kind of `model/global/`.

use crate::model::Global;
use crate::propagate::arith::{self, AbsProp, ExtremeProp};
use crate::propagate::counting::{CardinalityProp, CountEqProp, CountInProp, NValueProp};
use crate::propagate::kernel::Kernel;
use crate::propagate::logic::{ClauseProp, EqReifProp, LinearReifProp, XorProp};
use crate::propagate::lookup::{ElementConstProp, ElementProp};
use crate::propagate::order::{AllEqualProp, LexProp, MonotoneProp};
use crate::propagate::scheduling::{CumulativeProp, DisjunctiveProp};
use crate::propagate::sequences::RegularProp;
use crate::propagate::tours::{AllDifferentExceptProp, CircuitProp, InverseProp};
use crate::store::Store;

/// The trail engine's propagator for `global`, its trailed cells allocated in `store`.
pub(super) fn build(global: &Global, _store: &mut Store) -> Box<dyn Kernel> {
    match global {
        Global::Clause(def) => Box::new(ClauseProp::new(def)),
        Global::LinearReif(def) => match EqReifProp::try_new(def) {
            Some(kernel) => Box::new(kernel),
            None => Box::new(LinearReifProp::new(def)),
        },
        Global::Xor(def) => Box::new(XorProp::new(def)),
        Global::Monotone(def) => Box::new(MonotoneProp::new(def)),
        Global::Disjunctive(def) => Box::new(DisjunctiveProp::new(def)),
        Global::Cumulative(def) => Box::new(CumulativeProp::new(def)),
        Global::Circuit(def) => Box::new(CircuitProp::new(def)),
        Global::Inverse(def) => Box::new(InverseProp::new(def)),
        Global::AllDifferentExcept(def) => Box::new(AllDifferentExceptProp::new(def)),
        Global::Binary(def) => arith::binary(def),
        Global::Abs(def) => Box::new(AbsProp::new(def)),
        Global::Extreme(def) => Box::new(ExtremeProp::new(def)),
        Global::Element(def) => Box::new(ElementProp::new(def)),
        Global::ElementConst(def) => Box::new(ElementConstProp::new(def)),
        Global::Lex(def) => Box::new(LexProp::new(def)),
        Global::AllEqual(def) => Box::new(AllEqualProp::new(def)),
        Global::CountIn(def) => Box::new(CountInProp::new(def)),
        Global::CountEq(def) => Box::new(CountEqProp::new(def)),
        Global::Cardinality(def) => Box::new(CardinalityProp::new(def)),
        Global::NValue(def) => Box::new(NValueProp::new(def)),
        Global::Regular(def) => Box::new(RegularProp::new(def)),
    }
}
