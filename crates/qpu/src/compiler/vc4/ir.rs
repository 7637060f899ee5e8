//! The target IR: one ALU operation (or load immediate, branch, signal, semaphore) per entry,
//! over registers `R` — virtual registers ([`VReg`]) before allocation, machine locations
//! ([`Loc`]) after. Structured control flow is already gone: labels and branches only.
//!
//! An entry maps onto one half of a machine instruction: the scheduler later packs an add-ALU
//! entry and a mul-ALU entry into one 64-bit word where the encoding allows it.

use std::fmt;

use qpu_isa::vc4::regs::SfuOp;
use qpu_isa::vc4::{AddOp, BranchCond, Cond, MulOp, Signal, SmallImm};

/// A virtual register: one 16-lane value before register allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

/// A machine location for a value: accumulators r0–r3 or a physical register of file A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    /// Accumulator r0–r3 (readable by the next instruction; needed for full rotations).
    Acc(u8),
    /// Register-file A, 0–31.
    A(u8),
    /// Register-file B, 0–31.
    B(u8),
}

/// A branch target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

/// I/O registers read as operands (guide table 14, read columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IoRead {
    /// Pop the next uniform (either file).
    Uniform,
    /// Element number 0–15 (file A only).
    ElemNum,
    /// Wait for the VDW store DMA (file B only).
    VwWait,
    /// Wait for the VDR load DMA (file A only).
    VrWait,
    /// Pop the VPM read FIFO (either file).
    Vpm,
}

/// I/O registers written as destinations (guide table 14, write columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IoWrite {
    /// TMU0/TMU1 `s`: a direct memory lookup per lane.
    TmuS(u8),
    /// VPM write FIFO.
    Vpm,
    /// VPM generic write setup or VDW setup (file B).
    VwSetup,
    /// VDW memory address; starts the store DMA (file B).
    VwAddr,
    /// VPM generic read setup or VDR setup (file A).
    VrSetup,
    /// VDR memory address; starts the load DMA (file A).
    VrAddr,
    /// Start a special function.
    Sfu(SfuOp),
    /// Raise the host interrupt.
    HostInt,
    /// r5, element 0 replicated to all lanes (file B).
    R5Rep,
    /// The uniforms address: later uniform reads come from there.
    UniformsAddress,
}

/// An operand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Src<R> {
    /// A register.
    Reg(R),
    /// A small immediate (uses the B read port).
    Imm(SmallImm),
    /// r4: the last TMU or SFU result.
    R4,
    /// r5.
    R5,
    /// An I/O register read.
    Read(IoRead),
}

/// A destination.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dst<R> {
    /// Discard the result (write address 39).
    None,
    /// A register.
    Reg(R),
    /// An I/O register.
    Write(IoWrite),
}

/// Which ALU an operation needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluOp {
    /// An add-ALU opcode.
    Add(AddOp),
    /// A mul-ALU opcode.
    Mul(MulOp),
    /// A copy, which either ALU can do (`or x, x` or `v8min x, x`).
    Mov,
}

/// A mul-result rotation (small immediates 48–63).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// By a constant 1–15 lanes.
    By(u8),
    /// By r5's element 0.
    ByR5,
}

/// One IR entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Op<R> {
    /// One ALU operation. For [`AluOp::Mov`] and unary opcodes `b` equals `a`.
    Alu {
        /// The operation.
        op: AluOp,
        /// Where the result goes.
        dst: Dst<R>,
        /// First operand.
        a: Src<R>,
        /// Second operand.
        b: Src<R>,
        /// Per-lane write condition.
        cond: Cond,
        /// Set the flags from the result.
        sf: bool,
        /// Rotate the (mul) result; `a` must then be an accumulator.
        rotate: Option<Rotation>,
    },
    /// A 32-bit load immediate.
    Ldi {
        /// Where.
        dst: Dst<R>,
        /// The value for every lane.
        imm: u32,
        /// Per-lane write condition.
        cond: Cond,
    },
    /// A signal with no ALU work of its own (a TMU load into r4).
    Signal(Signal),
    /// Semaphore acquire (decrement) or release (increment).
    Sema {
        /// Acquire?
        acquire: bool,
        /// Which semaphore.
        id: u8,
    },
    /// Branch to a label (three delay slots follow).
    Branch {
        /// Condition.
        cond: BranchCond,
        /// Target.
        target: Label,
    },
    /// A branch target.
    Label(Label),
    /// Thread end (two delay slots follow).
    ThreadEnd,
    /// Marks where the ops that follow come from: an index into
    /// [`Lowered::sources`](super::lower::Lowered::sources). Not an instruction: the
    /// scheduler drops it and gives each instruction word its ops' source.
    Source(u32),
}

