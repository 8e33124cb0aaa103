//! The public [`Propagator`] trait, the [`Context`] a propagator sees, and what a
//! propagator means on fixed values.
//!
//! A propagator is run in one of two places. During a trail search its context is the
//! store of domains, and it prunes them. Wherever a full assignment is checked (the replay
//! engine, [`Model::check`](crate::Model::check), generate-and-test) its context is that
//! assignment, every variable holding exactly one value: then *pruning* the value a
//! variable holds fails, pruning any other value does nothing, and the propagator's
//! verdict is its meaning — the constraint holds exactly when `propagate` succeeds.
//!
//! The library's own propagators, one per constraint kind, implement the crate-private
//! [`BuiltinPropagator`] instead: the same contract, over the store itself.

use crate::choice::Fail;
use crate::domain::Domain;
use crate::store::{Atoms, CHANGED, Pred, Store};
use crate::var::VarId;

/// A constraint that prunes domains: implement it to add your own constraint.
///
/// Its only required method, [`propagate`](Propagator::propagate), looks at the domains of
/// the variables it was registered with and removes values that cannot be part of a
/// solution. It must be *correct*, never *complete*: removing nothing is allowed, except
/// that **when every variable of its scope is fixed it must fail exactly when the
/// constraint is violated**. That one rule is what makes a propagator a constraint: it is
/// its *meaning on fixed values*, which the replay engine and
/// [`Model::check`](crate::Model::check) use, running `propagate` on a context where every
/// variable holds its one value (no store is built for it).
///
/// The engine calls it after any domain of its scope changes, until nothing changes.
/// It has no state of its own between calls: recompute from the domains. It is `Send +
/// Sync` so that a model holding it can be shared with other threads.
///
/// ```
/// use ambsolve::{Context, Engine, Fail, Model, Propagator, VarId};
///
/// /// x < y, on value indices (both variables range over the same sorted list).
/// struct Less(VarId, VarId);
///
/// impl Propagator for Less {
///     fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
///         let (Some(x_min), Some(y_max)) = (cx.min(self.0), cx.max(self.1)) else {
///             return Err(Fail);
///         };
///         cx.retain(self.0, |x| x < y_max)?;
///         cx.retain(self.1, |y| y > x_min)?;
///         Ok(())
///     }
/// }
///
/// let mut m = Model::new();
/// let x = m.var(0..4);
/// let y = m.var(0..4);
/// m.propagator(&[x.id(), y.id()], Less(x.id(), y.id()));
/// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 6);
/// assert_eq!(m.solve(Engine::Replay).count()?.solutions, 6);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
pub trait Propagator: Send + Sync {
    /// Removes values that cannot be part of a solution, or fails.
    ///
    /// # Errors
    /// [`Fail`] when no solution is left (a domain would empty, or the fixed values
    /// violate the constraint).
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail>;
}

/// The propagator of a built-in constraint kind (see `model::constraint::Kind`), over the
/// store.
///
/// Like a user's [`Propagator`] it must be correct (never remove a value that takes part
/// in a solution of its constraint alone) and decide: once every variable of its scope is
/// fixed, it fails exactly when its constraint's meaning is false. Unlike one, it sees the
/// store directly, may keep trailed counters ([`Store::alloc_aux`]), says which events wake
/// it, and may act on the spot when a variable is fixed.
pub(crate) trait BuiltinPropagator: Send {
    /// The variables it reads (a variable may repeat).
    fn scope(&self) -> &[VarId];

    /// The events on the variable at position `local` of its scope that schedule a run
    /// (none: 0).
    fn wakes(&self, _local: usize) -> u8 {
        CHANGED
    }

    /// Whether it is told at once, through [`on_fixed`](Self::on_fixed), when a variable
    /// of its scope is fixed (all-different).
    fn acts_on_fixed(&self) -> bool {
        false
    }

    /// The variable at position `local` of its scope was just fixed (when it
    /// [`acts_on_fixed`](Self::acts_on_fixed)): prunes on the spot, and says whether a
    /// full run must follow.
    ///
    /// # Errors
    /// [`Fail`] when no solution is left.
    fn on_fixed(&mut self, _store: &mut Store, _local: usize) -> Result<bool, Fail> {
        Ok(true)
    }

    /// Whether another propagator reads a variable of its scope (told once, before the
    /// search, so it can choose its watches).
    fn set_shared(&mut self, _shared: bool) {}

