//! Run-time choice of the host's vector instruction set for the 16-lane loops.
//!
//! The lane loops (a QPU register is 16 lanes of 32 bits) are written as plain, branch-free
//! Rust loops that the compiler turns into vector instructions. Compiled for the baseline
//! target alone they use 128-bit vectors (x86-64's SSE2); [`wide`] runs a loop compiled
//! again for the widest instruction set the host reports at run time (x86-64: AVX2 with
//! FMA, or AVX-512; aarch64: NEON, its baseline), so that a 16-lane float operation takes
//! two 256-bit vectors or one 512-bit vector instead of four 128-bit ones. The choice and
//! the `#[target_feature]` functions it needs are the `pulp` crate's (see Cargo.toml):
//! this crate has no `unsafe`.
//!
//! The result does not depend on the instruction set: the loops use IEEE operations only
//! (no fused multiply-add, which Rust never forms by itself, and no approximations), which
//! round the same in every vector width. `alu::tests` compares every vectorized operation
//! with the scalar definitions in [`crate::float`] lane by lane.

/// A lane loop for [`wide`]: `run` must be `#[inline(always)]`, and so must every function
/// it calls on lanes, for the wider instructions to reach the loop. (A closure or a function
/// item called through `FnOnce` is not reliably inlined into the dispatching function: its
/// body then runs as baseline code.)
pub trait Kernel {
    /// What the loop returns.
    type Output;
    /// The loop.
    fn run(self) -> Self::Output;
}

/// A [`Kernel`] as `pulp`'s operation type.
struct Dispatched<K>(K);

impl<K: Kernel> pulp::WithSimd for Dispatched<K> {
    type Output = K::Output;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> K::Output {
        self.0.run()
    }
}

/// Runs `kernel` compiled for the widest vector instruction set the host has (checked on
/// each call: a load and a compare of a cached detection result per instruction set).
#[inline(always)]
pub fn wide<K: Kernel>(kernel: K) -> K::Output {
    pulp::Arch::new().dispatch(Dispatched(kernel))
}

/// Runs `kernel` as baseline code: for loops whose baseline vector code is a few
/// instructions per 16 lanes (integer and byte operations), where the check of [`wide`]
/// would cost more than the wider vectors save.
#[inline(always)]
pub fn baseline<K: Kernel>(kernel: K) -> K::Output {
    kernel.run()
}
