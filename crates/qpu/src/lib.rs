//! `qpu`: write kernels for the Raspberry Pi's VideoCore IV QPUs in Rust, and run them.
//!
//! This crate's one job is what users touch: the kernel language ([`lang`]), its meaning
//! ([`interp`], the reference interpreter), and the API to compile kernels, share memory
//! and run them on a device ([`runtime`]).
//!
//! What a user needs fits in one sitting: the language ([`lang`]); [`compile`], which
//! records a kernel function into a [`Kernel`]; a [`Device`] (the Pi, an emulator or the
//! interpreter) with its [`SharedArray`]s; [`Kernel::run`]; and, to look at the machine
//! code, [`Kernel::compile_for`], which gives a [`compiler::Program`] for any GPU. The
//! example kernels and the benchmark rows live in the `qpu-kernels` crate.
//!
//! A kernel is a Rust function over 16-lane vector types. Here is Euclid's algorithm on 16
//! pairs at once (QPULib's first example):
//!
//! ```
//! use qpu::lang::*;
//! use qpu::{compile, Device};
//!
//! fn gcd(p: Ptr<Int>, q: Ptr<Int>, r: Ptr<Int>) {
//!     let a = Int::var(p.load());
//!     let b = Int::var(q.load());
//!     while_(any(a.ne(b)), || {
//!         where_(a.gt(b), || a.set(a - b));
//!         where_(a.lt(b), || b.set(b - a));
//!     });
//!     r.store(a);
//! }
//!
//! let device = Device::interpreter();
//! let a = device.alloc_from(&[12i32, 35, 81, 17, 100, 64, 9, 14, 30, 8, 27, 1, 50, 21, 6, 99])?;
//! let b = device.alloc_from(&[18i32, 21, 27, 51, 75, 48, 6, 49, 45, 12, 18, 1, 20, 14, 4, 33])?;
//! let mut r = device.alloc::<i32>(16)?;
//! let kernel = compile(gcd)?;
//! kernel.run(&device, (&a, &b, &mut r))?;
//! assert_eq!(&r[..4], &[6, 7, 27, 17]);
//! # Ok::<(), qpu::Error>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod compiler;
pub mod error;
pub mod float;
pub mod interp;
pub mod lang;
pub mod runtime;

pub use error::{Error, Result};
pub use runtime::{compile, Device, Kernel, SharedArray};
