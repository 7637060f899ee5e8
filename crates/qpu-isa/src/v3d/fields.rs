//! The small fields of a V3D instruction word: write addresses, the signal set, the flag and
//! condition field, operand muxes, small immediates and branch conditions.
//!
//! Sources: Mesa `src/broadcom/qpu/qpu_instr.h` (enum values) and `qpu_pack.c` (the packed
//! forms), cross-checked with py-videocore6's assembler (`Signals.pack`,
//! `ALUConditions.pack`, the `REGISTERS` list).

use super::{DecodeError, EncodeError, V3dVersion};

/// A register an instruction can write: register-file register rf0–rf63 or 4.2
/// accumulator r0–r5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Register {
    /// Register-file register.
    Rf(u8),
    /// 4.2 accumulator.
    Acc(u8),
}

/// A write address: 6 bits plus the "magic" bit (`ma`/`mm` for the ALUs, bit 6 of the cond
/// field for a signal's destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Waddr {
    magic: bool,
    index: u8,
}

impl Waddr {
    /// The magic address "no write" (6 on both versions).
    pub const NOP: Waddr = Waddr::magic_const(6);
    /// TMU write-data register (store data, atomic operand).
    pub const TMUD: Waddr = Waddr::magic_const(11);
    /// TMU address register: writing it issues the request.
    pub const TMUA: Waddr = Waddr::magic_const(12);
    /// TMU address with the config taken from the next uniform.
    pub const TMUAU: Waddr = Waddr::magic_const(13);
    /// Second uniform-stream pointer (read back with `ldunifa`).
    pub const UNIFA: Waddr = Waddr::magic_const(9);
    /// Tile buffer write.
    pub const TLB: Waddr = Waddr::magic_const(7);
    /// `tmuc`: the TMU lookup config of the next request.
    pub const TMUC: Waddr = Waddr::magic_const(32);
    /// 4.2 `r5rep` (write r5 with lane 0 in every lane) / 7.1 `rep` (the same into rf0).
    pub const REP: Waddr = Waddr::magic_const(55);

    const fn magic_const(index: u8) -> Waddr {
        Waddr { magic: true, index }
    }

    /// A write address, if `index` fits in 6 bits.
    pub fn new(magic: bool, index: u8) -> Option<Waddr> {
        (index < 64).then_some(Waddr { magic, index })
    }

    /// Register-file register `rf<index>`.
    pub fn rf(index: u8) -> Option<Waddr> {
        Waddr::new(false, index)
    }

    /// The magic address `index`.
    pub fn magic(index: u8) -> Option<Waddr> {
        Waddr::new(true, index)
    }

    /// Whether this is a magic (peripheral/accumulator) address.
    pub fn is_magic(self) -> bool {
        self.magic
    }

    /// A TMU register: tmud, tmua, tmuau, and tmuc to tmuhslod (magic 11–13 and 32–46;
    /// Mesa `v3d_qpu_magic_waddr_is_tmu`, V3D 4.x and later).
    pub fn is_tmu(self) -> bool {
        self.magic && matches!(self.index, 11..=13 | 32..=46)
    }

    /// A tile buffer, VPM or thread-synchronisation register: tlb, tlbu (7, 8), vpm, vpmu
    /// (14, 15), sync, syncu, syncb (16–18) (Mesa `v3d_qpu_magic_waddr_is_tlb`, `_is_vpm`,
    /// `_is_tsy`).
    pub fn is_tlb_vpm_or_tsy(self) -> bool {
        self.magic && matches!(self.index, 7..=8 | 14..=18)
    }

    /// An SFU register: 4.2's recip to rsqrt2 (magic 19–24; Mesa
    /// `v3d_qpu_magic_waddr_is_sfu`). 7.1 has none: its SFU functions are add ops with a
    /// plain destination.
    pub fn is_sfu(self, version: super::V3dVersion) -> bool {
        version == super::V3dVersion::V42 && self.magic && matches!(self.index, 19..=24)
    }

