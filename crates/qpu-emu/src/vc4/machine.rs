//! The machine: QPU state, instruction execution, the shared units, and the scheduler that
//! runs 1–12 QPUs in one deterministic global clock order.
//!
//! Scheduling: every QPU has its own clock. The QPU with the lowest (clock, number) runs;
//! it keeps running through instructions that touch only its own state, and stops before an
//! instruction that touches shared state (memory reads and writes, VPM data, DMA, TMU,
//! semaphores, mutex) unless it is still the earliest QPU. Shared effects therefore happen
//! in global clock order, ties broken by QPU number, so every run of the same program on
//! the same inputs gives the same results and the same cycle counts.

use std::collections::{HashMap, VecDeque};

use qpu_isa::vc4::{
    AddOp, BranchCond, Cond, Instruction, MulOp, Pack, PackA, RegFile, Signal, Unpack,
};

use crate::error::{EmuError, Fault, Rule, RuleSource};
use crate::memory::{LendingMemory, MemoryError};
use crate::vc4::alu::{self, Flags, Lanes};
use crate::vc4::config::{BranchRegisterLane, EarlyVpmRead, EmulatorConfig, FlagsRule};
use crate::vc4::decode::{
    disassemble, rows, BranchInfo, Decoded, Dest, Direct, Kind, Path, Read, Rotate, Step,
};
use crate::vc4::report::{QpuReport, RunReport};
use crate::vc4::rules::latency;
use crate::vc4::tmu::{L2Cache, TmuUnit};
use crate::vc4::vpm::{ReadSetupWord, UndefinedOrigin, VpmError, VpmMemory, VpmPort};

/// log2 of the bytes of code one cache page covers (4 KiB = 512 instructions).
const PAGE_SHIFT: u32 = 12;
const PAGE_SLOTS: usize = 1 << (PAGE_SHIFT - 3);
/// The bits of a PC that select its page, plus the three that must be zero: a PC matches a
/// QPU's cached page key only if it lies in that page and is 8-byte aligned.
const PAGE_KEY_MASK: u32 = !(((PAGE_SLOTS as u32) - 1) << 3);

/// One page of predecoded instructions; slots not executed yet hold [`Decoded::empty`].
type Page = Box<[Decoded; PAGE_SLOTS]>;

const ELEMENT_NUMBERS: Lanes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// Instructions after an SFU write during which r4 must not be read or written.
const SFU_SHADOW: u64 = latency::SFU as u64 - 1;
/// Instructions after a uniforms-address write during which no uniform may be read.
const UNIFORMS_SHADOW: u64 = latency::UNIFORMS_ADDRESS as u64 - 1;

/// A lane mask with every lane set.
const ALL_LANES: u16 = 0xffff;

/// Predecoded instructions by bus address, filled on first execution. Code is read from
/// memory once per run: like the hardware's instruction cache (which is not coherent with
/// VDW writes), a program that DMAs over its own code does not see the change.
#[derive(Default)]
pub(crate) struct CodeCache {
    index: HashMap<u32, usize>,
    pages: Vec<Page>,
    /// (page, slot) of every decoded instruction, so clearing resets just those slots.
    filled: Vec<(usize, usize)>,
    /// Emptied pages from earlier runs, reused before new ones are allocated (a page is a
    /// few dozen kilobytes; making one costs more than a short run).
    spare: Vec<Page>,
    /// Tests: decode every instruction for the general path, to compare the fast paths
    /// against it.
    #[cfg(test)]
    pub(crate) force_general: bool,
    /// Tests: start `run_plain` wherever a plain instruction is next, whatever the
    /// `plain_run` hint says (the hint never changes results), so that tests reach it in
    /// more states.
    #[cfg(test)]
    pub(crate) always_plain: bool,
}

impl CodeCache {
    pub fn clear(&mut self) {
        if !self.filled.is_empty() {
            let empty = Decoded::empty();
            for (page, slot) in self.filled.drain(..) {
                self.pages[page][slot] = empty.clone();
            }
        }
        self.index.clear();
        self.spare.append(&mut self.pages);
    }

    /// The page holding the (aligned) `pc`, created empty on first use.
    fn page(&mut self, pc: u32) -> Result<usize, Fault> {
        if !pc.is_multiple_of(8) {
            return Err(Fault::Memory(crate::memory::MemoryError::Unaligned {
                addr: pc,
                align: 8,
            }));
        }
        let key = pc >> PAGE_SHIFT;
        if let Some(&page) = self.index.get(&key) {
            return Ok(page);
        }
        let page = match self.spare.pop() {
            Some(page) => page,
            None => {
                let slots: Box<[Decoded]> = vec![Decoded::empty(); PAGE_SLOTS].into_boxed_slice();
                let Ok(page) = Page::try_from(slots) else {
                    unreachable!("the vector has PAGE_SLOTS elements");
                };
                page
            }
        };
        self.pages.push(page);
        self.index.insert(key, self.pages.len() - 1);
        Ok(self.pages.len() - 1)
    }

    /// Reads and decodes the word at `pc` into its slot of `page`.
    fn decode(&mut self, page: usize, pc: u32, mem: &LendingMemory<'_>) -> Result<(), Fault> {
        let bytes = mem.read_bytes(pc, 8).map_err(Fault::PastCode)?;
        let mut word = [0u8; 8];
        word.copy_from_slice(bytes);
        let instr = Instruction::decode(u64::from_le_bytes(word)).map_err(Fault::Decode)?;
        let decoded = Decoded::new(instr);
        #[cfg(test)]
        let decoded = if self.force_general {
            Decoded {
                path: Path::General,
                step: crate::vc4::decode::Step::Stop,
                blockable: false,
                ..decoded
            }
        } else {
            decoded
        };
        self.pages[page][slot_of(pc)] = decoded;
        self.filled.push((page, slot_of(pc)));
        // A block that ended at this word may grow now (see `block_len`).
        for d in self.pages[page].iter() {
            d.block.set(0);
        }
        Ok(())
    }
}

/// A PC's slot in its page.
#[inline(always)]
fn slot_of(pc: u32) -> usize {
    (pc as usize >> 3) & (PAGE_SLOTS - 1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Running,
    Blocked,
    Done,
}

pub use super::report::{DmaJob, StallCause, StallSpan, TmuLookup};

/// The destination rows and lanes of an instruction's conditional writes (add, mul; the
/// sink row for an unconditional or absent side), and which instruction made them.
#[derive(Clone, Copy, Debug, Default)]
struct CondWrites {
    icount: u64,
    rows: [u8; 2],
    lanes: [u16; 2],
}

struct TmuResult {
    values: Lanes,
    ready_at: u64,
    /// Lanes whose address was outside every allocation: their value is undefined.
    poison: u16,
    /// Where the lookup was made, when `poison` is not empty: (PC, description, first
    /// address outside memory). Boxed: it is rare, and the FIFO entry stays small.
    origin: Option<Box<(u32, String, u32)>>,
}

/// One QPU.
pub(crate) struct Qpu {
    id: usize,
    /// Register files A and B, the accumulators and the constant operands, one row each
    /// (layout in [`rows`]).
    file: Box<alu::Table>,
    flags: Flags,
    /// Scratch for the add and mul results and carries of the instruction executing.
    results: [Lanes; 2],
    carries: [Lanes; 2],
    pc: u32,
    uniform_ptr: u32,
    /// The memory allocation the last uniform came from (a hint: tried first).
    uniform_allocation: usize,
    /// Uniforms read since the stream started (or its address was last written).
    uniforms_since_reset: u64,
    /// Clock at which the next instruction may issue.
    time: u64,
    state: State,
    blocked_on: StallCause,
    /// Cached code page for the fast fetch path: `pc & PAGE_KEY_MASK` of its PCs.
    page_key: u32,
    page: usize,

    /// Branch delay slots still to execute (3, 2, 1 after a branch).
    branch_slots: u8,
    branch_target: Option<u32>,
    /// Thread-end delay slots still to execute (2, 1 after the thread end).
    end_slots: u8,
    ending: bool,

    // Hazard history.
    /// Instructions executed (also the report's count).
    icount: u64,
    prev_phys_writes: u64,
    prev_acc_writes: u8,
    last_sfu: Option<u64>,
    last_uniforms_address: Option<u64>,
    last_noswap: Option<u64>,
    r4_loaded: bool,

    // Undefined values (poison), tracked only with hazard checks on.
    /// Per value-table row, the lanes (bit i = lane i) whose value is undefined.
    poison: Box<[u16; rows::COUNT]>,
    /// Lanes whose flags are undefined.
    flag_poison: u16,
    /// Some register or flag lane is undefined: every instruction then takes the general
    /// path, which tracks them.
    poisoned: bool,
    /// Where the latest undefined value was made (for the error that reports its use).
    poison_origin: String,
    /// The PC of the instruction that made it.
    poison_origin_pc: Option<u32>,
    /// The first address outside memory it was read from, if so made.
    poison_origin_address: Option<u32>,
    /// The undefined lanes of the vector this instruction writes to the VPM.
    vpm_write_undefined: u16,
    /// Per file, the row whose lanes 12–15 are the read latch (what reading address 39
    /// gives); a write to that row first copies the latch out.
    /// (file A's row in the low byte, file B's in the high byte).
    latch: u16,
    /// The lanes the last conditional write reached, for a rotation right after it.
    cond_writes: CondWrites,

    // Units private to the QPU.
    noswap: bool,
    tmu_fifo: [VecDeque<TmuResult>; 2],
    /// The clocks the results in `tmu_fifo` were requested, kept only for a timeline.
    tmu_issued: [VecDeque<u64>; 2],
    vpm_port: VpmPort,
    vpm_read_ready_at: u64,
    vdr_done_at: u64,
    vdw_done_at: u64,

    /// Record stalls in `report.timeline` ([`EmulatorConfig::timeline`]).
    timeline: bool,
    report: QpuReport,
}

impl Qpu {
    fn new(id: usize, uniforms: u32, code: u32, start: u64) -> Qpu {
        Qpu {
            id,
            file: {
                let mut file = Box::new([[0; 16]; rows::COUNT]);
                file[rows::ELEMENT] = ELEMENT_NUMBERS;
                file[rows::QPU] = [id as u32; 16];
                for code in 0..64u8 {
                    let imm = qpu_isa::vc4::SmallImm::new(code).expect("6-bit code");
                    file[rows::IMM + usize::from(code)] = [imm.operand_bits(); 16];
                }
                file
            },
            flags: Flags::default(),
            results: [[0; 16]; 2],
            carries: [[0; 16]; 2],
            pc: code,
            uniform_ptr: uniforms,
            uniform_allocation: 0,
            uniforms_since_reset: 0,
            time: start,
            state: State::Running,
            blocked_on: StallCause::Semaphore,
            page_key: u32::MAX,
            page: 0,
            branch_slots: 0,
            branch_target: None,
            end_slots: 0,
            ending: false,
            icount: 0,
            prev_phys_writes: 0,
            prev_acc_writes: 0,
            last_sfu: None,
            last_uniforms_address: None,
            last_noswap: None,
            r4_loaded: false,
            poison: {
                let mut poison = Box::new([0; rows::COUNT]);
                poison[rows::UNDEFINED] = ALL_LANES;
                poison
            },
            flag_poison: 0,
            poisoned: false,
            poison_origin: String::new(),
            poison_origin_pc: None,
            poison_origin_address: None,
            vpm_write_undefined: 0,
            latch: (rows::UNDEFINED as u16) * 0x0101,
            cond_writes: CondWrites::default(),
            noswap: false,
            tmu_fifo: [VecDeque::new(), VecDeque::new()],
            tmu_issued: [VecDeque::new(), VecDeque::new()],
            vpm_port: VpmPort::new(),
            vpm_read_ready_at: 0,
            vdr_done_at: 0,
            vdw_done_at: 0,
            timeline: false,
            report: QpuReport {
                qpu: id,
                start,
                ..QpuReport::default()
            },
        }
    }

    fn add_stall(&mut self, cause: StallCause, clocks: u64) {
        if self.timeline && clocks > 0 {
            self.report.timeline.push(StallSpan {
                start: self.time,
                clocks,
                cause,
            });
        }
        let s = &mut self.report.stalls;
        match cause {
            StallCause::Tmu => s.tmu += clocks,
            StallCause::Vpm => s.vpm += clocks,
            StallCause::Dma => s.dma += clocks,
            StallCause::Semaphore => s.semaphore += clocks,
            StallCause::Mutex => s.mutex += clocks,
            // Only the V3D emulator has workgroup barriers.
            StallCause::Barrier => {}
        }
    }
}

/// State shared by all QPUs, other than memory and the VPM.
pub(crate) struct Units {
    semaphores: [u8; 16],
    semaphore_waiters: [Vec<usize>; 16],
    mutex_owner: Option<usize>,
    mutex_waiters: Vec<usize>,
    /// QPUs to wake: (QPU, clock, what they waited for).
    wakes: Vec<(usize, u64, StallCause)>,
    /// Global DMA engines: the clock at which each can take the next job.
    vdr_free_at: u64,
    vdw_free_at: u64,
    /// TMUs, two per slice: index slice * 2 + TMU.
    tmus: Vec<TmuUnit>,
    l2c: L2Cache,
}

struct Ctx<'a, 'm> {
    mem: &'a mut LendingMemory<'m>,
    vpm: &'a mut VpmMemory,
    units: &'a mut Units,
    config: &'a EmulatorConfig,
}

/// Runs one launch to completion.
pub(crate) fn run(
    config: &EmulatorConfig,
    mem: &mut LendingMemory<'_>,
    vpm: &mut VpmMemory,
    code: &mut CodeCache,
    launches: &[(u32, u32)],
) -> Result<RunReport, EmuError> {
    let timing = &config.timing;
    let slices = config.qpus.div_ceil(4);
    let mut units = Units {
        semaphores: [0; 16],
        semaphore_waiters: Default::default(),
        mutex_owner: None,
        mutex_waiters: Vec::new(),
        wakes: Vec::new(),
        vdr_free_at: 0,
        vdw_free_at: 0,
        tmus: (0..slices * 2).map(|_| TmuUnit::new(timing)).collect(),
        l2c: L2Cache::new(timing),
    };
    // Program i runs on QPU i: which free QPU takes the next user program is not
    // documented (the guide's scheduler registers, pp. 88-90), so the lowest-numbered one
    // is assumed.
    let mut qpus: Vec<Qpu> = launches
        .iter()
        .enumerate()
        .map(|(id, &(uniforms, code))| {
            let mut q = Qpu::new(id, uniforms, code, timing.program_start_latency);
            q.timeline = config.timeline;
            q
        })
        .collect();
    code.clear();
    let result = run_qpus(config, mem, vpm, code, &mut qpus, &mut units);
    #[cfg(test)]
    path_tests::record(&qpus);
    result?;
    let mut end = 0;
    for q in &qpus {
        end = end.max(q.time).max(q.vdr_done_at).max(q.vdw_done_at);
    }
    let reports = qpus
        .into_iter()
        .map(|q| {
            let mut r = q.report;
            r.instructions = q.icount;
            r.cycles = q.time;
            r
        })
        .collect();
    Ok(RunReport::new(reports, end, config.clock_mhz))
}

/// Runs the QPUs until every one has ended (or an error).
fn run_qpus(
    config: &EmulatorConfig,
    mem: &mut LendingMemory<'_>,
    vpm: &mut VpmMemory,
    code: &mut CodeCache,
    qpus: &mut [Qpu],
    units: &mut Units,
) -> Result<(), EmuError> {
    let mut executed: u64 = 0;
    // The running QPUs in (clock, number) order. Only the QPU that just ran changes its clock
    // (later) or state, and woken QPUs join: each moves to its place instead of a search of
    // every QPU per run (12-QPU programs switch QPUs every few instructions).
    let key = |qpus: &[Qpu], i: usize| (qpus[i].time, i);
    let mut order = running_order(qpus);
    loop {
        debug_assert_eq!(
            order,
            running_order(qpus),
            "the kept order is the searched one"
        );
        // The running QPU with the lowest (clock, number), and the next lowest.
        let Some(&qi) = order.first() else {
            if qpus.iter().all(|q| q.state == State::Done) {
                return Ok(());
            }
            return Err(deadlock(qpus, units));
        };
        debug_assert_eq!(qpus[qi].id, qi);
        let second = order
            .get(1)
            .map_or((u64::MAX, usize::MAX), |&i| key(qpus, i));
        let mut ctx = Ctx {
            mem: &mut *mem,
            vpm: &mut *vpm,
            units: &mut *units,
            config,
        };
        run_qpu(&mut qpus[qi], second, code, &mut ctx, &mut executed)?;
        if qpus[qi].state == State::Running {
            // Later now: move it up past every QPU now ahead of it.
            let own = key(qpus, qi);
            let mut at = 0;
            while at + 1 < order.len() && key(qpus, order[at + 1]) < own {
                order[at] = order[at + 1];
                at += 1;
            }
            order[at] = qi;
        } else {
            order.remove(0);
        }
        for (w, at, cause) in units.wakes.drain(..) {
            let q = &mut qpus[w];
            if q.state == State::Blocked {
                q.state = State::Running;
                if at > q.time {
                    q.add_stall(cause, at - q.time);
                    q.time = at;
                }
                let own = key(qpus, w);
                let place = order.partition_point(|&i| key(qpus, i) < own);
                order.insert(place, w);
            }
        }
    }
}

/// The running QPUs in (clock, number) order, by a search of every QPU: what `run_qpus`
/// keeps up to date (checked in builds with debug assertions, tests included).
fn running_order(qpus: &[Qpu]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..qpus.len())
        .filter(|&i| qpus[i].state == State::Running)
        .collect();
    order.sort_by_key(|&i| (qpus[i].time, i));
    order
}

