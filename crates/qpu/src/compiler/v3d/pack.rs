//! The V3D packer: a list scheduler over the generated code that pairs an add-ALU and a
//! mul-ALU operation in one instruction, folds signals (`ldunifrf`, `ldunifarf`, `ldtmu`)
//! onto ALU instructions, drops the latency nops the code generator leaves, and fills branch
//! delay slots.
//!
//! It follows the structure of Mesa's `src/broadcom/compiler/qpu_schedule.c`: per basic
//! block, a dependency graph over the generated instructions (each holds one operation or
//! signal), then cycle by cycle the ready node on the longest path to the block's end, with
//! every other ready node that merges with it (`qpu_merge_inst`: one add and one mul op, add
//! `add`/`sub` moved to the mul ALU, a mul `mov` moved to the add ALU, signals combined, the
//! read ports shared as `qpu_merge_raddrs` shares them). The rules it keeps:
//!
//! * **Dependencies**: a read after a write waits one instruction, a write after a write one
//!   instruction, a write after a read may share the reader's instruction (all inputs are
//!   read before any result is written, as Mesa's scheduler assumes when it drops such
//!   edges, `pre_remove_head`). Resources: each register, each 4.2 accumulator, the flags,
//!   the uniform stream (uniform order is kept), the `unifa` stream, the TMU request and
//!   result queues, and the `umul24`/`multop` rtop register. Each instruction's reads,
//!   writes and effects come from `AluInstruction::info` (qpu-isa), the record the
//!   emulator's placement rules read too.
//! * **Latencies** (instructions from the producer to the consumer, read from the target's
//!   `Facts`, which take them from `qpu_isa::v3d::latency`, as the emulator does): an SFU
//!   result 2 (Mesa `instruction_latency`), `unifa` to `ldunifa` 4 (three instructions in between, Mesa's
//!   scheduler and py-videocore7 tests/test_unifa.py), into a rotation 2 (py-videocore6
//!   tests/test_signals.py; kept for 7.1's `rotate` too). Across block boundaries the
//!   producer's block is padded so its latencies have elapsed where any successor starts,
//!   and a rotation never opens a block.
//! * **Per instruction** (Mesa `qpu_compatible_peripheral_access`, `qpu_validate.c`): at most
//!   one peripheral access (TMU write, `ldtmu`, SFU, `tmuwt`), one uniform read, one signal
//!   with a write address (which then owns the cond field: no flags beside it), one small
//!   immediate; on 4.2 at most two register-file reads between both ALUs (one with a small
//!   immediate, which takes `raddr_b`). Every merged word is encoded to check the signal
//!   table, the flag combinations and the `fadd`/`fmin` operand order.
//! * **TMU**: requests stay in order, results are read in order, each `ldtmu` after the
//!   request before it; a later load may be issued before an earlier result is read as long
//!   as this thread's share of the output FIFO (16 words, Mesa `ntq_tmu_fifo_overflow`) is
//!   never exceeded.
//! * **Branches** (Mesa `emit_branch`): the branch moves up over at most three instructions
//!   of its block, which then run in its delay slots, unless one writes the flags a
//!   conditional branch reads, writes `unifa` or reads a uniform
//!   (`qpu_inst_valid_in_branch_delay_slot`); no branch within three instructions of a `unifa`
//!   write. Slots a backward branch leaves empty take copies of the first instructions at
//!   its target, and the branch goes past them ([`fill_from_target`]: only copies that are
//!   harmless when the branch falls through). The slots left are nops.
//! * **Flags**: a plain flag push that repeats the block's last flag write on inputs nothing
//!   wrote since is dropped (Mesa `vir_opt_redundant_flags`), unless the program reads flag
//!   B anywhere (a push moves A into B).
//! * **End**: the last-thread-switch pair rides on the last instructions before the end
//!   sequence where the signal table and Mesa's delay-slot rules allow (`emit_thrsw`).
//!
//! The end sequence (from the first `thrsw`) is otherwise kept as generated. A block holding
//! anything else (an op or register this module does not model) is kept as generated too.

use rustc_hash::FxHashMap as HashMap;

use qpu_isa::v3d::{
    self, AddOp, Alu, AluInstruction, Branch, BranchCond, BranchDest, Cond, CondField, Flags,
    InputSource, Inputs, Instruction, MulOp, Mux, PushFlag, Register, Signal, Signals, UpdateFlag,
    V3dVersion, Waddr,
};

use crate::compiler::common::liveness::{self, Access};
use crate::compiler::common::target::Facts;
use crate::error::SourceLocation;

/// An ALU input: a register-file register, a 4.2 accumulator or a small immediate (its
/// index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operand {
    Rf(u8),
    Acc(u8),
    Imm(u8),
}

/// One ALU's operation with its inputs and flag fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Op<K> {
    alu: Alu<K>,
    srcs: [Operand; 2],
    arity: u8,
    cond: Option<Cond>,
    push: Option<PushFlag>,
    update: Option<UpdateFlag>,
}

impl<K> Op<K> {
    fn inputs(&self) -> &[Operand] {
        &self.srcs[..usize::from(self.arity.min(2))]
    }

    fn sets_flags(&self) -> bool {
        self.push.is_some() || self.update.is_some()
    }
}

/// An ALU instruction taken apart: what each ALU does and the signals, independent of how
/// the operands are routed to the read ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slots {
    add: Option<Op<AddOp>>,
    mul: Option<Op<MulOp>>,
    /// Signals other than the small-immediate ones (those follow from the operands).
    signals: Signals,
    sig_addr: Option<Waddr>,
    /// The 4.2 `rot` signal's amount (`raddr_b`: a small-immediate index, 0 for r5). The
    /// signal rotates the mul ALU's inputs; port B then carries no operand.
    rot: Option<u8>,
}

const SMALL_IMMS: [Signal; 4] = [
    Signal::SmallImmA,
    Signal::SmallImmB,
    Signal::SmallImmC,
    Signal::SmallImmD,
];

fn operand(ins: &AluInstruction, n: usize) -> Operand {
    match ins.input(n) {
        InputSource::Acc(r) => Operand::Acc(r),
        InputSource::Rf(r) => Operand::Rf(r),
        InputSource::SmallImm(i) => Operand::Imm(i),
    }
}

impl Slots {
    /// Takes an instruction apart; `None` for a 4.2 `rot` whose inputs use port B.
    fn of(ins: &AluInstruction) -> Option<Slots> {
        let rot = match ins.inputs {
            Inputs::V42 {
                add_a,
                add_b,
                mul_a,
                mul_b,
                raddr_b,
                ..
            } if ins.signals.contains(Signal::Rot) => {
                let (ar, mr) = (usize::from(ins.add_arity()), usize::from(ins.mul_arity()));
                let (adds, muls) = ([add_a, add_b], [mul_a, mul_b]);
                if adds[..ar.min(2)]
                    .iter()
                    .chain(&muls[..mr.min(2)])
                    .any(|&m| m == Mux::B)
                {
                    return None;
                }
                Some(raddr_b)
            }
            _ => None,
        };
        let flags = ins.flags();
        let add = (ins.add.op != AddOp::Nop).then(|| Op {
            alu: ins.add,
            srcs: [operand(ins, 0), operand(ins, 1)],
            arity: ins.add_arity(),
            cond: flags.ac,
            push: flags.apf,
            update: flags.auf,
        });
        let mul = (ins.mul.op != MulOp::Nop).then(|| Op {
            alu: ins.mul,
            srcs: [operand(ins, 2), operand(ins, 3)],
            arity: ins.mul_arity(),
            cond: flags.mc,
            push: flags.mpf,
            update: flags.muf,
        });
        let mut signals = ins.signals;
        for s in SMALL_IMMS {
            signals = signals.without(s);
        }
        let sig_addr = match ins.cond {
            CondField::SigAddr(w) => Some(w),
            CondField::Flags(_) => None,
        };
        Some(Slots {
            add,
            mul,
            signals,
            sig_addr,
            rot,
        })
    }

