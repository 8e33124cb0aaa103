//! Checks the propagator of every constraint kind against its meaning, on random small
//! domains: a propagator may remove only values that take part in no solution of its
//! constraint alone, and once every variable is fixed it must fail exactly when the meaning
//! is false.
//!
//! Unit tests call [`tests::fuzz`]; with the `debug-checks` feature the fixpoint loop calls
//! [`sound`] after every run of a propagator (and every fixed variable it is told of) over
//! a small enough scope.

#[cfg(feature = "debug-checks")]
use std::borrow::Cow;
use std::ops::ControlFlow;

use crate::choice::Fail;
#[cfg(feature = "debug-checks")]
use crate::model::Constraint;
use crate::model::Meaning;
use crate::store::Store;
#[cfg(feature = "debug-checks")]
use crate::var::VarId;

/// The conjunction of some constraints: what a propagator standing for several (fused
/// all-differents) must agree with.
#[cfg(feature = "debug-checks")]
pub(crate) struct All<'c, 'a>(pub(crate) &'c [Constraint<'a>]);

#[cfg(feature = "debug-checks")]
impl Meaning for All<'_, '_> {
    fn vars(&self) -> Cow<'_, [VarId]> {
        match self.0 {
            [one] => one.meaning().vars(),
            all => Cow::Owned(all.iter().flat_map(Constraint::vars).collect()),
        }
    }

    fn holds(&self, values: &[u32]) -> bool {
        self.0.iter().all(|c| c.check(values))
    }

    fn describe(&self) -> String {
        let all: Vec<String> = self.0.iter().map(Constraint::describe).collect();
        all.join(" and ")
    }
}

/// Scopes whose domains multiply to more tuples than this are not checked.
const MOST_TUPLES: u64 = 50_000;

/// Which values of a constraint's variables some solution of the constraint alone uses,
/// within a store's domains.
pub(crate) struct Supports {
    /// The constraint's variables, sorted, each once.
    pub(crate) vars: Vec<usize>,
    /// Their domains (value indices), in the order of `vars`.
    pub(crate) domains: Vec<Vec<u32>>,
    /// For each value of `domains`, whether a solution uses it.
    pub(crate) used: Vec<Vec<bool>>,
    /// Whether there is a solution at all.
    pub(crate) any: bool,
    /// Whether every assignment is one (read by the unit tests' fuzz).
    #[cfg_attr(not(test), expect(dead_code))]
    pub(crate) all: bool,
}

impl Supports {
    /// Every assignment of `meaning`'s variables within `store`'s domains, tried (odometer
    /// style); `None` if they multiply to more than `MOST_TUPLES` tuples.
    pub(crate) fn of(meaning: &dyn Meaning, store: &Store) -> Option<Supports> {
        let mut vars: Vec<usize> = meaning.vars().iter().map(|v| v.index()).collect();
        vars.sort_unstable();
        vars.dedup();
        let domains: Vec<Vec<u32>> = vars.iter().map(|&v| store.iter(v).collect()).collect();
        let tuples = domains
            .iter()
            .try_fold(1u64, |n, d| n.checked_mul(d.len() as u64));
        if tuples.is_none_or(|n| n > MOST_TUPLES) {
            return None;
        }
        let mut used: Vec<Vec<bool>> = domains.iter().map(|d| vec![false; d.len()]).collect();
        let (mut any, mut all) = (false, true);
        each_tuple(&vars, &domains, store.num_vars(), |at, values| {
            if meaning.holds(values) {
                any = true;
                for (k, &a) in at.iter().enumerate() {
                    used[k][a] = true;
                }
            } else {
                all = false;
            }
            ControlFlow::Continue(())
        });
        Some(Supports {
            vars,
            domains,
            used,
            any,
            all,
        })
    }
}

/// Calls `visit` with every assignment of `vars` (sorted, distinct) within `domains`, in
/// odometer order: the positions taken in each domain, and the value indices of all
/// `num_vars` variables (the others 0); none if a domain is empty. `visit` may stop it.
fn each_tuple(
    vars: &[usize],
    domains: &[Vec<u32>],
    num_vars: usize,
    mut visit: impl FnMut(&[usize], &[u32]) -> ControlFlow<()>,
) {
    if domains.iter().any(Vec::is_empty) {
        return;
    }
    let n = vars.iter().max().map_or(0, |&v| v + 1).max(num_vars);
    let mut values = vec![0u32; n];
    let mut at = vec![0usize; vars.len()];
    loop {
        for (k, &v) in vars.iter().enumerate() {
            values[v] = domains[k][at[k]];
        }
        if visit(&at, &values).is_break() {
            return;
        }
        let mut k = 0;
        while k < at.len() {
            at[k] += 1;
            if at[k] < domains[k].len() {
                break;
            }
            at[k] = 0;
            k += 1;
        }
        if k == at.len() {
            return;
        }
    }
}

