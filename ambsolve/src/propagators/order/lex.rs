//! `xs <= ys` (or `<`) lexicographically, by the two-pointer algorithm of Frisch, Hnich,
//! Kiziltan, Miguel and Walsh ("Global constraints for lexicographic orderings", CP
//! 2002): `α` is the first position whose items are not fixed equal, `β` the first from
//! which the rest of the sequences surely cannot be in order. Only the pair at `α` is
//! pruned, by bounds: `x[α] < y[α]` if `β = α + 1`, else `x[α] <= y[α]`; `α = β` fails.
//! Domain consistent when no variable repeats.

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::Lex;
use crate::propagator::BuiltinPropagator;
use crate::propagators::view::IntView;
use crate::store::{Atoms, BOUNDS, Pred, Rel, Store};
use crate::var::VarId;

pub(crate) struct LexProp {
    xs: Vec<IntView>,
    ys: Vec<IntView>,
    /// Whether sequences equal up to the shorter length are in order.
    prefix_in_order: bool,
    scope: Vec<VarId>,
    /// `stuck[i]`: the sequences from position `i` on surely cannot be in order
    /// (scratch, `min(len) + 1` long).
    stuck: Vec<bool>,
}

impl LexProp {
    pub(crate) fn new(def: &Lex) -> Self {
        let k = def.xs.len().min(def.ys.len());
        LexProp {
            xs: def.xs.iter().map(IntView::new).collect(),
            ys: def.ys.iter().map(IntView::new).collect(),
            prefix_in_order: def.prefix_in_order(),
            scope: def.vars.clone(),
            stuck: vec![false; k + 1],
        }
    }

    /// The first position at or after `from` whose items are not both fixed to one
    /// value (the shorter length if none).
    fn alpha(&self, store: &Store, mut from: usize) -> usize {
        let k = self.stuck.len() - 1;
        while from < k {
            match (self.xs[from].fixed(store), self.ys[from].fixed(store)) {
                (Some(a), Some(b)) if a == b => from += 1,
                _ => break,
            }
        }
        from
    }
}

impl<'a> Kind<'a> for Lex {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(LexProp::new(self))
    }
}

