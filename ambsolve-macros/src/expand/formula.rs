//! The code of a formula: a `__private::dsl::Node` built while the model is built, then
//! required (or falling back on its predicate) or made the objective.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::ast::Sense;
use crate::expand::{handle, internal, looped};
use crate::formula::{Formula, Kind};

/// How leaves become nodes.
#[derive(Clone, Copy, PartialEq)]
enum Leaves {
    /// Probed: integers and booleans become expressions, other values `Node::Other`.
    Probed,
    /// Converted: integers and booleans only (anything else is a compile error).
    Exact,
}

/// `require` of a formula: flattened when its leaves allow, else `fallback` (the
/// predicate's code) when there is one.
pub(super) fn require(
    span: Span,
    formula: &Formula<'_>,
    fallback: Option<TokenStream>,
    text: &str,
    model: &proc_macro2::Ident,
) -> TokenStream {
    let node_name = internal("__formula");
    match fallback {
        Some(fallback) => {
            let node = node(formula, Leaves::Probed);
            quote_spanned! {span=> {
                #[allow(unused_imports)]
                use ::ambsolve::__private::dsl::{
                    LeafBool as _, LeafInt as _, LeafOther as _, ValueBool as _, ValueInt as _,
                    ValueOther as _,
                };
                let #node_name = #node;
                if !::ambsolve::__private::dsl::require(&mut #model, #node_name) #fallback
            }}
        }
        None => {
            let node = node(formula, Leaves::Exact);
            quote_spanned! {span=> {
                let #node_name = #node;
                ::ambsolve::__private::dsl::require_only(&mut #model, #node_name, #text);
            }}
        }
    }
}

/// The objective `formula`, minimised or maximised; `then`: a further one.
pub(super) fn objective(
    span: Span,
    sense: Sense,
    then: bool,
    formula: &Formula<'_>,
    text: &str,
    model: &proc_macro2::Ident,
) -> TokenStream {
    let node_name = internal("__formula");
    let node = node(formula, Leaves::Exact);
    let sense = proc_macro2::Ident::new(
        match sense {
            Sense::Minimize => "Minimize",
            Sense::Maximize => "Maximize",
        },
        span,
    );
    quote_spanned! {span=> {
        let #node_name = #node;
        ::ambsolve::__private::dsl::objective(
            &mut #model,
            ::ambsolve::__private::Sense::#sense,
            #then,
            #node_name,
            #text,
        );
    }}
}

/// A function of `__private::dsl`.
fn dsl(name: &str) -> TokenStream {
    let name = proc_macro2::Ident::new(name, Span::call_site());
    quote!(::ambsolve::__private::dsl::#name)
}

/// A chosen value (`var` a reference to its `Var`) as a node.
fn leaf(var: TokenStream, leaves: Leaves, span: Span) -> TokenStream {
    match leaves {
        Leaves::Probed => quote_spanned!(span=> (&&&::ambsolve::__private::dsl::Leaf(#var)).node()),
        Leaves::Exact => quote_spanned!(span=> ::ambsolve::__private::dsl::var(#var)),
    }
}

/// A build-time value (`value` a reference to it) as a node.
fn value(value: TokenStream, leaves: Leaves, span: Span) -> TokenStream {
    match leaves {
        Leaves::Probed => {
            quote_spanned!(span=> (&&&::ambsolve::__private::dsl::Value(#value)).node())
        }
        Leaves::Exact => quote_spanned!(span=> ::ambsolve::__private::dsl::value(#value)),
    }
}

/// The code building `formula`'s node, its leaves integers and booleans only.
pub(super) fn exact_node(formula: &Formula<'_>) -> TokenStream {
    node(formula, Leaves::Exact)
}

/// The code building `formula`'s node.
fn node(formula: &Formula<'_>, leaves: Leaves) -> TokenStream {
    let span = formula.span;
    let sub = |f: &Formula<'_>| node(f, leaves);
    match &formula.kind {
        Kind::Leaf(slot) => {
            let handle = handle(slot);
            leaf(quote_spanned!(slot.span=> &#handle), leaves, slot.span)
        }
        Kind::Value(expr) => value(quote_spanned!(span=> &(#expr)), leaves, span),
        Kind::Int(literal) => {
            let wide =
                syn::LitInt::new(&format!("{}i128", literal.base10_digits()), literal.span());
            quote_spanned!(span=> ::ambsolve::__private::dsl::int(#wide))
        }
        Kind::Not(a) => unary("not", sub(a)),
        Kind::Neg(a) => unary("neg", sub(a)),
        Kind::Abs(a) => unary("abs", sub(a)),
        Kind::Cast(a) => unary(
            match leaves {
                Leaves::Probed => "cast",
                Leaves::Exact => "cast_exact",
            },
            sub(a),
        ),
        Kind::Binary(op, a, b) => {
            let f = dsl(op.function());
            let (a, b) = (sub(a), sub(b));
            quote_spanned!(span=> #f(#a, #b))
        }
        Kind::Compare(cmp, op_span, a, b) => {
            let cmp = proc_macro2::Ident::new(cmp.name(), *op_span);
            let (a, b) = (sub(a), sub(b));
            quote_spanned!(span=> ::ambsolve::__private::dsl::compare(#a, ::ambsolve::__private::Cmp::#cmp, #b))
        }
        Kind::Extreme(max, items) => {
            let items = items.iter().map(sub);
            quote_spanned!(span=> ::ambsolve::__private::dsl::extreme(::ambsolve::__private::Vec::from([#(#items),*]), #max))
        }
        Kind::Count(items) => {
            let items = items.iter().map(sub);
            quote_spanned!(span=> ::ambsolve::__private::dsl::count(::ambsolve::__private::Vec::from([#(#items),*])))
        }
        Kind::OfArray(function, slot, other) => {
            let items = row_nodes(&handle(slot), leaves, slot.span);
            let f = dsl(function);
            match other {
                Some(other) => {
                    let other = sub(other);
                    quote_spanned!(span=> #f(#items, #other))
                }
                None => quote_spanned!(span=> #f(#items)),
            }
        }
        Kind::Among(slot, values) => {
            let items = row_nodes(&handle(slot), leaves, slot.span);
            let values_span = syn::spanned::Spanned::span(values);
            let values = quote_spanned!(values_span=> &(#values)[..]);
            quote_spanned!(span=> ::ambsolve::__private::dsl::among(#items, #values))
        }
        Kind::Lookup(table, indices) => {
            let (t, i, j) = (internal("__table"), internal("__i"), internal("__j"));
            let table_span = syn::spanned::Spanned::span(table);
            let bind = quote_spanned!(table_span=> let #t = &(#table););
            match indices.as_slice() {
                [index] => {
                    let index = sub(index);
                    let read = value(quote_spanned!(table_span=> &#t[#i]), leaves, table_span);
                    quote_spanned!(span=> {
                        #bind
                        ::ambsolve::__private::dsl::lookup(#index, #t.len(), |#i| #read)
                    })
                }
                [row, col] => {
                    let (row, col) = (sub(row), sub(col));
                    let read = value(quote_spanned!(table_span=> &#t[#i][#j]), leaves, table_span);
                    quote_spanned!(span=> {
                        #bind
                        ::ambsolve::__private::dsl::lookup2(#row, #col, #t.len(), |#i| #t[#i].len(), |#i, #j| #read)
                    })
                }
                _ => unreachable!("lookups take one or two indices"),
            }
        }
        Kind::Element(array, indices) => {
            let handle = handle(array);
            match indices.as_slice() {
                [index] => {
                    let index = sub(index);
                    let items = row_nodes(&handle, leaves, array.span);
                    quote_spanned!(span=> ::ambsolve::__private::dsl::element(#index, #items))
                }
                [row, col] => {
                    let (row, col) = (sub(row), sub(col));
                    let r = internal("__r");
                    let items = row_nodes(&quote!(#r), leaves, array.span);
                    quote_spanned!(span=> ::ambsolve::__private::dsl::element2d(
                        #row,
                        #col,
                        (#handle).iter().map(|#r| #items).collect(),
                    ))
                }
                _ => unreachable!("lookups take one or two indices"),
            }
        }
        Kind::Fold(fold, comprehension, element) => {
            let items = internal("__items");
            let element = sub(element);
            let push = quote!(#items.push(#element););
            let body = looped(&comprehension.loops, push);
            let f = dsl(fold.function());
            quote_spanned!(span=> #f({
                let mut #items = ::ambsolve::__private::Vec::new();
                #body
                #items
            }))
        }
    }
}

fn unary(name: &str, a: TokenStream) -> TokenStream {
    let f = dsl(name);
    quote!(#f(#a))
}

/// The nodes of a row of choices (`row` an expression of a slice of `Var`s), collected.
fn row_nodes(row: &TokenStream, leaves: Leaves, span: Span) -> TokenStream {
    if leaves == Leaves::Exact {
        // The whole row in one call: a type error points at the user's array.
        return quote_spanned!(span=> ::ambsolve::__private::dsl::vars(&#row));
    }
    let v = internal("__v");
    let leaf = leaf(quote!(#v), leaves, span);
    quote_spanned!(span=> (#row).iter().map(|#v| #leaf).collect::<::ambsolve::__private::Vec<_>>())
}
