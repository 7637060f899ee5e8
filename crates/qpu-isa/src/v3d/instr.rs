//! V3D instructions and their 64-bit encoding.
//!
//! ALU word (both versions; Mesa `qpu_pack.c` field masks, py-videocore6
//! `Instruction.__int__`):
//!
//! | bits | field |
//! |---|---|
//! | 63:58 | `op_mul` (non-zero in every ALU word) |
//! | 57:53 | `sig`: index into the version's signal table |
//! | 52:46 | `cond`: flags and conditions, or the signal's write address |
//! | 45 / 44 | `mm` / `ma`: the mul / add destination is magic |
//! | 43:38 / 37:32 | `waddr_m` / `waddr_a` |
//! | 31:24 | `op_add` |
//! | 23:0 | 4.2: `mul_b` 23:21, `mul_a` 20:18, `add_b` 17:15, `add_a` 14:12 (3-bit muxes), `raddr_a` 11:6, `raddr_b` 5:0 |
//! | 23:0 | 7.1: `raddr_c` 23:18 (mul a), `raddr_d` 17:12 (mul b), `raddr_a` 11:6 (add a), `raddr_b` 5:0 (add b) |
//!
//! Branch word (`op_mul` = 0 and bits 57:56 = `10`): offset bits 23:3 in 55:35, condition
//! 34:32, offset bits 31:24 in 31:24, set-link 23 (py-videocore7 `Branch.pack`; Mesa leaves
//! the bit unnamed and zero), `msfign` 22:21, `bdu` 17:15, `ub` 14, `bdi` 13:12, `raddr_a`
//! 11:6. Bits 20:18 and 5:0 have no documented meaning; we require them to be zero (a word
//! with them set is an error naming them) rather than carry unknown bits.

use super::fields::*;
use super::ops::{self, AddOp, FloatMods, FloatPack, MulOp};
use super::{DecodeError, EncodeError, V3dVersion};

fn bits(word: u64, shift: u32, width: u32) -> u8 {
    ((word >> shift) & ((1u64 << width) - 1)) as u8
}

/// The operand fields (bits 23:0), per version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inputs {
    /// 4.2: four muxes and two register-file read ports.
    V42 {
        /// Add ALU input a.
        add_a: Mux,
        /// Add ALU input b (or the op selector for ops with fewer than two inputs).
        add_b: Mux,
        /// Mul ALU input a.
        mul_a: Mux,
        /// Mul ALU input b (or the op selector).
        mul_b: Mux,
        /// Port A read address.
        raddr_a: u8,
        /// Port B read address, or a small-immediate index.
        raddr_b: u8,
    },
    /// 7.1: one read address per ALU input.
    V71 {
        /// Add ALU input a.
        raddr_a: u8,
        /// Add ALU input b (or the op selector).
        raddr_b: u8,
        /// Mul ALU input a.
        raddr_c: u8,
        /// Mul ALU input b (or the op selector).
        raddr_d: u8,
    },
}

impl Inputs {
    /// The version these fields belong to.
    pub fn version(&self) -> V3dVersion {
        match self {
            Inputs::V42 { .. } => V3dVersion::V42,
            Inputs::V71 { .. } => V3dVersion::V71,
        }
    }

    fn decode(version: V3dVersion, w: u64) -> Inputs {
        match version {
            V3dVersion::V42 => Inputs::V42 {
                mul_b: Mux::from_code(bits(w, 21, 3)),
                mul_a: Mux::from_code(bits(w, 18, 3)),
                add_b: Mux::from_code(bits(w, 15, 3)),
                add_a: Mux::from_code(bits(w, 12, 3)),
                raddr_a: bits(w, 6, 6),
                raddr_b: bits(w, 0, 6),
            },
            V3dVersion::V71 => Inputs::V71 {
                raddr_c: bits(w, 18, 6),
                raddr_d: bits(w, 12, 6),
                raddr_a: bits(w, 6, 6),
                raddr_b: bits(w, 0, 6),
            },
        }
    }

