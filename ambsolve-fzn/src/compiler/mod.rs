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
//!    `bool_eq`, `bool2int`) merge them into one, and `set_in(x, S)` narrows `x`'s domain;
//! 5. `prepare_variables`: one model variable per merged class (an unbounded one over the
//!    default range), and the output;
//! 6. `post_constraints`: each constraint through the table of builtins;
//! 7. `create_objective`: `minimize` / `maximize`;
//! 8. `create_search_strategy`: the search annotations.

mod builtins;
mod builtins_bool;
mod builtins_global;
mod call;
mod check_types;
mod collect_domains;
mod context;
mod create_objective;
mod create_search_strategy;
mod define_constants;
mod int_set;
mod membership;
mod merge_equivalences;
mod post_constraints;
mod prepare_variables;

use ambsolve::Model;

use self::context::Context;
use flatzinc::{ConstraintItem, SolveItem};

use crate::ast::{Ast, Located};
use crate::error::FznError;
use crate::output::Output;
use crate::parser::{Item, ReadLimits};

pub(crate) use self::post_constraints::builtins;

/// What the passes produce.
pub(crate) struct Compiled {
    pub(crate) model: Model<'static>,
    pub(crate) output: Output,
    pub(crate) strategy: Option<ambsolve::Strategy>,
    /// The variables not `is_defined_var`: what a large neighbourhood search fixes.
    pub(crate) decisions: Vec<ambsolve::VarId>,
    pub(crate) notes: Vec<String>,
}

/// Runs the passes over `ast`; `seed` seeds `indomain_random`; `limits` can stop it.
///
/// # Errors
/// The first pass that fails says why, with the line.
pub(crate) fn compile(ast: Ast, seed: u64, limits: &ReadLimits) -> Result<Compiled, FznError> {
    let mut compiler = Compiler::new();
    let Ast {
        parameters,
        variables,
        constraints,
        solve,
    } = ast;
    let items = (parameters.into_iter().map(Item::Parameter))
        .chain(variables.into_iter().map(Item::Variable))
        .chain(constraints.into_iter().map(Item::Constraint));
    for item in items {
        compiler.item(item)?;
    }
    compiler.finish(solve, seed, limits)
}

/// A compilation fed one statement at a time, in the order of the file. Parameters and
/// variables are compiled as they come (the first two passes, the aliases of the third,
/// and what the fifth will print), so that their items need not be kept; the constraints
/// are kept until [`finish`](Compiler::finish) runs the rest.
pub(crate) struct Compiler {
    ctx: Context,
    constraints: Vec<Located<ConstraintItem>>,
}

impl Compiler {
    pub(crate) fn new() -> Self {
        Compiler {
            ctx: Context::new(),
            constraints: Vec::new(),
        }
    }

    /// Compiles (or keeps) one item.
    ///
    /// # Errors
    /// What the passes that read it say, with its line.
    pub(crate) fn item(&mut self, item: Item) -> Result<(), FznError> {
        let ctx = &mut self.ctx;
        match item {
            Item::Parameter(located) => define_constants::one(ctx, &located),
            Item::Variable(located) => {
                collect_domains::one(ctx, &located)?;
                merge_equivalences::alias(ctx, &located)?;
                prepare_variables::note(ctx, &located)
            }
            Item::Constraint(located) => {
                self.constraints.push(located);
                Ok(())
            }
        }
    }

    /// Runs the passes left over the constraints kept and the solve item.
    ///
    /// # Errors
    /// The first pass that fails says why, with the line.
    pub(crate) fn finish(
        self,
        solve: Located<SolveItem>,
        seed: u64,
        limits: &ReadLimits,
    ) -> Result<Compiled, FznError> {
        let Compiler {
            mut ctx,
            mut constraints,
        } = self;
        constraints.shrink_to_fit();
        check_types::run(&ctx, &constraints)?;
        limits.check()?;
        merge_equivalences::run(&mut ctx, &constraints)?;
        prepare_variables::run(&mut ctx)?;
        limits.check()?;
        // Each constraint is dropped once posted: a file of a million constraints is not
        // kept twice, as items and as the model.
        post_constraints::run(&mut ctx, constraints, limits)?;
        create_objective::run(&mut ctx, &solve)?;
        create_search_strategy::run(&mut ctx, &solve, seed)?;
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
        let decisions = ctx.decisions();
        Ok(Compiled {
            decisions,
            model: ctx.model,
            output: ctx.output,
            strategy: ctx.strategy,
            notes: ctx.notes,
        })
    }
}
