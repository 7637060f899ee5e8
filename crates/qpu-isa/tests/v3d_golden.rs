//! Golden V3D words, each derived by hand from the documented bit layout (Mesa
//! `src/broadcom/qpu/qpu_pack.c` field masks; py-videocore6 `Instruction.__int__`):
//!
//! ALU: op_mul 63:58, sig 57:53, cond 52:46, mm 45, ma 44, waddr_m 43:38, waddr_a 37:32,
//! op_add 31:24; 4.2: mul_b 23:21, mul_a 20:18, add_b 17:15, add_a 14:12, raddr_a 11:6,
//! raddr_b 5:0; 7.1: raddr_c 23:18, raddr_d 17:12, raddr_a 11:6, raddr_b 5:0.
//! Branch: bits 57:56 = 10, offset[23:3] 55:35, cond 34:32, offset[31:24] 31:24, bdi 13:12.
//!
//! Each case checks text → word (assembler), word → text (disassembler) and word → word.
//! The derivations work in the high and low 32-bit halves: a field at bit n ≥ 32 of the word
//! is at bit n − 32 of the high half.

use qpu_isa::v3d::{self, disasm, FloatPack, Instruction, V3dVersion, V3dVersion::*};

fn check(version: V3dVersion, text: &str, word: u64) {
    let instrs = v3d::assemble(version, text)
        .unwrap_or_else(|e| panic!("{version:?} `{text}` does not assemble: {e}"));
    assert_eq!(instrs.len(), 1);
    let ours = v3d::encode(version, &instrs[0]).unwrap();
    assert_eq!(
        ours, word,
        "{version:?} `{text}`: ours {ours:#018x}, expected {word:#018x}"
    );
    let decoded = v3d::decode(version, word).unwrap();
    assert_eq!(disasm::instruction(version, &decoded), text);
    assert_eq!(v3d::encode(version, &decoded).unwrap(), word);
}

// ---- V3D 4.2 ----

/// nop ; nop — op_mul 15 (mul nop needs mux_b = 4, mux_a = 0), both destinations magic 6,
/// op_add 187 (add nop needs mux_b = 0, mux_a = 0).
/// high: 15<<26 = 0x3c00_0000 | mm 1<<13 = 0x2000 | ma 1<<12 = 0x1000 | 6<<6 = 0x180 | 6
///     = 0x3c00_3186; low: 187<<24 = 0xbb00_0000 | mul_b 4<<21 = 0x80_0000 = 0xbb80_0000.
/// The same word is Mesa's and py-videocore6's nop.
#[test]
fn v42_nop() {
    check(V42, "nop ; nop", 0x3c00_3186_bb80_0000);
}

/// add rf1, r0, r1 ; nop — ma 0, waddr_a 1, op_add 56, add_a = r0 (0), add_b = r1 (1).
/// high: 0x3c00_0000 | 0x2000 | 0x180 | 1 = 0x3c00_2181;
/// low: 56<<24 = 0x3800_0000 | 4<<21 = 0x80_0000 | 1<<15 = 0x8000 = 0x3880_8000.
#[test]
fn v42_add() {
    check(V42, "add rf1, r0, r1 ; nop", 0x3c00_2181_3880_8000);
}

/// add.pushz: cond = apf pushz = 1 → 1<<46 = high bit 14 (0x4000) on top of v42_add.
/// sub.ifa: cond = 0b10_cc_pp with cc = ifa (0), pp = 0 → 32 → high 32<<14 = 0x8_0000;
/// op_add 60 → low 0x3c80_8000.
#[test]
fn v42_flags_and_conditions() {
    check(V42, "add.pushz rf1, r0, r1 ; nop", 0x3c00_6181_3880_8000);
    check(V42, "sub.ifa rf1, r0, r1 ; nop", 0x3c08_2181_3c80_8000);
}

