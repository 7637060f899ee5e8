//! What one VideoCore IV instruction reads, writes and breaks on its own: the facts the
//! static validator ([`super::validate`]) and the emulator's predecoder both start from, in
//! the manner of iced-x86's `InstructionInfo`. [`Instruction::info`] computes them.
//!
//! Register classes come from [`ReadReg`] and [`WriteReg`] (the guide's Table 14, "Register
//! address map"); the rules an instruction breaks by itself are [`Rule`]s with their sources
//! ([`super::rules`]).

use crate::vc4::regs::{ReadReg, SfuOp, TmuReg, WriteReg};
use crate::vc4::{
    AddOp, AluInstruction, Cond, InputMux, Instruction, MulOp, Pack, PackMul, RegAddr, RegFile,
    Rule, Signal, SmallImmValue, WriteBack,
};

/// Bit of a physical register in [`Info`]'s 64-bit read and write masks: file A in bits
/// 0–31, file B in bits 32–63.
#[inline]
pub fn phys_bit(file_b: bool, reg: u8) -> u64 {
    1 << (u32::from(reg) + if file_b { 32 } else { 0 })
}

/// A fragment-shading or tile-buffer register: user programs on the QPUs have no use for
/// them, so the project's emulator does not model them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Writing quad X/Y.
    QuadXy,
    /// Reading the multisample/reverse flags.
    MsFlags,
    /// Writing the multisample/reverse flags.
    WriteMsFlags,
    /// The tile buffer.
    Tlb,
    /// Varyings.
    Varyings,
    /// Pixel coordinates.
    PixelCoords,
}

impl Feature {
    /// What the feature is, for [`Rule::Unsupported`].
    pub fn what(self) -> &'static str {
        match self {
            Feature::QuadXy => "writing quad X/Y",
            Feature::WriteMsFlags => "writing multisample/reverse flags",
            Feature::MsFlags => "reading multisample/reverse flags",
            Feature::Tlb => "the tile buffer (TLB)",
            Feature::Varyings => "reading varyings",
            Feature::PixelCoords => "reading pixel coordinates",
        }
    }
}

/// What reading one file's address yields (one byte or two, so predecoded forms stay small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// A physical register of the file.
    Phys(u8),
    /// The uniform stream.
    Uniform,
    /// Each lane's element number.
    ElementNumber,
    /// The QPU's number.
    QpuNumber,
    /// The VPM read FIFO.
    Vpm,
    /// The VDR busy flag.
    VdrBusy,
    /// The VDW busy flag.
    VdwBusy,
    /// Waits for the VDR.
    VdrWait,
    /// Waits for the VDW.
    VdwWait,
    /// Acquires the mutex.
    Mutex,
    /// Address 39 (NOP): the file's read latch (vc4asm's measurement).
    Nop,
    /// An unmapped address: no defined value.
    Undefined(u8),
    /// The small immediate in place of the B read.
    SmallImm,
    /// A fragment-shading register.
    Unsupported(Feature),
}

impl Read {
    /// What reading `addr` of `file` yields.
    pub fn from_read(file: RegFile, addr: RegAddr) -> Read {
        match ReadReg::decode(file, addr) {
            ReadReg::Physical(n) => Read::Phys(n),
            ReadReg::Uniform => Read::Uniform,
            ReadReg::Varying => Read::Unsupported(Feature::Varyings),
            ReadReg::ElementNumber => Read::ElementNumber,
            ReadReg::QpuNumber => Read::QpuNumber,
            ReadReg::Nop => Read::Nop,
            ReadReg::XPixelCoord | ReadReg::YPixelCoord => Read::Unsupported(Feature::PixelCoords),
            ReadReg::MsFlags | ReadReg::RevFlag => Read::Unsupported(Feature::MsFlags),
            ReadReg::Vpm => Read::Vpm,
            ReadReg::VdrBusy => Read::VdrBusy,
            ReadReg::VdwBusy => Read::VdwBusy,
            ReadReg::VdrWait => Read::VdrWait,
            ReadReg::VdwWait => Read::VdwWait,
            ReadReg::MutexAcquire => Read::Mutex,
            ReadReg::Unmapped(n) => Read::Undefined(n),
        }
    }

