//! Predecoding: each instruction word becomes a [`Decoded`] once, with everything the
//! executor and the hazard checker ask about it worked out in advance.

use qpu_isa::vc4::{
    AddOp, AluInstruction, BranchCond, Cond, InputMux, Instruction, MulOp, Pack, Signal, Unpack,
};

use crate::error::Rule;
use crate::vc4::alu::{self, DirectOp, LaneOp};
use crate::vc4::config::FlagsRule;

/// The one place that turns an instruction into text for error messages.
pub(crate) fn disassemble(instr: &Instruction) -> String {
    qpu_isa::vc4::disasm::instruction(instr)
}

/// Row numbers of a QPU's unified value table: every operand an ALU can read is one row, so
/// an operand fetch is a single index with no branching (see [`Decoded::src`]).
pub(crate) mod rows {
    /// Register file A, rows 0–31.
    pub const A: usize = 0;
    /// Register file B, rows 32–63.
    pub const B: usize = 32;
    /// r0–r5, rows 64–69 (r4 is 68, r5 is 69).
    pub const ACC: usize = 64;
    pub const R4: usize = ACC + 4;
    pub const R5: usize = ACC + 5;
    /// Element numbers 0..15.
    pub const ELEMENT: usize = 70;
    /// The QPU number in every lane.
    pub const QPU: usize = 71;
    /// The operand value of small-immediate code c is row IMM + c.
    pub const IMM: usize = 72;
    /// Values read from I/O registers (uniforms, VPM, ...) land here.
    pub const SCRATCH_A: usize = IMM + 64;
    pub const SCRATCH_B: usize = SCRATCH_A + 1;
    /// Zeros: operands no operation consumes.
    pub const ZERO: usize = SCRATCH_B + 1;
    /// What a read of the NOP address (39) through file A or B gives: the file's last read
    /// value, lanes 12–15 replicated per quad, copied here when an operand needs it.
    pub const LATCH_A: usize = ZERO + 1;
    pub const LATCH_B: usize = LATCH_A + 1;
    /// Zeros marked undefined (poisoned) in every lane: an unmapped read address, and the
    /// read latch before anything was read.
    pub const UNDEFINED: usize = LATCH_B + 1;
    /// Marks "this instruction does not change the file's read latch" in
    /// [`super::Decoded::latch_rows`].
    pub const KEEP: u8 = 254;
    /// Results written nowhere land here (never read), so a write-back needs no branch.
    pub const SINK: usize = 255;
    /// Table size: every `u8` is a row, so indexing by a row number needs no bounds check.
    pub const COUNT: usize = 256;
}

/// Register classes and the facts each instruction carries are qpu-isa's.
pub(crate) use qpu_isa::vc4::info::{cond_active, Dest, Read, Rotate};

/// Which executor runs an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// A plain ALU instruction: no signal, I/O, pack, unpack or rotation; destinations are
    /// registers, accumulators r0–r3 or nothing; no static fault. It touches only its own
    /// QPU and never stalls.
    Fast,
    /// [`Path::Fast`] with a rotation of the mul result. A rotation of an accumulator the
    /// previous instruction wrote makes undefined lanes: the executor then takes the
    /// general path.
    Rotate,
    /// A load immediate (any mode) to registers, accumulators r0–r3 or nothing, without
    /// pack and without static fault.
    LoadImm,
    /// A branch with no static fault, linking (if at all) to a register.
    Branch,
    /// An ALU instruction that the plain paths do not take only for its I/O: a write to an
    /// I/O register (TMU, VPM, SFU, DMA, uniforms address...), a TMU load signal or a read
    /// of the uniform stream or a DMA busy/wait register. No pack, unpack, rotation, read
    /// of address 39, VPM read, mutex acquire, thread end, static fault or undefined value
    /// it can make, so it runs without undefined-value tracking while the QPU holds none
    /// (the general path otherwise). Ordering, stalls and hazard checks are the general
    /// path's.
    Io,
    /// Everything else, including a code-cache slot not decoded yet.
    General,
}

impl Path {
    /// One of the paths [`crate::vc4::machine`]'s plain loop runs (touching only the QPU's own
    /// state, never stalling).
    #[inline(always)]
    pub(crate) fn plain(self) -> bool {
        !matches!(self, Path::Io | Path::General)
    }
}