    fn encode(&self) -> Result<u64, EncodeError> {
        let six = |field: &'static str, v: u8| {
            if v < 64 {
                Ok(u64::from(v))
            } else {
                Err(EncodeError::FieldRange {
                    field,
                    value: u32::from(v),
                })
            }
        };
        let mux = |field: &'static str, m: Mux| match m {
            Mux::Acc(n) if n > 5 => Err(EncodeError::FieldRange {
                field,
                value: u32::from(n),
            }),
            m => Ok(u64::from(m.code())),
        };
        Ok(match *self {
            Inputs::V42 {
                add_a,
                add_b,
                mul_a,
                mul_b,
                raddr_a,
                raddr_b,
            } => {
                mux("mul_b", mul_b)? << 21
                    | mux("mul_a", mul_a)? << 18
                    | mux("add_b", add_b)? << 15
                    | mux("add_a", add_a)? << 12
                    | six("raddr_a", raddr_a)? << 6
                    | six("raddr_b", raddr_b)?
            }
            Inputs::V71 {
                raddr_a,
                raddr_b,
                raddr_c,
                raddr_d,
            } => {
                six("raddr_c", raddr_c)? << 18
                    | six("raddr_d", raddr_d)? << 12
                    | six("raddr_a", raddr_a)? << 6
                    | six("raddr_b", raddr_b)?
            }
        })
    }
}

/// The meaning of the 7-bit cond field: flags, or the write address of a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CondField {
    /// Pushes, updates and write conditions.
    Flags(Flags),
    /// The destination of the signal that writes a register (ldtmu, ldunifrf, …).
    SigAddr(Waddr),
}

/// One ALU's operation and destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Alu<K> {
    /// The operation.
    pub op: K,
    /// Which of the operation's encodings (0 for most ops; see [`super::ops`]).
    pub variant: u8,
    /// Destination.
    pub waddr: Waddr,
}

/// An ALU instruction: add and mul operations issued together, signals and flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AluInstruction {
    /// Signals.
    pub signals: Signals,
    /// Flags or the signal's destination.
    pub cond: CondField,
    /// Add ALU.
    pub add: Alu<AddOp>,
    /// Mul ALU.
    pub mul: Alu<MulOp>,
    /// Operand fields (their variant fixes the version).
    pub inputs: Inputs,
}

/// A branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Branch {
    /// Condition.
    pub cond: BranchCond,
    /// Multisample-flag handling (0 none, 1 per pixel, 2 per quad; 0 for compute).
    pub msfign: u8,
    /// How the new address is computed.
    pub bdi: BranchDest,
    /// Whether the uniform stream branches too.
    pub ub: bool,
    /// How the new uniform pointer is computed (3-bit field, kept even when `ub` is clear:
    /// py-videocore6 writes 1 there while Mesa writes 0).
    pub bdu: u8,
    /// Register read for register-file targets (kept for every `bdi`).
    pub raddr_a: u8,
    /// Byte offset or address (bits 2:0 zero). Relative offsets count from the instruction
    /// four after the branch.
    pub offset: u32,
    /// Bit 23: also write the return address to the link register (py-videocore7's
    /// `set_link`; read back by a `lri` branch or the `lr` op).
    pub link: bool,
}

/// A V3D instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    /// Add + mul ALU instruction.
    Alu(AluInstruction),
    /// Branch.
    Branch(Branch),
}

/// Where one ALU input's value comes from, with the version's multiplexing resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputSource {
    /// Accumulator r0–r5 (4.2 only).
    Acc(u8),
    /// A register-file register.
    Rf(u8),
    /// A small immediate: the index into the small-immediate table.
    SmallImm(u8),
}

impl AluInstruction {
    /// The source of ALU input `n` (0 add a, 1 add b, 2 mul a, 3 mul b). On 4.2 the input's
    /// mux picks an accumulator or a read port, and port B carries the small immediate when
    /// the `small_imm_b` signal is set (so does a `rot` amount, which this does not look
    /// at); on 7.1 each input has its own read address and small-immediate signal.
    pub fn input(&self, n: usize) -> InputSource {
        let sigs = self.signals;
        match self.inputs {
            Inputs::V42 {
                add_a,
                add_b,
                mul_a,
                mul_b,
                raddr_a,
                raddr_b,
            } => match [add_a, add_b, mul_a, mul_b][n] {
                Mux::Acc(r) => InputSource::Acc(r),
                Mux::A => InputSource::Rf(raddr_a),
                Mux::B if sigs.contains(Signal::SmallImmB) => InputSource::SmallImm(raddr_b),
                Mux::B => InputSource::Rf(raddr_b),
            },
            Inputs::V71 {
                raddr_a,
                raddr_b,
                raddr_c,
                raddr_d,
            } => {
                let (raddr, sig) = [
                    (raddr_a, Signal::SmallImmA),
                    (raddr_b, Signal::SmallImmB),
                    (raddr_c, Signal::SmallImmC),
                    (raddr_d, Signal::SmallImmD),
                ][n];
                if sigs.contains(sig) {
                    InputSource::SmallImm(raddr)
                } else {
                    InputSource::Rf(raddr)
                }
            }
        }
    }

