//! Property tests for the V3D model: binary round trips over arbitrary words, text round
//! trips over generated canonical instructions, and "never panics" checks for the decoder,
//! disassembler and assembler on arbitrary input.

use proptest::prelude::*;
use qpu_isa::v3d::{self, asm, disasm, ops, Signal, Signals, V3dVersion, Waddr};

fn version() -> impl Strategy<Value = V3dVersion> {
    prop_oneof![Just(V3dVersion::V42), Just(V3dVersion::V71)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// decode never panics; whatever it accepts encodes back to the same word, and the
    /// disassembler's text assembles back to that word too.
    #[test]
    fn words_round_trip(v in version(), word in any::<u64>()) {
        if let Ok(instr) = v3d::decode(v, word) {
            prop_assert_eq!(v3d::encode(v, &instr), Ok(word));
            let text = disasm::instruction(v, &instr);
            let back = v3d::assemble(v, &text)
                .map_err(|e| TestCaseError::fail(format!("`{text}`: {e}")))?;
            prop_assert_eq!(back.len(), 1);
            prop_assert_eq!(v3d::encode(v, &back[0]), Ok(word), "text `{}`", text);
        }
        // The word-list disassembler covers undecodable words too.
        let listing = disasm::words(v, &[word]);
        prop_assert_eq!(listing.lines().count(), 1);
    }

    /// Words built from valid field values (ALU words with op_mul ≠ 0 and a defined
    /// signal code, and branch words) round-trip the same way; this reaches the decoder's
    /// acceptance paths far more often than uniform words.
    #[test]
    fn structured_words_round_trip(
        v in version(),
        low in any::<u64>(),
        op_mul in 1u64..64,
        sig in 0u64..32,
        branch in any::<bool>(),
    ) {
        let word = if branch {
            (0b10 << 56) | (low & 0x00ff_ffff_ffff_ffc0 & !(0b111 << 18))
        } else {
            (op_mul << 58) | (sig << 53) | (low & ((1 << 53) - 1))
        };
        if let Ok(instr) = v3d::decode(v, word) {
            prop_assert_eq!(v3d::encode(v, &instr), Ok(word));
            let text = disasm::instruction(v, &instr);
            let back = v3d::assemble(v, &text)
                .map_err(|e| TestCaseError::fail(format!("`{text}`: {e}")))?;
            prop_assert_eq!(v3d::encode(v, &back[0]), Ok(word), "text `{}`", text);
        }
    }

    /// Canonical instructions written as text assemble, and disassemble to exactly the same
    /// text (so the natural syntax, not `.inst`, covers them).
    #[test]
    fn canonical_text_round_trips(v in version(), seed in proptest::collection::vec(any::<u32>(), 48)) {
        let text = generate(v, &mut Pick(seed, 0));
        let parsed = v3d::assemble(v, &text);
        // A few generated combinations are not encodable (faddnf with equal inputs, stvpm
        // with a destination above 2, a pack an op lacks): skip those.
        prop_assume!(parsed.is_ok());
        let instrs = parsed.unwrap_or_default();
        prop_assert_eq!(instrs.len(), 1);
        let back = disasm::instruction(v, &instrs[0]);
        if back != text {
            // The assembler swaps the inputs of fadd/faddnf/fmin/fmax when their order
            // selects the partner op; the text then comes back swapped, same word.
            let swappable = ["fadd ", "fadd.", "faddnf", "fmin", "fmax"]
                .iter()
                .any(|p| text.starts_with(p));
            prop_assert!(swappable, "`{}` came back as `{}`", text, back);
            prop_assert!(!back.starts_with(".inst"), "`{}`", back);
            let again = v3d::assemble(v, &back).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(again, instrs);
        }
    }

    /// Whole programs (with relative branches landing inside, written as labels) list and
    /// assemble back to the same words.
    #[test]
    fn programs_round_trip(
        v in version(),
        picks in proptest::collection::vec((any::<bool>(), any::<u64>(), -6i32..6, 0u64..8), 1..12),
    ) {
        let words: Vec<u64> = picks
            .iter()
            .map(|&(branch, low, delta, cond)| {
                if branch {
                    let offset = (delta * 8) as u32 as u64;
                    let c = if cond == 1 { 0 } else { cond };
                    (0b10 << 56) | ((offset & 0xff_fff8) >> 3) << 35 | (offset >> 24) << 24
                        | c << 32 | 1 << 12
                } else {
                    (15 << 58) | (low & ((1 << 58) - 1))
                }
            })
            .collect();
        let instrs: Vec<_> = words.iter().filter_map(|&w| v3d::decode(v, w).ok()).collect();
        let text = disasm::program(v, &instrs);
        let back = v3d::assemble(v, &text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, instrs, "{}", text);
    }

    /// The assembler never panics: arbitrary text gives instructions or a positioned error.
    #[test]
    fn assembler_never_panics(v in version(), text in "[a-z0-9 .,;:#_\\-\\n]{0,60}") {
        if let Err(e) = v3d::assemble(v, &text) {
            prop_assert!(e.line >= 1 && e.column >= 1);
        }
    }

    /// Mutations of valid text (a character replaced) never panic either.
    #[test]
    fn assembler_survives_mutations(
        v in version(),
        pos in 0usize..64,
        c in proptest::char::range(' ', '~'),
    ) {
        let base = "fadd.l.pushz rf1, r0.abs, 2.0 ; fmul.ifa rf2, rf3, rf4 ; thrsw, ldtmu.rf5";
        let mut chars: Vec<char> = base.chars().collect();
        let i = pos % chars.len();
        chars[i] = c;
        let text: String = chars.into_iter().collect();
        let _ = v3d::assemble(v, &text);
    }
}

/// A deterministic sanity check that the properties above are not vacuous: a fixed stream
/// of pseudo-random field-shaped words decodes at a substantial rate on both versions.
#[test]
fn structured_words_mostly_decode() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for v in V3dVersion::ALL {
        let mut ok = 0;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let op_mul = 1 + (x >> 58) % 63;
            let word = (op_mul << 58) | (x & ((1 << 58) - 1));
            if v3d::decode(v, word).is_ok() {
                ok += 1;
            }
        }
        assert!(ok > 3_000, "{v:?}: only {ok} of 10000 decode");
    }
}

