//! `Model` methods for all-different constraints: over any values, and over integers with
//! offsets (`q[i] + i`).

use std::hash::Hash;
use std::sync::Arc;

use hashbrown::{HashMap, HashSet};

use super::{AllDifferentDef, Constraint, Integer, KeyRun, Keys, Model, TermKeys, images};
use crate::var::{Var, VarId};

impl<'a> Model<'a> {
    /// The values of `vars` are pairwise different. Takes anything iterating over
    /// variables: `&q`, `&[a, b, c]`, `q.iter().step_by(2)`.
    pub fn all_different<'v, T: Eq + Hash + 'v>(
        &mut self,
        vars: impl IntoIterator<Item = &'v Var<T>>,
    ) {
        let vars: Vec<&Var<T>> = vars.into_iter().collect();
        if !self.owns(vars.iter().copied()) {
            return;
        }
        let ids: Vec<VarId> = vars.iter().map(|v| v.id).collect();
        // The common case: every variable shares one value list. Its keys are the position
        // of each value's first occurrence (found without hashing for short lists).
        if let Some(first) = vars.first() {
            if vars.iter().all(|v| Arc::ptr_eq(&v.values, &first.values)) {
                let keys = Keys::from_images(first_positions(&first.values));
                return self.all_different_keys(ids, TermKeys::same(keys, vars.len()));
            }
        }
        let mut interned: HashMap<&T, i64> = HashMap::new();
        // Variables sharing one value list share its keys: compute them once per list.
        let mut per_list: HashMap<*const T, Keys> = HashMap::new();
        let mut runs: Vec<KeyRun> = Vec::new();
        for var in vars {
            let list_keys = per_list.entry(var.values.as_ptr()).or_insert_with(|| {
                let images: Vec<i64> = var
                    .values
                    .iter()
                    .map(|value| {
                        let next = interned.len() as i64;
                        *interned.entry(value).or_insert(next)
                    })
                    .collect();
                Keys::from_images(images)
            });
            let universe = u32::try_from(var.values.len()).unwrap_or(u32::MAX);
            if !runs
                .last_mut()
                .is_some_and(|run| run.extend(list_keys, 0, universe))
            {
                runs.push(KeyRun::new(list_keys.clone(), 0, universe));
            }
        }
        match Keys::fit(&runs) {
            Ok(keys) => self.all_different_keys(ids, keys),
            Err(message) => self.fail(message),
        }
    }

    /// The values `x_i + offset_i` are pairwise different: `all_different(q[i] + i)` is
    /// `all_different_offset(q.iter().zip(0..))`.
    pub fn all_different_offset<'v, T: Integer + 'v>(
        &mut self,
        terms: impl IntoIterator<Item = (&'v Var<T>, i64)>,
    ) {
        let mut ids = Vec::new();
        // Terms as runs of one value list with offsets in arithmetic progression (one run
        // for `q[i] + i`), so that a million terms cost no more than one.
        let mut runs: Vec<KeyRun> = Vec::new();
        // Variables sharing one value list share its images: compute them once per list.
        let mut per_list: HashMap<*const T, Keys> = HashMap::new();
        for (var, offset) in terms {
            if !self.owns([var]) {
                return;
            }
            let base = match per_list.get(&var.values.as_ptr()) {
                Some(base) => base,
                None => match images(&var.values) {
                    Ok(images) => per_list
                        .entry(var.values.as_ptr())
                        .or_insert(Keys::from_images(images)),
                    Err(at) => return self.out_of_range(var.id, at),
                },
            };
            let universe = u32::try_from(var.values.len()).unwrap_or(u32::MAX);
            if !runs
                .last_mut()
                .is_some_and(|run| run.extend(base, offset, universe))
            {
                runs.push(KeyRun::new(base.clone(), offset, universe));
            }
            ids.push(var.id);
        }
        // Offsets near the ends of i64 push keys out of it: `fit` renumbers them exactly.
        match Keys::fit(&runs) {
            Ok(keys) => self.all_different_keys(ids, keys),
            Err(message) => self.fail(message),
        }
    }

    fn all_different_keys(&mut self, vars: Vec<VarId>, keys: TermKeys) {
        if self.known(&vars) {
            self.constraints
                .push(Constraint::AllDifferent(AllDifferentDef { vars, keys }));
        }
    }
}

/// For each value of `list`, the position of its first occurrence: `0, 1, 2, ..` when
/// the values are distinct (found without hashing for short lists, and without a map
/// when they are all distinct).
fn first_positions<T: Eq + Hash>(list: &[T]) -> Vec<i64> {
    if list.len() <= 32 {
        return (0..list.len())
            .map(|i| list.iter().position(|v| *v == list[i]).unwrap_or(i) as i64)
            .collect();
    }
    let mut seen: HashSet<&T> = HashSet::with_capacity(list.len());
    if list.iter().all(|v| seen.insert(v)) {
        return (0..list.len() as i64).collect();
    }
    drop(seen);
    let mut first: HashMap<&T, i64> = HashMap::with_capacity(list.len());
    list.iter()
        .enumerate()
        .map(|(i, v)| *first.entry(v).or_insert(i as i64))
        .collect()
}
