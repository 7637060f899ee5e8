//! The V3D compiler (first slice): kernel AST → V3D 4.2 (Raspberry Pi 4) or V3D 7.1
//! (Raspberry Pi 5) machine words.
//!
//! # Design
//!
//! A separate, deliberately simple backend rather than a second `Target` (`compile::target`):
//! the VideoCore IV pipeline's IR, allocator and scheduler are built around the A/B register
//! files, VPM/DMA stores and the VC4 hazard table, and bending them to a unified 64-entry
//! register file, TMU stores and a different flag model would take longer to get right than a
//! direct lowering. So this module walks the AST once and writes typed V3D instructions
//! (`v3d/ir.rs`: `Inst<VReg>`, add- and mul-ALU operations, signals, labels and branches)
//! over virtual registers, one ALU operation or signal per instruction with nops where a
//! latency or a branch delay slot needs them. The allocator (`v3d/alloc.rs`) renames the
//! virtual registers to register-file registers and accumulators (`Inst<Phys>`), each ALU
//! instruction is built by `qpu_isa::v3d::build` (the operand router and `fadd`/`fmin`
//! input order the assembler shares) and branches get their offsets from the labels, and
//! the packer (`v3d/pack.rs`) then schedules each basic block: it pairs add- and mul-ALU
//! operations, folds signals onto ALU instructions, turns the nops into latency constraints
//! and fills branch delay slots. The packer sees only physical registers and keeps every
//! dependency between them, including the write-after-read ones register reuse creates.
//! No assembly text passes between these steps; `QPU_DUMP_IR` prints listings of them.
//!
//! Registers: rf0–rf3 are reserved (the CSD payload arrives in rf0 (4.2) or rf3 (7.1) and
//! rf2; 7.1 writes `rep` into rf0; rf1 takes the QPU count when nothing reads it) and
//! named directly (`VReg::Rf`). Everything else is a virtual register: one per kernel
//! variable, per built-in value used (QPU number, QPU count, lane number, lane × 4), per
//! constant loaded from the uniforms (see below), per buffer position of gathered values a
//! load popped, and a new one for every temporary. The allocator computes liveness over
//! the instructions' control flow (labels and branches; a value live around a loop's back edge is
//! live throughout the loop; a conditional write, such as a `where_` assignment, also
//! reads its register, so it does not end the old value's life) and colours the
//! interference graph with rf4–rf63 (Chaitin/Briggs, registers handed out round-robin as
//! Mesa's `v3d_ra_select_rf` does). Constants no small immediate holds get a register each
//! (loaded in the prologue) as long as everything fits; if it does not, [`compile`] lowers
//! the kernel again with fewer of them, the least used first (a use inside `n` loops
//! counts 8^n), which are then built where they are used. With none left to drop, it
//! spills variables (see "Spilling" below); when no variable live at the worst point is
//! left to spill, the kernel is a [`CompileError::RegisterAllocation`] naming the kernel,
//! the number of values live at once and the statement where that happens. On 4.2 the
//! allocator also hands out the accumulators r1–r4 to short-lived values (within one basic
//! block, at most a dozen instructions, not written by a signal), which frees the
//! register file's two read ports for the packer; the code generator itself names r0 and r5
//! (a rotation's source and amount) and r1 (an `fmax` of two registers) within single
//! operations' sequences, and the allocator keeps its values out of an accumulator where
//! the generator uses it. The same lowering serves 4.2 and 7.1; the differences are in
//! `Gen::broadcast`, `Gen::rotate` and `Gen::binary`.
//!
//! Conditions: integer comparisons push flag A the way Mesa's `ntq_emit_comparison` does
//! (`xor` with `pushz` for `==`, the carry of `min` for signed `<`/`>`); float comparisons
//! use only the carry of `fcmp` (a ≤ b), pushed and combined by a flag update, so that
//! `-0 == +0` and NaN compares false as IEEE says; `any`/`all` become the
//! `anya`/`alla`/`anyna`/`allna` branch conditions. A `where_` whose bodies are plain assignments uses the flags directly as the
//! write condition; otherwise (nesting, `select` in the body) the mask is kept as a −1/0
//! register and pushed before each masked write.
//!
//! Memory goes through the TMU (Mesa `ntq_emit_tmu_general`): a load writes each lane's
//! address to `tmua` and reads the word back with `ldtmu`; a store writes `tmud` then `tmua`
//! (with the lanes of a partial store disabled by a write condition); a gather is a `tmua`
//! write whose result a later receive pops with `ldtmu`. Loads and gathers share the one
//! result FIFO, read in request order, so a load issued while gathered values wait first pops
//! them (`ldtmu`) into buffer registers (one virtual register per position, oldest first),
//! and the receives that follow copy the oldest of those before they pop the FIFO again. The program waits for its stores
//! with `tmuwt` and ends with py-videocore6's end sequence (the last-thread-switch pair, then
//! the final `thrsw` and its two delay slots).
//!
//! Spilling: when the allocator finds no register for some values even with every constant
//! built where it is used, [`compile`] takes the variables live where the most values are
//! live at once, cheapest first (reads and writes, a use inside `n` loops counting 8^n as
//! for the constants; Mesa's `v3d_choose_spill_node` also sums a cost per read and write but
//! leaves scaling by loop depth as a to-do), spills as many as values went
//! without a register, and lowers the kernel again, until it fits. Only kernel variables
//! spill: temporaries live within one statement, and built-ins and buffer registers stay in
//! registers. A spilled variable has a 64-byte slot (one word per lane) in this QPU's spill
//! area; the prologue computes each lane's address of slot 0 once (area + `me()` × area
//! size + lane × 4, like Mesa's `v3d_setup_spill_base`), and slot `s` is 64·`s` further.
//! Every write of the variable becomes a store (`tmud`, then `tmua`; a `where_` write
//! stores under the write condition, so the other lanes keep their word) and every read a
//! load into a new temporary (`tmua`, `ldtmu`), which like any load first pops the gathers
//! waiting in the result FIFO into buffer registers. A reload may follow a store to the
//! same slot, so a `tmuwt` comes before a reload whenever a store to that variable may still
//! be in flight on some path to it (Mesa waits with `tmuwt` after each spill store; waiting
//! only before a reload of a variable just stored lets the stores of many variables share
//! one wait, 5 instead of 48 in the `pressure` test kernel). A spill that makes
//! a gather/receive pattern unbalanced in a loop body (a reload between a receive and the
//! gather after it) reports the register shortage that caused it.
//!
//! # Launch contract
//!
//! Run a compiled kernel on `n` QPUs as `n` batches of 16 lanes, one workgroup each
//! (`qpu_emu::v3d::CsdJob::per_qpu`, py-videocore6's "thread = n" dispatch): workgroup
//! `i` is `me()` (read from the CSD payload, Mesa's `load_workgroup_id`), so it does not
//! depend on which physical QPU runs it. Every batch reads the same uniform stream,
//! [`V3dCompiled::uniforms`]: `[n, arguments in declared order…, spill area…, semaphore
//! area…, constants…]`,
//! where the constants ([`V3dCompiled::constants`]) are the literals the code needs that no
//! small immediate holds (V3D has no load-immediate instruction; Mesa also passes them as
//! uniforms) and the spill area is present only in a kernel that spills
//! ([`V3dCompiled::spill_bytes_per_qpu`] > 0): the GPU address of
//! `n × spill_bytes_per_qpu` bytes the launch allocates ([`V3dCompiled::spill_bytes`]),
//! workgroup `i` using the `i`-th `spill_bytes_per_qpu` of them. After it, in a kernel that
//! uses semaphores ([`V3dCompiled::semaphore_bytes`] > 0), the GPU address of the
//! semaphore area: [`SEMAPHORE_BYTES`] zeroed bytes the launch allocates, word `k` counting
//! semaphore `k`, shared by every workgroup. One thread per QPU (all 64 registers).
//!
//! # Supported constructs
//!
//! * Int and Float variables, parameters and pointers; `index()`, `me()`, `num_qpus()`.
//! * Integer `+ - * / % & | ^ << >> >>> ror min max mul24 ! abs clz` (`*` from three
//!   `umul24`s, `/` and `%` by a 32-step long-division loop); int↔float conversion.
//! * Float `+ - * / min max abs` and the SFU functions `recip rsqrt exp2 log2 sqrt` (add-ALU
//!   ops; `/` is `a · recip(b)` as the language defines it).
//! * All six comparisons combined with `&&`, `||`, `!`; `select`.
//! * `if_`/`else_`, `while_`, `for_`/`for_range` with `any`/`all`; `where_`/`else_`, nested.
//! * Loads and stores with any stride, partial stores (`store_first`), `gather`/`receive`,
//!   also with loads while gathered values wait, uniform streams (`UniformStream::at`/`next`,
//!   through the second uniform pointer: `unifa` and `ldunifarf`). Gathers and receives may
//!   sit anywhere in control flow, with two limits that come from the one result FIFO loads
//!   and gathers share. A load pops the gathered values waiting into registers first, so
//!   it must know how many wait; and a `while_` body must leave as many waiting, and as
//!   many popped by a load, as it found (else the count would drift from one iteration to
//!   the next). A gather or a receive on one side of an `if_`/`else_` only is accepted
//!   (receives pop the FIFO in order, whichever path ran, as on the VideoCore IV); the
//!   compiler then knows the fewest and the most gathers waiting, and refuses a later load
//!   (or a spilled variable's reload) at its line until both sides agree again. Both
//!   sides must leave as many values popped by a load. If an `if_`/`while_` breaks a limit,
//!   it is lowered again with the waiting gathers popped before its condition, which is
//!   accepted when the bodies then keep the counts: so a gather before a loop whose body
//!   receives it and gathers the next is accepted, with loads anywhere in the body, and so
//!   is a load in an `if_` body while gathers wait.
//! * `rotate` (4.2: the `rot` signal through accumulator r0 and, for a variable amount, r5;
//!   7.1: the `rotate` op by the negated amount, since it turns the other way). A rotation
//!   with one lane (or all but one) taken from a second rotation by the same amount, under
//!   an `index()` test (HeatMap's window edges), was rewritten by the driver into one
//!   rotation of a vector with that lane selected beforehand
//!   (`common::rewrite::select_before_rotating`).
//!
//! * Semaphores (`sema_inc`/`sema_dec`): V3D has no counting semaphores (its barriers are
//!   per workgroup), so each is a loop of TMU atomics on its word of the launch's semaphore
//!   area, issued by lane 0 and broadcast to all lanes: read the count (an atomic add of
//!   0), wait while it is at the limit, then compare-and-exchange it for the count ± 1,
//!   again from the read if another QPU changed it meanwhile (`Gen::semaphore` argues why
//!   this matches the interpreter). The atomics follow Mesa's `ntq_emit_tmu_general`
//!   (src/broadcom/compiler/nir_to_vir.c): operands to `tmud` (for cmpxchg the value
//!   compared, then the one stored, with a vec2 type), address to `tmua`, the word's old
//!   value back through the result FIFO (`ldtmu`), and the lookup config (op in bits 6:3,
//!   py-videocore7's `TMULookUpConfig`) written to `tmuc` beforehand, as py-videocore6's
//!   TMU tests do, and set back to a plain access afterwards. Stores before a semaphore
//!   operation are waited for first (`tmuwt`).
//!
//! `debug` records nothing here (as for any compilation outside `Kernel::run`).
//!
//! # Where compiled code and the interpreter differ
//!
//! The V3D float unit rounds to nearest even and keeps denormals (Broadcom's simulator, as
//! modelled by `qpu_emu::v3d`), while the language's reference interpreter models the
//! VideoCore IV (rounding toward zero, denormals flushed). Inexact float results therefore
//! differ in the last bit; integer results agree exactly. The SFU functions are exact in
//! the interpreter and the emulator, approximate on the hardware.
//!
//! Backend selection (a `QPU_BACKEND` value, a runtime launch through the DRM driver) is
//! not wired yet: this module only produces the words and the uniform layout.
//!
//! ```
//! use qpu::lang::*;
//! use qpu_isa::v3d::V3dVersion;
//!
//! let kernel = qpu::compile(|p: Ptr<Int>| p.store(p.load() + 1))?;
//! let compiled = qpu::compiler::v3d::compile(kernel.ast(), V3dVersion::V42)?;
//! assert!(compiled.disassemble().contains("ldtmu"));
//! assert_eq!(compiled.uniforms(4, &[0x1000], 0, 0), vec![4, 0x1000]);
//! # Ok::<(), qpu::Error>(())
//! ```