    /// The register a write to this address changes, if it names one: a register-file
    /// register, or on 4.2 an accumulator (magic 0–4 are r0–r4; `r5` (5, the quad
    /// broadcast) and `r5rep` (55, the all-lanes broadcast) write r5). On 7.1, which has no
    /// accumulators, `quad` (5) and `rep` (55) write rf0. (Mesa `qpu_instr.h`'s waddr
    /// list; py-videocore7 reads the broadcast back from rf0.) The compiler's allocator and
    /// packer and the emulator's placement rules all read this map.
    pub fn register(self, version: V3dVersion) -> Option<Register> {
        if !self.magic {
            return Some(Register::Rf(self.index));
        }
        let v42 = version == V3dVersion::V42;
        match self.index {
            0..=4 if v42 => Some(Register::Acc(self.index)),
            5 | 55 if v42 => Some(Register::Acc(5)),
            5 | 55 => Some(Register::Rf(0)),
            _ => None,
        }
    }

    /// The 6-bit address.
    pub fn index(self) -> u8 {
        self.index
    }

    /// The 7-bit form used in the cond field for signal destinations (bit 6 = magic).
    pub(crate) fn to_sig_bits(self) -> u8 {
        (u8::from(self.magic) << 6) | self.index
    }

    pub(crate) fn from_sig_bits(bits: u8) -> Waddr {
        Waddr {
            magic: bits & 0x40 != 0,
            index: bits & 0x3f,
        }
    }

    /// The assembler name: `rfN`, a magic register name for `version`, or `magicN` for a
    /// magic address the sources leave unnamed (reserved).
    pub fn name(self, version: V3dVersion) -> String {
        if !self.magic {
            return format!("rf{}", self.index);
        }
        match magic_name(version, self.index) {
            Some(n) => n.to_string(),
            None => format!("magic{}", self.index),
        }
    }

    /// Parses a name produced by [`Waddr::name`].
    pub fn parse(version: V3dVersion, text: &str) -> Option<Waddr> {
        if let Some(n) = text.strip_prefix("rf") {
            return parse_index(n).and_then(Waddr::rf);
        }
        if let Some(n) = text.strip_prefix("magic") {
            return parse_index(n).and_then(Waddr::magic);
        }
        (0..64u8)
            .find(|&i| magic_name(version, i) == Some(text))
            .map(|i| Waddr {
                magic: true,
                index: i,
            })
    }
}