/// Whether the predicates `explanation` imply `pred` (`None`: a failure) given `meaning`:
/// every assignment of its variables within their domains when the predicate trail
/// began (`atoms`' root), with the explanation true, that satisfies it satisfies `pred`
/// (none does, for a failure). Scopes of more than `MOST_TUPLES` tuples, or over a
/// variable whose root the trail did not keep, are not checked.
#[cfg(feature = "debug-checks")]
pub(crate) fn explanation_sound(
    meaning: &dyn Meaning,
    atoms: &crate::store::Atoms,
    explanation: &[crate::store::Pred],
    pred: Option<crate::store::Pred>,
) -> Result<(), String> {
    let mut vars: Vec<usize> = meaning.vars().iter().map(|v| v.index()).collect();
    vars.sort_unstable();
    vars.dedup();
    let mut domains: Vec<Vec<u32>> = Vec::with_capacity(vars.len());
    for &var in &vars {
        let Some(root) = atoms.root(var) else {
            return Ok(());
        };
        let on = explanation.iter().filter(|p| p.var as usize == var);
        domains.push(
            root.iter()
                .filter(|&i| on.clone().all(|p| p.accepts(i)))
                .collect(),
        );
    }
    let tuples = domains
        .iter()
        .try_fold(1u64, |n, d| n.checked_mul(d.len() as u64));
    if tuples.is_none_or(|n| n > MOST_TUPLES) {
        return Ok(());
    }
    let mut found = Ok(());
    each_tuple(&vars, &domains, atoms.num_vars(), |_, values| {
        if !meaning.holds(values) || pred.is_some_and(|p| p.accepts(values[p.var as usize])) {
            return ControlFlow::Continue(());
        }
        let shown: Vec<String> = vars
            .iter()
            .map(|&v| format!("v{v} = {}", values[v]))
            .collect();
        found = Err(format!(
            "the explanation {explanation:?} of {} does not imply it under {}: \
             {} satisfies both",
            pred.map_or("a failure".to_string(), |p| format!("{p:?}")),
            meaning.describe(),
            shown.join(", ")
        ));
        ControlFlow::Break(())
    });
    found
}

/// A small deterministic random number generator (xorshift), for tests.
#[cfg(test)]
pub(crate) struct Rng(u64);

#[cfg(test)]
impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Whether `after` (what a propagation left of `before`, or `Err` if it failed) keeps
/// every value of `meaning`'s variables that some assignment of them, within `before`,
/// satisfying the meaning uses. `Err` names a value removed wrongly, or a failure with a
/// solution left, or (when the propagator `decides` on each run) a full assignment
/// accepted that the meaning rejects. `Ok(None)`: the scope is too large to check.
///
/// A propagator told of each fixed variable apart
/// ([`acts_on_fixed`](crate::propagator::BuiltinPropagator::acts_on_fixed)) decides only
/// once it has been told of them all, so a run of it alone need not.
pub(crate) fn sound(
    meaning: &dyn Meaning,
    before: &Store,
    after: Result<&Store, Fail>,
    decides: bool,
) -> Result<Option<()>, String> {
    let Some(Supports {
        vars,
        domains,
        used: supported,
        any,
        ..
    }) = Supports::of(meaning, before)
    else {
        return Ok(None);
    };
    let after = match after {
        Err(Fail) if any => {
            return Err(format!(
                "{} failed, but a solution is left (value indices before: {})",
                meaning.describe(),
                listed(&vars, &domains)
            ));
        }
        Err(Fail) => return Ok(Some(())),
        Ok(after) => after,
    };
    for (k, &v) in vars.iter().enumerate() {
        for (a, &index) in domains[k].iter().enumerate() {
            if supported[k][a] && !after.contains(v, index) {
                return Err(format!(
                    "{} removed value index {index} of v{v}, which a solution uses (value \
                     indices before: {})",
                    meaning.describe(),
                    listed(&vars, &domains)
                ));
            }
        }
    }
    // Every variable fixed: the propagation must have failed unless the meaning holds.
    if decides && vars.iter().all(|&v| after.is_fixed(v)) && !any {
        return Err(format!(
            "{} accepted a fixed assignment its meaning rejects (value indices before: {})",
            meaning.describe(),
            listed(&vars, &domains)
        ));
    }
    Ok(Some(()))
}

