//! Conditions written as Rust closures (predicates) and a user's own propagators.
//!
//! Its `Model` methods: conditions written as Rust closures (predicates) and for custom
//! propagators.
//!
//! Two ways to post a condition: [`Model::require`] on typed values (one variable, a tuple
//! of up to six of any types, or a slice of one type: [`RequireVars`] says which closure
//! each takes), and [`Model::require_indices`] on value indices.

use std::borrow::Cow;
use std::sync::Arc;

use smallvec::SmallVec;

use crate::model::Model;
use crate::model::constraint::{Constraint, Meaning};
use crate::propagator::{Propagator, holds};
use crate::var::{Item, Values, Var, VarId};

pub(crate) type Check<'a> = Arc<dyn Fn(&[u32]) -> bool + Send + Sync + 'a>;

#[derive(Clone)]
pub(crate) struct PredicateDef<'a> {
    pub(crate) vars: Arc<[VarId]>,
    /// The condition over the value indices of `vars`, in order.
    pub(crate) check: Check<'a>,
}

#[derive(Clone)]
pub(crate) struct CustomDef<'a> {
    pub(crate) vars: Arc<[VarId]>,
    /// The number of values of the variable at each position of `vars`, which the
    /// propagator's [`Context`](crate::Context) gives it on a full assignment.
    pub(crate) universes: Arc<[u32]>,
    pub(crate) propagator: Arc<dyn Propagator + 'a>,
}

impl Meaning for PredicateDef<'_> {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    fn holds(&self, values: &[u32]) -> bool {
        let tuple: SmallVec<[u32; 8]> = self.vars.iter().map(|&v| values[v.index()]).collect();
        (self.check)(&tuple)
    }

    fn describe(&self) -> String {
        format!("predicate over {} variables", self.vars.len())
    }
}

impl Meaning for CustomDef<'_> {
    fn vars(&self) -> Cow<'_, [VarId]> {
        Cow::Borrowed(&self.vars)
    }

    /// Whether its propagator, on the full assignment, does not fail.
    fn holds(&self, values: &[u32]) -> bool {
        let universe = |var: VarId| {
            let position = self.vars.iter().position(|&v| v == var);
            position.map_or(0, |p| self.universes[p])
        };
        holds(&*self.propagator, &self.vars, values, &universe)
    }

    fn describe(&self) -> String {
        format!("custom propagator over {} variables", self.vars.len())
    }
}

impl<'a> Model<'a> {
    /// A condition on the values of `vars`, checked as soon as they are all fixed, and used
    /// for forward checking when one is left open. `vars` and the closure go together (see
    /// [`RequireVars`]):
    ///
    /// - one variable, `&x`: `|x| ..` gets its value;
    /// - a tuple of up to six variables of any types, `(&x, &y, &z)`: `|x, y, z| ..` gets
    ///   their values, one argument each;
    /// - the variables of a slice, array or `Vec`, all of one type, `&q`: `|values| ..`
    ///   gets a `&[&T]` of their values, in order.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(1..=4);
    /// let word = m.var(["a", "bb", "ccc"]);
    /// let q = m.vars("q", 3, 0..3);
    /// m.require(&x, |x| x % 2 == 0); // 2 or 4
    /// m.require((&x, &word), |x, w| w.len() + 1 == *x as usize); // (2, "a") or (4, "ccc")
    /// m.require(&q, |q| q.windows(2).all(|p| p[0] < p[1])); // 0, 1, 2
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 2);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn require<V: RequireVars<'a, F>, F>(&mut self, vars: V, check: F) {
        vars.post(self, check);
    }

    /// A condition over the value indices of `vars` (in order, one index into each
    /// variable's value list): checked as soon as all of them are fixed, and used for
    /// forward checking when one is left open. [`require`](Model::require), on the values
    /// themselves, is usually handier; this form takes variables of any types in any
    /// number.
    ///
    /// ```
    /// use ambsolve::{Engine, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(["a", "b", "c"]);
    /// let y = m.var([10, 20, 30]);
    /// m.require_indices(&[x.id(), y.id()], |i| i[0] == i[1]); // ("a", 10), ("b", 20), ..
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 3);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn require_indices(
        &mut self,
        vars: &[VarId],
        check: impl Fn(&[u32]) -> bool + Send + Sync + 'a,
    ) {
        if self.known(vars) {
            self.constraints.push(Constraint::Predicate(PredicateDef {
                vars: vars.into(),
                check: Arc::new(check),
            }));
        }
    }

    /// A custom propagator, woken whenever a domain of `scope` changes. See [`Propagator`].
    pub fn propagator(&mut self, scope: &[VarId], propagator: impl Propagator + 'a) {
        if self.known(scope) {
            let universes = scope.iter().map(|v| self.universes[v.index()]).collect();
            self.constraints.push(Constraint::Custom(CustomDef {
                vars: scope.into(),
                universes,
                propagator: Arc::new(propagator),
            }));
        }
    }
}