use crate::compiler::common::analysis::{lane_uniform, uniform_variables};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The V3D version a kernel is compiled for (re-exported from `qpu_isa`).
pub use qpu_isa::v3d::V3dVersion;
use qpu_isa::v3d::{
    self, small_imm_index, AddOp, BranchCond, Cond as WCond, Instruction, MulOp, PushFlag, Signal,
    UpdateFlag, Waddr,
};

use super::common::target::{Target, V3d};
use super::{CompileError, Options};
use crate::error::SourceLocation;
use std::time::Duration;

mod alloc;
mod gen;
mod ir;
mod pack;
mod shape;
use crate::lang::ast::{
    BinaryOp, BoolExpr, CmpOp, Cond, Expr, Kernel, Special, Stmt, StmtKind, UnaryOp,
};
use ir::{Alu, Dst, Fl, Inst, Label, Op, VReg};

/// Registers rf0–rf3 are never allocated (see the module docs).
const FIRST_FREE: u8 = 4;
/// Registers per thread with one thread per QPU.
const REGISTERS: u32 = 64;
/// Registers the allocator gives out: rf4–rf63.
const ALLOCATABLE: u32 = REGISTERS - FIRST_FREE as u32;
/// Bytes of one spill slot: a word per lane.
const SPILL_SLOT_BYTES: u32 = 64;
/// Per-thread TMU output FIFO entries with one thread.
const TMU_FIFO: u32 = qpu_isa::v3d::latency::TMU_OUTPUT_FIFO;
/// Bytes of the semaphore area: one word per semaphore, shared by every QPU of a launch.
pub const SEMAPHORE_BYTES: u32 = 64;
/// The general TMU lookup config of a 32-bit atomic add, as Mesa's `ntq_emit_tmu_general`
/// builds it: per pixel, op add, one 32-bit word, the following lookups plain.
const TMU_ATOMIC_ADD: u32 = qpu_isa::v3d::TmuConfig::new(
    true,
    qpu_isa::v3d::tmu::op::ADD,
    qpu_isa::v3d::TmuConfig::TYPE_32,
)
.word();
/// The same for cmpxchg, whose type is vec2: two `tmud` words, the value compared and the
/// value stored.
const TMU_ATOMIC_CMPXCHG: u32 =
    qpu_isa::v3d::TmuConfig::new(true, qpu_isa::v3d::tmu::op::CMPXCHG, 2).word();