    fn flags(&self) -> Flags {
        let mut f = Flags::default();
        if let Some(a) = &self.add {
            f.ac = a.cond;
            f.apf = a.push;
            f.auf = a.update;
        }
        if let Some(m) = &self.mul {
            f.mc = m.cond;
            f.mpf = m.push;
            f.muf = m.update;
        }
        f
    }

    /// The instruction, with the operands routed to the read ports, if one word can hold it.
    fn encode(&self, version: V3dVersion) -> Option<AluInstruction> {
        let flags = self.flags();
        let cond = match self.sig_addr {
            Some(w) if flags.is_empty() => CondField::SigAddr(w),
            Some(_) => return None,
            None => CondField::Flags(flags),
        };
        let nop = AluInstruction::nop(version);
        let add_alu = self.add.map_or(nop.add, |o| o.alu);
        let mul_alu = self.mul.map_or(nop.mul, |o| o.alu);
        let add_in: &[Operand] = self.add.as_ref().map_or(&[], |o| o.inputs());
        let mul_in: &[Operand] = self.mul.as_ref().map_or(&[], |o| o.inputs());
        let base = AluInstruction {
            signals: self.signals,
            cond,
            add: add_alu,
            mul: mul_alu,
            inputs: nop.inputs,
        };
        let fits = |ins: AluInstruction| {
            v3d::encode(version, &Instruction::Alu(ins))
                .is_ok()
                .then_some(ins)
        };
        let mut imms: Vec<u8> = Vec::new();
        for o in add_in.iter().chain(mul_in) {
            if let Operand::Imm(i) = *o {
                if !imms.contains(&i) {
                    imms.push(i);
                }
            }
        }
        match version {
            V3dVersion::V42 => {
                let mut regs: Vec<u8> = Vec::new();
                for o in add_in.iter().chain(mul_in) {
                    if let Operand::Rf(r) = *o {
                        if !regs.contains(&r) {
                            regs.push(r);
                        }
                    }
                }
                if imms.len() > 1 || regs.len() + imms.len() > 2 {
                    return None;
                }
                if let Some(amount) = self.rot {
                    // Port B holds the amount: no small immediate, one register on port A.
                    if !imms.is_empty() || regs.len() > 1 {
                        return None;
                    }
                    let mux = |o: Option<&Operand>| match o {
                        Some(Operand::Acc(r)) => Mux::Acc(*r),
                        Some(_) => Mux::A,
                        None => Mux::Acc(0),
                    };
                    let mut ins = base;
                    ins.inputs = Inputs::V42 {
                        add_a: mux(add_in.first()),
                        add_b: mux(add_in.get(1)),
                        mul_a: mux(mul_in.first()),
                        mul_b: mux(mul_in.get(1)),
                        raddr_a: regs.first().copied().unwrap_or(0),
                        raddr_b: amount,
                    };
                    return fits(ins);
                }
                // (register on port A, register on port B, small immediate on B)
                let routes: Vec<(Option<u8>, Option<u8>)> = match (regs.as_slice(), imms.first()) {
                    ([], _) => vec![(None, None)],
                    ([r], Some(_)) => vec![(Some(*r), None)],
                    ([r], None) => vec![(Some(*r), None), (None, Some(*r))],
                    ([r, s], None) => vec![(Some(*r), Some(*s)), (Some(*s), Some(*r))],
                    _ => return None,
                };
                let imm = imms.first().copied();
                for (a, b) in routes {
                    let mux = |o: Option<&Operand>| match o {
                        None => Mux::Acc(0),
                        Some(Operand::Acc(r)) => Mux::Acc(*r),
                        Some(Operand::Imm(_)) => Mux::B,
                        Some(Operand::Rf(r)) if Some(*r) == a => Mux::A,
                        Some(Operand::Rf(_)) => Mux::B,
                    };
                    let mut ins = base;
                    if imm.is_some() {
                        ins.signals = ins.signals.with(Signal::SmallImmB);
                    }
                    ins.inputs = Inputs::V42 {
                        add_a: mux(add_in.first()),
                        add_b: mux(add_in.get(1)),
                        mul_a: mux(mul_in.first()),
                        mul_b: mux(mul_in.get(1)),
                        raddr_a: a.unwrap_or(0),
                        raddr_b: imm.or(b).unwrap_or(0),
                    };
                    if let Some(ins) = fits(ins) {
                        return Some(ins);
                    }
                }
                None
            }
            V3dVersion::V71 => {
                // A rotate beside a mul write to a TMU register (py-videocore7
                // tests/test_guard.py; the emulator's RotateDestination rule).
                if matches!(add_alu.op, AddOp::Rot | AddOp::Rotq | AddOp::Shuffle)
                    && self.mul.is_some()
                    && mul_alu.waddr.is_tmu()
                {
                    return None;
                }
                let count = add_in
                    .iter()
                    .chain(mul_in)
                    .filter(|o| matches!(o, Operand::Imm(_)))
                    .count();
                if count > 1 {
                    return None;
                }
                let mut ins = base;
                let mut raddr = [0u8; 4];
                for (n, o) in [add_in.first(), add_in.get(1), mul_in.first(), mul_in.get(1)]
                    .into_iter()
                    .enumerate()
                {
                    match o {
                        Some(Operand::Rf(r)) => raddr[n] = *r,
                        Some(Operand::Imm(i)) => {
                            raddr[n] = *i;
                            ins.signals = ins.signals.with(SMALL_IMMS[n]);
                        }
                        Some(Operand::Acc(_)) => return None,
                        None => {}
                    }
                }
                ins.inputs = Inputs::V71 {
                    raddr_a: raddr[0],
                    raddr_b: raddr[1],
                    raddr_c: raddr[2],
                    raddr_d: raddr[3],
                };
                fits(ins)
            }
        }
    }
}

/// The add op as a mul op (Mesa `qpu_convert_add_to_mul`: `add` and `sub` exist on both
/// ALUs). Only plain encodings without flag pushes or updates move.
fn add_as_mul(op: &Op<AddOp>) -> Option<Op<MulOp>> {
    let kind = match op.alu.op {
        AddOp::Add => MulOp::Add,
        AddOp::Sub => MulOp::Sub,
        _ => return None,
    };
    if op.alu.variant != 0 || op.sets_flags() {
        return None;
    }
    Some(Op {
        alu: Alu {
            op: kind,
            variant: 0,
            waddr: op.alu.waddr,
        },
        srcs: op.srcs,
        arity: op.arity,
        cond: op.cond,
        push: None,
        update: None,
    })
}