/// What [`crate::vc4::machine`]'s plain loop does for an instruction, chosen once at
/// decode time so that the loop dispatches once per instruction and runs only the work the
/// instruction's shape needs (a refinement of [`Path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// [`Path::Fast`] with both operations nop: nothing to compute or write.
    Nothing,
    /// [`Path::Fast`] in [`Direct`] form with one side nop: the add (or mul) operation
    /// straight on the value table.
    AddDirect,
    MulDirect,
    /// [`Path::Fast`] in [`Direct`] form with both sides, in this order.
    AddMulDirect,
    MulAddDirect,
    /// [`Path::Fast`] through the scratch results (conditions, flags, or an order in which
    /// one side would overwrite the other's operand).
    Fast,
    Rotate,
    LoadImm,
    Branch,
    Io,
    /// Not run by the plain loop.
    Stop,
}

/// Whether and in which order the fast path runs the two operations straight on the value
/// table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direct {
    No,
    AddFirst,
    MulFirst,
}

/// The non-ALU parts of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Alu,
    LoadImm,
    Semaphore { acquire: bool, id: u8 },
    Branch(BranchInfo),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BranchInfo {
    pub cond: BranchCond,
    pub relative: bool,
    /// File-A register whose value is added, if `reg` is set.
    pub reg: Option<u8>,
    pub imm: i32,
    /// Odd `raddr_a` doubles as `sf` [measured]: the branch sets flags.
    pub sets_flags: bool,
}

/// A predecoded instruction.
#[derive(Clone, Debug)]
pub(crate) struct Decoded {
    /// False for the placeholder of a code-cache slot not decoded yet.
    pub loaded: bool,
    pub instr: Instruction,
    pub kind: Kind,
    pub signal: Signal,
    pub read_a: Option<Read>,
    pub read_b: Option<Read>,
    /// The small immediate's operand value, or the load immediate's 32 bits.
    pub imm: u32,
    /// Per-lane load-immediate values (all 16 the same except the per-element modes).
    pub ldi_lanes: Option<Box<[u32; 16]>>,
    pub op_add: AddOp,
    pub op_mul: MulOp,
    /// The add and mul operations as functions (with carries when the instruction sets
    /// flags).
    pub add_fn: LaneOp,
    pub mul_fn: LaneOp,
    /// General path: whether the add and mul results are used at all (an operation that is
    /// not nop, or a write under a condition other than never).
    pub computes: [bool; 2],
    /// Fast path: the operations from and to value-table rows, when they can run one after
    /// the other in [`Decoded::direct`] order.
    pub add_direct: DirectOp,
    pub mul_direct: DirectOp,
    /// `[a, b, result]` rows of the add and mul operations for the direct form.
    pub direct_rows: [[u8; 3]; 2],
    pub direct: Direct,
    /// add_a, add_b, mul_a, mul_b as mux numbers 0–7.
    pub mux: [u8; 4],
    pub unpack: Unpack,
    pub pack: Pack,
    pub cond_add: Cond,
    pub cond_mul: Cond,
    pub dst_add: Dest,
    pub dst_mul: Dest,
    pub set_flags: bool,
    /// Whether the add and mul results are floats (for Z and the 16-bit pack).
    pub writes_float: [bool; 2],
    /// Fast path, with `setf`: the side (0 add, 1 mul) the flags come from and the
    /// condition of their update, under `FlagsRule::Measured` and `FlagsRule::Guide`.
    pub flag_sides: [Option<(u8, Cond)>; 2],
    /// The regfile-A pack is the 32-bit saturation (needs the unwrapped add/sub result).
    pub saturate32: bool,
    pub rotate: Rotate,
    /// Whether the rotation is full (both mul inputs from r0–r3) or per quad [measured].
    pub rotate_full: bool,

