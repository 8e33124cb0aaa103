//! Pass: every variable declaration gets its domain (booleans are 0/1 integers), and every
//! array of variables the list of its elements.
//!
//! A variable fixed by its declaration (`var 1..5: x = 3;`) keeps only that value; one
//! declared equal to another (`var 1..5: x = y;`) is left to `merge_equivalences`. A
//! domain is a set of intervals, whatever its width; an unbounded `var int` has none
//! (`Decl::unbounded`) until `prepare_variables` gives it the default range.

use flatzinc::{ArrayOfBoolExpr, ArrayOfIntExpr, BoolExpr, IntExpr, VarDeclItem};

use super::context::{Context, Decl, Elem, Symbol, int, int_set};
use super::int_set::IntSet;
use crate::ast::Located;
use crate::error::FznError;

/// Declares every variable and array of variables of the file.
///
/// # Errors
/// A set variable (the mznlib's `nosets.mzn` turns them into booleans), an unknown
/// identifier in an array.
#[cfg(test)]
pub(crate) fn run(ctx: &mut Context, variables: &[Located<VarDeclItem>]) -> Result<(), FznError> {
    variables.iter().try_for_each(|located| one(ctx, located))
}

/// Declares one variable or array of variables, as it is read.
///
/// # Errors
/// A set variable (the mznlib's `nosets.mzn` turns them into booleans), an unknown
/// identifier in an array.
pub(crate) fn one(ctx: &mut Context, located: &Located<VarDeclItem>) -> Result<(), FznError> {
    let declared = ctx.decls.len();
    declare(ctx, located)?;
    let (_, annos, _, _) = super::prepare_variables::describe(&located.item);
    if annos.iter().any(|a| a.id == "is_defined_var") {
        for decl in &mut ctx.decls[declared..] {
            decl.defined = true;
        }
    }
    Ok(())
}

/// [`one`], without its annotations.
fn declare(ctx: &mut Context, located: &Located<VarDeclItem>) -> Result<(), FznError> {
    let line = located.line;
    match &located.item {
        VarDeclItem::Bool { id, expr, .. } => {
            let fixed = match expr {
                Some(BoolExpr::Bool(value)) => Some(i64::from(*value)),
                _ => None,
            };
            single(ctx, line, id, Some(IntSet::range(0, 1)), fixed)?;
            let decl = ctx.decls.len() - 1;
            ctx.decls[decl].is_bool = true;
        }
        VarDeclItem::IntInRange {
            id, lb, ub, expr, ..
        } => {
            let domain = IntSet::range(int(line, *lb)?, int(line, *ub)?);
            single(ctx, line, id, Some(domain), fixed_int(line, expr.as_ref())?)?;
        }
        VarDeclItem::IntInSet { id, set, expr, .. } => {
            let domain = int_set(line, set)?;
            single(ctx, line, id, Some(domain), fixed_int(line, expr.as_ref())?)?;
        }
        VarDeclItem::Int { id, expr, .. } => match fixed_int(line, expr.as_ref())? {
            Some(value) => single(ctx, line, id, Some(IntSet::single(value)), None)?,
            // Unbounded, or an alias whose domain is the other variable's.
            None => single(ctx, line, id, None, None)?,
        },
        VarDeclItem::ArrayOfBool { id, array_expr, .. } => {
            let elems = match array_expr {
                Some(ArrayOfBoolExpr::Array(items)) => bool_items(ctx, line, items)?,
                Some(ArrayOfBoolExpr::VarParIdentifier(other)) => {
                    ctx.elems(line, &flatzinc::Expr::VarParIdentifier(other.clone()))?
                }
                None => {
                    let elems = fresh(ctx, line, id, located.item.ix(), Some(IntSet::range(0, 1)))?;
                    for elem in &elems {
                        if let Elem::Var(decl) = *elem {
                            ctx.decls[decl].is_bool = true;
                        }
                    }
                    elems
                }
            };
            ctx.bool_arrays.insert(id.clone());
            ctx.define(line, id.as_str(), Symbol::VarArray(elems))?;
        }
        VarDeclItem::ArrayOfInt { id, array_expr, .. }
        | VarDeclItem::ArrayOfIntInRange { id, array_expr, .. }
        | VarDeclItem::ArrayOfIntInSet { id, array_expr, .. } => {
            let elems = match array_expr {
                Some(ArrayOfIntExpr::Array(items)) => items
                    .iter()
                    .map(|item| match item {
                        IntExpr::Int(value) => Ok(Elem::Const(int(line, *value)?)),
                        IntExpr::VarParIdentifier(name) => ctx.ident_elem(line, name),
                    })
                    .collect::<Result<_, _>>()?,
                Some(ArrayOfIntExpr::VarParIdentifier(other)) => {
                    ctx.elems(line, &flatzinc::Expr::VarParIdentifier(other.clone()))?
                }
                None => {
                    let domain = array_domain(line, &located.item)?;
                    fresh(ctx, line, id, located.item.ix(), domain)?
                }
            };
            ctx.define(line, id.as_str(), Symbol::VarArray(elems))?;
        }
        VarDeclItem::SetOfInt { .. }
        | VarDeclItem::SubSetOfIntSet { .. }
        | VarDeclItem::SubSetOfIntRange { .. }
        | VarDeclItem::ArrayOfSet { .. }
        | VarDeclItem::ArrayOfSubSetOfIntRange { .. }
        | VarDeclItem::ArrayOfSubSetOfIntSet { .. } => {
            return Err(FznError::invalid(
                line,
                "set variables are not supported: compile with ambsolve's mznlib \
                 (`--solver ambsolve`), whose nosets.mzn turns them into booleans",
            ));
        }
        VarDeclItem::Float { .. }
        | VarDeclItem::BoundedFloat { .. }
        | VarDeclItem::ArrayOfFloat { .. }
        | VarDeclItem::ArrayOfBoundedFloat { .. } => return Err(FznError::Float { line }),
    }
    Ok(())
}

