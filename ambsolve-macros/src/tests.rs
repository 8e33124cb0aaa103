//! Snapshots of the expansion of typical bodies.

use proc_macro2::TokenStream;
use quote::quote;

/// The expansion of a body, pretty-printed inside a function so that it parses.
fn expand(input: TokenStream) -> String {
    let body: crate::ast::Body = syn::parse2(input).expect("the input parses");
    let plan = crate::validate::validate(&body).expect("the input is valid");
    let expansion = crate::expand::expand(&plan);
    let file: syn::File = syn::parse2(quote!(fn expansion() { let puzzle = #expansion; }))
        .expect("the expansion parses");
    prettyplease::unparse(&file)
}

#[test]
fn word_chain_predicates() {
    insta::assert_snapshot!(expand(quote! {
        let w1 = amb(["the", "that", "a"]);
        let w2 = amb(["frog", "elephant", "thing"]);
        require linked(w1, w2);
    }));
}

#[test]
fn queens_all_different_comprehensions() {
    insta::assert_snapshot!(expand(quote! {
        let q[n] = amb(0..n);
        require all_different(q);
        require all_different(q[i] + i for i in 0..n);
    }));
}

#[test]
fn linear_sums_and_restrictions() {
    insta::assert_snapshot!(expand(quote! {
        let s = amb(0..=9);
        let e = amb(0..=9);
        require s != 0;
        require 10 * s + e == sum(w[i] * e for i in 0..2);
    }));
}

#[test]
fn grids_loops_ifs_and_element_predicates() {
    insta::assert_snapshot!(expand(quote! {
        let g[3][3] = amb(1..=3u8);
        let words[i < 2] = amb(lists[i].clone());
        for r in 0..3 {
            if givens[r] != 0 {
                require g[r][0] == givens[r];
            }
            require g[r][1] < g[r][2] || words[0].len() > r;
        }
    }));
}
