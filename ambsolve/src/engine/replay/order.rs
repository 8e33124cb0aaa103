//! The order in which the replay engine chooses a model's variables by default: a public
//! method of [`Model`], kept with the engine it serves.

use crate::model::{Cmp, Constraint, Model};
use crate::var::VarId;

impl Model<'_> {
    /// The order in which the replay engine chooses the variables by default
    /// ([`VarOrder::Automatic`](crate::VarOrder::Automatic)): each next variable is the
    /// one that completes the most constraints (all their other variables chosen), then
    /// the one that shares the most constraints with the variables chosen, then the first
    /// declared; but first of all, a variable an equality leaves one value to (a linear
    /// `==` whose other variables are all chosen, with a coefficient of ±1 on it), as it
    /// costs no search. A constraint is checked right after its last variable is chosen,
    /// so this checks each as early as it can: Langford's `s[i] == p[i] + i + 2`, with the
    /// `p` declared before the `s`, is chosen `p[0] s[0] p[1] s[1] ..`, and a Golomb
    /// ruler's differences `d == m[j] - m[i]` right after their marks, so that their
    /// all-different is checked mark by mark. Where every variable ties (n-queens), it is
    /// declaration order.
    pub fn replay_order(&self) -> Vec<VarId> {
        let n = self.num_vars();
        let scopes = self.scopes();
        let mut of_var: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (c, scope) in scopes.iter().enumerate() {
            for &v in scope {
                of_var[v].push(c);
            }
        }
        // Per constraint: how many of its variables are still to choose, and whether one
        // of them has been chosen.
        let mut open: Vec<usize> = scopes.iter().map(Vec::len).collect();
        let mut touched = vec![false; scopes.len()];
        // Per variable: constraints it would complete, constraints it shares with the
        // chosen ones.
        let mut completes = vec![0usize; n];
        let mut shares = vec![0usize; n];
        // Per variable: equalities that would leave it one value.
        let mut determined = vec![0usize; n];
        let fixes = |c: usize, w: usize| match &self.constraints()[c] {
            Constraint::Linear(def) => {
                def.cmp == Cmp::Eq
                    && def
                        .terms
                        .iter()
                        .any(|t| t.0.index() == w && t.1.unsigned_abs() == 1)
            }
            _ => false,
        };
        for (c, scope) in scopes.iter().enumerate() {
            if let [only] = scope[..] {
                completes[only] += 1;
                if fixes(c, only) {
                    determined[only] += 1;
                }
            }
        }
        let mut chosen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for _ in 0..n {
            let next = (0..n)
                .filter(|&v| !chosen[v])
                .max_by_key(|&v| {
                    (
                        determined[v] > 0,
                        completes[v],
                        shares[v],
                        std::cmp::Reverse(v),
                    )
                })
                .expect("a variable is left");
            chosen[next] = true;
            order.push(VarId::from_index(next));
            for &c in &of_var[next] {
                open[c] -= 1;
                let first_touch = !std::mem::replace(&mut touched[c], true);
                for &w in scopes[c].iter().filter(|&&w| !chosen[w]) {
                    if first_touch {
                        shares[w] += 1;
                    }
                    if open[c] == 1 {
                        completes[w] += 1;
                        if fixes(c, w) {
                            determined[w] += 1;
                        }
                    }
                }
            }
        }
        order
    }
}
