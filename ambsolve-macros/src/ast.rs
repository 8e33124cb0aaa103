//! The grammar of `constraints!`: one struct per node, each with its `Parse` impl.
//!
#![doc = include_str!("grammar.md")]

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Pat, Token, Type, braced, bracketed, parenthesized, token};

use crate::arrows;
use crate::tokens::split_commas;

mod kw {
    syn::custom_keyword!(require);
    syn::custom_keyword!(post);
    syn::custom_keyword!(amb);
    syn::custom_keyword!(minimize);
    syn::custom_keyword!(maximize);
}

/// The whole macro input.
pub(crate) struct Body {
    pub(crate) items: Vec<Item>,
}

/// One statement of the body.
pub(crate) enum Item {
    Choice(Choice),
    Require(Require),
    Post(Post),
    Objective(Objective),
    For(For),
    If(If),
    Let(Let),
}

/// `let NAME[dims] = amb(VALUES);`
pub(crate) struct Choice {
    pub(crate) name: Ident,
    pub(crate) dims: Vec<Dim>,
    /// The `amb` token, for errors about the values.
    pub(crate) amb: Ident,
    pub(crate) values: Expr,
}

/// `post EXPR;`: a propagator built from the choices' variables.
pub(crate) struct Post {
    pub(crate) keyword: Span,
    pub(crate) expr: Expr,
}

/// Whether an objective is minimised or maximised.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sense {
    Minimize,
    Maximize,
}

/// `minimize EXPR;` or `maximize EXPR;`
pub(crate) struct Objective {
    pub(crate) sense: Sense,
    pub(crate) keyword: Span,
    /// The expression, with each comprehension replaced by a placeholder identifier.
    pub(crate) expr: Expr,
    pub(crate) comprehensions: Vec<Comprehension>,
}

/// `[LEN]` or `[INDEX < LEN]`.
pub(crate) struct Dim {
    pub(crate) binder: Option<Ident>,
    pub(crate) len: Expr,
}

/// `require CONDITION;`
pub(crate) struct Require {
    /// The condition, with each comprehension replaced by a placeholder identifier.
    pub(crate) condition: Expr,
    pub(crate) comprehensions: Vec<Comprehension>,
}

/// `EXPR for PAT in EXPR ...`, inside `all_different(..)` or `sum(..)`.
pub(crate) struct Comprehension {
    /// The placeholder standing for it in the condition.
    pub(crate) placeholder: Ident,
    pub(crate) element: Expr,
    pub(crate) loops: Vec<(Pat, Expr)>,
}

/// `for PAT in EXPR { items }`
pub(crate) struct For {
    pub(crate) for_token: Token![for],
    pub(crate) pat: Pat,
    pub(crate) iter: Expr,
    pub(crate) body: Vec<Item>,
}

/// `if COND { items } else { items }`
pub(crate) struct If {
    pub(crate) if_token: Token![if],
    pub(crate) cond: Expr,
    pub(crate) then: Vec<Item>,
    pub(crate) otherwise: Vec<Item>,
}

/// `let PAT = EXPR;` with a plain value.
pub(crate) struct Let {
    pub(crate) pat: Pat,
    pub(crate) ty: Option<Type>,
    pub(crate) expr: Expr,
}

impl Parse for Body {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        Ok(Body {
            items: parse_items(input)?,
        })
    }
}

fn parse_items(input: ParseStream<'_>) -> syn::Result<Vec<Item>> {
    let mut items = Vec::new();
    while !input.is_empty() {
        items.push(input.parse()?);
    }
    Ok(items)
}

fn parse_block(input: ParseStream<'_>) -> syn::Result<Vec<Item>> {
    let content;
    braced!(content in input);
    parse_items(&content)
}

impl Parse for Item {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let lookahead = input.lookahead1();
        if lookahead.peek(Token![let]) {
            parse_let(input)
        } else if lookahead.peek(kw::require) {
            input.parse().map(Item::Require)
        } else if lookahead.peek(kw::post) {
            let keyword: kw::post = input.parse()?;
            let expr: Expr = input.parse()?;
            let end = last_span(expr.to_token_stream()).unwrap_or(keyword.span);
            end_of_statement(input, end)?;
            Ok(Item::Post(Post {
                keyword: keyword.span,
                expr,
            }))
        } else if lookahead.peek(kw::minimize) || lookahead.peek(kw::maximize) {
            let (sense, keyword) = if input.peek(kw::minimize) {
                (Sense::Minimize, input.parse::<kw::minimize>()?.span)
            } else {
                (Sense::Maximize, input.parse::<kw::maximize>()?.span)
            };
            let word = match sense {
                Sense::Minimize => "minimize",
                Sense::Maximize => "maximize",
            };
            let (expr, comprehensions) = parse_to_semicolon(input, keyword, false, || {
                format!(
                    "{word} needs an expression of the choices: write `{word} sum(cost[i][x[i]] for i in 0..n);`"
                )
            })?;
            Ok(Item::Objective(Objective {
                sense,
                keyword,
                expr,
                comprehensions,
            }))
        } else if lookahead.peek(Token![for]) {
            input.parse().map(Item::For)
        } else if lookahead.peek(Token![if]) {
            input.parse().map(Item::If)
        } else {
            Err(lookahead.error())
        }
    }
}

