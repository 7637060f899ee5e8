//! The VideoCore IV back end. Its passes, in order (each in its own module):
//!
//! 1. `lower`: AST → IR over virtual registers, with the prologue (uniforms: QPU
//!    id, QPU count, arguments in declared order, then — only if the kernel spills — its
//!    spill-area address), structured control flow turned into labels and branches, `Where`
//!    into flags and conditional writes, memory into TMU/VPM/DMA I/O (with batched stores in
//!    counted loops), and the end-of-kernel protocol.
//! 2. `opt`: loop-invariant code motion, flag reuse, TMU results read from r4, uniform
//!    reads folded into their use, and a gather of the next pointer sharing its increment.
//!    Then `pipeline`: a loop whose body ends in a long chain feeding a VPM write runs that
//!    chain one iteration late, beside the next iteration's work; then pointers that advance
//!    by one step in a short loop share one offset (`opt::share_induction_offsets`).
//! 3. `prepass`: list scheduling of each block before allocation (kernels with a long loop
//!    body are compiled with and without it; the smaller loop-weighted code wins).
//! 4. `regalloc`: virtual registers → r0–r3 / file A / file B, with encoding fix-ups and
//!    spilling. A kernel that must spill gets its spill support (the spill area's uniform,
//!    the reload setups) from the allocator, without a second lowering; only if that
//!    allocation fails is it lowered again with spill support.
//! 5. `schedule`: list scheduling with the generation's latency facts, dual issue,
//!    delay-slot filling.
//! 6. `emit`: bundles → [`qpu_isa::vc4::Instruction`]s; the driver then runs
//!    [`qpu_isa::vc4::validate`].
//!
//! # Launch contract
//!
//! Program `i` of a launch of `n` QPUs reads the uniforms `[i, n, args..., spill]`, where
//! `spill` (present when [`Compiled::spill_bytes_per_qpu`] is non-zero) is the bus address
//! of that QPU's own spill area. Each QPU uses VPM row `i` (and row `12 + i` for spill
//! reloads), or, in a kernel with batched stores, rows `i·r .. (i+1)·r` with
//! `r = 64 >> ceil(log2 n)`. At the end every QPU waits for its last store DMA; QPUs `1..n`
//! release semaphore 15 and end; QPU 0 acquires it `n - 1` times, raises the host interrupt
//! once and ends. So exactly one interrupt arrives, after every QPU's stores are complete.
//!
//! # Memory
//!
//! Whole-vector loads are TMU lookups (TMU1; V3DLib measured TMU loads faster than VPM DMA
//! on the VideoCore IV), gathers use TMU0, so a load never disturbs the gather FIFO. Stores
//! write the QPU's VPM row and start a VDW DMA without waiting; the next store (or the
//! kernel end) waits for it first, since the guide allows one store DMA per QPU in flight
//! (p.55) — so stores overlap computation, and different QPUs' stores overlap each other.
//! A semaphore operation waits for it too (as V3D's does with `tmuwt`), so what a QPU stored
//! before its `sema_inc` is in memory once another QPU's matching `sema_dec` returns: a
//! barrier between passes over shared data needs nothing more.
//! Caveat for hardware: VDW writes bypass the TMU cache (vc4asm issue #5), so a load of data
//! the same kernel stored may see the old value on a Pi; the interpreter sees the new one,
//! and so does the emulator unless the store is still waiting in a batch.
//!
//! # Where compiled code and the interpreter may differ
//!
//! The differential tests (`tests/differential.rs`) keep their inputs away from these:
//!
//! * float `==`/`!=` test the flags of `a - b`: `inf == inf` is false, and two distinct values
//!   whose difference underflows to zero compare equal;
//! * float `<=`/`>=` are "not `>`"/"not `<`" (the carry of `fmin`), so they hold for NaN;
//! * `fmin`/`fmax` with a NaN operand, or on a `+0`/`-0` tie, and `to_int` of NaN or of values
//!   outside the int range, follow the hardware (as the emulator models it: the first operand
//!   on ties, 0 for unrepresentable conversions), not the language's definitions;
//! * on a Pi, the SFU functions (`recip`, `rsqrt`, `exp2`, `log2`, and `/`, `sqrt` built on
//!   them) are approximations; the emulator and interpreter compute them exactly.
//!
//! Integer comparisons are exact (the carry of `min`, not the sign of a subtraction).
//!
//! ```
//! use qpu::lang::*;
//!
//! let kernel = qpu::compile(|p: Ptr<Int>| p.store(p.load() + 1))?;
//! let compiled = qpu::compiler::compile(kernel.ast())?;
//! let listing = compiled.disassemble();
//! assert!(listing.contains("thrend"));
//! // The listing assembles back to the same words.
//! let again = qpu_isa::vc4::assemble(&listing).expect("listing assembles");
//! assert_eq!(again.len(), compiled.words().len());
//! # Ok::<(), qpu::Error>(())
//! ```