    /// The VPM or one of its DMA engines.
    pub fn is_vpm_io(self) -> bool {
        matches!(
            self,
            Read::Vpm | Read::VdrBusy | Read::VdwBusy | Read::VdrWait | Read::VdwWait
        )
    }
}

/// What writing one ALU output does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// Nothing.
    Nop,
    /// A physical register of file A.
    PhysA(u8),
    /// A physical register of file B.
    PhysB(u8),
    /// r0–r3.
    Acc(u8),
    /// r5, per quad.
    R5Quad,
    /// r5, replicated.
    R5Replicate,
    /// A TMU direct lookup without the per-QPU swap.
    TmuNoswap,
    /// The host interrupt.
    HostInterrupt,
    /// The uniform stream's address.
    UniformsAddress,
    /// The VPM write FIFO.
    Vpm,
    /// The VPM read setup.
    VpmReadSetup,
    /// The VPM write setup.
    VpmWriteSetup,
    /// The VDR's memory address (starts a DMA load).
    VdrAddress,
    /// The VDW's memory address (starts a DMA store).
    VdwAddress,
    /// Releases the mutex.
    MutexRelease,
    /// Starts an SFU operation.
    Sfu(SfuOp),
    /// A direct-lookup address for TMU 0 or 1 (before the per-QPU swap).
    TmuS(u8),
    /// A texture-lookup register (T, R or B).
    TmuTexture,
    /// A fragment-shading or tile-buffer register.
    Unsupported(Feature),
}

impl Dest {
    /// What writing `addr` of `file` does.
    pub fn from_write(file: RegFile, addr: RegAddr) -> Dest {
        match WriteReg::decode(file, addr) {
            WriteReg::Physical(n) => match file {
                RegFile::A => Dest::PhysA(n),
                RegFile::B => Dest::PhysB(n),
            },
            WriteReg::Accumulator(n) => Dest::Acc(n),
            WriteReg::TmuNoswap => Dest::TmuNoswap,
            WriteReg::R5Quad => Dest::R5Quad,
            WriteReg::R5Replicate => Dest::R5Replicate,
            WriteReg::HostInterrupt => Dest::HostInterrupt,
            WriteReg::Nop => Dest::Nop,
            WriteReg::UniformsAddress => Dest::UniformsAddress,
            WriteReg::Vpm => Dest::Vpm,
            WriteReg::VpmReadSetup => Dest::VpmReadSetup,
            WriteReg::VpmWriteSetup => Dest::VpmWriteSetup,
            WriteReg::VdrAddress => Dest::VdrAddress,
            WriteReg::VdwAddress => Dest::VdwAddress,
            WriteReg::MutexRelease => Dest::MutexRelease,
            WriteReg::Sfu(op) => Dest::Sfu(op),
            WriteReg::Tmu(tmu, TmuReg::S) => Dest::TmuS(tmu),
            WriteReg::Tmu(_, _) => Dest::TmuTexture,
            WriteReg::QuadX | WriteReg::QuadY => Dest::Unsupported(Feature::QuadXy),
            WriteReg::MsFlags | WriteReg::RevFlag => Dest::Unsupported(Feature::WriteMsFlags),
            WriteReg::TlbStencil
            | WriteReg::TlbZ
            | WriteReg::TlbColourMs
            | WriteReg::TlbColourAll
            | WriteReg::TlbAlphaMask => Dest::Unsupported(Feature::Tlb),
        }
    }

    /// An I/O register (not a physical register, an accumulator or NOP).
    pub fn is_io(self) -> bool {
        !matches!(
            self,
            Dest::Nop
                | Dest::PhysA(_)
                | Dest::PhysB(_)
                | Dest::Acc(_)
                | Dest::R5Quad
                | Dest::R5Replicate
        )
    }

