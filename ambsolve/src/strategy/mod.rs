//! Search strategies: which variable to branch on, how to branch on it (a value, or a half
//! of its domain), in phases, and whether to restart.

mod restarts;
mod values;

use std::fmt;
use std::sync::Arc;

use crate::model::Integer;
use crate::var::{Var, VarId};

pub use self::restarts::Restarts;
pub(crate) use self::values::{SplitMix, middle_out_index, middle_out_position, order_values};

/// How the search picks the next variable.
///
/// The dynamic orders (all but `Automatic`, `Input` and `Given`) are the trail engine's;
/// the replay engine, which chooses in a fixed order, takes the variables in declaration
/// order for them. Ties go to the earliest declared variable (within a [`Phase`], to the
/// one listed first) unless the order says otherwise.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum VarOrder {
    /// The engine's own choice (the default): declaration order on the trail engine,
    /// whose propagation needs no help; on the replay engine of a model, the order of
    /// [`Model::replay_order`](crate::Model::replay_order), which checks each constraint
    /// as soon as it can (declaration order when that changes nothing).
    #[default]
    Automatic,
    /// The order the variables were declared in.
    Input,
    /// The variable with the fewest values left (FlatZinc's `first_fail`).
    FirstFail,
    /// The given order; variables not listed come after, in declaration order.
    Given(Arc<[VarId]>),
    /// The variable with the fewest values left; ties go to the one listed first in the
    /// given order (variables not listed come after, in declaration order).
    FirstFailThen(Arc<[VarId]>),
    /// The variable with the most values left (`anti_first_fail`).
    AntiFirstFail,
    /// The variable whose smallest value left is least (`smallest`), values compared by
    /// the key, their integer images (see [`value_images`]). The smallest value of a
    /// domain is taken at one of its ends (its least or greatest index): exact for value
    /// lists whose images rise or fall with the index (ranges, sorted lists).
    Smallest(ValueKey),
    /// The variable whose greatest value left is greatest (`largest`), values compared by
    /// the key, as for [`VarOrder::Smallest`].
    Largest(ValueKey),
    /// The variable in the most constraints of the model (`occurrence`), counted once per
    /// constraint.
    Occurrence,
    /// First-fail, ties to the variable in the most constraints (`most_constrained`).
    MostConstrained,
    /// The least ratio of values left to weighted degree (`dom_w_deg`): each constraint
    /// starts with a weight of 1, raised by 1 each time its propagator fails (empties a
    /// domain); a variable's weighted degree is the sum of the weights of the
    /// constraints on it, less those already sure to hold (linear sums, reified sums and
    /// clauses know when they are; the others always count). The weights are learned along the
    /// search, so this order depends on the search's history: such a search runs on one
    /// thread and is not cut into subproblems or resumed from a checkpoint (refused with
    /// [`SearchError::Unsupported`](crate::SearchError::Unsupported)).
    DomWDeg,
}

impl VarOrder {
    /// Whether the order learns from the search (weights): then it follows no fixed tree.
    pub(crate) fn learns(&self) -> bool {
        matches!(self, VarOrder::DomWDeg)
    }

    /// The variables the order names, if it names some.
    pub(crate) fn named(&self) -> &[VarId] {
        match self {
            VarOrder::Given(vars) | VarOrder::FirstFailThen(vars) => vars,
            _ => &[],
        }
    }
}

impl fmt::Debug for VarOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VarOrder::Automatic => f.write_str("Automatic"),
            VarOrder::Input => f.write_str("Input"),
            VarOrder::FirstFail => f.write_str("FirstFail"),
            VarOrder::Given(vars) => f.debug_tuple("Given").field(vars).finish(),
            VarOrder::FirstFailThen(vars) => f.debug_tuple("FirstFailThen").field(vars).finish(),
            VarOrder::AntiFirstFail => f.write_str("AntiFirstFail"),
            VarOrder::Smallest(_) => f.write_str("Smallest(..)"),
            VarOrder::Largest(_) => f.write_str("Largest(..)"),
            VarOrder::Occurrence => f.write_str("Occurrence"),
            VarOrder::MostConstrained => f.write_str("MostConstrained"),
            VarOrder::DomWDeg => f.write_str("DomWDeg"),
        }
    }
}

