//! The add and mul ALU operations and their opcode tables.
//!
//! An operation is picked by its opcode field (8 bits add, 6 bits mul) and, for operations
//! with fewer than two inputs, by the input field(s) they do not need: on 4.2 the `mux_b`
//! field (and `mux_a` too for operations without inputs), on 7.1 the read address of the
//! second input (`raddr_b` add, `raddr_d` mul). Several operations have more than one
//! encoding, the extra bits carrying an output pack or input unpack: each encoding of an
//! operation is numbered (its *variant*, counted in table order). The float operations with
//! the regular layout (see [`FloatMods`]) and the ones listed at `Scheme` below have typed
//! or named modifiers (`AluInstruction::add_float_mods`, `add_named_modifiers`, and the
//! `.l`/`.h`/`.abs`… suffixes of the text syntax); the remaining multi-encoding ops (4.2
//! and 7.1 itof/utof, the 7.1 mul fmov, vpmsetup, fxcd/fycd) print their variant as `.vN`.
//! py-videocore7's `_add_ops`/`_mul_ops` agree with Mesa's 7.1 tables for the ops it has.
//!
//! The tables restate Mesa `src/broadcom/qpu/qpu_pack.c` (`v3d42_add_ops`, `v3d42_mul_ops`,
//! `v3d71_add_ops`, `v3d71_mul_ops`, and the 4.2 trick that opcodes 249–251 and 253–255
//! repeat 245–247 with another input unpack); py-videocore6's `add_ops`/`mul_ops` agree for
//! the ops it has. Known disagreements, and our choice:
//! - 4.2 add 187 with mux_b = 2, mux_a = 2: Mesa's table resolves it to `vdwwt` (a 3.3 op,
//!   listed first with no last version); py-videocore6 calls it `iid`, as does Mesa for 4.0+.
//!   We name it `iid` (py-videocore6 runs on 4.2 hardware).
//! - py-videocore6 names `min/max/and/or/xor/not` as `imin/imax/band/bor/bxor/bnot`; we use
//!   Mesa's names.

use std::sync::OnceLock;

use super::V3dVersion;

/// An operation enum (variants named as Mesa names the opcodes) and `ALL`, every variant in
/// declaration order, for tools and tests that go through all of them.
macro_rules! op_enum {
    ($(#[$m:meta])* $name:ident { $($v:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum $name {
            $($v),*
        }

        impl $name {
            /// Every operation, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v),*];

            /// The operation's place in [`Self::ALL`].
            pub(crate) fn index(self) -> usize {
                self as usize
            }
        }
    };
}

op_enum! {
    /// An add-ALU operation.
    AddOp {
        Fadd,
        Faddnf,
        Vfpack,
        Add,
        Sub,
        Fsub,
        Min,
        Max,
        Umin,
        Umax,
        Shl,
        Shr,
        Asr,
        Ror,
        Fmin,
        Fmax,
        Vfmin,
        And,
        Or,
        Xor,
        Vadd,
        Vsub,
        Not,
        Neg,
        Flapush,
        Flbpush,
        Flpop,
        Recip,
        Setmsf,
        Setrevf,
        Nop,
        Tidx,
        Eidx,
        Lr,
        Vfla,
        Vflna,
        Vflb,
        Vflnb,
        Fxcd,
        Xcd,
        Fycd,
        Ycd,
        Msf,
        Revf,
        Iid,
        Sampid,
        Barrierid,
        Tmuwt,
        Vpmsetup,
        Vpmwt,
        Flafirst,
        Flnafirst,
        Ldvpmv,
        Ldvpmd,
        Ldvpmp,
        Rsqrt,
        Exp,
        Log,
        Sin,
        Rsqrt2,
        Ballot,
        Bcastf,
        Alleq,
        Allfeq,
        Ldvpmg,
        Stvpm,
        Fcmp,
        Vfmax,
        Fround,
        Ftoin,
        Ftrunc,
        Ftoiz,
        Ffloor,
        Ftouz,
        Fceil,
        Ftoc,
        Fdx,
        Fdy,
        Itof,
        Clz,
        Utof,
        Fmov,
        Mov,
        Vpack,
        V8pack,
        V10pack,
        V11fpack,
        Rotq,
        Rot,
        Shuffle,
    }
}

op_enum! {
    /// A mul-ALU operation.
    MulOp {
        Add,
        Sub,
        Umul24,
        Vfmul,
        Smul24,
        Multop,
        Fmov,
        Mov,
        Nop,
        Fmul,
        Ftounorm16,
        Ftosnorm16,
        Vftounorm8,
        Vftosnorm8,
        Funpackunormlo,
        Funpackunormhi,
        Funpacksnormlo,
        Funpacksnormhi,
        Vftounorm10lo,
        Vftounorm10hi,
    }
}

/// One row of an opcode table: the opcode ranges, the number of inputs, and (for fewer than
/// two inputs) the allowed selector values as a 64-bit mask.
pub(crate) struct Row<K> {
    pub kind: K,
    pub opcodes: &'static [(u8, u8)],
    pub arity: u8,
    pub sel: u64,
}

