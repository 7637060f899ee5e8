//! Lowering: the kernel AST to the target IR over virtual registers.
//!
//! * Every AST variable is one virtual register; expressions are flattened into fresh
//!   temporaries. Literals become small immediates where one has exactly the literal's bits,
//!   otherwise a 32-bit load immediate.
//! * Comparisons set flags (`ZS/ZC` from a subtraction for `==`/`!=`; `CS/CC` from the carry
//!   of `min`/`fmin`, which is `a > b` exactly, for the orderings — a subtraction's sign
//!   would be wrong on integer overflow). `&&`/`||` materialise 0/-1 masks in registers.
//!   `any`/`all` become the branch's any/all condition over those flags.
//! * `Where` becomes a flag test plus conditional writes; nested `Where`s combine 0/-1 mask
//!   registers.
//! * `If` branches around; `While` tests on entry and again at the bottom of its body (one
//!   branch per iteration, in the body's basic block).
//! * Memory: whole-vector loads are TMU1 lookups of `lane 0's address + 4·stride·lane`;
//!   gathers use TMU0 (so loads never disturb the gather FIFO); stores write this QPU's VPM
//!   row and start a VDW DMA, waiting for the previous DMA first (one store DMA per QPU can
//!   be in flight, guide p.55).
//! * Prologue: read the uniforms (QPU id, QPU count, arguments). Epilogue: wait for the last
//!   store, then a semaphore barrier after which QPU 0 alone raises the host interrupt.

use qpu_isa::regs::SfuOp;
use qpu_isa::{AddOp, BranchCond, Cond, MulOp, Signal, SmallImm};

use super::ir::*;
use crate::error::SourceLocation;
use crate::lang::ast::{
    BinaryOp, BoolExpr, CmpOp, Cond as AstCond, Expr, Kernel, Special, Stmt, StmtKind, StoreKind,
    UnaryOp,
};

/// Semaphore the end-of-kernel barrier uses (kernels may use 0–14).
pub const BARRIER_SEMAPHORE: u8 = 15;

/// VPM generic write setup for one horizontal 32-bit row (guide table 32): stride 1 [17:12],
/// horizontal [11], 32-bit [9:8] = 2; the row number [7:0] is added per QPU.
const VPM_WRITE_ROW: u32 = (1 << 12) | (1 << 11) | (2 << 8);
/// VPM generic read setup for one horizontal 32-bit row (guide table 33): one vector
/// [23:20], otherwise as the write setup.
const VPM_READ_ROW: u32 = (1 << 20) | VPM_WRITE_ROW;
/// VDW basic setup (guide table 34): ID 2 [31:30], 1 unit [29:23] of depth 16 [22:16],
/// horizontal [14], 32-bit; the VPM row Y goes in [13:7].
const VDW_ONE_ROW: u32 = (2 << 30) | (1 << 23) | (16 << 16) | (1 << 14);
/// VDW basic setup for 16 units of depth 1 (a strided store), vertical: unit r is column
/// r of the row at VPMBASE (each vertical unit starts one column further), the shape of the
/// seed hello world's store. The row Y goes in [13:7] as for [`VDW_ONE_ROW`].
const VDW_SIXTEEN_UNITS: u32 = (2 << 30) | (16 << 23) | (1 << 16);
/// VDW stride setup (guide table 35): ID 3 [31:30], block mode [16] clear (it has no
/// documented effect that hardware confirms); the gap in bytes goes in [15:0].
const VDW_STRIDE: u32 = 3 << 30;
/// VDR basic setup (guide table 36): ID [31] = 1, 32-bit, memory pitch code 1 [27:24]
/// (irrelevant for one row), row length 16 [23:20] = 0, 1 row [19:16], VPM pitch 1 [15:12],
/// horizontal; the VPM row Y goes in [10:4].
const VDR_ONE_ROW: u32 = (1 << 31) | (1 << 24) | (1 << 16) | (1 << 12);

/// What the prologue provides for memory operations, computed from the QPU id.
#[derive(Clone, Copy, Debug)]
pub struct Globals {
    /// VPM generic write setup for this QPU's row.
    pub vpm_write: VReg,
    /// VDW setup storing this QPU's row as one 16-word memory row.
    pub vdw_row: VReg,
    /// Spill support: VDR setup loading one memory row into this QPU's VPM row.
    pub vdr_row: Option<VReg>,
    /// Spill support: VPM generic read setup for this QPU's row.
    pub vpm_read: Option<VReg>,
    /// Spill support: this QPU's spill area (a uniform after the arguments).
    pub spill_base: Option<VReg>,
}

/// The lowered kernel.
pub struct Lowered {
    /// The IR.
    pub code: Vec<Op<VReg>>,
    /// Number of virtual registers.
    pub vregs: u32,
    /// Virtual registers that must live in r0–r3.
    pub acc_only: Vec<VReg>,
    /// Virtual registers that must never be spilled.
    pub unspillable: Vec<VReg>,
    /// Memory globals, if the kernel stores (or spills).
    pub globals: Option<Globals>,
    /// Uniforms read per QPU.
    pub uniforms: u32,
    /// Labels used.
    pub labels: u32,
    /// The label after the prologue, where zero-initialisation goes.
    pub body: Label,
    /// Registers from here on are temporaries (below: variables, QPU id and count).
    pub first_temporary: u32,
    /// The kernel source locations [`Op::Source`] markers refer to.
    pub sources: Vec<SourceLocation>,
}

struct Lower<'k> {
    _kernel: &'k Kernel,
    code: Vec<Op<VReg>>,
    vregs: u32,
    labels: u32,
    var_regs: Vec<VReg>,
    uniform_vars: Vec<bool>,
    me: VReg,
    num_qpus: VReg,
    acc_only: Vec<VReg>,
    unspillable: Vec<VReg>,
    globals: Option<Globals>,
    sources: Vec<SourceLocation>,
}

