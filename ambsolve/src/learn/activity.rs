//! Activity-based search (VSIDS): each variable's and each predicate's activity grows when
//! it takes part in a conflict and decays over time. The search decides on the most
//! active variable not fixed, on the value it last had (phase saving) or, optimising, the
//! value it had in the best solution; or on the most active predicate still open
//! ([`Predicates`]).

use hashbrown::HashMap;

use crate::store::{Pred, Store};

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

    /// One more candidate, of no activity yet, in the heap: its index.
    pub(crate) fn grow(&mut self) -> u32 {
        let id = self.score.len() as u32;
        self.score.push(0.0);
        self.at.push(NONE);
        self.phase.push(NONE);
        self.insert(id);
        id
    }

    /// The most active candidate, left in the heap.
    pub(crate) fn peek(&self) -> Option<u32> {
        self.heap.first().copied()
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

/// Activities of predicates (VSIDS over the predicates that take part in conflicts, as
/// Pumpkin's autonomous search): the search decides the most active predicate not yet
/// true or false, true or false as it last was (in the best solution, when optimising,
/// after one is found), true the first time.
pub(crate) struct Predicates {
    ids: HashMap<Pred, u32>,
    preds: Vec<Pred>,
    heap: Activity,
    /// Per predicate, the truth value to decide.
    polarity: Vec<bool>,
    /// Predicates out of the heap because they were true or false: back in when a
    /// backjump leaves them open.
    dormant: Vec<u32>,
    /// Per variable, whether its predicates are left out (a cost's variables, decided
    /// at their cheap end instead).
    skip: Vec<bool>,
}

impl Predicates {
    pub(crate) fn new(skip: Vec<bool>) -> Self {
        Predicates {
            skip,
            ids: HashMap::new(),
            preds: Vec::new(),
            heap: Activity::new(&[]),
            polarity: Vec::new(),
            dormant: Vec::new(),
        }
    }

    /// `pred` took part in a conflict.
    pub(crate) fn bump(&mut self, pred: Pred) {
        if self.skip[pred.var as usize] {
            return;
        }
        let id = match self.ids.get(&pred) {
            Some(&id) => id,
            None => {
                let id = self.heap.grow();
                self.ids.insert(pred, id);
                self.preds.push(pred);
                self.polarity.push(true);
                id
            }
        };
        self.heap.bump(id);
    }

    /// After each conflict: older bumps weigh less.
    pub(crate) fn decay(&mut self) {
        self.heap.decay();
    }

    /// The predicate to decide: the most active one open, as its polarity says.
    pub(crate) fn next(&mut self, store: &Store) -> Option<Pred> {
        loop {
            let id = self.heap.peek()?;
            let pred = self.preds[id as usize];
            let value = if store.holds(pred) {
                true
            } else if store.refutes(pred) {
                false
            } else {
                return if self.polarity[id as usize] {
                    Some(pred)
                } else {
                    pred.negated()
                };
            };
            self.polarity[id as usize] = value;
            self.heap.pop();
            self.dormant.push(id);
        }
    }

    /// After a backjump: the predicates open again go back in the heap.
    pub(crate) fn reopen(&mut self, store: &Store) {
        let Predicates {
            dormant,
            preds,
            heap,
            ..
        } = self;
        dormant.retain(|&id| {
            let pred = preds[id as usize];
            let open = !store.holds(pred) && !store.refutes(pred);
            if open {
                heap.insert(id);
            }
            !open
        });
    }

    /// A solution found elsewhere (value indices by variable): each predicate's polarity
    /// becomes its truth in it.
    pub(crate) fn solution_at(&mut self, values: &[u32]) {
        for (polarity, &pred) in self.polarity.iter_mut().zip(&self.preds) {
            *polarity = pred.holds_at(values);
        }
    }

    /// A solution: each predicate's polarity becomes its truth in it.
    pub(crate) fn solution(&mut self, store: &Store) {
        for (polarity, &pred) in self.polarity.iter_mut().zip(&self.preds) {
            *polarity = store.holds(pred);
        }
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

    #[test]
    fn predicates_open_come_first_as_they_last_were() {
        use super::Predicates;
        use crate::store::{Pred, Store};
        let mut store = Store::with_domains(&[10, 10], |_| None);
        let mut p = Predicates::new(vec![false, true]);
        let (x5, y3) = (Pred::ge(0, 5), Pred::le(0, 2));
        p.bump(x5);
        p.decay();
        p.bump(y3);
        p.bump(y3);
        p.bump(Pred::ge(1, 4)); // a cost's variable: left out
        assert_eq!(
            p.next(&store),
            Some(y3),
            "the most active, true the first time"
        );
        let mark = store.mark();
        store.set_level(1);
        store.impose(Pred::ge(0, 3)).unwrap();
        // x <= 2 is false now: x >= 5 is next, and x <= 2 would be decided false.
        assert_eq!(p.next(&store), Some(x5));
        store.undo_to(mark);
        store.set_level(0);
        p.reopen(&store);
        assert_eq!(p.next(&store), Some(Pred::ge(0, 3)));
    }
}
