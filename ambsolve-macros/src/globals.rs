//! Global constraints written as calls, `require NAME(args);`: each is the `Model` method
//! of the same name, its arrays of choices passed as variables and its other arguments
//! as the values they are while the model is built.

use syn::spanned::Spanned;
use syn::{Expr, ExprCall};

use crate::analyze::{self, Choices, Slot};
use crate::plan::{Constraint, GlobalArg};

/// What a parameter of a global constraint takes.
#[derive(Clone, Copy)]
#[allow(
    dead_code,
    reason = "the parameters of the families' globals, as they land"
)]
pub(crate) enum Param {
    /// Integers: an array (or a grid's row) of choices, or a list of build-time integers.
    Ints,
    /// One integer: a choice, or a build-time integer.
    Int,
    /// A build-time value passed as it is written (an `i64`, a `bool`, a `&Dfa`..).
    Plain,
}

use Param::{Int, Ints, Plain};

/// The global constraints written as calls, with their parameters. The method of the
/// same name on `Model` takes them in this order.
const GLOBALS: &[(&str, &[Param])] = &[
    ("increasing", &[Ints]),
    ("strictly_increasing", &[Ints]),
    ("decreasing", &[Ints]),
    ("strictly_decreasing", &[Ints]),
    // tours
    ("circuit", &[Ints]),
    ("circuit_offset", &[Ints, Plain]),
    ("subcircuit", &[Ints]),
    ("subcircuit_offset", &[Ints, Plain]),
    ("inverse", &[Ints, Ints]),
    ("inverse_offset", &[Ints, Plain, Ints, Plain]),
    ("all_different_except", &[Ints, Plain]),
];

/// The names of the global constraints written as calls.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    GLOBALS.iter().map(|(name, _)| *name)
}

/// The global constraint `part` calls, if it calls one.
pub(crate) fn global<'a>(part: &'a Expr, dims: &Choices) -> Option<syn::Result<Constraint<'a>>> {
    let Expr::Call(call) = part else {
        return None;
    };
    let Expr::Path(func) = &*call.func else {
        return None;
    };
    let name = func.path.get_ident()?;
    let (_, params) = GLOBALS.iter().find(|(g, _)| name == g)?;
    Some(
        arguments(call, params, dims).map(|args| Constraint::Global {
            span: call.span(),
            name: name.clone(),
            args,
        }),
    )
}

fn example(name: &str, params: &[Param]) -> String {
    let args: Vec<&str> = params
        .iter()
        .map(|p| match p {
            Ints => "x",
            Int => "c",
            Plain => "1",
        })
        .collect();
    format!("require {name}({});", args.join(", "))
}

fn arguments<'a>(
    call: &'a ExprCall,
    params: &[Param],
    dims: &Choices,
) -> syn::Result<Vec<GlobalArg<'a>>> {
    let name = match &*call.func {
        Expr::Path(p) => p
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default(),
        _ => String::new(),
    };
    if call.args.len() != params.len() {
        return Err(syn::Error::new(
            call.span(),
            format!(
                "`{name}` takes {} argument{}: write `{}`",
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                example(&name, params)
            ),
        ));
    }
    let mut args = Vec::with_capacity(params.len());
    for (arg, param) in call.args.iter().zip(params) {
        let chosen = analyze::first_choice_in(arg, dims);
        let slot: Option<Slot> = analyze::slot_of(arg, dims);
        let wanted = |what: &str| {
            syn::Error::new(
                arg.span(),
                format!(
                    "this argument of `{name}` takes {what}: write `{}`",
                    example(&name, params)
                ),
            )
        };
        let constant_indices = |slot: &Slot| {
            slot.indices
                .iter()
                .all(|i| analyze::first_choice_in(i, dims).is_none())
        };
        args.push(match (param, chosen, slot) {
            (Ints, None, _) => GlobalArg::Values(arg),
            (Ints, Some(_), Some(slot)) if slot.depth == 1 && constant_indices(&slot) => {
                GlobalArg::Choices(slot)
            }
            (Ints, Some(_), _) => {
                return Err(wanted(
                    "an array of choices (`x`, or a row `g[r]`) or a list of integers",
                ));
            }
            (Int, None, _) => GlobalArg::Value(arg),
            (Int, Some(_), Some(slot)) if slot.depth == 0 && constant_indices(&slot) => {
                GlobalArg::Choice(slot)
            }
            (Int, Some(_), _) => return Err(wanted("one choice (`c`, `x[i]`) or an integer")),
            (Plain, None, _) => GlobalArg::Plain(arg),
            (Plain, Some(found), _) => {
                return Err(syn::Error::new(
                    found.span(),
                    format!(
                        "this argument of `{name}` is a value known while the model is built, not a choice: write `{}`",
                        example(&name, params)
                    ),
                ));
            }
        });
    }
    Ok(args)
}
