//! Misuse of `constraints!` is a compile error that points at the user's token and says
//! what to write instead (trybuild; the expected messages are in `tests/ui/*.stderr`);
//! correct use compiles without a warning (`tests/ui/pass/*.rs` deny warnings: the
//! expansion of every construct of the grammar makes rustc warn about nothing in the
//! user's code). One set of cases, so that trybuild builds the crate once for both.

#[test]
fn macro_errors_and_warning_free_expansions() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
