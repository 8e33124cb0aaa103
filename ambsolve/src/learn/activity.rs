//! Activity-based search (VSIDS): each variable's activity grows when it takes part in a
//! conflict and decays over time; the search decides on the most active variable not
//! fixed, on the value it last had (phase saving) or, optimising, the value it had in the
//! best solution.

/// Activities, the heap that ranks them, and the saved phases.
pub(crate) struct Activity {
    score: Vec<f64>,
    bump: f64,
    /// A binary max-heap of variables by score; `at[v]` is `v`'s slot, or `NONE`.
    heap: Vec<u32>,
    at: Vec<u32>,
    /// Per variable, the value index to try first, or `NONE`.
    phase: Vec<u32>,
}

const NONE: u32 = u32::MAX;
/// Activities decay by this factor per conflict (the bump grows by its inverse).
const DECAY: f64 = 0.95;

impl Activity {
    /// Every variable in the heap, ranked first by `order` (a lower rank first while
    /// activities are equal).
    pub(crate) fn new(order: &[usize]) -> Self {
        let n = order.len();
        let mut score = vec![0.0; n];
        // Tiny initial scores keep the given order until conflicts speak.
        for (rank, &var) in order.iter().enumerate() {
            score[var] = (n - rank) as f64 * 1e-12;
        }
        let mut activity = Activity {
            score,
            bump: 1.0,
            heap: Vec::with_capacity(n),
            at: vec![NONE; n],
            phase: vec![NONE; n],
        };
        for &var in order {
            activity.insert(var as u32);
        }
        activity
    }

    /// Puts `var` back among the candidates (after backtracking freed it).
    pub(crate) fn insert(&mut self, var: u32) {
        if self.at[var as usize] != NONE {
            return;
        }
        self.at[var as usize] = self.heap.len() as u32;
        self.heap.push(var);
        self.up(self.heap.len() - 1);
    }

    /// The most active candidate, taken out of the heap.
    pub(crate) fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("not empty");
        self.at[top as usize] = NONE;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.at[last as usize] = 0;
            self.down(0);
        }
        Some(top)
    }

    /// `var` took part in a conflict.
    pub(crate) fn bump(&mut self, var: u32) {
        let v = var as usize;
        self.score[v] += self.bump;
        if self.score[v] > 1e100 {
            for s in &mut self.score {
                *s *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        if self.at[v] != NONE {
            self.up(self.at[v] as usize);
        }
    }

    /// After each conflict: older bumps weigh less.
    pub(crate) fn decay(&mut self) {
        self.bump /= DECAY;
    }

    pub(crate) fn phase(&self, var: usize) -> Option<u32> {
        Some(self.phase[var]).filter(|&p| p != NONE)
    }

    pub(crate) fn save_phase(&mut self, var: usize, index: u32) {
        self.phase[var] = index;
    }

    fn better(&self, a: u32, b: u32) -> bool {
        self.score[a as usize] > self.score[b as usize]
    }

    fn up(&mut self, mut slot: usize) {
        let var = self.heap[slot];
        while slot > 0 {
            let parent = (slot - 1) / 2;
            if !self.better(var, self.heap[parent]) {
                break;
            }
            self.heap[slot] = self.heap[parent];
            self.at[self.heap[slot] as usize] = slot as u32;
            slot = parent;
        }
        self.heap[slot] = var;
        self.at[var as usize] = slot as u32;
    }

    fn down(&mut self, mut slot: usize) {
        let var = self.heap[slot];
        loop {
            let left = 2 * slot + 1;
            if left >= self.heap.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.heap.len() && self.better(self.heap[right], self.heap[left])
            {
                right
            } else {
                left
            };
            if !self.better(self.heap[child], var) {
                break;
            }
            self.heap[slot] = self.heap[child];
            self.at[self.heap[slot] as usize] = slot as u32;
            slot = child;
        }
        self.heap[slot] = var;
        self.at[var as usize] = slot as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::Activity;

    #[test]
    fn the_most_active_comes_first_then_the_given_order() {
        let mut a = Activity::new(&[2, 0, 1, 3]);
        a.bump(3);
        a.decay();
        a.bump(1);
        a.bump(1);
        let order: Vec<u32> = std::iter::from_fn(|| a.pop()).collect();
        assert_eq!(order, [1, 3, 2, 0]);
        a.insert(0);
        a.insert(2);
        assert_eq!(a.pop(), Some(2));
    }
}