    /// The canonical no-op for `version`: both ALUs `nop` to the magic `nop` address, no
    /// signal, no flags (Mesa and py-videocore6 produce the same word).
    pub fn nop(version: V3dVersion) -> AluInstruction {
        let inputs = match version {
            V3dVersion::V42 => Inputs::V42 {
                add_a: Mux::Acc(0),
                add_b: Mux::Acc(0),
                mul_a: Mux::Acc(0),
                mul_b: Mux::Acc(4),
                raddr_a: 0,
                raddr_b: 0,
            },
            V3dVersion::V71 => Inputs::V71 {
                raddr_a: 0,
                raddr_b: 0,
                raddr_c: 0,
                raddr_d: 63,
            },
        };
        AluInstruction {
            signals: Signals::NONE,
            cond: CondField::Flags(Flags::default()),
            add: Alu {
                op: AddOp::Nop,
                variant: 0,
                waddr: Waddr::NOP,
            },
            mul: Alu {
                op: MulOp::Nop,
                variant: 0,
                waddr: Waddr::NOP,
            },
            inputs,
        }
    }

    /// The flags, if the cond field holds flags.
    pub fn flags(&self) -> Flags {
        match self.cond {
            CondField::Flags(f) => f,
            CondField::SigAddr(_) => Flags::default(),
        }
    }

    /// Number of inputs the add op reads.
    pub fn add_arity(&self) -> u8 {
        arity_add(self.inputs.version(), self.add)
    }

    /// Number of inputs the mul op reads.
    pub fn mul_arity(&self) -> u8 {
        arity_mul(self.inputs.version(), self.mul)
    }

    /// The float pack/unpacks of the add op, for ops with the regular float layout.
    pub fn add_float_mods(&self) -> Option<FloatMods> {
        let op = self.add.op;
        if !ops::add_float_layout(op) {
            return None;
        }
        let (opcode, _, _) = add_encoding(self.inputs.version(), self.add)?;
        Some(ops::float_mods(opcode, 0, op != AddOp::Vfpack))
    }

    /// The output pack and input-a unpack name ("" = none) of an add op with named
    /// modifiers (vfmin/vfmax, the rounding and conversion ops, 7.1 mov/fmov; see `ops`).
    pub fn add_named_modifiers(&self) -> Option<(FloatPack, &'static str)> {
        let version = self.inputs.version();
        let (pack, unpack) = ops::add_scheme(version, self.add.op)?.split(self.add.variant)?;
        Some((pack_of(pack), unpack))
    }

    /// The same for the mul op (vfmul, the 4.2 fmov, the 7.1 mov).
    pub fn mul_named_modifiers(&self) -> Option<(FloatPack, &'static str)> {
        let version = self.inputs.version();
        let (pack, unpack) = ops::mul_scheme(version, self.mul.op)?.split(self.mul.variant)?;
        Some((pack_of(pack), unpack))
    }

    /// The float pack/unpacks of the mul op (`fmul` only).
    pub fn mul_float_mods(&self) -> Option<FloatMods> {
        if self.mul.op != MulOp::Fmul {
            return None;
        }
        let (opcode, _, _) =
            ops::mul_encoding(self.inputs.version(), MulOp::Fmul, self.mul.variant)?;
        Some(ops::float_mods(opcode, 1, true))
    }
}

fn pack_of(code: u8) -> FloatPack {
    match code {
        1 => FloatPack::L,
        2 => FloatPack::H,
        _ => FloatPack::None,
    }
}

/// The table kind that encodes `op`: faddnf shares fadd's rows, fmax shares fmin's.
fn add_table_kind(op: AddOp) -> AddOp {
    match op {
        AddOp::Faddnf => AddOp::Fadd,
        AddOp::Fmax => AddOp::Fmin,
        op => op,
    }
}

fn add_encoding(version: V3dVersion, alu: Alu<AddOp>) -> Option<(u8, u8, Option<u8>)> {
    ops::add_encoding(version, add_table_kind(alu.op), alu.variant)
}

