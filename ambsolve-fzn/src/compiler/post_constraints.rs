//! Pass: each constraint item becomes `Model` constraints, through the table of builtins
//! [`BUILTINS`] (name → handler). A builtin missing from the table is an error naming it
//! and its line; every unsupported builtin of the file is listed, none skipped.

use flatzinc::Expr;

use super::builtins;
use super::context::Context;
use crate::error::FznError;

/// A constraint item being posted: its builtin, arguments and line.
pub(crate) struct Call<'a> {
    /// The builtin's name.
    pub(crate) name: &'a str,
    /// Its arguments.
    pub(crate) args: &'a [Expr],
    /// The line of the item.
    pub(crate) line: usize,
}

impl Call<'_> {
    /// Argument `i`, or an error if the call has another number of arguments than
    /// `count`.
    pub(crate) fn arity(&self, count: usize) -> Result<&[Expr], FznError> {
        if self.args.len() == count {
            Ok(self.args)
        } else {
            Err(FznError::invalid(
                self.line,
                format!(
                    "`{}` takes {count} arguments, not {}",
                    self.name,
                    self.args.len()
                ),
            ))
        }
    }
}

/// Posts one builtin: adds its meaning to the context's model.
pub(crate) type Handler = fn(&mut Context<'_>, &Call<'_>) -> Result<(), FznError>;

/// Every builtin ambsolve supports, with its handler. Adding one is a line here and its
/// handler in `builtins.rs`. Booleans are 0/1 integer variables.
pub(crate) const BUILTINS: &[(&str, Handler)] = &[
    // Linear (in)equalities: Σ a_i x_i cmp c.
    ("int_lin_eq", builtins::int_lin_eq),
    ("int_lin_le", builtins::int_lin_le),
    ("int_lin_ne", builtins::int_lin_ne),
    // Comparisons of two integers, as linear constraints.
    ("int_eq", builtins::int_eq),
    ("int_ne", builtins::int_ne),
    ("int_le", builtins::int_le),
    ("int_lt", builtins::int_lt),
    ("int_plus", builtins::int_plus),
    // A boolean and its integer are one 0/1 variable; merged unless one is a constant.
    ("bool2int", builtins::int_eq),
    ("bool_eq", builtins::int_eq),
    // A domain restriction.
    ("set_in", builtins::set_in),
    // Element of an array of constants, as a table over (index, value).
    ("array_int_element", builtins::array_int_element),
    ("array_bool_element", builtins::array_int_element),
    // Natively supported globals (mznlib/fzn_*.mzn).
    ("fzn_all_different_int", builtins::all_different_int),
    ("fzn_table_int", builtins::table_int),
];

/// The handler of a builtin, if ambsolve supports it.
pub(crate) fn handler(name: &str) -> Option<Handler> {
    BUILTINS.iter().find(|(n, _)| *n == name).map(|&(_, h)| h)
}

/// Posts every constraint not already expressed by an earlier pass.
///
/// # Errors
/// [`FznError::Unsupported`] listing every builtin the table lacks (with the first line
/// each appears on), checked before anything is posted; else the first argument error.
pub(crate) fn run(ctx: &mut Context<'_>) -> Result<(), FznError> {
    let mut unsupported: Vec<(String, usize)> = Vec::new();
    for located in &ctx.ast.constraints {
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
    for (at, located) in ctx.ast.constraints.iter().enumerate() {
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