impl<R: Copy + PartialEq> Op<R> {
    /// A plain unconditional copy.
    pub fn mov(dst: Dst<R>, src: Src<R>) -> Op<R> {
        Op::Alu {
            op: AluOp::Mov,
            dst,
            a: src,
            b: src,
            cond: Cond::Always,
            sf: false,
            rotate: None,
        }
    }

    /// A two-operand ALU op, unconditional, no flags.
    pub fn alu(op: AluOp, dst: Dst<R>, a: Src<R>, b: Src<R>) -> Op<R> {
        Op::Alu {
            op,
            dst,
            a,
            b,
            cond: Cond::Always,
            sf: false,
            rotate: None,
        }
    }

    /// Registers read (a conditional write also reads its destination: lanes that are not
    /// written keep the old value).
    pub fn uses(&self, mut visit: impl FnMut(R)) {
        match self {
            Op::Alu {
                a, b, dst, cond, ..
            } => {
                if let Src::Reg(r) = a {
                    visit(*r);
                }
                if let Src::Reg(r) = b {
                    if Src::Reg(*r) != *a {
                        visit(*r);
                    }
                }
                if let (Dst::Reg(r), false) = (dst, *cond == Cond::Always) {
                    visit(*r);
                }
            }
            Op::Ldi { dst, cond, .. } => {
                if let (Dst::Reg(r), false) = (dst, *cond == Cond::Always) {
                    visit(*r);
                }
            }
            _ => {}
        }
    }

    /// The register written, if any.
    pub fn def(&self) -> Option<R> {
        match self {
            Op::Alu {
                dst: Dst::Reg(r), ..
            }
            | Op::Ldi {
                dst: Dst::Reg(r), ..
            } => Some(*r),
            _ => None,
        }
    }

    /// Whether the op ends a basic block (a label starts one; a branch, a semaphore and a
    /// thread end close one).
    pub fn ends_block(&self) -> bool {
        matches!(
            self,
            Op::Label(_) | Op::Branch { .. } | Op::ThreadEnd | Op::Sema { .. }
        )
    }

    /// Whether the write (if any) is unconditional.
    pub fn writes_all_lanes(&self) -> bool {
        match self {
            Op::Alu { cond, .. } | Op::Ldi { cond, .. } => *cond == Cond::Always,
            _ => false,
        }
    }

    /// Whether this is a plain unconditional register-to-register copy (a coalescing
    /// candidate): `(dst, src)`.
    pub fn as_copy(&self) -> Option<(R, R)> {
        match self {
            Op::Alu {
                op: AluOp::Mov,
                dst: Dst::Reg(d),
                a: Src::Reg(s),
                cond: Cond::Always,
                sf: false,
                rotate: None,
                ..
            } => Some((*d, *s)),
            _ => None,
        }
    }

    /// Rewrite every register with `f`.
    pub fn map<S: Copy + PartialEq>(&self, mut f: impl FnMut(R) -> S) -> Op<S> {
        let src = |s: &Src<R>, f: &mut dyn FnMut(R) -> S| match *s {
            Src::Reg(r) => Src::Reg(f(r)),
            Src::Imm(i) => Src::Imm(i),
            Src::R4 => Src::R4,
            Src::R5 => Src::R5,
            Src::Read(io) => Src::Read(io),
        };
        let dst = |d: &Dst<R>, f: &mut dyn FnMut(R) -> S| match *d {
            Dst::None => Dst::None,
            Dst::Reg(r) => Dst::Reg(f(r)),
            Dst::Write(io) => Dst::Write(io),
        };
        match self {
            Op::Alu {
                op,
                dst: d,
                a,
                b,
                cond,
                sf,
                rotate,
            } => Op::Alu {
                op: *op,
                dst: dst(d, &mut f),
                a: src(a, &mut f),
                b: src(b, &mut f),
                cond: *cond,
                sf: *sf,
                rotate: *rotate,
            },
            Op::Ldi { dst: d, imm, cond } => Op::Ldi {
                dst: dst(d, &mut f),
                imm: *imm,
                cond: *cond,
            },
            Op::Signal(s) => Op::Signal(*s),
            Op::Sema { acquire, id } => Op::Sema {
                acquire: *acquire,
                id: *id,
            },
            Op::Branch { cond, target } => Op::Branch {
                cond: *cond,
                target: *target,
            },
            Op::Label(l) => Op::Label(*l),
            Op::ThreadEnd => Op::ThreadEnd,
            Op::Source(s) => Op::Source(*s),
        }
    }
}