const fn mask(ranges: &[(u8, u8)]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < ranges.len() {
        let mut v = ranges[i].0;
        while v <= ranges[i].1 {
            m |= 1 << v;
            v += 1;
        }
        i += 1;
    }
    m
}

const ANY3: u64 = 0xff;
/// 4.2, no inputs: selector = mux_b * 8 + mux_a.
const fn ba(b: u8, a_lo: u8, a_hi: u8) -> u64 {
    mask(&[(b * 8 + a_lo, b * 8 + a_hi)])
}
const fn one(v: u8) -> u64 {
    1 << v
}

macro_rules! row {
    ($k:expr, [$(($lo:expr, $hi:expr)),*], $arity:expr, $sel:expr) => {
        Row { kind: $k, opcodes: &[$(($lo, $hi)),*], arity: $arity, sel: $sel }
    };
    ($k:expr, [$(($lo:expr, $hi:expr)),*]) => {
        Row { kind: $k, opcodes: &[$(($lo, $hi)),*], arity: 2, sel: 0 }
    };
}

/// The 4-fold repeat of 245–247 on 4.2 (the input unpack in opcode bits 3:2).
const F245: &[(u8, u8)] = &[(245, 245), (249, 249), (253, 253)];
const F246: &[(u8, u8)] = &[(246, 246), (250, 250), (254, 254)];
const F247: &[(u8, u8)] = &[(247, 247), (251, 251), (255, 255)];

macro_rules! rowx {
    ($k:expr, $ops:expr, $arity:expr, $sel:expr) => {
        Row {
            kind: $k,
            opcodes: $ops,
            arity: $arity,
            sel: $sel,
        }
    };
}

use AddOp as A;
use MulOp as M;

pub(crate) static ADD_V42: &[Row<AddOp>] = &[
    row!(A::Fadd, [(0, 47)]),
    row!(A::Vfpack, [(53, 55), (57, 59), (61, 63)]),
    row!(A::Add, [(56, 56)]),
    row!(A::Sub, [(60, 60)]),
    row!(A::Fsub, [(64, 111)]),
    row!(A::Min, [(120, 120)]),
    row!(A::Max, [(121, 121)]),
    row!(A::Umin, [(122, 122)]),
    row!(A::Umax, [(123, 123)]),
    row!(A::Shl, [(124, 124)]),
    row!(A::Shr, [(125, 125)]),
    row!(A::Asr, [(126, 126)]),
    row!(A::Ror, [(127, 127)]),
    row!(A::Fmin, [(128, 175)]),
    row!(A::Vfmin, [(176, 180)]),
    row!(A::And, [(181, 181)]),
    row!(A::Or, [(182, 182)]),
    row!(A::Xor, [(183, 183)]),
    row!(A::Vadd, [(184, 184)]),
    row!(A::Vsub, [(185, 185)]),
    row!(A::Not, [(186, 186)], 1, one(0)),
    row!(A::Neg, [(186, 186)], 1, one(1)),
    row!(A::Flapush, [(186, 186)], 1, one(2)),
    row!(A::Flbpush, [(186, 186)], 1, one(3)),
    row!(A::Flpop, [(186, 186)], 1, one(4)),
    row!(A::Recip, [(186, 186)], 1, one(5)),
    row!(A::Setmsf, [(186, 186)], 1, one(6)),
    row!(A::Setrevf, [(186, 186)], 1, one(7)),
    row!(A::Nop, [(187, 187)], 0, ba(0, 0, 0)),
    row!(A::Tidx, [(187, 187)], 0, ba(0, 1, 1)),
    row!(A::Eidx, [(187, 187)], 0, ba(0, 2, 2)),
    row!(A::Lr, [(187, 187)], 0, ba(0, 3, 3)),
    row!(A::Vfla, [(187, 187)], 0, ba(0, 4, 4)),
    row!(A::Vflna, [(187, 187)], 0, ba(0, 5, 5)),
    row!(A::Vflb, [(187, 187)], 0, ba(0, 6, 6)),
    row!(A::Vflnb, [(187, 187)], 0, ba(0, 7, 7)),
    row!(A::Fxcd, [(187, 187)], 0, ba(1, 0, 2)),
    row!(A::Xcd, [(187, 187)], 0, ba(1, 3, 3)),
    row!(A::Fycd, [(187, 187)], 0, ba(1, 4, 6)),
    row!(A::Ycd, [(187, 187)], 0, ba(1, 7, 7)),
    row!(A::Msf, [(187, 187)], 0, ba(2, 0, 0)),
    row!(A::Revf, [(187, 187)], 0, ba(2, 1, 1)),
    row!(A::Iid, [(187, 187)], 0, ba(2, 2, 2)),
    row!(A::Sampid, [(187, 187)], 0, ba(2, 3, 3)),
    row!(A::Barrierid, [(187, 187)], 0, ba(2, 4, 4)),
    row!(A::Tmuwt, [(187, 187)], 0, ba(2, 5, 5)),
    row!(A::Vpmwt, [(187, 187)], 0, ba(2, 6, 6)),
    row!(A::Flafirst, [(187, 187)], 0, ba(2, 7, 7)),
    row!(A::Flnafirst, [(187, 187)], 0, ba(3, 0, 0)),
    // Mesa: mux_b = 3 with any mux_a; mux_a = 0 is taken by flnafirst (earlier row).
    row!(A::Vpmsetup, [(187, 187)], 0, ba(3, 1, 7)),
    row!(A::Ldvpmv, [(188, 188)], 1, one(0)),
    row!(A::Ldvpmd, [(188, 188)], 1, one(1)),
    row!(A::Ldvpmp, [(188, 188)], 1, one(2)),
    row!(A::Rsqrt, [(188, 188)], 1, one(3)),
    row!(A::Exp, [(188, 188)], 1, one(4)),
    row!(A::Log, [(188, 188)], 1, one(5)),
    row!(A::Sin, [(188, 188)], 1, one(6)),
    row!(A::Rsqrt2, [(188, 188)], 1, one(7)),
    row!(A::Ldvpmg, [(189, 189)]),
    row!(A::Fcmp, [(192, 239)]),
    row!(A::Vfmax, [(240, 244)]),
    rowx!(A::Fround, F245, 1, mask(&[(0, 2)])),
    rowx!(A::Ftoin, F245, 1, one(3)),
    rowx!(A::Ftrunc, F245, 1, mask(&[(4, 6)])),
    rowx!(A::Ftoiz, F245, 1, one(7)),
    rowx!(A::Ffloor, F246, 1, mask(&[(0, 2)])),
    rowx!(A::Ftouz, F246, 1, one(3)),
    rowx!(A::Fceil, F246, 1, mask(&[(4, 6)])),
    rowx!(A::Ftoc, F246, 1, one(7)),
    rowx!(A::Fdx, F247, 1, mask(&[(0, 2)])),
    rowx!(A::Fdy, F247, 1, mask(&[(4, 6)])),
    row!(A::Stvpm, [(248, 248)]),
    row!(A::Itof, [(252, 252)], 1, mask(&[(0, 2)])),
    row!(A::Clz, [(252, 252)], 1, one(3)),
    row!(A::Utof, [(252, 252)], 1, mask(&[(4, 6)])),
];

