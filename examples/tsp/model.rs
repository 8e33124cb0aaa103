//! The model of the travelling salesman: a successor per city, one circuit, and the length
//! of each leg looked up from the city it goes to.

use std::sync::Arc;

use ambsolve::{Model, Puzzle, Strategy, ValueOrder, Var, VarOrder};

/// The shortest tour through every city of `dist` (`dist[i][j]`: the leg from city `i` to
/// city `j`), as a puzzle minimising the tour's length; a solution is the successor of
/// each city. At least two cities (one city has no tour).
///
/// - `succ[i]`, the city after city `i`: `circuit(succ)`, one cycle through every city;
/// - `leg[i]`, the length of the leg out of city `i`, is `dist[i][succ[i]]`: a table of the
///   pairs `(j, dist[i][j])`, so that `leg[i]` keeps only the lengths of the cities `succ[i]`
///   may still go to, and the other way;
/// - minimise `leg[0] + .. + leg[n - 1]`. Its bound prunes as soon as the shortest leg out of
///   each city, summed, reaches the best tour found.
///
/// The search branches on the successor with the fewest cities left, nearest city first.
pub(crate) fn tsp(dist: &[Vec<i64>]) -> Puzzle<'static, Vec<usize>> {
    let n = dist.len();
    let mut m = Model::new();
    let others = |i: usize| (0..n).filter(move |&j| j != i);
    // Every city, its own included (`circuit` removes it): values 0..n in order, which the
    // propagator reads a word at a time.
    let succ: Vec<Var<i64>> = m.vars("succ", n, 0..n as i64);
    m.circuit(&succ);
    let mut leg: Vec<Var<i64>> = Vec::with_capacity(n);
    for i in 0..n {
        let mut lengths: Vec<i64> = others(i).map(|j| dist[i][j]).collect();
        lengths.sort_unstable();
        lengths.dedup();
        let l = m.named_var(format!("leg[{i}]"), lengths);
        m.table(
            &[succ[i].clone(), l.clone()],
            others(i).map(|j| [j as i64, dist[i][j]]),
        );
        leg.push(l);
    }
    m.minimize(leg.iter().map(|l| (1, l)));

    // Values by distance: the key of value k of succ[i] is the leg to city k.
    let mut keys: Vec<Vec<i64>> = vec![Vec::new(); m.num_vars()];
    for (i, s) in succ.iter().enumerate() {
        keys[s.id().index()] = dist[i].clone();
    }
    let order = ValueOrder::By(Arc::new(move |var, index| {
        keys[var.index()].get(index as usize).copied().unwrap_or(0)
    }));
    let strategy = Strategy::new()
        .vars(VarOrder::FirstFailThen(succ.iter().map(Var::id).collect()))
        .values(order);
    Puzzle::new(m, move |a| {
        succ.iter().map(|s| *a.value(s) as usize).collect()
    })
    .strategy(strategy)
}
