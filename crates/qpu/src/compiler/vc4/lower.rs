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
//!   branch per iteration, in the body's basic block). A body that can run again after its
//!   condition fails without changing anything (`while_(any(x != y))` around `where_`
//!   blocks on `x < y`, `x > y` or `x != y`, Euclid's algorithm) is copied 4 times per test.
//! * Memory: whole-vector loads are TMU1 lookups of `lane 0's address + 4·stride·lane`;
//!   gathers use TMU0 (so loads never disturb the gather FIFO); stores write this QPU's VPM
//!   row and start a VDW DMA, waiting for the previous DMA first (one store DMA per QPU can
//!   be in flight, guide p.55).
//! * Batched stores: in a loop shaped like `for_range` (`while i < end`, `i += step`, both
//!   lane-uniform and invariant) whose body is straight-line and stores only through one or
//!   two pointer variables advancing by one invariant step (`store(v, p); p += s`), each
//!   store only writes the next VPM row, and one multi-row VDW DMA (memory stride `s - 64`
//!   bytes) per stream writes a whole batch. The loop is strip-mined: an inner loop runs
//!   at most `kmax` iterations (its test `i < min(end, i + kmax·step)` costs what the
//!   original one did), then the batch is stored. Each QPU owns 64 >> ceil(log2 n) of the 64
//!   VPM rows user programs can address (erratum HW-2253), split between the streams; a
//!   batch is one row where the gap does not fit the stride field or two streams' batches
//!   could overlap in memory (their order would change). Compiled for 9–12 QPUs (4 rows
//!   each), two streams are staged instead: the batch's 4 iterations are unrolled, the first
//!   stream fills all 4 rows and the second waits in 4 registers until the first stream's
//!   DMA has read the rows, so both go out 4 rows per DMA rather than 2 (a VDW job's fixed
//!   cost dominates the one DMA engine's time).
//! * Store runs: consecutive stores in straight-line code at `base + first + k·step` (bytes;
//!   one base expression, a step of at least a row whose gap fits the stride field, values
//!   that read no memory) write this QPU's VPM rows in turn and share one VDW DMA per 4 rows
//!   (every QPU owns at least 4 rows on up to 12 QPUs). A DMA's errors name the last store
//!   of its rows.
//! * Prologue: read the uniforms (QPU id, QPU count, arguments). Epilogue: wait for the last
//!   store, then a semaphore barrier after which QPU 0 alone raises the host interrupt.

use crate::compiler::common::analysis::{lane_uniform, uniform_variables, visit_assignments};
use qpu_isa::vc4::regs::SfuOp;
use qpu_isa::vc4::setup::{GenericSetup, VdrSetup, VdwSetup, VdwStride};
use qpu_isa::vc4::{AddOp, BranchCond, Cond, MulOp, Signal, SmallImm};

use super::ir::*;

mod batch;
mod cond;
mod expr;
mod stmt;
use crate::error::SourceLocation;
use crate::lang::ast::{
    BinaryOp, BoolExpr, CmpOp, Cond as AstCond, Expr, Kernel, Special, Stmt, StmtKind, StoreKind,
    UnaryOp, VarId,
};

/// Semaphore the end-of-kernel barrier uses (kernels may use 0–14).
pub const BARRIER_SEMAPHORE: u8 = 15;

/// VPM generic write setup for horizontal 32-bit rows from row 0, one row per vector
/// (guide table 32); the row number is added per QPU.
const VPM_WRITE_ROW: u32 = GenericSetup::rows(0).write_word();
/// VPM generic read setup for one such row (guide table 33).
const VPM_READ_ROW: u32 = GenericSetup::rows(0).read_word();
/// VDW basic setup storing one 16-word row from VPM row 0 (guide table 34); the row Y is
/// added as `Y << VdwSetup::Y_SHIFT`.
const VDW_ONE_ROW: u32 = VdwSetup::rows(1, 0).word();
/// VDW basic setup for 16 units of depth 1 (a strided store), vertical: unit r is column
/// r of the row at VPMBASE (each vertical unit starts one column further), the shape of the
/// seed hello world's store. The row Y is added as for [`VDW_ONE_ROW`].
const VDW_SIXTEEN_UNITS: u32 = VdwSetup {
    units: 16,
    depth: 1,
    horizontal: false,
    ..VdwSetup::rows(0, 0)
}
.word();
/// VDW basic setup with no units yet (added as `units << VdwSetup::UNITS_SHIFT`): rows of 16 32-bit words from
/// VPM row 0. A batched store writes one unit per row.
const VDW_ROWS: u32 = VdwSetup::rows(0, 0).word();
/// VDW stride setup (guide table 35) with block mode clear (it has no documented effect
/// that hardware confirms); the gap in bytes is added.
const VDW_STRIDE: u32 = VdwStride {
    stride: 0,
    block_mode: false,
}
.word();
/// VDR basic setup loading one 16-word memory row into VPM row 0 (guide table 36); the
/// row Y is added as `Y << VdrSetup::Y_SHIFT`.
const VDR_ONE_ROW: u32 = VdrSetup::row(0).word();

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
    /// Store batching: log2 of the VPM rows each QPU owns (64 rows shared by a power of two
    /// at least the QPU count), and this QPU's first row.
    pub rows: Option<(VReg, VReg)>,
    /// This QPU's first VPM row: its id, or with [`Globals::rows`] the first of its rows.
    pub first_row: VReg,
}

/// Append to `code` what spill code needs besides [`Globals::vpm_write`] and
/// [`Globals::vdw_row`]: the spill area's address (the next uniform), and the VPM read and
/// VDR setups for reloads through VPM row `reload_row`.
fn spill_prologue(code: &mut Vec<Op<VReg>>, vregs: &mut u32, g: &mut Globals, reload_row: VReg) {
    let mut fresh = || {
        *vregs += 1;
        VReg(*vregs - 1)
    };
    let (spill_base, vpm_read, y, vdr_row) = (fresh(), fresh(), fresh(), fresh());
    let constant = |code: &mut Vec<Op<VReg>>, fresh: &mut dyn FnMut() -> VReg, bits| {
        small_imm_for_bits(bits).map_or_else(
            || {
                let r = fresh();
                code.push(Op::Ldi {
                    dst: Dst::Reg(r),
                    imm: bits,
                    cond: Cond::Always,
                });
                Src::Reg(r)
            },
            Src::Imm,
        )
    };
    code.push(Op::mov(Dst::Reg(spill_base), Src::Read(IoRead::Uniform)));
    let c = constant(code, &mut fresh, VPM_READ_ROW);
    code.push(Op::alu(
        AluOp::Add(AddOp::Add),
        Dst::Reg(vpm_read),
        Src::Reg(reload_row),
        c,
    ));
    code.push(Op::alu(
        AluOp::Add(AddOp::Shl),
        Dst::Reg(y),
        Src::Reg(reload_row),
        imm(VdrSetup::Y_SHIFT as i32),
    ));
    let c = constant(code, &mut fresh, VDR_ONE_ROW);
    code.push(Op::alu(
        AluOp::Add(AddOp::Add),
        Dst::Reg(vdr_row),
        Src::Reg(y),
        c,
    ));
    g.vdr_row = Some(vdr_row);
    g.vpm_read = Some(vpm_read);
    g.spill_base = Some(spill_base);
}

