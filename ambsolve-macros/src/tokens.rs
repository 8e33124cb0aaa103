//! Token streams cut at their top-level commas, before they are parsed: what the grammar
//! (`ast.rs`) and the rewriting of arrows (`arrows.rs`) share.

use proc_macro2::{TokenStream, TokenTree};

/// The comma-separated pieces of `tokens` (commas inside groups stay inside); after a
/// trailing comma, an empty last piece.
pub(crate) fn split_commas(tokens: TokenStream) -> Vec<TokenStream> {
    let mut pieces = vec![TokenStream::new()];
    for token in tokens {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => pieces.push(TokenStream::new()),
            _ => pieces
                .last_mut()
                .expect("one piece at least")
                .extend([token]),
        }
    }
    pieces
}
