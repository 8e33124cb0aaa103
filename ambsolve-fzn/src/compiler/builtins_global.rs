//! The handlers of the global constraints ambsolve's mznlib declares native
//! (`mznlib/fzn_*.mzn` and the `ambsolve_*` predicates they call): each maps to the
//! `Model` method of the same meaning.

use ambsolve::{Cmp, Dfa, Lit, Var};

use super::call::{Call, Handler};
use super::context::{Context, Elem, MAX_LISTED};
use super::int_set::IntSet;
use super::membership;
use crate::error::FznError;

/// The globals of the mznlib (`mznlib/fzn_*.mzn`) this file handles, with their handlers
/// (see [`builtins`](super::post_constraints::builtins)).
pub(crate) const BUILTINS: &[(&str, Handler)] = &[
    // Natively supported globals (mznlib/fzn_*.mzn).
    ("fzn_all_different_int", all_different_int),
    ("fzn_alldifferent_except_0", all_different_except),
    ("ambsolve_all_different_except", all_different_except),
    ("fzn_table_int", table),
    ("fzn_table_bool", table),
    ("fzn_all_equal_int", order),
    ("fzn_increasing_int", order),
    ("fzn_increasing_bool", order),
    ("fzn_decreasing_int", order),
    ("fzn_decreasing_bool", order),
    ("fzn_lex_lesseq_int", lex),
    ("fzn_lex_lesseq_bool", lex),
    ("fzn_lex_less_int", lex),
    ("fzn_lex_less_bool", lex),
    ("fzn_count_eq", count_eq),
    ("fzn_count_eq_par", count_eq),
    ("fzn_among", among),
    ("fzn_at_most_int", occurrences),
    ("fzn_at_least_int", occurrences),
    ("fzn_exactly_int", occurrences),
    ("fzn_global_cardinality", global_cardinality),
    ("fzn_global_cardinality_closed", global_cardinality),
    ("fzn_nvalue", nvalue),
    ("fzn_regular", regular),
    ("ambsolve_circuit", circuit),
    ("ambsolve_subcircuit", circuit),
    ("ambsolve_inverse", inverse),
    ("fzn_disjunctive", disjunctive),
    ("fzn_disjunctive_strict", disjunctive),
    ("fzn_cumulative", cumulative),
    ("ambsolve_disjunctive_optional", disjunctive_optional),
    ("ambsolve_cumulative_optional", cumulative_optional),
    ("ambsolve_bin_packing_load", bin_packing),
    ("ambsolve_bin_packing_capa", bin_packing),
    ("fzn_bin_packing", bin_packing),
    ("fzn_value_precede_chain_int", value_precede),
    ("fzn_value_precede_int", value_precede),
    ("fzn_diffn", diffn),
    ("fzn_diffn_nonstrict", diffn),
];

/// `fzn_all_different_int(xs)`: the values of `xs` are pairwise different.
pub(crate) fn all_different_int(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs] = call.arity(1)? else {
        unreachable!("one argument")
    };
    let xs = ctx.elems(call.line, xs)?;
    let vars: Vec<Var<i64>> = xs.into_iter().map(|x| ctx.var(x)).collect();
    ctx.model.all_different_offset(vars.iter().map(|v| (v, 0)));
    Ok(())
}

/// `fzn_alldifferent_except_0(xs)`: the items other than 0 are pairwise different;
/// `ambsolve_all_different_except(xs, v)`: the same for any value `v`.
pub(crate) fn all_different_except(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let (xs, value) = match call.args {
        [xs] if call.name == "fzn_alldifferent_except_0" => (xs, 0),
        [xs, value] if call.name == "ambsolve_all_different_except" => {
            (xs, ctx.int(call.line, value)?)
        }
        _ => {
            let count = if call.name == "fzn_alldifferent_except_0" {
                1
            } else {
                2
            };
            call.arity(count)?;
            unreachable!("arity refused")
        }
    };
    let xs = ctx.int_args(call.line, xs)?;
    ctx.model.all_different_except(xs, value);
    Ok(())
}

/// `fzn_table_int(xs, t)` and `fzn_table_bool`: the values of `xs` form a row of `t`
/// (its rows flattened one after another).
pub(crate) fn table(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, table] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let xs = ctx.elems(call.line, xs)?;
    let table = ctx.ints(call.line, table)?;
    if xs.is_empty() || table.len() % xs.len() != 0 {
        return Err(FznError::invalid(
            call.line,
            format!(
                "`{}`: a table of {} values does not split into rows of {}",
                call.name,
                table.len(),
                xs.len()
            ),
        ));
    }
    let vars: Vec<Var<i64>> = xs.into_iter().map(|x| ctx.var(x)).collect();
    ctx.model.table(&vars, table.chunks(vars.len()));
    Ok(())
}

