//! The rules of a unary resource on task windows, each in O(n log n) over a Θ-Λ tree
//! (Vilím): overload checking with edge finding, detectable precedences and not-last.
//! Each rule is written for one direction; the other comes from the mirrored windows
//! (time reversed: see [`Window::mirror`]).

use crate::choice::Fail;
use crate::propagators::scheduling::Window;
use crate::propagators::scheduling::theta_tree::ThetaTree;

/// The buffers the rules share between runs.
#[derive(Default)]
pub(super) struct Unary {
    tree: ThetaTree,
    order: Vec<usize>,
    queue: Vec<usize>,
}

impl Unary {
    /// Overload checking and edge finding: fails if some set of tasks cannot fit between
    /// its earliest start and its latest completion; raises `est[i]` to the earliest
    /// completion of a set Ω that must all end before task `i` starts (Ω together with
    /// `i` would end after every task of Ω must have ended).
    ///
    /// # Errors
    /// [`Fail`] on an overload.
    pub(super) fn edge_finding(&mut self, w: &[Window], est: &mut [i64]) -> Result<(), Fail> {
        let n = w.len();
        self.tree.reset(w, true);
        self.tree.fill();
        self.order.clear();
        self.order.extend(0..n);
        self.order.sort_by_key(|&i| std::cmp::Reverse(w[i].lct));
        for k in 0..n {
            let j = self.order[k];
            // Θ: the tasks whose latest completion is at most `lct[j]`.
            if self.tree.ect() > w[j].lct {
                return Err(Fail);
            }
            self.tree.make_grey(j);
            let Some(&next) = self.order.get(k + 1) else {
                break;
            };
            while self.tree.ect_bar() > w[next].lct {
                let Some(i) = self.tree.responsible() else {
                    break;
                };
                est[i] = est[i].max(self.tree.ect());
                self.tree.remove(i);
            }
        }
        Ok(())
    }

    /// Detectable precedences: a task `j` that must start before task `i` ends
    /// (`lst[j] < ect[i]`) must precede it, so `i` starts after all such tasks together
    /// can end.
    pub(super) fn detectable_precedences(&mut self, w: &[Window], est: &mut [i64]) {
        let n = w.len();
        self.tree.reset(w, false);
        self.queue.clear();
        self.queue.extend(0..n);
        self.queue.sort_by_key(|&j| w[j].lst());
        self.order.clear();
        self.order.extend(0..n);
        self.order.sort_by_key(|&i| w[i].ect());
        let mut q = 0;
        for &i in &self.order {
            while q < n && w[i].ect() > w[self.queue[q]].lst() {
                self.tree.insert(self.queue[q]);
                q += 1;
            }
            let inside = self.tree.contains(i);
            if inside {
                self.tree.remove(i);
            }
            est[i] = est[i].max(self.tree.ect());
            if inside {
                self.tree.insert(i);
            }
        }
    }

