//! `x % y = z`, the remainder with the sign of `x`: `y` never 0; `z` between 0 and `x`
//! and smaller in magnitude than the largest `|y|`; a `z` away from 0 gives `x` its sign
//! and at least its magnitude, and `|y|` more than the least `|z|`. Every value without
//! support removed once few pairs are left.

use crate::choice::Fail;
use crate::model::global::{Binary, Op};
use crate::propagate::arith::{ROUNDS, bounds, decide, outside, pairs, wakes};
use crate::propagate::kernel::Kernel;
use crate::propagate::view::IntView;
use crate::store::Store;
use crate::var::VarId;

pub(crate) struct RemProp {
    x: IntView,
    y: IntView,
    z: IntView,
    scope: Vec<VarId>,
    wakes: Vec<u8>,
}

impl RemProp {
    pub(crate) fn new(def: &Binary) -> Self {
        let (x, y, z) = (
            IntView::new(&def.x),
            IntView::new(&def.y),
            IntView::new(&def.z),
        );
        RemProp {
            wakes: wakes(&[&x, &y, &z]),
            x,
            y,
            z,
            scope: def.vars.clone(),
        }
    }

    /// One round of bounds reasoning. Returns whether a domain changed.
    fn round(&self, store: &mut Store) -> Result<bool, Fail> {
        let (x, y, z) = (&self.x, &self.y, &self.z);
        let (xl, xh) = bounds(x, store)?;
        let (yl, yh) = bounds(y, store)?;
        // |z| < |y| <= the largest |y|, and z lies between 0 and x.
        let most = yl.abs().max(yh.abs()) - 1;
        let low = xl.min(0).max(-most);
        let high = xh.max(0).min(most);
        let mut changed = z.keep_within(store, low, high)?;
        let (zl, zh) = bounds(z, store)?;
        // x = q * y + z, q * y of the sign of x: a z above 0 needs x >= z, below 0 x <= z.
        if zl > 0 {
            changed |= x.set_min(store, zl)?;
        }
        if zh < 0 {
            changed |= x.set_max(store, zh)?;
        }
        // |y| > |z| for every z left away from 0.
        let least = if zl > 0 {
            zl
        } else if zh < 0 {
            -zh
        } else {
            0
        };
        if least > 0 {
            changed |= outside(y, store, least + 1)?;
        }
        Ok(changed)
    }
}

impl Kernel for RemProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, local: usize) -> u8 {
        self.wakes[local]
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let views = [&self.x, &self.y, &self.z];
        let holds = |[a, b, c]: [i64; 3]| Op::Rem.apply(a, b) == Some(i128::from(c));
        if let Some(decided) = decide(views, store, holds) {
            return decided;
        }
        if self.y.contains(store, 0) {
            self.y.remove(store, 0)?;
        }
        for _ in 0..ROUNDS {
            if !self.round(store)? {
                break;
            }
        }
        pairs::exact(store, &self.x, &self.y, &self.z, |a, b| Op::Rem.apply(a, b))?;
        decide(views, store, holds).unwrap_or(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Model;
    use crate::propagate::arith::tests::{
        after_propagation, bounds_only, every_value_supported, int_arg,
    };
    use crate::propagate::checker::Rng;
    use crate::propagate::checker::tests::fuzz;

    fn make(rng: &mut Rng) -> Model<'static> {
        let mut m = Model::new();
        let x = int_arg(&mut m, rng);
        let y = match rng.below(6) {
            0 => x.clone(),
            _ => int_arg(&mut m, rng),
        };
        let z = match rng.below(6) {
            0 => x.clone(),
            1 => y.clone(),
            _ => int_arg(&mut m, rng),
        };
        m.rem(x, y, z);
        m
    }

    #[test]
    fn remainders_agree_with_their_meaning() {
        fuzz(600, make);
    }

    #[test]
    fn few_remainders_keep_only_supported_values() {
        after_propagation(400, make, every_value_supported);
    }

    #[test]
    fn remainders_by_bounds_alone_agree_with_their_meaning() {
        bounds_only(|| fuzz(600, make));
    }

    #[test]
    fn remainders_by_bounds_alone_decide_in_each_run() {
        bounds_only(|| after_propagation(400, make, |_, _| Ok(())));
    }
}
