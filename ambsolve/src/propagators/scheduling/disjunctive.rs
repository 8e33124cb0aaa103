//! `disjunctive` and `disjunctive_strict` by bounds: the unary rules (overload checking and
//! edge finding, detectable precedences, not-first/not-last, each both ways) on the tasks
//! of a positive least duration, and pair by pair reasoning where a duration may be 0 or is
//! not fixed.
//!
//! A task of duration `d >= p` starting at `s` covers at least `s..s + p`, so tasks with
//! their least durations must not overlap either: the rules run on that relaxation, with
//! windows `s_min..s_max + p`, and tighten the starts only. The pairs tighten durations as
//! well: for tasks `i`, `j`, each of `d[i] = 0` (not strict), `d[j] = 0` (not strict),
//! `s[i] + d[i] <= s[j]` and `s[j] + d[j] <= s[i]` is possible or not by the bounds; none
//! fails, one alone is enforced (by bounds).

use crate::choice::Fail;
use crate::model::Disjunctive;
use crate::model::Int;
use crate::model::Kind;
use crate::propagator::BuiltinPropagator;
use crate::propagators::scheduling::Window;
use crate::propagators::scheduling::explain::{TimeTable, explainable};
use crate::propagators::scheduling::unary::Unary;
use crate::propagators::scheduling::unary_explain::UnaryWitness;
use crate::propagators::to_fixpoint;
use crate::propagators::view::IntView;
use crate::store::{Atoms, BOUNDS, Pred, Store};
use crate::var::VarId;

/// A task's bounds: its start's and its duration's least and largest values.
#[derive(Clone, Copy, Debug, Default)]
struct Bounds {
    s_min: i128,
    s_max: i128,
    d_min: i128,
    d_max: i128,
}

pub(crate) struct DisjunctiveProp {
    starts: Vec<IntView>,
    durations: Vec<IntView>,
    strict: bool,
    /// The pairs of tasks reasoned on one by one: those not both of a fixed positive
    /// duration (the unary rules cover these) and that can ever conflict.
    pairs: Vec<(u32, u32)>,
    scope: Vec<VarId>,
    bounds: Vec<Bounds>,
    /// The tasks of a positive least duration, and their windows.
    positive: Vec<usize>,
    windows: Vec<Window>,
    mirrored: Vec<Window>,
    tightened: Vec<i64>,
    unary: Unary,
    /// A demand of 1 per task and a capacity of 1: the resource as a time table reads
    /// it, for explanations.
    ones: Vec<IntView>,
    one: IntView,
    /// Whether it explains what the time table justifies (every view read by its
    /// bounds, no variable twice).
    explains: bool,
}

/// How a rule tightens the windows it is given.
#[derive(Clone, Copy)]
enum Rule {
    EdgeFinding,
    Precedences,
    NotLast,
}

