//! An assignment and its violations, kept up to date in O(1) per constraint of a moved
//! variable.
//!
//! The violation of a constraint is how far it is from holding: for an all-different, the
//! occupants of each key beyond the first; for a linear constraint, the distance from its
//! right-hand side to the sums still reachable (the sum itself once every variable has a
//! value); for a table, a predicate or a custom propagator, 1 if its check fails once all
//! its variables have a value. Their total is what local search brings to zero.
//!
//! While the starting assignment is made, variables `0..assigned` have values and the
//! others do not: keys count only the variables given one, linear sums take the unset
//! terms at their extremes, and other constraints wait for their last variable.

use super::index::Index;
use super::keys::Occupancy;
use crate::domain::Domain;
use crate::model::{Cmp, Constraint, LinearDef, Model};
use crate::strategy::SplitMix;

/// Variables with at most this many values have each one weighed at every step; larger
/// domains are sampled.
const SMALL_DOMAIN: u32 = 64;

/// The candidates drawn for a variable with a large domain, at most.
const TRIES: usize = 48;

/// Turns a listed source of free keys takes in each round of draws.
const LISTED_TURNS: usize = 8;

/// The state of one constraint.
#[derive(Debug)]
enum Tracker {
    AllDifferent(Occupancy),
    /// The least and greatest sums reachable, and the same with no variable set.
    Linear {
        low: i128,
        high: i128,
        start: (i128, i128),
    },
    /// Checked whole: tables, predicates, custom propagators, and any constraint naming a
    /// variable twice. `open`: its variables without a value; `holds`: the last check.
    Whole {
        open: u32,
        vars: u32,
        holds: bool,
    },
}

/// A set of small integers with O(1) insertion, removal and random draws.
#[derive(Debug, Default)]
struct IndexedSet {
    list: Vec<u32>,
    /// Position in `list` of each member, `u32::MAX` for others.
    at: Vec<u32>,
}

impl IndexedSet {
    fn new(size: usize) -> Self {
        IndexedSet {
            list: Vec::new(),
            at: vec![u32::MAX; size],
        }
    }

    fn insert(&mut self, i: u32) {
        if self.at[i as usize] == u32::MAX {
            self.at[i as usize] = self.list.len() as u32;
            self.list.push(i);
        }
    }

    fn remove(&mut self, i: u32) {
        let at = self.at[i as usize];
        if at != u32::MAX {
            let last = self.list.pop().expect("a member is listed");
            if last != i {
                self.list[at as usize] = last;
                self.at[last as usize] = at;
            }
            self.at[i as usize] = u32::MAX;
        }
    }

    fn clear(&mut self) {
        for &i in &self.list {
            self.at[i as usize] = u32::MAX;
        }
        self.list.clear();
    }
}

/// Variables that may be in conflict on an all-different key: every variable that is,
/// and some that no longer are (found out when drawn). One bit per variable says which are
/// listed.
#[derive(Debug, Default)]
struct Suspects {
    list: Vec<u32>,
    listed: Vec<u64>,
}

impl Suspects {
    fn new(num_vars: usize) -> Self {
        Suspects {
            list: Vec::new(),
            listed: vec![0; num_vars.div_ceil(64)],
        }
    }

    #[inline]
    fn push(&mut self, x: u32) {
        let (w, bit) = (x as usize / 64, 1u64 << (x % 64));
        if self.listed[w] & bit == 0 {
            self.listed[w] |= bit;
            self.list.push(x);
        }
    }

    fn remove_at(&mut self, at: usize) {
        let x = self.list.swap_remove(at);
        self.listed[x as usize / 64] &= !(1u64 << (x % 64));
    }

    fn clear(&mut self) {
        for &x in &self.list {
            self.listed[x as usize / 64] &= !(1u64 << (x % 64));
        }
        self.list.clear();
    }
}

/// How far `low..=high` (the sums reachable) is from satisfying `sum cmp rhs`.
/// Term `p` of a linear constraint moving to value index `v`: what it adds now, and the
/// least and most it added before (its value `old` if it had one, else its extremes).
fn term_move(def: &LinearDef, p: usize, v: u32, old: Option<u32>) -> (i128, i128, i128) {
    let (_, coef, images) = &def.terms[p];
    let added = |index: u32| i128::from(*coef) * i128::from(images.get(index as usize));
    let (old_low, old_high) = match old {
        Some(old) => (added(old), added(old)),
        None => def.extreme(p),
    };
    (added(v), old_low, old_high)
}