/// `v0 [0, 2], v3 [1]`: the value indices of each variable, for a message.
fn listed(vars: &[usize], domains: &[Vec<u32>]) -> String {
    let each: Vec<String> = vars
        .iter()
        .zip(domains)
        .map(|(v, d)| format!("v{v} {d:?}"))
        .collect();
    each.join(", ")
}

/// The driver of the propagators' unit tests (test code: it may reach the engines).
#[cfg(test)]
pub(crate) mod tests {
    use super::{Rng, sound};
    use crate::domain::Domain;
    use crate::model::{IntArg, Meaning, Model};
    use crate::store::Store;

    /// Builds `cases` models with `make`, each holding constraints of any kind over
    /// small domains, and checks each such constraint's propagator on random subdomains
    /// (run to its own fixpoint) with [`sound`], its explanations under `debug-checks`
    /// (`fuzz_explanations`), and the whole model's count on the trail engine against the
    /// replay engine's, which checks the meaning only.
    ///
    /// # Panics
    /// On the first disagreement, with the case.
    pub(crate) fn fuzz(cases: u64, make: impl Fn(&mut Rng) -> Model<'static>) {
        fuzz_with(cases, false, make);
    }

    /// For `cases` models of `make`: each constraint's propagator, run on as the search
    /// runs it (random removals at new levels, undone at random back up), must leave
    /// after every run what a new propagator leaves from scratch on the same domains
    /// (the same failure, or the same domains): what keeps a state from run to run (trailed
    /// cells, kept layers) keeps nothing wrong. For propagators whose fixpoint does not
    /// depend on their history (domain consistent ones, over distinct variables).
    ///
    /// # Panics
    /// On the first disagreement, with the case and the step.
    pub(crate) fn fuzz_incremental(cases: u64, make: impl Fn(&mut Rng) -> Model<'static>) {
        for case in 0..cases {
            let mut rng = Rng::new(case + 1);
            let model = make(&mut rng);
            assert_eq!(model.error(), None, "case {case}: the model is invalid");
            for constraint in model.constraints() {
                let mut store = Store::with_domains(model.universes(), |_| None);
                let mut propagator = constraint.kind().propagator(&mut store);
                if propagator.initial(&mut store).is_err() {
                    continue;
                }
                let domains = |store: &Store| -> Vec<Vec<u32>> {
                    (0..store.num_vars())
                        .map(|v| store.iter(v).collect())
                        .collect()
                };
                // The marks of the levels entered, with the level each was taken at.
                let mut marks: Vec<(u32, u64)> = Vec::new();
                for step in 0..24 {
                    let level = marks.len() as u32;
                    let open: Vec<usize> = (0..store.num_vars())
                        .filter(|&v| store.size(v) > 1)
                        .collect();
                    if open.is_empty() || (level > 0 && rng.below(3) == 0) {
                        let Some((level, mark)) = marks.pop() else {
                            break;
                        };
                        store.undo_to(mark);
                        store.set_level(level);
                    } else {
                        marks.push((level, store.mark()));
                        store.set_level(level + 1);
                        let var = open[rng.below(open.len() as u64) as usize];
                        let values: Vec<u32> = store.iter(var).collect();
                        let value = values[rng.below(values.len() as u64) as usize];
                        store
                            .remove(var, value)
                            .expect("a domain of two values or more");
                    }
                    let mut fresh_store = store.clone();
                    let mut fresh = constraint.kind().propagator(&mut fresh_store);
                    let expected = fresh
                        .initial(&mut fresh_store)
                        .map(|()| domains(&fresh_store));
                    let got = propagator.propagate(&mut store).map(|()| domains(&store));
                    assert_eq!(
                        got, expected,
                        "case {case}, step {step}: incremental and from scratch differ"
                    );
                    if got.is_err() {
                        // The search undoes a failure at once.
                        let Some((level, mark)) = marks.pop() else {
                            break;
                        };
                        store.undo_to(mark);
                        store.set_level(level);
                    }
                }
            }
        }
    }