pub(crate) static MUL_V42: &[Row<MulOp>] = &[
    row!(M::Add, [(1, 1)]),
    row!(M::Sub, [(2, 2)]),
    row!(M::Umul24, [(3, 3)]),
    row!(M::Vfmul, [(4, 8)]),
    row!(M::Smul24, [(9, 9)]),
    row!(M::Multop, [(10, 10)]),
    // fmov: one input; mux_b carries the output pack (bit 2, with opcode bit 0) and the
    // input unpack (bits 1:0).
    row!(M::Fmov, [(14, 14)], 1, ANY3),
    row!(M::Fmov, [(15, 15)], 1, mask(&[(0, 3)])),
    row!(M::Nop, [(15, 15)], 0, ba(4, 0, 0)),
    row!(M::Mov, [(15, 15)], 1, one(7)),
    row!(M::Fmul, [(16, 63)]),
];

const FOUR3: &[(u8, u8)] = &[(0, 2), (4, 6), (8, 10), (12, 14)];

pub(crate) static ADD_V71: &[Row<AddOp>] = &[
    row!(A::Fadd, [(0, 47)]),
    row!(A::Vfpack, [(53, 55), (57, 59), (61, 63)]),
    row!(A::Add, [(56, 56)]),
    row!(A::Sub, [(60, 60)]),
    row!(A::Fsub, [(64, 111)]),
    row!(A::Min, [(120, 120)]),
    row!(A::Max, [(121, 121)]),
    row!(A::Umin, [(122, 122)]),
    row!(A::Umax, [(123, 123)]),
    row!(A::Shl, [(124, 124)]),
    row!(A::Shr, [(125, 125)]),
    row!(A::Asr, [(126, 126)]),
    row!(A::Ror, [(127, 127)]),
    row!(A::Fmin, [(128, 175)]),
    row!(A::Vfmin, [(176, 180)]),
    row!(A::And, [(181, 181)]),
    row!(A::Or, [(182, 182)]),
    row!(A::Xor, [(183, 183)]),
    row!(A::Vadd, [(184, 184)]),
    row!(A::Vsub, [(185, 185)]),
    row!(A::Not, [(186, 186)], 1, one(0)),
    row!(A::Neg, [(186, 186)], 1, one(1)),
    row!(A::Flapush, [(186, 186)], 1, one(2)),
    row!(A::Flbpush, [(186, 186)], 1, one(3)),
    row!(A::Flpop, [(186, 186)], 1, one(4)),
    row!(A::Clz, [(186, 186)], 1, one(5)),
    row!(A::Setmsf, [(186, 186)], 1, one(6)),
    row!(A::Setrevf, [(186, 186)], 1, one(7)),
    row!(A::Nop, [(187, 187)], 0, one(0)),
    row!(A::Tidx, [(187, 187)], 0, one(1)),
    row!(A::Eidx, [(187, 187)], 0, one(2)),
    row!(A::Lr, [(187, 187)], 0, one(3)),
    row!(A::Vfla, [(187, 187)], 0, one(4)),
    row!(A::Vflna, [(187, 187)], 0, one(5)),
    row!(A::Vflb, [(187, 187)], 0, one(6)),
    row!(A::Vflnb, [(187, 187)], 0, one(7)),
    row!(A::Xcd, [(187, 187)], 0, one(8)),
    row!(A::Ycd, [(187, 187)], 0, one(9)),
    row!(A::Msf, [(187, 187)], 0, one(10)),
    row!(A::Revf, [(187, 187)], 0, one(11)),
    row!(A::Iid, [(187, 187)], 0, one(12)),
    row!(A::Sampid, [(187, 187)], 0, one(13)),
    row!(A::Barrierid, [(187, 187)], 0, one(14)),
    row!(A::Tmuwt, [(187, 187)], 0, one(15)),
    row!(A::Vpmwt, [(187, 187)], 0, one(16)),
    row!(A::Flafirst, [(187, 187)], 0, one(17)),
    row!(A::Flnafirst, [(187, 187)], 0, one(18)),
    row!(A::Fxcd, [(187, 187)], 0, mask(&[(32, 34)])),
    row!(A::Fycd, [(187, 187)], 0, mask(&[(36, 38)])),
    row!(A::Ldvpmv, [(188, 188)], 1, one(0)),
    row!(A::Ldvpmd, [(188, 188)], 1, one(1)),
    row!(A::Ldvpmp, [(188, 188)], 1, one(2)),
    row!(A::Recip, [(188, 188)], 1, one(32)),
    row!(A::Rsqrt, [(188, 188)], 1, one(33)),
    row!(A::Exp, [(188, 188)], 1, one(34)),
    row!(A::Log, [(188, 188)], 1, one(35)),
    row!(A::Sin, [(188, 188)], 1, one(36)),
    row!(A::Rsqrt2, [(188, 188)], 1, one(37)),
    row!(A::Ballot, [(188, 188)], 1, one(38)),
    row!(A::Bcastf, [(188, 188)], 1, one(39)),
    row!(A::Alleq, [(188, 188)], 1, one(40)),
    row!(A::Allfeq, [(188, 188)], 1, one(41)),
    row!(A::Ldvpmg, [(189, 189)]),
    row!(A::Stvpm, [(190, 190)]),
    row!(A::Fcmp, [(192, 207)]),
    // Not in Mesa's 7.1 table: py-videocore7's assembler encodes `vfmax` as 240 plus input
    // a's f16 unpack (none, r32, rl2h, rh2l, swap: 240-244) and its tests/test_alu.py checks
    // all five against numpy on a Pi 5.
    row!(A::Vfmax, [(240, 244)]),
    row!(
        A::Fround,
        [(245, 245)],
        1,
        mask(&[(0, 2), (4, 6), (8, 10), (12, 14)])
    ),
    row!(
        A::Ftoin,
        [(245, 245)],
        1,
        one(3) | one(7) | one(11) | one(15)
    ),
    row!(
        A::Ftrunc,
        [(245, 245)],
        1,
        mask(&[(16, 18), (20, 22), (24, 26), (28, 30)])
    ),
    row!(
        A::Ftoiz,
        [(245, 245)],
        1,
        one(19) | one(23) | one(27) | one(31)
    ),
    row!(
        A::Ffloor,
        [(245, 245)],
        1,
        mask(&[(32, 34), (36, 38), (40, 42), (44, 46)])
    ),
    row!(
        A::Ftouz,
        [(245, 245)],
        1,
        one(35) | one(39) | one(43) | one(47)
    ),
    row!(
        A::Fceil,
        [(245, 245)],
        1,
        mask(&[(48, 50), (52, 54), (56, 58), (60, 62)])
    ),
    row!(
        A::Ftoc,
        [(245, 245)],
        1,
        one(51) | one(55) | one(59) | one(63)
    ),
    rowx!(A::Fdx, &[(246, 246)], 1, mask(FOUR3)),
    row!(
        A::Fdy,
        [(246, 246)],
        1,
        mask(&[(16, 18), (20, 22), (24, 26), (28, 30)])
    ),
    row!(A::Itof, [(246, 246)], 1, mask(&[(32, 34)])),
    row!(A::Utof, [(246, 246)], 1, mask(&[(36, 38)])),
    row!(A::Vpack, [(247, 247)]),
    row!(A::V8pack, [(248, 248)]),
    row!(
        A::Fmov,
        [(249, 249)],
        1,
        mask(&[
            (0, 2),
            (4, 6),
            (8, 10),
            (12, 14),
            (16, 18),
            (20, 22),
            (24, 26)
        ])
    ),
    row!(
        A::Mov,
        [(249, 249)],
        1,
        one(3) | one(7) | one(11) | one(15) | one(19)
    ),
    row!(A::V10pack, [(250, 250)]),
    row!(A::V11fpack, [(251, 251)]),
    row!(A::Rotq, [(252, 252)]),
    row!(A::Rot, [(253, 253)]),
    row!(A::Shuffle, [(254, 254)]),
];