/// The flag test a condition compiled to: "true" in the lanes where this write condition
/// passes. Only the six flag conditions are used.
pub fn negate(cond: Cond) -> Cond {
    match cond {
        Cond::ZeroSet => Cond::ZeroClear,
        Cond::ZeroClear => Cond::ZeroSet,
        Cond::NegativeSet => Cond::NegativeClear,
        Cond::NegativeClear => Cond::NegativeSet,
        Cond::CarrySet => Cond::CarryClear,
        Cond::CarryClear => Cond::CarrySet,
        Cond::Always => Cond::Never,
        Cond::Never => Cond::Always,
    }
}

/// The branch taken exactly when `cond`'s is not (`None` for an unconditional branch): "all
/// lanes pass" against "some lane fails".
pub fn negate_branch(cond: BranchCond) -> Option<BranchCond> {
    use BranchCond::*;
    Some(match cond {
        AllZeroSet => AnyZeroClear,
        AnyZeroClear => AllZeroSet,
        AllZeroClear => AnyZeroSet,
        AnyZeroSet => AllZeroClear,
        AllNegativeSet => AnyNegativeClear,
        AnyNegativeClear => AllNegativeSet,
        AllNegativeClear => AnyNegativeSet,
        AnyNegativeSet => AllNegativeClear,
        AllCarrySet => AnyCarryClear,
        AnyCarryClear => AllCarrySet,
        AllCarryClear => AnyCarrySet,
        AnyCarrySet => AllCarryClear,
        Always => return None,
    })
}

/// The branch condition for "any lane passes `cond`" or "all lanes pass `cond`".
pub fn branch_cond(cond: Cond, all: bool) -> BranchCond {
    match (cond, all) {
        (Cond::ZeroSet, false) => BranchCond::AnyZeroSet,
        (Cond::ZeroSet, true) => BranchCond::AllZeroSet,
        (Cond::ZeroClear, false) => BranchCond::AnyZeroClear,
        (Cond::ZeroClear, true) => BranchCond::AllZeroClear,
        (Cond::NegativeSet, false) => BranchCond::AnyNegativeSet,
        (Cond::NegativeSet, true) => BranchCond::AllNegativeSet,
        (Cond::NegativeClear, false) => BranchCond::AnyNegativeClear,
        (Cond::NegativeClear, true) => BranchCond::AllNegativeClear,
        (Cond::CarrySet, false) => BranchCond::AnyCarrySet,
        (Cond::CarrySet, true) => BranchCond::AllCarrySet,
        (Cond::CarryClear, false) => BranchCond::AnyCarryClear,
        (Cond::CarryClear, true) => BranchCond::AllCarryClear,
        (Cond::Always, _) => BranchCond::Always,
        // Never taken: callers never ask for it; an always-false test still needs a
        // branch form, and "all lanes zero-set and zero-clear" cannot hold, so use the
        // closest safe choice of never emitting it (see lower.rs).
        (Cond::Never, _) => BranchCond::AllZeroSet,
    }
}

/// The small immediate whose operand value has exactly these bits, if any (codes 0–47).
pub fn small_imm_for_bits(bits: u32) -> Option<SmallImm> {
    (0..48u8)
        .filter_map(SmallImm::new)
        .find(|imm| imm.operand_bits() == bits)
}

// ------------------------------------------------------------------------------------------
// Text form, for dumps (`QPU_DUMP_IR`) and pass tests: one entry per line, e.g.
// `v7.ifc = sub v7, v3`, `flags = min v1, v2`, `vpm = fsub v4, v9`, `brr.anynz L3`.