/// A kernel compiled for a V3D GPU.
#[derive(Debug, Clone, PartialEq)]
pub struct V3dCompiled {
    /// The version the words are for.
    pub(crate) version: V3dVersion,
    /// The instructions.
    pub(crate) instructions: Vec<Instruction>,
    /// The same, encoded.
    pub(crate) words: Vec<u64>,
    /// For each instruction, the kernel statement it comes from (`None` for the prologue and
    /// the end sequence).
    pub(crate) locations: Vec<Option<SourceLocation>>,
    /// Constants the code reads from the uniform stream, after the arguments.
    pub(crate) constants: Vec<u32>,
    /// Number of kernel parameters.
    pub(crate) params: usize,
    /// Bytes of spill area each QPU (batch) needs: 64 per spilled variable, 0 when
    /// nothing spills (see the module docs' launch contract).
    pub(crate) spill_bytes_per_qpu: u32,
    /// Bytes of zeroed semaphore area the launch allocates, shared by all QPUs:
    /// [`SEMAPHORE_BYTES`] when the kernel uses semaphores, 0 otherwise.
    pub(crate) semaphore_bytes: u32,
    /// How long compilation took.
    pub(crate) compile_time: Duration,
}

impl V3dCompiled {
    /// The version the words are for.
    pub fn version(&self) -> V3dVersion {
        self.version
    }

    /// The instructions.
    pub fn instructions(&self) -> &[Instruction] {
        &self.instructions
    }

    /// The instructions, encoded.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// For each instruction, the kernel statement it comes from (`None` for the prologue and
    /// the end sequence).
    pub fn locations(&self) -> &[Option<SourceLocation>] {
        &self.locations
    }

    /// Constants the code reads from the uniform stream, after the arguments.
    pub fn constants(&self) -> &[u32] {
        &self.constants
    }

    /// Number of kernel parameters.
    pub fn params(&self) -> usize {
        self.params
    }

    /// Bytes of spill area each QPU (batch) needs: 64 per spilled variable, 0 when nothing
    /// spills.
    pub fn spill_bytes_per_qpu(&self) -> u32 {
        self.spill_bytes_per_qpu
    }

    /// Bytes of zeroed semaphore area the launch allocates, shared by all QPUs.
    pub fn semaphore_bytes(&self) -> u32 {
        self.semaphore_bytes
    }

    /// How long compilation took.
    pub fn compile_time(&self) -> Duration {
        self.compile_time
    }

