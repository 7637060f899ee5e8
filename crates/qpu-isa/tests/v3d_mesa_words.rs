//! Cross-check against independent evidence: the instruction words in Mesa's
//! `src/broadcom/qpu/tests/qpu_disasm.c` together with the meaning Mesa's disassembler gives
//! them (op names, packs/unpacks, flags, signals, destinations). The expected strings are
//! that meaning restated in our syntax (see `qpu_isa::v3d::disasm`); the translations were
//! checked by hand against Mesa's expected text, e.g. Mesa `fmul rf23.l, r3, r3.abs` is our
//! `fmul.l rf23, r3, r3.abs` (pack written on the op, also for `ffloor`/`fdx`), Mesa
//! `b.anyap` is `b.anya.msfp`,
//! Mesa `bu.anynaq lri, r:unif` is `b.anyna.msfq lri, ub, bdu 1` and Mesa
//! `stvpmv 1, rf8` is `stvpm rf0, 1, rf8` (waddr 0 selects the "v" form).
//!
//! Mesa's table marks most words as version 3.3 or 4.1; we use only words whose fields mean
//! the same on 4.2 (none uses a signal that differs between 3.3 and 4.2) and decode them as
//! 4.2. Every word must also re-encode to itself.

use qpu_isa::v3d::{self, disasm, V3dVersion};

