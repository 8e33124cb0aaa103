//! Global constraints written as calls, `require NAME(args);`: each is the `Model` method
//! of the same name, its arrays of choices passed as variables and its other arguments
//! as the values they are while the model is built.

use syn::spanned::Spanned;
use syn::{Expr, ExprCall};

use crate::analyze::{self, Choices, Slot};
use crate::plan::{Constraint, GlobalArg};

/// What a parameter of a global constraint takes.
#[derive(Clone, Copy)]
pub(crate) enum Param {
    /// Integers: an array (or a grid's row) of choices, or a list of build-time integers.
    Ints,
    /// One integer: a choice, or a build-time integer.
    Int,
    /// A build-time value passed as it is written (an `i64`, a `bool`, a `&Dfa`..).
    Plain,
}

use Param::{Int, Ints, Plain};

/// A global constraint written as a call: its name, its parameters, and the `Model`
/// method it calls (the same name unless given) with a trailing `bool` (if given).
struct Global {
    name: &'static str,
    params: &'static [Param],
    method: Option<(&'static str, bool)>,
}

const fn same(name: &'static str, params: &'static [Param]) -> Global {
    Global {
        name,
        params,
        method: None,
    }
}

/// The global constraints written as calls. The method of the same name on `Model` takes
/// the parameters in this order (MiniZinc's, but for `nvalue`, `count` and `among`, which
/// are integer functions: `count(x, v) == k`).
const GLOBALS: &[Global] = &[
    // order
    same("increasing", &[Ints]),
    same("strictly_increasing", &[Ints]),
    same("decreasing", &[Ints]),
    same("strictly_decreasing", &[Ints]),
    // sequences
    same("lex_lesseq", &[Ints, Ints]),
    same("lex_less", &[Ints, Ints]),
    same("all_equal", &[Ints]),
    same("regular", &[Ints, Plain]),
    // lookups
    same("element", &[Int, Ints, Int]),
    same("element_offset", &[Int, Plain, Ints, Int]),
    // counting
    same("at_most", &[Plain, Ints, Int]),
    same("at_least", &[Plain, Ints, Int]),
    Global {
        name: "global_cardinality",
        params: &[Ints, Plain, Ints],
        method: Some(("global_cardinality", false)),
    },
    Global {
        name: "global_cardinality_closed",
        params: &[Ints, Plain, Ints],
        method: Some(("global_cardinality", true)),
    },
    // scheduling
    same("disjunctive", &[Ints, Ints]),
    same("disjunctive_strict", &[Ints, Ints]),
    same("cumulative", &[Ints, Ints, Ints, Int]),
    // tours
    same("circuit", &[Ints]),
    same("circuit_offset", &[Ints, Plain]),
    same("subcircuit", &[Ints]),
    same("subcircuit_offset", &[Ints, Plain]),
    same("inverse", &[Ints, Ints]),
    same("inverse_offset", &[Ints, Plain, Ints, Plain]),
    same("all_different_except", &[Ints, Plain]),
];

/// The names of the global constraints written as calls.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    GLOBALS.iter().map(|g| g.name)
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
    let global = GLOBALS.iter().find(|g| name == g.name)?;
    let (method, closed) = match global.method {
        Some((method, closed)) => (syn::Ident::new(method, name.span()), Some(closed)),
        None => (name.clone(), None),
    };
    Some(
        arguments(call, global.params, dims).map(|args| Constraint::Global {
            span: call.span(),
            name: method,
            args,
            closed,
        }),
    )
}

/// What each parameter of a global is called in a suggestion.
fn placeholders(name: &str, params: &[Param]) -> Vec<String> {
    let named: &[&str] = match name {
        "lex_lesseq" | "lex_less" => &["x", "y"],
        "regular" => &["x", "&dfa"],
        "element" => &["i", "x", "v"],
        "element_offset" => &["i", "1", "x", "v"],
        "at_most" | "at_least" => &["2", "x", "v"],
        "global_cardinality" | "global_cardinality_closed" => &["x", "&[1, 2]", "counts"],
        "disjunctive" | "disjunctive_strict" => &["starts", "durations"],
        "cumulative" => &["starts", "durations", "demands", "capacity"],
        "circuit" | "subcircuit" => &["succ"],
        "circuit_offset" | "subcircuit_offset" => &["succ", "1"],
        "inverse" => &["f", "g"],
        "inverse_offset" => &["f", "1", "g", "1"],
        "all_different_except" => &["x", "0"],
        _ => &[],
    };
    if named.len() == params.len() {
        return named.iter().map(ToString::to_string).collect();
    }
    params
        .iter()
        .map(|p| match p {
            Ints => "x",
            Int => "c",
            Plain => "1",
        })
        .map(str::to_string)
        .collect()
}