fn arity_add(version: V3dVersion, alu: Alu<AddOp>) -> u8 {
    add_encoding(version, alu).map_or(0, |(_, a, _)| a)
}

fn arity_mul(version: V3dVersion, alu: Alu<MulOp>) -> u8 {
    ops::mul_encoding(version, alu.op, alu.variant).map_or(0, |(_, a, _)| a)
}

/// Whether fadd/fmin must be read as faddnf/fmax: input a's (unpack, source) encoding
/// compares greater than b's (Mesa `v3d42_qpu_add_unpack` / `v3d71_qpu_add_unpack`; the
/// 7.1 comparison also weighs the small-immediate signals). py-videocore6 and -7 compare the
/// same way when no small immediate is involved; py-videocore7 leaves the small-immediate
/// signals out of the 7.1 comparison, so for an fadd/fmin with one literal input the two
/// sources can pick different orders. No hardware result settles it; we follow Mesa.
fn operands_swapped(opcode: u8, signals: Signals, inputs: &Inputs) -> bool {
    let ua = u32::from((opcode >> 2) & 3);
    let ub = u32::from(opcode & 3);
    match *inputs {
        Inputs::V42 { add_a, add_b, .. } => {
            ua * 8 + u32::from(add_a.code()) > ub * 8 + u32::from(add_b.code())
        }
        Inputs::V71 {
            raddr_a, raddr_b, ..
        } => {
            let ia = u32::from(signals.contains(Signal::SmallImmA));
            let ib = u32::from(signals.contains(Signal::SmallImmB));
            ia * 256 + ua * 64 + u32::from(raddr_a) > ib * 256 + ub * 64 + u32::from(raddr_b)
        }
    }
}

/// The selectors a lookup needs: for arity 1 the b input field, for arity 0 (4.2) b·8 + a.
fn add_selector(inputs: &Inputs, arity: u8) -> u8 {
    match *inputs {
        Inputs::V42 { add_a, add_b, .. } if arity == 0 => add_b.code() * 8 + add_a.code(),
        Inputs::V42 { add_b, .. } => add_b.code(),
        Inputs::V71 { raddr_b, .. } => raddr_b,
    }
}

fn mul_selector(inputs: &Inputs, arity: u8) -> u8 {
    match *inputs {
        Inputs::V42 { mul_a, mul_b, .. } if arity == 0 => mul_b.code() * 8 + mul_a.code(),
        Inputs::V42 { mul_b, .. } => mul_b.code(),
        Inputs::V71 { raddr_d, .. } => raddr_d,
    }
}

/// Writes the selector of an op with fewer than two inputs into the input fields.
fn set_add_selector(inputs: &mut Inputs, arity: u8, sel: u8) {
    match inputs {
        Inputs::V42 { add_a, add_b, .. } => {
            *add_b = Mux::from_code(if arity == 0 { sel >> 3 } else { sel });
            if arity == 0 {
                *add_a = Mux::from_code(sel & 7);
            }
        }
        Inputs::V71 { raddr_b, .. } => *raddr_b = sel,
    }
}

fn set_mul_selector(inputs: &mut Inputs, arity: u8, sel: u8) {
    match inputs {
        Inputs::V42 { mul_a, mul_b, .. } => {
            *mul_b = Mux::from_code(if arity == 0 { sel >> 3 } else { sel });
            if arity == 0 {
                *mul_a = Mux::from_code(sel & 7);
            }
        }
        Inputs::V71 { raddr_d, .. } => *raddr_d = sel,
    }
}

/// The small-immediate signals and the read address each one claims.
fn small_imm_fields(signals: Signals, inputs: &Inputs) -> Vec<(&'static str, u8)> {
    let mut out = Vec::new();
    match *inputs {
        Inputs::V42 { raddr_b, .. } => {
            if signals.contains(Signal::SmallImmB) {
                out.push(("raddr_b (small immediate)", raddr_b));
            }
        }
        Inputs::V71 {
            raddr_a,
            raddr_b,
            raddr_c,
            raddr_d,
        } => {
            for (sig, field, v) in [
                (Signal::SmallImmA, "raddr_a (small immediate)", raddr_a),
                (Signal::SmallImmB, "raddr_b (small immediate)", raddr_b),
                (Signal::SmallImmC, "raddr_c (small immediate)", raddr_c),
                (Signal::SmallImmD, "raddr_d (small immediate)", raddr_d),
            ] {
                if signals.contains(sig) {
                    out.push((field, v));
                }
            }
        }
    }
    out
}

