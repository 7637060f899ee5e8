//! The typed fields of a QPU instruction word.
//!
//! Every numeric value below is the hardware encoding from the VideoCore IV 3D Architecture
//! Reference Guide (2013), section 3 "QPU Instruction Encoding"; the table each comes from is
//! named beside it. Nothing else in the project writes these numbers again.

use crate::vc4::DecodeError;

/// Declares a fieldless enum whose discriminants are the hardware encoding, with the
/// assembler mnemonic of each value and a checked conversion from the raw bits.
macro_rules! encoded_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : $field:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $code:literal => $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant = $code ),+
        }

        impl $name {
            /// Every value, in encoding order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The hardware encoding of this value.
            pub const fn code(self) -> u8 {
                self as u8
            }

            /// The assembler's name for this value.
            pub const fn mnemonic(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// Decodes the field, rejecting encodings the guide lists as reserved.
            pub fn from_code(code: u8) -> Result<$name, DecodeError> {
                match code {
                    $($code => Ok($name::$variant),)+
                    _ => Err(DecodeError::Reserved { field: $field, value: u32::from(code) }),
                }
            }

            /// Looks a value up by its assembler name.
            pub fn from_mnemonic(text: &str) -> Option<$name> {
                match text {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

encoded_enum! {
    /// The signalling field `sig` [63:60] for ALU instructions (guide table 2, "Signaling
    /// Bits"). Codes 13 (small immediate), 14 (load immediate) and 15 (branch) select other
    /// instruction forms and are modelled by [`crate::vc4::Instruction`]'s variants instead.
    pub enum Signal: "signal" {
        /// Software breakpoint.
        Breakpoint = 0 => "bkpt",
        /// No signal.
        None = 1 => "nosig",
        /// Thread switch (two delay slots follow).
        ThreadSwitch = 2 => "thrsw",
        /// Program end: thread end; two delay-slot instructions still execute.
        ProgramEnd = 3 => "thrend",
        /// Wait for the tile buffer scoreboard.
        WaitScoreboard = 4 => "sbwait",
        /// Release the tile buffer scoreboard.
        ScoreboardUnlock = 5 => "sbdone",
        /// Last thread switch.
        LastThreadSwitch = 6 => "lthrsw",
        /// Coverage mask load from the tile buffer into r4.
        LoadCoverage = 7 => "loadcv",
        /// Colour load from the tile buffer into r4.
        LoadColour = 8 => "loadc",
        /// Colour load into r4 and program end.
        LoadColourProgramEnd = 9 => "ldcend",
        /// Pop one TMU0 result into r4.
        LoadTmu0 = 10 => "ldtmu0",
        /// Pop one TMU1 result into r4.
        LoadTmu1 = 11 => "ldtmu1",
        /// Alpha-mask load from the tile buffer into r4.
        LoadAlphaMask = 12 => "loadam",
    }
}

/// The value of `sig` [63:60] that selects the ALU-with-small-immediate form (guide table 2).
pub const SIG_SMALL_IMMEDIATE: u8 = 13;
/// The value of `sig` [63:60] that selects load immediate and semaphore forms (guide table 2).
pub const SIG_LOAD_IMMEDIATE: u8 = 14;
/// The value of `sig` [63:60] that selects the branch form (guide table 2).
pub const SIG_BRANCH: u8 = 15;

encoded_enum! {
    /// Per-lane write condition, `cond_add` [51:49] and `cond_mul` [48:46] (guide table 3,
    /// "Condition Codes"). A condition gates only the write-back of its ALU's result.
    pub enum Cond: "condition" {
        /// Never write.
        Never = 0 => "never",
        /// Always write.
        Always = 1 => "always",
        /// Write where the Z flag is set.
        ZeroSet = 2 => "ifz",
        /// Write where the Z flag is clear.
        ZeroClear = 3 => "ifnz",
        /// Write where the N flag is set.
        NegativeSet = 4 => "ifn",
        /// Write where the N flag is clear.
        NegativeClear = 5 => "ifnn",
        /// Write where the C flag is set.
        CarrySet = 6 => "ifc",
        /// Write where the C flag is clear. (vc4asm spells this `.ifcc`; our `.ifnc`.)
        CarryClear = 7 => "ifnc",
    }
}

impl Cond {
    /// The condition an assembler gives an ALU output whose condition is not written:
    /// `never` for an output written nowhere (`-`), unless that ALU sets the flags, since
    /// flags change only in lanes whose condition passes [measured by vc4asm]; else `always`.
    pub const fn default_for(writes_nowhere: bool, sets_flags: bool) -> Cond {
        if writes_nowhere && !sets_flags {
            Cond::Never
        } else {
            Cond::Always
        }
    }
}

encoded_enum! {
    /// Add-ALU opcode `op_add` [28:24] (guide table 5, "Add ALU Opcodes"); 9–11 and 25–29 are
    /// reserved.
    pub enum AddOp: "op_add" {
        /// No operation.
        Nop = 0 => "nop",
        /// Float add.
        Fadd = 1 => "fadd",
        /// Float subtract.
        Fsub = 2 => "fsub",
        /// Float minimum.
        Fmin = 3 => "fmin",
        /// Float maximum.
        Fmax = 4 => "fmax",
        /// Float minimum of absolute values.
        Fminabs = 5 => "fminabs",
        /// Float maximum of absolute values.
        Fmaxabs = 6 => "fmaxabs",
        /// Float to signed integer.
        Ftoi = 7 => "ftoi",
        /// Signed integer to float.
        Itof = 8 => "itof",
        /// Integer add.
        Add = 12 => "add",
        /// Integer subtract.
        Sub = 13 => "sub",
        /// Logical shift right.
        Shr = 14 => "shr",
        /// Arithmetic shift right.
        Asr = 15 => "asr",
        /// Rotate right.
        Ror = 16 => "ror",
        /// Shift left.
        Shl = 17 => "shl",
        /// Signed integer minimum.
        Min = 18 => "min",
        /// Signed integer maximum.
        Max = 19 => "max",
        /// Bitwise and.
        And = 20 => "and",
        /// Bitwise or.
        Or = 21 => "or",
        /// Bitwise exclusive or.
        Xor = 22 => "xor",
        /// Bitwise not (of operand a).
        Not = 23 => "not",
        /// Count leading zeros (of operand a).
        Clz = 24 => "clz",
        /// Per-byte add with unsigned saturation.
        V8adds = 30 => "v8adds",
        /// Per-byte subtract with unsigned saturation.
        V8subs = 31 => "v8subs",
    }
}

impl AddOp {
    /// Whether the operation reads only its first operand (the second mux is a don't-care
    /// that assemblers set equal to the first).
    pub const fn is_unary(self) -> bool {
        matches!(self, AddOp::Ftoi | AddOp::Itof | AddOp::Not | AddOp::Clz)
    }

    /// Whether the operation interprets its operands as floats (this selects the float
    /// variant of a 16-bit or 8-bit unpack; guide section 3, "Pack and unpack").
    pub const fn reads_floats(self) -> bool {
        matches!(
            self,
            AddOp::Fadd
                | AddOp::Fsub
                | AddOp::Fmin
                | AddOp::Fmax
                | AddOp::Fminabs
                | AddOp::Fmaxabs
                | AddOp::Ftoi
        )
    }

    /// Whether the operation produces a float (this selects float→half for a 16-bit pack).
    pub const fn writes_float(self) -> bool {
        matches!(
            self,
            AddOp::Fadd
                | AddOp::Fsub
                | AddOp::Fmin
                | AddOp::Fmax
                | AddOp::Fminabs
                | AddOp::Fmaxabs
                | AddOp::Itof
        )
    }
}

encoded_enum! {
    /// Mul-ALU opcode `op_mul` [31:29] (guide table 6, "Mul ALU Opcodes").
    pub enum MulOp: "op_mul" {
        /// No operation.
        Nop = 0 => "nop",
        /// Float multiply.
        Fmul = 1 => "fmul",
        /// Unsigned 24-bit integer multiply.
        Mul24 = 2 => "mul24",
        /// Per-byte multiply, colour style: (a*b + 127) / 255.
        V8muld = 3 => "v8muld",
        /// Per-byte unsigned minimum.
        V8min = 4 => "v8min",
        /// Per-byte unsigned maximum.
        V8max = 5 => "v8max",
        /// Per-byte add with unsigned saturation.
        V8adds = 6 => "v8adds",
        /// Per-byte subtract with unsigned saturation.
        V8subs = 7 => "v8subs",
    }
}

impl MulOp {
    /// Whether the operation interprets its operands as floats.
    pub const fn reads_floats(self) -> bool {
        matches!(self, MulOp::Fmul)
    }
}

encoded_enum! {
    /// ALU input multiplexer, `add_a` [11:9], `add_b` [8:6], `mul_a` [5:3], `mul_b` [2:0]
    /// (guide table 7, "ALU Input Mux Encoding").
    pub enum InputMux: "input mux" {
        /// Accumulator r0.
        R0 = 0 => "r0",
        /// Accumulator r1.
        R1 = 1 => "r1",
        /// Accumulator r2.
        R2 = 2 => "r2",
        /// Accumulator r3.
        R3 = 3 => "r3",
        /// Accumulator r4 (read-only; written by the TMU, TLB and SFU).
        R4 = 4 => "r4",
        /// Accumulator r5.
        R5 = 5 => "r5",
        /// The value read from register file A at `raddr_a`.
        A = 6 => "ra",
        /// The value read from register file B at `raddr_b`, or the small immediate.
        B = 7 => "rb",
    }
}

impl InputMux {
    /// Decodes a 3-bit mux field; every value is defined.
    pub fn from_bits(bits: u8) -> InputMux {
        InputMux::ALL[usize::from(bits & 7)]
    }

    /// The accumulator number (0–5) this mux selects, if it selects one.
    pub const fn accumulator(self) -> Option<u8> {
        match self {
            InputMux::A | InputMux::B => None,
            other => Some(other as u8),
        }
    }
}

encoded_enum! {
    /// Unpack field [59:57] (guide table 9, "Regfile-a Unpack"; with pm=1 the same codes
    /// program the r4 unpacker, guide section 3 "PM bit").
    pub enum Unpack: "unpack" {
        /// No unpacking: the 32-bit value.
        None = 0 => "",
        /// Low 16 bits: sign-extended integer, or half float to float for float ops.
        Half0 = 1 => "16a",
        /// High 16 bits: sign-extended integer, or half float to float for float ops.
        Half1 = 2 => "16b",
        /// Byte 3 replicated to all four bytes.
        ReplicateByte3 = 3 => "8dr",
        /// Byte 0 as an unsigned integer, or as a 0..1.0 colour for float ops.
        Byte0 = 4 => "8a",
        /// Byte 1, as for byte 0.
        Byte1 = 5 => "8b",
        /// Byte 2, as for byte 0.
        Byte2 = 6 => "8c",
        /// Byte 3, as for byte 0.
        Byte3 = 7 => "8d",
    }
}

impl Unpack {
    /// Decodes the 3-bit unpack field; every value is defined.
    pub fn from_bits(bits: u8) -> Unpack {
        Unpack::ALL[usize::from(bits & 7)]
    }
}

encoded_enum! {
    /// Regfile-A pack field [55:52] with pm=0 (guide table 8, "Regfile-a Pack"). Applies to
    /// results written to a physical register of file A.
    pub enum PackA: "regfile-a pack" {
        /// No packing.
        None = 0 => "",
        /// Low 16 bits (float results convert to half float).
        Half0 = 1 => "16a",
        /// High 16 bits (float results convert to half float).
        Half1 = 2 => "16b",
        /// Low byte replicated to all four bytes.
        Replicate8888 = 3 => "8888",
        /// Low 8 bits into byte 0.
        Byte0 = 4 => "8a",
        /// Low 8 bits into byte 1.
        Byte1 = 5 => "8b",
        /// Low 8 bits into byte 2.
        Byte2 = 6 => "8c",
        /// Low 8 bits into byte 3.
        Byte3 = 7 => "8d",
        /// 32-bit signed saturation.
        Saturate32 = 8 => "32s",
        /// Saturating 16-bit into the low half.
        SaturateHalf0 = 9 => "16as",
        /// Saturating 16-bit into the high half.
        SaturateHalf1 = 10 => "16bs",
        /// Saturating 8-bit replicated to all four bytes.
        SaturateReplicate8888 = 11 => "8888s",
        /// Saturating 8-bit into byte 0.
        SaturateByte0 = 12 => "8as",
        /// Saturating 8-bit into byte 1.
        SaturateByte1 = 13 => "8bs",
        /// Saturating 8-bit into byte 2.
        SaturateByte2 = 14 => "8cs",
        /// Saturating 8-bit into byte 3.
        SaturateByte3 = 15 => "8ds",
    }
}

encoded_enum! {
    /// Mul-ALU colour pack field [55:52] with pm=1 (guide table 10, "MUL ALU Pack"): the mul
    /// result, a float in 0..1.0, converted to an 8-bit colour. Codes 1, 2 and 8–15 are
    /// reserved. The guide's table misprints codes 5–7 as "8a"; they are bytes b, c and d.
    pub enum PackMul: "mul pack" {
        /// No packing.
        None = 0 => "",
        /// Colour byte replicated to all four bytes.
        Replicate8888 = 3 => "8888",
        /// Colour into byte 0.
        Byte0 = 4 => "8a",
        /// Colour into byte 1.
        Byte1 = 5 => "8b",
        /// Colour into byte 2.
        Byte2 = 6 => "8c",
        /// Colour into byte 3.
        Byte3 = 7 => "8d",
    }
}

/// The pack unit setting: the `pm` bit [56] together with the 4-bit pack field [55:52].
///
/// With pm=0 the pack applies to regfile-A writes and the unpack field to regfile-A reads;
/// with pm=1 the pack converts the mul ALU's result to colour and the unpack field applies to
/// r4 reads (guide section 3, "PM bit").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pack {
    /// pm=0: regfile-A pack.
    RegfileA(PackA),
    /// pm=1: mul-ALU colour pack.
    Mul(PackMul),
}

impl Default for Pack {
    fn default() -> Pack {
        Pack::RegfileA(PackA::None)
    }
}

impl Pack {
    /// The `pm` bit.
    pub const fn pm(self) -> bool {
        matches!(self, Pack::Mul(_))
    }

    /// The 4-bit pack field.
    pub const fn code(self) -> u8 {
        match self {
            Pack::RegfileA(p) => p.code(),
            Pack::Mul(p) => p.code(),
        }
    }

    /// Decodes pm and the pack field.
    pub fn from_bits(pm: bool, code: u8) -> Result<Pack, DecodeError> {
        if pm {
            PackMul::from_code(code).map(Pack::Mul)
        } else {
            PackA::from_code(code).map(Pack::RegfileA)
        }
    }
}

/// A 6-bit register address (0–63) in one of the two register-file address spaces.
///
/// Addresses 0–31 are physical registers; 32–63 are accumulators and I/O registers whose
/// meaning depends on the file and on whether it is read or written (guide tables 14 and 15);
/// see [`crate::vc4::regs`] for the names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegAddr(u8);

impl RegAddr {
    /// The address that reads or writes nothing (guide tables 14/15: 39 is NOP).
    pub const NOP: RegAddr = RegAddr(39);

    /// Makes an address, or `None` if it does not fit in 6 bits.
    pub const fn new(addr: u8) -> Option<RegAddr> {
        if addr < 64 {
            Some(RegAddr(addr))
        } else {
            None
        }
    }

    /// Makes an address from the low 6 bits of `bits`.
    pub const fn from_bits(bits: u64) -> RegAddr {
        RegAddr((bits & 63) as u8)
    }

    /// The numeric address.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Whether this is one of the 32 physical registers of a file.
    pub const fn is_physical(self) -> bool {
        self.0 < 32
    }
}

/// Which register file an address refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// Register file A.
    A,
    /// Register file B.
    B,
}

/// Write swap `ws` [44] (guide section 3, "Write Swap"): which file each ALU writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WriteSwap {
    /// ws=0: the add ALU writes file A, the mul ALU writes file B.
    #[default]
    AddToA,
    /// ws=1: the add ALU writes file B, the mul ALU writes file A.
    AddToB,
}

impl WriteSwap {
    /// The `ws` bit.
    pub const fn bit(self) -> bool {
        matches!(self, WriteSwap::AddToB)
    }

    /// Decodes the `ws` bit.
    pub const fn from_bit(bit: bool) -> WriteSwap {
        if bit {
            WriteSwap::AddToB
        } else {
            WriteSwap::AddToA
        }
    }

    /// The file the add ALU's `waddr_add` addresses.
    pub const fn add_file(self) -> RegFile {
        match self {
            WriteSwap::AddToA => RegFile::A,
            WriteSwap::AddToB => RegFile::B,
        }
    }

    /// The file the mul ALU's `waddr_mul` addresses.
    pub const fn mul_file(self) -> RegFile {
        match self {
            WriteSwap::AddToA => RegFile::B,
            WriteSwap::AddToB => RegFile::A,
        }
    }
}

/// A small immediate, the 6-bit `raddr_b` field of the sig=13 form (guide table 16, "Small
/// Immediate Encoding").
///
/// Codes 0–47 are operand values read through input mux B; codes 48–63 instead rotate the mul
/// ALU's result (48: by r5's element 0, 49–63: by 1–15 lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmallImm(u8);

/// What a small-immediate code means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SmallImmValue {
    /// An integer, −16..=15.
    Int(i32),
    /// A float: a power of two from 1/256 to 128.
    Float(f32),
    /// Rotate the mul ALU result by r5 (element 0, low 4 bits).
    RotateByR5,
    /// Rotate the mul ALU result by this many lanes (1–15).
    Rotate(u8),
}

