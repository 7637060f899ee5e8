//! The V3D 4.2 (VideoCore VI, Pi 4) and V3D 7.1 (VideoCore VII, Pi 5) machine: QPUs that
//! execute encoded [`qpu_isa::v3d`] words, launched the way the kernel's `SUBMIT_CSD`
//! launches compute shaders.
//!
//! Beside the VideoCore IV [`crate::vc4::Emulator`], sharing its memory model
//! ([`crate::memory::Memory`]) and half-float helpers. Where the sources disagree it
//! follows the evidence order of the whole project: a program that ran correctly on a Pi
//! 4 or 5 (py-videocore6/7's tests and examples, Mesa's compiled shaders) beats a published
//! measurement, which beats Mesa's validator (what Mesa's compiler promises itself). What
//! it models:
//! * **Registers**: per thread a 64-entry register file (32 with 4 threads per QPU, Mesa
//!   `vir_register_allocate.c`), on 4.2 the accumulators r0–r5; 7.1 has none and sends the
//!   implicit writes (`ldunif`, `quad`, `rep`) to rf0.
//! * **Undefined values are poison** (`v3d/poison.rs`): a register nothing wrote, a load outside
//!   every buffer, `tmuwt`'s and `barrierid`'s results, 4.2's accumulators after another
//!   thread ran, the flags after `flpop`; marked lane by lane through every operation, an
//!   error ([`V3dRule::UndefinedValueUsed`]) only where a value is stored, used as a TMU
//!   address or config, written to `unifa`, or decides a branch or its target. `x ^ x` and
//!   `x − x` define their result.
//! * **ALUs**: every add/mul op a source gives a meaning (see [`lanes`] for each op's
//!   source), small immediates, the regular float unpack/pack, the named modifiers.
//! * **Flags** A and B with push/update and the four write conditions; they survive thread
//!   switches (Mesa `vir_opt_redundant_flags.c`: "In V3D 4.2+ flags are preserved across
//!   thread switches").
//! * **Branches**: all conditions, with the multisample-flag forms (`msfp`, `msfq`; every
//!   lane of a whole batch counts), 3 delay slots, absolute/relative/link/register targets,
//!   `link`, and `ub` (the uniform-stream reposition: from a uniform as Mesa's branches
//!   carry it, or from the link register or a register, `bdu` 2 and 3).
//! * **Signals**: `ldunif`, `ldunifrf`, `ldunifa`/`ldunifarf` (after a `unifa` write),
//!   `ldtmu`, `wrtmuc`, `thrsw`, and 4.2's `rot`.
//! * **TMU** general loads (`tmua`/`tmuau` → `ldtmu`), stores (`tmud` then `tmua`) with
//!   1–4 words per lane (on 4.2 wrapped in the lane's 16-byte block), packed lookup
//!   configs (on 4.2 a config's later bytes serve the following lookups), `tmuwt`; a load
//!   outside every buffer reads poison, a store there is a memory error.
//! * **Threads and end**: `thrsw` after 2 delay slots; 1, 2 or 4 threads per QPU; the
//!   program ends at the `thrsw` after the last-thread-switch pair (two consecutive
//!   `thrsw`), or at the first `thrsw` in single-segment mode, plus its 2 delay slots. On a
//!   one-thread QPU a `thrsw` may sit in another's delay slots (py-videocore's loops do).
//! * **Workgroup barriers**: a `syncb` write (Mesa: `barrierid` into `syncb`) makes the
//!   thread wait at its next thread switch until every batch of its workgroup has arrived.
//! * **CSD dispatch**: workgroups split into 16-lane batches handed out one per QPU, then
//!   to each QPU's next thread slot, then to slots as they free; each batch starts at the
//!   same code and uniform addresses, with the workgroup ids and local invocation indices
//!   in the payload registers.
//! * **Ids**: `eidx` is the lane; `tidx` is QPU << 2 | thread in quarters of the QPU
//!   (py-videocore7's parallel test on a Pi 5; py-videocore6 and V3DLib take `me()` as
//!   (tidx >> 2) & 15 with one thread per QPU and pass `num_qpus()` as a uniform); workgroup
//!   ids are in the payload.
//! * **Lane movement**: 4.2's `rot` signal and 7.1's `rotate`, `quad_rotate` and `shuffle`
//!   (the directions each from a hardware test, see the machine).
//! * **Hazards**: the rules in [`rules`], each with its source.
//! * **TMU atomics**: the general TMU's 32-bit atomic ops (add, sub, xchg, cmpxchg,
//!   umin/umax/smin/smax, and/or/xor; without data, op 8 adds 1 and op 9 subtracts 1), as
//!   Mesa's `ntq_emit_tmu_general` issues them: the lookup config (`tmuc`, `tmuau` or
//!   `wrtmuc`) names the op, the operand goes to `tmud` (two words for cmpxchg; or
//!   `tmudref` and `tmuoff` as py-videocore7 writes them), the address to `tmua`, and the
//!   word's old value comes back through the result FIFO (`ldtmu`). Memory changes when
//!   the request is made, so a request is atomic with respect to the other QPUs (which the
//!   emulator interleaves deterministically).
//! * **Cycles**: a model fitted to programs timed on real Pi 4 and Pi 5 boards
//!   (`v3d/timing.rs`): 4 clocks an instruction, each slice's TMU, a shared L2T and memory queue,
//!   QPUs stepped in time order; within ±15% of each published figure
//!   (`tests/v3d_calibration.rs`). [`V3dRunReport::perfmon`] reports the run under the
//!   Linux kernel's performance-counter names.
//!
//! Anything else a program does (graphics signals and registers, TMU cache operations, VPM,
//! ops no source explains) stops the run with [`V3dFault::Unsupported`], never a guess.
//!
//! ```
//! use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator};
//! use qpu_isa::v3d::{self, V3dVersion};
//!
//! // out[lane] = uniform + lane, on one QPU of a Pi 4.
//! let program = v3d::assemble(V3dVersion::V42, "
//!     eidx r0 ; nop ; ldunif
//!     add r1, r0, r5 ; nop ; ldunif
//!     shl r0, r0, 2 ; nop
//!     add r0, r0, r5 ; nop
//!     or tmud, r1, r1 ; nop
//!     or tmua, r0, r0 ; nop
//!     tmuwt ; nop
//!     nop ; nop ; thrsw
//!     nop ; nop ; thrsw
//!     nop ; nop
//!     nop ; nop
//!     nop ; nop ; thrsw
//!     nop ; nop
//!     nop ; nop
//! ")?;
//! let mut emu = V3dEmulator::new(V3dConfig::new(V3dVersion::V42))?;
//! let code = emu.load_instructions(&program)?;
//! let out = emu.memory_mut().alloc(64, 64)?;
//! let uniforms = emu.load_uniforms(&[100, out])?;
//! let report = emu.dispatch(&CsdJob::per_qpu(code, uniforms, 1))?;
//! assert_eq!(emu.memory().read_u32s(out, 16)?, (100..116).collect::<Vec<u32>>());
//! assert_eq!(report.qpus[0].instructions, 14);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod calibration;
pub mod lanes;
mod machine;
pub(crate) use qpu_isa::v3d::placement;
mod poison;
pub mod rules;
mod timing;

