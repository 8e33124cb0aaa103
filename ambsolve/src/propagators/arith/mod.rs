//! Propagators of arithmetic, and what they share: bounds in `i128`, division rounded
//! exactly, monotone conditions searched by bisection.

mod abs;
mod div;
mod enumerate;
mod extreme;
pub(super) mod pairs;
mod pow;
mod rem;
mod times;

use crate::choice::Fail;
use crate::model::Kind;
use crate::model::{Binary, Op};
use crate::propagator::BuiltinPropagator;
use crate::propagators::domain_pass;
use crate::propagators::view::{IntView, Shape};
use crate::store::{Atoms, BOUNDS, CHANGED, Pred, Store};
use crate::var::VarId;

/// Rounds of bounds reasoning a propagation runs at most (the engine runs it again if
/// it changed something in its last round).
const ROUNDS: usize = 16;

/// The propagator of `z = x op y`.
impl<'a> Kind<'a> for Binary {
    fn propagator(&self, _store: &mut Store) -> Box<dyn BuiltinPropagator + 'a> {
        binary(self)
    }
}

/// The propagator of `def`, by its operation.
fn binary(def: &Binary) -> Box<dyn BuiltinPropagator> {
    let args = Args {
        x: IntView::new(&def.x),
        y: IntView::new(&def.y),
        z: IntView::new(&def.z),
    };
    match def.op {
        Op::Times => {
            let square = args.x.var().is_some() && args.x.var() == args.y.var();
            BinaryProp::boxed(def, args, times::Times { square })
        }
        Op::Div => BinaryProp::boxed(def, args, div::Div),
        Op::Rem => BinaryProp::boxed(def, args, rem::Rem),
        Op::Pow | Op::PowReciprocal => BinaryProp::boxed(def, args, pow::Pow { op: def.op }),
    }
}

/// The arguments of `z = x op y`, as views.
pub(crate) struct Args {
    pub(crate) x: IntView,
    pub(crate) y: IntView,
    pub(crate) z: IntView,
}

/// What makes one binary operation's propagator ([`propagate_binary`] runs it).
pub(crate) trait Rule: Send {
    /// `a op b`, `None` where it is undefined.
    fn apply(&self, a: i64, b: i64) -> Option<i128>;

    /// What the operation rules out before any bound (a zero divisor, a negative
    /// exponent).
    fn prepare(&self, _args: &Args, _store: &mut Store) -> Result<(), Fail> {
        Ok(())
    }

    /// One round of bounds reasoning. Returns whether a domain changed.
    fn round(&self, args: &Args, store: &mut Store) -> Result<bool, Fail>;
}

/// The propagator of `z = x op y` for the operation's [`Rule`].
struct BinaryProp<R> {
    args: Args,
    rule: R,
    scope: Vec<VarId>,
    wakes: Vec<u8>,
}

impl<R: Rule + 'static> BinaryProp<R> {
    fn boxed(def: &Binary, args: Args, rule: R) -> Box<dyn BuiltinPropagator> {
        Box::new(BinaryProp {
            wakes: wakes(&[&args.x, &args.y, &args.z]),
            scope: def.vars.clone(),
            args,
            rule,
        })
    }
}

impl<R: Rule> BuiltinPropagator for BinaryProp<R> {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn wakes(&self, local: usize) -> u8 {
        self.wakes[local]
    }

    /// By enumeration over small boxes (see [`enumerate`]).
    fn explains(&self) -> bool {
        true
    }

    fn explain(&self, atoms: &Atoms, at: u32, pred: Option<Pred>, out: &mut Vec<Pred>) -> bool {
        let (args, rule) = (&self.args, &self.rule);
        let views = [&args.x, &args.y, &args.z];
        enumerate::explain(atoms, at, pred, views, |a, b| rule.apply(a, b), out)
    }

    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail> {
        let (args, rule) = (&self.args, &self.rule);
        propagate_binary(
            store,
            [&args.x, &args.y, &args.z],
            |a, b| rule.apply(a, b),
            |store| rule.prepare(args, store),
            |store| rule.round(args, store),
            |_| Ok(false),
        )
    }
}