    /// Touches state shared between QPUs: must run in global time order.
    pub shared: bool,
    // From here to `thread_end_forbidden`: the instruction's facts as
    // `qpu_isa::vc4::info::Info` defines them, copied where the executor reads them.
    pub fault: Option<Rule>,
    pub phys_reads: u64,
    pub phys_writes: u64,
    pub acc_writes: u8,
    pub rotate_sources: u8,
    pub reads_r4: bool,
    pub writes_r4: bool,
    pub sfu_write: bool,
    pub reads_uniform: bool,
    pub writes_uniforms_address: bool,
    pub tmu_write: bool,
    pub noswap_write: bool,
    pub is_branch: bool,
    pub is_thread_end: bool,
    pub thread_end_forbidden: Option<&'static str>,
    /// May have to wait before issuing (TMU load, VPM read, DMA wait or start).
    pub may_stall: bool,
    /// The only wait it may have is a TMU load's for its FIFO's front (no VPM read, DMA
    /// wait or start).
    pub stalls_on_tmu_only: bool,
    /// Value-table rows of add_a, add_b, mul_a, mul_b.
    pub src: [u8; 4],
    /// Fast path: value-table rows the add and mul results go to ([`rows::SINK`] for none,
    /// and for a write under condition never)...
    pub dst_rows: [u8; 2],
    /// ... and the conditions of those writes (never becomes always, to the sink).
    pub store_conds: [Cond; 2],
    /// Writes r0–r3 under a flag condition: the lanes it reaches are recorded (a rotation
    /// right after it reads the old value in those lanes).
    pub cond_acc_write: bool,
    /// Reads an I/O register with a side effect or a changing value (into a scratch row).
    pub io_read: bool,
    /// How the executor runs the instruction.
    pub path: Path,
    /// How the plain loop runs it.
    pub step: Step,
    /// The plain loop may run it inside a block of straight-line instructions: a step on
    /// the value table or the scratch results (not a branch or I/O) that needs no hazard
    /// check besides the register-file distance rule and those of an r4 read.
    pub blockable: bool,
    /// A hint for the plain loop, never for results: how many instructions from this one
    /// on (same page, consecutive) are blockable with no register-file distance clash
    /// between neighbours; 0 while not worked out (see `machine::block_len`).
    pub block: std::cell::Cell<u8>,
    /// A hint for the executor, never for results: whether a run of plain instructions
    /// starting here was longer than this one instruction the last time (so is worth the
    /// plain loop's set-up).
    pub plain_run: std::cell::Cell<bool>,
    /// The memory allocation this word's last TMU gather of 16 consecutive words read (a
    /// search hint, tried first: a word's lookups usually walk one array).
    pub tmu_allocation: std::cell::Cell<usize>,
    /// The rows whose lanes 12–15 become files A's and B's read latches (what a later read
    /// of address 39 returns), or [`rows::KEEP`].
    pub latch_rows: [u8; 2],
    /// The same as an update of a QPU's two latch rows packed in a `u16` (file A in the low
    /// byte): `latch = (latch & latch_keep) | latch_set`.
    pub latch_keep: u16,
    pub latch_set: u16,
    /// An operand reads address 39 (the latch rows must be filled first).
    pub reads_nop: bool,
    /// Rows of the operands each side consumes, for undefined-value tracking (a clean row
    /// where a side consumes fewer than two).
    pub poison_srcs: [[u8; 2]; 2],
    /// The side's result does not depend on its operands' values (`sub`, `xor` or
    /// `v8subs` of one source with itself), so undefined operands give a defined result.
    pub self_cancelling: [bool; 2],
    /// Both ALUs write the same accumulator (lanes written twice become undefined).
    pub double_write: bool,
    /// The mul opcode is nop but its destination is live: it writes an undefined value.
    pub mul_nop_writes: bool,
    /// Can make an undefined value (so never runs on a path that does not track them).
    pub may_poison: bool,
    /// Needs the hazard checks beyond the register-file distance rule.
    pub needs_history_checks: bool,
    /// ... other than those of a read of r4.
    pub history_besides_r4_read: bool,
}