/// Lower `kernel`. With `spill_support` the prologue also prepares what spill code needs.
pub fn lower(kernel: &Kernel, spill_support: bool) -> Lowered {
    let mut l = Lower {
        _kernel: kernel,
        code: Vec::new(),
        vregs: 0,
        labels: 0,
        var_regs: Vec::new(),
        uniform_vars: uniform_variables(kernel),
        me: VReg(0),
        num_qpus: VReg(0),
        acc_only: Vec::new(),
        unspillable: Vec::new(),
        globals: None,
        sources: Vec::new(),
    };
    l.var_regs = (0..kernel.vars.len()).map(|_| l.fresh()).collect();
    l.me = l.fresh();
    l.num_qpus = l.fresh();
    let first_temporary = l.vregs;

    // Prologue: uniforms in launch order, each into a temporary that is never spilled (spill
    // code needs the globals computed below, so no spilled value may be defined before them).
    // Values the prologue defines are never spilled: spill code needs the globals it is
    // still computing.
    let first_prologue_value = l.vregs;
    let me_raw = l.fresh();
    let num_raw = l.fresh();
    l.unspillable.extend([me_raw, num_raw]);
    l.emit(Op::mov(Dst::Reg(me_raw), Src::Read(IoRead::Uniform)));
    l.emit(Op::mov(Dst::Reg(num_raw), Src::Read(IoRead::Uniform)));
    let mut param_raw = Vec::new();
    for _ in &kernel.params {
        let t = l.fresh();
        l.unspillable.push(t);
        l.emit(Op::mov(Dst::Reg(t), Src::Read(IoRead::Uniform)));
        param_raw.push(t);
    }
    let has_store = contains_store(&kernel.body);
    let mut uniforms = 2 + kernel.params.len() as u32;
    if has_store || spill_support {
        let vpm_write = l.fresh();
        let vdw_row = l.fresh();
        l.unspillable.extend([vpm_write, vdw_row]);
        let c = l.constant(VPM_WRITE_ROW);
        l.emit(Op::alu(
            AluOp::Add(AddOp::Add),
            Dst::Reg(vpm_write),
            Src::Reg(me_raw),
            c,
        ));
        let y = l.fresh();
        l.emit(Op::alu(
            AluOp::Add(AddOp::Shl),
            Dst::Reg(y),
            Src::Reg(me_raw),
            imm(7),
        ));
        let c = l.constant(VDW_ONE_ROW);
        l.emit(Op::alu(
            AluOp::Add(AddOp::Add),
            Dst::Reg(vdw_row),
            Src::Reg(y),
            c,
        ));
        let mut globals = Globals {
            vpm_write,
            vdw_row,
            vdr_row: None,
            vpm_read: None,
            spill_base: None,
        };
        if spill_support {
            let (vdr_row, vpm_read, spill_base) = (l.fresh(), l.fresh(), l.fresh());
            l.unspillable.extend([vdr_row, vpm_read, spill_base]);
            l.emit(Op::mov(Dst::Reg(spill_base), Src::Read(IoRead::Uniform)));
            uniforms += 1;
            // Reloads use a second row per QPU, 12 further on, so that a reload between
            // a store's VPM write and its DMA start cannot clobber the stored row.
            let row = l.fresh();
            l.emit(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Reg(row),
                Src::Reg(me_raw),
                imm(12),
            ));
            let c = l.constant(VPM_READ_ROW);
            l.emit(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Reg(vpm_read),
                Src::Reg(row),
                c,
            ));
            let y = l.fresh();
            l.emit(Op::alu(
                AluOp::Add(AddOp::Shl),
                Dst::Reg(y),
                Src::Reg(row),
                imm(4),
            ));
            let c = l.constant(VDR_ONE_ROW);
            l.emit(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Reg(vdr_row),
                Src::Reg(y),
                c,
            ));
            globals.vdr_row = Some(vdr_row);
            globals.vpm_read = Some(vpm_read);
            globals.spill_base = Some(spill_base);
        }
        l.globals = Some(globals);
    }
    l.emit(Op::mov(Dst::Reg(l.me), Src::Reg(me_raw)));
    l.emit(Op::mov(Dst::Reg(l.num_qpus), Src::Reg(num_raw)));
    for (param, t) in kernel.params.iter().zip(param_raw) {
        let reg = l.var_regs[param.var.0 as usize];
        l.emit(Op::mov(Dst::Reg(reg), Src::Reg(t)));
    }
    l.unspillable
        .extend((first_prologue_value..l.vregs).map(VReg));
    let body = l.label();
    l.emit(Op::Label(body));

    for stmt in &kernel.body {
        l.stmt(stmt);
    }

    l.source(kernel.location);
    l.epilogue(has_store || spill_support);
    Lowered {
        code: l.code,
        vregs: l.vregs,
        acc_only: l.acc_only,
        unspillable: l.unspillable,
        globals: l.globals,
        uniforms,
        labels: l.labels,
        body,
        first_temporary,
        sources: l.sources,
    }
}

fn imm(value: i32) -> Src<VReg> {
    Src::Imm(SmallImm::from_int(value).expect("small immediate in range"))
}

fn contains_store(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Store { .. } => true,
        StmtKind::If {
            then, otherwise, ..
        }
        | StmtKind::Where {
            then, otherwise, ..
        } => contains_store(then) || contains_store(otherwise),
        StmtKind::While { body, .. } => contains_store(body),
        _ => false,
    })
}

fn contains_where(stmts: &[Stmt]) -> bool {
    stmts
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Where { .. }))
}

