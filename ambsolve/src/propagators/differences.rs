//! All-different differences: an all-different whose members include every difference
//! `x_b - x_a` (`a < b`) of a chain of ordered variables `x_0 < x_1 < .. < x_{p-1}`: the
//! marks of a Golomb ruler, a difference set, a graceful labelling. The model states it
//! plainly (each difference an auxiliary variable tied by `d = x_b - x_a`, the chain by
//! `x_a < x_b`, as `constraints!` writes `all_different(m[j] - m[i] for i in 0..n for j
//! in i + 1..n)`); [`detect`] finds it, and this propagator adds the reasoning that the
//! parts cannot see on their own.
//!
//! The distance `x_b - x_a` is the sum of the gaps `x_{t+1} - x_t` between them. The gaps
//! are members, so they are distinct from each other and from every member already fixed,
//! and they are positive (the chain is ordered). A fixed gap counts its value; `r` open
//! gaps add up to at least the `r` smallest positive integers no fixed member takes. That
//! lower bound on every distance (the bound a partial ruler implies on the rest of it)
//! raises the distance's difference variable and pushes the chain's bounds apart.

use hashbrown::{HashMap, HashSet};

use crate::choice::Fail;
use crate::model::{AllDifferentDef, Cmp, Constraint, LinearDef, Model};
use crate::propagator::BuiltinPropagator;
use crate::store::FIXED;
use crate::store::Store;
use crate::var::VarId;

/// A variable whose value is `base + index`.
#[derive(Clone, Copy, Debug)]
struct Ranged {
    var: usize,
    base: i64,
}

impl Ranged {
    fn min(self, store: &Store) -> Result<i128, Fail> {
        Ok(i128::from(self.base) + i128::from(store.min(self.var).ok_or(Fail)?))
    }

    fn max(self, store: &Store) -> Result<i128, Fail> {
        Ok(i128::from(self.base) + i128::from(store.max(self.var).ok_or(Fail)?))
    }

    /// The value of a fixed variable.
    fn fixed(self, store: &Store) -> Option<i128> {
        if store.is_fixed(self.var) {
            store
                .min(self.var)
                .map(|i| i128::from(self.base) + i128::from(i))
        } else {
            None
        }
    }

    /// Removes the values below `least`.
    fn at_least(self, store: &mut Store, least: i128) -> Result<(), Fail> {
        let Some(max) = store.max(self.var) else {
            return Err(Fail);
        };
        let first = least - i128::from(self.base);
        if first <= 0 {
            return Ok(());
        }
        if first > i128::from(max) {
            return Err(Fail);
        }
        store.remove_range(self.var, 0, first as u32 - 1)
    }

    /// Removes the values above `most`.
    fn at_most(self, store: &mut Store, most: i128) -> Result<(), Fail> {
        let universe = store.universe(self.var);
        let last = most - i128::from(self.base);
        if last < 0 {
            return Err(Fail);
        }
        if last + 1 >= i128::from(universe) {
            return Ok(());
        }
        store.remove_range(self.var, last as u32 + 1, universe - 1)
    }
}

/// The propagators of the all-different-differences structures of `model`.
pub(super) fn detect(model: &Model<'_>) -> Vec<Differences> {
    // Most models have no such structure: find out before allocating.
    let constraints = model.constraints();
    if !constraints
        .iter()
        .any(|c| matches!(c, Constraint::AllDifferent(_)))
    {
        return Vec::new();
    }
    let linear = || {
        constraints.iter().filter_map(|c| match c {
            Constraint::Linear(def) => Some(def),
            _ => None,
        })
    };
    let mut defined: HashMap<VarId, (VarId, VarId)> = HashMap::new();
    for def in linear() {
        for (d, x, y) in difference(def).into_iter().flatten() {
            defined.entry(d).or_insert((x, y));
        }
    }
    if defined.is_empty() {
        return Vec::new();
    }
    let mut base: HashMap<VarId, i64> = HashMap::new();
    let mut before: HashSet<(VarId, VarId)> = HashSet::new();
    for def in linear() {
        for (v, _, images) in &def.terms {
            if let Some(first) = images.consecutive_start() {
                base.insert(*v, first);
            }
        }
        if let Some((a, b)) = ordered(def) {
            before.insert((a, b));
        }
    }
    let mut found = Vec::new();
    for constraint in model.constraints() {
        let Constraint::AllDifferent(def) = constraint else {
            continue;
        };
        if let Some(one) = chain_of(def, &defined, &before, &base) {
            found.push(one);
        }
    }
    found
}