fn deadlock(qpus: &[Qpu], units: &Units) -> EmuError {
    let mut parts = Vec::new();
    let mut blocked = Vec::new();
    for q in qpus.iter().filter(|q| q.state == State::Blocked) {
        blocked.push((q.id, q.pc));
        let what = match q.blocked_on {
            StallCause::Mutex => format!(
                "waits for the mutex (held by QPU {})",
                units
                    .mutex_owner
                    .map_or_else(|| "none".to_string(), |o| o.to_string())
            ),
            _ => {
                let sem = units
                    .semaphore_waiters
                    .iter()
                    .position(|w| w.contains(&q.id))
                    .unwrap_or(0);
                format!("waits on semaphore {sem} (count {})", units.semaphores[sem])
            }
        };
        parts.push(format!("QPU {} at PC {:#010x} {what}", q.id, q.pc));
    }
    EmuError::Deadlock {
        message: format!("{}; no running QPU can release them", parts.join("; ")),
        blocked,
    }
}

fn fault_at(q: &Qpu, instr: Option<&Instruction>, fault: Fault) -> EmuError {
    EmuError::Fault {
        qpu: q.id,
        pc: q.pc,
        instruction: instr.map_or_else(|| "<no instruction>".to_string(), disassemble),
        fault,
    }
}

/// Runs QPU `q` until it ends, blocks, or reaches a shared-state instruction while another
/// QPU (`limit`) is earlier. `executed` counts the run's instructions over all QPUs.
fn run_qpu(
    q: &mut Qpu,
    limit: (u64, usize),
    code: &mut CodeCache,
    ctx: &mut Ctx<'_, '_>,
    executed: &mut u64,
) -> Result<(), EmuError> {
    let config = ctx.config;
    let start = q.icount;
    // The run's instruction budget as a bound on this QPU's own count: the budget is
    // exceeded exactly when `q.icount` passes it.
    let icount_limit = start.saturating_add(config.max_instructions.saturating_sub(*executed));
    let result = run_qpu_until(q, limit, code, ctx, icount_limit);
    *executed += q.icount - start;
    result
}

fn run_qpu_until(
    q: &mut Qpu,
    limit: (u64, usize),
    code: &mut CodeCache,
    ctx: &mut Ctx<'_, '_>,
    icount_limit: u64,
) -> Result<(), EmuError> {
    let config = ctx.config;
    let check = config.check_hazards;
    let clocks_per_instruction = config.timing.clocks_per_instruction;
    let max_cycles = config.max_cycles;
    let flags_rule = config.ambiguities.flags;
    while q.state == State::Running {
        let pc = q.pc;
        if pc & PAGE_KEY_MASK != q.page_key {
            q.page = code.page(pc).map_err(|fault| fault_at(q, None, fault))?;
            q.page_key = pc & PAGE_KEY_MASK;
        }
        let d = &code.pages[q.page][slot_of(pc)];
        // While a register or flag holds an undefined value, only the general path tracks it;
        // so it does when a rotation reads an accumulator the previous instruction wrote
        // (that makes undefined lanes).
        let mut path = if q.poisoned { Path::General } else { d.path };
        if path == Path::Rotate && d.rotate_sources & q.prev_acc_writes != 0 {
            path = Path::General;
        }
        // A run of plain instructions goes to `run_plain`; where that ran one instruction only
        // last time, the one-instruction paths below are cheaper.
        if path.plain() && !q.ending && plain_hint(d, code) {
            let limits = Limits {
                check,
                flags_rule,
                clocks_per_instruction,
                icount_limit,
                max_cycles,
            };
            let ran = run_plain(q, &code.pages[q.page], &limits, limit, ctx)?;
            // An I/O instruction in the run woke a QPU: the scheduler must see it first.
            if !ctx.units.wakes.is_empty() {
                return Ok(());
            }
            if ran > 1 {
                continue;
            }
            d.plain_run.set(false);
            if ran == 1 {
                continue;
            }
        }
        match path {
            Path::Fast | Path::Rotate | Path::LoadImm => {
                // Touches only this QPU and never stalls.
                if check
                    && ((d.phys_reads & q.prev_phys_writes) != 0
                        || d.needs_history_checks
                        || q.ending)
                {
                    check_history(q, d, config)
                        .map_err(|rule| fault_at(q, Some(&d.instr), Fault::Rule(rule)))?;
                }
                latch_reads(q, d);
                let icount = q.icount;
                match path {
                    Path::Fast => execute_fast::<false>(q, d, flags_rule, icount),
                    Path::Rotate => execute_fast::<true>(q, d, flags_rule, icount),
                    _ => load_immediate_fast(q, d, flags_rule, icount),
                }
                q.prev_phys_writes = d.phys_writes;
                q.prev_acc_writes = d.acc_writes;
                q.icount += 1;
                q.time += clocks_per_instruction;
                if (q.branch_slots | q.end_slots) == 0 {
                    q.pc = pc.wrapping_add(8);
                } else {
                    advance(q, d, config).map_err(|fault| fault_at(q, Some(&d.instr), fault))?;
                }
                if q.icount > icount_limit || q.time > max_cycles {
                    return Err(budget_error(q, config, icount_limit));
                }
                // The hint again, on one instruction in 16 (checking every time costs more than
                // it saves around lone plain instructions): if the next instruction (same
                // page) takes a plain path too, a run may start here next time (a run that
                // stopped after one instruction once, in another context, does not rule the
                // word out for good).
                if q.icount & 15 == 0
                    && q.pc & PAGE_KEY_MASK == q.page_key
                    && code.pages[q.page][slot_of(q.pc)].path.plain()
                {
                    d.plain_run.set(true);
                }
                continue;
            }
            Path::Branch => {
                // Of the history rules only these can apply to a branch (check_history
                // reports which).
                if check
                    && ((d.phys_reads & q.prev_phys_writes) != 0 || q.branch_slots > 0 || q.ending)
                {
                    check_history(q, d, config)
                        .map_err(|rule| fault_at(q, Some(&d.instr), Fault::Rule(rule)))?;
                }
                if let Kind::Branch(branch) = &d.kind {
                    latch_reads(q, d);
                    execute_branch(q, d, branch, config);
                }
                let now = q.time;
                finish(q, d, now, config).map_err(|fault| fault_at(q, Some(&d.instr), fault))?;
                if q.icount > icount_limit || q.time > max_cycles {
                    return Err(budget_error(q, config, icount_limit));
                }
                continue;
            }
            Path::Io | Path::General => {}
        }
        if !d.loaded {
            code.decode(q.page, pc, ctx.mem)
                .map_err(|fault| fault_at(q, None, fault))?;
            continue;
        }
        if d.shared && (q.time, q.id) > limit {
            return Ok(());
        }
        if d.may_stall {
            while let Some((until, cause)) = stall_until(q, d, config.ambiguities.early_vpm_read) {
                q.add_stall(cause, until - q.time);
                q.time = until;
                // Later now: a shared-state instruction may have to wait for another QPU.
                if d.shared && (q.time, q.id) > limit {
                    return Ok(());
                }
            }
        }
        let outcome = if path == Path::Io {
            execute_io(q, d, ctx).map(|()| Outcome::Executed)
        } else {
            execute(q, d, ctx)
        };
        let woke = match outcome {
            Ok(Outcome::Executed) => !ctx.units.wakes.is_empty(),
            Ok(Outcome::Blocked) => return Ok(()),
            Err(fault) => return Err(fault_at(q, Some(&d.instr), fault)),
        };
        if q.icount > icount_limit || q.time > max_cycles {
            return Err(budget_error(q, config, icount_limit));
        }
        if woke {
            return Ok(());
        }
    }
    Ok(())
}

/// Whether to start [`run_plain`] at `d` ([`Decoded::plain_run`], or always in tests that
/// ask for it: `CodeCache::always_plain`).
#[inline(always)]
fn plain_hint(d: &Decoded, code: &CodeCache) -> bool {
    #[cfg(test)]
    if code.always_plain {
        return true;
    }
    #[cfg(not(test))]
    let _ = code;
    d.plain_run.get()
}

/// What [`run_plain`] needs from the configuration and the run.
struct Limits {
    check: bool,
    flags_rule: FlagsRule,
    clocks_per_instruction: u64,
    icount_limit: u64,
    max_cycles: u64,
}

