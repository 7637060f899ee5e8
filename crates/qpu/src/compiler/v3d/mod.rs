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
//!   an `index()` test (HeatMap's window edges), is rewritten first into one rotation of a
//!   vector with that lane selected beforehand (`select_before_rotating`).
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
mod ir;
mod pack;
mod shape;
use crate::lang::ast::{
    BinaryOp, BoolExpr, CmpOp, Cond, Expr, Kernel, Special, Stmt, StmtKind, UnaryOp, VarDecl,
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
    pub version: V3dVersion,
    /// The instructions.
    pub instructions: Vec<Instruction>,
    /// The same, encoded.
    pub words: Vec<u64>,
    /// For each instruction, the kernel statement it comes from (`None` for the prologue and
    /// the end sequence).
    pub locations: Vec<Option<SourceLocation>>,
    /// Constants the code reads from the uniform stream, after the arguments.
    pub constants: Vec<u32>,
    /// Number of kernel parameters.
    pub params: usize,
    /// Bytes of spill area each QPU (batch) needs: 64 per spilled variable, 0 when
    /// nothing spills (see the module docs' launch contract).
    pub spill_bytes_per_qpu: u32,
    /// Bytes of zeroed semaphore area the launch allocates, shared by all QPUs:
    /// [`SEMAPHORE_BYTES`] when the kernel uses semaphores, 0 otherwise.
    pub semaphore_bytes: u32,
    /// How long compilation took.
    pub compile_time: Duration,
}

