//! Every construct of the `constraints!` grammar, in code that denies warnings: the
//! expansion must not make rustc warn about the user's code.
#![deny(warnings)]

use ambsolve::{Dfa, among, constraints};

fn linked(a: &str, b: &str) -> bool {
    a.chars().last() == b.chars().next()
}

fn main() {
    let n = 4;
    let k = 3;
    let cost = [[3, 1, 4], [1, 5, 9], [2, 6, 5]];
    let lists = [vec![1, 2], vec![2, 3], vec![3, 4]];
    let words = ["ant", "tea", "apt"];
    let limit = 12;
    let puzzle = constraints! {
        // choices: one, an array (its length an expression), a grid, one list per index
        let x = amb(0..3usize);
        let q[n - 1] = amb(0..n + 1);
        let b[n - 1] = amb([0, 1]);
        let g[2][n - 2] = amb(1..=3i64);
        let w[i < k] = amb(lists[i].clone());
        let word = amb(words);
        let order[k] = amb(0..k);
        let at = amb(0..k);
        let picked = amb(0..=1);
        // a plain let, for and if around requires
        let top = n - 2;
        for i in 0..top {
            require q[i] != q[i + 1];
        }
        if n > 3 {
            require q[0] < q[n - 2];
        } else if n > 2 {
            require q[0] <= q[1];
        } else {
            require q[0] >= 0;
        }
        // all-different over names, arrays, offsets, computed items, several lists
        require all_different(q);
        require all_different(q[i] + i for i in 0..n - 1);
        require all_different(w[i] for i in 0..k, g[0][j] for j in 0..n - 2);
        require all_different(q[j] - q[i] for i in 0..n - 1 for j in i + 1..n - 1);
        // linear comparisons, sums, lookups (a table's entry, an array's element)
        require sum(w[i] * (i as i32 + 1) for i in 0..k) <= limit;
        require sum(cost[i][order[i]] for i in 0..k) >= 3;
        require order[at] == 1;
        require x + b[0] != n - 1;
        require g[1][0] - g[0][1] < 2 && x * 2 <= 4;
        // single-variable restrictions and predicates
        require word.len() == 3;
        require linked(word, word) || picked == 1;
        require (x as i64 - g[0][0]).abs() != 5;
        post among(&b, 1, 1);
        maximize sum(q[i] for i in 0..n - 1) + x * 2;
    };
    // A valid model (whatever it counts: the point is that it compiles without a warning).
    puzzle.count().expect("a valid model");

    // A grid with one list per cell, conditions that branch, and the other objective.
    let rows = 2;
    let cells = constraints! {
        let c[i < rows][j < n - 2] = amb(0..(i + j + 2) as i64);
        let y = amb(0..3i64);
        let x: i64 = 1;
        require if y > 1 { y - x > 0 } else { y * (x + 1) >= 0 };
        require -(c[0][0] - y) <= 2 * (y + 1);
        minimize c[0][0] + 2 * c[1][1] - y;
    };
    cells.best().expect("a valid model");

    // Formulas (logic, arithmetic, lookups at chosen indices, counts) and the globals
    // written as calls.
    let dist = [[0i64, 2, 9], [2, 0, 4], [9, 4, 0]];
    let mut dfa = Dfa::new(1, 0);
    dfa.accept(0).transition(0, 0, 0).transition(0, 1, 0).transition(0, 2, 0);
    let m = 3;
    let formulas = constraints! {
        let x[m] = amb(0..3i64);
        let y[m] = amb(0..3i64);
        let s = amb(0..3i64);
        let f = amb([false, true]);
        let cnt[2] = amb(0..=3i64);
        require (x[0] < x[1]) || (x[1] + 3 < x[0]);
        require f == (x[0] + x[1] <= 5);
        require (x[2] > 0) -> (y[0] != 0);
        require !(s == 1) <-> (s % 2 == 0);
        require x[0] * x[1] == y[2] || x[0] / (s + 1) == 1;
        require abs(x[0] - s) <= max(y[0], 1) + min(y[1], y[2]) + pow(s, 2);
        require sum(dist[x[i]][x[i + 1]] for i in 0..m - 1) <= 12;
        require dist[0][x[s]] + y[s] >= 0;
        require sum((x[i] == 2) as i64 for i in 0..m) <= 2;
        require count(x, 1) <= 2 && among(y, &[0, 2]) >= 1;
        require nvalue(y) >= 1;
        require increasing(y);
        require lex_lesseq(x, y);
        require lex_less(y, [3, 3, 3]);
        require all_equal(cnt);
        require regular(x, &dfa);
        require element(s, x, y[0]);
        require at_most(2, x, 0);
        require at_least(0, y, s);
        require global_cardinality(x, &[0, 1], cnt);
        require global_cardinality_closed(y, &[0, 1, 2], [1, 1, 1]);
        require disjunctive(x, [1, 1, 1]);
        require disjunctive_strict(y, [0, 0, 0]);
        require cumulative(x, y, [1, 1, 1], 2);
        // lists written as comprehensions (a column, computed items) and slices
        require increasing(x[i] + y[i] for i in 0..m) && all_equal(y[1..m]);
        require disjunctive(x[i] for i in 0..m, [1, 1, 1][i] for i in 0..m);
        require max(x[i] - y[i] for i in 0..m) <= 2 + min(y[i] * 2 for i in 0..m);
        require nvalue(x[i] + 1 for i in 0..m) >= 1;
        maximize x[0] * x[1] + count(y, 2) - nvalue(x);
    };
    formulas.best().expect("a valid model");
}