/// Runs QPU `q` through consecutive instructions of its current code page that take the
/// plain paths ([`Path::Fast`], [`Path::Rotate`], [`Path::LoadImm`], [`Path::Branch`]) or
/// [`Path::Io`] without a possible stall, branch delay slots included, thread-end slots not
/// (the caller starts it only outside those, on a plain instruction). The clock,
/// instruction count, PC and hazard history stay in locals meanwhile, written back before a
/// hazard check, around an I/O instruction and at the end. Returns how many instructions it
/// ran; it stops (leaving the QPU exactly as the one-instruction loop of [`run_qpu_until`]
/// would) before the first instruction it does not take, before a shared-state instruction
/// while another QPU (`limit`) is earlier, after an I/O instruction that woke a QPU or made
/// an undefined value (a TMU load), or when the PC leaves the page. None of these
/// instructions stalls, blocks or ends the thread, so the QPU stays running.
#[inline(never)]
fn run_plain(
    q: &mut Qpu,
    page: &[Decoded; PAGE_SLOTS],
    limits: &Limits,
    limit: (u64, usize),
    ctx: &mut Ctx<'_, '_>,
) -> Result<u64, EmuError> {
    let config = ctx.config;
    let page_key = q.page_key;
    let mut pc = q.pc;
    let mut icount = q.icount;
    let mut time = q.time;
    let mut prev_phys_writes = q.prev_phys_writes;
    let mut prev_acc_writes = q.prev_acc_writes;
    let start = icount;
    // The locals back into the QPU (before anything that reads it there), and from it.
    macro_rules! save {
        () => {
            q.pc = pc;
            q.icount = icount;
            q.time = time;
            q.prev_phys_writes = prev_phys_writes;
            q.prev_acc_writes = prev_acc_writes;
        };
    }
    macro_rules! load {
        () => {
            pc = q.pc;
            icount = q.icount;
            time = q.time;
            prev_phys_writes = q.prev_phys_writes;
            prev_acc_writes = q.prev_acc_writes;
        };
    }
    loop {
        let slot = slot_of(pc);
        let d = &page[slot];
        // A block of straight-line instructions whose only hazard rule is the register-file
        // distance, which holds between them (`block_len`): one check of that rule for the
        // first, one budget, delay-slot and page check for all (it stops at the end of the
        // delay slots, where the branch target takes over).
        if d.blockable {
            let (len, reads_r4) = block_len(page, slot);
            let mut k = len;
            if q.branch_slots > 0 {
                k = k.min(usize::from(q.branch_slots));
            }
            let n = k as u64;
            if k > 1
                && icount + n <= limits.icount_limit
                && time + n * limits.clocks_per_instruction <= limits.max_cycles
                && !(limits.check && (d.phys_reads & prev_phys_writes) != 0)
                && d.rotate_sources & prev_acc_writes == 0
                // The r4 rules hold for the first instruction, so for all of them (no SFU
                // write or TMU load in a block).
                && !(reads_r4
                    && limits.check
                    && (!q.r4_loaded || within(q.last_sfu, icount, SFU_SHADOW)))
            {
                #[cfg(test)]
                path_tests::note_block(n);
                for (i, d) in (icount..).zip(&page[slot..slot + k]) {
                    latch_reads(q, d);
                    match d.step {
                        Step::Nothing => {}
                        Step::AddDirect => (d.add_direct)(&mut q.file, &d.direct_rows[0]),
                        Step::MulDirect => (d.mul_direct)(&mut q.file, &d.direct_rows[1]),
                        Step::AddMulDirect => {
                            (d.add_direct)(&mut q.file, &d.direct_rows[0]);
                            (d.mul_direct)(&mut q.file, &d.direct_rows[1]);
                        }
                        Step::MulAddDirect => {
                            (d.mul_direct)(&mut q.file, &d.direct_rows[1]);
                            (d.add_direct)(&mut q.file, &d.direct_rows[0]);
                        }
                        Step::Fast => execute_scratch::<false>(q, d, limits.flags_rule, i),
                        Step::Rotate => execute_scratch::<true>(q, d, limits.flags_rule, i),
                        _ => load_immediate_fast(q, d, limits.flags_rule, i),
                    }
                }
                let last = &page[slot + k - 1];
                prev_phys_writes = last.phys_writes;
                prev_acc_writes = last.acc_writes;
                icount += n;
                time += n * limits.clocks_per_instruction;
                pc = pc.wrapping_add(8 * k as u32);
                if q.branch_slots > 0 {
                    q.branch_slots -= k as u8;
                    if q.branch_slots == 0 {
                        pc = q.branch_target.take().unwrap_or(pc);
                    }
                }
                if pc & PAGE_KEY_MASK != page_key {
                    break;
                }
                continue;
            }
        }
        // Of the history rules, which may apply besides the register-file distance.
        let history = match d.step {
            Step::Io => {
                // As the general part of `run_qpu_until` runs it: in global order, after any
                // stall (the run stops before either), with the QPU's state written back first.
                if (d.may_stall && !tmu_ready(q, d, time)) || (d.shared && (time, q.id) > limit) {
                    break;
                }
                save!();
                execute_io(q, d, ctx).map_err(|fault| fault_at(q, Some(&d.instr), fault))?;
                load!();
                if icount > limits.icount_limit || time > limits.max_cycles {
                    return Err(budget_error(q, config, limits.icount_limit));
                }
                // A TMU load brought in an undefined value (only the general path tracks it), a
                // QPU was woken, or the PC left the page.
                if q.poisoned || !ctx.units.wakes.is_empty() || pc & PAGE_KEY_MASK != page_key {
                    break;
                }
                continue;
            }
            Step::Stop => break,
            Step::Rotate => {
                if d.rotate_sources & prev_acc_writes != 0 {
                    break;
                }
                d.needs_history_checks
            }
            // Only "branch in a delay slot" (see the branch path of `run_qpu_until`).
            Step::Branch => q.branch_slots > 0,
            _ => d.needs_history_checks,
        };
        if limits.check && ((d.phys_reads & prev_phys_writes) != 0 || history) {
            save!();
            check_history(q, d, config)
                .map_err(|rule| fault_at(q, Some(&d.instr), Fault::Rule(rule)))?;
        }
        latch_reads(q, d);
        match d.step {
            Step::Nothing => {}
            Step::AddDirect => (d.add_direct)(&mut q.file, &d.direct_rows[0]),
            Step::MulDirect => (d.mul_direct)(&mut q.file, &d.direct_rows[1]),
            Step::AddMulDirect => {
                (d.add_direct)(&mut q.file, &d.direct_rows[0]);
                (d.mul_direct)(&mut q.file, &d.direct_rows[1]);
            }
            Step::MulAddDirect => {
                (d.mul_direct)(&mut q.file, &d.direct_rows[1]);
                (d.add_direct)(&mut q.file, &d.direct_rows[0]);
            }
            Step::Fast => execute_scratch::<false>(q, d, limits.flags_rule, icount),
            Step::Rotate => execute_scratch::<true>(q, d, limits.flags_rule, icount),
            Step::LoadImm => load_immediate_fast(q, d, limits.flags_rule, icount),
            _ => {
                if let Kind::Branch(branch) = &d.kind {
                    q.pc = pc;
                    execute_branch(q, d, branch, config);
                }
            }
        }
        prev_phys_writes = d.phys_writes;
        prev_acc_writes = d.acc_writes;
        icount += 1;
        time += limits.clocks_per_instruction;
        // As `advance` (no thread end is pending or starting here).
        let next = pc.wrapping_add(8);
        if d.is_branch {
            q.branch_slots = latency::BRANCH_DELAY_SLOTS as u8;
            pc = next;
        } else if q.branch_slots > 0 {
            q.branch_slots -= 1;
            pc = if q.branch_slots == 0 {
                q.branch_target.take().unwrap_or(next)
            } else {
                next
            };
        } else {
            pc = next;
        }
        if icount > limits.icount_limit || time > limits.max_cycles {
            save!();
            return Err(budget_error(q, config, limits.icount_limit));
        }
        if pc & PAGE_KEY_MASK != page_key {
            break;
        }
    }
    save!();
    Ok(icount - start)
}

/// How many instructions from `slot` on the plain loop may run as one block, and whether
/// one of them reads r4: consecutive [`Decoded::blockable`] words of the page, none
/// reading a physical register its predecessor writes (so the register-file distance rule
/// holds inside the block) or rotating an accumulator its predecessor writes (which takes
/// the general path); the first is checked against what ran before, and the r4 rules
/// against the QPU's state (they cannot change inside a block). Worked out once per word
/// and kept in [`Decoded::block`] (the length, plus 128 for an r4 read) until a word of
/// the page is decoded (`CodeCache::decode`: a block that ended at a word not decoded yet
/// may grow).
#[inline(always)]
fn block_len(page: &[Decoded; PAGE_SLOTS], slot: usize) -> (usize, bool) {
    let cached = page[slot].block.get();
    let cached = if cached != 0 {
        cached
    } else {
        block_len_slow(page, slot)
    };
    (usize::from(cached & 0x7f), cached & 0x80 != 0)
}

#[cold]
#[inline(never)]
fn block_len_slow(page: &[Decoded; PAGE_SLOTS], slot: usize) -> u8 {
    let mut len = 0;
    let mut reads_r4 = false;
    let (mut prev_writes, mut prev_acc_writes) = (0, 0);
    for d in &page[slot..] {
        if !d.blockable
            || d.phys_reads & prev_writes != 0
            || d.rotate_sources & prev_acc_writes != 0
            || len == 0x7f
        {
            break;
        }
        (prev_writes, prev_acc_writes) = (d.phys_writes, d.acc_writes);
        reads_r4 |= d.reads_r4;
        len += 1;
    }
    let cached = len | if reads_r4 { 0x80 } else { 0 };
    page[slot].block.set(cached);
    cached
}

#[cold]
fn budget_error(q: &Qpu, config: &EmulatorConfig, icount_limit: u64) -> EmuError {
    let (what, limit) = if q.icount > icount_limit {
        ("instruction", config.max_instructions)
    } else {
        ("cycle", config.max_cycles)
    };
    EmuError::Budget {
        what,
        limit,
        qpu: q.id,
        pc: q.pc,
    }
}

/// The clock until which the instruction must wait before it can issue, if later than now.
fn stall_until(q: &Qpu, d: &Decoded, early_vpm_read: EarlyVpmRead) -> Option<(u64, StallCause)> {
    let now = q.time;
    let wait = |until: u64, cause: StallCause| (until > now).then_some((until, cause));
    if let Some(tmu) = ldtmu(d.signal) {
        if let Some(front) = q.tmu_fifo[tmu].front() {
            if let Some(w) = wait(front.ready_at, StallCause::Tmu) {
                return Some(w);
            }
        }
    }
    for read in [d.read_a, d.read_b].into_iter().flatten() {
        let w = match read {
            // Measured: an early VPM read stalls until its data arrives. In guide mode it is
            // a hazard, reported at execution.
            Read::Vpm if early_vpm_read == EarlyVpmRead::Stall => {
                wait(q.vpm_read_ready_at, StallCause::Vpm)
            }
            Read::VdrWait => wait(q.vdr_done_at, StallCause::Dma),
            Read::VdwWait => wait(q.vdw_done_at, StallCause::Dma),
            _ => None,
        };
        if w.is_some() {
            return w;
        }
    }
    // One load and one store per QPU in flight: a new one waits for the previous (guide
    // p.55).
    for (dest, cond) in [(d.dst_add, d.cond_add), (d.dst_mul, d.cond_mul)] {
        if cond == Cond::Never {
            continue;
        }
        let w = match dest {
            Dest::VdrAddress => wait(q.vdr_done_at, StallCause::Dma),
            Dest::VdwAddress => wait(q.vdw_done_at, StallCause::Dma),
            _ => None,
        };
        if w.is_some() {
            return w;
        }
    }
    None
}

/// Whether `d` (which may stall) can issue at `time` without waiting: its only possible
/// wait is a TMU load's, and the FIFO's front is ready (or the FIFO is empty, an error the
/// hazard check reports as the general path does).
#[inline(always)]
fn tmu_ready(q: &Qpu, d: &Decoded, time: u64) -> bool {
    d.stalls_on_tmu_only
        && ldtmu(d.signal).is_some_and(|tmu| {
            q.tmu_fifo[tmu]
                .front()
                .is_none_or(|front| front.ready_at <= time)
        })
}

/// Which TMU FIFO a signal pops, if it is a TMU load.
fn ldtmu(signal: Signal) -> Option<usize> {
    match signal {
        Signal::LoadTmu0 => Some(0),
        Signal::LoadTmu1 => Some(1),
        _ => None,
    }
}

enum Outcome {
    Executed,
    Blocked,
}

fn within(last: Option<u64>, now: u64, distance: u64) -> bool {
    last.is_some_and(|at| now - at <= distance)
}

