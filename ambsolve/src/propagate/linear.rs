//! Linear constraints `Σ a_i·x_i (==, !=, <=, >=) c`, by bounds reasoning.
//!
//! For `<=`: the smallest the other terms can add up to leaves each term a largest value
//! it may take; larger values go. `>=` is `<=` with signs flipped; `==` is both. `!=`
//! waits until one term is open and removes the single value that would make it equal.
//! Arithmetic is in `i128`, so no sum of `i64` products overflows.

use std::sync::Arc;

use crate::choice::Fail;
use crate::model::{Cmp, LinearDef};
use crate::store::Store;
use crate::var::VarId;

/// One term of a linear sum as the propagator reads it: a store position, a coefficient and
/// the integer image of each value index.
struct ScaledVar {
    var: usize,
    coef: i128,
    images: Arc<[i64]>,
}

impl ScaledVar {
    #[inline]
    fn at(&self, index: u32) -> i128 {
        self.coef * i128::from(self.images[index as usize])
    }

    /// The smallest and largest contribution over the domain.
    fn range(&self, store: &Store) -> Option<(i128, i128)> {
        store
            .iter(self.var)
            .map(|i| self.at(i))
            .fold(None, |acc, x| match acc {
                None => Some((x, x)),
                Some((lo, hi)) => Some((lo.min(x), hi.max(x))),
            })
    }
}

enum Kind {
    /// `Σ <= rhs`
    AtMost,
    /// `Σ >= rhs`
    AtLeast,
    /// `Σ == rhs`
    Equal,
    /// `Σ != rhs`
    NotEqual,
}

pub(super) struct Linear {
    terms: Vec<ScaledVar>,
    scope: Vec<VarId>,
    kind: Kind,
    rhs: i128,
}

impl Linear {
    pub(super) fn new(def: &LinearDef) -> Self {
        let rhs = i128::from(def.rhs);
        let (kind, rhs) = match def.cmp {
            Cmp::Eq => (Kind::Equal, rhs),
            Cmp::Ne => (Kind::NotEqual, rhs),
            Cmp::Le => (Kind::AtMost, rhs),
            Cmp::Lt => (Kind::AtMost, rhs - 1),
            Cmp::Ge => (Kind::AtLeast, rhs),
            Cmp::Gt => (Kind::AtLeast, rhs + 1),
        };
        // One term per variable: `3x + 2x` is `5x`, and a zero coefficient drops out.
        let mut terms: Vec<ScaledVar> = Vec::new();
        for (v, coef, images) in &def.terms {
            match terms.iter_mut().find(|t| t.var == v.index()) {
                Some(term) => term.coef += i128::from(*coef),
                None => terms.push(ScaledVar {
                    var: v.index(),
                    coef: i128::from(*coef),
                    images: Arc::clone(images),
                }),
            }
        }
        terms.retain(|t| t.coef != 0);
        Linear {
            scope: terms.iter().map(|t| Store::var_id(t.var)).collect(),
            terms,
            kind,
            rhs,
        }
    }

    pub(super) fn scope(&self) -> &[VarId] {
        &self.scope
    }

    pub(super) fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        if let Kind::NotEqual = self.kind {
            return self.not_equal(store);
        }
        let mut ranges = Vec::with_capacity(self.terms.len());
        for term in &self.terms {
            ranges.push(term.range(store).ok_or(Fail)?);
        }
        let low: i128 = ranges.iter().map(|r| r.0).sum();
        let high: i128 = ranges.iter().map(|r| r.1).sum();
        let (at_most, at_least) = match self.kind {
            Kind::AtMost => (true, false),
            Kind::AtLeast => (false, true),
            Kind::Equal | Kind::NotEqual => (true, true),
        };
        if (at_most && low > self.rhs) || (at_least && high < self.rhs) {
            return Err(Fail);
        }
        for (term, &(lo, hi)) in self.terms.iter().zip(&ranges) {
            if lo == hi {
                continue;
            }
            // What this term may contribute given the others' extremes.
            let max_here = self.rhs - (low - lo);
            let min_here = self.rhs - (high - hi);
            let cut_high = at_most && hi > max_here;
            let cut_low = at_least && lo < min_here;
            if cut_high || cut_low {
                store.retain(term.var, |i| {
                    let x = term.at(i);
                    (!at_most || x <= max_here) && (!at_least || x >= min_here)
                })?;
            }
        }
        Ok(())
    }

    fn not_equal(&mut self, store: &mut Store) -> Result<(), Fail> {
        let mut open = None;
        let mut fixed_sum: i128 = 0;
        for term in &self.terms {
            if store.is_fixed(term.var) {
                fixed_sum += term.at(store.min(term.var).ok_or(Fail)?);
            } else if open.is_some() {
                return Ok(());
            } else {
                open = Some(term);
            }
        }
        match open {
            None if fixed_sum == self.rhs => Err(Fail),
            None => Ok(()),
            Some(term) => {
                let forbidden = self.rhs - fixed_sum;
                store.retain(term.var, |i| term.at(i) != forbidden)?;
                Ok(())
            }
        }
    }
}
