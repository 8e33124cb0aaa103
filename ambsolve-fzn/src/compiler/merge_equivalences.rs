//! Pass: variables known equal become one model variable. An alias declaration
//! (`var 1..5: x = y;`) and the equalities `int_eq(x, y)`, `bool_eq(a, b)` and
//! `bool2int(b, i)` between two variables merge them (booleans are 0/1 integers, so a
//! boolean and its integer are one variable); the merged variable's domain is the
//! intersection, and the equality is not posted. A `set_in(x, S)` of a variable and a
//! constant set narrows `x`'s domain to `S` the same way (unposted too), so that an
//! unbounded `var int` it bounds is declared over `S`, not over the default range.

use flatzinc::{BoolExpr, ConstraintItem, Expr, IntExpr, VarDeclItem};

use super::context::{Context, Elem, Symbol};
use super::int_set::IntSet;
use crate::ast::Located;
use crate::error::FznError;

/// The builtins that state the equality of their two arguments.
const EQUALITIES: [&str; 3] = ["int_eq", "bool_eq", "bool2int"];

/// Merges a variable declared as an alias (`var int: x = y;`) with what it names, as
/// it is read.
///
/// # Errors
/// An alias of an unknown identifier.
pub(crate) fn alias(ctx: &mut Context, located: &Located<VarDeclItem>) -> Result<(), FznError> {
    let line = located.line;
    let (id, other) = match &located.item {
        VarDeclItem::Bool {
            id,
            expr: Some(BoolExpr::VarParIdentifier(other)),
            ..
        }
        | VarDeclItem::Int {
            id,
            expr: Some(IntExpr::VarParIdentifier(other)),
            ..
        }
        | VarDeclItem::IntInRange {
            id,
            expr: Some(IntExpr::VarParIdentifier(other)),
            ..
        }
        | VarDeclItem::IntInSet {
            id,
            expr: Some(IntExpr::VarParIdentifier(other)),
            ..
        } => (id, other),
        _ => return Ok(()),
    };
    let Some(&Symbol::Var(decl)) = ctx.symbols.get(id.as_str()) else {
        return Ok(());
    };
    match ctx.ident_elem(line, other)? {
        Elem::Var(with) => merge(ctx, decl, with),
        Elem::Const(value) => fix(ctx, decl, value),
    }
    Ok(())
}

/// Merges the variables of the equalities between two variables, and narrows the domains
/// that `set_in` restricts.
pub(crate) fn run(
    ctx: &mut Context,
    constraints: &[Located<ConstraintItem>],
) -> Result<(), FznError> {
    ctx.consumed = vec![false; constraints.len()];
    for (at, located) in constraints.iter().enumerate() {
        let call = &located.item;
        if call.id == "set_in" && call.exprs.len() == 2 {
            let Some(x) = var_of(ctx, &call.exprs[0]) else {
                continue;
            };
            // A malformed set is left to the builtin to report.
            let Ok(set) = ctx.set(located.line, &call.exprs[1]) else {
                continue;
            };
            narrow(ctx, x, &set);
            ctx.consumed[at] = true;
            continue;
        }
        if !EQUALITIES.contains(&call.id.as_str()) || call.exprs.len() != 2 {
            continue;
        }
        let (Some(a), Some(b)) = (var_of(ctx, &call.exprs[0]), var_of(ctx, &call.exprs[1])) else {
            continue;
        };
        merge(ctx, a, b);
        ctx.consumed[at] = true;
    }
    Ok(())
}

/// The declaration an argument names, if it is a single variable.
fn var_of(ctx: &Context, expr: &Expr) -> Option<usize> {
    match expr {
        Expr::VarParIdentifier(name) => match ctx.symbols.get(name.as_str()) {
            Some(Symbol::Var(decl)) => Some(*decl),
            _ => None,
        },
        _ => None,
    }
}

/// Merges the classes of `a` and `b`: the earlier declared root stays the root, with the
/// intersection of both domains.
fn merge(ctx: &mut Context, a: usize, b: usize) {
    let (a, b) = (ctx.root(a), ctx.root(b));
    if a == b {
        return;
    }
    let (root, child) = (a.min(b), a.max(b));
    let (kept, other) = (&ctx.decls[root], &ctx.decls[child]);
    let domain = match (kept.unbounded, other.unbounded) {
        (true, true) => IntSet::default(),
        (true, false) => other.domain.clone(),
        (false, true) => kept.domain.clone(),
        (false, false) => kept.domain.intersect(&other.domain),
    };
    let unbounded = kept.unbounded && other.unbounded;
    let decl = &mut ctx.decls[root];
    decl.domain = domain;
    decl.unbounded = unbounded;
    ctx.parent[child] = root;
}

