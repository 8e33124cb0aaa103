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
use crate::store::{BOUNDS, Store};
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
}
