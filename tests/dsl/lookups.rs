//! Lookups (element constraints): a constant list read at a chosen index, inside sums and
//! comparisons, on both engines, against brute force.

use ambsolve::{Engine, constraints};

const ENGINES: [Engine; 2] = [Engine::Trail, Engine::Replay];

/// Every permutation of 0..n, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..n {
            let mut q: Vec<usize> = p.iter().map(|&v| v + usize::from(v >= at)).collect();
            q.insert(0, at);
            all.push(q);
        }
    }
    all.sort();
    all
}

#[test]
fn an_assignment_within_a_budget() {
    let cost = [[9, 2, 7, 8], [6, 4, 3, 7], [5, 8, 1, 8], [7, 6, 9, 4]];
    let n = cost.len();
    for budget in [12, 13, 17, 20] {
        let cheap = constraints! {
            let x[n] = amb(0..n);
            require all_different(x);
            require sum(cost[i][x[i]] for i in 0..n) <= budget;
        };
        let expected: Vec<Vec<usize>> = permutations(n)
            .into_iter()
            .filter(|p| (0..n).map(|i| cost[i][p[i]]).sum::<i32>() <= budget)
            .collect();
        for engine in ENGINES {
            let got: Vec<Vec<usize>> = cheap
                .clone()
                .engine(engine)
                .solutions()
                .map(|s| s.x)
                .collect();
            assert_eq!(got, expected, "budget {budget} on {engine}");
        }
    }
}

#[test]
fn lookups_in_a_comparison_and_indices_past_the_end() {
    let price = [3i64, 1, 4, 1, 5];
    // x ranges past the end of `price`: those values read nothing and are ruled out.
    let pairs = constraints! {
        let x = amb(0..7usize);
        let y = amb(0..6i64);
        require 2 * price[x] - y == 3;
    };
    let mut expected = Vec::new();
    for x in 0..7usize {
        for y in 0..6i64 {
            if x < price.len() && 2 * price[x] - y == 3 {
                expected.push((x, y));
            }
        }
    }
    for engine in ENGINES {
        let got: Vec<(usize, i64)> = pairs
            .clone()
            .engine(engine)
            .solutions()
            .map(|s| (s.x, s.y))
            .collect();
        assert_eq!(got, expected, "{engine}");
    }
}

#[test]
fn the_assignment_example_matches_brute_force() {
    use ambsolve_examples::puzzles::assignment::{COSTS, assignments, cost};
    for budget in [13, 14, 16, 20] {
        let expected: Vec<Vec<usize>> = permutations(COSTS.len())
            .into_iter()
            .filter(|p| cost(&COSTS, p) <= budget)
            .collect();
        for engine in ENGINES {
            let got: Vec<Vec<usize>> = assignments(&COSTS, budget)
                .engine(engine)
                .solutions()
                .collect();
            assert_eq!(got, expected, "budget {budget} on {engine}");
        }
    }
    // The cheapest assignment costs 14: none at 13, exactly one at 14.
    assert_eq!(assignments(&COSTS, 13).count().unwrap().solutions, 0);
    assert_eq!(assignments(&COSTS, 14).count().unwrap().solutions, 1);
}

#[test]
fn a_choice_read_at_a_chosen_index_is_an_element_constraint() {
    // order[k] with both chosen: the k-th of three ascending choices equals 2, and the
    // sum of the first and the chosen one is 3.
    let picks = constraints! {
        let order[3] = amb(0..4i32);
        let k = amb(0..4usize);
        require order[0] < order[1] && order[1] < order[2];
        require order[k] == 2;
        require order[0] + order[k] <= 3;
    };
    let mut expected = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for k in 0..4usize {
                    let order = [a, b, c];
                    if a < b && b < c && k < 3 && order[k] == 2 && a + order[k] <= 3 {
                        expected.push((order.to_vec(), k));
                    }
                }
            }
        }
    }
    for engine in ENGINES {
        let got: Vec<(Vec<i32>, usize)> = picks
            .clone()
            .engine(engine)
            .solutions()
            .map(|s| (s.order, s.k))
            .collect();
        assert_eq!(got, expected, "{engine}");
    }
}
