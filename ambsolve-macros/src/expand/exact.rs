//! Conditions written with exact integer arithmetic: how a predicate or a restriction
//! gets the same meaning as the linear constraint a condition may otherwise become.
//!
//! In a comparison that computes (one of its sides has `+ - * / %`, a negation or an
//! integer literal), every operand is *probed*: a value of a primitive integer type
//! becomes an exact integer (`__private::Exact`, an `i128` that reports overflow and
//! division by zero instead of wrapping or panicking), any other value is left as it is
//! (so floats, strings and your own types keep their Rust meaning). An integer literal
//! without a suffix is an exact integer directly. Arithmetic inside function arguments,
//! indices, `as` casts and closures keeps Rust's meaning.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, UnOp};

use crate::arrows::{IFF, IMPLIES};

/// Methods of integers that exact integers have too.
const EXACT_METHODS: [&str; 7] = [
    "abs",
    "pow",
    "min",
    "max",
    "signum",
    "rem_euclid",
    "div_euclid",
];

/// The traits probes need, for the start of a condition's code.
pub(super) fn imports() -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use ::ambsolve::__private::{ProbeInteger as _, ProbeOther as _};
    }
}

/// A boolean condition, its computing comparisons made exact.
pub(super) fn condition(expr: &Expr) -> TokenStream {
    if let Some((name, a, b)) = arrow(expr) {
        let (a, b) = (condition(a), condition(b));
        return if name == IMPLIES {
            quote_spanned!(expr.span()=> (!::ambsolve::__private::dsl::truth(#a) || (#b)))
        } else {
            quote_spanned!(expr.span()=> (::ambsolve::__private::dsl::truth(#a) == ::ambsolve::__private::dsl::truth(#b)))
        };
    }
    match expr {
        // Booleans compared, or combined bit by bit: each side is a condition.
        Expr::Binary(b)
            if matches!(
                b.op,
                BinOp::Eq(_) | BinOp::Ne(_) | BinOp::BitXor(_) | BinOp::BitAnd(_) | BinOp::BitOr(_)
            ) && (boolean(&b.left) || boolean(&b.right)) =>
        {
            let (left, right, op) = (condition(&b.left), condition(&b.right), &b.op);
            quote!(#left #op #right)
        }
        // Every comparison is probed: integers of any types compare exactly, other values
        // as Rust compares them.
        Expr::Binary(b) if is_comparison(&b.op) => {
            let (left, right, op) = if computes(&b.left) || computes(&b.right) {
                (operand(&b.left), operand(&b.right), &b.op)
            } else {
                (side(&b.left), side(&b.right), &b.op)
            };
            quote!(#left #op #right)
        }
        Expr::Binary(b) if matches!(b.op, BinOp::And(_) | BinOp::Or(_)) => {
            let (left, right, op) = (condition(&b.left), condition(&b.right), &b.op);
            quote!(#left #op #right)
        }
        Expr::Unary(u) if matches!(u.op, UnOp::Not(_)) => {
            // The macro's own `!`: `!(a >= b)` over exact integers is what the user wrote
            // over plain ones, and lints on partial orders are not theirs to answer.
            let inner = condition(&u.expr);
            quote!(!#inner)
        }
        Expr::Paren(p) => {
            let inner = condition(&p.expr);
            quote_spanned!(p.span()=> (#inner))
        }
        Expr::If(i) => branches(i, condition),
        _ => quote!(#expr),
    }
}

/// A side of a comparison that does not compute: the value where it stands, probed by
/// reference (an integer becomes exact, anything else is compared as Rust compares it,
/// without being moved).
fn side(expr: &Expr) -> TokenStream {
    match expr {
        Expr::Paren(p) => {
            let inner = side(&p.expr);
            quote_spanned!(p.span()=> (#inner))
        }
        _ if !matches!(expr, Expr::If(_)) => {
            // No block around it: what it borrows lives as long as the comparison (the
            // condition's code starts with `imports()`).
            quote!((&&::ambsolve::__private::ProbeRef(&#expr)).exact())
        }
        _ => operand(expr),
    }
}

/// Whether `expr` computes at its top: arithmetic, a negation, an integer literal, an
/// exact method or function.
fn computes(expr: &Expr) -> bool {
    match expr {
        Expr::Binary(b) => is_arithmetic(&b.op),
        Expr::Unary(u) => matches!(u.op, UnOp::Neg(_)),
        Expr::Paren(p) => computes(&p.expr),
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(literal),
            ..
        }) => literal.suffix().is_empty(),
        Expr::MethodCall(call) => EXACT_METHODS.iter().any(|m| call.method == m),
        Expr::Call(call) => function(call).is_some(),
        _ => false,
    }
}

/// An operand of a computing comparison, or of arithmetic inside one.
fn operand(expr: &Expr) -> TokenStream {
    match expr {
        Expr::Binary(b) if is_arithmetic(&b.op) => {
            let (left, right, op) = (operand(&b.left), operand(&b.right), &b.op);
            quote!(#left #op #right)
        }
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
            let (inner, op) = (operand(&u.expr), &u.op);
            quote!(#op #inner)
        }
        Expr::Paren(p) => {
            let inner = operand(&p.expr);
            quote_spanned!(p.span()=> (#inner))
        }
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(literal),
            ..
        }) if literal.suffix().is_empty() => {
            let wide =
                syn::LitInt::new(&format!("{}i128", literal.base10_digits()), literal.span());
            quote_spanned!(literal.span()=> ::ambsolve::__private::Exact::of(#wide))
        }
        Expr::If(i) => branches(i, operand),
        Expr::Call(call) if function(call).is_some() => {
            let args: Vec<TokenStream> = call.args.iter().map(operand).collect();
            let span = call.span();
            match (function(call), args.as_slice()) {
                (Some("abs"), [a]) => quote_spanned!(span=> (#a).abs()),
                (Some("pow"), [a, b]) => {
                    quote_spanned!(span=> ::ambsolve::__private::Exact::power(#a, #b))
                }
                (Some(f), [first, rest @ ..]) => {
                    let f = syn::Ident::new(f, call.func.span());
                    quote_spanned!(span=> (#first)#(.#f(#rest))*)
                }
                _ => unreachable!("function() checks the arguments"),
            }
        }
        Expr::MethodCall(call) if EXACT_METHODS.iter().any(|m| call.method == m) => {
            let receiver = operand(&call.receiver);
            let method = &call.method;
            let args: Vec<TokenStream> = call.args.iter().map(operand).collect();
            match args.as_slice() {
                // An exact power takes an exact exponent (negative: undefined).
                [exponent] if call.method == "pow" => {
                    quote_spanned!(call.span()=> ::ambsolve::__private::Exact::power(#receiver, #exponent))
                }
                _ => quote_spanned!(call.span()=> #receiver.#method(#(#args),*)),
            }
        }
        Expr::Binary(b) if is_comparison(&b.op) || matches!(b.op, BinOp::And(_) | BinOp::Or(_)) => {
            probe(&condition(expr))
        }
        _ => probe(&quote!(#expr)),
    }
}

/// `if c { a } else { b }` with `each` applied to the tail of every branch and the
/// conditions made exact.
fn branches(i: &syn::ExprIf, each: fn(&Expr) -> TokenStream) -> TokenStream {
    let cond = condition(&i.cond);
    let then = block(&i.then_branch, each);
    let otherwise = match &i.else_branch {
        Some((_, else_expr)) => match &**else_expr {
            Expr::Block(b) => {
                let body = block(&b.block, each);
                quote!(else #body)
            }
            Expr::If(nested) => {
                let nested = branches(nested, each);
                quote!(else #nested)
            }
            other => {
                let other = each(other);
                quote!(else { #other })
            }
        },
        None => TokenStream::new(),
    };
    quote_spanned!(i.span()=> if #cond #then #otherwise)
}

/// A block with `each` applied to its tail expression.
fn block(block: &syn::Block, each: fn(&Expr) -> TokenStream) -> TokenStream {
    let count = block.stmts.len();
    let stmts = block.stmts.iter().enumerate().map(|(k, stmt)| match stmt {
        syn::Stmt::Expr(tail, None) if k + 1 == count => each(tail),
        other => quote!(#other),
    });
    quote!({ #(#stmts)* })
}

/// A value that becomes an exact integer if it is one, else stays as it is (autoref
/// specialization on its type, resolved where the user's code is concrete). The probe's
/// own tokens belong to the macro (lints leave them alone); the value keeps its spans.
fn probe(value: &TokenStream) -> TokenStream {
    quote! {({
        #[allow(unused_imports)]
        use ::ambsolve::__private::{ProbeInteger as _, ProbeOther as _};
        (&&::ambsolve::__private::Probe::new(#value)).exact()
    })}
}

fn is_comparison(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq(_) | BinOp::Ne(_) | BinOp::Lt(_) | BinOp::Le(_) | BinOp::Gt(_) | BinOp::Ge(_)
    )
}

fn is_arithmetic(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_)
    )
}

/// `abs(x)`, `pow(x, k)`, `min(a, b, ..)`, `max(a, b, ..)`: the functions of exact
/// integers a condition may call (the macro's own, whatever else the scope holds).
fn function(call: &syn::ExprCall) -> Option<&'static str> {
    let Expr::Path(path) = &*call.func else {
        return None;
    };
    let name = path.path.get_ident()?.to_string();
    let n = call.args.len();
    match name.as_str() {
        "abs" if n == 1 => Some("abs"),
        "pow" if n == 2 => Some("pow"),
        "min" if n >= 2 => Some("min"),
        "max" if n >= 2 => Some("max"),
        _ => None,
    }
}

/// `a -> b` or `a <-> b` (their markers): the marker's name and both sides.
fn arrow(expr: &Expr) -> Option<(&'static str, &Expr, &Expr)> {
    let Expr::Call(call) = expr else {
        return None;
    };
    let Expr::Path(path) = &*call.func else {
        return None;
    };
    let name = [IMPLIES, IFF].into_iter().find(|m| path.path.is_ident(m))?;
    // The parentheses around each side (the marker's, and any of the user's) are left
    // out: an error on a side then points at the user's tokens, and the translation's
    // own parentheses leave none unneeded.
    fn strip(e: &Expr) -> &Expr {
        match e {
            Expr::Paren(p) => strip(&p.expr),
            other => other,
        }
    }
    match call.args.iter().collect::<Vec<_>>().as_slice() {
        [a, b] => Some((name, strip(a), strip(b))),
        _ => None,
    }
}

/// Whether `expr` is a boolean by its shape: a comparison, `&&`, `||`, `!`, an arrow, a
/// `bool` literal.
fn boolean(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => boolean(&p.expr),
        Expr::Binary(b) => is_comparison(&b.op) || matches!(b.op, BinOp::And(_) | BinOp::Or(_)),
        Expr::Unary(u) => matches!(u.op, UnOp::Not(_)) && boolean(&u.expr),
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(_),
            ..
        }) => true,
        _ => arrow(expr).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(condition_text: &str) -> String {
        let expr: Expr = syn::parse_str(condition_text).expect("an expression");
        condition(&expr).to_string()
    }

    #[test]
    fn calls_keep_their_rust_meaning_and_comparisons_are_probed() {
        assert_eq!(show("linked (a , b)"), "linked (a , b)");
        assert_eq!(show("w1 == w2").matches("ProbeRef").count(), 2);
    }

    #[test]
    fn computing_comparisons_are_probed() {
        let shown = show("x - y < 2 || x == 100");
        assert!(shown.contains("Exact :: of (2i128)"), "{shown}");
        assert!(shown.contains("Exact :: of (100i128)"), "{shown}");
        assert_eq!(shown.matches("Probe :: new").count(), 3, "{shown}");
    }

    #[test]
    fn function_arguments_and_casts_are_left_alone() {
        let shown = show("f (x + 1) && (x as i64) < 3");
        assert!(shown.starts_with("f (x + 1)"), "{shown}");
        assert!(shown.contains("Probe :: new (x as i64)"), "{shown}");
    }
}
