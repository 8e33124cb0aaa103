//! `z = |x|`: `z` within the magnitudes of `x`'s bounds, `x` within `-max z..=max z` and
//! away from 0 by `min z` (bounds consistent at its fixpoint); every value without
//! support removed once few values are left (domain consistent): by one lookup a value
//! where the views can be read so, else pair by pair ([`pairs::exact`]).
//!
//! It explains what it prunes (a search that learns) by the bounds that made it, read
//! before the change and lifted to what the change needs, and a value gone by the
//! values it needed gone from the other side.
//!
//! [`pairs::exact`]: super::pairs::exact

use crate::choice::Fail;
use crate::model::Abs;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::arith::pairs::{LISTED, PAIRS, entries_into, keep_marked};
use crate::propagators::arith::{bounds, magnitudes, outside, propagate_binary, wakes};
use crate::propagators::view::{Change, IntView, Shape};
use crate::store::{Atoms, Pred, Store};
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

    /// Domain consistency by lookups, where few values are left: `z` keeps the
    /// magnitudes `x` has, then `x` the values whose magnitude `z` has (a fixpoint: each
    /// value `z` keeps has its supports in `x`, which the second pass keeps). O(|x| + |z|)
    /// lookups, against [`pairs::exact`]'s pairs and sorts. Returns `Ok(false)`, having
    /// done nothing, where a lookup would not be cheap (a view whose values go both ways
    /// along its indices), where one variable is on both sides, or where too many values
    /// are left.
    ///
    /// [`pairs::exact`]: super::pairs::exact
    fn exact(&self, store: &mut Store) -> Result<bool, Fail> {
        #[cfg(test)]
        if super::pairs::BOUNDS_ONLY.with(std::cell::Cell::get) {
            return Ok(false);
        }
        let (x, z) = (&self.x, &self.z);
        let cheap = |v: &IntView| {
            !matches!(
                v,
                IntView::Var {
                    shape: Shape::Mixed,
                    ..
                }
            )
        };
        if !cheap(x)
            || !cheap(z)
            || (x.var().is_some() && x.var() == z.var())
            || u64::from(x.size(store)) > PAIRS
            || z.size(store) > LISTED
        {
            return Ok(false);
        }
        let z_kept = |store: &Store, w: i64| {
            w >= 0 && (x.contains(store, w.into()) || x.contains(store, -i128::from(w)))
        };
        keep_supported(z, store, z_kept)?;
        let x_kept = |store: &Store, a: i64| z.contains(store, i128::from(a).abs());
        keep_supported(x, store, x_kept)?;
        Ok(true)
    }
}

/// Keeps, of `view`'s values, those `kept` accepts, given the store as it was before.
///
/// # Errors
/// [`Fail`] if none is.
fn keep_supported(
    view: &IntView,
    store: &mut Store,
    kept: impl Fn(&Store, i64) -> bool,
) -> Result<(), Fail> {
    let mut entries = Vec::new();
    entries_into(view, store, &mut entries);
    let keep: Vec<bool> = entries.iter().map(|&(_, v)| kept(store, v)).collect();
    keep_marked(view, store, &entries, &keep)
}

/// Explanations (a search that learns).
impl AbsProp {
    /// Appends why `z` is at least `least` (`> 0`) by `x`'s bounds: all of `x` at least
    /// that far from 0 on one side.
    fn explain_z_at_least(&self, atoms: &Atoms, at: u32, least: i128, out: &mut Vec<Pred>) -> bool {
        let (xl, xh) = self.x.bounds_before(atoms, at);
        if xl >= least {
            self.x.explain_within(least, i128::MAX, out);
        } else if xh <= -least {
            self.x.explain_within(i128::MIN, -least, out);
        } else {
            return false;
        }
        true
    }

    /// Appends why `change` holds of `z`.
    fn explain_z(&self, atoms: &Atoms, at: u32, change: Change, out: &mut Vec<Pred>) -> bool {
        match change {
            Change::AtLeast(least) if least <= 0 => true,
            Change::AtLeast(least) => self.explain_z_at_least(atoms, at, least, out),
            // `x` within `-most..=most`.
            Change::AtMost(most) => {
                let (xl, xh) = self.x.bounds_before(atoms, at);
                if most < 0 || xl < -most || xh > most {
                    return false;
                }
                self.x.explain_within(-most, most, out);
                true
            }
            // `x` lacks both values of that magnitude.
            Change::Lacks(value) => {
                value < 0
                    || (self.x.explain_lacks(atoms, at, value, out)
                        && (value == 0 || self.x.explain_lacks(atoms, at, -value, out)))
            }
        }
    }