    /// Whether a run costs more than linear time in its scope (the scheduling kinds):
    /// such a propagator waits until the cheap ones have nothing left to do, so that it
    /// runs once on their combined changes instead of once per change.
    fn expensive(&self) -> bool {
        false
    }

    /// Whether one run leaves nothing for a second to do: then its own changes do not
    /// wake it again (the changes of others still do).
    fn idempotent(&self) -> bool {
        false
    }

    /// Whether it may say [`finished`](Self::finished) (then the engine keeps a trailed
    /// cell for it).
    fn finishes(&self) -> bool {
        false
    }

    /// Whether, after the run that just succeeded, its constraint holds whatever values
    /// are left: nothing below this point of the search can make it prune or fail, so it
    /// is not woken again until the search backtracks above it.
    fn finished(&self) -> bool {
        false
    }

    /// Whether it gives explanations of its own ([`explain`](Self::explain)).
    fn explains(&self) -> bool {
        false
    }

    /// Explains, for a search that learns, `pred`, made true by the atom at trail position
    /// `at` in one of its runs: appends to `out` predicates that held before `at` (the
    /// bounds [`Atoms::low_before`] and [`Atoms::high_before`] read) and imply `pred` given
    /// the constraint, or, `pred` `None` and `at` the trail's length, imply the failure of
    /// the run that just failed; returns whether it did (what it appended before giving
    /// up is dropped). Where the store moved an end past the one imposed (over values gone
    /// before), the engine adds those holes. Asked only if it
    /// [`explains`](Self::explains). The default explains nothing: the engine then uses
    /// the domains of the scope when the run began, which is sound for any propagator that
    /// prunes from its scope's domains alone, and weaker than the reasons a propagator
    /// knows.
    fn explain(&self, _atoms: &Atoms, _at: u32, _pred: Option<Pred>, _out: &mut Vec<Pred>) -> bool {
        false
    }

    /// The first run, at the root, from scratch.
    ///
    /// # Errors
    /// [`Fail`] when no solution is left.
    fn initial(&mut self, store: &mut Store) -> Result<(), Fail> {
        self.propagate(store)
    }

    /// Removes values that cannot be part of a solution, or fails.
    ///
    /// # Errors
    /// [`Fail`] when no solution is left.
    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail>;
}

/// Whether `propagator` holds when each variable `v` takes value index `values[v]`: its
/// meaning on fixed values. `universe` gives the number of values of each variable of
/// `scope`.
pub(crate) fn holds(
    propagator: &dyn Propagator,
    scope: &[VarId],
    values: &[u32],
    universe: &dyn Fn(VarId) -> u32,
) -> bool {
    let mut cx = Context {
        domains: Domains::Fixed { values, universe },
        scope,
    };
    propagator.propagate(&mut cx).is_ok()
}

/// Where a context reads and prunes domains.
enum Domains<'s> {
    /// A trail search's store.
    Store(&'s mut Store),
    /// A full assignment: every variable holds one value index.
    Fixed {
        values: &'s [u32],
        universe: &'s dyn Fn(VarId) -> u32,
    },
}

/// What a [`Propagator`] sees: the domains (value indices) of the model's variables.
///
/// # Panics
/// Every method taking a [`VarId`] panics if it is not a variable of the model being
/// solved.
pub struct Context<'s> {
    domains: Domains<'s>,
    scope: &'s [VarId],
}

impl<'s> Context<'s> {
    /// A context over a search's store.
    pub(crate) fn new(store: &'s mut Store, scope: &'s [VarId]) -> Self {
        Context {
            domains: Domains::Store(store),
            scope,
        }
    }

    /// The variables the propagator was registered with.
    pub fn scope(&self) -> &[VarId] {
        self.scope
    }

    /// The number of values left for `var`.
    pub fn size(&self, var: VarId) -> usize {
        match &self.domains {
            Domains::Store(store) => store.size(var.index()) as usize,
            Domains::Fixed { values, .. } => {
                let _ = values[var.index()];
                1
            }
        }
    }

    /// The value index of `var` if it has exactly one value left.
    pub fn fixed(&self, var: VarId) -> Option<u32> {
        match &self.domains {
            Domains::Store(store) if store.is_fixed(var.index()) => store.min(var.index()),
            Domains::Store(_) => None,
            Domains::Fixed { values, .. } => Some(values[var.index()]),
        }
    }