use std::fmt;

use qpu_isa::v3d::{Instruction, V3dVersion};

use crate::memory::{LendingMemory, Memory};
use crate::EmuError;
use crate::Lent;
/// The static validator lives beside the rules, in qpu-isa.
pub use qpu_isa::v3d::{validate, V3dViolation};
pub use rules::{V3dFault, V3dRule};
pub use timing::MemoryCounters;

/// The machine's shape and budgets.
#[derive(Clone, Debug, PartialEq)]
pub struct V3dConfig {
    /// 4.2 or 7.1.
    pub version: V3dVersion,
    /// QPUs: 1–8 on 4.2 (2 slices × 4); on 7.1 1–16 (the Pi 5's count is read from the
    /// hardware: its kernel reports 16, py-videocore7 assumes 12).
    pub qpus: usize,
    /// Threads per QPU: 1, 2 or 4.
    pub threads: u8,
    /// Instructions all threads together may execute in one dispatch.
    pub max_instructions: u64,
    /// Clock for the wall-time estimate (500 MHz Pi 4, 960 MHz Pi 5 at most).
    pub clock_mhz: f64,
    /// Record every QPU's stalls with their clocks ([`V3dQpuReport::timeline`]), what each
    /// of its threads did when ([`V3dQpuReport::threads`]) and its TMU results
    /// ([`V3dQpuReport::tmu_lookups`]), for a profile; off by default (recording changes no
    /// result and no clock).
    pub timeline: bool,
}

impl V3dConfig {
    /// The default for `version`: every QPU (8 on 4.2, 16 on 7.1), one thread each.
    pub fn new(version: V3dVersion) -> V3dConfig {
        let (qpus, clock_mhz) = (version.qpus() as usize, version.clock_mhz());
        V3dConfig {
            version,
            qpus,
            threads: 1,
            max_instructions: 200_000_000,
            clock_mhz,
            timeline: false,
        }
    }

    /// The most QPUs the version has.
    pub fn max_qpus(version: V3dVersion) -> usize {
        version.qpus() as usize
    }
}

