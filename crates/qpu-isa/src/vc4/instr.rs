//! The instruction forms and their 64-bit encoding (guide section 3, figure 4 "Instruction
//! Encoding" and the per-form layouts that follow it).

use crate::vc4::fields::*;
use crate::vc4::DecodeError;

/// Bit positions of the fields shared by the ALU, load-immediate and semaphore forms
/// (guide section 3, figure 4).
mod bits {
    pub const SIG: u32 = 60; // [63:60]
    pub const UNPACK: u32 = 57; // [59:57], the load-immediate mode in sig=14
    pub const PM: u32 = 56; // [56]
    pub const PACK: u32 = 52; // [55:52], the branch condition in sig=15
    pub const COND_ADD: u32 = 49; // [51:49]
    pub const COND_MUL: u32 = 46; // [48:46]
    pub const SF: u32 = 45; // [45]
    pub const WS: u32 = 44; // [44]
    pub const WADDR_ADD: u32 = 38; // [43:38]
    pub const WADDR_MUL: u32 = 32; // [37:32]
    pub const OP_MUL: u32 = 29; // [31:29]
    pub const OP_ADD: u32 = 24; // [28:24]
    pub const RADDR_A: u32 = 18; // [23:18]
    pub const RADDR_B: u32 = 12; // [17:12], the small immediate in sig=13
    pub const ADD_A: u32 = 9; // [11:9]
    pub const ADD_B: u32 = 6; // [8:6]
    pub const MUL_A: u32 = 3; // [5:3]
    pub const MUL_B: u32 = 0; // [2:0]
                              // Branch form only.
    pub const BRANCH_UNUSED: u32 = 56; // [59:56], ignored by the hardware
    pub const BRANCH_REL: u32 = 51; // [51]
    pub const BRANCH_REG: u32 = 50; // [50]
    pub const BRANCH_RADDR_A: u32 = 45; // [49:45], five bits
                                        // Semaphore form only (in the low word).
    pub const SEMA_ACQUIRE: u32 = 4; // [4]
}

fn field(word: u64, shift: u32, width: u32) -> u8 {
    ((word >> shift) & ((1 << width) - 1)) as u8
}

fn put(value: impl Into<u64>, shift: u32) -> u64 {
    value.into() << shift
}

/// The write-back half shared by ALU, load-immediate and semaphore instructions: where each
/// ALU's result goes, under which condition, packed how, and whether flags are set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteBack {
    /// The `pm` bit and pack field.
    pub pack: Pack,
    /// Condition for the add ALU's write.
    pub cond_add: Cond,
    /// Condition for the mul ALU's write.
    pub cond_mul: Cond,
    /// `sf`: update the Z/N/C flags.
    pub set_flags: bool,
    /// `ws`: which file each ALU writes.
    pub write_swap: WriteSwap,
    /// Destination of the add ALU.
    pub waddr_add: RegAddr,
    /// Destination of the mul ALU.
    pub waddr_mul: RegAddr,
}

impl Default for WriteBack {
    /// Writes nothing: both destinations NOP, both conditions never.
    fn default() -> WriteBack {
        WriteBack {
            pack: Pack::default(),
            cond_add: Cond::Never,
            cond_mul: Cond::Never,
            set_flags: false,
            write_swap: WriteSwap::AddToA,
            waddr_add: RegAddr::NOP,
            waddr_mul: RegAddr::NOP,
        }
    }
}

impl WriteBack {
    fn encode(&self) -> u64 {
        put(self.pack.pm(), bits::PM)
            | put(self.pack.code(), bits::PACK)
            | put(self.cond_add.code(), bits::COND_ADD)
            | put(self.cond_mul.code(), bits::COND_MUL)
            | put(self.set_flags, bits::SF)
            | put(self.write_swap.bit(), bits::WS)
            | put(self.waddr_add.index(), bits::WADDR_ADD)
            | put(self.waddr_mul.index(), bits::WADDR_MUL)
    }