    /// The uniform stream every batch reads (see the module docs' launch contract):
    /// the QPU count, the arguments, the spill area's address `spill_area` when the kernel
    /// spills, the semaphore area's address `semaphore_area` when it uses semaphores (each
    /// ignored otherwise), then the constants.
    pub fn uniforms(
        &self,
        num_qpus: u32,
        args: &[u32],
        spill_area: u32,
        semaphore_area: u32,
    ) -> Vec<u32> {
        let mut out = Vec::with_capacity(3 + args.len() + self.constants.len());
        out.push(num_qpus);
        out.extend_from_slice(args);
        if self.spill_bytes_per_qpu > 0 {
            out.push(spill_area);
        }
        if self.semaphore_bytes > 0 {
            out.push(semaphore_area);
        }
        out.extend_from_slice(&self.constants);
        out
    }

    /// Bytes of spill area a launch on `num_qpus` QPUs needs (0 when nothing spills), or
    /// `None` when that does not fit 32 bits.
    pub fn spill_bytes(&self, num_qpus: u32) -> Option<u32> {
        self.spill_bytes_per_qpu.checked_mul(num_qpus)
    }

    /// The code as the 32-bit words memory holds: each 64-bit instruction little-endian, low
    /// half first.
    pub fn code_words(&self) -> Vec<u32> {
        super::memory_words(&self.words)
    }

    /// The most QPUs (batches) this version's GPU runs at once.
    pub fn max_qpus(&self) -> u32 {
        self.version.qpus()
    }

    /// The listing in the V3D assembler's syntax (`qpu asm --gpu vc6|vc7` accepts it back),
    /// with a `# file:line:col` comment wherever the kernel statement the code comes from
    /// changes.
    pub fn disassemble(&self) -> String {
        super::annotate(
            &v3d::disasm::program(self.version, &self.instructions),
            &self.locations,
        )
    }

    /// The kernel statement the instruction at `index` comes from.
    pub fn location(&self, index: usize) -> Option<SourceLocation> {
        self.locations.get(index).copied().flatten()
    }
}

impl super::common::target::Code for V3dCompiled {
    fn listing(&self) -> String {
        self.disassemble()
    }

    fn plain_listing(&self) -> String {
        v3d::disasm::program(self.version, &self.instructions)
    }

    fn set_compile_time(&mut self, time: Duration) {
        self.compile_time = time;
    }
}

/// Compiles `kernel` for V3D `version` (see the module docs for what is supported).
///
/// The first attempt loads every constant no small immediate holds into a register of its
/// own in the prologue and keeps every variable in a register; when the values then do not
/// fit the register file, the least used constants (weighted by loop depth) are built where
/// they are used instead, as few as needed, and the kernel is lowered again. With no
/// constant left to drop, the cheapest variables live where the most values are live at
/// once are spilled (kept in the per-QPU spill area, see the module docs), as many as values
/// got no register, and the kernel is lowered again, until it fits or no variable live
/// there is left to spill.
///
/// The default [`Options`] apply. Over the recorded AST, for the crate's tests; users call
/// [`Kernel::compile_for`](crate::Kernel::compile_for).
#[doc(hidden)]
pub fn compile(kernel: &Kernel, version: V3dVersion) -> Result<V3dCompiled, CompileError> {
    super::drive(
        &super::common::target::V3d(version),
        kernel,
        Options::default(),
    )
}

/// The back end behind [`compile`] (the driver adds the self-check, the compile time and the
/// listing dump). Of the [`Options`], `dual_issue` applies; `max_qpus` does not (the code
/// does not depend on the QPU count).
pub(super) fn generate(
    kernel: &Kernel,
    version: V3dVersion,
    options: Options,
) -> Result<V3dCompiled, CompileError> {
    let edges = kernel;
    // Loops sliding a window unrolled by its cycle, then loop-invariant values in front of
    // their loops; each only when the registers it needs make the kernel neither spill nor
    // drop constants it keeps otherwise.
    let mut unrolled = edges.clone();
    let unrolled =
        (shape::unroll_windows(&mut unrolled, &uniform_variables(edges)) > 0).then_some(unrolled);
    let candidates = unrolled.map(|k| (k, true)).into_iter();
    for (mut shaped, changed) in candidates.chain([(edges.clone(), false)]) {
        if shape::hoist_invariants(&mut shaped) > 0 || changed {
            if let Ok(compiled) = compile_shaped(&shaped, version, options, false) {
                return Ok(compiled);
            }
        }
    }
    compile_shaped(edges, version, options, true)
}

/// Compiles `kernel` as given, dropping pinned constants and spilling variables as the
/// registers require, unless `squeeze` is false (then running short of registers is an
/// error).
fn compile_shaped(
    kernel: &Kernel,
    version: V3dVersion,
    options: Options,
    squeeze: bool,
) -> Result<V3dCompiled, CompileError> {
    let needs = Needs::of(kernel);
    let mut pin = needs.constants.len().min(ALLOCATABLE as usize);
    let mut spilled = vec![false; kernel.vars.len()];
    // The allocation failure that made the last variables spill: reported instead of an
    // error that only a spilled variable causes (a receive's buffer count that a reload
    // changes inside a loop body, say).
    let mut short_of_registers: Option<String> = None;
    loop {
        let mut gen = Gen::new(kernel, version, pin, &spilled);
        gen.dual_issue = options.dual_issue;
        let lowered = match gen.body(&kernel.body, None) {
            Ok(()) => gen.finish(),
            Err(e) => Err(Attempt::Error(e)),
        };
        match lowered {
            Ok(compiled) => return Ok(compiled),
            Err(Attempt::Error(e)) => {
                return Err(match short_of_registers {
                    Some(message) => CompileError::RegisterAllocation(message),
                    None => e,
                })
            }
            Err(Attempt::Registers {
                uncolored,
                live,
                message,
            }) => {
                if !squeeze {
                    return Err(CompileError::RegisterAllocation(message));
                }
                if pin > 0 {
                    pin = pin.saturating_sub(uncolored.max(1));
                    continue;
                }
                // Spill candidates: the variables live at the worst point, cheapest first
                // (reads and writes weighted 8^loop depth, as for the constants).
                let mut candidates: Vec<usize> = live
                    .iter()
                    .map(|&r| r as usize)
                    .filter(|&v| v < spilled.len() && !spilled[v])
                    .collect();
                if candidates.is_empty() {
                    return Err(CompileError::RegisterAllocation(message));
                }
                candidates.sort_by_key(|&v| (needs.var_uses[v], v));
                for v in candidates.into_iter().take(uncolored.max(1)) {
                    spilled[v] = true;
                }
                short_of_registers = Some(message);
            }
        }
    }
}