/// Rules that depend on what ran before.
#[inline(always)]
fn check_hazards(q: &Qpu, d: &Decoded, config: &EmulatorConfig) -> Result<(), Rule> {
    if (d.phys_reads & q.prev_phys_writes) != 0 || d.needs_history_checks || q.ending {
        check_history(q, d, config)
    } else {
        Ok(())
    }
}

#[inline(never)]
fn check_history(q: &Qpu, d: &Decoded, config: &EmulatorConfig) -> Result<(), Rule> {
    let clash = d.phys_reads & q.prev_phys_writes;
    for (file, bits) in [
        (RegFile::A, clash as u32),
        (RegFile::B, (clash >> 32) as u32),
    ] {
        if bits != 0 {
            return Err(Rule::RegfileReadAfterWrite {
                file,
                reg: bits.trailing_zeros() as u8,
            });
        }
    }
    if d.reads_r4 {
        if within(q.last_sfu, q.icount, SFU_SHADOW) {
            return Err(Rule::R4ReadDuringSfu);
        }
        if !q.r4_loaded {
            return Err(Rule::R4ReadWithoutResult);
        }
    }
    if d.writes_r4 && within(q.last_sfu, q.icount, SFU_SHADOW) {
        return Err(Rule::R4WriterDuringSfu);
    }
    // A rotation of an accumulator the previous instruction wrote is not an error here:
    // the lanes that write reached are undefined in the rotation's operand (see
    // `result_poison`), an error where they are used.
    if d.reads_uniform && within(q.last_uniforms_address, q.icount, UNIFORMS_SHADOW) {
        return Err(Rule::UniformAfterAddressWrite);
    }
    if let Some(tmu) = ldtmu(d.signal) {
        if q.tmu_fifo[tmu].is_empty() {
            return Err(Rule::TmuLoadWithoutRequest { tmu: tmu as u8 });
        }
    }
    if q.branch_slots > 0 {
        if d.is_branch {
            return Err(Rule::BranchInDelaySlot);
        }
        if d.is_thread_end {
            return Err(Rule::ThreadEndInBranchDelaySlot);
        }
    }
    if q.ending || d.is_thread_end {
        if q.ending && d.is_branch {
            return Err(Rule::BranchInThreadEndSlot);
        }
        if let Some(what) = d.thread_end_forbidden {
            return Err(Rule::ThreadEndSlotAccess { what });
        }
    }
    if config.ambiguities.early_vpm_read == EarlyVpmRead::Error
        && (d.read_a == Some(Read::Vpm) || d.read_b == Some(Read::Vpm))
        && q.vpm_read_ready_at > q.time
    {
        return Err(Rule::VpmReadTooEarly);
    }
    Ok(())
}

fn execute(q: &mut Qpu, d: &Decoded, x: &mut Ctx<'_, '_>) -> Result<Outcome, Fault> {
    let check = x.config.check_hazards;
    if let Some(rule) = &d.fault {
        if check || rule.source() == RuleSource::NotModelled {
            return Err(Fault::Rule(rule.clone()));
        }
    }
    if check {
        check_hazards(q, d, x.config).map_err(Fault::Rule)?;
    }
    if d.reads_nop {
        fill_latch(q, 0);
        fill_latch(q, 1);
    }
    latch_reads(q, d);
    let track = check
        && (q.poisoned || d.may_poison || d.reads_nop || d.rotate_sources & q.prev_acc_writes != 0);
    let now = q.time;
    match d.kind {
        Kind::Alu => {
            if d.read_a == Some(Read::Mutex) || d.read_b == Some(Read::Mutex) {
                match x.units.mutex_owner {
                    None => x.units.mutex_owner = Some(q.id),
                    Some(_) => {
                        x.units.mutex_waiters.push(q.id);
                        q.state = State::Blocked;
                        q.blocked_on = StallCause::Mutex;
                        return Ok(Outcome::Blocked);
                    }
                }
            }
            execute_alu(q, d, x, track)?;
        }
        Kind::LoadImm => execute_load_imm(q, d, x, track)?,
        Kind::Semaphore { acquire, id } => {
            let units = &mut *x.units;
            let count = &mut units.semaphores[usize::from(id)];
            let blocked = if acquire { *count == 0 } else { *count == 15 };
            if blocked {
                units.semaphore_waiters[usize::from(id)].push(q.id);
                q.state = State::Blocked;
                q.blocked_on = StallCause::Semaphore;
                return Ok(Outcome::Blocked);
            }
            if acquire {
                *count -= 1;
            } else {
                *count += 1;
            }
            let wake_at = now + x.config.timing.semaphore_wake;
            for w in units.semaphore_waiters[usize::from(id)].drain(..) {
                units.wakes.push((w, wake_at, StallCause::Semaphore));
            }
            execute_load_imm(q, d, x, track)?;
        }
        Kind::Branch(branch) => {
            if track {
                check_branch_poison(q, &branch, x.config)?;
            }
            execute_branch(q, d, &branch, x.config);
            if track {
                for dest in [d.dst_add, d.dst_mul] {
                    if let Some(row) = dest_row(dest) {
                        q.poison[row] = 0;
                    }
                }
                if branch.sets_flags && x.config.ambiguities.branch_odd_raddr_sets_flags {
                    q.flag_poison = 0;
                }
            }
        }
    }

    // Signals that act after the write-back: the loaded value is in r4 for the next
    // instruction.
    load_tmu_result(q, d);
    if track {
        q.poisoned = q.poison[..rows::ELEMENT].iter().any(|&p| p != 0) || q.flag_poison != 0;
    }
    if d.is_thread_end && check {
        let pending = q.vpm_port.pending_reads();
        if pending > 0 {
            return Err(Fault::Rule(Rule::VpmReadsPendingAtEnd { count: pending }));
        }
    }

    finish(q, d, now, x.config)?;
    Ok(Outcome::Executed)
}

/// [`Path::Io`]: what [`execute`] does for such an instruction while the QPU holds no
/// undefined value (so nothing is tracked): the hazard checks, the operands (I/O reads
/// included), both operations, the writes (registers as the fast path stores them, I/O
/// registers through [`write_dest`]), the flags, the TMU load and the bookkeeping, in the
/// general path's order.
#[inline(always)]
fn execute_io(q: &mut Qpu, d: &Decoded, x: &mut Ctx<'_, '_>) -> Result<(), Fault> {
    #[cfg(test)]
    path_tests::note_io();
    let config = x.config;
    if config.check_hazards {
        check_hazards(q, d, config).map_err(Fault::Rule)?;
    }
    latch_reads(q, d);
    let now = q.time;
    // (The path takes no VPM read and no mutex acquire.)
    read_io_operands(q, d, x)?;
    {
        let Qpu {
            file,
            results,
            carries,
            ..
        } = &mut *q;
        let row = |k: usize| &file[usize::from(d.src[k])];
        compute_sides(d, [row(0), row(1), row(2), row(3)], results, carries);
    }
    // Both sides see the flags from before the instruction (they change last).
    if d.cond_acc_write {
        q.cond_writes = cond_writes_of(d, &q.flags, q.icount);
    }
    for side in 0..2 {
        let (dest, cond) = if side == 0 {
            (d.dst_add, d.cond_add)
        } else {
            (d.dst_mul, d.cond_mul)
        };
        if d.dst_rows[side] != rows::SINK as u8 {
            let Qpu {
                file,
                results,
                flags,
                ..
            } = &mut *q;
            store_if(
                &mut file[usize::from(d.dst_rows[side])],
                &results[side],
                d.store_conds[side],
                flags,
            );
        } else if dest != Dest::Nop && cond != Cond::Never {
            if let Dest::R5Quad | Dest::R5Replicate = dest {
                let mask = cond_mask(cond, &q.flags);
                if mask.any() {
                    write_dest(q, x, dest, side, &mask, PackStep::None, &d.tmu_allocation)?;
                }
            } else {
                // An I/O register: written unconditionally (a condition is a static fault),
                // with no pack, as `write_dest_general` writes it.
                let values = q.results[side];
                write_io(q, x, dest, &values, &d.tmu_allocation)?;
            }
        }
    }
    if d.set_flags {
        let rule = match config.ambiguities.flags {
            FlagsRule::Measured => 0,
            FlagsRule::Guide => 1,
        };
        if let Some((side, cond)) = d.flag_sides[rule] {
            let side = usize::from(side & 1);
            set_flags_from(
                &mut q.flags,
                cond,
                &q.results[side],
                &q.carries[side],
                d.writes_float[side],
            );
        }
    }
    // The loaded value is in r4 for the next instruction (as in `execute`).
    load_tmu_result(q, d);
    finish(q, d, now, config)
}

/// An `ldtmu` signal: the oldest result of its TMU's FIFO into r4 (with where an undefined
/// value in it came from).
#[inline(always)]
fn load_tmu_result(q: &mut Qpu, d: &Decoded) {
    if let Some(tmu) = ldtmu(d.signal) {
        if let Some(result) = q.tmu_fifo[tmu].pop_front() {
            if q.timeline {
                if let Some(issued) = q.tmu_issued[tmu].pop_front() {
                    q.report.tmu_lookups.push(TmuLookup {
                        issued,
                        ready: result.ready_at,
                        read: q.time,
                    });
                }
            }
            q.file[rows::R4] = result.values;
            q.poison[rows::R4] = result.poison;
            q.r4_loaded = true;
            if let Some(origin) = result.origin {
                let (pc, what, address) = *origin;
                q.poison_origin = what;
                q.poison_origin_pc = Some(pc);
                q.poison_origin_address = Some(address);
                q.poisoned = true;
            }
        }
    }
}

/// Bookkeeping after an instruction: hazard history, the clock, and control flow (three
/// branch delay slots, two thread-end delay slots).
#[inline(always)]
fn finish(q: &mut Qpu, d: &Decoded, now: u64, config: &EmulatorConfig) -> Result<(), Fault> {
    q.prev_phys_writes = d.phys_writes;
    q.prev_acc_writes = d.acc_writes;
    q.icount += 1;
    q.time = now + config.timing.clocks_per_instruction;
    advance(q, d, config)
}

/// Moves the PC past an executed instruction, through branch and thread-end delay slots.
fn advance(q: &mut Qpu, d: &Decoded, config: &EmulatorConfig) -> Result<(), Fault> {
    let next = q.pc.wrapping_add(8);
    if d.is_branch {
        q.branch_slots = latency::BRANCH_DELAY_SLOTS as u8;
        q.pc = next;
    } else if q.branch_slots > 0 {
        q.branch_slots -= 1;
        q.pc = if q.branch_slots == 0 {
            q.branch_target.take().unwrap_or(next)
        } else {
            next
        };
    } else {
        q.pc = next;
    }
    if q.ending {
        q.end_slots -= 1;
        if q.end_slots == 0 {
            q.state = State::Done;
            if q.timeline {
                // Results never read leave the FIFO with the program.
                for (fifo, issued) in q.tmu_fifo.iter().zip(&q.tmu_issued) {
                    for (result, &issued) in fifo.iter().zip(issued) {
                        q.report.tmu_lookups.push(TmuLookup {
                            issued,
                            ready: result.ready_at,
                            read: q.time.max(result.ready_at),
                        });
                    }
                }
            }
            let left: usize = q.tmu_fifo.iter().map(VecDeque::len).sum();
            if left > 0 && config.check_hazards {
                return Err(Fault::Rule(Rule::TmuResultsLeftAtEnd { count: left }));
            }
        }
    } else if d.is_thread_end {
        q.ending = true;
        q.end_slots = latency::THREAD_END_DELAY_SLOTS as u8;
    }
    Ok(())
}

/// A plain ALU instruction ([`Decoded::fast`]): operands by row, results to rows (the sink
/// row when a side writes nowhere), flags from lane masks.
/// `ROTATE`: the instruction rotates the mul result ([`Path::Rotate`]).
#[inline(always)]
fn execute_fast<const ROTATE: bool>(q: &mut Qpu, d: &Decoded, flags_rule: FlagsRule, icount: u64) {
    match d.direct {
        Direct::AddFirst => {
            if d.op_add != AddOp::Nop {
                (d.add_direct)(&mut q.file, &d.direct_rows[0]);
            }
            if d.op_mul != MulOp::Nop {
                (d.mul_direct)(&mut q.file, &d.direct_rows[1]);
            }
        }
        Direct::MulFirst => {
            (d.mul_direct)(&mut q.file, &d.direct_rows[1]);
            (d.add_direct)(&mut q.file, &d.direct_rows[0]);
        }
        Direct::No => execute_scratch::<ROTATE>(q, d, flags_rule, icount),
    }
}

