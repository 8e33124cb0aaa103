//! `x^y = z`: `y` not negative (unless negative exponents read as truncated
//! reciprocals); `z` within the powers of a few corners (the ends of `x`, 0, and the two
//! least and two greatest exponents, for their parities); `|x|` at most the `y`-th root of
//! the largest `|z|`; `y` at most the exponent that takes the least `|x|` past the largest
//! `|z|`, at least the one that takes the largest `|x|` to the least `|z|`. Every value
//! without support removed once few pairs are left.

use crate::choice::Fail;
use crate::model::{Op, pow};
use crate::propagators::arith::{Args, Rule};
use crate::propagators::arith::{bounds, magnitudes};
use crate::store::Store;

pub(crate) struct Pow {
    /// `Pow`, or `PowReciprocal`.
    pub(crate) op: Op,
}

/// The greatest `r >= 0` with `r^k <= n` (`k >= 1`, `0 <= n`).
fn root(n: i128, k: i128) -> i128 {
    if k == 1 {
        return n;
    }
    // k >= 2 and n < 2^64: the root is below 2^32.
    let (mut low, mut high) = (0i128, 1i128 << 32);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if pow(mid, k) <= n {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

impl Pow {
    /// The least and greatest power over the bounds of `x` and `y`.
    fn powers(&self, (xl, xh): (i128, i128), (yl, yh): (i128, i128)) -> (i128, i128) {
        let mut xs = vec![xl, xh];
        if xl <= 0 && xh >= 0 {
            xs.push(0);
        }
        let (mut low, mut high) = (i128::MAX, i128::MIN);
        // The exponents not negative: x^y at its extremes over them for the two least and
        // the two greatest (each parity).
        let least = yl.max(0);
        for y in [least, least + 1, yh - 1, yh] {
            if y < least || y > yh {
                continue;
            }
            for &x in &xs {
                let p = pow(x, y);
                low = low.min(p);
                high = high.max(p);
            }
        }
        if yl < 0 {
            // Truncated reciprocals: -1, 0 or 1.
            low = low.min(-1);
            high = high.max(1);
        }
        (low, high)
    }

    /// One round of bounds reasoning. Returns whether a domain changed.
    fn bounds_round(&self, args: &Args, store: &mut Store) -> Result<bool, Fail> {
        let (x, y, z) = (&args.x, &args.y, &args.z);
        let (xl, xh) = bounds(x, store)?;
        let (mut yl, yh) = bounds(y, store)?;
        let (low, high) = self.powers((xl, xh), (yl, yh));
        if low > high {
            return Err(Fail);
        }
        let mut changed = z.keep_within(store, low, high)?;
        let (zl, zh) = bounds(z, store)?;
        if yl < 0 {
            // Negative exponents give -1, 0 or 1 only.
            if zl > 1 || zh < -1 {
                changed |= y.set_min(store, 0)?;
            }
            return Ok(changed);
        }
        if yl == 0 && !(zl <= 1 && zh >= 1) {
            changed |= y.set_min(store, 1)?;
            yl = 1;
        }
        let (least_z, most_z) = magnitudes(zl, zh);
        if yl >= 1 {
            // |x|^y <= the largest |z|.
            let r = root(most_z, yl);
            changed |= x.keep_within(store, -r, r)?;
            if zh < 0 {
                // A negative power has a negative base.
                changed |= x.set_max(store, -1)?;
            }
        }
        let (xl, xh) = bounds(x, store)?;
        let (least_x, most_x) = magnitudes(xl, xh);
        if least_x >= 2 {
            // least_x^y <= |x|^y <= most_z.
            let mut e = 0;
            while e < yh && pow(least_x, e + 1) <= most_z {
                e += 1;
            }
            changed |= y.set_max(store, e)?;
        }
        if most_x >= 2 && least_z >= 2 {
            // most_x^y >= |x|^y >= least_z.
            let mut e = 0;
            while e < yh && pow(most_x, e) < least_z {
                e += 1;
            }
            changed |= y.set_min(store, e)?;
        }
        Ok(changed)
    }
}

impl Rule for Pow {
    fn apply(&self, a: i64, b: i64) -> Option<i128> {
        self.op.apply(a, b)
    }

    fn prepare(&self, args: &Args, store: &mut Store) -> Result<(), Fail> {
        match self.op {
            Op::Pow => args.y.set_min(store, 0).map(drop),
            _ => Ok(()),
        }
    }

    fn round(&self, args: &Args, store: &mut Store) -> Result<bool, Fail> {
        self.bounds_round(args, store)
    }
}

#[cfg(test)]
mod tests {
    use super::root;
    use crate::model::pow;
    use crate::model::{IntArg, Model};
    use crate::propagators::arith::tests::{
        after_propagation, bounds_only, every_value_supported, int_arg,
    };
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    #[test]
    fn roots_are_exact() {
        for k in 1..6 {
            for n in 0..300 {
                let r = root(n, k);
                assert!(pow(r, k) <= n && pow(r + 1, k) > n, "{n} {k}");
            }
        }
        let big = i128::from(i64::MAX);
        assert_eq!(root(big, 63), 1);
        assert_eq!(root(big, 2), 3_037_000_499);
    }

    fn make(rng: &mut Rng, reciprocal: bool) -> Model<'static> {
        let mut m = Model::new();
        let x = int_arg(&mut m, rng);
        let y = match rng.below(6) {
            0 => x.clone(),
            1 => IntArg::from(&m.var(0..7i64)),
            _ => int_arg(&mut m, rng),
        };
        let z = match rng.below(6) {
            0 => x.clone(),
            1 => IntArg::from(&m.var(-30..30i64)),
            _ => int_arg(&mut m, rng),
        };
        if reciprocal {
            m.pow_reciprocal(x, y, z);
        } else {
            m.pow(x, y, z);
        }
        m
    }

    #[test]
    fn powers_agree_with_their_meaning() {
        fuzz(600, |rng| make(rng, false));
        fuzz(400, |rng| make(rng, true));
    }

    #[test]
    fn few_powers_keep_only_supported_values() {
        after_propagation(400, |rng| make(rng, false), every_value_supported);
        after_propagation(400, |rng| make(rng, true), every_value_supported);
    }

    #[test]
    fn powers_by_bounds_alone_agree_with_their_meaning() {
        bounds_only(|| {
            fuzz(600, |rng| make(rng, false));
            fuzz(400, |rng| make(rng, true));
        });
    }

    #[test]
    fn powers_by_bounds_alone_decide_in_each_run() {
        bounds_only(|| {
            after_propagation(400, |rng| make(rng, false), |_, _| Ok(()));
            after_propagation(400, |rng| make(rng, true), |_, _| Ok(()));
        });
    }
}