/// The events worth waking on for a view: any change where domains are read value by
/// value (few values) or where the values' order is not the indices' (mixed images);
/// else the bounds only.
pub(super) fn wake(view: &IntView) -> u8 {
    match view {
        IntView::Const(_) => 0,
        IntView::Var { images, shape, .. } => {
            if *shape == Shape::Mixed || images.len() <= pairs::LISTED as usize {
                CHANGED
            } else {
                BOUNDS
            }
        }
    }
}

/// The wake events of each variable among `views`, in order (a scope's positions).
pub(super) fn wakes(views: &[&IntView]) -> Vec<u8> {
    views
        .iter()
        .filter(|v| v.var().is_some())
        .map(|v| wake(v))
        .collect()
}

/// The least and greatest value left.
///
/// # Errors
/// [`Fail`] if nothing is left.
#[inline]
pub(super) fn bounds(view: &IntView, store: &Store) -> Result<(i128, i128), Fail> {
    Ok((i128::from(view.min(store)?), i128::from(view.max(store)?)))
}

/// Once every view is fixed: whether `holds` does for their values (`Err(Fail)` if not).
/// A propagation asks at its start and again at its end, so that it decides a fixed
/// assignment whatever its own pruning fixed.
fn decide<const N: usize>(
    views: [&IntView; N],
    store: &Store,
    holds: impl Fn([i64; N]) -> bool,
) -> Option<Result<(), Fail>> {
    let mut values = [0; N];
    for (value, view) in values.iter_mut().zip(views) {
        *value = view.fixed(store)?;
    }
    Some(if holds(values) { Ok(()) } else { Err(Fail) })
}

/// One propagation of `z = x op y`, `apply` computing `x op y` (`None` where it is
/// undefined): decided at once when all three are fixed; else `prepare` (what the
/// operation rules out before any bound: a zero divisor, a negative exponent), rounds of
/// bounds reasoning (`round`, true if it changed something) until one changes nothing or
/// `ROUNDS` ran, every value checked once few are left (where [`domain_pass`] says so: by
/// `values`, a pass of the operation's own that returns `Ok(false)` where it cannot run,
/// else pair by pair), and decided again.
pub(super) fn propagate_binary(
    store: &mut Store,
    [x, y, z]: [&IntView; 3],
    apply: impl Fn(i64, i64) -> Option<i128> + Copy,
    prepare: impl FnOnce(&mut Store) -> Result<(), Fail>,
    round: impl Fn(&mut Store) -> Result<bool, Fail>,
    values: impl FnOnce(&mut Store) -> Result<bool, Fail>,
) -> Result<(), Fail> {
    let holds = |[a, b, c]: [i64; 3]| apply(a, b) == Some(i128::from(c));
    if let Some(decided) = decide([x, y, z], store, holds) {
        return decided;
    }
    prepare(store)?;
    for _ in 0..ROUNDS {
        if !round(store)? {
            break;
        }
    }
    if domain_pass(store) && !values(store)? {
        pairs::exact(store, x, y, z, apply)?;
    }
    decide([x, y, z], store, holds).unwrap_or(Ok(()))
}

/// A divisor's propagation starts by ruling out 0.
pub(super) fn no_zero(divisor: &IntView, store: &mut Store) -> Result<(), Fail> {
    if divisor.contains(store, 0) {
        divisor.remove(store, 0)?;
    }
    Ok(())
}

/// `a / b` rounded down (`b != 0`).
pub(super) fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `a / b` rounded up (`b != 0`).
pub(super) fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

/// The parts of `low..=high` below and above zero, as ranges (`None` where empty).
pub(super) fn signed_parts(low: i128, high: i128) -> [Option<(i128, i128)>; 2] {
    [
        (low <= -1).then(|| (low, high.min(-1))),
        (high >= 1).then(|| (low.max(1), high)),
    ]
}

