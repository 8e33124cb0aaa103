//! A linear constraint tied to a literal. Once the literal is fixed, the constraint (or,
//! fully reified, its negation) is enforced by the linear propagator; until then the
//! bounds of the sum decide the literal when they can: entailed makes it true (fully
//! reified only), disentailed makes it false.

use crate::choice::Fail;
use crate::model::{Kind, LinearReif, Reification};
use crate::propagator::BuiltinPropagator;
use crate::propagators::linear::Linear;
use crate::propagators::logic::EqReifProp;
use crate::propagators::view::LitView;
use crate::store::{Atoms, BOUNDS, CHANGED, Pred, Store};
use crate::var::VarId;

pub(crate) struct LinearReifProp {
    lit: LitView,
    /// The constraint, and its negation (fully reified only).
    holds: Linear,
    fails: Option<Linear>,
    scope: Vec<VarId>,
    wakes: u8,
    /// Whether the last run left the reification sure to hold (see [`BuiltinPropagator::finished`]).
    holds_anyway: bool,
}

/// An `==` or `!=` over one variable gets [`EqReifProp`], which sees every hole; any
/// other reified sum reasons on bounds.
impl<'a> Kind<'a> for LinearReif {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        match EqReifProp::try_new(self) {
            Some(propagator) => Box::new(propagator),
            None => Box::new(LinearReifProp::new(self)),
        }
    }
}

impl LinearReifProp {
    pub(crate) fn new(def: &LinearReif) -> Self {
        let holds = Linear::new(&def.linear);
        let fails = (def.reification == Reification::Full).then(|| {
            let mut negated = def.linear.clone();
            negated.cmp = negated.cmp.negated();
            Linear::new(&negated)
        });
        // Bounds decide entailment; a term with mixed images (or the `x - y == c` rule of
        // an equality) needs every change.
        let wakes = holds.wakes_on() | fails.as_ref().map_or(0, Linear::wakes_on) | BOUNDS;
        let wakes = if wakes & CHANGED != 0 { CHANGED } else { wakes };
        LinearReifProp {
            lit: LitView::new(&def.lit),
            holds,
            fails,
            scope: def.vars.clone(),
            wakes,
            holds_anyway: false,
        }
    }
}

impl BuiltinPropagator for LinearReifProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, _local: usize) -> u8 {
        self.wakes
    }

    fn finishes(&self) -> bool {
        true
    }

    fn finished(&self) -> bool {
        self.holds_anyway
    }

    /// Where the sums explain themselves: the literal, fixed, and the sum it enforces;
    /// or, the literal decided, the bounds that make the sum (or its negation) fail.
    fn explains(&self) -> bool {
        let in_sum = self.holds.scope().iter().any(|v| v.index() == self.lit.var);
        !in_sum && self.holds.explains() && self.fails.as_ref().is_none_or(Linear::explains)
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some((value, fixed)) = self.lit.fixed_pred(atoms) else {
            return false;
        };
        let sum = |value: bool| {
            if value {
                Some(&self.holds)
            } else {
                self.fails.as_ref()
            }
        };
        match pred {
            Some(p) if p.var as usize == self.lit.var => {
                // Decided by the bounds: the sum it rules out cannot hold.
                let Some(ruled_out) = sum(!value) else {
                    return false;
                };
                ruled_out.explain(atoms, at, None, out)
            }
            _ => {
                let Some(enforced) = sum(value) else {
                    return false;
                };
                out.push(fixed);
                enforced.explain(atoms, at, pred, out)
            }
        }
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.holds_anyway = false;
        self.holds_anyway = match self.lit.value(store) {
            Some(true) => settled(&mut self.holds, store)?,
            Some(false) => match &mut self.fails {
                Some(negation) => settled(negation, store)?,
                // `lit -> sum` with `lit` false.
                None => true,
            },
            None => match self.holds.entailment(store)? {
                // The sum cannot hold: the literal is false, and its negation holds.
                Some(false) => {
                    self.lit.set(store, false)?;
                    true
                }
                Some(true) if self.fails.is_some() => {
                    self.lit.set(store, true)?;
                    true
                }
                // `lit -> sum` with the sum sure to hold.
                Some(true) => true,
                None => false,
            },
        };
        Ok(())
    }
}

/// Runs `linear`; whether the sum is then sure to hold. A run goes to its own fixpoint
/// and so decides what its own pruning fixed (`-3x + 3y != -2` negated, say): its last
/// pass read the bounds it left, and says whether they entail the sum.
fn settled(linear: &mut Linear, store: &mut Store) -> Result<bool, Fail> {
    linear.propagate(store)?;
    Ok(linear.entailed())
}

#[cfg(test)]
mod tests {
    use crate::model::{Cmp, Model};
    use crate::propagators::checker::tests::fuzz;
    use crate::var::Var;

    #[test]
    fn reified_and_half_reified_sums_agree_with_their_meaning() {
        let cmps = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
        fuzz(600, |rng| {
            let mut m = Model::new();
            let n = 1 + rng.below(3) as usize;
            let x: Vec<_> = (0..n)
                .map(|_| {
                    let low = rng.below(5) as i64 - 2;
                    m.var(low..low + 1 + rng.below(4) as i64)
                })
                .collect();
            let b = m.var([false, true]);
            let terms: Vec<(i64, &Var<i64>)> =
                x.iter().map(|v| (rng.below(7) as i64 - 3, v)).collect();
            let cmp = cmps[rng.below(6) as usize];
            let rhs = rng.below(9) as i64 - 4;
            if rng.below(2) == 0 {
                m.linear_reified(terms, cmp, rhs, &b);
            } else {
                m.linear_implied(terms, cmp, rhs, &b);
            }
            m
        });
    }
}
