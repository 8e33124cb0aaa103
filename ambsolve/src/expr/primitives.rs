//! The constraint kinds that arithmetic, lookups and counts flatten to: the model's own
//! propagating kinds (`times`, `div`, `rem`, `pow`, `abs`, `min`, `max`, `element`,
//! `element2d`, `count`, `among`, `nvalue`) over the arguments and an auxiliary result,
//! which lists the values the result can take when the arguments have few combinations
//! and ranges over the result's bounds otherwise.

use crate::exact::Exact;
use crate::expr::flatten::{Flat, Operand, Val};
use crate::model::{IntArg, Lit};
use crate::var::VarId;

/// The most tuples a functional table may list.
pub(crate) const TABLE_LIMIT: usize = 1 << 20;

/// The most combinations of argument values whose results are listed one by one (beyond,
/// a result ranges over its bounds).
const LISTED: usize = 1 << 16;

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

/// `v` as a constraint's argument; a constant beyond `i64` makes the model invalid.
pub(crate) fn arg(f: &mut Flat<'_, '_>, v: &Val) -> Option<IntArg> {
    match v {
        Val::Var(op) => Some(op.arg()),
        Val::Const(c) => match i64::try_from(*c) {
            Ok(c) => Some(IntArg::from(c)),
            Err(_) => {
                f.fail(format!(
                    "a constant of an expression, {c}, does not fit in an i64"
                ));
                None
            }
        },
    }
}

/// The distinct variables among `args` and where each argument reads (a variable's
/// position, or the constant).
fn distinct<'v>(args: &[&'v Val]) -> (Vec<&'v Operand>, Vec<Result<usize, i128>>) {
    let mut vars: Vec<&Operand> = Vec::new();
    let mut reads = Vec::with_capacity(args.len());
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
    (vars, reads)
}

/// Calls `visit` with each combination of the value indices of the distinct variables of
/// `args` (the last fastest) and the arguments' values there; `Err(n)` without visiting
/// when there are `n` > `limit` combinations (`usize::MAX` past it).
fn each_combination(
    args: &[&Val],
    limit: usize,
    mut visit: impl FnMut(&[usize], &[i128]),
) -> Result<(), usize> {
    let (vars, reads) = distinct(args);
    let combinations = vars
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.images.len()))
        .unwrap_or(usize::MAX);
    if combinations > limit {
        return Err(combinations);
    }
    let mut indices = vec![0usize; vars.len()];
    let mut values = vec![0i128; args.len()];
    for _ in 0..combinations {
        for (k, read) in reads.iter().enumerate() {
            values[k] = match read {
                Err(c) => *c,
                Ok(v) => i128::from(vars[*v].images.get(indices[*v])),
            };
        }
        visit(&indices, &values);
        for k in (0..vars.len()).rev() {
            indices[k] += 1;
            if indices[k] < vars[k].images.len() {
                break;
            }
            indices[k] = 0;
        }
    }
    Ok(())
}

/// The variable a function's result goes to: `target`, or a new auxiliary variable over
/// the values `compute` gives on the arguments' combinations (`None`: undefined there)
/// when they are few, else over `bounds` (too wide, the model becomes invalid).
fn sized(
    f: &mut Flat<'_, '_>,
    name: &str,
    args: &[&Val],
    target: Option<Operand>,
    compute: impl Fn(&[i128]) -> Option<i128>,
    bounds: impl FnOnce() -> Option<(i128, i128)>,
) -> Option<Operand> {
    if let Some(target) = target {
        return Some(target);
    }
    let mut values = Vec::new();
    let listed = each_combination(args, LISTED, |_, v| values.extend(compute(v)));
    match listed {
        Ok(()) => result(f, name, values),
        Err(_) => match bounds() {
            Some(bounds) => f.aux(name, bounds),
            None => {
                f.fail(format!("the bounds of a {name} do not fit in an i128"));
                None
            }
        },
    }
}

/// The largest magnitude of `v`.
fn magnitude(v: &Val) -> i128 {
    let (lo, hi) = v.bounds();
    lo.abs().max(hi.abs())
}

/// `x × y`: the model's `times`.
pub(crate) fn times(
    f: &mut Flat<'_, '_>,
    x: &Val,
    y: &Val,
    target: Option<Operand>,
) -> Option<Operand> {
    let bounds = || {
        let ((a, b), (c, d)) = (x.bounds(), y.bounds());
        let corners = [a * c, a * d, b * c, b * d];
        Some((*corners.iter().min()?, *corners.iter().max()?))
    };
    let z = sized(
        f,
        "product",
        &[x, y],
        target,
        |v| v[0].checked_mul(v[1]),
        bounds,
    )?;
    let (xa, ya) = (arg(f, x)?, arg(f, y)?);
    f.model.times(xa, ya, z.arg());
    Some(z)
}

/// `x / y` (or `x % y`), truncating: the model's `div` (`rem`), false for `y = 0`.
pub(crate) fn divide(
    f: &mut Flat<'_, '_>,
    x: &Val,
    y: &Val,
    rem: bool,
    target: Option<Operand>,
) -> Option<Operand> {
    let name = if rem { "remainder" } else { "quotient" };
    let bounds = || {
        let m = magnitude(x);
        let m = if rem {
            m.min((magnitude(y) - 1).max(0))
        } else {
            m
        };
        let (lo, hi) = x.bounds();
        Some(if rem && lo >= 0 {
            (0, m)
        } else if rem && hi <= 0 {
            (-m, 0)
        } else {
            (-m, m)
        })
    };
    let compute = |v: &[i128]| {
        if rem {
            v[0].checked_rem(v[1])
        } else {
            v[0].checked_div(v[1])
        }
    };
    let z = sized(f, name, &[x, y], target, compute, bounds)?;
    let (xa, ya) = (arg(f, x)?, arg(f, y)?);
    if rem {
        f.model.rem(xa, ya, z.arg());
    } else {
        f.model.div(xa, ya, z.arg());
    }
    Some(z)
}