    /// [`fuzz`], and more: each constraint whose variables are all distinct must leave
    /// only values that some solution of it alone uses (its propagator is domain
    /// consistent).
    ///
    /// # Panics
    /// On the first disagreement, with the case.
    pub(crate) fn fuzz_domain_consistent(cases: u64, make: impl Fn(&mut Rng) -> Model<'static>) {
        fuzz_with(cases, true, make);
    }

    /// For `cases` models of `make`: each constraint whose propagator explains, on random
    /// subdomains recorded as a predicate trail, narrowed by a few random decisions and
    /// run, twice over: every change of each run is explained and the explanation checked
    /// (it held before the change, and with the constraint implies it), as is a run's
    /// failure. Explanations that give up are not checked (the engine falls back).
    /// Conflict analysis asks for few explanations in a small model; this asks for all.
    ///
    /// # Panics
    /// On the first wrong explanation, with the case.
    #[cfg(feature = "debug-checks")]
    pub(crate) fn fuzz_explanations(cases: u64, make: impl Fn(&mut Rng) -> Model<'static>) {
        for case in 0..cases {
            let mut rng = Rng::new(case + 1);
            let model = make(&mut rng);
            assert_eq!(model.error(), None, "case {case}: the model is invalid");
            check_explanations(case, &model, &mut rng);
        }
    }

    /// [`fuzz_explanations`] on one model (case `case`).
    #[cfg(feature = "debug-checks")]
    fn check_explanations(case: u64, model: &Model<'static>, rng: &mut Rng) {
        use super::explanation_sound;
        use crate::store::Pred;
        let mut out: Vec<Pred> = Vec::new();
        for constraint in model.constraints() {
            let meaning = constraint.meaning();
            let scope: Vec<usize> = meaning.vars().iter().map(|v| v.index()).collect();
            for _ in 0..8 {
                let domains = random_domains(model, rng);
                let mut store = Store::with_domains(model.universes(), |v| Some(&domains[v]));
                let mut propagator = constraint.kind().propagator(&mut store);
                if !propagator.explains() || scope.is_empty() {
                    break;
                }
                store.record_atoms();
                for round in 0..2 {
                    // A few decisions: an end moved or a value struck out.
                    store.set_cause(crate::store::Cause::Decision);
                    for _ in 0..rng.below(3) {
                        let var = scope[rng.below(scope.len() as u64) as usize];
                        let (Some(low), Some(high)) = (store.min(var), store.max(var)) else {
                            continue;
                        };
                        if low == high {
                            continue;
                        }
                        let pick = low + rng.below(u64::from(high - low)) as u32;
                        let _ = match rng.below(3) {
                            0 => store.remove_range(var, low, pick),
                            1 => store.remove_range(var, pick + 1, high),
                            _ => store.remove(var, pick).map(|_| ()),
                        };
                    }
                    store.clear_events();
                    store.set_cause_prop(0);
                    let start = store.atoms().expect("recording").len() as u32;
                    let result = if round == 0 {
                        propagator.initial(&mut store)
                    } else {
                        propagator.propagate(&mut store)
                    };
                    store.clear_events();
                    let atoms = store.atoms().expect("recording");
                    let end = atoms.len() as u32;
                    let asked = (start..end)
                        .map(|at| (at, Some(atoms.at(at).pred)))
                        .chain(result.is_err().then_some((end, None)));
                    for (at, pred) in asked {
                        out.clear();
                        if !propagator.explain(atoms, at, pred, &mut out) {
                            continue;
                        }
                        if let Some(pred) = pred {
                            atoms.stepped_over(at, pred, false, &mut out);
                        }
                        for &p in &out {
                            assert!(
                                atoms.true_since(p).is_none_or(|since| since < at),
                                "case {case}: {} explained {pred:?} at {at} by {p:?}, \
                                 true only since {:?}",
                                meaning.describe(),
                                atoms.true_since(p)
                            );
                        }
                        if let Err(message) = explanation_sound(meaning, atoms, &out, pred) {
                            // The domains it began from, and every change since.
                            let roots: Vec<_> = scope
                                .iter()
                                .map(|&v| atoms.root(v).map(|d| d.iter().collect::<Vec<_>>()))
                                .collect();
                            let trail: Vec<_> =
                                atoms.since(0).iter().map(|a| (a.pred, a.cause)).collect();
                            panic!(
                                "case {case}: {message}\nthe scope's domains when recording \
                                 began: {roots:?}\nthe trail since: {trail:?}"
                            );
                        }
                    }
                    if result.is_err() {
                        break;
                    }
                }
            }
        }
    }