/// Why one lowering of a kernel failed.
enum Attempt {
    Error(CompileError),
    /// The values did not fit the register file: `uncolored` got no register; `live` are
    /// the virtual registers live where the most are.
    Registers {
        uncolored: usize,
        live: Vec<u32>,
        message: String,
    },
}

impl From<CompileError> for Attempt {
    fn from(e: CompileError) -> Attempt {
        Attempt::Error(e)
    }
}

/// An ALU operand: a virtual register (given a register-file register or an accumulator by
/// `alloc`), one of the reserved registers rf0–rf3, an accumulator the generator names, or a
/// small immediate (its 32-bit value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Src {
    Reg(u32),
    Phys(u8),
    Acc(u8),
    Imm(u32),
}

impl Src {
    fn ir(self) -> ir::Src<VReg> {
        match self {
            Src::Reg(n) => ir::Src::Reg(VReg::Virtual(n)),
            Src::Phys(n) => ir::Src::Reg(VReg::Rf(n)),
            Src::Acc(n) => ir::Src::Reg(VReg::Acc(n)),
            Src::Imm(bits) => ir::Src::Imm(bits),
        }
    }
}

/// The magic destinations the generator writes.
const NOP: Dst<VReg> = Dst::Magic(Waddr::NOP);
const TMUA: Dst<VReg> = Dst::Magic(Waddr::TMUA);
const TMUD: Dst<VReg> = Dst::Magic(Waddr::TMUD);
const TMUC: Dst<VReg> = Dst::Magic(Waddr::TMUC);
const UNIFA: Dst<VReg> = Dst::Magic(Waddr::UNIFA);

/// Which state of flag A marks the lanes where a condition holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sense {
    A,
    NotA,
}

impl Sense {
    fn not(self) -> Sense {
        match self {
            Sense::A => Sense::NotA,
            Sense::NotA => Sense::A,
        }
    }

    fn cond(self) -> WCond {
        match self {
            Sense::A => WCond::IfA,
            Sense::NotA => WCond::IfNa,
        }
    }
}

/// The lanes a `where_` body writes.
#[derive(Debug, Clone, Copy)]
enum Mask {
    /// Flag A holds the mask (nothing in the body changes the flags).
    Flags(Sense),
    /// A register holds −1 in the enabled lanes and 0 elsewhere.
    Reg(u32),
}

/// What the pre-pass finds the code will need.
#[derive(Default)]
struct Needs {
    me: bool,
    num_qpus: bool,
    index: bool,
    memory: bool,
    stores: bool,
    /// A semaphore operation is used (the semaphore area's address is a uniform).
    semaphores: bool,
    /// Constants no small immediate holds, with their number of uses, a use inside `n`
    /// nested loops counting 8^n.
    constants: Vec<(u32, u32)>,
    /// Each variable's reads and writes, weighted the same way (its spill cost).
    var_uses: Vec<u32>,
    /// Loops around the statement being walked.
    depth: u32,
}

impl Needs {
    fn of(kernel: &Kernel) -> Needs {
        let mut needs = Needs {
            var_uses: vec![0; kernel.vars.len()],
            ..Needs::default()
        };
        needs.stmts(&kernel.body);
        needs
    }

    fn var_use(&mut self, var: usize) {
        let weight = 8u32.saturating_pow(self.depth);
        if let Some(uses) = self.var_uses.get_mut(var) {
            *uses = uses.saturating_add(weight);
        }
    }

    fn constant(&mut self, bits: u32) {
        if small_imm_index(bits).is_some() {
            return;
        }
        let weight = 8u32.saturating_pow(self.depth);
        match self.constants.iter_mut().find(|(c, _)| *c == bits) {
            Some((_, uses)) => *uses = uses.saturating_add(weight),
            None => self.constants.push((bits, weight)),
        }
    }

    fn expr(&mut self, e: &Expr) {
        e.walk(&mut |e| match e {
            Expr::IntLit(v) => self.constant(*v as u32),
            Expr::FloatLit(f) => self.constant(f.to_bits()),
            Expr::Var(v) => self.var_use(v.0 as usize),
            Expr::Special(Special::Index) => self.index = true,
            Expr::Special(Special::QpuId) => self.me = true,
            Expr::Special(Special::NumQpus) => self.num_qpus = true,
            Expr::Load { stride, .. } => self.stride(*stride),
            _ => {}
        });
    }

    fn stride(&mut self, stride: u32) {
        self.memory = true;
        let bytes = stride.wrapping_mul(4);
        if bytes != 0 && !bytes.is_power_of_two() {
            self.constant(bytes);
        }
    }

