//! Emission: bundles of allocated IR entries to qpu-isa instructions.
//!
//! A bundle is what one 64-bit word does: up to one add-ALU and one mul-ALU operation and a
//! signal, or a load immediate, semaphore, branch or thread end. Register addresses of I/O
//! registers come from qpu-isa's typed register map, so the hardware facts stay written
//! once, there.

use qpu_isa::vc4::regs::{ReadReg, TmuReg, WriteReg};
use qpu_isa::vc4::*;

use super::bundle::{Bundle, Unit};
use super::ir::*;

/// Where an I/O register lives for writes: (file, or `None` for both; address), from
/// qpu-isa's register map (guide table 14), so the hardware facts stay written once, there.
fn write_at(reg: WriteReg) -> (Option<RegFile>, RegAddr) {
    reg.address()
        .expect("every I/O register the compiler writes is mapped")
}

/// As [`write_at`], for reads.
fn read_at(reg: ReadReg) -> (Option<RegFile>, RegAddr) {
    reg.address()
        .expect("every I/O register the compiler reads is mapped")
}

/// The register-file space and address a destination needs.
pub fn dest(d: &Dst<Loc>) -> (Option<RegFile>, RegAddr) {
    match d {
        Dst::None => (None, RegAddr::NOP),
        Dst::Reg(Loc::Acc(i)) => write_at(WriteReg::Accumulator(*i)),
        Dst::Reg(Loc::A(i)) => (Some(RegFile::A), RegAddr::new(*i).expect("0-31")),
        Dst::Reg(Loc::B(i)) => (Some(RegFile::B), RegAddr::new(*i).expect("0-31")),
        Dst::Write(w) => write_at(match w {
            IoWrite::TmuS(t) => WriteReg::Tmu(*t, TmuReg::S),
            IoWrite::Vpm => WriteReg::Vpm,
            IoWrite::VwSetup => WriteReg::VpmWriteSetup,
            IoWrite::VwAddr => WriteReg::VdwAddress,
            IoWrite::VrSetup => WriteReg::VpmReadSetup,
            IoWrite::VrAddr => WriteReg::VdrAddress,
            IoWrite::Sfu(f) => WriteReg::Sfu(*f),
            IoWrite::HostInt => WriteReg::HostInterrupt,
            IoWrite::R5Rep => WriteReg::R5Replicate,
            IoWrite::UniformsAddress => WriteReg::UniformsAddress,
        }),
    }
}

/// The read port an operand needs: (file or None for either, address), or None when the
/// operand comes through an accumulator mux or the small immediate.
pub fn source_port(s: &Src<Loc>) -> Option<(Option<RegFile>, RegAddr)> {
    match s {
        Src::Reg(Loc::A(i)) => Some((Some(RegFile::A), RegAddr::new(*i).expect("0-31"))),
        Src::Reg(Loc::B(i)) => Some((Some(RegFile::B), RegAddr::new(*i).expect("0-31"))),
        Src::Read(r) => Some(read_at(match r {
            IoRead::Uniform => ReadReg::Uniform,
            IoRead::ElemNum => ReadReg::ElementNumber,
            IoRead::VwWait => ReadReg::VdwWait,
            IoRead::VrWait => ReadReg::VdrWait,
            IoRead::Vpm => ReadReg::Vpm,
        })),
        Src::Reg(Loc::Acc(_)) | Src::R4 | Src::R5 | Src::Imm(_) => None,
    }
}

/// Why a bundle cannot be encoded (a scheduler bug if it happens).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError(pub String);

/// Assignment of the read ports of a set of operands: raddr_a, raddr_b (None = free) and
/// the small immediate. Returns None if they do not fit.
pub struct Ports {
    /// File-A read address.
    pub a: Option<RegAddr>,
    /// File-B read address.
    pub b: Option<RegAddr>,
    /// Small immediate (occupies the B read).
    pub imm: Option<SmallImm>,
}

impl Ports {
    /// No ports used.
    pub fn empty() -> Ports {
        Ports {
            a: None,
            b: None,
            imm: None,
        }
    }

