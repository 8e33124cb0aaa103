//! Misuse of `constraints!` is a compile error that points at the user's token and says
//! what to write instead (trybuild; the expected messages are in `tests/ui/*.stderr`).

#[test]
fn macro_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