fn linear_violation(def: &LinearDef, low: i128, high: i128) -> i128 {
    let rhs = i128::from(def.rhs);
    match def.cmp {
        Cmp::Eq if rhs < low => low - rhs,
        Cmp::Eq if rhs > high => rhs - high,
        Cmp::Eq => 0,
        Cmp::Ne => i128::from(low == high && low == rhs),
        Cmp::Le => (low - rhs).max(0),
        Cmp::Lt => (low - rhs + 1).max(0),
        Cmp::Ge => (rhs - high).max(0),
        Cmp::Gt => (rhs - high + 1).max(0),
    }
}

/// The best value found for a variable, and how the total violation would change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Choice {
    pub(super) value: u32,
    pub(super) delta: i128,
}

/// The best of the values weighed so far, ties broken at random (reservoir sampling).
#[derive(Default)]
struct Pick {
    best: Option<Choice>,
    ties: u64,
}

impl Pick {
    fn offer(&mut self, choice: Choice, rng: &mut SplitMix) {
        match self.best {
            Some(b) if choice.delta > b.delta => {}
            Some(b) if choice.delta == b.delta => {
                self.ties += 1;
                if rng.below(self.ties) == 0 {
                    self.best = Some(choice);
                }
            }
            _ => {
                self.best = Some(choice);
                self.ties = 1;
            }
        }
    }
}

/// An assignment, its violations and the variables in conflict.
pub(super) struct State {
    pub(super) values: Vec<u32>,
    /// Variables `0..assigned` have a value.
    pub(super) assigned: usize,
    /// The total violation.
    pub(super) total: i128,
    index: Index,
    trackers: Vec<Tracker>,
    suspects: Suspects,
    /// Constraints other than all-differents that are violated.
    violated: IndexedSet,
    /// The constraints of the variable being weighed, and its position in each.
    entries: Vec<(u32, u32)>,
    /// Whose entries `entries` holds.
    entries_of: usize,
    /// Per entry, the least the constraints from there on can add to a change.
    slack: Vec<i128>,
}

impl State {
    /// The state of `model` with no variable set.
    ///
    /// # Errors
    /// A message if the model is too large to index.
    pub(super) fn new(model: &Model<'_>) -> Result<Self, String> {
        let constraints = model.constraints();
        let universes = model.universes();
        let index = Index::new(model.num_vars(), constraints)?;
        let trackers = constraints
            .iter()
            .enumerate()
            .map(|(c, constraint)| match constraint {
                Constraint::AllDifferent(def) if !index.repeats(c) => {
                    Tracker::AllDifferent(Occupancy::new(def, universes))
                }
                Constraint::Linear(def) if !index.repeats(c) => {
                    let start = def
                        .extremes()
                        .fold((0, 0), |(lo, hi), (a, b)| (lo + a, hi + b));
                    Tracker::Linear {
                        low: start.0,
                        high: start.1,
                        start,
                    }
                }
                _ => {
                    let mut vars: Vec<usize> = (0..constraint.arity())
                        .map(|p| constraint.var_at(p).index())
                        .collect();
                    vars.sort_unstable();
                    vars.dedup();
                    Tracker::Whole {
                        open: vars.len() as u32,
                        vars: vars.len() as u32,
                        holds: true,
                    }
                }
            })
            .collect();
        let mut state = State {
            values: vec![0; model.num_vars()],
            assigned: 0,
            total: 0,
            index,
            trackers,
            suspects: Suspects::new(model.num_vars()),
            violated: IndexedSet::new(constraints.len()),
            entries: Vec::new(),
            entries_of: usize::MAX,
            slack: Vec::new(),
        };
        state.total = state.initial_total(model);
        Ok(state)
    }

    /// The violation with no variable set: linear constraints that no assignment meets.
    fn initial_total(&mut self, model: &Model<'_>) -> i128 {
        let mut total = 0;
        for (c, (tracker, constraint)) in self.trackers.iter().zip(model.constraints()).enumerate()
        {
            if let (Tracker::Linear { low, high, .. }, Constraint::Linear(def)) =
                (tracker, constraint)
            {
                let violation = linear_violation(def, *low, *high);
                if violation > 0 {
                    self.violated.insert(c as u32);
                }
                total += violation;
            }
        }
        total
    }

