//! The only stage that writes code: the code building the model through `__private`.
//!
//! Internal names are made with `Span::mixed_site()` so they never meet the user's;
//! choice names keep the user's tokens so that conditions read them, and user expressions
//! are wrapped in `quote_spanned!` so that type errors point at the user's code.

mod exact;
mod formula;

use std::collections::BTreeMap;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Pat};

use crate::analyze::{self, Slot};
use crate::ast::{Choice, Sense};
use crate::formula::Comparison;
use crate::linear::{Coef, Lookup};
use crate::plan::{Constraint, GlobalArg, Goal, Operand, Plan, Step, Sum};

/// Internal identifiers, hygienic.
pub(crate) fn internal(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// The errors of a body, in place of its puzzle.
pub(crate) fn compile_errors(error: syn::Error) -> TokenStream {
    // Several errors are several `compile_error!`s: a block keeps them an expression. Its
    // tail has any type (so no follow-up error) without being `!` (so the statements
    // after the macro are not reported unreachable).
    let errors = error.into_compile_error();
    quote!({ #errors ::ambsolve::__private::unbuilt() })
}

/// The code of a checked body: an expression building its puzzle.
pub(crate) fn expand(plan: &Plan<'_>) -> TokenStream {
    let model = internal("__model");
    let mut counter = 0;
    let body = steps(&plan.steps, &model, &mut counter);
    let solution = internal("Solution");
    let params: Vec<Ident> = (0..plan.choices.len())
        .map(|i| format_ident!("T{}", i, span = Span::mixed_site()))
        .collect();
    let fields = plan.choices.iter().zip(&params).map(|(choice, param)| {
        let name = &choice.name;
        let ty = match choice.dims.len() {
            0 => quote!(#param),
            1 => quote!(::ambsolve::__private::Vec<#param>),
            _ => quote!(::ambsolve::__private::Vec<::ambsolve::__private::Vec<#param>>),
        };
        quote!(#name: #ty)
    });
    let assignment = internal("__assignment");
    let row = internal("__row");
    // The extractor keeps arrays as `Row`s: a run of consecutive variables sharing one
    // value list costs a few words, not a handle per variable.
    let clones = plan.choices.iter().map(|choice| {
        let name = &choice.name;
        match choice.dims.len() {
            0 => quote!(let #name = ::core::clone::Clone::clone(&#name);),
            1 => quote!(let #name = ::ambsolve::__private::Row::new(&#name);),
            _ => quote!(let #name: ::ambsolve::__private::Vec<_> = #name.iter().map(|#row| ::ambsolve::__private::Row::new(#row)).collect();),
        }
    });
    let values = plan.choices.iter().map(|choice| {
        let name = &choice.name;
        match choice.dims.len() {
            0 => quote!(#name: ::core::clone::Clone::clone(#assignment.value(&#name))),
            1 => quote!(#name: #name.read(#assignment)),
            _ => quote!(#name: #name.iter().map(|#row| #row.read(#assignment)).collect()),
        }
    });
    quote! {
        {
            let mut #model = ::ambsolve::__private::Model::new();
            #body
            /// A solution: the value of every choice.
            #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            #[allow(dead_code)]
            struct #solution<#(#params),*> {
                #(#fields,)*
            }
            ::ambsolve::__private::Puzzle::new(#model, {
                #(#clones)*
                move |#assignment: &::ambsolve::__private::Assignment| #solution {
                    #(#values,)*
                }
            })
        }
    }
}

/// `counter` numbers the names of chosen elements in conditions.
fn steps(steps_in: &[Step<'_>], model: &Ident, counter: &mut usize) -> TokenStream {
    let mut out = TokenStream::new();
    for step in steps_in {
        out.extend(match step {
            Step::Choice(choice) => declare(choice, model),
            Step::Constraint(constraint) => constrain(constraint, model, counter),
            Step::Let(item) => {
                let (pat, expr) = (&item.pat, &item.expr);
                match &item.ty {
                    Some(ty) => quote!(let #pat: #ty = #expr;),
                    None => quote!(let #pat = #expr;),
                }
            }
            Step::For { item, body } => {
                let (for_token, pat, iter) = (&item.for_token, &item.pat, &item.iter);
                let body = steps(body, model, counter);
                quote!(#for_token #pat in ::core::iter::IntoIterator::into_iter(#iter) { #body })
            }
            Step::If {
                item,
                then,
                otherwise,
            } => {
                let (if_token, cond) = (&item.if_token, &item.cond);
                let then = steps(then, model, counter);
                let otherwise = steps(otherwise, model, counter);
                quote!(#if_token #cond { #then } else { #otherwise })
            }
        });
    }
    out
}

fn declare(choice: &Choice, model: &Ident) -> TokenStream {
    let name = &choice.name;
    let label = name.to_string();
    let values = &choice.values;
    let amb = choice.amb.span();
    let values = quote_spanned!(values.span()=> ::ambsolve::__private::values(#values));
    // Parenthesised so that any expression stands as an operand (`0..#n`); the
    // parentheses are the macro's (call-site span), so rustc does not report them as the
    // user's unnecessary ones.
    let len = |e: &Expr| quote!((#e));
    match choice.dims.as_slice() {
        [] => quote_spanned!(amb=> let #name = #model.named_var(#label, #values);),
        [d] => {
            let n = len(&d.len);
            match &d.binder {
                None => quote_spanned!(amb=> let #name = #model.vars(#label, #n, #values);),
                Some(i) => {
                    let all = internal("__all");
                    quote_spanned! {amb=>
                        #[allow(clippy::needless_range_loop)]
                        let #name = {
                            let mut #all = ::ambsolve::__private::Vec::new();
                            for #i in 0..#n {
                                #all.push(#model.named_var(::std::format!("{}[{}]", #label, #i), #values));
                            }
                            #all
                        };
                    }
                }
            }
        }
        [rows, cols, ..] => {
            let (r, c) = (len(&rows.len), len(&cols.len));
            match (&rows.binder, &cols.binder) {
                (None, None) => {
                    quote_spanned!(amb=> let #name = #model.grid(#label, #r, #c, #values);)
                }
                (bi, bj) => {
                    let (all, row) = (internal("__all"), internal("__row"));
                    let i = bi.clone().unwrap_or_else(|| internal("__r"));
                    let j = bj.clone().unwrap_or_else(|| internal("__c"));
                    quote_spanned! {amb=>
                        #[allow(clippy::needless_range_loop)]
                        let #name = {
                            let mut #all = ::ambsolve::__private::Vec::new();
                            for #i in 0..#r {
                                let mut #row = ::ambsolve::__private::Vec::new();
                                for #j in 0..#c {
                                    #row.push(#model.named_var(::std::format!("{}[{}][{}]", #label, #i, #j), #values));
                                }
                                #all.push(#row);
                            }
                            #all
                        };
                    }
                }
            }
        }
    }
}

/// The expression of the variable handle (or array of handles) `slot` reads.
pub(crate) fn handle(slot: &Slot) -> TokenStream {
    let name = &slot.name;
    let indices = slot.indices.iter().map(|i| quote_spanned!(i.span()=> [#i]));
    quote_spanned!(slot.span=> #name #(#indices)*)
}

/// A coefficient or constant as an exact integer (`__private::Exact`): its factors
/// multiplied, each converted where the user wrote it.
fn coef(coef: &Coef<'_>) -> TokenStream {
    let mut factors = coef.factors.iter().map(|factor| int(factor));
    let Some(first) = factors.next() else {
        let one = quote!(::ambsolve::__private::int(1i128));
        return if coef.negative { quote!(-#one) } else { one };
    };
    let product = factors.fold(first, |product, factor| quote!((#product) * (#factor)));
    if coef.negative {
        quote!(-(#product))
    } else {
        product
    }
}

/// A user's integer as an exact integer. A literal without a suffix is read as an
/// `i128`, so that it takes no type from its neighbours (`3000000000` is not an `i32`).
fn int(expr: &Expr) -> TokenStream {
    if let Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(literal),
        ..
    }) = expr
    {
        if literal.suffix().is_empty() {
            let wide =
                syn::LitInt::new(&format!("{}i128", literal.base10_digits()), literal.span());
            return quote_spanned!(expr.span()=> ::ambsolve::__private::int(#wide));
        }
    }
    // A factor the user parenthesised (`w[i] * (i + 1)`) is an argument here: its own
    // parentheses would be unnecessary ones.
    let expr = strip_parens(expr);
    quote_spanned!(expr.span()=> ::ambsolve::__private::int(#expr))
}

/// The sum of `constants`, exact.
fn exact_sum(constants: &[Coef<'_>]) -> TokenStream {
    match constants {
        [] => return quote!(::ambsolve::__private::int(0i128)),
        [only] => return coef(only),
        _ => {}
    }
    let total = internal("__total");
    let adds = constants.iter().map(|c| {
        let c = coef(c);
        quote!(#total += #c;)
    });
    quote!({
        let mut #total = ::ambsolve::__private::int(0i128);
        #(#adds)*
        #total
    })
}

/// An all-different offset as an `i64` expression (an offset out of range makes the
/// model invalid).
fn offset(constants: &[Coef<'_>], model: &Ident) -> TokenStream {
    let exact = exact_sum(constants);
    quote!(::ambsolve::__private::narrow(&mut #model, #exact, "an offset"))
}

/// `body` inside `for` loops, the first loop outermost.
pub(crate) fn looped(loops: &[(Pat, Expr)], body: TokenStream) -> TokenStream {
    loops.iter().rev().fold(body, |body, (pat, range)| {
        quote_spanned!(range.span()=> for #pat in ::core::iter::IntoIterator::into_iter(#range) { #body })
    })
}

/// Code pushing the variables of `slot` (an element, a row or a whole array) onto
/// `list` as `(&var, offset)` (with offsets) or `var` clones (without).
fn push_vars(slot: &Slot, list: &Ident, offset: Option<&TokenStream>) -> TokenStream {
    let handle = handle(slot);
    let (var, row) = (internal("__v"), internal("__row"));
    let push = match offset {
        Some(offset) => quote!(#list.push((#var, #offset));),
        None => quote!(#list.push(#var);),
    };
    let span = slot.span;
    match slot.depth {
        0 => quote_spanned!(span=> { let #var = &#handle; #push }),
        1 => quote_spanned!(span=> for #var in (#handle).iter() { #push }),
        _ => {
            quote_spanned!(span=> for #row in (#handle).iter() { for #var in #row.iter() { #push } })
        }
    }
}

fn constrain(constraint: &Constraint<'_>, model: &Ident, counter: &mut usize) -> TokenStream {
    match constraint {
        Constraint::AllDifferent { span, items } => all_different(*span, items, model),
        Constraint::Post { expr, slots } => {
            let (scope, propagator) = (internal("__scope"), internal("__propagator"));
            let ids = slots.iter().map(|slot| {
                let h = handle(slot);
                match slot.depth {
                    0 => quote!(#scope.extend([#h.id()]);),
                    1 => quote!(#scope.extend(::ambsolve::__private::ids((#h).iter()));),
                    _ => quote!(#scope.extend(::ambsolve::__private::ids((#h).iter().flatten()));),
                }
            });
            let span = expr.span();
            quote_spanned! {span=> {
                let mut #scope: ::ambsolve::__private::Vec<::ambsolve::__private::VarId> = ::ambsolve::__private::Vec::new();
                #(#ids)*
                let #propagator = #expr;
                #model.propagator(&#scope, #propagator);
            }}
        }
        Constraint::Linear {
            span,
            goal,
            terms,
            lookups,
            constant,
            sums,
        } => linear(*span, *goal, (terms, lookups), constant, sums, model),
        Constraint::Restrict { slot, condition } => {
            let var = internal("__var");
            let value = internal("__value");
            let handle = handle(slot);
            let (binding, condition) = bind_slot(slot, condition, counter);
            let span = condition.span();
            let condition = exact::condition(&condition);
            let imports = exact::imports();
            quote_spanned! {span=> {
                let #var = ::core::clone::Clone::clone(&#handle);
                #model.restrict(&#var, |#value| {
                    #imports
                    let #binding = ::core::clone::Clone::clone(#value);
                    #condition
                });
            }}
        }
        Constraint::Formula {
            span,
            formula,
            fallback,
            text,
        } => {
            let fallback = fallback
                .as_deref()
                .map(|fallback| constrain(fallback, model, counter));
            formula::require(*span, formula, fallback, text, model)
        }
        Constraint::Objective {
            span,
            sense,
            then,
            formula,
            text,
        } => formula::objective(*span, *sense, *then, formula, text, model),
        Constraint::Global {
            span,
            name,
            args,
            closed,
        } => global(*span, name, args, *closed, model),
        Constraint::Predicate {
            slots,
            condition,
            borrowed,
        } => {
            let predicate = predicate(slots, condition, borrowed, model, counter);
            match comparison(slots, condition) {
                // Two integer choices compared: a linear constraint, else the predicate.
                Some((cmp, left, right)) => {
                    let (a, b) = (handle(left), handle(right));
                    let span = condition.span();
                    quote_spanned! {span=> {
                        #[allow(unused_imports)]
                        use ::ambsolve::__private::{CompareInteger as _, CompareOther as _};
                        let __posted = (&&::ambsolve::__private::Compare(&#a, &#b))
                            .linear(&mut #model, ::ambsolve::__private::Cmp::#cmp);
                        if !__posted #predicate
                    }}
                }
                None => predicate,
            }
        }
    }
}

fn all_different(
    span: Span,
    items: &[(Operand<'_>, &[(Pat, Expr)])],
    model: &Ident,
) -> TokenStream {
    let list = internal("__terms");
    let computed = items
        .iter()
        .any(|(operand, _)| matches!(operand, Operand::Computed { .. }));
    if computed {
        return distinct(span, items, model);
    }
    let offsets = items.iter().any(
        |(operand, _)| matches!(operand, Operand::Shifted { offset, .. } if !offset.is_empty()),
    );
    let pushes = items.iter().map(|(operand, loops)| {
        let Operand::Shifted {
            slot,
            offset: constants,
        } = operand
        else {
            unreachable!("computed operands take the other path")
        };
        let offset = offsets.then(|| offset(constants, model));
        looped(loops, push_vars(slot, &list, offset.as_ref()))
    });
    let call = if offsets {
        quote_spanned!(span=> #model.all_different_offset(#list);)
    } else {
        quote_spanned!(span=> #model.all_different(#list);)
    };
    quote! {{
        let mut #list = ::ambsolve::__private::Vec::new();
        #(#pushes)*
        #call
    }}
}

/// An all-different with computed items: each stands for an auxiliary choice equal to it,
/// and every item is compared on its integer value, whatever its type.
fn distinct(span: Span, items: &[(Operand<'_>, &[(Pat, Expr)])], model: &Ident) -> TokenStream {
    let list = internal("__distinct");
    let (var, row, aux, terms) = (
        internal("__v"),
        internal("__row"),
        internal("__aux"),
        internal("__aux_terms"),
    );
    let pushes = items.iter().map(|(operand, loops)| {
        let push = match operand {
            Operand::Shifted { slot, offset: constants } => {
                let offset = exact_sum(constants);
                let handle = handle(slot);
                let push = quote!(#list.push(&mut #model, #var, #offset););
                match slot.depth {
                    0 => quote_spanned!(slot.span=> { let #var = &#handle; #push }),
                    1 => quote_spanned!(slot.span=> for #var in (#handle).iter() { #push }),
                    _ => quote_spanned!(slot.span=> for #row in (#handle).iter() { for #var in #row.iter() { #push } }),
                }
            }
            Operand::Computed {
                span,
                terms: computed,
                constant,
            } => {
                let term_pushes = computed.iter().map(|(c, slot)| {
                    let handle = handle(slot);
                    let c = coef(c);
                    quote!(#terms.push(::ambsolve::__private::term(&mut #model, #c, &#handle));)
                });
                let constant = exact_sum(constant);
                // The macro's own tokens (lints on `Vec::new` then `push` are not the user's);
                // the item's span marks the call that builds the auxiliary choice.
                let computed = quote_spanned!(*span=> ::ambsolve::__private::computed(&mut #model, #terms, #constant));
                quote! {{
                    let mut #terms = ::ambsolve::__private::Vec::new();
                    #(#term_pushes)*
                    let #aux = #computed;
                    #list.push(&mut #model, &#aux, ::ambsolve::__private::int(0i128));
                }}
            }
        };
        looped(loops, push)
    });
    quote_spanned! {span=> {
        let mut #list = ::ambsolve::__private::Distinct::new();
        #(#pushes)*
        #list.finish(&mut #model);
    }}
}

/// A build-time argument, borrowed: as written if the user borrowed it (`&durations`),
/// else `&(expr)`.
fn borrowed(expr: &Expr) -> TokenStream {
    match expr {
        Expr::Reference(reference) if reference.mutability.is_none() => {
            quote::ToTokens::to_token_stream(reference)
        }
        _ => quote_spanned!(expr.span()=> &(#expr)),
    }
}

/// `Model::NAME(args)`: arrays and single choices as their variables, build-time integers
/// converted (out of `i64`, the model is invalid), other values as written. Each argument
/// is bound first, so that converting one may touch the model.
fn global(
    span: Span,
    name: &Ident,
    args: &[GlobalArg<'_>],
    closed: Option<bool>,
    model: &Ident,
) -> TokenStream {
    let mut binds = Vec::new();
    let mut names = Vec::new();
    for (k, arg) in args.iter().enumerate() {
        let bound = format_ident!("__arg_{}", k, span = Span::mixed_site());
        binds.push(match arg {
            GlobalArg::Choices(slot) | GlobalArg::Choice(slot) => {
                let handle = handle(slot);
                quote_spanned!(slot.span=> let #bound = &#handle;)
            }
            GlobalArg::Values(expr) => {
                let values = borrowed(expr);
                quote_spanned!(expr.span()=> let #bound = ::ambsolve::__private::dsl::int_args(&mut #model, #values);)
            }
            GlobalArg::Value(expr) => {
                let value = borrowed(expr);
                quote_spanned!(expr.span()=> let #bound = ::ambsolve::__private::dsl::int_arg(&mut #model, #value);)
            }
            GlobalArg::Plain(expr) => quote_spanned!(expr.span()=> let #bound = #expr;),
            GlobalArg::Items {
                loops,
                element,
                lits,
            } => {
                let items = internal("__items");
                let node = formula::exact_node(element);
                let item = Ident::new(if *lits { "lit_item" } else { "int_item" }, element.span);
                let push = quote_spanned!(element.span=> #items.push(::ambsolve::__private::dsl::#item(&mut #model, #node)););
                let body = looped(loops, push);
                quote_spanned! {element.span=>
                    let #bound = {
                        let mut #items = ::ambsolve::__private::Vec::new();
                        #body
                        #items
                    };
                }
            }
        });
        names.push(bound);
    }
    let closed = closed.map(|closed| quote!(, #closed));
    quote_spanned! {span=> {
        #(#binds)*
        #model.#name(#(#names),* #closed);
    }}
}

/// The terms of a linear constraint: choices and lookups, each with its coefficient.
type LinearParts<'p, 'a> = (&'p [(Coef<'a>, Slot)], &'p [(Coef<'a>, Lookup<'a>)]);

fn linear(
    span: Span,
    goal: Goal,
    (terms, lookups): LinearParts<'_, '_>,
    constant: &[Coef<'_>],
    sums: &[Sum<'_>],
    model: &Ident,
) -> TokenStream {
    let (list, total) = (internal("__terms"), internal("__constant"));
    let push = |(c, slot): &(Coef<'_>, Slot)| {
        let handle = handle(slot);
        let c = coef(c);
        quote_spanned!(slot.span=> #list.push(::ambsolve::__private::term(&mut #model, #c, &#handle));)
    };
    // `table[x]`: an auxiliary choice over the table's entries, tied to x by a table.
    let look = |(c, lookup): &(Coef<'_>, Lookup<'_>)| {
        let c = coef(c);
        let (value, looked) = (internal("__value"), internal("__looked"));
        let build = match lookup {
            Lookup::Table { table, slot, span } => {
                let handle = handle(slot);
                let read = quote_spanned!(*span=> (#table).get(::ambsolve::__private::as_index(#value)?).copied());
                quote!(::ambsolve::__private::lookup(&mut #model, &#handle, |#value| #read))
            }
            Lookup::Element { array, index } => {
                let (array, index) = (handle(array), handle(index));
                quote!(::ambsolve::__private::element(&mut #model, &#array, &#index))
            }
        };
        quote! {{
            let #looked = #build;
            #list.push(::ambsolve::__private::term(&mut #model, #c, &#looked));
        }}
    };
    let add = |c: &Coef<'_>| {
        let c = coef(c);
        quote!(#total += #c;)
    };
    let mut body: Vec<TokenStream> = terms.iter().map(push).collect();
    body.extend(lookups.iter().map(look));
    body.extend(constant.iter().map(add));
    for sum in sums {
        let inner = sum
            .terms
            .iter()
            .map(push)
            .chain(sum.lookups.iter().map(look))
            .chain(sum.constant.iter().map(add));
        body.push(looped(sum.loops, quote!(#(#inner)*)));
    }
    let post = match goal {
        Goal::Compare(cmp, cmp_span) => {
            let cmp = Ident::new(cmp.name(), cmp_span);
            quote_spanned! {span=>
                let #total = ::ambsolve::__private::narrow(&mut #model, -#total, "a constant");
                #model.linear(#list, ::ambsolve::__private::Cmp::#cmp, #total);
            }
        }
        Goal::Objective(sense, then) => {
            let sense = Ident::new(
                match sense {
                    Sense::Minimize => "Minimize",
                    Sense::Maximize => "Maximize",
                },
                span,
            );
            let method = Ident::new(if then { "then_objective" } else { "objective" }, span);
            quote_spanned! {span=>
                let #total = ::ambsolve::__private::narrow(&mut #model, #total, "a constant");
                #model.#method(::ambsolve::__private::Sense::#sense, #list, #total);
            }
        }
    };
    quote_spanned! {span=> {
        let mut #list: ::ambsolve::__private::Vec<::ambsolve::__private::Term> = ::ambsolve::__private::Vec::new();
        let mut #total = ::ambsolve::__private::int(0i128);
        #(#body)*
        #post
    }}
}

/// The name a slot's value is bound to in a condition, and the condition rewritten to
/// use it: the user's name for a scalar or a whole array, a fresh name for an element.
fn bind_slot(slot: &Slot, condition: &Expr, counter: &mut usize) -> (Ident, Expr) {
    if slot.indices.is_empty() {
        return (slot.name.clone(), condition.clone());
    }
    let fresh = fresh_element(counter, slot.span);
    let mut rewriter = Rewriter {
        elements: BTreeMap::from([(slot.key(), fresh.clone())]),
        borrowed: BTreeMap::new(),
    };
    let mut condition = condition.clone();
    rewriter.visit_expr_mut(&mut condition);
    (fresh, condition)
}

fn fresh_element(counter: &mut usize, span: Span) -> Ident {
    *counter += 1;
    let mut ident = format_ident!("__element_{}", *counter);
    ident.set_span(span.resolved_at(Span::mixed_site()));
    ident
}

fn predicate(
    slots: &[Slot],
    condition: &Expr,
    borrowed: &[Ident],
    model: &Ident,
    counter: &mut usize,
) -> TokenStream {
    let (scope, indices) = (internal("__scope"), internal("__indices"));
    let mut setup = Vec::new();
    let mut binds = Vec::new();
    let mut elements = BTreeMap::new();
    for (k, slot) in slots.iter().enumerate() {
        let handle_var = format_ident!("__handle_{}", k, span = Span::mixed_site());
        let start = format_ident!("__start_{}", k, span = Span::mixed_site());
        let handle = handle(slot);
        let span = slot.span;
        setup.push(quote_spanned! {span=>
            let #handle_var = ::core::clone::Clone::clone(&#handle);
            let #start = #scope.len();
        });
        let name = if slot.indices.is_empty() {
            slot.name.clone()
        } else {
            let fresh = fresh_element(counter, span);
            elements.insert(slot.key(), fresh.clone());
            fresh
        };
        let (var, row, at) = (internal("__v"), internal("__row"), internal("__at"));
        match slot.depth {
            0 => {
                setup.push(quote!(#scope.push(#handle_var.id());));
                binds.push(quote_spanned!(span=> let #name = ::ambsolve::__private::value(&#handle_var, #indices[#start]);));
            }
            1 => {
                setup.push(quote!(#scope.extend(::ambsolve::__private::ids(#handle_var.iter()));));
                binds.push(quote_spanned! {span=>
                    let #name: ::ambsolve::__private::Vec<_> = #handle_var
                        .iter()
                        .zip(&#indices[#start..])
                        .map(|(#var, #at)| ::ambsolve::__private::value(#var, *#at))
                        .collect();
                });
            }
            _ => {
                setup.push(quote!(#scope.extend(::ambsolve::__private::ids(#handle_var.iter().flatten()));));
                binds.push(quote_spanned! {span=>
                    let #name: ::ambsolve::__private::Vec<::ambsolve::__private::Vec<_>> = {
                        let mut #at = #indices[#start..].iter();
                        #handle_var
                            .iter()
                            .map(|#row| #row.iter().map(|#var| ::ambsolve::__private::value(#var, *#at.next().unwrap_or(&0))).collect())
                            .collect()
                    };
                });
            }
        }
    }
    // Values from outside are borrowed, not moved into the stored closure.
    let mut references = BTreeMap::new();
    for (k, ident) in borrowed.iter().enumerate() {
        let reference = format_ident!("__outer_{}", k, span = Span::mixed_site());
        setup.push(quote_spanned!(ident.span()=> let #reference = ::ambsolve::__private::captured(&#ident);));
        references.insert(ident.to_string(), reference);
    }
    let mut rewriter = Rewriter {
        elements,
        borrowed: references,
    };
    let mut condition = condition.clone();
    rewriter.visit_expr_mut(&mut condition);
    let span = condition.span();
    let condition = exact::condition(&condition);
    let imports = exact::imports();
    quote_spanned! {span=> {
        let mut #scope: ::ambsolve::__private::Vec<::ambsolve::__private::VarId> = ::ambsolve::__private::Vec::new();
        #(#setup)*
        #model.require_indices(&#scope, move |#indices: &[u32]| -> bool {
            #imports
            #(#binds)*
            #condition
        });
    }}
}

/// `x CMP y` where `x` and `y` are the two single chosen values the condition reads: the
/// comparison's name in `Cmp` and the two slots, in order.
fn comparison<'s>(slots: &'s [Slot], condition: &Expr) -> Option<(Ident, &'s Slot, &'s Slot)> {
    let Expr::Binary(binary) = strip_parens(condition) else {
        return None;
    };
    let cmp = Comparison::of(&binary.op)?;
    let [first, second] = slots else {
        return None;
    };
    if first.depth != 0 || second.depth != 0 {
        return None;
    }
    // A slot's key is the same with or without parentheses around it.
    let left = analyze::slot_key(&binary.left)?;
    let right = analyze::slot_key(&binary.right)?;
    let (left, right) = if left == first.key() && right == second.key() {
        (first, second)
    } else if left == second.key() && right == first.key() {
        (second, first)
    } else {
        return None;
    };
    Some((Ident::new(cmp.name(), binary.op.span()), left, right))
}

fn strip_parens(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(inner) => strip_parens(&inner.expr),
        other => other,
    }
}

/// Rewrites a condition over chosen values: each element slot becomes the identifier
/// given for it, and each borrowed name `x` becomes `(*ref_x)`.
struct Rewriter {
    /// Slot key → identifier of its value.
    elements: BTreeMap<String, Ident>,
    /// Borrowed name → identifier of a reference to it.
    borrowed: BTreeMap<String, Ident>,
}

impl VisitMut for Rewriter {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        let element = analyze::slot_key(expr).and_then(|key| self.elements.get(&key));
        if let Some(ident) = element {
            let span = expr.span();
            let mut ident = ident.clone();
            // Keep the binding's name resolution; take the user's location for errors.
            ident.set_span(ident.span().located_at(span));
            *expr = syn::parse_quote!(#ident);
            return;
        }
        if let Expr::Path(path) = expr {
            if let Some(ident) = path.path.get_ident() {
                if let Some(reference) = self.borrowed.get(&ident.to_string()) {
                    let span = ident.span();
                    *expr = syn::parse_quote_spanned!(span=> (*#reference));
                    return;
                }
            }
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}