/// What [`Model::require`] takes as its variables, and the closure that goes with them:
///
/// | variables | closure |
/// |---|---|
/// | `&Var<A>` | `Fn(&A) -> bool` |
/// | `(&Var<A>, &Var<B>)`, .. up to six, of any types | `Fn(&A, &B) -> bool`, .. |
/// | `&[Var<T>]`, `&[Var<T>; N]`, `&Vec<Var<T>>` | `Fn(&[&T]) -> bool` |
///
/// Values and closures must be `Send + Sync` (a model is shared between threads). A
/// variable of another model makes the model invalid.
pub trait RequireVars<'a, F> {
    /// Posts `check` over these variables on `model`.
    #[doc(hidden)]
    fn post(self, model: &mut Model<'a>, check: F);
}

impl<'a, A, F> RequireVars<'a, F> for &Var<A>
where
    A: Send + Sync + 'a,
    F: Fn(&A) -> bool + Send + Sync + 'a,
{
    fn post(self, model: &mut Model<'a>, check: F) {
        if !model.owns([self]) {
            return;
        }
        let xs = self.values.clone();
        model.require_indices(&[self.id], move |i| check(&xs.at(i[0] as usize)));
    }
}

/// `RequireVars` for a tuple of variables: `(index, value list name, type)` per position.
macro_rules! tuple_vars {
    ($(($i:tt, $list:ident, $t:ident)),+) => {
        impl<'a, $($t,)+ F> RequireVars<'a, F> for ($(&Var<$t>,)+)
        where
            $($t: Send + Sync + 'a,)+
            F: Fn($(&$t),+) -> bool + Send + Sync + 'a,
        {
            fn post(self, model: &mut Model<'a>, check: F) {
                if !($(model.owns([self.$i]))&&+) {
                    return;
                }
                let ids = [$(self.$i.id),+];
                $(let $list = self.$i.values.clone();)+
                model.require_indices(&ids, move |i| check($(&$list.at(i[$i] as usize)),+));
            }
        }
    };
}

tuple_vars!((0, xs, A));
tuple_vars!((0, xs, A), (1, ys, B));
tuple_vars!((0, xs, A), (1, ys, B), (2, zs, C));
tuple_vars!((0, xs, A), (1, ys, B), (2, zs, C), (3, ws, D));
tuple_vars!((0, xs, A), (1, ys, B), (2, zs, C), (3, ws, D), (4, vs, E));
tuple_vars!(
    (0, xs, A),
    (1, ys, B),
    (2, zs, C),
    (3, ws, D),
    (4, vs, E),
    (5, us, G)
);

impl<'a, T, F> RequireVars<'a, F> for &[Var<T>]
where
    T: Send + Sync + 'a,
    F: Fn(&[&T]) -> bool + Send + Sync + 'a,
{
    fn post(self, model: &mut Model<'a>, check: F) {
        if !model.owns(self) {
            return;
        }
        let lists: Vec<Values<T>> = self.iter().map(|v| v.values.clone()).collect();
        let ids: Vec<VarId> = self.iter().map(|v| v.id).collect();
        model.require_indices(&ids, move |indices| {
            let items: smallvec::SmallVec<[Item<'_, T>; 8]> = lists
                .iter()
                .zip(indices)
                .map(|(list, &i)| list.at(i as usize))
                .collect();
            let values: smallvec::SmallVec<[&T; 8]> = items.iter().map(|item| &**item).collect();
            check(&values)
        });
    }
}

impl<'a, T, F, const N: usize> RequireVars<'a, F> for &[Var<T>; N]
where
    T: Send + Sync + 'a,
    F: Fn(&[&T]) -> bool + Send + Sync + 'a,
{
    fn post(self, model: &mut Model<'a>, check: F) {
        self.as_slice().post(model, check);
    }
}

impl<'a, T, F> RequireVars<'a, F> for &Vec<Var<T>>
where
    T: Send + Sync + 'a,
    F: Fn(&[&T]) -> bool + Send + Sync + 'a,
{
    fn post(self, model: &mut Model<'a>, check: F) {
        self.as_slice().post(model, check);
    }
}
