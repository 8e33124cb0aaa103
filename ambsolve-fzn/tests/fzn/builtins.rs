//! Every supported FlatZinc builtin against its meaning in the FlatZinc specification: for
//! a small model over a few variables, the solutions the front end finds (all of them,
//! each checked with `Model::check`) are exactly the assignments a brute force over the
//! domains accepts, the brute force written here from the specification, independently of
//! the front end's mapping.

use std::collections::BTreeSet;

use ambsolve_fzn::{FznModel, SolveOptions};

/// A variable of a case: its name and domain `lo..=hi` (`None`: a boolean).
type Decl = (&'static str, Option<(i64, i64)>);

fn int(name: &'static str, lo: i64, hi: i64) -> Decl {
    (name, Some((lo, hi)))
}

fn boolean(name: &'static str) -> Decl {
    (name, None)
}

/// Every solution of `constraints` over `vars` (values in order of `vars`, booleans 0/1),
/// each checked against the model.
fn solutions(vars: &[Decl], constraints: &str) -> BTreeSet<Vec<i64>> {
    let mut text = String::new();
    for (name, domain) in vars {
        match domain {
            Some((lo, hi)) => text.push_str(&format!("var {lo}..{hi}: {name} :: output_var;\n")),
            None => text.push_str(&format!("var bool: {name} :: output_var;\n")),
        }
    }
    text.push_str(constraints);
    text.push_str("\nsolve satisfy;\n");
    let model = FznModel::from_str(&text).unwrap_or_else(|e| panic!("{constraints}: {e}"));
    let mut options = SolveOptions::default();
    options.all = true;
    let mut found = BTreeSet::new();
    ambsolve_fzn::solve(&model, &options, &mut std::io::sink(), |solution| {
        model
            .model()
            .check(solution)
            .unwrap_or_else(|e| panic!("{constraints}: {e}"));
        let values = model
            .render(solution)
            .lines()
            .map(|line| {
                let value = line.split(" = ").nth(1).expect("name = value;");
                match value.trim_end_matches(';') {
                    "true" => 1,
                    "false" => 0,
                    number => number.parse().expect("an integer"),
                }
            })
            .collect();
        assert!(found.insert(values), "{constraints}: a solution twice");
    })
    .unwrap_or_else(|e| panic!("{constraints}: {e}"));
    found
}

/// Every assignment of `vars` that `holds` accepts.
fn brute_force(vars: &[Decl], holds: &dyn Fn(&[i64]) -> bool) -> BTreeSet<Vec<i64>> {
    let mut all = vec![Vec::new()];
    for (_, domain) in vars {
        let (lo, hi) = domain.unwrap_or((0, 1));
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<i64>| {
                (lo..=hi).map(move |v| {
                    let mut next = prefix.clone();
                    next.push(v);
                    next
                })
            })
            .collect();
    }
    all.into_iter().filter(|values| holds(values)).collect()
}

/// The front end's solutions of `constraint` are exactly those `holds` accepts.
fn agrees(vars: &[Decl], constraint: &str, holds: impl Fn(&[i64]) -> bool) {
    let expected = brute_force(vars, &holds);
    let found = solutions(vars, &format!("constraint {constraint};"));
    assert_eq!(found, expected, "{constraint}");
}

