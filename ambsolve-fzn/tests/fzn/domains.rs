//! Domains of any width: an unbounded `var int` (declared over the default range,
//! `-(2^31 - 1)..=2^31 - 1`, unless what it equals or a `set_in` bounds it), ranges of
//! millions of values, domains with holes over a wide hull, and the refusal of a domain
//! of more than `u32::MAX` values.

use ambsolve_fzn::{FznModel, SolveOptions, Status};

/// What `fzn-ambsolve` prints for `text` (every solution), each solution checked against
/// the model, and the status.
fn printed(text: &str, all: bool) -> (String, Status) {
    let model = FznModel::from_str(text).unwrap_or_else(|e| panic!("{e}"));
    let mut options = SolveOptions::default();
    options.all = all;
    let mut out = Vec::new();
    let outcome = ambsolve_fzn::solve(&model, &options, &mut out, |solution| {
        model
            .model()
            .check(solution)
            .expect("a solution of the model");
    })
    .expect("solved");
    (String::from_utf8(out).expect("UTF-8"), outcome.status)
}

/// The number of solutions `-a` prints (each distinct).
fn count(text: &str) -> usize {
    let (out, status) = printed(text, true);
    assert_eq!(status, Status::AllSolutions, "{out}");
    let solutions = out.strip_suffix("==========\n").expect("the final line");
    let solutions: Vec<&str> = solutions.split_terminator("----------\n").collect();
    let mut distinct = solutions.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), solutions.len(), "a solution twice:\n{out}");
    distinct.len()
}

/// `fzn-ambsolve -` on `text`: its exit status, standard output and standard error.
fn binary(text: &str) -> (Option<i32>, String, String) {
    let output = crate::cli::from_stdin(text);
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}

// A variable over the default range is two numbers in the model and in the store: the
// range's ends are reached at once, with no list of its values and no word of a bitset.
#[test]
fn an_unbounded_var_int_takes_the_default_range() {
    let text = "var int: x :: output_var;\n\
                var int: y :: output_var;\n\
                constraint int_lin_eq([1, 1], [x, y], 10);\n\
                constraint int_le(0, x);\n\
                constraint int_le(x, 3);\n\
                constraint int_le(0, y);\n\
                solve satisfy;\n";
    assert_eq!(count(text), 4);
    // The elements of an array of `var int` too.
    let text = "array [1..2] of var int: a :: output_array([1..2]);\n\
                constraint int_lin_eq([1, 1], a, 10);\n\
                constraint int_lin_le([1, -1], a, -10);\n\
                solve satisfy;\n";
    assert!(
        printed(text, false).0.starts_with("a = array1d(1..2, ["),
        "{text}"
    );
    // The search branches on y (first fail), x follows: 2y at most.
    let text = "var int: x :: output_var;\nvar 0..3: y;\n\
                constraint int_lin_eq([1, -2], [x, y], 0);\nsolve maximize x;\n";
    let (out, status) = printed(text, false);
    assert_eq!(status, Status::Optimal);
    assert_eq!(out, "x = 6;\n----------\n==========\n");
    let (out, _) = printed("var int: x :: output_var;\nsolve minimize x;\n", false);
    assert_eq!(out, "x = -2147483647;\n----------\n==========\n");
}

#[test]
fn an_unbounded_var_int_takes_the_domain_of_what_bounds_it() {
    // Equal to a bounded variable, through `int_eq` or an alias.
    let text = "var int: x :: output_var;\n\
                var 0..3: y;\n\
                var int: z :: output_var = x;\n\
                var int: w :: output_var;\n\
                constraint int_eq(x, y);\n\
                constraint int_eq(w, z);\n\
                solve satisfy;\n";
    assert_eq!(count(text), 4);
    // `set_in` is its domain.
    let text = "set of int: s = {2, 4, 6};\n\
                var int: u :: output_var;\n\
                var int: w :: output_var;\n\
                constraint set_in(u, s);\n\
                constraint set_in(w, -1..1);\n\
                constraint int_lt(u, 6);\n\
                solve satisfy;\n";
    assert_eq!(count(text), 6);
}

#[test]
fn an_objective_over_five_million_values_reaches_its_optimum() {
    let text = "var 0..5000000: obj :: output_var;\n\
                var 0..1000: y :: output_var;\n\
                constraint int_lin_eq([1, -1], [obj, y], 1234567);\n\
                solve minimize obj;\n";
    let (out, status) = printed(text, false);
    assert_eq!(status, Status::Optimal);
    assert_eq!(out, "obj = 1234567;\ny = 0;\n----------\n==========\n");
    let text = text.replace("minimize", "maximize");
    let (out, status) = printed(&text, false);
    assert_eq!(status, Status::Optimal);
    assert_eq!(out, "obj = 1235567;\ny = 1000;\n----------\n==========\n");
}

/// `var {values}: x`, the values listed one by one, as MiniZinc writes a domain with
/// holes.
fn listed(values: impl Iterator<Item = i64>) -> String {
    let values: Vec<String> = values.map(|v| v.to_string()).collect();
    format!("var {{{}}}: x :: output_var;\n", values.join(", "))
}