impl Instruction {
    /// Decodes a word. Never panics; a word that is not an instruction of `version` is an
    /// error naming the field at fault.
    pub fn decode(version: V3dVersion, word: u64) -> Result<Instruction, DecodeError> {
        if bits(word, 58, 6) != 0 {
            return decode_alu(version, word).map(Instruction::Alu);
        }
        let sig = bits(word, 53, 5);
        if sig & 0b11000 == 0b10000 {
            return decode_branch(word).map(Instruction::Branch);
        }
        Err(DecodeError::Reserved {
            field: "op_mul = 0 without branch bits 57:56 = 10",
            value: u32::from(sig),
        })
    }

    /// Encodes for `version`. Errors name what cannot be expressed.
    pub fn encode(&self, version: V3dVersion) -> Result<u64, EncodeError> {
        match self {
            Instruction::Alu(alu) => encode_alu(version, alu),
            Instruction::Branch(br) => encode_branch(br),
        }
    }
}

fn decode_alu(version: V3dVersion, w: u64) -> Result<AluInstruction, DecodeError> {
    let sig_code = bits(w, 53, 5);
    let signals = Signals::decode(version, sig_code).ok_or(DecodeError::Reserved {
        field: "sig",
        value: u32::from(sig_code),
    })?;
    let cond_bits = bits(w, 46, 7);
    let cond = if signals.writes_address() {
        CondField::SigAddr(Waddr::from_sig_bits(cond_bits))
    } else {
        CondField::Flags(Flags::decode(cond_bits)?)
    };
    let inputs = Inputs::decode(version, w);
    for (field, v) in small_imm_fields(signals, &inputs) {
        if v >= 48 {
            return Err(DecodeError::Reserved {
                field,
                value: u32::from(v),
            });
        }
    }

    let op_add = bits(w, 24, 8);
    let found = ops::lookup(ops::add_rows(version), op_add, |ar| {
        add_selector(&inputs, ar)
    })
    .ok_or(DecodeError::UnknownOp {
        alu: "add",
        opcode: op_add,
        selector: add_selector(&inputs, 1),
    })?;
    let mut add_op = found.kind;
    if operands_swapped(op_add, signals, &inputs) {
        add_op = match add_op {
            AddOp::Fadd => AddOp::Faddnf,
            AddOp::Fmin => AddOp::Fmax,
            op => op,
        };
    }
    let waddr_a = Waddr::from_sig_bits(bits(w, 44, 1) << 6 | bits(w, 32, 6));
    if add_op == AddOp::Stvpm && waddr_a.index() > 2 {
        // Mesa: the destination field selects stvpmv/stvpmd/stvpmp (0–2).
        return Err(DecodeError::Reserved {
            field: "waddr_a (stvpm)",
            value: u32::from(waddr_a.index()),
        });
    }

    let op_mul = bits(w, 58, 6);
    let mfound = ops::lookup(ops::mul_rows(version), op_mul, |ar| {
        mul_selector(&inputs, ar)
    })
    .ok_or(DecodeError::UnknownOp {
        alu: "mul",
        opcode: op_mul,
        selector: mul_selector(&inputs, 1),
    })?;
    let waddr_m = Waddr::from_sig_bits(bits(w, 45, 1) << 6 | bits(w, 38, 6));

    Ok(AluInstruction {
        signals,
        cond,
        add: Alu {
            op: add_op,
            variant: found.variant,
            waddr: waddr_a,
        },
        mul: Alu {
            op: mfound.kind,
            variant: mfound.variant,
            waddr: waddr_m,
        },
        inputs,
    })
}

