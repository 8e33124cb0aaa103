//! The constraint kinds that arithmetic and lookups flatten to: functional tables over
//! the arguments' values (exact, and pruning every value without support), and element
//! lookups over variables as reified equalities.

use hashbrown::HashMap;

use crate::exact::Exact;
use crate::expr::flatten::{Flat, Operand, Val};
use crate::model::{Cmp, Lit};
use crate::var::VarId;

/// The most tuples a functional table may list.
pub(crate) const TABLE_LIMIT: usize = 1 << 20;

/// A new auxiliary variable over `values` (any order, repeats allowed), or `None` (the
/// model made invalid) if one is beyond `i64`.
pub(crate) fn result(f: &mut Flat<'_, '_>, name: &str, mut values: Vec<i128>) -> Option<Operand> {
    values.sort_unstable();
    values.dedup();
    let mut images = Vec::with_capacity(values.len());
    for v in values {
        match i64::try_from(v) {
            Ok(v) => images.push(v),
            Err(_) => {
                f.fail(format!(
                    "a value of an auxiliary variable ({name}), {v}, does not fit in an i64"
                ));
                return None;
            }
        }
    }
    Some(f.aux_over(name, images))
}

/// The result of `compute` over `args` (`None`: undefined, ruled out), tied to them by a
/// table of every combination of their values: `target`, or a new auxiliary variable
/// over the values computed.
fn functional(
    f: &mut Flat<'_, '_>,
    name: &str,
    args: &[&Val],
    target: Option<Operand>,
    compute: impl Fn(&[i128]) -> Option<i128>,
) -> Option<Operand> {
    // The distinct variables among the arguments, and where each argument reads.
    let mut vars: Vec<&Operand> = Vec::new();
    let mut reads: Vec<Result<usize, i128>> = Vec::with_capacity(args.len());
    for arg in args {
        reads.push(match arg {
            Val::Const(c) => Err(*c),
            Val::Var(op) => Ok(match vars.iter().position(|v| v.var == op.var) {
                Some(k) => k,
                None => {
                    vars.push(op);
                    vars.len() - 1
                }
            }),
        });
    }
    let combinations = vars
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.images.len()));
    let Some(combinations) = combinations.filter(|&n| n <= TABLE_LIMIT) else {
        f.fail(format!(
            "a {name} over arguments with {} values: too many combinations (at most {TABLE_LIMIT})",
            vars.iter()
                .map(|v| v.images.len().to_string())
                .collect::<Vec<_>>()
                .join(" × ")
        ));
        return None;
    };
    // Each combination of value indices, the last variable fastest, and its result.
    let mut computed: Vec<(Vec<u32>, i128)> = Vec::new();
    let mut indices = vec![0usize; vars.len()];
    let mut values = vec![0i128; args.len()];
    for _ in 0..combinations {
        for (k, read) in reads.iter().enumerate() {
            values[k] = match read {
                Err(c) => *c,
                Ok(v) => i128::from(vars[*v].images[indices[*v]]),
            };
        }
        if let Some(r) = compute(&values) {
            computed.push((indices.iter().map(|&i| i as u32).collect(), r));
        }
        for k in (0..vars.len()).rev() {
            indices[k] += 1;
            if indices[k] < vars[k].images.len() {
                break;
            }
            indices[k] = 0;
        }
    }
    let z = match target {
        Some(target) => target,
        None => result(f, name, computed.iter().map(|(_, r)| *r).collect())?,
    };
    // The result's value indices by value (a variable may list a value twice).
    let mut at: HashMap<i128, Vec<u32>> = HashMap::new();
    for (i, &v) in z.images.iter().enumerate() {
        at.entry(i128::from(v)).or_default().push(i as u32);
    }
    let mut tuples: Vec<Vec<u32>> = Vec::with_capacity(computed.len());
    for (indices, r) in computed {
        for &zi in at.get(&r).into_iter().flatten() {
            let mut tuple = indices.clone();
            tuple.push(zi);
            tuples.push(tuple);
        }
    }
    let mut scope: Vec<VarId> = vars.iter().map(|v| v.var).collect();
    scope.push(z.var);
    f.model.table_indices(&scope, tuples);
    Some(z)
}