/// Removes the values strictly between `-least` and `least` (`least > 0`) as bounds
/// allow: the least value goes up to `least` if nothing is left at or below `-least`,
/// the greatest down to `-least` if nothing is left at or above `least`.
///
/// # Errors
/// [`Fail`] if nothing is left.
pub(super) fn outside(view: &IntView, store: &mut Store, least: i128) -> Result<bool, Fail> {
    let mut changed = false;
    if i128::from(view.min(store)?) > -least {
        changed |= view.set_min(store, least)?;
    }
    if i128::from(view.max(store)?) < least {
        changed |= view.set_max(store, -least)?;
    }
    Ok(changed)
}

/// The values of `a..=b` (`a <= b`) where `holds` does, given that it holds on an
/// up-set or a down-set of them (a monotone condition): found by bisection, in at most
/// 128 calls.
pub(super) fn monotone_range(
    a: i128,
    b: i128,
    holds: impl Fn(i128) -> bool,
) -> Option<(i128, i128)> {
    match (holds(a), holds(b)) {
        (true, true) => Some((a, b)),
        (false, false) => None,
        (false, true) => {
            // The first value that holds.
            let (mut no, mut yes) = (a, b);
            while yes - no > 1 {
                let mid = no + (yes - no) / 2;
                if holds(mid) { yes = mid } else { no = mid }
            }
            Some((yes, b))
        }
        (true, false) => {
            // The last value that holds.
            let (mut yes, mut no) = (a, b);
            while no - yes > 1 {
                let mid = yes + (no - yes) / 2;
                if holds(mid) { yes = mid } else { no = mid }
            }
            Some((a, yes))
        }
    }
}

/// The magnitudes of `low..=high`: the least and the greatest `|v|`.
pub(super) fn magnitudes(low: i128, high: i128) -> (i128, i128) {
    let least = if low <= 0 && high >= 0 {
        0
    } else {
        low.abs().min(high.abs())
    };
    (least, low.abs().max(high.abs()))
}