/// `fzn_{all_equal,increasing,decreasing}_{int,bool}(xs)`: an order over one array.
pub(crate) fn order(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs] = call.arity(1)? else {
        unreachable!("one argument")
    };
    let xs = ctx.int_args(call.line, xs)?;
    let model = &mut ctx.model;
    match call.name.trim_end_matches("_int").trim_end_matches("_bool") {
        "fzn_all_equal" => model.all_equal(xs),
        "fzn_increasing" => model.increasing(xs),
        "fzn_decreasing" => model.decreasing(xs),
        other => unreachable!("not an order: {other}"),
    }
    Ok(())
}

/// `fzn_lex_{lesseq,less}_{int,bool}(xs, ys)`: `xs` is lexicographically at most (below)
/// `ys`.
pub(crate) fn lex(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, ys] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let xs = ctx.int_args(call.line, xs)?;
    let ys = ctx.int_args(call.line, ys)?;
    if call.name.starts_with("fzn_lex_lesseq") {
        ctx.model.lex_lesseq(xs, ys);
    } else {
        ctx.model.lex_less(xs, ys);
    }
    Ok(())
}

/// `fzn_count_eq(xs, y, c)` and `fzn_count_eq_par`: `c` items of `xs` equal `y`.
pub(crate) fn count_eq(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, y, c] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let xs = ctx.int_args(call.line, xs)?;
    let (y, c) = (ctx.elem(call.line, y)?, ctx.elem(call.line, c)?);
    let (y, c) = (ctx.arg(y), ctx.arg(c));
    ctx.model.count(xs, y, c);
    Ok(())
}

/// `fzn_among(n, xs, S)`: `n` items of `xs` take a value of the set `S`: `Model::among`
/// over the values of `S` an item can take (between the least and the greatest of their
/// domains), if there are at most `MAX_LISTED`; else the sum of a 0/1 variable per item,
/// true exactly when the item is in `S` (`membership::reify`).
pub(crate) fn among(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [n, xs, set] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let n = ctx.elem(call.line, n)?;
    let xs = ctx.elems(call.line, xs)?;
    let set = ctx.set(call.line, set)?;
    let domains: Vec<IntSet> = xs.iter().map(|&x| ctx.domain(x)).collect();
    let hulls = || domains.iter().filter_map(IntSet::hull);
    let reachable = match (hulls().map(|h| h.0).min(), hulls().map(|h| h.1).max()) {
        (Some(low), Some(high)) => set.intersect(&IntSet::range(low, high)),
        _ => IntSet::default(),
    };
    if reachable.len() <= MAX_LISTED {
        let (n, xs) = (ctx.arg(n), ctx.args(&xs));
        ctx.model.among(xs, &reachable.to_vec(), n);
        return Ok(());
    }
    let mut terms: Vec<(i64, Var<i64>)> = Vec::new();
    for (&x, domain) in xs.iter().zip(&domains) {
        let x = ctx.var(x);
        let inside = ctx.model.range_var(0..=1);
        membership::reify(&mut ctx.model, &x, domain, &set, Lit::from(&inside), true);
        terms.push((1, inside));
    }
    let rhs = match n {
        Elem::Const(value) => value,
        Elem::Var(_) => {
            terms.push((-1, ctx.var(n)));
            0
        }
    };
    ctx.model
        .linear(terms.iter().map(|(c, v)| (*c, v)), Cmp::Eq, rhs);
    Ok(())
}

/// `fzn_{at_most,at_least,exactly}_int(n, xs, v)`: at most / at least / exactly `n`
/// items of `xs` equal `v` (`n` and `v` constants).
pub(crate) fn occurrences(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [n, xs, v] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let n = ctx.int(call.line, n)?;
    let v = ctx.int(call.line, v)?;
    let xs = ctx.int_args(call.line, xs)?;
    let model = &mut ctx.model;
    match call.name {
        "fzn_at_most_int" => model.at_most(n, xs, v),
        "fzn_at_least_int" => model.at_least(n, xs, v),
        "fzn_exactly_int" => model.count(xs, v, n),
        other => unreachable!("not a count: {other}"),
    }
    Ok(())
}

/// `fzn_global_cardinality(xs, cover, counts)`: `counts[i]` items of `xs` equal
/// `cover[i]`; `fzn_global_cardinality_closed`: and every item takes a value of `cover`.
pub(crate) fn global_cardinality(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, cover, counts] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let xs = ctx.int_args(call.line, xs)?;
    let cover = ctx.ints(call.line, cover)?;
    let counts = ctx.int_args(call.line, counts)?;
    let closed = call.name == "fzn_global_cardinality_closed";
    ctx.model.global_cardinality(xs, &cover, counts, closed);
    Ok(())
}

