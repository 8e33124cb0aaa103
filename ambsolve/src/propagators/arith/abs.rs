//! `z = |x|`: `z` within the magnitudes of `x`'s bounds, `x` within `-max z..=max z` and
//! away from 0 by `min z` (bounds consistent at its fixpoint); every value without
//! support removed once few values are left (domain consistent).

use crate::choice::Fail;
use crate::model::Abs;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::arith::{bounds, magnitudes, outside, propagate_binary, wakes};
use crate::propagators::view::IntView;
use crate::store::Store;
use crate::var::VarId;

pub(crate) struct AbsProp {
    x: IntView,
    z: IntView,
    scope: Vec<VarId>,
    wakes: Vec<u8>,
}

impl AbsProp {
    pub(crate) fn new(def: &Abs) -> Self {
        let (x, z) = (IntView::new(&def.x), IntView::new(&def.z));
        AbsProp {
            wakes: wakes(&[&x, &z]),
            x,
            z,
            scope: def.vars.clone(),
        }
    }

    /// One round of bounds reasoning. Returns whether a domain changed.
    fn round(&self, store: &mut Store) -> Result<bool, Fail> {
        let (x, z) = (&self.x, &self.z);
        let (xl, xh) = bounds(x, store)?;
        let (least, most) = magnitudes(xl, xh);
        let mut changed = z.keep_within(store, least, most)?;
        let (zl, zh) = bounds(z, store)?;
        changed |= x.keep_within(store, -zh, zh)?;
        if zl > 0 {
            changed |= outside(x, store, zl)?;
        }
        Ok(changed)
    }
}

impl<'a> Kind<'a> for Abs {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(AbsProp::new(self))
    }
}

impl BuiltinPropagator for AbsProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, local: usize) -> u8 {
        self.wakes[local]
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        // `z = x op y` with a constant `y` that `op` ignores.
        let nothing = IntView::Const(0);
        propagate_binary(
            store,
            [&self.x, &nothing, &self.z],
            |a, _| Some(i128::from(a).abs()),
            |_| Ok(()),
            |store| self.round(store),
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Constraint;
    use crate::model::Model;
    use crate::propagators::arith::tests::{
        after_propagation, bounds_only, ends_supported, every_value_supported, int_arg,
    };
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    fn make(rng: &mut Rng) -> Model<'static> {
        let mut m = Model::new();
        let x = int_arg(&mut m, rng);
        let z = match rng.below(5) {
            0 => x.clone(),
            _ => int_arg(&mut m, rng),
        };
        m.abs(x, z);
        m
    }

    #[test]
    fn absolute_values_agree_with_their_meaning() {
        fuzz(500, make);
    }

    #[test]
    fn few_absolute_values_keep_only_supported_values() {
        after_propagation(400, make, every_value_supported);
    }

    #[test]
    fn absolute_values_by_bounds_alone_agree_with_their_meaning() {
        bounds_only(|| fuzz(500, make));
    }

    #[test]
    fn absolute_values_by_bounds_alone_are_bounds_consistent() {
        bounds_only(|| {
            after_propagation(600, make, |global, store| {
                let Constraint::Abs(def) = global else {
                    return Ok(());
                };
                let args = [def.x.clone(), def.z.clone()];
                ends_supported(&args, store, |v| i128::from(v[0]).abs() == i128::from(v[1]))
            });
        });
    }
}
