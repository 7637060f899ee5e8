//! One V3D QPU thread executing decoded instructions, and the dispatcher that runs CSD
//! batches on QPUs × threads.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use qpu_isa::v3d::{
    self, small_imm_value, tmu, AddOp, AluInstruction, Branch, BranchCond, BranchDest, Cond,
    CondField, FloatMods, FloatPack, FloatUnpack, InputSource, Inputs, Instruction, MulOp, Mux,
    PushFlag, Register, Signal, Signals, TmuConfig, UpdateFlag, V3dVersion, Waddr,
};

use super::lanes::{self, map2, map2c, vfloat, Lanes, Output, Sfu};
use super::placement::{self, AluFacts, Placement};
use super::poison::{Origin, Poison};
use super::rules::{latency, TmuAccess, V3dFault, V3dRule};
use super::timing::{self, MemorySystem};
use super::{Batch, V3dConfig, V3dQpuReport};
use crate::memory::{LendingMemory, MemoryError};

/// The multisample flags of a compute batch: set in every lane the dispatcher filled, which
/// is all 16 (partial batches are not modelled).
const MSF_DISPATCHED: u16 = 0xffff;

/// The words this dispatch's TMU writes changed, with the values they had before: the
/// uniform stream (`ldunif`, `ldunifrf`, `ldunifa`, `wrtmuc`, `tmuau` configs and `ub`
/// branches) does not see the TMU writes of its own dispatch. py-videocore6 and 7
/// tests/test_tmu.py `test_tmu_read_tmu_write_uniform_read` (Pi 4, Pi 5) write 2 over a 1
/// through the TMU, wait with `tmuwt`, point the uniform stream at the word and read it: the
/// test asserts the 1 comes back ("!? not 3 ?" of its result, 1 + 1 = 2), while TMU reads do
/// see the write (`test_tmu_keeps_memory_consistency`). Shared by the dispatch's threads.
pub(crate) type TmuWrites = Rc<RefCell<PageShadows>>;

/// The TMUs, L2T and memory all threads of a dispatch share (the cycle model,
/// [`super::timing`]).
pub(crate) type SharedMemorySystem = Rc<RefCell<MemorySystem>>;

/// Copies of the 256-byte blocks of memory the dispatch's TMU writes touched, taken before
/// the first write into each (`None` for a word outside every buffer).
#[derive(Default)]
pub(crate) struct PageShadows {
    pages: HashMap<u32, Box<[Option<u32>]>>,
    /// The block the last write was in (most writes follow one another in a block).
    last: Option<u32>,
}

impl PageShadows {
    const WORDS: u32 = 64;

    /// Takes the copy of the block holding `addr` if this is the first write into it.
    fn before_write(&mut self, mem: &LendingMemory<'_>, addr: u32) {
        let page = addr / (4 * Self::WORDS);
        if self.last == Some(page) {
            return;
        }
        self.last = Some(page);
        self.pages.entry(page).or_insert_with(|| {
            let base = page * 4 * Self::WORDS;
            let mut hint = 0;
            (0..Self::WORDS)
                .map(|w| mem.read_u32_near(base + 4 * w, &mut hint).ok())
                .collect()
        });
    }

    /// The word at `addr` as it was before the dispatch's TMU writes, if one touched its block.
    fn before(&self, addr: u32) -> Option<u32> {
        if self.pages.is_empty() {
            return None;
        }
        let page = self.pages.get(&(addr / (4 * Self::WORDS)))?;
        page[(addr / 4 % Self::WORDS) as usize]
    }
}

/// What one step did to the thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Keep running this thread.
    Continue,
    /// The thread switch of a `thrsw` takes effect now.
    Switch,
    /// The program end took effect: the thread is finished.
    End,
    /// A thread switch after a `syncb` write: the thread waits at its workgroup's barrier.
    Barrier,
}

/// Where a write goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dest {
    Nop,
    Rf(u8),
    Acc(u8),
    /// 4.2 r5 / 7.1 `quad`: each quad gets its first lane's value.
    Quad,
    /// 4.2 `r5rep` / 7.1 `rep`: every lane gets lane 0's value.
    Rep,
    Unifa,
    Tmud,
    Tmua,
    Tmuau,
    /// The TMU config register: sets the config of the next request.
    Tmuc,
    /// `syncb`: this thread has reached its workgroup's barrier; it waits at its next
    /// thread switch.
    Syncb,
    Sfu(Sfu),
}

/// The instructions of one dispatch, each decoded the first time a thread executes it and
/// kept by its address (offset from the dispatch's code address; a program reaching code
/// before that address decodes it on every execution). Like the VideoCore IV emulator (and
/// a QPU's instruction cache), a program that stores over its own code during a dispatch
/// does not see the change.
pub(crate) struct DecodedCode {
    base: u32,
    at: Vec<Option<Decoded>>,
    /// The last instruction decoded from outside the kept range.
    elsewhere: Option<Decoded>,
}

/// Instructions past the code address [`DecodedCode`] keeps (8 MiB of code).
const DECODED_LIMIT: usize = 1 << 20;

/// A decoded instruction, with what the executor asks of an ALU instruction every time
/// (input counts, pack and unpack modifiers) worked out once.
#[derive(Clone, Copy)]
enum Decoded {
    Branch(Branch),
    Alu(DecodedAlu),
}