pub(crate) static MUL_V71: &[Row<MulOp>] = &[
    row!(M::Add, [(1, 1)]),
    row!(M::Sub, [(2, 2)]),
    row!(M::Umul24, [(3, 3)]),
    row!(M::Vfmul, [(4, 8)]),
    row!(M::Smul24, [(9, 9)]),
    row!(M::Multop, [(10, 10)]),
    row!(
        M::Fmov,
        [(14, 14)],
        1,
        mask(&[
            (0, 2),
            (4, 6),
            (8, 10),
            (12, 14),
            (16, 18),
            (20, 22),
            (24, 26),
            (28, 30)
        ])
    ),
    row!(
        M::Mov,
        [(14, 14)],
        1,
        one(3) | one(7) | one(11) | one(15) | one(19)
    ),
    row!(M::Ftounorm16, [(14, 14)], 1, one(32)),
    row!(M::Ftosnorm16, [(14, 14)], 1, one(33)),
    row!(M::Vftounorm8, [(14, 14)], 1, one(34)),
    row!(M::Vftosnorm8, [(14, 14)], 1, one(35)),
    row!(M::Funpackunormlo, [(14, 14)], 1, one(36)),
    row!(M::Funpackunormhi, [(14, 14)], 1, one(37)),
    row!(M::Funpacksnormlo, [(14, 14)], 1, one(38)),
    row!(M::Funpacksnormhi, [(14, 14)], 1, one(39)),
    row!(M::Vftounorm10lo, [(14, 14)], 1, one(48)),
    row!(M::Vftounorm10hi, [(14, 14)], 1, one(49)),
    row!(M::Nop, [(14, 14)], 0, one(63)),
    row!(M::Fmul, [(16, 63)]),
];