/// The mul `mov` as an add op: 7.1's add `mov` (Mesa `qpu_convert_mul_to_add`), on 4.2 an
/// `or` of the input with itself.
fn mul_as_add(version: V3dVersion, op: &Op<MulOp>) -> Option<Op<AddOp>> {
    if op.alu.op != MulOp::Mov || op.alu.variant != 0 || op.sets_flags() {
        return None;
    }
    let (kind, srcs, arity) = match version {
        V3dVersion::V71 => (AddOp::Mov, op.srcs, 1),
        V3dVersion::V42 => (AddOp::Or, [op.srcs[0], op.srcs[0]], 2),
    };
    Some(Op {
        alu: Alu {
            op: kind,
            variant: 0,
            waddr: op.alu.waddr,
        },
        srcs,
        arity,
        cond: op.cond,
        push: None,
        update: None,
    })
}

/// An add op and a mul op for one instruction.
type Pair = (Option<Op<AddOp>>, Option<Op<MulOp>>);

/// Two instructions' work in one, if the ALUs, signals, flags and read ports allow.
fn merge(version: V3dVersion, a: &Slots, b: &Slots) -> Option<Slots> {
    if a.sig_addr.is_some() && b.sig_addr.is_some() {
        return None;
    }
    let mut signals = a.signals;
    for s in b.signals.iter() {
        signals = signals.with(s);
    }
    signals.encode(version)?;
    let sig_addr = a.sig_addr.or(b.sig_addr);
    if a.rot.is_some() && b.rot.is_some() {
        return None;
    }
    let rot = a.rot.or(b.rot);
    let mut options: Vec<Pair> = Vec::new();
    match (a.add, b.add, a.mul, b.mul) {
        (Some(_), Some(_), None, None) => {
            let (x, y) = (a.add.unwrap(), b.add.unwrap());
            if let Some(m) = add_as_mul(&y) {
                options.push((Some(x), Some(m)));
            }
            if let Some(m) = add_as_mul(&x) {
                options.push((Some(y), Some(m)));
            }
        }
        (None, None, Some(x), Some(y)) => {
            // The rotated op stays on the mul ALU.
            if let Some(o) = mul_as_add(version, &y).filter(|_| b.rot.is_none()) {
                options.push((Some(o), Some(x)));
            }
            if let Some(o) = mul_as_add(version, &x).filter(|_| a.rot.is_none()) {
                options.push((Some(o), Some(y)));
            }
        }
        (add_a, add_b, mul_a, mul_b) => {
            if (add_a.is_some() && add_b.is_some()) || (mul_a.is_some() && mul_b.is_some()) {
                return None;
            }
            options.push((add_a.or(add_b), mul_a.or(mul_b)));
        }
    }
    options.into_iter().find_map(|(add, mul)| {
        let s = Slots {
            add,
            mul,
            signals,
            sig_addr,
            rot,
        };
        s.encode(version).map(|_| s)
    })
}

/// What an instruction uses that orders it against others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Res {
    Rf(u8),
    Acc(u8),
    Flags,
    /// The uniform stream (`ldunif`, `ldunifrf`).
    Unif,
    /// The `unifa` pointer and its stream (`ldunifa`, `ldunifarf`).
    Unifa,
    /// TMU requests (`tmud`, `tmua`, `tmuwt`).
    TmuWrite,
    /// TMU results (`ldtmu`, `tmuwt`).
    TmuRead,
    Rtop,
    Sfu,
}

/// One generated instruction as the scheduler sees it.
#[derive(Clone, Debug)]
struct Node {
    /// The instruction as generated (used as is when `slots` is `None`).
    instr: AluInstruction,
    slots: Option<Slots>,
    loc: Option<SourceLocation>,
    reads: Vec<Res>,
    writes: Vec<Res>,
    sfu: bool,
    /// A peripheral access: at most one per instruction.
    peripheral: bool,
    /// Reads the uniform stream / the unifa stream.
    unif: bool,
    unifa_read: bool,
    writes_unifa: bool,
    writes_flags: bool,
    /// A TMU request that returns data (a load), and a read of TMU data.
    load: bool,
    tmua: bool,
    ldtmu: bool,
    /// A rotation: two instructions after what it reads.
    rotation: bool,
}

impl Node {
    /// Instructions that must pass after this one before a consumer of its result.
    fn exit_latency(&self, facts: &Facts) -> usize {
        if self.writes_unifa {
            facts.uniform_address
        } else if self.sfu {
            facts.sfu
        } else {
            facts.regfile
        }
    }

    fn valid_in_branch_delay_slot(&self, conditional: bool) -> bool {
        !(self.writes_unifa || self.unif || self.unifa_read || (conditional && self.writes_flags))
    }
}

/// Register-like destinations of a write address; `None` for one this module does not model.
fn waddr_res(version: V3dVersion, w: Waddr, node: &mut Node) -> Option<()> {
    if let Some(r) = w.register(version) {
        node.writes.push(register_res(r));
        return Some(());
    }
    match w.index() {
        6 => {}
        9 => {
            node.writes.push(Res::Unifa);
            node.reads.push(Res::Unifa);
            node.writes_unifa = true;
        }
        11 | 12 => {
            node.writes.push(Res::TmuWrite);
            node.reads.push(Res::TmuWrite);
            node.peripheral = true;
            node.tmua = w.index() == 12;
        }
        _ => return None,
    }
    Some(())
}

fn register_res(r: Register) -> Res {
    match r {
        Register::Rf(n) => Res::Rf(n),
        Register::Acc(n) => Res::Acc(n),
    }
}

fn pure_add(op: AddOp) -> bool {
    use AddOp::*;
    matches!(
        op,
        Fadd | Faddnf
            | Vfpack
            | Add
            | Sub
            | Fsub
            | Min
            | Max
            | Umin
            | Umax
            | Shl
            | Shr
            | Asr
            | Ror
            | Fmin
            | Fmax
            | Vfmin
            | And
            | Or
            | Xor
            | Vadd
            | Vsub
            | Not
            | Neg
            | Nop
            | Tidx
            | Eidx
            | Iid
            | Fcmp
            | Vfmax
            | Fround
            | Ftoin
            | Ftrunc
            | Ftoiz
            | Ffloor
            | Ftouz
            | Fceil
            | Ftoc
            | Itof
            | Clz
            | Utof
            | Fmov
            | Mov
            | Vpack
            | V8pack
            | V10pack
            | V11fpack
    )
}

