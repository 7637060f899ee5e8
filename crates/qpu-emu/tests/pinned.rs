//! Regression pins for the emulator's observable behaviour: exact run reports (instructions,
//! cycles, stalls by cause, TMU/DMA counts, as printed) and results of fixed programs, and a
//! digest over hundreds of randomly generated ALU/load-immediate/branch programs.
//!
//! The pinned strings and digests were recorded from the emulator before its hot paths were
//! optimised (commit "qpu-emu: pin run reports and random-program results"); speed work must
//! leave every one of them byte-identical. Where a number follows from the cycle model by
//! hand (an ALU-only loop issues one instruction per 4 clocks with no stall) the test also
//! checks it by that independent route.

mod support;

use qpu_emu::vc4::{
    Ambiguities, BranchRegisterLane, Emulator, EmulatorConfig, FlagsRule, RunReport,
};
use qpu_isa::vc4::Instruction;
use support::{assemble, buffer, emulator};

/// Six instructions per iteration, both ALUs busy (the benchmark's ALU loop), storing its
/// registers at the end.
const ALU_LOOP: &str = "
    mov r0, unif
    mov r1, 0
    mov r2, 1.0
    mov r3, 1.5
:loop
    add r1, r1, r0; fmul r2, r2, r3
    sub.setf r0, r0, 1
    brr.anynz -, r:loop
    xor r3, r1, r0; v8adds r2, r2, r1
    or r1, r1, 3; mul24 r3, r3, r0
    max r1, r1, r3
    mov vw_setup, 0x1a00
    mov vpm, r1
    mov vpm, r2
    mov vpm, r3
    ldi vw_setup, 0x81904000
    mov vw_addr, unif
    mov -, vw_wait
    nop; thrend
    nop
    nop
";

/// Per iteration: a 16-lane TMU gather, a VPM write and a 64-byte VDW store with its wait
/// (the benchmark's I/O loop).
const IO_LOOP: &str = include_str!("../benches/io_loop.qasm");

/// FNV-1a, 64 bits: a stable digest of text.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Runs `source` on `qpus` QPUs, each with uniforms (iterations, shared input, own output);
/// returns the report and every QPU's output words.
fn run_loop(
    source: &str,
    qpus: usize,
    iterations: u32,
    outputs: u32,
    with_input: bool,
) -> (RunReport, Vec<u32>) {
    let mut emu = emulator(qpus);
    let code = emu.load_instructions(&assemble(source)).unwrap();
    let input: Vec<u32> = (0..16).map(|i| 0x0101_0101 * i + 7).collect();
    let input = buffer(&mut emu, &input);
    let mut outs = Vec::new();
    let launches: Vec<(u32, u32)> = (0..qpus as u32)
        .map(|q| {
            let out = buffer(&mut emu, &vec![0; outputs as usize]);
            outs.push(out);
            let uniforms = if with_input {
                vec![iterations + q, input, out]
            } else {
                vec![iterations + q, out]
            };
            let uniforms = emu.load_uniforms(&uniforms).unwrap();
            (uniforms, code)
        })
        .collect();
    let report = emu.run(&launches).unwrap();
    let words = outs
        .iter()
        .flat_map(|&out| emu.memory().read_u32s(out, outputs).unwrap())
        .collect();
    (report, words)
}

#[test]
fn alu_loop_report_is_pinned_and_follows_the_issue_rate() {
    let (report, words) = run_loop(ALU_LOOP, 1, 1000, 48, false);
    // By hand: 4 + 6 per iteration + 10 after the loop; no stalls but the final VDW wait.
    assert_eq!(report.total.instructions, 4 + 6 * 1000 + 10);
    let timing = qpu_emu::vc4::Timing::default();
    assert_eq!(
        report.cycles,
        timing.program_start_latency
            + timing.clocks_per_instruction * report.total.instructions
            + report.total.stalls.dma
    );
    assert_eq!(
        report.to_string(),
        "  qpu       instrs       cycles  stall:tmu  stall:vpm  stall:dma  stall:sem  stall:mtx  tmu req   dma load  dma store  irq
    0         6014        24206          0          0        146          0          0        0          0        192    0
total         6014        24206          0          0        146          0          0        0          0        192    0
run: 24206 clocks = 96.824 us at 250 MHz (6014 instructions)"
    );
    assert_eq!(words, alu_loop_scalar(1000));
}

