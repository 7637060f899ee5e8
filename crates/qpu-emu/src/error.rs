//! The crate's error type and the rules a program can break.

use std::fmt;

use qpu_isa::vc4::DecodeError;

use crate::memory::MemoryError;
pub use crate::vc4::rules::{Rule, RuleSource};
use crate::vc4::vpm::VpmError;

/// Everything that can go wrong, at the crate's API boundary.
#[derive(Debug, thiserror::Error)]
pub enum EmuError {
    /// The emulator configuration is not usable.
    #[error("invalid emulator configuration: {0}")]
    Config(String),
    /// The launch list is not usable.
    #[error("invalid launch: {0}")]
    Launch(String),
    /// A host-side memory operation failed (allocation, fill, read-back).
    #[error("memory: {0}")]
    Memory(#[from] MemoryError),
    /// A QPU executed something the hardware would get wrong, or the emulator cannot model.
    #[error("QPU {qpu}, PC {pc:#010x}, `{instruction}`: {fault}")]
    Fault {
        /// The QPU (0–11) that executed the instruction.
        qpu: usize,
        /// The instruction's bus address.
        pc: u32,
        /// The instruction, disassembled.
        instruction: String,
        /// What went wrong.
        fault: Fault,
    },
    /// A V3D 4.2/7.1 thread executed something the hardware would get wrong, or the
    /// emulator cannot model ([`crate::v3d`]).
    #[error(
        "V3D QPU {qpu} thread {thread} (batch {batch}), PC {pc:#010x}, `{instruction}`: {fault}"
    )]
    V3dFault {
        /// The QPU.
        qpu: usize,
        /// The thread slot on that QPU.
        thread: usize,
        /// The batch the thread was running.
        batch: u32,
        /// The instruction's address.
        pc: u32,
        /// The instruction, disassembled.
        instruction: String,
        /// What went wrong.
        fault: crate::v3d::V3dFault,
    },
    /// The run exceeded its instruction or cycle budget.
    #[error(
        "{what} budget of {limit} exceeded (QPU {qpu} at PC {pc:#010x}); raise the budget in \
         EmulatorConfig if the kernel is expected to run this long, otherwise it likely never \
         reaches its thread end"
    )]
    Budget {
        /// "instruction" or "cycle".
        what: &'static str,
        /// The limit that was exceeded.
        limit: u64,
        /// The QPU that crossed it.
        qpu: usize,
        /// Where that QPU was.
        pc: u32,
    },
    /// Every QPU still running waits on a semaphore or the mutex that no one can release.
    #[error("deadlock: {message}")]
    Deadlock {
        /// Which QPUs wait on what.
        message: String,
        /// The blocked QPUs and their PCs.
        blocked: Vec<(usize, u32)>,
    },
}

/// What went wrong at one instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// A hazard or placement rule was broken.
    Rule(Rule),
    /// Memory rejected an access (TMU lookup, uniform read, instruction fetch, DMA).
    Memory(MemoryError),
    /// The VPM unit rejected an access.
    Vpm(VpmError),
    /// The word at the PC is not an instruction.
    Decode(DecodeError),
    /// There is no program at the PC: execution ran off the end of the code.
    PastCode(MemoryError),
    /// A uniform read past the end of the uniform stream.
    UniformsExhausted {
        /// How many uniforms the program had read before this one.
        read: u64,
        /// The bus address it tried to read.
        addr: u32,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Rule(rule) => write!(f, "{rule} [{}]", rule.source()),
            Fault::Memory(e) => write!(f, "memory access failed: {e}"),
            Fault::Vpm(e) => write!(f, "VPM: {e}"),
            Fault::Decode(e) => write!(f, "not an instruction: {e}"),
            Fault::PastCode(e) => write!(
                f,
                "no instruction here: execution ran past the end of the program ({e}); a \
                 program ends with `thrend` followed by two delay-slot instructions"
            ),
            Fault::UniformsExhausted { read, addr } => write!(
                f,
                "uniform read number {} is past the end of the uniform stream (bus address \
                 {addr:#010x} is outside memory): the stream holds only {read} uniform(s)",
                read + 1
            ),
        }
    }
}