/// The result of looking an encoding up: which op, which of its encodings, how many inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found<K> {
    pub kind: K,
    pub variant: u8,
    pub arity: u8,
}

fn in_ranges(ranges: &[(u8, u8)], v: u8) -> Option<usize> {
    let mut before = 0usize;
    for &(lo, hi) in ranges {
        if (lo..=hi).contains(&v) {
            return Some(before + usize::from(v - lo));
        }
        before += usize::from(hi - lo) + 1;
    }
    None
}

fn count(ranges: &[(u8, u8)]) -> usize {
    ranges
        .iter()
        .map(|&(lo, hi)| usize::from(hi - lo) + 1)
        .sum()
}

/// Finds the row for `opcode`; `sel(arity)` gives the selector value for a row of that arity.
pub(crate) fn lookup<K: Copy + PartialEq>(
    rows: &[Row<K>],
    opcode: u8,
    sel: impl Fn(u8) -> u8,
) -> Option<Found<K>> {
    for row in rows {
        let Some(op_index) = in_ranges(row.opcodes, opcode) else {
            continue;
        };
        let (sel_index, sel_count) = if row.arity == 2 {
            (0, 1)
        } else {
            let s = sel(row.arity);
            if s >= 64 || row.sel & (1u64 << s) == 0 {
                continue;
            }
            let below = row.sel & ((1u64 << s) - 1);
            (below.count_ones() as usize, row.sel.count_ones() as usize)
        };
        // The variant counts this kind's encodings over all of its rows, in table order.
        let earlier: usize = rows
            .iter()
            .take_while(|r| !std::ptr::eq(*r, row))
            .filter(|r| r.kind == row.kind)
            .map(|r| {
                count(r.opcodes)
                    * if r.arity == 2 {
                        1
                    } else {
                        r.sel.count_ones() as usize
                    }
            })
            .sum();
        let variant = earlier + op_index * sel_count + sel_index;
        return Some(Found {
            kind: row.kind,
            variant: u8::try_from(variant).ok()?,
            arity: row.arity,
        });
    }
    None
}

/// The encoding of `(kind, variant)`: opcode, arity and (for arity < 2) selector value.
pub(crate) fn encoding<K: Copy + PartialEq>(
    rows: &[Row<K>],
    kind: K,
    variant: u8,
) -> Option<(u8, u8, Option<u8>)> {
    let mut left = usize::from(variant);
    for row in rows.iter().filter(|r| r.kind == kind) {
        let sel_count = if row.arity == 2 {
            1
        } else {
            row.sel.count_ones() as usize
        };
        let total = count(row.opcodes) * sel_count;
        if left >= total {
            left -= total;
            continue;
        }
        let (op_index, sel_index) = (left / sel_count, left % sel_count);
        let mut k = op_index;
        let mut opcode = None;
        for &(lo, hi) in row.opcodes {
            let n = usize::from(hi - lo) + 1;
            if k < n {
                opcode = Some(lo + k as u8);
                break;
            }
            k -= n;
        }
        let sel = if row.arity == 2 {
            None
        } else {
            (0..64u8)
                .filter(|&s| row.sel & (1u64 << s) != 0)
                .nth(sel_index)
        };
        return Some((opcode?, row.arity, sel));
    }
    None
}