impl SmallImm {
    /// Makes a small immediate from its 6-bit code, or `None` if out of range.
    pub const fn new(code: u8) -> Option<SmallImm> {
        if code < 64 {
            Some(SmallImm(code))
        } else {
            None
        }
    }

    /// The small immediate in the low 6 bits of `bits`.
    pub const fn from_bits(bits: u64) -> SmallImm {
        SmallImm((bits & 63) as u8)
    }

    /// The 6-bit code.
    pub const fn code(self) -> u8 {
        self.0
    }

    /// The code for an integer in −16..=15.
    pub const fn from_int(value: i32) -> Option<SmallImm> {
        match value {
            0..=15 => Some(SmallImm(value as u8)),
            -16..=-1 => Some(SmallImm((value + 32) as u8)),
            _ => None,
        }
    }

    /// The code for a float that is a power of two from 1/256 to 128.
    pub fn from_float(value: f32) -> Option<SmallImm> {
        (32..48u8).map(SmallImm).find(
            |imm| matches!(imm.value(), SmallImmValue::Float(f) if f.to_bits() == value.to_bits()),
        )
    }

    /// The code that rotates the mul result by `lanes` (1–15), or by r5 when `None`.
    pub const fn rotation(lanes: Option<u8>) -> Option<SmallImm> {
        match lanes {
            None => Some(SmallImm(48)),
            Some(n @ 1..=15) => Some(SmallImm(48 + n)),
            Some(_) => None,
        }
    }