/// nop ; fmul rf2, rf3, 2.0 — fmul without pack/unpack: opcode 16·(pack+1) + 4·a + b with
/// "none" = 1 for both unpacks → 21; sig 15 = small immediate in raddr_b; 2.0 = 2^1 is
/// index 32 + 8 + 1 = 41. mul_a = port A (6) with raddr_a 3, mul_b = port B (7).
/// high: 21<<26 = 0x5400_0000 | 15<<21 = 0x01e0_0000 | ma 0x1000 | waddr_m 2<<6 = 0x80 |
///       waddr_a 6 = 0x55e0_1086;
/// low: 0xbb00_0000 | 7<<21 = 0xe0_0000 | 6<<18 = 0x18_0000 | 3<<6 = 0xc0 | 41 = 0xbbf8_00e9.
#[test]
fn v42_small_immediate() {
    check(V42, "nop ; fmul rf2, rf3, 2.0", 0x55e0_1086_bbf8_00e9);
}

/// fadd.l rf1, r0.abs, r1 — opcode = pack L (1)<<4 | a abs (0)<<2 | b none (1) = 17;
/// a's (unpack·8 + mux) = 0 is not above b's 1·8 + 1 = 9, so this is fadd, not faddnf.
/// low: 17<<24 = 0x1100_0000 | 0x80_0000 | 1<<15 = 0x1180_8000.
/// faddnf rf1, r1, r0 — opcode 5; a: 1·8 + 1 = 9 > b: 1·8 + 0 = 8 → faddnf.
/// low: 0x0500_0000 | 0x80_0000 | add_a 1<<12 = 0x1000 = 0x0580_1000.
#[test]
fn v42_float_modifiers_and_fadd_order() {
    check(V42, "fadd.l rf1, r0.abs, r1 ; nop", 0x3c00_2181_1180_8000);
    check(V42, "faddnf rf1, r1, r0 ; nop", 0x3c00_2181_0580_1000);
    // Written in the other order, the assembler swaps the (commutative) inputs and their
    // unpacks: `fadd rf1, r1, r0` is encoded as `fadd rf1, r0, r1`, `faddnf rf1, r0, r1` as
    // the word above.
    let word = |t: &str| v3d::encode(V42, &v3d::assemble(V42, t).unwrap()[0]).unwrap();
    assert_eq!(
        word("fadd rf1, r1, r0 ; nop"),
        word("fadd rf1, r0, r1 ; nop")
    );
    assert_eq!(word("faddnf rf1, r0, r1 ; nop"), 0x3c00_2181_0580_1000);
    assert_eq!(word("fadd.l rf1, r1, r0.abs ; nop"), 0x3c00_2181_1180_8000);
}

/// Signals on a nop: thrsw = sig 1 (1<<21 in the high half = 0x20_0000), ldunif = sig 2
/// (0x40_0000); ldtmu = sig 4 (0x80_0000) writes the register in the cond field: rf5 →
/// 5<<14 = 0x1_4000.
#[test]
fn v42_signals() {
    check(V42, "nop ; nop ; thrsw", 0x3c20_3186_bb80_0000);
    check(V42, "nop ; nop ; ldunif", 0x3c40_3186_bb80_0000);
    check(V42, "nop ; nop ; ldtmu.rf5", 0x3c81_7186_bb80_0000);
}

/// add tmua, rf1, r2 ; nop — a TMU address write: ma 1, waddr_a 12; add_a = port A (6)
/// with raddr_a 1, add_b = r2.
/// high: 0x3c00_0000 | 0x2000 | 0x1000 | 0x180 | 12 = 0x3c00_318c;
/// low: 0x3800_0000 | 0x80_0000 | 2<<15 = 0x1_0000 | 6<<12 = 0x6000 | 1<<6 = 0x40.
#[test]
fn v42_tmu_write() {
    check(V42, "add tmua, rf1, r2 ; nop", 0x3c00_318c_3881_6040);
}