/// `fzn_nvalue(n, xs)`: `xs` take `n` distinct values.
pub(crate) fn nvalue(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [n, xs] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let n = ctx.int_arg(call.line, n)?;
    let xs = ctx.int_args(call.line, xs)?;
    ctx.model.nvalue(n, xs);
    Ok(())
}

/// `fzn_regular(xs, Q, S, d, q0, F)`: the word `xs` is accepted by the automaton of states
/// `1..Q` over symbols `1..S`, with transitions `d` (`Q` rows of `S` next states, 0 for
/// none), start `q0` and accepting states `F`.
pub(crate) fn regular(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, q, s, d, q0, f] = call.arity(6)? else {
        unreachable!("six arguments")
    };
    let line = call.line;
    let xs = ctx.elems(line, xs)?;
    let xs = ctx.args(&xs);
    let (q, s, q0) = (ctx.int(line, q)?, ctx.int(line, s)?, ctx.int(line, q0)?);
    let d = ctx.ints(line, d)?;
    let accepting = ctx.set(line, f)?;
    let wrong = |what: String| FznError::invalid(line, format!("`{}`: {what}", call.name));
    let states = usize::try_from(q).map_err(|_| wrong(format!("{q} states")))?;
    let symbols = usize::try_from(s).map_err(|_| wrong(format!("{s} symbols")))?;
    if d.len() != states.saturating_mul(symbols) {
        return Err(wrong(format!(
            "{} transitions for {states} states and {symbols} symbols",
            d.len()
        )));
    }
    let state = |value: i64| -> Result<usize, FznError> {
        usize::try_from(value)
            .ok()
            .filter(|&v| (1..=states).contains(&v))
            .map(|v| v - 1)
            .ok_or_else(|| wrong(format!("state {value} is not in 1..{states}")))
    };
    let mut dfa = Dfa::new(states, state(q0)?);
    // Its bounds checked first: then it has at most `states` values.
    if let Some((first, last)) = accepting.hull() {
        state(first)?;
        state(last)?;
    }
    for f in accepting.values() {
        dfa.accept(state(f)?);
    }
    for (at, &to) in d.iter().enumerate() {
        if to != 0 {
            let symbol = (at % symbols + 1) as i64;
            dfa.transition(at / symbols, symbol, state(to)?);
        }
    }
    ctx.model.regular(xs, &dfa);
    Ok(())
}

/// `ambsolve_circuit(xs, offset)` and `ambsolve_subcircuit`: `xs[i]` is the successor of
/// node `i` in one circuit over every node (a circuit over some nodes, the others their
/// own successor), nodes numbered from `offset`.
pub(crate) fn circuit(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [xs, offset] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let xs = ctx.int_args(call.line, xs)?;
    let offset = ctx.int(call.line, offset)?;
    if call.name == "ambsolve_circuit" {
        ctx.model.circuit_offset(xs, offset);
    } else {
        ctx.model.subcircuit_offset(xs, offset);
    }
    Ok(())
}

/// `ambsolve_inverse(f, f_offset, g, g_offset)`: `f[i] = j` exactly when `g[j] = i`, `f`
/// indexed from `f_offset` and `g` from `g_offset`.
pub(crate) fn inverse(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [f, f_offset, g, g_offset] = call.arity(4)? else {
        unreachable!("four arguments")
    };
    let f = ctx.int_args(call.line, f)?;
    let g = ctx.int_args(call.line, g)?;
    let (f_offset, g_offset) = (ctx.int(call.line, f_offset)?, ctx.int(call.line, g_offset)?);
    ctx.model.inverse_offset(f, f_offset, g, g_offset);
    Ok(())
}

/// `fzn_disjunctive(s, d)` and `fzn_disjunctive_strict(s, d)`: no two tasks (start `s[i]`,
/// duration `d[i]`) overlap; tasks of duration 0 are free, or (strict) not inside another.
pub(crate) fn disjunctive(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [s, d] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let s = ctx.int_args(call.line, s)?;
    let d = ctx.int_args(call.line, d)?;
    if call.name == "fzn_disjunctive_strict" {
        ctx.model.disjunctive_strict(s, d);
    } else {
        ctx.model.disjunctive(s, d);
    }
    Ok(())
}

/// `ambsolve_disjunctive_optional(s, d, present)`: no two present tasks (start `s[i]`,
/// duration `d[i]`, present when `present[i]`) overlap; tasks of duration 0 are free.
pub(crate) fn disjunctive_optional(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [s, d, present] = call.arity(3)? else {
        unreachable!("three arguments")
    };
    let s = ctx.int_args(call.line, s)?;
    let d = ctx.int_args(call.line, d)?;
    let present = ctx.lit_args(call.line, present)?;
    ctx.model.disjunctive_optional(s, d, present);
    Ok(())
}