fn encode_alu(version: V3dVersion, alu: &AluInstruction) -> Result<u64, EncodeError> {
    if alu.inputs.version() != version {
        return Err(EncodeError::VersionMismatch);
    }
    let sig = alu
        .signals
        .encode(version)
        .ok_or(EncodeError::Signals(alu.signals))?;
    let cond = match (alu.cond, alu.signals.writes_address()) {
        (CondField::SigAddr(w), true) => w.to_sig_bits(),
        (CondField::Flags(f), false) => f.encode()?,
        (CondField::SigAddr(_), false) => return Err(EncodeError::CondKind),
        (CondField::Flags(_), true) => return Err(EncodeError::CondKind),
    };

    let mut inputs = alu.inputs;
    let (op_add, add_arity, add_sel) =
        add_encoding(version, alu.add).ok_or_else(|| EncodeError::NoSuchVariant {
            op: format!("{:?}", alu.add.op),
            variant: alu.add.variant,
        })?;
    if let Some(s) = add_sel {
        set_add_selector(&mut inputs, add_arity, s);
    }
    let (op_mul, mul_arity, mul_sel) = ops::mul_encoding(version, alu.mul.op, alu.mul.variant)
        .ok_or_else(|| EncodeError::NoSuchVariant {
            op: format!("{:?}", alu.mul.op),
            variant: alu.mul.variant,
        })?;
    if let Some(s) = mul_sel {
        set_mul_selector(&mut inputs, mul_arity, s);
    }
    if matches!(
        alu.add.op,
        AddOp::Fadd | AddOp::Faddnf | AddOp::Fmin | AddOp::Fmax
    ) {
        let swapped = operands_swapped(op_add, alu.signals, &inputs);
        let wants = matches!(alu.add.op, AddOp::Faddnf | AddOp::Fmax);
        if swapped != wants {
            return Err(EncodeError::OperandOrder(alu.add.op));
        }
    }
    if alu.add.op == AddOp::Stvpm && alu.add.waddr.index() > 2 {
        return Err(EncodeError::FieldRange {
            field: "waddr_a (stvpm)",
            value: u32::from(alu.add.waddr.index()),
        });
    }
    for (field, v) in small_imm_fields(alu.signals, &inputs) {
        if v >= 48 {
            return Err(EncodeError::FieldRange {
                field,
                value: u32::from(v),
            });
        }
    }
    Ok(u64::from(op_mul) << 58
        | u64::from(sig) << 53
        | u64::from(cond) << 46
        | u64::from(alu.mul.waddr.is_magic()) << 45
        | u64::from(alu.add.waddr.is_magic()) << 44
        | u64::from(alu.mul.waddr.index()) << 38
        | u64::from(alu.add.waddr.index()) << 32
        | u64::from(op_add) << 24
        | inputs.encode()?)
}

fn decode_branch(w: u64) -> Result<Branch, DecodeError> {
    for (field, shift, width) in [("branch bits 20:18", 18, 3), ("branch bits 5:0", 0, 6)] {
        let v = bits(w, shift, width);
        if v != 0 {
            return Err(DecodeError::Reserved {
                field,
                value: u32::from(v),
            });
        }
    }
    let msfign = bits(w, 21, 2);
    if msfign == 3 {
        return Err(DecodeError::Reserved {
            field: "branch msfign",
            value: 3,
        });
    }
    let low = ((w >> 35) & ((1 << 21) - 1)) as u32;
    let high = u32::from(bits(w, 24, 8));
    Ok(Branch {
        cond: BranchCond::from_code(bits(w, 32, 3))?,
        msfign,
        bdi: BranchDest::ALL[usize::from(bits(w, 12, 2))],
        ub: bits(w, 14, 1) == 1,
        bdu: bits(w, 15, 3),
        raddr_a: bits(w, 6, 6),
        offset: (high << 24) | (low << 3),
        link: bits(w, 23, 1) == 1,
    })
}

fn encode_branch(b: &Branch) -> Result<u64, EncodeError> {
    let range = |field: &'static str, v: u32, limit: u32| {
        if v < limit {
            Ok(u64::from(v))
        } else {
            Err(EncodeError::FieldRange { field, value: v })
        }
    };
    if b.offset & 7 != 0 {
        return Err(EncodeError::FieldRange {
            field: "branch offset (must be a multiple of 8)",
            value: b.offset,
        });
    }
    let low = u64::from((b.offset >> 3) & ((1 << 21) - 1));
    let high = u64::from(b.offset >> 24);
    Ok(0b10u64 << 56
        | low << 35
        | u64::from(b.cond.code()) << 32
        | high << 24
        | u64::from(b.link) << 23
        | range("branch msfign", u32::from(b.msfign), 3)? << 21
        | range("branch bdu", u32::from(b.bdu), 8)? << 15
        | u64::from(b.ub) << 14
        | (b.bdi as u64) << 12
        | range("branch raddr_a", u32::from(b.raddr_a), 64)? << 6)
}