impl fmt::Display for VReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Acc(i) => write!(f, "r{i}"),
            Loc::A(i) => write!(f, "ra{i}"),
            Loc::B(i) => write!(f, "rb{i}"),
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}", self.0)
    }
}

impl fmt::Display for IoRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IoRead::Uniform => "unif",
            IoRead::ElemNum => "elem_num",
            IoRead::VwWait => "vw_wait",
            IoRead::VrWait => "vr_wait",
            IoRead::Vpm => "vpm",
        })
    }
}

impl fmt::Display for IoWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IoWrite::TmuS(t) => write!(f, "tmu{t}_s"),
            IoWrite::Vpm => f.write_str("vpm"),
            IoWrite::VwSetup => f.write_str("vw_setup"),
            IoWrite::VwAddr => f.write_str("vw_addr"),
            IoWrite::VrSetup => f.write_str("vr_setup"),
            IoWrite::VrAddr => f.write_str("vr_addr"),
            IoWrite::Sfu(op) => write!(f, "sfu_{op:?}"),
            IoWrite::HostInt => f.write_str("host_int"),
            IoWrite::R5Rep => f.write_str("r5rep"),
            IoWrite::UniformsAddress => f.write_str("unif_addr"),
        }
    }
}

impl<R: fmt::Display> fmt::Display for Src<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Src::Reg(r) => write!(f, "{r}"),
            Src::Imm(imm) => match imm.value() {
                qpu_isa::vc4::SmallImmValue::Int(i) => write!(f, "{i}"),
                qpu_isa::vc4::SmallImmValue::Float(x) => write!(f, "{x:?}"),
                other => write!(f, "{other:?}"),
            },
            Src::R4 => f.write_str("r4"),
            Src::R5 => f.write_str("r5"),
            Src::Read(io) => write!(f, "{io}"),
        }
    }
}

impl<R: fmt::Display> fmt::Display for Dst<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dst::None => f.write_str("-"),
            Dst::Reg(r) => write!(f, "{r}"),
            Dst::Write(io) => write!(f, "{io}"),
        }
    }
}

impl<R: fmt::Display + Copy + PartialEq> fmt::Display for Op<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cond = |c: &Cond| match c {
            Cond::Always => String::new(),
            other => format!(".{}", other.mnemonic()),
        };
        match self {
            Op::Alu {
                op,
                dst,
                a,
                b,
                cond: c,
                sf,
                rotate,
            } => {
                let name = match op {
                    AluOp::Add(o) => o.mnemonic(),
                    AluOp::Mul(o) => o.mnemonic(),
                    AluOp::Mov => "mov",
                };
                let dst = match (dst, sf) {
                    (Dst::None, true) => "flags".to_string(),
                    (d, true) => format!("{d}, flags"),
                    (d, false) => d.to_string(),
                };
                write!(f, "{dst}{} = {name} {a}", cond(c))?;
                if *op != AluOp::Mov || a != b {
                    write!(f, ", {b}")?;
                }
                match rotate {
                    Some(Rotation::By(n)) => write!(f, " >> {n}"),
                    Some(Rotation::ByR5) => f.write_str(" >> r5"),
                    None => Ok(()),
                }
            }
            Op::Ldi { dst, imm, cond: c } => write!(f, "{dst}{} = ldi {imm:#x}", cond(c)),
            Op::Signal(s) => write!(f, "signal {}", s.mnemonic()),
            Op::Sema { acquire, id } => {
                write!(f, "{} {id}", if *acquire { "sacq" } else { "srel" })
            }
            Op::Branch { cond, target } => write!(f, "brr.{} {target}", cond.mnemonic()),
            Op::Label(l) => write!(f, "{l}:"),
            Op::ThreadEnd => f.write_str("thrend"),
            Op::Source(s) => write!(f, "# source {s}"),
        }
    }
}

/// The entries of `code`, one per line (labels unindented).
pub fn listing<R: fmt::Display + Copy + PartialEq>(code: &[Op<R>]) -> String {
    let mut out = String::new();
    for op in code {
        let indent = if matches!(op, Op::Label(_)) {
            ""
        } else {
            "    "
        };
        out.push_str(&format!("{indent}{op}\n"));
    }
    out
}