    fn decode(word: u64) -> Result<WriteBack, DecodeError> {
        Ok(WriteBack {
            pack: Pack::from_bits(field(word, bits::PM, 1) == 1, field(word, bits::PACK, 4))?,
            cond_add: Cond::from_code(field(word, bits::COND_ADD, 3))?,
            cond_mul: Cond::from_code(field(word, bits::COND_MUL, 3))?,
            set_flags: field(word, bits::SF, 1) == 1,
            write_swap: WriteSwap::from_bit(field(word, bits::WS, 1) == 1),
            waddr_add: RegAddr::from_bits(word >> bits::WADDR_ADD),
            waddr_mul: RegAddr::from_bits(word >> bits::WADDR_MUL),
        })
    }
}

/// How an ALU instruction uses the shared `sig`/`raddr_b` fields: either a signal with a
/// register-file B read, or (sig=13) a small immediate in place of the B read and no signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadB {
    /// A signal, and `raddr_b` addresses register file B.
    Register {
        /// The signal.
        signal: Signal,
        /// The file-B read address.
        raddr_b: RegAddr,
    },
    /// A small immediate (a value read through mux B, or a mul-result rotation).
    SmallImm(SmallImm),
}

/// An ALU instruction: one add-ALU and one mul-ALU operation issued together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AluInstruction {
    /// Signal and B read (or small immediate).
    pub b: ReadB,
    /// The unpack field: applies to file-A reads with pm=0, to r4 reads with pm=1.
    pub unpack: Unpack,
    /// Destinations, conditions, pack, flags.
    pub write: WriteBack,
    /// Add-ALU opcode.
    pub op_add: AddOp,
    /// Mul-ALU opcode.
    pub op_mul: MulOp,
    /// File-A read address.
    pub raddr_a: RegAddr,
    /// Add ALU first operand.
    pub add_a: InputMux,
    /// Add ALU second operand.
    pub add_b: InputMux,
    /// Mul ALU first operand.
    pub mul_a: InputMux,
    /// Mul ALU second operand.
    pub mul_b: InputMux,
}

impl AluInstruction {
    /// The canonical no-op: both ALUs idle, nothing read, nothing written.
    pub const NOP: AluInstruction = AluInstruction {
        b: ReadB::Register {
            signal: Signal::None,
            raddr_b: RegAddr::NOP,
        },
        unpack: Unpack::None,
        write: WriteBack {
            pack: Pack::RegfileA(PackA::None),
            cond_add: Cond::Never,
            cond_mul: Cond::Never,
            set_flags: false,
            write_swap: WriteSwap::AddToA,
            waddr_add: RegAddr::NOP,
            waddr_mul: RegAddr::NOP,
        },
        op_add: AddOp::Nop,
        op_mul: MulOp::Nop,
        raddr_a: RegAddr::NOP,
        add_a: InputMux::R0,
        add_b: InputMux::R0,
        mul_a: InputMux::R0,
        mul_b: InputMux::R0,
    };

    /// The signal (none for the small-immediate form).
    pub fn signal(&self) -> Signal {
        match self.b {
            ReadB::Register { signal, .. } => signal,
            ReadB::SmallImm(_) => Signal::None,
        }
    }

    /// The file-B read address, unless the B read slot holds a small immediate.
    pub fn raddr_b(&self) -> Option<RegAddr> {
        match self.b {
            ReadB::Register { raddr_b, .. } => Some(raddr_b),
            ReadB::SmallImm(_) => None,
        }
    }

    /// The small immediate, if this is the sig=13 form.
    pub fn small_imm(&self) -> Option<SmallImm> {
        match self.b {
            ReadB::SmallImm(imm) => Some(imm),
            ReadB::Register { .. } => None,
        }
    }

    /// The operand muxes the add ALU actually consumes (none for nop, one for unary ops).
    pub fn add_inputs(&self) -> &'static [usize] {
        match self.op_add {
            AddOp::Nop => &[],
            op if op.is_unary() => &[0],
            _ => &[0, 1],
        }
    }

    /// The operand muxes the mul ALU actually consumes (none for nop).
    pub fn mul_inputs(&self) -> &'static [usize] {
        match self.op_mul {
            MulOp::Nop => &[],
            _ => &[0, 1],
        }
    }
}

