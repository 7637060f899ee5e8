//! Property test: every executor path chosen at decode time (plain ALU, load immediate,
//! branch, I/O) must leave exactly the machine state the general path leaves. Random
//! instruction shapes run twice, once as decoded and once with every instruction forced
//! onto the general path; the run results (report or error text), the full state of every
//! QPU, the VPM and a data buffer the TMU reads must be identical.

use std::cell::RefCell;

use proptest::prelude::*;

use super::{Qpu, State};
use crate::vc4::config::{Ambiguities, BranchRegisterLane, EmulatorConfig, FlagsRule};
use crate::vc4::decode::{rows, Decoded, Dest};
use crate::vc4::Emulator;

thread_local! {
    /// The final state of every QPU of the last run on this thread.
    static LAST: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// Instructions run on [`super::Path::Io`] on this thread.
    static IO_RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Instructions run in blocks by `run_plain` on this thread.
    static BLOCK_RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Called for every instruction `execute_io` runs (tests only).
pub(super) fn note_io() {
    IO_RUNS.with(|n| n.set(n.get() + 1));
}

/// Called for every block of instructions `run_plain` runs as one (tests only).
pub(super) fn note_block(len: u64) {
    BLOCK_RUNS.with(|n| n.set(n.get() + len));
}

/// Called at the end of every run (tests only).
pub(super) fn record(qpus: &[Qpu]) {
    LAST.with(|last| *last.borrow_mut() = qpus.iter().map(state).collect());
}

/// Everything a QPU carries from one instruction to the next. Left out: the sink row (the
/// fast path writes results meant for nowhere there; nothing reads it) and the scratch
/// result/carry arrays (per-instruction temporaries).
fn state(q: &Qpu) -> String {
    let rows_but_sink: Vec<_> = (0..rows::COUNT)
        .filter(|&r| r != rows::SINK)
        .map(|r| (q.file[r], q.poison[r]))
        .collect();
    format!(
        "qpu {} rows {:?} flags {:?} flag_poison {} poisoned {} pc {:#x} unif {:#x}/{} \
         time {} state {:?} slots {}/{:?}/{}/{} icount {} prev {:#x}/{:#x} sfu {:?} \
         unif_addr {:?} noswap {:?}/{} r4 {} origin {:?}/{:?}/{:?} vpm_undef {} latch {:#x} \
         cond_writes {:?} tmu {} report {:?}",
        q.id,
        rows_but_sink,
        q.flags,
        q.flag_poison,
        q.poisoned,
        q.pc,
        q.uniform_ptr,
        q.uniforms_since_reset,
        q.time,
        q.state == State::Done,
        q.branch_slots,
        q.branch_target,
        q.end_slots,
        q.ending,
        q.icount,
        q.prev_phys_writes,
        q.prev_acc_writes,
        q.last_sfu,
        q.last_uniforms_address,
        q.last_noswap,
        q.noswap,
        q.r4_loaded,
        q.poison_origin,
        q.poison_origin_pc,
        q.poison_origin_address,
        q.vpm_write_undefined,
        q.latch,
        q.cond_writes,
        q.tmu_fifo[0].len() + q.tmu_fifo[1].len(),
        q.report,
    )
}

/// Bus address of a 64 KiB data buffer that TMU lookups can read (uniforms and register
/// 7 of both files point into it).
const DATA: u32 = 0x0100_0000;
const DATA_BYTES: u32 = 1 << 16;

/// Runs `words` on one QPU (uniforms: 64 addresses in the data buffer, counting up in
/// 64-byte steps) with or without the fast paths; returns the result text (with the VPM's
/// rows and the data buffer after the run) and the final QPU state.
fn run(words: &[u64], config: &EmulatorConfig, force_general: bool) -> (String, Vec<String>) {
    run_with(words, config, force_general, false)
}

/// [`run`], and with `always_plain` ignoring the hint that decides where `run_plain`
/// starts (`CodeCache::always_plain`).
fn run_with(
    words: &[u64],
    config: &EmulatorConfig,
    force_general: bool,
    always_plain: bool,
) -> (String, Vec<String>) {
    let mut emu = Emulator::new(config.clone()).unwrap();
    emu.code.force_general = force_general;
    emu.code.always_plain = always_plain;
    emu.memory_mut().alloc_at(DATA, DATA_BYTES).unwrap();
    let pattern: Vec<u32> = (0..DATA_BYTES / 4)
        .map(|i| i.wrapping_mul(0x9e37_79b9))
        .collect();
    emu.memory_mut().write_u32s(DATA, &pattern).unwrap();
    let code = emu.load_program(words).unwrap();
    let uniforms: Vec<u32> = (0..64).map(|i| DATA + 64 * i).collect();
    let uniforms = emu.load_uniforms(&uniforms).unwrap();
    LAST.with(|last| last.borrow_mut().clear());
    let result = match emu.run(&[(uniforms, code)]) {
        Ok(report) => format!("{report:?}"),
        Err(e) => format!("error: {e}"),
    };
    let data = emu.memory().read_u32s(DATA, DATA_BYTES / 4).unwrap();
    let result = format!("{result} vpm {:?} data {data:?}", emu.vpm().rows());
    (result, LAST.with(|last| last.borrow().clone()))
}

/// Write addresses: physical registers 0–7, r0–r3, r5 (37), nop (39); rarely an SFU, a
/// TMU (56, 60), the VPM (48), TMU_NOSWAP (36), the host interrupt (38) or the uniforms
/// address (40).
fn waddr() -> impl Strategy<Value = u64> {
    prop_oneof![
        12 => 0u64..8,
        12 => 32u64..36,
        2 => Just(37u64),
        6 => Just(39u64),
        2 => 52u64..56,
        2 => prop_oneof![Just(56u64), Just(60u64)],
        1 => Just(48u64),
        1 => prop_oneof![Just(36u64), Just(38u64), Just(40u64)],
    ]
}

/// Read addresses: physical registers 0–7, the uniform (32), element number (38), nop (39);
/// rarely a DMA busy (49) or wait (50) register.
fn raddr() -> impl Strategy<Value = u64> {
    prop_oneof![
        16 => 0u64..8,
        2 => Just(32u64),
        2 => Just(38u64),
        2 => Just(39u64),
        1 => Just(49u64),
        1 => Just(50u64),
    ]
}

/// Conditions, mostly always.
fn cond() -> impl Strategy<Value = u64> {
    prop_oneof![3 => Just(1u64), 4 => 0u64..8]
}

/// One ALU instruction word: plain, with small immediates (rotations included), packs,
/// unpacks, conditions and `setf` in every combination.
fn alu_word() -> impl Strategy<Value = u64> {
    (
        (
            any::<bool>(),
            prop_oneof![3 => Just(0u64), 1 => 0u64..8],
            any::<bool>(),
            // No signal, or now and then a TMU load (ldtmu0, ldtmu1).
            prop_oneof![8 => Just(1u64), 1 => Just(10u64), 1 => Just(11u64)],
        ),
        (
            prop_oneof![3 => Just(0u64), 1 => 0u64..16],
            cond(),
            cond(),
            any::<bool>(),
        ),
        (any::<bool>(), waddr(), waddr(), 0u64..8, 0u64..32),
        (
            raddr(),
            raddr(),
            // Small immediates: values, and (48–63) rotations of the mul result.
            prop_oneof![0u64..48, 48u64..64],
            [0u64..8, 0u64..8, 0u64..8, 0u64..8],
        ),
    )
        .prop_map(
            |(
                (small, unpack, pm, sig),
                (pack, ca, cm, sf),
                (ws, wa, wm, om, oa),
                (ra, rb, si, mux),
            )| {
                let sig = if small { 13 } else { sig };
                let rb = if small { si } else { rb };
                // I/O registers take unconditional writes only (a condition is a static
                // fault, which the general path handles): mostly keep them unconditional.
                let io = |w: u64| matches!(w, 36 | 38 | 40..=63);
                let ca = if io(wa) && ca != 0 { 1 } else { ca };
                let cm = if io(wm) && cm != 0 { 1 } else { cm };
                (sig << 60)
                    | (unpack << 57)
                    | (u64::from(pm) << 56)
                    | (pack << 52)
                    | (ca << 49)
                    | (cm << 46)
                    | (u64::from(sf) << 45)
                    | (u64::from(ws) << 44)
                    | (wa << 38)
                    | (wm << 32)
                    | (om << 29)
                    | (oa << 24)
                    | (ra << 18)
                    | (rb << 12)
                    | (mux[0] << 9)
                    | (mux[1] << 6)
                    | (mux[2] << 3)
                    | mux[3]
            },
        )
}

/// An ALU instruction word of the shapes the plain loop runs straight on the value table
/// (`Step::AddDirect` and the other direct steps): [`alu_word`] without signal (small
/// immediates kept), pack, unpack or `setf`, and with both writes unconditional.
fn plain_alu_word() -> impl Strategy<Value = u64> {
    (alu_word(), 0u8..4).prop_map(|(word, nop_side)| {
        let sig = word >> 60;
        let sig = if sig == 13 { 13 } else { 1 };
        // Signal, unpack, pm, pack, both conditions, sf: cleared, then set as above.
        let word = (word & !(0xffff_e000u64 << 32)) | (sig << 60) | (1 << 49) | (1 << 46);
        // Now and then one side a nop writing nowhere (op_add bits 24–28, op_mul 29–31,
        // waddr_add 38–43, waddr_mul 32–37), or the add writing r0 and the mul reading it
        // (mul_a bits 3–5: the mul must go first).
        match nop_side {
            0 => (word & !(0x1f << 24) & !(0x3f << 38)) | (39 << 38),
            1 => (word & !(0x7 << 29) & !(0x3f << 32)) | (39 << 32),
            2 => (word & !(0x3f << 38) & !(0x7 << 3)) | (32 << 38),
            _ => word,
        }
    })
}

/// A load immediate (32-bit or per-element modes).
fn load_imm_word() -> impl Strategy<Value = u64> {
    (
        prop_oneof![Just(0u64), Just(1u64), Just(3u64)],
        cond(),
        cond(),
        any::<bool>(),
        any::<bool>(),
        waddr(),
        waddr(),
        any::<u32>(),
    )
        .prop_map(|(mode, ca, cm, sf, ws, wa, wm, imm)| {
            // As in `alu_word`: I/O registers mostly written unconditionally.
            let io = |w: u64| matches!(w, 36 | 38 | 40..=63);
            let ca = if io(wa) && ca != 0 { 1 } else { ca };
            let cm = if io(wm) && cm != 0 { 1 } else { cm };
            (14 << 60)
                | (mode << 57)
                | (ca << 49)
                | (cm << 46)
                | (u64::from(sf) << 45)
                | (u64::from(ws) << 44)
                | (wa << 38)
                | (wm << 32)
                | u64::from(imm)
        })
}

/// A forward relative branch over 0–3 instructions after its delay slots, perhaps linking
/// and (odd `raddr_a`) setting flags.
fn branch_word() -> impl Strategy<Value = u64> {
    (
        0u64..16,
        0u64..8,
        prop::bool::weighted(0.1),
        any::<bool>(),
        waddr(),
        0u64..4,
    )
        .prop_map(|(cond, ra, reg, ws, wa, skip)| {
            (15 << 60)
                | (cond << 52)
                | (1 << 51)
                | (u64::from(reg) << 50)
                | (ra << 45)
                | (u64::from(ws) << 44)
                | (wa << 38)
                | (39 << 32)
                | (skip * 8)
        })
}

/// A program: loads of every register used, a random body, and an ending. Words that do
/// not decode become nops.
fn program() -> impl Strategy<Value = Vec<u64>> {
    let init = prop::collection::vec(any::<u32>(), 20);
    let body = prop::collection::vec(
        prop_oneof![
            12 => alu_word(),
            4 => plain_alu_word(),
            3 => load_imm_word(),
            1 => branch_word()
        ],
        1..48,
    );
    (init, body).prop_map(|(init, body)| {
        const NOP: u64 = 0x1000_09e7_009e_7000;
        let mut words = Vec::new();
        for (reg, pair) in init.chunks(2).take(8).enumerate() {
            let reg = reg as u64;
            // Register 7 of each file: an address in the data buffer.
            let pair = if reg == 7 {
                [DATA | (pair[0] & 0xfffc), DATA | (pair[1] & 0xfffc)]
            } else {
                [pair[0], pair[1]]
            };
            words.push(0xe002_0000_0000_0000 | (reg << 38) | (39 << 32) | u64::from(pair[0]));
            words.push(0xe000_4000_0000_0000 | (39 << 38) | (reg << 32) | u64::from(pair[1]));
        }
        for (acc, &value) in (32u64..36).zip(&init[16..]) {
            words.push(0xe002_0000_0000_0000 | (acc << 38) | (39 << 32) | u64::from(value));
        }
        // ldi sfu_exp2, <value>: r4 holds a result before the body reads it.
        words.push(0xe002_0000_0000_0000 | (54 << 38) | (39 << 32) | u64::from(init[0]));
        // ldi vw_setup, 0x1a00: VPM writes go to consecutive rows from row 0, 32-bit
        // horizontal (guide section 7, VPM generic block write setup).
        words.push(0xe002_1000_0000_0000 | (49 << 38) | (39 << 32) | 0x1a00);
        // ldi ra20, 0: the pass count (the body uses registers 0–7 only).
        words.push(0xe002_0000_0000_0000 | (20 << 38) | (39 << 32));
        words.extend([NOP; 3]);
        // The body runs twice: the second pass finds its words decoded, so the plain
        // loop runs blocks of them (`run_plain`).
        let body_start = words.len();
        let mut prev_writes = 0u64;
        // TMU requests written and not loaded yet (straight-line count; branches may skip
        // some).
        let mut pending = [0u32; 2];
        for word in body {
            let Ok(instr) = qpu_isa::vc4::Instruction::decode(word) else {
                words.push(NOP);
                prev_writes = 0;
                continue;
            };
            // A TMU load with no request outstanding is an error that ends the run: such a
            // load loses its signal.
            let word = match super::ldtmu(Decoded::new(instr).signal) {
                Some(tmu) if pending[tmu] == 0 => (word & !(15 << 60)) | (1 << 60),
                Some(tmu) => {
                    pending[tmu] -= 1;
                    word
                }
                None => word,
            };
            let Ok(instr) = qpu_isa::vc4::Instruction::decode(word) else {
                unreachable!("only the signal changed");
            };
            // Mostly avoid reading a physical register right after writing it (an error
            // that would end the run early): read the element number instead.
            let mut word = word;
            let clash = Decoded::new(instr).phys_reads & prev_writes;
            if clash != 0 && !matches!(word >> 60, 14 | 15) {
                if clash as u32 != 0 {
                    word = (word & !(63 << 18)) | (38 << 18);
                }
                if (clash >> 32) != 0 && word >> 60 != 13 {
                    word = (word & !(63 << 12)) | (38 << 12);
                }
            }
            let Ok(instr) = qpu_isa::vc4::Instruction::decode(word) else {
                unreachable!("only read addresses changed");
            };
            let d = Decoded::new(instr);
            prev_writes = d.phys_writes;
            for (dest, cond) in [(d.dst_add, d.cond_add), (d.dst_mul, d.cond_mul)] {
                if let (Dest::TmuS(tmu), false) = (dest, cond == qpu_isa::vc4::Cond::Never) {
                    pending[usize::from(tmu)] += 1;
                }
            }
            words.push(word);
        }
        // Load what is left (nop; ldtmu0 / ldtmu1).
        for (tmu, &n) in pending.iter().enumerate() {
            let load = (NOP & !(15 << 60)) | ((10 + tmu as u64) << 60);
            words.extend(std::iter::repeat_n(load, n as usize));
        }
        // Out of reach of the body's forward branches (at most 3 delay slots and 3 words
        // skipped): or.setf -, ra20, ra20; ldi ra20, 1; brr.allz body (Z set: the first
        // pass); three delay slots.
        words.extend([NOP; 7]);
        words.push(
            (1 << 60)
                | (1 << 49)
                | (1 << 45)
                | (39 << 38)
                | (39 << 32)
                | (21 << 24)
                | (20 << 18)
                | (39 << 12)
                | (6 << 9)
                | (6 << 6),
        );
        words.push(0xe002_0000_0000_0000 | (20 << 38) | (39 << 32) | 1);
        // Relative to the word after the delay slots.
        let back = (body_start as i64 - (words.len() as i64 + 4)) * 8;
        words.push((15 << 60) | (1 << 51) | (39 << 38) | (39 << 32) | u64::from(back as u32));
        words.extend([NOP; 3]);
        words.extend([NOP; 4]);
        words.extend([0x3000_09e7_009e_7000, NOP, NOP]);
        words
    })
}

fn configs() -> [EmulatorConfig; 3] {
    let guide = EmulatorConfig {
        ambiguities: Ambiguities {
            flags: FlagsRule::Guide,
            branch_register_lane: BranchRegisterLane::Element0,
            branch_odd_raddr_sets_flags: false,
            ..Ambiguities::default()
        },
        ..EmulatorConfig::with_qpus(1)
    };
    let unchecked = EmulatorConfig {
        check_hazards: false,
        ..EmulatorConfig::with_qpus(1)
    };
    [EmulatorConfig::with_qpus(1), guide, unchecked]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn fast_paths_match_the_general_path(words in program(), config in 0usize..3) {
        let config = &configs()[config];
        let fast = run(&words, config, false);
        let general = run(&words, config, true);
        prop_assert_eq!(&fast, &general);
        prop_assert_eq!(run_with(&words, config, false, true), general);
    }
}

/// The generator reaches every path: a sanity check that the property test is not
/// vacuous (most random programs run some instructions on each fast path).
#[test]
fn random_programs_reach_the_fast_paths() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut seen = [0usize; 6];
    // And every step of the plain loop ([`super::decode::Step`]).
    let mut steps = [0usize; 11];
    let mut completed = 0;
    let io_before = IO_RUNS.with(std::cell::Cell::get);
    let blocks_before = BLOCK_RUNS.with(std::cell::Cell::get);
    for _ in 0..128 {
        let words = program().new_tree(&mut runner).unwrap().current();
        for &w in &words {
            if let Ok(instr) = qpu_isa::vc4::Instruction::decode(w) {
                let d = Decoded::new(instr);
                seen[d.path as usize] += 1;
                steps[d.step as usize] += 1;
            }
        }
        completed += usize::from(!run(&words, &configs()[0], false).0.starts_with("error"));
        // Without hazard checks more programs reach their second pass (blocks).
        run(&words, &configs()[2], false);
    }
    let io_runs = IO_RUNS.with(std::cell::Cell::get) - io_before;
    let block_runs = BLOCK_RUNS.with(std::cell::Cell::get) - blocks_before;
    assert!(seen.iter().all(|&n| n > 30), "paths seen: {seen:?}");
    assert!(steps.iter().all(|&n| n > 10), "steps seen: {steps:?}");
    eprintln!(
        "{completed} of 128 completed, paths {seen:?}, steps {steps:?}, {io_runs} ran on the I/O path"
    );
    assert!(completed > 12, "{completed} of 128 programs ran to the end");
    assert!(io_runs > 100, "{io_runs} instructions ran on the I/O path");
    eprintln!("{block_runs} instructions ran in blocks");
    assert!(block_runs > 100, "{block_runs} instructions ran in blocks");
}