/// The scheduler's view of an ALU instruction; `None` if it uses something not modelled.
fn node(
    version: V3dVersion,
    instr: AluInstruction,
    loc: Option<SourceLocation>,
    data_pending: bool,
) -> Option<Node> {
    let mut n = Node {
        instr,
        slots: None,
        loc,
        reads: Vec::new(),
        writes: Vec::new(),
        sfu: false,
        peripheral: false,
        unif: false,
        unifa_read: false,
        writes_unifa: false,
        writes_flags: false,
        load: false,
        tmua: false,
        ldtmu: false,
        rotation: false,
    };
    let v42 = version == V3dVersion::V42;
    // The reads, writes and effects come from the instruction's info; what this function
    // adds is which of them the scheduler models (anything else keeps the block as it is).
    let info = instr.info(version);
    let sigs = instr.signals;
    for s in sigs.iter() {
        match s {
            Signal::Ldunif | Signal::Ldunifrf => {
                n.unif = true;
                n.reads.push(Res::Unif);
                n.writes.push(Res::Unif);
                if let (Signal::Ldunif, Some(r)) = (s, info.writes[2]) {
                    n.writes.push(register_res(r));
                }
            }
            Signal::Ldunifa | Signal::Ldunifarf => {
                n.unifa_read = true;
                n.reads.push(Res::Unifa);
                n.writes.push(Res::Unifa);
                if let (Signal::Ldunifa, Some(r)) = (s, info.writes[4]) {
                    n.writes.push(register_res(r));
                }
            }
            Signal::Ldtmu => {
                n.ldtmu = true;
                n.peripheral = true;
                n.reads.push(Res::TmuRead);
                n.writes.push(Res::TmuRead);
            }
            Signal::Rot if v42 => n.rotation = true,
            Signal::SmallImmA | Signal::SmallImmB | Signal::SmallImmC | Signal::SmallImmD => {}
            _ => return None,
        }
    }
    if let CondField::SigAddr(w) = instr.cond {
        // The destinations modelled for a signal: a register-file register or, on 4.2, an
        // accumulator (magic 0-5).
        let modelled = !w.is_magic() || (v42 && w.index() <= 5);
        match w.register(version).filter(|_| modelled) {
            Some(r) => n.writes.push(register_res(r)),
            None => return None,
        }
    }
    if info.reads_flags {
        n.reads.push(Res::Flags);
    }
    if info.writes_flags {
        n.reads.push(Res::Flags);
        n.writes.push(Res::Flags);
        n.writes_flags = true;
    }
    let add_live = instr.add.op != AddOp::Nop;
    let mul_live = instr.mul.op != MulOp::Nop;
    let read = |n: &mut Node, r: Option<Register>| {
        if let Some(r) = r {
            n.reads.push(register_res(r));
        }
    };
    if add_live {
        match instr.add.op {
            op if pure_add(op) => {}
            AddOp::Tmuwt => {
                n.peripheral = true;
                for r in [Res::TmuWrite, Res::TmuRead] {
                    n.reads.push(r);
                    n.writes.push(r);
                }
            }
            AddOp::Rot if !v42 => n.rotation = true,
            // An SFU op (the add op is not pure, so the info's SFU use is the op's).
            _ if info.sfu => {
                n.sfu = true;
                n.peripheral = true;
                n.reads.push(Res::Sfu);
                n.writes.push(Res::Sfu);
            }
            _ => return None,
        }
        read(&mut n, info.reads[0]);
        read(&mut n, info.reads[1]);
        waddr_res(version, instr.add.waddr, &mut n)?;
    }
    if mul_live {
        if info.rtop {
            n.reads.push(Res::Rtop);
            n.writes.push(Res::Rtop);
        }
        for i in 0..usize::from(instr.mul_arity().min(2)) {
            // The rotated input must come from an accumulator (the only form generated).
            if n.rotation && v42 && !matches!(operand(&instr, 2 + i), Operand::Acc(_)) {
                return None;
            }
            read(&mut n, info.reads[2 + i]);
        }
        waddr_res(version, instr.mul.waddr, &mut n)?;
    }
    if n.rotation && v42 {
        if let Inputs::V42 { raddr_b: 0, .. } = instr.inputs {
            n.reads.push(Res::Acc(5));
        }
    }
    if n.tmua {
        n.load = !data_pending;
    }
    // An instruction that does not re-encode from its parts stays alone.
    n.slots = Slots::of(&instr).filter(|s| s.encode(version).is_some());
    Some(n)
}

/// An add op that only pushes a flag: no register write, no signal, no condition, no mul op
/// (repeating it with the same inputs leaves flag A as it is; Mesa
/// `vir_opt_redundant_flags` drops such repeats before scheduling).
fn is_plain_push(ins: &AluInstruction) -> bool {
    let f = ins.flags();
    ins.add.op != AddOp::Nop
        && ins.add.waddr == Waddr::NOP
        && ins.mul.op == MulOp::Nop
        && ins.signals.iter().all(|s| SMALL_IMMS.contains(&s))
        && f.apf.is_some()
        && f.ac.is_none()
        && f.mc.is_none()
        && f.auf.is_none()
        && f.mpf.is_none()
        && f.muf.is_none()
}

fn is_nop(ins: &AluInstruction) -> bool {
    ins.add.op == AddOp::Nop
        && ins.mul.op == MulOp::Nop
        && ins.signals == Signals::NONE
        && ins.cond == CondField::Flags(Flags::default())
}

/// A dependency: `to` waits `latency` instructions after `from` (0: may share it).
#[derive(Clone, Copy, Debug)]
struct Edge {
    to: usize,
    latency: usize,
    /// Weight for the priority (the TMU round trip for a load's result).
    weight: usize,
}

/// The dependency graph of a block, with the latencies of `facts`; a TMU request's edge to
/// the `ldtmu` reading its data weighs `facts.tmu_lookup` in the priorities.
fn edges(nodes: &[Node], facts: &Facts) -> (Vec<Vec<Edge>>, Vec<usize>) {
    let mut out: Vec<Vec<Edge>> = vec![Vec::new(); nodes.len()];
    let mut preds = vec![0usize; nodes.len()];
    let mut last_write: HashMap<Res, usize> = HashMap::default();
    let mut readers: HashMap<Res, Vec<usize>> = HashMap::default();
    let mut last_tmua: Option<usize> = None;
    let add = |out: &mut Vec<Vec<Edge>>, from: usize, to: usize, latency: usize| {
        let weight = if nodes[from].load && nodes[to].ldtmu {
            facts.tmu_lookup
        } else {
            latency.max(1)
        };
        out[from].push(Edge {
            to,
            latency,
            weight,
        });
    };
    for (i, n) in nodes.iter().enumerate() {
        for r in &n.reads {
            if let Some(&w) = last_write.get(r) {
                let mut latency = facts.regfile;
                if nodes[w].sfu {
                    latency = facts.sfu;
                }
                if *r == Res::Unifa && nodes[w].writes_unifa && n.unifa_read {
                    latency = facts.uniform_address;
                }
                if n.rotation {
                    latency = latency.max(facts.rotate_source);
                }
                add(&mut out, w, i, latency);
            }
        }
        if n.ldtmu {
            if let Some(t) = last_tmua {
                add(&mut out, t, i, 1);
            }
        }
        for r in &n.writes {
            if let Some(&w) = last_write.get(r) {
                let latency = if nodes[w].sfu { facts.sfu } else { 1 };
                add(&mut out, w, i, latency);
            }
            for &j in readers.get(r).map_or(&[][..], |v| v.as_slice()) {
                if j != i {
                    add(&mut out, j, i, 0);
                }
            }
        }
        for r in &n.writes {
            last_write.insert(*r, i);
            readers.insert(*r, Vec::new());
        }
        for r in &n.reads {
            if !n.writes.contains(r) {
                readers.entry(*r).or_default().push(i);
            }
        }
        if n.tmua {
            last_tmua = Some(i);
        }
    }
    for list in &out {
        for e in list {
            preds[e.to] += 1;
        }
    }
    (out, preds)
}

/// One scheduled instruction.
#[derive(Clone, Debug)]
struct Issued {
    instr: AluInstruction,
    loc: Option<SourceLocation>,
    /// The nodes it holds (indices into the block's nodes).
    nodes: Vec<usize>,
}

impl Issued {
    fn nop(version: V3dVersion) -> Issued {
        Issued {
            instr: AluInstruction::nop(version),
            loc: None,
            nodes: Vec::new(),
        }
    }
}