/// Parses a plain decimal register index (no sign, no leading `+`).
pub(crate) fn parse_index(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Names of the magic write addresses (Mesa `enum v3d_qpu_waddr`, py-videocore6
/// `REGISTERS`). 0–4 are the accumulators r0–r4 on 4.2 and reserved on 7.1; 5 is r5 on 4.2 and
/// `quad` on 7.1; the SFU addresses 19–24 exist only on 4.2; 55 is `r5rep` on 4.2 and `rep`
/// on 7.1. Mesa's disassembler prints 44 as "tmuscm" (the same as 40), which looks like a typo;
/// py-videocore6 calls it `tmuhscm`, which we follow.
fn magic_name(version: V3dVersion, index: u8) -> Option<&'static str> {
    const ACC: [&str; 6] = ["r0", "r1", "r2", "r3", "r4", "r5"];
    const COMMON: [&str; 13] = [
        "nop", "tlb", "tlbu", "unifa", "tmul", "tmud", "tmua", "tmuau", "vpm", "vpmu", "sync",
        "syncu", "syncb",
    ];
    const SFU: [&str; 6] = ["recip", "rsqrt", "exp", "log", "sin", "rsqrt2"];
    const TMU: [&str; 15] = [
        "tmuc", "tmus", "tmut", "tmur", "tmui", "tmub", "tmudref", "tmuoff", "tmuscm", "tmusf",
        "tmuslod", "tmuhs", "tmuhscm", "tmuhsf", "tmuhslod",
    ];
    let v42 = version == V3dVersion::V42;
    match index {
        0..=5 if v42 => Some(ACC[index as usize]),
        5 => Some("quad"),
        6..=18 => Some(COMMON[index as usize - 6]),
        19..=24 if v42 => Some(SFU[index as usize - 19]),
        32..=46 => Some(TMU[index as usize - 32]),
        55 if v42 => Some("r5rep"),
        55 => Some("rep"),
        _ => None,
    }
}

/// One signal. An instruction carries a set of them, encoded as an index into a per-version
/// table of 32 allowed combinations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Signal {
    /// Thread switch (after two delay slots; also ends the program).
    Thrsw,
    /// Next uniform into r5 (4.2) or rf0 (7.1).
    Ldunif,
    /// Next uniform into any register (address in the cond field).
    Ldunifrf,
    /// Next word of the `unifa` stream into r5/rf0.
    Ldunifa,
    /// Next word of the `unifa` stream into any register.
    Ldunifarf,
    /// Pop the TMU result FIFO into a register (address in the cond field).
    Ldtmu,
    /// Load a varying (graphics).
    Ldvary,
    /// Tile buffer read (graphics).
    Ldtlb,
    /// Tile buffer read with config uniform (graphics).
    Ldtlbu,
    /// TMU config from the uniform stream.
    Wrtmuc,
    /// Uniform-cache bypass... named `ucb` in both Mesa and py-videocore6.
    Ucb,
    /// 4.2 only: rotate the mul ALU's inputs.
    Rot,
    /// 7.1: `raddr_a` is a small immediate.
    SmallImmA,
    /// `raddr_b` is a small immediate.
    SmallImmB,
    /// 7.1: `raddr_c` is a small immediate.
    SmallImmC,
    /// 7.1: `raddr_d` is a small immediate.
    SmallImmD,
}

impl Signal {
    /// Every signal, in declaration order.
    pub const ALL: [Signal; 16] = [
        Signal::Thrsw,
        Signal::Ldunif,
        Signal::Ldunifrf,
        Signal::Ldunifa,
        Signal::Ldunifarf,
        Signal::Ldtmu,
        Signal::Ldvary,
        Signal::Ldtlb,
        Signal::Ldtlbu,
        Signal::Wrtmuc,
        Signal::Ucb,
        Signal::Rot,
        Signal::SmallImmA,
        Signal::SmallImmB,
        Signal::SmallImmC,
        Signal::SmallImmD,
    ];

    /// The assembler name (small immediates have none: they are implied by a literal operand).
    pub fn name(self) -> &'static str {
        match self {
            Signal::Thrsw => "thrsw",
            Signal::Ldunif => "ldunif",
            Signal::Ldunifrf => "ldunifrf",
            Signal::Ldunifa => "ldunifa",
            Signal::Ldunifarf => "ldunifarf",
            Signal::Ldtmu => "ldtmu",
            Signal::Ldvary => "ldvary",
            Signal::Ldtlb => "ldtlb",
            Signal::Ldtlbu => "ldtlbu",
            Signal::Wrtmuc => "wrtmuc",
            Signal::Ucb => "ucb",
            Signal::Rot => "rot",
            Signal::SmallImmA => "smimm_a",
            Signal::SmallImmB => "smimm_b",
            Signal::SmallImmC => "smimm_c",
            Signal::SmallImmD => "smimm_d",
        }
    }

    /// Whether the signal writes a register named in the cond field (so the instruction can
    /// carry no flags). Mesa `v3d_qpu_sig_writes_address` (for versions ≥ 4.1) and
    /// py-videocore6's `WriteSignal`s agree on this list.
    pub fn writes_address(self) -> bool {
        matches!(
            self,
            Signal::Ldunifrf
                | Signal::Ldunifarf
                | Signal::Ldtmu
                | Signal::Ldvary
                | Signal::Ldtlb
                | Signal::Ldtlbu
        )
    }
}

/// A set of signals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Signals(u16);