    /// Try to add an operand; false if it does not fit.
    pub fn add(&mut self, s: &Src<Loc>) -> bool {
        if let Src::Imm(i) = s {
            if self.b.is_some() {
                return false;
            }
            return match self.imm {
                None => {
                    self.imm = Some(*i);
                    true
                }
                Some(j) => j == *i,
            };
        }
        let Some((file, addr)) = source_port(s) else {
            return true;
        };
        let fits_a = |p: &Ports| p.a.is_none() || p.a == Some(addr);
        let fits_b = |p: &Ports| p.imm.is_none() && (p.b.is_none() || p.b == Some(addr));
        // An either-file read (uniform, VPM: the same address in both files) placed on one
        // port may move to the other to make room for an operand that needs this one.
        let either = |x: RegAddr| {
            [IoRead::Uniform, IoRead::Vpm]
                .iter()
                .any(|r| source_port(&Src::Read(*r)).map(|(_, a)| a) == Some(x))
        };
        match file {
            Some(RegFile::A) if fits_a(self) => {
                self.a = Some(addr);
                true
            }
            Some(RegFile::B) if fits_b(self) => {
                self.b = Some(addr);
                true
            }
            Some(RegFile::A)
                if self.a.is_some_and(either) && self.imm.is_none() && self.b.is_none() =>
            {
                self.b = self.a.replace(addr);
                true
            }
            Some(RegFile::B) if self.b.is_some_and(either) && self.a.is_none() => {
                self.a = self.b.replace(addr);
                true
            }
            None => {
                // Either file (uniform, VPM): reuse a port already reading it, else take a
                // free one. Reading it through both ports would pop twice.
                if self.a == Some(addr) || self.b == Some(addr) {
                    true
                } else if self.a.is_none() {
                    self.a = Some(addr);
                    true
                } else if fits_b(self) {
                    self.b = Some(addr);
                    true
                } else {
                    false
                }
            }
            _ => false,
        }
    }

    /// The mux that reads `s` given this port assignment.
    fn mux(&self, s: &Src<Loc>) -> InputMux {
        match s {
            Src::Reg(Loc::Acc(i)) => InputMux::from_bits(*i),
            Src::R4 => InputMux::R4,
            Src::R5 => InputMux::R5,
            Src::Imm(_) => InputMux::B,
            other => {
                let (file, addr) = source_port(other).expect("port operand");
                match file {
                    Some(RegFile::A) => InputMux::A,
                    Some(RegFile::B) => InputMux::B,
                    None if self.a == Some(addr) => InputMux::A,
                    None => InputMux::B,
                }
            }
        }
    }
}

/// Choose write swap for an add destination space and a mul destination space.
pub fn write_swap(add: Option<RegFile>, mul: Option<RegFile>) -> Option<WriteSwap> {
    let ok = |ws: WriteSwap| {
        add.is_none_or(|f| f == ws.add_file()) && mul.is_none_or(|f| f == ws.mul_file())
    };
    [WriteSwap::AddToA, WriteSwap::AddToB]
        .into_iter()
        .find(|&ws| ok(ws))
}

/// Encode one bundle.
pub fn encode(bundle: &Bundle, index: usize) -> Result<Instruction, EncodeError> {
    match bundle {
        Bundle::Branch { cond, target } => {
            let offset = (*target as i64 - (index as i64 + 4)) * 8;
            Ok(Instruction::Branch(BranchInstruction {
                cond: *cond,
                relative: true,
                use_raddr_a: false,
                raddr_a: RegAddr::new(0).expect("0"),
                write_swap: WriteSwap::AddToA,
                waddr_add: RegAddr::NOP,
                waddr_mul: RegAddr::NOP,
                imm: offset as i32,
                unused: 0,
            }))
        }
        Bundle::Single(Op::Ldi { dst, imm, cond }) => {
            let (file, addr) = dest(dst);
            let ws = write_swap(file, None).ok_or_else(|| EncodeError("ldi file".into()))?;
            Ok(Instruction::LoadImm(LoadImmInstruction {
                mode: LoadImmMode::Uniform32,
                imm: *imm,
                write: WriteBack {
                    cond_add: *cond,
                    write_swap: ws,
                    waddr_add: addr,
                    ..WriteBack::default()
                },
            }))
        }
        Bundle::Single(Op::Sema { acquire, id }) => {
            Ok(Instruction::Semaphore(SemaphoreInstruction {
                acquire: *acquire,
                semaphore: SemaphoreId::new(*id).expect("0-15"),
                unused: 0,
                write: WriteBack::default(),
            }))
        }
        Bundle::Single(Op::ThreadEnd) => {
            let mut alu = AluInstruction::NOP;
            alu.b = ReadB::Register {
                signal: Signal::ProgramEnd,
                raddr_b: RegAddr::NOP,
            };
            Ok(Instruction::Alu(alu))
        }
        Bundle::Single(other) => Err(EncodeError(format!("not a single-op bundle: {other:?}"))),
        Bundle::Alu { ops, signal } => encode_alu(ops, *signal),
    }
}