/// `ambsolve_cumulative_optional(s, d, r, present, b)`: at every time, the present tasks
/// running use at most `b` in all.
pub(crate) fn cumulative_optional(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [s, d, r, present, b] = call.arity(5)? else {
        unreachable!("five arguments")
    };
    let s = ctx.int_args(call.line, s)?;
    let d = ctx.int_args(call.line, d)?;
    let r = ctx.int_args(call.line, r)?;
    let present = ctx.lit_args(call.line, present)?;
    let b = ctx.int_arg(call.line, b)?;
    ctx.model.cumulative_optional(s, d, r, present, b);
    Ok(())
}

/// `fzn_cumulative(s, d, r, b)`: at every time, the tasks running (start `s[i]`, duration
/// `d[i]`) use at most `b` in all (`r[i]` each).
pub(crate) fn cumulative(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [s, d, r, b] = call.arity(4)? else {
        unreachable!("four arguments")
    };
    let s = ctx.int_args(call.line, s)?;
    let d = ctx.int_args(call.line, d)?;
    let r = ctx.int_args(call.line, r)?;
    let b = ctx.int_arg(call.line, b)?;
    ctx.model.cumulative(s, d, r, b);
    Ok(())
}

/// `ambsolve_bin_packing_load(load, bin, w, offset)`: `load[b]` is the sum of the weights
/// of the items in bin `offset + b`, every item in one of them;
/// `ambsolve_bin_packing_capa(c, bin, w, offset)`: bin `offset + b` holds at most `c[b]`;
/// `fzn_bin_packing(c, bin, w)`: no bin the items' domains span holds more than `c`.
pub(crate) fn bin_packing(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    if call.name == "fzn_bin_packing" {
        let [c, bin, w] = call.arity(3)? else {
            unreachable!("three arguments")
        };
        let c = ctx.int(call.line, c)?;
        let bin = ctx.int_args(call.line, bin)?;
        let w = ctx.int_args(call.line, w)?;
        ctx.model.bin_packing(c, bin, w);
        return Ok(());
    }
    let [first, bin, w, offset] = call.arity(4)? else {
        unreachable!("four arguments")
    };
    let first = ctx.int_args(call.line, first)?;
    let bin = ctx.int_args(call.line, bin)?;
    let w = ctx.int_args(call.line, w)?;
    let offset = ctx.int(call.line, offset)?;
    if call.name == "ambsolve_bin_packing_load" {
        ctx.model.bin_packing_load_offset(first, bin, w, offset);
    } else {
        ctx.model.bin_packing_capa_offset(first, bin, w, offset);
    }
    Ok(())
}

/// `fzn_value_precede_chain_int(c, x)`: the values of `c` are used in their order in `x`;
/// `fzn_value_precede_int(s, t, x)`: `s` is used before `t`.
pub(crate) fn value_precede(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    if call.name == "fzn_value_precede_int" {
        let [s, t, xs] = call.arity(3)? else {
            unreachable!("three arguments")
        };
        let (s, t) = (ctx.int(call.line, s)?, ctx.int(call.line, t)?);
        let xs = ctx.int_args(call.line, xs)?;
        ctx.model.value_precede(s, t, xs);
        return Ok(());
    }
    let [c, xs] = call.arity(2)? else {
        unreachable!("two arguments")
    };
    let c = ctx.int_args(call.line, c)?;
    let xs = ctx.int_args(call.line, xs)?;
    ctx.model.value_precede_chain(c, xs);
    Ok(())
}

/// `fzn_diffn(x, y, dx, dy)`: the rectangles at `(x[i], y[i])` of sizes `dx[i]` by `dy[i]`
/// do not overlap; `fzn_diffn_nonstrict`: those of width or height 0 may lie anywhere.
pub(crate) fn diffn(ctx: &mut Context, call: &Call<'_>) -> Result<(), FznError> {
    let [x, y, dx, dy] = call.arity(4)? else {
        unreachable!("four arguments")
    };
    let x = ctx.int_args(call.line, x)?;
    let y = ctx.int_args(call.line, y)?;
    let dx = ctx.int_args(call.line, dx)?;
    let dy = ctx.int_args(call.line, dy)?;
    if call.name == "fzn_diffn_nonstrict" {
        ctx.model.diffn_nonstrict(x, y, dx, dy);
    } else {
        ctx.model.diffn(x, y, dx, dy);
    }
    Ok(())
}
