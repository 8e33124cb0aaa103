//! Explanations of `z = x op y` (times, div, mod, pow) by enumeration, for a search that
//! learns. Whatever rule pruned (bounds rounds, pairs checked one by one), what it pruned
//! follows from the domains before it, and on small boxes that can be checked outright:
//!
//! 1. the values the change took from its variable (an end's, from the end before);
//! 2. a box for each other variable: its ends before the change, then, if the ends leave
//!    a supporting tuple, its domain then (ends and holes);
//! 3. no tuple of the box with a taken value satisfies `z = x op y` (for a failure, no
//!    tuple at all): the box's predicates explain the change;
//! 4. lifted: each variable's box is widened to its root's ends where the rest still
//!    leaves no support, and then needs no predicate.
//!
//! Boxes of more than [`MOST_TUPLES`] tuples are not enumerated: the engine's fallback
//! (the scope's domains) explains those.

use smallvec::SmallVec;

use crate::propagators::view::IntView;
use crate::store::{Atoms, Pred};

/// The most tuples one check enumerates.
const MOST_TUPLES: u64 = 4096;

/// The most values a moved end may pass and still be explained value by value.
const MOST_TAKEN: u32 = 64;

/// The index range a variable takes in an explanation's box; `holes`: the values it
/// lacked before the change are left out too (else only those its root lacked).
#[derive(Clone, Copy)]
struct Range {
    var: usize,
    low: u32,
    high: u32,
    holes: bool,
}

/// The check of one explanation: `apply` over the views, at trail position `at`.
struct Check<'v, F> {
    atoms: &'v Atoms,
    at: u32,
    views: [&'v IntView; 3],
    apply: F,
}

impl<F: Fn(i64, i64) -> Option<i128>> Check<'_, F> {
    /// Whether no tuple of `ranges`, with the variable `own` at one of `taken` (or, `own`
    /// `None`, any tuple), satisfies the constraint; `None` if there are too many tuples.
    fn refuted(&self, ranges: &[Range], own: Option<(usize, &[u32])>) -> Option<bool> {
        if own.is_some_and(|(_, taken)| taken.is_empty()) {
            return Some(true);
        }
        let mut tuples = own.map_or(1, |(_, taken)| taken.len() as u64);
        for r in ranges {
            tuples = tuples.saturating_mul(u64::from(r.high - r.low) + 1);
        }
        if tuples > MOST_TUPLES {
            return None;
        }
        // The variables' indices, the own variable's last.
        let mut vars: SmallVec<[usize; 4]> = ranges.iter().map(|r| r.var).collect();
        vars.extend(own.map(|(var, _)| var));
        let mut index: SmallVec<[u32; 4]> = ranges.iter().map(|r| r.low).collect();
        let taken = own.map_or(&[][..], |(_, taken)| taken);
        let mut t = 0;
        index.extend(taken.first().copied());
        loop {
            if self.usable(ranges, &index) && self.satisfies(&vars, &index) {
                return Some(false);
            }
            // The next tuple: the own variable's values first.
            if own.is_some() && t + 1 < taken.len() {
                t += 1;
                index[ranges.len()] = taken[t];
                continue;
            }
            t = 0;
            if let Some(first) = taken.first() {
                index[ranges.len()] = *first;
            }
            let mut k = 0;
            loop {
                if k == ranges.len() {
                    return Some(true);
                }
                if index[k] < ranges[k].high {
                    index[k] += 1;
                    break;
                }
                index[k] = ranges[k].low;
                k += 1;
            }
        }
    }

    /// Whether the box's indices are values of their domains (a root's, or, with holes,
    /// the domain before the change).
    fn usable(&self, ranges: &[Range], index: &[u32]) -> bool {
        ranges.iter().zip(index).all(|(r, &i)| {
            if r.holes {
                !self.atoms.absent_before(r.var, i, self.at)
            } else {
                !self.atoms.root_lacks(r.var, i)
            }
        })
    }

    /// Whether the views' values, each variable at its index, satisfy `z = x op y`.
    fn satisfies(&self, vars: &[usize], index: &[u32]) -> bool {
        let value = |view: &IntView| -> Option<i64> {
            match view.var() {
                None => i64::try_from(view.image(0)).ok(),
                Some(var) => {
                    let k = vars.iter().position(|&v| v == var)?;
                    i64::try_from(view.image(index[k])).ok()
                }
            }
        };
        let [x, y, z] = self.views;
        match (value(x), value(y), value(z)) {
            (Some(a), Some(b), Some(c)) => (self.apply)(a, b) == Some(i128::from(c)),
            _ => false,
        }
    }
}