impl Signals {
    /// No signal.
    pub const NONE: Signals = Signals(0);

    /// The set holding exactly `sigs`.
    pub const fn of(sigs: &[Signal]) -> Signals {
        let mut bits = 0u16;
        let mut i = 0;
        while i < sigs.len() {
            bits |= 1 << sigs[i] as u8;
            i += 1;
        }
        Signals(bits)
    }

    /// Whether `sig` is in the set.
    pub fn contains(self, sig: Signal) -> bool {
        self.0 & (1 << sig as u8) != 0
    }

    /// The set with `sig` added.
    pub fn with(self, sig: Signal) -> Signals {
        Signals(self.0 | (1 << sig as u8))
    }

    /// The set with `sig` removed.
    pub fn without(self, sig: Signal) -> Signals {
        Signals(self.0 & !(1 << sig as u8))
    }

    /// The members, in [`Signal::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Signal> {
        Signal::ALL.into_iter().filter(move |&s| self.contains(s))
    }

    /// Whether some member writes the register named in the cond field.
    pub fn writes_address(self) -> bool {
        self.iter().any(Signal::writes_address)
    }

    /// The set encoded by the 5-bit `sig` field, or `None` for a reserved code.
    pub fn decode(version: V3dVersion, code: u8) -> Option<Signals> {
        table(version).get(usize::from(code)).copied().flatten()
    }

    /// The 5-bit code of this set, if the version's table has it.
    pub fn encode(self, version: V3dVersion) -> Option<u8> {
        table(version)
            .iter()
            .position(|&s| s == Some(self))
            .map(|i| i as u8)
    }
}

/// The signal tables (Mesa `v3d42_sig_map` / `v3d71_sig_map`; py-videocore6 `Signals.pack`
/// gives the same 4.2 table). Entries 14, 23, 26, 27, 30 and 31 differ between versions;
/// 26–30 (4.2) and 23, 28, 29 (7.1) are reserved.
///
/// Disagreement on 7.1: py-videocore7's `Signals.pack` still maps 23 to `rot` and has no
/// entry for 26/27 (ldtmu + wrtmuc), while Mesa's 7.1 table reserves 23 and defines 26/27.
/// py-videocore7 exposes no `rot` signal to its users (rotation is the `rotate` /
/// `quad_rotate` add ops on 7.1, in both sources), so its 23 looks like a leftover from the
/// 4.2 table; we follow Mesa.
fn table(version: V3dVersion) -> &'static [Option<Signals>; 32] {
    use Signal::*;
    const fn s(sigs: &[Signal]) -> Option<Signals> {
        Some(Signals::of(sigs))
    }
    const COMMON_0_13: [Option<Signals>; 14] = [
        s(&[]),
        s(&[Thrsw]),
        s(&[Ldunif]),
        s(&[Thrsw, Ldunif]),
        s(&[Ldtmu]),
        s(&[Thrsw, Ldtmu]),
        s(&[Ldtmu, Ldunif]),
        s(&[Thrsw, Ldtmu, Ldunif]),
        s(&[Ldvary]),
        s(&[Thrsw, Ldvary]),
        s(&[Ldvary, Ldunif]),
        s(&[Thrsw, Ldvary, Ldunif]),
        s(&[Ldunifrf]),
        s(&[Thrsw, Ldunifrf]),
    ];
    const fn build(tail: [Option<Signals>; 18]) -> [Option<Signals>; 32] {
        let mut out = [None; 32];
        let mut i = 0;
        while i < 14 {
            out[i] = COMMON_0_13[i];
            i += 1;
        }
        while i < 32 {
            out[i] = tail[i - 14];
            i += 1;
        }
        out
    }
    static V42: [Option<Signals>; 32] = build([
        s(&[SmallImmB, Ldvary]),
        s(&[SmallImmB]),
        s(&[Ldtlb]),
        s(&[Ldtlbu]),
        s(&[Wrtmuc]),
        s(&[Thrsw, Wrtmuc]),
        s(&[Ldvary, Wrtmuc]),
        s(&[Thrsw, Ldvary, Wrtmuc]),
        s(&[Ucb]),
        s(&[Rot]),
        s(&[Ldunifa]),
        s(&[Ldunifarf]),
        None,
        None,
        None,
        None,
        None,
        s(&[SmallImmB, Ldtmu]),
    ]);
    static V71: [Option<Signals>; 32] = build([
        s(&[SmallImmA]),
        s(&[SmallImmB]),
        s(&[Ldtlb]),
        s(&[Ldtlbu]),
        s(&[Wrtmuc]),
        s(&[Thrsw, Wrtmuc]),
        s(&[Ldvary, Wrtmuc]),
        s(&[Thrsw, Ldvary, Wrtmuc]),
        s(&[Ucb]),
        None,
        s(&[Ldunifa]),
        s(&[Ldunifarf]),
        s(&[Ldtmu, Wrtmuc]),
        s(&[Thrsw, Ldtmu, Wrtmuc]),
        None,
        None,
        s(&[SmallImmC]),
        s(&[SmallImmD]),
    ]);
    match version {
        V3dVersion::V42 => &V42,
        V3dVersion::V71 => &V71,
    }
}

