//! The modelled Raspberry Pi GPUs, one module per generation, as peers, over one memory
//! model ([`memory`]): programs run as real machine words fetched from emulated memory,
//! strictly (a hazard the hardware would turn into a wrong result is an error naming the QPU,
//! PC, instruction and rule; an undefined value is an error where it is used), with
//! deterministic cycle counts.
//!
//! * [`vc4`]: the VideoCore IV (Pi 1, 2, 3, Zero): 1–12 QPUs, the VPM and its DMA, TMUs,
//!   SFU, semaphores; its rules cite the *VideoCore IV 3D Architecture Reference Guide*.
//! * [`v3d`]: VideoCore VI/VII (V3D 4.2 / 7.1, Pi 4 and 5): CSD dispatch of 16-lane batches
//!   on QPUs × threads, TMU loads and stores, its own hazard rules (from Mesa's validator and
//!   py-videocore6/7's hardware tests) and a cycle model fitted to published Pi 4 and Pi 5
//!   timings.
//!
//! [`float`] is the VideoCore IV's float arithmetic (truncating), which the V3D model reuses
//! where the two agree.

#![forbid(unsafe_code)]

mod error;
pub mod float;
pub mod memory;
mod simd;
pub mod v3d;
pub mod vc4;

/// Marsaglia's xorshift64 from `seed` (non-zero): the unit tests' source of random operands,
/// reproducible from the seed.
#[cfg(test)]
pub(crate) fn xorshift64(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

pub use error::{EmuError, Fault};
/// A static validator's finding: qpu-isa's, shared by both generations.
pub use qpu_isa::violation::{CitedRule, Violation};

/// Words the caller lends to an [`vc4::Emulator`]'s memory for one run
/// ([`vc4::Emulator::run_lending`]): the bus address of the first word, and the words.
#[derive(Debug)]
pub enum Lent<'a> {
    /// Readable by the QPUs; a write is a [`MemoryError::ReadOnly`](memory::MemoryError::ReadOnly) fault.
    ReadOnly(u32, &'a [u32]),
    /// Readable and writable by the QPUs.
    ReadWrite(u32, &'a mut [u32]),
}
