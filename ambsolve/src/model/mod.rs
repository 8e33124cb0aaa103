//! The model: variables with their value lists, and constraints over them.
//!
//! A [`Model`] is what `constraints!` builds, and it is a complete API of its own. It is
//! plain data: it knows no engine, store or iterator. The seam
//! ([`Model::solve`](crate::Model::solve), in `solve.rs`) hands it to an engine.

mod assignment;
mod build_objective;
mod check;
pub(crate) mod constraint;
mod integer;
mod mark;
mod names;
mod objective;
mod parts;
mod symmetries;
mod term;
mod vars;

use std::sync::Arc;

use hashbrown::HashMap;

pub use self::assignment::Assignment;
pub use self::check::CheckError;
pub(crate) use self::constraint::*;
pub use self::constraint::{Dfa, IntArg, Lit, RequireVars};
pub use self::integer::Integer;
pub(crate) use self::integer::Trend;
pub(crate) use self::integer::{Images, images_of};
use self::names::NameRun;
pub(crate) use self::objective::ObjectiveDef;
pub use self::objective::Sense;
pub use self::parts::Part;
pub(crate) use self::parts::Piece;
pub use self::term::{Cmp, Term};
use crate::domain::Domain;
use crate::symmetry::Symmetry;
use crate::var::{Identity, ModelId, Var, VarId};

/// Variables, their values, and constraints.
///
/// Building a model never fails on the spot: a mistake (a variable of another model, a
/// value list too long, a value out of `i64` range in an arithmetic constraint, a table
/// tuple of the wrong length) is remembered; [`error`](Model::error) tells it, and solving
/// reports it as [`SearchError::InvalidModel`](crate::SearchError::InvalidModel) (from `first()`, `count()` and
/// `try_solutions()`; a plain `solutions()` loop panics with the message).
///
/// A model is a plain value: `Clone`, and `Send + Sync` (its predicates and propagators
/// must be), so it can be solved on several engines or threads at once. Cloning shares the
/// constraints' closures and tables instead of copying them.
///
/// Every variable (its [`Var`], and its [`VarId`] from [`Var::id`] or
/// [`var_ids`](Model::var_ids)) remembers the model that declared it, and a model refuses
/// another model's, from every method: the model becomes invalid. A clone has the same
/// variables as its original, so each takes the other's, until one of them declares a
/// variable: from then on, the variables either declares are its own, refused by the
/// other (`let b = a.clone()`, then `a` and `b` each declare a variable at the same
/// position: neither takes the other's). A `VarId` made from a position
/// ([`VarId::from_index`]) is taken by any model that has that position.
///
/// ```
/// use ambsolve::{Cmp, Engine, Model};
///
/// // x + y == 10, x < y, both in 0..10, all different.
/// let mut m = Model::new();
/// let x = m.var(0..10);
/// let y = m.var(0..10);
/// m.linear([(1, &x), (1, &y)], Cmp::Eq, 10);
/// m.linear([(1, &x), (-1, &y)], Cmp::Lt, 0);
/// let pairs: Vec<(i32, i32)> = m
///     .solve(Engine::Trail)
///     .solutions()
///     .map(|s| (*s.value(&x), *s.value(&y)))
///     .collect();
/// assert_eq!(pairs, [(1, 9), (2, 8), (3, 7), (4, 6)]);
/// ```
#[derive(Clone)]
pub struct Model<'a> {
    /// Shared by clones until one of them declares a variable; carried by every variable.
    identity: Arc<Identity>,
    /// The variables' names, as runs of consecutive variables.
    names: Vec<NameRun>,
    universes: Vec<u32>,
    /// Domains narrowed before solving by [`restrict`](Model::restrict); others are full.
    initial: HashMap<u32, Domain>,
    /// Values the search tries first ([`hint`](Model::hint)), by variable: value indices.
    hints: HashMap<u32, u32>,
    /// Maps sending solutions to solutions, for solving up to symmetry.
    symmetries: Vec<Symmetry>,
    constraints: Vec<Constraint<'a>>,
    /// What to minimise or maximise, if anything.
    objective: Option<ObjectiveDef>,
    /// Further objectives, optimised in order once those before them are at their
    /// optima ([`then_objective`](Model::then_objective)).
    then: Vec<ObjectiveDef>,
    /// Constraints named together ([`named`](Model::named)): positions `from..to`, name.
    groups: Vec<(usize, usize, Arc<str>)>,
    /// The positions of the auxiliary variables the model made for itself (each a
    /// function of others: a flattened expression's value, a bin's load), ascending.
    auxiliary: Vec<u32>,
    error: Option<String>,
}

