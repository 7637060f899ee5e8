//! The V3D hazard and placement rules, each with its source: what the static validator
//! ([`super::validate`]) and the emulator report.
//!
//! Only rules a source states are here. Most come from Mesa's
//! `src/broadcom/compiler/qpu_validate.c` (the checks Mesa runs on every shader it schedules),
//! the rest from Mesa's `compiler/nir_to_vir.c` and `compiler/qpu_schedule.c`, and from
//! py-videocore6's hardware tests.

use std::fmt;

/// A rule a program broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum V3dRule {
    /// A branch inside another branch's delay slots.
    BranchInBranchDelaySlot,
    /// A branch inside a `thrsw`'s delay slots.
    BranchInThrswDelaySlot,
    /// A `thrsw` inside a branch's delay slots.
    ThrswInBranchDelaySlot,
    /// A `thrsw` within two instructions of another one that is not the consecutive
    /// "last thread switch" pair.
    ThrswTooClose,
    /// A second consecutive `thrsw` pair.
    TwoLastThrsw,
    /// An SFU write in a `thrsw`'s delay slots (the result would land in the other thread).
    SfuInThrswDelaySlot,
    /// r4 read or written, or another SFU started, before the previous SFU result arrived.
    SfuTooSoon {
        /// What the instruction did.
        what: &'static str,
    },
    /// More than one of TMU write / SFU / TSY / TLB / VPM (and on 4.2 `ldtmu`) in one
    /// instruction.
    PeripheralConflict,
    /// A register-file write in the final `thrsw` instruction or its delay slots.
    RfWriteAfterThrend {
        /// Which form of the rule (4.2: any rf write; 7.1: ALU write at the end instruction,
        /// or rf2/rf3 anywhere in the end slots).
        detail: &'static str,
    },
    /// `tmuwt` as the very last instruction (GFXH-1625).
    TmuwtLast,
    /// More than one small immediate, or one read by an ALU that is idle (7.1).
    SmallImmediate {
        /// What is wrong.
        detail: &'static str,
    },
    /// `ldunifa` too soon after a `unifa` write.
    LdunifaTooSoon {
        /// Instructions since the write.
        distance: u64,
    },
    /// `ldunifa` with no `unifa` write before it.
    LdunifaWithoutUnifa,
    /// More TMU results outstanding than this thread's share of the output FIFO.
    TmuOutputFifoOverflow {
        /// Words that would be outstanding.
        words: u32,
        /// The thread's share.
        limit: u32,
    },
    /// `ldtmu` with no TMU result outstanding (the QPU would wait forever).
    LdtmuEmpty,
    /// `tmud` written more than four times before the `tmua` write.
    TmuDataOverflow,
    /// A 4.2 rotation whose source accumulator (or r5 amount) the previous instruction wrote.
    RotateTooSoon,
    /// A 7.1 rotate, quad rotate or shuffle writing a magic register, or beside a mul
    /// writing a TMU register.
    RotateDestination,
    /// `umul24` after a `multop` with a thread switch in between (the rtop is lost).
    MultopAcrossThrsw,
    /// A register above the thread's share of the register file (4 threads: 32 each).
    RegisterOutOfRange {
        /// The register number.
        index: u8,
        /// Registers per thread.
        limit: u8,
    },
    /// Two writes to one register in one instruction: no source says which wins.
    DoubleWrite {
        /// The register, by name.
        register: String,
    },
    /// More than one uniform read in one instruction: no source gives their order.
    TwoUniformReads,
    /// Batches wait at a workgroup barrier (`syncb`) that the rest of their workgroup can
    /// never reach: they ended without it, or cannot all be resident at once.
    BarrierNeverCompletes {
        /// Batches waiting.
        arrived: u32,
        /// Batches in the workgroup.
        batches: u32,
    },
    /// An undefined value (poison, see `v3d/poison.rs`) reached something that makes it
    /// observable: memory, a TMU address or config, `unifa`, a branch decision or target.
    UndefinedValueUsed {
        /// What consumed it ("the value stored", "the TMU address", ...).
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
}

impl V3dRule {
    /// Where the rule comes from.
    pub fn source(&self) -> &'static str {
        match self {
            V3dRule::BranchInBranchDelaySlot
            | V3dRule::BranchInThrswDelaySlot
            | V3dRule::ThrswInBranchDelaySlot
            | V3dRule::ThrswTooClose
            | V3dRule::TwoLastThrsw
            | V3dRule::SfuInThrswDelaySlot
            | V3dRule::SfuTooSoon { .. }
            | V3dRule::PeripheralConflict
            | V3dRule::RfWriteAfterThrend { .. }
            | V3dRule::TmuwtLast
            | V3dRule::SmallImmediate { .. } => "Mesa src/broadcom/compiler/qpu_validate.c",
            V3dRule::LdunifaTooSoon { .. } => {
                "Mesa src/broadcom/compiler/qpu_schedule.c; py-videocore7 tests/test_unifa.py"
            }
            V3dRule::TmuOutputFifoOverflow { .. } => {
                "Mesa src/broadcom/compiler/nir_to_vir.c ntq_tmu_fifo_overflow"
            }
            V3dRule::RotateTooSoon => "py-videocore6 tests/test_signals.py (nop before rotate)",
            V3dRule::MultopAcrossThrsw => "Mesa src/broadcom/compiler/qpu_schedule.c (rtop)",
            V3dRule::RotateDestination => {
                "py-videocore7 tests/test_registers.py (a rotate into rep writes nothing) and \
                 tests/test_guard.py"
            }
            V3dRule::RegisterOutOfRange { .. } => {
                "Mesa src/broadcom/compiler/vir_register_allocate.c (4 threads: 32 registers)"
            }
            V3dRule::BarrierNeverCompletes { .. } => {
                "Mesa src/broadcom/compiler/nir_to_vir.c (a barrier waits for the whole \
                 workgroup at the next thread switch)"
            }
            V3dRule::UndefinedValueUsed { .. } => {
                "emulator: an undefined value is an error where it is used (py-videocore6's \
                 tests read never-written registers whose results nothing uses)"
            }
            V3dRule::LdunifaWithoutUnifa
            | V3dRule::LdtmuEmpty
            | V3dRule::TmuDataOverflow
            | V3dRule::DoubleWrite { .. }
            | V3dRule::TwoUniformReads => "emulator: behaviour no source defines",
        }
    }
}

