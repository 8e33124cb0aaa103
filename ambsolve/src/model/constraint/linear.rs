//! Linear constraints: `Σ coefficient × variable` compared to a constant, their data and
//! meaning.
//!
//! Its `Model` methods: linear constraints: `Σ coefficient × variable` compared to a
//! constant, checked so that every sum the engines form fits in an `i128`.

use std::borrow::Cow;

use smallvec::SmallVec;

use crate::model::constraint::{Constraint, Meaning};
use crate::model::integer::{Images, Trend};
use crate::model::{Cmp, Model, Term};
use crate::var::VarId;

#[derive(Clone)]
pub(crate) struct LinearDef {
    /// Terms: variable, coefficient, integer image of each value index.
    pub(crate) terms: Vec<(VarId, i64, Images)>,
    /// Per term, how its images move along the value indices (inline: a model of a
    /// million small sums allocates no list of trends).
    pub(crate) trends: SmallVec<[Trend; 16]>,
    pub(crate) cmp: Cmp,
    pub(crate) rhs: i64,
}

/// The smallest and largest contribution of `coef × image` over `images`, which move
/// along the indices as `trend` says.
pub(crate) fn term_extremes(coef: i64, images: &Images, trend: Trend) -> (i128, i128) {
    let at = |x: i64| i128::from(coef) * i128::from(x);
    let (Some(first), Some(last)) = (images.first(), images.last()) else {
        return (0, 0);
    };
    let (low, high) = match trend {
        Trend::Rising => (first, last),
        Trend::Falling => (last, first),
        Trend::Mixed => images.extremes().unwrap_or((0, 0)),
    };
    let (a, b) = (at(low), at(high));
    (a.min(b), a.max(b))
}

impl LinearDef {
    /// Term `k`'s smallest and largest contribution over all its values (computed: read
    /// off the ends of its images unless they are not monotone).
    pub(crate) fn extreme(&self, k: usize) -> (i128, i128) {
        let (_, coef, images) = &self.terms[k];
        term_extremes(*coef, images, self.trends[k])
    }

    /// Every term's [`extreme`](LinearDef::extreme).
    pub(crate) fn extremes(&self) -> impl Iterator<Item = (i128, i128)> + '_ {
        (0..self.terms.len()).map(|k| self.extreme(k))
    }

    /// `Σ coefficient × image` when each variable `v` takes value index `values[v]`.
    pub(crate) fn sum(&self, values: &[u32]) -> i128 {
        self.terms
            .iter()
            .map(|(v, coef, images)| {
                i128::from(*coef) * i128::from(images.get(values[v.index()] as usize))
            })
            .sum()
    }

    /// The least and the greatest sum over the assignments that give the `chosen`
    /// variables their value in `values`.
    pub(crate) fn reach(&self, values: &[u32], chosen: impl Fn(VarId) -> bool) -> (i128, i128) {
        let (mut low, mut high) = (0i128, 0i128);
        for ((v, coef, images), (lo, hi)) in self.terms.iter().zip(self.extremes()) {
            if chosen(*v) {
                let x = i128::from(*coef) * i128::from(images.get(values[v.index()] as usize));
                (low, high) = (low + x, high + x);
            } else {
                (low, high) = (low + lo, high + hi);
            }
        }
        (low, high)
    }
}

impl Meaning for LinearDef {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Owned(self.terms.iter().map(|t| t.0).collect())
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.cmp.holds(self.sum(values), i128::from(self.rhs))
    }

    fn describe(&self) -> String {
        format!(
            "linear sum of {} terms {:?} {}",
            self.terms.len(),
            self.cmp,
            self.rhs
        )
    }
}

impl LinearDef {
    /// The value indices of `var` outside which no value can satisfy the constraint,
    /// the `chosen` variables taking their value in `values` and the others any of
    /// theirs (their term's extremes): a half-open range, empty if none can. `None` when
    /// the bounds say nothing, or cannot be read off the indices: `var` in no term or in
    /// several, a coefficient of 0, images that are not monotone, `!=`.
    pub(crate) fn index_range(
        &self,
        var: VarId,
        values: &[u32],
        chosen: impl Fn(VarId) -> bool,
    ) -> Option<std::ops::Range<u32>> {
        let mut mine = self.terms.iter().enumerate().filter(|(_, t)| t.0 == var);
        let (k, (_, coef, images)) = mine.next()?;
        if mine.next().is_some() || *coef == 0 || self.trends[k] == Trend::Mixed {
            return None;
        }
        // What the other terms add, at least and at most.
        let (mut low, mut high) = (0i128, 0i128);
        for (j, ((v, c, images), (lo, hi))) in self.terms.iter().zip(self.extremes()).enumerate() {
            if j == k {
                continue;
            }
            if chosen(*v) {
                let x = i128::from(*c) * i128::from(images.get(values[v.index()] as usize));
                (low, high) = (low + x, high + x);
            } else {
                (low, high) = (low + lo, high + hi);
            }
        }
        // Bounds on coef × image, then on the image (none: i128's ends).
        let rhs = i128::from(self.rhs);
        let (least, most) = match self.cmp {
            Cmp::Eq => (rhs - high, rhs - low),
            Cmp::Le => (i128::MIN, rhs - low),
            Cmp::Lt => (i128::MIN, rhs - low - 1),
            Cmp::Ge => (rhs - high, i128::MAX),
            Cmp::Gt => (rhs - high + 1, i128::MAX),
            Cmp::Ne => return None,
        };
        let c = i128::from(*coef);
        let ceil = |a: i128| {
            if a == i128::MIN {
                a
            } else {
                -((-a).div_euclid(c.abs()))
            }
        };
        let floor = |a: i128| {
            if a == i128::MAX {
                a
            } else {
                a.div_euclid(c.abs())
            }
        };
        // c × image in [least, most]: image in [least / c, most / c], flipped if c < 0.
        let (least, most) = if c > 0 {
            (ceil(least), floor(most))
        } else {
            (ceil(most.saturating_neg()), floor(least.saturating_neg()))
        };
        let range = match self.trends[k] {
            Trend::Rising => {
                images.partition_point(|y| i128::from(y) < least)
                    ..images.partition_point(|y| i128::from(y) <= most)
            }
            _ => {
                images.partition_point(|y| i128::from(y) > most)
                    ..images.partition_point(|y| i128::from(y) >= least)
            }
        };
        Some(range.start as u32..range.end.max(range.start) as u32)
    }
}

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
    pub(crate) fn linear_def<X: Into<Term>>(
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
        let trends: SmallVec<[Trend; 16]> = resolved.iter().map(|t| t.2.trend()).collect();
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