impl DisjunctiveProp {
    pub(crate) fn new(def: &Disjunctive) -> Self {
        let n = def.starts.len();
        let constant = |k: usize| match def.durations[k] {
            Int::Const(c) => Some(c),
            Int::Var { .. } => None,
        };
        let mut pairs = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (constant(i), constant(j));
                let both_positive = a.is_some_and(|a| a > 0) && b.is_some_and(|b| b > 0);
                // A task of a constant duration of 0 (or less: then nothing holds, which
                // the durations' own bound finds) never conflicts in the plain reading;
                // two of them never do in the strict one.
                let free = if def.strict {
                    a.is_some_and(|a| a <= 0) && b.is_some_and(|b| b <= 0)
                } else {
                    a.is_some_and(|a| a <= 0) || b.is_some_and(|b| b <= 0)
                };
                if !both_positive && !free {
                    pairs.push((i as u32, j as u32));
                }
            }
        }
        let starts: Vec<IntView> = def.starts.iter().map(IntView::new).collect();
        let durations: Vec<IntView> = def.durations.iter().map(IntView::new).collect();
        let explains = explainable(starts.iter().chain(&durations));
        DisjunctiveProp {
            ones: vec![IntView::Const(1); n],
            one: IntView::Const(1),
            explains,
            starts,
            durations,
            strict: def.strict,
            pairs,
            scope: def.vars.clone(),
            bounds: Vec::with_capacity(n),
            positive: Vec::with_capacity(n),
            windows: Vec::with_capacity(n),
            mirrored: Vec::with_capacity(n),
            tightened: Vec::with_capacity(n),
            unary: Unary::default(),
        }
    }

    fn read(&self, store: &Store, k: usize) -> Result<Bounds, Fail> {
        Ok(Bounds {
            s_min: i128::from(self.starts[k].min(store)?),
            s_max: i128::from(self.starts[k].max(store)?),
            d_min: i128::from(self.durations[k].min(store)?),
            d_max: i128::from(self.durations[k].max(store)?),
        })
    }

    /// `i` before `j` (`s[i] + d[i] <= s[j]`), by bounds.
    fn before(&mut self, store: &mut Store, i: usize, j: usize) -> Result<(), Fail> {
        let (a, b) = (self.bounds[i], self.bounds[j]);
        self.starts[j].set_min(store, a.s_min + a.d_min)?;
        self.starts[i].set_max(store, b.s_max - a.d_min)?;
        self.durations[i].set_max(store, b.s_max - a.s_min)?;
        self.bounds[i] = self.read(store, i)?;
        self.bounds[j] = self.read(store, j)?;
        Ok(())
    }

    /// The pairs, one by one.
    fn pairs(&mut self, store: &mut Store) -> Result<(), Fail> {
        for p in 0..self.pairs.len() {
            let (i, j) = (self.pairs[p].0 as usize, self.pairs[p].1 as usize);
            self.pair(store, i, j)?;
        }
        Ok(())
    }

    /// Every two tasks of a positive least duration, by their bounds (where the times
    /// are too large for the unary rules).
    fn all_pairs(&mut self, store: &mut Store) -> Result<(), Fail> {
        for a in 0..self.positive.len() {
            for b in a + 1..self.positive.len() {
                self.pair(store, self.positive[a], self.positive[b])?;
            }
        }
        Ok(())
    }

    /// Tasks `i` and `j`, by their bounds.
    fn pair(&mut self, store: &mut Store, i: usize, j: usize) -> Result<(), Fail> {
        let (a, b) = (self.bounds[i], self.bounds[j]);
        let i_free = !self.strict && a.d_min <= 0;
        let j_free = !self.strict && b.d_min <= 0;
        if (!self.strict && (a.d_max <= 0 || b.d_max <= 0))
            || (self.strict && a.d_max <= 0 && b.d_max <= 0)
        {
            return Ok(()); // holds whatever the starts
        }
        let i_first = a.s_min + a.d_min <= b.s_max;
        let j_first = b.s_min + b.d_min <= a.s_max;
        match (i_free, j_free, i_first, j_first) {
            (false, false, false, false) => return Err(Fail),
            (true, false, false, false) => {
                self.durations[i].set_max(store, 0)?;
                self.bounds[i] = self.read(store, i)?;
            }
            (false, true, false, false) => {
                self.durations[j].set_max(store, 0)?;
                self.bounds[j] = self.read(store, j)?;
            }
            (false, false, true, false) => self.before(store, i, j)?,
            (false, false, false, true) => self.before(store, j, i)?,
            _ => {}
        }
        Ok(())
    }

    /// Runs `rule` on the windows, or on the mirrored ones, and tightens the windows.
    fn run(&mut self, rule: Rule, mirrored: bool) -> Result<(), Fail> {
        let given: &[Window] = if mirrored {
            self.mirrored.clear();
            self.mirrored
                .extend(self.windows.iter().map(Window::mirror));
            &self.mirrored
        } else {
            &self.windows
        };
        self.tightened.clear();
        let raises_est = !matches!(rule, Rule::NotLast);
        self.tightened
            .extend(given.iter().map(|w| if raises_est { w.est } else { w.lct }));
        match rule {
            Rule::EdgeFinding => self.unary.edge_finding(given, &mut self.tightened)?,
            Rule::Precedences => self
                .unary
                .detectable_precedences(given, &mut self.tightened),
            Rule::NotLast => self.unary.not_last(given, &mut self.tightened),
        }
        for (w, &t) in self.windows.iter_mut().zip(&self.tightened) {
            // A raised start of the mirror is a lowered completion, and the other way.
            match (raises_est, mirrored) {
                (true, false) => w.est = w.est.max(t),
                (true, true) => w.lct = w.lct.min(-t),
                (false, false) => w.lct = w.lct.min(t),
                (false, true) => w.est = w.est.max(-t),
            }
            if w.est + w.p > w.lct {
                return Err(Fail);
            }
        }
        Ok(())
    }

    /// The unary rules on the tasks of a positive least duration; where their times do
    /// not fit the rules' `i64` arithmetic (beyond ±2⁵⁹), pair by pair reasoning on all of
    /// them instead, exact in `i128`.
    fn rules(&mut self, store: &mut Store) -> Result<(), Fail> {
        const SAFE: i128 = 1 << 59;
        self.positive.clear();
        self.windows.clear();
        let (mut length, mut fits) = (0, true);
        for (k, b) in self.bounds.iter().enumerate() {
            if b.d_min > 0 {
                self.positive.push(k);
                length += b.d_min;
                let (est, lct) = (b.s_min, b.s_max + b.d_min);
                fits &= est.abs() <= SAFE && lct.abs() <= SAFE && length <= SAFE;
                if fits {
                    self.windows.push(Window {
                        est: est as i64,
                        lct: lct as i64,
                        p: b.d_min as i64,
                    });
                }
            }
        }
        if !fits {
            return self.all_pairs(store);
        }
        if self.positive.len() < 2 {
            return Ok(());
        }
        for rule in [Rule::EdgeFinding, Rule::Precedences, Rule::NotLast] {
            self.run(rule, false)?;
            self.run(rule, true)?;
        }
        for (w, &k) in self.windows.iter().zip(&self.positive) {
            let b = self.bounds[k];
            if i128::from(w.est) > b.s_min {
                self.starts[k].set_min(store, w.est.into())?;
            }
            if i128::from(w.lst()) < b.s_max {
                self.starts[k].set_max(store, w.lst().into())?;
            }
        }
        Ok(())
    }
}