/// Pulls numbers from the proptest-provided seed.
struct Pick(Vec<u32>, usize);

impl Pick {
    fn next(&mut self, n: usize) -> usize {
        let v = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        v as usize % n.max(1)
    }
    fn chance(&mut self, num: usize, den: usize) -> bool {
        self.next(den) < num
    }
}

fn imm_text(index: u8) -> String {
    match index {
        0..=15 => index.to_string(),
        16..=31 => (i32::from(index) - 32).to_string(),
        _ => format!("{:?}", 2f32.powi(i32::from(index) - 40)),
    }
}

fn dest(v: V3dVersion, p: &mut Pick) -> String {
    if p.chance(1, 2) {
        format!("rf{}", p.next(64))
    } else {
        let i = p.next(64) as u8;
        let w = Waddr::magic(i).unwrap_or(Waddr::NOP);
        if w == Waddr::NOP {
            "rf0".to_string()
        } else {
            w.name(v)
        }
    }
}

const CONDS: [&str; 4] = ["ifa", "ifb", "ifna", "ifnb"];
const PUSHES: [&str; 3] = ["pushz", "pushn", "pushc"];
const UPDATES: [&str; 12] = [
    "andz", "andnz", "nornz", "norz", "andn", "andnn", "nornn", "norn", "andc", "andnc", "nornc",
    "norc",
];

/// Name, number of encodings, float layout, and arity per encoding of a generated op.
type OpInfo = (
    &'static str,
    usize,
    bool,
    Option<(u8, &'static [&'static str])>,
    Box<dyn Fn(u8) -> u8>,
);

