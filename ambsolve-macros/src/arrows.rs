//! `->` and `<->` in conditions: not Rust's syntax, so they are rewritten, before the
//! condition is parsed as a Rust expression, into calls of the markers [`IMPLIES`] and
//! [`IFF`], which the rest of the macro reads as logic. Both bind less tightly than
//! `||`; `<->` least (`a -> b <-> c` is `(a -> b) <-> c`), and `->` to the right
//! (`a -> b -> c` is `a -> (b -> c)`).

use proc_macro2::{Delimiter, Group, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};

use crate::tokens::split_commas;

/// The marker `a -> b` becomes.
pub(crate) const IMPLIES: &str = "__ambsolve_implies";
/// The marker `a <-> b` becomes.
pub(crate) const IFF: &str = "__ambsolve_iff";

#[derive(Clone, Copy, PartialEq)]
enum Arrow {
    Implies,
    Iff,
}

/// `tokens` with every `a -> b` and `a <-> b` at its top level and inside parentheses
/// rewritten as marker calls.
pub(crate) fn rewrite(tokens: TokenStream) -> syn::Result<TokenStream> {
    let mut trees = Vec::new();
    for tree in tokens {
        trees.push(match tree {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
                let mut inner = TokenStream::new();
                for (k, piece) in split_commas(g.stream()).into_iter().enumerate() {
                    if k > 0 {
                        inner.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
                    }
                    inner.extend(rewrite(piece)?);
                }
                let mut group = Group::new(Delimiter::Parenthesis, inner);
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            other => other,
        });
    }
    let iffs = split(&trees, Arrow::Iff);
    let mut parts = iffs.into_iter();
    let (first, _) = parts
        .next()
        .unwrap_or_else(|| (Vec::new(), Span::call_site()));
    let mut out = implications(first)?;
    for (part, arrow) in parts {
        let right = implications(part)?;
        out = marker(IFF, arrow, out, right, "<->")?;
    }
    Ok(out)
}

/// `a -> b -> c` as `a -> (b -> c)`.
fn implications(trees: Vec<TokenTree>) -> syn::Result<TokenStream> {
    let parts = split(&trees, Arrow::Implies);
    let mut parts = parts.into_iter().rev();
    let (last, mut arrow) = parts
        .next()
        .unwrap_or_else(|| (Vec::new(), Span::call_site()));
    let mut out: TokenStream = last.into_iter().collect();
    for (part, before) in parts {
        out = marker(IMPLIES, arrow, part.into_iter().collect(), out, "->")?;
        arrow = before;
    }
    Ok(out)
}

/// `name(left, right)`, the name spanned at the arrow; an empty side is an error there.
fn marker(
    name: &str,
    arrow: Span,
    left: TokenStream,
    right: TokenStream,
    written: &str,
) -> syn::Result<TokenStream> {
    if left.is_empty() || right.is_empty() {
        return Err(syn::Error::new(
            arrow,
            format!("`{written}` needs a condition on each side: write `require a {written} b;`"),
        ));
    }
    // The parentheses are the macro's own (no lint on them is the user's to answer).
    let name = proc_macro2::Ident::new(name, arrow);
    let paren = |inner: TokenStream| Group::new(Delimiter::Parenthesis, inner);
    let (left, right) = (paren(left), paren(right));
    let args = paren(quote!(#left, #right));
    Ok(quote_spanned!(arrow=> #name #args))
}

/// The positions of the arrows of one kind in `trees` (the index of their first token)
/// and their spans. `->` right after a closure's `|..|` or `fn(..)` is a return type.
fn arrows(trees: &[TokenTree], kind: Arrow) -> Vec<(usize, Span)> {
    let punct =
        |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
    let joint = |k: usize| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.spacing() == Spacing::Joint);
    let mut found = Vec::new();
    let mut k = 0;
    while k < trees.len() {
        let iff =
            punct(k, '<') && joint(k) && punct(k + 1, '-') && joint(k + 1) && punct(k + 2, '>');
        let implies = !iff && punct(k, '-') && joint(k) && punct(k + 1, '>');
        if iff {
            if kind == Arrow::Iff {
                found.push((k, trees[k].span()));
            }
            k += 3;
            continue;
        }
        if implies {
            let return_type = k > 0
                && (punct(k - 1, '|')
                    || (matches!(trees.get(k - 1), Some(TokenTree::Group(_)))
                        && matches!(trees.get(k.wrapping_sub(2)), Some(TokenTree::Ident(i)) if i == "fn")));
            if kind == Arrow::Implies && !return_type {
                found.push((k, trees[k].span()));
            }
            k += 2;
            continue;
        }
        k += 1;
    }
    found
}

/// `trees` cut at the arrows of one kind: each piece, and the span of the arrow before
/// it (call site for the first).
fn split(trees: &[TokenTree], kind: Arrow) -> Vec<(Vec<TokenTree>, Span)> {
    let width = if kind == Arrow::Iff { 3 } else { 2 };
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut before = Span::call_site();
    for (at, span) in arrows(trees, kind) {
        pieces.push((trees[start..at].to_vec(), before));
        start = at + width;
        before = span;
    }
    pieces.push((trees[start..].to_vec(), before));
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> String {
        let tokens: TokenStream = text.parse().expect("tokens");
        rewrite(tokens).expect("rewritten").to_string()
    }

    #[test]
    fn arrows_bind_less_than_or_and_implication_nests_to_the_right() {
        assert_eq!(show("a || b -> c"), "__ambsolve_implies ((a || b) , (c))");
        assert_eq!(
            show("a -> b -> c"),
            "__ambsolve_implies ((a) , (__ambsolve_implies ((b) , (c))))"
        );
        assert_eq!(
            show("a -> b <-> c"),
            "__ambsolve_iff ((__ambsolve_implies ((a) , (b))) , (c))"
        );
        assert_eq!(
            show("(x < 3) -> (y > 2)"),
            "__ambsolve_implies (((x < 3)) , ((y > 2)))"
        );
    }

    #[test]
    fn arrows_inside_parentheses_and_closures_are_told_apart() {
        assert_eq!(
            show("f((a -> b), c)"),
            "f ((__ambsolve_implies ((a) , (b))) , c)"
        );
        assert_eq!(
            show("q.iter().any(|v| -> bool { v > 3 })")
                .matches("implies")
                .count(),
            0
        );
        assert_eq!(show("x < -y"), "x < - y");
    }

    #[test]
    fn a_missing_side_is_an_error() {
        let tokens: TokenStream = "a ->".parse().expect("tokens");
        assert!(rewrite(tokens).is_err());
    }
}