/// Give a kernel lowered without spill support what spill code needs, from the register
/// allocator once it finds that values must live in memory: the spill area's uniform and
/// the reload setups, where the lowering puts them (after the arguments' uniforms, as the
/// launch contract orders them, and the VPM globals). Reloads go through VPM row 12 + id, or in a kernel whose
/// QPUs own several rows (store runs, batched loops) through the QPU's first row, which
/// store runs and batches also write: there the allocator keeps spill code out of the
/// stretches where rows wait for their DMA ([`vpm_pending`]). Returns the new registers
/// (all prologue values, never spilled), or `None` for a kernel without VPM globals (it
/// stores nothing, so its end does not wait for DMA) or one that already has the support.
pub fn add_spill_support(lowered: &mut Lowered) -> Option<std::ops::Range<u32>> {
    let mut g = lowered.globals.filter(|g| g.spill_base.is_none())?;
    let body = lowered
        .code
        .iter()
        .position(|op| *op == Op::Label(lowered.body))?;
    // Before the prologue's copies into the kernel's variables, which may be spilled (their
    // spill stores need the spill area); after the uniform reads and the VPM globals.
    let at = lowered.code[..body]
        .iter()
        .position(|op| op.def().is_some_and(|d| d.0 < lowered.first_temporary))
        .unwrap_or(body);
    let first_new = lowered.vregs;
    let mut code = Vec::new();
    let reload_row = match g.rows {
        Some(_) => g.first_row,
        None => {
            let row = VReg(lowered.vregs);
            lowered.vregs += 1;
            code.push(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Reg(row),
                Src::Reg(g.first_row),
                imm(qpu_isa::vc4::QPUS as i32),
            ));
            row
        }
    };
    spill_prologue(&mut code, &mut lowered.vregs, &mut g, reload_row);
    lowered.code.splice(at..at, code);
    lowered.globals = Some(g);
    lowered.uniforms += 1;
    lowered
        .unspillable
        .extend((first_new..lowered.vregs).map(VReg));
    Some(first_new..lowered.vregs)
}

/// Per op of `code`, whether VPM rows may hold data written for a store whose DMA has not
/// started, before the op and after it: from a VPM write or write setup until the next DMA address
/// write, along every path (a forward dataflow over the blocks). Spill code writes the
/// VPM itself (and, in a kernel whose reloads share the QPU's first row, so do reloads), so
/// it must stay out of these stretches.
pub fn vpm_pending<R: Copy + PartialEq>(code: &[Op<R>]) -> Vec<(bool, bool)> {
    let after = |op: &Op<R>, pending: bool| match op {
        Op::Alu {
            dst: Dst::Write(IoWrite::VwAddr),
            ..
        } => false,
        Op::Alu {
            dst: Dst::Write(IoWrite::Vpm | IoWrite::VwSetup),
            ..
        } => true,
        _ => pending,
    };
    let cfg = super::regalloc::cfg(code);
    let mut entry = vec![false; cfg.blocks.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (b, &(start, end)) in cfg.blocks.iter().enumerate() {
            let out = code[start..end].iter().fold(entry[b], |p, op| after(op, p));
            for &s in &cfg.succs[b] {
                if out && !entry[s] {
                    entry[s] = true;
                    changed = true;
                }
            }
        }
    }
    let mut states = vec![(false, false); code.len()];
    for (b, &(start, end)) in cfg.blocks.iter().enumerate() {
        let mut p = entry[b];
        for (i, op) in code[start..end].iter().enumerate() {
            let q = after(op, p);
            states[start + i] = (p, q);
            p = q;
        }
    }
    states
}

/// The lowered kernel.
#[derive(Clone)]
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
    /// The label after the prologue, where zero-initialisation goes.
    pub body: Label,
    /// Registers from here on are temporaries (below: variables, QPU id and count).
    pub first_temporary: u32,
    /// The kernel source locations [`Op::Source`] markers refer to.
    pub sources: Vec<SourceLocation>,
    /// Registers written by `mov unif` for the kernel's uniform-stream reads (not the
    /// prologue's), for `opt::fold_uniform_reads`.
    pub stream_reads: Vec<VReg>,
}

struct Lower<'k> {
    max_qpus: u32,
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
    stream_reads: Vec<VReg>,
    batch: Option<Batch>,
}

/// The registers of the store batch of the loop being lowered.
struct Batch {
    /// Rows still free in the current batch (counts down from `kmax`).
    k: VReg,
    /// Rows per batch: the streams' share of this QPU's VPM rows, or 1 where several rows
    /// cannot go in one DMA.
    kmax: VReg,
    /// log2 of `kmax`.
    log2_kmax: VReg,
    /// Bytes between consecutive rows in memory.
    step: Src<VReg>,
    /// How far the loop counter advances per iteration.
    count_step: Src<VReg>,
    /// The batched stores.
    streams: Vec<StreamRegs>,
    /// Staged batches (two streams, 4 VPM rows per QPU): the second stream's values wait in
    /// these registers, one per iteration of the (unrolled) batch, while the first stream's
    /// rows fill every row.
    stash: Option<[VReg; STAGED_ROWS]>,
    /// The iteration of a staged batch being lowered.
    stage: usize,
}

/// One batched store's registers.
struct StreamRegs {
    stream: Stream,
    /// Memory address of the batch's first row.
    start: VReg,
    /// VPM generic write setup: of the first row (one stream) or one past the batch's last
    /// row (two streams, each store subtracting the rows still free).
    vpm: VReg,
    /// VDW setup of the batch's first row, with no units.
    vdw_base: VReg,
    /// VDW stride setup.
    stride: VReg,
}

