//! `Model` methods for conditions written as Rust closures (predicates) and for custom
//! propagators.

use std::sync::Arc;

use super::{Constraint, CustomDef, Model, PredicateDef};
use crate::propagator::Propagator;
use crate::var::{Var, VarId};

impl<'a> Model<'a> {
    /// A condition over the value indices of `vars` (in order): checked as soon as all of
    /// them are fixed, and used for forward checking when one is left open. The typed
    /// forms [`require1`](Model::require1) .. [`require_all`](Model::require_all) are
    /// usually handier.
    pub fn predicate(&mut self, vars: &[VarId], check: impl Fn(&[u32]) -> bool + Send + Sync + 'a) {
        if self.known(vars) {
            self.constraints.push(Constraint::Predicate(PredicateDef {
                vars: vars.into(),
                check: Arc::new(check),
            }));
        }
    }

    /// A condition on one variable's value.
    pub fn require1<A: Send + Sync + 'a>(
        &mut self,
        x: &Var<A>,
        check: impl Fn(&A) -> bool + Send + Sync + 'a,
    ) {
        if !self.owns([x]) {
            return;
        }
        let xs = Arc::clone(&x.values);
        self.predicate(&[x.id], move |i| check(&xs[i[0] as usize]));
    }

    /// A condition on two variables' values.
    pub fn require2<A, B>(
        &mut self,
        x: &Var<A>,
        y: &Var<B>,
        check: impl Fn(&A, &B) -> bool + Send + Sync + 'a,
    ) where
        A: Send + Sync + 'a,
        B: Send + Sync + 'a,
    {
        if !(self.owns([x]) && self.owns([y])) {
            return;
        }
        let (xs, ys) = (Arc::clone(&x.values), Arc::clone(&y.values));
        self.predicate(&[x.id, y.id], move |i| {
            check(&xs[i[0] as usize], &ys[i[1] as usize])
        });
    }

    /// A condition on three variables' values.
    pub fn require3<A, B, C>(
        &mut self,
        x: &Var<A>,
        y: &Var<B>,
        z: &Var<C>,
        check: impl Fn(&A, &B, &C) -> bool + Send + Sync + 'a,
    ) where
        A: Send + Sync + 'a,
        B: Send + Sync + 'a,
        C: Send + Sync + 'a,
    {
        if !(self.owns([x]) && self.owns([y]) && self.owns([z])) {
            return;
        }
        let (xs, ys, zs) = (
            Arc::clone(&x.values),
            Arc::clone(&y.values),
            Arc::clone(&z.values),
        );
        self.predicate(&[x.id, y.id, z.id], move |i| {
            check(&xs[i[0] as usize], &ys[i[1] as usize], &zs[i[2] as usize])
        });
    }

    /// A condition on the values of several variables of one type, in order.
    pub fn require_all<T: Send + Sync + 'a>(
        &mut self,
        vars: &[Var<T>],
        check: impl Fn(&[&T]) -> bool + Send + Sync + 'a,
    ) {
        if !self.owns(vars) {
            return;
        }
        let lists: Vec<Arc<[T]>> = vars.iter().map(|v| Arc::clone(&v.values)).collect();
        let ids: Vec<VarId> = vars.iter().map(|v| v.id).collect();
        self.predicate(&ids, move |indices| {
            let values: smallvec::SmallVec<[&T; 8]> = lists
                .iter()
                .zip(indices)
                .map(|(list, &i)| &list[i as usize])
                .collect();
            check(&values)
        });
    }

    /// A custom propagator, woken whenever a domain of `scope` changes. See [`Propagator`].
    pub fn propagator(&mut self, scope: &[VarId], propagator: impl Propagator + 'a) {
        if self.known(scope) {
            self.constraints.push(Constraint::Custom(CustomDef {
                vars: scope.into(),
                propagator: Arc::new(propagator),
            }));
        }
    }
}