    fn bool(&mut self, b: &BoolExpr) {
        b.walk(&mut |e| self.expr(e));
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { var, value } => {
                    self.var_use(var.0 as usize);
                    self.expr(value)
                }
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    let (Cond::Any(b) | Cond::All(b)) = cond;
                    self.bool(b);
                    self.stmts(then);
                    self.stmts(otherwise);
                }
                StmtKind::While { cond, body } => {
                    let (Cond::Any(b) | Cond::All(b)) = cond;
                    self.depth += 1;
                    self.bool(b);
                    self.stmts(body);
                    self.depth -= 1;
                }
                StmtKind::Where {
                    cond,
                    then,
                    otherwise,
                } => {
                    self.bool(cond);
                    self.stmts(then);
                    self.stmts(otherwise);
                }
                StmtKind::Store {
                    value,
                    addr,
                    stride,
                    lanes,
                    ..
                } => {
                    self.expr(value);
                    self.expr(addr);
                    if let Some(n) = lanes {
                        self.expr(n);
                    }
                    self.stride(*stride);
                    self.stores = true;
                }
                StmtKind::Gather { addr } => {
                    self.expr(addr);
                    self.memory = true;
                }
                StmtKind::Receive { var } => {
                    self.var_use(var.0 as usize);
                    self.memory = true
                }
                StmtKind::UniformsFrom { addr } => self.expr(addr),
                StmtKind::SemaInc(n) | StmtKind::SemaDec(n) => {
                    // The lane-0 test reads index(); the atomics' configs and the
                    // semaphore's byte offset are constants.
                    self.semaphores = true;
                    self.memory = true;
                    self.index = true;
                    self.constant(TMU_ATOMIC_ADD);
                    self.constant(TMU_ATOMIC_CMPXCHG);
                    self.constant(u32::from(*n) * 4);
                }
                StmtKind::Debug { .. } => {}
            }
        }
    }
}

/// Adds to `out` the variables `spilled` marks that `stmts` assign (or receive into).
fn spilled_writes(stmts: &[Stmt], spilled: &[bool], out: &mut BTreeSet<usize>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { var, .. } | StmtKind::Receive { var } if spilled[var.0 as usize] => {
                out.insert(var.0 as usize);
            }
            StmtKind::If {
                then, otherwise, ..
            }
            | StmtKind::Where {
                then, otherwise, ..
            } => {
                spilled_writes(then, spilled, out);
                spilled_writes(otherwise, spilled, out);
            }
            StmtKind::While { body, .. } => spilled_writes(body, spilled, out),
            _ => {}
        }
    }
}

/// Variables read (or conditionally written) before a top-level assignment defines them in
/// every lane: those must start as zero.
fn vars_needing_zero(kernel: &Kernel) -> Vec<bool> {
    fn touched(stmts: &[Stmt], in_where: bool, out: &mut Vec<usize>) {
        let read = |e: &Expr, out: &mut Vec<usize>| {
            e.walk(&mut |e| {
                if let Expr::Var(v) = e {
                    out.push(v.0 as usize);
                }
            })
        };
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { var, value } => {
                    read(value, out);
                    if in_where {
                        out.push(var.0 as usize);
                    }
                }
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    let (Cond::Any(b) | Cond::All(b)) = cond;
                    b.walk(&mut |e| read(e, out));
                    touched(then, in_where, out);
                    touched(otherwise, in_where, out);
                }
                StmtKind::While { cond, body } => {
                    let (Cond::Any(b) | Cond::All(b)) = cond;
                    b.walk(&mut |e| read(e, out));
                    touched(body, in_where, out);
                }
                StmtKind::Where {
                    cond,
                    then,
                    otherwise,
                } => {
                    cond.walk(&mut |e| read(e, out));
                    touched(then, true, out);
                    touched(otherwise, true, out);
                }
                StmtKind::Store {
                    value, addr, lanes, ..
                } => {
                    read(value, out);
                    read(addr, out);
                    if let Some(n) = lanes {
                        read(n, out);
                    }
                }
                StmtKind::Gather { addr } | StmtKind::UniformsFrom { addr } => read(addr, out),
                StmtKind::Debug { value, .. } => read(value, out),
                StmtKind::Receive { .. } | StmtKind::SemaInc(_) | StmtKind::SemaDec(_) => {}
            }
        }
    }
    let mut defined = vec![false; kernel.vars.len()];
    for p in &kernel.params {
        defined[p.var.0 as usize] = true;
    }
    let mut zero = vec![false; kernel.vars.len()];
    for s in &kernel.body {
        let mut out = Vec::new();
        touched(std::slice::from_ref(s), false, &mut out);
        for v in out {
            if !defined[v] {
                zero[v] = true;
            }
        }
        match &s.kind {
            StmtKind::Assign { var, .. } | StmtKind::Receive { var } => {
                defined[var.0 as usize] = true
            }
            _ => {}
        }
    }
    zero
}

/// The code generator: typed instructions over virtual registers for one kernel.
struct Gen<'k> {
    version: V3dVersion,
    /// Whether the packer pairs add- and mul-ALU operations ([`Options::dual_issue`]).
    dual_issue: bool,
    /// At the top of a `while_` body: the loop's condition, which flag A holds (in the
    /// sense given) on every path there, since both the test before the loop and the test
    /// at the end of the body branch to it right after computing it. The body's first
    /// statement takes it; a `where_` on the same condition then uses the flags as they are.
    flags_hold: Option<(BoolExpr, Sense)>,
    kernel: &'k Kernel,
    needs: Needs,
    /// Instructions and labels.
    lines: Vec<Inst<VReg>>,
    locations: Vec<Option<SourceLocation>>,
    labels: u32,
    /// Each variable's virtual register.
    var_reg: Vec<u32>,
    const_reg: BTreeMap<u32, u32>,
    /// The constants in `const_reg`, in uniform-stream order.
    pinned_constants: Vec<u32>,
    me: u32,
    num_qpus: u32,
    index: u32,
    lane4: u32,
    uniform: Vec<bool>,
    /// Variables whose lanes hold consecutive word addresses ([`shape::contiguous_vars`]).
    contiguous: Vec<bool>,
    /// Variables holding multiples of 4 ([`shape::aligned_vars`]).
    aligned: Vec<bool>,
    /// The next virtual register: every temporary is a new one (`alloc` finds which can
    /// share a register).
    next_vreg: u32,
    /// Gathers whose results are still in the TMU's FIFO: the most on any path here.
    gathers: u32,
    /// The fewest on any path here (less than `gathers` after an `if_` that gathers or
    /// receives on one path only: receives still pop the FIFO in order, but a load cannot
    /// know how many results to pop first).
    gathers_min: u32,
    /// Gathered values a load popped out of the FIFO before its own result, oldest first in
    /// `buffer(0)`, `buffer(1)`, …: later receives take them before any `ldtmu`.
    buffered: u32,
    /// The virtual registers of the buffer positions (one per position, so that every path
    /// through control flow finds the `i`-th oldest value in the same register).
    buffers: Vec<u32>,
    /// The statement being lowered.
    here: Option<SourceLocation>,
    /// Which variables live in the spill area instead of a register.
    spilled: Vec<bool>,
    /// Each spilled variable's slot (its 64 bytes, one word per lane, in the QPU's area).
    spill_slot: Vec<Option<u32>>,
    /// Slots in use.
    spill_slots: u32,
    /// The virtual register holding this lane's address in slot 0 of this QPU's area.
    spill_base: u32,
    /// The virtual register holding the semaphore area's address.
    semaphore_base: u32,
    /// The spilled variables whose last store may still be in flight: a reload of one of
    /// them waits for the stores first (`tmuwt`; Mesa's `v3d_emit_spill_tmua` waits after
    /// each spill store).
    spill_dirty: BTreeSet<usize>,
}

