//! `Model` methods for linear constraints: `Σ coefficient × variable` compared to a
//! constant, checked so that every sum the engines form fits in an `i128`.

use smallvec::SmallVec;

use super::constraint::term_extremes;
use super::{Cmp, Constraint, LinearDef, Model, Term, Trend};
use crate::var::VarId;

impl<'a> Model<'a> {
    /// `Σ coefficient × variable` compares to `rhs` as `cmp` says. Terms are pairs
    /// `(coefficient, &var)` or [`Term`]s; values are the variables' integer values.
    pub fn linear<X: Into<Term>>(
        &mut self,
        terms: impl IntoIterator<Item = X>,
        cmp: Cmp,
        rhs: i64,
    ) {
        if let Some(def) = self.linear_def(terms, cmp, rhs, 1) {
            self.constraints.push(Constraint::Linear(def));
        }
    }

    /// The linear constraint `Σ sign × coefficient × variable cmp rhs`, checked (`sign` is
    /// 1, or -1 to negate every coefficient); `None` if the model became invalid.
    pub(super) fn linear_def<X: Into<Term>>(
        &mut self,
        terms: impl IntoIterator<Item = X>,
        cmp: Cmp,
        rhs: i64,
        sign: i64,
    ) -> Option<LinearDef> {
        let terms = terms.into_iter();
        let mut resolved = Vec::with_capacity(terms.size_hint().0);
        for term in terms {
            let term: Term = term.into();
            if !self.declared(term.model, term.var) {
                return None;
            }
            let Some(coef) = term.coef.checked_mul(sign) else {
                self.fail(format!(
                    "the coefficient {} of {} cannot be negated in an i64",
                    term.coef,
                    self.name(term.var)
                ));
                return None;
            };
            match term.images {
                Ok(images) => resolved.push((term.var, coef, images)),
                Err(at) => {
                    self.out_of_range(term.var, at);
                    return None;
                }
            }
        }
        let vars: Vec<VarId> = resolved.iter().map(|t| t.0).collect();
        if !self.known(&vars) {
            return None;
        }
        let trends: SmallVec<[Trend; 16]> = resolved.iter().map(|t| Trend::of(&t.2)).collect();
        let extremes: Vec<(i128, i128)> = resolved
            .iter()
            .zip(&trends)
            .map(|((_, coef, images), &trend)| term_extremes(*coef, images, trend))
            .collect();
        // Each product fits in an i128 (|a·x| <= 2^126), but a sum of several may not:
        // every sum the engines form, plus or minus the right-hand side, must.
        let bound = extremes
            .iter()
            .try_fold(0i128, |sum, &(low, high)| {
                sum.checked_add(low.abs().max(high.abs()))
            })
            .filter(|&sum| sum <= i128::MAX - i128::from(u64::MAX));
        if bound.is_none() {
            self.fail(format!(
                "linear sum of {} terms: its terms can add up to more than an i128 holds",
                resolved.len()
            ));
            return None;
        }
        Some(LinearDef {
            terms: resolved,
            trends,
            cmp,
            rhs,
        })
    }
}
