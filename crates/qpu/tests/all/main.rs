//! The crate's integration tests, one module per file of this folder, linked as one binary
//! (forty-odd test binaries took most of a cold `cargo test --workspace` to link).

#![allow(clippy::duplicate_mod)]

#[path = "../batched_stores.rs"]
mod batched_stores;
#[path = "../bounds.rs"]
mod bounds;
#[path = "../compile_errors.rs"]
mod compile_errors;
#[path = "../compile_scale.rs"]
mod compile_scale;
#[path = "../debug.rs"]
mod debug;
#[path = "../differential.rs"]
mod differential;
#[path = "../lang.rs"]
mod lang;
#[path = "../operators.rs"]
mod operators;
#[path = "../pi_backend.rs"]
mod pi_backend;
#[path = "../semaphore_stores.rs"]
mod semaphore_stores;
#[path = "../shared_memory.rs"]
mod shared_memory;
#[path = "../uniform_stream.rs"]
mod uniform_stream;
#[path = "../v3d.rs"]
mod v3d;
#[path = "../v3d_backend.rs"]
mod v3d_backend;
#[path = "../v3d_pi_backend.rs"]
mod v3d_pi_backend;
