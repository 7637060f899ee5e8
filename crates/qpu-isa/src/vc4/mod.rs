//! The VideoCore IV QPU instruction set (Raspberry Pi 1, 2, 3 and Zero).
//!
//! Every instruction form of the *VideoCore IV 3D Architecture Reference Guide* (section 3)
//! is a typed value ([`Instruction`]); every field is an enum or a checked newtype. Words
//! encode and decode losslessly: `Instruction::decode(w)?.encode() == w` for every word that
//! decodes, including bits the hardware ignores. The text assembler and disassembler live in
//! [`asm`] and [`disasm`]; the hazard latencies in [`latency`], the register names in
//! [`regs`], the VPM/DMA setup words in [`setup`].
//!
//! ```
//! use qpu_isa::vc4::{Instruction, AddOp};
//!
//! // "add vpm, ra1, unif" from the seed hello-world program.
//! let word = 0x1002_0c27_0c06_0dc0;
//! let Instruction::Alu(alu) = Instruction::decode(word)? else { unreachable!() };
//! assert_eq!(alu.op_add, AddOp::Add);
//! assert_eq!(Instruction::Alu(alu).encode(), word);
//! # Ok::<(), qpu_isa::vc4::DecodeError>(())
//! ```

pub mod asm;
pub mod disasm;
pub mod fields;
pub mod info;
mod instr;
pub mod latency;
pub mod regs;
pub mod rules;
pub mod setup;
mod validate;
pub mod words;

pub use asm::{assemble, assemble_instruction, AsmError};

/// The QPUs of a Pi 1/2/3/Zero's VideoCore IV: 3 slices of 4 (guide chapter 1). The V3D
/// counts are [`crate::v3d::V3dVersion::qpus`].
pub const QPUS: u32 = 12;
pub use fields::*;
pub use instr::*;
pub use rules::{Rule, RuleSource};
pub use validate::validate;

/// Why a 64-bit word is not a QPU instruction.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A field holds an encoding the guide reserves.
    #[error("field {field} holds reserved value {value}")]
    Reserved {
        /// The field's name.
        field: &'static str,
        /// The value found.
        value: u32,
    },
}