    /// What this code means (guide table 16).
    pub fn value(self) -> SmallImmValue {
        match self.0 {
            0..=15 => SmallImmValue::Int(i32::from(self.0)),
            16..=31 => SmallImmValue::Int(i32::from(self.0) - 32),
            // 32..=39: 1.0, 2.0, ... 128.0; 40..=47: 1/256, 1/128, ... 1/2.
            32..=39 => SmallImmValue::Float(f32::from_bits((127 + u32::from(self.0) - 32) << 23)),
            40..=47 => SmallImmValue::Float(f32::from_bits((127 - 48 + u32::from(self.0)) << 23)),
            48 => SmallImmValue::RotateByR5,
            n => SmallImmValue::Rotate(n - 48),
        }
    }

    /// Whether this code requests a vector rotation of the mul result.
    pub const fn is_rotation(self) -> bool {
        self.0 >= 48
    }

    /// The 32-bit value an ALU operand reads through mux B for this code. Rotation codes read
    /// as −16..−1 [measured by vc4asm; the guide does not say].
    pub fn operand_bits(self) -> u32 {
        match self.value() {
            SmallImmValue::Int(i) => i as u32,
            SmallImmValue::Float(f) => f.to_bits(),
            SmallImmValue::RotateByR5 | SmallImmValue::Rotate(_) => (i32::from(self.0) - 64) as u32,
        }
    }
}