/// Declares a single variable (`domain`: `None` for an unbounded `var int: x;` or alias
/// `var int: x = y;`); an alias is merged later.
fn single(
    ctx: &mut Context,
    line: usize,
    name: &str,
    domain: Option<IntSet>,
    fixed: Option<i64>,
) -> Result<(), FznError> {
    let unbounded = domain.is_none();
    let mut domain = domain.unwrap_or_default();
    if let Some(value) = fixed {
        domain = domain.intersect(&IntSet::single(value));
    }
    // One name, shared by the declaration, the symbol, the model and the output.
    let name: std::sync::Arc<str> = name.into();
    let decl = ctx.declare(Decl {
        name: std::sync::Arc::clone(&name),
        line,
        domain,
        is_bool: false,
        unbounded,
        defined: false,
    });
    ctx.define(line, name, Symbol::Var(decl))
}

/// The value a declaration fixes its variable to, if it gives a literal.
fn fixed_int(line: usize, expr: Option<&IntExpr>) -> Result<Option<i64>, FznError> {
    match expr {
        Some(IntExpr::Int(value)) => Ok(Some(int(line, *value)?)),
        _ => Ok(None),
    }
}

fn bool_items(ctx: &Context, line: usize, items: &[BoolExpr]) -> Result<Vec<Elem>, FznError> {
    items
        .iter()
        .map(|item| match item {
            BoolExpr::Bool(value) => Ok(Elem::Const(i64::from(*value))),
            BoolExpr::VarParIdentifier(name) => ctx.ident_elem(line, name),
        })
        .collect()
}

/// The domain of the elements of an array of variables declared without a value (`None`:
/// unbounded).
fn array_domain(line: usize, item: &VarDeclItem) -> Result<Option<IntSet>, FznError> {
    match item {
        VarDeclItem::ArrayOfIntInRange { lb, ub, .. } => {
            Ok(Some(IntSet::range(int(line, *lb)?, int(line, *ub)?)))
        }
        VarDeclItem::ArrayOfIntInSet { set, .. } => int_set(line, set).map(Some),
        _ => Ok(None),
    }
}

/// Fresh variables `name[1]`, `name[2]`, .. for an array declared without a value.
fn fresh(
    ctx: &mut Context,
    line: usize,
    name: &str,
    length: Option<i128>,
    domain: Option<IntSet>,
) -> Result<Vec<Elem>, FznError> {
    let unbounded = domain.is_none();
    let domain = domain.unwrap_or_default();
    let length = length.unwrap_or(0);
    let length = usize::try_from(length)
        .map_err(|_| FznError::invalid(line, format!("array `{name}` of length {length}")))?;
    Ok((1..=length)
        .map(|i| {
            Elem::Var(ctx.declare(Decl {
                name: format!("{name}[{i}]").into(),
                line,
                domain: domain.clone(),
                is_bool: false,
                unbounded,
                defined: false,
            }))
        })
        .collect())
}

