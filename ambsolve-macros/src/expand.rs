//! Emits the code that builds the model, through `::ambsolve::__private`.
//!
//! Internal names are made with `Span::mixed_site()` so they never meet the user's;
//! choice names keep the user's tokens so that conditions read them, and user expressions
//! are wrapped in `quote_spanned!` so that type errors point at the user's code.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident};

use crate::analyze::{self, Choices, Rewriter, Slot};
use crate::ast::Choice;
use crate::validate::{Constraint, Plan, Step, Term};

/// Internal identifiers, hygienic.
fn internal(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

pub(crate) fn expand(plan: &Plan<'_>) -> TokenStream {
    let model = internal("__model");
    let mut counter = 0;
    let body = steps(
        &plan.steps,
        &plan.dims,
        &model,
        &BTreeSet::new(),
        &mut counter,
    );
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
    let var = internal("__var");
    let row = internal("__row");
    let clones = plan.choices.iter().map(|choice| {
        let name = &choice.name;
        quote!(let #name = ::core::clone::Clone::clone(&#name);)
    });
    let values = plan.choices.iter().map(|choice| {
        let name = &choice.name;
        match choice.dims.len() {
            0 => quote!(#name: ::core::clone::Clone::clone(#assignment.value(&#name))),
            1 => quote!(#name: #name.iter().map(|#var| ::core::clone::Clone::clone(#assignment.value(#var))).collect()),
            _ => quote!(#name: #name.iter().map(|#row| #row.iter().map(|#var| ::core::clone::Clone::clone(#assignment.value(#var))).collect()).collect()),
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

fn steps(
    steps_in: &[Step<'_>],
    dims: &Choices,
    model: &Ident,
    locals: &BTreeSet<String>,
    counter: &mut usize,
) -> TokenStream {
    let mut out = TokenStream::new();
    let mut locals = locals.clone();
    for step in steps_in {
        out.extend(match step {
            Step::Choice(choice) => declare(choice, model),
            Step::Constraint(constraint) => constrain(constraint, dims, model, &locals, counter),
            Step::Let(item) => {
                let (pat, expr) = (&item.pat, &item.expr);
                bind_names(pat, &mut locals);
                match &item.ty {
                    Some(ty) => quote!(let #pat: #ty = #expr;),
                    None => quote!(let #pat = #expr;),
                }
            }
            Step::For { item, body } => {
                let (for_token, pat, iter) = (&item.for_token, &item.pat, &item.iter);
                let mut inner = locals.clone();
                bind_names(pat, &mut inner);
                let body = steps(body, dims, model, &inner, counter);
                quote!(#for_token #pat in ::core::iter::IntoIterator::into_iter(#iter) { #body })
            }
            Step::If {
                item,
                then,
                otherwise,
            } => {
                let (if_token, cond) = (&item.if_token, &item.cond);
                let then = steps(then, dims, model, &locals, counter);
                let otherwise = steps(otherwise, dims, model, &locals, counter);
                quote!(#if_token #cond { #then } else { #otherwise })
            }
        });
    }
    out
}

/// Names a pattern binds.
fn bind_names(pat: &syn::Pat, names: &mut BTreeSet<String>) {
    struct Names<'n>(&'n mut BTreeSet<String>);
    impl<'ast> syn::visit::Visit<'ast> for Names<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.insert(p.ident.to_string());
        }
    }
    syn::visit::Visit::visit_pat(&mut Names(names), pat);
}

fn declare(choice: &Choice, model: &Ident) -> TokenStream {
    let name = &choice.name;
    let label = name.to_string();
    let values = &choice.values;
    let amb = choice.amb.span();
    let values = quote_spanned!(values.span()=> ::ambsolve::__private::values(#values));
    let len = |e: &Expr| quote_spanned!(e.span()=> (#e));
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

/// Code pushing the variables of `slot` (an element, a row or a whole array) onto
/// `list` as `(&var, offset)` (with offsets) or `var` clones (without).
fn push_vars(
    slot: &Slot,
    dims: &Choices,
    list: &Ident,
    offset: Option<&TokenStream>,
) -> TokenStream {
    let handle = slot.handle();
    let depth = dims[&slot.name.to_string()] - slot.indices.len();
    let (var, row) = (internal("__v"), internal("__row"));
    let push = match offset {
        Some(offset) => quote!(#list.push((#var, #offset));),
        None => quote!(#list.push(#var);),
    };
    let span = slot.span;
    match depth {
        0 => quote_spanned!(span=> { let #var = &#handle; #push }),
        1 => quote_spanned!(span=> for #var in (#handle).iter() { #push }),
        _ => {
            quote_spanned!(span=> for #row in (#handle).iter() { for #var in #row.iter() { #push } })
        }
    }
}

fn constrain(
    constraint: &Constraint<'_>,
    dims: &Choices,
    model: &Ident,
    locals: &BTreeSet<String>,
    counter: &mut usize,
) -> TokenStream {
    match constraint {
        Constraint::AllDifferent {
            span,
            terms,
            comprehension,
        } => {
            let list = internal("__terms");
            let offsets = terms.iter().any(|t| t.offset.is_some());
            let zero = quote!(0i64);
            let pushes: Vec<TokenStream> = terms
                .iter()
                .map(|Term { slot, offset }| {
                    let offset = offsets.then(|| offset.as_ref().unwrap_or(&zero));
                    push_vars(slot, dims, &list, offset)
                })
                .collect();
            let mut body = quote!(#(#pushes)*);
            if let Some(comprehension) = comprehension {
                for (pat, range) in comprehension.loops.iter().rev() {
                    body = quote_spanned!(range.span()=> for #pat in ::core::iter::IntoIterator::into_iter(#range) { #body });
                }
            }
            let call = if offsets {
                quote_spanned!(*span=> #model.all_different_offset(#list);)
            } else {
                quote_spanned!(*span=> #model.all_different(#list);)
            };
            quote! {{
                let mut #list = ::ambsolve::__private::Vec::new();
                #body
                #call
            }}
        }
        Constraint::Linear {
            span,
            form,
            cmp,
            sums,
        } => {
            let (list, constant) = (internal("__terms"), internal("__constant"));
            let term = |coef: &analyze::Coef, slot: &Slot| {
                let handle = slot.handle();
                let coef = analyze::coef_tokens(coef);
                quote_spanned!(slot.span=> #list.push(::ambsolve::__private::Term::new(#coef, &#handle));)
            };
            let add = |c: &analyze::Coef| {
                let c = analyze::coef_tokens(c);
                quote!(#constant += #c;)
            };
            let mut body: Vec<TokenStream> = form
                .terms
                .iter()
                .map(|(coef, slot)| term(coef, slot))
                .collect();
            body.extend(form.constant.iter().map(add));
            for ((coef, _), comprehension) in form.sums.iter().zip(sums) {
                let element = analyze::linearize(&comprehension.element, dims, &BTreeSet::new())
                    .expect("validated as linear");
                let mut inner: Vec<TokenStream> = element
                    .terms
                    .iter()
                    .map(|(c, slot)| term(&analyze::times(coef, c), slot))
                    .collect();
                inner.extend(
                    element
                        .constant
                        .iter()
                        .map(|c| add(&analyze::times(coef, c))),
                );
                let mut looped = quote!(#(#inner)*);
                for (pat, range) in comprehension.loops.iter().rev() {
                    looped = quote_spanned!(range.span()=> for #pat in ::core::iter::IntoIterator::into_iter(#range) { #looped });
                }
                body.push(looped);
            }
            quote_spanned! {*span=> {
                let mut #list: ::ambsolve::__private::Vec<::ambsolve::__private::Term> = ::ambsolve::__private::Vec::new();
                let mut #constant: i64 = 0;
                #(#body)*
                #model.linear(#list, ::ambsolve::__private::Cmp::#cmp, -#constant);
            }}
        }
        Constraint::Restrict { slot, condition } => {
            let var = internal("__var");
            let value = internal("__value");
            let handle = slot.handle();
            let (binding, condition) = bind_slot(slot, condition, dims, counter);
            let span = condition.span();
            quote_spanned! {span=> {
                let #var = ::core::clone::Clone::clone(&#handle);
                #model.restrict(&#var, |#value| {
                    let #binding = ::core::clone::Clone::clone(#value);
                    #condition
                });
            }}
        }
        Constraint::Predicate {
            slots,
            condition,
            outer,
        } => predicate(slots, condition, outer, dims, model, locals, counter),
    }
}

/// The name a slot's value is bound to in a condition, and the condition rewritten to
/// use it: the user's name for a scalar or a whole array, a fresh name for an element.
fn bind_slot(slot: &Slot, condition: &Expr, dims: &Choices, counter: &mut usize) -> (Ident, Expr) {
    if slot.indices.is_empty() {
        return (slot.name.clone(), condition.clone());
    }
    let fresh = fresh_element(counter, slot.span);
    let mut rewriter = Rewriter {
        choices: dims,
        elements: BTreeMap::from([(slot.key(), fresh.clone())]),
        outer: BTreeMap::new(),
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
    outer: &[Ident],
    dims: &Choices,
    model: &Ident,
    locals: &BTreeSet<String>,
    counter: &mut usize,
) -> TokenStream {
    let (scope, indices) = (internal("__scope"), internal("__indices"));
    let mut setup = Vec::new();
    let mut binds = Vec::new();
    let mut elements = BTreeMap::new();
    for (k, slot) in slots.iter().enumerate() {
        let handle_var = format_ident!("__handle_{}", k, span = Span::mixed_site());
        let start = format_ident!("__start_{}", k, span = Span::mixed_site());
        let handle = slot.handle();
        let depth = dims[&slot.name.to_string()] - slot.indices.len();
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
        match depth {
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
    // Values from outside are borrowed, not moved into the stored closure; the macro's
    // own loop variables and lets are small values, copied in.
    let mut references = BTreeMap::new();
    for (k, ident) in outer.iter().enumerate() {
        if locals.contains(&ident.to_string()) {
            continue;
        }
        let reference = format_ident!("__outer_{}", k, span = Span::mixed_site());
        setup.push(quote_spanned!(ident.span()=> let #reference = &#ident;));
        references.insert(ident.to_string(), reference);
    }
    let mut rewriter = Rewriter {
        choices: dims,
        elements,
        outer: references,
    };
    let mut condition = condition.clone();
    rewriter.visit_expr_mut(&mut condition);
    let span = condition.span();
    quote_spanned! {span=> {
        let mut #scope: ::ambsolve::__private::Vec<::ambsolve::__private::VarId> = ::ambsolve::__private::Vec::new();
        #(#setup)*
        #model.predicate(&#scope, move |#indices: &[u32]| -> bool {
            #(#binds)*
            #condition
        });
    }}
}