    /// Not-last: if the tasks that start before task `i` can end (`lst[j] < lct[i]`) cannot
    /// all end by `lst[i]`, `i` is not last among them: it ends by the latest start of one
    /// of them (`lct[i]` lowered to the largest such `lst[j]`).
    pub(super) fn not_last(&mut self, w: &[Window], lct: &mut [i64]) {
        let n = w.len();
        self.tree.reset(w, false);
        self.queue.clear();
        self.queue.extend(0..n);
        self.queue.sort_by_key(|&j| w[j].lst());
        self.order.clear();
        self.order.extend(0..n);
        self.order.sort_by_key(|&i| w[i].lct);
        let mut q = 0;
        for &i in &self.order {
            while q < n && w[i].lct > w[self.queue[q]].lst() {
                self.tree.insert(self.queue[q]);
                q += 1;
            }
            let inside = self.tree.contains(i);
            if inside {
                self.tree.remove(i);
            }
            if self.tree.ect() > w[i].lst() {
                // The largest latest start in Θ without `i` (Θ is a prefix of the queue).
                let latest = self.queue[..q]
                    .iter()
                    .rev()
                    .find(|&&j| j != i)
                    .map(|&j| w[j].lst());
                if let Some(latest) = latest {
                    lct[i] = lct[i].min(latest);
                }
            }
            if inside {
                self.tree.insert(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Unary;
    use crate::propagators::checker::Rng;
    use crate::propagators::scheduling::Window;

    /// Every start of each task that some schedule of all of them (each in its window, no
    /// two overlapping) uses, by brute force over the start times.
    fn supported(w: &[Window]) -> Option<Vec<(i64, i64)>> {
        fn go(w: &[Window], at: usize, starts: &mut Vec<i64>, found: &mut Vec<(i64, i64)>) {
            if at == w.len() {
                for (k, &s) in starts.iter().enumerate() {
                    found[k] = (found[k].0.min(s), found[k].1.max(s));
                }
                return;
            }
            for s in w[at].est..=w[at].lst() {
                let fits = starts
                    .iter()
                    .enumerate()
                    .all(|(k, &t)| s + w[at].p <= t || t + w[k].p <= s);
                if fits {
                    starts.push(s);
                    go(w, at + 1, starts, found);
                    starts.pop();
                }
            }
        }
        let mut found = vec![(i64::MAX, i64::MIN); w.len()];
        go(w, 0, &mut Vec::new(), &mut found);
        found.iter().all(|f| f.0 <= f.1).then_some(found)
    }

    #[test]
    fn each_rule_keeps_every_schedule_and_edge_finding_finds_every_overload_of_fixed_tasks() {
        let mut rng = Rng::new(3);
        let mut unary = Unary::default();
        for _ in 0..2000 {
            let n = 1 + rng.below(5) as usize;
            let w: Vec<Window> = (0..n)
                .map(|_| {
                    let est = rng.below(8) as i64 - 3;
                    let p = 1 + rng.below(4) as i64;
                    Window {
                        est,
                        lct: est + p + rng.below(6) as i64,
                        p,
                    }
                })
                .collect();
            let truth = supported(&w);
            let mut est: Vec<i64> = w.iter().map(|x| x.est).collect();
            let mut lct: Vec<i64> = w.iter().map(|x| x.lct).collect();
            let overload = unary.edge_finding(&w, &mut est).is_err();
            unary.detectable_precedences(&w, &mut est);
            unary.not_last(&w, &mut lct);
            let mirrored: Vec<Window> = w.iter().map(Window::mirror).collect();
            let mut back: Vec<i64> = mirrored.iter().map(|x| x.est).collect();
            let mut front: Vec<i64> = mirrored.iter().map(|x| x.lct).collect();
            let overload_back = unary.edge_finding(&mirrored, &mut back).is_err();
            unary.detectable_precedences(&mirrored, &mut back);
            unary.not_last(&mirrored, &mut front);
            let Some(truth) = truth else {
                if w.iter().all(|x| x.lst() == x.est) {
                    assert!(overload && overload_back, "{w:?}: an overlap not seen");
                }
                continue;
            };
            assert!(!overload && !overload_back, "{w:?}: a false overload");
            for k in 0..n {
                let (first, last) = truth[k];
                assert!(
                    est[k] <= first && -front[k] <= first,
                    "{w:?}: task {k} start"
                );
                assert!(
                    lct[k] >= last + w[k].p && -back[k] >= last + w[k].p,
                    "{w:?}: task {k} end"
                );
            }
        }
    }
}

#[cfg(test)]
mod strength {
    use super::Unary;
    use crate::propagators::scheduling::Window;

    fn w(est: i64, lct: i64, p: i64) -> Window {
        Window { est, lct, p }
    }

    #[test]
    fn edge_finding_puts_a_task_after_a_set_it_cannot_precede() {
        // B and C fill 2..10 but for 0; A (3 long) cannot fit before or between them.
        let tasks = [w(0, 30, 3), w(2, 10, 4), w(2, 10, 4)];
        let mut est = [0, 2, 2];
        Unary::default().edge_finding(&tasks, &mut est).unwrap();
        assert_eq!(est, [10, 2, 2]);
    }

    #[test]
    fn a_detectable_precedence_pushes_the_later_task() {
        // B must start by 1, before A can end: B precedes A.
        let tasks = [w(0, 20, 5), w(0, 4, 3)];
        let mut est = [0, 0];
        Unary::default().detectable_precedences(&tasks, &mut est);
        assert_eq!(est, [3, 0]);
    }

    #[test]
    fn not_last_ends_a_task_before_the_last_start_of_the_others() {
        // B and C cannot both end by A's latest start (7): A is not last, so it ends by 5.
        let tasks = [w(0, 10, 3), w(0, 9, 4), w(0, 9, 4)];
        let mut lct = [10, 9, 9];
        Unary::default().not_last(&tasks, &mut lct);
        assert_eq!(lct, [5, 7, 7]); // B and C are not last either (A and the other end by 7)
    }
}
