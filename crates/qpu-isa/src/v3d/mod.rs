//! The QPU instruction set of V3D 4.2 (VideoCore VI, Raspberry Pi 4) and V3D 7.1
//! (VideoCore VII, Raspberry Pi 5).
//!
//! One model serves both versions, as in Mesa's broadcom compiler: the [`V3dVersion`] passed
//! to [`decode`]/[`encode`] selects the signal table, the opcode tables and the operand
//! layout (4.2: accumulators r0–r5 plus two register-file ports; 7.1: four read addresses,
//! no accumulators). Words round-trip losslessly: for every word `w` that
//! `decode(v, w)` accepts, `encode(v, &decode(v, w)?) == w`. Words that are not instructions
//! (reserved signal codes, opcodes no table lists, the invalid cond value 16, …) are errors
//! naming the field; decoding never panics.
//!
//! Sources for every fact here (no Pi 4 or Pi 5 was available): Mesa
//! `src/broadcom/qpu/qpu_instr.h`, `qpu_pack.c` and `qpu_disasm.c`; Idein's
//! py-videocore6 assembler (`videocore6/assembler.py`), which runs on Pi 4 hardware; the
//! per-module docs say which source fixes which table and where they disagree.
//!
//! The text syntax is described in [`disasm`]; [`asm`] reads it back.
//!
//! ```
//! use qpu_isa::v3d::{self, V3dVersion};
//!
//! // The no-op both Mesa and py-videocore6 emit on V3D 4.2.
//! let word = 0x3c00_3186_bb80_0000;
//! let instr = v3d::decode(V3dVersion::V42, word)?;
//! assert_eq!(v3d::disasm::instruction(V3dVersion::V42, &instr), "nop ; nop");
//! assert_eq!(v3d::encode(V3dVersion::V42, &instr).unwrap(), word);
//! # Ok::<(), v3d::DecodeError>(())
//! ```

pub mod asm;
pub mod build;
pub mod disasm;
pub mod fields;
mod info;
mod instr;
pub mod ops;
pub mod placement;
pub mod rules;
pub mod tmu;
mod validate;

pub use asm::{assemble, AsmError};
pub use fields::*;
pub use info::Info;
pub use instr::*;
pub use ops::{AddOp, FloatMods, FloatPack, FloatUnpack, MulOp};
pub use rules::V3dRule;
pub use tmu::TmuConfig;
pub use validate::{validate, V3dViolation};

/// The V3D version an instruction word is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum V3dVersion {
    /// V3D 4.2: VideoCore VI, Raspberry Pi 4.
    V42,
    /// V3D 7.1: VideoCore VII, Raspberry Pi 5.
    V71,
}

impl V3dVersion {
    /// Both versions.
    pub const ALL: [V3dVersion; 2] = [V3dVersion::V42, V3dVersion::V71];

    /// The QPUs of the board's GPU: a Pi 4's V3D 4.2 has 2 slices of 4 (Mesa
    /// `v3d_device_info`, py-videocore6's 8 threads), a Pi 5's V3D 7.1 4 slices of 4 (its
    /// kernel's `v3d_ident` reports 16; py-videocore7 launches 12, a number no measurement
    /// backs).
    pub const fn qpus(self) -> u32 {
        match self {
            V3dVersion::V42 => 8,
            V3dVersion::V71 => 16,
        }
    }

    /// QPUs sharing one slice's TMU (4 on both: Mesa `v3d_device_info`, 4 QPUs a slice).
    pub const QPUS_PER_SLICE: u32 = 4;

    /// The board's V3D clock in MHz: 500 on a Pi 4 (py-videocore6 measured 500.5 with the
    /// performance counters), 960 at most on a Pi 5 (Raspberry Pi documentation,
    /// `bcm2712.adoc`, "960MHz versus 500MHz on Pi 4").
    pub const fn clock_mhz(self) -> f64 {
        match self {
            V3dVersion::V42 => 500.0,
            V3dVersion::V71 => 960.0,
        }
    }

    /// The register-file register holding the CSD payload's first word (workgroup ids):
    /// rf0 below 7.1, rf3 on 7.1 (Mesa `nir_to_vir.c`, `cs_payload[0]`); the second word is
    /// in rf2 on both.
    pub const fn payload0(self) -> u8 {
        match self {
            V3dVersion::V42 => 0,
            V3dVersion::V71 => 3,
        }
    }