    /// A name for messages and for "same register" comparisons.
    pub fn name(self) -> &'static str {
        match self {
            Dest::Nop => "nop",
            Dest::PhysA(_) => "a physical A register",
            Dest::PhysB(_) => "a physical B register",
            Dest::Acc(0) => "r0",
            Dest::Acc(1) => "r1",
            Dest::Acc(2) => "r2",
            Dest::Acc(_) => "r3",
            Dest::R5Quad | Dest::R5Replicate => "r5",
            Dest::TmuNoswap => "tmu_noswap",
            Dest::HostInterrupt => "host_int",
            Dest::UniformsAddress => "unif_addr",
            Dest::Vpm => "vpm",
            Dest::VpmReadSetup => "vr_setup",
            Dest::VpmWriteSetup => "vw_setup",
            Dest::VdrAddress => "vr_addr",
            Dest::VdwAddress => "vw_addr",
            Dest::MutexRelease => "mutex",
            Dest::Sfu(_) => "the SFU",
            Dest::TmuS(0) => "tmu0_s",
            Dest::TmuS(_) => "tmu1_s",
            Dest::TmuTexture => "a TMU texture register",
            Dest::Unsupported(feature) => feature.what(),
        }
    }

    /// The VPM, one of its setups or a DMA address.
    pub fn is_vpm_io(self) -> bool {
        matches!(
            self,
            Dest::Vpm
                | Dest::VpmReadSetup
                | Dest::VpmWriteSetup
                | Dest::VdrAddress
                | Dest::VdwAddress
        )
    }
}

/// How the mul result is rotated (small immediates 48–63).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotate {
    /// Not rotated.
    None,
    /// By r5's value.
    ByR5,
    /// By a constant 1–15.
    By(u8),
}

/// Whether a write under `cond` can happen at all.
#[inline]
pub fn cond_active(cond: Cond) -> bool {
    cond != Cond::Never
}

/// What an instruction reads and writes, and the rule it breaks on its own (see the module
/// docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// What the A and B read addresses yield (an ALU instruction only; B is
    /// [`Read::SmallImm`] under the small-immediate signal).
    pub reads: Option<[Read; 2]>,
    /// What the add and mul outputs write. An add ALU whose opcode is nop writes nothing,
    /// whatever its write address (hardware-proven: py-videocore's `nop()` is add-nop with
    /// write address r0, and its SGEMM kernel works with one in a branch delay slot after a
    /// loop-counter update).
    pub dests: [Dest; 2],
    /// The conditions of those writes (always for a branch link).
    pub conds: [Cond; 2],
    /// The write-back's pack (the default for a branch).
    pub pack: Pack,
    /// The instruction sets flags (`sf`; never for a branch).
    pub set_flags: bool,
    /// How the mul result is rotated.
    pub rotate: Rotate,
    /// Physical registers whose values an operand consumes ([`phys_bit`] layout).
    pub phys_reads: u64,
    /// Physical registers written (condition not never), [`phys_bit`] layout.
    pub phys_writes: u64,
    /// Accumulators written: bits 0–3 r0–r3, bit 5 r5.
    pub acc_writes: u8,
    /// Accumulators a rotation reads (bits 0–3), plus bit 5 for a rotation by r5.
    pub rotate_sources: u8,
    /// An operand reads r4.
    pub reads_r4: bool,
    /// Loads r4 (`ldtmu`) or starts an SFU operation.
    pub writes_r4: bool,
    /// Starts an SFU operation.
    pub sfu_write: bool,
    /// Signals a TMU load into r4 (`ldtmu0`/`ldtmu1`).
    pub loads_tmu: bool,
    /// Reads the uniform stream.
    pub reads_uniform: bool,
    /// Writes the uniform stream's address.
    pub writes_uniforms_address: bool,
    /// Writes a TMU register (swapped per QPU or not).
    pub tmu_write: bool,
    /// Writes `tmu_noswap`.
    pub noswap_write: bool,
    /// A branch.
    pub is_branch: bool,
    /// Ends the thread (the program-end signal).
    pub is_thread_end: bool,
    /// An operand reads address 39, the file's read latch.
    pub reads_nop: bool,
    /// An operand reads an unmapped address: no defined value.
    pub reads_undefined: bool,
    /// Both ALUs write the same accumulator: lanes written twice get no defined value
    /// (guide chapter 3).
    pub double_write: bool,
    /// The mul opcode is nop but its destination is live: vc4asm measured that it re-emits a
    /// stale mul result, so the value written is undefined.
    pub mul_nop_writes: bool,
    /// Why this instruction may not sit at or right after a thread end, if it may not
    /// (guide §5.8).
    pub thread_end_forbidden: Option<&'static str>,
    /// The first rule the instruction breaks whatever came before it.
    pub fault: Option<Rule>,
}

