//! Misuse of `constraints!` is a compile error that points at the user's token and says
//! what to write instead (trybuild; the expected messages are in `tests/ui/*.stderr`);
//! correct use compiles without a warning (`tests/ui/pass/*.rs` deny warnings).

#[test]
fn macro_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}

/// The expansion of every construct of the grammar makes rustc warn about nothing in the
/// user's code (each file denies warnings).
#[test]
fn generated_code_does_not_warn() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
}