/// `x × y`.
pub(crate) fn times(
    f: &mut Flat<'_, '_>,
    x: &Val,
    y: &Val,
    target: Option<Operand>,
) -> Option<Operand> {
    functional(f, "product", &[x, y], target, |v| v[0].checked_mul(v[1]))
}

/// `x / y` (or `x % y`), truncating; `y = 0` is ruled out.
pub(crate) fn divide(
    f: &mut Flat<'_, '_>,
    x: &Val,
    y: &Val,
    rem: bool,
    target: Option<Operand>,
) -> Option<Operand> {
    let name = if rem { "remainder" } else { "quotient" };
    functional(f, name, &[x, y], target, |v| {
        if rem {
            v[0].checked_rem(v[1])
        } else {
            v[0].checked_div(v[1])
        }
    })
}

/// `x^y`; `y < 0` is ruled out, `0^0 = 1`.
pub(crate) fn power(
    f: &mut Flat<'_, '_>,
    x: &Val,
    y: &Val,
    target: Option<Operand>,
) -> Option<Operand> {
    functional(f, "power", &[x, y], target, |v| {
        Exact::of(v[0]).power(Exact::of(v[1])).get()
    })
}

/// `|x|`.
pub(crate) fn abs(f: &mut Flat<'_, '_>, x: &Val, target: Option<Operand>) -> Option<Operand> {
    functional(f, "absolute value", &[x], target, |v| v[0].checked_abs())
}

/// `z = min(xs)` (or max): `z` at most (least) each, and equal to one.
pub(crate) fn extreme(f: &mut Flat<'_, '_>, xs: &[Val], z: &Operand, max: bool) {
    // z <= x (min) or z >= x (max) for each x; and z >= x (min) for one x, through
    // literals b <-> (z >= x) (each determined by z and x) and their clause.
    let (bound, reach) = if max {
        (Cmp::Ge, Cmp::Le)
    } else {
        (Cmp::Le, Cmp::Ge)
    };
    let mut lits: Vec<Lit> = Vec::with_capacity(xs.len());
    for x in xs {
        let (terms, rhs) = match x {
            Val::Const(c) => (vec![z.term(1)], *c),
            Val::Var(op) => (vec![z.term(1), op.term(-1)], 0),
        };
        let Ok(rhs) = i64::try_from(rhs) else {
            return f.fail(format!(
                "a constant of a min or max, {rhs}, does not fit in an i64"
            ));
        };
        f.model.linear(terms.clone(), bound, rhs);
        let lit = f.new_lit("reaches the extreme");
        f.model.linear_reified(terms, reach, rhs, lit);
        lits.push(lit);
    }
    f.model.clause(lits);
}

