//! `x % y = z`, the remainder with the sign of `x`: `y` never 0; `z` between 0 and `x`
//! and smaller in magnitude than the largest `|y|`; a `z` away from 0 gives `x` its sign
//! and at least its magnitude, and `|y|` more than the least `|z|`. Every value without
//! support removed once few pairs are left.

use crate::choice::Fail;
use crate::model::Op;
use crate::propagators::arith::{Args, Rule, no_zero};
use crate::propagators::arith::{bounds, outside};
use crate::store::Store;

pub(crate) struct Rem;

impl Rem {
    /// One round of bounds reasoning. Returns whether a domain changed.
    fn bounds_round(&self, args: &Args, store: &mut Store) -> Result<bool, Fail> {
        let (x, y, z) = (&args.x, &args.y, &args.z);
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
        // A fixed divisor: x's ends move to the nearest values whose remainder z allows.
        if yl == yh {
            let m = yl.abs();
            let (xl, xh) = bounds(x, store)?;
            match (snap_up(xl, m, zl, zh), snap_up(-xh, m, -zh, -zl)) {
                (Some(low), Some(high)) if low <= -high => {
                    changed |= x.keep_within(store, low, -high)?;
                }
                _ => return Err(Fail),
            }
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

/// The least `v >= from` whose remainder by `m > 0` (of the sign of `v`, as `%`) lies in
/// `zl..=zh`, if any.
fn snap_up(from: i128, m: i128, zl: i128, zh: i128) -> Option<i128> {
    if from < 0 {
        // v = -u, u >= 0 and as large as it can be (at most -from): u % m within
        // -hi..=-lo, where lo..=hi are the remainders allowed of negative values.
        let (lo, hi) = (zl.max(-(m - 1)), zh.min(0));
        if lo <= hi {
            let (a, b, most) = (-hi, -lo, -from);
            let r = most % m;
            let u = if r > b {
                most - r + b
            } else if r >= a {
                most
            } else {
                most - r - m + b
            };
            if u >= 0 {
                return Some(-u);
            }
        }
    }
    let start = from.max(0);
    let (lo, hi) = (zl.max(0), zh.min(m - 1));
    if lo > hi {
        return None;
    }
    let r = start % m;
    Some(if r < lo {
        start - r + lo
    } else if r <= hi {
        start
    } else {
        start - r + m + lo
    })
}

impl Rule for Rem {
    fn apply(&self, a: i64, b: i64) -> Option<i128> {
        Op::Rem.apply(a, b)
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
    use crate::model::Model;
    use crate::propagators::arith::tests::{
        after_propagation, binary_model, bounds_only, every_value_supported,
    };
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    fn make(rng: &mut Rng) -> Model<'static> {
        binary_model(rng, |m, x, y, z| m.rem(x, y, z))
    }

    #[test]
    fn snapping_finds_the_nearest_allowed_remainder() {
        // Against a scan, over small divisors, starts and remainder ranges.
        for m in 1..6i128 {
            for from in -20..20i128 {
                for zl in -6..6i128 {
                    for zh in zl..6 {
                        let scan = (from..from + 40).find(|v| (zl..=zh).contains(&(v % m)));
                        assert_eq!(
                            super::snap_up(from, m, zl, zh),
                            scan,
                            "{from} {m} {zl} {zh}"
                        );
                    }
                }
            }
        }
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
