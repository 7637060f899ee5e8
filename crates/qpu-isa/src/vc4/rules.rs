//! The VideoCore IV's hazard and placement rules, the evidence each rests on, and the
//! latency facts behind them: the one place the emulator's checker and the `qpu` compiler's
//! scheduler and self-check read them from.
//!
//! Sources, in the order the project ranks them when they disagree:
//! 1. **Hardware-proven programs** ([`RuleSource::HardwareProgram`]): programs that gave
//!    correct, published results on real Pis (Andrew Holme's GPU_FFT shaders, QPULib's
//!    compiled stores, py-videocore's SGEMM, hand-written SHA-256).
//! 2. **Measurements** ([`RuleSource::Measured`]): vc4asm's hardware measurements published
//!    as an addendum to the guide, and Amol Surati's VPM measurements (2021).
//! 3. **The guide** ([`RuleSource::Guide`]): Broadcom's *VideoCore IV 3D Architecture
//!    Reference Guide* (2013), chapter 3 ("QPU Instruction Encoding", and its summary of
//!    instruction restrictions), chapter 4 (TMU) and chapter 7 (VPM and VCD).
//! 4. **Mesa** ([`RuleSource::Mesa`]): Mesa's vc4 validator (`vc4_qpu_validate.c`), which
//!    states the guide's rules as code and adds a few of its own.
//! 5. **Assumptions** ([`RuleSource::Assumption`]): where nothing above speaks, relying on the
//!    behaviour is rejected rather than guessed.
//!
//! # Undefined values are poison
//!
//! A result the hardware leaves undefined is not an error where it is made, only where it is
//! used: the emulator marks such lanes *poisoned*, ALU operations carry the marks lane by lane
//! into their results (and flags), and [`Rule::UndefinedValueUsed`] is reported when a
//! poisoned lane reaches memory or an I/O register (VPM, TMU address, DMA and setup
//! registers, host interrupt), decides a branch or gives its target. Poison is made by
//! * both ALUs writing one accumulator (lanes that receive both writes), guide chapter 3:
//!   hand-written FFT code writes one accumulator from both ALUs under complementary
//!   conditions, and programs end with `mov r0, r0 ; mov r0, r0 ; thrend`;
//! * a mul ALU whose opcode is nop but whose write address is live: vc4asm measured that it
//!   re-emits a stale mul result; the emulator does not track which, so the value is poison.
//!   (An *add* ALU with opcode nop writes nothing: py-videocore encodes its `nop()` as add
//!   opcode nop with write address r0, and its SGEMM kernel, correct on 12 QPUs, has such a
//!   word in a branch delay slot right after updating its loop counter in r0);
//! * reading an unmapped register address, or the NOP address 39 before this program read
//!   anything through that register file. (Otherwise a read of 39 is defined: it returns the
//!   last value the file's read port delivered, lanes 12–15 replicated per quad, as vc4asm
//!   measured; a small immediate counts as a file-B read.)
//!
//! Genuine read hazards (a register-file value read one instruction after its write, r4 read
//! during an SFU operation, a rotation of an accumulator written by the previous instruction)
//! stay errors where they happen: the hardware returns a stale value, not nothing.

use std::fmt;

use crate::vc4::RegFile;
use crate::violation::undefined_value_used;

/// Distances, in instructions, that the hazard rules and the compiler's scheduler share:
/// one definition, in qpu-isa.
pub use crate::vc4::latency;

/// The evidence a rule rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSource {
    /// Broadcom's VideoCore IV 3D Architecture Reference Guide (2013).
    Guide,
    /// A published hardware measurement (vc4asm's addendum to the guide) that contradicts or
    /// completes the guide.
    Measured,
    /// The behaviour of programs that produced correct, published results on real Pis
    /// (GPU_FFT, QPULib's compiled code, py-videocore's SGEMM): it outranks the guide's text.
    HardwareProgram,
    /// Mesa's vc4 validator, which states the guide's rules as code.
    Mesa,
    /// The emulator's own choice where the guide is silent and nothing was measured: the
    /// behaviour is unknown, so relying on it is rejected (an assumption).
    Assumption,
    /// The hardware does it, but the emulator does not model it.
    NotModelled,
}