/// An ALU instruction and its facts. Its methods of the same names as
/// [`AluInstruction`]'s answer from the facts; everything else reads through to the
/// instruction.
#[derive(Clone, Copy)]
pub(crate) struct DecodedAlu {
    alu: AluInstruction,
    add_arity: u8,
    mul_arity: u8,
    add_float_mods: Option<FloatMods>,
    mul_float_mods: Option<FloatMods>,
    add_named_modifiers: Option<(FloatPack, &'static str)>,
    mul_named_modifiers: Option<(FloatPack, &'static str)>,
    sources: [InputSource; 4],
    /// What the placement rules ask of it.
    facts: AluFacts,
    /// The ops' destinations (`None`: refused, the error is made when the op runs).
    add_dest: Option<Dest>,
    mul_dest: Option<Dest>,
    /// See [`is_plain`].
    plain: bool,
    /// For a plain instruction: each live op as a lane function ([`lane_fn`]), when both
    /// have one; the small immediate's lanes.
    lane_fns: Option<(LaneFn, LaneFn)>,
    imm: Option<Lanes>,
    /// The registers its live ops read (bit n = rfn; bit n = rn), and the flags its write
    /// conditions read (bit 0 A, bit 1 B): the short path runs only when none has an
    /// undefined lane.
    rf_reads: u64,
    acc_reads: u8,
    flag_reads: u8,
}

/// A pure 16-lane operation of two inputs.
type LaneFn = fn(&Lanes, &Lanes) -> Lanes;

impl DecodedAlu {
    fn new(version: V3dVersion, alu: AluInstruction) -> Self {
        let mut d = DecodedAlu {
            plain: false,
            lane_fns: None,
            imm: None,
            sources: std::array::from_fn(|n| alu.input(n)),
            facts: AluFacts::of(version, &alu),
            add_dest: dest_of(version, alu.add.waddr).ok(),
            mul_dest: dest_of(version, alu.mul.waddr).ok(),
            alu,
            add_arity: alu.add_arity(),
            mul_arity: alu.mul_arity(),
            add_float_mods: alu.add_float_mods(),
            mul_float_mods: alu.mul_float_mods(),
            add_named_modifiers: alu.add_named_modifiers(),
            mul_named_modifiers: alu.mul_named_modifiers(),
            rf_reads: 0,
            acc_reads: 0,
            flag_reads: 0,
        };
        let (ar, mr) = (d.add_arity, d.mul_arity);
        let live = [
            alu.add.op != AddOp::Nop && ar >= 1,
            alu.add.op != AddOp::Nop && ar >= 2,
            alu.mul.op != MulOp::Nop && mr >= 1,
            alu.mul.op != MulOp::Nop && mr >= 2,
        ];
        for (source, _) in d.sources.iter().zip(live).filter(|(_, l)| *l) {
            match *source {
                InputSource::Rf(r) => d.rf_reads |= 1u64.checked_shl(u32::from(r)).unwrap_or(0),
                InputSource::Acc(r) => d.acc_reads |= 1 << r,
                InputSource::SmallImm(_) => {}
            }
        }
        // 4.2's `rot` by r5 (raddr_b 0) reads r5's lane 0.
        if let (true, Inputs::V42 { raddr_b: 0, .. }) =
            (alu.signals.contains(Signal::Rot), alu.inputs)
        {
            d.acc_reads |= 1 << 5;
        }
        let flags = alu.flags();
        for cond in [flags.ac, flags.mc].into_iter().flatten() {
            d.flag_reads |= match cond {
                Cond::IfA | Cond::IfNa => 1,
                Cond::IfB | Cond::IfNb => 2,
            };
        }
        d.plain = is_plain(version, &alu, &d);
        if d.plain && !alu.signals.contains(Signal::Rot) {
            d.lane_fns = add_lane_fn(version, &d).zip(mul_lane_fn(version, &d));
            d.imm = d.sources.iter().find_map(|s| match *s {
                InputSource::SmallImm(i) => small_imm_value(i).map(splat),
                _ => None,
            });
        }
        d
    }

    fn input(&self, n: usize) -> InputSource {
        self.sources[n]
    }

    fn add_arity(&self) -> u8 {
        self.add_arity
    }

    fn mul_arity(&self) -> u8 {
        self.mul_arity
    }

    fn add_float_mods(&self) -> Option<FloatMods> {
        self.add_float_mods
    }

    fn mul_float_mods(&self) -> Option<FloatMods> {
        self.mul_float_mods
    }

    fn add_named_modifiers(&self) -> Option<(FloatPack, &'static str)> {
        self.add_named_modifiers
    }

    fn mul_named_modifiers(&self) -> Option<(FloatPack, &'static str)> {
        self.mul_named_modifiers
    }
}

impl std::ops::Deref for DecodedAlu {
    type Target = AluInstruction;

    fn deref(&self) -> &AluInstruction {
        &self.alu
    }
}

impl DecodedCode {
    pub(crate) fn new(base: u32) -> Self {
        DecodedCode {
            base,
            at: Vec::new(),
            elsewhere: None,
        }
    }

    /// The instruction at `pc`, read from `mem` and decoded if it is not known yet.
    fn get(
        &mut self,
        version: V3dVersion,
        mem: &LendingMemory<'_>,
        pc: u32,
    ) -> Result<&Decoded, V3dFault> {
        let offset = pc.wrapping_sub(self.base);
        let index = (offset / 8) as usize;
        let kept = offset.is_multiple_of(8) && index < DECODED_LIMIT;
        if kept && self.at.get(index).is_some_and(Option::is_some) {
            return Ok(self.at[index].as_ref().expect("decoded"));
        }
        let bytes = mem.read_bytes(pc, 8).map_err(V3dFault::PastCode)?;
        let word = u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
        let instr = match v3d::decode(version, word).map_err(V3dFault::Decode)? {
            Instruction::Branch(b) => Decoded::Branch(b),
            Instruction::Alu(alu) => Decoded::Alu(DecodedAlu::new(version, alu)),
        };
        let slot = if kept {
            if self.at.len() <= index {
                self.at.resize(index + 1, None);
            }
            &mut self.at[index]
        } else {
            &mut self.elsewhere
        };
        Ok(slot.insert(instr))
    }
}

/// Where a write address goes on `version`: a register-file register, an accumulator, or a
/// supported magic register (the rest are refused as unsupported).
fn dest_of(version: V3dVersion, w: Waddr) -> Result<Dest, V3dFault> {
    if !w.is_magic() {
        return Ok(Dest::Rf(w.index()));
    }
    let v42 = version == V3dVersion::V42;
    Ok(match w.index() {
        0..=4 if v42 => Dest::Acc(w.index()),
        5 => Dest::Quad,
        6 => Dest::Nop,
        9 => Dest::Unifa,
        11 => Dest::Tmud,
        12 => Dest::Tmua,
        13 => Dest::Tmuau,
        32 => Dest::Tmuc,
        // The texture unit's reference and offset parameters as general-TMU data words:
        // py-videocore7 tests/test_tmu.py (Pi 5) passes an atomic's operand through
        // `tmudref`, and cmpxchg's compared value through `tmudref` then the value stored
        // through `tmuoff`, with the config in `tmuc`. ASSUMPTION: they queue like `tmud`
        // writes, in the order written (no source says more).
        38 | 39 => Dest::Tmud,
        18 => Dest::Syncb,
        19 if v42 => Dest::Sfu(Sfu::Recip),
        20 if v42 => Dest::Sfu(Sfu::Rsqrt),
        21 if v42 => Dest::Sfu(Sfu::Exp),
        22 if v42 => Dest::Sfu(Sfu::Log),
        23 if v42 => Dest::Sfu(Sfu::Sin),
        // rsqrt2: 1/√x too (py-videocore6 tests/test_sfu.py).
        24 if v42 => Dest::Sfu(Sfu::Rsqrt),
        55 => Dest::Rep,
        _ => {
            return Err(unsupported(format!(
                "writes to `{}` (graphics, VPM, barriers or reserved)",
                w.name(version)
            )))
        }
    })
}

/// Input a of an op with named modifiers (`named`), unpacked lane by lane.
fn named_unpack(named: Option<(FloatPack, &'static str)>, a: Lanes) -> Result<Lanes, V3dFault> {
    let name = match named {
        // No unpack (the plain `mov`/`fmov` encodings).
        None | Some((_, "")) => return Ok(a),
        Some((_, name)) => name,
    };
    let mut out = [0; 16];
    for (o, &v) in out.iter_mut().zip(&a) {
        *o = lanes::named_unpack(name, v)
            .ok_or_else(|| unsupported(format!("input unpack `{name}`")))?;
    }
    Ok(out)
}

/// A [`LaneFn`] applying `$f` lane by lane; with a version flag, `$f(x, y, v42)`, one
/// function per version (the V3D float ops differ between 4.2 and 7.1 in NaN handling).
macro_rules! lane_fn {
    ($f:expr) => {{
        fn f(a: &Lanes, b: &Lanes) -> Lanes {
            map2(a, b, $f)
        }
        f as LaneFn
    }};
    ($f:path, $v42:expr) => {
        if $v42 {
            lane_fn!(|x, y| $f(x, y, true))
        } else {
            lane_fn!(|x, y| $f(x, y, false))
        }
    };
}

/// Whether an op reads its inputs as they are: for a float op, no input unpacks; for an op
/// with named modifiers, none named.
fn inputs_as_is(mods: Option<FloatMods>, named: Option<(FloatPack, &'static str)>) -> (bool, bool) {
    (
        mods.is_some_and(|m| m.a == FloatUnpack::None && m.b == FloatUnpack::None),
        named.is_none_or(|(_, name)| name.is_empty()),
    )
}

/// The add op of a plain instruction as a lane function, when it is one of the common
/// pure operations without input unpacks (`Some(nop)` for no op); `None` sends it through
/// [`Thread::add_op`].
fn add_lane_fn(version: V3dVersion, d: &DecodedAlu) -> Option<LaneFn> {
    use AddOp::*;
    let v42 = version == V3dVersion::V42;
    let (plain_float, no_unpack) = inputs_as_is(d.add_float_mods, d.add_named_modifiers);
    Some(match d.add.op {
        Nop => lane_fn!(|_, _| 0),
        Add => lane_fn!(|x: u32, y| x.wrapping_add(y)),
        Sub => lane_fn!(|x: u32, y| x.wrapping_sub(y)),
        Min => lane_fn!(|x, y| (x as i32).min(y as i32) as u32),
        Max => lane_fn!(|x, y| (x as i32).max(y as i32) as u32),
        Umin => lane_fn!(|x: u32, y| x.min(y)),
        Umax => lane_fn!(|x: u32, y| x.max(y)),
        Shl => lane_fn!(|x: u32, y| x << (y & 31)),
        Shr => lane_fn!(|x: u32, y| x >> (y & 31)),
        Asr => lane_fn!(|x, y| ((x as i32) >> (y & 31)) as u32),
        Ror => lane_fn!(|x: u32, y| x.rotate_right(y & 31)),
        And => lane_fn!(|x, y| x & y),
        Or => lane_fn!(|x, y| x | y),
        Xor => lane_fn!(|x, y| x ^ y),
        Fadd | Faddnf if plain_float => lane_fn!(vfloat::fadd, v42),
        Fsub if plain_float => lane_fn!(vfloat::fsub, v42),
        Fmin if plain_float => lane_fn!(vfloat::fmin, v42),
        Fmax if plain_float => lane_fn!(vfloat::fmax, v42),
        Mov if no_unpack => lane_fn!(|x, _| x),
        _ => return None,
    })
}

/// The mul op of a plain instruction as a lane function, as [`add_lane_fn`].
fn mul_lane_fn(version: V3dVersion, d: &DecodedAlu) -> Option<LaneFn> {
    let v42 = version == V3dVersion::V42;
    let (plain_float, no_unpack) = inputs_as_is(d.mul_float_mods, d.mul_named_modifiers);
    Some(match d.mul.op {
        MulOp::Nop => lane_fn!(|_, _| 0),
        MulOp::Add => lane_fn!(|x: u32, y| x.wrapping_add(y)),
        MulOp::Sub => lane_fn!(|x: u32, y| x.wrapping_sub(y)),
        MulOp::Smul24 => lane_fn!(lanes::smul24),
        MulOp::Fmul if plain_float => lane_fn!(vfloat::fmul, v42),
        MulOp::Mov if no_unpack => lane_fn!(|x, _| x),
        _ => return None,
    })
}

/// Whether an ALU instruction is plain: the executor's short path
/// ([`Thread::plain_instr`]) runs it whenever no program-end slot or SFU latency is
/// pending. Plain: no signal but small immediates (and those within the rules), pure lane
/// operations, destinations that are registers or accumulators (two different ones), no
/// flag push or update, no output pack. For these, every rule the full path checks either
/// cannot apply or is checked the same way by the steps both paths share.
fn is_plain(version: V3dVersion, alu: &AluInstruction, d: &DecodedAlu) -> bool {
    use AddOp as A;
    let add_live = alu.add.op != AddOp::Nop;
    let mul_live = alu.mul.op != MulOp::Nop;
    let small = Signals::of(&[
        Signal::SmallImmA,
        Signal::SmallImmB,
        Signal::SmallImmC,
        Signal::SmallImmD,
    ]);
    // 4.2's `rot` too: the full path's only rules for it are in `read_input`, which the
    // short path also uses for it.
    let allowed = small.with(Signal::Rot);
    let signals_ok = alu.signals.iter().all(|sig| allowed.contains(sig))
        && placement::small_immediates(version, alu.signals, add_live, mul_live).is_ok();
    let add_ok = matches!(
        alu.add.op,
        A::Nop
            | A::Add
            | A::Sub
            | A::Min
            | A::Max
            | A::Umin
            | A::Umax
            | A::Shl
            | A::Shr
            | A::Asr
            | A::Ror
            | A::And
            | A::Or
            | A::Xor
            | A::Not
            | A::Neg
            | A::Clz
            | A::Itof
            | A::Utof
            | A::Fadd
            | A::Faddnf
            | A::Fsub
            | A::Fmin
            | A::Fmax
            | A::Mov
            | A::Eidx
    );
    let mul_ok = matches!(
        alu.mul.op,
        MulOp::Nop | MulOp::Add | MulOp::Sub | MulOp::Smul24 | MulOp::Fmul | MulOp::Mov
    );
    let register = |live: bool, dest: Option<Dest>| {
        !live || matches!(dest, Some(Dest::Rf(_) | Dest::Acc(_) | Dest::Nop))
    };
    let flags = alu.flags();
    let no_flags = flags.apf.is_none()
        && flags.auf.is_none()
        && flags.mpf.is_none()
        && flags.muf.is_none()
        && matches!(alu.cond, CondField::Flags(_));
    let no_pack = |mods: Option<FloatMods>, named: Option<(FloatPack, &'static str)>| {
        mods.is_none_or(|m| m.pack == FloatPack::None)
            && named.is_none_or(|n| n.0 == FloatPack::None)
    };
    let different = !(add_live
        && mul_live
        && d.add_dest == d.mul_dest
        && matches!(d.add_dest, Some(Dest::Rf(_) | Dest::Acc(_))));
    signals_ok
        && add_ok
        && mul_ok
        && register(add_live, d.add_dest)
        && register(mul_live, d.mul_dest)
        && no_flags
        && no_pack(d.add_float_mods, d.add_named_modifiers)
        && no_pack(d.mul_float_mods, d.mul_named_modifiers)
        && different
}

/// The register writes of one instruction: its two ALU results and the four signals that
/// write a register (`ldunif`, `ldunifrf`, `ldunifa`/`ldunifarf`, `ldtmu`), kept without a
/// heap allocation and without filling the unused slots (each instruction makes one).
type Writes = arrayvec::ArrayVec<Write, 6>;

/// One write of an instruction: where, the values, the lanes its condition enables, the
/// values' undefined lanes, and the condition's.
#[derive(Clone, Copy)]
struct Write {
    dest: Dest,
    values: Lanes,
    mask: u16,
    poison: Poison,
    cond: Poison,
}

impl Write {
    fn new(dest: Dest, values: Lanes, mask: u16, poison: Poison, cond: Poison) -> Write {
        Write {
            dest,
            values,
            mask,
            poison,
            cond,
        }
    }

    /// An unconditional write of defined values (a uniform).
    fn defined(dest: Dest, values: Lanes) -> Write {
        Write::new(dest, values, 0xffff, Poison::NONE, Poison::NONE)
    }
}

/// One QPU thread's architectural state.
#[cfg_attr(test, derive(Clone))]
pub(crate) struct Thread {
    pub qpu: usize,
    pub slot: usize,
    pub batch: u32,
    version: V3dVersion,
    threads: u8,
    rf: Vec<Lanes>,
    /// Each register's undefined lanes ([`super::poison`]).
    rf_poison: Vec<Poison>,
    /// The registers with an undefined lane (bit n = rfn), for the plain path's test.
    rf_poisoned: u64,
    acc: [Lanes; 6],
    acc_poison: [Poison; 6],
    /// The accumulators with an undefined lane (bit n = rn).
    acc_poisoned: u8,
    flag_a: u16,
    flag_b: u16,
    /// The undefined lanes of flags A and B.
    flag_poison: [Poison; 2],
    /// The `thrsw` (its address) whose switch took effect last, until the thread runs
    /// again: the dispatcher then says whether another thread ran in between.
    pub switched_at: Option<u32>,
    /// A `syncb` write since the last thread switch: the thread waits at its next switch
    /// until every batch of its workgroup has reached the barrier.
    barrier: bool,
    /// The workgroup of the thread's batch.
    pub group: u32,
    /// Waiting at its workgroup's barrier.
    pub waiting: bool,
    pub pc: u32,
    unif: u32,
    unifa: Option<u32>,
    lr: u32,
    /// The high part from `multop`, its undefined lanes, and the thread switch count when
    /// it was made.
    rtop: Option<(Lanes, Poison, u64)>,
    tmu_data: Vec<(Lanes, Poison)>,
    /// Lookup configs for the next requests, one byte each from the low end (0xff: the
    /// plain 32-bit access).
    tmu_config: Option<u32>,
    /// Result words on their way: the values, their undefined lanes, the clock they arrive.
    tmu_results: VecDeque<(Lanes, Poison, u64)>,
    /// The clocks the words in `tmu_results` were requested, kept only for a timeline.
    tmu_issued: VecDeque<u64>,
    /// The dispatch's TMU writes, as the uniform stream does not see them.
    tmu_writes: TmuWrites,
    tmu_store_done: u64,
    /// The cycle model's shared TMUs, L2T and memory.
    timing: SharedMemorySystem,
    /// Clocks between two instructions ([`timing::Board`]).
    clocks_per_instruction: u64,
    /// Scratch: the lines a request touches.
    lines: Vec<u32>,
    /// (instruction index at which it takes effect, new PC, new uniform pointer).
    branch: Option<(u64, u32, Option<u32>)>,
    /// (instruction index at which it takes effect, whether it ends the program, the
    /// `thrsw` instruction's address).
    thrsw: Option<(u64, bool, u32)>,
    index: u64,
    /// The placement rules' record of recent branches, switches, SFU and `unifa` writes.
    place: Placement,
    switches: u64,
    /// Accumulators the previous instruction wrote (bit n = rn), for the rotate rule.
    prev_acc_writes: u8,
    /// Record stalls in `report.timeline` ([`super::V3dConfig::timeline`]).
    timeline: bool,
    pub report: V3dQpuReport,
}

fn splat(v: u32) -> Lanes {
    [v; 16]
}

fn bits_of(lanes: [bool; 16]) -> u16 {
    lanes
        .iter()
        .enumerate()
        .fold(0, |m, (i, &b)| m | (u16::from(b) << i))
}

fn unsupported(what: impl Into<String>) -> V3dFault {
    V3dFault::Unsupported(what.into())
}

impl Thread {
    pub fn new(
        config: &V3dConfig,
        qpu: usize,
        slot: usize,
        batch: &Batch,
        pc: u32,
        tmu_writes: TmuWrites,
        timing: SharedMemorySystem,
    ) -> Thread {
        let clocks_per_instruction = timing.borrow().board().clocks_per_instruction;
        let mut t = Thread {
            qpu,
            slot,
            batch: batch.index,
            version: config.version,
            threads: config.threads,
            rf: vec![[0; 16]; 64],
            rf_poison: (0..64)
                .map(|n| Poison::all(Origin::Unwritten(Register::Rf(n))))
                .collect(),
            rf_poisoned: !0,
            acc: [[0; 16]; 6],
            acc_poison: std::array::from_fn(|n| {
                Poison::all(Origin::Unwritten(Register::Acc(n as u8)))
            }),
            acc_poisoned: 0x3f,
            flag_a: 0,
            flag_b: 0,
            flag_poison: [Poison::all(Origin::FlagsAtStart); 2],
            switched_at: None,
            barrier: false,
            group: batch.group,
            waiting: false,
            pc,
            unif: batch.uniforms,
            unifa: None,
            lr: 0,
            rtop: None,
            tmu_data: Vec::new(),
            tmu_config: None,
            tmu_results: VecDeque::new(),
            tmu_issued: VecDeque::new(),
            tmu_writes,
            tmu_store_done: 0,
            timing,
            clocks_per_instruction,
            lines: Vec::new(),
            branch: None,
            thrsw: None,
            index: 0,
            place: Placement::new(batch.single_segment, config.threads > 1),
            switches: 0,
            prev_acc_writes: 0,
            timeline: config.timeline,
            report: V3dQpuReport {
                qpu,
                ..V3dQpuReport::default()
            },
        };
        // The CSD payload (`V3dVersion::payload0`, `V3dVersion::PAYLOAD1`).
        let p0 = config.version.payload0();
        t.write_register(Dest::Rf(p0), splat(batch.payload0), 0xffff)
            .expect("a payload register exists");
        t.write_register(Dest::Rf(V3dVersion::PAYLOAD1), batch.payload1, 0xffff)
            .expect("a payload register exists");
        t
    }

    fn regs(&self) -> u8 {
        if self.threads == 4 {
            32
        } else {
            64
        }
    }

    /// Register-file register `n` (its lanes may be undefined: see [`Self::rf_poison`]).
    fn read_rf(&self, n: u8) -> Result<&Lanes, V3dFault> {
        if n >= self.regs() {
            return Err(V3dRule::RegisterOutOfRange {
                index: n,
                limit: self.regs(),
            }
            .into());
        }
        Ok(&self.rf[usize::from(n)])
    }

    fn read_acc(&self, n: u8) -> Result<&Lanes, V3dFault> {
        Ok(&self.acc[usize::from(n)])
    }

    /// What reading `source` gives: its lanes and their undefined marks.
    fn read_source(&self, source: InputSource) -> Result<(Lanes, Poison), V3dFault> {
        Ok(match source {
            InputSource::Acc(r) => (*self.read_acc(r)?, self.acc_poison[usize::from(r)]),
            InputSource::Rf(r) => (*self.read_rf(r)?, self.rf_poison[usize::from(r)]),
            InputSource::SmallImm(i) => (self.small_imm(i)?, Poison::NONE),
        })
    }

    /// Whether a plain instruction may take the short path: none of its inputs and
    /// conditions has an undefined lane (the short path does not track them).
    fn clean_for(&self, alu: &DecodedAlu) -> bool {
        let poisoned_flags =
            u8::from(self.flag_poison[0].any()) | u8::from(self.flag_poison[1].any()) << 1;
        alu.rf_reads & self.rf_poisoned == 0
            && alu.acc_reads & self.acc_poisoned == 0
            && alu.flag_reads & poisoned_flags == 0
    }

    /// Flags A and B.
    fn flags(&self) -> (u16, u16) {
        (self.flag_a, self.flag_b)
    }

    /// The write-enable mask of a condition, and its undefined lanes.
    fn cond_mask(&self, cond: Option<Cond>) -> (u16, Poison) {
        let Some(cond) = cond else {
            return (0xffff, Poison::NONE);
        };
        let (a, b) = self.flags();
        let [pa, pb] = self.flag_poison;
        match cond {
            Cond::IfA => (a, pa),
            Cond::IfB => (b, pb),
            Cond::IfNa => (!a, pa),
            Cond::IfNb => (!b, pb),
        }
    }

    /// An error when `poison` has an undefined lane: `what` used it.
    fn used(&self, what: &'static str, poison: Poison) -> Result<(), V3dFault> {
        if !poison.any() {
            return Ok(());
        }
        let (origin, origin_pc, origin_address) = poison.origin.describe();
        Err(V3dRule::UndefinedValueUsed {
            what,
            lanes: poison.lanes,
            origin,
            origin_pc,
            origin_address,
        }
        .into())
    }

    /// A word as the uniform stream reads it: as it was before this dispatch's TMU writes.
    fn uniform_word(&self, mem: &LendingMemory<'_>, addr: u32) -> Result<u32, V3dFault> {
        if addr.is_multiple_of(4) {
            if let Some(before) = self.tmu_writes.borrow().before(addr) {
                return Ok(before);
            }
        }
        Ok(mem.read_u32(addr)?)
    }

    /// Keeps what the block of `addr` held before the dispatch's first TMU write into it.
    fn before_tmu_write(&self, mem: &LendingMemory<'_>, addr: u32) {
        self.tmu_writes.borrow_mut().before_write(mem, addr);
    }

    fn next_uniform(&mut self, mem: &LendingMemory<'_>) -> Result<u32, V3dFault> {
        let v = self.uniform_word(mem, self.unif)?;
        self.unif = self.unif.wrapping_add(4);
        self.report.uniforms += 1;
        Ok(v)
    }

    /// Executes the instruction at the PC, decoded on its first execution in this dispatch
    /// (`code`).
    pub fn step(
        &mut self,
        mem: &mut LendingMemory<'_>,
        clock: &mut u64,
        code: &mut DecodedCode,
    ) -> Result<Step, V3dFault> {
        let instr = code.get(self.version, mem, self.pc)?;
        let idx = self.index;
        // A thread switch due after this instruction (taken now: the instruction may be a
        // `thrsw` of its own in the earlier one's delay slots, on a one-thread QPU).
        let due = self.thrsw.filter(|t| t.0 == idx);
        *clock += self.clocks_per_instruction;
        self.report.instructions += 1;
        match instr {
            Decoded::Branch(b) => {
                self.branch_instr(b, mem)?;
                self.prev_acc_writes = 0;
            }
            Decoded::Alu(alu)
                if alu.plain
                    && !self.place.ending()
                    && !self.place.sfu_pending(idx)
                    && self.clean_for(alu) =>
            {
                self.plain_instr(alu, clock)?
            }
            Decoded::Alu(alu) => self.alu_instr(alu, mem, clock)?,
        }
        self.pc = self.pc.wrapping_add(8);
        self.index += 1;
        let mut step = Step::Continue;
        if let Some((at, target, unif)) = self.branch {
            if at == idx {
                self.pc = target;
                if let Some(u) = unif {
                    self.unif = u;
                }
                self.branch = None;
            }
        }
        if let Some((_, end, thrsw_pc)) = due {
            {
                if self.thrsw == due {
                    self.thrsw = None;
                }
                if end {
                    step = Step::End;
                    if self.timeline {
                        // Results never read leave the FIFO with the thread.
                        for (&(_, _, ready), &issued) in
                            self.tmu_results.iter().zip(&self.tmu_issued)
                        {
                            self.report.tmu_lookups.push(crate::vc4::TmuLookup {
                                issued,
                                ready,
                                read: (*clock).max(ready),
                            });
                        }
                    }
                } else {
                    // The flags are per-thread state from V3D 4.2 on and survive the switch
                    // (Mesa commit "broadcom/compiler: flags are per-thread state", 2021, which
                    // its vir_opt_redundant_flags.c relies on; every program Mesa emits for
                    // Pi 4/5 compute does). The accumulators survive only when no other
                    // thread runs before this one resumes: the dispatcher decides
                    // (`resumed`).
                    self.switches += 1;
                    self.switched_at = Some(thrsw_pc);
                    // Mesa nir_to_vir.c: "The blocking of a TSY op only happens at the next
                    // thread switch".
                    step = if std::mem::take(&mut self.barrier) {
                        Step::Barrier
                    } else {
                        Step::Switch
                    };
                }
            }
        }
        Ok(step)
    }

    fn branch_instr(&mut self, b: &Branch, mem: &LendingMemory<'_>) -> Result<(), V3dFault> {
        let idx = self.index;
        // A branch in the first two delay slots of another, or in a thrsw's, breaks a rule
        // before the third-slot case below can arise (a thrsw in a taken branch's first
        // two slots is a fault of its own).
        self.place.branch(idx)?;
        if self.branch.is_some() {
            return Err(unsupported(
                "a branch in the third delay slot of another branch",
            ));
        }
        // The lanes whose condition counts. Mesa qpu_instr.h `v3d_qpu_msfign`: with `msfp`
        // a lane with no multisample flag set is ignored, with `msfq` a quad with none;
        // Mesa's compute loops branch back with `b.anya.msfp` (nir_to_vir.c, "pixels that
        // were not dispatched ... should not contribute"). A compute batch here is whole,
        // so every lane was dispatched and has its flag: every lane counts either way
        // (MSF_DISPATCHED).
        let msf = MSF_DISPATCHED;
        let counted = match b.msfign {
            1 => msf,
            2 => (0..4).fold(0u16, |m, q| {
                if msf >> (4 * q) & 0xf != 0 {
                    m | 0xf << (4 * q)
                } else {
                    m
                }
            }),
            _ => 0xffff,
        };
        let decide = |a: u16| match b.cond {
            BranchCond::A0 => a & 1 == 1,
            BranchCond::Na0 => a & 1 == 0,
            BranchCond::AllA => a & counted == counted,
            BranchCond::AnyNa => !a & counted != 0,
            BranchCond::AnyA => a & counted != 0,
            BranchCond::AllNa => a & counted == 0,
            BranchCond::Always => true,
        };
        let (a, _) = self.flags();
        let taken = decide(a);
        if b.cond != BranchCond::Always {
            // Every condition is monotone in flag A's lanes: if setting all its undefined
            // lanes and clearing them decide alike, they do not matter.
            let poison = self.flag_poison[0];
            if decide(a | poison.lanes) != decide(a & !poison.lanes) {
                self.used("the flag deciding the branch", poison)?;
            }
        }
        // Relative targets count from the instruction four after the branch.
        let after = self.pc.wrapping_add(32);
        // Mesa qpu_schedule.c: every Mesa branch has ub set and a uniform holding the
        // offset of the target's uniforms from the uniform after this one; we read it
        // whether or not the branch is taken.
        //
        // With `bdu` 2 or 3 the new uniform address comes from the link register or from a
        // register (raddr_a) instead, and no uniform is read. Which lane of the register:
        // py-videocore6 and 7 tests/test_branch.py `test_uniform_branch_reg` (Pi 4, Pi 5) set
        // only lane 1 of the register to the target, and py-videocore7 tests/test_unifa.py
        // says "Branch takes the second element as a new uniform address". The same file
        // also branches to base + 4·lane and expects the stream to start at the base: so the
        // address's low three bits are dropped (ASSUMPTION: the one reading that fits all of
        // them; buffers are page-aligned there).
        let unif = if b.ub {
            match b.bdu {
                0 => Some(self.next_uniform(mem)?),
                1 => {
                    let value = self.next_uniform(mem)?;
                    Some(self.unif.wrapping_add(value))
                }
                2 => Some(self.lr),
                3 => {
                    self.used(
                        "the uniform address a branch takes (lane 1)",
                        self.rf_poison_of(b.raddr_a)?.within(2),
                    )?;
                    Some(self.read_rf(b.raddr_a)?[1] & !7)
                }
                n => return Err(unsupported(format!("branch uniform destination bdu={n}"))),
            }
        } else {
            None
        };
        let target = match b.bdi {
            BranchDest::Abs => b.offset,
            BranchDest::Rel => after.wrapping_add(b.offset),
            BranchDest::LinkReg => self.lr,
            BranchDest::Regfile => {
                self.used(
                    "the branch target (lane 0)",
                    self.rf_poison_of(b.raddr_a)?.within(1),
                )?;
                self.read_rf(b.raddr_a)?[0]
            }
        };
        if b.link {
            self.lr = after;
        }
        if taken {
            self.branch = Some((idx + latency::BRANCH_DELAY_SLOTS, target, unif));
        }
        Ok(())
    }

    fn small_imm(&self, index: u8) -> Result<Lanes, V3dFault> {
        small_imm_value(index)
            .map(splat)
            .ok_or_else(|| unsupported(format!("small immediate index {index}")))
    }

    /// The undefined lanes of register-file register `n`.
    fn rf_poison_of(&self, n: u8) -> Result<Poison, V3dFault> {
        self.read_rf(n)?;
        Ok(self.rf_poison[usize::from(n)])
    }

    /// Reads ALU input `n` (0 add a, 1 add b, 2 mul a, 3 mul b): its lanes and their
    /// undefined marks.
    fn read_input(&self, alu: &DecodedAlu, n: usize) -> Result<(Lanes, Poison), V3dFault> {
        let sigs = alu.signals;
        let source = alu.input(n);
        let value = |source| self.read_source(source);
        // Only 4.2's `rot` changes what an input reads.
        let (
            true,
            Inputs::V42 {
                add_a,
                add_b,
                mul_a,
                mul_b,
                raddr_b,
                ..
            },
        ) = (sigs.contains(Signal::Rot), alu.inputs)
        else {
            return value(source);
        };
        // 4.2's `rot` takes raddr_b for its amount.
        let mux = [add_a, add_b, mul_a, mul_b][n];
        if sigs.contains(Signal::Rot) && matches!((mux, source), (Mux::B, InputSource::Rf(_))) {
            return Err(unsupported(
                "an input through port B while rot uses raddr_b as its amount",
            ));
        }
        let value = value(source)?;
        if n >= 2 && sigs.contains(Signal::Rot) {
            return self.rotate42(mux, raddr_b, value);
        }
        Ok(value)
    }

    /// The lanes lane i of a 4.2 `rot` by `n` reads: across all 16 lanes for an
    /// accumulator, within the quad for a register-file value.
    fn rotate42_from(mux: Mux, n: usize) -> impl Fn(usize) -> usize {
        let full = matches!(mux, Mux::Acc(_));
        move |i| {
            if full {
                (i + 16 - n) % 16
            } else {
                (i & !3) + (i + 16 - n) % 4
            }
        }
    }

    /// The 4.2 `rot` signal on a mul input (py-videocore6 tests/test_signals.py, run on a
    /// Pi 4): an accumulator rotates across all 16 lanes, a register-file value within each
    /// quad; out[i] = in[(i − n) mod 16] (or mod 4 within the quad). The amount is raddr_b
    /// as a small-immediate index, 0 meaning "by r5" (lane 0).
    fn rotate42(
        &self,
        mux: Mux,
        raddr_b: u8,
        (value, poison): (Lanes, Poison),
    ) -> Result<(Lanes, Poison), V3dFault> {
        if placement::rotate_too_soon(mux, raddr_b, self.prev_acc_writes) {
            return Err(V3dRule::RotateTooSoon.into());
        }
        let amount = if raddr_b == 0 {
            // An undefined amount makes every lane of the result undefined.
            let amount_poison = self.acc_poison[5].within(1);
            if amount_poison.any() {
                return Ok((value, Poison::all(amount_poison.origin)));
            }
            self.read_acc(5)?[0]
        } else {
            match raddr_b {
                1..=31 => small_imm_value(raddr_b).unwrap_or(0),
                _ => return Err(unsupported("a rot amount that is a float small immediate")),
            }
        };
        let from = Self::rotate42_from(mux, amount as usize & 15);
        Ok((std::array::from_fn(|i| value[from(i)]), poison.moved(from)))
    }

    fn dest(&self, w: Waddr) -> Result<Dest, V3dFault> {
        dest_of(self.version, w)
    }

    fn alu_instr(
        &mut self,
        alu: &DecodedAlu,
        mem: &mut LendingMemory<'_>,
        clock: &mut u64,
    ) -> Result<(), V3dFault> {
        let idx = self.index;
        let v42 = self.version == V3dVersion::V42;
        let sigs = alu.signals;
        for sig in [Signal::Ldvary, Signal::Ldtlb, Signal::Ldtlbu, Signal::Ucb] {
            if sigs.contains(sig) {
                return Err(unsupported(format!(
                    "the `{}` signal (graphics only)",
                    sig.name()
                )));
            }
        }
        let add_live = alu.add.op != AddOp::Nop;
        let mul_live = alu.mul.op != MulOp::Nop;

        if alu.facts.small_immediates_broken {
            placement::small_immediates(self.version, sigs, add_live, mul_live)?;
        }

        let add_dest = if add_live {
            alu.add_dest.map_or_else(|| self.dest(alu.add.waddr), Ok)?
        } else {
            Dest::Nop
        };
        if alu.facts.rotate_destination {
            return Err(V3dRule::RotateDestination.into());
        }
        let mul_dest = if mul_live {
            alu.mul_dest.map_or_else(|| self.dest(alu.mul.waddr), Ok)?
        } else {
            Dest::Nop
        };

        // Peripherals, SFU latency, thread switches and the program end (Mesa
        // qpu_validate.c).
        if let Some(end) = self.place.alu(idx, self.version, alu, &alu.facts)? {
            self.thrsw = Some((idx + latency::THRSW_DELAY_SLOTS, end, self.pc));
        }

        // Inputs (all read before anything is written).
        let ar = alu.add_arity();
        let mr = alu.mul_arity();
        let none = ([0u32; 16], Poison::NONE);
        let input = |this: &Self, live: bool, needed: bool, n: usize| {
            if live && needed {
                this.read_input(alu, n)
            } else {
                Ok(none)
            }
        };
        let (add_a, add_a_p) = input(self, add_live, ar >= 1, 0)?;
        let (add_b, add_b_p) = input(self, add_live, ar >= 2, 1)?;
        let (mul_a, mul_a_p) = input(self, mul_live, mr >= 1, 2)?;
        let (mul_b, mul_b_p) = input(self, mul_live, mr >= 2, 3)?;

        let flags = alu.flags();
        let add_poison = self.add_poison(alu, add_a_p, add_b_p, &add_b);
        let mul_poison = self.mul_poison(alu, mul_a_p, mul_b_p);
        let add_out = if add_live {
            Some(self.add_op(alu, add_a, add_b, clock)?)
        } else {
            None
        };
        let mul_out = if mul_live {
            Some(self.mul_op(alu, mul_a, mul_b)?)
        } else {
            None
        };
        if alu.mul.op == MulOp::Multop {
            if let Some(rtop) = &mut self.rtop {
                rtop.1 = mul_poison;
            }
        }
        let (add_mask, add_cond) = self.cond_mask(flags.ac);
        let (mul_mask, mul_cond) = self.cond_mask(flags.mc);

        // Uniform-stream readers in this instruction.
        if alu.facts.two_uniform_reads {
            return Err(V3dRule::TwoUniformReads.into());
        }

        // Register writes: collect, check for doubles, then apply.
        let mut writes = Writes::new();
        if let Some(out) = &add_out {
            let (values, poison) = self.packed(alu, true, out.values, add_poison, add_dest)?;
            writes.push(Write::new(add_dest, values, add_mask, poison, add_cond));
        }
        if let Some(out) = &mul_out {
            let (values, poison) = self.packed(alu, false, out.values, mul_poison, mul_dest)?;
            writes.push(Write::new(mul_dest, values, mul_mask, poison, mul_cond));
        }

        // Signals that read something (their values land at the end of the instruction).
        let sig_target = |this: &Thread| -> Result<Dest, V3dFault> {
            match alu.cond {
                CondField::SigAddr(w) => this.dest(w),
                CondField::Flags(_) => Ok(Dest::Nop),
            }
        };
        if sigs.contains(Signal::Ldunif) {
            let v = self.next_uniform(mem)?;
            let d = if v42 { Dest::Acc(5) } else { Dest::Rf(0) };
            writes.push(Write::defined(d, splat(v)));
        }
        if sigs.contains(Signal::Ldunifrf) {
            let v = self.next_uniform(mem)?;
            writes.push(Write::defined(sig_target(self)?, splat(v)));
        }
        if sigs.contains(Signal::Ldunifa) || sigs.contains(Signal::Ldunifarf) {
            self.place.ldunifa(idx)?;
            let addr = self.unifa.unwrap_or(0);
            let v = self.uniform_word(mem, addr)?;
            self.unifa = Some(addr.wrapping_add(4));
            let d = if sigs.contains(Signal::Ldunifarf) {
                sig_target(self)?
            } else if v42 {
                Dest::Acc(5)
            } else {
                Dest::Rf(0)
            };
            writes.push(Write::defined(d, splat(v)));
        }
        if sigs.contains(Signal::Ldtmu) {
            let Some((v, poison, ready)) = self.tmu_results.pop_front() else {
                return Err(V3dRule::LdtmuEmpty.into());
            };
            if ready > *clock {
                self.stall(*clock, ready - *clock);
                *clock = ready;
            }
            if self.timeline {
                if let Some(issued) = self.tmu_issued.pop_front() {
                    self.report.tmu_lookups.push(crate::vc4::TmuLookup {
                        issued,
                        ready,
                        read: *clock,
                    });
                }
            }
            let target = sig_target(self)?;
            if matches!(target, Dest::Quad | Dest::Rep) {
                return Err(unsupported(
                    "ldtmu into r5/quad/rep: no source says whether the broadcast applies to a \
                     signal's write",
                ));
            }
            writes.push(Write::new(target, v, 0xffff, poison, Poison::NONE));
        }
        if sigs.contains(Signal::Wrtmuc) {
            self.tmu_config = Some(self.next_uniform(mem)?);
        }

        // Two writes to one register (7.1's quad/rep and ldunif all land in rf0).
        if alu.facts.double_write {
            if let Some(rule) = placement::double_write(self.version, alu) {
                return Err(rule.into());
            }
        }
        let writes = writes.as_slice();

        // Flag pushes and updates, from the results (conditions above used the old flags).
        self.update_flags(flags.apf, flags.auf, add_out.as_ref(), add_poison, "add")?;
        self.update_flags(flags.mpf, flags.muf, mul_out.as_ref(), mul_poison, "mul")?;

        for write in writes {
            self.write(write, mem, clock, idx)?;
        }
        self.prev_acc_writes = alu.facts.acc_writes;
        Ok(())
    }

    /// A plain instruction ([`is_plain`]): the steps of [`Thread::alu_instr`] that can
    /// apply to it, in the same order (inputs, operations, conditions, then the add write
    /// before the mul write), so it fails where and as that would.
    fn plain_instr(&mut self, alu: &DecodedAlu, clock: &mut u64) -> Result<(), V3dFault> {
        let add_live = alu.add.op != AddOp::Nop;
        let mul_live = alu.mul.op != MulOp::Nop;
        let (ar, mr) = (alu.add_arity(), alu.mul_arity());
        static ZERO: Lanes = [0; 16];
        let (add_out, mul_out) = if let Some((add_fn, mul_fn)) = alu.lane_fns {
            // Both ops are lane functions: inputs read in place, nothing copied first.
            let input = |live: bool, needed: bool, n: usize| -> Result<&Lanes, V3dFault> {
                if !(live && needed) {
                    return Ok(&ZERO);
                }
                match alu.sources[n] {
                    InputSource::Acc(r) => self.read_acc(r),
                    InputSource::Rf(r) => self.read_rf(r),
                    InputSource::SmallImm(i) => match &alu.imm {
                        Some(lanes) => Ok(lanes),
                        None => self.small_imm(i).map(|_| &ZERO),
                    },
                }
            };
            let add_a = input(add_live, ar >= 1, 0)?;
            let add_b = input(add_live, ar >= 2, 1)?;
            let mul_a = input(mul_live, mr >= 1, 2)?;
            let mul_b = input(mul_live, mr >= 2, 3)?;
            (
                add_live.then(|| add_fn(add_a, add_b)),
                mul_live.then(|| mul_fn(mul_a, mul_b)),
            )
        } else {
            // `clean_for` made sure no input has an undefined lane.
            let input = |this: &Self, live: bool, needed: bool, n: usize| {
                if live && needed {
                    this.read_input(alu, n).map(|(v, _)| v)
                } else {
                    Ok(ZERO)
                }
            };
            let add_a = input(self, add_live, ar >= 1, 0)?;
            let add_b = input(self, add_live, ar >= 2, 1)?;
            let mul_a = input(self, mul_live, mr >= 1, 2)?;
            let mul_b = input(self, mul_live, mr >= 2, 3)?;
            let add_out = if add_live {
                Some(self.add_op(alu, add_a, add_b, clock)?.values)
            } else {
                None
            };
            let mul_out = if mul_live {
                Some(self.mul_op(alu, mul_a, mul_b)?.values)
            } else {
                None
            };
            (add_out, mul_out)
        };
        let flags = alu.flags();
        let (add_mask, _) = self.cond_mask(flags.ac);
        let (mul_mask, _) = self.cond_mask(flags.mc);
        for (out, dest, mask) in [
            (add_out, alu.add_dest, add_mask),
            (mul_out, alu.mul_dest, mul_mask),
        ] {
            if let (Some(values), Some(dest)) = (out, dest) {
                self.write_register(dest, values, mask)?;
            }
        }
        self.prev_acc_writes = alu.facts.acc_writes;
        Ok(())
    }

    fn update_flags(
        &mut self,
        push: Option<PushFlag>,
        update: Option<UpdateFlag>,
        out: Option<&Output>,
        poison: Poison,
        alu: &str,
    ) -> Result<(), V3dFault> {
        if push.is_none() && update.is_none() {
            return Ok(());
        }
        let Some(out) = out else {
            return Err(unsupported(format!(
                "a flag push/update from the {alu} ALU while its operation is nop"
            )));
        };
        let carry = || {
            out.carry.ok_or_else(|| {
                unsupported(format!(
                    "the carry (C) of this {alu} operation: no source defines it"
                ))
            })
        };
        if let Some(p) = push {
            let bits = match p {
                PushFlag::Z => bits_of(out.zero()),
                PushFlag::N => bits_of(out.negative()),
                PushFlag::C => bits_of(carry()?),
            };
            // py-videocore6 test_cond_push_b: a push moves the old A into B (with its
            // undefined lanes); the new A is undefined where the result is.
            self.flag_b = self.flag_a;
            self.flag_a = bits;
            self.flag_poison = [poison, self.flag_poison[0]];
        }
        if let Some(u) = update {
            let (a, _) = self.flags();
            self.flag_poison[0] = self.flag_poison[0].or(poison);
            use UpdateFlag::*;
            let x = match u {
                AndZ | AndNz | NorNz | NorZ => bits_of(out.zero()),
                AndN | AndNn | NorNn | NorN => bits_of(out.negative()),
                AndC | AndNc | NorNc | NorC => bits_of(carry()?),
            };
            // py-videocore6 test_cond_update: and* = A ∧ x, nor* = ¬(A ∨ x), with x
            // negated for the `n` forms (andnz, nornz, andnn, nornn, andnc, nornc).
            let x = match u {
                AndNz | NorNz | AndNn | NorNn | AndNc | NorNc => !x,
                _ => x,
            };
            self.flag_a = match u {
                AndZ | AndNz | AndN | AndNn | AndC | AndNc => a & x,
                _ => !(a | x),
            };
        }
        Ok(())
    }

    /// Applies the output pack of the op (which needs the old destination value, whose
    /// undefined lanes stay undefined in the half it keeps).
    fn packed(
        &self,
        alu: &DecodedAlu,
        add: bool,
        values: Lanes,
        poison: Poison,
        dest: Dest,
    ) -> Result<(Lanes, Poison), V3dFault> {
        let pack = if add {
            alu.add_float_mods()
                .map(|m| m.pack)
                .or_else(|| alu.add_named_modifiers().map(|m| m.0))
        } else {
            alu.mul_float_mods()
                .map(|m| m.pack)
                .or_else(|| alu.mul_named_modifiers().map(|m| m.0))
                .or_else(|| self.fmov71_mul(alu).map(|m| m.0))
        }
        .unwrap_or(FloatPack::None);
        if pack == FloatPack::None {
            return Ok((values, poison));
        }
        let (old, old_poison) = match dest {
            Dest::Rf(n) => self.read_source(InputSource::Rf(n))?,
            Dest::Acc(n) => self.read_source(InputSource::Acc(n))?,
            _ => return Err(unsupported("a 16-bit pack into a magic register")),
        };
        Ok((
            std::array::from_fn(|i| lanes::float_pack(pack, values[i], old[i])),
            poison.or(old_poison),
        ))
    }

    /// The 7.1 mul `fmov` modifiers: pack in raddr_d bits 1:0, f32 unpack in bits 4:2
    /// (Mesa qpu_pack.c `v3d71_qpu_mul_unpack`; the codes are those of the add `fmov`).
    fn fmov71_mul(&self, alu: &DecodedAlu) -> Option<(FloatPack, &'static str)> {
        if self.version != V3dVersion::V71 || alu.mul.op != MulOp::Fmov {
            return None;
        }
        const UNPACKS: [&str; 7] = ["abs", "", "l", "h", "sat", "nsat", "max0"];
        let group = usize::from(alu.mul.variant / 3);
        let pack = [FloatPack::None, FloatPack::L, FloatPack::H][usize::from(alu.mul.variant % 3)];
        UNPACKS.get(group).map(|&u| (pack, u))
    }

    /// Writes `values` into a register-file register or an accumulator (`dest` is one of
    /// those or `Nop`), in the lanes `mask` enables.
    fn write_register(&mut self, dest: Dest, values: Lanes, mask: u16) -> Result<(), V3dFault> {
        let merge = |old: &mut Lanes| {
            if mask == 0xffff {
                *old = values;
                return;
            }
            // Branch-free, so that the lane loop vectorizes.
            for (i, o) in old.iter_mut().enumerate() {
                let keep = u32::from(mask >> i & 1).wrapping_sub(1);
                *o = (*o & keep) | (values[i] & !keep);
            }
        };
        match dest {
            Dest::Rf(n) => {
                if n >= self.regs() {
                    return Err(V3dRule::RegisterOutOfRange {
                        index: n,
                        limit: self.regs(),
                    }
                    .into());
                }
                merge(&mut self.rf[usize::from(n)]);
            }
            Dest::Acc(n) => merge(&mut self.acc[usize::from(n)]),
            _ => return Ok(()),
        }
        // The written lanes are defined now.
        if mask == 0xffff {
            self.set_poison(dest, Poison::NONE);
        } else if let Some(old) = self.poison_of(dest) {
            self.set_poison(dest, old.after_write(mask, Poison::NONE, Poison::NONE));
        }
        Ok(())
    }

    /// The undefined lanes of a register or accumulator destination.
    fn poison_of(&self, dest: Dest) -> Option<Poison> {
        match dest {
            Dest::Rf(n) => self.rf_poison.get(usize::from(n)).copied(),
            Dest::Acc(n) => Some(self.acc_poison[usize::from(n)]),
            _ => None,
        }
    }

    /// Sets the undefined lanes of a register or accumulator destination (in range).
    fn set_poison(&mut self, dest: Dest, poison: Poison) {
        let poison = if poison.any() { poison } else { Poison::NONE };
        match dest {
            Dest::Rf(n) => {
                self.rf_poison[usize::from(n)] = poison;
                let bit = 1u64 << n;
                self.rf_poisoned = (self.rf_poisoned & !bit) | if poison.any() { bit } else { 0 };
            }
            Dest::Acc(n) => {
                self.acc_poison[usize::from(n)] = poison;
                let bit = 1u8 << n;
                self.acc_poisoned = (self.acc_poisoned & !bit) | if poison.any() { bit } else { 0 };
            }
            _ => {}
        }
    }

    /// A register write with undefined lanes: the values, then the marks the write leaves.
    fn write_tracked(&mut self, w: &Write) -> Result<(), V3dFault> {
        if !w.poison.any() && !w.cond.any() {
            // Defined values under a defined condition: the plain write's marks.
            return self.write_register(w.dest, w.values, w.mask);
        }
        let old = self.poison_of(w.dest);
        self.write_register(w.dest, w.values, w.mask)?;
        if let Some(old) = old {
            self.set_poison(w.dest, old.after_write(w.mask, w.poison, w.cond));
        }
        Ok(())
    }

    /// Called when the dispatcher runs this thread after its last thread switch took
    /// effect: `others_ran` says whether another thread ran on the QPU in between.
    ///
    /// With one thread per QPU, or when the QPU's other thread slots are empty, the switch
    /// hands the QPU straight back and nothing else touches it; the hardware then has no
    /// reason to lose the accumulators (ASSUMPTION: no source describes the empty-slot case;
    /// Mesa only says a switch ends their lifetime because another thread may run). When
    /// another thread ran, 4.2's accumulators hold whatever it left: undefined.
    pub(crate) fn resumed(&mut self, others_ran: bool) {
        let Some(pc) = self.switched_at.take() else {
            return;
        };
        if others_ran && self.version == V3dVersion::V42 {
            for n in 0..6u8 {
                self.set_poison(
                    Dest::Acc(n),
                    Poison::all(Origin::Switched(Register::Acc(n), pc)),
                );
            }
        }
    }

    fn write(
        &mut self,
        w: &Write,
        mem: &mut LendingMemory<'_>,
        clock: &mut u64,
        idx: u64,
    ) -> Result<(), V3dFault> {
        let v42 = self.version == V3dVersion::V42;
        let &Write {
            dest,
            values,
            mask,
            poison,
            cond,
        } = w;
        match dest {
            Dest::Nop => {}
            Dest::Rf(_) | Dest::Acc(_) => self.write_tracked(w)?,
            Dest::Quad | Dest::Rep => {
                // 4.2 r5 / r5rep (py-videocore6 tests/test_signals.py, Pi 4) and 7.1 quad / rep
                // into rf0 (py-videocore7 tests/test_registers.py, Pi 5): `quad` gives each quad
                // its first lane's value, `rep` every lane lane 0's.
                let from = |i: usize| if dest == Dest::Quad { i & !3 } else { 0 };
                let spread: Lanes = std::array::from_fn(|i| values[from(i)]);
                let target = if v42 { Dest::Acc(5) } else { Dest::Rf(0) };
                self.write_tracked(&Write::new(target, spread, mask, poison.moved(from), cond))?;
            }
            Dest::Unifa => {
                if mask != 0xffff {
                    return Err(unsupported("a conditional write to unifa"));
                }
                // py-videocore7 tests/test_unifa.py (Pi 5): "Address is taken from element
                // zero".
                self.used("the unifa address (lane 0)", poison.within(1))?;
                self.unifa = Some(values[0]);
                self.place.unifa_written(idx);
            }
            Dest::Tmud => {
                if self.tmu_data.len() >= 4 {
                    return Err(V3dRule::TmuDataOverflow.into());
                }
                self.tmu_data.push((values, poison.or(cond)));
            }
            Dest::Tmuc => {
                if mask != 0xffff {
                    return Err(unsupported("a conditional write to tmuc"));
                }
                // py-videocore7 tests/test_tmu.py writes the lookup config to tmuc before
                // tmua (and -1 to reset it). ASSUMPTION: lane 0's value, as for unifa.
                self.used("the TMU lookup config (lane 0)", poison.within(1))?;
                self.tmu_config = Some(values[0]);
            }
            Dest::Tmua | Dest::Tmuau => {
                self.used("the condition of a TMU access", cond)?;
                // A `tmuau` write brings this lookup's config (its uniform); otherwise the
                // one `wrtmuc` or `tmuc` set, if any.
                let config = if dest == Dest::Tmuau {
                    Some(self.next_uniform(mem)?)
                } else {
                    self.tmu_config.take()
                };
                self.tmu_request(values, mask, poison, config, mem, clock)?;
            }
            Dest::Syncb => {
                if mask != 0xffff || cond.any() {
                    return Err(unsupported("a conditional write to syncb"));
                }
                self.barrier = true;
            }
            Dest::Sfu(kind) => {
                let result = values.map(|v| lanes::sfu(kind, v));
                self.write_tracked(&Write::new(Dest::Acc(4), result, mask, poison, cond))?;
            }
        }
        Ok(())
    }

    /// A general TMU access: a load when no `tmud` came first, else a store, or an atomic
    /// read-modify-write when the lookup config names one.
    ///
    /// The lookup config (py-videocore7 `TMULookUpConfig`; py-videocore6 uses 0xff, 0xfa,
    /// 0xfb, 0xfc for 1–4 words): bit 7 per-pixel mask, bits 6:3 op (15 = plain access,
    /// the others atomics, see `atomic`), bits 2:0 type (7 = 32 bits, 2–4 = vec2–vec4).
    /// The low byte of a config word (from `tmuau`'s uniform, or set by `wrtmuc` or `tmuc`)
    /// is this lookup's, 0xff meaning the plain 32-bit access; without a config the access
    /// is one 32-bit word. On 4.2 the other bytes are the following lookups', one each, with
    /// 0xff shifted in: py-videocore6's tests/test_tmu.py `test_tmu_vec_read` passes
    /// 0xfffafbfc with its first (`tmuau`) lookup and reads a vec4, a vec3, a vec2 and then
    /// a plain word through the next `tmua` lookups ("if the configs are shifted out, then
    /// 0xff ... is filled in"), on a Pi 4. On 7.1 py-videocore7's tests/test_tmu.py passes
    /// the same kind of word (0xfffafbfc, 0xfffffafb) with a single `tmuau` or `tmuc` lookup
    /// and expects the plain `tmua` stores after it to write one word each, on a Pi 5: so
    /// there a config is its own lookup's only. Lanes whose tmua write the condition masks off do not
    /// access memory (Mesa writes tmua conditionally in divergent control flow); their
    /// loaded words read as 0.
    ///
    /// A vec2–vec4 access of lane address `a` touches word k at `a + 4k` wrapped into the
    /// 16-byte block holding `a` (py-videocore6 tests/test_tmu.py: the unaligned "naive"
    /// vec2/vec3/vec4 reads and writes, whose expected arrays wrap so, pass on a Pi 4).
    ///
    /// A lane whose load address lies outside every buffer reads an undefined value
    /// (poison, an error where it is used), as a load outside the arrays is on the
    /// VideoCore IV emulator and the reference interpreter; a store there is an error.
    fn tmu_request(
        &mut self,
        addrs: Lanes,
        mask: u16,
        addr_poison: Poison,
        config: Option<u32>,
        mem: &mut LendingMemory<'_>,
        clock: &mut u64,
    ) -> Result<(), V3dFault> {
        self.used("the TMU address", addr_poison.within(mask))?;
        if let (Some(c), true) = (config, self.version == V3dVersion::V42) {
            let rest = c >> 8 | 0xff00_0000;
            if rest != u32::MAX {
                self.tmu_config = Some(rest);
            }
        }
        let config = config.filter(|&c| TmuConfig::of_word(c) != TmuConfig::PLAIN);
        let words = match config {
            None => 1,
            Some(c) => {
                let lookup = TmuConfig::of_word(c);
                if lookup.is_atomic() {
                    return self.atomic(addrs, mask, u32::from(lookup.op()), c, mem, clock);
                }
                match lookup.words() {
                    Some(n) => n,
                    None => {
                        return Err(unsupported(format!(
                            "TMU data type {} in lookup config {c:#010x} (8/16-bit)",
                            lookup.ty()
                        )))
                    }
                }
            }
        };
        let active = |i: usize| mask & (1 << i) != 0;
        let v42 = self.version == V3dVersion::V42;
        let word_address = |a: u32, w: usize| {
            let linear = a.wrapping_add(4 * w as u32);
            if v42 {
                (a & !15) | (linear & 15)
            } else {
                linear
            }
        };
        timing::lines_of(&addrs, mask, words, word_address, &mut self.lines);
        if self.tmu_data.is_empty() {
            let limit = latency::TMU_OUTPUT_FIFO / u32::from(self.threads);
            let outstanding = self.tmu_results.len() + words;
            if outstanding as u32 > limit {
                return Err(V3dRule::TmuOutputFifoOverflow {
                    words: outstanding as u32,
                    limit,
                }
                .into());
            }
            let timed = self.timing.borrow_mut().load(self.qpu, &self.lines, *clock);
            self.wait_for_tmu(timed.issued, clock);
            // Lanes mostly read one buffer: each read tries the allocation the last one found.
            let mut hint = 0;
            for w in 0..words {
                let mut out = [0u32; 16];
                let mut poison = Poison::NONE;
                for (i, o) in out.iter_mut().enumerate() {
                    if !active(i) {
                        continue;
                    }
                    let address = word_address(addrs[i], w);
                    match mem.read_u32_near(address, &mut hint) {
                        Ok(v) => *o = v,
                        Err(MemoryError::Unmapped { .. } | MemoryError::PastEnd { .. }) => {
                            let lane = Poison {
                                lanes: 1 << i,
                                origin: Origin::Load {
                                    address,
                                    pc: self.pc,
                                },
                            };
                            poison = poison.or(lane);
                        }
                        Err(e) => return Err(tmu_fault(TmuAccess::Load, i)(e)),
                    }
                }
                self.tmu_results.push_back((out, poison, timed.done));
                if self.timeline {
                    self.tmu_issued.push_back(*clock);
                }
            }
            self.report.tmu_loads += 1;
        } else {
            let data = std::mem::take(&mut self.tmu_data);
            if data.len() != words {
                return Err(unsupported(format!(
                    "a TMU store of {} tmud word(s) with a lookup config for {words}",
                    data.len()
                )));
            }
            for (_, poison) in &data {
                self.used("the value stored", poison.within(mask))?;
            }
            let mut hint = 0;
            let writes = Rc::clone(&self.tmu_writes);
            let mut shadows = writes.borrow_mut();
            for (w, (d, _)) in data.iter().enumerate() {
                for i in (0..16).filter(|&i| active(i)) {
                    let address = word_address(addrs[i], w);
                    shadows.before_write(mem, address);
                    mem.write_u32_near(address, d[i], &mut hint)
                        .map_err(tmu_fault(TmuAccess::Store, i))?;
                }
            }
            drop(shadows);
            let timed = self
                .timing
                .borrow_mut()
                .store(self.qpu, &self.lines, *clock);
            self.wait_for_tmu(timed.issued, clock);
            self.tmu_store_done = self.tmu_store_done.max(timed.done);
            self.report.tmu_stores += 1;
        }
        Ok(())
    }

    /// Counts a TMU stall of `clocks` from clock `start` (and records it, for a timeline).
    fn stall(&mut self, start: u64, clocks: u64) {
        self.report.stall_cycles += clocks;
        if self.timeline {
            self.report.timeline.push(crate::vc4::StallSpan {
                start,
                clocks,
                cause: crate::vc4::StallCause::Tmu,
            });
        }
    }

    /// Stalls until `issued` if the slice's TMU had no room for the request at `clock`.
    fn wait_for_tmu(&mut self, issued: u64, clock: &mut u64) {
        if issued > *clock {
            self.stall(*clock, issued - *clock);
            *clock = issued;
        }
    }

    /// An atomic TMU request (lookup config op `op` ≠ 15), as Mesa's `ntq_emit_tmu_general`
    /// (src/broadcom/compiler/nir_to_vir.c) issues them: the operand in `tmud` (two words
    /// for cmpxchg, whose config type is vec2; one 32-bit word otherwise), the address in
    /// `tmua`, and one result word per lane, the word's old value, read back with `ldtmu`
    /// (Mesa reads one component per atomic). Ops 0 add, 1 sub, 2 xchg, 3 cmpxchg, 4 umin, 5 umax, 6 smin, 7 smax, 8 and, 9 or,
    /// 10 xor (py-videocore7 `TMULookUpConfig`; Mesa `v3d_general_tmu_op_for_atomic`).
    /// Without `tmud`, ops 8 and 9 add +1 and −1 (Mesa turns an `atomicAdd` of ±1 into
    /// them, `v3d_get_op_for_atomic_add`); ops 0–4 without data are cache operations and
    /// the rest undefined, refused as not modelled. cmpxchg's first `tmud` word is the value
    /// compared and the second the one stored: Mesa writes the swap's two NIR data sources
    /// to `tmud` in order (`emit_tmu_general_atomic_writes`), and its SPIR-V front end puts
    /// the comparator first and the new value second (spirv_to_nir.c,
    /// `fill_common_atomic_sources`). Not checked on hardware.
    ///
    /// The whole request reads and writes memory when it is made, before any other QPU
    /// runs an instruction, so it is atomic with respect to them; active lanes naming the
    /// same word apply one after another in lane order (ASSUMPTION: the order the hardware
    /// serialises them in is not documented).
    fn atomic(
        &mut self,
        addrs: Lanes,
        mask: u16,
        op: u32,
        config: u32,
        mem: &mut LendingMemory<'_>,
        clock: &mut u64,
    ) -> Result<(), V3dFault> {
        let data = std::mem::take(&mut self.tmu_data);
        for (_, poison) in &data {
            self.used("the operand of a TMU atomic", poison.within(mask))?;
        }
        let data: Vec<Lanes> = data.into_iter().map(|(d, _)| d).collect();
        let ty = u32::from(TmuConfig::of_word(config).ty());
        let wanted = if op == u32::from(tmu::op::CMPXCHG) {
            2
        } else {
            1
        };
        // cmpxchg's two words: Mesa declares the type vec2; py-videocore7's
        // tests/test_tmu.py (Pi 5) keeps the 32-bit type (0x9f) with `tmudref` and `tmuoff`.
        let type_ok = if op == 3 { ty == 2 || ty == 7 } else { ty == 7 };
        let no_data = data.is_empty() && matches!(op, 8 | 9);
        if !type_ok || !(data.len() == wanted || no_data) {
            return Err(unsupported(format!(
                "TMU atomic op {op} with data type {ty} and {} tmud word(s) in lookup \
                 config {config:#010x}",
                data.len()
            )));
        }
        let limit = latency::TMU_OUTPUT_FIFO / u32::from(self.threads);
        let outstanding = self.tmu_results.len() as u32 + 1;
        if outstanding > limit {
            return Err(V3dRule::TmuOutputFifoOverflow {
                words: outstanding,
                limit,
            }
            .into());
        }
        let mut out = [0u32; 16];
        for (i, o) in out.iter_mut().enumerate() {
            if mask & (1 << i) == 0 {
                continue;
            }
            let old = mem
                .read_u32(addrs[i])
                .map_err(tmu_fault(TmuAccess::Atomic, i))?;
            let (a, b) = (
                data.first().map_or(0, |d| d[i]),
                data.get(1).map_or(0, |d| d[i]),
            );
            let new = match (op, no_data) {
                (8, true) => old.wrapping_add(1),
                (9, true) => old.wrapping_sub(1),
                (0, _) => old.wrapping_add(a),
                (1, _) => old.wrapping_sub(a),
                (2, _) => a,
                (3, _) => {
                    if old == a {
                        b
                    } else {
                        old
                    }
                }
                (4, _) => old.min(a),
                (5, _) => old.max(a),
                (6, _) => (old as i32).min(a as i32) as u32,
                (7, _) => (old as i32).max(a as i32) as u32,
                (8, _) => old & a,
                (9, _) => old | a,
                (10, _) => old ^ a,
                _ => {
                    return Err(unsupported(format!(
                        "TMU op {op} in lookup config {config:#010x}"
                    )))
                }
            };
            self.before_tmu_write(mem, addrs[i]);
            mem.write_u32(addrs[i], new)
                .map_err(tmu_fault(TmuAccess::Atomic, i))?;
            *o = old;
        }
        timing::lines_of(&addrs, mask, 1, |a, _| a, &mut self.lines);
        let (read, write) = {
            let mut m = self.timing.borrow_mut();
            let read = m.load(self.qpu, &self.lines, *clock);
            (read, m.store(self.qpu, &self.lines, *clock))
        };
        self.wait_for_tmu(read.issued.max(write.issued), clock);
        self.tmu_results.push_back((out, Poison::NONE, read.done));
        if self.timeline {
            self.tmu_issued.push_back(*clock);
        }
        self.tmu_store_done = self.tmu_store_done.max(write.done);
        self.report.tmu_loads += 1;
        self.report.tmu_stores += 1;
        Ok(())
    }

    /// The undefined lanes of the add op's result, from its inputs' (`a`, `b`; `b_values`
    /// is input b, for a rotation's amount).
    fn add_poison(&self, alu: &DecodedAlu, a: Poison, b: Poison, b_values: &Lanes) -> Poison {
        use AddOp::*;
        match alu.add.op {
            // x ^ x and x − x are 0 whatever x holds: py-videocore6's tests zero registers
            // nothing wrote this way on a Pi 4 (`xor rf0, rf0, rf0`, `sub rf1, rf1, rf1`).
            Xor | Sub if alu.input(0) == alu.input(1) => Poison::NONE,
            Vfla | Vflna => self.flag_poison[0],
            Vflb | Vflnb => self.flag_poison[1],
            Flapush => a.or(self.flag_poison[0]),
            Flbpush => a.or(self.flag_poison[1]),
            Ballot | Alleq | Allfeq => a.spread(),
            Bcastf => a.within(1).spread(),
            Rot => {
                if b.within(1).any() {
                    Poison::all(b.origin)
                } else {
                    let n = b_values[0] as usize & 15;
                    a.moved(|i| (i + n) % 16)
                }
            }
            Fdx => a.moved(|i| i & !1).or(a.moved(|i| (i & !1) + 1)),
            Fdy => a
                .moved(|i| (i & !3) + (i & 1))
                .or(a.moved(|i| (i & !3) + (i & 1) + 2)),
            Tmuwt => Poison::all(Origin::Unspecified("tmuwt", self.pc)),
            Barrierid => Poison::all(Origin::Unspecified("barrierid", self.pc)),
            Rotq => {
                if b.within(1).any() {
                    Poison::all(b.origin)
                } else {
                    let n = b_values[0] as usize & 3;
                    a.moved(|i| (i & !3) + (i + n) % 4)
                }
            }
            // Lane i reads lane b[i] of a.
            Shuffle => {
                let moved = a.moved(|i| b_values[i] as usize & 15);
                moved.or(b)
            }
            _ => a.or(b),
        }
    }

    /// The undefined lanes of the mul op's result (`umul24` adds the pending `multop`
    /// high part's).
    fn mul_poison(&self, alu: &DecodedAlu, a: Poison, b: Poison) -> Poison {
        match alu.mul.op {
            MulOp::Sub if alu.input(2) == alu.input(3) => Poison::NONE,
            MulOp::Umul24 => a.or(b).or(self.rtop.map_or(Poison::NONE, |r| r.1)),
            _ => a.or(b),
        }
    }

    fn add_op(
        &mut self,
        alu: &DecodedAlu,
        a: Lanes,
        b: Lanes,
        clock: &mut u64,
    ) -> Result<Output, V3dFault> {
        use AddOp::*;
        let p = self.version == V3dVersion::V42;
        let op = alu.add.op;
        // Regular float layout: unpack both inputs per the opcode.
        if let Some(m) = alu.add_float_mods() {
            let a = a.map(|v| lanes::float_unpack(m.a, v));
            let b = b.map(|v| lanes::float_unpack(m.b, v));
            return Ok(match op {
                Fadd | Faddnf => Output::float(map2(&a, &b, |x, y| vfloat::fadd(x, y, p))),
                Fsub => Output::float(map2(&a, &b, |x, y| vfloat::fsub(x, y, p))),
                Fmin => Output::float(map2(&a, &b, |x, y| vfloat::fmin(x, y, p))),
                Fmax => Output::float(map2(&a, &b, |x, y| vfloat::fmax(x, y, p))),
                Fcmp => {
                    let (values, carry) = map2c(&a, &b, |x, y| {
                        let le = f32::from_bits(x) <= f32::from_bits(y);
                        (vfloat::fcmp(x, y, p), le)
                    });
                    // N and Z of the difference give a < b and a == b.
                    Output {
                        values,
                        carry: Some(carry),
                        float: true,
                    }
                }
                Vfpack => Output::int(map2(&a, &b, |x, y| {
                    vfloat::pack16(y) << 16 | vfloat::pack16(x)
                })),
                _ => return Err(unsupported(format!("add op {op:?} with float modifiers"))),
            });
        }
        let named = alu.add_named_modifiers();
        let unpack_a = |a: Lanes| named_unpack(named, a);
        // Macros rather than closures taking `fn` pointers, so that each lane loop is
        // compiled with its operation inlined.
        macro_rules! int2 {
            ($f:expr) => {
                Output::int(map2(&a, &b, $f))
            };
        }
        macro_rules! carry2 {
            ($f:expr) => {{
                let (values, carry) = map2c(&a, &b, $f);
                Output {
                    values,
                    carry: Some(carry),
                    float: false,
                }
            }};
        }
        macro_rules! shift {
            ($f:expr) => {{
                let f = $f;
                Output::int(map2(&a, &b, move |x: u32, y: u32| f(x, y & 31)))
            }};
        }
        Ok(match op {
            Add => carry2!(|x, y| x.overflowing_add(y)),
            Sub => carry2!(|x, y| x.overflowing_sub(y)),
            // C of min(a, b) is a > b (Mesa ntq_emit_comparison, ilt32 via min + pushc);
            // max, umin and umax by analogy (ASSUMPTION).
            Min => carry2!(|x, y| ((x as i32).min(y as i32) as u32, (x as i32) > (y as i32))),
            Max => carry2!(|x, y| ((x as i32).max(y as i32) as u32, (x as i32) > (y as i32))),
            Umin => carry2!(|x, y| (x.min(y), x > y)),
            Umax => carry2!(|x, y| (x.max(y), x > y)),
            Shl => shift!(|x, n| x << n),
            Shr => shift!(|x, n| x >> n),
            Asr => shift!(|x, n| ((x as i32) >> n) as u32),
            Ror => shift!(|x: u32, n| x.rotate_right(n)),
            And => int2!(|x, y| x & y),
            Or => int2!(|x, y| x | y),
            Xor => int2!(|x, y| x ^ y),
            Not => Output::int(a.map(|x| !x)),
            Neg => Output::int(a.map(|x| x.wrapping_neg())),
            Clz => Output::int(a.map(u32::leading_zeros)),
            // The sources give the extra itof/utof encodings no meaning: all run as plain.
            Itof => Output::float(a.map(vfloat::itof)),
            Utof => Output::float(a.map(vfloat::utof)),
            // rsqrt2 computes 1/√x too (py-videocore7 tests/test_alu.py checks both against
            // the same function at 1 % tolerance); their precisions are not modelled.
            Recip | Rsqrt | Rsqrt2 | Exp | Log | Sin => {
                let kind = match op {
                    Recip => Sfu::Recip,
                    Rsqrt | Rsqrt2 => Sfu::Rsqrt,
                    Exp => Sfu::Exp,
                    Log => Sfu::Log,
                    _ => Sfu::Sin,
                };
                Output::float(a.map(|v| lanes::sfu(kind, v)))
            }
            Fround | Ftrunc | Ffloor | Fceil => {
                let a = unpack_a(a)?;
                let f = match op {
                    Fround => vfloat::fround,
                    Ftrunc => vfloat::ftrunc,
                    Ffloor => vfloat::ffloor,
                    _ => vfloat::fceil,
                };
                Output::float(a.map(|v| f(v, p)))
            }
            Ftoin | Ftoiz | Ftouz => {
                let a = unpack_a(a)?;
                let (values, carry) = map2c(
                    &a,
                    &a,
                    match op {
                        Ftoin => |x, _| vfloat::ftoi(x, true),
                        Ftoiz => |x, _| vfloat::ftoi(x, false),
                        _ => |x, _| vfloat::ftouz(x),
                    },
                );
                Output {
                    values,
                    carry: Some(carry),
                    float: false,
                }
            }
            Vfmin | Vfmax => {
                let a = unpack_a(a)?;
                let f = if op == Vfmin {
                    vfloat::fmin
                } else {
                    vfloat::fmax
                };
                Output::int(map2(&a, &b, |x, y| vfloat::vector(x, y, |u, v| f(u, v, p))))
            }
            // The ops below are checked on a Pi 5 by py-videocore7 tests/test_alu.py.
            // vadd/vsub: two 16-bit integer halves, each wrapping.
            Vadd | Vsub => {
                let sub = op == Vsub;
                Output::int(map2(&a, &b, |x, y| {
                    let half = |s: u32| {
                        let (p, q) = ((x >> s) as u16, (y >> s) as u16);
                        u32::from(if sub {
                            p.wrapping_sub(q)
                        } else {
                            p.wrapping_add(q)
                        }) << s
                    };
                    half(0) | half(16)
                }))
            }
            // fdx: right minus left lane of each pair; fdy: the lower pair of each quad minus
            // the upper pair, column by column; both results go to both lanes.
            Fdx | Fdy => {
                let a = unpack_a(a)?;
                Output::float(std::array::from_fn(|i| {
                    let (lo, hi) = if op == Fdx {
                        (i & !1, (i & !1) + 1)
                    } else {
                        ((i & !3) + (i & 1), (i & !3) + (i & 1) + 2)
                    };
                    vfloat::fsub(a[hi], a[lo], p)
                }))
            }
            Ballot | Bcastf | Alleq | Allfeq => {
                if alu.flags().ac.is_some() {
                    return Err(unsupported(format!(
                        "`{}` under a condition (only its unconditional form is measured)",
                        v3d::disasm::add_op_name(op)
                    )));
                }
                let value = match op {
                    // A bit per lane whose input is not zero.
                    Ballot => (0..16).fold(0, |m, i| m | u32::from(a[i] != 0) << i),
                    Bcastf => a[0],
                    Alleq => u32::from(a.iter().all(|&v| v == a[0])),
                    _ => u32::from(a.iter().all(|&v| f32::from_bits(v) == f32::from_bits(a[0]))),
                };
                Output::int(splat(value))
            }
            Mov => Output::int(unpack_a(a)?),
            Fmov => Output::float(unpack_a(a)?),
            Eidx => Output::int(std::array::from_fn(|i| i as u32)),
            // QPU number in bits 5:2, the thread in bits 1:0 counted in quarters of the QPU
            // (slots 0 and 2 with two threads): py-videocore7 tests/test_parallel.py takes
            // (tidx & 0b111100) >> 2 as the id with one thread per QPU and
            // (tidx & 0b111110) >> 1 with two, on a Pi 5.
            Tidx => Output::int(splat(
                (self.qpu as u32) << 2 | (self.slot as u32 * (4 / u32::from(self.threads))),
            )),
            Lr => Output::int(splat(self.lr)),
            Vfla | Vflna | Vflb | Vflnb => {
                let (fa, fb) = self.flags();
                let bits = match op {
                    Vfla => fa,
                    Vflna => !fa,
                    Vflb => fb,
                    _ => !fb,
                };
                // py-videocore6 test_cond_vflx: each lane reads as two 16-bit halves of 1/0.
                Output::int(std::array::from_fn(|i| {
                    u32::from(bits >> i & 1) * 0x0001_0001
                }))
            }
            Flapush | Flbpush => {
                let (fa, fb) = self.flags();
                let bits = if op == Flapush { fa } else { fb };
                // py-videocore6 test_cond_flx: (x << 2) | 3·flag.
                Output::int(std::array::from_fn(|i| {
                    (a[i] << 2) | (3 * u32::from(bits >> i & 1))
                }))
            }
            Tmuwt => {
                if self.tmu_store_done > *clock {
                    self.stall(*clock, self.tmu_store_done - *clock);
                    *clock = self.tmu_store_done;
                }
                // Mesa gives tmuwt a destination (qpu_instr.c: it "has a dst"); nothing
                // defines the value, so it is undefined (`add_poison`).
                Output::int([0; 16])
            }
            Nop => Output::int([0; 16]),
            // 7.1 rotate: out[i] = a[(i + n) mod 16] (py-videocore7 tests/test_parallel.py,
            // Pi 5: after `rotate r, r, 1`, lane 0 holds the old lane 1). ASSUMPTION: a
            // register amount is read from lane 0.
            Rot => {
                let n = b[0] as usize & 15;
                Output::int(std::array::from_fn(|i| a[(i + n) % 16]))
            }
            // 7.1 quad_rotate: each quad rotates as `rotate` rotates the 16 lanes,
            // out[i] = a[quad + (i + n) mod 4]. py-videocore7 tests/test_unifa.py (Pi 5)
            // moves lane 0's address into lane 1 with `quad_rotate(r, r, -1)` before a
            // uniform branch that "takes the second element": that holds for this
            // direction. ASSUMPTION: a register amount is read from lane 0.
            Rotq => {
                let n = b[0] as usize & 3;
                Output::int(std::array::from_fn(|i| a[(i & !3) + (i + n) % 4]))
            }
            // 7.1 shuffle: lane i reads lane b[i] of a (the only reading under which
            // py-videocore7's tests/test_tmu.py 4x16 strided rectangular read, with
            // indices 0, 4, 8, 12, 1, 5, ..., gives what it asserts on a Pi 5).
            Shuffle => Output::int(std::array::from_fn(|i| a[b[i] as usize & 15])),
            // flpop: the value shifted right by two (py-videocore6 and 7
            // tests/test_condition_codes.py `test_cond_flx`, the inverse of flapush); what it
            // does to the flags no test shows: they become undefined (below).
            Flpop => {
                let pc = self.pc;
                self.flag_poison = [Poison::all(Origin::Flpop(pc)); 2];
                Output::int(a.map(|x| x >> 2))
            }
            // barrierid's value: undefined (`add_poison`); py-videocore writes it to syncb.
            Barrierid => Output::int([0; 16]),
            _ => {
                return Err(unsupported(format!(
                    "add op `{}`",
                    v3d::disasm::add_op_name(op)
                )))
            }
        })
    }

    fn mul_op(&mut self, alu: &DecodedAlu, a: Lanes, b: Lanes) -> Result<Output, V3dFault> {
        let p = self.version == V3dVersion::V42;
        let op = alu.mul.op;
        if let Some(m) = alu.mul_float_mods() {
            let a = a.map(|v| lanes::float_unpack(m.a, v));
            let b = b.map(|v| lanes::float_unpack(m.b, v));
            return Ok(Output::float(map2(&a, &b, |x, y| vfloat::fmul(x, y, p))));
        }
        let named = alu.mul_named_modifiers().or_else(|| self.fmov71_mul(alu));
        let unpack_a = |a: Lanes| named_unpack(named, a);
        Ok(match op {
            MulOp::Add => {
                let (values, carry) = map2c(&a, &b, |x, y| x.overflowing_add(y));
                Output {
                    values,
                    carry: Some(carry),
                    float: false,
                }
            }
            MulOp::Sub => {
                let (values, carry) = map2c(&a, &b, |x, y| x.overflowing_sub(y));
                Output {
                    values,
                    carry: Some(carry),
                    float: false,
                }
            }
            MulOp::Smul24 => Output::int(map2(&a, &b, lanes::smul24)),
            MulOp::Umul24 => {
                // Mesa qpu_schedule.c: "MULTOP sets rtop, and UMUL24 implicitly reads rtop
                // and resets it to 0". The pair gives the low 32 bits of the full product
                // (Mesa's vir_UMUL); how the hardware splits it is not modelled.
                let low = map2(&a, &b, lanes::umul24);
                match self.rtop.take() {
                    None => Output::int(low),
                    Some((_, _, made)) if made != self.switches => {
                        return Err(V3dRule::MultopAcrossThrsw.into())
                    }
                    Some((high, _, _)) => {
                        Output::int(std::array::from_fn(|i| low[i].wrapping_add(high[i])))
                    }
                }
            }
            MulOp::Multop => {
                if alu.mul.waddr != Waddr::NOP {
                    return Err(unsupported("the value multop writes"));
                }
                let high = map2(&a, &b, |x, y| {
                    x.wrapping_mul(y).wrapping_sub(lanes::umul24(x, y))
                });
                self.rtop = Some((high, Poison::NONE, self.switches));
                Output::int([0; 16])
            }
            MulOp::Vfmul => {
                let a = unpack_a(a)?;
                Output::int(map2(&a, &b, |x, y| {
                    vfloat::vector(x, y, |u, v| vfloat::fmul(u, v, p))
                }))
            }
            MulOp::Mov => Output::int(unpack_a(a)?),
            MulOp::Fmov => {
                if named.is_none() {
                    return Err(unsupported("this encoding of the 7.1 mul fmov"));
                }
                Output::float(unpack_a(a)?)
            }
            MulOp::Nop => Output::int([0; 16]),
            _ => {
                return Err(unsupported(format!(
                    "mul op `{}`",
                    v3d::disasm::mul_op_name(op)
                )))
            }
        })
    }
}

/// The fault of lane `lane`'s TMU `access` that memory rejected.
fn tmu_fault(access: TmuAccess, lane: usize) -> impl Fn(MemoryError) -> V3dFault {
    move |source| V3dFault::Tmu {
        access,
        lane: lane as u8,
        source,
    }
}

#[cfg(test)]
mod plain_path_tests {
    use super::super::tests::Rng;
    use super::*;

    /// A thread in a random state: random register contents, most registers and
    /// accumulators valid, random flags (sometimes invalid), 1, 2 or 4 threads per QPU.
    fn random_thread(version: V3dVersion, rng: &mut Rng) -> Thread {
        let mut config = V3dConfig::new(version);
        config.threads = [1, 2, 4][(rng.next() % 3) as usize];
        let batch = Batch {
            index: 0,
            group: 0,
            uniforms: 0,
            single_segment: true,
            payload0: 0,
            payload1: [0; 16],
        };
        let timing = Rc::new(RefCell::new(MemorySystem::new(version, 1)));
        let mut t = Thread::new(&config, 0, 0, &batch, 0, TmuWrites::default(), timing);
        for r in t.rf.iter_mut().chain(t.acc.iter_mut()) {
            for lane in r.iter_mut() {
                *lane = rng.next() as u32;
            }
        }
        // About one register in eight with undefined lanes.
        let undefined = rng.next() & rng.next() & rng.next();
        for n in 0..64u8 {
            let poison = if undefined >> n & 1 == 1 {
                Poison {
                    lanes: (rng.next() as u16).max(1),
                    origin: Origin::Unwritten(Register::Rf(n)),
                }
            } else {
                Poison::NONE
            };
            t.set_poison(Dest::Rf(n), poison);
        }
        let undefined = rng.next() & rng.next() & rng.next();
        for n in 0..6u8 {
            let poison = if undefined >> n & 1 == 1 {
                Poison::all(Origin::Unwritten(Register::Acc(n)))
            } else {
                Poison::NONE
            };
            t.set_poison(Dest::Acc(n), poison);
        }
        // Accumulators the previous instruction wrote (a rotation of one faults).
        t.prev_acc_writes = (rng.next() & rng.next()) as u8;
        t.flag_a = rng.next() as u16;
        t.flag_b = rng.next() as u16;
        for f in &mut t.flag_poison {
            *f = if rng.next().is_multiple_of(8) {
                Poison::all(Origin::FlagsAtStart)
            } else {
                Poison::NONE
            };
        }
        t.index = 10;
        t
    }

    /// Every plain instruction does on the short path exactly what the full path does: the
    /// same result or the same fault, the same registers, validity and accumulator facts.
    #[test]
    fn the_plain_path_matches_the_full_path() {
        for version in [V3dVersion::V42, V3dVersion::V71] {
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            let (mut plain, mut faults, mut lane_fns, mut rotations) = (0, 0, 0, 0);
            for _ in 0..400_000 {
                let word = rng.next();
                let Ok(Instruction::Alu(mut alu)) = v3d::decode(version, word) else {
                    continue;
                };
                // Random words rarely lack signals and flag pushes: drop them (keeping
                // small immediates, and the write conditions, half the time).
                let small: Vec<Signal> = alu
                    .signals
                    .iter()
                    .filter(|s| s.name().starts_with("smimm"))
                    .collect();
                alu.signals = if rng.next().is_multiple_of(2) {
                    Signals::of(&small)
                } else {
                    Signals::NONE
                };
                if version == V3dVersion::V42 && rng.next().is_multiple_of(4) {
                    alu.signals = alu.signals.with(Signal::Rot);
                }
                // And a third of the time no mul op, which the short path's lane functions
                // then meet more often.
                if rng.next().is_multiple_of(3) {
                    alu.mul = v3d::Alu {
                        op: MulOp::Nop,
                        variant: 0,
                        waddr: Waddr::NOP,
                    };
                }
                let mut flags = alu.flags();
                (flags.apf, flags.auf, flags.mpf, flags.muf) = (None, None, None, None);
                if rng.next().is_multiple_of(2) {
                    (flags.ac, flags.mc) = (None, None);
                }
                alu.cond = CondField::Flags(flags);
                let d = DecodedAlu::new(version, alu);
                if !d.plain {
                    continue;
                }
                plain += 1;
                lane_fns += usize::from(d.lane_fns.is_some());
                rotations += usize::from(alu.signals.contains(Signal::Rot));
                let mut short = random_thread(version, &mut rng);
                if !short.clean_for(&d) {
                    // The step takes the full path then.
                    continue;
                }
                let mut full = short.clone();
                let mut mem = LendingMemory::new();
                let (mut c1, mut c2) = (0u64, 0u64);
                let r1 = short.plain_instr(&d, &mut c1);
                let r2 = full.alu_instr(&d, &mut mem, &mut c2);
                let text = format!("{alu:?}");
                assert_eq!(r1, r2, "{version:?} {text}");
                faults += usize::from(r1.is_err());
                if r1.is_ok() {
                    assert_eq!(short.rf, full.rf, "{version:?} {text}");
                    assert_eq!(short.rf_poison, full.rf_poison, "{version:?} {text}");
                    assert_eq!(short.rf_poisoned, full.rf_poisoned, "{version:?} {text}");
                    assert_eq!(short.acc, full.acc, "{version:?} {text}");
                    assert_eq!(short.acc_poison, full.acc_poison, "{version:?} {text}");
                    assert_eq!(short.acc_poisoned, full.acc_poisoned, "{version:?} {text}");
                    assert_eq!(
                        short.prev_acc_writes, full.prev_acc_writes,
                        "{version:?} {text}"
                    );
                    assert_eq!(
                        (short.flag_a, short.flag_b, short.flag_poison),
                        (full.flag_a, full.flag_b, full.flag_poison),
                        "{version:?} {text}"
                    );
                    assert_eq!(short.place, full.place, "{version:?} {text}");
                    assert_eq!(c1, c2, "{version:?} {text}");
                }
            }
            // Enough of both kinds, and of ops run as lane functions, to mean something.
            assert!(plain > 5_000, "{version:?}: {plain} plain instructions");
            assert!(
                lane_fns > 1_000,
                "{version:?}: {lane_fns} as lane functions"
            );
            if version == V3dVersion::V42 {
                assert!(rotations > 500, "{rotations} with rot");
            }
            assert!(
                faults > 100 && faults < plain * 3 / 4,
                "{version:?}: {faults} faults of {plain}"
            );
        }
    }
}