fn encode_alu(ops: &[(Op<Loc>, Unit)], signal: Signal) -> Result<Instruction, EncodeError> {
    let mut alu = AluInstruction::NOP;
    let mut ports = Ports::empty();
    for (op, _) in ops {
        if let Op::Alu { a, b, rotate, .. } = op {
            if let Some(r) = rotate {
                let code = match r {
                    Rotation::By(n) => SmallImm::rotation(Some(*n)),
                    Rotation::ByR5 => SmallImm::rotation(None),
                }
                .expect("rotation 1-15");
                if ports.imm.is_some_and(|i| i != code) || ports.b.is_some() {
                    return Err(EncodeError("rotation immediate clash".into()));
                }
                ports.imm = Some(code);
            }
            if !ports.add(a) || !ports.add(b) {
                return Err(EncodeError(format!("read ports: {ops:?}")));
            }
        }
    }
    let mut add_file = None;
    let mut mul_file = None;
    let mut sf = false;
    for (op, unit) in ops {
        let Op::Alu {
            op: kind,
            dst,
            a,
            b,
            cond,
            sf: op_sf,
            ..
        } = op
        else {
            return Err(EncodeError(format!("non-ALU op in ALU bundle: {op:?}")));
        };
        sf |= *op_sf;
        let (file, addr) = dest(dst);
        let (ma, mb) = (ports.mux(a), ports.mux(b));
        let cond = if *dst == Dst::None && !*op_sf {
            Cond::Never
        } else {
            *cond
        };
        match unit {
            Unit::Add => {
                alu.op_add = match kind {
                    AluOp::Add(o) => *o,
                    AluOp::Mov => AddOp::Or,
                    AluOp::Mul(_) => return Err(EncodeError("mul op on add unit".into())),
                };
                alu.add_a = ma;
                alu.add_b = mb;
                alu.write.cond_add = cond;
                alu.write.waddr_add = addr;
                add_file = file;
            }
            Unit::Mul => {
                alu.op_mul = match kind {
                    AluOp::Mul(o) => *o,
                    AluOp::Mov => MulOp::V8min,
                    AluOp::Add(_) => return Err(EncodeError("add op on mul unit".into())),
                };
                alu.mul_a = ma;
                alu.mul_b = mb;
                alu.write.cond_mul = cond;
                alu.write.waddr_mul = addr;
                mul_file = file;
            }
        }
    }
    alu.write.set_flags = sf;
    alu.write.write_swap = write_swap(add_file, mul_file)
        .ok_or_else(|| EncodeError(format!("write files: {ops:?}")))?;
    alu.raddr_a = ports.a.unwrap_or(RegAddr::NOP);
    alu.b = match ports.imm {
        Some(imm) => {
            if signal != Signal::None {
                return Err(EncodeError("signal with small immediate".into()));
            }
            ReadB::SmallImm(imm)
        }
        None => ReadB::Register {
            signal,
            raddr_b: ports.b.unwrap_or(RegAddr::NOP),
        },
    };
    Ok(Instruction::Alu(alu))
}

#[cfg(test)]
mod tests {
    //! Each bundle's encoding against the word the assembler (a separate route from the
    //! guide's tables to bits) makes of the same instruction written as text.
    use super::*;