    /// Forgets every value: the state of a fresh start.
    pub(super) fn reset(&mut self, model: &Model<'_>) {
        for tracker in &mut self.trackers {
            match tracker {
                Tracker::AllDifferent(occupancy) => occupancy.clear(),
                Tracker::Linear { low, high, start } => (*low, *high) = *start,
                Tracker::Whole { open, vars, holds } => {
                    *open = *vars;
                    *holds = true;
                }
            }
        }
        self.suspects.clear();
        self.violated.clear();
        self.assigned = 0;
        self.entries_of = usize::MAX;
        self.total = self.initial_total(model);
    }

    /// Loads the constraints of `x` into `entries`.
    #[inline]
    fn load(&mut self, x: usize) {
        if self.entries_of != x {
            self.index.gather(x, &mut self.entries);
            self.entries_of = x;
        }
    }

    fn is_set(&self, x: usize) -> bool {
        x < self.assigned
    }

    /// Whether `x` shares a key of an all-different with another variable.
    fn clashes(&mut self, model: &Model<'_>, x: usize) -> bool {
        self.load(x);
        let value = self.values[x];
        self.entries.iter().any(|&(c, p)| {
            match (&self.trackers[c as usize], &model.constraints()[c as usize]) {
                (Tracker::AllDifferent(occupancy), Constraint::AllDifferent(def)) => {
                    occupancy.count(def.key(p as usize, value)) >= 2
                }
                _ => false,
            }
        })
    }

    /// The least change of the total violation a move of `x` can make: minus the
    /// violations it is part of. Also fills `slack`: the least the constraints from each
    /// entry on can add.
    fn floor(&mut self, model: &Model<'_>, x: usize) -> i128 {
        self.load(x);
        self.slack.clear();
        self.slack.resize(self.entries.len() + 1, 0);
        if !self.is_set(x) {
            return 0;
        }
        let value = self.values[x];
        for e in (0..self.entries.len()).rev() {
            let (c, p) = self.entries[e];
            let share = match (&self.trackers[c as usize], &model.constraints()[c as usize]) {
                (Tracker::AllDifferent(occupancy), Constraint::AllDifferent(def)) => {
                    i128::from(occupancy.count(def.key(p as usize, value)) >= 2)
                }
                (Tracker::Linear { low, high, .. }, Constraint::Linear(def)) => {
                    linear_violation(def, *low, *high)
                }
                (Tracker::Whole { holds, .. }, _) => i128::from(!holds),
                _ => 0,
            };
            self.slack[e] = self.slack[e + 1] - share;
        }
        self.slack[0]
    }

    /// How the total violation changes if `x` takes value index `v` (`x` must be loaded,
    /// and weighed by `floor`). Past `bound`, it stops early with a number above it.
    /// `free`: an entry, an all-different where `v`'s key is known to be free.
    fn delta(
        &mut self,
        model: &Model<'_>,
        x: usize,
        v: u32,
        bound: Option<i128>,
        free: Option<usize>,
    ) -> i128 {
        let set = self.is_set(x);
        let current = self.values[x];
        let constraints = model.constraints();
        let mut delta = 0i128;
        for at in 0..self.entries.len() {
            let (c, p) = self.entries[at];
            let (c, p) = (c as usize, p as usize);
            match (&self.trackers[c], &constraints[c]) {
                (Tracker::AllDifferent(occupancy), Constraint::AllDifferent(def)) => {
                    // A key known to be free costs no look-up.
                    let taken = |key| free != Some(at) && occupancy.count(key) >= 1;
                    let to = def.key(p, v);
                    if set {
                        let from = def.key(p, current);
                        if from != to {
                            delta += i128::from(taken(to)) - i128::from(occupancy.count(from) >= 2);
                        }
                    } else {
                        delta += i128::from(taken(to));
                    }
                }
                (Tracker::Linear { low, high, .. }, Constraint::Linear(def)) => {
                    let (new, old_low, old_high) = term_move(def, p, v, set.then_some(current));
                    delta += linear_violation(def, low - old_low + new, high - old_high + new)
                        - linear_violation(def, *low, *high);
                }
                (Tracker::Whole { open, holds, .. }, constraint) => {
                    if set || *open == 1 {
                        self.values[x] = v;
                        let ok = constraint.check(&self.values);
                        self.values[x] = current;
                        delta += i128::from(!ok) - i128::from(set && !holds);
                    }
                }
                _ => unreachable!("a tracker of another kind than its constraint"),
            }
            if bound.is_some_and(|b| delta + self.slack[at + 1] > b) {
                return delta + self.slack[at + 1];
            }
        }
        delta
    }