/// Appends why `pred` (made at trail position `at` by `z = x op y`), or the failure
/// (`pred` `None`), follows from the domains before it; `false` where it cannot say (see
/// the module).
pub(super) fn explain(
    atoms: &Atoms,
    at: u32,
    pred: Option<Pred>,
    views: [&IntView; 3],
    apply: impl Fn(i64, i64) -> Option<i128>,
    out: &mut Vec<Pred>,
) -> bool {
    let own = pred.map(|p| p.var as usize);
    let mut vars: SmallVec<[usize; 3]> = views.iter().filter_map(|v| v.var()).collect();
    vars.sort_unstable();
    vars.dedup();
    vars.retain(|v| Some(*v) != own);
    let from = out.len();
    let taken: SmallVec<[u32; 8]> = match pred {
        Some(pred) => match atoms.removed_by(at, pred, MOST_TAKEN, out) {
            Some(taken) => taken.collect(),
            None => return false,
        },
        None => SmallVec::new(),
    };
    let check = Check {
        atoms,
        at,
        views,
        apply,
    };
    let own = own.map(|var| (var, &taken[..]));
    let mut ranges: SmallVec<[Range; 3]> = vars
        .iter()
        .map(|&var| {
            let (low, high) = atoms.ends_before(var, at);
            Range {
                var,
                low,
                high,
                holes: false,
            }
        })
        .collect();
    if check.refuted(&ranges, own) != Some(true) {
        ranges.iter_mut().for_each(|r| r.holes = true);
        if check.refuted(&ranges, own) != Some(true) {
            out.truncate(from);
            return false;
        }
    }
    // Lifted: a variable whose root's ends still leave no support needs no predicate.
    for k in 0..ranges.len() {
        let kept = ranges[k];
        let (low, high) = atoms.root_ends(kept.var);
        ranges[k] = Range {
            var: kept.var,
            low,
            high,
            holes: false,
        };
        if check.refuted(&ranges, own) != Some(true) {
            ranges[k] = kept;
        }
    }
    for r in &ranges {
        let (root_low, root_high) = atoms.root_ends(r.var);
        if r.holes {
            atoms.domain_at(r.var, at, out);
        } else {
            if r.low > root_low {
                out.push(Pred::ge(r.var, r.low));
            }
            if r.high < root_high {
                out.push(Pred::le(r.var, r.high));
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::model::Model;
    use crate::store::{Cause, Pred, Store};

    /// `x * y = z` over `0..=1` each: `x` set to 0 makes `z` 0, and `x <= 0` alone
    /// explains it (`y`'s domain is lifted to its root's); `z` then set to 1 fails, by
    /// `x <= 0` and `z >= 1`.
    #[test]
    fn a_zero_factor_alone_explains_a_zero_product() {
        let mut m = Model::new();
        let (x, y, z) = (m.var(0..2i64), m.var(0..2i64), m.var(0..2i64));
        m.times(&x, &y, &z);
        let (x, z) = (x.id().index(), z.id().index());
        let _ = y;
        let mut store = Store::with_domains(m.universes(), |_| None);
        let mut propagator = m.constraints()[0].kind().propagator(&mut store);
        assert!(propagator.explains());
        store.record_atoms();
        store.set_cause(Cause::Decision);
        store.remove(x, 1).expect("x keeps 0");
        store.clear_events();
        store.set_cause_prop(0);
        let start = store.atoms().expect("recording").len() as u32;
        propagator.propagate(&mut store).expect("z = 0 fits");
        let atoms = store.atoms().expect("recording");
        assert_eq!(atoms.len() as u32, start + 1, "one change: z <= 0");
        let pred = atoms.at(start).pred;
        assert_eq!(pred, Pred::le(z, 0));
        let mut out = Vec::new();
        assert!(propagator.explain(atoms, start, Some(pred), &mut out));
        assert_eq!(out, [Pred::le(x, 0)]);
        // Decided together, z's 1 and x's 0 cannot meet: both explain the failure.
        let mut store = Store::with_domains(m.universes(), |_| None);
        let mut propagator = m.constraints()[0].kind().propagator(&mut store);
        store.record_atoms();
        store.set_cause(Cause::Decision);
        store.remove(x, 1).expect("x keeps 0");
        store.remove(z, 0).expect("z keeps 1");
        store.clear_events();
        store.set_cause_prop(0);
        assert!(propagator.propagate(&mut store).is_err());
        let atoms = store.atoms().expect("recording");
        out.clear();
        assert!(propagator.explain(atoms, atoms.len() as u32, None, &mut out));
        assert_eq!(out, [Pred::le(x, 0), Pred::ge(z, 1)]);
    }
}
