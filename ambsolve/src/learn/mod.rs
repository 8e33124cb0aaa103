//! Search that learns (lazy clause generation's core, over the store's atomic predicates):
//! what a conflict's predicates are, their explanation by the causes the predicate trail
//! recorded, conflict analysis to the first UIP (`analyze.rs`), the nogoods learned and
//! their propagation by watched predicates (`nogoods.rs`), and activity-based search with
//! phase saving (`activity.rs`). The trail engine's learning search
//! (`engine/trail/learning.rs`) drives them.
//!
//! Every change a propagator makes is explained by the domains of its scope when its run
//! began ([`Fixpoint::explain`]): sound for any propagator whose pruning follows from its
//! constraint and those domains, which every built-in one does; a propagator may give
//! tighter explanations of its own through [`BuiltinPropagator::explain`].
//!
//! [`BuiltinPropagator::explain`]: crate::propagator::BuiltinPropagator::explain

mod activity;
mod analyze;
mod nogoods;

pub(crate) use self::activity::{Activity, Predicates};
pub(crate) use self::analyze::Learned;
pub(crate) use self::nogoods::Nogoods;

use crate::propagators::Fixpoint;
use crate::store::{Cause, Pred, Store};

/// What failed: the run of a propagator (or the symmetry rule), by the cause it ran
/// under, or a nogood all of whose predicates hold.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Conflict {
    Cause(Cause),
    Nogood(u32),
}

/// The learning parts of a search: the nogoods, the activities, and each level's decision.
pub(crate) struct Learner {
    pub(crate) nogoods: Nogoods,
    pub(crate) activity: Activity,
    pub(crate) predicates: Predicates,
    /// The decision of each level (level `l` at `l - 1`) and the trail position before it.
    decisions: Vec<(Pred, u32)>,
    /// Nogoods learned in all.
    pub(crate) learned: u64,
}

impl Learner {
    /// A learner over the store's variables, activity ties broken by `order`; the
    /// predicates of a variable `skip` marks are never decided (a cost's, decided at its
    /// cheap end).
    pub(crate) fn new(order: &[usize], skip: Vec<bool>) -> Self {
        Learner {
            nogoods: Nogoods::new(skip.len()),
            activity: Activity::new(order),
            predicates: Predicates::new(skip),
            decisions: Vec::new(),
            learned: 0,
        }
    }

    /// The search decides `pred` at a new level, the trail holding `position` atoms.
    pub(crate) fn decided(&mut self, pred: Pred, position: u32) {
        self.decisions.push((pred, position));
    }

    /// The decisions of the levels open, the first level's first.
    pub(crate) fn decisions(&self) -> impl Iterator<Item = Pred> + '_ {
        self.decisions.iter().map(|&(pred, _)| pred)
    }

    /// The decisions of the levels kept after backjumping to `level`.
    pub(crate) fn backjumped(&mut self, level: u32) {
        self.decisions.truncate(level as usize);
    }

    /// Appends predicates that held before the atom at `at` that made `pred` true with
    /// `cause`, and imply it (`pred` `None`, `at` the trail's length: that imply the
    /// failure of the run `cause` names). Whether they are the run's whole scope as it
    /// began (which imply every atom of the run).
    fn explain(
        &self,
        cause: Cause,
        at: u32,
        pred: Option<Pred>,
        store: &Store,
        fixpoint: &Fixpoint<'_>,
        out: &mut Vec<Pred>,
    ) -> bool {
        let atoms = store.atoms().expect("a learning search records atoms");
        match cause {
            Cause::Prop { prop, start } => fixpoint.explain(prop, atoms, start, at, pred, out),
            Cause::Nogood(id) => {
                // The nogood made one predicate false, the others held.
                #[cfg(feature = "debug-checks")]
                let from = out.len();
                let falsified = self.nogoods.made_false(at);
                let preds = self.nogoods.preds(id);
                out.extend(preds.iter().filter(|&&p| p != falsified));
                // The atom's end may need the domain before it too (a nogood `x == 4`
                // made false makes `x >= 5` from `x >= 4`).
                let imposed = falsified.negated().expect("a predicate made false");
                if let Some(pred) = pred {
                    if !analyze::implies(imposed, pred) {
                        atoms.stepped_over(at, pred, true, out);
                    }
                    #[cfg(feature = "debug-checks")]
                    if let Some(root) = atoms.root(pred.var as usize) {
                        // Every value the explanation and the nogood leave has the atom's
                        // predicate.
                        let on = out[from..].iter().filter(|p| p.var == pred.var);
                        let left = root.iter().find(|&v| {
                            imposed.accepts(v)
                                && on.clone().all(|p| p.accepts(v))
                                && !pred.accepts(v)
                        });
                        if let Some(value) = left {
                            panic!(
                                "debug-checks: nogood {preds:?} explains {pred:?} by {:?}, \
                                 which leave index {value}",
                                &out[from..]
                            );
                        }
                    }
                }
                false
            }
            Cause::Decision => {
                debug_assert!(false, "decisions are not explained");
                false
            }
        }
    }

    /// Analyses `conflict` (which holds in the store now): the nogood it teaches, or
    /// `None` if it holds at the root. Bumps the activity of every variable met.
    pub(crate) fn analyze(
        &mut self,
        conflict: Conflict,
        store: &Store,
        fixpoint: &Fixpoint<'_>,
    ) -> Option<Learned> {
        let mut preds = Vec::new();
        match conflict {
            Conflict::Cause(cause) => {
                let at = store.atoms().expect("recording").len() as u32;
                self.explain(cause, at, None, store, fixpoint, &mut preds);
            }
            Conflict::Nogood(id) => preds.extend_from_slice(self.nogoods.preds(id)),
        }
        let atoms = store.atoms().expect("a learning search records atoms");
        let mut met = Vec::new();
        let learned = analyze::analyze(
            atoms,
            &preds,
            |level| self.decisions[level as usize - 1].0,
            |cause, at, pred, out| self.explain(cause, at, Some(pred), store, fixpoint, out),
            |pred| met.push(pred),
        );
        for pred in met {
            self.activity.bump(pred.var);
            self.predicates.bump(pred);
        }
        self.activity.decay();
        self.predicates.decay();
        self.learned += u64::from(learned.is_some());
        learned
    }
}