/// One canonical instruction's text.
fn generate(v: V3dVersion, p: &mut Pick) -> String {
    // Signals: any table entry without a small-immediate signal (those are implied by
    // literals).
    let signals = loop {
        let code = p.next(32) as u8;
        if let Some(s) = Signals::decode(v, code) {
            if !s.iter().any(|s| {
                matches!(
                    s,
                    Signal::SmallImmA | Signal::SmallImmB | Signal::SmallImmC | Signal::SmallImmD
                )
            }) {
                break s;
            }
        }
    };
    // Flags: one of the expressible patterns (none when a signal writes a register).
    let mut add_flags: Vec<String> = Vec::new();
    let mut mul_flags: Vec<String> = Vec::new();
    if !signals.writes_address() {
        let c = |p: &mut Pick| CONDS[p.next(4)].to_string();
        let pf = |p: &mut Pick| PUSHES[p.next(3)].to_string();
        let uf = |p: &mut Pick| UPDATES[p.next(12)].to_string();
        match p.next(11) {
            0 => {}
            1 => add_flags.push(pf(p)),
            2 => add_flags.push(uf(p)),
            3 => mul_flags.push(pf(p)),
            4 => mul_flags.push(uf(p)),
            5 => add_flags.push(c(p)),
            6 => {
                add_flags.push(c(p));
                mul_flags.push(pf(p));
            }
            7 => mul_flags.push(c(p)),
            8 => {
                mul_flags.push(c(p));
                add_flags.push(pf(p));
            }
            9 => {
                add_flags.push(c(p));
                mul_flags.push(c(p));
            }
            _ => {
                mul_flags.push(c(p));
                add_flags.push(uf(p));
            }
        }
    }
    // Sources: on 4.2 at most two register-file values (or one and a small immediate).
    let rf_p = p.next(64);
    let rf_q = p.next(64);
    let imm = p.next(48) as u8;
    let use_imm = p.chance(1, 3);
    let imm_slot = p.next(4);
    let source = |p: &mut Pick, slot: usize| -> String {
        match v {
            V3dVersion::V42 => match p.next(3) {
                0 => format!("r{}", p.next(6)),
                1 => format!("rf{rf_p}"),
                _ if use_imm => imm_text(imm),
                _ => format!("rf{rf_q}"),
            },
            V3dVersion::V71 => {
                if use_imm && slot == imm_slot {
                    imm_text(imm)
                } else {
                    format!("rf{}", p.next(64))
                }
            }
        }
    };

    let add_ops: Vec<_> = asm::all_add_ops()
        .iter()
        .copied()
        .filter(|&op| ops::add_variants(v, op) > 0)
        .collect();
    let mul_ops: Vec<_> = asm::all_mul_ops()
        .iter()
        .copied()
        .filter(|&op| ops::mul_variants(v, op) > 0)
        .collect();

    let mut parts = Vec::new();
    for mul in [false, true] {
        let (name, variants, float, named, arity_of): OpInfo = if mul {
            let op = mul_ops[p.next(mul_ops.len())];
            (
                disasm::mul_op_name(op),
                ops::mul_variants(v, op),
                op == v3d::MulOp::Fmul,
                ops::mul_modifier_names(v, op),
                Box::new(move |var| ops::mul_arity(v, op, var).unwrap_or(0)),
            )
        } else {
            let op = add_ops[p.next(add_ops.len())];
            (
                disasm::add_op_name(op),
                ops::add_variants(v, op),
                matches!(
                    op,
                    v3d::AddOp::Fadd
                        | v3d::AddOp::Faddnf
                        | v3d::AddOp::Fsub
                        | v3d::AddOp::Fmin
                        | v3d::AddOp::Fmax
                        | v3d::AddOp::Fcmp
                        | v3d::AddOp::Vfpack
                ),
                ops::add_modifier_names(v, op),
                Box::new(move |var| ops::add_arity(v, op, var).unwrap_or(0)),
            )
        };
        let mut text = name.to_string();
        let mut variant = 0u8;
        let mut a_unpack = "";
        if float {
            text.push_str(["", "", ".l", ".h"][p.next(4)]);
        } else if let Some((packs, unpacks)) = named {
            text.push_str(["", ".l", ".h"][p.next(usize::from(packs))]);
            a_unpack = unpacks[p.next(unpacks.len())];
        } else if variants > 1 {
            variant = p.next(variants) as u8;
            text.push_str(&format!(".v{variant}"));
        }
        for f in if mul { &mul_flags } else { &add_flags } {
            text.push('.');
            text.push_str(f);
        }
        let mut operands = Vec::new();
        if p.chance(3, 4) {
            operands.push(dest(v, p));
        }
        for i in 0..usize::from(arity_of(variant)) {
            let mut s = source(p, usize::from(mul) * 2 + i);
            if float {
                s.push_str(["", "", ".abs", ".l", ".h"][p.next(5)]);
            } else if i == 0 && !a_unpack.is_empty() {
                s.push('.');
                s.push_str(a_unpack);
            }
            operands.push(s);
        }
        if !operands.is_empty() {
            text.push(' ');
            text.push_str(&operands.join(", "));
        }
        parts.push(text);
    }
    let sigs: Vec<String> = signals
        .iter()
        .map(|s| {
            if s.writes_address() {
                format!("{}.{}", s.name(), dest(v, p))
            } else if s == Signal::Rot {
                // The 4.2 rot amount takes port B (so some generated texts are rejected).
                match p.next(16) {
                    0 => "rot.r5".to_string(),
                    n => format!(
                        "rot.{}",
                        imm_text(if n < 8 { n as u8 } else { 16 + n as u8 })
                    ),
                }
            } else {
                s.name().to_string()
            }
        })
        .collect();
    let mut text = parts.join(" ; ");
    if !sigs.is_empty() {
        text.push_str(" ; ");
        text.push_str(&sigs.join(", "));
    }
    text
}

mod model {
    use super::*;
    use v3d::{
        Alu, AluInstruction, Branch, BranchCond, BranchDest, Cond, CondField, Flags, Inputs,
        Instruction, Mux, PushFlag, UpdateFlag,
    };