/// The hull of two ranges, either of which may be empty.
pub(super) fn hull(a: Option<(i128, i128)>, b: Option<(i128, i128)>) -> Option<(i128, i128)> {
    match (a, b) {
        (Some((l1, h1)), Some((l2, h2))) => Some((l1.min(l2), h1.max(h2))),
        (a, None) => a,
        (None, b) => b,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{ceil_div, floor_div, monotone_range, pairs};
    use crate::model::{Constraint, Int, IntArg, Model};
    use crate::propagators::checker::tests::random_domains;
    use crate::propagators::checker::{Rng, Supports, sound};
    use crate::store::Store;

    /// A random `post(x, y, z)` over arguments from [`int_arg`]: `y` sometimes `x`, `z`
    /// sometimes `x` or `y` (variables repeated in one constraint).
    pub(crate) fn binary_model(
        rng: &mut Rng,
        post: impl FnOnce(&mut Model<'static>, IntArg, IntArg, IntArg),
    ) -> Model<'static> {
        let mut m = Model::new();
        let x = int_arg(&mut m, rng);
        let y = match rng.below(6) {
            0 => x.clone(),
            _ => int_arg(&mut m, rng),
        };
        let z = match rng.below(6) {
            0 => x.clone(),
            1 => y.clone(),
            _ => int_arg(&mut m, rng),
        };
        post(&mut m, x, y, z);
        m
    }

    /// A random integer argument: a constant (negative, zero or positive), a range, or a
    /// value list that repeats, falls or mixes, over negative values too and the ends of
    /// `i64`.
    pub(crate) fn int_arg(m: &mut Model<'static>, rng: &mut Rng) -> IntArg {
        match rng.below(8) {
            0 => IntArg::from(rng.below(9) as i64 - 4),
            1 => IntArg::from(&m.var([3i64, 1, 1, 4])),
            2 => IntArg::from(&m.var([2i64, 0, -1, -3])),
            3 => IntArg::from(&m.var([-2i64, 2, 0, -2, 1])),
            // The ends of i64: nothing may overflow.
            4 => match rng.below(3) {
                0 => IntArg::from(&m.var([i64::MIN, -1, 0, 1, i64::MAX])),
                1 => IntArg::from(&m.var([i64::MIN, i64::MIN + 1, 2])),
                _ => IntArg::from([i64::MIN, i64::MAX, -1][rng.below(3) as usize]),
            },
            _ => {
                let low = rng.below(9) as i64 - 4;
                IntArg::from(&m.var(low..low + 1 + rng.below(6) as i64))
            }
        }
    }

    /// For `cases` models of `make`: each of their constraints,
    /// propagated to its fixpoint on random subdomains (each run checked with
    /// [`sound`]: what `debug-checks` asks), handed with what it left (when it did not
    /// fail) to `check`.
    ///
    /// # Panics
    /// On the first message of `check`, with the case.
    pub(crate) fn after_propagation(
        cases: u64,
        make: impl Fn(&mut Rng) -> Model<'static>,
        check: impl Fn(&Constraint<'_>, &Store) -> Result<(), String>,
    ) {
        for case in 0..cases {
            let mut rng = Rng::new(case + 1);
            let model = make(&mut rng);
            for global in model.constraints() {
                let domains = random_domains(&model, &mut rng);
                let mut store = Store::with_domains(model.universes(), |v| Some(&domains[v]));
                let mut propagator = global.kind().propagator(&mut store);
                let mut failed = false;
                for _ in 0..64 {
                    let size: u64 = (0..store.num_vars())
                        .map(|v| u64::from(store.size(v)))
                        .sum();
                    // Each run alone is sound and decides (as `debug-checks` asks).
                    let before = store.clone();
                    let result = propagator.initial(&mut store);
                    if let Err(message) =
                        sound(global.meaning(), &before, result.map(|()| &store), true)
                    {
                        panic!("case {case}: {message}");
                    }
                    if result.is_err() {
                        failed = true;
                        break;
                    }
                    let now: u64 = (0..store.num_vars())
                        .map(|v| u64::from(store.size(v)))
                        .sum();
                    if now == size {
                        break;
                    }
                }
                if !failed {
                    if let Err(message) = check(global, &store) {
                        panic!("case {case}: {global:?}: {message}");
                    }
                }
            }
        }
    }

    /// Domain consistency: every value left of the constraint's variables is used by an
    /// assignment of values left that satisfies it.
    pub(crate) fn every_value_supported(
        global: &Constraint<'_>,
        store: &Store,
    ) -> Result<(), String> {
        values_supported(global, store, |_, _| true)
    }

    /// Every value left that `asked(variable, value index)` names is used by an
    /// assignment of values left that satisfies the constraint.
    pub(crate) fn values_supported(
        global: &Constraint<'_>,
        store: &Store,
        asked: impl Fn(usize, u32) -> bool,
    ) -> Result<(), String> {
        let meaning = global.meaning();
        let Some(Supports {
            vars,
            domains,
            used,
            ..
        }) = Supports::of(meaning, store)
        else {
            return Ok(());
        };
        for (k, &v) in vars.iter().enumerate() {
            let unused = (0..used[k].len()).find(|&a| !used[k][a] && asked(v, domains[k][a]));
            if let Some(a) = unused {
                return Err(format!(
                    "value index {} of v{v} is left without support",
                    domains[k][a]
                ));
            }
        }
        Ok(())
    }

    /// The number of distinct variables among `vars`.
    pub(crate) fn distinct(vars: &[crate::var::VarId]) -> usize {
        let mut vars = vars.to_vec();
        vars.sort_unstable();
        vars.dedup();
        vars.len()
    }

    /// Bounds consistency over intervals: each variable's least and greatest value left
    /// is used by an integer point of the box of the arguments' ranges (holes ignored; a
    /// variable repeated among `args` is one coordinate) where `holds` does. A box of
    /// more than a million points is not checked.
    pub(crate) fn ends_supported(
        args: &[Int],
        store: &Store,
        holds: impl Fn(&[i64]) -> bool,
    ) -> Result<(), String> {
        ends_of_supported(args, args, store, holds)
    }

    /// The least and greatest value left of `arg`.
    pub(crate) fn range_of(arg: &Int, store: &Store) -> (i64, i64) {
        match arg {
            Int::Const(c) => (*c, *c),
            Int::Var { var, images } => {
                let values = store.iter(var.index()).map(|i| images.get(i as usize));
                (values.clone().min().unwrap_or(0), values.max().unwrap_or(0))
            }
        }
    }

    /// As [`ends_supported`], for the ends of the variables of `checked` only.
    pub(crate) fn ends_of_supported(
        args: &[Int],
        checked: &[Int],
        store: &Store,
        holds: impl Fn(&[i64]) -> bool,
    ) -> Result<(), String> {
        let mut vars: Vec<usize> = args
            .iter()
            .filter_map(|a| a.var())
            .map(|v| v.index())
            .collect();
        vars.sort_unstable();
        vars.dedup();
        let range = |v: usize| {
            let images = args
                .iter()
                .find_map(|a| match a {
                    Int::Var { var, images } if var.index() == v => Some(images),
                    _ => None,
                })
                .expect("a variable of the arguments");
            let values = store.iter(v).map(|i| images.get(i as usize));
            (values.clone().min().unwrap_or(0), values.max().unwrap_or(0))
        };
        let ranges: Vec<(i64, i64)> = vars.iter().map(|&v| range(v)).collect();
        let points = ranges.iter().try_fold(1i128, |n, &(low, high)| {
            let n = n * (i128::from(high) - i128::from(low) + 1);
            (n <= 1_000_000).then_some(n)
        });
        if points.is_none() {
            // Too many points to read (the ends of i64): not checked.
            return Ok(());
        }
        let mut supported: Vec<(bool, bool)> = vec![(false, false); vars.len()];
        let mut point: Vec<i64> = ranges.iter().map(|r| r.0).collect();
        let mut values = vec![0i64; args.len()];
        loop {
            for (a, arg) in args.iter().enumerate() {
                values[a] = match arg {
                    Int::Const(c) => *c,
                    Int::Var { var, .. } => point[vars.binary_search(&var.index()).unwrap_or(0)],
                };
            }
            if holds(&values) {
                for (k, &p) in point.iter().enumerate() {
                    supported[k].0 |= p == ranges[k].0;
                    supported[k].1 |= p == ranges[k].1;
                }
            }
            let mut k = 0;
            while k < point.len() {
                if point[k] < ranges[k].1 {
                    point[k] += 1;
                    break;
                }
                point[k] = ranges[k].0;
                k += 1;
            }
            if k == point.len() {
                break;
            }
        }
        let asked: Vec<usize> = checked
            .iter()
            .filter_map(|a| a.var())
            .map(|v| v.index())
            .collect();
        let unsupported = (0..vars.len())
            .find(|&k| asked.contains(&vars[k]) && !(supported[k].0 && supported[k].1));
        match unsupported {
            Some(k) => Err(format!(
                "v{} keeps an end {:?} without support (ranges {ranges:?} of {vars:?})",
                vars[k], ranges[k]
            )),
            None => Ok(()),
        }
    }

    /// Runs `check` with [`pairs::exact`] switched off: bounds reasoning alone.
    pub(crate) fn bounds_only(check: impl FnOnce()) {
        pairs::BOUNDS_ONLY.with(|b| b.set(true));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
        pairs::BOUNDS_ONLY.with(|b| b.set(false));
        if let Err(panic) = result {
            std::panic::resume_unwind(panic);
        }
    }

    #[test]
    fn division_rounds_both_ways_at_every_sign() {
        for a in -9i128..=9 {
            for b in (-4i128..=4).filter(|&b| b != 0) {
                let q = a as f64 / b as f64;
                assert_eq!(floor_div(a, b), q.floor() as i128, "{a} / {b}");
                assert_eq!(ceil_div(a, b), q.ceil() as i128, "{a} / {b}");
            }
        }
    }

    #[test]
    fn a_monotone_condition_is_bisected_to_its_ends() {
        assert_eq!(monotone_range(0, 100, |v| v >= 37), Some((37, 100)));
        assert_eq!(monotone_range(0, 100, |v| v <= 37), Some((0, 37)));
        assert_eq!(monotone_range(0, 100, |v| v > 100), None);
        assert_eq!(
            monotone_range(i128::from(i64::MIN), i128::from(i64::MAX), |v| v >= -5),
            Some((-5, i128::from(i64::MAX)))
        );
    }
}