/// Load immediate (sig=14, mode ≠ 4): the immediate appears at both ALU outputs, each
/// written under its own condition to its own destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoadImmInstruction {
    /// How the 32 bits become lane values.
    pub mode: LoadImmMode,
    /// The immediate.
    pub imm: u32,
    /// Destinations, conditions, pack, flags.
    pub write: WriteBack,
}

/// Semaphore acquire or release (sig=14, mode 4). Otherwise behaves as a 32-bit load
/// immediate of the low word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SemaphoreInstruction {
    /// `sa`: true to acquire (decrement, stalling at 0), false to release (increment,
    /// stalling at 15).
    pub acquire: bool,
    /// Which of the 16 semaphores.
    pub semaphore: SemaphoreId,
    /// Bits [31:5] of the low word: ignored by the semaphore unit but kept so that words
    /// round-trip exactly; they still reach the ALU outputs as part of the immediate.
    pub unused: u32,
    /// Destinations, conditions, pack, flags.
    pub write: WriteBack,
}

impl SemaphoreInstruction {
    /// The full 32-bit immediate the instruction carries.
    pub fn imm(&self) -> u32 {
        (self.unused << 5)
            | (u32::from(self.acquire) << bits::SEMA_ACQUIRE)
            | u32::from(self.semaphore.index())
    }
}

/// A branch (sig=15). Three delay-slot instructions after it always execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BranchInstruction {
    /// Which lanes' flags decide.
    pub cond: BranchCond,
    /// `rel`: the target is relative to the address of the branch plus 4 instructions.
    pub relative: bool,
    /// `reg`: also add the value read from file A at `raddr_a`.
    pub use_raddr_a: bool,
    /// The 5-bit file-A address used when `use_raddr_a` (kept when not, for round trips).
    pub raddr_a: RegAddr,
    /// Which file each link write goes to.
    pub write_swap: WriteSwap,
    /// Link destination of the add side (the return address is written if taken).
    pub waddr_add: RegAddr,
    /// Link destination of the mul side.
    pub waddr_mul: RegAddr,
    /// The byte offset (relative) or address (absolute).
    pub imm: i32,
    /// Bits [59:56], ignored by the hardware; kept for exact round trips.
    pub unused: u8,
}

/// One QPU instruction in any of its forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    /// ALU operations (signals 0–12, or 13 with a small immediate).
    Alu(AluInstruction),
    /// Load immediate.
    LoadImm(LoadImmInstruction),
    /// Semaphore acquire/release.
    Semaphore(SemaphoreInstruction),
    /// Branch.
    Branch(BranchInstruction),
}

impl Instruction {
    /// The canonical no-op.
    pub const NOP: Instruction = Instruction::Alu(AluInstruction::NOP);

    /// Encodes the instruction as a 64-bit word.
    pub fn encode(&self) -> u64 {
        match self {
            Instruction::Alu(alu) => {
                let (sig, b_field) = match alu.b {
                    ReadB::Register { signal, raddr_b } => (signal.code(), raddr_b.index()),
                    ReadB::SmallImm(imm) => (SIG_SMALL_IMMEDIATE, imm.code()),
                };
                put(sig, bits::SIG)
                    | put(alu.unpack.code(), bits::UNPACK)
                    | alu.write.encode()
                    | put(alu.op_mul.code(), bits::OP_MUL)
                    | put(alu.op_add.code(), bits::OP_ADD)
                    | put(alu.raddr_a.index(), bits::RADDR_A)
                    | put(b_field, bits::RADDR_B)
                    | put(alu.add_a.code(), bits::ADD_A)
                    | put(alu.add_b.code(), bits::ADD_B)
                    | put(alu.mul_a.code(), bits::MUL_A)
                    | put(alu.mul_b.code(), bits::MUL_B)
            }
            Instruction::LoadImm(ldi) => {
                put(SIG_LOAD_IMMEDIATE, bits::SIG)
                    | put(ldi.mode.code(), bits::UNPACK)
                    | ldi.write.encode()
                    | u64::from(ldi.imm)
            }
            Instruction::Semaphore(sema) => {
                put(SIG_LOAD_IMMEDIATE, bits::SIG)
                    | put(LOAD_IMM_MODE_SEMAPHORE, bits::UNPACK)
                    | sema.write.encode()
                    | u64::from(sema.imm())
            }
            Instruction::Branch(br) => {
                put(SIG_BRANCH, bits::SIG)
                    | put(br.unused & 15, bits::BRANCH_UNUSED)
                    | put(br.cond.code(), bits::PACK)
                    | put(br.relative, bits::BRANCH_REL)
                    | put(br.use_raddr_a, bits::BRANCH_REG)
                    | put(br.raddr_a.index() & 31, bits::BRANCH_RADDR_A)
                    | put(br.write_swap.bit(), bits::WS)
                    | put(br.waddr_add.index(), bits::WADDR_ADD)
                    | put(br.waddr_mul.index(), bits::WADDR_MUL)
                    | u64::from(br.imm as u32)
            }
        }
    }

