//! Pass: each constraint item becomes `Model` constraints, through the table of builtins
//! [`builtins`] (name → handler). A builtin missing from the table is an error naming it
//! and its line; every unsupported builtin of the file is listed, none skipped.

use std::collections::HashMap;

use flatzinc::ConstraintItem;

use super::builtins as int;
use super::builtins_bool as logic;
use super::builtins_global as global;
use super::call::{Call, Handler};
use super::context::Context;
use crate::ast::Located;
use crate::error::FznError;
use crate::parser::ReadLimits;

/// Every builtin ambsolve supports, with its handler. Each handler file lists its own
/// beside the handlers: `builtins.rs` (integers), `builtins_bool.rs` (logic) and
/// `builtins_global.rs` (the globals of the mznlib); adding one is its handler and its line
/// there. Booleans are 0/1 integer variables.
pub(crate) fn builtins() -> impl Iterator<Item = (&'static str, Handler)> {
    [int::BUILTINS, logic::BUILTINS, global::BUILTINS]
        .into_iter()
        .flatten()
        .copied()
}

/// The constraint annotations of the FlatZinc specification (propagation strength and
/// what a constraint defines: ambsolve chooses its own).
const CONSTRAINT_ANNOTATIONS: &[&str] = &[
    "defines_var",
    "domain",
    "bounds",
    "boundsZ",
    "boundsR",
    "domain_change_constraint",
    "promise_ctx_monotone",
    "promise_ctx_antitone",
];

/// The handler of a builtin, if ambsolve supports it.
pub(crate) fn handler(name: &str) -> Option<Handler> {
    static TABLE: std::sync::OnceLock<HashMap<&'static str, Handler>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| builtins().collect())
        .get(name)
        .copied()
}

/// Posts every constraint not already expressed by an earlier pass.
///
/// # Errors
/// [`FznError::Unsupported`] listing every builtin the table lacks (with the first line
/// each appears on), checked before anything is posted; else the first argument error.
pub(crate) fn run(
    ctx: &mut Context,
    constraints: Vec<Located<ConstraintItem>>,
    limits: &ReadLimits,
) -> Result<(), FznError> {
    let mut unsupported: Vec<(String, usize)> = Vec::new();
    for located in &constraints {
        let name = &located.item.id;
        if handler(name).is_none() && !unsupported.iter().any(|(n, _)| n == name) {
            unsupported.push((name.clone(), located.line));
        }
    }
    if !unsupported.is_empty() {
        return Err(FznError::Unsupported {
            builtins: unsupported,
        });
    }
    for (at, located) in constraints.into_iter().enumerate() {
        if at % 1024 == 1023 {
            limits.check()?;
        }
        ctx.unknown_annotations(located.line, &located.item.annos, CONSTRAINT_ANNOTATIONS);
        if ctx.consumed[at] {
            continue;
        }
        let call = Call {
            name: &located.item.id,
            args: &located.item.exprs,
            line: located.line,
        };
        let post = handler(call.name).expect("checked above");
        post(ctx, &call)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::builtins;

    #[test]
    fn every_builtin_has_one_handler() {
        let mut names: Vec<&str> = builtins().map(|(name, _)| name).collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all, "a builtin is listed twice");
    }
}