/// The ALU loop's r1, r2, r3 (16 equal lanes each), computed in scalar Rust.
fn alu_loop_scalar(iterations: u32) -> Vec<u32> {
    let flush = |bits: u32| {
        if bits & 0x7f80_0000 == 0 {
            bits & 0x8000_0000
        } else {
            bits
        }
    };
    let fmul =
        |a: u32, b: u32| flush((f32::from_bits(flush(a)) * f32::from_bits(flush(b))).to_bits());
    let v8adds = |a: u32, b: u32| {
        let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
        u32::from_le_bytes(std::array::from_fn(|i| a[i].saturating_add(b[i])))
    };
    let (mut r0, mut r1, mut r2, mut r3) = (iterations, 0u32, 1.0f32.to_bits(), 1.5f32.to_bits());
    loop {
        (r1, r2) = (r1.wrapping_add(r0), fmul(r2, r3));
        r0 = r0.wrapping_sub(1);
        (r3, r2) = (r1 ^ r0, v8adds(r2, r1));
        (r1, r3) = (r1 | 3, (r3 & 0xff_ffff).wrapping_mul(r0 & 0xff_ffff));
        r1 = (r1 as i32).max(r3 as i32) as u32;
        if r0 == 0 {
            break;
        }
    }
    [r1, r2, r3].iter().flat_map(|&r| [r; 16]).collect()
}

#[test]
fn alu_loop_on_twelve_qpus_is_pinned() {
    let (report, words) = run_loop(ALU_LOOP, 12, 100, 48, false);
    for (q, r) in report.qpus.iter().enumerate() {
        assert_eq!(r.instructions, 4 + 6 * (100 + q as u64) + 10);
        assert_eq!(r.stalls.total(), r.stalls.dma);
    }
    assert_eq!(fnv(&report.to_string()), 0x3d7b_1133_0d2d_ca58, "{report}");
    let expected: Vec<u32> = (0..12).flat_map(|q| alu_loop_scalar(100 + q)).collect();
    assert_eq!(words, expected);
}

#[test]
fn io_loop_report_is_pinned() {
    let (report, words) = run_loop(IO_LOOP, 1, 200, 16, true);
    assert_eq!(
        report.to_string(),
        "  qpu       instrs       cycles  stall:tmu  stall:vpm  stall:dma  stall:sem  stall:mtx  tmu req   dma load  dma store  irq
    0         2209        40332       5692          0      25800          0          0      200          0      12800    0
total         2209        40332       5692          0      25800          0          0      200          0      12800    0
run: 40332 clocks = 161.328 us at 250 MHz (2209 instructions)"
    );
    assert_eq!(report.total.tmu_cache_misses, 1);
    assert_eq!(fnv(&format!("{words:x?}")), 0x894332f0fa50bfec);
    let (report, words) = run_loop(IO_LOOP, 5, 200, 16, true);
    assert_eq!(fnv(&report.to_string()), 0x196abe2d5124fc08, "{report}");
    assert_eq!(fnv(&format!("{words:x?}")), 0x1874ee947d4faaf4);
}

// ------------------------------------------------------------------------------------------
// Random programs.
// ------------------------------------------------------------------------------------------