/// TMU results outstanding before each instruction (the most on any path into it, at most
/// `fifo`) and whether store data waits for its address (on some path), by a forward pass
/// over the control flow repeated until nothing changes. A branch at `b` takes effect after
/// its three delay slots: the last slot leads to the target, and to `b + 4` unless the
/// branch is unconditional. `targets` maps each branch to its target.
fn tmu_state(
    instrs: &[Instruction],
    targets: &HashMap<usize, usize>,
    fifo: u32,
) -> (Vec<u32>, Vec<bool>) {
    let len = instrs.len();
    let mut count = vec![0u32; len + 1];
    let mut data = vec![false; len + 1];
    let mut reached = vec![false; len + 1];
    reached[0] = true;
    // The successors of the last delay slot of each branch.
    let mut after_slots: HashMap<usize, (usize, bool)> = HashMap::default();
    for (&b, &t) in targets {
        let always = matches!(&instrs[b], Instruction::Branch(br) if br.cond == BranchCond::Always);
        after_slots.insert(b + 3, (t, !always));
    }
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..len {
            if !reached[i] {
                continue;
            }
            let (mut c, mut d) = (count[i], data[i]);
            if let Instruction::Alu(a) = &instrs[i] {
                if a.signals.contains(Signal::Ldtmu) {
                    c = c.saturating_sub(1);
                }
                for (live, w) in [
                    (a.add.op != AddOp::Nop, a.add.waddr),
                    (a.mul.op != MulOp::Nop, a.mul.waddr),
                ] {
                    if live && w == Waddr::TMUD {
                        d = true;
                    } else if live && w == Waddr::TMUA {
                        if d {
                            d = false;
                        } else {
                            c = (c + 1).min(fifo);
                        }
                    }
                }
            }
            let successors: Vec<usize> = match after_slots.get(&i) {
                Some(&(t, true)) => vec![t, i + 1],
                Some(&(t, false)) => vec![t],
                None => vec![i + 1],
            };
            for s in successors {
                if !reached[s] || c > count[s] || (d && !data[s]) {
                    reached[s] = true;
                    count[s] = count[s].max(c);
                    data[s] |= d;
                    changed = true;
                }
            }
        }
    }
    (count, data)
}

/// List-schedules one block's nodes; `outstanding` is the TMU results waiting at its start.
fn schedule(
    how: &Packing,
    nodes: &[Node],
    mut outstanding: u32,
    flags_branch: bool,
) -> Option<Vec<Issued>> {
    let (version, fifo, facts) = (how.version, how.fifo, how.facts);
    let (succ, mut preds) = edges(nodes, facts);
    // Longest weighted path to the end of the block. The last flag write before a
    // conditional branch counts the branch and its three delay slots too, so that it comes
    // early enough for the branch to move up over the instructions after it.
    let mut delay = vec![1usize; nodes.len()];
    if flags_branch {
        if let Some(last) = nodes.iter().rposition(|n| n.writes_flags) {
            delay[last] = facts.branch_delay_slots + 2;
        }
    }
    for i in (0..nodes.len()).rev() {
        for e in &succ[i] {
            delay[i] = delay[i].max(delay[e.to] + e.weight);
        }
    }
    // A result requested before the block (a prefetch) is there to be read: its `ldtmu`
    // ranks as if a request in the block fed it, so that signals with longer chains (the
    // uniform reads of SGEMM's inner loop) do not take every signal slot before it and leave
    // its readers, and the FIFO space it holds, waiting.
    let first_request = nodes.iter().position(|n| n.load).unwrap_or(nodes.len());
    for (i, n) in nodes.iter().enumerate().take(first_request) {
        if n.ldtmu {
            delay[i] += facts.tmu_lookup;
        }
    }
    let mut earliest: Vec<usize> = nodes
        .iter()
        .map(|n| {
            if n.rotation {
                facts.rotate_source - 1
            } else {
                0
            }
        })
        .collect();
    let mut left = nodes.len();
    let mut out: Vec<Issued> = Vec::new();
    let mut cycle = 0usize;
    // The nodes whose predecessors have all issued, in priority order (longest path first,
    // then program order): kept as nodes issue, so that picking is not a scan of the block.
    let key = |i: usize| (std::cmp::Reverse(delay[i]), i);
    let mut avail: std::collections::BTreeSet<(std::cmp::Reverse<usize>, usize)> = (0..nodes.len())
        .filter(|&i| preds[i] == 0)
        .map(key)
        .collect();
    while left > 0 {
        // Every node is ready within its latencies of the last one issued; a block that is
        // not done long after that has a dependency the graph cannot satisfy.
        if cycle > 8 * nodes.len() + 64 {
            return None;
        }
        let mut cur: Option<(Option<Slots>, Issued)> = None;
        let mut peripheral = false;
        let mut unif = false;
        let mut unifa = false;
        loop {
            let ready = avail
                .iter()
                .map(|&(_, i)| i)
                .filter(|&i| earliest[i] <= cycle)
                .filter(|&i| !(nodes[i].load && outstanding >= fifo));
            let mut chosen = None;
            for i in ready {
                let n = &nodes[i];
                match &cur {
                    None => {
                        chosen = Some((i, n.slots));
                        break;
                    }
                    Some((None, _)) => break,
                    Some((Some(s), _)) => {
                        // Without dual issue, one ALU operation an instruction (signals
                        // still ride along).
                        let alu = |x: &Slots| x.add.is_some() || x.mul.is_some();
                        if !how.dual_issue && n.slots.as_ref().is_some_and(alu) && alu(s) {
                            continue;
                        }
                        if (peripheral && n.peripheral)
                            || (unif && n.unifa_read)
                            || (unifa && n.unif)
                        {
                            continue;
                        }
                        let Some(ns) = &n.slots else { continue };
                        if let Some(m) = merge(version, s, ns) {
                            chosen = Some((i, Some(m)));
                            break;
                        }
                    }
                }
            }
            let Some((i, slots)) = chosen else { break };
            let n = &nodes[i];
            peripheral |= n.peripheral;
            unif |= n.unif;
            unifa |= n.unifa_read;
            if n.load {
                outstanding += 1;
            }
            if n.ldtmu {
                outstanding = outstanding.saturating_sub(1);
            }
            avail.remove(&key(i));
            left -= 1;
            for e in &succ[i] {
                preds[e.to] -= 1;
                earliest[e.to] = earliest[e.to].max(cycle + e.latency);
                if preds[e.to] == 0 {
                    avail.insert(key(e.to));
                }
            }
            match &mut cur {
                None => {
                    let instr = match &slots {
                        Some(s) => s.encode(version).unwrap_or(n.instr),
                        None => n.instr,
                    };
                    cur = Some((
                        slots,
                        Issued {
                            instr,
                            loc: n.loc,
                            nodes: vec![i],
                        },
                    ));
                }
                Some((s, issued)) => {
                    *s = slots;
                    issued.nodes.push(i);
                    if issued.loc.is_none() {
                        issued.loc = n.loc;
                    }
                }
            }
        }
        match cur {
            Some((slots, mut issued)) => {
                if let Some(s) = slots {
                    issued.instr = s
                        .encode(version)
                        .expect("merged slots were checked to encode");
                }
                out.push(issued);
            }
            None => {
                // A wait inside the block belongs to the statement before it.
                let mut nop = Issued::nop(version);
                nop.loc = out.last().and_then(|i: &Issued| i.loc);
                out.push(nop);
            }
        }
        cycle += 1;
    }
    Some(out)
}