/// b.anya rel -32: offset 0xffff_ffe0; bits 23:3 = 0x1f_fffc at 55:35 → high half
/// 0x1f_fffc<<3 = 0xff_ffe0; cond anya = 6 at 34:32; offset bits 31:24 = 0xff at 31:24;
/// bdi rel = 1 at 13:12; bits 57:56 = 10 → high 0x0200_0000.
/// high: 0x0200_0000 | 0xff_ffe0 | 6 = 0x02ff_ffe6; low: 0xff00_0000 | 0x1000.
#[test]
fn branches_both_versions() {
    for v in [V42, V71] {
        check(v, "b.anya rel -32", 0x02ff_ffe6_ff00_1000);
        // b always, absolute 0x100: offset bits 23:3 = 0x20 → high 0x20<<3 = 0x100; bdi 0.
        check(v, "b abs 0x100", 0x0200_0100_0000_0000);
        // Set-link is bit 23 (py-videocore7 `Branch.pack`): low half + 0x80_0000.
        check(v, "b.anya rel -32, link", 0x02ff_ffe6_ff80_1000);
        // py-videocore7 writes bdu = 1 even without ub: bits 17:15 = 1 → low + 0x8000.
        check(v, "b.anya rel -32, bdu 1", 0x02ff_ffe6_ff00_9000);
    }
}

/// A label: the branch on line 2 (index 1) back to index 0 lands 0 − (1 + 4) = −5
/// instructions away, −40 bytes.
#[test]
fn branch_to_label() {
    let prog = v3d::assemble(V42, "top: nop ; nop\nb.na0 top\n").unwrap();
    let rel = v3d::assemble(V42, "b.na0 rel -40").unwrap();
    assert_eq!(prog[1], rel[0]);
}

/// `disasm::program` writes relative branch targets inside the program as labels, and the
/// listing assembles back to the same words.
#[test]
fn program_listing_uses_labels() {
    for v in [V42, V71] {
        let src = "nop ; nop\ntop: nop ; nop ; thrsw\nb.anya top\nb.na0 end\nnop ; nop\nend:\n";
        let instrs = v3d::assemble(v, src).unwrap();
        let text = disasm::program(v, &instrs);
        assert_eq!(
            text,
            "nop ; nop\nL1:\nnop ; nop ; thrsw\nb.anya L1\nb.na0 L5\nnop ; nop\nL5:\n"
        );
        assert_eq!(v3d::assemble(v, &text).unwrap(), instrs);
    }
}

/// 4.2 rot (sig 23 = 23<<21 = 0x02e0_0000 in the high half) takes its amount in raddr_b
/// as a small-immediate index, 0 meaning "by r5" (py-videocore6 `ALURaddrs.pack`).
/// nop ; mov rf1, r0 ; rot.3 — mul mov is op 15 with mux_b 7, mux_a = r0; raddr_b = 3.
/// high 0x3c00_0000 | 0x02e0_0000 | ma 0x1000 | waddr_m 1<<6 | 6 = 0x3ee0_1046;
/// low 0xbb00_0000 | 7<<21 = 0xe0_0000 | 3 = 0xbbe0_0003. rot.-1: index 31 → low …1f.
#[test]
fn v42_rotate() {
    check(V42, "nop ; mov rf1, r0 ; rot.3", 0x3ee0_1046_bbe0_0003);
    check(V42, "nop ; mov rf1, r0 ; rot.-1", 0x3ee0_1046_bbe0_001f);
    check(V42, "nop ; mov rf1, r0 ; rot.r5", 0x3ee0_1046_bbe0_0000);
    for (text, col, needle) in [
        ("nop ; mov rf1, r0 ; rot", 21, "needs an amount"),
        ("nop ; mov rf1, r0 ; rot.0", 25, "rot.r5"),
        ("nop ; mov rf1, 2 ; rot.3", 16, "port B"),
    ] {
        let e = v3d::assemble(V42, text).unwrap_err();
        assert_eq!(e.column, col, "`{text}`: {e}");
        assert!(e.message.contains(needle), "`{text}`: {e}");
    }
    assert!(v3d::assemble(V71, "nop ; nop ; rot.3").is_err());
}

// ---- V3D 7.1 ----