pub(crate) mod bundle;
pub(crate) mod emit;
pub(crate) mod ir;
pub(crate) mod lower;
pub(crate) mod opt;
pub(crate) mod pipeline;
pub(crate) mod prepass;
pub(crate) mod regalloc;
pub(crate) mod schedule;

use std::time::Duration;

use qpu_isa::vc4::Instruction;

use super::common::target::{Code, Vc4};
use super::{drive, dump, CompileError, Options};
use crate::error::SourceLocation;
use crate::lang::ast;

/// A compiled kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The instructions.
    pub(crate) instructions: Vec<Instruction>,
    /// The same, encoded.
    pub(crate) words: Vec<u64>,
    /// Uniforms each QPU reads: 2 + parameters (+ 1 with spills).
    pub(crate) uniform_count: u32,
    /// Bytes of spill memory each QPU needs (0 when nothing spills).
    pub(crate) spill_bytes_per_qpu: u32,
    /// The most QPUs this code may run on ([`Options::max_qpus`]).
    pub(crate) max_qpus: u32,
    /// How long compilation took.
    pub(crate) compile_time: Duration,
    /// For each instruction, the kernel statement it comes from (`None` for the launch
    /// protocol's own code): run-time errors name it.
    pub(crate) locations: Vec<Option<SourceLocation>>,
    /// For each instruction, its static cycle note (`cycle_notes`): where it issues in its
    /// block, the TMU wait the timing model expects before it, and at a loop's back branch
    /// the loop's length per iteration.
    pub(crate) cycles: Vec<CycleNote>,
}

impl Compiled {
    /// The instructions.
    pub fn instructions(&self) -> &[Instruction] {
        &self.instructions
    }

    /// The instructions, encoded.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Uniforms each QPU reads: 2 + parameters (+ 1 with spills).
    pub fn uniform_count(&self) -> u32 {
        self.uniform_count
    }

    /// Bytes of spill memory each QPU needs (0 when nothing spills).
    pub fn spill_bytes_per_qpu(&self) -> u32 {
        self.spill_bytes_per_qpu
    }

    /// The most QPUs this code may run on ([`Options::max_qpus`]).
    pub fn max_qpus(&self) -> u32 {
        self.max_qpus
    }

    /// How long compilation took.
    pub fn compile_time(&self) -> Duration {
        self.compile_time
    }

    /// For each instruction, the kernel statement it comes from (`None` for the launch
    /// protocol's own code).
    pub fn locations(&self) -> &[Option<SourceLocation>] {
        &self.locations
    }