/// Which variables hold the same value in every lane at every point: parameters and
/// variables only ever assigned (unmasked) from lane-uniform expressions. Whole-vector loads
/// use lane 0's address; when the address is uniform no broadcast is needed.
fn uniform_variables(kernel: &Kernel) -> Vec<bool> {
    let mut uniform = vec![true; kernel.vars.len()];
    loop {
        let mut changed = false;
        visit_assignments(&kernel.body, false, &mut |var, value, masked| {
            let slot = var as usize;
            let keep = match value {
                Some(e) => !masked && expr_uniform(e, &uniform),
                None => false,
            };
            if uniform[slot] && !keep {
                uniform[slot] = false;
                changed = true;
            }
        });
        if !changed {
            return uniform;
        }
    }
}

fn visit_assignments(
    stmts: &[Stmt],
    masked: bool,
    visit: &mut dyn FnMut(u32, Option<&Expr>, bool),
) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Assign { var, value } => visit(var.0, Some(value), masked),
            StmtKind::Receive { var } => visit(var.0, None, masked),
            StmtKind::If {
                then, otherwise, ..
            } => {
                visit_assignments(then, masked, visit);
                visit_assignments(otherwise, masked, visit);
            }
            StmtKind::While { body, .. } => visit_assignments(body, masked, visit),
            StmtKind::Where {
                then, otherwise, ..
            } => {
                visit_assignments(then, true, visit);
                visit_assignments(otherwise, true, visit);
            }
            _ => {}
        }
    }
}

fn expr_uniform(e: &Expr, vars: &[bool]) -> bool {
    match e {
        Expr::IntLit(_) | Expr::FloatLit(_) => true,
        Expr::Var(v) => vars[v.0 as usize],
        Expr::Special(Special::Index) => false,
        Expr::Special(_) => true,
        Expr::Unary { arg, .. } => expr_uniform(arg, vars),
        Expr::Binary { lhs, rhs, .. } => expr_uniform(lhs, vars) && expr_uniform(rhs, vars),
        Expr::Rotate { value, amount } => expr_uniform(value, vars) && expr_uniform(amount, vars),
        Expr::Load { .. } | Expr::Select { .. } => false,
    }
}