/// nop ; nop on 7.1: op_mul 14 (mul nop needs raddr_d = 63), op_add 187 (raddr_b = 0).
/// high as on 4.2 but 14<<26 = 0x3800_0000 → 0x3800_3186;
/// low: 0xbb00_0000 | 63<<12 = 0x3_f000.
#[test]
fn v71_nop() {
    check(V71, "nop ; nop", 0x3800_3186_bb03_f000);
}

/// add rf1, rf2, rf3 ; nop — raddr_a 2, raddr_b 3; the mul nop keeps raddr_d 63.
/// high 0x3800_2181; low 0x3800_0000 | 0x3_f000 | 2<<6 | 3 = 0x3803_f083.
/// With a small immediate as input a: sig 14 on 7.1 = small-imm a (0x01c0_0000 in the high
/// half), raddr_a = index of 1 = 1 → low 0x3803_f043.
#[test]
fn v71_add_and_small_imm_a() {
    check(V71, "add rf1, rf2, rf3 ; nop", 0x3800_2181_3803_f083);
    check(V71, "add rf1, 1, rf3 ; nop", 0x39c0_2181_3803_f043);
}

/// nop ; fmul rf2, rf3, rf4 — op_mul 21, raddr_c 3, raddr_d 4.
/// high 0x5400_0000 | 0x1000 | 0x80 | 6 = 0x5400_1086; low 0xbb00_0000 | 3<<18 | 4<<12.
/// add.ifa … ; fmul.ifnb …: cond = 0b1_mm_00aa with mm = ifnb (3), aa = ifa (0) → 0x70,
/// 0x70<<14 = 0x1c_0000 in the high half.
#[test]
fn v71_mul_and_both_conditions() {
    check(V71, "nop ; fmul rf2, rf3, rf4", 0x5400_1086_bb0c_4000);
    check(
        V71,
        "add.ifa rf1, rf2, rf3 ; fmul.ifnb rf2, rf3, rf4",
        0x541c_0081_380c_4083,
    );
}

/// nop ; mov rf4, rf7 — 7.1 mul mov is op_mul 14 with raddr_d ∈ {3, 7, 11, 15, 19}
/// (the int unpack in raddr_d bits 4:2: none, ul, uh, il, ih); no unpack is raddr_d = 3.
/// high 0x3800_0000 | 0x1000 | 4<<6 | 6 = 0x3800_1106; low 0xbb00_0000 | 7<<18 | 3<<12.
/// mov rf4, rf7.uh: raddr_d = 2<<2 | 3 = 11 → low 0xbb1c_b000.
/// On the add ALU (op_add 249, unpack in raddr_b), `mov rf1, rf2.il`:
/// ma 0, waddr_a 1, raddr_a 2, raddr_b = 3<<2 | 3 = 15; mul nop keeps raddr_d 63.
/// high 0x3800_2181; low 249<<24 = 0xf900_0000 | 0x3_f000 | 2<<6 | 15 = 0xf903_f08f.
#[test]
fn v71_mov() {
    check(V71, "nop ; mov rf4, rf7", 0x3800_1106_bb1c_3000);
    check(V71, "nop ; mov rf4, rf7.uh", 0x3800_1106_bb1c_b000);
    check(V71, "mov rf1, rf2.il ; nop", 0x3800_2181_f903_f08f);
}