/// A per-lane write condition on flag A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Write where A is set.
    IfA,
    /// Write where B is set.
    IfB,
    /// Write where A is clear.
    IfNa,
    /// Write where B is clear.
    IfNb,
}

impl Cond {
    /// All conditions, in code order (0–3).
    pub const ALL: [Cond; 4] = [Cond::IfA, Cond::IfB, Cond::IfNa, Cond::IfNb];

    /// The 2-bit code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The assembler suffix.
    pub fn name(self) -> &'static str {
        ["ifa", "ifb", "ifna", "ifnb"][self as usize]
    }
}

/// Push a new flag A from the result (old A moves to B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PushFlag {
    /// Result is zero.
    Z,
    /// Result is negative.
    N,
    /// Carry (borrow of a subtraction).
    C,
}

impl PushFlag {
    /// All pushes, in code order (1–3).
    pub const ALL: [PushFlag; 3] = [PushFlag::Z, PushFlag::N, PushFlag::C];

    /// The 2-bit code (1–3; 0 means "no push").
    pub fn code(self) -> u8 {
        self as u8 + 1
    }

    /// The assembler suffix.
    pub fn name(self) -> &'static str {
        ["pushz", "pushn", "pushc"][self as usize]
    }
}

/// Update flag A by combining it with a condition on the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UpdateFlag {
    /// `andz`
    AndZ,
    /// `andnz`
    AndNz,
    /// `nornz`
    NorNz,
    /// `norz`
    NorZ,
    /// `andn`
    AndN,
    /// `andnn`
    AndNn,
    /// `nornn`
    NorNn,
    /// `norn`
    NorN,
    /// `andc`
    AndC,
    /// `andnc`
    AndNc,
    /// `nornc`
    NorNc,
    /// `norc`
    NorC,
}

impl UpdateFlag {
    /// All updates, in code order (4–15).
    pub const ALL: [UpdateFlag; 12] = [
        UpdateFlag::AndZ,
        UpdateFlag::AndNz,
        UpdateFlag::NorNz,
        UpdateFlag::NorZ,
        UpdateFlag::AndN,
        UpdateFlag::AndNn,
        UpdateFlag::NorNn,
        UpdateFlag::NorN,
        UpdateFlag::AndC,
        UpdateFlag::AndNc,
        UpdateFlag::NorNc,
        UpdateFlag::NorC,
    ];

    /// The 4-bit code (4–15).
    pub fn code(self) -> u8 {
        self as u8 + 4
    }

    /// The assembler suffix.
    pub fn name(self) -> &'static str {
        [
            "andz", "andnz", "nornz", "norz", "andn", "andnn", "nornn", "norn", "andc", "andnc",
            "nornc", "norc",
        ][self as usize]
    }
}