impl Decoded {
    /// Predecodes one instruction: qpu-isa's [`Info`](qpu_isa::vc4::info::Info) facts, then
    /// what the executor needs to run it.
    pub fn new(instr: Instruction) -> Decoded {
        let mut d = Decoded {
            loaded: true,
            instr,
            kind: Kind::Alu,
            signal: Signal::None,
            read_a: None,
            read_b: None,
            imm: 0,
            ldi_lanes: None,
            op_add: AddOp::Nop,
            op_mul: MulOp::Nop,
            add_fn: alu::add_fns(AddOp::Nop).plain,
            mul_fn: alu::mul_fns(MulOp::Nop).plain,
            computes: [false; 2],
            add_direct: alu::add_fns(AddOp::Nop).direct,
            mul_direct: alu::mul_fns(MulOp::Nop).direct,
            direct_rows: [[rows::SINK as u8; 3]; 2],
            direct: Direct::No,
            mux: [0; 4],
            unpack: Unpack::None,
            pack: Pack::default(),
            cond_add: Cond::Never,
            cond_mul: Cond::Never,
            dst_add: Dest::Nop,
            dst_mul: Dest::Nop,
            set_flags: false,
            writes_float: [false; 2],
            flag_sides: [None; 2],
            saturate32: false,
            rotate: Rotate::None,
            rotate_full: false,
            shared: false,
            fault: None,
            phys_reads: 0,
            phys_writes: 0,
            acc_writes: 0,
            rotate_sources: 0,
            reads_r4: false,
            writes_r4: false,
            sfu_write: false,
            reads_uniform: false,
            writes_uniforms_address: false,
            tmu_write: false,
            noswap_write: false,
            is_branch: false,
            is_thread_end: false,
            thread_end_forbidden: None,
            may_stall: false,
            stalls_on_tmu_only: false,
            src: [rows::ZERO as u8; 4],
            dst_rows: [rows::SINK as u8; 2],
            store_conds: [Cond::Always; 2],
            cond_acc_write: false,
            io_read: false,
            path: Path::General,
            step: Step::Stop,
            blockable: false,
            block: std::cell::Cell::new(0),
            plain_run: std::cell::Cell::new(true),
            tmu_allocation: std::cell::Cell::new(0),
            needs_history_checks: false,
            history_besides_r4_read: false,
            latch_rows: [rows::KEEP; 2],
            latch_keep: 0xffff,
            latch_set: 0,
            reads_nop: false,
            poison_srcs: [[rows::ELEMENT as u8; 2]; 2],
            self_cancelling: [false; 2],
            double_write: false,
            mul_nop_writes: false,
            may_poison: false,
        };
        let info = instr.info();
        [d.dst_add, d.dst_mul] = info.dests;
        [d.cond_add, d.cond_mul] = info.conds;
        d.pack = info.pack;
        d.set_flags = info.set_flags;
        d.read_a = info.reads.map(|r| r[0]);
        d.read_b = info.reads.map(|r| r[1]);
        d.rotate = info.rotate;
        d.phys_reads = info.phys_reads;
        d.phys_writes = info.phys_writes;
        d.acc_writes = info.acc_writes;
        d.rotate_sources = info.rotate_sources;
        d.reads_r4 = info.reads_r4;
        d.writes_r4 = info.writes_r4;
        d.sfu_write = info.sfu_write;
        d.reads_uniform = info.reads_uniform;
        d.writes_uniforms_address = info.writes_uniforms_address;
        d.tmu_write = info.tmu_write;
        d.noswap_write = info.noswap_write;
        d.is_branch = info.is_branch;
        d.is_thread_end = info.is_thread_end;
        d.thread_end_forbidden = info.thread_end_forbidden;
        d.reads_nop = info.reads_nop;
        d.double_write = info.double_write;
        d.mul_nop_writes = info.mul_nop_writes;
        d.may_poison = info.reads_undefined || info.double_write || info.mul_nop_writes;
        // State shared between QPUs: the uniform stream, the VPM and its DMA, the mutex,
        // the TMUs' direct lookups and the semaphores.
        d.shared = [(d.dst_add, d.cond_add), (d.dst_mul, d.cond_mul)]
            .iter()
            .any(|&(dest, cond)| {
                cond_active(cond)
                    && matches!(
                        dest,
                        Dest::Vpm
                            | Dest::VdrAddress
                            | Dest::VdwAddress
                            | Dest::MutexRelease
                            | Dest::TmuS(_)
                    )
            })
            || info.reads_uniform
            || info.reads_from(Read::Vpm)
            || info.reads_from(Read::Mutex);
        d.fault = info.fault;
        match instr {
            Instruction::Alu(alu) => d.fill_alu(&alu),
            Instruction::LoadImm(ldi) => {
                d.kind = Kind::LoadImm;
                d.imm = ldi.imm;
                let lanes: [u32; 16] = std::array::from_fn(|i| ldi.mode.lane_value(ldi.imm, i));
                if lanes.iter().any(|&v| v != ldi.imm) {
                    d.ldi_lanes = Some(Box::new(lanes));
                }
            }
            Instruction::Semaphore(sema) => {
                d.kind = Kind::Semaphore {
                    acquire: sema.acquire,
                    id: sema.semaphore.index(),
                };
                d.imm = sema.imm();
                d.shared = true;
            }
            Instruction::Branch(br) => {
                d.kind = Kind::Branch(BranchInfo {
                    cond: br.cond,
                    relative: br.relative,
                    reg: br.use_raddr_a.then_some(br.raddr_a.index()),
                    imm: br.imm,
                    sets_flags: br.raddr_a.index() & 1 == 1,
                });
                if br.use_raddr_a {
                    // ASSUMPTION: the register read goes through file A's read port like an
                    // ALU operand, so it becomes the A latch.
                    d.latch_rows[0] = (rows::A + usize::from(br.raddr_a.index())) as u8;
                }
            }
        }
        d.finish();
        d
    }

