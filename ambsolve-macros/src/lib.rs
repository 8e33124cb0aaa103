//! The `constraints!` macro of ambsolve: `ast` parses, `validate` plans, `expand` writes.

mod analyze;
mod arrows;
mod ast;
mod checks;
mod expand;
mod formula;
mod globals;
mod linear;
mod objective;
mod plan;
mod signatures;
#[cfg(test)]
mod tests;
mod tokens;
mod validate;

use proc_macro::TokenStream;

// The ambsolve crate re-exports this macro with its documentation in front of this one.
#[doc = include_str!("grammar.md")]
#[proc_macro]
pub fn constraints(input: TokenStream) -> TokenStream {
    let body = syn::parse_macro_input!(input as ast::Body);
    let expansion = match validate::validate(&body) {
        Ok(plan) => expand::expand(&plan),
        Err(errors) => expand::compile_errors(errors),
    };
    expansion.into()
}
