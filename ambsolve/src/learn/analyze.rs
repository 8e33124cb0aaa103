//! Conflict analysis to the first unique implication point (1UIP), over the predicate
//! trail: the conflict's predicates at its deepest level are replaced, the latest first,
//! by the explanations of the atoms that made them true, until one predicate of that level
//! is left (or the level's decision). With the predicates of lower levels, its negation is
//! the learned nogood; the search backjumps to the deepest of those lower levels, where the
//! nogood asserts the negation.

use hashbrown::{HashMap, HashSet};
use smallvec::SmallVec;

use crate::store::{Atoms, Cause, Pred, Rel};

/// What a conflict taught: a nogood (its first predicate the one at the conflict's level),
/// the level to backjump to, and its literal block distance.
pub(crate) struct Learned {
    pub(crate) nogood: Vec<Pred>,
    pub(crate) backjump: u32,
    pub(crate) lbd: u32,
}

/// Analyses a conflict: `conflict` holds now and cannot hold in any solution.
/// `explain(cause, position, pred, out)` appends predicates that held before the atom at
/// `position`, which made `pred` true with `cause`, and imply it; `decision(level)` is the decision predicate of a
/// level; `touched(pred)` is told every predicate met. `explain` returns whether it gave the
/// domains of the run's scope when it began, which imply every atom of that run: the
/// other atoms of the same cause then need no explanation of their own.
/// `None`: the conflict holds at the root (nothing is left to search).
pub(crate) fn analyze(
    atoms: &Atoms,
    conflict: &[Pred],
    decision: impl Fn(u32) -> Pred,
    mut explain: impl FnMut(Cause, u32, Pred, &mut Vec<Pred>) -> bool,
    mut touched: impl FnMut(Pred),
) -> Option<Learned> {
    let level_of = |pred: Pred| atoms.true_since(pred).map_or(0, |p| atoms.level_of(p));
    let deepest = conflict.iter().map(|&p| level_of(p)).max().unwrap_or(0);
    if deepest == 0 {
        return None;
    }
    // The conflict level's predicates by the atom that made them true; the others.
    let mut current = Current::new(atoms.level_start(deepest), atoms.len() as u32);
    let mut lower: HashSet<Pred> = HashSet::new();
    // An equality is its two bounds, each made true by its own atom: every predicate kept
    // at a position is then implied by that atom's own predicate, which is what gets
    // explained.
    let mut add = |pred: Pred, current: &mut Current, lower: &mut HashSet<Pred>| {
        let var = pred.var as usize;
        let parts = match pred.rel {
            Rel::Eq => [
                Some(Pred::ge(var, pred.value)),
                Some(Pred::le(var, pred.value)),
            ],
            _ => [Some(pred), None],
        };
        for part in parts.into_iter().flatten() {
            let Some(position) = atoms.true_since(part) else {
                continue;
            };
            let level = atoms.level_of(position);
            if level == 0 {
                continue;
            }
            touched(part);
            if level < deepest {
                lower.insert(part);
            } else {
                current.add(position, part);
            }
        }
    };
    for &pred in conflict {
        add(pred, &mut current, &mut lower);
    }
    let mut reasons = Vec::new();
    let mut whole_runs = HashSet::new();
    let uip = loop {
        let (position, mut preds) = current
            .take_last()
            .expect("the conflict level has a predicate");
        let atom = atoms.at(position);
        if atom.cause == Cause::Decision {
            // Only the decision's atoms are left (they come first in their level): what
            // they made true, in one predicate if it can be (a decision `x == v` of which
            // only `x <= v` took part teaches `x >= v + 1`), else the decision itself.
            let decided = decision(deepest);
            preds.extend(current.preds.drain().flat_map(|(_, preds)| preds));
            break conjunction(&preds, decided).unwrap_or(decided);
        }
        if current.preds.is_empty() {
            if let Some(uip) = conjunction(&preds, atom.pred) {
                break uip;
            }
        }
        if whole_runs.contains(&atom.cause) {
            // The run's scope, as it began, is in already: it implies this atom too.
            continue;
        }
        reasons.clear();
        if explain(atom.cause, position, atom.pred, &mut reasons) {
            whole_runs.insert(atom.cause);
        }
        for &reason in &reasons {
            let since = atoms.true_since(reason);
            debug_assert!(
                since.is_none_or(|s| s < position),
                "explanation of {:?} at {position} (cause {:?}) holds {reason:?} only since {since:?}",
                atom.pred,
                atom.cause
            );
            add(reason, &mut current, &mut lower);
        }
    };
    let mut nogood = simplify(lower.into_iter().collect());
    let backjump = nogood.iter().map(|&p| level_of(p)).max().unwrap_or(0);
    // The deepest of the others second: the nogood's two watches.
    if let Some(k) = (0..nogood.len()).max_by_key(|&k| level_of(nogood[k])) {
        nogood.swap(0, k);
    }
    nogood.insert(0, uip);
    let mut levels: Vec<u32> = nogood[1..].iter().map(|&p| level_of(p)).collect();
    levels.push(deepest);
    levels.sort_unstable();
    levels.dedup();
    Some(Learned {
        nogood,
        backjump,
        lbd: levels.len() as u32,
    })
}

