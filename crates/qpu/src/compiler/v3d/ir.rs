//! The V3D back end's typed instructions, generic over where values live: the code
//! generator writes `Inst<VReg>` (virtual registers, plus the reserved register-file
//! registers and the accumulators it names itself), the allocator turns them into
//! `Inst<Phys>`, and [`Alu::build`] encodes those through `qpu_isa::v3d::build`, the
//! operand router the assembler uses too. Text exists only for listings
//! (`QPU_DUMP_IR`, through `Display`).
//!
//! Each generated instruction holds one add-ALU operation, one mul-ALU operation or one
//! signal (the 4.2 rotation is a mul `mov` with its `rot` signal); a `nop` stands for a
//! latency the packer must keep (module docs of `pack.rs`), which also pairs operations
//! and folds signals.

use std::fmt;

use qpu_isa::v3d::{
    build, small_imm_index, small_imm_value, AddOp, AluInstruction, BranchCond, Cond, Flags,
    InputSource, MulOp, PushFlag, Register, Signal, Signals, UpdateFlag, V3dVersion, Waddr,
};

/// Where a value lives before allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum VReg {
    /// A virtual register: the allocator gives it a register-file register or an
    /// accumulator.
    Virtual(u32),
    /// A reserved register-file register the generator names (rf0–rf3).
    Rf(u8),
    /// A 4.2 accumulator the generator names (a rotation's source, `fmax`'s second input).
    Acc(u8),
}

/// Where a value lives after allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Phys {
    /// Register-file register rf0–rf63.
    Rf(u8),
    /// 4.2 accumulator r0–r5.
    Acc(u8),
}

/// An ALU input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Src<R> {
    Reg(R),
    /// A 32-bit value a small immediate holds.
    Imm(u32),
}

/// An ALU or signal destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Dst<R> {
    Reg(R),
    /// A magic write address (`nop`, `tmua`, `tmud`, `tmuc`, `unifa`, `r5rep`/`rep`, …).
    Magic(Waddr),
}

impl Dst<VReg> {
    /// A virtual register.
    pub(super) fn v(n: u32) -> Dst<VReg> {
        Dst::Reg(VReg::Virtual(n))
    }
}

/// Which write condition, flag push or flag update an operation carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Fl {
    pub cond: Option<Cond>,
    pub push: Option<PushFlag>,
    pub update: Option<UpdateFlag>,
}

impl Fl {
    pub(super) const NONE: Fl = Fl {
        cond: None,
        push: None,
        update: None,
    };

    pub(super) fn cond(c: Cond) -> Fl {
        Fl {
            cond: Some(c),
            ..Fl::NONE
        }
    }

    pub(super) fn push(p: PushFlag) -> Fl {
        Fl {
            push: Some(p),
            ..Fl::NONE
        }
    }

    pub(super) fn update(u: UpdateFlag) -> Fl {
        Fl {
            update: Some(u),
            ..Fl::NONE
        }
    }
}

/// One ALU's operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Op<K, R> {
    pub op: K,
    pub dst: Dst<R>,
    pub srcs: [Src<R>; 2],
    /// How many of `srcs` the operation reads.
    pub arity: u8,
    pub flags: Fl,
}

impl<K: Copy, R: Copy> Op<K, R> {
    pub(super) fn new(op: K, flags: Fl, dst: Dst<R>, srcs: &[Src<R>]) -> Op<K, R> {
        let mut s = [Src::Imm(0); 2];
        for (slot, x) in s.iter_mut().zip(srcs) {
            *slot = *x;
        }
        Op {
            op,
            dst,
            srcs: s,
            arity: srcs.len().min(2) as u8,
            flags,
        }
    }

    fn map<S>(&self, f: &mut impl FnMut(R) -> S) -> Op<K, S> {
        let mut src = |s: Src<R>| match s {
            Src::Reg(r) => Src::Reg(f(r)),
            Src::Imm(v) => Src::Imm(v),
        };
        let srcs = [src(self.srcs[0]), src(self.srcs[1])];
        Op {
            op: self.op,
            dst: map_dst(self.dst, f),
            srcs,
            arity: self.arity,
            flags: self.flags,
        }
    }
}

impl<K, R> Op<K, R> {
    /// The inputs the operation reads.
    pub(super) fn inputs(&self) -> &[Src<R>] {
        &self.srcs[..usize::from(self.arity)]
    }
}

fn map_dst<R, S>(d: Dst<R>, f: &mut impl FnMut(R) -> S) -> Dst<S> {
    match d {
        Dst::Reg(r) => Dst::Reg(f(r)),
        Dst::Magic(w) => Dst::Magic(w),
    }
}

/// An ALU instruction: at most one operation per ALU and one signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Alu<R> {
    pub add: Option<Op<AddOp, R>>,
    pub mul: Option<Op<MulOp, R>>,
    pub sig: Option<Signal>,
    /// The register a signal such as `ldtmu` writes.
    pub sig_dst: Option<Dst<R>>,
    /// 4.2 `rot` amount (`raddr_b`: a small-immediate index, 0 for "by r5").
    pub rot: Option<u8>,
}

