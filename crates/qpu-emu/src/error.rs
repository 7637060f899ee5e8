//! The crate's error type and the rules a program can break.

use std::fmt;

use qpu_isa::{DecodeError, RegFile};

use crate::memory::MemoryError;
use crate::vpm::VpmError;

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
    #[error("deadlock: {0}")]
    Deadlock(String),
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
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Rule(rule) => write!(f, "{rule} [{}]", rule.source()),
            Fault::Memory(e) => write!(f, "memory access failed: {e}"),
            Fault::Vpm(e) => write!(f, "VPM: {e}"),
            Fault::Decode(e) => write!(f, "not an instruction: {e}"),
        }
    }
}

/// Where a rule comes from: the issue asks us to say which rules follow Broadcom's guide and
/// which follow published hardware measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSource {
    /// Broadcom's VideoCore IV 3D Architecture Reference Guide (2013).
    Guide,
    /// A published hardware measurement (vc4asm addendum) that contradicts or completes the
    /// guide; shared/docs/vc4-isa.md marks these [measured].
    Measured,
    /// Mesa's vc4 validator, which states the guide's rules as code.
    Mesa,
    /// The emulator's own choice where the guide is silent and nothing was measured: the
    /// behaviour is unknown, so relying on it is rejected.
    Unknown,
    /// The hardware does it, but the emulator does not model it.
    NotModelled,
}

impl fmt::Display for RuleSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSource::Guide => "guide",
            RuleSource::Measured => "hardware measurement",
            RuleSource::Mesa => "Mesa vc4 validator",
            RuleSource::Unknown => "undefined: guide silent, unmeasured",
            RuleSource::NotModelled => "not modelled by the emulator",
        })
    }
}

fn file_name(file: RegFile) -> &'static str {
    match file {
        RegFile::A => "A",
        RegFile::B => "B",
    }
}

/// A hazard or placement rule (shared/docs/vc4-isa.md §5 numbers in brackets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// §5.1: a physical register read by the instruction right after the one writing it.
    RegfileReadAfterWrite {
        /// The register file.
        file: RegFile,
        /// The register number.
        reg: u8,
    },
    /// §5.2: r4 read in the two instructions after an SFU write.
    R4ReadDuringSfu,
    /// §5.2: another r4 writer (TMU load, SFU) in the two instructions after an SFU write.
    R4WriterDuringSfu,
    /// r4 read although no TMU or SFU result was ever loaded into it.
    R4ReadWithoutResult,
    /// §1: both ALUs write the same accumulator or I/O register.
    BothAlusWrite {
        /// The register.
        register: &'static str,
    },
    /// §5.3: rotation of an accumulator written by the previous instruction.
    RotateAfterWrite {
        /// The accumulator (0–3, or 5 for a rotate by r5).
        accumulator: u8,
    },
    /// §5.4: more than one of TMU write, TMU load signal, SFU write, mutex acquire, semaphore.
    UnitConflict {
        /// The units involved.
        units: String,
    },
    /// §5.5: a uniform read within 2 instructions of a uniforms-address write.
    UniformAfterAddressWrite,
    /// Both files read `unif` (or `vpm`) in one instruction: whether that pops once or twice
    /// is undocumented.
    DoubleStreamRead {
        /// "unif" or "vpm".
        register: &'static str,
    },
    /// §7 TMU: more outstanding lookups than the FIFO depth.
    TmuFifoOverflow {
        /// The TMU.
        tmu: u8,
        /// The depth in force.
        depth: u32,
    },
    /// `ldtmu` with no lookup outstanding on that TMU.
    TmuLoadWithoutRequest {
        /// The TMU.
        tmu: u8,
    },
    /// Thread end with TMU results never loaded (they would be seen by the next program).
    TmuResultsLeftAtEnd {
        /// Results still queued.
        count: usize,
    },
    /// §5.6: TMU_NOSWAP written fewer than 3 instructions before a TMU write.
    TmuNoswapTooLate,
    /// Texture-style lookups (writes to t, r or b) are not modelled.
    TextureLookup,
    /// §5.11: a conditional write to a register whose FIFO or state advances anyway.
    ConditionalIoWrite {
        /// The register.
        register: &'static str,
    },
    /// §5.7: a branch in the delay slots of a branch.
    BranchInDelaySlot,
    /// A thread end in a branch's delay slots.
    ThreadEndInBranchDelaySlot,
    /// §5.8: a branch in the delay slots of a thread end.
    BranchInThreadEndSlot,
    /// §5.8: the thread-end instruction writes a physical register.
    ThreadEndWritesRegfile,
    /// §5.8: the thread end or its slots touch something they must not.
    ThreadEndSlotAccess {
        /// What was touched.
        what: &'static str,
    },
    /// §5.11: thread end with programmed VPM reads not consumed.
    VpmReadsPendingAtEnd {
        /// Reads still outstanding.
        count: u32,
    },
    /// §5.11: another VPM register accessed in the instruction that writes a VPM setup.
    VpmSetupWithOtherAccess,
    /// A VPM read issued fewer than 3 instructions after its setup (guide mode only; the
    /// default follows the measurement that such reads stall).
    VpmReadTooEarly,
    /// §5.12: a semaphore instruction that also writes a unit that can stall.
    SemaphoreWithStallingUnit,
    /// An ALU operand reads the NOP register (39) or an unmapped address.
    UndefinedOperand {
        /// Which file.
        file: RegFile,
        /// The address read.
        addr: u8,
    },
    /// An ALU with opcode nop writes a register.
    NopOpcodeWrites {
        /// "add" or "mul".
        alu: &'static str,
    },
    /// §4: a mul byte pack (8a–8d) to an I/O register.
    MulBytePackToIo,
    /// The mutex released by a QPU that does not hold it.
    MutexNotHeld,
    /// A branch link written to an I/O register.
    BranchLinkToIo,
    /// `sf` set while the flag-setting ALU's condition is never: the guide takes the flags
    /// from the mul ALU instead, the hardware (measured) updates none.
    SetFlagsUnderNever,
    /// A feature the emulator does not model (TLB, varyings, thread switches, ...).
    Unsupported {
        /// What.
        what: &'static str,
    },
}