    /// A random integer argument: a small constant, a range (negative values too), or a
    /// variable whose values repeat, fall or mix.
    pub(crate) fn arg(m: &mut Model<'static>, rng: &mut Rng) -> IntArg {
        match rng.below(6) {
            0 => IntArg::from(rng.below(5) as i64 - 1),
            1 => IntArg::from(&m.var([3i64, 1, 1, 4])),
            2 => IntArg::from(&m.var([2i64, 0, -1])),
            _ => {
                let low = rng.below(5) as i64 - 2;
                IntArg::from(&m.var(low..low + 1 + rng.below(4) as i64))
            }
        }
    }

    /// A pool of three random arguments ([`arg`]) and up to four items drawn from it, so
    /// that variables repeat: `(pool, items)`.
    pub(crate) fn pooled_items(
        m: &mut Model<'static>,
        rng: &mut Rng,
    ) -> (Vec<IntArg>, Vec<IntArg>) {
        let pool: Vec<IntArg> = (0..3).map(|_| arg(m, rng)).collect();
        let items = (0..rng.below(5))
            .map(|_| pool[rng.below(3) as usize].clone())
            .collect();
        (pool, items)
    }

    /// The value indices each variable of `model` keeps once the propagators of its
    /// constraints run to their common fixpoint from the full domains; `None` if they
    /// fail. For tests of a propagator's strength.
    pub(crate) fn fixpoint(model: &Model<'static>) -> Option<Vec<Vec<u32>>> {
        let mut store = Store::with_domains(model.universes(), |_| None);
        let mut propagators: Vec<_> = model
            .constraints()
            .iter()
            .map(|c| c.kind().propagator(&mut store))
            .collect();
        loop {
            let size: u64 = (0..store.num_vars())
                .map(|v| u64::from(store.size(v)))
                .sum();
            for propagator in &mut propagators {
                propagator.initial(&mut store).ok()?;
            }
            let now: u64 = (0..store.num_vars())
                .map(|v| u64::from(store.size(v)))
                .sum();
            if now == size {
                return Some(
                    (0..store.num_vars())
                        .map(|v| store.iter(v).collect())
                        .collect(),
                );
            }
        }
    }

    /// Random domains within `model`'s universes: each value kept with chance 2/3, one
    /// value at least.
    pub(crate) fn random_domains(model: &Model<'_>, rng: &mut Rng) -> Vec<Domain> {
        model
            .universes()
            .iter()
            .map(|&u| {
                let mut d = Domain::empty(u);
                for i in 0..u {
                    if rng.below(3) != 0 {
                        d.insert(i);
                    }
                }
                if d.is_empty() && u > 0 {
                    d.insert(rng.below(u64::from(u)) as u32);
                }
                d
            })
            .collect()
    }