    /// Gives `x` value index `v` (`x` is the next variable to set, or has a value) and
    /// updates every violation.
    pub(super) fn assign(&mut self, model: &Model<'_>, x: usize, v: u32) {
        self.load(x);
        let set = self.is_set(x);
        debug_assert!(set || x == self.assigned, "variables are set in order");
        let previous = self.values[x];
        self.values[x] = v;
        let constraints = model.constraints();
        for at in 0..self.entries.len() {
            let (c, p) = self.entries[at];
            let (c, p) = (c as usize, p as usize);
            match (&mut self.trackers[c], &constraints[c]) {
                (Tracker::AllDifferent(occupancy), Constraint::AllDifferent(def)) => {
                    let to = def.key(p, v);
                    if set {
                        let from = def.key(p, previous);
                        if from == to {
                            continue;
                        }
                        if occupancy.remove(from, x as u32) >= 2 {
                            self.total -= 1;
                        }
                    }
                    let added = occupancy.add(to, x as u32);
                    if added.before >= 1 {
                        self.total += 1;
                    }
                    if let Some(other) = added.other {
                        self.suspects.push(other);
                    }
                }
                (Tracker::Linear { low, high, .. }, Constraint::Linear(def)) => {
                    let (new, old_low, old_high) = term_move(def, p, v, set.then_some(previous));
                    let before = linear_violation(def, *low, *high);
                    *low += new - old_low;
                    *high += new - old_high;
                    let after = linear_violation(def, *low, *high);
                    self.total += after - before;
                    if after > 0 {
                        self.violated.insert(c as u32);
                    } else {
                        self.violated.remove(c as u32);
                    }
                }
                (Tracker::Whole { open, holds, .. }, constraint) => {
                    if !set {
                        *open -= 1;
                    }
                    if set || *open == 0 {
                        let before = i128::from(set && !*holds);
                        *holds = constraint.check(&self.values);
                        self.total += i128::from(!*holds) - before;
                        if *holds {
                            self.violated.remove(c as u32);
                        } else {
                            self.violated.insert(c as u32);
                        }
                    }
                }
                _ => unreachable!("a tracker of another kind than its constraint"),
            }
        }
        if !set {
            self.assigned += 1;
        }
        if self.clashes(model, x) {
            self.suspects.push(x as u32);
        }
    }

    /// The best value for `x` among its candidates (all its values when it has few, else
    /// values drawn at random and values that free keys of its all-differents give),
    /// ties broken at random, stopping early at a value that removes every violation `x`
    /// is part of. Its current value is not a candidate. `None` if there is no other
    /// value.
    pub(super) fn best(
        &mut self,
        model: &Model<'_>,
        x: usize,
        rng: &mut SplitMix,
    ) -> Option<Choice> {
        let floor = self.floor(model, x);
        let universe = model.universes()[x];
        let domain = model.initial_domain(x);
        let current = self.is_set(x).then_some(self.values[x]);
        let mut pick = Pick::default();
        // Weighs `v`; true once a value reaches the floor.
        let weigh =
            |state: &mut Self, pick: &mut Pick, v: u32, free: Option<usize>, rng: &mut SplitMix| {
                if Some(v) == current || domain.is_some_and(|d| !d.contains(v)) {
                    return false;
                }
                let bound = pick.best.map(|b| b.delta);
                let delta = state.delta(model, x, v, bound, free);
                pick.offer(Choice { value: v, delta }, rng);
                delta <= floor
            };
        self.load(x);
        if universe <= SMALL_DOMAIN {
            let start = rng.below(u64::from(universe.max(1))) as u32;
            for i in 0..universe {
                if weigh(self, &mut pick, (start + i) % universe, None, rng) {
                    break;
                }
            }
            return pick.best;
        }
        // Sources, in turn: the free keys of each all-different of `x` (by entry), then
        // any value. Listed free keys (scarce keys, where a value drawn at random would
        // clash) take `LISTED_TURNS` turns each; their draws walk the list from a random
        // position.
        let mut sources: smallvec::SmallVec<[usize; 8]> = smallvec::SmallVec::new();
        let mut cursors: smallvec::SmallVec<[Option<usize>; 4]> = smallvec::SmallVec::new();
        for (e, &(c, _)) in self.entries.iter().enumerate() {
            if let Tracker::AllDifferent(occupancy) = &self.trackers[c as usize] {
                let turns = if occupancy.lists_free() {
                    LISTED_TURNS
                } else {
                    1
                };
                sources.extend(std::iter::repeat_n(e, turns));
            }
            cursors.push(None);
        }
        for t in 0..TRIES {
            let drawn = match sources.get(t % (sources.len() + 1)) {
                Some(&e) => self
                    .free_value(model, e, &mut cursors[e], universe, domain, rng)
                    .map(|v| (v, Some(e))),
                None => random_value(universe, domain, rng).map(|v| (v, None)),
            };
            if drawn.is_some_and(|(v, free)| weigh(self, &mut pick, v, free, rng)) {
                break;
            }
        }
        if pick.best.is_none() {
            // Every draw was the current value: take the next value that is not.
            let start = rng.below(u64::from(universe)) as u32;
            for i in 0..universe {
                let v = (start + i) % universe;
                if Some(v) != current && domain.is_none_or(|d| d.contains(v)) {
                    weigh(self, &mut pick, v, None, rng);
                    break;
                }
            }
        }
        pick.best
    }

