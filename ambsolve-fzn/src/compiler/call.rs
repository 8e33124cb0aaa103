//! What the table of builtins (`post_constraints.rs`) and their handlers (`builtins.rs`,
//! `builtins_bool.rs`, `builtins_global.rs`) share: a constraint item being posted, and
//! the signature of a handler.

use flatzinc::Expr;

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
    /// The arguments, or an error if the call has another number of arguments than
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
pub(crate) type Handler = fn(&mut Context, &Call<'_>) -> Result<(), FznError>;
