//! Kernels people came to the Raspberry Pi's QPUs for, written in qpu's kernel language (no
//! assembly), each with a Rust API:
//!
//! - [`sha256`]: SHA-256 of many messages at once, one message per lane;
//! - [`mandelbrot`]: escape-time counts of the Mandelbrot set, one pixel per lane;
//! - [`sgemm`]: C ← α·op(A)·op(B) + β·C for row-major f32 matrices of any size;
//! - [`fft`]: complex FFTs of 2^8 … 2^16 points, forward and inverse, many per launch.
//!
//! Beside them, [`qpulib`] holds QPULib's example programs (GCD, Tri, MultiTri, ID, OET,
//! Rot3D, HeatMap) with their inputs and scalar references, and `bench` (with the `bench`
//! feature) the rows `qpu bench` prints for both.
//!
//! This is the "Use the library" example of docs/library.md:
//!
//! ```
//! use qpu::Device;
//! use qpu_kernels::sgemm::{Sgemm, Transpose};
//! use qpu_kernels::sha256::Sha256;
//!
//! let device = Device::auto()?;
//! // SHA-256 of many messages: one per lane, 16 per QPU, any lengths.
//! let digests: Vec<[u8; 32]> = Sha256::with_qpus(12)?.digest_all(&device, &["abc", "hello"])?;
//! assert_eq!(digests[0][0], 0xba);
//! // C ← α·op(A)·op(B) + β·C, row-major (BLAS's sgemm arguments).
//! let (a, b, mut c) = (vec![1.0f32; 64 * 32], vec![2.0f32; 32 * 48], vec![0.0f32; 64 * 48]);
//! Sgemm::with_qpus(12)?.run(&device, Transpose::No, Transpose::No, 64, 48, 32,
//!                     1.0, &a, 32, &b, 48, 0.0, &mut c, 48)?;
//! assert!(c.iter().all(|&x| x == 64.0));
//! // FFTs planned like rustfft's, on num_complex::Complex32 buffers.
//! let fft = qpu_kernels::fft::FftPlanner::with_qpus(12)?.plan_fft_forward(1024)?;
//! let mut data = vec![num_complex::Complex32::new(1.0, 0.0); 10 * 1024];
//! fft.process(&device, &mut data)?;
//! assert!((data[0].re - 1024.0).abs() < 1e-2 && data[1].norm() < 1e-2);
//! # Ok::<(), qpu::Error>(())
//! ```
//!
//! Every kernel runs on any [`qpu::Device`]: the reference interpreter, the strict emulator or
//! a Pi. The modelled figures in `qpu bench` come from the emulator.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "bench")]
pub mod bench;
pub mod fft;
pub mod mandelbrot;
pub mod qpulib;
pub mod sgemm;
pub mod sha256;

pub use qpu::{Error, Result};