/// `let` starts a choice (`= amb(..)`, or brackets after the name) or a plain binding.
fn parse_let(input: ParseStream<'_>) -> syn::Result<Item> {
    let let_token: Token![let] = input.parse()?;
    if input.peek(Ident) && input.peek2(token::Bracket) {
        let name: Ident = input.parse()?;
        let mut dims = Vec::new();
        while input.peek(token::Bracket) {
            let content;
            bracketed!(content in input);
            dims.push(content.parse()?);
        }
        input.parse::<Token![=]>()?;
        if !input.peek(kw::amb) {
            return Err(input.error(format!(
                "an array of choices takes its values from amb: write `let {name}[..] = amb(values);`"
            )));
        }
        let (amb, values, end) = parse_amb(input)?;
        end_of_statement(input, end)?;
        return Ok(Item::Choice(Choice {
            name,
            dims,
            amb,
            values,
        }));
    }
    let pat = Pat::parse_single(input)?;
    let ty = if input.peek(Token![:]) {
        input.parse::<Token![:]>()?;
        Some(input.parse()?)
    } else {
        None
    };
    input.parse::<Token![=]>()?;
    if input.peek(kw::amb) && input.peek2(token::Paren) {
        let (amb, values, end) = parse_amb(input)?;
        end_of_statement(input, end)?;
        let name = match (&pat, &ty) {
            (Pat::Ident(p), None)
                if p.by_ref.is_none() && p.mutability.is_none() && p.subpat.is_none() =>
            {
                p.ident.clone()
            }
            _ => {
                return Err(syn::Error::new_spanned(
                    let_token
                        .to_token_stream()
                        .into_iter()
                        .chain(pat.to_token_stream())
                        .collect::<TokenStream>(),
                    "a choice binds one plain name: write `let name = amb(values);`",
                ));
            }
        };
        return Ok(Item::Choice(Choice {
            name,
            dims: Vec::new(),
            amb,
            values,
        }));
    }
    let expr: Expr = input.parse()?;
    let end = last_span(expr.to_token_stream()).unwrap_or(let_token.span);
    end_of_statement(input, end)?;
    Ok(Item::Let(Let { pat, ty, expr }))
}

/// The `;` that ends a statement; missing, an error at the statement's last token `end`.
fn end_of_statement(input: ParseStream<'_>, end: Span) -> syn::Result<()> {
    if input.peek(Token![;]) {
        input.parse::<Token![;]>()?;
        Ok(())
    } else {
        Err(syn::Error::new(end, "expected `;` after this"))
    }
}

/// The span of the last token of `tokens`.
fn last_span(tokens: TokenStream) -> Option<Span> {
    tokens.into_iter().last().map(|t| match t {
        TokenTree::Group(g) => g.span_close(),
        other => other.span(),
    })
}

/// `amb(EXPR)`, and the span of its closing parenthesis.
fn parse_amb(input: ParseStream<'_>) -> syn::Result<(Ident, Expr, Span)> {
    let amb_kw: kw::amb = input.parse()?;
    let amb = Ident::new("amb", amb_kw.span);
    let content;
    let paren = parenthesized!(content in input);
    let end = paren.span.close();
    let args = Punctuated::<Expr, Token![,]>::parse_terminated(&content)?;
    if args.len() > 1 {
        return Err(syn::Error::new_spanned(
            &args,
            "amb takes one expression giving the values: write `amb([a, b, c])` instead of `amb(a, b, c)`",
        ));
    }
    match args.into_iter().next() {
        Some(values) => Ok((amb, values, end)),
        None => Err(syn::Error::new(
            amb.span(),
            "amb needs the values to choose from: write `amb(0..n)`, `amb([a, b, c])` or `amb(list)`",
        )),
    }
}