encoded_enum! {
    /// Branch condition `cond_br` [55:52] (guide table 12, "Branch Conditions"): all/any over
    /// the 16 lanes' flags. Codes 12–14 are reserved.
    pub enum BranchCond: "branch condition" {
        /// Z set in all lanes.
        AllZeroSet = 0 => "allz",
        /// Z clear in all lanes.
        AllZeroClear = 1 => "allnz",
        /// Z set in any lane.
        AnyZeroSet = 2 => "anyz",
        /// Z clear in any lane.
        AnyZeroClear = 3 => "anynz",
        /// N set in all lanes.
        AllNegativeSet = 4 => "alln",
        /// N clear in all lanes.
        AllNegativeClear = 5 => "allnn",
        /// N set in any lane.
        AnyNegativeSet = 6 => "anyn",
        /// N clear in any lane.
        AnyNegativeClear = 7 => "anynn",
        /// C set in all lanes.
        AllCarrySet = 8 => "allc",
        /// C clear in all lanes.
        AllCarryClear = 9 => "allnc",
        /// C set in any lane.
        AnyCarrySet = 10 => "anyc",
        /// C clear in any lane.
        AnyCarryClear = 11 => "anync",
        /// Always taken.
        Always = 15 => "always",
    }
}

encoded_enum! {
    /// Load-immediate mode, bits [59:57] of the sig=14 form (guide section 3, "Load Immediate
    /// Instructions"). Mode 4 is the semaphore form, modelled separately; 2, 5, 6 and 7 are
    /// reserved.
    pub enum LoadImmMode: "load-immediate mode" {
        /// One 32-bit value written to all 16 lanes.
        Uniform32 = 0 => "ldi",
        /// Per-element signed 2-bit values (−2..1): lane i's MS bit from bit 16+i, LS bit
        /// from bit i.
        PerElementSigned = 1 => "ldi.es",
        /// Per-element unsigned 2-bit values (0..3), laid out as for the signed form.
        PerElementUnsigned = 3 => "ldi.eu",
    }
}