/// xorshift64*: a fixed, dependency-free generator so the programs never change.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 32) % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Operand values that exercise edge cases: small and huge integers, floats including
    /// denormals, infinities, NaN and negative zero, and random bits.
    fn value(&mut self) -> u32 {
        match self.below(8) {
            0 => self.below(16) as u32,
            1 => (self.below(64) as u32).wrapping_sub(32),
            2 => self.pick(&[0x8000_0000, 0x7fff_ffff, u32::MAX, 0xff_ffff, 0x100_0000]),
            3 => self.pick(&[
                1.0f32.to_bits(),
                (-2.5f32).to_bits(),
                0.5f32.to_bits(),
                0x0000_0001, // denormal
                0x8000_0000, // -0
                f32::INFINITY.to_bits(),
                f32::NAN.to_bits(),
                3.0e9f32.to_bits(),
                (-7.75f32).to_bits(),
            ]),
            4 => (self.next() as f32 / 1e12).to_bits(),
            _ => self.next() as u32,
        }
    }
}

/// Write addresses the generator uses: ra/rb 0–7, r0–r3, r5, nop, and (for the add ALU) the
/// SFU.
const WADDRS: [u64; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 32, 33, 34, 35, 39];
const NOP_WORD: u64 = 0x1000_09e7_009e_7000;

/// What the previous instruction wrote, for keeping generated code clear of the read-after-
/// write rules (a few hazards still slip through and are pinned as errors).
#[derive(Default, Clone, Copy)]
struct Written {
    file_a: u32,
    file_b: u32,
    acc: u8,
}

struct Generator {
    rng: Rng,
    prev: Written,
    /// Index of the last SFU write.
    last_sfu: Option<usize>,
    /// Skips the read-after-write and rotation precautions, so that hazard errors (their
    /// rule, PC and text) are pinned too.
    careless: bool,
}

impl Generator {
    fn waddr(&mut self, add: bool) -> u64 {
        if self.rng.chance(4) {
            return 37; // r5 (quad through A, replicate through B)
        }
        if add && self.rng.chance(4) {
            return 52 + self.rng.below(4); // SFU
        }
        self.rng.pick(&WADDRS)
    }

    fn cond(&mut self) -> u64 {
        if self.rng.chance(55) {
            1
        } else {
            self.rng.below(8)
        }
    }

    /// Notes the destination `waddr` written through `file_b` (false: file A).
    fn note(&self, written: &mut Written, waddr: u64, file_b: bool, cond: u64) {
        if cond == 0 {
            return;
        }
        match waddr {
            0..=31 if file_b => written.file_b |= 1 << waddr,
            0..=31 => written.file_a |= 1 << waddr,
            32..=35 => written.acc |= 1 << (waddr - 32),
            37 => written.acc |= 1 << 5,
            _ => {}
        }
    }

