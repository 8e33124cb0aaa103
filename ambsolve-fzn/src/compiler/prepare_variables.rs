//! Pass: one model variable (`Var<i64>`, named as in the file) for each class of merged
//! declarations, and the output: what `output_var` and `output_array` ask to print.
//!
//! A class's variable is, by its domain:
//! - unbounded (`var int` never bounded by what it was merged with): a range variable over
//!   [`UNBOUNDED`];
//! - a range, whatever its width up to [`MAX_VALUES`]: a range variable (`range_var`);
//! - with holes, up to [`MAX_LISTED`] values (or wider than a range variable can be): the
//!   list of its values, shared by the classes with that domain;
//! - with holes, wider: a range variable over its hull, the holes cut by constraints
//!   (`membership::constrain`).
//!
//! More than [`MAX_VALUES`] values is an error naming the variable.

use std::collections::HashMap;
use std::sync::Arc;

use flatzinc::{AnnExpr, Annotation, Expr, SetExpr, VarDeclItem};

use super::context::{
    Context, Elem, MAX_LISTED, MAX_VALUES, Symbol, UNBOUNDED, Wanted, set_literal,
};
use super::int_set::{IntSet, width};
use super::membership;
use crate::ast::Located;
use crate::error::FznError;
use crate::output::{OutputItem, Printed};

/// The variable annotations of the FlatZinc specification.
const VAR_ANNOTATIONS: &[&str] = &[
    "output_var",
    "output_array",
    "is_defined_var",
    "var_is_introduced",
    "is_introduced",
];

/// Notes what a declaration asks to print, and the annotations of it ambsolve does not
/// know (listed by `-v`).
///
/// # Errors
/// A malformed `output_array`.
pub(crate) fn note(ctx: &mut Context, located: &Located<VarDeclItem>) -> Result<(), FznError> {
    let line = located.line;
    let (id, annos, is_array, is_bool) = describe(&located.item);
    ctx.unknown_annotations(line, annos, VAR_ANNOTATIONS);
    let dims = if is_array {
        match output_array(line, annos)? {
            Some(dims) => Some(dims),
            None => return Ok(()),
        }
    } else if annos.iter().any(|a| a.id == "output_var") {
        None
    } else {
        return Ok(());
    };
    // A single variable's name is its declaration's (shared, not copied).
    let name = match ctx.symbols.get(id) {
        Some(&Symbol::Var(decl)) if dims.is_none() => Arc::clone(&ctx.decls[decl].name),
        _ => Arc::from(id),
    };
    ctx.wanted.push(Wanted {
        line,
        name,
        dims,
        is_bool,
    });
    Ok(())
}

/// Declares the model's variables, then the output.
///
/// # Errors
/// A domain of more than [`MAX_VALUES`] values, an `output_array` whose index sets do not
/// fit its array.
pub(crate) fn run(ctx: &mut Context) -> Result<(), FznError> {
    ctx.vars = vec![None; ctx.decls.len()];
    // Variables with the same listed domain share its list of values.
    let mut lists: HashMap<IntSet, Arc<[i64]>> = HashMap::new();
    for d in 0..ctx.decls.len() {
        if ctx.root(d) != d {
            continue;
        }
        let decl = &mut ctx.decls[d];
        if decl.unbounded {
            decl.domain = IntSet::range(UNBOUNDED.0, UNBOUNDED.1);
            decl.unbounded = false;
        }
        let decl = &ctx.decls[d];
        let (name, domain) = (Arc::clone(&decl.name), &decl.domain);
        let size = domain.len();
        if size > u128::from(MAX_VALUES) {
            let (low, high) = domain.hull().expect("not empty");
            return Err(FznError::invalid(
                decl.line,
                format!(
                    "`{name}` takes {size} values (over {low}..{high}): ambsolve takes at \
                     most {MAX_VALUES} values per variable"
                ),
            ));
        }
        let var = match domain.hull() {
            Some((low, high)) if domain.is_range() => ctx.model.named_range_var(name, low..=high),
            Some((low, high))
                if size > MAX_LISTED && width(low, high) <= u128::from(MAX_VALUES) =>
            {
                let var = ctx.model.named_range_var(name, low..=high);
                membership::constrain(&mut ctx.model, &var, &IntSet::range(low, high), domain);
                var
            }
            // With holes (or none: empty), listed.
            _ => {
                let values = lists
                    .entry(domain.clone())
                    .or_insert_with(|| domain.values().collect());
                ctx.model.named_var_shared(name, values)
            }
        };
        ctx.vars[d] = Some(var);
    }
    for wanted in std::mem::take(&mut ctx.wanted) {
        let Wanted {
            line,
            name,
            dims,
            is_bool,
        } = wanted;
        if let Some(dims) = dims {
            let Some(Symbol::VarArray(elems)) = ctx.symbols.get(&*name) else {
                continue;
            };
            let elems = elems.clone();
            let expected: i128 = dims
                .iter()
                .map(|&(l, h)| i128::from((h - l + 1).max(0)))
                .product();
            if expected != elems.len() as i128 {
                return Err(FznError::invalid(
                    line,
                    format!(
                        "`output_array` of `{name}` gives {expected} elements for an array of {}",
                        elems.len()
                    ),
                ));
            }
            let values = elems.into_iter().map(|e| printed(ctx, e)).collect();
            ctx.output.items.push(OutputItem::Array {
                name,
                dims,
                values,
                is_bool,
            });
        } else {
            let Some(&Symbol::Var(decl)) = ctx.symbols.get(&*name) else {
                continue;
            };
            let value = printed(ctx, Elem::Var(decl));
            ctx.output.items.push(OutputItem::Single {
                name,
                value,
                is_bool,
            });
        }
    }
    Ok(())
}