/// Keeps only `value` in the domain of `decl`'s class.
fn fix(ctx: &mut Context, decl: usize, value: i64) {
    narrow(ctx, decl, &IntSet::single(value));
}

/// Keeps only the values of `set` in the domain of `decl`'s class (an unbounded class
/// takes `set` as its domain).
fn narrow(ctx: &mut Context, decl: usize, set: &IntSet) {
    let root = ctx.root(decl);
    let decl = &mut ctx.decls[root];
    if decl.unbounded {
        decl.domain = set.clone();
        decl.unbounded = false;
    } else {
        decl.domain = decl.domain.intersect(set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiler::{collect_domains, define_constants};
    use crate::parser::parse_str;

    fn classes(text: &str) -> Vec<String> {
        let ast = parse_str(text).expect("valid FlatZinc");
        let mut ctx = Context::new();
        for located in &ast.parameters {
            define_constants::one(&mut ctx, located).expect("constants");
        }
        collect_domains::run(&mut ctx, &ast.variables).expect("domains");
        for located in &ast.variables {
            alias(&mut ctx, located).expect("merged");
        }
        run(&mut ctx, &ast.constraints).expect("merged");
        let mut lines: Vec<String> = (0..ctx.decls.len())
            .map(|d| {
                let root = &ctx.decls[ctx.root(d)];
                let domain = if root.unbounded {
                    "unbounded".to_string()
                } else {
                    format!("{:?}", root.domain)
                };
                format!("{} -> {} {domain}", ctx.decls[d].name, root.name)
            })
            .collect();
        lines.push(format!("consumed {:?}", ctx.consumed));
        lines
    }

    #[test]
    fn equalities_between_variables_merge_them_with_the_common_domain() {
        let lines = classes(
            "var 1..5: x;\n\
             var 3..9: y;\n\
             var bool: b;\n\
             var 0..1: i;\n\
             var 4..7: z;\n\
             constraint int_eq(x, y);\n\
             constraint bool2int(b, i);\n\
             constraint int_eq(z, 5);\n\
             constraint int_eq(y, z);\n\
             solve satisfy;\n",
        );
        assert_eq!(
            lines,
            [
                "x -> x {4..5}",
                "y -> x {4..5}",
                "b -> b {0..1}",
                "i -> b {0..1}",
                "z -> x {4..5}",
                "consumed [true, true, false, true]",
            ]
        );
    }

    #[test]
    fn aliases_merge_and_a_fixed_alias_fixes() {
        let lines = classes(
            "int: n = 2;\n\
             var 1..5: x;\n\
             var int: y = x;\n\
             var 0..3: z = x;\n\
             var 1..5: w = n;\n\
             solve satisfy;\n",
        );
        assert_eq!(
            lines,
            [
                "x -> x {1..3}",
                "y -> x {1..3}",
                "z -> x {1..3}",
                "w -> w {2}",
                "consumed []",
            ]
        );
    }

    #[test]
    fn unbounded_classes_take_what_bounds_them_and_set_in_narrows() {
        let lines = classes(
            "set of int: s = {1, 3, 5, 1000000000};\n\
             var int: u;\n\
             var int: v = u;\n\
             var int: w;\n\
             var 0..10: x;\n\
             var int: y;\n\
             var int: z;\n\
             var 2..9: b;\n\
             constraint set_in(u, 0..3000000000);\n\
             constraint int_eq(w, x);\n\
             constraint set_in(w, s);\n\
             constraint set_in_reif(y, s, true);\n\
             constraint int_eq(y, z);\n\
             constraint set_in(3, s);\n\
             constraint set_in(b, {1, 3, 5, 9, 11});\n\
             solve satisfy;\n",
        );
        assert_eq!(
            lines,
            [
                "u -> u {0..3000000000}",
                "v -> u {0..3000000000}",
                "w -> w {1, 3, 5}",
                "x -> w {1, 3, 5}",
                "y -> y unbounded",
                "z -> y unbounded",
                "b -> b {3, 5, 9}",
                "consumed [true, true, true, false, true, false, true]",
            ]
        );
    }
}