impl fmt::Display for V3dRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            V3dRule::BranchInBranchDelaySlot => {
                write!(f, "branch in the delay slots of another branch")
            }
            V3dRule::BranchInThrswDelaySlot => write!(f, "branch in the delay slots of a thrsw"),
            V3dRule::ThrswInBranchDelaySlot => write!(f, "thrsw in the delay slots of a branch"),
            V3dRule::ThrswTooClose => write!(
                f,
                "thrsw within two instructions of another thrsw (only the consecutive \
                 last-thread-switch pair may be that close)"
            ),
            V3dRule::TwoLastThrsw => {
                write!(f, "a second last-thread-switch pair (two thrsw in a row)")
            }
            V3dRule::SfuInThrswDelaySlot => write!(
                f,
                "SFU write in a thrsw delay slot: its result would land in the other thread"
            ),
            V3dRule::SfuTooSoon { what } => write!(
                f,
                "{what} within two instructions of an SFU write: the SFU result reaches r4 two \
                 instructions later; put a nop in between"
            ),
            V3dRule::PeripheralConflict => write!(
                f,
                "only one of TMU write, SFU, TSY, TLB, VPM (and on 4.2 ldtmu) per instruction"
            ),
            V3dRule::RfWriteAfterThrend { detail } => {
                write!(f, "register-file write at the program end: {detail}")
            }
            V3dRule::TmuwtLast => write!(
                f,
                "tmuwt in the last instruction of the program (GFXH-1625); move it earlier"
            ),
            V3dRule::SmallImmediate { detail } => write!(f, "small immediate: {detail}"),
            V3dRule::LdunifaTooSoon { distance } => write!(
                f,
                "ldunifa {distance} instruction(s) after the unifa write; at least 3 \
                 instructions must come in between"
            ),
            V3dRule::LdunifaWithoutUnifa => {
                write!(
                    f,
                    "ldunifa before any unifa write: the second uniform stream has no address"
                )
            }
            V3dRule::TmuOutputFifoOverflow { words, limit } => write!(
                f,
                "{words} TMU result words outstanding, more than this thread's {limit} in the \
                 TMU output FIFO (16 per QPU, split between its threads): the QPU would \
                 deadlock; read results with ldtmu before issuing more loads"
            ),
            V3dRule::LdtmuEmpty => write!(
                f,
                "ldtmu with no TMU load outstanding: the QPU would wait forever"
            ),
            V3dRule::TmuDataOverflow => {
                write!(f, "more than four tmud writes before the tmua write")
            }
            V3dRule::RotateTooSoon => write!(
                f,
                "rotation of an accumulator (or by r5) that the previous instruction wrote; \
                 put one instruction in between"
            ),
            V3dRule::RotateDestination => write!(
                f,
                "a rotate/quad_rotate/shuffle must write a register-file register and not share \
                 its instruction with a mul write to tmud/tmua/tmuau/tmuc (on a Pi 5 a rotate \
                 into rep writes nothing)"
            ),
            V3dRule::MultopAcrossThrsw => write!(
                f,
                "umul24 after a thread switch that followed its multop: the high part (rtop) \
                 is lost"
            ),
            V3dRule::RegisterOutOfRange { index, limit } => write!(
                f,
                "rf{index} does not exist with this many threads per QPU (each thread has \
                 rf0-rf{})",
                limit - 1
            ),
            V3dRule::DoubleWrite { register } => write!(
                f,
                "{register} written twice in one instruction; no source says which write wins"
            ),
            V3dRule::BarrierNeverCompletes { arrived, batches } => write!(
                f,
                "{arrived} of the workgroup's {batches} batches wait at its barrier and the \
                 rest can never reach it (they ended, or the QPUs' thread slots cannot hold \
                 the whole workgroup at once)"
            ),
            V3dRule::UndefinedValueUsed {
                what,
                lanes,
                origin,
                ..
            } => crate::violation::undefined_value_used(f, what, *lanes, origin),
            V3dRule::TwoUniformReads => write!(
                f,
                "more than one uniform-stream read in one instruction (ldunif, wrtmuc, tmuau, \
                 ub branch); no source gives their order"
            ),
        }
    }
}