/// Flag pushes, updates and write conditions of both ALUs: the meaning of the 7-bit cond
/// field when no signal writes a register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    /// Add ALU write condition.
    pub ac: Option<Cond>,
    /// Mul ALU write condition.
    pub mc: Option<Cond>,
    /// Add ALU flag push.
    pub apf: Option<PushFlag>,
    /// Mul ALU flag push.
    pub mpf: Option<PushFlag>,
    /// Add ALU flag update.
    pub auf: Option<UpdateFlag>,
    /// Mul ALU flag update.
    pub muf: Option<UpdateFlag>,
}

fn push_of(code: u8) -> Option<PushFlag> {
    (code & 3).checked_sub(1).map(|i| PushFlag::ALL[i as usize])
}

impl Flags {
    /// Decodes the cond field (Mesa `v3d_qpu_flags_unpack`; py-videocore6
    /// `ALUConditions.pack` builds the same layout):
    ///
    /// | value | meaning |
    /// |---|---|
    /// | 0 | nothing |
    /// | 1–3 | add push |
    /// | 4–15 | add update |
    /// | 16 | invalid |
    /// | 17–19 | mul push |
    /// | 20–31 | mul update |
    /// | `10 cc pp` (32–47) | add condition `cc`, mul push `pp` (0 = none) |
    /// | `11 cc pp` (48–63) | mul condition `cc`, add push `pp` |
    /// | `1 mm xxxx` (64–127) | mul condition `mm`; `xxxx` < 4: add condition, else add update |
    pub fn decode(bits: u8) -> Result<Flags, DecodeError> {
        let mut f = Flags::default();
        let low = bits & 0xf;
        match bits {
            0 => {}
            1..=3 => f.apf = push_of(bits),
            4..=15 => f.auf = Some(UpdateFlag::ALL[bits as usize - 4]),
            16 => {
                return Err(DecodeError::Reserved {
                    field: "cond",
                    value: 16,
                })
            }
            17..=19 => f.mpf = push_of(bits),
            20..=31 => f.muf = Some(UpdateFlag::ALL[low as usize - 4]),
            32..=47 => {
                f.ac = Some(Cond::ALL[usize::from((bits >> 2) & 3)]);
                f.mpf = push_of(bits);
            }
            48..=63 => {
                f.mc = Some(Cond::ALL[usize::from((bits >> 2) & 3)]);
                f.apf = push_of(bits);
            }
            _ => {
                f.mc = Some(Cond::ALL[usize::from((bits >> 4) & 3)]);
                if low < 4 {
                    f.ac = Some(Cond::ALL[usize::from(low)]);
                } else {
                    f.auf = Some(UpdateFlag::ALL[usize::from(low - 4)]);
                }
            }
        }
        Ok(f)
    }

    /// Encodes the cond field; combinations the field cannot express are an error (the
    /// expressible ones: none, apf, auf, mpf, muf, ac, ac+mpf, mc, mc+apf, mc+ac, mc+auf).
    pub fn encode(&self) -> Result<u8, EncodeError> {
        let pf = |p: Option<PushFlag>| p.map_or(0, PushFlag::code);
        let c = |c: Cond| c.code();
        let f = *self;
        let bits = match (f.ac, f.mc, f.apf, f.mpf, f.auf, f.muf) {
            (None, None, _, None, None, None) => pf(f.apf),
            (None, None, None, None, Some(u), None) => u.code(),
            (None, None, None, Some(p), None, None) => 16 | p.code(),
            (None, None, None, None, None, Some(u)) => 16 | u.code(),
            (Some(a), None, None, _, None, None) => 32 | (c(a) << 2) | pf(f.mpf),
            (None, Some(m), _, None, None, None) => 48 | (c(m) << 2) | pf(f.apf),
            (Some(a), Some(m), None, None, None, None) => 64 | (c(m) << 4) | c(a),
            (None, Some(m), None, None, Some(u), None) => 64 | (c(m) << 4) | u.code(),
            _ => return Err(EncodeError::FlagCombination),
        };
        Ok(bits)
    }

    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == Flags::default()
    }
}

