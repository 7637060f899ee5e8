//! The crate's integration tests, one module per file of this folder, linked as one binary
//! (forty-odd test binaries took most of a cold `cargo test --workspace` to link).

#![allow(clippy::duplicate_mod)]

#[path = "../asm_errors.rs"]
mod asm_errors;
#[path = "../golden.rs"]
mod golden;
#[path = "../roundtrip.rs"]
mod roundtrip;
#[path = "../v3d_golden.rs"]
mod v3d_golden;
#[path = "../v3d_mesa_words.rs"]
mod v3d_mesa_words;
#[path = "../v3d_roundtrip.rs"]
mod v3d_roundtrip;