impl<'k> Gen<'k> {
    /// A generator that loads the `pin` most used constants (weighted by loop depth) into
    /// registers in the prologue; the others are built where they are used.
    ///
    /// The variables `spilled` marks live in the spill area (see the module docs).
    fn new(kernel: &'k Kernel, version: V3dVersion, pin: usize, spilled: &[bool]) -> Gen<'k> {
        let mut needs = Needs::of(kernel);
        let mut next = 0u32;
        let mut pin_reg = || {
            let r = next;
            next += 1;
            r
        };
        let var_reg = (0..kernel.vars.len()).map(|_| pin_reg()).collect();
        let me = pin_reg();
        let num_qpus = pin_reg();
        let index = pin_reg();
        let lane4 = pin_reg();
        let mut by_uses = needs.constants.clone();
        by_uses.sort_by_key(|&(_, uses)| std::cmp::Reverse(uses));
        let pinned: Vec<u32> = by_uses.iter().take(pin).map(|&(c, _)| c).collect();
        let const_reg = pinned.iter().map(|&c| (c, pin_reg())).collect();
        let spill_base = pin_reg();
        let semaphore_base = pin_reg();
        let mut spill_slots = 0;
        let spill_slot = spilled
            .iter()
            .map(|&s| {
                s.then(|| {
                    spill_slots += 1;
                    spill_slots - 1
                })
            })
            .collect();
        if spill_slots > 0 {
            // The spill area's address is per QPU (me()) and per lane (lane × 4); a spill
            // is a store and waits for it before the end.
            needs.me = true;
            needs.memory = true;
            needs.stores = true;
        }
        let uniform = uniform_variables(kernel);
        Gen {
            version,
            kernel,
            needs,
            lines: Vec::new(),
            locations: Vec::new(),
            labels: 0,
            var_reg,
            const_reg,
            pinned_constants: pinned,
            me,
            num_qpus,
            index,
            lane4,
            contiguous: shape::contiguous_vars(kernel, &uniform, &vars_needing_zero(kernel)),
            aligned: shape::aligned_vars(kernel),
            uniform,
            next_vreg: next,
            gathers: 0,
            gathers_min: 0,
            buffered: 0,
            buffers: Vec::new(),
            here: None,
            spilled: spilled.to_vec(),
            dual_issue: true,
            flags_hold: None,
            spill_slot,
            spill_slots,
            spill_base,
            semaphore_base,
            // The prologue may store parameters and zeros into the area.
            spill_dirty: (0..spilled.len()).filter(|&v| spilled[v]).collect(),
        }
    }
}

/// The allocated instructions' listing, one per line (for `QPU_DUMP_IR`).
fn listing<R: std::fmt::Display>(insts: &[Inst<R>]) -> String {
    let mut text = String::new();
    for i in insts {
        let _ = writeln!(text, "{i}");
    }
    text
}

/// The machine instructions: labels resolved to branch offsets (counted from the
/// instruction four after the branch), ALU instructions built by `qpu_isa::v3d::build`.
fn machine(
    version: V3dVersion,
    insts: &[Inst<ir::Phys>],
) -> Result<Vec<Instruction>, CompileError> {
    let mut at = BTreeMap::new();
    let mut count = 0usize;
    for i in insts {
        match i {
            Inst::Label(l) => {
                at.insert(*l, count);
            }
            _ => count += 1,
        }
    }
    let mut out = Vec::with_capacity(count);
    for i in insts {
        let index = out.len();
        let error = |message: String| CompileError::Encoding { index, message };
        match i {
            Inst::Label(_) => {}
            Inst::Branch { cond, target } => {
                let to = at
                    .get(target)
                    .copied()
                    .ok_or_else(|| error(format!("branch to L{}, which is nowhere", target.0)))?;
                let offset = v3d::build::relative_offset(index, to)
                    .ok_or_else(|| error("branch distance does not fit in 32 bits".into()))?;
                out.push(Instruction::Branch(v3d::Branch {
                    cond: *cond,
                    msfign: 0,
                    bdi: v3d::BranchDest::Rel,
                    ub: false,
                    bdu: 0,
                    raddr_a: 0,
                    offset,
                    link: false,
                }));
            }
            Inst::Alu(a) => out.push(Instruction::Alu(
                a.build(version).map_err(|e| error(format!("{e} ({i})")))?,
            )),
        }
    }
    Ok(out)
}

/// An operation of either ALU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Alu2 {
    Add(AddOp),
    Mul(MulOp),
}