/// `x^y`: the model's `pow` (`0^0 = 1`, false for `y < 0`).
pub(crate) fn power(
    f: &mut Flat<'_, '_>,
    x: &Val,
    y: &Val,
    target: Option<Operand>,
) -> Option<Operand> {
    let bounds = || {
        let m = Exact::of(magnitude(x))
            .power(Exact::of(y.bounds().1.max(0)))
            .get()?
            .max(1);
        Some(if x.bounds().0 >= 0 { (0, m) } else { (-m, m) })
    };
    let compute = |v: &[i128]| Exact::of(v[0]).power(Exact::of(v[1])).get();
    let z = sized(f, "power", &[x, y], target, compute, bounds)?;
    let (xa, ya) = (arg(f, x)?, arg(f, y)?);
    f.model.pow(xa, ya, z.arg());
    Some(z)
}

/// `|x|`: the model's `abs`.
pub(crate) fn abs(f: &mut Flat<'_, '_>, x: &Val, target: Option<Operand>) -> Option<Operand> {
    let bounds = || Some((0, magnitude(x)));
    let z = sized(
        f,
        "absolute value",
        &[x],
        target,
        |v| v[0].checked_abs(),
        bounds,
    )?;
    let xa = arg(f, x)?;
    f.model.abs(xa, z.arg());
    Some(z)
}

/// `z = min(xs)` (or max): the model's `min` (`max`).
pub(crate) fn extreme(f: &mut Flat<'_, '_>, xs: &[Val], z: &Operand, max: bool) {
    let Some(args) = xs
        .iter()
        .map(|x| arg(f, x))
        .collect::<Option<Vec<IntArg>>>()
    else {
        return;
    };
    if max {
        f.model.max(args, z.arg());
    } else {
        f.model.min(args, z.arg());
    }
}

/// The arguments of a lookup's items: the items the index cannot reach (`None`) read as
/// 0, which no solution reads.
fn items_args(f: &mut Flat<'_, '_>, items: &[Option<Val>]) -> Option<Vec<IntArg>> {
    items
        .iter()
        .map(|item| match item {
            Some(v) => arg(f, v),
            None => Some(IntArg::from(0)),
        })
        .collect()
}

/// `z = items[index - offset]`, the index within the items (`None` for items it cannot
/// reach): the model's `element_offset`.
pub(crate) fn element(
    f: &mut Flat<'_, '_>,
    index: &Operand,
    offset: i128,
    items: &[Option<Val>],
    z: &Operand,
) {
    let Ok(offset) = i64::try_from(offset) else {
        return f.fail(format!(
            "the offset of a lookup, {offset}, does not fit in an i64"
        ));
    };
    if let Some(items) = items_args(f, items) {
        f.model.element_offset(index.arg(), offset, items, z.arg());
    }
}

/// `z = table[row][col]` over the `cells` the indices reach (the other cells read as 0,
/// which no solution reads): the model's `element2d`.
pub(crate) fn element2d(
    f: &mut Flat<'_, '_>,
    row: &Val,
    col: &Val,
    cells: &[((usize, usize), Val)],
    z: &Operand,
) {
    let rows = cells.iter().map(|((r, _), _)| r + 1).max().unwrap_or(0);
    let mut table: Vec<Vec<Option<Val>>> = vec![Vec::new(); rows];
    for ((r, c), v) in cells {
        if table[*r].len() <= *c {
            table[*r].resize(c + 1, None);
        }
        table[*r][*c] = Some(v.clone());
    }
    let Some(table) = table
        .iter()
        .map(|r| items_args(f, r))
        .collect::<Option<Vec<Vec<IntArg>>>>()
    else {
        return;
    };
    let (Some(r), Some(c)) = (arg(f, row), arg(f, col)) else {
        return;
    };
    f.model.element2d(r, c, table, z.arg());
}

/// `lit` holds exactly when `(row, col)` is one of `cells`: a table over the indices'
/// values (at most [`TABLE_LIMIT`] pairs, else the model becomes invalid).
pub(crate) fn in_cells(
    f: &mut Flat<'_, '_>,
    row: &Val,
    col: &Val,
    cells: &[((usize, usize), Val)],
    lit: Lit,
) {
    let (d, positive) = f.int_of_lit(lit);
    let at_one = d.images.position(i64::from(positive));
    let at_zero = d.images.position(i64::from(!positive));
    let (Some(at_one), Some(at_zero)) = (at_one, at_zero) else {
        return f.fail("a literal's variable is not 0/1");
    };
    let args = [row, col];
    let (vars, _) = distinct(&args);
    let mut scope: Vec<VarId> = vars.iter().map(|v| v.var).collect();
    scope.push(d.var);
    let mut tuples: Vec<Vec<u32>> = Vec::new();
    let enumerated = each_combination(&args, TABLE_LIMIT, |indices, v| {
        let inside = cells
            .iter()
            .any(|((r, c), _)| *r as i128 == v[0] && *c as i128 == v[1]);
        let mut tuple: Vec<u32> = indices.iter().map(|&i| i as u32).collect();
        tuple.push(if inside { at_one } else { at_zero } as u32);
        tuples.push(tuple);
    });
    if let Err(n) = enumerated {
        return f.fail(format!(
            "a lookup in a table at two chosen indices ranges over {n} pairs of indices: too many (at most {TABLE_LIMIT})"
        ));
    }
    f.model.table_indices(&scope, tuples);
}