    fn opt<T: Copy + std::fmt::Debug + 'static>(
        all: &'static [T],
    ) -> impl Strategy<Value = Option<T>> {
        prop_oneof![Just(None), proptest::sample::select(all).prop_map(Some)]
    }

    fn flags() -> impl Strategy<Value = Flags> {
        (
            opt(&Cond::ALL),
            opt(&Cond::ALL),
            opt(&PushFlag::ALL),
            opt(&PushFlag::ALL),
            opt(&UpdateFlag::ALL),
            opt(&UpdateFlag::ALL),
        )
            .prop_map(|(ac, mc, apf, mpf, auf, muf)| Flags {
                ac,
                mc,
                apf,
                mpf,
                auf,
                muf,
            })
    }

    fn waddr() -> impl Strategy<Value = Waddr> {
        (any::<bool>(), 0u8..64).prop_map(|(m, i)| Waddr::new(m, i).unwrap_or(Waddr::NOP))
    }

    fn mux() -> impl Strategy<Value = Mux> {
        prop_oneof![(0u8..8).prop_map(Mux::Acc), Just(Mux::A), Just(Mux::B)]
    }

    fn inputs() -> impl Strategy<Value = Inputs> {
        prop_oneof![
            (mux(), mux(), mux(), mux(), 0u8..66, 0u8..66).prop_map(
                |(add_a, add_b, mul_a, mul_b, raddr_a, raddr_b)| Inputs::V42 {
                    add_a,
                    add_b,
                    mul_a,
                    mul_b,
                    raddr_a,
                    raddr_b
                }
            ),
            (0u8..66, 0u8..66, 0u8..66, 0u8..66).prop_map(
                |(raddr_a, raddr_b, raddr_c, raddr_d)| {
                    Inputs::V71 {
                        raddr_a,
                        raddr_b,
                        raddr_c,
                        raddr_d,
                    }
                }
            ),
        ]
    }

    fn alu() -> impl Strategy<Value = Instruction> {
        (
            prop_oneof![
                // A set from either version's table (so sometimes the other version's).
                (any::<bool>(), 0u8..32).prop_map(|(v71, code)| {
                    let v = if v71 {
                        V3dVersion::V71
                    } else {
                        V3dVersion::V42
                    };
                    Signals::decode(v, code).unwrap_or(Signals::NONE)
                }),
                proptest::collection::vec(proptest::sample::select(&Signal::ALL[..]), 0..3)
                    .prop_map(|sigs| sigs.into_iter().fold(Signals::NONE, Signals::with)),
            ],
            prop_oneof![
                flags().prop_map(CondField::Flags),
                waddr().prop_map(CondField::SigAddr)
            ],
            (
                proptest::sample::select(asm::all_add_ops()),
                0u8..24,
                waddr(),
            ),
            (
                proptest::sample::select(asm::all_mul_ops()),
                0u8..14,
                waddr(),
            ),
            inputs(),
        )
            .prop_map(|(signals, cond, (aop, av, aw), (mop, mv, mw), inputs)| {
                Instruction::Alu(AluInstruction {
                    signals,
                    cond,
                    add: Alu {
                        op: aop,
                        variant: av,
                        waddr: aw,
                    },
                    mul: Alu {
                        op: mop,
                        variant: mv,
                        waddr: mw,
                    },
                    inputs,
                })
            })
    }

    fn branch() -> impl Strategy<Value = Instruction> {
        (
            proptest::sample::select(&BranchCond::ALL[..]),
            0u8..4,
            proptest::sample::select(&BranchDest::ALL[..]),
            any::<bool>(),
            0u8..9,
            0u8..66,
            prop_oneof![any::<u32>().prop_map(|o| o & !7), any::<u32>()],
            any::<bool>(),
        )
            .prop_map(|(cond, msfign, bdi, ub, bdu, raddr_a, offset, link)| {
                Instruction::Branch(Branch {
                    cond,
                    msfign,
                    bdi,
                    ub,
                    bdu,
                    raddr_a,
                    offset,
                    link,
                })
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Encoding an arbitrary model never panics, and whatever it encodes is a word the
        /// decoder accepts and re-encodes identically (no "write-only" words).
        #[test]
        fn encode_gives_only_decodable_words(v in version(), i in prop_oneof![alu(), branch()]) {
            if let Ok(word) = v3d::encode(v, &i) {
                let back = v3d::decode(v, word)
                    .map_err(|e| TestCaseError::fail(format!("{word:#018x} from {i:?}: {e}")))?;
                prop_assert_eq!(v3d::encode(v, &back), Ok(word));
            }
        }
    }
}
