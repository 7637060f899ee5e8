//! Building ALU instructions from typed operations: the one place that routes operands to
//! the version's input fields (4.2: accumulators through the muxes, register-file registers
//! through the two read ports, a small immediate on port B; 7.1: one read address per input,
//! each with its own small-immediate signal), adds the small-immediate signal a literal
//! needs and orders the inputs of `fadd`/`faddnf`/`fmin`/`fmax`, whose encodings differ only
//! in that order.
//!
//! The assembler ([`super::assemble`]) and the V3D compiler both build instructions here,
//! so text and compiled code cannot disagree on a placement rule.

use super::asm::OpKind;
use super::fields::*;
use super::instr::*;
use super::ops::{AddOp, FloatPack, FloatUnpack, MulOp};
use super::{EncodeError, V3dVersion};

/// One ALU's operation before its inputs are routed to the input fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operation<K> {
    /// The operation.
    pub op: K,
    /// Which of its encodings ([`plain_add_variant`] for an op without modifiers).
    pub variant: u8,
    /// Destination.
    pub waddr: Waddr,
    /// Its inputs, in operand order (as many as the encoding takes).
    pub inputs: [InputSource; 2],
    /// How many of `inputs` are used.
    pub arity: u8,
    /// The pack and unpacks of a float-layout op ([`super::FloatMods`]; all `None` for
    /// others): needed to re-encode the op with its inputs swapped.
    pub pack: FloatPack,
    /// Input a's unpack (float-layout ops).
    pub unpack_a: FloatUnpack,
    /// Input b's unpack (float-layout ops).
    pub unpack_b: FloatUnpack,
}

impl<K> Operation<K> {
    /// An operation with no pack or unpack.
    pub fn plain(op: K, variant: u8, waddr: Waddr, inputs: &[InputSource]) -> Operation<K> {
        let mut srcs = [InputSource::Acc(0); 2];
        for (slot, s) in srcs.iter_mut().zip(inputs) {
            *slot = *s;
        }
        Operation {
            op,
            variant,
            waddr,
            inputs: srcs,
            arity: inputs.len().min(2) as u8,
            pack: FloatPack::None,
            unpack_a: FloatUnpack::None,
            unpack_b: FloatUnpack::None,
        }
    }

    fn used(&self) -> &[InputSource] {
        &self.inputs[..usize::from(self.arity.min(2))]
    }
}

/// Why operands cannot be routed into one instruction; `input` counts the add ALU's inputs
/// 0 and 1, the mul ALU's 2 and 3.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// 4.2: a third register-file register (or a second one beside a small immediate or a
    /// rot amount).
    #[error("V3D 4.2 reads at most two register-file registers (or one and a small immediate or a rot amount)")]
    Ports {
        /// The input that found no port.
        input: usize,
    },
    /// A second, different small immediate (or, on 4.2, one beside a rot amount).
    #[error(
        "one small immediate per instruction, and it takes register port B (as does a rot amount)"
    )]
    SmallImmediates {
        /// The input that found no room.
        input: usize,
    },
    /// 7.1 has no accumulators.
    #[error("V3D 7.1 has no accumulators")]
    NoAccumulators {
        /// The input naming one.
        input: usize,
    },
    /// 7.1 has no rot signal.
    #[error("V3D 7.1 has no rot signal")]
    NoRot,
    /// A signal writing a register leaves the cond field no room for flags.
    #[error("a signal that writes a register leaves no room for flags or conditions")]
    SignalWithFlags,
    /// The word does not encode (operand order in both orders, a field out of range…).
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The encoded word does not decode to an ALU instruction (an encoder defect, reported
    /// rather than hidden).
    #[error("the encoded word does not decode: {0}")]
    Decode(String),
}

/// The encoding of `op` without pack or unpack on `version`, if the version has the op.
pub fn plain_add_variant(version: V3dVersion, op: AddOp) -> Option<u8> {
    plain_variant(version, op)
}