/// A ranking of values: lower keys are tried first.
pub type ValueKey = Arc<dyn Fn(VarId, u32) -> i64 + Send + Sync>;

/// The integer images of the values of `vars` as a [`ValueKey`] (for
/// [`VarOrder::Smallest`] and [`VarOrder::Largest`]): `(variable, value index)` gives the
/// value; the indices of variables not given are their own keys.
///
/// ```
/// use ambsolve::{Model, Strategy, VarOrder, value_images};
///
/// let mut m = Model::new();
/// let x = m.var(5..9);
/// let y = m.var(3..20);
/// let key = value_images([&x, &y]);
/// assert_eq!((key(x.id(), 0), key(y.id(), 0), key(y.id(), 16)), (5, 3, 19));
/// let smallest_first = Strategy::new().vars(VarOrder::Smallest(key));
/// # let _ = smallest_first;
/// ```
pub fn value_images<'v, T: Integer + 'v>(vars: impl IntoIterator<Item = &'v Var<T>>) -> ValueKey {
    let mut images: Vec<Option<Arc<[i64]>>> = Vec::new();
    for var in vars {
        let index = var.id().index();
        if images.len() <= index {
            images.resize(index + 1, None);
        }
        let list: Arc<[i64]> = var
            .values()
            .iter()
            .enumerate()
            .map(|(i, v)| v.to_i64().unwrap_or(i as i64))
            .collect();
        images[index] = Some(list);
    }
    Arc::new(move |var: VarId, index: u32| {
        images
            .get(var.index())
            .and_then(|list| list.as_ref())
            .and_then(|list| list.get(index as usize).copied())
            .unwrap_or(i64::from(index))
    })
}

/// How the search branches on the variable it picked: on its values in some order
/// (`x = v`, then the next value), or on halves of its domain.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum ValueOrder {
    /// Index order: the order of the value list (`indomain_min` on an ascending list).
    #[default]
    Ascending,
    /// Reverse index order (`indomain_max`).
    Descending,
    /// From the middle of the value list outwards (middle, then its neighbours, lower
    /// first): good for placement puzzles, where central values constrain least.
    MiddleOut,
    /// A shuffle, fixed by the seed: the same seed gives the same order
    /// (`indomain_random`).
    Random(u64),
    /// By a key `(variable, value index) -> i64`, smaller first; ties by index.
    By(ValueKey),
    /// The median of the values left first (the `(k - 1) / 2`-th of `k`, in index
    /// order), then the others in index order (`indomain_median`).
    Median,
    /// Binary branching (`indomain_split`): the lower half of the domain first (indices
    /// up to the middle of the least and greatest left, `x <= mid`), then the upper half
    /// (`x > mid`). A variable may be split again further down. Over an ascending value
    /// list (a range) the halves are those of the values. Trail engine only: the replay
    /// engine branches on values and refuses it, and so does a search with an observer
    /// (its events name a value tried).
    Split,
    /// Binary branching, the upper half first (`indomain_reverse_split`).
    ReverseSplit,
}

impl ValueOrder {
    /// Whether the order splits domains instead of trying values.
    pub(crate) fn splits(&self) -> bool {
        matches!(self, ValueOrder::Split | ValueOrder::ReverseSplit)
    }
}

impl fmt::Debug for ValueOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueOrder::Ascending => f.write_str("Ascending"),
            ValueOrder::Descending => f.write_str("Descending"),
            ValueOrder::MiddleOut => f.write_str("MiddleOut"),
            ValueOrder::Random(seed) => write!(f, "Random({seed})"),
            ValueOrder::By(_) => f.write_str("By(..)"),
            ValueOrder::Median => f.write_str("Median"),
            ValueOrder::Split => f.write_str("Split"),
            ValueOrder::ReverseSplit => f.write_str("ReverseSplit"),
        }
    }
}