impl Parse for Dim {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(
                input.error("an array of choices needs its length: write `let q[n] = amb(..);`")
            );
        }
        if input.peek(Ident) && input.peek2(Token![<]) {
            let binder: Ident = input.parse()?;
            input.parse::<Token![<]>()?;
            return Ok(Dim {
                binder: Some(binder),
                len: input.parse()?,
            });
        }
        Ok(Dim {
            binder: None,
            len: input.parse()?,
        })
    }
}

impl Parse for Require {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let keyword: kw::require = input.parse()?;
        let (condition, comprehensions) = parse_to_semicolon(input, keyword.span, true, || {
            "require needs a condition: write `require x < y;`".to_string()
        })?;
        Ok(Require {
            condition,
            comprehensions,
        })
    }
}

/// The expression after a statement keyword, up to its `;`, with each comprehension
/// replaced by a placeholder (and, in a condition (`logic`), each `->` and `<->`
/// rewritten, see `arrows`); `empty` is the message when there is none.
fn parse_to_semicolon(
    input: ParseStream<'_>,
    keyword: Span,
    logic: bool,
    empty: impl FnOnce() -> String,
) -> syn::Result<(Expr, Vec<Comprehension>)> {
    // The expression runs to the `;` at this level. A statement keyword there (`require`,
    // or a `let` that no `if`, `while`, `&&` or `||` introduces) means the `;` is missing.
    let mut tokens = TokenStream::new();
    let mut previous: Option<TokenTree> = None;
    while !input.is_empty() && !input.peek(Token![;]) {
        let starts_statement = input.peek(kw::require)
            || input.peek(kw::post)
            || input.peek(kw::minimize)
            || input.peek(kw::maximize)
            || (input.peek(Token![let]) && !previous.as_ref().is_some_and(introduces_let));
        if starts_statement {
            if let Some(end) = last_span(tokens.clone()) {
                return Err(syn::Error::new(end, "expected `;` after this"));
            }
        }
        let token: TokenTree = input.parse()?;
        previous = Some(token.clone());
        tokens.extend(std::iter::once(token));
    }
    if tokens.is_empty() {
        return Err(syn::Error::new(keyword, empty()));
    }
    if input.is_empty() {
        let end = last_span(tokens.clone()).unwrap_or(keyword);
        return Err(syn::Error::new(end, "expected `;` after this"));
    }
    input.parse::<Token![;]>()?;
    let mut comprehensions = Vec::new();
    let mut replaced = replace_comprehensions(tokens, &mut comprehensions, logic)?;
    if logic {
        replaced = arrows::rewrite(replaced)?;
    }
    let expr = syn::parse2::<Expr>(replaced)?;
    Ok((expr, comprehensions))
}

/// Whether `token` may stand before a `let` inside a condition (`if let`, `&& let`).
fn introduces_let(token: &TokenTree) -> bool {
    match token {
        TokenTree::Ident(ident) => ident == "if" || ident == "while",
        TokenTree::Punct(punct) => matches!(punct.as_char(), '&' | '|'),
        _ => false,
    }
}

/// The integer functions whose one argument may be a comprehension.
const FOLDS: [&str; 5] = ["sum", "count", "min", "max", "nvalue"];

/// How a call's arguments may hold comprehensions: `None` for none; else whether each of
/// several arguments may be one (all_different and the globals written as calls: a list
/// of choices), or the one argument is (the integer functions of [`FOLDS`]).
fn comprehending(name: &Ident) -> Option<bool> {
    if name == "all_different" || crate::signatures::names().any(|g| name == g) {
        Some(true)
    } else {
        FOLDS.iter().any(|f| name == f).then_some(false)
    }
}

