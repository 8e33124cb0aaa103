//! All different except one value, domain consistent: the items that cannot take the
//! exempt value are kept all different by a matching, and the others lose every value
//! that every such matching takes (they can always take the exempt value).

use crate::choice::Fail;
use crate::model::AllDifferentExcept;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::tours::matching::Matching;
use crate::propagators::tours::rows::{Rows, read_row, write_row};
use crate::propagators::view::IntView;
use crate::store::Store;
use crate::var::VarId;

pub(crate) struct AllDifferentExceptProp {
    items: Vec<IntView>,
    /// Some variable stands at two positions: read again after a change.
    shared: bool,
    scope: Vec<VarId>,
    /// Every value an item may take but the exempt one, in order: the columns.
    values: Vec<i64>,
    dom: Rows,
    before: Rows,
    /// The items that cannot take the exempt value, and whether each item can.
    must: Vec<usize>,
    exempt: Vec<bool>,
    matching: Matching,
}

impl AllDifferentExceptProp {
    pub(crate) fn new(def: &AllDifferentExcept) -> Self {
        let mut values: Vec<i64> = def
            .items
            .iter()
            .flat_map(|item| match IntView::new(item) {
                IntView::Const(c) => vec![c],
                IntView::Var { images, .. } => images.iter().collect(),
            })
            .filter(|&v| v != def.value)
            .collect();
        values.sort_unstable();
        values.dedup();
        let mut vars = def.vars.clone();
        vars.sort_unstable();
        vars.dedup();
        let n = def.items.len();
        AllDifferentExceptProp {
            items: def.items.iter().map(IntView::new).collect(),
            shared: vars.len() < def.vars.len(),
            scope: def.vars.clone(),
            dom: Rows::new(n, values.len()),
            before: Rows::new(n, values.len()),
            values,
            must: Vec::with_capacity(n),
            exempt: vec![false; n],
            matching: Matching::default(),
        }
    }
}

impl<'a> Kind<'a> for AllDifferentExcept {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(AllDifferentExceptProp::new(self))
    }
}

impl BuiltinPropagator for AllDifferentExceptProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        loop {
            self.must.clear();
            let values = &self.values;
            for (i, view) in self.items.iter().enumerate() {
                let column = |v| values.binary_search(&v).ok();
                self.exempt[i] = read_row(view, store, &mut self.dom, i, column)?;
                if !self.exempt[i] {
                    self.must.push(i);
                }
            }
            self.before.clone_from(&self.dom);
            self.matching.prune(&mut self.dom, &self.must)?;
            // The others lose every value that the items which must differ all need.
            for i in 0..self.items.len() {
                if self.exempt[i] {
                    let mut from = 0;
                    while let Some(c) = self.dom.next(i, from) {
                        from = c + 1;
                        if self.matching.vital(c) {
                            self.dom.unset(i, c);
                        }
                    }
                }
            }
            let mut changed = false;
            for (i, view) in self.items.iter().enumerate() {
                let value = |c: usize| i128::from(values[c]);
                changed |= write_row(view, store, &self.before, &self.dom, i, value)?;
            }
            if !(changed && self.shared) {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::tests::fuzz;
    use crate::propagators::tours::tests::propagated;

    #[test]
    fn all_different_except_agrees_with_its_meaning() {
        fuzz(500, |rng| {
            let mut m = Model::new();
            let n = rng.below(6) as usize;
            let value = rng.below(3) as i64 - 1;
            let mut items: Vec<IntArg> = Vec::new();
            for _ in 0..n {
                let item = match rng.below(8) {
                    0 => IntArg::from(rng.below(4) as i64 - 1),
                    1 => IntArg::from(&m.var([3i64, 1, 1, -1, 0])),
                    2 if !items.is_empty() => items[rng.below(items.len() as u64) as usize].clone(),
                    _ => {
                        let low = rng.below(3) as i64 - 1;
                        IntArg::from(&m.var(low..low + 1 + rng.below(4) as i64))
                    }
                };
                items.push(item);
            }
            m.all_different_except(items, value);
            m
        });
    }

    #[test]
    fn items_that_must_differ_are_matched() {
        // x and y over {1, 2}, neither can be 0: z loses 1 and 2 but keeps 0. With a
        // constant 1 beside them, x and y both need 2: no solution.
        let mut m = Model::new();
        let x = m.var(1..3i64);
        let y = m.var(1..3i64);
        let z = m.var(0..3i64);
        m.all_different_except([&x, &y, &z], 0);
        let left = propagated(&m).unwrap();
        assert_eq!(left[2], [0]);
        let mut m = Model::new();
        let x = m.var(1..3i64);
        let y = m.var(1..3i64);
        m.all_different_except([IntArg::from(&x), IntArg::from(&y), IntArg::from(1)], 0);
        assert!(propagated(&m).is_err());
    }
}
