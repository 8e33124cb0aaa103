//! The compiler: a pipeline of small passes over one shared [`Context`], turning the
//! [`Ast`] into an ambsolve [`Model`](ambsolve::Model) (public API only), what each
//! solution prints, and the search strategy.
//!
//! The passes, in order (one file each):
//! 1. `define_constants`: parameters become named constants;
//! 2. `collect_domains`: variables get their domains (booleans are 0/1 integers), arrays
//!    of variables their elements;
//! 3. `check_types`: every argument of an integer or boolean builtin has its kind;
//! 4. `merge_equivalences`: aliases and equalities between two variables (`int_eq`,
//!    `bool_eq`, `bool2int`) merge them into one;
//! 5. `prepare_variables`: one model variable per merged class, and the output;
//! 6. `post_constraints`: each constraint through the table of builtins;
//! 7. `create_objective`: `minimize` / `maximize`;
//! 8. `create_search_strategy`: the search annotations.

mod builtins;
mod builtins_bool;
mod builtins_global;
mod check_types;
mod collect_domains;
mod context;
mod create_objective;
mod create_search_strategy;
mod define_constants;
mod merge_equivalences;
mod post_constraints;
mod prepare_variables;

use ambsolve::Model;

use self::context::Context;
use crate::ast::Ast;
use crate::error::FznError;
use crate::output::Output;
use crate::parser::ReadLimits;

pub(crate) use self::post_constraints::BUILTINS;

/// What the passes produce.
pub(crate) struct Compiled {
    pub(crate) model: Model<'static>,
    pub(crate) output: Output,
    pub(crate) strategy: Option<ambsolve::Strategy>,
    pub(crate) notes: Vec<String>,
}

/// Runs the passes over `ast`; `seed` seeds `indomain_random`; `limits` can stop it.
///
/// # Errors
/// The first pass that fails says why, with the line.
pub(crate) fn compile(mut ast: Ast, seed: u64, limits: &ReadLimits) -> Result<Compiled, FznError> {
    // The declarations and constraints are dropped as soon as they are compiled: a file
    // of a million constraints is not kept twice, as items and as the model.
    let variables = std::mem::take(&mut ast.variables);
    let constraints = std::mem::take(&mut ast.constraints);
    let mut ctx = Context::new(&ast, constraints.len());
    define_constants::run(&mut ctx)?;
    collect_domains::run(&mut ctx, &variables)?;
    check_types::run(&ctx, &constraints)?;
    limits.check()?;
    merge_equivalences::run(&mut ctx, &variables, &constraints)?;
    prepare_variables::run(&mut ctx, &variables)?;
    drop(variables);
    limits.check()?;
    post_constraints::run(&mut ctx, constraints, limits)?;
    create_objective::run(&mut ctx)?;
    create_search_strategy::run(&mut ctx, seed)?;
    if !ctx.unknown.is_empty() {
        let listed: Vec<String> = ctx
            .unknown
            .iter()
            .map(|(name, line)| format!("`{name}` (line {line})"))
            .collect();
        ctx.notes.push(format!(
            "ignored annotations ambsolve does not know: {}",
            listed.join(", ")
        ));
    }
    ctx.model.shrink_to_fit();
    ctx.output.items.shrink_to_fit();
    Ok(Compiled {
        model: ctx.model,
        output: ctx.output,
        strategy: ctx.strategy,
        notes: ctx.notes,
    })
}