    /// Decodes a 64-bit word. Every word that decodes re-encodes to the same bits; a word
    /// using an encoding the guide reserves is an error naming the field and value.
    pub fn decode(word: u64) -> Result<Instruction, DecodeError> {
        let sig = field(word, bits::SIG, 4);
        match sig {
            SIG_BRANCH => Ok(Instruction::Branch(BranchInstruction {
                cond: BranchCond::from_code(field(word, bits::PACK, 4))?,
                relative: field(word, bits::BRANCH_REL, 1) == 1,
                use_raddr_a: field(word, bits::BRANCH_REG, 1) == 1,
                raddr_a: RegAddr::from_bits(u64::from(field(word, bits::BRANCH_RADDR_A, 5))),
                write_swap: WriteSwap::from_bit(field(word, bits::WS, 1) == 1),
                waddr_add: RegAddr::from_bits(word >> bits::WADDR_ADD),
                waddr_mul: RegAddr::from_bits(word >> bits::WADDR_MUL),
                imm: word as u32 as i32,
                unused: field(word, bits::BRANCH_UNUSED, 4),
            })),
            SIG_LOAD_IMMEDIATE => {
                let mode = field(word, bits::UNPACK, 3);
                let write = WriteBack::decode(word)?;
                let imm = word as u32;
                if mode == LOAD_IMM_MODE_SEMAPHORE {
                    Ok(Instruction::Semaphore(SemaphoreInstruction {
                        acquire: (imm >> bits::SEMA_ACQUIRE) & 1 == 1,
                        semaphore: SemaphoreId::from_bits(imm),
                        unused: imm >> 5,
                        write,
                    }))
                } else {
                    Ok(Instruction::LoadImm(LoadImmInstruction {
                        mode: LoadImmMode::from_code(mode)?,
                        imm,
                        write,
                    }))
                }
            }
            _ => {
                let b_field = field(word, bits::RADDR_B, 6);
                let b = if sig == SIG_SMALL_IMMEDIATE {
                    ReadB::SmallImm(SmallImm::from_bits(u64::from(b_field)))
                } else {
                    ReadB::Register {
                        signal: Signal::from_code(sig)?,
                        raddr_b: RegAddr::from_bits(u64::from(b_field)),
                    }
                };
                Ok(Instruction::Alu(AluInstruction {
                    b,
                    unpack: Unpack::from_bits(field(word, bits::UNPACK, 3)),
                    write: WriteBack::decode(word)?,
                    op_add: AddOp::from_code(field(word, bits::OP_ADD, 5))?,
                    op_mul: MulOp::from_code(field(word, bits::OP_MUL, 3))?,
                    raddr_a: RegAddr::from_bits(word >> bits::RADDR_A),
                    add_a: InputMux::from_bits(field(word, bits::ADD_A, 3)),
                    add_b: InputMux::from_bits(field(word, bits::ADD_B, 3)),
                    mul_a: InputMux::from_bits(field(word, bits::MUL_A, 3)),
                    mul_b: InputMux::from_bits(field(word, bits::MUL_B, 3)),
                }))
            }
        }
    }