impl Default for Model<'_> {
    fn default() -> Self {
        Model {
            identity: Arc::new(Identity::fresh()),
            names: Vec::new(),
            universes: Vec::new(),
            initial: HashMap::new(),
            hints: HashMap::new(),
            symmetries: Vec::new(),
            constraints: Vec::new(),
            objective: None,
            then: Vec::new(),
            groups: Vec::new(),
            auxiliary: Vec::new(),
            error: None,
        }
    }
}

impl<'a> Model<'a> {
    /// An empty model, with an identity of its own: its variables are refused by other
    /// models.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a constraint (its arguments checked by the method that built it).
    pub(crate) fn post(&mut self, constraint: Constraint<'a>) {
        self.constraints.push(constraint);
    }

    /// The number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// Gives back the room the model's lists keep for more variables and constraints:
    /// worth calling once a model of millions is built, before it is solved.
    pub fn shrink_to_fit(&mut self) {
        self.names.shrink_to_fit();
        self.universes.shrink_to_fit();
        self.constraints.shrink_to_fit();
    }

    pub(crate) fn constraints(&self) -> &[Constraint<'a>] {
        &self.constraints
    }

    /// Each constraint's variables, as indices: sorted, each once (what orders that count
    /// constraints per variable read).
    pub(crate) fn scopes(&self) -> Vec<Vec<usize>> {
        self.constraints
            .iter()
            .map(|c| {
                let mut vars: Vec<usize> = c.vars().iter().map(|v| v.index()).collect();
                vars.sort_unstable();
                vars.dedup();
                vars
            })
            .collect()
    }

    /// The building error, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The identity of this model, carried by its variables and its assignments.
    pub(crate) fn identity(&self) -> &Arc<Identity> {
        &self.identity
    }

    /// Whether every one of `vars` is one of this model's (see [`Identity`]); else the
    /// model remembers the error.
    fn owns<'v, T: 'v>(&mut self, vars: impl IntoIterator<Item = &'v Var<T>>) -> bool {
        vars.into_iter().all(|var| self.declared(var.model, var.id))
    }

    /// Whether the variable `var` declared by the model `model` is one of this model's:
    /// declared by it, or by a model it was cloned from before either declared another
    /// variable; else the model remembers the error.
    fn declared(&mut self, model: ModelId, var: VarId) -> bool {
        if var.index() < self.num_vars() && self.identity.accepts(model, var.raw()) {
            return true;
        }
        self.fail(format!(
            "variable {var:?} was declared by another model (or by a clone of this one, \
             after they parted)"
        ));
        false
    }

    /// Whether every one of `vars` is one of this model's: an id of this model (or of a
    /// model it was cloned from, for the variables they share), or a position below the
    /// number of variables; else the model remembers the error.
    fn known(&mut self, vars: &[VarId]) -> bool {
        if let Some(v) = vars.iter().find(|&&v| !self.identity.accepts_id(v)) {
            self.fail(format!(
                "variable {v:?} was declared by another model (or by a clone of this one, \
                 after they parted)"
            ));
            return false;
        }
        match vars.iter().find(|v| v.index() >= self.num_vars()) {
            Some(v) => {
                self.fail(format!("{v:?} is not a variable of this model"));
                false
            }
            None => true,
        }
    }

    /// Makes the model invalid: value `at` of `var` has no `i64` image.
    pub(crate) fn out_of_range(&mut self, var: VarId, at: usize) {
        let name = if var.index() < self.num_vars() && self.identity.accepts_id(var) {
            self.name(var)
        } else {
            format!("{var:?}")
        };
        self.fail(format!("value {at} of {name} does not fit in an i64"));
    }

    fn fail(&mut self, message: String) {
        self.error.get_or_insert(message);
    }

    /// Makes the model invalid with `message` (the first such message is kept).
    pub(crate) fn invalid(&mut self, message: String) {
        self.fail(message);
    }
}

impl std::fmt::Debug for Model<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.var_ids().map(|v| self.name(v)).collect();
        let mut out = f.debug_struct("Model");
        out.field("vars", &names)
            .field("constraints", &self.constraints)
            .field("objective", &self.objective.as_ref().map(|o| o.sense));
        if !self.then.is_empty() {
            let senses: Vec<Sense> = self.then.iter().map(|o| o.sense).collect();
            out.field("then", &senses);
        }
        out.field("error", &self.error).finish()
    }
}