    fn alu(&mut self, index: usize) -> u64 {
        let small_imm = self.rng.chance(35);
        let sig = if small_imm { 13 } else { 1 };
        let unpack = if self.rng.chance(60) {
            0
        } else {
            self.rng.below(8)
        };
        let pm = u64::from(self.rng.chance(30));
        let pack = if self.rng.chance(60) {
            0
        } else {
            self.rng.below(16)
        };
        let mut cond_add = self.cond();
        let cond_mul = if self.rng.chance(3) { 0 } else { self.cond() };
        let mut sf = self.rng.chance(25);
        let ws = self.rng.chance(50);
        let op_add = if self.rng.chance(10) {
            0
        } else {
            self.rng.below(32)
        };
        let op_mul = self.rng.below(8);
        let mut waddr_add = if op_add == 0 { 39 } else { self.waddr(true) };
        let mut waddr_mul = if op_mul == 0 { 39 } else { self.waddr(false) };
        // r4 holds the prologue's SFU result until the body writes the SFU again.
        let sfu_ready = self.last_sfu.is_none_or(|at| index - at >= 3);
        let sfu_free = self.last_sfu.is_none_or(|at| index - at >= 3);
        if (52..=55).contains(&waddr_add) {
            if sfu_free {
                cond_add = 1;
                self.last_sfu = Some(index);
            } else {
                waddr_add = 39;
            }
        }
        // Both ALUs writing one accumulator (r5 through either file included) is a hazard.
        if (32..=37).contains(&waddr_add) && waddr_add == waddr_mul {
            waddr_mul = 39;
        }
        if sf && ((op_add != 0 && cond_add == 0) || (op_add == 0 && cond_mul == 0)) {
            sf = false;
        }
        let mut raddr_a = if self.rng.chance(15) {
            38
        } else {
            self.rng.below(8)
        };
        let mut raddr_b = if small_imm {
            self.rng.below(64)
        } else if self.rng.chance(15) {
            38
        } else {
            self.rng.below(8)
        };
        // Read-after-write of a physical register: read the element/QPU number instead.
        let careful = !self.careless;
        if careful && raddr_a < 32 && self.prev.file_a & (1 << raddr_a) != 0 {
            raddr_a = 38;
        }
        if careful && !small_imm && raddr_b < 32 && self.prev.file_b & (1 << raddr_b) != 0 {
            raddr_b = 38;
        }
        let mux = |g: &mut Generator| -> u64 {
            let m = g.rng.pick(&[0, 1, 2, 3, 4, 5, 6, 7, 6, 7]);
            if m == 4 && !sfu_ready {
                6
            } else {
                m
            }
        };
        let muxes = [mux(self), mux(self), mux(self), mux(self)];
        // A rotation (small immediate 48–63 with a mul op) right after writing its source.
        if careful && small_imm && raddr_b >= 48 && op_mul != 0 {
            let mut sources = 0u8;
            for &m in &muxes[2..] {
                if m <= 3 {
                    sources |= 1 << m;
                }
            }
            if raddr_b == 48 {
                sources |= 1 << 5;
            }
            if sources & self.prev.acc != 0 {
                raddr_b = self.rng.below(48);
            }
        }
        let mut written = Written::default();
        self.note(&mut written, waddr_add, ws, cond_add);
        self.note(&mut written, waddr_mul, !ws, cond_mul);
        self.prev = written;
        (sig << 60)
            | (unpack << 57)
            | (pm << 56)
            | (pack << 52)
            | (cond_add << 49)
            | (cond_mul << 46)
            | (u64::from(sf) << 45)
            | (u64::from(ws) << 44)
            | (waddr_add << 38)
            | (waddr_mul << 32)
            | (op_mul << 29)
            | (op_add << 24)
            | (raddr_a << 18)
            | (raddr_b << 12)
            | (muxes[0] << 9)
            | (muxes[1] << 6)
            | (muxes[2] << 3)
            | muxes[3]
    }

    fn load_imm(&mut self) -> u64 {
        let mode = self.rng.pick(&[0, 0, 0, 1, 3]);
        let pm = u64::from(self.rng.chance(20));
        let pack = if self.rng.chance(70) {
            0
        } else {
            self.rng.below(16)
        };
        let cond_add = self.cond();
        let cond_mul = if self.rng.chance(50) { 0 } else { self.cond() };
        let sf = cond_add != 0 && self.rng.chance(25);
        let ws = self.rng.chance(50);
        let waddr_add = self.rng.pick(&WADDRS);
        let mut waddr_mul = self.rng.pick(&WADDRS);
        if (32..=35).contains(&waddr_add) && waddr_add == waddr_mul {
            waddr_mul = 39;
        }
        let imm = u64::from(self.rng.value());
        let mut written = Written::default();
        self.note(&mut written, waddr_add, ws, cond_add);
        self.note(&mut written, waddr_mul, !ws, cond_mul);
        self.prev = written;
        (14 << 60)
            | (mode << 57)
            | (pm << 56)
            | (pack << 52)
            | (cond_add << 49)
            | (cond_mul << 46)
            | (u64::from(sf) << 45)
            | (u64::from(ws) << 44)
            | (waddr_add << 38)
            | (waddr_mul << 32)
            | imm
    }

    /// A forward relative branch over `skip` instructions after its delay slots; odd
    /// `raddr_a` makes it set flags from the link [measured].
    fn branch(&mut self, skip: u64) -> u64 {
        let cond = self.rng.pick(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15]);
        let raddr_a = self.rng.below(8);
        let link = self.rng.chance(30);
        let waddr_add = if link { self.rng.pick(&WADDRS) } else { 39 };
        let ws = self.rng.chance(50);
        let mut written = Written::default();
        self.note(&mut written, waddr_add, ws, 1);
        self.prev = written;
        (15 << 60)
            | (cond << 52)
            | (1 << 51)
            | (raddr_a << 45)
            | (u64::from(ws) << 44)
            | (waddr_add << 38)
            | (39 << 32)
            | (skip * 8)
    }
}

