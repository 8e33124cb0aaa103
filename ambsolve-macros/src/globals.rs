//! Global constraints written as calls, `require NAME(args);`: each is the `Model` method
//! of the same name (`signatures.rs` lists them with their parameters), its arrays of
//! choices passed as variables and its other arguments as the values they are while the
//! model is built.

use syn::spanned::Spanned;
use syn::{Expr, ExprCall};

use crate::analyze::{self, Choices, Slot};
use crate::ast::Comprehension;
use crate::checks::check_pat;
use crate::formula::Reader;
use crate::plan::{Constraint, GlobalArg};
use crate::signatures::Param::{Int, Ints, Lits, Plain};
use crate::signatures::{GLOBALS, Param};

/// The global constraint `part` calls, if it calls one (`comprehensions`: those its
/// placeholders stand for).
pub(crate) fn global<'a>(
    part: &'a Expr,
    dims: &Choices,
    comprehensions: &'a [Comprehension],
) -> Option<syn::Result<Constraint<'a>>> {
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
        arguments(call, global.params, dims, comprehensions).map(|args| Constraint::Global {
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
        "disjunctive_optional" => &["starts", "durations", "present"],
        "cumulative_optional" => &["starts", "durations", "demands", "present", "capacity"],
        "bin_packing_load" => &["load", "bin", "w"],
        "bin_packing" => &["5", "bin", "w"],
        "bin_packing_capa" => &["capacities", "bin", "w"],
        "diffn" | "diffn_nonstrict" => &["x", "y", "w", "h"],
        "value_precede_chain" => &["[1, 2, 3]", "x"],
        "value_precede" => &["1", "2", "x"],
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
            Lits => "b",
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
        Ints | Lits if slot.depth == 0 && !slot.indices.is_empty() => {
            Some(base(&slot.indices[..slot.indices.len() - 1]))
        }
        Ints | Lits if slot.depth >= 2 => Some(format!("{}[r]", base(&slot.indices))),
        Int if slot.depth >= 1 => Some(format!("{}[i]", base(&slot.indices))),
        _ => None,
    }
}

fn arguments<'a>(
    call: &'a ExprCall,
    params: &[Param],
    dims: &Choices,
    comprehensions: &'a [Comprehension],
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
        if let Some(comprehension) = placeholder(arg, comprehensions) {
            if !matches!(param, Ints | Lits) {
                return Err(syn::Error::new(
                    comprehension.element.span(),
                    format!(
                        "this argument of `{name}` takes one value, not a list: write `{}`",
                        example(&name, params, &[])
                    ),
                ));
            }
            args.push(items(comprehension, dims, &name, matches!(param, Lits))?);
            continue;
        }
        args.push(match (param, chosen, slot) {
            (Ints, None, _) => GlobalArg::Values(arg),
            // An array or row, or a slice of one (`x[1..n]`: the slice of its choices).
            (Ints | Lits, Some(_), Some(slot))
                if constant_indices(&slot)
                    && (slot.depth == 1
                        || slot.depth == 0
                            && matches!(slot.indices.last(), Some(Expr::Range(_)))) =>
            {
                GlobalArg::Choices(slot)
            }
            (Ints, Some(_), _) => {
                return Err(wanted(
                    "an array of choices (`x`, a row `g[r]`, a slice `x[1..n]`, a column `g[r][c] for r in 0..n`) or a list of integers",
                ));
            }
            (Lits, _, _) => {
                return Err(wanted(
                    "an array of boolean (or 0/1) choices (`b`, a row `g[r]`, a slice `b[1..n]`, a comprehension `g[r][c] for r in 0..n` or `s[i] < 3 for i in 0..n`)",
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

/// The comprehension whose placeholder `arg` is, if it is one.
fn placeholder<'a>(arg: &Expr, comprehensions: &'a [Comprehension]) -> Option<&'a Comprehension> {
    let Expr::Path(path) = arg else {
        return None;
    };
    let ident = path.path.get_ident()?;
    comprehensions.iter().find(|c| c.placeholder == *ident)
}

/// A list written as a comprehension: its loops range over build-time values and its
/// element is an integer expression (of choices, or none).
fn items<'a>(
    comprehension: &'a Comprehension,
    dims: &Choices,
    name: &str,
    lits: bool,
) -> syn::Result<GlobalArg<'a>> {
    for (pat, range) in &comprehension.loops {
        check_pat(pat, dims)?;
        if let Some(found) = analyze::first_choice_in(range, dims) {
            return Err(syn::Error::new(
                found.span(),
                "a comprehension range is evaluated while building the model: it cannot use a choice",
            ));
        }
    }
    let element = Reader::new(dims, &[])
        .read(&comprehension.element)
        .ok_or_else(|| {
            syn::Error::new(
                comprehension.element.span(),
                format!(
                    "each item of this list of `{name}` is an integer: a choice (`s[j][m]`), an expression of choices (`s[i] + d[i]`) or a value"
                ),
            )
        })?;
    Ok(GlobalArg::Items {
        loops: &comprehension.loops,
        element,
        lits,
    })
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
