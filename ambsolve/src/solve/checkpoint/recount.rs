//! The check that a resumed checkpoint was written by the model resuming it: a few of
//! its finished subproblems, chosen at random, are searched again and must count what
//! the file records.
//!
//! The fingerprint of a search sees the model's structure (its variables, values, the
//! kinds and scopes of its constraints) but not its closures: two models that differ only
//! in a predicate (`require` with another condition), a custom propagator or a symmetry
//! map have the same fingerprint. Closures cannot be hashed, so their *behaviour* is
//! sampled instead: before a count resumes, up to [`MOST`] finished subproblems are
//! searched again, and each must find the same solutions, counted the same way, in the
//! same number of nodes (a search is deterministic: the same model and options always
//! make the same tree below a subproblem). Any difference refuses the file.
//!
//! **Detected:** a model (or an engine, a strategy, a version of the library) whose search
//! differs in one of the subproblems searched again: another count there, or the same
//! count reached through another number of nodes (which a different predicate, cutting
//! the tree elsewhere, usually gives). **Not detected:** a model that searches exactly as
//! the recorded one in every subproblem searched again and differs only in others; the
//! subproblems are chosen at random (with a seed drawn from the file's checks, so the
//! same file is checked the same way each time), so such a model is missed with
//! probability about (1 - d)^k, where d is the share of finished subproblems in which it
//! differs and k the number searched again.
//!
//! **Cost:** the subproblems searched again are chosen among those whose recorded nodes
//! fit in 1/[`SHARE`] of the finished subproblems' nodes added up; if none fits (few
//! finished subproblems), the one with the fewest nodes is searched again. Each search
//! is stopped one node past its recorded nodes. A search cancelled or out of time while
//! checking ends the check (the count then stops at once, on the same limit).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Checkpoint, Entry, at_line};
use crate::choice::{Scope, Subproblem};
use crate::control::{Control, Interrupt};
use crate::error::SearchError;
use crate::limits::{Limits, StopReason};
use crate::model::Model;
use crate::options::Options;
use crate::solve::{engine_with, symmetry_tables};

/// At most this many finished subproblems are searched again.
pub(crate) const MOST: usize = 8;

/// Their recorded nodes add up to at most this fraction (1/SHARE) of all finished
/// subproblems' nodes.
pub(crate) const SHARE: u64 = 16;

/// Searches a few of `checkpoint`'s finished subproblems again (see the module's
/// documentation) and compares what they count with what it records.
///
/// # Errors
/// [`SearchError::Checkpoint`] naming the first entry whose subproblem counts otherwise;
/// the engines' errors.
pub(crate) fn recount(
    model: &Arc<Model<'_>>,
    options: &Options,
    subproblems: &[Subproblem],
    checkpoint: &Checkpoint,
) -> Result<(), SearchError> {
    let chosen = choose(checkpoint.done(), checkpoint.seed);
    if chosen.is_empty() {
        return Ok(());
    }
    let symmetry = symmetry_tables(model, options)?;
    for index in chosen {
        let recorded = checkpoint.done()[&index];
        let mut one = options.clone();
        one.threads = 1;
        one.checkpoint = None;
        one.observer = None;
        one.scope = Scope {
            prefix: subproblems[index].path().to_vec(),
            cutoff: None,
        };
        let mut engine = engine_with(model, &one, symmetry.clone())?;
        let mut control = Control::new(Limits {
            nodes: Some(recorded.nodes.saturating_add(1)),
            time: options.limits.time,
            cancel: options.limits.cancel.clone(),
            ..Limits::default()
        });
        let counted = engine.count(&mut control, u64::MAX)?;
        let again = Entry {
            found: counted.found,
            weighted: counted.weighted,
            nodes: engine.stats().nodes,
        };
        let more = match counted.end {
            Some(Interrupt::Stop(StopReason::Exhausted)) => "",
            Some(Interrupt::Stop(StopReason::NodeLimit)) => "more than ",
            // Cancelled, out of time: the count stops too.
            _ => return Ok(()),
        };
        if !more.is_empty() || again != recorded {
            return Err(at_line(
                &checkpoint.path,
                checkpoint.line_of(index),
                format!(
                    "subproblem {index} ({}), searched again, finds {} solutions ({} \
                     counted) in {more}{} nodes, but the checkpoint records {} ({} \
                     counted) in {} nodes: it was written by another model (one that \
                     differs where the fingerprint cannot see, in a closure) or another \
                     version of the search: refusing to resume from it",
                    subproblems[index],
                    again.found,
                    again.weighted,
                    again.nodes,
                    recorded.found,
                    recorded.weighted,
                    recorded.nodes
                ),
            ));
        }
    }
    Ok(())
}

/// The finished subproblems to search again, in the order to search them: at random
/// (from `seed`), as many as fit the budget, at most [`MOST`]; the cheapest one if none
/// fits.
pub(crate) fn choose(done: &BTreeMap<usize, Entry>, seed: u64) -> Vec<usize> {
    let all: u64 = done
        .values()
        .fold(0u64, |sum, e| sum.saturating_add(e.nodes));
    let mut left = all / SHARE;
    let mut order: Vec<(usize, u64)> = done.iter().map(|(&i, e)| (i, e.nodes)).collect();
    // Fisher-Yates with splitmix64: the same seed, the same order, on every platform.
    let mut state = seed;
    for k in (1..order.len()).rev() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        order.swap(k, (z % (k as u64 + 1)) as usize);
    }
    let mut chosen = Vec::new();
    for &(index, nodes) in &order {
        if chosen.len() == MOST {
            break;
        }
        if nodes <= left {
            left -= nodes;
            chosen.push(index);
        }
    }
    if chosen.is_empty() {
        chosen.extend(
            order
                .iter()
                .min_by_key(|&&(_, nodes)| nodes)
                .map(|&(i, _)| i),
        );
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(nodes: &[u64]) -> BTreeMap<usize, Entry> {
        nodes
            .iter()
            .enumerate()
            .map(|(i, &nodes)| {
                let entry = Entry {
                    found: 1,
                    weighted: 1,
                    nodes,
                };
                (i, entry)
            })
            .collect()
    }

    #[test]
    fn the_chosen_fit_the_budget_and_depend_only_on_the_seed() {
        let done = entries(&(0..1000).map(|i| 10 + i % 37).collect::<Vec<_>>());
        let all: u64 = done.values().map(|e| e.nodes).sum();
        for seed in 0..50 {
            let chosen = choose(&done, seed);
            assert_eq!(chosen.len(), MOST, "{seed}");
            let cost: u64 = chosen.iter().map(|i| done[i].nodes).sum();
            assert!(cost <= all / SHARE, "{seed}: {cost}");
            assert_eq!(choose(&done, seed), chosen, "deterministic");
            let mut distinct = chosen.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), chosen.len());
        }
        assert_ne!(choose(&done, 1), choose(&done, 2), "the seed chooses");
    }

    #[test]
    fn with_few_finished_the_cheapest_is_searched_again() {
        assert_eq!(choose(&entries(&[500, 40, 900]), 7), [1]);
        assert_eq!(choose(&entries(&[]), 7), Vec::<usize>::new());
        // A big one does not hide the small ones that fit.
        let mut done = entries(&[1; 20]);
        done.insert(
            20,
            Entry {
                found: 0,
                weighted: 0,
                nodes: 10_000,
            },
        );
        let chosen = choose(&done, 3);
        assert_eq!(chosen.len(), MOST);
        assert!(!chosen.contains(&20));
    }
}
