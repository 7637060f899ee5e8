//! The crate's integration tests, one module per file of this folder, linked as one binary
//! (forty-odd test binaries took most of a cold `cargo test --workspace` to link).

#![allow(clippy::duplicate_mod)]

#[path = "../alu.rs"]
mod alu;
#[path = "../fidelity.rs"]
mod fidelity;
#[path = "../hazards.rs"]
mod hazards;
#[path = "../pinned.rs"]
mod pinned;
#[path = "../programs.rs"]
mod programs;
#[path = "../setup_words.rs"]
mod setup_words;
#[path = "../timing.rs"]
mod timing;
#[path = "../v3d.rs"]
mod v3d;
#[path = "../v3d_calibration.rs"]
mod v3d_calibration;
