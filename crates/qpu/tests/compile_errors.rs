//! Mistakes the Rust compiler catches in kernel code, with our messages: each file in
//! `tests/ui` must fail to compile with the error in its `.stderr` file beside it.

#[test]
fn kernel_type_mistakes_are_compile_errors_with_clear_messages() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