impl BuiltinPropagator for LexProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, _local: usize) -> u8 {
        BOUNDS
    }

    fn explains(&self) -> bool {
        self.xs.iter().chain(&self.ys).all(IntView::explainable)
    }

    /// By bounds, as the rule reasons: a position where `x >= y` at the bounds
    /// (`x >= c`, `y <= c`) must hold them equal, one where `x > y` ends the order. A
    /// failure: such positions from the first on, up to one where `x > y` (or to the end,
    /// where equal sequences are out of order). `x[p]` lowered or `y[p]` raised: equal
    /// positions before `p`, the other item's bound, and, if it was needed, the positions
    /// after `p` that leave no room for equality there.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let k = self.stuck.len() - 1;
        let x_min = |j: usize| self.xs[j].bounds_before(atoms, at).0;
        let y_max = |j: usize| self.ys[j].bounds_before(atoms, at).1;
        // From `from` on, the sequences cannot be in order: the position where `x > y`
        // (or `k`, past equal positions).
        let stuck = |from: usize| -> Option<usize> {
            for j in from..k {
                match x_min(j).cmp(&y_max(j)) {
                    std::cmp::Ordering::Greater => return Some(j),
                    std::cmp::Ordering::Less => return None,
                    std::cmp::Ordering::Equal => {}
                }
            }
            (!self.prefix_in_order).then_some(k)
        };
        // Positions `from..to` with `x >= y` at `c`, and, `ended`, `x > y` at `to` (if
        // before `k`).
        let chain = |from: usize, to: usize, ended: bool, out: &mut Vec<Pred>| {
            for j in from..to.min(k) {
                let c = y_max(j);
                self.xs[j].explain_within(c, i128::MAX, out);
                self.ys[j].explain_within(i128::MIN, c, out);
            }
            if ended && to < k {
                let c = y_max(to);
                self.xs[to].explain_within(c + 1, i128::MAX, out);
                self.ys[to].explain_within(i128::MIN, c, out);
            }
        };
        let Some(pred) = pred else {
            let Some(to) = stuck(0) else { return false };
            chain(0, to, true, out);
            return true;
        };
        let var = pred.var as usize;
        for p in 0..k {
            if (0..p).any(|j| x_min(j) < y_max(j)) {
                break;
            }
            // The bound the change needs on the other item, with a gap of 0, else 1.
            let (side, other) = match pred.rel {
                Rel::Le if self.xs[p].var() == Some(var) => (&self.xs[p], &self.ys[p]),
                Rel::Ge if self.ys[p].var() == Some(var) => (&self.ys[p], &self.xs[p]),
                _ => continue,
            };
            let after = stuck(p + 1);
            for gap in [0, 1] {
                let used = if gap == 1 {
                    match after {
                        Some(to) => Some(to),
                        None => break,
                    }
                } else {
                    None
                };
                let fits = if pred.rel == Rel::Le {
                    let most = side.image(atoms.left_above(var, pred.value, at)) - 1;
                    (y_max(p) - gap <= most)
                        .then(|| other.explain_within(i128::MIN, most + gap, out))
                } else {
                    let least = side.image(atoms.left_below(var, pred.value, at)) + 1;
                    (x_min(p) + gap >= least)
                        .then(|| other.explain_within(least - gap, i128::MAX, out))
                };
                if fits.is_some() {
                    chain(0, p, false, out);
                    if let Some(to) = used {
                        chain(p + 1, to, true, out);
                    }
                    return true;
                }
            }
        }
        false
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let k = self.stuck.len() - 1;
        let mut alpha = self.alpha(store, 0);
        loop {
            if alpha == k {
                return if self.prefix_in_order {
                    Ok(())
                } else {
                    Err(Fail)
                };
            }
            self.stuck[k] = !self.prefix_in_order;
            for i in (alpha..k).rev() {
                let (x_min, y_max) = (self.xs[i].min(store)?, self.ys[i].max(store)?);
                self.stuck[i] = x_min > y_max || (x_min == y_max && self.stuck[i + 1]);
            }
            if self.stuck[alpha] {
                return Err(Fail);
            }
            let gap = i128::from(self.stuck[alpha + 1]);
            let (x, y) = (&self.xs[alpha], &self.ys[alpha]);
            x.set_max(store, i128::from(y.max(store)?) - gap)?;
            y.set_min(store, i128::from(x.min(store)?) + gap)?;
            let next = self.alpha(store, alpha);
            if next == alpha {
                return Ok(());
            }
            alpha = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::{arg, fuzz, fuzz_domain_consistent};

    #[test]
    fn lex_agrees_with_its_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let pool: Vec<IntArg> = (0..4).map(|_| arg(&mut m, rng)).collect();
            let side = |rng: &mut crate::propagators::checker::Rng| -> Vec<IntArg> {
                (0..rng.below(4))
                    .map(|_| pool[rng.below(4) as usize].clone())
                    .collect()
            };
            let (xs, ys) = (side(rng), side(rng));
            if rng.below(2) == 0 {
                m.lex_lesseq(xs, ys);
            } else {
                m.lex_less(xs, ys);
            }
            m
        });
    }

    #[test]
    fn lex_over_distinct_variables_is_domain_consistent() {
        fuzz_domain_consistent(400, |rng| {
            let mut m = Model::new();
            let (nx, ny) = (rng.below(4), rng.below(4));
            let xs: Vec<IntArg> = (0..nx).map(|_| arg(&mut m, rng)).collect();
            let ys: Vec<IntArg> = (0..ny).map(|_| arg(&mut m, rng)).collect();
            if rng.below(2) == 0 {
                m.lex_lesseq(xs, ys);
            } else {
                m.lex_less(xs, ys);
            }
            m
        });
    }

    #[test]
    fn lex_under_a_sum_agrees_with_its_meaning() {
        // Distinct variables of rising images under a sum of mixed signs: the learning
        // search meets conflicts and asks the ordering why it moved its bounds (checked
        // under `debug-checks`).
        use crate::model::Cmp;
        fuzz(800, |rng| {
            let mut m = Model::new();
            let (nx, ny) = (1 + rng.below(3) as usize, 1 + rng.below(3) as usize);
            let vars: Vec<_> = (0..nx + ny)
                .map(|_| {
                    let low = rng.below(3) as i64;
                    m.var(low..low + 2 + rng.below(3) as i64)
                })
                .collect();
            let terms: Vec<(i64, _)> = vars
                .iter()
                .map(|v| (if rng.below(3) == 0 { -1 } else { 1 }, v))
                .collect();
            m.linear(terms, Cmp::Eq, rng.below(3 * (nx + ny) as u64) as i64);
            let xs: Vec<IntArg> = vars[..nx].iter().map(IntArg::from).collect();
            let ys: Vec<IntArg> = vars[nx..].iter().map(IntArg::from).collect();
            if rng.below(2) == 0 {
                m.lex_lesseq(xs, ys);
            } else {
                m.lex_less(xs, ys);
            }
            m
        });
    }
}