/// `l == a + b` stated as a three-term linear equality with unit coefficients: both
/// readings as a difference, `(a, l, b)` (`a == l - b`) and `(b, l, a)`.
fn difference(def: &LinearDef) -> Option<[(VarId, VarId, VarId); 2]> {
    if def.cmp != Cmp::Eq || def.rhs != 0 || def.terms.len() != 3 {
        return None;
    }
    if def.terms.iter().any(|t| t.1.abs() != 1) {
        return None;
    }
    let lone = (0..3).find(|&i| def.terms.iter().filter(|t| t.1 == def.terms[i].1).count() == 1)?;
    let others: Vec<VarId> = (0..3)
        .filter(|&i| i != lone)
        .map(|i| def.terms[i].0)
        .collect();
    let (l, a, b) = (def.terms[lone].0, others[0], others[1]);
    (l != a && l != b && a != b).then_some([(a, l, b), (b, l, a)])
}

/// `a < b` stated as a two-term linear constraint: `(a, b)`.
fn ordered(def: &LinearDef) -> Option<(VarId, VarId)> {
    let [(u, cu, _), (v, cv, _)] = def.terms.as_slice() else {
        return None;
    };
    if u == v || *cu != -*cv || cu.abs() != 1 {
        return None;
    }
    // The sum is `plus - minus`.
    let (plus, minus) = if *cu == 1 { (*u, *v) } else { (*v, *u) };
    let rhs = i128::from(def.rhs);
    match def.cmp {
        // plus - minus >= 1: minus comes first.
        Cmp::Gt if rhs >= 0 => Some((minus, plus)),
        Cmp::Ge if rhs >= 1 => Some((minus, plus)),
        // plus - minus <= -1: plus comes first.
        Cmp::Lt if rhs <= 0 => Some((plus, minus)),
        Cmp::Le if rhs <= -1 => Some((plus, minus)),
        _ => None,
    }
}

/// The propagator of the chain whose every difference is a member of `def`, if there is
/// one (and every variable involved ranges over consecutive integers).
fn chain_of(
    def: &AllDifferentDef,
    defined: &HashMap<VarId, (VarId, VarId)>,
    before: &HashSet<(VarId, VarId)>,
    base: &HashMap<VarId, i64>,
) -> Option<Differences> {
    let mut of_pair: HashMap<(VarId, VarId), VarId> = HashMap::new();
    let mut points: HashSet<VarId> = HashSet::new();
    for &d in &def.vars {
        if let Some(&(x, y)) = defined.get(&d) {
            of_pair.insert((y, x), d);
            points.insert(x);
            points.insert(y);
        }
    }
    if points.len() < 3 {
        return None;
    }
    // Each point's successor: the one point it is stated to come before, directly.
    let mut next: HashMap<VarId, VarId> = HashMap::new();
    let mut has_previous: HashSet<VarId> = HashSet::new();
    for &(a, b) in before {
        if points.contains(&a) && points.contains(&b) {
            if next.insert(a, b).is_some() {
                return None;
            }
            has_previous.insert(b);
        }
    }
    let mut starts = points.iter().filter(|p| !has_previous.contains(*p));
    let (Some(&start), None) = (starts.next(), starts.next()) else {
        return None;
    };
    let mut chain = vec![start];
    while let Some(&after) = next.get(chain.last()?) {
        if chain.len() > points.len() {
            return None;
        }
        chain.push(after);
    }
    if chain.len() != points.len() {
        return None;
    }
    let ranged = |v: &VarId| {
        base.get(v).map(|&first| Ranged {
            var: v.index(),
            base: first,
        })
    };
    let p = chain.len();
    // Only the pairs a < b are read; the others keep a placeholder.
    let mut pairs = vec![Ranged { var: 0, base: 0 }; p * p];
    for a in 0..p {
        for b in a + 1..p {
            pairs[a * p + b] = ranged(of_pair.get(&(chain[a], chain[b]))?)?;
        }
    }
    let mut scope: Vec<VarId> = chain.iter().chain(&def.vars).copied().collect();
    scope.sort_unstable();
    scope.dedup();
    Some(Differences {
        scope,
        chain: chain.iter().map(ranged).collect::<Option<_>>()?,
        pairs,
        members: def.vars.iter().map(ranged).collect::<Option<_>>()?,
        used: Vec::new(),
        least: Vec::new(),
    })
}