impl Info {
    fn empty() -> Info {
        Info {
            reads: None,
            dests: [Dest::Nop; 2],
            conds: [Cond::Never; 2],
            pack: Pack::default(),
            set_flags: false,
            rotate: Rotate::None,
            phys_reads: 0,
            phys_writes: 0,
            acc_writes: 0,
            rotate_sources: 0,
            reads_r4: false,
            writes_r4: false,
            sfu_write: false,
            loads_tmu: false,
            reads_uniform: false,
            writes_uniforms_address: false,
            tmu_write: false,
            noswap_write: false,
            is_branch: false,
            is_thread_end: false,
            reads_nop: false,
            reads_undefined: false,
            double_write: false,
            mul_nop_writes: false,
            thread_end_forbidden: None,
            fault: None,
        }
    }

    /// Whether the add (0) or mul (1) output writes somewhere.
    pub fn live(&self, side: usize) -> bool {
        cond_active(self.conds[side]) && self.dests[side] != Dest::Nop
    }

    /// Whether an operand reads `what` through either file.
    pub fn reads_from(&self, what: Read) -> bool {
        self.reads.is_some_and(|r| r.contains(&what))
    }

    fn fill_write(&mut self, write: &WriteBack) {
        self.dests = [
            Dest::from_write(write.write_swap.add_file(), write.waddr_add),
            Dest::from_write(write.write_swap.mul_file(), write.waddr_mul),
        ];
        self.conds = [write.cond_add, write.cond_mul];
        self.pack = write.pack;
        self.set_flags = write.set_flags;
        self.note_dests();
    }

    fn note_dests(&mut self) {
        for side in 0..2 {
            if !cond_active(self.conds[side]) {
                continue;
            }
            match self.dests[side] {
                Dest::PhysA(n) => self.phys_writes |= phys_bit(false, n),
                Dest::PhysB(n) => self.phys_writes |= phys_bit(true, n),
                Dest::Acc(n) => self.acc_writes |= 1 << n,
                Dest::R5Quad | Dest::R5Replicate => self.acc_writes |= 1 << 5,
                Dest::Sfu(_) => {
                    self.sfu_write = true;
                    self.writes_r4 = true;
                }
                Dest::TmuS(_) | Dest::TmuTexture => self.tmu_write = true,
                Dest::TmuNoswap => self.noswap_write = true,
                Dest::UniformsAddress => self.writes_uniforms_address = true,
                _ => {}
            }
        }
    }