    /// QPU `qpu`'s uniform stream for a launch on `num_qpus` QPUs, under the module docs'
    /// launch contract: `[qpu, num_qpus, args…]`, then, when the kernel spills
    /// ([`Self::spill_bytes_per_qpu`] > 0), the address of this QPU's slice of the spill area
    /// (`spill_area`, ignored otherwise).
    pub fn uniforms(&self, qpu: u32, num_qpus: u32, args: &[u32], spill_area: u32) -> Vec<u32> {
        let mut stream = Vec::with_capacity(args.len() + 3);
        stream.extend([qpu, num_qpus]);
        stream.extend_from_slice(args);
        if self.spill_bytes_per_qpu > 0 {
            stream.push(spill_area);
        }
        stream
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

    /// The listing in the assembler's syntax (`qpu asm` accepts it back), with a
    /// `# file:line:col` comment wherever the kernel statement the code comes from changes.
    pub fn disassemble(&self) -> String {
        annotate(
            &qpu_isa::vc4::disasm::program(&self.instructions),
            &self.locations,
        )
    }

    /// [`disassemble`](Self::disassemble) with each instruction's static cycle note
    /// (`QPU_DUMP_IR` prints this listing): `@c` is the clock at which the instruction issues
    /// counted from its block's first instruction (4 clocks per instruction), `tmu wait ~w`
    /// the clocks a TMU load is expected to wait for a lookup requested in the same block
    /// (the emulator's timing model, every lane a cache hit), and a back branch names its
    /// loop's instructions per iteration.
    pub fn disassemble_with_cycles(&self) -> String {
        let listing = self.disassemble();
        let mut out = String::with_capacity(listing.len() * 3 / 2);
        let mut index = 0;
        for line in listing.lines() {
            out.push_str(line);
            if !line.starts_with(':') {
                if let Some(note) = self.cycles.get(index) {
                    let pad = 44usize.saturating_sub(line.len()).max(2);
                    out.push_str(&" ".repeat(pad));
                    out.push_str(if line.contains('#') { "; " } else { "# " });
                    out.push_str(&note.to_string());
                }
                index += 1;
            }
            out.push('\n');
        }
        out
    }

    /// The kernel statement the instruction at `index` comes from.
    pub fn location(&self, index: usize) -> Option<SourceLocation> {
        self.locations.get(index).copied().flatten()
    }
}

/// `plain` (a listing, labels on lines of their own: `:name` on the VideoCore IV, `name:` on
/// V3D) with a
/// `  # file:line:col` comment on each instruction whose source location differs from the
/// previous instruction's. `locations` has one entry per instruction.
pub(crate) fn annotate(plain: &str, locations: &[Option<SourceLocation>]) -> String {
    let mut out = String::with_capacity(plain.len() * 5 / 4);
    let mut index = 0;
    let mut last = None;
    for line in plain.lines() {
        out.push_str(line);
        if !line.starts_with(':') && !line.ends_with(':') {
            let here = locations.get(index).copied().flatten();
            if let Some(at) = here.filter(|_| here != last) {
                out.push_str(&format!("  # {at}"));
            }
            last = here;
            index += 1;
        }
        out.push('\n');
    }
    out
}

impl Code for Compiled {
    fn listing(&self) -> String {
        self.disassemble_with_cycles()
    }

    fn plain_listing(&self) -> String {
        qpu_isa::vc4::disasm::program(&self.instructions)
    }