/// The load-immediate mode code that selects the semaphore instruction (guide section 3).
pub const LOAD_IMM_MODE_SEMAPHORE: u8 = 4;

impl LoadImmMode {
    /// The 32-bit value each lane receives for the immediate `imm` in this mode.
    pub fn lane_value(self, imm: u32, lane: usize) -> u32 {
        let lo = (imm >> lane) & 1;
        let hi = (imm >> (16 + lane)) & 1;
        match self {
            LoadImmMode::Uniform32 => imm,
            LoadImmMode::PerElementUnsigned => (hi << 1) | lo,
            // Two-bit two's complement: a set high bit is the sign, so extend it.
            LoadImmMode::PerElementSigned if hi == 1 => !1 | lo,
            LoadImmMode::PerElementSigned => lo,
        }
    }
}

/// One of the 16 system-wide counting semaphores (guide section 3, "Semaphore Instruction").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SemaphoreId(u8);

impl SemaphoreId {
    /// Makes a semaphore number, or `None` if it is not 0–15.
    pub const fn new(id: u8) -> Option<SemaphoreId> {
        if id < 16 {
            Some(SemaphoreId(id))
        } else {
            None
        }
    }

    /// The semaphore number in the low 4 bits of `bits`.
    pub const fn from_bits(bits: u32) -> SemaphoreId {
        SemaphoreId((bits & 15) as u8)
    }