impl<R> Alu<R> {
    pub(super) const NOP: Alu<R> = Alu {
        add: None,
        mul: None,
        sig: None,
        sig_dst: None,
        rot: None,
    };
}

/// A branch target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Label(pub u32);

/// An instruction or a label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Inst<R> {
    Alu(Alu<R>),
    /// A relative branch; its three delay slots follow as instructions of their own.
    Branch {
        cond: BranchCond,
        target: Label,
    },
    /// Where a branch lands (not an instruction).
    Label(Label),
}

impl<R: Copy> Inst<R> {
    pub(super) fn nop() -> Inst<R> {
        Inst::Alu(Alu::NOP)
    }

    /// The same instruction with every register renamed by `f`.
    pub(super) fn map<S>(&self, mut f: impl FnMut(R) -> S) -> Inst<S> {
        match self {
            Inst::Alu(a) => Inst::Alu(Alu {
                add: a.add.as_ref().map(|o| o.map(&mut f)),
                mul: a.mul.as_ref().map(|o| o.map(&mut f)),
                sig: a.sig,
                sig_dst: a.sig_dst.map(|d| map_dst(d, &mut f)),
                rot: a.rot,
            }),
            Inst::Branch { cond, target } => Inst::Branch {
                cond: *cond,
                target: *target,
            },
            Inst::Label(l) => Inst::Label(*l),
        }
    }
}

/// What one instruction reads and writes, for liveness and interference.
#[derive(Debug, Default)]
pub(super) struct Operands {
    pub reads: Vec<VReg>,
    pub writes: Vec<VReg>,
    /// Whether each write is a signal's (`ldtmu` and the uniform loads write only the
    /// register file).
    pub by_signal: Vec<bool>,
}

impl Inst<VReg> {
    /// The registers this instruction reads and writes. A write under a condition keeps the
    /// other lanes' old value, so it reads its destination too; a 4.2 rotation by r5 reads r5;
    /// a magic destination writes the register [`Waddr::register`] gives (`r5rep` r5 on 4.2,
    /// `rep` rf0 on 7.1).
    pub(super) fn operands(&self, version: V3dVersion, out: &mut Operands) {
        out.reads.clear();
        out.writes.clear();
        out.by_signal.clear();
        let Inst::Alu(a) = self else { return };
        fn op<K>(o: &Op<K, VReg>, version: V3dVersion, out: &mut Operands) {
            match o.dst {
                Dst::Reg(r) => {
                    out.writes.push(r);
                    out.by_signal.push(false);
                    if o.flags.cond.is_some() {
                        out.reads.push(r);
                    }
                }
                // A magic address that writes a register (`r5rep`/`rep`, qpu_isa's map).
                Dst::Magic(w) => {
                    if let Some(r) = w.register(version) {
                        out.writes.push(match r {
                            Register::Rf(n) => VReg::Rf(n),
                            Register::Acc(n) => VReg::Acc(n),
                        });
                        out.by_signal.push(false);
                    }
                }
            }
            for s in o.inputs() {
                if let Src::Reg(r) = s {
                    out.reads.push(*r);
                }
            }
        }
        if let Some(o) = &a.add {
            op(o, version, out);
        }
        if let Some(o) = &a.mul {
            op(o, version, out);
        }
        if let Some(Dst::Reg(r)) = a.sig_dst {
            out.writes.push(r);
            out.by_signal.push(true);
        }
        if a.rot == Some(0) {
            out.reads.push(VReg::Acc(5));
        }
    }
}

/// Why an instruction could not be encoded.
pub(super) type BuildError = build::BuildError;