/// The same for a mul op.
pub fn plain_mul_variant(version: V3dVersion, op: MulOp) -> Option<u8> {
    plain_variant(version, op)
}

fn plain_variant<K: OpKind>(v: V3dVersion, op: K) -> Option<u8> {
    if op.variants(v) == 0 {
        return None;
    }
    if op.float_layout() {
        op.float_variant(v, FloatPack::None, FloatUnpack::None, FloatUnpack::None)
    } else if let Some(scheme) = op.scheme(v) {
        scheme.join(0, "")
    } else {
        Some(0)
    }
}

/// The number of inputs of `op`'s encoding `variant` on `version` (0 if it has none).
pub fn add_inputs(version: V3dVersion, op: AddOp, variant: u8) -> u8 {
    op.arity(version, variant)
}

/// The same for a mul op.
pub fn mul_inputs(version: V3dVersion, op: MulOp, variant: u8) -> u8 {
    op.arity(version, variant)
}

/// What goes into one ALU instruction besides the two operations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// Signals other than the small-immediate ones (those follow from the inputs).
    pub signals: Signals,
    /// The destination of the signal that writes a register.
    pub sig_addr: Option<Waddr>,
    /// Conditions, pushes and updates.
    pub flags: Flags,
    /// 4.2 `rot` amount: `raddr_b`, a small-immediate index or 0 for "by r5". The signal
    /// itself must be in `signals`.
    pub rot: Option<u8>,
}

/// Builds the instruction: routes the inputs (4.2: the first register-file register to
/// port A, the next to port B; a small immediate to port B with its signal), and if the
/// add op is `fadd`/`faddnf`/`fmin`/`fmax` and the inputs land in the order that selects
/// the other encoding, swaps them (and their unpacks), as Mesa's packer and py-videocore7's
/// assembler do. The result is the decoded form of the word, exactly what
/// [`super::decode`] gives for it.
pub fn alu(
    version: V3dVersion,
    add: Option<&Operation<AddOp>>,
    mul: Option<&Operation<MulOp>>,
    extras: Extras,
) -> Result<AluInstruction, BuildError> {
    let nop = AluInstruction::nop(version);
    let cond = match extras.sig_addr {
        Some(w) if extras.flags.is_empty() => CondField::SigAddr(w),
        Some(_) => return Err(BuildError::SignalWithFlags),
        None => CondField::Flags(extras.flags),
    };
    let add_in = add.map_or(&[][..], Operation::used);
    let mul_in = mul.map_or(&[][..], Operation::used);
    let (inputs, signals) = place(version, add_in, mul_in, extras.signals, extras.rot)?;
    let alu = AluInstruction {
        signals,
        cond,
        add: add.map_or(nop.add, |o| Alu {
            op: o.op,
            variant: o.variant,
            waddr: o.waddr,
        }),
        mul: mul.map_or(nop.mul, |o| Alu {
            op: o.op,
            variant: o.variant,
            waddr: o.waddr,
        }),
        inputs,
    };
    let mut instr = Instruction::Alu(alu);
    let mut encoded = instr.encode(version);
    if let (Err(EncodeError::OperandOrder(_)), Some(a)) = (&encoded, add) {
        if let (Some(variant), [x, y]) = (
            a.op.float_variant(version, a.pack, a.unpack_b, a.unpack_a),
            add_in,
        ) {
            let (inputs, signals) = place(version, &[*y, *x], mul_in, extras.signals, extras.rot)?;
            let mut swapped = alu;
            swapped.add.variant = variant;
            swapped.inputs = inputs;
            swapped.signals = signals;
            instr = Instruction::Alu(swapped);
            encoded = instr.encode(version);
        }
    }
    let word = encoded?;
    match super::decode(version, word) {
        Ok(Instruction::Alu(a)) => Ok(a),
        Ok(Instruction::Branch(_)) => Err(BuildError::Decode(format!(
            "{word:#018x} decodes as a branch"
        ))),
        Err(e) => Err(BuildError::Decode(e.to_string())),
    }
}