/// Replaces `f(EXPR for PAT in EXPR ..)` (for `f` that [`comprehending`] names) by
/// `f(placeholder)`, at any depth, collecting the comprehensions.
fn replace_comprehensions(
    tokens: TokenStream,
    found: &mut Vec<Comprehension>,
    logic: bool,
) -> syn::Result<TokenStream> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < trees.len() {
        let tree = &trees[i];
        if let (TokenTree::Ident(name), Some(TokenTree::Group(group))) = (tree, trees.get(i + 1)) {
            let comprehending = comprehending(name);
            if comprehending.is_some()
                && group.delimiter() == Delimiter::Parenthesis
                && has_top_level_for(group.stream())
            {
                // all_different and the globals take several arguments, each an
                // expression or a comprehension; the integer functions one comprehension.
                let pieces = if comprehending == Some(true) {
                    split_top_level_commas(group.stream())
                } else {
                    vec![group.stream()]
                };
                let mut args = TokenStream::new();
                for (k, piece) in pieces.into_iter().enumerate() {
                    if k > 0 {
                        args.extend([TokenTree::Punct(proc_macro2::Punct::new(
                            ',',
                            proc_macro2::Spacing::Alone,
                        ))]);
                    }
                    if has_top_level_for(piece.clone()) {
                        let placeholder = Ident::new(
                            &format!("__ambsolve_comprehension_{}", found.len()),
                            name.span(),
                        );
                        let comprehension =
                            parse_comprehension(piece, placeholder.clone(), group.span(), logic)?;
                        found.push(comprehension);
                        args.extend(placeholder.into_token_stream());
                    } else {
                        args.extend(piece);
                    }
                }
                out.extend([tree.clone()]);
                let mut arg = Group::new(Delimiter::Parenthesis, args);
                arg.set_span(group.span());
                out.extend([TokenTree::Group(arg)]);
                i += 2;
                continue;
            }
        }
        match tree {
            TokenTree::Group(group) => {
                let inner = replace_comprehensions(group.stream(), found, logic)?;
                let mut replaced = Group::new(group.delimiter(), inner);
                replaced.set_span(group.span());
                out.extend([TokenTree::Group(replaced)]);
            }
            other => out.extend([other.clone()]),
        }
        i += 1;
    }
    Ok(out)
}

/// The comma-separated pieces of `tokens` (commas inside groups stay inside), a
/// trailing comma dropped. A comprehension's range has no top-level comma, so each piece
/// is one argument.
fn split_top_level_commas(tokens: TokenStream) -> Vec<TokenStream> {
    let mut pieces = split_commas(tokens);
    if pieces.last().is_some_and(TokenStream::is_empty) && pieces.len() > 1 {
        pieces.pop(); // a trailing comma
    }
    pieces
}

fn has_top_level_for(tokens: TokenStream) -> bool {
    tokens
        .into_iter()
        .any(|t| matches!(&t, TokenTree::Ident(i) if i == "for"))
}

/// `EXPR (for PAT in EXPR)+`
fn parse_comprehension(
    tokens: TokenStream,
    placeholder: Ident,
    span: Span,
    logic: bool,
) -> syn::Result<Comprehension> {
    let parser = |input: ParseStream<'_>| {
        let mut element_tokens = TokenStream::new();
        while !input.is_empty() && !input.peek(Token![for]) {
            element_tokens.extend([input.parse::<TokenTree>()?]);
        }
        if element_tokens.is_empty() {
            return Err(syn::Error::new(
                span,
                "a comprehension starts with the element: write `q[i] + i for i in 0..n`",
            ));
        }
        if logic {
            element_tokens = arrows::rewrite(element_tokens)?;
        }
        let element = syn::parse2::<Expr>(element_tokens)?;
        let mut loops = Vec::new();
        while !input.is_empty() {
            input.parse::<Token![for]>()?;
            let pat = Pat::parse_single(input)?;
            input.parse::<Token![in]>()?;
            let mut range = TokenStream::new();
            while !input.is_empty() && !input.peek(Token![for]) {
                range.extend([input.parse::<TokenTree>()?]);
            }
            if range.is_empty() {
                return Err(
                    input.error("a comprehension loop needs a range: write `for i in 0..n`")
                );
            }
            loops.push((pat, syn::parse2::<Expr>(range)?));
        }
        Ok(Comprehension {
            placeholder: placeholder.clone(),
            element,
            loops,
        })
    };
    parser.parse2(tokens)
}

impl Parse for For {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let for_token: Token![for] = input.parse()?;
        let pat = Pat::parse_single(input)?;
        input.parse::<Token![in]>()?;
        let iter = Expr::parse_without_eager_brace(input)?;
        let body = parse_block(input)?;
        Ok(For {
            for_token,
            pat,
            iter,
            body,
        })
    }
}

impl Parse for If {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let if_token: Token![if] = input.parse()?;
        let cond = Expr::parse_without_eager_brace(input)?;
        let then = parse_block(input)?;
        let otherwise = if input.peek(Token![else]) {
            input.parse::<Token![else]>()?;
            if input.peek(Token![if]) {
                vec![Item::If(input.parse()?)]
            } else {
                parse_block(input)?
            }
        } else {
            Vec::new()
        };
        Ok(If {
            if_token,
            cond,
            then,
            otherwise,
        })
    }
}