/// Loads every register the generator uses with a random value, then `body`, then stores
/// r0–r3, r5, ra0–ra7, rb0–rb7 and the Z/N/C flags as 24 VPM rows and DMAs them out.
fn random_program(seed: u64) -> Vec<u64> {
    let mut g = Generator {
        rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        prev: Written::default(),
        last_sfu: None,
        careless: seed % 8 == 7,
    };
    let mut words = Vec::new();
    for waddr in 0..8u64 {
        let (a, b) = (u64::from(g.rng.value()), u64::from(g.rng.value()));
        // ldi ra<n>, a and ldi rb<n>, b (mul side through file B).
        words.push(0xe002_0000_0000_0000 | (waddr << 38) | (39 << 32) | a);
        words.push(0xe000_4000_0000_0000 | (39 << 38) | (waddr << 32) | b);
    }
    for acc in 32..36u64 {
        let mode = g.rng.pick(&[0u64, 1, 3]);
        let v = u64::from(g.rng.value());
        words.push(0xe002_0000_0000_0000 | (mode << 57) | (acc << 38) | (39 << 32) | v);
    }
    // ldi sfu_exp2, <value>, so that r4 holds a result before the body reads it.
    let v = u64::from(g.rng.value());
    words.push(0xe002_0000_0000_0000 | (54 << 38) | (39 << 32) | v);
    words.extend([NOP_WORD; 3]);
    let body = 40;
    let start = words.len();
    let mut targets = Vec::new();
    let mut last_branch: Option<usize> = None;
    for i in 0..body {
        let clear_of_branches = last_branch.is_none_or(|b| i - b > 3);
        let word = if clear_of_branches && i + 4 < body && g.rng.chance(8) {
            let skip = g.rng.below(((body - i - 4) as u64).min(6));
            last_branch = Some(i);
            targets.push(i + 4 + skip as usize);
            g.branch(skip)
        } else if g.rng.chance(15) {
            g.load_imm()
        } else {
            g.alu(i)
        };
        match Instruction::decode(word) {
            Ok(_) => words.push(word),
            // Reserved encodings (unused add opcodes, ...): a nop keeps the layout.
            Err(_) => {
                g.prev = Written::default();
                words.push(NOP_WORD);
            }
        }
    }
    // Branch targets are nops: the instruction before them depends on the path taken.
    for t in targets {
        if t < body {
            words[start + t] = NOP_WORD;
        }
    }
    let mut epilogue = String::from("nop\nnop\nmov vw_setup, 0x1a00\n");
    for reg in ["r0", "r1", "r2", "r3", "r5"] {
        epilogue.push_str(&format!("mov vpm, {reg}\n"));
    }
    for n in 0..8 {
        epilogue.push_str(&format!("mov vpm, ra{n}\nmov vpm, rb{n}\n"));
    }
    for cond in ["ifz", "ifn", "ifc"] {
        epilogue.push_str(&format!("mov r1, 0\nmov.{cond} r1, 1\nmov vpm, r1\n"));
    }
    let vdw = 0x8000_0000u32 | (24 << 23) | (16 << 16) | (1 << 14);
    epilogue.push_str(&format!(
        "ldi vw_setup, {vdw:#x}\nmov vw_addr, unif\nmov -, vw_wait\nnop; thrend\nnop\nnop\n"
    ));
    words.extend(assemble(&epilogue).iter().map(|i| i.encode()));
    words
}