impl Rule {
    /// Where the rule comes from.
    pub fn source(&self) -> RuleSource {
        use Rule::*;
        match self {
            RegfileReadAfterWrite { .. }
            | R4ReadDuringSfu
            | R4WriterDuringSfu
            | BothAlusWrite { .. }
            | UnitConflict { .. }
            | UniformAfterAddressWrite
            | TmuLoadWithoutRequest { .. }
            | TmuNoswapTooLate
            | ThreadEndWritesRegfile
            | ThreadEndSlotAccess { .. }
            | VpmReadTooEarly
            | SemaphoreWithStallingUnit
            | RotateAfterWrite { .. } => RuleSource::Guide,
            TmuFifoOverflow { .. }
            | ConditionalIoWrite { .. }
            | BranchInDelaySlot
            | VpmReadsPendingAtEnd { .. }
            | VpmSetupWithOtherAccess
            | MulBytePackToIo => RuleSource::Measured,
            ThreadEndInBranchDelaySlot | BranchInThreadEndSlot | TmuResultsLeftAtEnd { .. } => {
                RuleSource::Mesa
            }
            R4ReadWithoutResult
            | DoubleStreamRead { .. }
            | UndefinedOperand { .. }
            | NopOpcodeWrites { .. }
            | MutexNotHeld
            | BranchLinkToIo => RuleSource::Unknown,
            SetFlagsUnderNever => RuleSource::Measured,
            TextureLookup | Unsupported { .. } => RuleSource::NotModelled,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Rule::*;
        match self {
            RegfileReadAfterWrite { file, reg } => write!(
                f,
                "r{}{reg} is read in the instruction right after the one that wrote it; a \
                 register-file value can be read 2 instructions after its write at the earliest \
                 (§5.1)",
                file_name(*file).to_lowercase()
            ),
            R4ReadDuringSfu => f.write_str(
                "r4 is read within 2 instructions of an SFU write; the SFU result reaches r4 in \
                 the 3rd instruction after the write (§5.2)",
            ),
            R4WriterDuringSfu => f.write_str(
                "a TMU load or SFU write within 2 instructions of an SFU write; nothing else may \
                 write r4 while an SFU result is in flight (§5.2)",
            ),
            R4ReadWithoutResult => f.write_str(
                "r4 is read but no TMU or SFU result was ever loaded into it in this program",
            ),
            BothAlusWrite { register } => write!(
                f,
                "both ALUs write {register} in one instruction; the result is undefined (§1)"
            ),
            RotateAfterWrite { accumulator: 5 } => {
                f.write_str("a rotation by r5 right after an instruction that wrote r5 (§5.3)")
            }
            RotateAfterWrite { accumulator } => write!(
                f,
                "a rotation of r{accumulator} right after an instruction that wrote it (§5.3)"
            ),
            UnitConflict { units } => write!(
                f,
                "one instruction uses {units}; at most one of TMU write, TMU load, SFU write, \
                 mutex acquire and semaphore is allowed (§5.4)"
            ),
            UniformAfterAddressWrite => f.write_str(
                "a uniform is read within 2 instructions of a write to the uniforms address \
                 (§5.5)",
            ),
            DoubleStreamRead { register } => write!(
                f,
                "both register files read `{register}` in one instruction; whether that pops one \
                 value or two is undocumented"
            ),
            TmuFifoOverflow { tmu, depth } => write!(
                f,
                "TMU{tmu} request FIFO overflow: more than {depth} lookups outstanding (load \
                 results with ldtmu{tmu} first; §7 TMU)"
            ),
            TmuLoadWithoutRequest { tmu } => {
                write!(f, "ldtmu{tmu} with no TMU{tmu} lookup outstanding")
            }
            TmuResultsLeftAtEnd { count } => write!(
                f,
                "thread end with {count} TMU result(s) never loaded; the next program on this \
                 QPU would receive them"
            ),
            TmuNoswapTooLate => {
                f.write_str("a TMU write fewer than 3 instructions after a TMU_NOSWAP write (§5.6)")
            }
            TextureLookup => f.write_str(
                "writes to TMU t/r/b start texture lookups, which the emulator does not model; \
                 use direct lookups (write only s)",
            ),
            ConditionalIoWrite { register } => write!(
                f,
                "conditional write to {register}; the unit advances whatever the condition \
                 (§5.11), so write it unconditionally"
            ),
            BranchInDelaySlot => f.write_str(
                "a branch in the 3 delay slots of another branch; at least 2 non-branch \
                 instructions must separate branches (§5.7)",
            ),
            ThreadEndInBranchDelaySlot => {
                f.write_str("a thread end in the delay slots of a branch")
            }
            BranchInThreadEndSlot => {
                f.write_str("a branch in the 2 delay slots of a thread end (§5.8)")
            }
            ThreadEndWritesRegfile => f.write_str(
                "the thread-end instruction writes a physical register; it must not (§5.8)",
            ),
            ThreadEndSlotAccess { what } => write!(
                f,
                "the thread end or one of its 2 delay slots {what}; forbidden there (§5.8)"
            ),
            VpmReadsPendingAtEnd { count } => write!(
                f,
                "thread end with {count} programmed VPM read(s) not consumed (§5.11)"
            ),
            VpmSetupWithOtherAccess => f.write_str(
                "a VPM setup write in the same instruction as another VPM access (§5.11)",
            ),
            VpmReadTooEarly => f.write_str(
                "a VPM read fewer than 3 instructions after its read setup (§5.11, guide mode; \
                 the default follows the measurement that it stalls)",
            ),
            SemaphoreWithStallingUnit => {
                f.write_str("a semaphore instruction that also writes the TMU or SFU (§5.12)")
            }
            UndefinedOperand { file, addr } => write!(
                f,
                "an ALU operand uses the value read from file {} address {addr}, which reads \
                 nothing defined",
                file_name(*file)
            ),
            NopOpcodeWrites { alu } => write!(
                f,
                "the {alu} ALU's opcode is nop but it writes a register under a condition other \
                 than never; the value written is undefined"
            ),
            MulBytePackToIo => f.write_str(
                "a mul colour pack into one byte (8a-8d) targets an I/O register, which does not \
                 support it (§4)",
            ),
            MutexNotHeld => f.write_str("mutex released by a QPU that does not hold it"),
            BranchLinkToIo => f.write_str("a branch writes its link address to an I/O register"),
            SetFlagsUnderNever => f.write_str(
                "`setf` on an ALU whose write condition is never: the guide takes the flags \
                 from the mul ALU, the hardware updates no flag at all; give the flag-setting \
                 operation an explicit condition (e.g. always)",
            ),
            Unsupported { what } => write!(f, "{what} is not modelled by the emulator"),
        }
    }
}