/// 4.2 rounding and conversions: ffloor with pack l is op_add 246, mux_b = 1 (the pack),
/// add_a = r3; input unpack h moves the op to the third copy, 254 (mux_b still the pack).
/// ffloor.l rf30, r3: high 0x3c00_2180 | 30 = 0x3c00_219e; low 246<<24 = 0xf600_0000 |
/// mul_b 4<<21 | add_b 1<<15 = 0x8000 | add_a 3<<12 = 0x3000 → 0xf680_b000.
/// ffloor rf30, r3.h: op 254 = 0xfe, mux_b 0 → low 0xfe80_3000.
/// vfmin with f16 unpack `hh` (code 3) on input a: op_add 176 + 3 = 179 = 0xb3;
/// vfmin rf1, r0.hh, r1: low 0xb380_8000.
#[test]
fn v42_named_modifiers() {
    check(V42, "ffloor.l rf30, r3 ; nop", 0x3c00_219e_f680_b000);
    check(V42, "ffloor rf30, r3.h ; nop", 0x3c00_219e_fe80_3000);
    check(V42, "vfmin rf1, r0.hh, r1 ; nop", 0x3c00_2181_b380_8000);
    // mul fmov.h: opcode 15 with mux_b = unpack code (none = 1), mux_a = r2:
    // high 15<<26 | ma 0x1000 | waddr_m 3<<6 | 6 = 0x3c00_10c6;
    // low 0xbb00_0000 | mul_b 1<<21 = 0x20_0000 | mul_a 2<<18 = 0x8_0000 = 0xbb28_0000.
    // (op 15 with mux_b 0–3 is fmov with pack h; Mesa v3d42_mul_ops.)
    check(V42, "nop ; fmov.h rf3, r2", 0x3c00_10c6_bb28_0000);
    // The model reports the named modifiers.
    let Instruction::Alu(alu) = v3d::decode(V42, 0x3c00_219e_fe80_3000).unwrap() else {
        panic!("not an ALU word")
    };
    assert_eq!(alu.add_named_modifiers(), Some((FloatPack::None, "h")));
    let Instruction::Alu(alu) = v3d::decode(V42, 0x3c00_10c6_bb28_0000).unwrap() else {
        panic!("not an ALU word")
    };
    assert_eq!(alu.mul_named_modifiers(), Some((FloatPack::H, "")));
    assert_eq!(alu.add_named_modifiers(), None);
}

/// 7.1 rounding and conversion ops (py-videocore7 layout: raddr_b = op group | unpack<<2 |
/// pack): ffloor.l rf1, rf2.h → op_add 245, raddr_b = 32 + 3·4 + 1 = 45, raddr_a 2;
/// high 0x3800_2181; low 0xf500_0000 | 0x3_f000 | 2<<6 | 45 = 0xf503_f0ad.
/// ftoiz rf1, rf2 → raddr_b = 19 + 1·4 (unpack none) = 23 → low 0xf503_f097.
#[test]
fn v71_rounding_and_conversion() {
    check(V71, "ffloor.l rf1, rf2.h ; nop", 0x3800_2181_f503_f0ad);
    check(V71, "ftoiz rf1, rf2 ; nop", 0x3800_2181_f503_f097);
}

/// 7.1 signals: thrsw (sig 1), ldtmu.rf5 (sig 4, cond 5), and ldtmu + wrtmuc = sig 26,
/// which only the 7.1 table has (26<<21 = 0x0340_0000 in the high half).
#[test]
fn v71_signals() {
    check(V71, "nop ; nop ; thrsw", 0x3820_3186_bb03_f000);
    check(V71, "nop ; nop ; ldtmu.rf5", 0x3881_7186_bb03_f000);
    check(V71, "nop ; nop ; ldtmu.rf5, wrtmuc", 0x3b41_7186_bb03_f000);
    let e = v3d::assemble(V42, "nop ; nop ; ldtmu.rf5, wrtmuc").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1), "{e}");
    assert!(e.to_string().contains("signal"), "{e}");
}

/// or tmua, rf1, rf1 ; nop on 7.1 — op_add 182, ma 1, waddr_a 12, raddr_a = raddr_b = 1.
/// high 0x3800_318c; low 0xb600_0000 | 0x3_f000 | 1<<6 | 1 = 0xb603_f041.
#[test]
fn v71_tmu_write() {
    check(V71, "or tmua, rf1, rf1 ; nop", 0x3800_318c_b603_f041);
}

// ---- errors ----