/// Puts the inputs into the input fields, adding the small-immediate signal a literal needs.
fn place(
    v: V3dVersion,
    add_srcs: &[InputSource],
    mul_srcs: &[InputSource],
    mut signals: Signals,
    rot: Option<u8>,
) -> Result<(Inputs, Signals), BuildError> {
    let all = add_srcs
        .iter()
        .enumerate()
        .map(|(i, s)| (i, *s))
        .chain(mul_srcs.iter().enumerate().map(|(i, s)| (i + 2, *s)));
    match v {
        V3dVersion::V42 => {
            /// What port B carries.
            #[derive(Clone, Copy, PartialEq)]
            enum PortB {
                Rf(u8),
                Imm(u8),
                Rot(u8),
            }
            let mut port_a: Option<u8> = None;
            let mut port_b: Option<PortB> = rot.map(PortB::Rot);
            let mut muxes = [Mux::Acc(0); 4];
            for (input, src) in all {
                muxes[input] = match src {
                    InputSource::Acc(n) => Mux::Acc(n),
                    InputSource::Rf(r) if port_a.is_none() || port_a == Some(r) => {
                        port_a = Some(r);
                        Mux::A
                    }
                    InputSource::Rf(r) => match port_b {
                        None => {
                            port_b = Some(PortB::Rf(r));
                            Mux::B
                        }
                        Some(PortB::Rf(b)) if b == r => Mux::B,
                        _ => return Err(BuildError::Ports { input }),
                    },
                    InputSource::SmallImm(i) => match port_b {
                        None => {
                            port_b = Some(PortB::Imm(i));
                            Mux::B
                        }
                        Some(PortB::Imm(j)) if i == j => Mux::B,
                        _ => return Err(BuildError::SmallImmediates { input }),
                    },
                };
            }
            let raddr_b = match port_b {
                Some(PortB::Rf(r) | PortB::Rot(r)) => r,
                Some(PortB::Imm(i)) => {
                    signals = signals.with(Signal::SmallImmB);
                    i
                }
                None => 0,
            };
            Ok((
                Inputs::V42 {
                    add_a: muxes[0],
                    add_b: muxes[1],
                    mul_a: muxes[2],
                    mul_b: muxes[3],
                    raddr_a: port_a.unwrap_or(0),
                    raddr_b,
                },
                signals,
            ))
        }
        V3dVersion::V71 => {
            if rot.is_some() {
                return Err(BuildError::NoRot);
            }
            const SIGNALS: [Signal; 4] = [
                Signal::SmallImmA,
                Signal::SmallImmB,
                Signal::SmallImmC,
                Signal::SmallImmD,
            ];
            let mut raddr = [0u8; 4];
            let mut imm = false;
            for (input, src) in all {
                raddr[input] = match src {
                    InputSource::Rf(r) => r,
                    InputSource::SmallImm(i) => {
                        if imm {
                            return Err(BuildError::SmallImmediates { input });
                        }
                        imm = true;
                        signals = signals.with(SIGNALS[input]);
                        i
                    }
                    InputSource::Acc(_) => return Err(BuildError::NoAccumulators { input }),
                };
            }
            Ok((
                Inputs::V71 {
                    raddr_a: raddr[0],
                    raddr_b: raddr[1],
                    raddr_c: raddr[2],
                    raddr_d: raddr[3],
                },
                signals,
            ))
        }
    }
}

