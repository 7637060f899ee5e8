//! Distances between VideoCore IV instructions the hardware needs, in instructions ("a
//! value written by instruction i is readable from instruction i + N"), and its basic
//! timing, each with its source: the emulator checks them, the compiler schedules by them.

/// A physical register-file location: no forwarding, readable two instructions after its
/// write (guide chapter 3, instruction restrictions).
pub const REGFILE: usize = 2;
/// An accumulator: the next instruction (guide chapter 3).
pub const ACCUMULATOR: usize = 1;
/// The source accumulator of a vector rotation, and r5 for a rotation by r5: not in the
/// instruction right after the write (guide chapter 3, vector rotation).
pub const ROTATE_SOURCE: usize = 2;
/// An SFU result lands in r4 for the third instruction after the SFU write; nothing else
/// may read or write r4 in between (guide chapter 3).
pub const SFU: usize = 3;
/// A TMU result is in r4 for the instruction after the `ldtmu` signal (guide chapter 3).
pub const TMU_LOAD: usize = 1;
/// Uniform reads must wait this long after a write to the uniforms address (guide
/// chapter 3).
pub const UNIFORMS_ADDRESS: usize = 3;
/// TMU writes must wait this long after a TMU_NOSWAP write (guide chapter 4).
pub const TMU_NOSWAP: usize = 3;
/// A generic VPM read setup's data can be read this many instructions after the setup
/// (guide chapter 7; measured: earlier reads stall rather than fail).
pub const VPM_READ_SETUP: usize = 3;
/// Instructions that always execute after a branch (guide chapter 3, branches).
pub const BRANCH_DELAY_SLOTS: usize = 3;
/// Instructions that execute after the thread-end signal (guide chapter 3).
pub const THREAD_END_DELAY_SLOTS: usize = 2;
/// Direct TMU lookups that may be outstanding per TMU (measured by vc4asm; QPULib and
/// V3DLib use the same depth; the guide says 8).
pub const TMU_FIFO_DEPTH: usize = 4;

/// Clocks between two instructions of one QPU: 16 lanes through a 4-lane ALU (guide p.16).
pub const CLOCKS_PER_INSTRUCTION: u64 = 4;
/// Clocks from a TMU request to its result in the receive FIFO when every lane hits the TMU
/// cache (measured coarsely by the VC4C authors, about 9 instructions).
pub const TMU_HIT_CLOCKS: u64 = 36;