/// How many encodings `kind` has in `rows`.
pub(crate) fn variants<K: Copy + PartialEq>(rows: &[Row<K>], kind: K) -> usize {
    rows.iter()
        .filter(|r| r.kind == kind)
        .map(|r| {
            count(r.opcodes)
                * if r.arity == 2 {
                    1
                } else {
                    r.sel.count_ones() as usize
                }
        })
        .sum()
}

/// Every (opcode, arity, selector) of each kind of a table, indexed by kind and variant:
/// [`encoding`]'s answers worked out once, since encoding an instruction asks for them
/// several times.
type Encodings = Vec<Vec<Encoding>>;

/// An encoding: opcode, arity and (for arity < 2) selector value.
pub(crate) type Encoding = (u8, u8, Option<u8>);

fn encodings<K: Copy + PartialEq>(rows: &[Row<K>], all: &[K]) -> Vec<Vec<(u8, u8, Option<u8>)>> {
    all.iter()
        .map(|&kind| {
            (0..variants(rows, kind))
                .map_while(|v| encoding(rows, kind, u8::try_from(v).ok()?))
                .collect()
        })
        .collect()
}

/// [`encoding`] of an add-ALU kind (a table kind: `fadd`, not `faddnf`) on `version`.
pub(crate) fn add_encoding(version: V3dVersion, kind: AddOp, variant: u8) -> Option<Encoding> {
    static TABLES: [OnceLock<Encodings>; 2] = [OnceLock::new(), OnceLock::new()];
    let table = TABLES[version as usize].get_or_init(|| encodings(add_rows(version), AddOp::ALL));
    table[kind.index()].get(usize::from(variant)).copied()
}

/// [`encoding`] of a mul-ALU kind on `version`.
pub(crate) fn mul_encoding(version: V3dVersion, kind: MulOp, variant: u8) -> Option<Encoding> {
    static TABLES: [OnceLock<Encodings>; 2] = [OnceLock::new(), OnceLock::new()];
    let table = TABLES[version as usize].get_or_init(|| encodings(mul_rows(version), MulOp::ALL));
    table[kind.index()].get(usize::from(variant)).copied()
}

pub(crate) fn add_rows(version: V3dVersion) -> &'static [Row<AddOp>] {
    match version {
        V3dVersion::V42 => ADD_V42,
        V3dVersion::V71 => ADD_V71,
    }
}

pub(crate) fn mul_rows(version: V3dVersion) -> &'static [Row<MulOp>] {
    match version {
        V3dVersion::V42 => MUL_V42,
        V3dVersion::V71 => MUL_V71,
    }
}

/// Output pack of a float result: convert to f16 into the low or high half.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatPack {
    /// 32-bit result.
    None,
    /// f16 into bits 15:0.
    L,
    /// f16 into bits 31:16.
    H,
}

/// Input unpack of a 32-bit float operand, 2-bit code (Mesa
/// `v3d_qpu_float32_unpack_pack`; py-videocore6 `Register.INPUT_MODIFIER`): 0 abs, 1 none,
/// 2 low f16 → f32, 3 high f16 → f32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatUnpack {
    /// Absolute value.
    Abs,
    /// As is.
    None,
    /// Low half as f16.
    L,
    /// High half as f16.
    H,
}

impl FloatUnpack {
    /// From the 2-bit code.
    pub fn from_code(code: u8) -> FloatUnpack {
        [
            FloatUnpack::Abs,
            FloatUnpack::None,
            FloatUnpack::L,
            FloatUnpack::H,
        ][usize::from(code & 3)]
    }

    /// The assembler suffix (empty for none).
    pub fn suffix(self) -> &'static str {
        ["abs", "", "l", "h"][self as usize]
    }
}

/// Pack and unpacks of the float ops whose opcode is `base + pack·16 + a·4 + b`
/// (fadd/faddnf, fsub, fmin/fmax, fcmp, fmul, and vfpack without pack).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatMods {
    /// Output pack.
    pub pack: FloatPack,
    /// Unpack of input a.
    pub a: FloatUnpack,
    /// Unpack of input b.
    pub b: FloatUnpack,
}

/// Whether the add op's opcode carries [`FloatMods`] (and where its pack field starts).
pub(crate) fn add_float_layout(op: AddOp) -> bool {
    matches!(
        op,
        AddOp::Fadd
            | AddOp::Faddnf
            | AddOp::Fsub
            | AddOp::Fmin
            | AddOp::Fmax
            | AddOp::Fcmp
            | AddOp::Vfpack
    )
}

/// The float modifiers read from an opcode with the regular layout. `pack_offset` is 1 for
/// fmul (its opcodes start at 16 with pack "none"), 0 otherwise; vfpack has no pack.
pub(crate) fn float_mods(opcode: u8, pack_offset: u8, has_pack: bool) -> FloatMods {
    let pack = if has_pack {
        match ((opcode >> 4) & 3).wrapping_sub(pack_offset) {
            1 => FloatPack::L,
            2 => FloatPack::H,
            _ => FloatPack::None,
        }
    } else {
        FloatPack::None
    };
    FloatMods {
        pack,
        a: FloatUnpack::from_code(opcode >> 2),
        b: FloatUnpack::from_code(opcode),
    }
}