    fn fill_alu(&mut self, alu: &AluInstruction) {
        let mut write = alu.write;
        if alu.op_add == AddOp::Nop {
            write.waddr_add = RegAddr::NOP;
        }
        self.fill_write(&write);
        let read_a = Read::from_read(RegFile::A, alu.raddr_a);
        let read_b = match alu.raddr_b() {
            Some(addr) => Read::from_read(RegFile::B, addr),
            None => Read::SmallImm,
        };
        self.reads = Some([read_a, read_b]);
        if let Some(imm) = alu.small_imm() {
            match imm.value() {
                SmallImmValue::RotateByR5 => self.rotate = Rotate::ByR5,
                SmallImmValue::Rotate(n) => self.rotate = Rotate::By(n),
                _ => {}
            }
        }
        if alu.op_mul == MulOp::Nop {
            self.rotate = Rotate::None;
        }
        let mux = [alu.add_a, alu.add_b, alu.mul_a, alu.mul_b];
        let used: Vec<InputMux> = alu
            .add_inputs()
            .iter()
            .map(|&i| mux[i])
            .chain(alu.mul_inputs().iter().map(|&i| mux[2 + i]))
            .collect();
        let uses = |m: InputMux| used.contains(&m);
        for (m, read, file_b) in [(InputMux::A, read_a, false), (InputMux::B, read_b, true)] {
            if uses(m) {
                match read {
                    Read::Phys(n) => self.phys_reads |= phys_bit(file_b, n),
                    Read::Nop => self.reads_nop = true,
                    Read::Undefined(_) => self.reads_undefined = true,
                    _ => {}
                }
            }
        }
        self.reads_r4 = uses(InputMux::R4);
        if self.rotate != Rotate::None {
            for m in [alu.mul_a.code(), alu.mul_b.code()] {
                if m <= 3 {
                    self.rotate_sources |= 1 << m;
                }
            }
            if self.rotate == Rotate::ByR5 {
                self.rotate_sources |= 1 << 5;
            }
        }
        let signal = alu.signal();
        if matches!(signal, Signal::LoadTmu0 | Signal::LoadTmu1) {
            self.loads_tmu = true;
            self.writes_r4 = true;
        }
        self.is_thread_end = signal == Signal::ProgramEnd;
        self.reads_uniform = read_a == Read::Uniform || read_b == Read::Uniform;
        if alu.op_mul == MulOp::Nop && self.live(1) {
            self.mul_nop_writes = true;
        }
        if read_a == Read::Uniform && read_b == Read::Uniform {
            self.fault
                .get_or_insert(Rule::DoubleStreamRead { register: "unif" });
        }
        if read_a == Read::Vpm && read_b == Read::Vpm {
            self.fault
                .get_or_insert(Rule::DoubleStreamRead { register: "vpm" });
        }
        for read in [read_a, read_b] {
            if let Read::Unsupported(feature) = read {
                self.fault.get_or_insert(Rule::Unsupported {
                    what: feature.what(),
                });
            }
        }
        let unsupported_signal = match signal {
            Signal::Breakpoint => Some("the breakpoint signal"),
            Signal::ThreadSwitch | Signal::LastThreadSwitch => {
                Some("thread switching (user programs run one thread per QPU)")
            }
            Signal::WaitScoreboard | Signal::ScoreboardUnlock => Some("the tile scoreboard"),
            Signal::LoadCoverage
            | Signal::LoadColour
            | Signal::LoadColourProgramEnd
            | Signal::LoadAlphaMask => Some("the tile buffer (TLB)"),
            _ => None,
        };
        if let Some(what) = unsupported_signal {
            self.fault.get_or_insert(Rule::Unsupported { what });
        }
        if let Pack::Mul(p) = self.pack {
            if matches!(
                p,
                PackMul::Byte0 | PackMul::Byte1 | PackMul::Byte2 | PackMul::Byte3
            ) && self.dests[1].is_io()
                && cond_active(self.conds[1])
            {
                self.fault.get_or_insert(Rule::MulBytePackToIo);
            }
        }
    }