/// Runs a random program; the text is its report and stored words, or its error.
fn run_random(words: &[u64], config: &EmulatorConfig) -> (bool, String) {
    let mut emu = Emulator::new(config.clone()).unwrap();
    let code = emu.load_program(words).unwrap();
    let out = buffer(&mut emu, &[0; 24 * 16]);
    let uniforms = emu.load_uniforms(&[out]).unwrap();
    match emu.run(&[(uniforms, code)]) {
        Ok(report) => {
            let data = emu.memory().read_u32s(out, 24 * 16).unwrap();
            (true, format!("{report}\n{data:x?}"))
        }
        Err(e) => (false, format!("error: {e}")),
    }
}

#[test]
fn random_programs_are_pinned() {
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
    let configs = [EmulatorConfig::with_qpus(1), guide, unchecked];
    let programs = 400u64;
    let chunk = 50;
    let mut digests = Vec::new();
    let mut completed = 0;
    let mut texts = String::new();
    for seed in 0..programs {
        let words = random_program(seed);
        for config in &configs {
            let (ok, text) = run_random(&words, config);
            completed += usize::from(ok);
            texts.push_str(&text);
        }
        if (seed + 1) % chunk == 0 {
            digests.push(fnv(&texts));
            texts.clear();
        }
    }
    // Most programs must run to the end, or the pin would only cover error paths.
    assert_eq!(completed, 1152, "programs that ran to the end");
    let pinned: [u64; 8] = [
        0xb548531f3a9de22d,
        0x2e5f5d9fd6b161dd,
        0x596c19810ae374f9,
        0x2dee0fbb957bdafe,
        0xe6e2460b28289794,
        0x50ebe95c938988e1,
        0x16513ae33fb227f8,
        0xf04d6c6a7c0973a8,
    ];
    assert_eq!(digests, pinned, "{digests:#x?}");
}

#[test]
fn eight_qpu_handoff_report_is_pinned() {
    const WORKER: &str = "
        mov r0, unif
        ldi r1, 0x1a00
        add vw_setup, r0, r1
        mov r2, elem_num
        mov r3, unif
        nop; mul24 r2, r2, r3
        add r2, r2, r0
        mov vpm, r2
        srel -, 0
        nop; thrend
        nop
        nop
    ";
    const MASTER: &str = "
        mov r0, unif
    :wait
        sacq -, 0
        sub.setf r0, r0, 1
        brr.anynz -, r:wait
        nop
        nop
        nop
        ldi vw_setup, 0x84104000
        mov vw_addr, unif
        mov -, vw_wait
        mov host_int, 1
        nop; thrend
        nop
        nop
    ";
    let mut emu = emulator(9);
    let worker = emu.load_instructions(&assemble(WORKER)).unwrap();
    let master = emu.load_instructions(&assemble(MASTER)).unwrap();
    let out = buffer(&mut emu, &[0; 128]);
    let mut launches = vec![(emu.load_uniforms(&[8, out]).unwrap(), master)];
    for row in 0..8u32 {
        launches.push((emu.load_uniforms(&[row, 3 + row]).unwrap(), worker));
    }
    let report = emu.run(&launches).unwrap();
    assert_eq!(
        report.to_string(),
        "  qpu       instrs       cycles  stall:tmu  stall:vpm  stall:dma  stall:sem  stall:mtx  tmu req   dma load  dma store  irq
    0           56          438          0          0        178         32          0        0          0        512    1
    1           12           52          0          0          0          0          0        0          0          0    0
    2           12           52          0          0          0          0          0        0          0          0    0
    3           12           52          0          0          0          0          0        0          0          0    0
    4           12           52          0          0          0          0          0        0          0          0    0
    5           12           52          0          0          0          0          0        0          0          0    0
    6           12           52          0          0          0          0          0        0          0          0    0
    7           12           52          0          0          0          0          0        0          0          0    0
    8           12           52          0          0          0          0          0        0          0          0    0
total          152          854          0          0        178         32          0        0          0        512    1
run: 438 clocks = 1.752 us at 250 MHz (152 instructions)"
    );
    let words = emu.memory().read_u32s(out, 128).unwrap();
    for (i, &word) in words.iter().enumerate() {
        let (row, lane) = (i as u32 / 16, i as u32 % 16);
        assert_eq!(word, lane * (3 + row) + row);
    }
}