#[test]
fn a_domain_with_holes_over_a_wide_hull() {
    // 80000 values, more than a list takes (2^16): over its hull, holes cut. A hole of one
    // value (39995), and two wide ones.
    let values = || {
        (0..40_000)
            .filter(|&v| v != 39_995)
            .chain(1_000_000..1_040_000)
            .chain([2_000_000])
    };
    let domain = listed(values());
    let model = FznModel::from_str(&format!("{domain}solve satisfy;\n")).expect("compiled");
    assert_eq!(model.model().universes()[0], 2_000_001, "x over its hull");
    let window = format!(
        "{domain}constraint int_le(39990, x);\nconstraint int_le(x, 1000005);\nsolve satisfy;\n"
    );
    assert_eq!(count(&window), 9 + 6);
    let text = format!("{domain}constraint int_le(40000, x);\nsolve minimize x;\n");
    assert_eq!(
        printed(&text, false).0,
        "x = 1000000;\n----------\n==========\n"
    );
    let text = format!("{domain}constraint int_le(x, 1999999);\nsolve maximize x;\n");
    assert_eq!(
        printed(&text, false).0,
        "x = 1039999;\n----------\n==========\n"
    );
    let text = format!("{domain}solve maximize x;\n");
    assert_eq!(
        printed(&text, false).0,
        "x = 2000000;\n----------\n==========\n"
    );
    // A hull wider than a range variable: listed, whatever the number of values.
    let domain = listed((0..70_000).chain([10_000_000_000]));
    let model = FznModel::from_str(&format!("{domain}solve satisfy;\n")).expect("compiled");
    assert_eq!(model.model().universes(), [70_001]);
    let text = format!("{domain}constraint int_le(70000, x);\nsolve satisfy;\n");
    assert_eq!(printed(&text, false).0, "x = 10000000000;\n----------\n");
}

#[test]
fn set_in_reif_and_among_over_a_wide_domain() {
    // 100001 values: neither a table of them nor a list, but intervals.
    let text = "var 0..100000: x :: output_var;\n\
                var bool: r :: output_var;\n\
                var bool: i :: output_var;\n\
                constraint set_in_reif(x, {5, 7, 8, 9, 50000}, r);\n\
                constraint set_in_imp(x, 4..8, i);\n\
                constraint int_le(x, 10);\n\
                solve satisfy;\n";
    let (out, _) = printed(text, true);
    for v in 0..=10 {
        let r = [5, 7, 8, 9].contains(&v);
        assert!(
            out.contains(&format!("x = {v};\nr = {r};\ni = false;\n")),
            "{v}:\n{out}"
        );
        assert_eq!(
            out.contains(&format!("x = {v};\nr = {r};\ni = true;\n")),
            (4..=8).contains(&v),
            "{v}:\n{out}"
        );
    }
    assert_eq!(count(text), 11 + 5);
    let text = "var 0..100000: a :: output_var;\n\
                var 0..100000: b :: output_var;\n\
                var 0..2: n :: output_var;\n\
                constraint fzn_among(n, [a, b], 10000..99999);\n\
                constraint int_le(9998, a);\n\
                constraint int_le(a, 10001);\n\
                constraint int_le(9998, b);\n\
                constraint int_le(b, 10001);\n\
                solve satisfy;\n";
    assert_eq!(count(text), 16);
    assert_eq!(count(&text.replace("var 0..2: n", "var 1..1: n")), 8);
}

#[test]
fn more_than_u32_max_values_is_refused_with_the_variable_and_its_line() {
    for (text, line) in [
        ("var 0..10000000000: x;\nsolve satisfy;\n", 1),
        (
            "var 1..2: y;\nvar int: x;\nconstraint set_in(x, -1..4294967295);\nsolve satisfy;\n",
            2,
        ),
    ] {
        let (status, out, err) = binary(text);
        assert_eq!(status, Some(1), "{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(&format!("line {line}: `x` takes ")), "{err}");
        assert!(
            err.contains("ambsolve takes at most 4294967295 values per variable"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn tables_automata_and_lookups_over_unbounded_var_int_read_what_they_list() {
    // Each over variables of four billion values: their tables are as long as the rows,
    // the symbols or the entries, and the solutions are those.
    let table = "var int: x :: output_var;\nvar int: y :: output_var;\n\
                 constraint fzn_table_int([x, y], [1, 2, 3, 4]);\nsolve satisfy;\n";
    assert_eq!(count(table), 2);
    let regular = "array [1..3] of var int: x :: output_array([1..3]);\n\
                   constraint fzn_regular(x, 2, 2, [2, 1, 0, 2], 1, {1});\nsolve satisfy;\n";
    assert_eq!(
        printed(regular, true).0,
        "x = array1d(1..3, [2, 2, 2]);\n----------\n==========\n"
    );
    let element = "var 1..3: i :: output_var;\nvar int: y :: output_var;\n\
                   constraint array_int_element(i, [10, 20, 30], y);\n\
                   constraint int_ne(y, 20);\nsolve satisfy;\n";
    assert_eq!(count(element), 2);
}