/// The length of an array declaration.
trait ArrayLength {
    fn ix(&self) -> Option<i128>;
}

impl ArrayLength for VarDeclItem {
    fn ix(&self) -> Option<i128> {
        match self {
            VarDeclItem::ArrayOfBool { ix, .. }
            | VarDeclItem::ArrayOfInt { ix, .. }
            | VarDeclItem::ArrayOfIntInRange { ix, .. }
            | VarDeclItem::ArrayOfIntInSet { ix, .. }
            | VarDeclItem::ArrayOfFloat { ix, .. }
            | VarDeclItem::ArrayOfBoundedFloat { ix, .. }
            | VarDeclItem::ArrayOfSet { ix, .. }
            | VarDeclItem::ArrayOfSubSetOfIntRange { ix, .. }
            | VarDeclItem::ArrayOfSubSetOfIntSet { ix, .. } => Some(ix.0),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_str;

    fn decls(text: &str) -> Result<Vec<String>, FznError> {
        let ast = parse_str(text).expect("valid FlatZinc");
        let mut ctx = Context::new();
        for located in &ast.parameters {
            super::super::define_constants::one(&mut ctx, located)?;
        }
        run(&mut ctx, &ast.variables)?;
        Ok(ctx
            .decls
            .iter()
            .map(|d| {
                if d.unbounded {
                    format!("{} unbounded", d.name)
                } else {
                    format!("{} {:?}", d.name, d.domain)
                }
            })
            .collect())
    }

    #[test]
    fn ranges_sets_booleans_and_fixed_values_become_domains() {
        let all = decls(
            "var 1..4: x;\n\
             var {7, 3, 5}: y;\n\
             var bool: b;\n\
             var 1..9: f = 4;\n\
             var bool: t = true;\n\
             var int: c = 12;\n\
             solve satisfy;\n",
        )
        .expect("variables");
        assert_eq!(
            all,
            [
                "x {1..4}",
                "y {3, 5, 7}",
                "b {0..1}",
                "f {4}",
                "t {1}",
                "c {12}",
            ]
        );
    }

    #[test]
    fn an_array_without_a_value_declares_its_elements() {
        let all = decls("array [1..2] of var 0..1: a;\nsolve satisfy;\n").expect("array");
        assert_eq!(all, ["a[1] {0..1}", "a[2] {0..1}"]);
    }

    #[test]
    fn unbounded_variables_and_arrays_wait_for_their_domain() {
        let all = decls(
            "var 1..2: x;\n\
             var int: y;\n\
             var int: z = x;\n\
             array [1..2] of var int: a;\n\
             var 5..4: e;\n\
             var {1, 3}: f = 2;\n\
             solve satisfy;\n",
        )
        .expect("unbounded variables are declared");
        assert_eq!(
            all,
            [
                "x {1..2}",
                "y unbounded",
                "z unbounded",
                "a[1] unbounded",
                "a[2] unbounded",
                "e {}",
                "f {}",
            ]
        );
    }

    #[test]
    fn a_huge_domain_is_two_numbers_and_a_set_variable_is_refused() {
        let all = decls("var 0..100000000000: x;\nsolve satisfy;\n").expect("two numbers");
        assert_eq!(all, ["x {0..100000000000}"]);
        let error = decls("var set of 1..3: s;\nsolve satisfy;\n").expect_err("a set");
        assert!(
            error
                .to_string()
                .contains("set variables are not supported"),
            "{error}"
        );
    }

    #[test]
    fn an_array_names_variables_and_constants() {
        let ast = parse_str(
            "int: n = 5;\nvar 1..3: x;\narray [1..3] of var int: a = [x, 2, n];\nsolve satisfy;\n",
        )
        .expect("valid");
        let mut ctx = Context::new();
        for located in &ast.parameters {
            super::super::define_constants::one(&mut ctx, located).expect("constants");
        }
        run(&mut ctx, &ast.variables).expect("variables");
        match &ctx.symbols["a"] {
            Symbol::VarArray(elems) => {
                assert_eq!(elems, &[Elem::Var(0), Elem::Const(2), Elem::Const(5)]);
            }
            other => panic!("an array of variables, not {other:?}"),
        }
    }
}