/// The operation of a binary operator that is one ALU instruction.
fn single_binary(op: BinaryOp) -> Option<Alu2> {
    use Alu2::{Add, Mul};
    Some(match op {
        BinaryOp::IntAdd => Add(AddOp::Add),
        BinaryOp::IntSub => Add(AddOp::Sub),
        BinaryOp::Shl => Add(AddOp::Shl),
        BinaryOp::Asr => Add(AddOp::Asr),
        BinaryOp::Lsr => Add(AddOp::Shr),
        BinaryOp::Ror => Add(AddOp::Ror),
        BinaryOp::And => Add(AddOp::And),
        BinaryOp::Or => Add(AddOp::Or),
        BinaryOp::Xor => Add(AddOp::Xor),
        BinaryOp::IntMin => Add(AddOp::Min),
        BinaryOp::IntMax => Add(AddOp::Max),
        BinaryOp::FloatAdd => Add(AddOp::Fadd),
        BinaryOp::FloatSub => Add(AddOp::Fsub),
        BinaryOp::FloatMin => Add(AddOp::Fmin),
        BinaryOp::FloatMax => Add(AddOp::Fmax),
        BinaryOp::Mul24 => Mul(MulOp::Umul24),
        BinaryOp::FloatMul => Mul(MulOp::Fmul),
        BinaryOp::IntMul | BinaryOp::IntDiv | BinaryOp::IntRem | BinaryOp::FloatDiv => return None,
    })
}

/// A shift amount as a small immediate: shifts use the low five bits, and 16..31 are held as
/// −16..−1.
/// A condition one flag-setting instruction decides: an integer comparison, a float `<=` or
/// `>=` (one `fcmp`), or the negation of one, whose operands set no flags when evaluated.
/// Gives the instruction's op, the comparison's operands in source order and whether the
/// instruction takes them swapped, the flag that decides it (`z` or `c`), and whether the
/// condition holds where that flag is set (the same encodings as [`Gen::flags`]).
fn single_flag(b: &BoolExpr) -> Option<(AddOp, &Expr, &Expr, bool, PushFlag, bool)> {
    match b {
        BoolExpr::Not(inner) => {
            let (op, l, r, swap, flag, set) = single_flag(inner)?;
            Some((op, l, r, swap, flag, !set))
        }
        BoolExpr::Compare {
            op,
            float,
            lhs,
            rhs,
        } => {
            if lhs.sets_flags() || rhs.sets_flags() {
                return None;
            }
            let (op, swap, flag, set) = one_instruction_compare(*float, *op)?;
            Some((op, lhs, rhs, swap, flag, set))
        }
        BoolExpr::And(..) | BoolExpr::Or(..) => None,
    }
}

/// The one instruction that decides a comparison (Mesa nir_to_vir.c `ntq_emit_comparison`:
/// C of `min(a, b)` is a > b signed, Z of `xor` is a == b; C of `fcmp(a, b)` is a <= b):
/// its op, whether it takes the operands swapped, the flag (`z` or `c`), and whether the
/// comparison holds where the flag is set. `None` for the float comparisons that need a
/// second, updating `fcmp` (`<`, `>`, `==`, `!=`).
fn one_instruction_compare(float: bool, op: CmpOp) -> Option<(AddOp, bool, PushFlag, bool)> {
    use PushFlag::{C, Z};
    Some(match (float, op) {
        (false, CmpOp::Eq) => (AddOp::Xor, false, Z, true),
        (false, CmpOp::Ne) => (AddOp::Xor, false, Z, false),
        (false, CmpOp::Gt) => (AddOp::Min, false, C, true),
        (false, CmpOp::Le) => (AddOp::Min, false, C, false),
        (false, CmpOp::Lt) => (AddOp::Min, true, C, true),
        (false, CmpOp::Ge) => (AddOp::Min, true, C, false),
        (true, CmpOp::Le) => (AddOp::Fcmp, false, C, true),
        (true, CmpOp::Ge) => (AddOp::Fcmp, true, C, true),
        (true, _) => return None,
    })
}

/// How a flag update combines flag A with the new flag f (py-videocore6 test_cond_update):
/// `and` A ∧ f, `andn` A ∧ ¬f, `nor` ¬(A ∨ f), `norn` ¬(A ∨ ¬f).
#[derive(Debug, Clone, Copy)]
enum Update {
    And,
    AndN,
    NorN,
    Nor,
}

/// The update of flag A by `update` with the Z or C flag.
fn update_flag(update: Update, flag: PushFlag) -> UpdateFlag {
    use UpdateFlag::*;
    let z = flag == PushFlag::Z;
    match update {
        Update::And if z => AndZ,
        Update::AndN if z => AndNz,
        Update::NorN if z => NorNz,
        Update::Nor if z => NorZ,
        Update::And => AndC,
        Update::AndN => AndNc,
        Update::NorN => NorNc,
        Update::Nor => NorC,
    }
}

/// The other operand and the literal of a product by 0, ±1 or ±2^k (k < 31), the literal on
/// either side.
fn literal_factor<'e>(lhs: &'e Expr, rhs: &'e Expr) -> Option<(&'e Expr, i32)> {
    let (x, c) = match (lhs, rhs) {
        (x, Expr::IntLit(c)) => (x, *c),
        (Expr::IntLit(c), x) => (x, *c),
        _ => return None,
    };
    let magnitude = c.unsigned_abs();
    (magnitude <= 1 || (magnitude.is_power_of_two() && magnitude < 1 << 31)).then_some((x, c))
}

fn shift_imm(amount: u32) -> Src {
    Src::Imm(shift_bits(amount))
}

fn shift_bits(amount: u32) -> u32 {
    let a = amount & 31;
    if a < 16 {
        a
    } else {
        (a as i32 - 32) as u32
    }
}

/// The branch condition that holds exactly when `cond` does not.
fn negate_branch(cond: BranchCond) -> BranchCond {
    match cond {
        BranchCond::AnyA => BranchCond::AllNa,
        BranchCond::AllNa => BranchCond::AnyA,
        BranchCond::AllA => BranchCond::AnyNa,
        _ => BranchCond::AllA,
    }
}

fn version_name(version: V3dVersion) -> &'static str {
    match version {
        V3dVersion::V42 => "V3D 4.2 (Raspberry Pi 4)",
        V3dVersion::V71 => "V3D 7.1 (Raspberry Pi 5)",
    }
}