    /// The semaphore number.
    pub const fn index(self) -> u8 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_immediate_table_matches_the_guide() {
        // Guide table 16, value by value.
        assert_eq!(SmallImm(0).value(), SmallImmValue::Int(0));
        assert_eq!(SmallImm(15).value(), SmallImmValue::Int(15));
        assert_eq!(SmallImm(16).value(), SmallImmValue::Int(-16));
        assert_eq!(SmallImm(31).value(), SmallImmValue::Int(-1));
        assert_eq!(SmallImm(32).value(), SmallImmValue::Float(1.0));
        assert_eq!(SmallImm(39).value(), SmallImmValue::Float(128.0));
        assert_eq!(SmallImm(40).value(), SmallImmValue::Float(1.0 / 256.0));
        assert_eq!(SmallImm(47).value(), SmallImmValue::Float(0.5));
        assert_eq!(SmallImm(48).value(), SmallImmValue::RotateByR5);
        assert_eq!(SmallImm(49).value(), SmallImmValue::Rotate(1));
        assert_eq!(SmallImm(63).value(), SmallImmValue::Rotate(15));
        assert_eq!(SmallImm(48).operand_bits(), (-16i32) as u32);
        assert_eq!(SmallImm(63).operand_bits(), (-1i32) as u32);
    }