impl<'a> Kind<'a> for Disjunctive {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        Box::new(DisjunctiveProp::new(self))
    }
}

impl BuiltinPropagator for DisjunctiveProp {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, _local: usize) -> u8 {
        BOUNDS
    }

    fn expensive(&self) -> bool {
        true
    }

    fn explains(&self) -> bool {
        self.explains
    }

    /// What the unary rules justify (a witness found among the bounds: see
    /// `unary_explain.rs`), else what the time table of the compulsory parts does (see
    /// `explain.rs`); what only the pairs found is left to the scope's domains.
    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let from = out.len();
        let unary = UnaryWitness::new(&self.starts, &self.durations, atoms, at);
        if unary.explain(pred, out) {
            return true;
        }
        out.truncate(from);
        let table = TimeTable::new(
            &self.starts,
            &self.durations,
            &self.ones,
            &self.one,
            atoms,
            at,
        );
        table.explain(pred, out)
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let scope = std::mem::take(&mut self.scope);
        let result = to_fixpoint(store, &scope, |store| self.pass(store));
        self.scope = scope;
        result
    }
}

impl DisjunctiveProp {
    /// One pass: the durations' sign, the pairs, then the unary rules.
    fn pass(&mut self, store: &mut Store) -> Result<(), Fail> {
        for d in &self.durations {
            if d.min(store)? < 0 {
                d.set_min(store, 0)?;
            }
        }
        self.bounds.clear();
        for k in 0..self.starts.len() {
            let b = self.read(store, k)?;
            self.bounds.push(b);
        }
        self.pairs(store)?;
        self.rules(store)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use crate::model::{IntArg, Model};
    use crate::propagators::checker::Rng;
    use crate::propagators::checker::tests::fuzz;

    /// A start: a constant, a range (negative ones too) or a list that repeats or mixes.
    pub(crate) fn start(m: &mut Model<'static>, rng: &mut Rng) -> IntArg {
        match rng.below(6) {
            0 => IntArg::from(rng.below(6) as i64 - 2),
            1 => IntArg::from(&m.var([3i64, 1, 1, 4])),
            _ => {
                let low = rng.below(6) as i64 - 2;
                IntArg::from(&m.var(low..low + 1 + rng.below(5) as i64))
            }
        }
    }

    /// A duration or a demand: mostly small constants (0 included), sometimes a variable
    /// over a few values, rarely one that may be negative.
    pub(crate) fn amount(m: &mut Model<'static>, rng: &mut Rng) -> IntArg {
        match rng.below(8) {
            0..=3 => IntArg::from(rng.below(4) as i64),
            4 | 5 => {
                let low = rng.below(3) as i64;
                IntArg::from(&m.var(low..low + 1 + rng.below(3) as i64))
            }
            6 => IntArg::from(&m.var([2i64, 0, 3])),
            _ => IntArg::from(&m.var(-1..2i64)),
        }
    }

    #[test]
    fn disjunctive_agrees_with_its_meaning() {
        fuzz(600, |rng| {
            let mut m = Model::new();
            let n = 1 + rng.below(4) as usize;
            let mut starts: Vec<IntArg> = (0..n).map(|_| start(&mut m, rng)).collect();
            let durations: Vec<IntArg> = (0..n).map(|_| amount(&mut m, rng)).collect();
            if n > 1 && rng.below(6) == 0 {
                // The same variable twice.
                starts[1] = starts[0].clone();
            }
            if rng.below(2) == 0 {
                m.disjunctive(starts, durations);
            } else {
                m.disjunctive_strict(starts, durations);
            }
            m
        });
    }

    #[test]
    fn times_beyond_the_unary_rules_are_reasoned_on_pair_by_pair() {
        use crate::Engine;
        // Starts near 2⁶⁰ and beyond: the rules' i64 arithmetic is not used, the pairs
        // are, and the counts agree with the replay engine's checks.
        for base in [1i64 << 58, 1 << 60, i64::MAX / 2, -(1 << 61)] {
            let mut m = Model::new();
            let starts: Vec<_> = (0..4).map(|_| m.var(base..base + 5)).collect();
            m.disjunctive(&starts, [1i64, 2, 1, 1]);
            let trail = m.solve(Engine::Trail).count().unwrap().solutions;
            let replay = m.solve(Engine::Replay).count().unwrap().solutions;
            assert_eq!(trail, replay, "base {base}");
            assert!(trail > 0);
        }
    }

    #[test]
    fn larger_unary_resources_agree_with_their_meaning() {
        // More tasks of fixed positive durations, where the unary rules do the work.
        fuzz(300, |rng| {
            let mut m = Model::new();
            let n = 3 + rng.below(3) as usize;
            let starts: Vec<IntArg> = (0..n)
                .map(|_| {
                    let low = rng.below(5) as i64 - 1;
                    IntArg::from(&m.var(low..low + 2 + rng.below(4) as i64))
                })
                .collect();
            let durations: Vec<IntArg> = (0..n)
                .map(|_| IntArg::from(1 + rng.below(3) as i64))
                .collect();
            m.disjunctive(starts, durations);
            m
        });
    }

    #[test]
    fn tight_unary_resources_agree_with_their_meaning() {
        // Windows barely wider than the work they hold, so that edge finding,
        // not-first/not-last and detectable precedences prune and fail, and their
        // explanations are asked (checked under `debug-checks`).
        fuzz(400, |rng| {
            let mut m = Model::new();
            let n = 4 + rng.below(2) as usize;
            let durations: Vec<i64> = (0..n).map(|_| 1 + rng.below(3) as i64).collect();
            let work: i64 = durations.iter().sum();
            let horizon = work + rng.below(3) as i64;
            let starts: Vec<IntArg> = durations
                .iter()
                .map(|&d| {
                    let low = rng.below(3) as i64;
                    let high = (horizon - d - rng.below(3) as i64).max(low);
                    IntArg::from(&m.var(low..=high))
                })
                .collect();
            m.disjunctive(starts, durations.iter().map(|&d| IntArg::from(d)));
            m
        });
    }
}