/// Lower `kernel`. With `spill_support` the prologue also prepares what spill code needs.
pub fn lower(kernel: &Kernel, spill_support: bool, max_qpus: u32) -> Lowered {
    let mut l = Lower {
        max_qpus,
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
        batch: None,
        stream_reads: Vec::new(),
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
        // This QPU's first VPM row: its number, or with batched stores the first of its
        // 64 >> ceil(log2 n) rows (1 << (clz(n - 1) - 26): 64 rows on 1 QPU, 4 on 9–12).
        // With spill support, only store runs use them (the last row of each QPU's share
        // takes spill reloads); batched loops need every row.
        let rows = (has_store_run(&kernel.body)
            || (!spill_support && has_batched_loop(&kernel.body, &l.uniform_vars)))
        .then(|| {
            let log2 = l.fresh();
            let op = |op| AluOp::Add(op);
            l.emit(Op::alu(
                op(AddOp::Sub),
                Dst::Reg(log2),
                Src::Reg(num_raw),
                imm(1),
            ));
            l.emit(Op::alu(
                op(AddOp::Clz),
                Dst::Reg(log2),
                Src::Reg(log2),
                Src::Reg(log2),
            ));
            l.emit(Op::alu(
                op(AddOp::Add),
                Dst::Reg(log2),
                Src::Reg(log2),
                imm(-16),
            ));
            l.emit(Op::alu(
                op(AddOp::Add),
                Dst::Reg(log2),
                Src::Reg(log2),
                imm(-10),
            ));
            let first = l.fresh();
            l.emit(Op::alu(
                op(AddOp::Shl),
                Dst::Reg(first),
                Src::Reg(me_raw),
                Src::Reg(log2),
            ));
            (log2, first)
        });
        let row = rows.map_or(me_raw, |(_, first)| first);
        let c = l.constant(VPM_WRITE_ROW);
        l.emit(Op::alu(
            AluOp::Add(AddOp::Add),
            Dst::Reg(vpm_write),
            Src::Reg(row),
            c,
        ));
        let y = l.fresh();
        l.emit(Op::alu(
            AluOp::Add(AddOp::Shl),
            Dst::Reg(y),
            Src::Reg(row),
            imm(VdwSetup::Y_SHIFT as i32),
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
            rows,
            first_row: row,
        };
        if spill_support {
            // Reloads use a second row per QPU, so that a reload between a store's VPM
            // write and its DMA start cannot clobber the stored row: 12 further on, or with
            // store runs the last of this QPU's rows (runs then use one row fewer).
            let row = l.fresh();
            match rows {
                None => l.emit(Op::alu(
                    AluOp::Add(AddOp::Add),
                    Dst::Reg(row),
                    Src::Reg(me_raw),
                    imm(qpu_isa::vc4::QPUS as i32),
                )),
                Some((log2, first)) => {
                    l.emit(Op::alu(
                        AluOp::Add(AddOp::Shl),
                        Dst::Reg(row),
                        imm(1),
                        Src::Reg(log2),
                    ));
                    l.emit(Op::alu(
                        AluOp::Add(AddOp::Add),
                        Dst::Reg(row),
                        Src::Reg(row),
                        Src::Reg(first),
                    ));
                    l.emit(Op::alu(
                        AluOp::Add(AddOp::Sub),
                        Dst::Reg(row),
                        Src::Reg(row),
                        imm(1),
                    ));
                }
            }
            spill_prologue(&mut l.code, &mut l.vregs, &mut globals, row);
            uniforms += 1;
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

    l.stmts(&kernel.body);

    l.source(kernel.location);
    l.epilogue(has_store || spill_support);
    Lowered {
        code: l.code,
        vregs: l.vregs,
        acc_only: l.acc_only,
        unspillable: l.unspillable,
        globals: l.globals,
        uniforms,
        body,
        first_temporary,
        sources: l.sources,
        stream_reads: l.stream_reads,
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

/// A store the compiler batches: in an innermost loop, `store(value, p)` (non-blocking, all
/// 16 lanes, contiguous) through a pointer variable `p` that the loop advances by the same
/// invariant number of bytes every iteration, so that consecutive iterations' rows lie at a
/// constant distance in memory and one multi-row VDW DMA can write several of them.
#[derive(Debug, Clone)]
struct Stream {
    /// The pointer variable stored through.
    ptr: VarId,
    /// Bytes `ptr` advances per iteration (an expression the loop does not change).
    step: Expr,
    /// Whether `ptr` advances before the store in the body.
    advanced_first: bool,
    /// The store statement's location (where a batched DMA's errors point).
    location: SourceLocation,
}

/// At most this many batched stores per loop: each needs its own VPM rows, and a QPU has 4
/// rows (of the 64 user programs can address) when 12 QPUs run.
const MAX_STREAMS: usize = 2;

/// Rows of a staged batch: what every QPU owns on 9–12 QPUs. There, two streams would get 2
/// rows each, and a VDW job costs the one DMA engine a fixed ~130 clocks (emulator timing
/// model, #26) whatever its length; so the first stream takes all 4 rows and the second
/// waits in 4 registers, to go out through the same rows after the first stream's DMA: 4
/// rows per DMA instead of 2.
const STAGED_ROWS: usize = 4;

/// The stores of an innermost loop body to batch, if the body qualifies: straight-line (no
/// `if_`, loops or semaphores), every store in it of the batchable form, each through its own
/// pointer variable, which the body assigns exactly once, unmasked, as `p = p + step` with a
/// loop-invariant `step`; several streams must share one step expression.
fn batched_stores(body: &[Stmt]) -> Option<Vec<Stream>> {
    let mut streams: Vec<(usize, Stream)> = Vec::new();
    for (i, stmt) in body.iter().enumerate() {
        match &stmt.kind {
            StmtKind::If { .. }
            | StmtKind::While { .. }
            | StmtKind::SemaInc(_)
            | StmtKind::SemaDec(_)
            | StmtKind::Debug { .. } => return None,
            StmtKind::Store {
                addr: Expr::Var(ptr),
                stride: 1,
                kind: StoreKind::NonBlocking,
                lanes: None,
                ..
            } => {
                if streams.iter().any(|(_, s)| s.ptr == *ptr) {
                    return None;
                }
                streams.push((
                    i,
                    Stream {
                        ptr: *ptr,
                        step: Expr::IntLit(0),
                        advanced_first: false,
                        location: stmt.location,
                    },
                ));
            }
            StmtKind::Store { .. } => return None,
            _ => {}
        }
    }
    if streams.is_empty() || streams.len() > MAX_STREAMS {
        return None;
    }
    // Every variable the body assigns, and how often.
    let assigned = assignment_counts(body);
    for (store_at, stream) in &mut streams {
        if assigned.get(&stream.ptr.0) != Some(&1) {
            return None;
        }
        let (at, step) = advance(body, stream.ptr)?;
        if !invariant(&step, &assigned) {
            return None;
        }
        stream.step = step;
        stream.advanced_first = at < *store_at;
    }
    let first = &streams[0].1.step;
    if streams.iter().any(|(_, s)| s.step != *first) {
        return None;
    }
    Some(streams.into_iter().map(|(_, s)| s).collect())
}

/// How many copies of a body that [`idle_once_done`] clears share one loop test: Euclid's
/// algorithm (GCD) issues 408 instructions tested every step, 352 every 2, 336 every 3, 330
/// every 4 (`qpu bench`).
pub(crate) const IDLE_UNROLL: usize = 4;

/// Bodies of at most this many statements are unrolled by [`IDLE_UNROLL`].
const IDLE_BODY: usize = 4;

/// Whether a `while_` body may run again after its condition has failed without changing
/// anything, so that several copies can share one test: the condition is
/// `any(x != y)` on two Int variables, and the body (short) is only `where_(x < y)`,
/// `where_(x > y)` or `where_(x != y)` blocks (either order, no `else`) of assignments of
/// values that read no memory and no uniform. Once the condition fails, x == y in every
/// lane, so no block has an active lane and nothing is written, x and y included: every
/// further copy is idle too.
pub(crate) fn idle_once_done(cond: &AstCond, body: &[Stmt]) -> bool {
    let AstCond::Any(BoolExpr::Compare {
        op: CmpOp::Ne,
        float: false,
        lhs,
        rhs,
    }) = cond
    else {
        return false;
    };
    let (Expr::Var(x), Expr::Var(y)) = (&**lhs, &**rhs) else {
        return false;
    };
    let strict_on_pair = |b: &BoolExpr| match b {
        BoolExpr::Compare {
            op: CmpOp::Lt | CmpOp::Gt | CmpOp::Ne,
            float: false,
            lhs,
            rhs,
        } => matches!(
            (&**lhs, &**rhs),
            (Expr::Var(a), Expr::Var(b)) if (a, b) == (x, y) || (a, b) == (y, x)
        ),
        _ => false,
    };
    !body.is_empty()
        && body.len() <= IDLE_BODY
        && body.iter().all(|s| match &s.kind {
            StmtKind::Where {
                cond,
                then,
                otherwise,
            } => strict_on_pair(cond)
                && otherwise.is_empty()
                && then.iter().all(
                    |t| matches!(&t.kind, StmtKind::Assign { value, .. } if reads_no_stream(value)),
                ),
            _ => false,
        })
}

/// Whether evaluating `e` reads no memory and no uniform (which would advance the stream).
fn reads_no_stream(e: &Expr) -> bool {
    match e {
        Expr::IntLit(_) | Expr::FloatLit(_) | Expr::Var(_) | Expr::Special(_) => true,
        Expr::Unary { arg, .. } => reads_no_stream(arg),
        Expr::Binary { lhs, rhs, .. } => reads_no_stream(lhs) && reads_no_stream(rhs),
        Expr::Rotate { value, amount } => reads_no_stream(value) && reads_no_stream(amount),
        Expr::Select { cond, a, b } => {
            bool_reads_no_stream(cond) && reads_no_stream(a) && reads_no_stream(b)
        }
        Expr::Load { .. } | Expr::Uniform { .. } => false,
    }
}

fn bool_reads_no_stream(b: &BoolExpr) -> bool {
    match b {
        BoolExpr::Compare { lhs, rhs, .. } => reads_no_stream(lhs) && reads_no_stream(rhs),
        BoolExpr::Not(a) => bool_reads_no_stream(a),
        BoolExpr::And(a, c) | BoolExpr::Or(a, c) => {
            bool_reads_no_stream(a) && bool_reads_no_stream(c)
        }
    }
}

/// A loop shaped like `for_range`'s: `while any(i < end)` (or `all`), the body advancing
/// a lane-uniform `i` exactly once, by `i = i + step`, with `end` and `step` invariant and
/// lane-uniform.
struct Counted {
    i: VarId,
    end: Expr,
    step: Expr,
}

fn counted(cond: &AstCond, body: &[Stmt], uniform: &[bool]) -> Option<Counted> {
    let (AstCond::Any(b) | AstCond::All(b)) = cond;
    let BoolExpr::Compare {
        op: CmpOp::Lt,
        float: false,
        lhs,
        rhs,
    } = b
    else {
        return None;
    };
    let Expr::Var(i) = &**lhs else {
        return None;
    };
    let end = (**rhs).clone();
    let assigned = assignment_counts(body);
    if !uniform[i.0 as usize]
        || !lane_uniform(&end, uniform)
        || !invariant(&end, &assigned)
        || assigned.get(&i.0) != Some(&1)
    {
        return None;
    }
    let step = advance(body, *i)?.1;
    (invariant(&step, &assigned) && lane_uniform(&step, uniform)).then_some(Counted {
        i: *i,
        end,
        step,
    })
}

/// How many times `body` assigns each variable (masked or not, at any depth).
fn assignment_counts(body: &[Stmt]) -> rustc_hash::FxHashMap<u32, usize> {
    let mut assigned = rustc_hash::FxHashMap::<u32, usize>::default();
    visit_assignments(body, false, &mut |var, _, _| {
        *assigned.entry(var).or_default() += 1;
    });
    assigned
}

/// The top-level statement of `body` assigning `var = var + step`: (its index, `step`).
fn advance(body: &[Stmt], var: VarId) -> Option<(usize, Expr)> {
    body.iter().enumerate().find_map(|(i, s)| match &s.kind {
        StmtKind::Assign {
            var: v,
            value:
                Expr::Binary {
                    op: BinaryOp::IntAdd,
                    lhs,
                    rhs,
                },
        } if *v == var => match (&**lhs, &**rhs) {
            (Expr::Var(x), step) | (step, Expr::Var(x)) if *x == var => Some((i, step.clone())),
            _ => None,
        },
        _ => None,
    })
}

/// [`crate::compiler::common::analysis::invariant`] for a loop whose assignments `assigned` counts.
fn invariant(e: &Expr, assigned: &rustc_hash::FxHashMap<u32, usize>) -> bool {
    crate::compiler::common::analysis::invariant(e, &|v| assigned.contains_key(&v))
}

/// A batch loop counted down (strength reduction of its test and advances): with one
/// stream (not staged) and a count step that is a positive power-of-two literal, the
/// iterations of a batch, ceil((lim - i) / step), are known before it starts. The loop test
/// becomes one flag-setting decrement of `k` instead of an advance of `i` and a comparison,
/// and each advance `v = v + 2^s` (the counter's, the stream pointer's) that nothing else in
/// the body reads leaves the body: after the batch, `v = v + (trips << s)`, the same value
/// the iterations would have left (HeatMap's loop loses three of its operations).
struct Countdown {
    /// log2 of the count step.
    log2_step: u32,
    /// The advances moved out of the body: (variable, log2 of its step).
    sunk: Vec<(VarId, u32)>,
    /// The body without them: the plain iterations.
    plain: Vec<Stmt>,
    /// The body unrolled with its sliding windows renamed (see [`window_copies`]), when it
    /// has one: the batch then runs `trips mod k` plain iterations and `trips / k` of these.
    unrolled: Windowed,
}

/// A loop body unrolled by its sliding window's cycle ([`window_copies`]).
pub(crate) struct Windowed {
    /// The renamed copies, in order.
    pub(crate) copies: Vec<Vec<Stmt>>,
    /// The window's variables.
    pub(crate) window: Vec<VarId>,
}

impl Countdown {
    /// `rows`: the VPM rows each QPU owns, the most iterations a batch has.
    fn plan(b: &Batch, count: &Counted, body: &[Stmt], rows: usize) -> Option<Countdown> {
        let pow2 = |e: &Expr| match e {
            Expr::IntLit(n) if *n > 0 && (*n as u32).is_power_of_two() => Some(n.trailing_zeros()),
            _ => None,
        };
        if b.streams.len() != 1 || b.stash.is_some() {
            return None;
        }
        let log2_step = pow2(&count.step)?;
        let stream = &b.streams[0].stream;
        let mut sunk = Vec::new();
        for var in [count.i, stream.ptr] {
            let Some((at, by)) = advance(body, var) else {
                continue;
            };
            let Some(s) = pow2(&by) else {
                continue;
            };
            // Read nowhere else in the body (a batched store does not read its pointer).
            let read_elsewhere = body
                .iter()
                .enumerate()
                .any(|(n, stmt)| n != at && stmt_reads(stmt, var, var == stream.ptr));
            if !read_elsewhere && !sunk.iter().any(|&(_, v, _)| v == var) {
                sunk.push((at, var, s));
            }
        }
        let plain: Vec<Stmt> = body
            .iter()
            .enumerate()
            .filter(|(n, _)| !sunk.iter().any(|&(at, ..)| at == *n))
            .map(|(_, s)| s.clone())
            .collect();
        // Worth it with a window to unroll, when a full batch runs the copies at least
        // twice. Counting down alone costs more per batch than it saves per iteration
        // (`qpu bench`: HeatMap on 1 QPU issues 542,386 instead of 540,370 counted down but
        // not unrolled, and on 12 QPUs, 4 rows per batch, 620,915 instead of 597,731).
        let unrolled = window_copies(&plain).filter(|w| rows >= 2 * w.copies.len())?;
        Some(Countdown {
            log2_step,
            sunk: sunk.into_iter().map(|(_, v, s)| (v, s)).collect(),
            plain,
            unrolled,
        })
    }
}

/// Whether `stmt` reads `var`; with `batched_ptr`, a contiguous unmasked store's address
/// does not count (a batched store writes its VPM row without reading its pointer).
fn stmt_reads(stmt: &Stmt, var: VarId, batched_ptr: bool) -> bool {
    reads_in(std::slice::from_ref(stmt), var, batched_ptr) > 0
}

/// How many times `stmts` (at any depth) read `var` (see [`stmt_reads`] for `batched_ptr`).
fn reads_in(stmts: &[Stmt], var: VarId, batched_ptr: bool) -> usize {
    let mut count = 0;
    visit_reads(stmts, batched_ptr.then_some(var), &mut |v| {
        count += usize::from(v == var)
    });
    count
}

/// Calls `visit` for every variable read in `stmts` (at any depth), once per read, except
/// the address of a store to `batched`'s pointer itself.
fn visit_reads(stmts: &[Stmt], batched: Option<VarId>, visit: &mut dyn FnMut(VarId)) {
    for stmt in stmts {
        let mut var = |e: &Expr| {
            if let Expr::Var(v) = e {
                visit(*v);
            }
        };
        match &stmt.kind {
            StmtKind::Assign { value, .. } => value.walk(&mut var),
            StmtKind::Store {
                value, addr, lanes, ..
            } => {
                value.walk(&mut var);
                if batched.is_none_or(|p| *addr != Expr::Var(p)) {
                    addr.walk(&mut var);
                }
                if let Some(n) = lanes {
                    n.walk(&mut var);
                }
            }
            StmtKind::Gather { addr } | StmtKind::UniformsFrom { addr } => addr.walk(&mut var),
            StmtKind::Debug { value, .. } => value.walk(&mut var),
            StmtKind::Where {
                cond,
                then,
                otherwise,
            } => {
                cond.walk(&mut var);
                visit_reads(then, batched, visit);
                visit_reads(otherwise, batched, visit);
            }
            StmtKind::If {
                cond: AstCond::Any(b) | AstCond::All(b),
                then,
                otherwise,
            } => {
                b.walk(&mut var);
                visit_reads(then, batched, visit);
                visit_reads(otherwise, batched, visit);
            }
            StmtKind::While {
                cond: AstCond::Any(b) | AstCond::All(b),
                body,
            } => {
                b.walk(&mut var);
                visit_reads(body, batched, visit);
            }
            StmtKind::Receive { .. } | StmtKind::SemaInc(_) | StmtKind::SemaDec(_) => {}
        }
    }
}

/// The variables of a loop body that each iteration sets before it reads them (the first
/// statement mentioning one assigns it, unmasked, at the top level, without reading it)
/// and that nothing in `kernel` outside the body reads, other than the variables of its
/// sliding `window`: each copy of an unrolled body may keep them in registers of its own,
/// which lets passes that look for a value defined and read once
/// (`opt::fuse_masked_rotations`) see each copy's.
fn body_locals(kernel: &Kernel, body: &[Stmt], window: &[VarId]) -> Vec<VarId> {
    let mut seen: rustc_hash::FxHashSet<u32> = Default::default();
    let mut locals = Vec::new();
    for stmt in body {
        let one = std::slice::from_ref(stmt);
        if let StmtKind::Assign { var, .. } = &stmt.kind {
            if !seen.contains(&var.0) && !stmt_reads(stmt, *var, false) {
                locals.push(*var);
            }
        }
        visit_reads(one, None, &mut |v| {
            seen.insert(v.0);
        });
        visit_assignments(one, false, &mut |v, _, _| {
            seen.insert(v);
        });
    }
    // A window's variables are storage the renamed copies share (a receive may write `prev`'s
    // register in one copy for the next to read).
    locals.retain(|v| {
        !window.contains(v) && reads_in(&kernel.body, *v, false) == reads_in(body, *v, false)
    });
    locals
}

/// The most copies of a body [`window_copies`] makes.
const MAX_WINDOW_COPIES: usize = 4;

/// A loop body's sliding windows renamed away by unrolling. A window is a set of variables
/// the body assigns once each, at its top level, only by copying another of them
/// (`prev = current; current = next`) or by a `receive` (`receive(next)`): HeatMap's three
/// rows of `prev`, `current`, `next`. Each iteration moves every value one place along, so
/// `k` iterations (the length of the window's cycle) can keep the values where they are and
/// rename the variables instead: the copies disappear, each receive writes the variable
/// whose value is no longer needed, and every other statement reads through the renaming.
/// After `k` copies the renaming is the identity again, so the variables hold what `k`
/// iterations would have left in them. Returns the `k` copies (`k` from 2 to
/// [`MAX_WINDOW_COPIES`]), or `None` when the body has no window or its cycle is longer.
pub(crate) fn window_copies(body: &[Stmt]) -> Option<Windowed> {
    let assigned = assignment_counts(body);
    let once = |v: &VarId| assigned.get(&v.0) == Some(&1);
    // Candidates, then drop those copied from outside the set until none is.
    let mut window: Vec<(VarId, Option<VarId>)> = body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Assign {
                var,
                value: Expr::Var(from),
            } if once(var) => Some((*var, Some(*from))),
            StmtKind::Receive { var } if once(var) => Some((*var, None)),
            _ => None,
        })
        .collect();
    loop {
        let members: Vec<VarId> = window.iter().map(|w| w.0).collect();
        let before = window.len();
        window.retain(|(_, from)| from.is_none_or(|f| members.contains(&f)));
        if window.len() == before {
            break;
        }
    }
    let members: Vec<VarId> = window.iter().map(|w| w.0).collect();
    if !window.iter().any(|(_, from)| from.is_some()) {
        return None;
    }
    // `name[v]`: the variable holding window variable `v`'s value.
    let mut name: rustc_hash::FxHashMap<u32, VarId> = members.iter().map(|v| (v.0, *v)).collect();
    let mut copies = Vec::new();
    for _ in 0..MAX_WINDOW_COPIES {
        let mut out = Vec::new();
        for s in body {
            match &s.kind {
                StmtKind::Assign {
                    var,
                    value: Expr::Var(from),
                } if members.contains(var) => {
                    let held = name[&from.0];
                    name.insert(var.0, held);
                }
                StmtKind::Receive { var } if members.contains(var) => {
                    // The variable no window value lives in any more.
                    let free = members
                        .iter()
                        .copied()
                        .find(|m| !name.values().any(|h| h == m))?;
                    name.insert(var.0, free);
                    out.push(Stmt {
                        kind: StmtKind::Receive { var: free },
                        location: s.location,
                    });
                }
                _ => out.push(rename_stmt(s, &name)),
            }
        }
        copies.push(out);
        if name.iter().all(|(v, h)| h.0 == *v) {
            return (copies.len() > 1).then_some(Windowed {
                copies,
                window: members,
            });
        }
    }
    None
}

/// `s` with every variable in `name`'s keys read and written as its value.
fn rename_stmt(s: &Stmt, name: &rustc_hash::FxHashMap<u32, VarId>) -> Stmt {
    let var = |v: &VarId| name.get(&v.0).copied().unwrap_or(*v);
    let e = |x: &Expr| rename_expr(x, name);
    let kind = match &s.kind {
        StmtKind::Assign { var: v, value } => StmtKind::Assign {
            var: var(v),
            value: e(value),
        },
        StmtKind::Receive { var: v } => StmtKind::Receive { var: var(v) },
        StmtKind::Store {
            value,
            addr,
            stride,
            kind,
            lanes,
        } => StmtKind::Store {
            value: e(value),
            addr: e(addr),
            stride: *stride,
            kind: *kind,
            lanes: lanes.as_ref().map(e),
        },
        StmtKind::Gather { addr } => StmtKind::Gather { addr: e(addr) },
        StmtKind::UniformsFrom { addr } => StmtKind::UniformsFrom { addr: e(addr) },
        StmtKind::Debug {
            label,
            value,
            float,
        } => StmtKind::Debug {
            label: label.clone(),
            value: e(value),
            float: *float,
        },
        StmtKind::Where {
            cond,
            then,
            otherwise,
        } => StmtKind::Where {
            cond: rename_bool(cond, name),
            then: then.iter().map(|t| rename_stmt(t, name)).collect(),
            otherwise: otherwise.iter().map(|t| rename_stmt(t, name)).collect(),
        },
        // (Batched bodies are straight-line: no `if_`, loops or semaphores.)
        other => other.clone(),
    };
    Stmt {
        kind,
        location: s.location,
    }
}

fn rename_expr(e: &Expr, name: &rustc_hash::FxHashMap<u32, VarId>) -> Expr {
    e.map(&mut |x| rename_var(x, name))
}

fn rename_bool(b: &BoolExpr, name: &rustc_hash::FxHashMap<u32, VarId>) -> BoolExpr {
    b.map(&mut |x| rename_var(x, name))
}

/// A variable read as its new name (any other expression as it is).
fn rename_var(e: Expr, name: &rustc_hash::FxHashMap<u32, VarId>) -> Expr {
    match e {
        Expr::Var(v) => Expr::Var(name.get(&v.0).copied().unwrap_or(v)),
        other => other,
    }
}

/// Whether any loop in `stmts` has stores to batch.
fn has_batched_loop(stmts: &[Stmt], uniform: &[bool]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::While { cond, body } => {
            (batched_stores(body).is_some() && counted(cond, body, uniform).is_some())
                || has_batched_loop(body, uniform)
        }
        StmtKind::If {
            then, otherwise, ..
        } => has_batched_loop(then, uniform) || has_batched_loop(otherwise, uniform),
        _ => false,
    })
}

/// VPM rows each QPU owns on `max_qpus` QPUs: 64 >> ceil(log2 n) (4 on 9–12, 64 on one).
/// One DMA of a store run covers at most that many (one fewer with spill support, whose
/// reloads take the last row).
fn rows_per_qpu(max_qpus: u32) -> usize {
    64 >> max_qpus.clamp(1, 12).next_power_of_two().trailing_zeros()
}

/// Consecutive stores the compiler writes with one multi-row DMA: `base + first`,
/// `base + first + step`, … (bytes), all 16 lanes, contiguous, with values that read no
/// memory (a load could not see the rows not yet written).
struct StoreRun {
    /// The common address expression, evaluated once.
    base: Expr,
    /// Byte offset of the first store from `base`.
    first: i32,
    /// Bytes between consecutive stores: at least a row (64), and the gap fits the VDW
    /// stride setup's 16 bits.
    step: i32,
    /// Number of stores (at least 2).
    len: usize,
}

/// `addr` as (base, byte offset): `base + literal` or `base` itself. Stores use lane 0's
/// address, so a trailing `+ index()` (as `store(v, p + index())` has) is dropped first.
fn split_offset(addr: &Expr) -> (&Expr, i32) {
    let addr = match addr {
        Expr::Binary {
            op: BinaryOp::IntAdd,
            lhs,
            rhs,
        } if matches!(&**rhs, Expr::Binary {
            op: BinaryOp::Shl,
            lhs: i,
            rhs: two,
        } if **i == Expr::Special(Special::Index) && **two == Expr::IntLit(2)) =>
        {
            &**lhs
        }
        _ => addr,
    };
    match addr {
        Expr::Binary {
            op: BinaryOp::IntAdd,
            lhs,
            rhs,
        } => match &**rhs {
            Expr::IntLit(c) => (lhs, *c),
            _ => (addr, 0),
        },
        _ => (addr, 0),
    }
}

/// The store run starting at `stmts[0]`, if at least two stores qualify.
fn store_run(stmts: &[Stmt]) -> Option<StoreRun> {
    fn store(s: &Stmt) -> Option<(&Expr, i32)> {
        match &s.kind {
            StmtKind::Store {
                value,
                addr,
                stride: 1,
                lanes: None,
                ..
            } if !value.has_load() && !addr.has_load() => Some(split_offset(addr)),
            _ => None,
        }
    }
    let (base, first) = store(stmts.first()?)?;
    let (base2, second) = store(stmts.get(1)?)?;
    let step = second.wrapping_sub(first);
    if base2 != base || !(64..64 + 0x1_0000).contains(&step) {
        return None;
    }
    let mut len = 2;
    while let Some((b, c)) = stmts.get(len).and_then(store) {
        if b != base || c != first.wrapping_add(step.wrapping_mul(len as i32)) {
            break;
        }
        len += 1;
    }
    Some(StoreRun {
        base: base.clone(),
        first,
        step,
        len,
    })
}

/// Whether `stmts` (at any depth) hold a store run.
fn has_store_run(stmts: &[Stmt]) -> bool {
    // A run can only start at a store whose successor is a store too (linear in the list).
    stmts.windows(2).any(|w| {
        matches!(w[0].kind, StmtKind::Store { .. })
            && matches!(w[1].kind, StmtKind::Store { .. })
            && store_run(w).is_some()
    }) || stmts.iter().any(|s| match &s.kind {
        StmtKind::While { body, .. } => has_store_run(body),
        StmtKind::If {
            then, otherwise, ..
        } => has_store_run(then) || has_store_run(otherwise),
        _ => false,
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiler::vc4::ir;
    use crate::lang::{any, where_, while_, Int, Ptr};

    fn lowered<P, R, F: crate::runtime::KernelFn<P, R>>(f: F) -> Lowered {
        let kernel = crate::compile(f).expect("records");
        lower(kernel.ast(), false, 12)
    }

    fn count(code: &[Op<VReg>], pred: impl Fn(&Op<VReg>) -> bool) -> usize {
        code.iter().filter(|op| pred(op)).count()
    }

    #[test]
    fn a_load_and_a_store_become_tmu_and_vpm_dma_io() {
        let l = lowered(|p: Ptr<Int>| p.store(p.load() + 1));
        // QPU number, QPU count, then the one argument.
        assert_eq!(l.uniforms, 3);
        let text = ir::listing(&l.code);
        // The whole-vector load is a TMU1 lookup received through r4.
        assert!(text.contains("tmu1_s = "), "{text}");
        assert!(text.contains("signal ldtmu1"), "{text}");
        // The store: the VPM write setup, the value into the VPM, the DMA setup and address.
        for io in ["vw_setup = ", "vpm = ", "vw_addr = "] {
            assert!(text.contains(io), "{io} in\n{text}");
        }
        // Every QPU waits for its last DMA; then one interrupt, and the program ends (QPU 0
        // and the others on their own paths).
        assert!(text.contains("vw_wait"), "{text}");
        assert_eq!(
            count(&l.code, |op| matches!(
                op,
                Op::Alu {
                    dst: Dst::Write(IoWrite::HostInt),
                    ..
                }
            ) || matches!(
                op,
                Op::Ldi {
                    dst: Dst::Write(IoWrite::HostInt),
                    ..
                }
            )),
            1,
            "{text}"
        );
        assert!(count(&l.code, |op| matches!(op, Op::ThreadEnd)) >= 1);
        assert!(matches!(l.code.last(), Some(Op::ThreadEnd)));
    }

    /// The `while_` loop of a recorded kernel: (its condition, its body).
    fn the_loop<P, R, F: crate::runtime::KernelFn<P, R>>(f: F) -> (AstCond, Vec<Stmt>) {
        let kernel = crate::compile(f).expect("records");
        kernel
            .ast()
            .body
            .iter()
            .find_map(|s| match &s.kind {
                StmtKind::While { cond, body } => Some((cond.clone(), body.clone())),
                _ => None,
            })
            .expect("a while_ loop")
    }

    #[test]
    fn only_loops_idle_once_their_condition_fails_are_unrolled() {
        use crate::lang::{all, Float};
        let idle = |(cond, body): (AstCond, Vec<Stmt>)| idle_once_done(&cond, &body);
        // Euclid's algorithm: idle once a == b everywhere.
        assert!(idle(the_loop(|p: Ptr<Int>| {
            let (a, b) = (Int::var(p.load()), Int::var(p.load() + 1));
            while_(any(a.ne(b)), || {
                where_(a.gt(b), || a.set(a - b));
                where_(b.gt(a), || b.set(b - a));
            });
        })));
        // Not: `all` (it stops while other lanes still differ), a test that holds when
        // a == b, another pair, an `else`, a statement outside a `where_`, a float
        // comparison. (Loads inside `where_` are refused when the kernel is recorded.)
        assert!(!idle(the_loop(|p: Ptr<Int>| {
            let (a, b) = (Int::var(p.load()), Int::var(p.load() + 1));
            while_(all(a.ne(b)), || {
                where_(a.gt(b), || a.set(a - b));
            });
        })));
        assert!(!idle(the_loop(|p: Ptr<Int>| {
            let (a, b) = (Int::var(p.load()), Int::var(p.load() + 1));
            while_(any(a.ne(b)), || {
                where_(a.ge(b), || a.set(a - 1));
            });
        })));
        assert!(!idle(the_loop(|p: Ptr<Int>| {
            let (a, b, c) = (Int::var(p.load()), Int::var(1), Int::var(2));
            while_(any(a.ne(b)), || {
                where_(a.gt(c), || a.set(a - 1));
            });
        })));
        assert!(!idle(the_loop(|p: Ptr<Int>| {
            let (a, b) = (Int::var(p.load()), Int::var(p.load() + 1));
            while_(any(a.ne(b)), || {
                where_(a.gt(b), || a.set(a - b)).else_(|| b.set(b - a));
            });
        })));
        assert!(!idle(the_loop(|p: Ptr<Int>| {
            let (a, b) = (Int::var(p.load()), Int::var(p.load() + 1));
            while_(any(a.ne(b)), || {
                where_(a.gt(b), || a.set(a - b));
                b.set(b + 0);
            });
        })));
        assert!(!idle(the_loop(|p: Ptr<Float>| {
            let (a, b) = (Float::var(p.load()), Float::var(p.load() + 1.0));
            while_(any(a.ne(b)), || {
                where_(a.gt(b), || a.set(a - b));
            });
        })));
    }

    #[test]
    fn where_sets_flags_and_writes_lanes_conditionally() {
        let l = lowered(|p: Ptr<Int>| {
            let x = Int::var(p.load());
            where_(x.gt(0), || x.set(x * 2));
            p.store(x);
        });
        let flag_setters = count(&l.code, |op| matches!(op, Op::Alu { sf: true, .. }));
        let conditional = count(
            &l.code,
            |op| matches!(op, Op::Alu { cond, dst: Dst::Reg(_), .. } if *cond != Cond::Always),
        );
        assert!(
            flag_setters >= 1 && conditional >= 1,
            "{}",
            ir::listing(&l.code)
        );
        // No branch decides a where_ (it is per lane): as many conditional branches as the
        // same kernel without it (those of the end-of-kernel protocol).
        let plain = lowered(|p: Ptr<Int>| {
            let x = Int::var(p.load());
            x.set(x * 2);
            p.store(x);
        });
        let branches = |code: &[Op<VReg>]| {
            count(
                code,
                |op| matches!(op, Op::Branch { cond, .. } if *cond != BranchCond::Always),
            )
        };
        assert_eq!(branches(&l.code), branches(&plain.code));
    }

    #[test]
    fn a_test_against_zero_is_a_flag_setting_copy_without_an_immediate() {
        // The flag-setting op of `where_(x == 0)` (or `!= 0`, zero on either side): the
        // first one (the end-of-kernel protocol sets flags after it).
        fn flag_setter(l: &Lowered) -> Op<VReg> {
            l.code
                .iter()
                .find(|op| matches!(op, Op::Alu { sf: true, .. }))
                .cloned()
                .expect("a flag-setting op")
        }
        for (zero_first, equal) in [(false, true), (true, true), (false, false)] {
            let l = lowered(move |p: Ptr<Int>| {
                let x = Int::var(p.load());
                let zero = Int::from(0);
                let test = match (zero_first, equal) {
                    (false, true) => x.eq(zero),
                    (true, true) => zero.eq(x),
                    _ => x.ne(zero),
                };
                where_(test, || x.set(x + 5));
                p.store(x);
            });
            let op = flag_setter(&l);
            assert!(
                matches!(
                    op,
                    Op::Alu {
                        op: AluOp::Mov,
                        a: Src::Reg(_),
                        dst: Dst::None,
                        ..
                    }
                ),
                "{}",
                ir::listing(&l.code)
            );
            // The masked add is conditional on Z set for ==, Z clear for !=.
            let want = if equal {
                Cond::ZeroSet
            } else {
                Cond::ZeroClear
            };
            assert_eq!(
                count(
                    &l.code,
                    |op| matches!(op, Op::Alu { cond, dst: Dst::Reg(_), .. } if *cond == want)
                ),
                1,
                "{}",
                ir::listing(&l.code)
            );
        }
        // Against another value it stays a subtraction.
        let l = lowered(|p: Ptr<Int>| {
            let x = Int::var(p.load());
            where_(x.eq(3), || x.set(x + 5));
            p.store(x);
        });
        assert!(matches!(
            flag_setter(&l),
            Op::Alu {
                op: AluOp::Add(AddOp::Sub),
                ..
            }
        ));
    }

    #[test]
    fn while_becomes_a_label_and_a_conditional_branch_back_to_it() {
        let l = lowered(|p: Ptr<Int>| {
            let x = Int::var(p.load());
            while_(any(x.gt(0)), || x.set(x - 1));
            p.store(x);
        });
        let labels: Vec<Label> = l
            .code
            .iter()
            .enumerate()
            .filter_map(|(i, op)| match op {
                Op::Label(label) => Some((i, *label)),
                _ => None,
            })
            .filter(|&(i, label)| {
                l.code[i..].iter().any(|later| {
                    matches!(later, Op::Branch { cond, target } if *target == label
                        && *cond != BranchCond::Always)
                })
            })
            .map(|(_, label)| label)
            .collect();
        assert!(!labels.is_empty(), "{}", ir::listing(&l.code));
    }

    /// The for_range body of a kernel (its last `while_`'s statements).
    fn loop_body(kernel: &Kernel) -> Vec<Stmt> {
        kernel
            .body
            .iter()
            .rev()
            .find_map(|s| match &s.kind {
                StmtKind::While { body, .. } => Some(body.clone()),
                _ => None,
            })
            .expect("a loop")
    }

    #[test]
    fn a_sliding_window_is_renamed_away_over_its_cycle() {
        use crate::lang::{gather, index, receive, rotate, store};
        let kernel = crate::compile(|inp: Ptr<Int>, out: Ptr<Int>, n: Int| {
            let mut addr = Ptr::var(inp + index());
            let mut p = Ptr::var(out + index());
            let (prev, cur, next) = (Int::var(0), Int::var(0), Int::var(0));
            gather(addr);
            receive(next);
            crate::lang::for_range(0, n * 16, 16, |_| {
                addr += 16;
                prev.set(cur);
                gather(addr);
                cur.set(next);
                receive(next);
                let edge = Int::var(rotate(cur, 1));
                store(prev + cur * 2 + next * 3 + edge, p);
                p += 16;
            });
        })
        .expect("records");
        let body = loop_body(kernel.ast());
        let windowed = window_copies(&body).expect("a window of three");
        assert_eq!(windowed.copies.len(), 3);
        assert_eq!(windowed.window.len(), 3);
        for copy in &windowed.copies {
            // No copy of one window variable into another is left, and each copy receives.
            assert!(!copy.iter().any(|s| matches!(&s.kind,
                StmtKind::Assign { var, value: Expr::Var(from) }
                    if windowed.window.contains(var) && windowed.window.contains(from))));
            assert_eq!(
                copy.iter()
                    .filter(|s| matches!(s.kind, StmtKind::Receive { .. }))
                    .count(),
                1
            );
        }
        // Each copy receives into the variable the one before it freed: three different
        // ones, so after three copies every value is back under its own name.
        let received: Vec<VarId> = windowed
            .copies
            .iter()
            .flat_map(|c| c.iter())
            .filter_map(|s| match s.kind {
                StmtKind::Receive { var } => Some(var),
                _ => None,
            })
            .collect();
        let mut distinct = received.clone();
        distinct.sort_by_key(|v| v.0);
        distinct.dedup();
        assert_eq!(distinct.len(), 3, "{received:?}");
        // `edge` is set before it is read in each iteration and read nowhere else: a local;
        // the window's variables and the pointers are not.
        let locals = body_locals(kernel.ast(), &body, &windowed.window);
        assert_eq!(locals.len(), 1, "{locals:?}");
        assert!(!windowed.window.contains(&locals[0]));
    }

    #[test]
    fn bodies_without_a_closed_window_are_not_unrolled() {
        use crate::lang::{gather, index, receive, store};
        // `prev` takes a computed value, not a copy: no cycle of renamings.
        let kernel = crate::compile(|inp: Ptr<Int>, out: Ptr<Int>, n: Int| {
            let mut addr = Ptr::var(inp + index());
            let mut p = Ptr::var(out + index());
            let (prev, cur) = (Int::var(0), Int::var(0));
            gather(addr);
            crate::lang::for_range(0, n * 16, 16, |_| {
                addr += 16;
                prev.set(cur + 1);
                gather(addr);
                receive(cur);
                store(prev + cur, p);
                p += 16;
            });
            receive(cur);
        })
        .expect("records");
        assert!(window_copies(&loop_body(kernel.ast())).is_none());
    }
}