    fn set_compile_time(&mut self, time: Duration) {
        self.compile_time = time;
    }
}

/// Compile for the VideoCore IV with default options (over the recorded AST; users call
/// [`Kernel::compile_for`](crate::Kernel::compile_for)).
pub fn compile(kernel: &ast::Kernel) -> Result<Compiled, CompileError> {
    compile_with(kernel, Options::default())
}

/// Lowering and the IR clean-ups, with spill support or without (the scheduling before
/// allocation comes after, in [`build`]).
fn lower_and_clean(
    target: &Vc4,
    kernel: &ast::Kernel,
    spill_support: bool,
    max_qpus: u32,
) -> lower::Lowered {
    let mut lowered = target.lower(kernel, spill_support, max_qpus);
    dump("lower", || ir::listing(&lowered.code));
    opt::hoist_invariants(
        &mut lowered.code,
        lowered.first_temporary,
        &lowered.acc_only,
    );
    dump("hoist_invariants", || ir::listing(&lowered.code));
    opt::reuse_flags(&mut lowered.code);
    dump("reuse_flags", || ir::listing(&lowered.code));
    opt::forward_r4(&mut lowered.code, lowered.vregs, &lowered.acc_only);
    dump("forward_r4", || ir::listing(&lowered.code));
    // Both keep a rotation's accumulator source alive longer. With spill support the
    // allocator may add accumulator temporaries anywhere (spill code, port fix-ups), and an
    // accumulator-only value living across them can find no register (a random kernel,
    // differential seed 246619925283692, failed to compile that way), so there they stay off.
    if !spill_support {
        opt::fuse_masked_rotations(&mut lowered.code, &lowered.acc_only);
        dump("fuse_masked_rotations", || ir::listing(&lowered.code));
        opt::build_rotation_sources_in_place(&mut lowered.code, &lowered.acc_only);
        dump("build_rotation_sources_in_place", || {
            ir::listing(&lowered.code)
        });
    }
    opt::fold_uniform_reads(
        &mut lowered.code,
        lowered.first_temporary,
        &lowered.stream_reads,
    );
    dump("fold_uniform_reads", || ir::listing(&lowered.code));
    opt::share_io_increments(&mut lowered.code);
    dump("share_io_increments", || ir::listing(&lowered.code));
    pipeline::pipeline_chains(&mut lowered.code, &mut lowered.vregs);
    dump("pipeline_chains", || ir::listing(&lowered.code));
    opt::share_induction_offsets(&mut lowered.code, &mut lowered.vregs, LONG_LOOP_BODY);
    dump("share_induction_offsets", || ir::listing(&lowered.code));
    lowered
}

/// Compile for the VideoCore IV with explicit options.
pub fn compile_with(kernel: &ast::Kernel, options: Options) -> Result<Compiled, CompileError> {
    drive(&Vc4, kernel, options)
}

/// The VideoCore IV back end behind [`compile_with`] (the driver adds the self-check, the
/// compile time and the listing dump).
///
/// Scheduling before allocation ([`prepass`]) lets a long loop body's independent chains
/// interleave, but it can also lengthen short ones (the allocator and the packer then see
/// another order): long loop bodies ([`LONG_LOOP_BODY`]) get it, others not. Kernels with
/// shorter loops are compiled a second time with TMU receives in FIFO order, and the code
/// with the lower loop-weighted instruction count ([`loop_weighted_size`]) wins.
pub(crate) fn generate_vc4(
    target: &Vc4,
    kernel: &ast::Kernel,
    options: Options,
) -> Result<Compiled, CompileError> {
    // One lowering serves both schedules.
    let lowered = lower_and_clean(target, kernel, false, options.max_qpus);
    let finish = |(mut best, _, items): Built| {
        // Only the kept code's notes are written out.
        best.cycles = cycle_notes(&items);
        best
    };
    // A very long loop body is scheduled before allocation only (every such body of the
    // examples and the library packs smaller that way), unless that order needs spilling.
    let long = longest_loop_body(&lowered.code) >= LONG_LOOP_BODY;
    if long {
        if let Ok(built) = build(target, kernel, options, lowered.clone(), true, false) {
            return Ok(finish(built));
        }
    }
    let (mut best, cost, mut best_items) =
        build(target, kernel, options, lowered.clone(), false, false)?;
    // A second schedule to try for code with loops: TMU receives ordered by the FIFO (a
    // prefetching loop receives before it requests the next data). It can lose, so the
    // smaller loop-weighted code wins.
    let other = if long {
        // The schedule before allocation needed spilling (above).
        None
    } else if cost.0 > best.words.len() as u64 {
        Some(("with TMU receives in FIFO order", false, true))
    } else {
        None
    };
    if let Some((what, prepass, fifo)) = other {
        if let Ok((other, other_cost, other_items)) =
            build(target, kernel, options, lowered, prepass, fifo)
        {
            dump("choice", || {
                format!(
                    "loop-weighted size {} as it is, {} {what}",
                    cost.0, other_cost.0
                )
            });
            if other_cost.0 < cost.0 {
                best = other;
                best_items = other_items;
            }
        }
    }
    Ok(finish((best, cost, best_items)))
}

/// Loop bodies with at least this many IR ops are long: they are compiled with the prepass
/// only (the other order only when the prepass order needs spilling), and pointers advancing
/// in a shorter loop share one offset ([`opt::share_induction_offsets`]). In `qpu bench`
/// every body of 40 ops or more packs smaller with the prepass (HeatMap's 57 and its
/// unrolled 134, SHA-256's 139, the FFT's 2,164), shorter ones pack well as they are, and
/// compiling both ways cost HeatMap 30% of its compile time (`cargo bench -p qpu-kernels
/// --bench compile`: 2.6 ms median when bodies from 40 to 99 ops were compiled both ways, 1.8 ms
/// now; every `qpu bench` row is the same).
const LONG_LOOP_BODY: usize = 40;

/// The most ops in a block that branches back to its own first label (a loop body).
fn longest_loop_body(code: &[ir::Op<ir::VReg>]) -> usize {
    let (mut start, mut ops, mut longest) = (None, 0, 0);
    for op in code {
        match op {
            ir::Op::Label(l) => (start, ops) = (Some(*l), 0),
            ir::Op::Branch { target, .. } => {
                if Some(*target) == start {
                    longest = longest.max(ops);
                }
                (start, ops) = (None, 0);
            }
            ir::Op::Sema { .. } | ir::Op::ThreadEnd => (start, ops) = (None, 0),
            ir::Op::Source(_) => {}
            _ => ops += 1,
        }
    }
    longest
}

/// Instruction words weighted by 8 per enclosing loop (a loop being the words from a
/// backward branch's target to the branch's last delay slot).
fn loop_weighted_size(items: &[schedule::Item]) -> u64 {
    let mut at = rustc_hash::FxHashMap::default();
    let mut index = 0usize;
    for item in items {
        match item {
            schedule::Item::Label(l) => {
                at.insert(*l, index);
            }
            schedule::Item::Word(..) => index += 1,
        }
    }
    // +1 where a loop starts, -1 after it ends.
    let mut change = vec![0i64; index + 4];
    let mut index = 0usize;
    for item in items {
        if let schedule::Item::Word(schedule::Word::Branch(_, target), _) = item {
            if let Some(&t) = at.get(target) {
                if t <= index {
                    change[t] += 1;
                    change[index + 1 + schedule::SLOTS] -= 1;
                }
            }
        }
        if let schedule::Item::Word(..) = item {
            index += 1;
        }
    }
    let (mut depth, mut size) = (0i64, 0u64);
    for c in change.iter().take(index) {
        depth += c;
        size += 8u64.pow(depth.clamp(0, 6) as u32);
    }
    size
}

/// An instruction's static cycle note (see [`Compiled::disassemble_with_cycles`]), kept as
/// numbers and written out only when a listing asks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CycleNote {
    /// The clock at which the instruction issues, from its block's first instruction.
    at: u64,
    /// The clocks a TMU load is expected to wait for its lookup (0: none expected).
    tmu_wait: u64,
    /// At a loop's back branch, the loop's instructions per iteration.
    loop_length: Option<usize>,
}