#[test]
fn decode_errors_name_the_field() {
    let e = v3d::decode(V42, 0).unwrap_err();
    assert!(e.to_string().contains("op_mul"), "{e}");
    // Signal code 26 is reserved on 4.2 (ldtmu + wrtmuc on 7.1).
    let e = v3d::decode(V42, 0x3c00_3186_bb80_0000 | 26 << 53).unwrap_err();
    assert!(e.to_string().contains("sig"), "{e}");
    assert!(v3d::decode(V71, 0x3800_3186_bb03_f000 | 26 << 53).is_ok());
    // Cond value 16 has no meaning.
    let e = v3d::decode(V42, 0x3c00_3186_bb80_0000 | 16 << 46).unwrap_err();
    assert!(e.to_string().contains("cond"), "{e}");
    // Small-immediate index 50 does not exist.
    let e = v3d::decode(V42, 0x55e0_1086_bbf8_00c0 | 50).unwrap_err();
    assert!(e.to_string().contains("raddr_b"), "{e}");
    // Add opcode 190 is not an operation on 4.2 (stvpm on 7.1, with waddr_a ≤ 2).
    let e = v3d::decode(V42, 0x3c00_3186_0080_0000 | 190 << 24).unwrap_err();
    assert!(e.to_string().contains("add opcode 190"), "{e}");
}

#[test]
fn assembler_errors_name_line_and_column() {
    let cases: &[(V3dVersion, &str, (usize, usize), &str)] = &[
        (V42, "nop ; nop\nadd rf1 ; nop", (2, 1), "source"),
        (V71, "add rf1, r0, rf2 ; nop", (1, 10), "no accumulators"),
        (V42, "nop ; nop ; ldtmu", (1, 13), "writes a register"),
        (V42, "nop ; nop ; frobnicate", (1, 13), "unknown signal"),
        (V42, "faddnf rf1, r0, r0 ; nop", (1, 1), "either order"),
        (V42, "rf3: nop ; nop", (1, 1), "not a label"),
        (
            V42,
            "add rf1, rf2, rf3 ; add rf4, rf5, r0",
            (1, 30),
            "two register-file",
        ),
        (
            V42,
            "add.ifa.ifb rf1, r0, r1 ; nop",
            (1, 9),
            "two conditions",
        ),
        (V42, "add rf1, r0, 99 ; nop", (1, 14), "small immediate"),
        (V42, "nop", (1, 4), "`;`"),
        (V42, "b.anya nowhere", (1, 8), "unknown label"),
        (V42, ".inst 0x0", (1, 7), "op_mul"),
        (V42, "nop ; nop $", (1, 11), "unexpected character"),
    ];
    for &(v, text, (line, column), needle) in cases {
        let e = v3d::assemble(v, text).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "`{text}`: {e}");
        assert!(e.message.contains(needle), "`{text}`: {e}");
    }
}

/// `AluInstruction::input` resolves each input's mux (4.2) or read address (7.1) and the
/// small-immediate signals, on the instructions checked against Mesa's words above.
#[test]
fn input_sources_follow_muxes_and_small_immediate_signals() {
    use v3d::InputSource::{Acc, Rf, SmallImm};
    let alu = |version, text| match v3d::assemble(version, text).unwrap()[..] {
        [v3d::Instruction::Alu(a)] => a,
        ref other => panic!("{other:?}"),
    };
    let sources = |a: v3d::AluInstruction| [0, 1, 2, 3].map(|n| a.input(n));
    // 4.2: add r0, r1; mul rf3 (port A), 2.0 (port B as small immediate index 41).
    let a = alu(V42, "add rf1, r0, r1 ; nop");
    assert_eq!(sources(a)[..2], [Acc(0), Acc(1)]);
    let m = alu(V42, "nop ; fmul rf2, rf3, 2.0");
    assert_eq!(sources(m)[2..], [Rf(3), SmallImm(41)]);
    // 7.1: one read address per input, a small immediate where its own signal says so.
    assert_eq!(
        sources(alu(V71, "add rf1, rf2, rf3 ; nop"))[..2],
        [Rf(2), Rf(3)]
    );
    let s = sources(alu(V71, "add rf1, 1, rf3 ; nop"));
    assert!(matches!(s[0], SmallImm(_)) && s[1] == Rf(3), "{s:?}");
    assert_eq!(
        sources(alu(V71, "nop ; fmul rf2, rf3, rf4"))[2..],
        [Rf(3), Rf(4)]
    );
}