/// Packs a program (the assembled output of the code generator) and returns the new
/// instructions with their source locations. A program whose control flow it does not
/// recognise is returned unchanged.
pub(super) fn pack(
    how: &Packing,
    instrs: &[Instruction],
    locations: &[Option<SourceLocation>],
) -> (Vec<Instruction>, Vec<Option<SourceLocation>>) {
    pack_blocks(how, instrs, locations).unwrap_or_else(|| (instrs.to_vec(), locations.to_vec()))
}

/// What the packer is told: the version, this thread's share of the TMU output FIFO, the
/// latencies to keep and whether to pair an add and a mul operation in one instruction.
pub(super) struct Packing {
    pub version: V3dVersion,
    pub fifo: u32,
    pub facts: &'static Facts,
    pub dual_issue: bool,
}

fn pack_blocks(
    how: &Packing,
    instrs: &[Instruction],
    locations: &[Option<SourceLocation>],
) -> Option<(Vec<Instruction>, Vec<Option<SourceLocation>>)> {
    let (version, fifo, facts) = (how.version, how.fifo, how.facts);
    let delay_slots = facts.branch_delay_slots;
    let len = instrs.len();
    let tail = instrs
        .iter()
        .position(|i| matches!(i, Instruction::Alu(a) if a.signals.contains(Signal::Thrsw)))
        .unwrap_or(len);
    let mut leaders = vec![false; len + 1];
    leaders[0] = true;
    leaders[tail] = true;
    let mut targets: HashMap<usize, usize> = HashMap::default();
    for (i, ins) in instrs.iter().enumerate() {
        if let Instruction::Branch(b) = ins {
            if i + 4 > tail || b.bdi != BranchDest::Rel || b.link || b.ub {
                return None;
            }
            let target = (i as i64 + 4) + i64::from(b.offset as i32) / 8;
            let target = usize::try_from(target).ok().filter(|&t| t <= tail)?;
            targets.insert(i, target);
            leaders[target] = true;
            leaders[i + 4] = true;
        }
    }
    // TMU results outstanding before each instruction and whether store data waits: the
    // most on any path into it (an `if_` may gather or receive on one path only), counted
    // up to the FIFO's size so that a loop that keeps more waiting still settles.
    let (outstanding, data_pending) = tmu_state(instrs, &targets, fifo);

    // A repeated flag push is dropped only if nothing reads flag B (a push moves A into B).
    let reads_flag_b = instrs.iter().any(|i| match i {
        Instruction::Alu(a) => {
            let f = a.flags();
            [f.ac, f.mc]
                .iter()
                .any(|c| matches!(c, Some(Cond::IfB | Cond::IfNb)))
                || [a.add.op].iter().any(|op| {
                    matches!(
                        op,
                        AddOp::Vflb | AddOp::Vflnb | AddOp::Flbpush | AddOp::Flpop
                    )
                })
        }
        Instruction::Branch(_) => false,
    });
    let mut out: Vec<Instruction> = Vec::new();
    let mut out_locs: Vec<Option<SourceLocation>> = Vec::new();
    let mut new_index = vec![usize::MAX; len + 1];
    let mut branches: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    while start < tail {
        let end = (start + 1..=tail).find(|&i| leaders[i]).unwrap_or(tail);
        new_index[start] = out.len();
        let block = &instrs[start..end];
        // A block ends with its branch and three delay slots, or has no branch.
        let branch_at = block
            .iter()
            .position(|i| matches!(i, Instruction::Branch(_)));
        let body_end = match branch_at {
            Some(b) if start + b + 4 == end => start + b,
            Some(_) => return None,
            None => end,
        };
        let slots_are_nops = instrs[body_end..end]
            .iter()
            .skip(1)
            .all(|i| matches!(i, Instruction::Alu(a) if is_nop(a)));
        let mut nodes: Vec<Node> = Vec::new();
        let mut known = slots_are_nops;
        // The last flag push if it is a plain one, and what was written since.
        let mut last_push: Option<AluInstruction> = None;
        let mut written: Vec<Res> = Vec::new();
        for i in start..body_end {
            match &instrs[i] {
                Instruction::Alu(a) if is_nop(a) => {}
                Instruction::Alu(a) => match node(version, *a, locations[i], data_pending[i]) {
                    Some(n) => {
                        if n.writes_flags {
                            let again = !reads_flag_b
                                && last_push == Some(*a)
                                && !n.reads.iter().any(|r| {
                                    matches!(r, Res::Rf(_) | Res::Acc(_)) && written.contains(r)
                                });
                            if again {
                                // The same push of the same values: flag A is already so.
                                continue;
                            }
                            last_push = is_plain_push(a).then_some(*a);
                            written.clear();
                        }
                        written.extend(n.writes.iter().copied());
                        nodes.push(n);
                    }
                    None => known = false,
                },
                Instruction::Branch(_) => known = false,
            }
        }
        let scheduled = if known {
            let flags_branch = branch_at.is_some_and(
                |b| matches!(&block[b], Instruction::Branch(br) if br.cond != BranchCond::Always),
            );
            schedule(how, &nodes, outstanding[start], flags_branch)
        } else {
            None
        };
        let Some(mut issued) = scheduled else {
            // Kept as generated.
            for i in start..end {
                if let Some(&t) = targets.get(&i) {
                    branches.push((out.len(), t));
                }
                out.push(instrs[i]);
                out_locs.push(locations[i]);
            }
            start = end;
            continue;
        };
        match branch_at {
            None => {
                // Latencies elapse before the next block starts.
                let need = issued
                    .iter()
                    .enumerate()
                    .flat_map(|(c, i)| i.nodes.iter().map(move |&n| (c, n)))
                    .map(|(c, n)| c + nodes[n].exit_latency(facts))
                    .max()
                    .unwrap_or(0);
                while issued.len() < need {
                    let mut nop = Issued::nop(version);
                    nop.loc = issued.last().and_then(|i| i.loc);
                    issued.push(nop);
                }
                for i in issued {
                    out.push(Instruction::Alu(i.instr));
                    out_locs.push(i.loc);
                }
            }
            Some(_) => {
                let Instruction::Branch(br) = instrs[body_end] else {
                    unreachable!("branch_at points at a branch")
                };
                let conditional = br.cond != BranchCond::Always;
                let n = issued.len();
                // How many of the last instructions can run in the delay slots.
                let mut k = 0;
                while k < delay_slots && k < n {
                    let slot = &issued[n - 1 - k];
                    if slot.nodes.is_empty()
                        || !slot
                            .nodes
                            .iter()
                            .all(|&x| nodes[x].valid_in_branch_delay_slot(conditional))
                    {
                        break;
                    }
                    k += 1;
                }
                // Each delay-slot instruction's latencies elapse within the slots.
                loop {
                    let ok = (0..k).all(|j| {
                        issued[n - k + j]
                            .nodes
                            .iter()
                            .all(|&x| j + nodes[x].exit_latency(facts) <= delay_slots)
                    });
                    if ok {
                        break;
                    }
                    k -= 1;
                }
                let (before, slots) = issued.split_at(n - k);
                let mut before = before.to_vec();
                // No branch within three instructions after a unifa write, and every
                // latency elapsed where the successors start (branch + 3 slots later).
                loop {
                    let m = before.len();
                    let unifa_close = before[m.saturating_sub(3)..]
                        .iter()
                        .any(|i| i.nodes.iter().any(|&x| nodes[x].writes_unifa));
                    let late = before.iter().enumerate().any(|(c, i)| {
                        i.nodes
                            .iter()
                            .any(|&x| c + nodes[x].exit_latency(facts) > m + delay_slots + 1)
                    });
                    if !unifa_close && !late {
                        break;
                    }
                    let mut nop = Issued::nop(version);
                    nop.loc = before.last().and_then(|i| i.loc);
                    before.push(nop);
                }
                for i in before {
                    out.push(Instruction::Alu(i.instr));
                    out_locs.push(i.loc);
                }
                branches.push((out.len(), targets[&body_end]));
                out.push(instrs[body_end]);
                out_locs.push(locations[body_end]);
                for j in 0..delay_slots {
                    match slots.get(j) {
                        Some(i) => {
                            out.push(Instruction::Alu(i.instr));
                            out_locs.push(i.loc);
                        }
                        // An empty delay slot belongs to the branch's statement.
                        None => {
                            out.push(Instruction::Alu(AluInstruction::nop(version)));
                            out_locs.push(locations[body_end]);
                        }
                    }
                }
            }
        }
        start = end;
    }
    let jumps_to_end = targets.values().any(|&t| t == tail);
    new_index[tail] = out.len();
    if jumps_to_end
        || !fold_end(
            version,
            &instrs[tail..],
            &mut out,
            &mut out_locs,
            &targets,
            &new_index,
        )
    {
        out.extend_from_slice(&instrs[tail..]);
        out_locs.extend_from_slice(&locations[tail..]);
    }
    let live = live_at_leaders(version, instrs, &leaders, &targets, tail);
    // The block (by its leader's input index) that starts at each output position.
    let mut leader_at: HashMap<usize, usize> = HashMap::default();
    for i in (0..=tail).filter(|&i| leaders[i]) {
        leader_at.entry(new_index[i]).or_insert(i);
    }
    let mut branches: Vec<(usize, usize, usize)> =
        branches.into_iter().map(|(at, t)| (at, t, 0)).collect();
    for (at, target, skip) in &mut branches {
        let Instruction::Branch(b) = out[*at] else {
            unreachable!("recorded branch positions hold branches")
        };
        // The exit: the block after the branch's delay slots.
        let Some(&exit) = leader_at.get(&(*at + 4)) else {
            continue;
        };
        *skip = fill_from_target(
            how,
            &mut out,
            &mut out_locs,
            *at,
            new_index[*target],
            b.cond,
            live.as_ref().and_then(|l| l.get(&exit)),
        );
    }
    for (at, target, skip) in branches {
        let to = new_index[target];
        if to == usize::MAX {
            return None;
        }
        let to = to + skip;
        let Instruction::Branch(b) = &mut out[at] else {
            unreachable!("recorded branch positions hold branches")
        };
        let offset = (to as i64 - (at as i64 + 4)) * 8;
        *b = Branch {
            offset: offset as i32 as u32,
            ..*b
        };
    }
    Some((out, out_locs))
}

