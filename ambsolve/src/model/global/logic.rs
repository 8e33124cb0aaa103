//! Logic over constraints: clauses, parity, and linear constraints tied to a literal
//! (reified: the literal says whether the constraint holds; half-reified: the literal
//! true implies it).

use crate::model::constraint::LinearDef;
use crate::model::global::{Lit, Meaning};
use crate::var::VarId;

/// At least one literal is true (`b1 || !b2 || b3`). With no literal it never holds.
pub(crate) struct Clause {
    pub(crate) lits: Vec<Lit>,
    pub(crate) vars: Vec<VarId>,
}

impl Clause {
    pub(crate) fn new(lits: Vec<Lit>) -> Self {
        let vars = lits.iter().map(|l| l.var).collect();
        Clause { lits, vars }
    }
}

impl Meaning for Clause {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.lits.iter().any(|l| l.truth(values[l.var.index()]))
    }

    fn describe(&self) -> String {
        format!("clause of {} literals {:?}", self.lits.len(), self.lits)
    }
}

/// An odd number of the literals are true.
pub(crate) struct Xor {
    pub(crate) lits: Vec<Lit>,
    pub(crate) vars: Vec<VarId>,
}

impl Xor {
    pub(crate) fn new(lits: Vec<Lit>) -> Self {
        let vars = lits.iter().map(|l| l.var).collect();
        Xor { lits, vars }
    }
}

impl Meaning for Xor {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.lits
            .iter()
            .filter(|l| l.truth(values[l.var.index()]))
            .count()
            % 2
            == 1
    }

    fn describe(&self) -> String {
        format!("xor of {} literals {:?}", self.lits.len(), self.lits)
    }
}

/// How a literal is tied to a constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Reification {
    /// The literal is true exactly when the constraint holds.
    Full,
    /// The literal true implies the constraint (false says nothing).
    Half,
}

/// A linear constraint tied to a literal.
pub(crate) struct LinearReif {
    pub(crate) linear: LinearDef,
    pub(crate) lit: Lit,
    pub(crate) reification: Reification,
    /// The linear constraint's variables, then the literal's.
    pub(crate) vars: Vec<VarId>,
}

impl LinearReif {
    pub(crate) fn new(linear: LinearDef, lit: Lit, reification: Reification) -> Self {
        let mut vars: Vec<VarId> = linear.terms.iter().map(|t| t.0).collect();
        vars.push(lit.var);
        LinearReif {
            linear,
            lit,
            reification,
            vars,
        }
    }
}

impl Meaning for LinearReif {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn holds(&self, values: &[u32]) -> bool {
        let lit = self.lit.truth(values[self.lit.var.index()]);
        let linear = self
            .linear
            .cmp
            .holds(self.linear.sum(values), i128::from(self.linear.rhs));
        match self.reification {
            Reification::Full => lit == linear,
            Reification::Half => !lit || linear,
        }
    }

    fn describe(&self) -> String {
        let terms: Vec<(VarId, i64)> = self.linear.terms.iter().map(|t| (t.0, t.1)).collect();
        format!(
            "{:?}-reified linear {terms:?} {:?} {} by {:?}",
            self.reification, self.linear.cmp, self.linear.rhs, self.lit
        )
    }
}