impl std::fmt::Display for CycleNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "@{}", self.at)?;
        if self.tmu_wait > 0 {
            write!(f, " tmu wait ~{}", self.tmu_wait)?;
        }
        if let Some(n) = self.loop_length {
            write!(f, " loop: {n} instructions per iteration")?;
        }
        Ok(())
    }
}

/// Static cycle notes for each instruction word of `items` (see
/// [`Compiled::disassemble_with_cycles`]).
pub(crate) fn cycle_notes(items: &[schedule::Item]) -> Vec<CycleNote> {
    use bundle::Bundle;
    use schedule::{Item, Word};
    let clocks = qpu_isa::vc4::latency::CLOCKS_PER_INSTRUCTION;
    let mut notes = Vec::new();
    let mut label_at = rustc_hash::FxHashMap::default();
    // Per TMU, the lookups not yet received: the word index of those this block requested,
    // `None` for those requested before it (far enough back not to wait, as a rule).
    type Fifo = std::collections::VecDeque<Option<usize>>;
    let mut pending: [Fifo; 2] = Default::default();
    // How many lookups are outstanding where a branch goes (the first branch to a label
    // decides; the program's own order reaches labels the same way).
    let mut at_target: rustc_hash::FxHashMap<ir::Label, [usize; 2]> = Default::default();
    // Blocks start at branch targets (the labels the listing shows).
    let targets: rustc_hash::FxHashSet<ir::Label> = items
        .iter()
        .filter_map(|item| match item {
            Item::Word(Word::Branch(_, target), _) => Some(*target),
            _ => None,
        })
        .collect();
    let mut start = 0usize;
    for item in items {
        let index = notes.len();
        let word = match item {
            Item::Label(l) => {
                if !targets.contains(l) {
                    continue;
                }
                label_at.insert(*l, index);
                start = index;
                let outstanding = at_target
                    .get(l)
                    .copied()
                    .unwrap_or([pending[0].len(), pending[1].len()]);
                pending = outstanding.map(|n| std::iter::repeat_n(None, n).collect());
                continue;
            }
            Item::Word(word, _) => word,
        };
        let mut note = CycleNote {
            at: (index - start) as u64 * clocks,
            tmu_wait: 0,
            loop_length: None,
        };
        match word {
            Word::Bundle(Bundle::Alu { ops, signal }) => {
                for (op, _) in ops {
                    if let ir::Op::Alu {
                        dst: ir::Dst::Write(ir::IoWrite::TmuS(t)),
                        ..
                    } = op
                    {
                        pending[usize::from(*t & 1)].push_back(Some(index));
                    }
                }
                let tmu = match signal {
                    qpu_isa::vc4::Signal::LoadTmu0 => Some(0),
                    qpu_isa::vc4::Signal::LoadTmu1 => Some(1),
                    _ => None,
                };
                if let Some(Some(request)) = tmu.and_then(|t| pending[t].pop_front()) {
                    let since = (index - request) as u64 * clocks;
                    let wait = qpu_isa::vc4::latency::TMU_HIT_CLOCKS.saturating_sub(since);
                    note.tmu_wait = wait;
                }
            }
            Word::Branch(_, target) => {
                at_target
                    .entry(*target)
                    .or_insert([pending[0].len(), pending[1].len()]);
                if let Some(&t) = label_at.get(target) {
                    note.loop_length = Some(index + 1 + schedule::SLOTS - t);
                }
            }
            _ => {}
        }
        notes.push(note);
    }
    notes
}