    fn word_of(text: &str) -> u64 {
        let words = qpu_isa::vc4::assemble(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(words.len(), 1, "{text}");
        words[0].encode()
    }

    fn alu(op: AluOp, dst: Dst<Loc>, a: Src<Loc>, b: Src<Loc>) -> Op<Loc> {
        Op::alu(op, dst, a, b)
    }

    #[test]
    fn an_add_and_a_mul_share_one_word() {
        let bundle = Bundle::Alu {
            ops: vec![
                (
                    alu(
                        AluOp::Add(AddOp::Add),
                        Dst::Reg(Loc::A(1)),
                        Src::Reg(Loc::Acc(0)),
                        Src::Reg(Loc::B(2)),
                    ),
                    Unit::Add,
                ),
                (
                    alu(
                        AluOp::Mul(MulOp::Fmul),
                        Dst::Reg(Loc::Acc(1)),
                        Src::Reg(Loc::Acc(2)),
                        Src::Reg(Loc::Acc(3)),
                    ),
                    Unit::Mul,
                ),
            ],
            signal: Signal::LoadTmu0,
        };
        let instr = encode(&bundle, 0).expect("encodes");
        assert_eq!(
            instr.encode(),
            word_of("add ra1, r0, rb2; fmul r1, r2, r3; ldtmu0")
        );
    }

    #[test]
    fn io_writes_and_reads_take_their_mapped_addresses() {
        // A TMU request from a file-A value, a VPM write of the uniform, on the two ALUs.
        let bundle = Bundle::Alu {
            ops: vec![
                (
                    Op::mov(Dst::Write(IoWrite::TmuS(0)), Src::Reg(Loc::A(5))),
                    Unit::Add,
                ),
                (
                    Op::mov(Dst::Write(IoWrite::Vpm), Src::Read(IoRead::Uniform)),
                    Unit::Mul,
                ),
            ],
            signal: Signal::None,
        };
        let instr = encode(&bundle, 0).expect("encodes");
        let text = qpu_isa::vc4::disasm::program(&[instr]);
        assert_eq!(instr.encode(), word_of(&text), "{text}");
        assert!(text.contains("tmu0_s") && text.contains("vpm"), "{text}");
        assert!(text.contains("ra5") && text.contains("unif"), "{text}");
    }

    #[test]
    fn a_load_immediate_a_semaphore_and_a_thread_end() {
        let ldi = Bundle::Single(Op::Ldi {
            dst: Dst::Reg(Loc::B(7)),
            imm: 0x1234_5678,
            cond: Cond::Always,
        });
        assert_eq!(
            encode(&ldi, 0).expect("encodes").encode(),
            word_of("ldi rb7, 0x12345678")
        );
        let sema = Bundle::Single(Op::Sema {
            acquire: true,
            id: 15,
        });
        assert_eq!(
            encode(&sema, 0).expect("encodes").encode(),
            word_of("sacq -, 15")
        );
        let end = Bundle::Single(Op::ThreadEnd);
        assert_eq!(
            encode(&end, 0).expect("encodes").encode(),
            word_of("nop; thrend")
        );
    }

    #[test]
    fn a_branch_counts_from_the_word_after_its_delay_slots() {
        // At index 10, to index 2: (2 - (10 + 4)) * 8 bytes.
        let b = Bundle::Branch {
            cond: BranchCond::AnyCarrySet,
            target: 2,
        };
        match encode(&b, 10).expect("encodes") {
            Instruction::Branch(br) => {
                assert_eq!(br.imm, -96);
                assert!(br.relative);
                assert_eq!(br.cond, BranchCond::AnyCarrySet);
            }
            other => panic!("not a branch: {other:?}"),
        }
    }

    #[test]
    fn two_reads_of_one_register_file_do_not_encode() {
        // ra1 and ra2 both need the single file-A read port.
        let bundle = Bundle::Alu {
            ops: vec![(
                alu(
                    AluOp::Add(AddOp::Add),
                    Dst::Reg(Loc::Acc(0)),
                    Src::Reg(Loc::A(1)),
                    Src::Reg(Loc::A(2)),
                ),
                Unit::Add,
            )],
            signal: Signal::None,
        };
        assert!(encode(&bundle, 0).is_err());
    }
}