    /// Whether value index `index` is still possible for `var`.
    pub fn contains(&self, var: VarId, index: u32) -> bool {
        match &self.domains {
            Domains::Store(store) => store.contains(var.index(), index),
            Domains::Fixed { values, .. } => values[var.index()] == index,
        }
    }

    /// The smallest value index left for `var`.
    pub fn min(&self, var: VarId) -> Option<u32> {
        match &self.domains {
            Domains::Store(store) => store.min(var.index()),
            Domains::Fixed { values, .. } => Some(values[var.index()]),
        }
    }

    /// The largest value index left for `var`.
    pub fn max(&self, var: VarId) -> Option<u32> {
        match &self.domains {
            Domains::Store(store) => store.max(var.index()),
            Domains::Fixed { values, .. } => Some(values[var.index()]),
        }
    }

    /// A copy of the domain of `var`.
    pub fn domain(&self, var: VarId) -> Domain {
        match &self.domains {
            Domains::Store(store) => store.domain(var.index()),
            Domains::Fixed { values, universe } => {
                let mut domain = Domain::empty(universe(var));
                domain.insert(values[var.index()]);
                domain
            }
        }
    }

    /// Removes value index `index` from `var`. Returns whether it was there.
    ///
    /// # Errors
    /// [`Fail`] if the domain becomes empty.
    pub fn remove(&mut self, var: VarId, index: u32) -> Result<bool, Fail> {
        match &mut self.domains {
            Domains::Store(store) => store.remove(var.index(), index),
            Domains::Fixed { values, .. } if values[var.index()] == index => Err(Fail),
            Domains::Fixed { .. } => Ok(false),
        }
    }

    /// Keeps only the value indices of `var` for which `keep` holds. Returns whether
    /// anything was removed.
    ///
    /// # Errors
    /// [`Fail`] if the domain becomes empty.
    pub fn retain(&mut self, var: VarId, mut keep: impl FnMut(u32) -> bool) -> Result<bool, Fail> {
        match &mut self.domains {
            Domains::Store(store) => store.retain(var.index(), keep),
            Domains::Fixed { values, .. } if keep(values[var.index()]) => Ok(false),
            Domains::Fixed { .. } => Err(Fail),
        }
    }

    /// Fixes `var` to value index `index`.
    ///
    /// # Errors
    /// [`Fail`] if `index` is not in the domain.
    pub fn fix(&mut self, var: VarId, index: u32) -> Result<(), Fail> {
        match &mut self.domains {
            Domains::Store(store) => store.assign(var.index(), index),
            Domains::Fixed { values, .. } if values[var.index()] == index => Ok(()),
            Domains::Fixed { .. } => Err(Fail),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x != y on value indices.
    struct Differ;

    impl Propagator for Differ {
        fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
            let [x, y] = [cx.scope()[0], cx.scope()[1]];
            if let Some(v) = cx.fixed(x) {
                cx.remove(y, v)?;
            }
            if let Some(v) = cx.fixed(y) {
                cx.remove(x, v)?;
            }
            Ok(())
        }
    }

    #[test]
    fn the_meaning_on_fixed_values_is_the_verdict_of_propagate() {
        let scope = [VarId::at(0), VarId::at(1)];
        assert!(holds(&Differ, &scope, &[0, 1], &|_| 2));
        assert!(!holds(&Differ, &scope, &[1, 1], &|_| 2));
    }

    #[test]
    fn a_fixed_context_answers_like_a_singleton_domain() {
        let scope = [VarId::at(0)];
        let values = [2u32];
        let mut cx = Context {
            domains: Domains::Fixed {
                values: &values,
                universe: &|_| 4,
            },
            scope: &scope,
        };
        let x = VarId::at(0);
        assert_eq!(
            (cx.size(x), cx.fixed(x), cx.min(x), cx.max(x)),
            (1, Some(2), Some(2), Some(2))
        );
        assert!(cx.contains(x, 2) && !cx.contains(x, 1));
        assert_eq!(cx.domain(x).iter().collect::<Vec<_>>(), [2]);
        assert_eq!(cx.remove(x, 1), Ok(false));
        assert_eq!(cx.remove(x, 2), Err(Fail));
        assert_eq!(cx.retain(x, |i| i != 3), Ok(false));
        assert_eq!(cx.retain(x, |i| i != 2), Err(Fail));
        assert_eq!(cx.fix(x, 2), Ok(()));
        assert_eq!(cx.fix(x, 0), Err(Fail));
    }
}
