//! The `constraints!` macro of ambsolve. Use it through the `ambsolve` crate.

use proc_macro::TokenStream;

/// Declares a puzzle. Not implemented yet: it accepts nothing but an empty body.
#[proc_macro]
pub fn constraints(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    if input.is_empty() {
        quote::quote!(()).into()
    } else {
        syn::Error::new_spanned(input, "constraints! is not implemented yet")
            .into_compile_error()
            .into()
    }
}