/// The conflict level's predicates, by the atom that made each true: a mark per position
/// of the level, taken from the top down (as a SAT solver walks its trail), and each
/// marked position's predicates (each once).
struct Current {
    /// The level's first position.
    start: u32,
    marked: Vec<u64>,
    /// The predicates of each position marked and not yet taken.
    preds: HashMap<u32, SmallVec<[Pred; 2]>>,
    /// Every position marked and not taken is below this one.
    below: u32,
}

impl Current {
    /// Over the positions `start..end`.
    fn new(start: u32, end: u32) -> Self {
        Current {
            start,
            marked: vec![0; (end - start).div_ceil(64) as usize],
            preds: HashMap::new(),
            below: end,
        }
    }

    /// `pred` was made true by the atom at `position` (below every position taken).
    fn add(&mut self, position: u32, pred: Pred) {
        debug_assert!(
            position < self.below,
            "reasons come before what they explain"
        );
        let k = (position - self.start) as usize;
        self.marked[k / 64] |= 1 << (k % 64);
        let preds = self.preds.entry(position).or_default();
        if !preds.contains(&pred) {
            preds.push(pred);
        }
    }

    /// The latest position marked, unmarked now, with its predicates.
    fn take_last(&mut self) -> Option<(u32, SmallVec<[Pred; 2]>)> {
        let mut w = (self.below - self.start).div_ceil(64) as usize;
        while w > 0 {
            w -= 1;
            let bits = self.marked[w];
            if bits != 0 {
                let bit = 63 - bits.leading_zeros() as usize;
                self.marked[w] &= !(1 << bit);
                let position = self.start + (w * 64 + bit) as u32;
                self.below = position;
                return Some((position, self.preds.remove(&position).unwrap_or_default()));
            }
        }
        None
    }
}

/// One predicate equivalent to all of `preds` (on one variable, made true by one atom
/// whose own predicate is `atom`), or the atom's predicate where it implies them all.
fn conjunction(preds: &[Pred], atom: Pred) -> Option<Pred> {
    let var = atom.var as usize;
    let (mut low, mut high) = (None::<u32>, None::<u32>);
    let mut holes = Vec::new();
    for &p in preds {
        match p.rel {
            Rel::Ge => low = low.max(Some(p.value)),
            Rel::Le => high = Some(high.map_or(p.value, |h| h.min(p.value))),
            Rel::Eq => {
                low = low.max(Some(p.value));
                high = Some(high.map_or(p.value, |h| h.min(p.value)));
            }
            Rel::Ne => holes.push(p.value),
        }
    }
    holes.retain(|&v| low.is_none_or(|l| v >= l) && high.is_none_or(|h| v <= h));
    holes.sort_unstable();
    holes.dedup();
    match (low, high, holes.as_slice()) {
        (Some(l), Some(h), _) if l == h => Some(Pred::eq(var, l)),
        (Some(l), None, []) => Some(Pred::ge(var, l)),
        (None, Some(h), []) => Some(Pred::le(var, h)),
        (None, None, &[v]) => Some(Pred::ne(var, v)),
        _ => preds.iter().all(|&p| implies(atom, p)).then_some(atom),
    }
}