/// The registers (register-file registers and 4.2 accumulators) live at the start of each
/// block (by the input index of its leader): read on some path from there before being
/// written unconditionally. `None` when an instruction's registers are not modelled.
fn live_at_leaders(
    version: V3dVersion,
    instrs: &[Instruction],
    leaders: &[bool],
    targets: &HashMap<usize, usize>,
    tail: usize,
) -> Option<HashMap<usize, Vec<Res>>> {
    let len = instrs.len();
    // Blocks: [start, end) between leaders; the end sequence (from `tail`) is one block.
    let starts: Vec<usize> = (0..len).filter(|&i| leaders[i] || i == tail).collect();
    // Registers as values: rf0–rf63 as 0–63, accumulators r0–r5 as 64–69.
    let value = |r: &Res| match *r {
        Res::Rf(n) => Some(u32::from(n)),
        Res::Acc(n) => Some(64 + u32::from(n)),
        _ => None,
    };
    let register = |v: u32| {
        if v < 64 {
            Res::Rf(v as u8)
        } else {
            Res::Acc((v - 64) as u8)
        }
    };
    // Each instruction's register reads, and the writes that end a value (unconditional).
    let mut accesses: Vec<(Vec<u32>, Vec<u32>)> = vec![(Vec::new(), Vec::new()); len];
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    let mut succ: Vec<Vec<usize>> = Vec::new();
    for (n, &start) in starts.iter().enumerate() {
        let end = if start >= tail {
            len
        } else {
            starts.get(n + 1).copied().unwrap_or(len)
        };
        let mut next: Vec<usize> = Vec::new();
        let mut falls = end < len;
        for (i, ins) in instrs.iter().enumerate().take(end).skip(start) {
            match ins {
                Instruction::Branch(b) => {
                    next.push(*targets.get(&i)?);
                    falls &= b.cond != BranchCond::Always;
                }
                Instruction::Alu(a) => {
                    // The end sequence's thread switches touch no register.
                    let mut a = *a;
                    a.signals = Signals::of(
                        &a.signals
                            .iter()
                            .filter(|&s| s != Signal::Thrsw)
                            .collect::<Vec<_>>(),
                    );
                    let n = node(version, a, None, false)?;
                    let reads = n.reads.iter().filter_map(value).collect();
                    let f = a.flags();
                    let kills = if f.ac.is_none() && f.mc.is_none() {
                        n.writes.iter().filter_map(value).collect()
                    } else {
                        Vec::new()
                    };
                    accesses[i] = (reads, kills);
                }
            }
        }
        if falls {
            next.push(end);
        }
        blocks.push((start, end));
        succ.push(next);
    }
    let block_of: HashMap<usize, usize> = starts.iter().enumerate().map(|(n, &s)| (s, n)).collect();
    let succ: Vec<Vec<usize>> = succ
        .iter()
        .map(|next| next.iter().map(|t| block_of.get(t).copied()).collect())
        .collect::<Option<Vec<Vec<usize>>>>()?;
    let (live_in, _) = liveness::solve(&Machine {
        blocks,
        successors: succ,
        accesses,
    });
    Some(
        starts
            .iter()
            .enumerate()
            .map(|(b, &start)| (start, live_in[b].iter().map(|&v| register(v)).collect()))
            .collect(),
    )
}

/// Machine instructions as the shared analyses see them: blocks, successors, and each
/// instruction's register reads and value-ending writes (from its [`node`], which reads
/// `AluInstruction::info`), registers numbered rf0–rf63 as 0–63 and r0–r5 as 64–69.
struct Machine {
    blocks: Vec<(usize, usize)>,
    successors: Vec<Vec<usize>>,
    accesses: Vec<(Vec<u32>, Vec<u32>)>,
}

impl liveness::Function for Machine {
    fn blocks(&self) -> &[(usize, usize)] {
        &self.blocks
    }

    fn successors(&self, b: usize) -> &[usize] {
        &self.successors[b]
    }

    fn values(&self) -> usize {
        70
    }

    fn operands(&self, i: usize, visit: &mut dyn FnMut(Access)) {
        let (reads, kills) = &self.accesses[i];
        for &r in reads {
            visit(Access::Read(r));
        }
        for &k in kills {
            visit(Access::Kill(k));
        }
    }
}

