//! Pass: `solve minimize x;` / `solve maximize x;` becomes the model's objective.

use ambsolve::Sense;
use flatzinc::{BoolExpr, Goal, IntExpr, OptimizationType, SolveItem};

use super::context::{Context, Elem};
use crate::ast::Located;
use crate::error::FznError;

/// Sets the objective, if the solve item has one.
///
/// # Errors
/// A float or set objective, an unknown identifier.
pub(crate) fn run(ctx: &mut Context, solve: &Located<SolveItem>) -> Result<(), FznError> {
    let line = solve.line;
    let (sense, elem) = match &solve.item.goal {
        Goal::Satisfy => return Ok(()),
        Goal::OptimizeInt(sense, IntExpr::Int(value)) => {
            (sense, Elem::Const(super::context::int(line, *value)?))
        }
        Goal::OptimizeInt(sense, IntExpr::VarParIdentifier(name))
        | Goal::OptimizeBool(sense, BoolExpr::VarParIdentifier(name)) => {
            (sense, ctx.ident_elem(line, name)?)
        }
        Goal::OptimizeBool(sense, BoolExpr::Bool(value)) => (sense, Elem::Const(i64::from(*value))),
        Goal::OptimizeFloat(..) => return Err(FznError::Float { line }),
        Goal::OptimizeSet(..) => {
            return Err(FznError::invalid(line, "a set objective is not supported"));
        }
    };
    let sense = match sense {
        OptimizationType::Minimize => Sense::Minimize,
        OptimizationType::Maximize => Sense::Maximize,
    };
    let var = ctx.var(elem);
    ctx.model.objective(sense, [(1, &var)], 0);
    Ok(())
}