/// The call to write: `require NAME(args);`, with the placeholders of
/// [`placeholders`] where `written` gives no argument.
fn example(name: &str, params: &[Param], written: &[Option<String>]) -> String {
    let args: Vec<String> = placeholders(name, params)
        .into_iter()
        .enumerate()
        .map(|(k, placeholder)| written.get(k).cloned().flatten().unwrap_or(placeholder))
        .collect();
    format!("require {name}({});", args.join(", "))
}

/// An argument as the user wrote it, spaced as Rust is written (`s[i]`, `&[1, 2]`).
fn render(expr: &Expr) -> String {
    let mut text = quote::ToTokens::to_token_stream(expr).to_string();
    for (spaced, tight) in [
        (" [", "["),
        ("[ ", "["),
        (" ]", "]"),
        (" ,", ","),
        ("& ", "&"),
        ("( ", "("),
        (" )", ")"),
        (" (", "("),
        (" . ", "."),
    ] {
        text = text.replace(spaced, tight);
    }
    text
}

/// What the user probably meant where a parameter wants an array and the argument is one
/// element (`x[0]`: `x`), or wants one choice and the argument is an array (`x`:
/// `x[i]`), or wants a row and the argument is a grid (`g`: `g[r]`).
fn meant(param: Param, slot: Option<&Slot>) -> Option<String> {
    let slot = slot?;
    let base = |indices: &[Expr]| {
        let mut text = slot.name.to_string();
        for index in indices {
            text.push_str(&format!("[{}]", render(index)));
        }
        text
    };
    match param {
        Ints if slot.depth == 0 && !slot.indices.is_empty() => {
            Some(base(&slot.indices[..slot.indices.len() - 1]))
        }
        Ints if slot.depth >= 2 => Some(format!("{}[r]", base(&slot.indices))),
        Int if slot.depth >= 1 => Some(format!("{}[i]", base(&slot.indices))),
        _ => None,
    }
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
                example(&name, params, &[])
            ),
        ));
    }
    // The arguments as written, for the suggestions.
    let written: Vec<String> = call.args.iter().map(render).collect();
    let mut args = Vec::with_capacity(params.len());
    for (at, (arg, param)) in call.args.iter().zip(params).enumerate() {
        let chosen = analyze::first_choice_in(arg, dims);
        let slot: Option<Slot> = analyze::slot_of(arg, dims);
        // The user's other arguments, and what this one should probably be.
        let suggestion = {
            let mut fixed: Vec<Option<String>> = written.iter().cloned().map(Some).collect();
            fixed[at] = meant(*param, slot.as_ref());
            example(&name, params, &fixed)
        };
        let wanted = |what: &str| {
            syn::Error::new(
                arg.span(),
                format!("this argument of `{name}` takes {what}: write `{suggestion}`"),
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
                        "this argument of `{name}` is a value known while the model is built, not a choice: write `{suggestion}`",
                    ),
                ));
            }
        });
    }
    Ok(args)
}

/// MiniZinc's predicate spellings of the integer functions `count(x, v)`,
/// `among(x, &values)` and `nvalue(x)` (`count(x, v, k)`, `among(k, x, values)`,
/// `nvalue(k, x)`), anywhere in `part`: an error on the call saying what to write.
pub(crate) fn predicate_spelling(part: &Expr, dims: &Choices) -> Option<syn::Error> {
    struct Finder<'d> {
        dims: &'d Choices,
        found: Option<syn::Error>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
        fn visit_expr_call(&mut self, call: &'ast ExprCall) {
            let array = |k: usize| {
                call.args
                    .iter()
                    .nth(k)
                    .and_then(|a| analyze::slot_of(a, self.dims))
                    .is_some_and(|s| s.depth == 1)
            };
            let name = match &*call.func {
                Expr::Path(p) => p.path.get_ident().map(ToString::to_string),
                _ => None,
            };
            let write = match (name.as_deref(), call.args.len()) {
                (Some("count"), 3) if array(0) => Some("require count(x, v) == k;"),
                (Some("among"), 3) if array(1) => Some("require among(x, &values) == k;"),
                (Some("nvalue"), 2) if array(1) => Some("require nvalue(x) == k;"),
                _ => None,
            };
            if let (Some(write), None) = (write, &self.found) {
                let name = name.unwrap_or_default();
                self.found = Some(syn::Error::new(
                    call.func.span(),
                    format!("`{name}` is an integer function of an array here: write `{write}`"),
                ));
            }
            syn::visit::visit_expr_call(self, call);
        }
    }
    let mut finder = Finder { dims, found: None };
    syn::visit::Visit::visit_expr(&mut finder, part);
    finder.found
}