impl Lower<'_> {
    fn fresh(&mut self) -> VReg {
        self.vregs += 1;
        VReg(self.vregs - 1)
    }

    fn label(&mut self) -> Label {
        self.labels += 1;
        Label(self.labels - 1)
    }

    fn emit(&mut self, op: Op<VReg>) {
        self.code.push(op);
    }

    /// Attributes the ops emitted from here on to `location`.
    fn source(&mut self, location: SourceLocation) {
        if self.sources.last() != Some(&location) {
            self.sources.push(location);
        }
        self.emit(Op::Source(self.sources.len() as u32 - 1));
    }

    /// A value with these bits in every lane: a small immediate or a load immediate.
    fn constant(&mut self, bits: u32) -> Src<VReg> {
        match small_imm_for_bits(bits) {
            Some(i) => Src::Imm(i),
            None => {
                let r = self.fresh();
                self.emit(Op::Ldi {
                    dst: Dst::Reg(r),
                    imm: bits,
                    cond: Cond::Always,
                });
                Src::Reg(r)
            }
        }
    }

    fn var(&self, v: crate::lang::ast::VarId) -> VReg {
        self.var_regs[v.0 as usize]
    }

    // -----------------------------------------------------------------------------------
    // Statements

    fn stmt(&mut self, stmt: &Stmt) {
        self.source(stmt.location);
        match &stmt.kind {
            StmtKind::Assign { var, value } => {
                let dst = self.var(*var);
                self.expr_into(value, dst, Cond::Always);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let (flag, all) = self.cond(cond);
                let else_label = self.label();
                // Branch to `else` when the condition fails: not(any) = all(not).
                self.emit(Op::Branch {
                    cond: branch_cond(negate(flag), !all),
                    target: else_label,
                });
                for s in then {
                    self.stmt(s);
                }
                if otherwise.is_empty() {
                    self.emit(Op::Label(else_label));
                } else {
                    let end = self.label();
                    self.emit(Op::Branch {
                        cond: BranchCond::Always,
                        target: end,
                    });
                    self.emit(Op::Label(else_label));
                    for s in otherwise {
                        self.stmt(s);
                    }
                    self.emit(Op::Label(end));
                }
            }
            StmtKind::While { cond, body } => {
                // Test once on entry, then at the bottom of the body: the bottom test shares
                // a basic block with the body, so scheduling can overlap them and fill the
                // back branch's delay slots with the body's last instructions.
                let (body_label, end_label) = (self.label(), self.label());
                let (flag, all) = self.cond(cond);
                self.emit(Op::Branch {
                    cond: branch_cond(negate(flag), !all),
                    target: end_label,
                });
                self.emit(Op::Label(body_label));
                for s in body {
                    self.stmt(s);
                }
                self.source(stmt.location);
                let (flag, all) = self.cond(cond);
                self.emit(Op::Branch {
                    cond: branch_cond(flag, all),
                    target: body_label,
                });
                self.emit(Op::Label(end_label));
            }
            StmtKind::Where {
                cond,
                then,
                otherwise,
            } => self.where_(cond, then, otherwise, None),
            StmtKind::Store {
                value,
                addr,
                stride,
                kind,
                lanes,
            } => self.store(value, addr, *stride, *kind, lanes.as_ref()),
            StmtKind::Gather { addr } => self.expr_to_io(addr, IoWrite::TmuS(0)),
            StmtKind::Receive { var } => {
                self.emit(Op::Signal(Signal::LoadTmu0));
                let dst = self.var(*var);
                self.emit(Op::mov(Dst::Reg(dst), Src::R4));
            }
            StmtKind::SemaInc(n) => self.emit(Op::Sema {
                acquire: false,
                id: *n,
            }),
            StmtKind::SemaDec(n) => self.emit(Op::Sema {
                acquire: true,
                id: *n,
            }),
            // Recorded by `Kernel::run`, which rewrites it into stores first.
            StmtKind::Debug { .. } => {}
        }
    }

    fn store(
        &mut self,
        value: &Expr,
        addr: &Expr,
        stride: u32,
        kind: StoreKind,
        lanes: Option<&Expr>,
    ) {
        // A store of the first `n` lanes: n = lane 0 clamped to 0..=16, broadcast through
        // r5; the DMA is skipped for 0.
        let count = lanes.map(|n| {
            let v = self.expr(n);
            self.emit(Op::mov(Dst::Write(IoWrite::R5Rep), v));
            let (c, sixteen) = (self.fresh(), self.constant(16));
            self.emit(Op::alu(
                AluOp::Add(AddOp::Max),
                Dst::Reg(c),
                Src::R5,
                imm(0),
            ));
            self.emit(Op::alu(
                AluOp::Add(AddOp::Min),
                Dst::Reg(c),
                Src::Reg(c),
                sixteen,
            ));
            (c, sixteen)
        });
        // Everything the DMA sequence needs is computed first, so that nothing (spill code
        // included) runs between writing the VPM row and starting its DMA.
        // The last operations of the value and of the address write the VPM and the DMA
        // address directly.
        let v = self.prepare_io(value);
        let a = self.prepare_io(addr);
        let g = self.globals.expect("stores get VPM globals");
        let (dma_setup, stride_setup) = if stride == 1 {
            (Src::Reg(g.vdw_row), None)
        } else {
            let delta = self.constant(VDW_SIXTEEN_UNITS.wrapping_sub(VDW_ONE_ROW));
            let setup = self.fresh();
            self.emit(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Reg(setup),
                Src::Reg(g.vdw_row),
                delta,
            ));
            // Bytes skipped between consecutive 4-byte elements.
            let word = self.constant(VDW_STRIDE | (4 * (stride - 1)));
            (Src::Reg(setup), Some(word))
        };
        let mut skip = None;
        let dma_setup = match count {
            None => dma_setup,
            Some((c, sixteen)) => {
                // The transfer's width: the depth (contiguous) or the unit count (strided)
                // field of the VDW setup, 16 less (16 - n).
                let shift = if stride == 1 { 16 } else { 23 };
                let (less, setup) = (self.fresh(), self.fresh());
                self.emit(Op::alu(
                    AluOp::Add(AddOp::Sub),
                    Dst::Reg(less),
                    sixteen,
                    Src::Reg(c),
                ));
                self.emit(Op::alu(
                    AluOp::Add(AddOp::Shl),
                    Dst::Reg(less),
                    Src::Reg(less),
                    shift_imm(shift),
                ));
                self.emit(Op::alu(
                    AluOp::Add(AddOp::Sub),
                    Dst::Reg(setup),
                    dma_setup,
                    Src::Reg(less),
                ));
                // n is the same in every lane: skip the store when it is 0.
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::None,
                    a: Src::Reg(c),
                    b: Src::Reg(c),
                    cond: Cond::Always,
                    sf: true,
                    rotate: None,
                });
                let label = self.label();
                self.emit(Op::Branch {
                    cond: BranchCond::AllZeroSet,
                    target: label,
                });
                skip = Some(label);
                Src::Reg(setup)
            }
        };
        // The previous DMA may still read this QPU's VPM row: wait before overwriting it.
        self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), Src::Reg(g.vpm_write)));
        self.emit_io(v, IoWrite::Vpm);
        self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), dma_setup));
        if let Some(word) = stride_setup {
            self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), word));
        }
        self.emit_io(a, IoWrite::VwAddr);
        if kind == StoreKind::Blocking {
            self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        }
        if let Some(label) = skip {
            self.emit(Op::Label(label));
        }
    }

    fn where_(&mut self, cond: &BoolExpr, then: &[Stmt], otherwise: &[Stmt], outer: Option<VReg>) {
        // Assignments whose values set flags are evaluated before their mask is tested, so
        // they need the mask in a register.
        let sets_flags = |stmts: &[Stmt]| {
            stmts
                .iter()
                .any(|s| matches!(&s.kind, StmtKind::Assign { value, .. } if value.sets_flags()))
        };
        let nested = contains_where(then)
            || contains_where(otherwise)
            || sets_flags(then)
            || sets_flags(otherwise);
        let flag = self.boolean(cond);
        if outer.is_none() && !nested {
            for s in then {
                self.masked_assign(s, flag);
            }
            for s in otherwise {
                self.masked_assign(s, negate(flag));
            }
            return;
        }
        // Materialise 0/-1 masks.
        let m = self.fresh();
        self.emit(Op::mov(Dst::Reg(m), imm(0)));
        self.emit(Op::Alu {
            op: AluOp::Mov,
            dst: Dst::Reg(m),
            a: imm(-1),
            b: imm(-1),
            cond: flag,
            sf: false,
            rotate: None,
        });
        if let Some(o) = outer {
            self.emit(Op::alu(
                AluOp::Add(AddOp::And),
                Dst::Reg(m),
                Src::Reg(m),
                Src::Reg(o),
            ));
        }
        let else_mask = if otherwise.is_empty() {
            None
        } else {
            let e = self.fresh();
            match outer {
                // m is a subset of o, so o ^ m = o & !m.
                Some(o) => self.emit(Op::alu(
                    AluOp::Add(AddOp::Xor),
                    Dst::Reg(e),
                    Src::Reg(m),
                    Src::Reg(o),
                )),
                None => self.emit(Op::alu(
                    AluOp::Add(AddOp::Not),
                    Dst::Reg(e),
                    Src::Reg(m),
                    Src::Reg(m),
                )),
            }
            Some(e)
        };
        self.masked_block(then, m);
        if let Some(e) = else_mask {
            self.masked_block(otherwise, e);
        }
    }

    fn masked_block(&mut self, stmts: &[Stmt], mask: VReg) {
        let mut flags_valid = false;
        for s in stmts {
            match &s.kind {
                StmtKind::Where {
                    cond,
                    then,
                    otherwise,
                } => {
                    self.where_(cond, then, otherwise, Some(mask));
                    flags_valid = false;
                }
                _ => {
                    // A value that sets flags is computed first, into a temporary.
                    let early = match &s.kind {
                        StmtKind::Assign { var, value } if value.sets_flags() => {
                            let t = self.fresh();
                            self.expr_into(value, t, Cond::Always);
                            flags_valid = false;
                            Some((self.var(*var), t))
                        }
                        _ => None,
                    };
                    if !flags_valid {
                        self.emit(Op::Alu {
                            op: AluOp::Mov,
                            dst: Dst::None,
                            a: Src::Reg(mask),
                            b: Src::Reg(mask),
                            cond: Cond::Always,
                            sf: true,
                            rotate: None,
                        });
                        flags_valid = true;
                    }
                    match early {
                        Some((dst, t)) => self.emit(Op::Alu {
                            op: AluOp::Mov,
                            dst: Dst::Reg(dst),
                            a: Src::Reg(t),
                            b: Src::Reg(t),
                            cond: Cond::ZeroClear,
                            sf: false,
                            rotate: None,
                        }),
                        None => self.masked_assign(s, Cond::ZeroClear),
                    }
                }
            }
        }
    }

    fn masked_assign(&mut self, stmt: &Stmt, cond: Cond) {
        if let StmtKind::Assign { var, value } = &stmt.kind {
            let dst = self.var(*var);
            self.expr_into(value, dst, cond);
        }
    }

    fn epilogue(&mut self, has_dma: bool) {
        if has_dma {
            self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        }
        let other = self.label();
        let irq = self.label();
        let wait = self.label();
        // me == 0 sets Z; the id is the same in every lane.
        self.emit(Op::Alu {
            op: AluOp::Mov,
            dst: Dst::None,
            a: Src::Reg(self.me),
            b: Src::Reg(self.me),
            cond: Cond::Always,
            sf: true,
            rotate: None,
        });
        self.emit(Op::Branch {
            cond: BranchCond::AllZeroClear,
            target: other,
        });
        // QPU 0: wait for the other QPUs' releases, then interrupt the host once.
        let count = self.fresh();
        self.emit(Op::Alu {
            op: AluOp::Add(AddOp::Sub),
            dst: Dst::Reg(count),
            a: Src::Reg(self.num_qpus),
            b: imm(1),
            cond: Cond::Always,
            sf: true,
            rotate: None,
        });
        self.emit(Op::Branch {
            cond: BranchCond::AllZeroSet,
            target: irq,
        });
        self.emit(Op::Label(wait));
        self.emit(Op::Sema {
            acquire: true,
            id: BARRIER_SEMAPHORE,
        });
        self.emit(Op::Alu {
            op: AluOp::Add(AddOp::Sub),
            dst: Dst::Reg(count),
            a: Src::Reg(count),
            b: imm(1),
            cond: Cond::Always,
            sf: true,
            rotate: None,
        });
        self.emit(Op::Branch {
            cond: BranchCond::AllZeroClear,
            target: wait,
        });
        self.emit(Op::Label(irq));
        self.emit(Op::Ldi {
            dst: Dst::Write(IoWrite::HostInt),
            imm: 1,
            cond: Cond::Always,
        });
        self.emit(Op::ThreadEnd);
        // Other QPUs: release once and end.
        self.emit(Op::Label(other));
        self.emit(Op::Sema {
            acquire: false,
            id: BARRIER_SEMAPHORE,
        });
        self.emit(Op::ThreadEnd);
    }

    // -----------------------------------------------------------------------------------
    // Conditions

    /// Sets flags for a scalar condition: (per-lane flag test, whether it is `all`).
    fn cond(&mut self, cond: &AstCond) -> (Cond, bool) {
        match cond {
            AstCond::Any(b) => (self.boolean(b), false),
            AstCond::All(b) => (self.boolean(b), true),
        }
    }

    /// Sets flags so that `result` passes exactly in the lanes where `b` holds.
    fn boolean(&mut self, b: &BoolExpr) -> Cond {
        match b {
            BoolExpr::Compare {
                op,
                float,
                lhs,
                rhs,
            } => {
                let l = self.expr(lhs);
                let r = self.expr(rhs);
                let (alu, a, b, result) = match (op, float) {
                    (CmpOp::Eq, false) => (AddOp::Sub, l, r, Cond::ZeroSet),
                    (CmpOp::Ne, false) => (AddOp::Sub, l, r, Cond::ZeroClear),
                    // min sets C when a > b (signed), exactly.
                    (CmpOp::Gt, false) => (AddOp::Min, l, r, Cond::CarrySet),
                    (CmpOp::Le, false) => (AddOp::Min, l, r, Cond::CarryClear),
                    (CmpOp::Lt, false) => (AddOp::Min, r, l, Cond::CarrySet),
                    (CmpOp::Ge, false) => (AddOp::Min, r, l, Cond::CarryClear),
                    (CmpOp::Eq, true) => (AddOp::Fsub, l, r, Cond::ZeroSet),
                    (CmpOp::Ne, true) => (AddOp::Fsub, l, r, Cond::ZeroClear),
                    // fmin sets C when a > b (after flushing denormals; false for NaN).
                    (CmpOp::Gt, true) => (AddOp::Fmin, l, r, Cond::CarrySet),
                    (CmpOp::Le, true) => (AddOp::Fmin, l, r, Cond::CarryClear),
                    (CmpOp::Lt, true) => (AddOp::Fmin, r, l, Cond::CarrySet),
                    (CmpOp::Ge, true) => (AddOp::Fmin, r, l, Cond::CarryClear),
                };
                self.emit(Op::Alu {
                    op: AluOp::Add(alu),
                    dst: Dst::None,
                    a,
                    b,
                    cond: Cond::Always,
                    sf: true,
                    rotate: None,
                });
                result
            }
            BoolExpr::Not(inner) => negate(self.boolean(inner)),
            BoolExpr::And(x, y) | BoolExpr::Or(x, y) => {
                let is_and = matches!(b, BoolExpr::And(..));
                let fx = self.boolean(x);
                let t = self.fresh();
                self.emit(Op::mov(Dst::Reg(t), imm(0)));
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::Reg(t),
                    a: imm(-1),
                    b: imm(-1),
                    cond: fx,
                    sf: false,
                    rotate: None,
                });
                let fy = self.boolean(y);
                let (value, cond) = if is_and { (0, negate(fy)) } else { (-1, fy) };
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::Reg(t),
                    a: imm(value),
                    b: imm(value),
                    cond,
                    sf: false,
                    rotate: None,
                });
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::None,
                    a: Src::Reg(t),
                    b: Src::Reg(t),
                    cond: Cond::Always,
                    sf: true,
                    rotate: None,
                });
                Cond::ZeroClear
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Expressions

    /// Evaluate `e` into an operand (a variable's register is returned as is).
    fn expr(&mut self, e: &Expr) -> Src<VReg> {
        match e {
            Expr::IntLit(v) => self.constant(*v as u32),
            Expr::FloatLit(v) => self.constant(v.to_bits()),
            Expr::Var(v) => Src::Reg(self.var(*v)),
            Expr::Special(Special::Index) => Src::Read(IoRead::ElemNum),
            Expr::Special(Special::QpuId) => Src::Reg(self.me),
            Expr::Special(Special::NumQpus) => Src::Reg(self.num_qpus),
            _ => {
                let t = self.fresh();
                self.expr_into(e, t, Cond::Always);
                Src::Reg(t)
            }
        }
    }

    /// Evaluate `e` straight into an I/O register: a single ALU operation writes it
    /// directly, anything else is computed first and copied.
    fn expr_to_io(&mut self, e: &Expr, io: IoWrite) {
        let op = self.prepare_io(e);
        self.emit_io(op, io);
    }

    /// Evaluate everything `e` needs except its last operation: (operation, a, b).
    fn prepare_io(&mut self, e: &Expr) -> (AluOp, Src<VReg>, Src<VReg>) {
        if let Expr::Binary { op, lhs, rhs } = e {
            if let Some(alu) = simple_binary(*op) {
                let a = self.expr(lhs);
                let b = self.expr(rhs);
                return (alu, a, b);
            }
        }
        let v = self.expr(e);
        (AluOp::Mov, v, v)
    }

    fn emit_io(&mut self, (alu, a, b): (AluOp, Src<VReg>, Src<VReg>), io: IoWrite) {
        self.emit(Op::alu(alu, Dst::Write(io), a, b));
    }

    /// Evaluate `e` and write it to `dst` in the lanes where `cond` passes.
    fn expr_into(&mut self, e: &Expr, dst: VReg, cond: Cond) {
        let d = Dst::Reg(dst);
        match e {
            Expr::Binary { op, lhs, rhs } => {
                if let Some(alu) = simple_binary(*op) {
                    let a = self.expr(lhs);
                    let b = self.expr(rhs);
                    self.emit(Op::Alu {
                        op: alu,
                        dst: d,
                        a,
                        b,
                        cond,
                        sf: false,
                        rotate: None,
                    });
                    return;
                }
                let a = self.expr(lhs);
                let b = self.expr(rhs);
                if *op == BinaryOp::IntMul {
                    self.int_mul(a, b, d, cond);
                } else if matches!(op, BinaryOp::IntDiv | BinaryOp::IntRem) {
                    self.int_divide(a, b, d, cond, *op == BinaryOp::IntRem);
                } else {
                    // FloatDiv: a * recip(b), as the language defines it.
                    let r = self.sfu(SfuOp::Recip, b);
                    self.emit(Op::Alu {
                        op: AluOp::Mul(MulOp::Fmul),
                        dst: d,
                        a,
                        b: r,
                        cond,
                        sf: false,
                        rotate: None,
                    });
                }
            }
            Expr::Unary { op, arg } => {
                let a = self.expr(arg);
                let (alu, b) = match op {
                    UnaryOp::IntNot => (AluOp::Add(AddOp::Not), a),
                    UnaryOp::Clz => (AluOp::Add(AddOp::Clz), a),
                    UnaryOp::IntToFloat => (AluOp::Add(AddOp::Itof), a),
                    UnaryOp::FloatToInt => (AluOp::Add(AddOp::Ftoi), a),
                    // |x| with the sign bit cleared (denormals flush to +0).
                    UnaryOp::FloatAbs => (AluOp::Add(AddOp::Fmaxabs), a),
                    UnaryOp::IntAbs => {
                        // max(x, 0 - x): wraps like the definition (abs(MIN) = MIN).
                        let neg = self.fresh();
                        self.emit(Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(neg), imm(0), a));
                        (AluOp::Add(AddOp::Max), Src::Reg(neg))
                    }
                    UnaryOp::Recip | UnaryOp::Rsqrt | UnaryOp::Exp2 | UnaryOp::Log2 => {
                        let f = match op {
                            UnaryOp::Recip => SfuOp::Recip,
                            UnaryOp::Rsqrt => SfuOp::RecipSqrt,
                            UnaryOp::Exp2 => SfuOp::Exp2,
                            _ => SfuOp::Log2,
                        };
                        let r = self.sfu(f, a);
                        (AluOp::Mov, r)
                    }
                    UnaryOp::Sqrt => {
                        let r = self.sfu(SfuOp::RecipSqrt, a);
                        let r = self.sfu(SfuOp::Recip, r);
                        (AluOp::Mov, r)
                    }
                };
                let a = if alu == AluOp::Mov { b } else { a };
                self.emit(Op::Alu {
                    op: alu,
                    dst: d,
                    a,
                    b,
                    cond,
                    sf: false,
                    rotate: None,
                });
            }
            Expr::Select { cond: test, a, b } => {
                // Both values, then the test's flags; the choice goes through a temporary,
                // since `d` may be one of the values.
                let va = self.expr(a);
                let vb = self.expr(b);
                let flag = self.boolean(test);
                let t = self.fresh();
                self.emit(Op::mov(Dst::Reg(t), vb));
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::Reg(t),
                    a: va,
                    b: va,
                    cond: flag,
                    sf: false,
                    rotate: None,
                });
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: d,
                    a: Src::Reg(t),
                    b: Src::Reg(t),
                    cond,
                    sf: false,
                    rotate: None,
                });
            }
            Expr::Rotate { value, amount } => {
                let v = self.expr(value);
                let rotation = match **amount {
                    Expr::IntLit(n) => match (n & 15) as u8 {
                        0 => None,
                        n => Some(Rotation::By(n)),
                    },
                    _ => {
                        let n = self.expr(amount);
                        self.emit(Op::mov(Dst::Write(IoWrite::R5Rep), n));
                        Some(Rotation::ByR5)
                    }
                };
                let Some(rotation) = rotation else {
                    self.emit(Op::Alu {
                        op: AluOp::Mov,
                        dst: d,
                        a: v,
                        b: v,
                        cond,
                        sf: false,
                        rotate: None,
                    });
                    return;
                };
                // A full 16-lane rotation needs its source in r0-r3.
                let t = self.fresh();
                self.acc_only.push(t);
                self.emit(Op::mov(Dst::Reg(t), v));
                self.emit(Op::Alu {
                    op: AluOp::Mul(MulOp::V8min),
                    dst: d,
                    a: Src::Reg(t),
                    b: Src::Reg(t),
                    cond,
                    sf: false,
                    rotate: Some(rotation),
                });
            }
            Expr::Load { addr, stride, .. } => {
                let base = if expr_uniform(addr, &self.uniform_vars) {
                    self.expr(addr)
                } else {
                    // Only lane 0's address counts: broadcast it through r5.
                    let a = self.expr(addr);
                    self.emit(Op::mov(Dst::Write(IoWrite::R5Rep), a));
                    Src::R5
                };
                let offsets = self.fresh();
                let step = 4 * stride;
                if step.is_power_of_two() && step.trailing_zeros() <= 15 {
                    let shift = imm(step.trailing_zeros() as i32);
                    self.emit(Op::alu(
                        AluOp::Add(AddOp::Shl),
                        Dst::Reg(offsets),
                        Src::Read(IoRead::ElemNum),
                        shift,
                    ));
                } else {
                    let c = self.constant(step);
                    self.emit(Op::alu(
                        AluOp::Mul(MulOp::Mul24),
                        Dst::Reg(offsets),
                        Src::Read(IoRead::ElemNum),
                        c,
                    ));
                }
                self.emit(Op::alu(
                    AluOp::Add(AddOp::Add),
                    Dst::Write(IoWrite::TmuS(1)),
                    base,
                    Src::Reg(offsets),
                ));
                self.emit(Op::Signal(Signal::LoadTmu1));
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: d,
                    a: Src::R4,
                    b: Src::R4,
                    cond,
                    sf: false,
                    rotate: None,
                });
            }
            _ => {
                let s = self.expr(e);
                if s == Src::Reg(dst) {
                    return;
                }
                match s {
                    Src::Reg(_) | Src::Imm(_) | Src::Read(_) | Src::R4 | Src::R5 => {
                        self.emit(Op::Alu {
                            op: AluOp::Mov,
                            dst: d,
                            a: s,
                            b: s,
                            cond,
                            sf: false,
                            rotate: None,
                        })
                    }
                }
            }
        }
    }

    /// Start a special function on `x`; returns its result (copied out of r4).
    fn sfu(&mut self, f: SfuOp, x: Src<VReg>) -> Src<VReg> {
        self.emit(Op::mov(Dst::Write(IoWrite::Sfu(f)), x));
        let t = self.fresh();
        self.emit(Op::mov(Dst::Reg(t), Src::R4));
        Src::Reg(t)
    }

    /// Signed division or remainder by restoring long division on the magnitudes, one
    /// quotient bit per step from the top, all lanes at once (no divide instruction exists):
    /// step i subtracts `|b| << i` from the remaining dividend where `(dividend >> i) >= |b|`
    /// as unsigned numbers (the carry of the subtraction), then the signs are applied. About
    /// 200 operations; results as [`BinaryOp::IntDiv`] and [`BinaryOp::IntRem`] define them.
    fn int_divide(&mut self, a: Src<VReg>, b: Src<VReg>, d: Dst<VReg>, cond: Cond, rem: bool) {
        let r = |v| Src::Reg(v);
        let alu = |op, dst, a, b, cond, sf| Op::Alu {
            op,
            dst,
            a,
            b,
            cond,
            sf,
            rotate: None,
        };
        // Magnitudes: max(x, -x) wraps MIN to 2^31, which is right as an unsigned number.
        let (na, ua, nb, ub, uq) = (
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
        );
        self.emit(Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(na), imm(0), a));
        self.emit(Op::alu(AluOp::Add(AddOp::Max), Dst::Reg(ua), a, r(na)));
        self.emit(Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(nb), imm(0), b));
        self.emit(Op::alu(AluOp::Add(AddOp::Max), Dst::Reg(ub), b, r(nb)));
        self.emit(Op::mov(Dst::Reg(uq), imm(0)));
        for i in (0..32u32).rev() {
            let (t, s) = (self.fresh(), self.fresh());
            let sh = shift_imm(i);
            self.emit(Op::alu(AluOp::Add(AddOp::Shr), Dst::Reg(t), r(ua), sh));
            // Carry clear: t >= |b| unsigned.
            self.emit(alu(
                AluOp::Add(AddOp::Sub),
                Dst::None,
                r(t),
                r(ub),
                Cond::Always,
                true,
            ));
            self.emit(Op::alu(AluOp::Add(AddOp::Shl), Dst::Reg(s), r(ub), sh));
            let (sub, shl, or) = (AddOp::Sub, AddOp::Shl, AddOp::Or);
            let clear = Cond::CarryClear;
            self.emit(alu(
                AluOp::Add(sub),
                Dst::Reg(ua),
                r(ua),
                r(s),
                clear,
                false,
            ));
            self.emit(Op::alu(AluOp::Add(shl), Dst::Reg(uq), r(uq), imm(1)));
            self.emit(alu(
                AluOp::Add(or),
                Dst::Reg(uq),
                r(uq),
                imm(1),
                clear,
                false,
            ));
        }
        // The quotient is negative when the operands' signs differ; the remainder takes the
        // dividend's sign.
        let (magnitude, sign) = if rem {
            (ua, a)
        } else {
            let signs = self.fresh();
            self.emit(Op::alu(AluOp::Add(AddOp::Xor), Dst::Reg(signs), a, b));
            (uq, r(signs))
        };
        let (neg, out) = (self.fresh(), self.fresh());
        self.emit(Op::alu(
            AluOp::Add(AddOp::Sub),
            Dst::Reg(neg),
            imm(0),
            r(magnitude),
        ));
        self.emit(Op::mov(Dst::Reg(out), r(magnitude)));
        self.emit(alu(AluOp::Mov, Dst::None, sign, sign, Cond::Always, true));
        self.emit(alu(
            AluOp::Mov,
            Dst::Reg(out),
            r(neg),
            r(neg),
            Cond::NegativeSet,
            false,
        ));
        self.emit(alu(AluOp::Mov, d, r(out), r(out), cond, false));
    }

    /// 32 × 32 → low 32 bits from 24-bit multiplies: with a = ah·2^24 + al,
    /// a·b mod 2^32 = al·bl + ((ah·bl + al·bh) mod 2^8)·2^24.
    fn int_mul(&mut self, a: Src<VReg>, b: Src<VReg>, d: Dst<VReg>, cond: Cond) {
        let (ah, bh, lo, hi1, hi2, hi) = (
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
        );
        let r = |v| Src::Reg(v);
        let c24 = self.constant(24);
        self.emit(Op::alu(AluOp::Add(AddOp::Shr), Dst::Reg(ah), a, c24));
        self.emit(Op::alu(AluOp::Add(AddOp::Shr), Dst::Reg(bh), b, c24));
        self.emit(Op::alu(AluOp::Mul(MulOp::Mul24), Dst::Reg(lo), a, b));
        self.emit(Op::alu(AluOp::Mul(MulOp::Mul24), Dst::Reg(hi1), r(ah), b));
        self.emit(Op::alu(AluOp::Mul(MulOp::Mul24), Dst::Reg(hi2), a, r(bh)));
        self.emit(Op::alu(
            AluOp::Add(AddOp::Add),
            Dst::Reg(hi),
            r(hi1),
            r(hi2),
        ));
        self.emit(Op::alu(AluOp::Add(AddOp::Shl), Dst::Reg(hi), r(hi), c24));
        self.emit(Op::Alu {
            op: AluOp::Add(AddOp::Add),
            dst: d,
            a: r(lo),
            b: r(hi),
            cond,
            sf: false,
            rotate: None,
        });
    }
}

