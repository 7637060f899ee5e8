//! The kernel language: what users write kernels with, and the AST it records.
//!
//! # Writing a kernel
//!
//! A kernel is an ordinary Rust function (or closure) whose parameters are [`Int`], [`Float`],
//! [`Ptr<Int>`](Ptr) or [`Ptr<Float>`](Ptr). [`compile`](crate::compile()) calls it once; every
//! operation inside *records* a statement or builds an expression instead of computing
//! anything. All values are 16-lane vectors, one lane per element a QPU processes at once.
//!
//! | QPULib (C++)                     | here                                             |
//! |----------------------------------|--------------------------------------------------|
//! | `Int a = *p;`                    | `let a = Int::var(p.load());`                    |
//! | `a = a - b;`                     | `a.set(a - b);` or `a -= b;` (needs `let mut a`) |
//! | `a != b`, `a < b`                | `a.ne(b)`, `a.lt(b)` → [`Bool`]                  |
//! | `While (any(c)) … End`           | `while_(any(c), \|\| { … });`                     |
//! | `If (c) … Else … End`            | `if_(c, \|\| { … }).else_(\|\| { … });`            |
//! | `Where (c) … Else … End`         | `where_(c, \|\| { … }).else_(\|\| { … });`         |
//! | `For (Int i = 0, i < n, i = i+16)` | `for_range(0, n, 16, \|i\| { … });`           |
//! | `*p = x;` / `x = p[i];`          | `p.store(x);` / `p.at(i).load()`                 |
//! | `gather(p); receive(x);`         | `gather(p); receive(x);`                         |
//! | `store(x, p);`                   | `store(x, p);`                                   |
//! | `x >> n`, `shr(x, n)`            | `x >> n` (arithmetic), `x.lshr(n)` (logical)     |
//! | (assembly: `unif_addr`, `unif`)  | `let s = UniformStream::at(p); s.next()`         |
//!
//! Rust's `==` is not available on kernel values (it would have to produce a host `bool`);
//! the comparison methods return a per-lane [`Bool`]. Literals mix with values on either side:
//! `a + 1`, `1 + a`, `x * 0.125`.
//!
//! ## Variables and expressions
//!
//! Handles are `Copy`. An expression is a recipe, evaluated by the kernel each time a
//! statement uses it, so `while_(any(a.ne(b)), …)` re-tests the condition every iteration.
//! Only variables (from `Int::var`, `Float::var`, `Ptr::var`, or parameters) can be assigned.
//! `let b = a;` copies the *handle*: `b` then names the same variable. Write
//! `let b = Int::var(a);` for a new variable holding a snapshot of `a`.
//!
//! These mistakes are Rust compile errors, not run-time surprises:
//!
//! ```compile_fail
//! # use qpu::lang::*;
//! // `==` on kernel values would have to yield a host bool: use `a.eq(b)`.
//! let _ = qpu::compile(|a: Int, b: Int| {
//!     if a == b {}
//! });
//! ```
//!
//! ```compile_fail
//! # use qpu::lang::*;
//! // Ints and Floats do not mix silently: convert with `to_float()` / `to_int()`.
//! let _ = qpu::compile(|a: Int, x: Float| {
//!     let _ = a + x;
//! });
//! ```
//!
//! ```compile_fail
//! # use qpu::lang::*;
//! // A Float array cannot be passed for a Ptr<Int> parameter.
//! let device = qpu::Device::interpreter();
//! let mut xs = device.alloc::<f32>(16).unwrap();
//! let kernel = qpu::compile(|p: Ptr<Int>| p.store(1)).unwrap();
//! kernel.run(&device, &mut xs);
//! ```
//!
//! ```compile_fail
//! # use qpu::lang::*;
//! // Arguments are checked in order: (Int, Ptr<Float>) is not (Ptr<Float>, Int).
//! let device = qpu::Device::interpreter();
//! let mut xs = device.alloc::<f32>(16).unwrap();
//! let kernel = qpu::compile(|n: Int, p: Ptr<Float>| p.store(n.to_float())).unwrap();
//! kernel.run(&device, (&mut xs, 16));
//! ```
//!
//! ## Meta-programming
//!
//! Rust runs only at build time, so a Rust `for` loop around statements unrolls them, a Rust
//! function inlines, and a Rust struct can hold kernel variables (see the `heatmap`
//! example's `Cursor`).
//!
//! ## Errors
//!
//! Mistakes (a value from another kernel, assigning to an expression, a load inside
//! `where_`, a `receive` that can never have a gather, …) are collected with the file, line
//! and column of the user's code and returned by `compile` as
//! [`Error::Build`](crate::Error::Build). Nothing here panics.
//!
//! # The AST
//!
//! The recorded kernel is plain data (module `ast`): the interpreter runs it and the
//! compiler lowers it. It is not part of the public API: kernels are written with this
//! module's types and recorded by [`crate::compile`]; the module stays reachable (hidden
//! from the documentation, with no stability promise) for the crate's own differential
//! tests, which generate ASTs directly.

#[doc(hidden)]
pub mod ast;
#[doc(hidden)]
pub mod builder;
mod check;
mod control;
pub(crate) mod values;

pub use check::GATHER_FIFO_DEPTH;
pub use control::{
    debug, for_, for_range, gather, if_, receive, sema_dec, sema_inc, store, where_, while_, Else,
    UniformStream,
};
pub use values::{
    all, any, index, max, me, min, num_qpus, rotate, select, Bool, Cond, Float, Int, MinMax, Param,
    Ptr, Scalar,
};
