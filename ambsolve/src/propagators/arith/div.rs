//! `x / y = z`, truncated: `y` never 0; `z` within the quotients of the corners of `x`
//! and each sign of `y`; `x` within the union of the ranges each `z` and `y` allow (the
//! ends of those ranges move monotonically, so corners bound them); `y` kept where some
//! `x` gives some `z` (two monotone conditions, bisected). Bounds consistent over the
//! bounds of the others; every value without support removed once few pairs are left.

use crate::choice::Fail;
use crate::model::Op;
use crate::propagators::arith::{Args, Rule, no_zero};
use crate::propagators::arith::{bounds, hull, monotone_range, signed_parts};
use crate::store::Store;

pub(crate) struct Div;

/// For `y > 0` and a quotient `z`: the least `x` with `x / y == z`.
fn least_x(z: i128, y: i128) -> i128 {
    if z > 0 { z * y } else { (z - 1) * y + 1 }
}

/// For `y > 0` and a quotient `z`: the greatest `x` with `x / y == z`.
fn greatest_x(z: i128, y: i128) -> i128 {
    if z >= 0 { (z + 1) * y - 1 } else { z * y }
}

/// For divisors `u` in `a..=b` (`a >= 1`), those by which some `x` in `xl..=xh` has a
/// quotient in `zl..=zh`: `x / u` takes every value from `xl / u` to `xh / u`, and
/// each end moves monotonically with `u`.
fn divisors(
    a: i128,
    b: i128,
    (xl, xh): (i128, i128),
    (zl, zh): (i128, i128),
) -> Option<(i128, i128)> {
    let low_ok = monotone_range(a, b, |u| xl / u <= zh)?;
    let high_ok = monotone_range(a, b, |u| xh / u >= zl)?;
    let (low, high) = (low_ok.0.max(high_ok.0), low_ok.1.min(high_ok.1));
    (low <= high).then_some((low, high))
}

impl Div {
    /// One round of bounds reasoning. Returns whether a domain changed.
    fn bounds_round(&self, args: &Args, store: &mut Store) -> Result<bool, Fail> {
        let (x, y, z) = (&args.x, &args.y, &args.z);
        let (xl, xh) = bounds(x, store)?;
        let (yl, yh) = bounds(y, store)?;
        let parts = signed_parts(yl, yh);
        // z: quotients of the corners, each sign of y apart, within z's range.
        let (zl, zh) = bounds(z, store)?;
        let mut range: Option<(i128, i128)> = None;
        for (a, b) in parts.into_iter().flatten() {
            let q = [xl / a, xl / b, xh / a, xh / b];
            let low = q.iter().copied().min().unwrap_or(0).max(zl);
            let high = q.iter().copied().max().unwrap_or(0).min(zh);
            if low <= high {
                range = hull(range, Some((low, high)));
            }
        }
        let (low, high) = range.ok_or(Fail)?;
        let mut changed = z.keep_within(store, low, high)?;
        let (zl, zh) = bounds(z, store)?;
        // x: for y < 0, x / y == z is x / -y == -z.
        // Each sign's range within x's, then their hull.
        let [negative, positive] = parts;
        let within = |(low, high): (i128, i128)| {
            let (low, high) = (low.max(xl), high.min(xh));
            (low <= high).then_some((low, high))
        };
        let up = positive.and_then(|(a, b)| {
            within((
                least_x(zl, a).min(least_x(zl, b)),
                greatest_x(zh, a).max(greatest_x(zh, b)),
            ))
        });
        let down = negative.and_then(|(c, d)| {
            let (a, b) = (-d, -c);
            within((
                least_x(-zh, a).min(least_x(-zh, b)),
                greatest_x(-zl, a).max(greatest_x(-zl, b)),
            ))
        });
        let range = hull(up, down);
        let (low, high) = range.ok_or(Fail)?;
        changed |= x.keep_within(store, low, high)?;
        // y: the divisors of each sign that leave a quotient in z.
        let (xl, xh) = bounds(x, store)?;
        let up = positive.and_then(|(a, b)| divisors(a, b, (xl, xh), (zl, zh)));
        let down = negative
            .and_then(|(c, d)| divisors(-d, -c, (xl, xh), (-zh, -zl)))
            .map(|(a, b)| (-b, -a));
        let (low, high) = hull(up, down).ok_or(Fail)?;
        changed |= y.keep_within(store, low, high)?;
        Ok(changed)
    }
}

impl Rule for Div {
    fn apply(&self, a: i64, b: i64) -> Option<i128> {
        Op::Div.apply(a, b)
    }

    fn prepare(&self, args: &Args, store: &mut Store) -> Result<(), Fail> {
        no_zero(&args.y, store)
    }

    fn round(&self, args: &Args, store: &mut Store) -> Result<bool, Fail> {
        self.bounds_round(args, store)
    }
}

#[cfg(test)]
mod tests {
    use super::{greatest_x, least_x};
    use crate::model::Constraint;
    use crate::model::Model;
    use crate::model::Op;
    use crate::propagators::arith::tests::{
        after_propagation, binary_model, bounds_only, distinct, ends_of_supported,
        every_value_supported,
    };
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    #[test]
    fn the_ranges_of_x_are_those_of_truncating_division() {
        for y in 1i128..6 {
            for z in -4i128..=4 {
                let xs: Vec<i128> = (-40i128..=40).filter(|x| x / y == z).collect();
                assert_eq!(least_x(z, y), xs[0], "z {z} y {y}");
                assert_eq!(greatest_x(z, y), xs[xs.len() - 1], "z {z} y {y}");
            }
        }
    }

    fn make(rng: &mut Rng) -> Model<'static> {
        binary_model(rng, |m, x, y, z| m.div(x, y, z))
    }

    #[test]
    fn quotients_agree_with_their_meaning() {
        fuzz(600, make);
    }

    #[test]
    fn few_quotients_keep_only_supported_values() {
        after_propagation(400, make, every_value_supported);
    }

    #[test]
    fn quotients_by_bounds_alone_agree_with_their_meaning() {
        bounds_only(|| fuzz(600, make));
    }

    #[test]
    fn quotients_by_bounds_alone_are_bounds_consistent() {
        bounds_only(|| {
            after_propagation(600, make, |global, store| {
                let Constraint::Binary(def) = global else {
                    return Ok(());
                };
                if def.vars.len() != distinct(&def.vars) {
                    // A variable repeated: bounds consistency is not claimed.
                    return Ok(());
                }
                // x and y; z keeps the hull of the corners' quotients.
                let args = [def.x.clone(), def.y.clone(), def.z.clone()];
                ends_of_supported(&args, &args[..2], store, |v| {
                    Op::Div.apply(v[0], v[1]) == Some(i128::from(v[2]))
                })
            });
        });
    }
}