    /// Appends why `change` holds of `x`.
    fn explain_x(&self, atoms: &Atoms, at: u32, change: Change, out: &mut Vec<Pred>) -> bool {
        let (zl, zh) = self.z.bounds_before(atoms, at);
        let (xl, xh) = self.x.bounds_before(atoms, at);
        match change {
            // Below `-z`'s greatest; or, above 0 by `x`'s own bound and away from it by
            // `z`'s least.
            Change::AtLeast(least) if least <= 0 => {
                if zh > -least {
                    return false;
                }
                self.z.explain_within(i128::MIN, -least, out);
            }
            Change::AtLeast(least) => {
                // |x| >= least, and x > -least.
                if zl < least || xl <= -least {
                    return false;
                }
                self.z.explain_within(least, i128::MAX, out);
                self.x.explain_within(1 - least, i128::MAX, out);
            }
            Change::AtMost(most) if most >= 0 => {
                if zh > most {
                    return false;
                }
                self.z.explain_within(i128::MIN, most, out);
            }
            Change::AtMost(most) => {
                if zl < -most || xh >= -most {
                    return false;
                }
                self.z.explain_within(-most, i128::MAX, out);
                self.x.explain_within(i128::MIN, -most - 1, out);
            }
            // `z`'s least above its magnitude, or `z` lacking its magnitude.
            Change::Lacks(value) => {
                let magnitude = value.abs();
                if zl > magnitude {
                    self.z.explain_within(magnitude + 1, i128::MAX, out);
                } else {
                    return self.z.explain_lacks(atoms, at, magnitude, out);
                }
            }
        }
        true
    }

    /// Appends why the run failed: `x`'s magnitudes and `z`'s range apart.
    fn explain_failure(&self, atoms: &Atoms, at: u32, out: &mut Vec<Pred>) -> bool {
        let (zl, zh) = self.z.bounds_before(atoms, at);
        let (xl, xh) = self.x.bounds_before(atoms, at);
        let (least, most) = magnitudes(xl, xh);
        if zh < 0 {
            // No magnitude is negative.
            self.z.explain_within(i128::MIN, zh, out);
            true
        } else if least > zh {
            // `x` beyond `z`'s greatest, on one side.
            self.z.explain_within(i128::MIN, zh, out);
            self.explain_z_at_least(atoms, at, zh + 1, out)
        } else if most < zl {
            self.z.explain_within(zl, i128::MAX, out);
            self.x.explain_within(1 - zl, zl - 1, out);
            true
        } else {
            false
        }
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

    fn explains(&self) -> bool {
        self.x.explainable()
            && self.z.explainable()
            && (self.x.var().is_none() || self.x.var() != self.z.var())
    }

    /// By `z`'s rules or `x`'s, whichever the variable is.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let Some(pred) = pred else {
            return self.explain_failure(atoms, at, out);
        };
        let var = Some(pred.var as usize);
        if self.z.var() == var {
            let Some(change) = self.z.change(atoms, at, pred) else {
                return false;
            };
            self.explain_z(atoms, at, change, out)
        } else {
            let Some(change) = self.x.change(atoms, at, pred) else {
                return false;
            };
            self.explain_x(atoms, at, change, out)
        }
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
            |store| self.exact(store),
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

    /// `z = |x|` with `x` in `-5..=5` and `z` in `3..=4`: the plain search removes the
    /// magnitudes below 3 from `x` (holes), a search that learns keeps `x`'s bounds alone
    /// (`-4..=4`, 0 still in).
    #[test]
    fn holes_are_left_to_the_plain_search() {
        use crate::store::Store;
        let mut m = Model::new();
        let (x, z) = (m.var(-5..6i64), m.var(3..5i64));
        m.abs(&x, &z);
        let (x, z) = (x.id().index(), z.id().index());
        for learning in [false, true] {
            let mut store = Store::with_domains(m.universes(), |_| None);
            let mut propagator = m.constraints()[0].kind().propagator(&mut store);
            if learning {
                store.record_atoms();
                store.set_cause_prop(0);
            }
            propagator.propagate(&mut store).expect("x = 3 fits");
            let xs: Vec<u32> = store.iter(x).collect();
            // Value index k is x = k - 5.
            let expected: Vec<u32> = if learning {
                (1..=9).collect()
            } else {
                vec![1, 2, 8, 9]
            };
            assert_eq!(xs, expected, "learning: {learning}");
            assert_eq!(store.size(z), 2);
        }
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
