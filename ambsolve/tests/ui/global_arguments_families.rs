use ambsolve::{Dfa, constraints};

fn main() {
    minizinc_spellings();
    scheduling();
    let dfa = Dfa::new(1, 0);
    let _ = constraints! {
        let x[3] = amb(0..3i64);
        let k = amb(0..2i64);
        require at_most(k, x, 1);
        require global_cardinality(x, &[0, 1]);
        require regular(x[0], &dfa);
        require lex_less(x);
        require element(x, x, k);
    };
}

fn minizinc_spellings() {
    let _ = constraints! {
        let x[3] = amb(0..3i64);
        let k = amb(0..4i64);
        require count(x, 1, k);
        require among(k, x, &[1, 2]) || k == 0;
        require nvalue(k, x);
    };
}

fn scheduling() {
    let _ = constraints! {
        let s[3] = amb(0..10i64);
        let d[3] = amb(1..3i64);
        let g[2][3] = amb(0..3i64);
        require disjunctive(s[0], d);
        require cumulative(s, d, [1, 1, 1], s);
        require inverse(s, d[2]);
        require lex_less(g, s);
    };
}