/// `z = items[index - offset]`, the index within the items (`None` for items it cannot
/// reach).
pub(crate) fn element(
    f: &mut Flat<'_, '_>,
    index: &Operand,
    offset: i128,
    items: &[Option<Val>],
    z: &Operand,
) {
    let constants: Option<Vec<Option<i128>>> = items
        .iter()
        .map(|item| match item {
            Some(Val::Const(c)) => Some(Some(*c)),
            None => Some(None),
            Some(Val::Var(_)) => None,
        })
        .collect();
    if let Some(constants) = constants {
        // Constants: a table from the index to the entry.
        let read = move |v: &[i128]| {
            let at = usize::try_from(v[0] - offset).ok()?;
            constants.get(at).copied().flatten()
        };
        functional(
            f,
            "lookup",
            &[&Val::Var(index.clone())],
            Some(z.clone()),
            read,
        );
        return;
    }
    // Variables: b_k <-> (index == offset + k), b_k -> z == items[k]; the index is within
    // the items, so exactly one b_k holds and z is determined.
    let mut lits = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let Some(item) = item else { continue };
        let Ok(at) = i64::try_from(offset + k as i128) else {
            continue;
        };
        let b = f.new_lit("index reads this item");
        f.model.linear_reified([index.term(1)], Cmp::Eq, at, b);
        match item {
            Val::Const(c) => match i64::try_from(*c) {
                Ok(c) => f.model.linear_implied([z.term(1)], Cmp::Eq, c, b),
                Err(_) => {
                    return f.fail(format!("an item of a lookup, {c}, does not fit in an i64"));
                }
            },
            Val::Var(op) => f
                .model
                .linear_implied([z.term(1), op.term(-1)], Cmp::Eq, 0, b),
        }
        lits.push(b);
    }
    f.model.clause(lits);
}

/// `table[row][col]` over the `cells` the indices reach: with `defined`, that literal
/// says whether the indices name a cell (and the value read is a fixed one when they do
/// not); without, indices naming no cell are ruled out.
pub(crate) fn element2d(
    f: &mut Flat<'_, '_>,
    row: &Val,
    col: &Val,
    cells: &[((usize, usize), Val)],
    defined: Option<Lit>,
) -> Option<Val> {
    let constant = cells.iter().all(|(_, v)| matches!(v, Val::Const(_)));
    // The value read: the cell's constant, or the position of the cell among `cells`
    // (then an element over them gives the value).
    let key = |k: usize| -> i128 {
        match &cells[k].1 {
            Val::Const(c) if constant => *c,
            _ => k as i128,
        }
    };
    let mut keys: Vec<i128> = (0..cells.len()).map(key).collect();
    keys.sort_unstable();
    keys.dedup();
    let Ok(keys) = keys
        .iter()
        .map(|&k| i64::try_from(k))
        .collect::<Result<Vec<i64>, _>>()
    else {
        f.fail("an entry of a table does not fit in an i64");
        return None;
    };
    let read = f.aux_over(
        if constant {
            "table entry"
        } else {
            "table cell"
        },
        keys,
    );
    let find = |i: i128, j: i128| {
        cells
            .iter()
            .position(|((r, c), _)| *r as i128 == i && *c as i128 == j)
    };
    match defined {
        None => {
            functional(
                f,
                "lookup in a table",
                &[row, col],
                Some(read.clone()),
                |v| find(v[0], v[1]).map(key),
            )?;
        }
        Some(d) => {
            // (row, col) -> 1 and the key of the cell, or 0 and the first key.
            let (d_op, _) = f.int_of_lit(d);
            let safe = i128::from(read.images[0]);
            let width = i128::from(read.hi) - i128::from(read.lo) + 1;
            let pair = f.aux("a cell or none", (0, 2 * width - 1))?;
            functional(
                f,
                "lookup in a table",
                &[row, col],
                Some(pair.clone()),
                |v| {
                    Some(match find(v[0], v[1]) {
                        Some(k) => width + key(k) - i128::from(read.lo),
                        None => safe - i128::from(read.lo),
                    })
                },
            )?;
            // pair = d × width + (read - lo)
            let lo = read.lo;
            f.model.linear(
                [pair.term(1), d_op.term(-(width as i64)), read.term(-1)],
                Cmp::Eq,
                -lo,
            );
        }
    }
    if constant {
        return Some(Val::Var(read));
    }
    let items: Vec<Option<Val>> = cells.iter().map(|(_, v)| Some(v.clone())).collect();
    let lo = items.iter().flatten().map(|v| v.bounds().0).min()?;
    let hi = items.iter().flatten().map(|v| v.bounds().1).max()?;
    let z = f.aux("element", (lo, hi))?;
    element(f, &read, 0, &items, &z);
    Some(Val::Var(z))
}