/// One ALU input on 4.2: an accumulator or one of the two register-file read ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mux {
    /// Accumulator r0–r5 (the payload is 0–5).
    Acc(u8),
    /// Register-file port A (`raddr_a`).
    A,
    /// Register-file port B (`raddr_b`), or the small immediate when the signal says so.
    B,
}

impl Mux {
    /// The 3-bit code.
    pub fn code(self) -> u8 {
        match self {
            Mux::Acc(n) => n & 7,
            Mux::A => 6,
            Mux::B => 7,
        }
    }

    /// The mux for a 3-bit code.
    pub fn from_code(code: u8) -> Mux {
        match code & 7 {
            6 => Mux::A,
            7 => Mux::B,
            n => Mux::Acc(n),
        }
    }
}

/// The 48 small-immediate values (Mesa `small_immediates[]`, py-videocore6 `smimms_int`):
/// index 0–15 → 0..15, 16–31 → −16..−1, 32–47 → the floats 2^−8 … 2^7.
pub fn small_imm_value(index: u8) -> Option<u32> {
    match index {
        0..=15 => Some(u32::from(index)),
        16..=31 => Some((i32::from(index) - 32) as u32),
        32..=47 => Some((u32::from(index) - 32 + 119) << 23),
        _ => None,
    }
}

/// The small-immediate index holding `bits`, if any.
pub fn small_imm_index(bits: u32) -> Option<u8> {
    (0..48u8).find(|&i| small_imm_value(i) == Some(bits))
}

/// Branch condition (3-bit field; code 1 is invalid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchCond {
    /// Always taken.
    Always,
    /// Flag A of lane 0 set.
    A0,
    /// Flag A of lane 0 clear.
    Na0,
    /// A set in all lanes.
    AllA,
    /// A clear in some lane.
    AnyNa,
    /// A set in some lane.
    AnyA,
    /// A clear in all lanes.
    AllNa,
}

impl BranchCond {
    /// Every condition.
    pub const ALL: [BranchCond; 7] = [
        BranchCond::Always,
        BranchCond::A0,
        BranchCond::Na0,
        BranchCond::AllA,
        BranchCond::AnyNa,
        BranchCond::AnyA,
        BranchCond::AllNa,
    ];

    /// The 3-bit code: 0 always, 2 a0, 3 na0, 4 alla, 5 anyna, 6 anya, 7 allna (Mesa
    /// `v3d_qpu_instr_unpack_branch`, py-videocore6 `cond_br_to_num`).
    pub fn code(self) -> u8 {
        match self {
            BranchCond::Always => 0,
            c => c as u8 + 1,
        }
    }

    /// The condition for a code.
    pub fn from_code(code: u8) -> Result<BranchCond, DecodeError> {
        match code {
            0 => Ok(BranchCond::Always),
            2..=7 => Ok(BranchCond::ALL[usize::from(code - 1)]),
            _ => Err(DecodeError::Reserved {
                field: "branch cond",
                value: u32::from(code),
            }),
        }
    }

    /// The assembler suffix (`always` prints as no suffix).
    pub fn name(self) -> &'static str {
        ["always", "a0", "na0", "alla", "anyna", "anya", "allna"][self as usize]
    }
}

/// How a branch computes its new address (`bdi`) or uniform pointer (`bdu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchDest {
    /// Absolute address from the offset field.
    Abs,
    /// Relative to the instruction four after the branch.
    Rel,
    /// The link register.
    LinkReg,
    /// A register-file value (`raddr_a`).
    Regfile,
}

impl BranchDest {
    /// All, in code order.
    pub const ALL: [BranchDest; 4] = [
        BranchDest::Abs,
        BranchDest::Rel,
        BranchDest::LinkReg,
        BranchDest::Regfile,
    ];
}