fn table_kind(op: AddOp) -> AddOp {
    match op {
        AddOp::Faddnf => AddOp::Fadd,
        AddOp::Fmax => AddOp::Fmin,
        op => op,
    }
}

/// How many encodings the add op has on `version` (0: the op does not exist there).
pub fn add_variants(version: V3dVersion, op: AddOp) -> usize {
    variants(add_rows(version), table_kind(op))
}

/// How many inputs encoding `variant` of the add op reads, if that encoding exists.
pub fn add_arity(version: V3dVersion, op: AddOp, variant: u8) -> Option<u8> {
    encoding(add_rows(version), table_kind(op), variant).map(|e| e.1)
}

/// How many encodings the mul op has on `version` (0: the op does not exist there).
pub fn mul_variants(version: V3dVersion, op: MulOp) -> usize {
    variants(mul_rows(version), op)
}

/// How many inputs encoding `variant` of the mul op reads, if that encoding exists.
pub fn mul_arity(version: V3dVersion, op: MulOp, variant: u8) -> Option<u8> {
    encoding(mul_rows(version), op, variant).map(|e| e.1)
}

/// Named modifiers for ops whose several encodings carry an output pack and/or an input-a
/// unpack in a layout other than the regular float one. Each scheme maps the op's variant
/// to (pack, unpack name) and back; `pack_major` says which of the two counts faster.
///
/// Meanings (Mesa `qpu_pack.c` unpack functions, names from Mesa's `qpu_disasm.c` test):
/// - f16 unpack of input a (vfmul, vfmin, vfmax): opcode low bits 0–4 = none, `ff`
///   (f32 → f16 replicated), `ll`, `hh` (replicate a half), `swp` (swap halves).
/// - 4.2 mul fmov: pack = (opcode bit 0)·2 + mux_b bit 2, unpack = mux_b bits 1:0 (float32
///   codes abs/none/l/h) → variant = pack·4 + unpack.
/// - 4.2 fround/ftrunc/ffloor/fceil/fdx/fdy: pack = mux_b bits 1:0; unpack from the opcode
///   copy (245–247 none, 249–251 l, 253–255 h) → variant = unpack·3 + pack.
/// - 4.2 ftoin/ftoiz/ftouz/ftoc: unpack from the opcode copy, no pack.
/// - 7.1 mov (both ALUs): integer unpack in raddr bits 4:2 (none, ul, uh, il, ih).
/// - 7.1 add fmov: pack = raddr_b bits 1:0, float32 unpack in bits 4:2 (abs, none, l, h,
///   sat, nsat, max0).
/// - 7.1 fround/ftrunc/ffloor/fceil/fdx/fdy: pack = raddr_b bits 1:0, float32 unpack in bits
///   3:2 (bits 5:4 pick the op); ftoin/ftoiz/ftouz/ftoc: unpack in bits 3:2 (bits 1:0 = 3).
///   Sources disagree here: py-videocore7's `AddALUOp.pack` writes the unpack into raddr_b
///   bits 3:2 for all of these, and Mesa reads it there for the conversions, but Mesa's 7.1
///   unpack code takes the rounding ops' unpack from the opcode (the same for all their
///   encodings). We follow py-videocore7, which emits these words for real hardware.
///
/// Not covered (their encodings print as `.vN`): 4.2 itof/utof and 7.1 itof/utof (neither
/// source gives their encodings distinct meanings) and the 7.1 mul fmov (its last group,
/// raddr_d 28–30, has no float32 unpack code in Mesa's add-side table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scheme {
    pub packs: u8,
    pub unpacks: &'static [&'static str],
    pub pack_major: bool,
}

const F16A: Scheme = Scheme {
    packs: 1,
    unpacks: &["", "ff", "ll", "hh", "swp"],
    pack_major: false,
};
const FMOV42: Scheme = Scheme {
    packs: 3,
    unpacks: &["abs", "", "l", "h"],
    pack_major: true,
};
const ROUND42: Scheme = Scheme {
    packs: 3,
    unpacks: &["", "l", "h"],
    pack_major: false,
};
const CVT42: Scheme = Scheme {
    packs: 1,
    unpacks: &["", "l", "h"],
    pack_major: false,
};
const MOV71: Scheme = Scheme {
    packs: 1,
    unpacks: &["", "ul", "uh", "il", "ih"],
    pack_major: false,
};
const ROUND71: Scheme = Scheme {
    packs: 3,
    unpacks: &["abs", "", "l", "h"],
    pack_major: false,
};
const CVT71: Scheme = Scheme {
    packs: 1,
    unpacks: &["abs", "", "l", "h"],
    pack_major: false,
};
const FMOV71: Scheme = Scheme {
    packs: 3,
    unpacks: &["abs", "", "l", "h", "sat", "nsat", "max0"],
    pack_major: false,
};