/// What an element prints: its class's variable, or a constant.
fn printed(ctx: &mut Context, elem: Elem) -> Printed {
    match elem {
        Elem::Var(_) => Printed::Var(ctx.var(elem)),
        Elem::Const(value) => Printed::Const(value),
    }
}

/// A declaration's name, annotations, whether it is an array and whether it is boolean.
pub(crate) fn describe(item: &VarDeclItem) -> (&str, &[Annotation], bool, bool) {
    match item {
        VarDeclItem::Bool { id, annos, .. } => (id, annos, false, true),
        VarDeclItem::Int { id, annos, .. }
        | VarDeclItem::IntInRange { id, annos, .. }
        | VarDeclItem::IntInSet { id, annos, .. }
        | VarDeclItem::Float { id, annos, .. }
        | VarDeclItem::BoundedFloat { id, annos, .. }
        | VarDeclItem::SetOfInt { id, annos, .. }
        | VarDeclItem::SubSetOfIntSet { id, annos, .. }
        | VarDeclItem::SubSetOfIntRange { id, annos, .. } => (id, annos, false, false),
        VarDeclItem::ArrayOfBool { id, annos, .. } => (id, annos, true, true),
        VarDeclItem::ArrayOfInt { id, annos, .. }
        | VarDeclItem::ArrayOfIntInRange { id, annos, .. }
        | VarDeclItem::ArrayOfIntInSet { id, annos, .. }
        | VarDeclItem::ArrayOfFloat { id, annos, .. }
        | VarDeclItem::ArrayOfBoundedFloat { id, annos, .. }
        | VarDeclItem::ArrayOfSet { id, annos, .. }
        | VarDeclItem::ArrayOfSubSetOfIntRange { id, annos, .. }
        | VarDeclItem::ArrayOfSubSetOfIntSet { id, annos, .. } => (id, annos, true, false),
    }
}

/// The index sets of an `output_array([1..2, 1..3])` annotation, if there is one.
fn output_array(line: usize, annos: &[Annotation]) -> Result<Option<Vec<(i64, i64)>>, FznError> {
    let Some(annotation) = annos.iter().find(|a| a.id == "output_array") else {
        return Ok(None);
    };
    let wrong = || FznError::invalid(line, "`output_array` expects a list of index ranges");
    let sets = match annotation.expressions.as_slice() {
        [AnnExpr::Expr(Expr::ArrayOfSet(sets))] => sets,
        _ => return Err(wrong()),
    };
    sets.iter()
        .map(|set| match set {
            SetExpr::Set(literal) => Ok(set_literal(line, literal)?.hull().unwrap_or((1, 0))),
            SetExpr::VarParIdentifier(_) => Err(wrong()),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
