//! The crate's integration tests, one module per file of this folder, linked as one binary
//! (forty-odd test binaries took most of a cold `cargo test --workspace` to link).

#![allow(clippy::duplicate_mod)]

#[path = "../differential_examples.rs"]
mod differential_examples;
#[path = "../examples.rs"]
mod examples;
#[path = "../fft.rs"]
mod fft;
#[path = "../fft_real_2d.rs"]
mod fft_real_2d;
#[path = "../listings.rs"]
mod listings;
#[path = "../mandelbrot.rs"]
mod mandelbrot;
#[path = "../sgemm.rs"]
mod sgemm;
#[path = "../sha256.rs"]
mod sha256;
#[path = "../v3d.rs"]
mod v3d;
#[path = "../v3d_examples.rs"]
mod v3d_examples;
