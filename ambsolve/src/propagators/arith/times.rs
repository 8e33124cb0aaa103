//! `x * y = z`: `z` within the products of the bounds of `x` and `y`, `x` and `y` within
//! the quotients of the bounds of `z` by the other (each sign of the divisor apart,
//! rounded inward), `x * x` as a square; every value without support removed once few
//! pairs are left ([`pairs::exact`]).

use crate::choice::Fail;
use crate::propagators::arith::{Args, Rule};
use crate::propagators::arith::{bounds, ceil_div, floor_div, magnitudes, outside, signed_parts};
use crate::propagators::view::IntView;
use crate::store::Store;

pub(crate) struct Times {
    /// `x` and `y` are one variable.
    pub(crate) square: bool,
}

impl Times {
    /// One round of bounds reasoning. Returns whether a domain changed.
    fn bounds_round(&self, args: &Args, store: &mut Store) -> Result<bool, Fail> {
        let (x, y, z) = (&args.x, &args.y, &args.z);
        let (xl, xh) = bounds(x, store)?;
        if self.square {
            let (least, most) = magnitudes(xl, xh);
            let mut changed = z.keep_within(store, least * least, most * most)?;
            let (zl, zh) = bounds(z, store)?;
            let root = isqrt(zh);
            changed |= x.keep_within(store, -root, root)?;
            if zl > 0 {
                // |x| >= the least root of zl.
                let low = isqrt(zl - 1) + 1;
                changed |= outside(x, store, low)?;
            }
            return Ok(changed);
        }
        let (yl, yh) = bounds(y, store)?;
        let corners = [xl * yl, xl * yh, xh * yl, xh * yh];
        let (low, high) = (
            corners.iter().copied().min().unwrap_or(0),
            corners.iter().copied().max().unwrap_or(0),
        );
        let mut changed = z.keep_within(store, low, high)?;
        changed |= quotient(store, x, z, y)?;
        changed |= quotient(store, y, z, x)?;
        Ok(changed)
    }
}

/// Narrows `t` to the quotients `z / d` (`t * d = z`): with `0` left in both `z` and `d`
/// any `t` will do; a `d` of `0` cannot make a `z` without `0`; otherwise, for each sign
/// of `d`, the quotients of the four corners, rounded inward, within `t`'s range.
fn quotient(store: &mut Store, t: &IntView, z: &IntView, d: &IntView) -> Result<bool, Fail> {
    let (zl, zh) = bounds(z, store)?;
    let mut changed = false;
    let zero_in_z = zl <= 0 && zh >= 0;
    if d.contains(store, 0) {
        if zero_in_z {
            return Ok(false);
        }
        changed |= d.remove(store, 0)?;
    }
    let (dl, dh) = bounds(d, store)?;
    let (tl, th) = bounds(t, store)?;
    let mut hull: Option<(i128, i128)> = None;
    for (a, b) in signed_parts(dl, dh).into_iter().flatten() {
        let mut low = i128::MAX;
        let mut high = i128::MIN;
        for zc in [zl, zh] {
            for dc in [a, b] {
                low = low.min(ceil_div(zc, dc));
                high = high.max(floor_div(zc, dc));
            }
        }
        // Each sign's quotients within t's range, then their hull.
        let (low, high) = (low.max(tl), high.min(th));
        if low <= high {
            hull = super::hull(hull, Some((low, high)));
        }
    }
    let (low, high) = hull.ok_or(Fail)?;
    Ok(changed | t.keep_within(store, low, high)?)
}

/// The greatest `r >= 0` with `r * r <= n` (`0` for a negative `n`).
pub(super) fn isqrt(n: i128) -> i128 {
    if n <= 0 {
        return 0;
    }
    // n < 2^127: the root is below 2^64.
    let (mut low, mut high) = (0i128, 1i128 << 64);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if mid.checked_mul(mid).is_some_and(|sq| sq <= n) {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

impl Rule for Times {
    fn apply(&self, a: i64, b: i64) -> Option<i128> {
        Some(i128::from(a) * i128::from(b))
    }

    fn round(&self, args: &Args, store: &mut Store) -> Result<bool, Fail> {
        self.bounds_round(args, store)
    }
}

#[cfg(test)]
mod tests {
    use super::isqrt;
    use crate::model::Constraint;
    use crate::model::Model;
    use crate::propagators::arith::tests::{
        after_propagation, bounds_only, distinct, every_value_supported, int_arg, range_of,
    };
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    #[test]
    fn square_roots_are_exact() {
        for n in 0..2000i128 {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
        }
        let big = i128::from(i64::MAX);
        let r = isqrt(big);
        assert!(r * r <= big && (r + 1) * (r + 1) > big);
    }

    fn make(rng: &mut Rng) -> Model<'static> {
        let mut m = Model::new();
        let x = int_arg(&mut m, rng);
        // A variable used twice (x * x, x * y = x), or another argument.
        let y = if rng.below(4) == 0 {
            x.clone()
        } else {
            int_arg(&mut m, rng)
        };
        let z = match rng.below(5) {
            0 => x.clone(),
            _ => int_arg(&mut m, rng),
        };
        m.times(x, y, z);
        m
    }

    #[test]
    fn products_agree_with_their_meaning() {
        fuzz(600, make);
    }

    #[test]
    fn few_products_keep_only_supported_values() {
        after_propagation(400, make, every_value_supported);
    }

    #[test]
    fn products_by_bounds_alone_agree_with_their_meaning() {
        bounds_only(|| fuzz(400, make));
    }

    #[test]
    fn products_by_bounds_alone_are_bounds_consistent_over_the_reals() {
        bounds_only(|| {
            after_propagation(600, make, |global, store| {
                let Constraint::Binary(def) = global else {
                    return Ok(());
                };
                if def.vars.len() != distinct(&def.vars) {
                    // A variable repeated: bounds consistency is not claimed.
                    return Ok(());
                }
                // Over the reals: each end has a product (or a quotient) in the others'
                // ranges.
                let range = |arg| {
                    let (low, high) = range_of(arg, store);
                    (i128::from(low), i128::from(high))
                };
                let (x, y, z) = (range(&def.x), range(&def.y), range(&def.z));
                let wide = |a: (i128, i128), b: (i128, i128)| {
                    let c = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1];
                    (
                        c.into_iter().min().unwrap_or(0),
                        c.into_iter().max().unwrap_or(0),
                    )
                };
                let meets = |a: (i128, i128), b: (i128, i128)| a.0 <= b.1 && b.0 <= a.1;
                let ok = meets(wide((x.0, x.0), y), z)
                    && meets(wide((x.1, x.1), y), z)
                    && meets(wide((y.0, y.0), x), z)
                    && meets(wide((y.1, y.1), x), z)
                    && meets((z.0, z.0), wide(x, y))
                    && meets((z.1, z.1), wide(x, y));
                if ok {
                    Ok(())
                } else {
                    Err(format!(
                        "an end without a real support: {x:?} * {y:?} = {z:?}"
                    ))
                }
            });
        });
    }
}
