//! Kernels people came to the Raspberry Pi's QPUs for, written in qpu's kernel language (no
//! assembly), each with a Rust API:
//!
//! - [`sha256`]: SHA-256 of many messages at once, one message per lane;
//! - [`mandelbrot`]: escape-time counts of the Mandelbrot set, one pixel per lane;
//! - [`sgemm`]: C ← α·op(A)·op(B) + β·C for row-major f32 matrices of any size.
//!
//! Every kernel runs on any [`qpu::Device`]: the reference interpreter, the strict emulator or
//! a Pi. The modelled figures in `qpu bench` come from the emulator.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "bench")]
pub mod bench;
pub mod mandelbrot;
pub mod sgemm;
pub mod sha256;

pub use qpu::{Error, Result};
