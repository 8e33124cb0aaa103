//! `lit <-> a·x == r` and `lit <-> a·x != r` (and their half-reified forms) for one
//! variable `x`: the sum holds exactly when `x` takes one of a few values (or all but a
//! few). The bounds of a general reified sum miss a hole: this propagator sees every change of
//! `x` and is domain consistent, in time proportional to those few values. MiniZinc's
//! flattening writes many of them (`int_eq_reif(x, 3, b)`, `bool2int` sums).
//!
//! It explains what it prunes (a search that learns): a value of `x` gone, by the literal
//! (and, for an end, the values gone before that the sum allowed); the literal decided,
//! by the values `x` lacked or kept.

use crate::choice::Fail;
use crate::model::{Cmp, Images, LinearReif, Reification};
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::LitView;
use crate::store::{Atoms, CHANGED, FIXED, Pred, Rel, Store};
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

/// Explanations (a search that learns).
impl EqReifProp {
    /// The most values of `x` an explanation lists one by one.
    const EXPLAINED_VALUES: u32 = 256;

    /// The literal's value before trail position `at`, and the predicate saying so.
    fn lit_before(&self, atoms: &Atoms, at: u32) -> Option<(bool, Pred)> {
        let fixed = atoms.fixed_before(self.lit.var, at)?;
        let value = if Some(fixed) == self.lit.when_true() {
            true
        } else if Some(fixed) == self.lit.when_false() {
            false
        } else {
            return None;
        };
        Some((value, Pred::eq(self.lit.var, fixed)))
    }

    fn is_hit(&self, index: u32) -> bool {
        self.hits.binary_search(&index).is_ok()
    }

    /// Appends why `pred`, on `x`, follows from the literal, which made `x` keep only the
    /// hits (`hits`) or only the others.
    fn explain_x(
        &self,
        atoms: &Atoms,
        at: u32,
        pred: Pred,
        hits: bool,
        out: &mut Vec<Pred>,
    ) -> bool {
        let x = self.x;
        match pred.rel {
            Rel::Ne => return self.is_hit(pred.value) != hits,
            Rel::Eq => return false,
            Rel::Ge | Rel::Le => {}
        }
        if !hits {
            // From the end before, every value it passes a hit (the holes the engine adds).
            return atoms
                .removed_by(at, pred, Self::EXPLAINED_VALUES, out)
                .is_some_and(|mut passed| passed.all(|u| self.is_hit(u)));
        }
        // Every hit it passes was gone (below the end before, or a hole).
        let beyond = |h: u32| match pred.rel {
            Rel::Ge => h < pred.value,
            _ => h > pred.value,
        };
        let gone: Vec<u32> = self.hits.iter().copied().filter(|&h| beyond(h)).collect();
        if gone.iter().any(|&h| !atoms.absent_before(x, h, at)) {
            return false;
        }
        atoms.explain_gone(x, at, gone.into_iter(), out);
        true
    }

    /// Appends why the literal was decided `value`: `x` lacked every hit, or kept only
    /// hits, as the sum then fails or holds.
    fn explain_lit(&self, atoms: &Atoms, at: u32, value: bool, out: &mut Vec<Pred>) -> bool {
        let x = self.x;
        // The sum holds with the literal true, fails with it false.
        let holds = value;
        if holds != self.equal {
            // No hit left.
            if self.hits.len() > Self::EXPLAINED_VALUES as usize
                || self.hits.iter().any(|&h| !atoms.absent_before(x, h, at))
            {
                return false;
            }
            atoms.explain_gone(x, at, self.hits.iter().copied(), out);
        } else {
            // Only hits left: the ends, and the others between them gone.
            let (low, high) = atoms.ends_before(x, at);
            if high - low > Self::EXPLAINED_VALUES
                || (low..=high).any(|u| !self.is_hit(u) && !atoms.absent_before(x, u, at))
            {
                return false;
            }
            out.push(Pred::ge(x, low));
            out.push(Pred::le(x, high));
            let others = (low..=high).filter(|&u| !self.is_hit(u));
            atoms.explain_gone(x, at, others, out);
        }
        true
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

    fn explains(&self) -> bool {
        true
    }

    /// A change of `x`, by the literal; the literal, by `x`; a failure, by the literal
    /// and what `x` lacked.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        match pred {
            Some(pred) if pred.var as usize == self.lit.var => {
                let (t, f) = (self.lit.when_true(), self.lit.when_false());
                let value = match (t.map(|i| pred.accepts(i)), f.map(|i| pred.accepts(i))) {
                    (Some(true), Some(false) | None) => true,
                    (Some(false) | None, Some(true)) => false,
                    _ => return false,
                };
                self.explain_lit(atoms, at, value, out)
            }
            Some(pred) => {
                let Some((value, lit)) = self.lit_before(atoms, at) else {
                    return false;
                };
                if !value && !self.full {
                    return false;
                }
                out.push(lit);
                // The literal true makes the sum hold, false makes it fail.
                self.explain_x(atoms, at, pred, value == self.equal, out)
            }
            None => {
                // The literal set, and `x` left without a value the sum allows.
                let Some((value, lit)) = self.lit_before(atoms, at) else {
                    return false;
                };
                if !value && !self.full {
                    return false;
                }
                out.push(lit);
                // What the sum needs, none left: the lit as decided by `x` is the other.
                self.explain_lit(atoms, at, !value, out)
            }
        }
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