    /// The rules that need the whole instruction. `ops` is the ALU's (add, mul) opcodes,
    /// `None` for a load immediate, semaphore or branch (whose link or value both sides
    /// write), `semaphore` whether it is a semaphore instruction.
    fn finish(&mut self, ops: Option<(AddOp, MulOp)>, semaphore: bool) {
        let (live_add, live_mul) = (self.live(0), self.live(1));
        for side in 0..2 {
            if !self.live(side) {
                continue;
            }
            match self.dests[side] {
                Dest::Unsupported(feature) => {
                    self.fault.get_or_insert(Rule::Unsupported {
                        what: feature.what(),
                    });
                }
                Dest::TmuTexture => {
                    self.fault.get_or_insert(Rule::TextureLookup);
                }
                d if d.is_io() && self.conds[side] != Cond::Always => {
                    self.fault
                        .get_or_insert(Rule::ConditionalIoWrite { register: d.name() });
                }
                _ => {}
            }
        }
        let [dst_add, dst_mul] = self.dests;
        if live_add && live_mul {
            let same = match (dst_add, dst_mul) {
                (Dest::PhysA(_), _) | (Dest::PhysB(_), _) => false,
                (a, b) => a.name() == b.name(),
            };
            if same && dst_add.is_io() {
                self.fault.get_or_insert(Rule::BothAlusWrite {
                    register: dst_add.name(),
                });
            } else if same && ops.is_some() {
                // An accumulator: lanes that receive both writes become undefined. (A load
                // immediate, semaphore or branch link writes the same value from both
                // sides, which is taken as that value.)
                self.double_write = true;
            }
        }
        // Guide §5.4: at most one of these per instruction.
        let mut units = Vec::new();
        for (live, dest) in [(live_add, dst_add), (live_mul, dst_mul)] {
            if live {
                match dest {
                    Dest::TmuS(_) | Dest::TmuTexture => units.push("a TMU write"),
                    Dest::Sfu(_) => units.push("an SFU write"),
                    _ => {}
                }
            }
        }
        if self.loads_tmu {
            units.push("a TMU load signal");
        }
        if self.reads_from(Read::Mutex) {
            units.push("a mutex acquire");
        }
        if semaphore {
            if self.tmu_write || self.sfu_write {
                self.fault.get_or_insert(Rule::SemaphoreWithStallingUnit);
            }
            units.push("a semaphore");
        }
        if units.len() > 1 {
            self.fault.get_or_insert(Rule::UnitConflict {
                units: units.join(" and "),
            });
        }
        // Guide §5.11: a VPM setup write with any other VPM register access.
        let live_dests = [(live_add, dst_add), (live_mul, dst_mul)];
        let setups = live_dests
            .iter()
            .filter(|(live, d)| *live && matches!(d, Dest::VpmReadSetup | Dest::VpmWriteSetup))
            .count();
        if setups > 0 {
            let vpm_dests = live_dests
                .iter()
                .filter(|(live, d)| *live && d.is_vpm_io())
                .count();
            let vpm_reads = self
                .reads
                .iter()
                .flatten()
                .filter(|r| r.is_vpm_io())
                .count();
            if vpm_dests + vpm_reads > 1 {
                self.fault.get_or_insert(Rule::VpmSetupWithOtherAccess);
            }
        }
        if self.set_flags && !self.is_branch {
            // The flag-setting ALU: add unless its opcode is nop (a load immediate always
            // counts as add).
            let cond = match ops {
                None => Some(self.conds[0]),
                Some((add, _)) if add != AddOp::Nop => Some(self.conds[0]),
                Some((_, mul)) if mul != MulOp::Nop => Some(self.conds[1]),
                Some(_) => None,
            };
            if cond == Some(Cond::Never) {
                self.fault.get_or_insert(Rule::SetFlagsUnderNever);
            }
        }
        if self.is_thread_end && self.phys_writes != 0 {
            self.fault.get_or_insert(Rule::ThreadEndWritesRegfile);
        }
        // Guide §5.8: what the thread end and its two delay slots must not touch.
        let touches_14 = self.reads_from(Read::Phys(14))
            || self.phys_writes & (phys_bit(false, 14) | phys_bit(true, 14)) != 0;
        let vpm = self.reads.iter().flatten().any(|r| r.is_vpm_io())
            || live_dests.iter().any(|(live, d)| *live && d.is_vpm_io());
        self.thread_end_forbidden = if touches_14 {
            Some("touches register-file address 14")
        } else if self.reads_uniform {
            Some("reads a uniform")
        } else if vpm {
            Some("accesses the VPM or its DMA")
        } else {
            None
        };
    }
}