impl fmt::Display for RuleSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSource::Guide => "guide",
            RuleSource::Measured => "hardware measurement",
            RuleSource::Mesa => "Mesa vc4 validator",
            RuleSource::HardwareProgram => "hardware-proven program behaviour",
            RuleSource::Assumption => "assumption: guide silent, unmeasured",
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

/// A hazard or placement rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// a physical register read by the instruction right after the one writing it.
    RegfileReadAfterWrite {
        /// The register file.
        file: RegFile,
        /// The register number.
        reg: u8,
    },
    /// r4 read in the two instructions after an SFU write.
    R4ReadDuringSfu,
    /// another r4 writer (TMU load, SFU) in the two instructions after an SFU write.
    R4WriterDuringSfu,
    /// r4 read although no TMU or SFU result was ever loaded into it.
    R4ReadWithoutResult,
    /// Both ALUs write the same I/O register in one instruction (two writes to one
    /// accumulator are not an error: the lanes that receive both become undefined).
    BothAlusWrite {
        /// The register.
        register: &'static str,
    },
    /// rotation of an accumulator written by the previous instruction.
    RotateAfterWrite {
        /// The accumulator (0–3, or 5 for a rotate by r5).
        accumulator: u8,
    },
    /// more than one of TMU write, TMU load signal, SFU write, mutex acquire, semaphore.
    UnitConflict {
        /// The units involved.
        units: String,
    },
    /// a uniform read within 2 instructions of a uniforms-address write.
    UniformAfterAddressWrite,
    /// Both files read `unif` (or `vpm`) in one instruction: whether that pops once or twice
    /// is undocumented.
    DoubleStreamRead {
        /// "unif" or "vpm".
        register: &'static str,
    },
    /// more outstanding lookups than the FIFO depth.
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
    /// TMU_NOSWAP written fewer than 3 instructions before a TMU write.
    TmuNoswapTooLate,
    /// Texture-style lookups (writes to t, r or b) are not modelled.
    TextureLookup,
    /// a conditional write to a register whose FIFO or state advances anyway.
    ConditionalIoWrite {
        /// The register.
        register: &'static str,
    },
    /// a branch in the delay slots of a branch.
    BranchInDelaySlot,
    /// A thread end in a branch's delay slots.
    ThreadEndInBranchDelaySlot,
    /// a branch in the delay slots of a thread end.
    BranchInThreadEndSlot,
    /// the thread-end instruction writes a physical register.
    ThreadEndWritesRegfile,
    /// the thread end or its slots touch something they must not.
    ThreadEndSlotAccess {
        /// What was touched.
        what: &'static str,
    },
    /// thread end with programmed VPM reads not consumed.
    VpmReadsPendingAtEnd {
        /// Reads still outstanding.
        count: u32,
    },
    /// another VPM register accessed in the instruction that writes a VPM setup.
    VpmSetupWithOtherAccess,
    /// A VPM read issued fewer than 3 instructions after its setup (guide mode only; the
    /// default follows the measurement that such reads stall).
    VpmReadTooEarly,
    /// a semaphore instruction that also writes a unit that can stall.
    SemaphoreWithStallingUnit,
    /// An undefined value (poison) reached something that makes it observable: memory, an
    /// I/O register, a branch decision or target.
    UndefinedValueUsed {
        /// What consumed it ("the value written to vpm", "the branch condition", ...).
        what: &'static str,
        /// The lanes whose value is undefined (bit i = lane i).
        lanes: u16,
        /// Where the undefined value was made, as far as the emulator knows.
        origin: String,
        /// The bus address of the instruction that made it, when known.
        origin_pc: Option<u32>,
        /// When it was read from outside memory: the first such address.
        origin_address: Option<u32>,
    },
    /// a mul byte pack (8a–8d) to an I/O register.
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
            UndefinedValueUsed { .. } => RuleSource::Guide,
            R4ReadWithoutResult | DoubleStreamRead { .. } | MutexNotHeld | BranchLinkToIo => {
                RuleSource::Assumption
            }
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
                 register-file value can be read 2 instructions after its write at the earliest",
                file_name(*file).to_lowercase()
            ),
            R4ReadDuringSfu => f.write_str(
                "r4 is read within 2 instructions of an SFU write; the SFU result reaches r4 in \
                 the 3rd instruction after the write",
            ),
            R4WriterDuringSfu => f.write_str(
                "a TMU load or SFU write within 2 instructions of an SFU write; nothing else may \
                 write r4 while an SFU result is in flight",
            ),
            R4ReadWithoutResult => f.write_str(
                "r4 is read but no TMU or SFU result was ever loaded into it in this program",
            ),
            BothAlusWrite { register } => write!(
                f,
                "both ALUs write the I/O register {register} in one instruction; what the unit \
                 receives is undefined"
            ),
            RotateAfterWrite { accumulator: 5 } => {
                f.write_str("a rotation by r5 right after an instruction that wrote r5")
            }
            RotateAfterWrite { accumulator } => write!(
                f,
                "a rotation of r{accumulator} right after an instruction that wrote it"
            ),
            UnitConflict { units } => write!(
                f,
                "one instruction uses {units}; at most one of TMU write, TMU load, SFU write, \
                 mutex acquire and semaphore is allowed"
            ),
            UniformAfterAddressWrite => f.write_str(
                "a uniform is read within 2 instructions of a write to the uniforms address",
            ),
            DoubleStreamRead { register } => write!(
                f,
                "both register files read `{register}` in one instruction; whether that pops one \
                 value or two is undocumented"
            ),
            TmuFifoOverflow { tmu, depth } => write!(
                f,
                "TMU{tmu} request FIFO overflow: more than {depth} lookups outstanding (load \
                 results with ldtmu{tmu} first)"
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
                f.write_str("a TMU write fewer than 3 instructions after a TMU_NOSWAP write")
            }
            TextureLookup => f.write_str(
                "writes to TMU t/r/b start texture lookups, which the emulator does not model; \
                 use direct lookups (write only s)",
            ),
            ConditionalIoWrite { register } => write!(
                f,
                "conditional write to {register}; the unit advances whatever the condition, \
                 so write it unconditionally"
            ),
            BranchInDelaySlot => f.write_str(
                "a branch in the 3 delay slots of another branch; at least 2 non-branch \
                 instructions must separate branches",
            ),
            ThreadEndInBranchDelaySlot => {
                f.write_str("a thread end in the delay slots of a branch")
            }
            BranchInThreadEndSlot => f.write_str("a branch in the 2 delay slots of a thread end"),
            ThreadEndWritesRegfile => {
                f.write_str("the thread-end instruction writes a physical register; it must not")
            }
            ThreadEndSlotAccess { what } => write!(
                f,
                "the thread end or one of its 2 delay slots {what}; forbidden there"
            ),
            VpmReadsPendingAtEnd { count } => write!(
                f,
                "thread end with {count} programmed VPM read(s) not consumed"
            ),
            VpmSetupWithOtherAccess => {
                f.write_str("a VPM setup write in the same instruction as another VPM access")
            }
            VpmReadTooEarly => f.write_str(
                "a VPM read fewer than 3 instructions after its read setup (guide mode; \
                 the default follows the measurement that it stalls)",
            ),
            SemaphoreWithStallingUnit => {
                f.write_str("a semaphore instruction that also writes the TMU or SFU")
            }
            UndefinedValueUsed {
                what,
                lanes,
                origin,
                ..
            } => undefined_value_used(f, what, *lanes, origin),
            MulBytePackToIo => f.write_str(
                "a mul colour pack into one byte (8a-8d) targets an I/O register, which does not \
                 support it",
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