/// The propagator of one all-different-differences structure.
pub(super) struct Differences {
    scope: Vec<VarId>,
    chain: Vec<Ranged>,
    pairs: Vec<Ranged>,
    members: Vec<Ranged>,
    /// Scratch: the positive values fixed members take, and the least sums of `r`
    /// distinct positive values none of them takes.
    used: Vec<i128>,
    least: Vec<i128>,
}

impl Differences {}

/// Woken when a variable is fixed.
impl BuiltinPropagator for Differences {
    fn wakes(&self, _local: usize) -> u8 {
        FIXED
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let p = self.chain.len();
        self.used.clear();
        for member in &self.members {
            if let Some(value) = member.fixed(store) {
                if value >= 1 {
                    self.used.push(value);
                }
            }
        }
        self.used.sort_unstable();
        self.used.dedup();
        // least[r]: the sum of the r smallest positive integers not used.
        self.least.clear();
        self.least.push(0);
        let (mut value, mut sum, mut u) = (0i128, 0i128, 0usize);
        while self.least.len() < p {
            value += 1;
            while u < self.used.len() && self.used[u] < value {
                u += 1;
            }
            if u < self.used.len() && self.used[u] == value {
                continue;
            }
            sum += value;
            self.least.push(sum);
        }
        // The whole chain: its fixed gaps' sum and open gaps' number, and its longest span.
        let (mut fixed_total, mut open_total) = (0i128, 0usize);
        for t in 1..p {
            match self.pairs[(t - 1) * p + t].fixed(store) {
                Some(value) => fixed_total += value,
                None => open_total += 1,
            }
        }
        let span = self.chain[p - 1].max(store)? - self.chain[0].min(store)?;
        for a in 0..p - 1 {
            let (mut fixed, mut open) = (0i128, 0usize);
            for b in a + 1..p {
                let gap = self.pairs[(b - 1) * p + b];
                match gap.fixed(store) {
                    Some(value) => fixed += value,
                    None => open += 1,
                }
                let distance = fixed + self.least[open];
                let member = self.pairs[a * p + b];
                if member.min(store)? < distance {
                    member.at_least(store, distance)?;
                }
                // The gaps outside a..b take at least their share of the longest span.
                let outside = (fixed_total - fixed) + self.least[open_total - open];
                if member.max(store)? > span - outside {
                    member.at_most(store, span - outside)?;
                }
                // x_b >= x_a + distance, x_a <= x_b - distance.
                let (first, last) = (self.chain[a], self.chain[b]);
                let low = first.min(store)? + distance;
                if last.min(store)? < low {
                    last.at_least(store, low)?;
                }
                let high = last.max(store)? - distance;
                if first.max(store)? > high {
                    first.at_most(store, high)?;
                }
            }
        }
        Ok(())
    }
}