/// [`execute_fast`] for [`Direct::No`] ([`Step::Fast`] and [`Step::Rotate`]): through the
/// scratch results, with conditional writes and flags.
#[inline(always)]
fn execute_scratch<const ROTATE: bool>(
    q: &mut Qpu,
    d: &Decoded,
    flags_rule: FlagsRule,
    icount: u64,
) {
    let add = d.op_add != AddOp::Nop;
    let mul = d.op_mul != MulOp::Nop;
    let Qpu {
        file,
        results,
        carries,
        flags,
        cond_writes,
        ..
    } = &mut *q;
    let [add_out, mul_out] = results;
    let [add_carry, mul_carry] = carries;
    let row = |k: usize| &file[usize::from(d.src[k])];
    // A nop side computes nothing: a fast instruction never writes or flags from it. Both
    // sides read their operands before either writes, and see the flags from before this
    // instruction; the flags change last.
    if add {
        (d.add_fn)(row(0), row(1), add_out, add_carry);
    }
    if mul {
        (d.mul_fn)(row(2), row(3), mul_out, mul_carry);
        if ROTATE {
            rotate_in_place(mul_out, rotation(d.rotate, file), d.rotate_full);
        }
    }
    if add {
        store_if(
            &mut file[usize::from(d.dst_rows[0])],
            add_out,
            d.store_conds[0],
            flags,
        );
    }
    if mul {
        store_if(
            &mut file[usize::from(d.dst_rows[1])],
            mul_out,
            d.store_conds[1],
            flags,
        );
    }
    if d.cond_acc_write {
        *cond_writes = cond_writes_of(d, flags, icount);
    }
    if d.set_flags {
        // The flag-setting side and its condition, chosen at decode time (`flag_side`).
        let rule = match flags_rule {
            FlagsRule::Measured => 0,
            FlagsRule::Guide => 1,
        };
        if let Some((side, cond)) = d.flag_sides[rule] {
            let (values, carry) = if side == 0 {
                (&*add_out, &*add_carry)
            } else {
                (&*mul_out, &*mul_carry)
            };
            set_flags_from(
                flags,
                cond,
                values,
                carry,
                d.writes_float[usize::from(side & 1)],
            );
        }
    }
}

/// A load immediate to registers ([`Path::LoadImm`]): both sides write the same value;
/// flags, if set, come from it with C clear.
#[inline(always)]
fn load_immediate_fast(q: &mut Qpu, d: &Decoded, flags_rule: FlagsRule, icount: u64) {
    let values = match &d.ldi_lanes {
        Some(lanes) => **lanes,
        None => [d.imm; 16],
    };
    let Qpu {
        file,
        flags,
        cond_writes,
        ..
    } = &mut *q;
    store_if(
        &mut file[usize::from(d.dst_rows[0])],
        &values,
        d.store_conds[0],
        flags,
    );
    store_if(
        &mut file[usize::from(d.dst_rows[1])],
        &values,
        d.store_conds[1],
        flags,
    );
    if d.cond_acc_write {
        *cond_writes = cond_writes_of(d, flags, icount);
    }
    if d.set_flags {
        update_flags(
            flags,
            flags_rule,
            FlagSources {
                add: Some((&values, &[0; 16], false)),
                mul: Some((&values, &[0; 16], false)),
                cond_add: d.cond_add,
                cond_mul: d.cond_mul,
            },
        );
    }
}

/// The lanes where `cond` passes, as a lane mask, for a condition other than always/never.
#[inline(always)]
fn cond_lanes(cond: Cond, flags: &Flags) -> Lanes {
    let (flag, invert) = match cond {
        Cond::ZeroSet => (&flags.z, 0),
        Cond::ZeroClear => (&flags.z, u32::MAX),
        Cond::NegativeSet => (&flags.n, 0),
        Cond::NegativeClear => (&flags.n, u32::MAX),
        Cond::CarrySet => (&flags.c, 0),
        Cond::CarryClear => (&flags.c, u32::MAX),
        Cond::Always => return [u32::MAX; 16],
        Cond::Never => return [0; 16],
    };
    flag.map(|f| f ^ invert)
}

/// Writes `values` into the lanes of `dst` where `cond` passes.
#[inline(always)]
fn store_if(dst: &mut Lanes, values: &Lanes, cond: Cond, flags: &Flags) {
    if cond == Cond::Always {
        *dst = *values;
    } else {
        store_masked(dst, values, cond, flags);
    }
}

/// [`store_if`] for a flag condition; kept out of line so that the common unconditional
/// write stays a plain copy rather than one arm of a jump table.
#[inline(never)]
fn store_masked(dst: &mut Lanes, values: &Lanes, cond: Cond, flags: &Flags) {
    blend(dst, values, &cond_lanes(cond, flags));
}

/// `dst = mask ? values : dst`, lane by lane.
#[inline(always)]
fn blend(dst: &mut Lanes, values: &Lanes, mask: &Lanes) {
    for i in 0..16 {
        dst[i] = (dst[i] & !mask[i]) | (values[i] & mask[i]);
    }
}

/// What `setf` may take the flags from: each ALU's result, carries and whether the result is
/// a float (`None` when its opcode is nop), and the write conditions.
struct FlagSources<'a> {
    add: Option<(&'a Lanes, &'a Lanes, bool)>,
    mul: Option<(&'a Lanes, &'a Lanes, bool)>,
    cond_add: Cond,
    cond_mul: Cond,
}

/// Sets the flags from the flag-setting ALU's result (see [`FlagsRule`]).
#[inline(always)]
fn update_flags(flags: &mut Flags, rule: FlagsRule, from: FlagSources<'_>) {
    let Some((side, cond)) = flag_side(
        rule,
        from.add.is_some(),
        from.mul.is_some(),
        from.cond_add,
        from.cond_mul,
    ) else {
        return;
    };
    let Some(source) = (if side == 0 { from.add } else { from.mul }) else {
        return;
    };
    let (values, carry, float) = source;
    set_flags_from(flags, cond, values, carry, float);
}

/// Sets the flags from one result, its carries and whether it is a float, in the lanes
/// where `cond` passes on the old flags.
#[inline(always)]
fn set_flags_from(flags: &mut Flags, cond: Cond, values: &Lanes, carry: &Lanes, float: bool) {
    let (z, n) = alu::zn(values, float);
    if cond == Cond::Always {
        *flags = Flags { z, n, c: *carry };
    } else {
        // The condition is evaluated on the old flags, before any of them changes.
        let mask = cond_lanes(cond, flags);
        blend(&mut flags.z, &z, &mask);
        blend(&mut flags.n, &n, &mask);
        blend(&mut flags.c, carry, &mask);
    }
}

/// Which result `setf` takes the flags from (0 add, 1 mul) and under which condition, by
/// [`FlagsRule`]; `None` when neither ALU computes anything.
#[inline(always)]
pub(crate) fn flag_side(
    rule: FlagsRule,
    add_active: bool,
    mul_active: bool,
    cond_add: Cond,
    cond_mul: Cond,
) -> Option<(usize, Cond)> {
    match rule {
        FlagsRule::Measured if add_active => Some((0, cond_add)),
        FlagsRule::Measured if mul_active => Some((1, cond_mul)),
        FlagsRule::Guide if add_active && cond_add != Cond::Never => Some((0, Cond::Always)),
        FlagsRule::Guide if mul_active => Some((1, Cond::Always)),
        _ => None,
    }
}

fn branch_taken(cond: BranchCond, flags: &Flags) -> bool {
    let all = |f: &Lanes| f.iter().fold(u32::MAX, |m, &v| m & v) != 0;
    let none = |f: &Lanes| f.iter().fold(0, |m, &v| m | v) == 0;
    match cond {
        BranchCond::AllZeroSet => all(&flags.z),
        BranchCond::AllZeroClear => none(&flags.z),
        BranchCond::AnyZeroSet => !none(&flags.z),
        BranchCond::AnyZeroClear => !all(&flags.z),
        BranchCond::AllNegativeSet => all(&flags.n),
        BranchCond::AllNegativeClear => none(&flags.n),
        BranchCond::AnyNegativeSet => !none(&flags.n),
        BranchCond::AnyNegativeClear => !all(&flags.n),
        BranchCond::AllCarrySet => all(&flags.c),
        BranchCond::AllCarryClear => none(&flags.c),
        BranchCond::AnyCarrySet => !none(&flags.c),
        BranchCond::AnyCarryClear => !all(&flags.c),
        BranchCond::Always => true,
    }
}

fn execute_branch(q: &mut Qpu, d: &Decoded, branch: &BranchInfo, config: &EmulatorConfig) {
    // Targets are bus addresses; relative ones count from the instruction after the 3 delay
    // slots (guide section 3, "Branches"), which is also the link address.
    let link = q.pc.wrapping_add(32);
    let mut target = if branch.relative {
        link.wrapping_add(branch.imm as u32)
    } else {
        branch.imm as u32
    };
    if let Some(reg) = branch.reg {
        let lane = match config.ambiguities.branch_register_lane {
            BranchRegisterLane::Element15 => 15,
            BranchRegisterLane::Element0 => 0,
        };
        target = target.wrapping_add(q.file[rows::A + usize::from(reg)][lane]);
    }
    let taken = branch_taken(branch.cond, &q.flags);
    if taken {
        q.branch_target = Some(target);
        for dest in [d.dst_add, d.dst_mul] {
            match dest {
                Dest::PhysA(n) => q.file[rows::A + usize::from(n)] = [link; 16],
                Dest::PhysB(n) => q.file[rows::B + usize::from(n)] = [link; 16],
                Dest::Acc(n) => q.file[rows::ACC + usize::from(n)] = [link; 16],
                Dest::R5Quad | Dest::R5Replicate => q.file[rows::R5] = [link; 16],
                _ => {}
            }
        }
    } else {
        q.branch_target = None;
    }
    if branch.sets_flags && config.ambiguities.branch_odd_raddr_sets_flags {
        // [measured] the flags come from the link value in every lane.
        q.flags = Flags {
            z: [alu::lane_mask(link == 0); 16],
            n: [alu::lane_mask(link >> 31 == 1); 16],
            c: [0; 16],
        };
    }
}

/// Which lanes a write condition lets through.
#[derive(Clone, Copy)]
enum WriteMask {
    Never,
    Always,
    Lanes(Lanes),
}

impl WriteMask {
    fn any(&self) -> bool {
        match self {
            WriteMask::Never => false,
            WriteMask::Always => true,
            WriteMask::Lanes(m) => m.iter().fold(0, |a, &v| a | v) != 0,
        }
    }
}

#[inline(always)]
fn cond_mask(cond: Cond, flags: &Flags) -> WriteMask {
    match cond {
        Cond::Never => WriteMask::Never,
        Cond::Always => WriteMask::Always,
        Cond::ZeroSet => WriteMask::Lanes(flags.z),
        Cond::ZeroClear => WriteMask::Lanes(flags.z.map(|v| !v)),
        Cond::NegativeSet => WriteMask::Lanes(flags.n),
        Cond::NegativeClear => WriteMask::Lanes(flags.n.map(|v| !v)),
        Cond::CarrySet => WriteMask::Lanes(flags.c),
        Cond::CarryClear => WriteMask::Lanes(flags.c.map(|v| !v)),
    }
}

/// Performs an I/O read's side effects and leaves its value in the scratch row `row`.
fn read_io(q: &mut Qpu, x: &mut Ctx<'_, '_>, read: Read, row: usize) -> Result<(), Fault> {
    let value = match read {
        Read::Uniform => {
            let value = x
                .mem
                .read_u32_near(q.uniform_ptr, &mut q.uniform_allocation)
                .map_err(|e| match e {
                    MemoryError::Unaligned { .. } => Fault::Memory(e),
                    _ => Fault::UniformsExhausted {
                        read: q.uniforms_since_reset,
                        addr: q.uniform_ptr,
                    },
                })?;
            q.uniform_ptr = q.uniform_ptr.wrapping_add(4);
            q.uniforms_since_reset += 1;
            q.report.uniforms += 1;
            [value; 16]
        }
        Read::Vpm => {
            let lanes = q.vpm_port.pop(x.vpm).map_err(Fault::Vpm)?;
            let undefined = q.vpm_port.popped_undefined();
            if undefined != 0 && x.config.check_hazards {
                if let Some(origin) = x.vpm.undefined_origin() {
                    q.poison_origin = origin.what.clone();
                    q.poison_origin_pc = origin.pc;
                    q.poison_origin_address = origin.address;
                }
                q.poison[row] = undefined;
                q.poisoned = true;
            }
            q.file[row] = lanes;
            return Ok(());
        }
        // ASSUMPTION: the busy registers read 1 while the DMA runs, 0 when done.
        Read::VdrBusy => [u32::from(q.vdr_done_at > q.time); 16],
        Read::VdwBusy => [u32::from(q.vdw_done_at > q.time); 16],
        // The waits and the mutex acquire stall (or block) before the instruction issues;
        // the value read is not documented: ASSUMPTION 0.
        _ => [0; 16],
    };
    q.file[row] = value;
    // A scratch row marked by an earlier VPM read holds a defined value now.
    q.poison[row] = 0;
    Ok(())
}

/// The operands read from I/O registers (uniforms, VPM, DMA status, the mutex), each into
/// its scratch row.
#[inline(always)]
fn read_io_operands(q: &mut Qpu, d: &Decoded, x: &mut Ctx<'_, '_>) -> Result<(), Fault> {
    if d.io_read {
        for (read, row) in [(d.read_a, rows::SCRATCH_A), (d.read_b, rows::SCRATCH_B)] {
            if let Some(
                read @ (Read::Uniform
                | Read::Vpm
                | Read::VdrBusy
                | Read::VdwBusy
                | Read::VdrWait
                | Read::VdwWait
                | Read::Mutex),
            ) = read
            {
                read_io(q, x, read, row)?;
            }
        }
    }
    Ok(())
}