/// One compute dispatch, as the seven CSD config words describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsdJob {
    /// Bus address of the first instruction (8-byte aligned).
    pub code: u32,
    /// Bus address of the uniform stream every batch starts from.
    pub uniforms: u32,
    /// Workgroup counts in X, Y, Z (each 1–65535 here).
    pub workgroups: [u32; 3],
    /// Invocations per workgroup: a multiple of 16 up to 256 (partial batches are not
    /// modelled).
    pub workgroup_size: u32,
    /// CSD config word 5, bit 1: the program has no last-thread-switch pair; its first `thrsw` ends it.
    pub single_segment: bool,
}

impl CsdJob {
    /// `n` batches of 16 lanes, one workgroup each (ids 0..n in X), the way
    /// py-videocore6 runs a kernel "on n QPUs".
    pub fn per_qpu(code: u32, uniforms: u32, n: u32) -> CsdJob {
        CsdJob {
            code,
            uniforms,
            workgroups: [n, 1, 1],
            workgroup_size: 16,
            single_segment: false,
        }
    }
}

/// One 16-lane batch and its payload.
pub(crate) struct Batch {
    index: u32,
    /// Its workgroup (in dispatch order).
    group: u32,
    uniforms: u32,
    single_segment: bool,
    /// Workgroup X | Y << 16 (Mesa nir_to_vir.c `load_workgroup_id`).
    payload0: u32,
    /// Per lane: workgroup Z in bits 15:0, the local invocation index in the top
    /// `local_invocation_index_bits` bits (Mesa nir_to_vir.c; py-videocore7
    /// tests/test_parallel.py reads them the same way).
    payload1: [u32; 16],
}

/// One QPU's share of a dispatch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct V3dQpuReport {
    /// The QPU.
    pub qpu: usize,
    /// Instructions executed.
    pub instructions: u64,
    /// Clock at which the QPU went idle.
    pub cycles: u64,
    /// Clocks spent waiting for the TMU: a load's data, `tmuwt`, or room in a full TMU
    /// queue (perfmon `QPU-stalls-TMU`).
    pub stall_cycles: u64,
    /// Clocks every thread of the QPU waited at a workgroup barrier.
    pub barrier_wait_cycles: u64,
    /// TMU load requests (an atomic, which reads and writes, counts here and as a store).
    pub tmu_loads: u64,
    /// TMU store requests (atomics included).
    pub tmu_stores: u64,
    /// Uniforms read.
    pub uniforms: u64,
    /// Batches (thread launches) run.
    pub batches: u64,
    /// The QPU's stalls in clock order, when [`V3dConfig::timeline`] asks for them: its
    /// threads' TMU waits, and the stretches every thread waited at a workgroup barrier
    /// ([`crate::vc4::StallCause::Barrier`], which add up to `barrier_wait_cycles`).
    pub timeline: Vec<crate::vc4::StallSpan>,
    /// What each thread slot did when, thread by thread in clock order, when
    /// [`V3dConfig::timeline`] asks for it. Outside its spans a slot had no batch.
    pub threads: Vec<ThreadSpan>,
    /// The QPU's TMU result words (all its threads') in the order they were read, when
    /// [`V3dConfig::timeline`] asks for them.
    pub tmu_lookups: Vec<crate::vc4::TmuLookup>,
}

/// What a QPU's thread was doing ([`ThreadSpan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThreadActivity {
    /// It had the QPU: issuing, or stalled waiting for the TMU (the QPU's
    /// [`V3dQpuReport::timeline`] says when).
    Running,
    /// Ready, while another thread of the QPU ran (from its launch or its last `thrsw`).
    SwitchedOut,
    /// Waiting at its workgroup's barrier for the workgroup's other batches.
    Barrier,
}

impl ThreadActivity {
    /// Its name in a profile (`running`, `switched out`, `barrier`).
    pub fn name(self) -> &'static str {
        match self {
            ThreadActivity::Running => "running",
            ThreadActivity::SwitchedOut => "switched out",
            ThreadActivity::Barrier => "barrier",
        }
    }
}

/// A thread slot of a QPU doing one thing from clock `start` to `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadSpan {
    /// The thread slot (0 to threads per QPU − 1).
    pub thread: usize,
    /// The first clock.
    pub start: u64,
    /// The clock after the last.
    pub end: u64,
    /// What it did.
    pub activity: ThreadActivity,
}

/// The timeline's record of the QPUs' thread slots while a dispatch runs: per QPU and
/// slot, what the slot is doing since when, and the index of its last span in the QPU's
/// report (to extend it rather than start a new one when it goes on doing the same).
struct ThreadLanes {
    open: Vec<Vec<Option<(ThreadActivity, u64)>>>,
    last: Vec<Vec<Option<usize>>>,
}

impl ThreadLanes {
    fn new(qpus: usize, threads: usize) -> ThreadLanes {
        ThreadLanes {
            open: vec![vec![None; threads]; qpus],
            last: vec![vec![None; threads]; qpus],
        }
    }

