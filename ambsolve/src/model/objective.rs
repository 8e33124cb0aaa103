//! The objective of a model: a linear expression to minimise or maximise.
//!
//! Engines see it as a *cost* to minimise, the expression with its coefficients negated
//! for a maximum; users see its value in their own sense.

use hashbrown::HashMap;

use crate::model::constraint::LinearDef;
use crate::var::VarId;

/// Whether an objective is minimised or maximised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sense {
    /// The smaller the better.
    Minimize,
    /// The larger the better.
    Maximize,
}

/// An objective, as the cost engines minimise.
#[derive(Clone)]
pub(crate) struct ObjectiveDef {
    pub(crate) sense: Sense,
    /// The cost's terms (negated for a maximum); its comparison and right-hand side are
    /// unused.
    pub(crate) cost: LinearDef,
    /// Added to the expression's terms to give the user's value.
    pub(crate) constant: i64,
    /// Taken from the terms' sum to give the cost, so that every cost fits an `i64`:
    /// 0 unless the sum's range does not (`maximize x` over a domain holding
    /// `i64::MIN` negates it to `2^63`, and the shift is 1).
    shift: i128,
}

impl ObjectiveDef {
    /// # Errors
    /// A message if some assignment's value, or the width of the range of costs, would
    /// not fit in an `i64`.
    pub(crate) fn new(sense: Sense, cost: LinearDef, constant: i64) -> Result<Self, String> {
        let least: i128 = cost.extremes().map(|e| e.0).sum();
        let most: i128 = cost.extremes().map(|e| e.1).sum();
        let constant_wide = i128::from(constant);
        let (low, high) = match sense {
            Sense::Minimize => (least + constant_wide, most + constant_wide),
            Sense::Maximize => (constant_wide - most, constant_wide - least),
        };
        let fits = |x: i128| i64::try_from(x).is_ok();
        let shift = if fits(least) && fits(most) {
            0
        } else {
            least - i128::from(i64::MIN)
        };
        if !(fits(least - shift) && fits(most - shift) && fits(low) && fits(high)) {
            return Err(format!(
                "the objective ranges over {low}..={high}, which does not fit in an i64"
            ));
        }
        Ok(ObjectiveDef {
            sense,
            cost,
            constant,
            shift,
        })
    }

    /// The bound on the terms' sum that keeps the cost at most `cost`.
    pub(crate) fn terms_at_most(&self, cost: i128) -> i128 {
        cost + self.shift
    }

    /// The variables the objective mentions.
    pub(crate) fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        self.cost.terms.iter().map(|t| t.0)
    }

    /// What each value of each of the objective's variables adds to the cost, by
    /// variable (the other variables add nothing): the cost of an assignment is the sum
    /// over its variables.
    pub(crate) fn literal_costs(&self) -> HashMap<usize, Vec<i128>> {
        let mut costs: HashMap<usize, Vec<i128>> = HashMap::new();
        for (var, coef, images) in &self.cost.terms {
            let shares = costs
                .entry(var.index())
                .or_insert_with(|| vec![0; images.len()]);
            for (share, image) in shares.iter_mut().zip(images.iter()) {
                // In range: a linear sum's terms add up within an i128.
                *share += i128::from(*coef) * i128::from(image);
            }
        }
        costs
    }

    /// The cost of a full assignment of value indices.
    pub(crate) fn cost(&self, values: &[u32]) -> i64 {
        // In range: checked when the objective was made.
        (self.cost.sum(values) - self.shift) as i64
    }

    /// The least cost any assignment agreeing with the chosen variables can have.
    pub(crate) fn least_cost(&self, values: &[u32], chosen: impl Fn(VarId) -> bool) -> i128 {
        self.cost.reach(values, chosen).0 - self.shift
    }

    /// The user's value of an assignment of cost `cost`.
    pub(crate) fn value_of(&self, cost: i64) -> i64 {
        // In range: checked when the objective was made.
        let sum = i128::from(cost) + self.shift;
        let constant = i128::from(self.constant);
        (match self.sense {
            Sense::Minimize => sum + constant,
            Sense::Maximize => constant - sum,
        }) as i64
    }

    /// The user's value of a full assignment.
    pub(crate) fn value(&self, values: &[u32]) -> i64 {
        self.value_of(self.cost(values))
    }
}