/// Loops whose second and later passes run in blocks (`run_plain`): direct steps,
/// conditional writes, flags, rotations, load immediates and multiply shapes, in and out
/// of branch delay slots, against the general path under every configuration; then the
/// same with an instruction budget that runs out inside a block.
#[test]
fn loops_run_in_blocks_as_on_the_general_path() {
    // The benchmark ALU loop, and the flag-heavy loop of `benches/flag_loop.qasm` with a
    // load immediate, a mul-first pair and more straight-line words added, both with a
    // fixed iteration count.
    let alu_loop =
        include_str!("../../benches/alu_loop.qasm").replace("mov r0, unif", "mov r0, 23");
    let programs = [
        alu_loop.as_str(),
        "
    mov r0, 17
    mov r1, elem_num
    mov r2, 1
    mov r3, 7
    mov ra0, 0x55
    mov ra3, 1
:loop
    add.setf r1, r1, r2; mov ra1, r3 >> 1
    xor.setf r2, r2, ra0
    mov.ifz.setf r3, r1; v8adds rb1, r1, r2
    mov rb2, 0x1234
    mov sfu_recip, r3
    add r1, r1, r2; mul24 r2, r1, r3
    mov.ifn r3, r2; fmul ra4, r2, r3
    fadd r1, r1, r4; mov ra5, r4
    sub.setf r0, r0, ra3; mov r3, r1 >> 2
    brr.anynz -, r:loop
    nop.setf; mov ra2, r1 >> 3
    and.setf r1, r1, ra0; v8adds r2, r2, r1
    or.setf r2, r2, 1
    nop; thrend
    nop
    nop
",
    ];
    let before = BLOCK_RUNS.with(std::cell::Cell::get);
    // A block that reads r4, run a second time right after an SFU write: from the first
    // delay slot (r4 ready by then), and from the last (one instruction too early: an
    // error, found before the block runs).
    // (Leading nops shift the instruction count, and with it where `run_qpu_until`
    // re-arms its hint for `run_plain`, so that some runs arrive at the block inside
    // `run_plain`.)
    let sfu = |slot: usize, lead: usize| {
        let mut delay = ["nop"; 3];
        delay[slot] = "mov sfu_recip, r3";
        format!(
            "{}
    mov r0, 0
    mov r1, 1.0
    mov r2, 2.0
    mov r3, 3.0
    mov sfu_recip, r3
    nop
    nop
    nop
:body
    add r1, r1, r2
    fadd r2, r2, r4
    mov r3, r1
    mov.setf -, r0
    mov r0, 1
    brr.allz -, r:body
    {}
    {}
    {}
    nop; thrend
    nop
    nop
",
            "    nop\n".repeat(lead),
            delay[0],
            delay[1],
            delay[2]
        )
    };
    // After a few passes with the SFU write in time, one too early.
    let late = |lead: usize| {
        format!(
            "{}
    mov r0, 6
    mov r1, 1.0
    mov r2, 2.0
    mov r3, 3.0
    mov sfu_recip, r3
    nop
    nop
    nop
:body
    add r1, r1, r2
    fadd r2, r2, r4
    mov r3, r1
    sub.setf r0, r0, 1
    brr.anynz -, r:body
    mov sfu_recip, r3
    nop
    nop
    brr -, r:body
    nop
    nop
    mov sfu_recip, r3
    nop; thrend
    nop
    nop
",
            "    nop\n".repeat(lead)
        )
    };
    for lead in 0..4 {
        let early = run_words(&late(lead));
        for config in &configs()[..2] {
            let general = run(&early, config, true);
            assert!(general.0.contains("r4"), "{}", general.0);
            assert_eq!(run(&early, config, false), general);
            assert_eq!(run_with(&early, config, false, true), general);
        }
    }
    // Blocks whose first word, entered from the loop's last delay slot, reads the
    // register-file register that slot writes (an error), or rotates the accumulator it
    // writes (undefined lanes, tracked by the general path); entered the first time by
    // falling through, where neither happens.
    let entries = [
        "
    mov r0, 3
    mov ra1, 5
    nop
:body
    add r1, ra1, 1
    mov r2, r1
    sub.setf r0, r0, 1
    brr.anynz -, r:body
    nop
    nop
    mov ra1, r0
    nop; thrend
    nop
    nop
",
        "
    mov r0, 3
    mov r1, 1
    mov r3, 2
    nop
:body
    nop; mov r2, r3 >> 1
    add r1, r1, r2
    sub.setf r0, r0, 1
    brr.anynz -, r:body
    nop
    nop
    mov r3, r1
    nop; thrend
    nop
    nop
",
        // Inside a block: the first pass jumps to `second`, the loop to `first`, whose
        // write `second` reads (an error) or rotates (undefined lanes).
        "
    mov r0, 3
    mov ra1, 5
    mov r3, 2
    brr -, r:second
    nop
    nop
    nop
:first
    mov ra1, r0; mov r3, r0
:second
    add r1, ra1, 1
    mov r2, r1
    sub.setf r0, r0, 1
    brr.anynz -, r:first
    nop
    nop
    nop
    nop; thrend
    nop
    nop
",
        "
    mov r0, 3
    mov ra1, 5
    mov r3, 2
    brr -, r:second
    nop
    nop
    nop
:first
    mov ra2, r0; mov r3, r0
:second
    nop; mov r2, r3 >> 1
    add r1, r1, r2
    sub.setf r0, r0, 1
    brr.anynz -, r:first
    nop
    nop
    nop
    nop; thrend
    nop
    nop
",
    ];
    for source in entries {
        let words = run_words(source);
        for config in &configs() {
            let general = run(&words, config, true);
            assert_eq!(run(&words, config, false), general);
            assert_eq!(run_with(&words, config, false, true), general);
        }
    }
    let in_time = sfu(0, 0);
    for source in programs.iter().copied().chain([in_time.as_str()]) {
        let words = run_words(source);
        for config in configs() {
            let fast = run(&words, &config, false);
            assert!(!fast.0.starts_with("error"), "{}", fast.0);
            assert_eq!(fast, run(&words, &config, true));
            assert_eq!(fast, run_with(&words, &config, false, true));
            // Budgets that run out at every instruction of the first passes.
            for max_instructions in 5..60 {
                let config = EmulatorConfig {
                    max_instructions,
                    ..config.clone()
                };
                let general = run(&words, &config, true);
                assert_eq!(run(&words, &config, false), general);
                assert_eq!(run_with(&words, &config, false, true), general);
            }
            // And cycle budgets, some within the run, some past it.
            for max_cycles in (40..400).step_by(7) {
                let config = EmulatorConfig {
                    max_cycles,
                    ..config.clone()
                };
                assert_eq!(run(&words, &config, false), run(&words, &config, true));
            }
        }
    }
    let blocks = BLOCK_RUNS.with(std::cell::Cell::get) - before;
    assert!(blocks > 1000, "{blocks} instructions ran in blocks");
}

fn run_words(source: &str) -> Vec<u64> {
    qpu_isa::vc4::assemble(source)
        .expect("test program assembles")
        .iter()
        .map(qpu_isa::vc4::Instruction::encode)
        .collect()
}