    /// The placeholder for a code-cache slot whose word has not been read yet.
    pub fn empty() -> Decoded {
        Decoded {
            loaded: false,
            path: Path::General,
            step: Step::Stop,
            blockable: false,
            ..Decoded::new(Instruction::Alu(qpu_isa::vc4::AluInstruction::NOP))
        }
    }

    /// The ALU instruction's operands and operations as the executor runs them.
    fn fill_alu(&mut self, alu: &AluInstruction) {
        self.signal = alu.signal();
        self.op_add = alu.op_add;
        self.op_mul = alu.op_mul;
        self.mux = [alu.add_a, alu.add_b, alu.mul_a, alu.mul_b].map(InputMux::code);
        self.unpack = alu.unpack;
        let (read_a, read_b) = (
            self.read_a.unwrap_or(Read::Nop),
            self.read_b.unwrap_or(Read::Nop),
        );
        let row_of = |read: Read, file_row: usize, scratch: usize, latch: usize| -> usize {
            match read {
                Read::Phys(n) => file_row + usize::from(n),
                Read::ElementNumber => rows::ELEMENT,
                Read::QpuNumber => rows::QPU,
                Read::SmallImm => rows::IMM + usize::from(alu.small_imm().map_or(0, |i| i.code())),
                Read::Undefined(_) => rows::UNDEFINED,
                Read::Unsupported(_) => rows::ZERO,
                Read::Nop => latch,
                _ => scratch,
            }
        };
        let (a_row, b_row) = (
            row_of(read_a, rows::A, rows::SCRATCH_A, rows::LATCH_A),
            row_of(read_b, rows::B, rows::SCRATCH_B, rows::LATCH_B),
        );
        // Every read except address 39 replaces the file's read latch with what it read.
        let latch_of = |read: Read, row: usize| match read {
            Read::Nop => rows::KEEP,
            Read::Unsupported(_) => rows::UNDEFINED as u8,
            _ => row as u8,
        };
        self.latch_rows = [latch_of(read_a, a_row), latch_of(read_b, b_row)];
        self.src = self.mux.map(|m| match m {
            0..=5 => (rows::ACC + usize::from(m)) as u8,
            6 => a_row as u8,
            _ => b_row as u8,
        });
        self.io_read = [read_a, read_b].iter().any(|r| {
            !matches!(
                r,
                Read::Phys(_)
                    | Read::ElementNumber
                    | Read::QpuNumber
                    | Read::SmallImm
                    | Read::Nop
                    | Read::Undefined(_)
                    | Read::Unsupported(_)
            )
        });
        if let Some(imm) = alu.small_imm() {
            self.imm = imm.operand_bits();
        }
        // Undefined-value tracking: the rows each side consumes.
        for (side, inputs, first) in [(0, alu.add_inputs(), 0), (1, alu.mul_inputs(), 2)] {
            for (slot, &input) in inputs.iter().enumerate() {
                self.poison_srcs[side][slot] = self.src[first + input];
            }
        }
        let cancels_add = matches!(alu.op_add, AddOp::Sub | AddOp::Xor | AddOp::V8subs);
        let cancels_mul = alu.op_mul == MulOp::V8subs;
        self.self_cancelling = [
            cancels_add && self.mux[0] == self.mux[1],
            cancels_mul && self.mux[2] == self.mux[3],
        ];
        if self.rotate != Rotate::None {
            self.rotate_full = [self.mux[2], self.mux[3]].iter().all(|&m| m <= 3);
        }
    }