    /// The register-file register holding the CSD payload's second word (local invocation
    /// indices; Mesa `nir_to_vir.c`, `cs_payload[1]`).
    pub const PAYLOAD1: u8 = 2;
}

/// Distances between instructions the hardware needs, with their sources: the emulator
/// checks them and the compiler schedules by them.
pub mod latency {
    /// Instructions executed after a branch before it takes effect (Mesa `qpu_validate.c`
    /// `in_branch_delay_slots`; relative targets count from the branch + 4).
    pub const BRANCH_DELAY_SLOTS: u64 = 3;
    /// Instructions executed after `thrsw` before the switch (Mesa `qpu_validate.c`
    /// `in_thrsw_delay_slots`).
    pub const THRSW_DELAY_SLOTS: u64 = 2;
    /// A 4.2 SFU result reaches r4 two instructions after the SFU write (Mesa
    /// `qpu_validate.c`: "SFU r4 results come back two instructions later").
    pub const SFU_R4: u64 = 2;
    /// Instructions that must separate a `unifa` write from the first `ldunifa` (Mesa
    /// `qpu_schedule.c` keeps 3 in between; py-videocore7 tests/test_unifa.py: "Three delays
    /// are required for the data to be ready").
    pub const UNIFA_TO_LDUNIFA: u64 = 3;
    /// Per-QPU TMU output FIFO entries, shared equally by the threads (Mesa
    /// `nir_to_vir.c` `ntq_tmu_fifo_overflow`: 16 / threads per thread).
    pub const TMU_OUTPUT_FIFO: u32 = 16;
    /// A 4.2 `rot` of an accumulator (or by r5) written by the instruction just before reads
    /// the old value: the source must be written two instructions earlier (py-videocore6
    /// tests/test_signals.py, run on a Pi 4).
    pub const ROTATE_SOURCE: u64 = 2;
}

/// Decodes one word (see [`Instruction::decode`]).
pub fn decode(version: V3dVersion, word: u64) -> Result<Instruction, DecodeError> {
    Instruction::decode(version, word)
}

/// Encodes one instruction (see [`Instruction::encode`]).
pub fn encode(version: V3dVersion, instr: &Instruction) -> Result<u64, EncodeError> {
    instr.encode(version)
}

/// Why a 64-bit word is not a V3D instruction.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A field holds a value no source gives a meaning.
    #[error("field {field} holds reserved value {value}")]
    Reserved {
        /// The field.
        field: &'static str,
        /// The value found.
        value: u32,
    },
    /// An opcode (with its selector field) that no operation uses.
    #[error("{alu} opcode {opcode} (selector {selector}) is not an operation")]
    UnknownOp {
        /// `add` or `mul`.
        alu: &'static str,
        /// The opcode field.
        opcode: u8,
        /// The b-input field that selects among single-input ops.
        selector: u8,
    },
}

/// Why an instruction cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The operand fields are for the other version.
    #[error("the operand fields are for the other V3D version")]
    VersionMismatch,
    /// No signal-table entry holds this set.
    #[error("no signal code for the set {0:?} on this version")]
    Signals(Signals),
    /// The cond field holds flags while a signal needs a write address, or the reverse.
    #[error("a signal that writes a register needs a signal address (and no flags), and only such a signal may have one")]
    CondKind,
    /// The flags cannot share the cond field.
    #[error("these flag pushes/updates/conditions cannot be combined in one instruction")]
    FlagCombination,
    /// The op has no such encoding on this version.
    #[error("operation {op} has no encoding number {variant} on this version")]
    NoSuchVariant {
        /// The op.
        op: String,
        /// The variant asked for.
        variant: u8,
    },
    /// fadd/faddnf (fmin/fmax) are told apart by operand order; this order selects the other.
    #[error("operand order selects the other operation of the pair for {0:?} (swap the inputs)")]
    OperandOrder(AddOp),
    /// A value out of its field's range.
    #[error("field {field} cannot hold {value}")]
    FieldRange {
        /// The field.
        field: &'static str,
        /// The value.
        value: u32,
    },
}