/// One phase of a sequential search (FlatZinc's `seq_search`): its variables, the order
/// to pick among them and how to branch on them. The search finishes each phase (all its
/// variables fixed) before it branches on the next one's.
///
/// A variable listed in several phases belongs to the first. A phase of one
/// `FirstFail` over some variables is a first-fail restricted to them, the rest after.
///
/// ```
/// use ambsolve::{Engine, Model, Phase, Strategy, ValueOrder, VarOrder};
///
/// let mut m = Model::new();
/// let a = m.var(0..3);
/// let b = m.var(0..3);
/// let c = m.var(0..3);
/// m.all_different([&a, &b, &c]);
/// // c first (largest value first), then a and b by first-fail, then nothing is left.
/// let strategy = Strategy::new()
///     .phase(Phase::new([c.id()], VarOrder::Input, ValueOrder::Descending))
///     .phase(Phase::new([a.id(), b.id()], VarOrder::FirstFail, ValueOrder::Ascending));
/// let first = m.solve(Engine::Trail).strategy(strategy).first()?.unwrap();
/// assert_eq!((*first.value(&a), *first.value(&b), *first.value(&c)), (0, 1, 2));
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Phase {
    pub(crate) vars: Arc<[VarId]>,
    pub(crate) order: VarOrder,
    pub(crate) values: ValueOrder,
}

impl Phase {
    /// A phase over `vars` (in this order: `Input` follows it and dynamic orders break
    /// ties by it), picking them by `order` and branching on them by `values`. A
    /// [`VarOrder::Given`] or [`VarOrder::FirstFailThen`] ranks the phase's variables by
    /// its list first.
    pub fn new(vars: impl IntoIterator<Item = VarId>, order: VarOrder, values: ValueOrder) -> Self {
        Phase {
            vars: vars.into_iter().collect(),
            order,
            values,
        }
    }
}

/// How a search explores: variable order, value order (or splits), phases, restarts.
///
/// The default ([`Strategy::new`], [`Strategy::default`]) is each engine's own variable
/// order ([`VarOrder::Automatic`]: declaration order on the trail engine,
/// [`Model::replay_order`](crate::Model::replay_order) on the replay engine), ascending
/// values, no phases, no restarts. With a variable order both follow ([`VarOrder::Input`] or
/// [`VarOrder::Given`]) and ascending values, both engines yield the same solutions in the
/// same order.
///
/// With [`phases`](Strategy::phase), the search branches on each phase's variables in
/// turn, then on the variables no phase lists, by the strategy's own orders.
///
/// ```
/// use ambsolve::{Restarts, Strategy, ValueOrder};
///
/// let big_boards = Strategy::first_fail()
///     .values(ValueOrder::MiddleOut)
///     .restarts(Restarts::luby(100));
/// # let _ = big_boards;
/// ```
#[derive(Clone, Debug, Default)]
pub struct Strategy {
    pub(crate) vars: VarOrder,
    pub(crate) values: ValueOrder,
    pub(crate) phases: Vec<Phase>,
    pub(crate) restarts: Option<Restarts>,
    pub(crate) refutations: bool,
    pub(crate) learning: bool,
    pub(crate) alternating: bool,
}