    /// How the executor runs the instruction, from everything decoded so far.
    fn finish(&mut self) {
        for (file, &row) in self.latch_rows.iter().enumerate() {
            if row != rows::KEEP {
                self.latch_keep &= !(0xff << (8 * file));
                self.latch_set |= u16::from(row) << (8 * file);
            }
        }
        let live_add = cond_active(self.cond_add) && self.dst_add != Dest::Nop;
        let live_mul = cond_active(self.cond_mul) && self.dst_mul != Dest::Nop;
        let reads = [self.read_a, self.read_b];
        let ldtmu = matches!(self.signal, Signal::LoadTmu0 | Signal::LoadTmu1);
        let stalling_read = reads
            .iter()
            .flatten()
            .any(|r| matches!(r, Read::Vpm | Read::VdrWait | Read::VdwWait));
        self.may_stall = ldtmu
            || stalling_read
            || (live_add && matches!(self.dst_add, Dest::VdrAddress | Dest::VdwAddress))
            || (live_mul && matches!(self.dst_mul, Dest::VdrAddress | Dest::VdwAddress));
        let dma_start = [(live_add, self.dst_add), (live_mul, self.dst_mul)]
            .iter()
            .any(|&(live, dest)| live && matches!(dest, Dest::VdrAddress | Dest::VdwAddress));
        self.stalls_on_tmu_only = ldtmu && !stalling_read && !dma_start;
        self.history_besides_r4_read = self.writes_r4
            || self.reads_uniform
            || ldtmu
            || self.is_branch
            || self.is_thread_end
            || reads.contains(&Some(Read::Vpm));
        self.needs_history_checks = self.reads_r4 || self.history_besides_r4_read;
        let plain = |dest: Dest| {
            matches!(
                dest,
                Dest::Nop | Dest::PhysA(_) | Dest::PhysB(_) | Dest::Acc(_)
            )
        };
        let row = |dest: Dest| match dest {
            Dest::PhysA(n) => (rows::A + usize::from(n)) as u8,
            Dest::PhysB(n) => (rows::B + usize::from(n)) as u8,
            Dest::Acc(n) => (rows::ACC + usize::from(n)) as u8,
            _ => rows::SINK as u8,
        };
        let never_to_sink = |dest: Dest, cond: Cond| {
            if cond == Cond::Never {
                (rows::SINK as u8, Cond::Always)
            } else {
                (row(dest), cond)
            }
        };
        let (add_row, add_cond) = never_to_sink(self.dst_add, self.cond_add);
        let (mul_row, mul_cond) = never_to_sink(self.dst_mul, self.cond_mul);
        self.dst_rows = [add_row, mul_row];
        self.store_conds = [add_cond, mul_cond];
        self.cond_acc_write = [(self.dst_add, self.cond_add), (self.dst_mul, self.cond_mul)]
            .iter()
            .any(|&(dest, cond)| {
                matches!(dest, Dest::Acc(_)) && !matches!(cond, Cond::Always | Cond::Never)
            });
        self.writes_float = [
            alu::add_writes_float(self.op_add),
            alu::mul_writes_float(self.op_mul),
        ];
        self.saturate32 = self.pack == Pack::RegfileA(qpu_isa::vc4::PackA::Saturate32);
        let alu_kind = matches!(self.kind, Kind::Alu);
        let (add_active, mul_active) = (
            !alu_kind || self.op_add != AddOp::Nop,
            !alu_kind || self.op_mul != MulOp::Nop,
        );
        self.flag_sides = [FlagsRule::Measured, FlagsRule::Guide].map(|rule| {
            crate::vc4::machine::flag_side(
                rule,
                add_active,
                mul_active,
                self.cond_add,
                self.cond_mul,
            )
            .map(|(side, cond)| (side as u8, cond))
        });
        let (add, mul) = (alu::add_fns(self.op_add), alu::mul_fns(self.op_mul));
        (self.add_fn, self.mul_fn) = if self.set_flags {
            (add.with_carry, mul.with_carry)
        } else {
            (add.plain, mul.plain)
        };
        (self.add_direct, self.mul_direct) = (add.direct, mul.direct);
        self.computes = [
            self.op_add != AddOp::Nop || live_add,
            self.op_mul != MulOp::Nop || live_mul,
        ];
        self.direct_rows = [
            [self.src[0], self.src[1], add_row],
            [self.src[2], self.src[3], mul_row],
        ];
        // Writing results straight into the table needs every write unconditional, no
        // flags (they come from the results), and an order in which neither side
        // overwrites an operand the other has not read yet.
        let both = self.op_add != AddOp::Nop && self.op_mul != MulOp::Nop;
        let clobbers =
            |row: u8, reader: [u8; 2]| both && row != rows::SINK as u8 && reader.contains(&row);
        self.direct = if self.set_flags
            || self.store_conds != [Cond::Always; 2]
            || self.rotate != Rotate::None
        {
            Direct::No
        } else if !clobbers(add_row, [self.src[2], self.src[3]]) {
            Direct::AddFirst
        } else if !clobbers(mul_row, [self.src[0], self.src[1]]) {
            Direct::MulFirst
        } else {
            Direct::No
        };
        let fast = matches!(self.kind, Kind::Alu)
            && self.signal == Signal::None
            && !self.io_read
            && self.unpack == Unpack::None
            && matches!(self.pack, Pack::RegfileA(qpu_isa::vc4::PackA::None))
            && plain(self.dst_add)
            && plain(self.dst_mul)
            && self.fault.is_none()
            && !self.may_poison
            && !self.reads_nop
            && !self.is_thread_end;
        let plain_branch =
            self.is_branch && self.fault.is_none() && !self.shared && !self.may_stall;
        let plain_load_imm = matches!(self.kind, Kind::LoadImm)
            && matches!(self.pack, Pack::RegfileA(qpu_isa::vc4::PackA::None))
            && plain(self.dst_add)
            && plain(self.dst_mul)
            && self.fault.is_none()
            && !self.may_poison;
        let io = matches!(self.kind, Kind::Alu)
            && matches!(
                self.signal,
                Signal::None | Signal::LoadTmu0 | Signal::LoadTmu1
            )
            && !reads
                .iter()
                .any(|r| matches!(r, Some(Read::Vpm | Read::Mutex)))
            && self.unpack == Unpack::None
            && matches!(
                self.pack,
                Pack::RegfileA(qpu_isa::vc4::PackA::None) | Pack::Mul(qpu_isa::vc4::PackMul::None)
            )
            && self.rotate == Rotate::None
            && self.fault.is_none()
            && !self.may_poison
            && !self.reads_nop
            && !self.is_thread_end;
        self.path = if fast && self.rotate != Rotate::None {
            Path::Rotate
        } else if fast {
            Path::Fast
        } else if plain_load_imm {
            Path::LoadImm
        } else if plain_branch {
            Path::Branch
        } else if io {
            Path::Io
        } else {
            Path::General
        };
        let (add, mul) = (self.op_add != AddOp::Nop, self.op_mul != MulOp::Nop);
        self.step = match self.path {
            Path::Fast => match self.direct {
                Direct::AddFirst if add && mul => Step::AddMulDirect,
                Direct::AddFirst if add => Step::AddDirect,
                Direct::AddFirst if mul => Step::MulDirect,
                Direct::AddFirst => Step::Nothing,
                Direct::MulFirst => Step::MulAddDirect,
                Direct::No => Step::Fast,
            },
            Path::Rotate => Step::Rotate,
            Path::LoadImm => Step::LoadImm,
            Path::Branch => Step::Branch,
            Path::Io => Step::Io,
            Path::General => Step::Stop,
        };
        self.blockable = matches!(
            self.step,
            Step::Nothing
                | Step::AddDirect
                | Step::MulDirect
                | Step::AddMulDirect
                | Step::MulAddDirect
                | Step::Fast
                | Step::Rotate
                | Step::LoadImm
        ) && !self.history_besides_r4_read;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qpu_isa::vc4::info::phys_bit;

    #[test]
    fn hello_world_words_predecode() {
        // add vpm, ra1, unif
        let d = Decoded::new(Instruction::decode(0x1002_0c27_0c06_0dc0).unwrap());
        assert_eq!(d.dst_add, Dest::Vpm);
        assert_eq!(d.read_b, Some(Read::Uniform));
        assert_eq!(d.phys_reads, phys_bit(false, 1));
        assert!(d.shared && d.reads_uniform && d.fault.is_none());
        // mov -, vw_wait
        let d = Decoded::new(Instruction::decode(0x1000_09e7_159f_2fc0).unwrap());
        assert_eq!(d.read_b, Some(Read::VdwWait));
        assert!(d.fault.is_none());
        // nop; thrend
        let d = Decoded::new(Instruction::decode(0x3000_09e7_009e_7000).unwrap());
        assert!(d.is_thread_end && d.fault.is_none());
    }
}