/// A compilation, its ([`loop_weighted_size`], [`longest_loop_body`]), and its scheduled
/// items (for the cycle notes of the one kept).
type Built = (Compiled, (u64, usize), Vec<schedule::Item>);

/// One compilation, with the prepass or without; also its [`loop_weighted_size`] and
/// [`longest_loop_body`].
/// Allocate, schedule and encode `lowered` (from [`lower_and_clean`], without spill
/// support), with the scheduling before allocation or without.
fn build(
    target: &Vc4,
    kernel: &ast::Kernel,
    options: Options,
    mut lowered: lower::Lowered,
    prepass: bool,
    fifo_order: bool,
) -> Result<Built, CompileError> {
    let longest = longest_loop_body(&lowered.code);
    if prepass {
        prepass::reorder(
            &mut lowered.code,
            lowered.first_temporary,
            &lowered.acc_only,
        );
        dump("prepass", || ir::listing(&lowered.code));
    }
    // Without the prepass, the allocator adds spill support itself where values must live
    // in memory. Only if that fails (values bound to registers where VPM rows wait for
    // their DMA, or accumulator-only values the spill code leaves no room for) is the kernel
    // lowered again with spill support, which keeps stores and spill code apart in the
    // lowering itself.
    let allocated = match regalloc::allocate(&mut lowered, !prepass) {
        Ok(a) => a,
        Err(_) if !prepass => {
            dump("regalloc", || {
                "no allocation with spill code added: lowering again with spill support".into()
            });
            lowered = lower_and_clean(target, kernel, true, options.max_qpus);
            regalloc::allocate(&mut lowered, false).map_err(|e| match e {
                regalloc::AllocError::NeedSpills => {
                    CompileError::RegisterAllocation("spilling unavailable".to_string())
                }
                regalloc::AllocError::TooManyValues(m) => CompileError::RegisterAllocation(m),
            })?
        }
        Err(regalloc::AllocError::NeedSpills) => {
            return Err(CompileError::RegisterAllocation(
                "the prepass order needs spilling".to_string(),
            ))
        }
        Err(regalloc::AllocError::TooManyValues(m)) => {
            return Err(CompileError::RegisterAllocation(m))
        }
    };
    dump("regalloc", || ir::listing(&allocated.code));
    let items = schedule::schedule(&allocated.code, options.dual_issue, target, fifo_order);
    let cost = (loop_weighted_size(&items), longest);
    let (bundles, sources) = schedule::resolve(&items);
    let locations = sources
        .iter()
        .map(|&s| lowered.sources.get(s as usize).copied())
        .collect();
    let mut instructions = Vec::with_capacity(bundles.len());
    for (index, bundle) in bundles.iter().enumerate() {
        let instr = target
            .encode(bundle, index)
            .map_err(|e| CompileError::Encoding {
                index,
                message: e.0,
            })?;
        instructions.push(instr);
    }
    let words = instructions.iter().map(Instruction::encode).collect();
    let compiled = Compiled {
        instructions,
        words,
        uniform_count: lowered.uniforms,
        // The launch contract passes the spill uniform exactly when this is non-zero, so a
        // kernel lowered for spilling keeps at least one slot even if, in the end, the
        // allocator needed none (its prologue still reads the uniform).
        spill_bytes_per_qpu: if lowered.globals.is_some_and(|g| g.spill_base.is_some()) {
            allocated.spill_slots.max(1) * 64
        } else {
            0
        },
        compile_time: Duration::ZERO,
        max_qpus: options.max_qpus,
        locations,
        cycles: Vec::new(),
    };
    Ok((compiled, cost, items))
}

impl<P> crate::runtime::Kernel<P> {
    /// Compile for the QPU and return the listing in the assembler's syntax (of the kernel
    /// that runs: with `debug` statements, the one that records them).
    pub fn disassemble(&self) -> crate::Result<String> {
        Ok(compile(self.launch_ast())?.disassemble())
    }
}