#[test]
fn mesa_disasm_test_words_decode_to_the_same_meaning() {
    let cases: &[(u64, &str)] = &[
        (
            0x1f010520cf60a000,
            "fcmp.andz rf32, r2.h, r1.h ; vfmul rf20, r0.hh, r3 ; ldunifa",
        ),
        (
            0x932045e6c16ea000,
            "fcmp rf38, r2.abs, r5 ; fmul.l rf23, r3, r3.abs ; ldunifarf.rf1",
        ),
        (
            0xd72f0434e43ae5c0,
            "fcmp.h rf52, rf23, r5.abs ; fmul.h rf16, rf23, r1 ; ldunifarf.rf60",
        ),
        (
            0xdb3048eb9d533780,
            "fmax.l rf43, r3.h, rf30 ; fmul.h rf35, r4, r2.l ; ldunifarf.r1",
        ),
        (
            0x733620471e6ce700,
            "faddnf.l rf7, rf28.h, r1.l ; fmul r1, r3.h, r3.abs ; ldunifarf.rsqrt2",
        ),
        (
            0x9c094adef634b000,
            "ffloor.l.ifb rf30, r3 ; fmul.l.pushz rf43, r5, r1.h",
        ),
        (0x3de020c7bdfd200d, "ldvpmg rf7, r2, r2 ; mov r3, 13"),
        (0x3de02040f8ff7201, "stvpm rf0, 1, rf8 ; mov r1, 1"),
        (0xd8000e50bb2d3000, "sampid rf16 ; fmul.h rf57, r3, r1.l"),
        (
            0xe98d60c1ba2aef80,
            "recip rf1, rf62 ; fmul.h r3, r2.l, r1.l ; ldunifrf.rf53",
        ),
        (
            0x7d87c2debc51c000,
            "rsqrt rf30, r4 ; fmul rf11, r4.h, r2.h ; ldunifrf.rf31",
        ),
        (
            0xb182475abc2bb000,
            "rsqrt2 rf26, r3 ; fmul.l rf29, r2.h, r1.abs ; ldunifrf.rf9",
        ),
        (
            0x79880808bc0b6900,
            "sin rf8, rf36 ; fmul rf32, r2.h, r0.l ; ldunifrf.rf32",
        ),
        (0x04092094bc5a28c0, "exp.ifb rf20, r2 ; add r2, rf35, r2"),
        (
            0xe00648bfbc32a000,
            "log rf63, r2 ; fmul.h.andnn rf34, r4.l, r1.abs",
        ),
        (0x3c203192bb814000, "barrierid syncb ; nop ; thrsw"),
        (0x02000006002034c0, "b.anya.msfp rf19"),
        (0x02679356b4201000, "b.anya.msfp rel -1268280496"),
        (0x02b76a2dd0400000, "b.anyna.msfq abs 0xd0b76a28"),
        (0x0200000500402000, "b.anyna.msfq lri"),
        (
            0x0216fe167301c8c0,
            "b.anya abs 0x7316fe10, ub, bdu 3, raddr_a 35",
        ),
        (0x020000050040e000, "b.anyna.msfq lri, ub, bdu 1"),
        (0x0200000300006000, "b.na0 lri, ub"),
        (0x3c20318105829000, "fadd r1, r1, r5 ; nop ; thrsw"),
        (0x3c002380b6edb000, "or rf0, r3, r3 ; mov vpm, r3"),
        (
            0x101e8b6e8aad4000,
            "fmax.nornn rf46, r4.l, r2.l ; vfmul.ifnb rf45, r3, r5",
        ),
        (
            0x1857d3c219825000,
            "faddnf.l.norc r2, r5.l, r4 ; vfmul.ifb rf15, r0.ll, r4 ; ldunif",
        ),
        (
            0x1c0a0dfde2294000,
            "fcmp.h.ifna rf61, r4.abs, r2.l ; vfmul rf55, r2.hh, r1",
        ),
        (
            0x2011c89b402cc000,
            "fsub.norz rf27, r4.abs, r1.abs ; vfmul.ifa rf34, r3.swp, r1",
        ),
        (
            0xe01b42ab3bb063c0,
            "vfpack.andnc rf43, rf15.l, r0.h ; fmul.h.ifna rf10, r4.l, r5.abs",
        ),
        (
            0x600b8b87fb4d1000,
            "fdx.h.ifnb rf7, r1.l ; fmul.pushn rf46, r3.l, r2.abs",
        ),
        (0x5de24398bbdc6218, "vflb.andnn rf24 ; fmul rf14, -8, rf8.h"),
        (
            0x25ef83d8b166f00f,
            "vfmin.pushn rf24, 15.ff, r5 ; smul24.ifnb rf15, r1, r3",
        ),
        (
            0xadedcdf70839f990,
            "faddnf.pushc rf55, -16.l, r3.abs ; fmul.l.ifb rf55, rf38.l, r1.h",
        ),
        (
            0x7dff89fa6a01f020,
            "fsub.h.nornc rf58, 0.00390625.l, r3.l ; fmul.ifnb rf39, r0.h, r0.h",
        ),
        (0x3c00318735808000, "vfpack tlb, r0, r1 ; nop"),
        (
            0xe0571c938e8d5000,
            "fmax.andc recip, r5.h, r2.l ; fmul.h.ifb rf50, r3.l, r4.abs ; ldunif",
        ),
        (
            0xc04098d4382c9000,
            "add.pushn rsqrt, r1, r1 ; fmul.h rf35, r3.abs, r1.abs ; ldunif",
        ),
        (
            0x481edcd6b3184500,
            "vfmin.norn log, r4.hh, r0 ; fmul.ifnb rf51, rf20.abs, r0.l",
        ),
        (
            0x041618d57c453000,
            "shl.andn exp, r3, r2 ; add.ifb rf35, r1, r2",
        ),
        (
            0x7048e5da49272800,
            "fsub.ifa rf26, r2.l, rf32 ; fmul.pushc sin, r1.h, r1.abs ; ldunif",
        ),
    ];
    for &(word, text) in cases {
        let instr =
            v3d::decode(V3dVersion::V42, word).unwrap_or_else(|e| panic!("{word:#018x}: {e}"));
        assert_eq!(
            disasm::instruction(V3dVersion::V42, &instr),
            text,
            "{word:#018x}"
        );
        assert_eq!(v3d::encode(V3dVersion::V42, &instr), Ok(word));
    }
}