/// Both ALU sides on their operands (add a, add b, mul a, mul b), into the QPU's scratch
/// results and carries; a side whose result is neither written nor flagged is not computed.
#[inline(always)]
fn compute_sides(
    d: &Decoded,
    [aa, ab, ma, mb]: [&Lanes; 4],
    [add_out, mul_out]: &mut [Lanes; 2],
    [add_carry, mul_carry]: &mut [Lanes; 2],
) {
    if d.computes[0] {
        (d.add_fn)(aa, ab, add_out, add_carry);
    }
    if d.computes[1] {
        (d.mul_fn)(ma, mb, mul_out, mul_carry);
    }
}

fn execute_alu(q: &mut Qpu, d: &Decoded, x: &mut Ctx<'_, '_>, track: bool) -> Result<(), Fault> {
    read_io_operands(q, d, x)?;
    // A VPM read may have brought in undefined lanes just now.
    let track = track || (q.poisoned && x.config.check_hazards);
    let poison = if track { result_poison(q, d) } else { [0; 2] };
    // Results and carries go to the QPU's scratch rows. A side whose result is neither
    // written nor flagged is not computed; a mul nop that is written yields zeros (marked
    // undefined when tracked).
    let exact;
    {
        let Qpu {
            file,
            results,
            carries,
            ..
        } = &mut *q;
        let operand = |k: usize| -> &Lanes { &file[usize::from(d.src[k])] };
        if d.unpack == Unpack::None {
            let (aa, ab) = (operand(0), operand(1));
            compute_sides(d, [aa, ab, operand(2), operand(3)], results, carries);
            exact = exact_sum(d, aa, ab);
        } else {
            // pm=0: unpack values read through file A; pm=1: unpack r4. Whether a 16-bit or
            // 8-bit unpack converts to float depends on the consuming operation.
            let unpacked_mux = if d.pack.pm() { 4 } else { 6 };
            let floats = [
                d.op_add.reads_floats(),
                d.op_add.reads_floats(),
                d.op_mul.reads_floats(),
                d.op_mul.reads_floats(),
            ];
            let mut operands = [[0u32; 16]; 4];
            for (k, slot) in operands.iter_mut().enumerate() {
                *slot = *operand(k);
                if d.mux[k] == unpacked_mux {
                    let float = floats[k] || d.pack.pm();
                    for v in slot.iter_mut() {
                        *v = alu::unpack(d.unpack, *v, float);
                    }
                }
            }
            let [a, b, c, e] = &operands;
            compute_sides(d, [a, b, c, e], results, carries);
            exact = exact_sum(d, a, b);
        }
        if d.rotate != Rotate::None {
            rotate_in_place(&mut results[1], rotation(d.rotate, file), d.rotate_full);
        }
    }
    write_back(
        q,
        x,
        d,
        Results {
            add_float: d.writes_float[0],
            add_exact: exact.as_deref(),
            add_active: d.op_add != AddOp::Nop,
            mul_float: d.writes_float[1],
            mul_active: d.op_mul != MulOp::Nop,
            poison: track.then_some(poison),
        },
    )
}

/// The unwrapped add/sub result, needed only for the 32-bit saturating pack.
/// Boxed because it is rare: moving 128 bytes per instruction showed up in profiles.
#[inline(always)]
fn exact_sum(d: &Decoded, a: &Lanes, b: &Lanes) -> Option<Box<[i64; 16]>> {
    if !d.saturate32 {
        return None;
    }
    exact_sum_slow(d.op_add, a, b)
}

#[inline(never)]
fn exact_sum_slow(op: AddOp, a: &Lanes, b: &Lanes) -> Option<Box<[i64; 16]>> {
    let signed = |v: u32| i64::from(v as i32);
    match op {
        AddOp::Add => Some(Box::new(std::array::from_fn(|i| {
            signed(a[i]) + signed(b[i])
        }))),
        AddOp::Sub => Some(Box::new(std::array::from_fn(|i| {
            signed(a[i]) - signed(b[i])
        }))),
        _ => None,
    }
}

/// The rotation amount: a small immediate's, or r5's element 0 (low 4 bits).
#[inline(always)]
fn rotation(rotate: Rotate, file: &alu::Table) -> usize {
    match rotate {
        Rotate::ByR5 => (file[rows::R5][0] & 15) as usize,
        Rotate::By(n) => usize::from(n),
        Rotate::None => 0,
    }
}

/// Rotates "upwards" by `by` lanes (lane 0 moves to lane `by`): across all 16 lanes, or
/// within each quad by the low 2 bits [measured: vc4asm].
#[cfg(test)]
fn rotate(values: &Lanes, by: usize, full: bool) -> Lanes {
    let mut out = *values;
    rotate_in_place(&mut out, by, full);
    out
}

/// [`rotate`] in place: the full rotation copies a 16-lane window of the vector repeated
/// twice straight back (four 16-byte loads and stores, not the lane-by-lane moves that
/// returning the rotated array by value compiled to).
#[inline(always)]
fn rotate_in_place(values: &mut Lanes, by: usize, full: bool) {
    if full {
        // Lane i takes lane (i - by) mod 16.
        let mut doubled = [0; 32];
        doubled[..16].copy_from_slice(values);
        doubled[16..].copy_from_slice(values);
        let start = 16 - (by & 15);
        values.copy_from_slice(&doubled[start..start + 16]);
    } else {
        *values = rotate_quads(values, by);
    }
}

/// The rotation within each quad by the low 2 bits of `by`.
#[inline(always)]
fn rotate_quads(values: &Lanes, by: usize) -> Lanes {
    let mut out = [0; 16];
    let by = by & 3;
    for (i, o) in out.iter_mut().enumerate() {
        *o = values[(i & !3) + ((i & 3) + 4 - by) % 4];
    }
    out
}

fn execute_load_imm(
    q: &mut Qpu,
    d: &Decoded,
    x: &mut Ctx<'_, '_>,
    track: bool,
) -> Result<(), Fault> {
    let values = d.ldi_lanes.as_deref().copied().unwrap_or([d.imm; 16]);
    q.results = [values; 2];
    if d.set_flags {
        // A load immediate's C flag is clear.
        q.carries = [[0; 16]; 2];
    }
    write_back(
        q,
        x,
        d,
        Results {
            add_float: false,
            add_exact: None,
            add_active: true,
            mul_float: false,
            mul_active: true,
            poison: track.then_some([0; 2]),
        },
    )
}

/// What the write-back needs to know about the results in `Qpu::results` and
/// `Qpu::carries` (add side first).
struct Results<'a> {
    add_float: bool,
    add_exact: Option<&'a [i64; 16]>,
    /// The add side computes something (opcode not nop, or a load immediate).
    add_active: bool,
    mul_float: bool,
    mul_active: bool,
    /// With undefined-value tracking on: the undefined lanes of the add and mul results.
    poison: Option<[u16; 2]>,
}

