//! How many variables hold each key of an all-different, in O(1) per move.
//!
//! A slot per key packs the number of occupants (high half) with, while the key is
//! occupied, the XOR of its occupants' ids (low half): when a second variable arrives
//! the first one is known, and becomes conflicted. A free key's low half is instead its
//! position in the list of free keys, kept for constraints whose keys are scarce (about
//! as many keys as variables: the columns of n-queens), where a free key cannot be found
//! by chance. Keys spanning a small range live in a `Vec`, others in a hash map.

use hashbrown::HashMap;

use crate::model::{AllDifferentDef, Keys};

/// Keys are held in a `Vec` when they span at most this many per variable (plus a
/// little).
const DENSE_PER_VAR: u128 = 4;

/// Free keys are listed when the keys span at most 1.5 keys per variable.
fn scarce(span: u128, vars: u128) -> bool {
    2 * span <= 3 * vars + 2
}

const ONE: u64 = 1 << 32;
const LOW: u64 = ONE - 1;

#[derive(Debug)]
enum Slots {
    /// Slot of key `k` at `k - base`.
    Dense { base: i64, slots: Vec<u64> },
    /// Occupied keys only.
    Sparse(HashMap<i64, u64>),
}

/// The occupants of an all-different's keys.
#[derive(Debug)]
pub(super) struct Occupancy {
    slots: Slots,
    /// Free keys (offsets from `base`), listed only when keys are scarce.
    free: Option<Vec<u32>>,
    /// Per distinct key map of a term: each key's value index (for `Keys::Map` terms).
    /// (The map is named by its address, only compared.)
    inverses: Vec<(usize, HashMap<i64, u32>)>,
}

/// What adding an occupant to a key found there.
pub(super) struct Added {
    /// Occupants before.
    pub(super) before: u32,
    /// The one occupant there was, when there was exactly one.
    pub(super) other: Option<u32>,
}

impl Occupancy {
    /// Empty keys for the all-different `def` whose variables have `universes` values.
    pub(super) fn new(def: &AllDifferentDef, universes: &[u32]) -> Self {
        let mut low = i128::MAX;
        let mut high = i128::MIN;
        let mut spans: HashMap<*const i64, (i64, i64)> = HashMap::new();
        let mut inverses: Vec<(usize, HashMap<i64, u32>)> = Vec::new();
        for p in 0..def.vars.len() {
            let universe = universes[def.vars[p].index()];
            if universe == 0 {
                continue;
            }
            let (keys, extra) = def.term(p);
            let (first, last) = match keys {
                Keys::Shift(shift) => (*shift, shift + i64::from(universe) - 1),
                Keys::Map(map, offset) => {
                    let ptr = map.as_ptr();
                    if !inverses.iter().any(|(q, _)| *q == ptr as usize) {
                        let mut inverse = HashMap::with_capacity(map.len());
                        for (i, &k) in map.iter().enumerate() {
                            inverse.entry(k).or_insert(i as u32);
                        }
                        inverses.push((ptr as usize, inverse));
                    }
                    let (a, b) = *spans.entry(ptr).or_insert_with(|| {
                        let a = map.iter().copied().min().unwrap_or(0);
                        (a, map.iter().copied().max().unwrap_or(0))
                    });
                    (a + offset, b + offset)
                }
            };
            low = low.min(i128::from(first) + i128::from(extra));
            high = high.max(i128::from(last) + i128::from(extra));
        }
        let vars = def.vars.len() as u128;
        let span = if low > high {
            0
        } else {
            (high - low + 1) as u128
        };
        let dense = span <= DENSE_PER_VAR * vars + 64 && i64::try_from(low).is_ok();
        let (slots, free) = if dense {
            let base = i64::try_from(low).unwrap_or(0);
            let slots = Slots::Dense {
                base,
                slots: vec![0; span as usize],
            };
            let free = scarce(span, vars).then(|| Vec::with_capacity(span as usize));
            (slots, free)
        } else {
            (Slots::Sparse(HashMap::new()), None)
        };
        let mut occupancy = Occupancy {
            slots,
            free,
            inverses,
        };
        occupancy.clear();
        occupancy
    }

    /// Every key free again.
    pub(super) fn clear(&mut self) {
        match &mut self.slots {
            Slots::Dense { slots, .. } => match &mut self.free {
                Some(free) => {
                    free.clear();
                    for (k, slot) in slots.iter_mut().enumerate() {
                        *slot = k as u64;
                        free.push(k as u32);
                    }
                }
                None => slots.fill(0),
            },
            Slots::Sparse(map) => map.clear(),
        }
    }

    #[inline]
    fn slot(&self, key: i64) -> u64 {
        match &self.slots {
            Slots::Dense { base, slots } => slots[(key - base) as usize],
            Slots::Sparse(map) => map.get(&key).copied().unwrap_or(0),
        }
    }

    /// How many variables hold `key`.
    #[inline]
    pub(super) fn count(&self, key: i64) -> u32 {
        (self.slot(key) >> 32) as u32
    }