    /// Slot `slot` of QPU `qpu` does `next` (nothing: its batch ended) from `clock` on.
    fn mark(
        &mut self,
        reports: &mut [V3dQpuReport],
        qpu: usize,
        slot: usize,
        clock: u64,
        next: Option<ThreadActivity>,
    ) {
        let open = &mut self.open[qpu][slot];
        if let Some((activity, since)) = *open {
            if next == Some(activity) {
                return;
            }
            let clock = clock.max(since);
            let spans = &mut reports[qpu].threads;
            let last = &mut self.last[qpu][slot];
            match last.map(|i| &mut spans[i]) {
                Some(span) if span.activity == activity && span.end == since => span.end = clock,
                _ if clock > since => {
                    *last = Some(spans.len());
                    spans.push(ThreadSpan {
                        thread: slot,
                        start: since,
                        end: clock,
                        activity,
                    });
                }
                _ => {}
            }
            *open = next.map(|a| (a, clock));
        } else {
            *open = next.map(|a| (a, clock));
        }
    }

    /// What slot `slot` of QPU `qpu` is doing.
    fn doing(&self, qpu: usize, slot: usize) -> Option<ThreadActivity> {
        self.open[qpu][slot].map(|(a, _)| a)
    }
}

/// What a dispatch did.
#[derive(Clone, Debug, PartialEq)]
pub struct V3dRunReport {
    /// The version run.
    pub version: V3dVersion,
    /// Threads per QPU.
    pub threads: u8,
    /// Batches launched.
    pub batches: u64,
    /// Per QPU.
    pub qpus: Vec<V3dQpuReport>,
    /// Clock for the wall-time estimate.
    pub clock_mhz: f64,
    /// The TMUs', L2T's and memory's counts.
    pub memory: MemoryCounters,
    /// Clocks between two instructions of a QPU in the model.
    pub clocks_per_instruction: u64,
}

impl V3dRunReport {
    /// Instructions over all QPUs.
    pub fn instructions(&self) -> u64 {
        self.qpus.iter().map(|q| q.instructions).sum()
    }

    /// The dispatch's length in clocks: until the last QPU went idle and the last store
    /// reached memory (the cycle model, `v3d/timing.rs`).
    pub fn cycles(&self) -> u64 {
        self.qpus
            .iter()
            .map(|q| q.cycles)
            .max()
            .unwrap_or(0)
            .max(self.memory.last_store_done)
    }

    /// The modelled time at the board's clock, in seconds.
    pub fn seconds(&self) -> f64 {
        self.cycles() as f64 / (self.clock_mhz * 1e6)
    }

    /// The run in the Linux kernel's V3D performance-counter names
    /// (drivers/gpu/drm/v3d/v3d_perfmon.c), so that a reading taken on a Pi compares one
    /// to one. Each counter's meaning in the model:
    /// * `cycle-count`, `compute-active-cycles`: the dispatch's length ([`Self::cycles`]).
    /// * `QPU-active`: instructions executed, over all QPUs.
    /// * `QPU-stalls`, `QPU-stalls-TMU`: clocks QPUs waited on the TMU (the model's only
    ///   stall: an SFU result read early, which would stall on hardware, is an error under
    ///   the strict rules, so `QPU-stalls-SFU` is 0 for every program they accept;
    ///   uniforms are not modelled as stalling, `QPU-stalls-uniforms` is 0).
    /// * `QPU-wait-bubble`: clocks QPUs had every thread waiting at a workgroup barrier,
    ///   over all QPUs (a QPU done before the others is idle, not in a bubble; a thread
    ///   waiting for its TMU data stalls, counted above).
    /// * `TMU-active-cycles`: clocks the slices' TMUs were busy, summed over slices.
    /// * `L2T-TMU-read-hits`, `L2T-TMU-read-miss`: 64-byte lines TMU reads found in the L2T
    ///   or fetched from memory; `L2T-memory-writes`: lines written.
    pub fn perfmon(&self) -> Vec<(&'static str, u64)> {
        let cycles = self.cycles();
        let tmu: u64 = self.qpus.iter().map(|q| q.stall_cycles).sum();
        let bubble: u64 = self.qpus.iter().map(|q| q.barrier_wait_cycles).sum();
        vec![
            ("cycle-count", cycles),
            ("compute-active-cycles", cycles),
            ("QPU-active", self.instructions()),
            ("QPU-stalls", tmu),
            ("QPU-stalls-TMU", tmu),
            ("QPU-stalls-uniforms", 0),
            ("QPU-stalls-SFU", 0),
            ("QPU-wait-bubble", bubble),
            ("TMU-active-cycles", self.memory.tmu_active_cycles),
            ("L2T-TMU-read-hits", self.memory.l2t_read_hits),
            ("L2T-TMU-read-miss", self.memory.l2t_read_misses),
            ("L2T-memory-writes", self.memory.memory_line_writes),
        ]
    }
}