/// A comparison of a sum with 1: its FlatZinc suffix and its meaning.
type SumCase = (&'static str, fn(i64) -> bool);

/// A comparison of two values: its FlatZinc suffix and its meaning.
type PairCase = (&'static str, fn(i64, i64) -> bool);

fn b(v: i64) -> bool {
    v != 0
}

#[test]
fn linear_builtins_and_their_reified_and_implied_forms() {
    let vars = [int("x", -2, 2), int("y", -2, 2), boolean("r")];
    let sum = |v: &[i64]| 2 * v[0] - v[1];
    let cases: [SumCase; 3] = [("eq", |s| s == 1), ("le", |s| s <= 1), ("ne", |s| s != 1)];
    for (cmp, test) in cases {
        agrees(&vars, &format!("int_lin_{cmp}([2, -1], [x, y], 1)"), |v| {
            test(sum(v))
        });
        agrees(
            &vars,
            &format!("int_lin_{cmp}_reif([2, -1], [x, y], 1, r)"),
            |v| b(v[2]) == test(sum(v)),
        );
        agrees(
            &vars,
            &format!("int_lin_{cmp}_imp([2, -1], [x, y], 1, r)"),
            |v| !b(v[2]) || test(sum(v)),
        );
    }
}

#[test]
fn comparisons_of_integers_and_booleans() {
    let cases: [PairCase; 4] = [
        ("eq", |a, b| a == b),
        ("ne", |a, b| a != b),
        ("le", |a, b| a <= b),
        ("lt", |a, b| a < b),
    ];
    let ints = [int("x", -1, 2), int("y", 0, 2), boolean("r")];
    let bools = [boolean("a"), boolean("c"), boolean("r")];
    for (cmp, test) in cases {
        for (kind, vars, (p, q)) in [("int", &ints, ("x", "y")), ("bool", &bools, ("a", "c"))] {
            agrees(vars, &format!("{kind}_{cmp}({p}, {q})"), |v| {
                test(v[0], v[1])
            });
            agrees(vars, &format!("{kind}_{cmp}_reif({p}, {q}, r)"), |v| {
                b(v[2]) == test(v[0], v[1])
            });
            agrees(vars, &format!("{kind}_{cmp}_imp({p}, {q}, r)"), |v| {
                !b(v[2]) || test(v[0], v[1])
            });
        }
    }
    let vars = [boolean("a"), boolean("c")];
    agrees(&vars, "bool_not(a, c)", |v| v[0] != v[1]);
    agrees(&vars, "bool2int(a, 1)", |v| v[0] == 1);
    let vars = [boolean("a"), boolean("c"), boolean("d"), int("n", 0, 4)];
    agrees(&vars, "bool_lin_eq([2, 1, 1], [a, c, d], n)", |v| {
        2 * v[0] + v[1] + v[2] == v[3]
    });
    agrees(&vars, "bool_lin_le([2, -1, 1], [a, c, d], 1)", |v| {
        2 * v[0] - v[1] + v[2] <= 1
    });
}

/// `x^y` as the FlatZinc specification defines `int_pow`: for `y < 0`, the truncated
/// reciprocal `1 div x^-y`, undefined (`None`) for `x = 0`.
fn pow(x: i64, y: i64) -> Option<i64> {
    match u32::try_from(y) {
        Ok(y) => Some(x.pow(y)),
        Err(_) if x == 0 => None,
        Err(_) => Some(1 / x.pow(y.unsigned_abs() as u32)),
    }
}

#[test]
fn arithmetic_truncates_as_minizinc() {
    let vars = [int("x", -4, 4), int("y", -3, 3), int("z", -20, 20)];
    agrees(&vars, "int_plus(x, y, z)", |v| v[0] + v[1] == v[2]);
    agrees(&vars, "int_times(x, y, z)", |v| v[0] * v[1] == v[2]);
    // Division by zero has no solution (MiniZinc posts `y != 0` itself).
    agrees(&vars, "int_div(x, y, z)", |v| {
        v[1] != 0 && v[0] / v[1] == v[2]
    });
    agrees(&vars, "int_mod(x, y, z)", |v| {
        v[1] != 0 && v[0] % v[1] == v[2]
    });
    agrees(&vars, "int_min(x, y, z)", |v| v[0].min(v[1]) == v[2]);
    agrees(&vars, "int_max(x, y, z)", |v| v[0].max(v[1]) == v[2]);
    agrees(&vars, "int_abs(x, z)", |v| v[0].abs() == v[2]);
    agrees(&vars, "int_pow(x, y, z)", |v| pow(v[0], v[1]) == Some(v[2]));
    agrees(&vars, "int_pow_fixed(x, 2, z)", |v| v[0] * v[0] == v[2]);
    agrees(&vars, "int_pow_fixed(x, -1, z)", |v| {
        pow(v[0], -1) == Some(v[2])
    });
    // The case a fuzz found reported unsatisfiable: `pow(x, e) = 0` has 8 solutions.
    let vars = [int("x", -3, 3), int("e", -2, -1)];
    let found = solutions(&vars, "constraint int_pow(x, e, 0);");
    assert_eq!(found, brute_force(&vars, &|v| pow(v[0], v[1]) == Some(0)));
    assert_eq!(found.len(), 8);
    // What MiniZinc 2.6.4 itself computes (`minizinc` on `[7, -7, 7, -7] div [2, 2, -2,
    // -2]` and `mod`): division truncates toward zero, the remainder takes the dividend's
    // sign, as Rust's `/` and `%` used above.
    let vars = [int("d", -5, 5), int("m", -5, 5)];
    for (x, y, d, m) in [
        (7, 2, 3, 1),
        (-7, 2, -3, -1),
        (7, -2, -3, 1),
        (-7, -2, 3, -1),
    ] {
        let found = solutions(
            &vars,
            &format!("constraint int_div({x}, {y}, d);\nconstraint int_mod({x}, {y}, m);"),
        );
        assert_eq!(found, BTreeSet::from([vec![d, m]]), "{x} div/mod {y}");
    }
}

#[test]
fn extremes_domains_and_elements() {
    let vars = [int("x", -1, 2), int("y", 0, 2), int("m", -1, 3)];
    agrees(&vars, "array_int_maximum(m, [x, y, 1])", |v| {
        v[0].max(v[1]).max(1) == v[2]
    });
    agrees(&vars, "array_int_minimum(m, [x, y])", |v| {
        v[0].min(v[1]) == v[2]
    });
    let vars = [int("x", -1, 4), boolean("r")];
    let inside = |x: i64| [0, 2, 3].contains(&x);
    agrees(&vars, "set_in(x, {0, 2, 3})", |v| inside(v[0]));
    agrees(&vars, "set_in_reif(x, {0, 2, 3}, r)", |v| {
        b(v[1]) == inside(v[0])
    });
    agrees(&vars, "set_in_imp(x, {0, 2, 3}, r)", |v| {
        !b(v[1]) || inside(v[0])
    });
    let vars = [int("i", 0, 4), int("x", 0, 2), int("y", 0, 3)];
    agrees(&vars, "array_int_element(i, [3, 1, 3], y)", |v| {
        (1..=3).contains(&v[0]) && [3, 1, 3][v[0] as usize - 1] == v[2]
    });
    agrees(&vars, "array_var_int_element(i, [x, 2, x], y)", |v| {
        (1..=3).contains(&v[0]) && [v[1], 2, v[1]][v[0] as usize - 1] == v[2]
    });
    let vars = [int("i", 1, 3), boolean("a"), boolean("c")];
    agrees(
        &vars,
        "array_bool_element(i, [true, false, true], c)",
        |v| [1, 0, 1][v[0] as usize - 1] == v[2],
    );
    agrees(
        &vars,
        "array_var_bool_element(i, [a, false, c], true)",
        |v| [v[1], 0, v[2]][v[0] as usize - 1] == 1,
    );
}

#[test]
fn logic_builtins_and_their_reified_and_implied_forms() {
    let vars = [boolean("a"), boolean("c"), boolean("r")];
    let (a, c, r) = (
        |v: &[i64]| b(v[0]),
        |v: &[i64]| b(v[1]),
        |v: &[i64]| b(v[2]),
    );
    agrees(&vars, "bool_and(a, c, r)", |v| r(v) == (a(v) && c(v)));
    agrees(&vars, "bool_and_imp(a, c, r)", |v| !r(v) || (a(v) && c(v)));
    agrees(&vars, "bool_or(a, c, r)", |v| r(v) == (a(v) || c(v)));
    agrees(&vars, "bool_or_imp(a, c, r)", |v| !r(v) || a(v) || c(v));
    agrees(&vars, "bool_xor(a, c, r)", |v| r(v) == (a(v) != c(v)));
    agrees(&vars, "bool_xor_imp(a, c, r)", |v| !r(v) || (a(v) != c(v)));
    agrees(&vars, "bool_xor(a, c)", |v| a(v) != c(v));
    let vars = [boolean("a"), boolean("c"), boolean("d"), boolean("r")];
    let clause = |v: &[i64]| b(v[0]) || b(v[1]) || !b(v[2]);
    agrees(&vars, "bool_clause([a, c], [d])", clause);
    agrees(&vars, "bool_clause_reif([a, c], [d], r)", |v| {
        b(v[3]) == clause(v)
    });
    agrees(&vars, "bool_clause_imp([a, c], [d], r)", |v| {
        !b(v[3]) || clause(v)
    });
    let all = |v: &[i64]| v[..3].iter().all(|&x| b(x));
    let any = |v: &[i64]| v[..3].iter().any(|&x| b(x));
    agrees(&vars, "array_bool_and([a, c, d], r)", |v| b(v[3]) == all(v));
    agrees(&vars, "array_bool_and_imp([a, c, d], r)", |v| {
        !b(v[3]) || all(v)
    });
    agrees(&vars, "array_bool_or([a, c, d], r)", |v| b(v[3]) == any(v));
    agrees(&vars, "array_bool_or_imp([a, c, d], r)", |v| {
        !b(v[3]) || any(v)
    });
    agrees(&vars, "array_bool_xor([a, c, d, r])", |v| {
        v.iter().sum::<i64>() % 2 == 1
    });
    // Constants among the literals.
    agrees(&vars, "bool_clause([a, false], [true, d])", |v| {
        b(v[0]) || !b(v[2])
    });
}

/// Whether `succ` (numbered from `offset`) is one circuit through every node, or with
/// `sub`, one circuit through some nodes (at least two) and the others their own
/// successor.
fn is_circuit(succ: &[i64], offset: i64, sub: bool) -> bool {
    let n = succ.len();
    let next: Vec<Option<usize>> = succ
        .iter()
        .map(|&s| usize::try_from(s - offset).ok().filter(|&s| s < n))
        .collect();
    if next.iter().any(Option::is_none) {
        return false;
    }
    let next: Vec<usize> = next.into_iter().flatten().collect();
    let moving: Vec<usize> = (0..n).filter(|&i| next[i] != i).collect();
    if !sub && moving.len() != n {
        return false;
    }
    let Some(&start) = moving.first() else {
        return sub;
    };
    let (mut at, mut steps) = (next[start], 1);
    while at != start && steps <= n {
        at = next[at];
        steps += 1;
    }
    at == start && steps == moving.len()
}

#[test]
fn globals_of_the_mznlib() {
    let xs = [int("x", 0, 2), int("y", 0, 2), int("z", 0, 2)];
    let distinct_but = |v: &[i64], except: Option<i64>| {
        (0..3).all(|i| (i + 1..3).all(|j| v[i] != v[j] || Some(v[i]) == except))
    };
    agrees(&xs, "fzn_all_different_int([x, y, z])", |v| {
        distinct_but(v, None)
    });
    agrees(&xs, "fzn_alldifferent_except_0([x, y, z])", |v| {
        distinct_but(v, Some(0))
    });
    agrees(&xs, "ambsolve_all_different_except([x, y, z], 2)", |v| {
        distinct_but(v, Some(2))
    });
    agrees(&xs, "fzn_table_int([x, y], [0, 1, 2, 2, 1, 0])", |v| {
        [[0, 1], [2, 2], [1, 0]].contains(&[v[0], v[1]])
    });
    agrees(&xs, "fzn_all_equal_int([x, y, z])", |v| {
        v[0] == v[1] && v[1] == v[2]
    });
    agrees(&xs, "fzn_increasing_int([x, y, z])", |v| {
        v[0] <= v[1] && v[1] <= v[2]
    });
    agrees(&xs, "fzn_decreasing_int([x, y, z])", |v| {
        v[0] >= v[1] && v[1] >= v[2]
    });
    agrees(&xs, "fzn_lex_lesseq_int([x, y], [z, 1])", |v| {
        [v[0], v[1]] <= [v[2], 1]
    });
    agrees(&xs, "fzn_lex_less_int([x, y], [z, 1])", |v| {
        [v[0], v[1]] < [v[2], 1]
    });
    let count = |v: &[i64], value: i64| v[..3].iter().filter(|&&x| x == value).count() as i64;
    agrees(&xs, "fzn_count_eq([x, y, 1], z, 2)", |v| {
        [v[0], v[1], 1].iter().filter(|&&x| x == v[2]).count() == 2
    });
    agrees(&xs, "fzn_count_eq_par([x, y, z], 1, 2)", |v| {
        count(v, 1) == 2
    });
    agrees(&xs, "fzn_among(z, [x, y], {0, 2})", |v| {
        v[..2].iter().filter(|&&x| x != 1).count() as i64 == v[2]
    });
    agrees(&xs, "fzn_at_most_int(1, [x, y, z], 2)", |v| {
        count(v, 2) <= 1
    });
    agrees(&xs, "fzn_at_least_int(2, [x, y, z], 2)", |v| {
        count(v, 2) >= 2
    });
    agrees(&xs, "fzn_exactly_int(1, [x, y, z], 0)", |v| {
        count(v, 0) == 1
    });
    agrees(&xs, "fzn_nvalue(2, [x, y, z])", |v| {
        v.iter().collect::<BTreeSet<_>>().len() == 2
    });
    let vars = [
        int("x", 0, 3),
        int("y", 0, 3),
        int("c", 0, 2),
        int("d", 0, 2),
    ];
    let gcc = |v: &[i64], closed: bool| {
        let n = |value| v[..2].iter().filter(|&&x| x == value).count() as i64;
        n(1) == v[2] && n(3) == v[3] && (!closed || v[..2].iter().all(|x| [1, 3].contains(x)))
    };
    agrees(
        &vars,
        "fzn_global_cardinality([x, y], [1, 3], [c, d])",
        |v| gcc(v, false),
    );
    agrees(
        &vars,
        "fzn_global_cardinality_closed([x, y], [1, 3], [c, d])",
        |v| gcc(v, true),
    );
    // Packing: loads x and y of bins 1 and 2 holding z (weight 2) and an item fixed in
    // bin 1 (weight 1); items of weights 1, 1, 2 in bins of capacity 2; bins 1 and 2 of
    // capacities 1 and 2.
    agrees(
        &xs,
        "ambsolve_bin_packing_load([x, y], [z, 1], [2, 1], 1)",
        |v| {
            (1..=2).contains(&v[2])
                && v[0] == 2 * i64::from(v[2] == 1) + 1
                && v[1] == 2 * i64::from(v[2] == 2)
        },
    );
    agrees(&xs, "fzn_bin_packing(2, [x, y, z], [1, 1, 2])", |v| {
        (0..=2).all(|b| {
            let load: i64 = [1, 1, 2]
                .iter()
                .zip(v)
                .filter(|&(_, &bin)| bin == b)
                .map(|(w, _)| w)
                .sum();
            load <= 2
        })
    });
    let first_use = |v: &[i64], value: i64| v.iter().position(|&x| x == value);
    let precedes = |v: &[i64], s: i64, t: i64| match (first_use(v, s), first_use(v, t)) {
        (_, None) => true,
        (Some(s), Some(t)) => s < t,
        (None, Some(_)) => false,
    };
    agrees(
        &xs,
        "fzn_value_precede_chain_int([0, 2, 1], [x, y, z])",
        |v| precedes(v, 0, 2) && precedes(v, 2, 1),
    );
    agrees(&xs, "fzn_value_precede_int(1, 0, [x, y, z])", |v| {
        precedes(v, 1, 0)
    });
    // Three rectangles, 1 by 1 at (x, 0), 2 by 1 at (y, 1) and z by 2 at (1, 0): apart in
    // pairs (non-strict: one of size 0 anywhere).
    let apart = |a: [i64; 4], b: [i64; 4], strict: bool| {
        (!strict && [a[2], a[3], b[2], b[3]].contains(&0))
            || a[0] + a[2] <= b[0]
            || b[0] + b[2] <= a[0]
            || a[1] + a[3] <= b[1]
            || b[1] + b[3] <= a[1]
    };
    for (name, strict) in [("fzn_diffn", true), ("fzn_diffn_nonstrict", false)] {
        agrees(
            &xs,
            &format!("{name}([x, y, 1], [0, 1, 0], [1, 2, z], [1, 1, 2])"),
            |v| {
                let r = [[v[0], 0, 1, 1], [v[1], 1, 2, 1], [1, 0, v[2], 2]];
                apart(r[0], r[1], strict) && apart(r[0], r[2], strict) && apart(r[1], r[2], strict)
            },
        );
    }
    agrees(
        &xs,
        "ambsolve_bin_packing_capa([1, 2], [x, y, z], [1, 1, 0], 1)",
        |v| {
            v.iter().all(|b| (1..=2).contains(b)) && v[..2].iter().filter(|&&b| b == 1).count() <= 1
        },
    );
    // Optional tasks: x, y, z start tasks of 2, 1 and 2 when p, q, r hold.
    let tasks = [
        int("x", 0, 2),
        int("y", 0, 2),
        int("z", 0, 2),
        boolean("p"),
        boolean("q"),
        boolean("r"),
    ];
    let (d, demand) = ([2, 1, 2], [1, 2, 1]);
    agrees(
        &tasks,
        "ambsolve_disjunctive_optional([x, y, z], [2, 1, 2], [p, q, r])",
        |v| {
            (0..3).all(|i| {
                (i + 1..3).all(|j| {
                    v[3 + i] == 0 || v[3 + j] == 0 || v[i] + d[i] <= v[j] || v[j] + d[j] <= v[i]
                })
            })
        },
    );
    agrees(
        &tasks,
        "ambsolve_cumulative_optional([x, y, z], [2, 1, 2], [1, 2, 1], [p, q, r], 2)",
        |v| {
            (0..4).all(|t| {
                (0..3)
                    .filter(|&i| v[3 + i] == 1 && v[i] <= t && t < v[i] + d[i])
                    .map(|i| demand[i])
                    .sum::<i64>()
                    <= 2
            })
        },
    );
}

#[test]
fn regular_and_the_tours() {
    // Words over {1, 2} with no two 2s in a row: states 1 (last not 2), 2 (last 2).
    let xs = [int("x", 0, 2), int("y", 1, 2), int("z", 1, 3)];
    agrees(
        &xs,
        "fzn_regular([x, y, z], 2, 2, [1, 2, 1, 0], 1, {1, 2})",
        |v| v.iter().all(|s| [1, 2].contains(s)) && v.windows(2).all(|w| w != [2, 2]),
    );
    let succ = [int("a", 0, 3), int("b", 0, 3), int("c", 0, 3)];
    for offset in [0, 1] {
        agrees(
            &succ,
            &format!("ambsolve_circuit([a, b, c], {offset})"),
            |v| is_circuit(v, offset, false),
        );
        agrees(
            &succ,
            &format!("ambsolve_subcircuit([a, b, c], {offset})"),
            |v| is_circuit(v, offset, true),
        );
    }
    let vars = [
        int("f1", 0, 3),
        int("f2", 0, 3),
        int("g1", 1, 3),
        int("g2", 1, 3),
    ];
    // f indexed from 1, g from 2: f[i] = j <-> g[j] = i.
    agrees(&vars, "ambsolve_inverse([f1, f2], 1, [g1, g2], 2)", |v| {
        let (f, g) = (&v[..2], &v[2..]);
        (1..=2).all(|i| {
            let j = f[i as usize - 1];
            (2..=3).contains(&j) && g[j as usize - 2] == i
        }) && (2..=3).all(|j| {
            let i = g[j as usize - 2];
            (1..=2).contains(&i) && f[i as usize - 1] == j
        })
    });
}