/// A small immediate whose low five bits are `n` (0..=31): shift amounts 16..31 are the
/// negative immediates -16..-1.
fn shift_imm(n: u32) -> Src<VReg> {
    imm(if n < 16 { n as i32 } else { n as i32 - 32 })
}

/// The single ALU operation implementing a binary operator, if there is one.
fn simple_binary(op: BinaryOp) -> Option<AluOp> {
    Some(match op {
        BinaryOp::IntAdd => AluOp::Add(AddOp::Add),
        BinaryOp::IntSub => AluOp::Add(AddOp::Sub),
        BinaryOp::Mul24 => AluOp::Mul(MulOp::Mul24),
        BinaryOp::Shl => AluOp::Add(AddOp::Shl),
        BinaryOp::Asr => AluOp::Add(AddOp::Asr),
        BinaryOp::Lsr => AluOp::Add(AddOp::Shr),
        BinaryOp::Ror => AluOp::Add(AddOp::Ror),
        BinaryOp::And => AluOp::Add(AddOp::And),
        BinaryOp::Or => AluOp::Add(AddOp::Or),
        BinaryOp::Xor => AluOp::Add(AddOp::Xor),
        BinaryOp::IntMin => AluOp::Add(AddOp::Min),
        BinaryOp::IntMax => AluOp::Add(AddOp::Max),
        BinaryOp::FloatAdd => AluOp::Add(AddOp::Fadd),
        BinaryOp::FloatSub => AluOp::Add(AddOp::Fsub),
        BinaryOp::FloatMul => AluOp::Mul(MulOp::Fmul),
        BinaryOp::FloatMin => AluOp::Add(AddOp::Fmin),
        BinaryOp::FloatMax => AluOp::Add(AddOp::Fmax),
        BinaryOp::IntMul | BinaryOp::FloatDiv | BinaryOp::IntDiv | BinaryOp::IntRem => return None,
    })
}