impl fmt::Display for V3dRunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.version {
            V3dVersion::V42 => "V3D 4.2 (vc6)",
            V3dVersion::V71 => "V3D 7.1 (vc7)",
        };
        writeln!(
            f,
            "{name}: {} batches on {} QPUs x {} thread(s), {} instructions",
            self.batches,
            self.qpus.len(),
            self.threads,
            self.instructions()
        )?;
        writeln!(
            f,
            "cycles (calibrated model, v3d/timing.rs): {} = {:.1} us at {} MHz",
            self.cycles(),
            self.cycles() as f64 / self.clock_mhz,
            self.clock_mhz
        )?;
        let perfmon: Vec<String> = self
            .perfmon()
            .iter()
            .map(|(name, value)| format!("{name} {value}"))
            .collect();
        writeln!(f, "perfmon counters: {}", perfmon.join(", "))?;
        for q in &self.qpus {
            writeln!(
                f,
                "  QPU {:>2}: {:>9} instr, {:>9} cycles ({} TMU stall), {} loads, {} stores, {} uniforms, {} batches",
                q.qpu, q.instructions, q.cycles, q.stall_cycles, q.tmu_loads, q.tmu_stores, q.uniforms, q.batches
            )?;
        }
        Ok(())
    }
}

/// A V3D with its memory.
pub struct V3dEmulator {
    config: V3dConfig,
    memory: Memory,
}