impl V3dCompiled {
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
        self.words
            .iter()
            .flat_map(|&word| [word as u32, (word >> 32) as u32])
            .collect()
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
/// The default [`Options`] apply; [`super::compile_for_with`] takes others.
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
    let needs = Needs::of(kernel);
    let mut edges = kernel.clone();
    select_before_rotating(&mut edges.body, &kernel.vars, &needs.var_uses, 0);
    // Loops sliding a window unrolled by its cycle, then loop-invariant values in front of
    // their loops; each only when the registers it needs make the kernel neither spill nor
    // drop constants it keeps otherwise.
    let mut unrolled = edges.clone();
    let unrolled =
        (shape::unroll_windows(&mut unrolled, &uniform_variables(&edges)) > 0).then_some(unrolled);
    let candidates = unrolled.map(|k| (k, true)).into_iter();
    for (mut shaped, changed) in candidates.chain([(edges.clone(), false)]) {
        if shape::hoist_invariants(&mut shaped) > 0 || changed {
            if let Ok(compiled) = compile_shaped(&shaped, version, options, false) {
                return Ok(compiled);
            }
        }
    }
    compile_shaped(&edges, version, options, true)
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

/// Window edges selected before their rotation (as the VideoCore IV compiler's
/// `opt::select_before_rotating` does on its IR): `r = rotate(a, n); t = rotate(b, n);
/// where_(index().eq(c), || r.set(t))` becomes `t = a; where_(index().eq(c - n), || t.set(b));
/// r = rotate(t, n)`, one rotation instead of two (`ne` likewise). Lane i of a rotation by n
/// is lane i − n of its source, so lane c of the result comes from `b` and every other lane
/// from `a`, as before. `t` must be read nowhere else (its uses, weighted as [`Needs`] weighs them, are
/// exactly this write and this read), and the four variables distinct, `t` of `a`'s type.
fn select_before_rotating(stmts: &mut Vec<Stmt>, vars: &[VarDecl], uses: &[u32], depth: u32) {
    for s in stmts.iter_mut() {
        match &mut s.kind {
            StmtKind::If {
                then, otherwise, ..
            } => {
                select_before_rotating(then, vars, uses, depth);
                select_before_rotating(otherwise, vars, uses, depth);
            }
            StmtKind::While { body, .. } => select_before_rotating(body, vars, uses, depth + 1),
            _ => {}
        }
    }
    let rotation = |s: &Stmt| match &s.kind {
        StmtKind::Assign {
            var,
            value: Expr::Rotate { value, amount },
        } => match (&**value, &**amount) {
            (Expr::Var(source), Expr::IntLit(n)) if n & 15 != 0 => Some((*var, *source, n & 15)),
            _ => None,
        },
        _ => None,
    };
    let mut i = 0;
    while i + 2 < stmts.len() {
        let edge = (|| {
            let (r, a, n) = rotation(&stmts[i])?;
            let (t, b, n2) = rotation(&stmts[i + 1])?;
            let StmtKind::Where {
                cond:
                    BoolExpr::Compare {
                        op: op @ (CmpOp::Eq | CmpOp::Ne),
                        float: false,
                        lhs,
                        rhs,
                    },
                then,
                otherwise,
            } = &stmts[i + 2].kind
            else {
                return None;
            };
            let c = match (&**lhs, &**rhs) {
                (Expr::Special(Special::Index), Expr::IntLit(c))
                | (Expr::IntLit(c), Expr::Special(Special::Index)) => *c,
                _ => return None,
            };
            let copy = match then.as_slice() {
                [Stmt {
                    kind:
                        StmtKind::Assign {
                            var,
                            value: Expr::Var(from),
                        },
                    location,
                }] if *var == r && *from == t => *location,
                _ => return None,
            };
            let distinct = [r, a, t, b]
                .iter()
                .enumerate()
                .all(|(k, x)| [r, a, t, b][k + 1..].iter().all(|y| y != x));
            let (ti, ai) = (t.0 as usize, a.0 as usize);
            let once = 2u32.checked_mul(8u32.checked_pow(depth)?)?;
            if n2 != n
                || !(0..16).contains(&c)
                || !otherwise.is_empty()
                || !distinct
                || vars.get(ti)?.ty != vars.get(ai)?.ty
                || uses.get(ti) != Some(&once)
            {
                return None;
            }
            let assign = |var, value, location| Stmt {
                kind: StmtKind::Assign { var, value },
                location,
            };
            let lane = Expr::IntLit((c - n).rem_euclid(16));
            Some([
                assign(t, Expr::Var(a), stmts[i + 1].location),
                Stmt {
                    kind: StmtKind::Where {
                        cond: BoolExpr::Compare {
                            op: *op,
                            float: false,
                            lhs: std::sync::Arc::new(Expr::Special(Special::Index)),
                            rhs: std::sync::Arc::new(lane),
                        },
                        then: vec![assign(t, Expr::Var(b), copy)],
                        otherwise: Vec::new(),
                    },
                    location: stmts[i + 2].location,
                },
                assign(
                    r,
                    Expr::Rotate {
                        value: std::sync::Arc::new(Expr::Var(t)),
                        amount: std::sync::Arc::new(Expr::IntLit(n)),
                    },
                    stmts[i].location,
                ),
            ])
        })();
        match edge {
            Some(new) => {
                stmts.splice(i..i + 3, new);
                i += 3;
            }
            None => i += 1,
        }
    }
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

    // ---- emission helpers ----------------------------------------------------------------

    fn emit(&mut self, inst: Inst<VReg>) {
        self.lines.push(inst);
        self.locations.push(self.here);
    }

    /// An instruction standing for a latency the packer keeps (or a delay slot it fills).
    fn nop(&mut self) {
        self.emit(Inst::nop());
    }

    /// A signal alone (`ldtmu`, `ldunifrf`, `ldunifarf` writing `dst`; `thrsw`).
    fn signal(&mut self, sig: Signal, dst: Option<Dst<VReg>>) {
        self.emit(Inst::Alu(Alu {
            sig: Some(sig),
            sig_dst: dst,
            ..Alu::NOP
        }));
    }

    fn label(&mut self) -> Label {
        self.labels += 1;
        Label(self.labels)
    }

    fn place(&mut self, label: Label) {
        // Labels are not instructions: they carry no location.
        self.lines.push(Inst::Label(label));
    }

    fn branch(&mut self, cond: BranchCond, target: Label) {
        self.emit(Inst::Branch { cond, target });
        // Three delay slots (Mesa qpu_validate.c), left empty here; the packer fills them.
        for _ in 0..3 {
            self.nop();
        }
    }

    fn unsupported(&self, construct: impl Into<String>) -> CompileError {
        CompileError::Unsupported {
            construct: construct.into(),
            target: version_name(self.version),
            location: self.here.unwrap_or(self.kernel.location),
        }
    }

    fn temp(&mut self) -> Result<u32, CompileError> {
        let r = self.next_vreg;
        self.next_vreg = r.checked_add(1).ok_or_else(|| {
            CompileError::RegisterAllocation(format!(
                "the kernel at {} needs more than 2^32 values",
                self.kernel.location
            ))
        })?;
        Ok(r)
    }

    /// The virtual register of buffer position `i` (see `buffered`).
    fn buffer(&mut self, i: u32) -> Result<u32, CompileError> {
        while self.buffers.len() <= i as usize {
            let r = self.temp()?;
            self.buffers.push(r);
        }
        Ok(self.buffers[i as usize])
    }

    fn constant(&mut self, bits: u32) -> Result<Src, CompileError> {
        if small_imm_index(bits).is_some() {
            return Ok(Src::Imm(bits));
        }
        if let Some(&r) = self.const_reg.get(&bits) {
            return Ok(Src::Reg(r));
        }
        // Built from 4-bit pieces, most significant first (V3D has no load-immediate).
        let t = self.temp()?;
        let d = Dst::v(t);
        let nibbles: Vec<u32> = (0..8).rev().map(|i| (bits >> (4 * i)) & 15).collect();
        let first = nibbles.iter().position(|&n| n != 0).unwrap_or(7);
        self.mov(d, Src::Imm(nibbles[first]), Fl::NONE);
        for &n in &nibbles[first + 1..] {
            self.add2(AddOp::Shl, Fl::NONE, d, Src::Reg(t), Src::Imm(4))?;
            if n != 0 {
                self.add2(AddOp::Or, Fl::NONE, d, Src::Reg(t), Src::Imm(n))?;
            }
        }
        Ok(Src::Reg(t))
    }

    /// The byte offset of spill slot `slot` from the spill base: 64 bytes a slot.
    fn spill_offset(&mut self, slot: u32) -> Result<Src, CompileError> {
        if slot == 0 {
            return Ok(Src::Imm(0));
        }
        let index = self.constant(slot)?;
        let t = self.temp()?;
        self.add2(AddOp::Shl, Fl::NONE, Dst::v(t), index, Src::Imm(6))?;
        Ok(Src::Reg(t))
    }

    /// A spilled variable's value, read back from its slot into a new temporary: a TMU load
    /// like the kernel's own (`tmua`, then `ldtmu`), so gathered values waiting in the
    /// result FIFO are popped into their buffer registers first.
    fn reload(&mut self, var: usize) -> Result<Src, CompileError> {
        let slot = self.spill_slot[var].expect("a spilled variable has a slot");
        self.drain()?;
        let offset = self.spill_offset(slot)?;
        if self.spill_dirty.contains(&var) {
            // A store to the area may still be in flight: wait for it, so that the load
            // reads what it wrote (Mesa waits with `tmuwt` after every spill store).
            self.add_op(AddOp::Tmuwt, Fl::NONE, NOP, &[]);
            self.spill_dirty.clear();
        }
        self.add2(
            AddOp::Add,
            Fl::NONE,
            TMUA,
            Src::Reg(self.spill_base),
            offset,
        )?;
        let t = self.temp()?;
        self.signal(Signal::Ldtmu, Some(Dst::v(t)));
        Ok(Src::Reg(t))
    }

    /// Stores `value` into a spilled variable's slot, in the lanes where `cond` holds (all
    /// when `None`): `tmud`, then `tmua` under the condition, as a partial store.
    fn spill_store(&mut self, var: usize, value: Src, cond: Fl) -> Result<(), CompileError> {
        let slot = self.spill_slot[var].expect("a spilled variable has a slot");
        let offset = self.spill_offset(slot)?;
        self.mov(TMUD, value, Fl::NONE);
        self.add2(AddOp::Add, cond, TMUA, Src::Reg(self.spill_base), offset)?;
        self.spill_dirty.insert(var);
        Ok(())
    }

    /// At most one small immediate per instruction (one value on 4.2, one signal on 7.1):
    /// moves `a` into a register when both inputs are immediates.
    fn operands(&mut self, a: Src, b: Src) -> Result<(Src, Src), CompileError> {
        match (a, b) {
            (Src::Imm(x), Src::Imm(y)) if x != y || self.version == V3dVersion::V71 => {
                let t = self.temp()?;
                self.mov(Dst::v(t), a, Fl::NONE);
                Ok((Src::Reg(t), b))
            }
            _ => Ok((a, b)),
        }
    }

    /// The add-ALU operation `op` with `flags`, alone in an instruction.
    fn add_op(&mut self, op: AddOp, flags: Fl, dest: Dst<VReg>, srcs: &[Src]) {
        let srcs: Vec<ir::Src<VReg>> = srcs.iter().map(|s| s.ir()).collect();
        self.emit(Inst::Alu(Alu {
            add: Some(Op::new(op, flags, dest, &srcs)),
            ..Alu::NOP
        }));
    }

    /// The mul-ALU operation `op` with `flags`, alone in an instruction.
    fn mul_op(&mut self, op: MulOp, flags: Fl, dest: Dst<VReg>, srcs: &[Src]) {
        let srcs: Vec<ir::Src<VReg>> = srcs.iter().map(|s| s.ir()).collect();
        self.emit(Inst::Alu(Alu {
            mul: Some(Op::new(op, flags, dest, &srcs)),
            ..Alu::NOP
        }));
    }

    /// A two-input add-ALU operation (an immediate moved to a register first if both
    /// inputs are different immediates).
    fn add2(
        &mut self,
        op: AddOp,
        flags: Fl,
        dest: Dst<VReg>,
        a: Src,
        b: Src,
    ) -> Result<(), CompileError> {
        let (a, b) = self.operands(a, b)?;
        self.add_op(op, flags, dest, &[a, b]);
        Ok(())
    }

    /// A one-input add-ALU operation.
    fn add1(&mut self, op: AddOp, flags: Fl, dest: Dst<VReg>, a: Src) {
        self.add_op(op, flags, dest, &[a]);
    }

    /// A two-input mul-ALU operation.
    fn mul2(
        &mut self,
        op: MulOp,
        flags: Fl,
        dest: Dst<VReg>,
        a: Src,
        b: Src,
    ) -> Result<(), CompileError> {
        let (a, b) = self.operands(a, b)?;
        self.mul_op(op, flags, dest, &[a, b]);
        Ok(())
    }

    /// The mul ALU's `mov` (it exists on both versions and takes a single input, so an
    /// immediate needs no second port).
    fn mov(&mut self, dest: Dst<VReg>, a: Src, flags: Fl) {
        self.mul_op(MulOp::Mov, flags, dest, &[a]);
    }

    /// A register holding lane 0 of `value` in every lane (4.2 `r5rep`, 7.1 `rep`), or
    /// `value` itself when it is already lane-uniform.
    fn broadcast(&mut self, value: Src, uniform: bool) -> Result<Src, CompileError> {
        if uniform || matches!(value, Src::Imm(_)) {
            return Ok(value);
        }
        let read = match self.version {
            V3dVersion::V42 => Src::Acc(5),
            V3dVersion::V71 => Src::Phys(0),
        };
        self.mov(Dst::Magic(Waddr::REP), value, Fl::NONE);
        let t = self.temp()?;
        self.mov(Dst::v(t), read, Fl::NONE);
        Ok(Src::Reg(t))
    }

    /// A special function as the add-ALU op (V3D 4.1+; on 7.1 the only form), writing any
    /// register. Mesa's scheduler gives an SFU instruction a latency of 2
    /// (`qpu_schedule.c`, `instruction_latency`; a read in the very next instruction stalls,
    /// `read_stalls`). The two nops after it stand for that latency: the packer keeps
    /// readers two instructions away and fills the gap with independent work.
    fn sfu(&mut self, op: AddOp, dest: u32, a: Src) {
        self.add1(op, Fl::NONE, Dst::v(dest), a);
        self.nop();
        self.nop();
    }

    /// `dest` lane i = `value` lane (i − n) mod 16, n = lane 0 of `amount`.
    fn rotate(&mut self, dest: u32, value: Src, amount: Src) -> Result<(), CompileError> {
        let d = Dst::v(dest);
        let constant = match amount {
            Src::Imm(n) => Some(n & 15),
            Src::Reg(_) | Src::Phys(_) | Src::Acc(_) => None,
        };
        if constant == Some(0) {
            self.mov(d, value, Fl::NONE);
            return Ok(());
        }
        match self.version {
            V3dVersion::V42 => {
                // The `rot` signal rotates the mul ALU's inputs; from an accumulator across
                // all 16 lanes, out[i] = in[(i − n) mod 16], by a small immediate or by r5
                // (py-videocore6 tests/test_signals.py, on a Pi 4). Neither the source
                // accumulator nor r5 may be written by the instruction just before it.
                self.mov(Dst::Reg(VReg::Acc(0)), value, Fl::NONE);
                // The amount as `raddr_b`: a small-immediate index, 0 for "by r5".
                let by = match constant {
                    Some(n) => small_imm_index(n).expect("1..=15 are small immediates"),
                    None => {
                        self.mov(Dst::Reg(VReg::Acc(5)), amount, Fl::NONE);
                        0
                    }
                };
                self.nop();
                self.emit(Inst::Alu(Alu {
                    mul: Some(Op::new(MulOp::Mov, Fl::NONE, d, &[Src::Acc(0).ir()])),
                    sig: Some(Signal::Rot),
                    rot: Some(by),
                    ..Alu::NOP
                }));
            }
            V3dVersion::V71 => {
                // The add-ALU `rotate` turns the other way, out[i] = in[(i + n) mod 16]
                // (py-videocore7 tests/test_parallel.py, on a Pi 5), so rotate by −n. A
                // free instruction before it, as 4.2 needs (no source states 7.1's rule).
                let by = match constant {
                    Some(n) => Src::Imm((16 - n) & 15),
                    None => {
                        let t = self.temp()?;
                        self.add1(AddOp::Neg, Fl::NONE, Dst::v(t), amount);
                        Src::Reg(t)
                    }
                };
                let v = match value {
                    Src::Reg(_) | Src::Phys(_) | Src::Acc(_) => value,
                    Src::Imm(_) => {
                        let t = self.temp()?;
                        self.mov(Dst::v(t), value, Fl::NONE);
                        Src::Reg(t)
                    }
                };
                self.nop();
                self.add2(AddOp::Rot, Fl::NONE, d, v, by)?;
            }
        }
        Ok(())
    }

    // ---- statements ----------------------------------------------------------------------

    fn body(&mut self, stmts: &[Stmt], mask: Option<Mask>) -> Result<(), CompileError> {
        for s in stmts {
            self.stmt(s, mask)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, mask: Option<Mask>) -> Result<(), CompileError> {
        let held = self.flags_hold.take();
        let outer = self.here;
        self.here = Some(s.location);
        match &s.kind {
            StmtKind::Assign { var, value } => {
                let v = var.0 as usize;
                if self.spilled[v] {
                    self.assign_spilled(v, value, mask)?
                } else {
                    self.assign(self.var_reg[v], value, mask)?
                }
            }
            StmtKind::If { .. } | StmtKind::While { .. } => self.control(s)?,
            StmtKind::Where {
                cond,
                then,
                otherwise,
            } => self.where_(cond, then, otherwise, mask, held)?,
            StmtKind::Store {
                value,
                addr,
                stride,
                lanes,
                ..
            } => {
                // The lane count, the value, then the address: the order the language gives
                // uniform-stream reads inside them.
                let lanes = match lanes {
                    Some(n) => {
                        let uniform = lane_uniform(n, &self.uniform);
                        let n = self.eval(n)?;
                        Some(self.broadcast(n, uniform)?)
                    }
                    None => None,
                };
                let value = self.eval(value)?;
                let (op, base, offsets) = self.vector_address(addr, *stride)?;
                self.mov(TMUD, value, Fl::NONE);
                let cond = match lanes {
                    // Lanes 0..n: the carry of min(n, lane) is n > lane (Mesa's signed `<`).
                    Some(n) => {
                        self.add2(
                            AddOp::Min,
                            Fl::push(PushFlag::C),
                            NOP,
                            n,
                            Src::Reg(self.index),
                        )?;
                        Fl::cond(WCond::IfA)
                    }
                    None => Fl::NONE,
                };
                self.add2(op, cond, TMUA, base, offsets)?;
            }
            StmtKind::Gather { addr } => {
                // The address first: a load in it pops the gathers already waiting.
                let (op, a, b) = match addr {
                    // An address that is a multiple of 4 goes to the TMU as computed.
                    Expr::Binary {
                        op: op @ (BinaryOp::IntAdd | BinaryOp::IntSub),
                        lhs,
                        rhs,
                    } if shape::is_aligned(addr, &self.aligned) => {
                        let a = self.eval(lhs)?;
                        let b = self.eval(rhs)?;
                        let op = if *op == BinaryOp::IntAdd {
                            AddOp::Add
                        } else {
                            AddOp::Sub
                        };
                        (op, a, b)
                    }
                    // The TMU ignores no address bits: clear the two the language ignores.
                    _ => (AddOp::And, self.eval(addr)?, Src::Imm(-4i32 as u32)),
                };
                if self.gathers >= TMU_FIFO {
                    return Err(self.unsupported(format!(
                        "more than {TMU_FIFO} gathers waiting to be received"
                    )));
                }
                self.add2(op, Fl::NONE, TMUA, a, b)?;
                self.gathers += 1;
                self.gathers_min += 1;
            }
            StmtKind::Receive { var } => {
                let v = var.0 as usize;
                let r = if self.spilled[v] {
                    self.temp()?
                } else {
                    self.var_reg[v]
                };
                if self.buffered > 0 {
                    // The oldest gathered value was popped by a load (`drain`): copy it, then
                    // move the younger ones down so the oldest is again in buffer 0.
                    let oldest = self.buffer(0)?;
                    self.mov(Dst::v(r), Src::Reg(oldest), Fl::NONE);
                    for i in 1..self.buffered {
                        let (to, from) = (self.buffer(i - 1)?, self.buffer(i)?);
                        self.mov(Dst::v(to), Src::Reg(from), Fl::NONE);
                    }
                    self.buffered -= 1;
                } else if self.gathers > 0 {
                    self.signal(Signal::Ldtmu, Some(Dst::v(r)));
                    self.gathers -= 1;
                    self.gathers_min = self.gathers_min.saturating_sub(1);
                } else {
                    return Err(self.unsupported("a `receive` with no gather before it"));
                }
                if self.spilled[v] {
                    self.spill_store(v, Src::Reg(r), Fl::NONE)?;
                }
            }
            StmtKind::UniformsFrom { addr } => {
                // The second uniform pointer: unifa takes lane 0's address, and three
                // instructions must pass before the first ldunifa (Mesa qpu_schedule.c;
                // py-videocore7 tests/test_unifa.py).
                let a = self.eval(addr)?;
                self.mov(UNIFA, a, Fl::NONE);
                for _ in 0..3 {
                    self.nop();
                }
            }
            // The builder refuses them inside `where_` (they act on the whole QPU); a
            // hand-built AST gets an error rather than code that ignores the mask.
            StmtKind::SemaInc(_) | StmtKind::SemaDec(_) if mask.is_some() => {
                return Err(self.unsupported("a semaphore operation inside `where_`"))
            }
            StmtKind::SemaInc(n) => self.semaphore(*n, true)?,
            StmtKind::SemaDec(n) => self.semaphore(*n, false)?,
            StmtKind::Debug { .. } => {}
        }
        self.here = outer;
        Ok(())
    }

    /// `sema_inc(n)` (`increment`) or `sema_dec(n)`: word `n` of the semaphore area counts
    /// semaphore `n`, changed only by TMU atomics from lane 0 (see `atomic`):
    ///
    /// ```text
    /// retry: v = atomic add of 0          (reads the count coherently)
    ///        if v == limit: goto retry    (15 for inc, 0 for dec: wait)
    ///        old = cmpxchg(v, v ± 1)      (stores v ± 1 only if the count is still v)
    ///        if old != v: goto retry      (another QPU changed it in between)
    /// ```
    ///
    /// Correctness: the count changes only through a successful cmpxchg, which replaces a
    /// value `v` that was not at the limit by `v ± 1` in one atomic step, so it stays in
    /// 0..=15 and every `sema_inc`/`sema_dec` moves it by exactly one, once, as in the
    /// interpreter. A QPU that sees the limit or loses the race changes nothing and tries
    /// again. Progress: a cmpxchg fails only when the count changed since it was read, that
    /// is when another QPU's cmpxchg succeeded, so some QPU always gets through (lock-free;
    /// an unbounded wait is the kernel's own deadlock, which the step limit ends). The
    /// count starts at 0 because the launch zeroes the area.
    ///
    /// Stores issued before the operation are waited for first (`tmuwt`), so that a QPU
    /// that takes the semaphore after a `sema_inc` finds them in memory; the loads after a
    /// `sema_dec` are issued after its cmpxchg returned. Gathers waiting in the result FIFO
    /// are popped into their buffer registers first, as before a load.
    fn semaphore(&mut self, n: u8, increment: bool) -> Result<(), CompileError> {
        self.drain()?;
        if self.needs.stores {
            self.add_op(AddOp::Tmuwt, Fl::NONE, NOP, &[]);
            self.spill_dirty.clear();
        }
        let addr = match u32::from(n) * 4 {
            0 => Src::Reg(self.semaphore_base),
            offset => {
                let offset = self.constant(offset)?;
                let t = self.temp()?;
                self.add2(
                    AddOp::Add,
                    Fl::NONE,
                    Dst::v(t),
                    Src::Reg(self.semaphore_base),
                    offset,
                )?;
                Src::Reg(t)
            }
        };
        let retry = self.label();
        self.place(retry);
        let v = self.atomic(TMU_ATOMIC_ADD, &[Src::Imm(0)], addr)?;
        let limit = if increment { 15 } else { 0 };
        // Every lane holds lane 0's word, so "any lane" is "the count".
        self.add2(AddOp::Xor, Fl::push(PushFlag::Z), NOP, v, Src::Imm(limit))?;
        self.branch(BranchCond::AnyA, retry);
        let new = self.temp()?;
        let op = if increment { AddOp::Add } else { AddOp::Sub };
        self.add2(op, Fl::NONE, Dst::v(new), v, Src::Imm(1))?;
        let old = self.atomic(TMU_ATOMIC_CMPXCHG, &[v, Src::Reg(new)], addr)?;
        self.add2(AddOp::Xor, Fl::push(PushFlag::Z), NOP, old, v)?;
        self.branch(BranchCond::AnyNa, retry);
        Ok(())
    }

    /// One TMU atomic on the word at lane 0 of `addr`, from lane 0 only; returns a register
    /// holding the word's old value in every lane. As Mesa's `ntq_emit_tmu_general` issues
    /// one (src/broadcom/compiler/nir_to_vir.c): the operands go to `tmud` (one word; for
    /// cmpxchg the value compared, then the value stored: Mesa writes NIR's two swap
    /// sources in order, and its SPIR-V front end, spirv_to_nir.c
    /// `fill_common_atomic_sources`, puts the comparator first), the address to `tmua` written under a condition (Mesa does so in
    /// divergent control flow: lanes the condition masks off make no access), and the old
    /// value comes back through the result FIFO, one word per lane (`ldtmu`). The lookup
    /// config goes to `tmuc` first (py-videocore6 tests/test_tmu.py writes it there before
    /// `tmud` on a Pi 4; Mesa passes it as the `tmuau` write's uniform, which a loop could
    /// not re-read here) and is set back to all ones, a plain 32-bit access, afterwards
    /// (py-videocore7 tests/test_tmu.py resets it with −1).
    ///
    /// Nothing else waits in the result FIFO (the caller drained it), so the packer's count
    /// of outstanding results, which sees a `tmua` after `tmud` as a store, stays right:
    /// the `ldtmu` here finds none counted and leaves none. A block writing `tmuc` is one
    /// the packer keeps as generated.
    fn atomic(&mut self, config: u32, data: &[Src], addr: Src) -> Result<Src, CompileError> {
        let config = self.constant(config)?;
        self.mov(TMUC, config, Fl::NONE);
        for &d in data {
            self.mov(TMUD, d, Fl::NONE);
        }
        // Flag A: lane 0 (the only lane whose index is zero).
        self.add2(
            AddOp::Or,
            Fl::push(PushFlag::Z),
            NOP,
            Src::Reg(self.index),
            Src::Reg(self.index),
        )?;
        self.add2(AddOp::Or, Fl::cond(WCond::IfA), TMUA, addr, addr)?;
        self.mov(
            TMUC,
            Src::Imm(qpu_isa::v3d::TmuConfig::PLAIN_WORD),
            Fl::NONE,
        );
        let t = self.temp()?;
        self.signal(Signal::Ldtmu, Some(Dst::v(t)));
        self.broadcast(Src::Reg(t), false)
    }

    /// An `if_` or `while_`: lowered as it stands; if that fails while gathers wait (a body
    /// that pops them with a load, say), lowered again after popping them into registers
    /// before the condition, so that both paths start with none waiting. Popping early is
    /// always correct (the values are buffered in FIFO order); the first error is kept if
    /// the second attempt fails too.
    fn control(&mut self, s: &Stmt) -> Result<(), CompileError> {
        let (lines, locations) = (self.lines.len(), self.locations.len());
        let state = self.pending();
        let gathers = state.1;
        let dirty = self.spill_dirty.clone();
        let first = match self.control_flow(s) {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        if gathers == 0 {
            return Err(first);
        }
        self.lines.truncate(lines);
        self.locations.truncate(locations);
        self.restore(state);
        self.spill_dirty = dirty;
        self.here = Some(s.location);
        if self.drain().is_err() {
            return Err(first);
        }
        self.control_flow(s).map_err(|_| first)
    }

    fn control_flow(&mut self, s: &Stmt) -> Result<(), CompileError> {
        match &s.kind {
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let taken = self.cond(cond)?;
                let else_label = self.label();
                self.branch(negate_branch(taken), else_label);
                let pending = self.pending();
                // A spill store may be in flight after the `if_` if it may be after
                // either path.
                let dirty = self.spill_dirty.clone();
                self.body(then, None)?;
                let then_dirty = self.spill_dirty.clone();
                if otherwise.is_empty() {
                    self.join(pending, "an `if_` body")?;
                    self.place(else_label);
                    self.spill_dirty.extend(dirty);
                } else {
                    let after_then = self.pending();
                    let end = self.label();
                    self.here = Some(s.location);
                    self.branch(BranchCond::Always, end);
                    self.place(else_label);
                    self.spill_dirty = dirty;
                    self.restore(pending);
                    self.body(otherwise, None)?;
                    self.join(after_then, "an `else_` body")?;
                    self.place(end);
                    self.spill_dirty.extend(then_dirty);
                }
            }
            StmtKind::While { cond, body } => {
                // The condition is tested before the loop and again at the end of each
                // iteration (the same evaluations in the same order as one test at the top),
                // so the body and its test are one basic block the packer schedules together.
                let top = self.label();
                let end = self.label();
                let (taken, sense) = self.cond_sense(cond)?;
                self.branch(negate_branch(taken), end);
                self.place(top);
                // Reading memory or the uniform stream in the condition must happen each time.
                let (Cond::Any(b) | Cond::All(b)) = cond;
                if !b.has_load() {
                    self.flags_hold = Some((b.clone(), sense));
                }
                let pending = self.pending();
                // The back edge may bring a spill store from the body into its top; the exit
                // is reached from the first test or from the last.
                let skipped_dirty = self.spill_dirty.clone();
                spilled_writes(body, &self.spilled, &mut self.spill_dirty);
                // A body that is idle once the condition fails (Euclid's algorithm) runs
                // several copies per test, as on the VideoCore IV (`lower::idle_once_done`).
                let copies = if super::vc4::lower::idle_once_done(cond, body) {
                    super::vc4::lower::IDLE_UNROLL
                } else {
                    1
                };
                for _ in 0..copies {
                    self.body(body, None)?;
                }
                self.flags_hold = None;
                self.balanced(pending, "a `while_` body")?;
                self.here = Some(s.location);
                let taken = self.cond(cond)?;
                self.branch(taken, top);
                self.place(end);
                self.spill_dirty.extend(skipped_dirty);
            }
            _ => unreachable!("control_flow is called for `if_` and `while_` only"),
        }
        Ok(())
    }

    /// What receives will find: gathers in the FIFO (the fewest and the most on any path)
    /// and values popped by loads.
    fn pending(&self) -> (u32, u32, u32) {
        (self.gathers_min, self.gathers, self.buffered)
    }

    fn restore(&mut self, (min, max, buffered): (u32, u32, u32)) {
        (self.gathers_min, self.gathers, self.buffered) = (min, max, buffered);
    }

    /// A loop body must leave the gathers waiting and the values buffered as it found them,
    /// so that each receive's source is known when it is compiled (and the count cannot
    /// drift from one iteration to the next).
    fn balanced(&self, before: (u32, u32, u32), what: &str) -> Result<(), CompileError> {
        if self.pending() != before {
            return Err(self.unsupported(format!(
                "{what} that leaves a different number of gathers waiting (or of gathered \
                 values popped by a load) than it found"
            )));
        }
        Ok(())
    }

    /// Where the two sides of an `if_` meet: gathered values popped by a load must be the
    /// same on both (they sit in registers a receive reads by position); the gathers
    /// waiting may differ (receives pop the FIFO, whatever is in it), so the fewest and the
    /// most of both sides hold after the join.
    fn join(&mut self, other: (u32, u32, u32), what: &str) -> Result<(), CompileError> {
        let (min, max, buffered) = self.pending();
        if buffered != other.2 {
            return Err(self.unsupported(format!(
                "{what} that leaves a different number of gathered values popped by a load \
                 than the other path"
            )));
        }
        self.restore((min.min(other.0), max.max(other.1), buffered));
        Ok(())
    }

    /// Before a load: pops the results of the gathers waiting in the TMU's FIFO into buffer
    /// registers, so that the load's own `ldtmu` gets its own result. Loads and gathers share
    /// one result FIFO on V3D, read in request order (Mesa `ntq_flush_tmu` likewise reads
    /// every outstanding result, oldest first, before it reads a later one).
    fn drain(&mut self) -> Result<(), CompileError> {
        if self.gathers_min != self.gathers {
            return Err(self.unsupported(format!(
                "a load (or a spilled variable's reload) while {} to {} gathered values \
                 wait, depending on the path taken (an `if_` gathered or received on one \
                 path only): the load's result would follow an unknown number of them",
                self.gathers_min, self.gathers
            )));
        }
        for _ in 0..self.gathers {
            let r = self.buffer(self.buffered)?;
            self.signal(Signal::Ldtmu, Some(Dst::v(r)));
            self.buffered += 1;
        }
        self.gathers = 0;
        self.gathers_min = 0;
        Ok(())
    }

    /// Flags for an `if_`/`while_` condition; returns the branch condition that holds when
    /// the kernel condition does.
    fn cond(&mut self, cond: &Cond) -> Result<BranchCond, CompileError> {
        Ok(self.cond_sense(cond)?.0)
    }

    /// [`Gen::cond`], and the sense in which flag A then holds the lanes' condition.
    fn cond_sense(&mut self, cond: &Cond) -> Result<(BranchCond, Sense), CompileError> {
        Ok(match cond {
            Cond::Any(b) => match self.flags(b)? {
                Sense::A => (BranchCond::AnyA, Sense::A),
                Sense::NotA => (BranchCond::AnyNa, Sense::NotA),
            },
            Cond::All(b) => match self.flags(b)? {
                Sense::A => (BranchCond::AllA, Sense::A),
                Sense::NotA => (BranchCond::AllNa, Sense::NotA),
            },
        })
    }

    /// A `where_`; `held` is a condition flag A already holds ([`Gen::flags_hold`]).
    fn where_(
        &mut self,
        cond: &BoolExpr,
        then: &[Stmt],
        otherwise: &[Stmt],
        outer: Option<Mask>,
        held: Option<(BoolExpr, Sense)>,
    ) -> Result<(), CompileError> {
        let plain = |stmts: &[Stmt]| {
            stmts.iter().all(|s| match &s.kind {
                StmtKind::Assign { value, .. } => !value.sets_flags(),
                StmtKind::Debug { .. } => true,
                _ => false,
            })
        };
        if outer.is_none() && plain(then) && plain(otherwise) {
            let sense = match held {
                Some((held, sense)) if held == *cond => sense,
                _ => self.flags(cond)?,
            };
            self.body(then, Some(Mask::Flags(sense)))?;
            self.body(otherwise, Some(Mask::Flags(sense.not())))?;
            return Ok(());
        }
        let c = self.bool_value(cond)?;
        let outer_reg = match outer {
            None => None,
            Some(Mask::Reg(r)) => Some(r),
            // A flags mask only wraps plain assignments, never a nested `where_`.
            Some(Mask::Flags(_)) => unreachable!("nested where_ inside a flag-masked body"),
        };
        let then_mask = match outer_reg {
            None => c,
            Some(m) => {
                let t = self.temp()?;
                self.add2(AddOp::And, Fl::NONE, Dst::v(t), Src::Reg(m), Src::Reg(c))?;
                t
            }
        };
        self.body(then, Some(Mask::Reg(then_mask)))?;
        if !otherwise.is_empty() {
            let t = self.temp()?;
            self.add1(AddOp::Not, Fl::NONE, Dst::v(t), Src::Reg(c));
            if let Some(m) = outer_reg {
                self.add2(AddOp::And, Fl::NONE, Dst::v(t), Src::Reg(t), Src::Reg(m))?;
            }
            self.body(otherwise, Some(Mask::Reg(t)))?;
        }
        Ok(())
    }

    /// `dest = value` in the lanes of `mask`.
    fn assign(&mut self, dest: u32, value: &Expr, mask: Option<Mask>) -> Result<(), CompileError> {
        let Some(mask) = mask else {
            return self.eval_into(value, dest);
        };
        // Operands first (they may use temporaries, and in the register-mask case the
        // flags), then the mask, then the one conditional write.
        let sense = |g: &mut Gen<'_>| -> Sense {
            match mask {
                Mask::Flags(s) => s,
                Mask::Reg(m) => {
                    g.add_op(
                        AddOp::Or,
                        Fl::push(PushFlag::Z),
                        NOP,
                        &[Src::Reg(m), Src::Reg(m)],
                    );
                    Sense::NotA
                }
            }
        };
        match value {
            Expr::Binary { op, lhs, rhs } if single_binary(*op).is_some() => {
                let a = self.eval(lhs)?;
                let b = self.eval(rhs)?;
                let s = sense(self);
                self.binary(*op, Dst::v(dest), a, b, Fl::cond(s.cond()))
            }
            _ => {
                let v = self.eval(value)?;
                let s = sense(self);
                self.mov(Dst::v(dest), v, Fl::cond(s.cond()));
                Ok(())
            }
        }
    }

    /// `var = value` in the lanes of `mask` for a spilled variable: the value is computed in
    /// every lane, then stored into the variable's slot in the masked lanes only.
    fn assign_spilled(
        &mut self,
        var: usize,
        value: &Expr,
        mask: Option<Mask>,
    ) -> Result<(), CompileError> {
        let v = self.eval(value)?;
        let cond = match mask {
            None => Fl::NONE,
            Some(Mask::Flags(sense)) => Fl::cond(sense.cond()),
            Some(Mask::Reg(m)) => {
                self.add_op(
                    AddOp::Or,
                    Fl::push(PushFlag::Z),
                    NOP,
                    &[Src::Reg(m), Src::Reg(m)],
                );
                Fl::cond(Sense::NotA.cond())
            }
        };
        self.spill_store(var, v, cond)
    }

    // ---- expressions ---------------------------------------------------------------------

    /// The value of `e` as an operand (a variable's own register, a constant, or a new
    /// temporary).
    fn eval(&mut self, e: &Expr) -> Result<Src, CompileError> {
        Ok(match e {
            Expr::IntLit(v) => self.constant(*v as u32)?,
            Expr::FloatLit(f) => self.constant(f.to_bits())?,
            Expr::Var(v) if self.spilled[v.0 as usize] => self.reload(v.0 as usize)?,
            Expr::Var(v) => Src::Reg(self.var_reg[v.0 as usize]),
            Expr::Special(Special::Index) => Src::Reg(self.index),
            Expr::Special(Special::QpuId) => Src::Reg(self.me),
            Expr::Special(Special::NumQpus) => Src::Reg(self.num_qpus),
            _ => {
                // The result takes the next temporary; whatever the operands used above it is
                // dead once the value is computed.
                let t = self.temp()?;
                self.eval_into(e, t)?;
                Src::Reg(t)
            }
        })
    }

    /// Computes `e` into register `dest`. Multi-instruction sequences write `dest` only in
    /// their last instruction (or, for `select`, in a way that reads the operands first), so
    /// `dest` may be a variable `e` reads.
    fn eval_into(&mut self, e: &Expr, dest: u32) -> Result<(), CompileError> {
        let d = Dst::v(dest);
        match e {
            Expr::IntLit(_) | Expr::FloatLit(_) | Expr::Var(_) | Expr::Special(_) => {
                let v = self.eval(e)?;
                if v != Src::Reg(dest) {
                    self.mov(d, v, Fl::NONE);
                }
            }
            Expr::Unary { op, arg } => {
                let a = self.eval(arg)?;
                match op {
                    UnaryOp::IntNot => self.add1(AddOp::Not, Fl::NONE, d, a),
                    UnaryOp::Clz => self.add1(AddOp::Clz, Fl::NONE, d, a),
                    UnaryOp::IntToFloat => self.add1(AddOp::Itof, Fl::NONE, d, a),
                    UnaryOp::FloatToInt => self.add1(AddOp::Ftoiz, Fl::NONE, d, a),
                    UnaryOp::IntAbs => {
                        // max(x, −x); −MIN = MIN, as the language defines.
                        let t = self.temp()?;
                        self.add1(AddOp::Neg, Fl::NONE, Dst::v(t), a);
                        self.add2(AddOp::Max, Fl::NONE, d, a, Src::Reg(t))?;
                    }
                    UnaryOp::FloatAbs => {
                        let t = self.temp()?;
                        self.add2(AddOp::Shl, Fl::NONE, Dst::v(t), a, Src::Imm(1))?;
                        self.add2(AddOp::Shr, Fl::NONE, d, Src::Reg(t), Src::Imm(1))?;
                    }
                    UnaryOp::Recip => self.sfu(AddOp::Recip, dest, a),
                    UnaryOp::Exp2 => self.sfu(AddOp::Exp, dest, a),
                    // The language ignores the sign of rsqrt's and log2's argument (as the
                    // VideoCore IV SFU does); the V3D's gives NaN for a negative one.
                    UnaryOp::Rsqrt | UnaryOp::Log2 | UnaryOp::Sqrt => {
                        let t = self.temp()?;
                        let abs = Dst::v(t);
                        self.add2(AddOp::Shl, Fl::NONE, abs, a, Src::Imm(1))?;
                        self.add2(AddOp::Shr, Fl::NONE, abs, Src::Reg(t), Src::Imm(1))?;
                        match op {
                            UnaryOp::Log2 => self.sfu(AddOp::Log, dest, Src::Reg(t)),
                            UnaryOp::Rsqrt => self.sfu(AddOp::Rsqrt, dest, Src::Reg(t)),
                            // sqrt(x) = recip(rsqrt(x)), as the language defines it.
                            _ => {
                                self.sfu(AddOp::Rsqrt, t, Src::Reg(t));
                                self.sfu(AddOp::Recip, dest, Src::Reg(t));
                            }
                        }
                    }
                }
            }
            Expr::Binary {
                op: BinaryOp::IntMul,
                lhs,
                rhs,
            } if literal_factor(lhs, rhs).is_some() => {
                // By a literal that is 0, ±1 or ±2^k: a move, a negation or a shift instead
                // of three umul24s (products mod 2^32, so a shift by k is exact).
                let (x, c) = literal_factor(lhs, rhs).expect("checked");
                let v = self.eval(x)?;
                let shift = c.unsigned_abs().trailing_zeros();
                match c {
                    0 => self.mov(d, Src::Imm(0), Fl::NONE),
                    1 => self.mov(d, v, Fl::NONE),
                    -1 => self.add1(AddOp::Neg, Fl::NONE, d, v),
                    _ if c > 0 => self.add2(AddOp::Shl, Fl::NONE, d, v, shift_imm(shift))?,
                    _ => {
                        let t = self.temp()?;
                        self.add2(AddOp::Shl, Fl::NONE, Dst::v(t), v, shift_imm(shift))?;
                        self.add1(AddOp::Neg, Fl::NONE, d, Src::Reg(t));
                    }
                }
            }
            Expr::Binary { op, lhs, rhs } => {
                let a = self.eval(lhs)?;
                let b = self.eval(rhs)?;
                self.binary(*op, d, a, b, Fl::NONE)?;
            }
            Expr::Select { cond, a, b } => {
                let va = self.eval(a)?;
                let vb = self.eval(b)?;
                let sense = self.flags(cond)?;
                if va == Src::Reg(dest) {
                    self.mov(d, vb, Fl::cond(sense.not().cond()));
                } else if vb == Src::Reg(dest) {
                    self.mov(d, va, Fl::cond(sense.cond()));
                } else {
                    self.mov(d, vb, Fl::NONE);
                    self.mov(d, va, Fl::cond(sense.cond()));
                }
            }
            Expr::Load { addr, stride, .. } => {
                self.drain()?;
                let (op, base, offsets) = self.vector_address(addr, *stride)?;
                self.add2(op, Fl::NONE, TMUA, base, offsets)?;
                self.signal(Signal::Ldtmu, Some(Dst::v(dest)));
            }
            Expr::Rotate { value, amount } => {
                let v = self.eval(value)?;
                let n = self.eval(amount)?;
                self.rotate(dest, v, n)?;
            }
            Expr::Uniform { .. } => self.signal(Signal::Ldunifarf, Some(Dst::v(dest))),
        }
        Ok(())
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        d: Dst<VReg>,
        a: Src,
        b: Src,
        cond: Fl,
    ) -> Result<(), CompileError> {
        if let Some(alu_op) = single_binary(op) {
            // fmax with one register on both inputs cannot be encoded (the input order
            // selects fmin/fmax); both give that register's value.
            let alu_op = if op == BinaryOp::FloatMax && a == b {
                Alu2::Add(AddOp::Fmin)
            } else {
                alu_op
            };
            if alu_op == Alu2::Add(AddOp::Fmax) && self.version == V3dVersion::V42 {
                if let (Src::Reg(_), Src::Reg(_)) = (a, b) {
                    // fmax is fmin's opcode with input a's mux above b's; both register
                    // operands would take ports A then B (the lower mux first), so b goes
                    // through accumulator r1, whose mux is below both ports.
                    self.mov(Dst::Reg(VReg::Acc(1)), b, Fl::NONE);
                    self.add_op(AddOp::Fmax, cond, d, &[a, Src::Acc(1)]);
                    return Ok(());
                }
            }
            return match alu_op {
                Alu2::Mul(op) => self.mul2(op, cond, d, a, b),
                Alu2::Add(op) => self.add2(op, cond, d, a, b),
            };
        }
        match op {
            BinaryOp::IntMul => {
                // a·b mod 2^32 = al·bl + ((ah·bl + al·bh) << 24), with al, bl the low 24 bits
                // and ah, bh the high 8 (umul24 reads only the low 24 bits of each input).
                let low = self.temp()?;
                self.mul2(MulOp::Umul24, Fl::NONE, Dst::v(low), a, b)?;
                let t = self.temp()?;
                self.add2(AddOp::Shr, Fl::NONE, Dst::v(t), a, Src::Imm(-8i32 as u32))?;
                self.mul2(MulOp::Umul24, Fl::NONE, Dst::v(t), Src::Reg(t), b)?;
                let u = self.temp()?;
                self.add2(AddOp::Shr, Fl::NONE, Dst::v(u), b, Src::Imm(-8i32 as u32))?;
                self.mul2(MulOp::Umul24, Fl::NONE, Dst::v(u), a, Src::Reg(u))?;
                self.add2(AddOp::Add, Fl::NONE, Dst::v(t), Src::Reg(t), Src::Reg(u))?;
                self.add2(
                    AddOp::Shl,
                    Fl::NONE,
                    Dst::v(t),
                    Src::Reg(t),
                    Src::Imm(-8i32 as u32),
                )?;
                self.add2(AddOp::Add, cond, d, Src::Reg(low), Src::Reg(t))
            }
            BinaryOp::IntDiv | BinaryOp::IntRem => self.divide(op, d, a, b, cond),
            BinaryOp::FloatDiv => {
                // lhs · recip(rhs), as the language defines it.
                let r = self.temp()?;
                self.sfu(AddOp::Recip, r, b);
                self.mul2(MulOp::Fmul, cond, d, a, Src::Reg(r))
            }
            _ => unreachable!("single-instruction ops handled above"),
        }
    }

    /// Signed division or remainder by restoring long division of the magnitudes, one
    /// quotient bit per iteration of a 32-iteration loop, then the signs: the quotient is
    /// negated where the operands' signs differ, the remainder takes the dividend's sign. By
    /// zero every step subtracts nothing, so the quotient is all ones (−1, or 1 once negated
    /// for a negative dividend) and the remainder the dividend, as the language defines.
    fn divide(
        &mut self,
        op: BinaryOp,
        d: Dst<VReg>,
        a: Src,
        b: Src,
        cond: Fl,
    ) -> Result<(), CompileError> {
        let reg = |g: &mut Gen<'_>| g.temp().map(|t| (t, Dst::v(t)));
        let (ua, ua_s) = reg(self)?;
        let (ub, ub_s) = reg(self)?;
        let (r, r_s) = reg(self)?;
        let (q, q_s) = reg(self)?;
        let (n, n_s) = reg(self)?;
        let (t, t_s) = reg(self)?;
        // |a|, |b| (|MIN| = 2^31 as an unsigned number).
        self.add1(AddOp::Neg, Fl::NONE, t_s, a);
        self.add2(AddOp::Max, Fl::NONE, ua_s, a, Src::Reg(t))?;
        self.add1(AddOp::Neg, Fl::NONE, t_s, b);
        self.add2(AddOp::Max, Fl::NONE, ub_s, b, Src::Reg(t))?;
        self.mov(r_s, Src::Imm(0), Fl::NONE);
        self.mov(q_s, Src::Imm(0), Fl::NONE);
        // 32 iterations (8 << 2: no small immediate holds 32).
        self.mov(n_s, Src::Imm(8), Fl::NONE);
        self.add2(AddOp::Shl, Fl::NONE, n_s, Src::Reg(n), Src::Imm(2))?;
        let top = self.label();
        self.place(top);
        let top_bit = Src::Imm(shift_bits(31));
        self.add2(AddOp::Shr, Fl::NONE, t_s, Src::Reg(ua), top_bit)?;
        self.add2(AddOp::Shl, Fl::NONE, r_s, Src::Reg(r), Src::Imm(1))?;
        self.add2(AddOp::Or, Fl::NONE, r_s, Src::Reg(r), Src::Reg(t))?;
        self.add2(AddOp::Shl, Fl::NONE, ua_s, Src::Reg(ua), Src::Imm(1))?;
        self.add2(AddOp::Shl, Fl::NONE, q_s, Src::Reg(q), Src::Imm(1))?;
        // C of sub is the unsigned borrow (py-videocore6 test_condition_codes): r < |b|.
        self.add2(
            AddOp::Sub,
            Fl::push(PushFlag::C),
            NOP,
            Src::Reg(r),
            Src::Reg(ub),
        )?;
        self.add2(
            AddOp::Sub,
            Fl::cond(WCond::IfNa),
            r_s,
            Src::Reg(r),
            Src::Reg(ub),
        )?;
        self.add2(
            AddOp::Or,
            Fl::cond(WCond::IfNa),
            q_s,
            Src::Reg(q),
            Src::Imm(1),
        )?;
        self.add2(
            AddOp::Sub,
            Fl::push(PushFlag::Z),
            n_s,
            Src::Reg(n),
            Src::Imm(1),
        )?;
        self.branch(BranchCond::AnyNa, top);
        // The sign: s = −1 where it must flip, else 0; x ^ s − s flips.
        let (value, sign_of) = if op == BinaryOp::IntDiv {
            self.add2(AddOp::Xor, Fl::NONE, t_s, a, b)?;
            (q, Src::Reg(t))
        } else {
            (r, a)
        };
        self.add2(AddOp::Asr, Fl::NONE, t_s, sign_of, top_bit)?;
        self.add2(AddOp::Xor, Fl::NONE, ua_s, Src::Reg(value), Src::Reg(t))?;
        self.add2(AddOp::Sub, cond, d, Src::Reg(ua), Src::Reg(t))
    }

    /// The per-lane addresses of a whole-vector access to `addr` with `stride` as an
    /// add-ALU operation and its operands, for `tmua`: lane 0's address plus the lane
    /// offsets, or, when the lanes of `addr` already hold consecutive words and the access
    /// is contiguous, `addr`'s own last addition (or `addr` itself).
    fn vector_address(
        &mut self,
        addr: &Expr,
        stride: u32,
    ) -> Result<(AddOp, Src, Src), CompileError> {
        if stride == 1 && shape::is_contiguous(addr, &self.contiguous, &self.uniform) {
            return Ok(match addr {
                Expr::Binary {
                    op: op @ (BinaryOp::IntAdd | BinaryOp::IntSub),
                    lhs,
                    rhs,
                } => {
                    let a = self.eval(lhs)?;
                    let b = self.eval(rhs)?;
                    (
                        if *op == BinaryOp::IntAdd {
                            AddOp::Add
                        } else {
                            AddOp::Sub
                        },
                        a,
                        b,
                    )
                }
                _ => (AddOp::Add, self.eval(addr)?, Src::Imm(0)),
            });
        }
        let uniform = lane_uniform(addr, &self.uniform);
        let base = self.eval(addr)?;
        let base = self.broadcast(base, uniform)?;
        let offsets = self.lane_offsets(stride)?;
        Ok((AddOp::Add, base, offsets))
    }

    /// Per-lane byte offsets `4 · stride · lane`.
    fn lane_offsets(&mut self, stride: u32) -> Result<Src, CompileError> {
        let bytes = stride.wrapping_mul(4);
        if bytes == 4 {
            return Ok(Src::Reg(self.lane4));
        }
        if bytes == 0 {
            return Ok(Src::Imm(0));
        }
        let t = self.temp()?;
        let d = Dst::v(t);
        if bytes.is_power_of_two() {
            let shift = shift_imm(bytes.trailing_zeros());
            self.add2(AddOp::Shl, Fl::NONE, d, Src::Reg(self.index), shift)?;
        } else {
            let c = self.constant(bytes)?;
            self.binary(BinaryOp::IntMul, d, Src::Reg(self.index), c, Fl::NONE)?;
        }
        Ok(Src::Reg(t))
    }

    /// Pushes flag A for a per-lane condition; returns which state of A means "holds".
    fn flags(&mut self, b: &BoolExpr) -> Result<Sense, CompileError> {
        match b {
            BoolExpr::Compare {
                op,
                float,
                lhs,
                rhs,
            } => {
                let l = self.eval(lhs)?;
                let r = self.eval(rhs)?;
                // Mesa nir_to_vir.c ntq_emit_comparison: C of min(a, b) is a > b (signed),
                // Z of xor is a == b. Floats use only C of fcmp(a, b), a <= b: the N and Z of
                // the difference (Mesa's flt/feq) would make −0 < +0 if the hardware sets N
                // for a −0 difference (no source says), and NaN == x where 7.1 turns the NaN
                // difference into 0. So a < b is (a <= b) and not (b <= a), and a == b is
                // (a <= b) and (b <= a): a push and an update, both IEEE.
                if let Some((op, swap, flag, set)) = one_instruction_compare(*float, *op) {
                    let (a, b) = if swap { (r, l) } else { (l, r) };
                    self.add2(op, Fl::push(flag), NOP, a, b)?;
                    return Ok(if set { Sense::A } else { Sense::NotA });
                }
                // Float `<`, `>`, `==`, `!=`: x <= y pushed, then y <= x ANDed in (negated
                // for the strict ones).
                let (x, y, update) = match op {
                    CmpOp::Eq | CmpOp::Ne => (l, r, UpdateFlag::AndC),
                    CmpOp::Lt => (l, r, UpdateFlag::AndNc),
                    _ => (r, l, UpdateFlag::AndNc),
                };
                self.add2(AddOp::Fcmp, Fl::push(PushFlag::C), NOP, x, y)?;
                self.add2(AddOp::Fcmp, Fl::update(update), NOP, y, x)?;
                Ok(if *op == CmpOp::Ne {
                    Sense::NotA
                } else {
                    Sense::A
                })
            }
            BoolExpr::Not(inner) => Ok(self.flags(inner)?.not()),
            BoolExpr::And(x, y) if single_flag(y).is_some() => self.flags_and(x, y),
            // x or y = not (not x and not y).
            BoolExpr::Or(x, y) if single_flag(y).is_some() => {
                let not = |b: &std::sync::Arc<BoolExpr>| BoolExpr::Not(b.clone());
                Ok(self.flags_and(&not(x), &not(y))?.not())
            }
            BoolExpr::And(..) | BoolExpr::Or(..) => {
                let v = self.bool_value(b)?;
                self.add_op(
                    AddOp::Or,
                    Fl::push(PushFlag::Z),
                    NOP,
                    &[Src::Reg(v), Src::Reg(v)],
                );
                Ok(Sense::NotA)
            }
        }
    }

    /// Flag A for `x and y`, where `y` is one flag-setting instruction ([`single_flag`]): the
    /// flags of `x`, then `y`'s instruction with a flag update instead of a push. The update
    /// rules (py-videocore6 test_cond_update, on a Pi 4): `and<f>` sets A to A ∧ f and
    /// `nor<f>` to ¬(A ∨ f), with f negated in the `n` forms. So where A means "x holds",
    /// `and` with "y holds" gives A = x ∧ y; where A means "x fails", `nor` with "y fails"
    /// gives A = ¬(¬x ∨ ¬y) = x ∧ y.
    fn flags_and(&mut self, x: &BoolExpr, y: &BoolExpr) -> Result<Sense, CompileError> {
        let sense = self.flags(x)?;
        let (op, lhs, rhs, swap, flag, holds_when_set) =
            single_flag(y).expect("checked by the caller");
        // Operands in the order the language evaluates them (uniform-stream reads and loads
        // can tell), then in the order the instruction takes them.
        let l = self.eval(lhs)?;
        let r = self.eval(rhs)?;
        let (a, b) = if swap { (r, l) } else { (l, r) };
        let update = match (sense, holds_when_set) {
            (Sense::A, true) => Update::And,
            (Sense::A, false) => Update::AndN,
            (Sense::NotA, true) => Update::NorN,
            (Sense::NotA, false) => Update::Nor,
        };
        self.add2(op, Fl::update(update_flag(update, flag)), NOP, a, b)?;
        Ok(Sense::A)
    }

    /// A register holding −1 where `b` holds and 0 elsewhere.
    fn bool_value(&mut self, b: &BoolExpr) -> Result<u32, CompileError> {
        match b {
            BoolExpr::And(x, y) | BoolExpr::Or(x, y) => {
                let vx = self.bool_value(x)?;
                let vy = self.bool_value(y)?;
                let op = if matches!(b, BoolExpr::And(..)) {
                    AddOp::And
                } else {
                    AddOp::Or
                };
                self.add2(op, Fl::NONE, Dst::v(vx), Src::Reg(vx), Src::Reg(vy))?;
                Ok(vx)
            }
            _ => {
                let sense = self.flags(b)?;
                let t = self.temp()?;
                let d = Dst::v(t);
                self.mov(d, Src::Imm(0), Fl::NONE);
                self.mov(d, Src::Imm(-1i32 as u32), Fl::cond(sense.cond()));
                Ok(t)
            }
        }
    }

    // ---- prologue, end, assembly -----------------------------------------------------------

    fn finish(mut self) -> Result<V3dCompiled, Attempt> {
        let body = std::mem::take(&mut self.lines);
        let body_locations = std::mem::take(&mut self.locations);
        self.here = None;

        // Prologue. The workgroup id (payload word 0: X | Y << 16, Mesa nir_to_vir.c) is
        // me(); its low 16 bits are X.
        let payload = self.version.payload0();
        if self.needs.me {
            let me = Dst::v(self.me);
            self.add2(
                AddOp::Shl,
                Fl::NONE,
                me,
                Src::Phys(payload),
                Src::Imm(shift_bits(16)),
            )?;
            self.add2(
                AddOp::Shr,
                Fl::NONE,
                me,
                Src::Reg(self.me),
                Src::Imm(shift_bits(16)),
            )?;
        }
        // The QPU count goes to the reserved rf1 when nothing reads it.
        let nq = if self.needs.num_qpus {
            Dst::v(self.num_qpus)
        } else {
            Dst::Reg(VReg::Rf(1))
        };
        self.signal(Signal::Ldunifrf, Some(nq));
        // Spilled parameters arrive in temporaries and are stored once the spill base is
        // known.
        let mut spilled_params = Vec::new();
        for p in &self.kernel.params {
            let v = p.var.0 as usize;
            let r = if self.spilled[v] {
                let t = self.temp()?;
                spilled_params.push((v, t));
                t
            } else {
                self.var_reg[v]
            };
            self.signal(Signal::Ldunifrf, Some(Dst::v(r)));
        }
        let spill_bytes_per_qpu = self.spill_slots * SPILL_SLOT_BYTES;
        if spill_bytes_per_qpu > 0 {
            self.signal(Signal::Ldunifrf, Some(Dst::v(self.spill_base)));
        }
        let semaphore_bytes = if self.needs.semaphores {
            self.signal(Signal::Ldunifrf, Some(Dst::v(self.semaphore_base)));
            SEMAPHORE_BYTES
        } else {
            0
        };
        let constants = self.pinned_constants.clone();
        for c in &constants {
            let r = self.const_reg[c];
            self.signal(Signal::Ldunifrf, Some(Dst::v(r)));
        }
        if self.needs.index || self.needs.memory {
            let idx = Dst::v(self.index);
            self.add_op(AddOp::Eidx, Fl::NONE, idx, &[]);
            if self.needs.memory {
                let lane4 = Dst::v(self.lane4);
                self.add2(
                    AddOp::Shl,
                    Fl::NONE,
                    lane4,
                    Src::Reg(self.index),
                    Src::Imm(2),
                )?;
            }
        }
        if spill_bytes_per_qpu > 0 {
            // This lane's word of slot 0: area + me() · bytes per QPU + lane · 4 (Mesa's
            // `v3d_setup_spill_base` likewise adds a per-thread offset and eidx · 4 to the
            // address the driver passes as a uniform).
            let base = Dst::v(self.spill_base);
            let size = self.constant(spill_bytes_per_qpu)?;
            let t = self.temp()?;
            self.mul2(MulOp::Umul24, Fl::NONE, Dst::v(t), Src::Reg(self.me), size)?;
            self.add2(
                AddOp::Add,
                Fl::NONE,
                base,
                Src::Reg(self.spill_base),
                Src::Reg(t),
            )?;
            self.add2(
                AddOp::Add,
                Fl::NONE,
                base,
                Src::Reg(self.spill_base),
                Src::Reg(self.lane4),
            )?;
            for (v, t) in spilled_params {
                self.spill_store(v, Src::Reg(t), Fl::NONE)?;
            }
        }
        for (v, zero) in vars_needing_zero(self.kernel).into_iter().enumerate() {
            if zero && self.spilled[v] {
                self.spill_store(v, Src::Imm(0), Fl::NONE)?;
            } else if zero {
                let r = Dst::v(self.var_reg[v]);
                self.mov(r, Src::Imm(0), Fl::NONE);
            }
        }
        let mut lines = std::mem::take(&mut self.lines);
        let mut locations = std::mem::take(&mut self.locations);
        lines.extend(body);
        locations.extend(body_locations);
        self.lines = lines;
        self.locations = locations;

        // End: wait for the stores, then py-videocore6's exit (the last-thread-switch pair
        // and the final thrsw with its two delay slots; tmuwt must not be the last
        // instruction, GFXH-1625).
        if self.needs.stores {
            self.add_op(AddOp::Tmuwt, Fl::NONE, NOP, &[]);
        }
        for sig in [true, true, false, false, true, false, false] {
            if sig {
                self.signal(Signal::Thrsw, None);
            } else {
                self.nop();
            }
        }

        // r0 is left out: it is every rotation's source, and values kept in it around the
        // rotations cost HeatMap's loop more than they save (`qpu bench --gpu vc6`: 680,941
        // issued with r0–r4, 635,077 with r1–r4).
        let accumulators: &[u8] = match self.version {
            V3dVersion::V42 => &[1, 2, 3, 4],
            V3dVersion::V71 => &[],
        };
        super::dump("v3d generate", || listing(&self.lines));
        let lines = match alloc::allocate(self.version, &self.lines, ALLOCATABLE, accumulators) {
            Ok(lines) => lines,
            Err(short) => {
                // The statement where the most values are live at once.
                let peak = self.lines[..short.peak]
                    .iter()
                    .filter(|l| !matches!(l, Inst::Label(_)))
                    .count();
                let at = self
                    .locations
                    .get(peak)
                    .copied()
                    .flatten()
                    .unwrap_or(self.kernel.location);
                return Err(Attempt::Registers {
                    uncolored: short.uncolored,
                    live: short.live_at_peak,
                    message: format!(
                        "the kernel at {} needs {} registers at once (at {at}); V3D has {} for \
                         values (64, minus rf0–rf3 reserved): keep fewer values alive at once",
                        self.kernel.location, short.pressure, ALLOCATABLE
                    ),
                });
            }
        };
        super::dump("v3d allocate", || listing(&lines));
        let generated = machine(self.version, &lines)?;
        debug_assert_eq!(generated.len(), self.locations.len());
        let (instructions, locations) = pack::pack(
            &pack::Packing {
                version: self.version,
                fifo: TMU_FIFO,
                facts: V3d(self.version).facts(),
                dual_issue: self.dual_issue,
            },
            &generated,
            &self.locations,
        );
        self.locations = locations;
        let words = instructions
            .iter()
            .enumerate()
            .map(|(index, i)| {
                v3d::encode(self.version, i).map_err(|e| CompileError::Encoding {
                    index,
                    message: e.to_string(),
                })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        debug_assert_eq!(words.len(), self.locations.len());
        Ok(V3dCompiled {
            version: self.version,
            instructions,
            words,
            locations: self.locations,
            constants,
            params: self.kernel.params.len(),
            spill_bytes_per_qpu,
            semaphore_bytes,
            compile_time: Duration::ZERO,
        })
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
