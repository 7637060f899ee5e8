//! QPULib's example programs in qpu's language: the kernels, the inputs QPULib's programs
//! use, functions that run each kernel on a [`qpu::Device`], and the scalar Rust each is
//! checked against. QPULib, the C++ library for the VideoCore IV whose language qpu's
//! follows, introduced its language with these; the tutorial (docs/tutorial.md) goes through
//! them.
//!
//! - [`gcd`]: Euclid's algorithm on 16 pairs at once (two vector versions);
//! - [`tri`]: the first 16 triangular numbers, one per lane;
//! - [`multi_tri`]: triangular numbers of 0..64 on 4 QPUs;
//! - [`id`]: each QPU writes its number;
//! - [`oet_sort`]: odd-even transposition sort of 32 integers;
//! - [`rot3d`]: rotation of vertices, three vector versions and the scalar code;
//! - [`heatmap`]: heat flow across a 2D grid, the kernel built from a Rust struct.
//!
//! Each has an example binary of the same name (`cargo run --release -p qpu-kernels
//! --example gcd`), and `qpu bench` measures gcd, tri, oet_sort, rot3d and heatmap
//! (`qpu_kernels::bench`, with the `bench` feature).
//!
//! ```
//! use qpu_kernels::qpulib::gcd;
//!
//! let (a, b) = gcd::inputs();
//! let r = gcd::run(&qpu::Device::interpreter(), false, &a, &b)?;
//! assert_eq!((a[0], b[0], r[0]), (183, 186, 3));
//! # Ok::<(), qpu::Error>(())
//! ```
//!
//! The module files refer to the language only through `qpu::` paths, and to each other only
//! through `super::glibc_rand`, so that qpu's own tests can include one (with
//! `glibc_rand.rs` beside it) by `#[path]`.

pub mod gcd;
pub mod glibc_rand;
pub mod heatmap;
pub mod id;
pub mod multi_tri;
pub mod oet_sort;
pub mod rot3d;
pub mod tri;