/// Fills the empty delay slots of the branch at `at` with copies of the first instructions
/// at its target (output position `to`, already emitted: a backward branch) and returns how
/// many it copied: the branch then goes that many instructions past the target. Mesa's
/// scheduler fills branch delay slots from the target the same way for loops, and the
/// VideoCore IV scheduler here does too. A conditional branch that falls through runs the
/// copies once more, so a copy must be harmless there: no memory, uniform, SFU, flag or
/// rtop effect, and only registers dead at the exit (`live`) written. Latencies: every
/// result of the branch's block must be readable at the first copy, and the copies keep
/// their spacing to what they feed after the target.
fn fill_from_target(
    how: &Packing,
    out: &mut [Instruction],
    out_locs: &mut [Option<SourceLocation>],
    at: usize,
    to: usize,
    cond: BranchCond,
    live: Option<&Vec<Res>>,
) -> usize {
    let (version, facts) = (how.version, how.facts);
    let slots = facts.branch_delay_slots;
    if to >= at || at + slots >= out.len() {
        return 0;
    }
    let nop = |i: &Instruction| matches!(i, Instruction::Alu(a) if is_nop(a));
    // The filled slots come first; the empty ones are the nops after them.
    let filled = (0..slots).take_while(|&j| !nop(&out[at + 1 + j])).count();
    if (filled..slots).any(|j| !nop(&out[at + 1 + j])) {
        return 0;
    }
    let empty = slots - filled;
    let exit_live: &[Res] = match (cond, live) {
        (BranchCond::Always, _) => &[],
        (_, Some(l)) => l,
        (_, None) => return 0,
    };
    let harmless = |i: &Instruction| -> Option<Node> {
        let Instruction::Alu(a) = i else { return None };
        let n = node(version, *a, None, false)?;
        let quiet = !(n.sfu
            || n.peripheral
            || n.unif
            || n.unifa_read
            || n.writes_unifa
            || n.writes_flags
            || n.rotation
            || is_nop(a));
        let dead = n.writes.iter().all(|r| match r {
            Res::Rf(_) | Res::Acc(_) => !exit_live.contains(r),
            _ => false,
        });
        (quiet && dead).then_some(n)
    };
    // The copies: the target's first instructions, none of them a branch target but the
    // first, all before this branch.
    let mut count = 0;
    while count < empty && to + count < at && harmless(&out[to + count]).is_some() {
        count += 1;
    }
    if count == 0 {
        return 0;
    }
    // Every result of the branch's block (back to the target for a one-block loop) must be
    // readable where the first copy runs.
    let first_copy = at + 1 + filled;
    let block_start = (to..at)
        .rev()
        .find(|&j| matches!(out[j], Instruction::Branch(_)));
    let from = block_start.map_or(to, |b| b + slots + 1);
    let ready = (from..first_copy).all(|j| match &out[j] {
        Instruction::Alu(a) => {
            node(version, *a, None, false).is_some_and(|n| j + n.exit_latency(facts) <= first_copy)
        }
        Instruction::Branch(_) => true,
    });
    if !ready {
        return 0;
    }
    for k in 0..count {
        out[first_copy + k] = out[to + k];
        out_locs[first_copy + k] = out_locs[to + k];
    }
    count
}

/// The generated end: the last-thread-switch pair, two nops, the final `thrsw` and its two
/// delay slots.
fn is_generated_end(end: &[Instruction]) -> bool {
    let thrsw = Signals::NONE.with(Signal::Thrsw);
    let pattern = [true, true, false, false, true, false, false];
    end.len() == pattern.len()
        && end.iter().zip(pattern).all(|(i, t)| match i {
            Instruction::Alu(a) if t => {
                is_nop(&AluInstruction {
                    signals: Signals::NONE,
                    ..*a
                }) && a.signals == thrsw
            }
            Instruction::Alu(a) => is_nop(a),
            Instruction::Branch(_) => false,
        })
}

/// Puts the last-thread-switch pair on the last one or two instructions of the code before
/// the end (Mesa `emit_thrsw` moves a `thrsw` up the same way) and the final `thrsw` three
/// instructions after the pair's first (Mesa: no `thrsw` before the previous one has taken
/// effect). An instruction takes the signal if the signal table has room, it is not in a
/// branch's delay slots, starts no SFU operation and writes no `unifa`
/// (`qpu_inst_before_thrsw_valid_in_delay_slot`), and, for the first of two, the second is
/// not a branch target. Returns false (nothing changed) when no instruction qualifies.
fn fold_end(
    version: V3dVersion,
    end: &[Instruction],
    out: &mut Vec<Instruction>,
    out_locs: &mut Vec<Option<SourceLocation>>,
    targets: &HashMap<usize, usize>,
    new_index: &[usize],
) -> bool {
    if !is_generated_end(end) {
        return false;
    }
    let m = out.len();
    let is_target = |j: usize| targets.values().any(|&t| new_index[t] == j);
    let takes_thrsw = |j: usize| -> bool {
        let Instruction::Alu(a) = &out[j] else {
            return false;
        };
        let in_branch_slots = out[j.saturating_sub(3)..j]
            .iter()
            .any(|i| matches!(i, Instruction::Branch(_)));
        let sfu = matches!(
            a.add.op,
            AddOp::Recip | AddOp::Rsqrt | AddOp::Rsqrt2 | AddOp::Exp | AddOp::Log | AddOp::Sin
        ) || [
            (a.add.op != AddOp::Nop, a.add.waddr),
            (a.mul.op != MulOp::Nop, a.mul.waddr),
        ]
        .iter()
        .any(|&(live, w)| live && w.is_sfu(V3dVersion::V42));
        let unifa = [
            (a.add.op != AddOp::Nop, a.add.waddr),
            (a.mul.op != MulOp::Nop, a.mul.waddr),
        ]
        .iter()
        .any(|&(live, w)| live && w == Waddr::UNIFA);
        !in_branch_slots
            && !sfu
            && !unifa
            && !a.signals.contains(Signal::Thrsw)
            && a.signals.with(Signal::Thrsw).encode(version).is_some()
    };
    let pair = if m >= 2 && takes_thrsw(m - 2) && takes_thrsw(m - 1) && !is_target(m - 1) {
        m - 2
    } else if m >= 1 && takes_thrsw(m - 1) {
        m - 1
    } else {
        return false;
    };
    let thrsw = |i: &mut Instruction| {
        if let Instruction::Alu(a) = i {
            a.signals = a.signals.with(Signal::Thrsw);
        }
    };
    thrsw(&mut out[pair]);
    let mut second = AluInstruction::nop(version);
    second.signals = Signals::NONE.with(Signal::Thrsw);
    if pair + 1 < m {
        thrsw(&mut out[pair + 1]);
    } else {
        out.push(Instruction::Alu(second));
        out_locs.push(None);
    }
    while out.len() < pair + 3 {
        out.push(Instruction::Alu(AluInstruction::nop(version)));
        out_locs.push(None);
    }
    out.push(Instruction::Alu(second));
    out_locs.push(None);
    for _ in 0..2 {
        out.push(Instruction::Alu(AluInstruction::nop(version)));
        out_locs.push(None);
    }
    true
}

#[cfg(test)]
mod tests;