/// Whether `p` true makes `q` true.
pub(crate) fn implies(p: Pred, q: Pred) -> bool {
    if p.var != q.var {
        return false;
    }
    match (p.rel, q.rel) {
        (Rel::Ge, Rel::Ge) => p.value >= q.value,
        (Rel::Ge, Rel::Ne) => q.value < p.value,
        (Rel::Le, Rel::Le) => p.value <= q.value,
        (Rel::Le, Rel::Ne) => q.value > p.value,
        (Rel::Eq, _) => q.accepts(p.value),
        (Rel::Ne, Rel::Ne) => p.value == q.value,
        _ => false,
    }
}

/// The predicates without those another of them implies (each once).
fn simplify(mut preds: Vec<Pred>) -> Vec<Pred> {
    preds.sort_unstable();
    preds.dedup();
    let mut kept: Vec<Pred> = Vec::with_capacity(preds.len());
    let mut start = 0;
    while start < preds.len() {
        let var = preds[start].var;
        let end = start + preds[start..].iter().take_while(|p| p.var == var).count();
        let mut group = preds[start..end].to_vec();
        // Bounds meeting are the value: `x >= v` and `x <= v` fold to `x == v`.
        let low = group
            .iter()
            .filter(|p| p.rel == Rel::Ge)
            .map(|p| p.value)
            .max();
        let high = group
            .iter()
            .filter(|p| p.rel == Rel::Le)
            .map(|p| p.value)
            .min();
        if let (Some(low), Some(high)) = (low, high) {
            if low == high {
                group.push(Pred::eq(var as usize, low));
            }
        }
        for (i, &q) in group.iter().enumerate() {
            let implied = group
                .iter()
                .enumerate()
                .any(|(j, &p)| j != i && implies(p, q) && !(implies(q, p) && j > i));
            if !implied {
                kept.push(q);
            }
        }
        start = end;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conjunctions_fold_to_one_predicate() {
        let ge = |v| Pred::ge(0, v);
        let le = |v| Pred::le(0, v);
        assert_eq!(conjunction(&[ge(3), ge(5)], ge(6)), Some(ge(5)));
        assert_eq!(conjunction(&[ge(5), le(5)], le(5)), Some(Pred::eq(0, 5)));
        assert_eq!(
            conjunction(&[ge(3), Pred::ne(0, 4)], ge(6)),
            Some(ge(6)),
            "the atom's own predicate implies both"
        );
        assert_eq!(conjunction(&[ge(3), Pred::ne(0, 1)], ge(6)), Some(ge(3)));
        assert_eq!(
            conjunction(&[Pred::eq(0, 4), Pred::ne(0, 7)], le(4)),
            Some(Pred::eq(0, 4))
        );
    }

    #[test]
    fn simplifying_keeps_the_strongest() {
        let preds = vec![
            Pred::ge(0, 3),
            Pred::ge(0, 5),
            Pred::ne(0, 2),
            Pred::ne(0, 9),
            Pred::le(1, 4),
            Pred::eq(1, 2),
            Pred::ge(0, 5),
            Pred::ge(2, 7),
            Pred::le(2, 7),
            Pred::ne(2, 3),
        ];
        assert_eq!(
            simplify(preds),
            [
                Pred::ge(0, 5),
                Pred::ne(0, 9),
                Pred::eq(1, 2),
                Pred::eq(2, 7)
            ],
            "bounds that meet fold to an equality"
        );
    }
}