    /// A value of the variable being weighed whose key is free in the all-different of
    /// its entry `e`: from the list of free keys when there is one (walked from a random
    /// position, `cursor` remembering where), else a value drawn at random if its key is
    /// free.
    fn free_value(
        &self,
        model: &Model<'_>,
        e: usize,
        cursor: &mut Option<usize>,
        universe: u32,
        domain: Option<&Domain>,
        rng: &mut SplitMix,
    ) -> Option<u32> {
        let (c, p) = self.entries[e];
        let (c, p) = (c as usize, p as usize);
        let (Tracker::AllDifferent(occupancy), Constraint::AllDifferent(def)) =
            (&self.trackers[c], &model.constraints()[c])
        else {
            return None;
        };
        if occupancy.lists_free() {
            let free = occupancy.free_count();
            if free == 0 {
                return None;
            }
            let at = match cursor {
                Some(at) => (*at + 1) % free,
                None => rng.below(free as u64) as usize,
            };
            *cursor = Some(at);
            let (keys, extra) = def.term(p);
            occupancy.value_of(keys, extra, occupancy.free_key(at), universe)
        } else {
            let v = random_value(universe, domain, rng)?;
            (occupancy.count(def.key(p, v)) == 0).then_some(v)
        }
    }

    /// A value of `x` other than its current one, at random, and its change of violation.
    pub(super) fn random_move(
        &mut self,
        model: &Model<'_>,
        x: usize,
        rng: &mut SplitMix,
    ) -> Option<Choice> {
        let universe = model.universes()[x];
        let domain = model.initial_domain(x);
        let current = self.values[x];
        for _ in 0..8 {
            let v = random_value(universe, domain, rng)?;
            if v != current {
                self.floor(model, x);
                let delta = self.delta(model, x, v, None, None);
                return Some(Choice { value: v, delta });
            }
        }
        None
    }

    /// A variable in conflict, drawn at random: from those sharing an all-different key,
    /// or from a violated constraint. `None` if no variable is in conflict.
    pub(super) fn conflicted(&mut self, model: &Model<'_>, rng: &mut SplitMix) -> Option<usize> {
        loop {
            let (a, b) = (self.suspects.list.len(), self.violated.list.len());
            if a + b == 0 {
                return None;
            }
            let r = rng.below((a + b) as u64) as usize;
            if r < a {
                let x = self.suspects.list[r] as usize;
                if self.clashes(model, x) {
                    return Some(x);
                }
                self.suspects.remove_at(r);
            } else {
                let c = &model.constraints()[self.violated.list[r - a] as usize];
                let p = rng.below(c.arity() as u64) as usize;
                return Some(c.var_at(p).index());
            }
        }
    }
}

/// A value index of a variable with `universe` values drawn at random among those
/// `domain` keeps (all if `None`); `None` if there is none.
fn random_value(universe: u32, domain: Option<&Domain>, rng: &mut SplitMix) -> Option<u32> {
    if universe == 0 {
        return None;
    }
    let Some(domain) = domain else {
        return Some(rng.below(u64::from(universe)) as u32);
    };
    for _ in 0..8 {
        let v = rng.below(u64::from(universe)) as u32;
        if domain.contains(v) {
            return Some(v);
        }
    }
    let left = domain.len() as u64;
    (left > 0).then(|| domain.iter().nth(rng.below(left) as usize))?
}
