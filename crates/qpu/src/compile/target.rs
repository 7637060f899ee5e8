//! The target seam: what the compiler asks of a GPU generation.
//!
//! Lowering (which instructions a statement becomes), the hardware facts the schedulers and
//! the allocator obey (latencies, delay slots, register files), packing operations into one
//! instruction word, encoding it and checking a finished program all go through
//! [`Target`]. The passes between (invariant hoisting, flag reuse, scheduling before
//! allocation, the list scheduler's dependency graph) are the same for every target. The
//! VideoCore IV ([`Vc4`]) is the one implementation; the V3D 4.2/7.1 targets of the Pi 4/5
//! are to be the next.

use qpu_isa::Instruction;

use super::bundle::Bundle;
use super::emit::EncodeError;
use super::ir::*;
use super::lower::Lowered;
use crate::lang::ast;

/// Timing and register facts the schedulers and the allocator obey. "A value written by
/// instruction i is readable from instruction i + N."
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    /// A register-file register's read-after-write distance.
    pub regfile: usize,
    /// An accumulator's read-after-write distance.
    pub accumulator: usize,
    /// A rotation source's (and r5's for a rotation by r5) distance from its write.
    pub rotate_source: usize,
    /// From an SFU write to its result in r4.
    pub sfu: usize,
    /// From a TMU load signal to its result in r4.
    pub tmu_load: usize,
    /// Instructions that always run after a branch.
    pub branch_delay_slots: usize,
    /// Instructions that run after the thread-end signal.
    pub thread_end_delay_slots: usize,
    /// Instructions a TMU lookup that hits the cache takes, request to result (a schedule
    /// goal, not a rule: receiving earlier stalls).
    pub tmu_lookup: usize,
}

/// A GPU generation the compiler can emit code for.
pub(crate) trait Target {
    /// The facts its schedulers obey.
    fn facts(&self) -> &'static Facts;
    /// The kernel as IR over virtual registers, with spill support or without.
    /// Lower `kernel` for at most `max_qpus` QPUs (with spill support or without).
    fn lower(&self, kernel: &ast::Kernel, spill_support: bool, max_qpus: u32) -> Lowered;
    /// One instruction word doing `ops` together, if they fit.
    fn pack(&self, ops: &[&Op<Loc>]) -> Option<Bundle>;
    /// The machine instruction of a scheduled word (`index` for error messages).
    fn encode(&self, bundle: &Bundle, index: usize) -> Result<Instruction, EncodeError>;
    /// The hardware rules a finished program breaks, one message each (empty: none).
    fn validate(&self, program: &[Instruction]) -> Vec<String>;
}

/// The VideoCore IV (Pi 1, 2, 3, Zero): facts from the guide, as the emulator checks them
/// ([`qpu_emu::rules::latency`]).
pub(crate) struct Vc4;

impl Facts {
    /// The VideoCore IV's.
    pub const VC4: Facts = {
        use qpu_emu::rules::latency as l;
        Facts {
            regfile: l::REGFILE,
            accumulator: l::ACCUMULATOR,
            rotate_source: l::ROTATE_SOURCE,
            sfu: l::SFU,
            tmu_load: l::TMU_LOAD,
            branch_delay_slots: l::BRANCH_DELAY_SLOTS,
            thread_end_delay_slots: l::THREAD_END_DELAY_SLOTS,
            // The emulator's timing model: a 36-clock hit (measured coarsely by the VC4C
            // authors as ~9 instructions), 4 clocks an instruction.
            tmu_lookup: (qpu_emu::Timing::VC4.tmu_hit_latency
                / qpu_emu::Timing::VC4.clocks_per_instruction) as usize,
        }
    };
}

impl Target for Vc4 {
    fn facts(&self) -> &'static Facts {
        &Facts::VC4
    }

    fn lower(&self, kernel: &ast::Kernel, spill_support: bool, max_qpus: u32) -> Lowered {
        super::lower::lower(kernel, spill_support, max_qpus)
    }

    fn pack(&self, ops: &[&Op<Loc>]) -> Option<Bundle> {
        super::schedule::pack(ops)
    }

    fn encode(&self, bundle: &Bundle, index: usize) -> Result<Instruction, EncodeError> {
        super::emit::encode(bundle, index)
    }

    fn validate(&self, program: &[Instruction]) -> Vec<String> {
        qpu_emu::validate(program)
            .iter()
            .map(ToString::to_string)
            .collect()
    }
}