impl Instruction {
    /// What this instruction reads and writes, and the rule it breaks on its own (see
    /// [`Info`]).
    ///
    /// ```
    /// use qpu_isa::vc4::info::{Dest, Read};
    /// let add = qpu_isa::vc4::assemble_instruction("add vpm, ra1, unif").unwrap();
    /// let info = add.info();
    /// assert_eq!(info.dests[0], Dest::Vpm);
    /// assert!(info.reads_from(Read::Uniform) && info.fault.is_none());
    /// ```
    pub fn info(&self) -> Info {
        let mut info = Info::empty();
        match self {
            Instruction::Alu(alu) => {
                info.fill_alu(alu);
                info.finish(Some((alu.op_add, alu.op_mul)), false);
            }
            Instruction::LoadImm(ldi) => {
                info.fill_write(&ldi.write);
                info.finish(None, false);
            }
            Instruction::Semaphore(sema) => {
                info.fill_write(&sema.write);
                info.finish(None, true);
            }
            Instruction::Branch(br) => {
                info.is_branch = true;
                if br.use_raddr_a {
                    info.phys_reads |= phys_bit(false, br.raddr_a.index());
                }
                info.dests = [
                    Dest::from_write(br.write_swap.add_file(), br.waddr_add),
                    Dest::from_write(br.write_swap.mul_file(), br.waddr_mul),
                ];
                info.conds = [Cond::Always; 2];
                info.note_dests();
                if info.dests[0].is_io() || info.dests[1].is_io() {
                    info.fault = Some(Rule::BranchLinkToIo);
                }
                info.finish(None, false);
            }
        }
        info
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vc4::assemble_instruction;

    fn info(source: &str) -> Info {
        assemble_instruction(source)
            .unwrap_or_else(|e| panic!("{source}: {e}"))
            .info()
    }

    #[test]
    fn registers_read_and_written() {
        // Guide Table 14: file-A address 1 and file-B address 2 are physical registers.
        let i = info("add ra3, ra1, rb2");
        assert_eq!(i.phys_reads, phys_bit(false, 1) | phys_bit(true, 2));
        assert_eq!(i.phys_writes, phys_bit(false, 3));
        assert_eq!(i.acc_writes, 0);
        assert_eq!(i.fault, None);
        // A write under condition never changes nothing.
        let i = info("add.never r1, r0, r0");
        assert_eq!((i.acc_writes, i.live(0)), (0, false));
        // r5 counts as accumulator bit 5.
        assert_eq!(info("mov r5rep, r0").acc_writes, 1 << 5);
    }

    #[test]
    fn peripherals() {
        let i = info("mov recip, r0");
        assert!(i.sfu_write && i.writes_r4 && !i.loads_tmu);
        let i = info("mov tmu0_s, r0");
        assert!(i.tmu_write && !i.noswap_write);
        let i = info("nop; ldtmu0");
        assert!(i.loads_tmu && i.writes_r4);
        assert!(info("mov r0, unif").reads_uniform);
        assert!(info("mov unif_addr, r0").writes_uniforms_address);
        assert!(info("mov r0, r4").reads_r4);
    }

    #[test]
    fn rules_one_instruction_breaks() {
        // Guide §5.4: one of TMU write, SFU write, TMU load signal, mutex, semaphore.
        assert_eq!(
            info("mov recip, r0; nop; ldtmu0").fault,
            Some(Rule::UnitConflict {
                units: "an SFU write and a TMU load signal".into()
            })
        );
        // One read of the uniform FIFO through each file in one instruction: a second
        // read in one instruction is not defined. (`add r0, unif, unif` reads it once.)
        let mut alu = match assemble_instruction("add r0, unif, r1").unwrap() {
            Instruction::Alu(alu) => alu,
            other => panic!("{other:?}"),
        };
        alu.add_b = InputMux::B;
        alu.b = crate::vc4::ReadB::Register {
            signal: Signal::None,
            raddr_b: RegAddr::new(32).unwrap(),
        };
        assert_eq!(
            Instruction::Alu(alu).info().fault,
            Some(Rule::DoubleStreamRead { register: "unif" })
        );
        // Both ALUs to one I/O register is an error; to one accumulator, undefined lanes.
        assert_eq!(
            info("mov vpm, r0; mov vpm, r1").fault,
            Some(Rule::BothAlusWrite { register: "vpm" })
        );
        let i = info("mov r0, r1; mov r0, r2");
        assert!(i.double_write && i.fault.is_none());
        // A conditional write to an I/O register.
        assert_eq!(
            info("mov.ifz vpm, r0").fault,
            Some(Rule::ConditionalIoWrite { register: "vpm" })
        );
        // Guide §5.8: the thread end must not touch register-file address 14.
        assert_eq!(
            info("mov ra14, r0").thread_end_forbidden,
            Some("touches register-file address 14")
        );
    }

    #[test]
    fn rotations_read_their_accumulators() {
        let i = info("nop; mov r0, r1 >> 1");
        assert_eq!(i.rotate, Rotate::By(1));
        assert_eq!(i.rotate_sources, 1 << 1);
        let i = info("nop; mov r0, r2 >> r5");
        assert_eq!(i.rotate, Rotate::ByR5);
        assert_eq!(i.rotate_sources, (1 << 2) | (1 << 5));
    }

    #[test]
    fn branches() {
        let i = info("bra -, ra1, 0");
        assert!(i.is_branch);
        assert_eq!(i.phys_reads, phys_bit(false, 1));
        assert_eq!(info("brr ra2, 8").phys_writes, phys_bit(false, 2));
    }
}