    #[test]
    fn small_immediate_constructors_invert_value() {
        for v in -16..=15 {
            assert_eq!(
                SmallImm::from_int(v).unwrap().value(),
                SmallImmValue::Int(v)
            );
        }
        assert_eq!(SmallImm::from_int(16), None);
        assert_eq!(SmallImm::from_float(0.25).unwrap().code(), 46);
        assert_eq!(SmallImm::from_float(3.0), None);
        assert_eq!(SmallImm::rotation(Some(3)).unwrap().code(), 51);
        assert_eq!(SmallImm::rotation(Some(0)), None);
    }

    #[test]
    fn per_element_immediates_take_one_bit_from_each_half() {
        // Lane 0: hi=1 lo=0 -> unsigned 2, signed -2. Lane 1: hi=0 lo=1 -> 1.
        let imm = 0x0001_0002;
        assert_eq!(LoadImmMode::PerElementUnsigned.lane_value(imm, 0), 2);
        assert_eq!(
            LoadImmMode::PerElementSigned.lane_value(imm, 0),
            (-2i32) as u32
        );
        assert_eq!(LoadImmMode::PerElementSigned.lane_value(imm, 1), 1);
        assert_eq!(
            LoadImmMode::PerElementSigned.lane_value(0xffff_ffff, 7),
            u32::MAX
        );
        assert_eq!(LoadImmMode::Uniform32.lane_value(imm, 5), imm);
    }

    #[test]
    fn reserved_codes_are_rejected_with_their_field() {
        assert!(matches!(
            AddOp::from_code(9),
            Err(DecodeError::Reserved {
                field: "op_add",
                value: 9
            })
        ));
        assert!(BranchCond::from_code(13).is_err());
        assert!(PackMul::from_code(1).is_err());
        assert!(LoadImmMode::from_code(2).is_err());
    }
}