impl Strategy {
    /// The default strategy: each engine's own variable order ([`VarOrder::Automatic`]),
    /// ascending values, no restarts. The trail engine then takes the variables in
    /// declaration order, the replay engine of a model in the order of
    /// [`Model::replay_order`](crate::Model::replay_order) (each constraint checked as early
    /// as it can), so the two may list solutions in different orders;
    /// `Strategy::new().vars(VarOrder::Input)` gives both declaration order, and the same
    /// solutions in the same order.
    ///
    /// ```
    /// use ambsolve::{Engine, Model, Strategy, VarOrder};
    ///
    /// let mut m = Model::new();
    /// let a = m.var(0..2);
    /// let b = m.var(0..2);
    /// m.require(&b, |b| *b < 2); // a condition on b alone: the replay engine chooses b first
    /// let list = |engine, strategy: Strategy| -> Vec<(i32, i32)> {
    ///     let solutions = m.solve(engine).strategy(strategy).solutions();
    ///     solutions.map(|s| (*s.value(&a), *s.value(&b))).collect()
    /// };
    /// assert_eq!(list(Engine::Trail, Strategy::new()), [(0, 0), (0, 1), (1, 0), (1, 1)]);
    /// assert_eq!(list(Engine::Replay, Strategy::new()), [(0, 0), (1, 0), (0, 1), (1, 1)]);
    /// let input = Strategy::new().vars(VarOrder::Input);
    /// assert_eq!(list(Engine::Replay, input.clone()), list(Engine::Trail, input));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// First-fail (fewest values left first), ascending values, no restarts.
    pub fn first_fail() -> Self {
        Strategy::new().vars(VarOrder::FirstFail)
    }

    /// Sets the variable order (of the variables no phase lists).
    pub fn vars(mut self, order: VarOrder) -> Self {
        self.vars = order;
        self
    }

    /// Sets the value order (of the variables no phase lists).
    pub fn values(mut self, order: ValueOrder) -> Self {
        self.values = order;
        self
    }

    /// Adds a phase after those already added: the search fixes the variables of each
    /// phase in turn, then the others by the strategy's own orders. Default: none.
    pub fn phase(mut self, phase: Phase) -> Self {
        self.phases.push(phase);
        self
    }

    /// Restarts (see [`Restarts`] for what they keep). Default: none.
    pub fn restarts(mut self, restarts: Restarts) -> Self {
        self.restarts = Some(restarts);
        self
    }

    /// Whether the trail engine propagates each refuted value before it tries the next
    /// one (binary branching, `x = v` then `x != v`, as Gecode and Chuffed branch). Off
    /// (the default), a choice tries its values one after the other on the domain it had
    /// when it was made: each value is propagated once, cheap when refuting a value
    /// teaches the propagators little (n-queens, sudoku). On, before the next value the
    /// values already tried are removed and the model propagated: values that this rules
    /// out are skipped without a node, and a choice whose remaining values cannot work
    /// is closed at once. That pays where a removal moves bounds that other constraints
    /// build on (schedules and other optimisations over starts and costs).
    ///
    /// The solutions and their order are the same either way; the nodes, the failures
    /// and the paths of subproblems differ (a checkpoint of one is refused by the other).
    /// The replay engine and splitting values ([`ValueOrder::Split`], already binary)
    /// are unaffected.
    ///
    /// ```
    /// use ambsolve::{Engine, Model, Strategy};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(0..10);
    /// let y = m.var(0..10);
    /// m.require((&x, &y), |x, y| x + y == 12);
    /// let count = |strategy: Strategy| m.solve(Engine::Trail).strategy(strategy).count();
    /// let (plain, refuting) = (count(Strategy::new())?, count(Strategy::new().propagate_refutations(true))?);
    /// assert_eq!((plain.solutions, refuting.solutions), (7, 7));
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn propagate_refutations(mut self, on: bool) -> Self {
        self.refutations = on;
        self
    }