impl V3dEmulator {
    /// A machine of `config`'s shape with empty memory.
    pub fn new(config: V3dConfig) -> Result<V3dEmulator, EmuError> {
        let max = V3dConfig::max_qpus(config.version);
        if !(1..=max).contains(&config.qpus) {
            return Err(EmuError::Config(format!(
                "{} QPUs requested; this V3D version has 1 to {max}",
                config.qpus
            )));
        }
        if ![1, 2, 4].contains(&config.threads) {
            return Err(EmuError::Config(format!(
                "{} threads per QPU; the V3D runs 1, 2 or 4",
                config.threads
            )));
        }
        if !(config.clock_mhz.is_finite() && config.clock_mhz > 0.0) {
            return Err(EmuError::Config(format!(
                "clock of {} MHz; it must be positive",
                config.clock_mhz
            )));
        }
        Ok(V3dEmulator {
            config,
            memory: Memory::new(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &V3dConfig {
        &self.config
    }

    /// Memory, to read results.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Memory, to allocate and fill buffers.
    pub fn memory_mut(&mut self) -> &mut Memory {
        &mut self.memory
    }

    /// Copies machine words into a new allocation; returns its address.
    pub fn load_program(&mut self, words: &[u64]) -> Result<u32, EmuError> {
        if words.is_empty() {
            return Err(EmuError::Launch("the program has no instructions".into()));
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.load_bytes(&bytes, 64)
    }

    /// Encodes instructions for this version into a new allocation.
    pub fn load_instructions(&mut self, program: &[Instruction]) -> Result<u32, EmuError> {
        let words = program
            .iter()
            .map(|i| i.encode(self.config.version))
            .collect::<Result<Vec<u64>, _>>()
            .map_err(|e| EmuError::Launch(format!("cannot encode the program: {e}")))?;
        self.load_program(&words)
    }

    /// Copies uniforms into a new allocation; returns its address.
    pub fn load_uniforms(&mut self, values: &[u32]) -> Result<u32, EmuError> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let addr = self.load_bytes(&bytes, 16)?;
        // An empty stream starts past its allocation: its first read is an error.
        Ok(if values.is_empty() { addr + 4 } else { addr })
    }

    fn load_bytes(&mut self, bytes: &[u8], align: u32) -> Result<u32, EmuError> {
        let len = u32::try_from(bytes.len().max(4))
            .map_err(|_| EmuError::Launch(format!("{} bytes do not fit", bytes.len())))?;
        let addr = self.memory.alloc(len, align)?;
        self.memory.write_bytes(addr, bytes)?;
        Ok(addr)
    }

    /// Runs a compute dispatch to completion: batches go to free QPU threads in order, each
    /// QPU issues one instruction of its current thread per step (QPUs in turn, so runs are
    /// deterministic), a `thrsw` passes the QPU to its next thread.
    pub fn dispatch(&mut self, job: &CsdJob) -> Result<V3dRunReport, EmuError> {
        let memory = &mut self.memory;
        run_dispatch(&self.config, memory, job)
    }

    /// Runs a compute dispatch like [`Self::dispatch`] with the caller's words lent to memory
    /// for the run, at their bus addresses: the QPUs load from and store into them in place,
    /// and nothing is copied in or out (a store into words lent read-only is a memory fault).
    /// What the dispatch stored stays in the words also when it fails. The lent ranges must
    /// not overlap each other or the machine's own allocations.
    ///
    /// ```
    /// use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator};
    /// use qpu_emu::Lent;
    /// use qpu_isa::v3d::{self, V3dVersion};
    ///
    /// // out[lane] = uniform + lane, stored straight into the caller's array.
    /// let program = v3d::assemble(V3dVersion::V42, "
    ///     eidx r0 ; nop ; ldunif
    ///     add r1, r0, r5 ; nop ; ldunif
    ///     shl r0, r0, 2 ; nop
    ///     add r0, r0, r5 ; nop
    ///     or tmud, r1, r1 ; nop
    ///     or tmua, r0, r0 ; nop
    ///     tmuwt ; nop
    ///     nop ; nop ; thrsw
    ///     nop ; nop ; thrsw
    ///     nop ; nop
    ///     nop ; nop
    ///     nop ; nop ; thrsw
    ///     nop ; nop
    ///     nop ; nop
    /// ")?;
    /// let mut emu = V3dEmulator::new(V3dConfig::new(V3dVersion::V42))?;
    /// let code = emu.load_instructions(&program)?;
    /// let uniforms = emu.load_uniforms(&[100, 0xC000_0000])?;
    /// let mut out = [0u32; 16];
    /// emu.dispatch_lending(
    ///     &CsdJob::per_qpu(code, uniforms, 1),
    ///     vec![Lent::ReadWrite(0xC000_0000, &mut out)],
    /// )?;
    /// assert_eq!(out.to_vec(), (100..116).collect::<Vec<u32>>());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dispatch_lending(
        &mut self,
        job: &CsdJob,
        lent: Vec<Lent<'_>>,
    ) -> Result<V3dRunReport, EmuError> {
        // The owned memory, the lent words added for this dispatch only (moving it copies no
        // allocation), as the VideoCore IV emulator's `run_lending` does.
        let mut memory: LendingMemory<'_> = std::mem::take(&mut self.memory);
        let mapped = lent.into_iter().try_for_each(|range| match range {
            Lent::ReadOnly(addr, words) => memory.lend(addr, words),
            Lent::ReadWrite(addr, words) => memory.lend_mut(addr, words),
        });
        let result = match mapped {
            Ok(()) => run_dispatch(&self.config, &mut memory, job),
            Err(error) => Err(error.into()),
        };
        self.memory = memory.into_owned();
        result
    }
}

/// A dispatch of `job` on a machine of `config`'s shape with `memory`.
fn run_dispatch(
    config: &V3dConfig,
    memory: &mut LendingMemory<'_>,
    job: &CsdJob,
) -> Result<V3dRunReport, EmuError> {
    let mut queue = batches(job)?;
    // Batches per workgroup, and how many of each workgroup wait at its barrier.
    let per_group = (job.workgroup_size / 16) as usize;
    let mut arrived: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    let config = config.clone();
    let threads = usize::from(config.threads);
    let mut slots: Vec<Vec<Option<machine::Thread>>> = (0..config.qpus)
        .map(|_| (0..threads).map(|_| None).collect())
        .collect();
    let mut reports: Vec<V3dQpuReport> = (0..config.qpus)
        .map(|qpu| V3dQpuReport {
            qpu,
            ..V3dQpuReport::default()
        })
        .collect();
    let mut launched = 0u64;
    let tmu_writes = machine::TmuWrites::default();
    let timing: machine::SharedMemorySystem = std::rc::Rc::new(std::cell::RefCell::new(
        timing::MemorySystem::new(config.version, config.qpus),
    ));
    let new_thread = |qpu: usize, slot: usize, b: &Batch| {
        machine::Thread::new(
            &config,
            qpu,
            slot,
            b,
            job.code,
            tmu_writes.clone(),
            timing.clone(),
        )
    };
    // The first batches go one to each QPU before any QPU gets a second: py-videocore6's
    // tests/test_parallel.py (Pi 4) notes that with fewer batches than thread slots the
    // thread ids (tidx & 0b111110) >> 1 "could be discontiguous", which they are only if
    // each QPU's first slot fills first, and its examples/summation.py and py-videocore7's
    // tests/test_parallel.py give each of 8 (Pi 4) or 12 (Pi 5) batches its own QPU.
    // What each thread slot does when, only for a timeline.
    let mut lanes = config
        .timeline
        .then(|| ThreadLanes::new(config.qpus, threads));
    for slot in 0..threads {
        for (qpu, row) in slots.iter_mut().enumerate() {
            row[slot] = queue.next().map(|b| {
                launched += 1;
                new_thread(qpu, slot, &b)
            });
            if let (Some(lanes), Some(_)) = (lanes.as_mut(), &row[slot]) {
                lanes.mark(
                    &mut reports,
                    qpu,
                    slot,
                    0,
                    Some(ThreadActivity::SwitchedOut),
                );
            }
        }
    }
    let mut code = machine::DecodedCode::new(job.code);
    let mut current = vec![0usize; config.qpus];
    // The slot whose thread issued each QPU's last instruction.
    let mut last_slot: Vec<Option<usize>> = vec![None; config.qpus];
    let mut clocks = vec![0u64; config.qpus];
    // Clocks each QPU spent with every thread waiting at a barrier.
    let mut barrier_waits = vec![0u64; config.qpus];
    let mut executed = 0u64;
    let runnable = |row: &[Option<machine::Thread>]| {
        row.iter().any(|t| t.as_ref().is_some_and(|t| !t.waiting))
    };
    loop {
        // The QPU whose clock is earliest runs next (ties: the lowest number), until its
        // clock passes the next one's: requests reach the shared TMUs, L2T and memory in
        // time order ([`timing`]).
        let mut first: Option<usize> = None;
        let mut next_clock = u64::MAX;
        for qpu in 0..config.qpus {
            if !runnable(&slots[qpu]) {
                continue;
            }
            match first {
                Some(f) if clocks[qpu] >= clocks[f] => next_clock = next_clock.min(clocks[qpu]),
                Some(f) => {
                    next_clock = next_clock.min(clocks[f]);
                    first = Some(qpu);
                }
                None => first = Some(qpu),
            }
        }
        let Some(qpu) = first else {
            // Threads still waiting at a barrier that no batch can reach any more.
            if let Some((qpu, t)) = slots
                .iter()
                .enumerate()
                .flat_map(|(q, row)| row.iter().flatten().map(move |t| (q, t)))
                .find(|(_, t)| t.waiting)
            {
                return Err(EmuError::V3dFault {
                    qpu,
                    thread: t.slot,
                    batch: t.batch,
                    pc: t.pc,
                    instruction: "(waiting at the workgroup barrier)".to_string(),
                    fault: V3dRule::BarrierNeverCompletes {
                        arrived: arrived.get(&t.group).copied().unwrap_or(0) as u32,
                        batches: per_group as u32,
                    }
                    .into(),
                });
            }
            break;
        };
        while clocks[qpu] <= next_clock {
            let row = &mut slots[qpu];
            let Some(start) = (0..threads)
                .map(|k| (current[qpu] + k) % threads)
                .find(|&s| row[s].as_ref().is_some_and(|t| !t.waiting))
            else {
                break;
            };
            current[qpu] = start;
            let thread = row[start].as_mut().expect("live slot");
            if thread.switched_at.is_some() {
                thread.resumed(last_slot[qpu] != Some(start));
            }
            last_slot[qpu] = Some(start);
            if let Some(lanes) = lanes.as_mut() {
                if lanes.doing(qpu, start) != Some(ThreadActivity::Running) {
                    let running = Some(ThreadActivity::Running);
                    lanes.mark(&mut reports, qpu, start, clocks[qpu], running);
                }
            }
            let pc = thread.pc;
            let step = thread
                .step(memory, &mut clocks[qpu], &mut code)
                .map_err(|fault| {
                    let instruction = memory
                        .read_bytes(pc, 8)
                        .ok()
                        .and_then(|b| b.try_into().ok())
                        .map(u64::from_le_bytes)
                        .map(|w| {
                            qpu_isa::v3d::disasm::words(config.version, &[w])
                                .trim_end()
                                .to_string()
                        })
                        .unwrap_or_else(|| "(no instruction)".to_string());
                    EmuError::V3dFault {
                        qpu,
                        thread: start,
                        batch: thread.batch,
                        pc,
                        instruction,
                        fault,
                    }
                })?;
            executed += 1;
            if executed > config.max_instructions {
                return Err(EmuError::Budget {
                    what: "instruction",
                    limit: config.max_instructions,
                    qpu,
                    pc,
                });
            }
            match step {
                machine::Step::Continue => {}
                machine::Step::Switch => {
                    if let Some(lanes) = lanes.as_mut() {
                        let out = Some(ThreadActivity::SwitchedOut);
                        lanes.mark(&mut reports, qpu, start, clocks[qpu], out);
                    }
                    current[qpu] = (start + 1) % threads
                }
                machine::Step::Barrier => {
                    let group = thread.group;
                    let count = arrived.entry(group).or_insert(0);
                    *count += 1;
                    let last = *count == per_group;
                    if let Some(lanes) = lanes.as_mut() {
                        let next = if last {
                            ThreadActivity::SwitchedOut
                        } else {
                            ThreadActivity::Barrier
                        };
                        lanes.mark(&mut reports, qpu, start, clocks[qpu], Some(next));
                    }
                    if last {
                        // The last batch of the workgroup arrived: all go on, a QPU that had
                        // nothing else to run from now.
                        arrived.remove(&group);
                        let now = clocks[qpu];
                        for (q, row) in slots.iter_mut().enumerate() {
                            let idle = !runnable(row);
                            let mut released = false;
                            for t in row.iter_mut().flatten() {
                                if t.group == group && t.waiting {
                                    t.waiting = false;
                                    released = true;
                                    if let Some(lanes) = lanes.as_mut() {
                                        let ready = Some(ThreadActivity::SwitchedOut);
                                        lanes.mark(&mut reports, q, t.slot, now, ready);
                                    }
                                }
                            }
                            if idle && released && clocks[q] < now {
                                if lanes.is_some() {
                                    reports[q].timeline.push(crate::vc4::StallSpan {
                                        start: clocks[q],
                                        clocks: now - clocks[q],
                                        cause: crate::vc4::StallCause::Barrier,
                                    });
                                }
                                barrier_waits[q] += now - clocks[q];
                                clocks[q] = now;
                            }
                        }
                    } else {
                        slots[qpu][start].as_mut().expect("live slot").waiting = true;
                    }
                    current[qpu] = (start + 1) % threads;
                    break;
                }
                machine::Step::End => {
                    let done = row[start].take().expect("live slot");
                    let r = &mut reports[qpu];
                    r.instructions += done.report.instructions;
                    r.stall_cycles += done.report.stall_cycles;
                    r.tmu_loads += done.report.tmu_loads;
                    r.tmu_stores += done.report.tmu_stores;
                    r.uniforms += done.report.uniforms;
                    r.timeline.extend(done.report.timeline);
                    r.tmu_lookups.extend(done.report.tmu_lookups);
                    r.batches += 1;
                    if let Some(lanes) = lanes.as_mut() {
                        lanes.mark(&mut reports, qpu, start, clocks[qpu], None);
                    }
                    if let Some(b) = queue.next() {
                        launched += 1;
                        row[start] = Some(new_thread(qpu, start, &b));
                        if let Some(lanes) = lanes.as_mut() {
                            let ready = Some(ThreadActivity::SwitchedOut);
                            lanes.mark(&mut reports, qpu, start, clocks[qpu], ready);
                        }
                    }
                    current[qpu] = (start + 1) % threads;
                }
            }
        }
    }
    for ((r, c), w) in reports.iter_mut().zip(&clocks).zip(&barrier_waits) {
        r.cycles = *c;
        r.barrier_wait_cycles = *w;
        r.timeline.sort_by_key(|s| s.start);
        r.threads.sort_by_key(|s| (s.thread, s.start));
        r.tmu_lookups.sort_by_key(|l| (l.read, l.issued));
    }
    let (memory_counters, clocks_per_instruction) = {
        let m = timing.borrow();
        (m.counters, m.board().clocks_per_instruction)
    };
    Ok(V3dRunReport {
        version: config.version,
        threads: config.threads,
        batches: launched,
        qpus: reports,
        clock_mhz: config.clock_mhz,
        memory: memory_counters,
        clocks_per_instruction,
    })
}

/// The batches of `job`, in dispatch order.
fn batches(job: &CsdJob) -> Result<impl Iterator<Item = Batch>, EmuError> {
    let [x, y, z] = job.workgroups;
    if [x, y, z].iter().any(|&n| !(1..=65535).contains(&n)) {
        return Err(EmuError::Launch(format!(
            "workgroup counts {x}x{y}x{z}; each must be 1 to 65535"
        )));
    }
    let size = job.workgroup_size;
    if size == 0 || size > 256 || !size.is_multiple_of(16) {
        return Err(EmuError::Launch(format!(
            "workgroup size {size}; the emulator runs multiples of 16 up to 256 (whole \
                 batches)"
        )));
    }
    if !job.code.is_multiple_of(8) {
        return Err(EmuError::Launch(format!(
            "code address {:#010x} is not 8-byte aligned",
            job.code
        )));
    }
    let per_group = size / 16;
    let total = u64::from(x) * u64::from(y) * u64::from(z) * u64::from(per_group);
    if total > u64::from(u32::MAX) {
        return Err(EmuError::Launch(format!(
            "{total} batches is too many to emulate"
        )));
    }
    // Mesa nir_to_vir.c: local_invocation_index_bits = ffs(next_pow2(max(size, 64))) - 1.
    let bits = size.max(64).next_power_of_two().trailing_zeros();
    let (uniforms, single_segment) = (job.uniforms, job.single_segment);
    // Batches in order: X fastest, then Y, then Z; a workgroup's batches together.
    Ok((0..total as u32).map(move |index| {
        let (group, k) = (index / per_group, index % per_group);
        let (wx, wy, wz) = (group % x, (group / x) % y, group / (x * y));
        Batch {
            index,
            group,
            uniforms,
            single_segment,
            payload0: wx | wy << 16,
            payload1: std::array::from_fn(|lane| {
                (wz & 0xffff) | ((k * 16 + lane as u32) << (32 - bits))
            }),
        }
    }))
}

#[cfg(test)]
mod pi_programs;
#[cfg(test)]
mod tests;
