//! Which constraints each variable is in, and at which position: built once in
//! O(total arity), without a list per variable for the few constraints that span a long
//! run of consecutive variables (n-queens' three all-differents over a million rows).

use crate::model::Constraint;

/// A constraint whose variables are `first, first + 1, ..` (`len` of them): a variable's
/// position in it is its distance from `first`.
#[derive(Clone, Copy, Debug)]
struct Wide {
    constraint: u32,
    first: u32,
    len: u32,
}

/// Constraints over at least this many consecutive variables are kept as a range.
const WIDE_LEN: usize = 64;

/// At most this many constraints are kept as ranges (every variable looks at each).
const MAX_WIDE: usize = 8;

/// Per variable, its constraints and its position in each (the first one, when a
/// constraint names a variable twice).
#[derive(Debug, Default)]
pub(super) struct Index {
    wide: Vec<Wide>,
    /// `entries[offsets[x]..offsets[x + 1]]` are the other constraints of `x`; empty when
    /// no variable has one.
    offsets: Vec<u32>,
    entries: Vec<(u32, u32)>,
    /// Per constraint: whether it names a variable more than once.
    repeats: Vec<bool>,
}

impl Index {
    /// The index of `constraints` over `num_vars` variables.
    ///
    /// # Errors
    /// A message if the constraints name variables more than `u32::MAX` times in all.
    pub(super) fn new(num_vars: usize, constraints: &[Constraint<'_>]) -> Result<Self, String> {
        let mut wide = Vec::new();
        let mut is_wide = vec![false; constraints.len()];
        for (c, constraint) in constraints.iter().enumerate() {
            let len = constraint.arity();
            if wide.len() < MAX_WIDE && len >= WIDE_LEN {
                let first = constraint.var_at(0).index();
                if (1..len).all(|p| constraint.var_at(p).index() == first + p) {
                    is_wide[c] = true;
                    wide.push(Wide {
                        constraint: c as u32,
                        first: first as u32,
                        len: len as u32,
                    });
                }
            }
        }
        // Count each variable's other constraints (once per constraint), noting repeats.
        let mut repeats = vec![false; constraints.len()];
        let mut last: Vec<u32> = Vec::new();
        let mut degree: Vec<u32> = Vec::new();
        let narrow = |c: usize| !is_wide[c];
        let mut total: u64 = 0;
        for (c, constraint) in constraints.iter().enumerate().filter(|&(c, _)| narrow(c)) {
            if degree.is_empty() {
                degree = vec![0; num_vars];
                last = vec![u32::MAX; num_vars];
            }
            for p in 0..constraint.arity() {
                let x = constraint.var_at(p).index();
                if last[x] == c as u32 {
                    repeats[c] = true;
                } else {
                    last[x] = c as u32;
                    degree[x] += 1;
                    total += 1;
                }
            }
        }
        if total > u64::from(u32::MAX) {
            return Err(format!(
                "local search: the constraints name variables {total} times, more than u32::MAX"
            ));
        }
        if degree.is_empty() {
            return Ok(Index {
                wide,
                offsets: Vec::new(),
                entries: Vec::new(),
                repeats,
            });
        }
        drop(last);
        // Prefix sums, then fill (each variable's entries in constraint order).
        let mut offsets = Vec::with_capacity(num_vars + 1);
        let mut sum = 0u32;
        offsets.push(0);
        for d in &degree {
            sum += d;
            offsets.push(sum);
        }
        let mut fill = degree;
        fill.copy_from_slice(&offsets[..num_vars]);
        let mut entries = vec![(0u32, 0u32); total as usize];
        for (c, constraint) in constraints.iter().enumerate().filter(|&(c, _)| narrow(c)) {
            for p in 0..constraint.arity() {
                let x = constraint.var_at(p).index();
                let at = fill[x] as usize;
                // A repeated variable keeps its first position.
                if at > offsets[x] as usize && entries[at - 1].0 == c as u32 {
                    continue;
                }
                entries[at] = (c as u32, p as u32);
                fill[x] += 1;
            }
        }
        Ok(Index {
            wide,
            offsets,
            entries,
            repeats,
        })
    }

    /// Whether constraint `c` names some variable more than once.
    pub(super) fn repeats(&self, c: usize) -> bool {
        self.repeats[c]
    }

    /// Puts the constraints of `x` and its position in each into `out` (cleared first).
    #[inline]
    pub(super) fn gather(&self, x: usize, out: &mut Vec<(u32, u32)>) {
        out.clear();
        for w in &self.wide {
            let at = (x as u32).wrapping_sub(w.first);
            if at < w.len {
                out.push((w.constraint, at));
            }
        }
        if let (Some(&from), Some(&to)) = (self.offsets.get(x), self.offsets.get(x + 1)) {
            out.extend_from_slice(&self.entries[from as usize..to as usize]);
        }
    }
}