#[inline(always)]
fn write_back(
    q: &mut Qpu,
    x: &mut Ctx<'_, '_>,
    d: &Decoded,
    out: Results<'_>,
) -> Result<(), Fault> {
    // Both sides see the flags from before the instruction (they change last).
    let mask_add = cond_mask(d.cond_add, &q.flags);
    let mask_mul = cond_mask(d.cond_mul, &q.flags);
    if d.cond_acc_write {
        q.cond_writes = cond_writes_of(d, &q.flags, q.icount);
    }
    if let Some(poison) = out.poison {
        track_writes(q, d, [&mask_add, &mask_mul], poison)?;
        if d.set_flags {
            track_flags(q, d, x.config.ambiguities.flags, &out, poison);
        }
    }
    if mask_add.any() && d.dst_add != Dest::Nop {
        let pack = match d.pack {
            Pack::RegfileA(mode) if mode != PackA::None && matches!(d.dst_add, Dest::PhysA(_)) => {
                PackStep::A(mode, out.add_float, out.add_exact)
            }
            _ => PackStep::None,
        };
        write_dest(q, x, d.dst_add, 0, &mask_add, pack, &d.tmu_allocation)?;
    }
    if mask_mul.any() && d.dst_mul != Dest::Nop {
        let pack = match d.pack {
            Pack::RegfileA(mode) if mode != PackA::None && matches!(d.dst_mul, Dest::PhysA(_)) => {
                PackStep::A(mode, out.mul_float, None)
            }
            Pack::Mul(mode) if mode != qpu_isa::vc4::PackMul::None => PackStep::Mul(mode),
            _ => PackStep::None,
        };
        write_dest(q, x, d.dst_mul, 1, &mask_mul, pack, &d.tmu_allocation)?;
    }
    if d.set_flags {
        let Qpu {
            flags,
            results,
            carries,
            ..
        } = &mut *q;
        update_flags(
            flags,
            x.config.ambiguities.flags,
            FlagSources {
                add: out
                    .add_active
                    .then_some((&results[0], &carries[0], out.add_float)),
                mul: out
                    .mul_active
                    .then_some((&results[1], &carries[1], out.mul_float)),
                cond_add: d.cond_add,
                cond_mul: d.cond_mul,
            },
        );
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum PackStep<'a> {
    None,
    A(PackA, bool, Option<&'a [i64; 16]>),
    Mul(qpu_isa::vc4::PackMul),
}

#[inline(always)]
fn masked_store(dst: &mut Lanes, values: &Lanes, mask: &WriteMask) {
    match mask {
        WriteMask::Never => {}
        WriteMask::Always => *dst = *values,
        WriteMask::Lanes(m) => {
            for ((d, &v), &m) in dst.iter_mut().zip(values).zip(m) {
                *d = (*d & !m) | (v & m);
            }
        }
    }
}

fn apply_pack(pack: PackStep<'_>, values: &Lanes, old: &Lanes) -> Lanes {
    match pack {
        PackStep::None => *values,
        PackStep::A(mode, float, exact) => std::array::from_fn(|i| {
            alu::pack_a(mode, values[i], old[i], float, exact.map(|e| e[i]))
        }),
        PackStep::Mul(mode) => std::array::from_fn(|i| alu::pack_mul(mode, values[i], old[i])),
    }
}

/// Writes result `side` (0 add, 1 mul) of `q.results` to `dest`.
#[inline(always)]
fn write_dest(
    q: &mut Qpu,
    x: &mut Ctx<'_, '_>,
    dest: Dest,
    side: usize,
    mask: &WriteMask,
    pack: PackStep<'_>,
    hint: &std::cell::Cell<usize>,
) -> Result<(), Fault> {
    if let PackStep::None = pack {
        let row = match dest {
            Dest::PhysA(n) => rows::A + usize::from(n),
            Dest::PhysB(n) => rows::B + usize::from(n),
            Dest::Acc(n) => rows::ACC + usize::from(n),
            _ => return write_dest_general(q, x, dest, side, mask, pack, hint),
        };
        // `side` is 0 or 1; the mask lets the index go unchecked.
        masked_store(&mut q.file[row], &q.results[side & 1], mask);
        return Ok(());
    }
    write_dest_general(q, x, dest, side, mask, pack, hint)
}

#[inline(never)]
fn write_dest_general(
    q: &mut Qpu,
    x: &mut Ctx<'_, '_>,
    dest: Dest,
    side: usize,
    mask: &WriteMask,
    pack: PackStep<'_>,
    hint: &std::cell::Cell<usize>,
) -> Result<(), Fault> {
    let result = q.results[side & 1];
    let packed;
    let values = if matches!(pack, PackStep::None) {
        &result
    } else {
        let old = match dest {
            Dest::PhysA(n) => q.file[rows::A + usize::from(n)],
            Dest::PhysB(n) => q.file[rows::B + usize::from(n)],
            Dest::Acc(n) => q.file[rows::ACC + usize::from(n)],
            Dest::R5Quad | Dest::R5Replicate => q.file[rows::R5],
            _ => [0; 16],
        };
        packed = apply_pack(pack, &result, &old);
        &packed
    };
    match dest {
        Dest::Nop => {}
        Dest::PhysA(n) => masked_store(&mut q.file[rows::A + usize::from(n)], values, mask),
        Dest::PhysB(n) => masked_store(&mut q.file[rows::B + usize::from(n)], values, mask),
        Dest::Acc(n) => masked_store(&mut q.file[rows::ACC + usize::from(n)], values, mask),
        // r5 written through file A replicates each quad's element 0; through file B,
        // element 0 to all lanes [measured: vc4asm; the guide's wording is wrong].
        Dest::R5Quad => {
            let quads: Lanes = std::array::from_fn(|i| values[i & !3]);
            masked_store(&mut q.file[rows::R5], &quads, mask);
        }
        Dest::R5Replicate => masked_store(&mut q.file[rows::R5], &[values[0]; 16], mask),
        io => write_io(q, x, io, values, hint)?,
    }
    Ok(())
}

/// Writes to I/O registers. Registers that take a single value use element 0.
fn write_io(
    q: &mut Qpu,
    x: &mut Ctx<'_, '_>,
    dest: Dest,
    values: &Lanes,
    hint: &std::cell::Cell<usize>,
) -> Result<(), Fault> {
    let now = q.time;
    let timing = &x.config.timing;
    match dest {
        Dest::TmuNoswap => {
            // Only element 0 matters; any non-zero value disables the swap [measured].
            q.noswap = values[0] != 0;
            q.last_noswap = Some(q.icount);
        }
        // Only a non-zero value raises the interrupt [measured].
        Dest::HostInterrupt => q.report.host_interrupts += u64::from(values[0] != 0),
        Dest::UniformsAddress => {
            q.uniform_ptr = values[0];
            q.uniforms_since_reset = 0;
            q.last_uniforms_address = Some(q.icount);
        }
        Dest::Vpm => {
            let undefined = std::mem::take(&mut q.vpm_write_undefined);
            if undefined != 0 {
                x.vpm.note_undefined_origin(UndefinedOrigin {
                    what: q.poison_origin.clone(),
                    pc: q.poison_origin_pc,
                    address: q.poison_origin_address,
                });
            }
            q.vpm_port
                .push_undefined(x.vpm, values, undefined)
                .map_err(Fault::Vpm)?
        }
        Dest::VpmReadSetup => {
            q.vpm_port.write_vr_setup(values[0]).map_err(Fault::Vpm)?;
            // A generic read setup's data arrives 3 instructions later (guide section 7).
            if let Ok(ReadSetupWord::Generic(_)) = ReadSetupWord::decode(values[0]) {
                q.vpm_read_ready_at = now + timing.vpm_read_latency;
            }
        }
        Dest::VpmWriteSetup => q.vpm_port.write_vw_setup(values[0]).map_err(Fault::Vpm)?,
        Dest::VdrAddress => {
            let transfer = q
                .vpm_port
                .start_vdr(x.vpm, x.mem, values[0])
                .map_err(Fault::Vpm)?;
            let start = now.max(x.units.vdr_free_at);
            let done = start + timing.vdr_time(transfer.bytes);
            x.units.vdr_free_at = done;
            q.vdr_done_at = done;
            if q.timeline {
                q.report.dma_jobs.push(DmaJob {
                    start,
                    end: done,
                    store: false,
                });
            }
            q.report.dma_load_bytes += u64::from(transfer.bytes);
        }
        Dest::VdwAddress => {
            let transfer = q
                .vpm_port
                .start_vdw(x.vpm, x.mem, values[0])
                .map_err(|e| match e {
                    VpmError::UndefinedData { columns, .. } => {
                        let origin = x.vpm.undefined_origin();
                        Fault::Rule(Rule::UndefinedValueUsed {
                            what: "the VPM data a VDW DMA stores",
                            lanes: columns,
                            origin: origin.map(|o| o.what.clone()).unwrap_or_default(),
                            origin_pc: origin.and_then(|o| o.pc),
                            origin_address: origin.and_then(|o| o.address),
                        })
                    }
                    other => Fault::Vpm(other),
                })?;
            let start = now.max(x.units.vdw_free_at);
            let done = start + timing.vdw_time(transfer.bytes);
            x.units.vdw_free_at = done;
            q.vdw_done_at = done;
            if q.timeline {
                q.report.dma_jobs.push(DmaJob {
                    start,
                    end: done,
                    store: true,
                });
            }
            q.report.dma_store_bytes += u64::from(transfer.bytes);
        }
        Dest::MutexRelease => {
            if x.units.mutex_owner != Some(q.id) {
                if x.config.check_hazards {
                    return Err(Fault::Rule(Rule::MutexNotHeld));
                }
                return Ok(());
            }
            x.units.mutex_owner = None;
            let at = now + timing.mutex_handoff;
            for w in x.units.mutex_waiters.drain(..) {
                x.units.wakes.push((w, at, StallCause::Mutex));
            }
        }
        Dest::Sfu(op) => {
            q.file[rows::R4] = values.map(|v| alu::sfu(op, v));
            q.last_sfu = Some(q.icount);
            q.r4_loaded = true;
        }
        Dest::TmuS(tmu) => tmu_lookup(q, x, usize::from(tmu), values, hint)?,
        // Unsupported destinations are rejected before execution.
        _ => {}
    }
    Ok(())
}

fn tmu_lookup(
    q: &mut Qpu,
    x: &mut Ctx<'_, '_>,
    tmu: usize,
    values: &Lanes,
    hint: &std::cell::Cell<usize>,
) -> Result<(), Fault> {
    let check = x.config.check_hazards;
    let depth = x.config.ambiguities.tmu_fifo_depth;
    if check && q.tmu_fifo[tmu].len() >= depth as usize {
        return Err(Fault::Rule(Rule::TmuFifoOverflow {
            tmu: tmu as u8,
            depth,
        }));
    }
    if check
        && q.last_noswap
            .is_some_and(|at| q.icount - at < latency::TMU_NOSWAP as u64)
    {
        return Err(Fault::Rule(Rule::TmuNoswapTooLate));
    }
    // Direct lookups ignore the low 2 address bits and return one word per lane.
    // (A lane loop rather than `map`, which compiled to a call.)
    let mut addresses = *values;
    for address in &mut addresses {
        *address &= !3;
    }
    let mut allocation = hint.get();
    let (data, poison) = gather(x.mem, &addresses, &mut allocation);
    hint.set(allocation);
    // A lane outside every allocation reads whatever the bus returns on hardware: poison,
    // an error only where it is used (hardware-proven code prefetches one vector past an
    // array's end and discards it). Not tracked without hazard checks: such lanes read 0.
    let origin = (poison != 0 && check).then(|| {
        let lane = poison.trailing_zeros() as usize;
        Box::new((
            q.pc,
            format!(
                "at PC {:#010x}: the TMU lookup written there read lane(s) {} from outside \
                 every allocation (lane {lane}: bus address {:#010x})",
                q.pc,
                qpu_isa::violation::lane_list(poison),
                addresses[lane]
            ),
            addresses[lane],
        ))
    });
    // QPUs 2 and 3 of each slice have TMU0 and TMU1 swapped unless TMU_NOSWAP is set
    // (guide section 4).
    let swap = !q.noswap && q.id % 4 >= 2;
    let unit = (q.id / 4) * 2 + (tmu ^ usize::from(swap));
    let units = &mut *x.units;
    let timing = units.tmus[unit].lookup(q.time, &addresses, &mut units.l2c, &x.config.timing);
    if q.timeline {
        q.tmu_issued[tmu].push_back(q.time);
    }
    q.tmu_fifo[tmu].push_back(TmuResult {
        values: data,
        ready_at: timing.ready_at,
        poison: if check { poison } else { 0 },
        origin,
    });
    q.report.tmu_requests += 1;
    q.report.tmu_cache_misses += timing.misses;
    Ok(())
}

/// The 16 little-endian words of 64 bytes.
#[inline(always)]
fn words_of(bytes: &[u8; 64]) -> Lanes {
    let mut data = [0u32; 16];
    for (i, word) in data.iter_mut().enumerate() {
        *word = u32::from_le_bytes([
            bytes[4 * i],
            bytes[4 * i + 1],
            bytes[4 * i + 2],
            bytes[4 * i + 3],
        ]);
    }
    data
}

/// Reads one word per lane, and the lanes (bit i = lane i) whose address is outside every
/// allocation (those read 0). Lanes usually fall in one allocation: read that span once and
/// index it (as one copy when the lanes are consecutive words); otherwise read lane by lane.
fn gather(mem: &LendingMemory<'_>, addresses: &[u32; 16], hint: &mut usize) -> (Lanes, u16) {
    // The common case first: 16 consecutive words (a compare per lane, no min/max search).
    let first = addresses[0];
    let consecutive = first <= u32::MAX - 60
        && (0u32..)
            .zip(addresses)
            .fold(true, |all, (i, &addr)| all & (addr == first + 4 * i));
    if consecutive {
        if let Ok(bytes) = mem.read_bytes_near(first, 64, hint) {
            // As a fixed-size array, so that the copy is four 16-byte moves.
            if let Ok(bytes) = <&[u8; 64]>::try_from(bytes) {
                return (words_of(bytes), 0);
            }
        }
    }
    let low = addresses.iter().fold(u32::MAX, |m, &a| m.min(a));
    let high = addresses.iter().fold(0, |m, &a| m.max(a));
    if let Some(span) = (high - low).checked_add(4) {
        if let Ok(bytes) = mem.read_bytes(low, span) {
            let mut data = [0u32; 16];
            let consecutive = (0u32..)
                .zip(addresses)
                .all(|(i, &addr)| addr == low.wrapping_add(4 * i));
            if consecutive && bytes.len() == 64 {
                for (word, chunk) in data.iter_mut().zip(bytes.chunks_exact(4)) {
                    *word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                }
                return (data, 0);
            }
            for (word, &addr) in data.iter_mut().zip(addresses) {
                let at = (addr - low) as usize;
                if let Some(&[b0, b1, b2, b3]) = bytes.get(at..at + 4) {
                    *word = u32::from_le_bytes([b0, b1, b2, b3]);
                }
            }
            return (data, 0);
        }
    }
    let mut data = [0u32; 16];
    let mut outside = 0u16;
    for (lane, (word, &addr)) in data.iter_mut().zip(addresses).enumerate() {
        match mem.read_u32(addr) {
            Ok(value) => *word = value,
            Err(_) => outside |= 1 << lane,
        }
    }
    (data, outside)
}

// ------------------------------------------------------------------------------------------
// The read latch and undefined values (see the `rules` module docs).
// ------------------------------------------------------------------------------------------

/// The physical-register bit of a value-table row (rows 0–63 are files A and B, laid out as
/// [`qpu_isa::vc4::info::phys_bit`] numbers them), or 0 for any other row.
#[inline(always)]
fn latch_bit(row: u8) -> u64 {
    if usize::from(row) < rows::ACC {
        1 << row
    } else {
        0
    }
}

/// Notes the instruction's register reads as the files' read latches, and copies a latch
/// out of a register the instruction is about to overwrite.
#[inline(always)]
fn latch_reads(q: &mut Qpu, d: &Decoded) {
    q.latch = (q.latch & d.latch_keep) | d.latch_set;
    if d.phys_writes != 0 && d.phys_writes & latch_bits(q.latch) != 0 {
        save_latches(q, d.phys_writes);
    }
}

/// The physical-register bits of the rows the two read latches point at: two loads from a
/// table of [`latch_bit`], no branch.
#[inline(always)]
fn latch_bits(latch: u16) -> u64 {
    LATCH_BITS[usize::from(latch as u8)] | LATCH_BITS[usize::from((latch >> 8) as u8)]
}

/// [`latch_bit`] of every row.
static LATCH_BITS: [u64; 256] = {
    let mut bits = [0; 256];
    let mut row = 0;
    while row < rows::ACC {
        bits[row] = 1 << row;
        row += 1;
    }
    bits
};

/// File `file`'s latch row.
fn latch_row(q: &Qpu, file: usize) -> u8 {
    (q.latch >> (8 * file)) as u8
}

#[cold]
fn save_latches(q: &mut Qpu, writes: u64) {
    for file in 0..2 {
        if latch_bit(latch_row(q, file)) & writes != 0 {
            fill_latch(q, file);
        }
    }
}

/// Copies file `file`'s read latch into its latch row: lanes 12–15 of the last value read,
/// replicated to every quad [measured by vc4asm], with their undefined marks.
fn fill_latch(q: &mut Qpu, file: usize) {
    let row = if file == 0 {
        rows::LATCH_A
    } else {
        rows::LATCH_B
    };
    let src = usize::from(latch_row(q, file));
    if src == row {
        return;
    }
    let values = q.file[src];
    q.file[row] = std::array::from_fn(|i| values[12 + (i & 3)]);
    q.poison[row] = ((q.poison[src] >> 12) & 0xf) * 0x1111;
    q.latch = (q.latch & !(0xff << (8 * file))) | ((row as u16) << (8 * file));
}

/// The rows and lanes of `d`'s conditional writes under `flags`, as instruction `icount`.
#[inline(never)]
fn cond_writes_of(d: &Decoded, flags: &Flags, icount: u64) -> CondWrites {
    let mut out = CondWrites {
        icount,
        rows: [rows::SINK as u8; 2],
        lanes: [0; 2],
    };
    for (side, (dest, cond)) in [(d.dst_add, d.cond_add), (d.dst_mul, d.cond_mul)]
        .into_iter()
        .enumerate()
    {
        if !matches!(cond, Cond::Always | Cond::Never) {
            if let Some(row) = dest_row(dest) {
                out.rows[side] = row as u8;
                out.lanes[side] = cond_bits(cond, flags);
            }
        }
    }
    out
}

/// The lanes where `cond` (a flag condition) passes, as a bit mask.
#[inline(always)]
fn cond_bits(cond: Cond, flags: &Flags) -> u16 {
    let (flag, invert) = match cond {
        Cond::ZeroSet => (&flags.z, 0),
        Cond::ZeroClear => (&flags.z, ALL_LANES),
        Cond::NegativeSet => (&flags.n, 0),
        Cond::NegativeClear => (&flags.n, ALL_LANES),
        Cond::CarrySet => (&flags.c, 0),
        Cond::CarryClear => (&flags.c, ALL_LANES),
        Cond::Always => return ALL_LANES,
        Cond::Never => return 0,
    };
    lane_bits(flag) ^ invert
}

/// A lane mask (each lane 0 or all ones) as bits, lane i in bit i.
#[inline(always)]
fn lane_bits(mask: &Lanes) -> u16 {
    // Each lane is 0 or all ones, so masking lane i with bit i and or-ing the lanes gives
    // the bits (an and and an or-reduction: vectorizes).
    (0..16).fold(0, |bits, i| bits | (mask[i] & (1 << i))) as u16
}

/// The lanes of `row` the previous instruction wrote: those its conditional write reached,
/// or all of them.
fn lanes_written_before(q: &Qpu, row: u8) -> u16 {
    let w = &q.cond_writes;
    if w.icount + 1 != q.icount || !w.rows.contains(&row) {
        return ALL_LANES;
    }
    (0..2)
        .filter(|&side| w.rows[side] == row)
        .fold(0, |lanes, side| lanes | w.lanes[side])
}

/// The value-table row a destination writes in full, if it is a register.
fn dest_row(dest: Dest) -> Option<usize> {
    match dest {
        Dest::PhysA(n) => Some(rows::A + usize::from(n)),
        Dest::PhysB(n) => Some(rows::B + usize::from(n)),
        Dest::Acc(n) => Some(rows::ACC + usize::from(n)),
        Dest::R5Quad | Dest::R5Replicate => Some(rows::R5),
        _ => None,
    }
}

/// The lanes a write mask lets through.
fn mask_lanes(mask: &WriteMask) -> u16 {
    match mask {
        WriteMask::Never => 0,
        WriteMask::Always => ALL_LANES,
        WriteMask::Lanes(m) => lane_bits(m),
    }
}

/// Rotates a lane mask as [`rotate`] moves values: lane i to lane i + by, across all 16
/// lanes or within each quad.
fn rotate_lanes(mask: u16, by: usize, full: bool) -> u16 {
    if full {
        mask.rotate_left(by as u32)
    } else {
        let by = (by & 3) as u32;
        (0..4).fold(0, |out, quad| {
            let nibble = (mask >> (4 * quad)) & 0xf;
            let turned = ((nibble << by) | (nibble >> ((4 - by) & 3))) & 0xf;
            let turned = if by == 0 { nibble } else { turned };
            out | (turned << (4 * quad))
        })
    }
}

/// Records where an undefined value was made, for the error that reports its use.
#[cold]
fn note_origin(q: &mut Qpu, d: &Decoded, what: String) {
    q.poison_origin = format!("at PC {:#010x} (`{}`): {what}", q.pc, disassemble(&d.instr));
    q.poison_origin_pc = Some(q.pc);
    q.poison_origin_address = None;
}

/// The undefined lanes of the add and mul results, from the operands they consume.
fn result_poison(q: &mut Qpu, d: &Decoded) -> [u16; 2] {
    let mut out = [0u16; 2];
    for (side, result) in out.iter_mut().enumerate() {
        let [a, b] = d.poison_srcs[side];
        if d.self_cancelling[side] {
            continue;
        }
        *result = q.poison[usize::from(a)] | q.poison[usize::from(b)];
        for row in [a, b] {
            let row = usize::from(row);
            if q.poison[row] != 0 && matches!(row, rows::UNDEFINED | rows::LATCH_A | rows::LATCH_B)
            {
                let what = if row == rows::UNDEFINED {
                    "an operand reads an unmapped register address".to_string()
                } else {
                    format!(
                        "an operand reads the NOP address (39) of file {} before the program \
                         read anything defined through that file",
                        if row == rows::LATCH_A { 'A' } else { 'B' }
                    )
                };
                note_origin(q, d, what);
            }
        }
    }
    let stale = d.rotate_sources & q.prev_acc_writes;
    if stale != 0 && d.op_mul != MulOp::Nop {
        // The rotator reads its accumulators a cycle early: lanes the previous instruction
        // wrote hold the old value (guide chapter 3, vector rotation). A stale r5 makes the
        // amount, so every lane, undefined.
        if stale & (1 << 5) != 0 {
            out[1] = ALL_LANES;
        }
        for k in [2, 3] {
            let m = d.mux[k];
            if m <= 3 && stale & (1 << m) != 0 {
                out[1] |= lanes_written_before(q, rows::ACC as u8 + m);
            }
        }
        note_origin(
            q,
            d,
            format!(
                "a rotation reads r{} right after the previous instruction wrote it; the lanes \
                 that write reached hold the old value in the rotation",
                stale.trailing_zeros()
            ),
        );
    }
    if d.rotate != Rotate::None {
        let by = match d.rotate {
            Rotate::ByR5 if q.poison[rows::R5] & 1 != 0 => {
                out[1] = ALL_LANES;
                0
            }
            Rotate::ByR5 => (q.file[rows::R5][0] & 15) as usize,
            Rotate::By(n) => usize::from(n),
            Rotate::None => 0,
        };
        out[1] = rotate_lanes(out[1], by, d.rotate_full);
    }
    if d.mul_nop_writes {
        out[1] = ALL_LANES;
        note_origin(
            q,
            d,
            format!(
                "the mul ALU's opcode is nop but it writes {}; the hardware then re-emits a \
                 stale mul result",
                d.dst_mul.name()
            ),
        );
    }
    out
}

/// The lanes of an I/O register's value that the unit uses.
fn io_lanes(dest: Dest) -> u16 {
    match dest {
        Dest::Vpm | Dest::TmuS(_) | Dest::TmuTexture | Dest::Sfu(_) => ALL_LANES,
        Dest::MutexRelease | Dest::Nop => 0,
        _ => 1,
    }
}

/// Moves the undefined marks of this instruction's writes into their destinations, and
/// rejects a write of an undefined value to an I/O register.
fn track_writes(
    q: &mut Qpu,
    d: &Decoded,
    masks: [&WriteMask; 2],
    poison: [u16; 2],
) -> Result<(), Fault> {
    let mut reached = [0u16; 2];
    for (side, (dest, cond)) in [(d.dst_add, d.cond_add), (d.dst_mul, d.cond_mul)]
        .into_iter()
        .enumerate()
    {
        if cond == Cond::Never || dest == Dest::Nop {
            continue;
        }
        let written = mask_lanes(masks[side]);
        // Lanes whose condition reads an undefined flag may or may not be written.
        let unsure = if cond == Cond::Always {
            0
        } else {
            q.flag_poison
        };
        reached[side] = written | unsure;
        let bad = (poison[side] & written) | unsure;
        match dest {
            Dest::R5Quad | Dest::R5Replicate => {
                let spread = if dest == Dest::R5Quad {
                    (0..4).fold(0, |m, quad| {
                        m | if bad & (1 << (4 * quad)) != 0 {
                            0xf << (4 * quad)
                        } else {
                            0
                        }
                    })
                } else if bad & 1 != 0 {
                    ALL_LANES
                } else {
                    0
                };
                let cleared = if written == ALL_LANES {
                    0
                } else {
                    q.poison[rows::R5]
                };
                q.poison[rows::R5] = cleared | spread;
            }
            Dest::Sfu(_) => q.poison[rows::R4] = poison[side],
            dest => match dest_row(dest) {
                Some(row) => {
                    // A packed write keeps the other bits of each lane: it never clears a mark.
                    let partial = match d.pack {
                        Pack::RegfileA(p) => p != PackA::None && matches!(dest, Dest::PhysA(_)),
                        Pack::Mul(p) => side == 1 && p != qpu_isa::vc4::PackMul::None,
                    };
                    let keep = if partial { ALL_LANES } else { !reached[side] };
                    q.poison[row] = (q.poison[row] & keep) | bad;
                }
                None if dest == Dest::Vpm => {
                    // Undefined lanes go into the VPM words they land in: an error only if a
                    // DMA stores them or a read uses them.
                    q.vpm_write_undefined = bad | (poison[side] & reached[side]);
                }
                None => {
                    let used = io_lanes(dest) & (bad | (poison[side] & reached[side]));
                    if used != 0 {
                        return Err(Fault::Rule(Rule::UndefinedValueUsed {
                            what: io_use(dest),
                            lanes: used,
                            origin: q.poison_origin.clone(),
                            origin_pc: q.poison_origin_pc,
                            origin_address: q.poison_origin_address,
                        }));
                    }
                }
            },
        }
    }
    if d.double_write {
        let both = reached[0] & reached[1];
        if both != 0 {
            if let Some(row) = dest_row(d.dst_add) {
                q.poison[row] |= both;
            }
            note_origin(
                q,
                d,
                format!("both ALUs wrote {} in the same lane(s)", d.dst_add.name()),
            );
        }
    }
    Ok(())
}

/// What a write of an undefined value to an I/O register would feed, for the error.
fn io_use(dest: Dest) -> &'static str {
    match dest {
        Dest::Vpm => "the vector written to the VPM",
        Dest::TmuS(_) | Dest::TmuTexture => "the TMU lookup address",
        Dest::VdrAddress => "the VDR load address",
        Dest::VdwAddress => "the VDW store address",
        Dest::VpmReadSetup => "the VPM/VDR read setup",
        Dest::VpmWriteSetup => "the VPM/VDW write setup",
        Dest::UniformsAddress => "the uniforms address",
        Dest::HostInterrupt => "the host interrupt value",
        Dest::TmuNoswap => "the TMU_NOSWAP value",
        _ => "an I/O register write",
    }
}

/// Moves the undefined marks of the flag-setting result into the flags.
fn track_flags(q: &mut Qpu, d: &Decoded, rule: FlagsRule, out: &Results<'_>, poison: [u16; 2]) {
    let Some((side, cond)) =
        flag_side(rule, out.add_active, out.mul_active, d.cond_add, d.cond_mul)
    else {
        return;
    };
    let updated = mask_lanes(&cond_mask(cond, &q.flags));
    let unsure = if cond == Cond::Always {
        0
    } else {
        q.flag_poison
    };
    q.flag_poison = (q.flag_poison & !(updated | unsure)) | (poison[side] & updated) | unsure;
}

/// A branch that decides on undefined flags, or jumps by an undefined register, is an error.
fn check_branch_poison(q: &Qpu, branch: &BranchInfo, config: &EmulatorConfig) -> Result<(), Fault> {
    let used = |what, lanes| {
        Err(Fault::Rule(Rule::UndefinedValueUsed {
            what,
            lanes,
            origin: q.poison_origin.clone(),
            origin_pc: q.poison_origin_pc,
            origin_address: q.poison_origin_address,
        }))
    };
    if branch.cond != BranchCond::Always && q.flag_poison != 0 {
        return used("the flags deciding the branch", q.flag_poison);
    }
    if let Some(reg) = branch.reg {
        let lane = match config.ambiguities.branch_register_lane {
            BranchRegisterLane::Element15 => 15,
            BranchRegisterLane::Element0 => 0,
        };
        let bad = q.poison[rows::A + usize::from(reg)] & (1 << lane);
        if bad != 0 {
            return used("the register added to the branch target", bad);
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod path_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latch_bits_table_matches_latch_bit() {
        for a in 0..=255u8 {
            for b in [0u8, 5, 31, 32, 63, 64, 200, 255] {
                let latch = u16::from(a) | u16::from(b) << 8;
                assert_eq!(latch_bits(latch), latch_bit(a) | latch_bit(b));
            }
        }
    }

    #[test]
    fn rotation_moves_lane_zero_upwards() {
        let v = ELEMENT_NUMBERS;
        let full = rotate(&v, 3, true);
        assert_eq!(full[3], 0);
        assert_eq!(full[0], 13);
        let quad = rotate(&v, 5, false);
        assert_eq!(&quad[..4], &[3, 0, 1, 2]);
        assert_eq!(&quad[4..8], &[7, 4, 5, 6]);
    }

    #[test]
    fn branch_conditions_over_sixteen_lanes() {
        let f = Flags {
            z: std::array::from_fn(|i| alu::lane_mask(i == 0)),
            n: [u32::MAX; 16],
            c: [0; 16],
        };
        assert!(branch_taken(BranchCond::AnyZeroSet, &f));
        assert!(!branch_taken(BranchCond::AllZeroSet, &f));
        assert!(branch_taken(BranchCond::AnyZeroClear, &f));
        assert!(branch_taken(BranchCond::AllNegativeSet, &f));
        assert!(!branch_taken(BranchCond::AnyNegativeClear, &f));
        assert!(branch_taken(BranchCond::AllCarryClear, &f));
        assert!(!branch_taken(BranchCond::AnyCarrySet, &f));
    }
}
