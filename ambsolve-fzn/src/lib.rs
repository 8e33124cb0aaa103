//! ambsolve as a MiniZinc solver: reads FlatZinc, builds an ambsolve
//! [`Model`](ambsolve::Model) through its public API only, solves it, and prints the
//! solutions in the FlatZinc output format. The binary `fzn-ambsolve` is what MiniZinc
//! runs (`minizinc --solver ambsolve model.mzn data.dzn`, see the README's "Use from
//! MiniZinc").
//!
//! ```
//! use ambsolve_fzn::{FznModel, SolveOptions, Status};
//!
//! let fzn = "\
//! var 1..3: x :: output_var;
//! var 1..3: y :: output_var;
//! constraint int_lin_eq([1, 1], [x, y], 5);
//! constraint int_lt(x, y);
//! solve satisfy;
//! ";
//! let model = FznModel::from_str(fzn)?;
//! let mut printed = Vec::new();
//! let outcome = ambsolve_fzn::solve(&model, &SolveOptions::default(), &mut printed, |_| {})?;
//! assert_eq!(String::from_utf8(printed)?, "x = 2;\ny = 3;\n----------\n");
//! assert_eq!(outcome.status, Status::Satisfied);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The pieces: [`parser`] cuts the file into statements (at `;`, whatever the lines) and
//! reads each with the `flatzinc` crate's grammar; the compiler runs small passes over
//! one context (constants, domains, argument kinds, equivalences, variables, constraints
//! through a table of builtins, objective, search annotations), the first ones on each
//! item as it is read, so that a file of millions of items is not kept whole; [`solve`]
//! runs the search and prints.
//!
//! What is supported so far: integer and boolean variables (booleans are 0/1 integers) of
//! up to `u32::MAX` values each (an unbounded `var int` ranges over `-(2^31 - 1)..2^31 - 1`),
//! the builtins of [`supported_builtins`], `satisfy`, `minimize` and `maximize`, and the
//! search annotations (`int_search`, `bool_search`, `seq_search` with every selection but
//! `max_regret`, `restart_*`; what is followed only in part is in [`FznModel::notes`]). Floats are refused; any other builtin is an error naming it and
//! its line ([`FznError::Unsupported`]).

pub mod ast;
mod compiler;
mod error;
mod model;
mod output;
pub mod parser;
mod solve;

pub use crate::ast::{Ast, Located};
pub use crate::error::FznError;
pub use crate::model::FznModel;
pub use crate::parser::ReadLimits;
pub use crate::solve::{Outcome, SolveError, SolveOptions, Status, solve};

/// The FlatZinc builtins ambsolve supports, in the order of its table.
pub fn supported_builtins() -> impl Iterator<Item = &'static str> {
    compiler::builtins().map(|(name, _)| name)
}