    /// Variable `x` takes `key`.
    #[inline]
    pub(super) fn add(&mut self, key: i64, x: u32) -> Added {
        match &mut self.slots {
            Slots::Dense { base, slots } => {
                let k = (key - *base) as usize;
                let slot = slots[k];
                let before = (slot >> 32) as u32;
                if before == 0 {
                    if let Some(free) = &mut self.free {
                        // Take the key out of the free list: the last free key fills its place.
                        let at = (slot & LOW) as usize;
                        let last = free.pop().expect("a free key is listed");
                        if last as usize != k {
                            free[at] = last;
                            let moved = &mut slots[last as usize];
                            *moved = (*moved & !LOW) | at as u64;
                        }
                    }
                    slots[k] = ONE | u64::from(x);
                    return Added {
                        before,
                        other: None,
                    };
                }
                slots[k] = (slot + ONE) ^ u64::from(x);
                Added {
                    before,
                    other: (before == 1).then_some((slot & LOW) as u32),
                }
            }
            Slots::Sparse(map) => {
                let slot = map.entry(key).or_insert(0);
                let before = (*slot >> 32) as u32;
                let other = (before == 1).then_some((*slot & LOW) as u32);
                *slot = (*slot + ONE) ^ u64::from(x);
                Added { before, other }
            }
        }
    }

    /// Variable `x` leaves `key`; returns how many held it before.
    #[inline]
    pub(super) fn remove(&mut self, key: i64, x: u32) -> u32 {
        match &mut self.slots {
            Slots::Dense { base, slots } => {
                let k = (key - *base) as usize;
                let slot = slots[k];
                let before = (slot >> 32) as u32;
                debug_assert!(before > 0, "a key left by a variable that does not hold it");
                if before == 1 {
                    slots[k] = match &mut self.free {
                        Some(free) => {
                            free.push(k as u32);
                            (free.len() - 1) as u64
                        }
                        None => 0,
                    };
                } else {
                    slots[k] = (slot - ONE) ^ u64::from(x);
                }
                before
            }
            Slots::Sparse(map) => {
                let slot = map.get_mut(&key).expect("a key held by a variable");
                let before = (*slot >> 32) as u32;
                if before == 1 {
                    map.remove(&key);
                } else {
                    *slot = (*slot - ONE) ^ u64::from(x);
                }
                before
            }
        }
    }

    /// How many keys are free, when free keys are listed (else 0).
    #[inline]
    pub(super) fn free_count(&self) -> usize {
        self.free.as_ref().map_or(0, Vec::len)
    }

    /// The free key at position `at` of the list (`at < free_count()`). Positions say
    /// nothing about keys: a position drawn at random gives a free key at random, and the
    /// next positions are more free keys in the same cache line.
    #[inline]
    pub(super) fn free_key(&self, at: usize) -> i64 {
        let (Some(free), Slots::Dense { base, .. }) = (&self.free, &self.slots) else {
            unreachable!("free keys are listed only for dense keys")
        };
        base + i64::from(free[at])
    }

    /// Whether free keys are listed (else they are found by drawing values).
    pub(super) fn lists_free(&self) -> bool {
        self.free.is_some()
    }

    /// The value index that gives `key` to the term whose keys are `keys` plus `extra`,
    /// among `universe` values, if there is one.
    #[inline]
    pub(super) fn value_of(&self, keys: &Keys, extra: i64, key: i64, universe: u32) -> Option<u32> {
        match keys {
            Keys::Shift(shift) => {
                let index = i128::from(key) - i128::from(*shift) - i128::from(extra);
                u32::try_from(index).ok().filter(|&i| i < universe)
            }
            Keys::Map(map, offset) => {
                let ptr = map.as_ptr() as usize;
                let (_, inverse) = self.inverses.iter().find(|(q, _)| *q == ptr)?;
                let base = i128::from(key) - i128::from(*offset) - i128::from(extra);
                inverse.get(&i64::try_from(base).ok()?).copied()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TermKeys;
    use crate::var::VarId;

    fn def(n: u32, shifts: &[i64]) -> AllDifferentDef {
        AllDifferentDef {
            vars: (0..n).map(VarId::at).collect(),
            keys: TermKeys::Listed(shifts.iter().map(|&s| Keys::Shift(s)).collect()),
        }
    }

    #[test]
    fn counts_occupants_and_names_the_first_one_when_a_second_arrives() {
        let d = def(3, &[0, 0, 0]);
        let mut o = Occupancy::new(&d, &[3, 3, 3]);
        assert!(o.lists_free());
        assert_eq!(o.add(1, 0).before, 0);
        let added = o.add(1, 2);
        assert_eq!((added.before, added.other), (1, Some(0)));
        assert_eq!(o.count(1), 2);
        assert_eq!(o.remove(1, 0), 2);
        // The one left is 2: a third arrival names it.
        assert_eq!(o.add(1, 1).other, Some(2));
    }

    #[test]
    fn free_keys_are_the_unoccupied_ones() {
        let d = def(4, &[0, 0, 0, 0]);
        let mut o = Occupancy::new(&d, &[4, 4, 4, 4]);
        o.add(0, 0);
        o.add(2, 1);
        o.add(3, 2);
        let free = |o: &Occupancy| {
            let mut keys: Vec<i64> = (0..o.free_count()).map(|at| o.free_key(at)).collect();
            keys.sort_unstable();
            keys
        };
        assert_eq!(free(&o), [1]);
        o.remove(2, 1);
        assert_eq!(free(&o), [1, 2]);
        o.add(1, 3);
        o.add(2, 1);
        assert_eq!(o.free_count(), 0);
    }

    #[test]
    fn wide_key_ranges_are_hashed() {
        let d = AllDifferentDef {
            vars: vec![VarId::at(0), VarId::at(1)],
            keys: TermKeys::Listed(vec![Keys::Shift(0), Keys::Shift(1 << 40)]),
        };
        let mut o = Occupancy::new(&d, &[2, 2]);
        assert!(!o.lists_free());
        o.add(1 << 40, 1);
        assert_eq!(o.count(1 << 40), 1);
        assert_eq!(o.remove(1 << 40, 1), 1);
        assert_eq!(o.count(1 << 40), 0);
    }
}