/// The offset field of a relative branch at instruction `index` to instruction `target`:
/// bytes from the instruction four after the branch (its three delay slots run first), as
/// the assembler writes a branch to a label. `None` when the distance does not fit.
pub fn relative_offset(index: usize, target: usize) -> Option<u32> {
    let delta = (target as i64 - (index as i64 + 4)).checked_mul(8)?;
    i32::try_from(delta).ok().map(|d| d as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(op: AddOp, inputs: &[InputSource]) -> Operation<AddOp> {
        let variant = plain_add_variant(V3dVersion::V42, op).unwrap();
        Operation::plain(op, variant, Waddr::rf(9).unwrap(), inputs)
    }

    /// `fadd` and `faddnf` share an opcode and differ by input order; the builder swaps a
    /// commutative pair into the order its op needs, whichever order it is given. On 4.2
    /// the order is that of the input muxes, and two register-file registers always take
    /// ports A then B: `faddnf`/`fmax` of two of them has no encoding, with an accumulator
    /// it has.
    #[test]
    fn fadd_inputs_are_ordered_for_either_encoding() {
        let cases = |version| -> Vec<[InputSource; 2]> {
            match version {
                V3dVersion::V42 => vec![
                    [InputSource::Rf(5), InputSource::Acc(1)],
                    [InputSource::Acc(1), InputSource::Rf(5)],
                ],
                V3dVersion::V71 => vec![
                    [InputSource::Rf(5), InputSource::Rf(7)],
                    [InputSource::Rf(7), InputSource::Rf(5)],
                ],
            }
        };
        for version in V3dVersion::ALL {
            for pair in cases(version) {
                for kind in [AddOp::Fadd, AddOp::Faddnf, AddOp::Fmin, AddOp::Fmax] {
                    let variant = plain_add_variant(version, kind).unwrap();
                    let o = Operation::plain(kind, variant, Waddr::rf(9).unwrap(), &pair);
                    let built = alu(version, Some(&o), None, Extras::default()).unwrap();
                    assert_eq!(built.add.op, kind, "{version:?} {kind:?} {pair:?}");
                    let mut got = [built.input(0), built.input(1)];
                    let mut want = pair;
                    got.sort_by_key(|s| format!("{s:?}"));
                    want.sort_by_key(|s| format!("{s:?}"));
                    assert_eq!(got, want);
                }
            }
        }
        let two = [InputSource::Rf(5), InputSource::Rf(7)];
        let v = plain_add_variant(V3dVersion::V42, AddOp::Fmax).unwrap();
        let o = Operation::plain(AddOp::Fmax, v, Waddr::rf(9).unwrap(), &two);
        assert_eq!(
            alu(V3dVersion::V42, Some(&o), None, Extras::default()),
            Err(BuildError::Encode(EncodeError::OperandOrder(AddOp::Fmax)))
        );
    }

    #[test]
    fn operands_that_do_not_fit_name_their_input() {
        let three = op(AddOp::Add, &[InputSource::Rf(4), InputSource::Rf(5)]);
        let mut mul = Operation::plain(
            MulOp::Umul24,
            plain_mul_variant(V3dVersion::V42, MulOp::Umul24).unwrap(),
            Waddr::rf(10).unwrap(),
            &[InputSource::Rf(6), InputSource::Rf(4)],
        );
        assert_eq!(
            alu(V3dVersion::V42, Some(&three), Some(&mul), Extras::default()),
            Err(BuildError::Ports { input: 2 })
        );
        mul.inputs = [InputSource::Rf(5), InputSource::Rf(4)];
        assert!(alu(V3dVersion::V42, Some(&three), Some(&mul), Extras::default()).is_ok());
        let imms = op(
            AddOp::Add,
            &[InputSource::SmallImm(1), InputSource::SmallImm(2)],
        );
        assert_eq!(
            alu(V3dVersion::V42, Some(&imms), None, Extras::default()),
            Err(BuildError::SmallImmediates { input: 1 })
        );
        assert_eq!(
            alu(
                V3dVersion::V71,
                Some(&three),
                None,
                Extras {
                    rot: Some(1),
                    ..Extras::default()
                }
            ),
            Err(BuildError::NoRot)
        );
    }

    #[test]
    fn branch_offsets_count_from_four_instructions_on() {
        assert_eq!(relative_offset(10, 14), Some(0));
        assert_eq!(relative_offset(10, 2), Some((-96i32) as u32));
        assert_eq!(relative_offset(0, usize::MAX / 2), None);
    }
}