    fn fuzz_with(cases: u64, consistent: bool, make: impl Fn(&mut Rng) -> Model<'static>) {
        for case in 0..cases {
            let mut rng = Rng::new(case + 1);
            let model = make(&mut rng);
            assert_eq!(model.error(), None, "case {case}: the model is invalid");
            for constraint in model.constraints() {
                for _ in 0..4 {
                    let domains = random_domains(&model, &mut rng);
                    let before = Store::with_domains(model.universes(), |v| Some(&domains[v]));
                    let mut store = before.clone();
                    let mut propagator = constraint.kind().propagator(&mut store);
                    let mut result = Ok(());
                    for run in 0..64 {
                        let size: u64 = (0..store.num_vars())
                            .map(|v| u64::from(store.size(v)))
                            .sum();
                        // A run from the store as it is (an all-different's first run reads the
                        // variables fixed: `initial`).
                        result = propagator.initial(&mut store);
                        if result.is_ok() && propagator.finished() {
                            // Finished: every assignment left satisfies it.
                            let left = super::Supports::of(constraint.meaning(), &store);
                            assert!(
                                left.is_none_or(|s| s.all),
                                "case {case}: {} says it finished, but an assignment left \
                                 breaks it",
                                constraint.meaning().describe()
                            );
                        }
                        if run == 0 {
                            // One run alone, as the engine makes it: it too must be
                            // sound, and decide what its own pruning fixed.
                            if let Err(message) =
                                sound(constraint.meaning(), &before, result.map(|()| &store), true)
                            {
                                panic!("case {case}, after one run: {message}");
                            }
                        }
                        let now: u64 = (0..store.num_vars())
                            .map(|v| u64::from(store.size(v)))
                            .sum();
                        if result.is_err() || now == size {
                            break;
                        }
                        assert!(
                            run == 0 || !propagator.idempotent(),
                            "case {case}: {} says it is idempotent, but its run {} narrowed",
                            constraint.meaning().describe(),
                            run + 1
                        );
                    }
                    let after = result.map(|()| &store);
                    if let Err(message) = sound(constraint.meaning(), &before, after, true) {
                        panic!("case {case}: {message}");
                    }
                    if consistent && result.is_ok() {
                        if let Err(message) = complete(constraint.meaning(), &store) {
                            panic!("case {case}: {message}");
                        }
                    }
                }
            }
            #[cfg(feature = "debug-checks")]
            check_explanations(case, &model, &mut rng);
            let trail = model
                .solve(crate::options::Engine::Trail)
                .count()
                .map(|s| s.solutions);
            let replay = model
                .solve(crate::options::Engine::Replay)
                .count()
                .map(|s| s.solutions);
            assert_eq!(
                trail, replay,
                "case {case}: the engines count differently: {model:?}"
            );
            let learning = model
                .solve(crate::options::Engine::Trail)
                .strategy(crate::strategy::Strategy::new().learning(true))
                .count()
                .map(|s| s.solutions);
            assert_eq!(
                trail, learning,
                "case {case}: learning counts differently: {model:?}"
            );
        }
    }

    /// For a meaning over distinct variables: `Err` names a value left in `after` that no
    /// assignment within `after` satisfying the meaning uses (or a propagation that left
    /// no solution and did not fail). Meanings with a repeated variable, or too many
    /// tuples, pass.
    fn complete(meaning: &dyn Meaning, after: &Store) -> Result<(), String> {
        let mut vars: Vec<usize> = meaning.vars().iter().map(|v| v.index()).collect();
        vars.sort_unstable();
        if vars.windows(2).any(|w| w[0] == w[1]) {
            return Ok(());
        }
        let Some(super::Supports {
            vars,
            domains,
            used: supported,
            ..
        }) = super::Supports::of(meaning, after)
        else {
            return Ok(());
        };
        for (k, &v) in vars.iter().enumerate() {
            if let Some(a) = supported[k].iter().position(|&s| !s) {
                return Err(format!(
                    "{} kept value index {} of v{v}, which no solution uses",
                    meaning.describe(),
                    domains[k][a]
                ));
            }
        }
        Ok(())
    }

    /// A wrong explanation is caught: `x + y <= 4` over 0..5 each, with `x >= 2`, makes
    /// `y <= 2`, which `x >= 2` explains and `x >= 1` (planted) does not.
    #[cfg(feature = "debug-checks")]
    #[test]
    fn a_planted_wrong_explanation_is_caught() {
        use crate::model::Cmp;
        use crate::store::Pred;
        let mut m = Model::new();
        let (x, y) = (m.var(0..5i64), m.var(0..5i64));
        m.linear([(1, &x), (1, &y)], Cmp::Le, 4);
        let mut store = Store::with_domains(m.universes(), |v| m.initial_domain(v));
        store.record_atoms();
        let atoms = store.atoms().expect("recording");
        let all = super::All(m.constraints());
        let y_at_most_2 = Some(Pred::le(1, 2));
        assert!(super::explanation_sound(&all, atoms, &[Pred::ge(0, 2)], y_at_most_2).is_ok());
        let wrong = super::explanation_sound(&all, atoms, &[Pred::ge(0, 1)], y_at_most_2);
        assert!(wrong.unwrap_err().contains("does not imply"));
        // A failure: x >= 3 and y >= 2 cannot both hold.
        let failure = [Pred::ge(0, 3), Pred::ge(1, 2)];
        assert!(super::explanation_sound(&all, atoms, &failure, None).is_ok());
        assert!(super::explanation_sound(&all, atoms, &failure[..1], None).is_err());
    }
}