    /// The signal this instruction raises (branches, load immediates and semaphores raise
    /// none).
    pub fn signal(&self) -> Signal {
        match self {
            Instruction::Alu(alu) => alu.signal(),
            _ => Signal::None,
        }
    }

    /// The write-back fields, for every form except branches.
    pub fn write_back(&self) -> Option<&WriteBack> {
        match self {
            Instruction::Alu(alu) => Some(&alu.write),
            Instruction::LoadImm(ldi) => Some(&ldi.write),
            Instruction::Semaphore(sema) => Some(&sema.write),
            Instruction::Branch(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(word: u64) -> Instruction {
        let instr = Instruction::decode(word).unwrap_or_else(|e| panic!("{word:#018x}: {e}"));
        assert_eq!(instr.encode(), word, "{instr:?}");
        instr
    }

    #[test]
    fn canonical_nop_encodes_as_the_guide_nop() {
        // sig=1 (no signal), all conditions never, waddrs and raddrs 39: 0x100009e7_009e7000.
        assert_eq!(Instruction::NOP.encode(), 0x1000_09e7_009e_7000);
        assert_eq!(roundtrip(0x1000_09e7_009e_7000), Instruction::NOP);
    }

    #[test]
    fn fields_land_where_the_guide_puts_them() {
        // ldi ra1, 0x1234 from the seed program: sig 14, cond_add always, waddr_add 1,
        // waddr_mul 39, immediate in the low word.
        let Instruction::LoadImm(ldi) = roundtrip(0xe002_0067_0000_1234) else {
            panic!()
        };
        assert_eq!(ldi.imm, 0x1234);
        assert_eq!(ldi.write.cond_add, Cond::Always);
        assert_eq!(ldi.write.waddr_add.index(), 1);
        assert_eq!(ldi.write.waddr_mul, RegAddr::NOP);
        // add vpm, ra1, unif: op_add 12, raddr_a 1, raddr_b 32, add_a = A, add_b = B.
        let Instruction::Alu(alu) = roundtrip(0x1002_0c27_0c06_0dc0) else {
            panic!()
        };
        assert_eq!(alu.op_add, AddOp::Add);
        assert_eq!(alu.raddr_a.index(), 1);
        assert_eq!(alu.raddr_b().unwrap().index(), 32);
        assert_eq!((alu.add_a, alu.add_b), (InputMux::A, InputMux::B));
        assert_eq!(alu.write.waddr_add.index(), 48);
    }

    #[test]
    fn semaphore_and_branch_forms() {
        let Instruction::Semaphore(sema) = roundtrip(0xe800_09e7_0000_0013) else {
            panic!()
        };
        assert!(sema.acquire);
        assert_eq!(sema.semaphore.index(), 3);
        let Instruction::Branch(br) = roundtrip(0xf038_0667_ffff_ffc0) else {
            panic!()
        };
        assert_eq!(br.cond, BranchCond::AnyZeroClear);
        assert!(br.relative);
        assert_eq!(br.imm, -64);
        assert_eq!(br.waddr_add.index(), 25);
        // Don't-care bits survive.
        roundtrip(0xfff8_09e7_0000_0000);
        roundtrip(0xe800_09e7_ffff_ffe3);
    }

    #[test]
    fn reserved_encodings_name_the_field() {
        let reserved_add = 0x1000_09e7_099e_7000; // op_add 9
        assert_eq!(
            Instruction::decode(reserved_add),
            Err(DecodeError::Reserved {
                field: "op_add",
                value: 9
            })
        );
        let reserved_branch = 0xf0c0_09e7_0000_0000; // cond_br 12
        assert_eq!(
            Instruction::decode(reserved_branch),
            Err(DecodeError::Reserved {
                field: "branch condition",
                value: 12
            })
        );
        let reserved_ldi = 0xe400_09e7_0000_0000; // ldi mode 2
        assert!(Instruction::decode(reserved_ldi).is_err());
    }
}
