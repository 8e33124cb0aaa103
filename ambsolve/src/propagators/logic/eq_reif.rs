//! `lit <-> a·x == r` and `lit <-> a·x != r` (and their half-reified forms) for one
//! variable `x`: the sum holds exactly when `x` takes one of a few values (or all but a
//! few). The bounds of a general reified sum miss a hole: this propagator sees every change of
//! `x` and is domain consistent, in time proportional to those few values. MiniZinc's
//! flattening writes many of them (`int_eq_reif(x, 3, b)`, `bool2int` sums).

use crate::choice::Fail;
use crate::model::{Cmp, Images, LinearReif, Reification};
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::LitView;
use crate::store::{CHANGED, FIXED, Store};
use crate::var::VarId;

pub(crate) struct EqReifProp {
    x: usize,
    /// The value indices of `x` at which `a·x == r`, ascending.
    hits: Vec<u32>,
    /// Whether the sum is `==` (holds on `hits`) or `!=` (holds off them).
    equal: bool,
    lit: LitView,
    full: bool,
    scope: [VarId; 2],
    /// Whether the last run left the reification sure to hold.
    done: bool,
}

impl EqReifProp {
    /// The propagator of `def`, if it is an `==` or `!=` over one variable that is not the
    /// literal's.
    pub(crate) fn try_new(def: &LinearReif) -> Option<Self> {
        let equal = match def.linear.cmp {
            Cmp::Eq => true,
            Cmp::Ne => false,
            _ => return None,
        };
        let (var, _, images) = def.linear.terms.first()?;
        if def.linear.terms.iter().any(|t| t.0 != *var) || *var == def.lit.var {
            return None;
        }
        let coef: i128 = def.linear.terms.iter().map(|t| i128::from(t.1)).sum();
        let rhs = i128::from(def.linear.rhs);
        let hits = match images {
            // coef × image == rhs: over a range, the one image rhs / coef, worked out.
            Images::Range { first, len } if coef != 0 => (rhs % coef == 0)
                .then(|| rhs / coef - i128::from(*first))
                .filter(|i| (0..i128::from(*len)).contains(i))
                .map(|i| i as u32)
                .into_iter()
                .collect(),
            _ => (0..images.len() as u32)
                .filter(|&i| coef * i128::from(images.get(i as usize)) == rhs)
                .collect(),
        };
        Some(EqReifProp {
            x: var.index(),
            hits,
            equal,
            lit: LitView::new(&def.lit),
            full: def.reification == Reification::Full,
            scope: [*var, def.lit.var],
            done: false,
        })
    }

    /// Makes the sum hold (`holds`) or fail, on `x`.
    fn enforce(&self, store: &mut Store, holds: bool) -> Result<(), Fail> {
        if holds == self.equal {
            let hits = &self.hits;
            store.retain(self.x, |i| hits.binary_search(&i).is_ok())?;
        } else {
            for &i in &self.hits {
                store.remove(self.x, i)?;
            }
        }
        Ok(())
    }
}

impl BuiltinPropagator for EqReifProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, local: usize) -> u8 {
        if local == 0 { CHANGED } else { FIXED }
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn finishes(&self) -> bool {
        true
    }

    fn finished(&self) -> bool {
        self.done
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.done = false;
        match self.lit.value(store) {
            Some(true) => self.enforce(store, true)?,
            Some(false) if self.full => self.enforce(store, false)?,
            Some(false) => {}
            None => {
                let x = self.x;
                let some_hit = self.hits.iter().any(|&i| store.contains(x, i));
                let all_hits = some_hit
                    && store.size(x) as usize <= self.hits.len()
                    && store.iter(x).all(|i| self.hits.binary_search(&i).is_ok());
                // Whether the sum surely holds, surely fails, or may do either.
                let (surely, never) = if self.equal {
                    (all_hits, !some_hit)
                } else {
                    (!some_hit, all_hits)
                };
                if never {
                    self.lit.set(store, false)?;
                } else if surely {
                    if self.full {
                        self.lit.set(store, true)?;
                    }
                } else {
                    return Ok(());
                }
            }
        }
        self.done = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Cmp, Lit, Model};
    use crate::propagators::checker::tests::fuzz_domain_consistent;
    use crate::var::Var;

    #[test]
    fn reified_equalities_of_one_variable_are_domain_consistent() {
        fuzz_domain_consistent(800, |rng| {
            let mut m = Model::new();
            // Ranges, and images that repeat or mix.
            let x: Var<i64> = match rng.below(3) {
                0 => m.var([3i64, 1, 1, 4]),
                1 => m.var([2i64, 0, -1]),
                _ => {
                    let low = rng.below(5) as i64 - 2;
                    m.var(low..low + 1 + rng.below(4) as i64)
                }
            };
            let b = m.var([false, true]);
            let lit = if rng.below(2) == 0 {
                Lit::from(&b)
            } else {
                !Lit::from(&b)
            };
            let coef = [1i64, -1, 2, -3][rng.below(4) as usize];
            let cmp = if rng.below(2) == 0 { Cmp::Eq } else { Cmp::Ne };
            let rhs = rng.below(9) as i64 - 4;
            // The same variable twice, sometimes: one term of the summed coefficient.
            let terms: Vec<(i64, &Var<i64>)> = if rng.below(4) == 0 {
                vec![(coef, &x), (coef, &x)]
            } else {
                vec![(coef, &x)]
            };
            if rng.below(2) == 0 {
                m.linear_reified(terms, cmp, rhs, lit);
            } else {
                m.linear_implied(terms, cmp, rhs, lit);
            }
            m
        });
    }
}