impl Scheme {
    /// Number of variants the scheme names.
    pub fn len(self) -> usize {
        usize::from(self.packs) * self.unpacks.len()
    }

    /// (pack 0 none / 1 l / 2 h, unpack name) of a variant.
    pub fn split(self, variant: u8) -> Option<(u8, &'static str)> {
        let v = usize::from(variant);
        if v >= self.len() {
            return None;
        }
        let n = self.unpacks.len();
        let p = usize::from(self.packs);
        let (pack, unpack) = if self.pack_major {
            (v / n, v % n)
        } else {
            (v % p, v / p)
        };
        Some((pack as u8, self.unpacks[unpack]))
    }

    /// The variant with this pack and unpack name.
    pub fn join(self, pack: u8, unpack: &str) -> Option<u8> {
        if pack >= self.packs {
            return None;
        }
        let u = self.unpacks.iter().position(|&s| s == unpack)?;
        let v = if self.pack_major {
            usize::from(pack) * self.unpacks.len() + u
        } else {
            u * usize::from(self.packs) + usize::from(pack)
        };
        u8::try_from(v).ok()
    }
}

/// For an add op with named modifiers on `version`: how many output packs it has (1: none;
/// 3: none, `l`, `h`) and the names of its input-a unpacks ("" = none).
pub fn add_modifier_names(version: V3dVersion, op: AddOp) -> Option<(u8, &'static [&'static str])> {
    add_scheme(version, op).map(|s| (s.packs, s.unpacks))
}

/// The same for a mul op.
pub fn mul_modifier_names(version: V3dVersion, op: MulOp) -> Option<(u8, &'static [&'static str])> {
    mul_scheme(version, op).map(|s| (s.packs, s.unpacks))
}

/// The modifier scheme of an add op on `version`, if it has one.
pub(crate) fn add_scheme(version: V3dVersion, op: AddOp) -> Option<Scheme> {
    use AddOp::*;
    match (version, op) {
        (_, Vfmin | Vfmax) => Some(F16A),
        (V3dVersion::V42, Fround | Ftrunc | Ffloor | Fceil | Fdx | Fdy) => Some(ROUND42),
        (V3dVersion::V42, Ftoin | Ftoiz | Ftouz | Ftoc) => Some(CVT42),
        (V3dVersion::V71, Fround | Ftrunc | Ffloor | Fceil | Fdx | Fdy) => Some(ROUND71),
        (V3dVersion::V71, Ftoin | Ftoiz | Ftouz | Ftoc) => Some(CVT71),
        (V3dVersion::V71, Mov) => Some(MOV71),
        (V3dVersion::V71, Fmov) => Some(FMOV71),
        _ => None,
    }
}

/// The modifier scheme of a mul op on `version`, if it has one.
pub(crate) fn mul_scheme(version: V3dVersion, op: MulOp) -> Option<Scheme> {
    match (version, op) {
        (_, MulOp::Vfmul) => Some(F16A),
        (V3dVersion::V42, MulOp::Fmov) => Some(FMOV42),
        (V3dVersion::V71, MulOp::Mov) => Some(MOV71),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached encodings are the tables' own, for every kind and variant (and nothing past
    /// the last variant).
    #[test]
    fn cached_encodings_match_the_table_walk() {
        fn check<K: Copy + PartialEq + std::fmt::Debug>(
            version: V3dVersion,
            rows: &[Row<K>],
            all: &[K],
            cached: fn(V3dVersion, K, u8) -> Option<Encoding>,
        ) -> usize {
            let mut seen = 0;
            for &kind in all {
                let n = variants(rows, kind);
                for v in 0..=n as u8 {
                    let want = encoding(rows, kind, v);
                    assert_eq!(cached(version, kind, v), want, "{version:?} {kind:?} {v}");
                }
                seen += n;
            }
            seen
        }
        for version in [V3dVersion::V42, V3dVersion::V71] {
            let seen = check(version, add_rows(version), AddOp::ALL, add_encoding)
                + check(version, mul_rows(version), MulOp::ALL, mul_encoding);
            assert!(seen > 100, "{version:?}: {seen} encodings");
        }
    }

    /// Every scheme names exactly the encodings the tables give its ops.
    #[test]
    fn schemes_cover_every_variant() {
        for v in [V3dVersion::V42, V3dVersion::V71] {
            for &op in crate::v3d::asm::all_add_ops() {
                if let Some(s) = add_scheme(v, op) {
                    assert_eq!(s.len(), add_variants(v, op), "{v:?} {op:?}");
                }
            }
            for &op in crate::v3d::asm::all_mul_ops() {
                if let Some(s) = mul_scheme(v, op) {
                    assert_eq!(s.len(), mul_variants(v, op), "{v:?} {op:?}");
                }
            }
        }
        for s in [F16A, FMOV42, ROUND42, CVT42, MOV71, FMOV71, ROUND71, CVT71] {
            for v in 0..s.len() as u8 {
                let (p, u) = s.split(v).unwrap();
                assert_eq!(s.join(p, u), Some(v));
            }
        }
    }
}