    /// Whether the trail engine's search learns from its conflicts (lazy clause
    /// generation): each conflict is analysed to a *nogood*, a conjunction of atomic
    /// predicates over value indices (`x >= i`, `x <= i`, `x == i`, `x != i`) that no
    /// solution satisfies; the search jumps back to where the nogood prunes and keeps it,
    /// so that the same reason never fails twice. It then decides on the variable most
    /// active in recent conflicts (its variable order names the first ones only), with
    /// the value it last had, and restarts on [`Restarts::luby`]`(100)` unless the
    /// strategy names restarts. Off by default.
    ///
    /// It pays on problems whose failures share reasons (schedules, optimisation over
    /// sums, structured puzzles) and costs time per node where they do not (n-queens).
    /// Optima, solutions and counts are the same either way (after a solution, a nogood
    /// of its decisions moves the search exactly past it). A search that learns runs on
    /// one thread, in one piece: threads, subproblems, resumable
    /// counts, symmetry, observers and generate-and-test are refused with
    /// [`SearchError::Unsupported`](crate::SearchError::Unsupported), as is the replay
    /// engine.
    ///
    /// ```
    /// use ambsolve::{Engine, Model, Strategy};
    ///
    /// // Pigeons: 6 into 5 holes, no two in one (a proof by exhaustion).
    /// let mut m = Model::new();
    /// let pigeons: Vec<_> = (0..6).map(|_| m.var(0..5)).collect();
    /// for i in 0..6 {
    ///     for j in i + 1..6 {
    ///         m.require((&pigeons[i], &pigeons[j]), |a, b| a != b);
    ///     }
    /// }
    /// let summary = m.solve(Engine::Trail).strategy(Strategy::new().learning(true)).count()?;
    /// assert_eq!(summary.solutions, 0);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn learning(mut self, on: bool) -> Self {
        self.learning = on;
        self
    }

    /// With [`learning`](Strategy::learning) on, whether the runs between restarts take
    /// turns: a run that follows this strategy (its phases, its variable and value
    /// orders; `x = v` decisions, refuted by what the conflicts teach), then the two
    /// activity searches, and again (Chuffed's free search). Off by default: a search
    /// that learns then follows activity alone, the strategy's variable order ranking
    /// only the variables no conflict has touched yet. Turn it on where the model's own
    /// search finds solutions fast but cannot prove (the runs that follow it find
    /// solutions, the others prove); it changes nothing without learning.
    ///
    /// ```
    /// use ambsolve::{Engine, Model, Phase, Strategy, ValueOrder, VarOrder};
    ///
    /// let mut m = Model::new();
    /// let xs: Vec<_> = (0..4).map(|_| m.var(0..4)).collect();
    /// m.all_different(&xs);
    /// m.minimize([(1, &xs[0]), (1, &xs[1])]);
    /// let ids: Vec<_> = xs.iter().map(|x| x.id()).collect();
    /// let own = Phase::new(ids, VarOrder::Input, ValueOrder::Descending);
    /// let strategy = Strategy::new().phase(own).learning(true).alternating(true);
    /// let best = m.solve(Engine::Trail).strategy(strategy).best()?;
    /// assert_eq!((best.objective, best.proved), (Some(1), true));
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn alternating(mut self, on: bool) -> Self {
        self.alternating = on;
        self
    }

    /// Whether some part of the strategy learns from the search ([`VarOrder::DomWDeg`]).
    pub(crate) fn learns(&self) -> bool {
        self.vars.learns() || self.phases.iter().any(|p| p.order.learns())
    }

    /// Whether some part of the strategy splits domains.
    pub(crate) fn splits(&self) -> bool {
        self.values.splits() || self.phases.iter().any(|p| p.values.splits())
    }

    /// Every variable the strategy names (its orders' lists, its phases' variables).
    pub(crate) fn named_vars(&self) -> impl Iterator<Item = VarId> + '_ {
        self.vars.named().iter().copied().chain(
            self.phases
                .iter()
                .flat_map(|p| p.vars.iter().chain(p.order.named()).copied()),
        )
    }
}

/// The order of all `num_vars` variables a given order implies: the listed ones first
/// (in the given order, each once, ids outside the model ignored), then the others in
/// declaration order.
pub(crate) fn complete_order(given: &[VarId], num_vars: usize) -> Vec<usize> {
    let mut seen = vec![false; num_vars];
    given
        .iter()
        .map(|v| v.index())
        .chain(0..num_vars)
        .filter(|&v| v < num_vars && !std::mem::replace(&mut seen[v], true))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_orders_are_completed_in_declaration_order() {
        let given = [VarId::at(3), VarId::at(1), VarId::at(3), VarId::at(9)];
        assert_eq!(complete_order(&given, 5), [3, 1, 0, 2, 4]);
    }
}