impl Alu<Phys> {
    /// The machine form (through the operand router the assembler uses too).
    pub(super) fn build(&self, version: V3dVersion) -> Result<AluInstruction, BuildError> {
        let alu = self;
        fn input(s: Src<Phys>) -> Result<InputSource, BuildError> {
            Ok(match s {
                Src::Reg(Phys::Rf(r)) => InputSource::Rf(r),
                Src::Reg(Phys::Acc(a)) => InputSource::Acc(a),
                Src::Imm(bits) => InputSource::SmallImm(small_imm_index(bits).ok_or(
                    BuildError::Encode(qpu_isa::v3d::EncodeError::FieldRange {
                        field: "small immediate",
                        value: bits,
                    }),
                )?),
            })
        }
        fn waddr(d: Dst<Phys>) -> Waddr {
            match d {
                Dst::Reg(Phys::Rf(r)) => Waddr::rf(r).unwrap_or(Waddr::NOP),
                Dst::Reg(Phys::Acc(a)) => Waddr::magic(a).unwrap_or(Waddr::NOP),
                Dst::Magic(w) => w,
            }
        }
        fn operation<K: Copy>(
            o: &Op<K, Phys>,
            variant: Option<u8>,
        ) -> Result<build::Operation<K>, BuildError> {
            let variant = variant.ok_or_else(|| {
                BuildError::Encode(qpu_isa::v3d::EncodeError::NoSuchVariant {
                    op: "an operation this version lacks".to_string(),
                    variant: 0,
                })
            })?;
            let mut inputs = [InputSource::Acc(0); 2];
            for (slot, s) in inputs.iter_mut().zip(o.inputs()) {
                *slot = input(*s)?;
            }
            Ok(build::Operation::plain(
                o.op,
                variant,
                waddr(o.dst),
                &inputs[..usize::from(o.arity)],
            ))
        }
        let add = alu
            .add
            .as_ref()
            .map(|o| operation(o, build::plain_add_variant(version, o.op)))
            .transpose()?;
        let mul = alu
            .mul
            .as_ref()
            .map(|o| operation(o, build::plain_mul_variant(version, o.op)))
            .transpose()?;
        let mut flags = Flags::default();
        if let Some(o) = &alu.add {
            (flags.ac, flags.apf, flags.auf) = (o.flags.cond, o.flags.push, o.flags.update);
        }
        if let Some(o) = &alu.mul {
            (flags.mc, flags.mpf, flags.muf) = (o.flags.cond, o.flags.push, o.flags.update);
        }
        let mut signals = Signals::NONE;
        if let Some(s) = alu.sig {
            signals = signals.with(s);
        }
        build::alu(
            version,
            add.as_ref(),
            mul.as_ref(),
            build::Extras {
                signals,
                sig_addr: alu.sig_dst.map(waddr),
                flags,
                rot: alu.rot,
            },
        )
    }
}

/// An operation's name in the V3D assembler's syntax (for listings).
trait OpName {
    fn name(&self) -> &'static str;
}

impl OpName for AddOp {
    fn name(&self) -> &'static str {
        qpu_isa::v3d::disasm::add_op_name(*self)
    }
}

impl OpName for MulOp {
    fn name(&self) -> &'static str {
        qpu_isa::v3d::disasm::mul_op_name(*self)
    }
}

impl fmt::Display for VReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VReg::Virtual(n) => write!(f, "%{n}"),
            VReg::Rf(n) => write!(f, "rf{n}"),
            VReg::Acc(n) => write!(f, "r{n}"),
        }
    }
}

impl fmt::Display for Phys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Phys::Rf(n) => write!(f, "rf{n}"),
            Phys::Acc(n) => write!(f, "r{n}"),
        }
    }
}

impl<R: fmt::Display> fmt::Display for Src<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Src::Reg(r) => write!(f, "{r}"),
            Src::Imm(bits) => match small_imm_index(*bits) {
                Some(i) if i >= 32 => write!(f, "{:?}", f32::from_bits(*bits)),
                _ => write!(f, "{}", *bits as i32),
            },
        }
    }
}

impl<R: fmt::Display> fmt::Display for Dst<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dst::Reg(r) => write!(f, "{r}"),
            // Listing names need no version but for r5rep/rep and the accumulators, which
            // the generator names as registers.
            Dst::Magic(w) => f.write_str(&w.name(V3dVersion::V42)),
        }
    }
}

impl<R: fmt::Display> fmt::Display for Inst<R> {
    /// The assembly-like listing `QPU_DUMP_IR` shows (not read back by anything).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn op<K: OpName, R: fmt::Display>(
            f: &mut fmt::Formatter<'_>,
            o: &Option<Op<K, R>>,
        ) -> fmt::Result {
            let Some(o) = o else {
                return f.write_str("nop");
            };
            f.write_str(o.op.name())?;
            if let Some(c) = o.flags.cond {
                write!(f, ".{}", c.name())?;
            }
            if let Some(p) = o.flags.push {
                write!(f, ".{}", p.name())?;
            }
            if let Some(u) = o.flags.update {
                write!(f, ".{}", u.name())?;
            }
            write!(f, " {}", o.dst)?;
            for s in o.inputs() {
                write!(f, ", {s}")?;
            }
            Ok(())
        }
        match self {
            Inst::Label(l) => write!(f, "L{}:", l.0),
            Inst::Branch { cond, target } => match cond {
                BranchCond::Always => write!(f, "b L{}", target.0),
                c => write!(f, "b.{} L{}", c.name(), target.0),
            },
            Inst::Alu(a) => {
                op(f, &a.add)?;
                f.write_str(" ; ")?;
                op(f, &a.mul)?;
                if let Some(s) = a.sig {
                    write!(f, " ; {}", s.name())?;
                    if let Some(d) = &a.sig_dst {
                        write!(f, ".{d}")?;
                    }
                    match a.rot {
                        Some(0) => f.write_str(".r5")?,
                        Some(i) => {
                            let v = small_imm_value(i).unwrap_or(0);
                            write!(f, ".{}", v as i32)?
                        }
                        None => {}
                    }
                }
                Ok(())
            }
        }
    }
}
