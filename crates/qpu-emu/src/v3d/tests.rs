//! Tests of the V3D machine. Every expected value comes from an independent route: scalar
//! Rust on the host, or numbers worked out by hand from the sources' descriptions.

// Lane loops index several arrays at once; the case tables pair text with a function.
#![allow(clippy::needless_range_loop, clippy::type_complexity)]

use super::*;
use crate::memory::MemoryError;
use qpu_isa::v3d::{self, AluInstruction, Signal, Signals, V3dVersion};
use rules::TmuAccess;

const V42: V3dVersion = V3dVersion::V42;
const V71: V3dVersion = V3dVersion::V71;

/// The program end every py-videocore6/7 kernel uses.
pub(super) use super::calibration::END;

/// Xorshift: a reproducible stream of test inputs (also `machine`'s path test's).
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn u32(&mut self) -> u32 {
        (self.next() >> 16) as u32
    }

    /// A finite float of moderate size (so sums and products stay finite), either sign.
    fn float(&mut self) -> u32 {
        let exp = 100 + (self.next() % 55) as u32;
        let sign = (self.next() & 1) as u32;
        sign << 31 | exp << 23 | (self.u32() & 0x7f_ffff)
    }
}

pub(super) fn machine(version: V3dVersion, qpus: usize, threads: u8) -> V3dEmulator {
    let mut config = V3dConfig::new(version);
    config.qpus = qpus;
    config.threads = threads;
    config.max_instructions = 1_000_000;
    V3dEmulator::new(config).unwrap()
}

/// Assembles `text`, runs it as `n` single-batch workgroups with `uniforms`.
pub(super) fn run_on(
    emu: &mut V3dEmulator,
    text: &str,
    uniforms: &[u32],
    n: u32,
) -> Result<V3dRunReport, EmuError> {
    let version = emu.config().version;
    let program = v3d::assemble(version, text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let code = emu.load_instructions(&program)?;
    let unif = emu.load_uniforms(uniforms)?;
    emu.dispatch(&CsdJob::per_qpu(code, unif, n))
}

pub(super) fn fault_of(result: Result<V3dRunReport, EmuError>) -> V3dFault {
    match result {
        Err(EmuError::V3dFault { fault, .. }) => fault,
        other => panic!("expected a V3D fault, got {other:?}"),
    }
}

pub(super) fn rule_of(result: Result<V3dRunReport, EmuError>) -> V3dRule {
    match fault_of(result) {
        V3dFault::Rule(r) => r,
        other => panic!("expected a rule, got {other:?}"),
    }
}

/// A program that loads 16-lane vectors a (rf1) and b (rf2), runs `op_line` (which must
/// leave its result in rf3) and stores rf3. Uniforms: address of a, of b, of the output.
fn op_program(version: V3dVersion, op_line: &str) -> String {
    let prologue = match version {
        V3dVersion::V42 => {
            "
            eidx r0 ; nop ; ldunif
            shl r0, r0, 2 ; nop
            add rf10, r5, r0 ; nop ; ldunif
            add rf11, r5, r0 ; nop ; ldunif
            add rf12, r5, r0 ; nop
            "
        }
        V3dVersion::V71 => {
            "
            eidx rf4 ; nop ; ldunif
            shl rf4, rf4, 2 ; nop
            add rf10, rf0, rf4 ; nop ; ldunif
            add rf11, rf0, rf4 ; nop ; ldunif
            add rf12, rf0, rf4 ; nop
            "
        }
    };
    format!(
        "{prologue}
        or tmua, rf10, rf10 ; nop
        or tmua, rf11, rf11 ; nop
        nop ; nop ; ldtmu.rf1
        nop ; nop ; ldtmu.rf2
        {op_line}
        or tmud, rf3, rf3 ; nop
        or tmua, rf12, rf12 ; nop
        tmuwt ; nop
        {END}"
    )
}

/// Runs `op_line` on `a`, `b`; returns rf3.
pub(super) fn run_op(
    version: V3dVersion,
    op_line: &str,
    a: &[u32; 16],
    b: &[u32; 16],
) -> [u32; 16] {
    let mut emu = machine(version, 1, 1);
    let mem = emu.memory_mut();
    let (pa, pb, po) = (
        mem.alloc(64, 64).unwrap(),
        mem.alloc(64, 64).unwrap(),
        mem.alloc(64, 64).unwrap(),
    );
    mem.write_u32s(pa, a).unwrap();
    mem.write_u32s(pb, b).unwrap();
    run_on(&mut emu, &op_program(version, op_line), &[pa, pb, po], 1)
        .unwrap_or_else(|e| panic!("{op_line}: {e}"));
    emu.memory().read_u32s(po, 16).unwrap().try_into().unwrap()
}

type Binary = fn(u32, u32) -> u32;

fn check_binary(version: V3dVersion, line: &str, f: Binary, float: bool, seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..4 {
        let gen = |rng: &mut Rng| -> [u32; 16] {
            std::array::from_fn(|_| if float { rng.float() } else { rng.u32() })
        };
        let (a, b) = (gen(&mut rng), gen(&mut rng));
        let got = run_op(version, line, &a, &b);
        for i in 0..16 {
            assert_eq!(
                got[i],
                f(a[i], b[i]),
                "{version:?} `{line}` lane {i}: a={:#x} b={:#x}",
                a[i],
                b[i]
            );
        }
    }
}

fn fl(x: u32) -> f32 {
    f32::from_bits(x)
}

#[test]
fn integer_ops_match_scalar_rust_on_both_versions() {
    let cases: [(&str, Binary); 17] = [
        ("add rf3, rf1, rf2 ; nop", |a, b| a.wrapping_add(b)),
        ("sub rf3, rf1, rf2 ; nop", |a, b| a.wrapping_sub(b)),
        ("min rf3, rf1, rf2 ; nop", |a, b| {
            (a as i32).min(b as i32) as u32
        }),
        ("max rf3, rf1, rf2 ; nop", |a, b| {
            (a as i32).max(b as i32) as u32
        }),
        ("umin rf3, rf1, rf2 ; nop", |a, b| a.min(b)),
        ("umax rf3, rf1, rf2 ; nop", |a, b| a.max(b)),
        ("shl rf3, rf1, rf2 ; nop", |a, b| a << (b % 32)),
        ("shr rf3, rf1, rf2 ; nop", |a, b| a >> (b % 32)),
        ("asr rf3, rf1, rf2 ; nop", |a, b| {
            ((a as i32) >> (b % 32)) as u32
        }),
        ("ror rf3, rf1, rf2 ; nop", |a, b| a.rotate_right(b % 32)),
        ("and rf3, rf1, rf2 ; nop", |a, b| a & b),
        ("or rf3, rf1, rf2 ; nop", |a, b| a | b),
        ("xor rf3, rf1, rf2 ; nop", |a, b| a ^ b),
        ("nop ; add rf3, rf1, rf2", |a, b| a.wrapping_add(b)),
        ("nop ; sub rf3, rf1, rf2", |a, b| a.wrapping_sub(b)),
        ("nop ; umul24 rf3, rf1, rf2", |a, b| {
            ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) & 0xffff_ffff) as u32
        }),
        ("nop ; smul24 rf3, rf1, rf2", |a, b| {
            let s = |v: u32| i64::from(((v << 8) as i32) >> 8);
            (s(a) * s(b)) as u32
        }),
    ];
    for version in V3dVersion::ALL {
        for (i, (line, f)) in cases.iter().enumerate() {
            check_binary(version, line, *f, false, 0x1234 + i as u64);
        }
    }
}

#[test]
fn unary_integer_ops_match_scalar_rust() {
    let cases: [(&str, Binary); 5] = [
        ("not rf3, rf1 ; nop", |a, _| !a),
        ("neg rf3, rf1 ; nop", |a, _| 0u32.wrapping_sub(a)),
        ("clz rf3, rf1 ; nop", |a, _| a.leading_zeros()),
        ("itof rf3, rf1 ; nop", |a, _| (a as i32 as f32).to_bits()),
        ("utof rf3, rf1 ; nop", |a, _| (a as f32).to_bits()),
    ];
    for version in V3dVersion::ALL {
        for (i, (line, f)) in cases.iter().enumerate() {
            check_binary(version, line, *f, false, 0x777 + i as u64);
        }
    }
}

#[test]
fn float_ops_round_to_nearest_like_the_host() {
    // fmin/fmax (and fadd/faddnf) are told apart by operand order; on 4.2 two register-file
    // operands can only give one order, so the 4.2 runs use accumulators X = r1, Y = r2.
    let cases: [(&str, Binary); 8] = [
        ("fadd rf3, X, Y ; nop", |a, b| (fl(a) + fl(b)).to_bits()),
        ("faddnf rf3, X, Y ; nop", |a, b| (fl(a) + fl(b)).to_bits()),
        ("fsub rf3, X, Y ; nop", |a, b| (fl(a) - fl(b)).to_bits()),
        ("fmin rf3, X, Y ; nop", |a, b| fl(a).min(fl(b)).to_bits()),
        ("fmax rf3, X, Y ; nop", |a, b| fl(a).max(fl(b)).to_bits()),
        ("nop ; fmul rf3, X, Y", |a, b| (fl(a) * fl(b)).to_bits()),
        ("fsub rf3, X.abs, Y ; nop", |a, b| {
            (fl(a).abs() - fl(b)).to_bits()
        }),
        ("nop ; fmul rf3, X, Y.abs", |a, b| {
            (fl(a) * fl(b).abs()).to_bits()
        }),
    ];
    for version in V3dVersion::ALL {
        for (i, (line, f)) in cases.iter().enumerate() {
            let line = match version {
                V3dVersion::V42 => format!(
                    "or r1, rf1, rf1 ; nop\n or r2, rf2, rf2 ; nop\n {}",
                    line.replace('X', "r1").replace('Y', "r2")
                ),
                V3dVersion::V71 => line.replace('X', "rf1").replace('Y', "rf2"),
            };
            check_binary(version, &line, *f, true, 0x999 + i as u64);
        }
    }
}

#[test]
fn multiply_rounds_to_nearest_unlike_videocore_iv() {
    // (1 + 2^-23) · 1.75 = 1.75 + 1.75·2^-23: round-to-nearest gives 1.75 + 2 units in the
    // last place; the VideoCore IV's truncation gives 1 unit.
    let a = [0x3f80_0001; 16];
    let b = [1.75f32.to_bits(); 16];
    for version in V3dVersion::ALL {
        let got = run_op(version, "nop ; fmul rf3, rf1, rf2", &a, &b);
        assert_eq!(got[0], 1.75f32.to_bits() + 2);
        assert_eq!(crate::float::fmul(a[0], b[0]), 1.75f32.to_bits() + 1);
    }
}

#[test]
fn rounding_and_conversion_ops() {
    let inputs: [f32; 16] = [
        0.5, 1.5, 2.5, -0.5, -1.5, 3.7, -3.7, 0.0, -0.0, 1e9, -1e9, 123.456, -7.5, 7.5, 0.25, 3e9,
    ];
    let a = inputs.map(f32::to_bits);
    let cases: [(&str, fn(f32) -> u32); 6] = [
        ("fround rf3, rf1 ; nop", |x| x.round_ties_even().to_bits()),
        ("ftrunc rf3, rf1 ; nop", |x| x.trunc().to_bits()),
        ("ffloor rf3, rf1 ; nop", |x| x.floor().to_bits()),
        ("fceil rf3, rf1 ; nop", |x| x.ceil().to_bits()),
        // Saturating, as Rust's `as` saturates too.
        ("ftoiz rf3, rf1 ; nop", |x| x as i32 as u32),
        ("ftoin rf3, rf1 ; nop", |x| {
            x.round_ties_even() as i32 as u32
        }),
    ];
    for version in V3dVersion::ALL {
        for (line, f) in cases {
            let got = run_op(version, line, &a, &a);
            for i in 0..16 {
                assert_eq!(got[i], f(inputs[i]), "{version:?} {line} of {}", inputs[i]);
            }
        }
    }
}

#[test]
fn sfu_ops_compute_the_functions() {
    let inputs: [f32; 16] = std::array::from_fn(|i| 0.25 + i as f32 * 0.5);
    let a = inputs.map(f32::to_bits);
    let cases: [(&str, fn(f64) -> f64); 5] = [
        ("recip rf3, rf1 ; nop", |x| 1.0 / x),
        ("rsqrt2 rf3, rf1 ; nop", |x| 1.0 / x.sqrt()),
        ("rsqrt rf3, rf1 ; nop", |x| 1.0 / x.sqrt()),
        ("exp rf3, rf1 ; nop", f64::exp2),
        ("log rf3, rf1 ; nop", f64::log2),
    ];
    for version in V3dVersion::ALL {
        for (line, f) in cases {
            let got = run_op(version, line, &a, &a);
            for i in 0..16 {
                let want = f(f64::from(inputs[i])) as f32;
                assert_eq!(got[i], want.to_bits(), "{version:?} {line}");
            }
        }
    }
}

#[test]
fn legacy_sfu_register_on_4_2_lands_in_r4_two_instructions_later() {
    let a: [u32; 16] = std::array::from_fn(|i| (i as f32 + 1.0).to_bits());
    let got = run_op(
        V42,
        "or recip, rf1, rf1 ; nop\n nop ; nop\n or rf3, r4, r4 ; nop",
        &a,
        &a,
    );
    for i in 0..16 {
        assert_eq!(got[i], (1.0 / (i as f32 + 1.0)).to_bits());
    }
}

#[test]
fn half_float_pack_keeps_the_other_half_and_unpack_reads_it_back() {
    let a: [u32; 16] = std::array::from_fn(|i| (i as f32 * 0.5).to_bits());
    let b: [u32; 16] = [0x1234_5678; 16];
    // rf3 starts as b; the .l pack replaces its low half with f16(a + a).
    let got = run_op(
        V42,
        "or rf3, rf2, rf2 ; nop\n fadd.l rf3, rf1, rf1 ; nop",
        &a,
        &b,
    );
    for i in 0..16 {
        let half = half::from_f32(i as f32);
        assert_eq!(got[i], 0x1234_0000 | half, "lane {i}");
    }
    // fmov with the .l input unpack turns that half back into the f32.
    let c: [u32; 16] = std::array::from_fn(|i| 0xabcd_0000 | half::from_f32(i as f32 * 3.0));
    let got = run_op(V42, "nop ; fmov rf3, rf1.l", &c, &c);
    for i in 0..16 {
        assert_eq!(got[i], (i as f32 * 3.0).to_bits());
    }
}

/// f16 encodings of small exact values, by hand.
mod half {
    pub fn from_f32(x: f32) -> u32 {
        if x == 0.0 {
            return 0;
        }
        let bits = x.to_bits();
        let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
        assert!(
            (1..31).contains(&exp) && bits & 0x1fff == 0,
            "not exact in f16"
        );
        (bits >> 16 & 0x8000) | (exp as u32) << 10 | (bits >> 13 & 0x3ff)
    }
}

#[test]
fn seven_one_mov_unpacks_halves_as_integers() {
    let a: [u32; 16] =
        std::array::from_fn(|i| 0x8001_7ffe_u32.wrapping_add(i as u32 * 0x0003_0005));
    let cases: [(&str, fn(u32) -> u32); 4] = [
        ("mov rf3, rf1.ul ; nop", |x| x & 0xffff),
        ("mov rf3, rf1.uh ; nop", |x| x >> 16),
        ("mov rf3, rf1.il ; nop", |x| x as u16 as i16 as i32 as u32),
        ("nop ; mov rf3, rf1.ih", |x| {
            (x >> 16) as u16 as i16 as i32 as u32
        }),
    ];
    for (line, f) in cases {
        let got = run_op(V71, line, &a, &a);
        for i in 0..16 {
            assert_eq!(got[i], f(a[i]), "{line}");
        }
    }
}

/// py-videocore6 tests/test_condition_codes.py, test_cond_update: A starts as "lane even"
/// (pushz of eidx & 1), then `sub` of eidx − 5 updates it; the hardware result is
/// op(a, not?(b < 0 or b == 0)).
#[test]
fn flag_updates_match_the_hardware_test() {
    let updates = [
        "andz", "andnz", "nornz", "norz", "andn", "andnn", "nornn", "norn",
    ];
    for version in V3dVersion::ALL {
        for u in updates {
            let (t0, one) = match version {
                V3dVersion::V42 => ("r0", "r1"),
                V3dVersion::V71 => ("rf20", "rf21"),
            };
            let line = format!(
                "eidx {t0} ; nop
                 and.pushz {one}, {t0}, 1 ; nop
                 sub.{u} {one}, {t0}, 5 ; nop
                 mov.ifa rf3, 1 ; mov rf3, 0
                 "
            );
            // The last line has both ALUs writing rf3: split it.
            let line = line.replace(
                "mov.ifa rf3, 1 ; mov rf3, 0",
                "nop ; mov rf3, 0\n or.ifa rf3, rf5, rf5 ; nop",
            );
            let line = format!("or rf5, rf1, rf1 ; nop\n{line}");
            let ones = [1u32; 16];
            let got = run_op(version, &line, &ones, &ones);
            for lane in 0..16u32 {
                let a = lane % 2 == 0;
                let b = lane as i32 - 5;
                let x = if u.ends_with('z') { b == 0 } else { b < 0 };
                let x = if u[3..u.len() - 1] == *"n" { !x } else { x };
                let want = if u.starts_with("and") {
                    a && x
                } else {
                    !(a || x)
                };
                assert_eq!(
                    got[lane as usize],
                    u32::from(want),
                    "{version:?} {u} lane {lane}"
                );
            }
        }
    }
}

/// py-videocore6 test_cond_push_b: a push moves A to B. pushc of a subtraction is the
/// unsigned borrow (test_cond_push_a).
#[test]
fn push_moves_a_to_b_and_carry_is_the_borrow() {
    let line = "
        eidx rf20 ; nop
        sub.pushc rf21, rf20, 10 ; nop
        sub.pushz rf21, rf20, 5 ; nop
        or rf3, rf20, rf20 ; nop
        or.ifb rf3, rf1, rf1 ; nop
        ";
    let big = [1000u32; 16];
    for version in V3dVersion::ALL {
        let got = run_op(version, line, &big, &big);
        for lane in 0..16u32 {
            let want = if lane < 10 { 1000 } else { lane };
            assert_eq!(got[lane as usize], want, "{version:?} lane {lane}");
        }
    }
}

#[test]
fn rotate_on_4_2_moves_lane_i_minus_n_to_lane_i() {
    let a: [u32; 16] = std::array::from_fn(|i| 100 + i as u32);
    let got = run_op(
        V42,
        "or r1, rf1, rf1 ; nop\n nop ; nop\n nop ; mov rf3, r1 ; rot.3",
        &a,
        &a,
    );
    for i in 0..16 {
        assert_eq!(got[i], a[(i + 16 - 3) % 16]);
    }
}

/// out[i] = in[i] · scale over `chunks` 16-float chunks, each QPU taking every n-th chunk
/// in a loop with a conditional branch; written once per version.
fn scale_kernel(version: V3dVersion) -> String {
    let (t0, t1, t2, t3, u, wg) = match version {
        V3dVersion::V42 => ("r0", "r1", "r2", "r3", "r5", "rf0"),
        V3dVersion::V71 => ("rf4", "rf5", "rf6", "rf7", "rf0", "rf3"),
    };
    format!(
        "
        shl {t1}, {wg}, 6 ; nop
        eidx {t0} ; nop ; ldunif
        shl {t0}, {t0}, 2 ; nop
        add rf10, {u}, {t0} ; nop ; ldunif
        add rf11, {u}, {t0} ; nop ; ldunif
        or rf12, {u}, {u} ; nop ; ldunif
        or rf13, {u}, {u} ; nop ; ldunif
        or rf14, {u}, {u} ; nop
        add rf10, rf10, {t1} ; nop
        add rf11, rf11, {t1} ; nop
    loop:
        or tmua, rf10, rf10 ; nop
        sub.pushz rf13, rf13, 1 ; nop
        nop ; nop ; ldtmu.{t2}
        nop ; fmul {t3}, {t2}, rf12
        or tmud, {t3}, {t3} ; nop
        or tmua, rf11, rf11 ; nop
        b.anyna loop
        add rf10, rf10, rf14 ; nop
        add rf11, rf11, rf14 ; nop
        nop ; nop
        tmuwt ; nop
        {END}"
    )
}

#[test]
fn scale_kernel_runs_on_several_qpus_with_a_loop() {
    for (version, qpus) in [(V42, 8usize), (V42, 3), (V71, 12), (V71, 16)] {
        let per_qpu = 3u32;
        let chunks = qpus as u32 * per_qpu;
        let mut rng = Rng(42 + qpus as u64);
        let input: Vec<u32> = (0..chunks * 16).map(|_| rng.float()).collect();
        let scale = 1.37f32;
        let mut emu = machine(version, qpus, 1);
        let mem = emu.memory_mut();
        let pin = mem.alloc(chunks * 64, 64).unwrap();
        let pout = mem.alloc(chunks * 64, 64).unwrap();
        mem.write_u32s(pin, &input).unwrap();
        let uniforms = [pin, pout, scale.to_bits(), per_qpu, qpus as u32 * 64];
        let report = run_on(&mut emu, &scale_kernel(version), &uniforms, qpus as u32)
            .unwrap_or_else(|e| panic!("{version:?}: {e}"));
        let out = emu.memory().read_u32s(pout, chunks * 16).unwrap();
        for (i, (&x, &y)) in input.iter().zip(&out).enumerate() {
            assert_eq!(y, (fl(x) * scale).to_bits(), "{version:?} element {i}");
        }
        assert_eq!(report.batches, u64::from(qpus as u32));
        for q in &report.qpus {
            assert_eq!(q.batches, 1);
            assert_eq!(q.tmu_loads, u64::from(per_qpu));
            assert_eq!(q.tmu_stores, u64::from(per_qpu));
            // 10 set-up + 10 per iteration + tmuwt + 7 end instructions.
            assert_eq!(q.instructions, 10 + 10 * u64::from(per_qpu) + 1 + 7);
        }
        assert!(report.cycles() > 0);
        assert!(report.to_string().contains("calibrated model"));
        // The report lists the run under the kernel's perfmon names, cycle count first.
        let text = report.to_string();
        assert!(
            text.contains(&format!(
                "perfmon counters: cycle-count {},",
                report.cycles()
            )),
            "{text}"
        );
        assert!(text.contains(&format!("QPU-active {},", report.instructions())));
    }
}

#[test]
fn more_batches_than_threads_reuse_the_slots_and_threads_interleave() {
    // 10 workgroups on 2 QPUs × 2 threads: each batch stores its workgroup id.
    let text = format!(
        "
        eidx r0 ; nop ; ldunif
        shl r0, r0, 2 ; nop
        shl r1, rf0, 6 ; nop
        add r0, r0, r1 ; nop
        add r0, r0, r5 ; nop
        or tmud, rf0, rf0 ; nop
        or tmua, r0, r0 ; nop
        tmuwt ; nop
        {END}"
    );
    let mut emu = machine(V42, 2, 2);
    let out = emu.memory_mut().alloc(10 * 64, 64).unwrap();
    let report = run_on(&mut emu, &text, &[out], 10).unwrap();
    let got = emu.memory().read_u32s(out, 160).unwrap();
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, i as u32 / 16);
    }
    assert_eq!(report.batches, 10);
    assert_eq!(report.qpus.iter().map(|q| q.batches).sum::<u64>(), 10);
}

#[test]
fn payload_gives_workgroup_ids_and_local_invocation_index() {
    // Workgroups 2×3×2 of 32 invocations: each lane stores its payload words.
    let mut emu = machine(V71, 4, 1);
    let text = format!(
        "
        tidx rf4 ; nop ; ldunif
        eidx rf5 ; nop
        shl rf5, rf5, 3 ; nop
        add rf5, rf5, rf0 ; nop
        or tmud, rf3, rf3 ; nop
        or tmud, rf2, rf2 ; nop
        or tmua, rf5, rf5 ; nop ; wrtmuc
        tmuwt ; nop
        {END}"
    );
    let _ = &text;
    let program = v3d::assemble(V71, &text).unwrap();
    let code = emu.load_instructions(&program).unwrap();
    let n = 2 * 3 * 2 * 2;
    let out = emu.memory_mut().alloc(n * 128, 64).unwrap();
    let unif = emu.load_uniforms(&[0xffff_fffa]).unwrap();
    // Each batch writes the same 128 bytes; check the last batch (z=1, y=2, x=1, k=1)
    // and run with one QPU so the order is the batch order.
    let _ = out;
    let unif_per = emu.load_uniforms(&[out, 0xffff_fffa]).unwrap();
    let _ = unif;
    let job = CsdJob {
        code,
        uniforms: unif_per,
        workgroups: [2, 3, 2],
        workgroup_size: 32,
        single_segment: false,
    };
    let report = emu.dispatch(&job).unwrap();
    assert_eq!(report.batches, u64::from(n));
    let got = emu.memory().read_u32s(out, 32).unwrap();
    for lane in 0..16u32 {
        assert_eq!(got[2 * lane as usize], 1 | 2 << 16, "payload0 lane {lane}");
        // bits = 6 for 32 invocations (max(32, 64) = 64): index 16 + lane in bits 31:26.
        assert_eq!(
            got[2 * lane as usize + 1],
            1 | (16 + lane) << 26,
            "payload1 lane {lane}"
        );
    }
}

#[test]
fn branch_link_and_uniform_reposition() {
    // A `ub` branch reads a uniform: the offset of the target's uniforms from the uniform
    // after the branch's own (Mesa qpu_schedule.c); the stream restarts there when taken.
    let text = format!(
        "
        nop ; nop ; ldunif
        or rf21, rf0, rf0 ; nop
        mov rf20, 2 ; nop
        eidx rf22 ; nop
        shl rf22, rf22, 2 ; nop
        add rf21, rf21, rf22 ; nop
        mov rf23, 0 ; nop
    again:
        nop ; nop ; ldunif
        add rf23, rf23, rf0 ; nop
        sub.pushz rf20, rf20, 1 ; nop
        b.anyna again, ub, bdu 1
        nop ; nop
        nop ; nop
        nop ; nop
        or tmud, rf23, rf23 ; nop
        or tmua, rf21, rf21 ; nop
        tmuwt ; nop
        {END}"
    );
    let mut emu = machine(V71, 1, 1);
    let out = emu.memory_mut().alloc(64, 64).unwrap();
    // Stream: out, 5, (branch uniform) -8, 9. First pass reads 5, the branch reads -8 and
    // sends the pointer back to the 5; the second pass reads 5 again, then the untaken
    // branch consumes -8. Sum 10.
    let report = run_on(&mut emu, &text, &[out, 5, (-8i32) as u32, 9], 1).unwrap();
    assert_eq!(emu.memory().read_u32s(out, 16).unwrap(), vec![10; 16]);
    assert_eq!(report.qpus[0].uniforms, 5);
}

#[test]
fn ldunifa_reads_the_second_stream() {
    let text = format!(
        "
        nop ; nop ; ldunif
        or unifa, rf0, rf0 ; nop ; ldunif
        eidx rf4 ; nop
        shl rf4, rf4, 2 ; nop
        add rf5, rf0, rf4 ; nop
        nop ; nop ; ldunifa
        nop ; nop ; ldunifarf.rf6
        add rf7, rf0, rf6 ; nop
        or tmud, rf7, rf7 ; nop
        or tmua, rf5, rf5 ; nop
        tmuwt ; nop
        {END}"
    );
    let mut emu = machine(V71, 1, 1);
    let data = emu.memory_mut().alloc(8, 16).unwrap();
    emu.memory_mut().write_u32s(data, &[30, 12]).unwrap();
    let out = emu.memory_mut().alloc(64, 64).unwrap();
    run_on(&mut emu, &text, &[data, out], 1).unwrap();
    assert_eq!(emu.memory().read_u32s(out, 16).unwrap(), vec![42; 16]);
}

// ---- Hazards: one test per rule. ----

fn hazard(version: V3dVersion, body: &str) -> V3dRule {
    // Two thread slots (one batch): the rules for a QPU that may switch threads apply.
    let mut emu = machine(version, 1, 2);
    let out = emu.memory_mut().alloc(64, 64).unwrap();
    rule_of(run_on(
        &mut emu,
        &format!("{body}\n{END}"),
        &[out, out, out, out],
        1,
    ))
}

#[test]
fn branch_and_thrsw_placement_rules() {
    assert_eq!(
        hazard(V42, "b l\n b l\n l:\n nop ; nop\n nop ; nop"),
        V3dRule::BranchInBranchDelaySlot
    );
    assert_eq!(
        hazard(V42, "nop ; nop ; thrsw\n b l\n l:\n nop ; nop"),
        V3dRule::BranchInThrswDelaySlot
    );
    assert_eq!(
        hazard(V71, "b l\n nop ; nop\n nop ; nop ; thrsw\n l:\n nop ; nop"),
        V3dRule::ThrswInBranchDelaySlot
    );
    assert_eq!(
        hazard(V42, "nop ; nop ; thrsw\n nop ; nop\n nop ; nop ; thrsw"),
        V3dRule::ThrswTooClose
    );
    let two_pairs = "
        nop ; nop ; thrsw
        nop ; nop ; thrsw
        nop ; nop
        nop ; nop
        nop ; nop ; thrsw
        nop ; nop ; thrsw";
    assert_eq!(hazard(V71, two_pairs), V3dRule::TwoLastThrsw);
}

#[test]
fn sfu_rules_on_4_2() {
    assert_eq!(
        hazard(
            V42,
            "eidx r0 ; nop\n or recip, r0, r0 ; nop\n or r1, r4, r4 ; nop"
        ),
        V3dRule::SfuTooSoon { what: "an r4 read" }
    );
    assert_eq!(
        hazard(
            V42,
            "eidx r0 ; nop\n or recip, r0, r0 ; nop\n or exp, r0, r0 ; nop"
        ),
        V3dRule::SfuTooSoon {
            what: "another SFU write"
        }
    );
    assert_eq!(
        hazard(V42, "eidx r0 ; nop ; thrsw\n or recip, r0, r0 ; nop"),
        V3dRule::SfuInThrswDelaySlot
    );
    assert_eq!(
        hazard(V42, "eidx r0 ; nop\n or tmud, r0, r0 ; mov recip, r0"),
        V3dRule::PeripheralConflict
    );
}

#[test]
fn program_end_rules() {
    let end_with = |slot: usize, line: &str| {
        let mut lines: Vec<&str> = END.trim().lines().map(str::trim).collect();
        lines[4 + slot] = line;
        lines.join("\n")
    };
    let run = |version, text: String| {
        let mut emu = machine(version, 1, 1);
        rule_of(run_on(&mut emu, &format!("eidx rf1 ; nop\n{text}"), &[], 1))
    };
    assert!(matches!(
        run(V42, end_with(1, "or rf5, rf1, rf1 ; nop")),
        V3dRule::RfWriteAfterThrend { .. }
    ));
    assert!(matches!(
        run(V71, end_with(0, "or rf5, rf1, rf1 ; nop ; thrsw")),
        V3dRule::RfWriteAfterThrend { .. }
    ));
    assert!(matches!(
        run(V71, end_with(2, "or rf2, rf1, rf1 ; nop")),
        V3dRule::RfWriteAfterThrend { .. }
    ));
    assert_eq!(run(V71, end_with(2, "tmuwt ; nop")), V3dRule::TmuwtLast);
    // 7.1 allows other rf writes in the delay slots.
    let mut emu = machine(V71, 1, 1);
    let text = format!("eidx rf1 ; nop\n{}", end_with(1, "or rf5, rf1, rf1 ; nop"));
    run_on(&mut emu, &text, &[], 1).unwrap();
}

#[test]
fn uniform_and_tmu_rules() {
    assert_eq!(
        hazard(
            V42,
            "nop ; nop ; ldunif\n or unifa, r5, r5 ; nop\n nop ; nop\n nop ; nop ; ldunifa"
        ),
        V3dRule::LdunifaTooSoon { distance: 2 }
    );
    assert_eq!(
        hazard(V71, "nop ; nop ; ldunifa"),
        V3dRule::LdunifaWithoutUnifa
    );
    assert_eq!(hazard(V71, "nop ; nop ; ldtmu.rf1"), V3dRule::LdtmuEmpty);
    // (`hazard` runs two thread slots: 8 result words each.)
    let mut loads = String::from("nop ; nop ; ldunif\n");
    for _ in 0..9 {
        loads.push_str("or tmua, rf0, rf0 ; nop\n");
    }
    assert_eq!(
        hazard(V71, &loads),
        V3dRule::TmuOutputFifoOverflow { words: 9, limit: 8 }
    );
    assert_eq!(
        hazard(
            V42,
            "eidx r0 ; nop ; ldunif\n or tmuau, r5, r5 ; nop ; ldunif"
        ),
        V3dRule::TwoUniformReads
    );
    let mut data = String::from("eidx r0 ; nop\n");
    for _ in 0..5 {
        data.push_str("or tmud, r0, r0 ; nop\n");
    }
    assert_eq!(hazard(V42, &data), V3dRule::TmuDataOverflow);
}

#[test]
fn register_rules() {
    assert_eq!(
        hazard(V42, "eidx r0 ; nop\n or r5, r0, r0 ; nop ; ldunif"),
        V3dRule::DoubleWrite {
            register: "r5".into()
        }
    );
    assert_eq!(
        hazard(V42, "eidx r1 ; nop\n nop ; mov r2, r1 ; rot.1"),
        V3dRule::RotateTooSoon
    );
    // 4 threads: 32 registers each.
    let mut emu = machine(V42, 1, 4);
    let r = rule_of(run_on(&mut emu, &format!("eidx rf40 ; nop\n{END}"), &[], 1));
    assert_eq!(
        r,
        V3dRule::RegisterOutOfRange {
            index: 40,
            limit: 32
        }
    );
    // rtop does not survive a thread switch.
    let text = "eidx r0 ; nop\n nop ; multop r0, r0\n nop ; nop ; thrsw\n nop ; nop\n nop ; nop\n eidx r0 ; nop\n nop ; umul24 r1, r0, r0";
    assert_eq!(hazard(V42, text), V3dRule::MultopAcrossThrsw);
}

#[test]
fn seven_one_small_immediate_rules() {
    let mut nop = AluInstruction::nop(V71);
    nop.signals = Signals::NONE.with(Signal::SmallImmA);
    let mut program = vec![v3d::Instruction::Alu(nop)];
    program.extend(v3d::assemble(V71, END).unwrap());
    let mut emu = machine(V71, 1, 1);
    let code = emu.load_instructions(&program).unwrap();
    let unif = emu.load_uniforms(&[]).unwrap();
    let fault = fault_of(emu.dispatch(&CsdJob::per_qpu(code, unif, 1)));
    assert!(matches!(
        fault,
        V3dFault::Rule(V3dRule::SmallImmediate { .. })
    ));
}

#[test]
fn multop_umul24_gives_the_full_low_product() {
    let mut rng = Rng(5);
    let a: [u32; 16] = std::array::from_fn(|_| rng.u32());
    let b: [u32; 16] = std::array::from_fn(|_| rng.u32());
    let got = run_op(
        V42,
        "nop ; multop rf1, rf2\n nop ; umul24 rf3, rf1, rf2",
        &a,
        &b,
    );
    for i in 0..16 {
        assert_eq!(got[i], a[i].wrapping_mul(b[i]));
    }
}

#[test]
fn errors_name_qpu_pc_and_instruction() {
    let mut emu = machine(V42, 2, 1);
    let bad = emu.memory_mut().alloc(4, 4).unwrap();
    let out = emu.memory_mut().alloc(64, 64).unwrap();
    // A TMU load past the end of a 4-byte buffer: lane 1 reads bad + 4, an undefined value
    // that is an error where it is stored, naming the load.
    let load = "eidx r0 ; nop ; ldunif\n shl r0, r0, 2 ; nop\n add r0, r0, r5 ; nop ; ldunif\n or tmua, r0, r0 ; nop\n nop ; nop ; ldtmu.r1\n"
        .to_string();
    let text = format!(
        "{load} sub r0, r0, r5 ; nop ; ldunif\n add r0, r0, r5 ; nop\n or tmud, r1, r1 ; nop\n or tmua, r0, r0 ; nop\n tmuwt ; nop\n{END}"
    );
    let err = run_on(&mut emu, &text, &[bad, bad, out], 1).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("QPU 0") && message.contains("tmua"),
        "{message}"
    );
    let EmuError::V3dFault {
        fault:
            V3dFault::Rule(V3dRule::UndefinedValueUsed {
                what,
                origin_address,
                origin_pc,
                ..
            }),
        ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!(what, "the value stored");
    assert_eq!(origin_address, Some(bad + 4));
    assert!(origin_pc.is_some());
    // Left unused, the same load runs.
    let mut emu = machine(V42, 2, 1);
    let bad = emu.memory_mut().alloc(4, 4).unwrap();
    run_on(&mut emu, &format!("{load}{END}"), &[bad, bad], 1).unwrap();
    // A store outside every buffer is a TMU fault naming the lane.
    let text = format!(
        "eidx r0 ; nop ; ldunif\n shl r0, r0, 2 ; nop\n add r0, r0, r5 ; nop\n or tmud, r0, r0 ; nop\n or tmua, r0, r0 ; nop\n tmuwt ; nop\n{END}"
    );
    let err = run_on(&mut emu, &text, &[bad], 1).unwrap_err();
    assert!(
        matches!(
            err,
            EmuError::V3dFault {
                fault: V3dFault::Tmu {
                    access: TmuAccess::Store,
                    lane: 1,
                    source: MemoryError::Unmapped { .. } | MemoryError::PastEnd { .. },
                },
                ..
            }
        ),
        "{err:?}"
    );
    // A word that is no instruction.
    let code = emu.load_program(&[0]).unwrap();
    let unif = emu.load_uniforms(&[]).unwrap();
    assert!(matches!(
        fault_of(emu.dispatch(&CsdJob::per_qpu(code, unif, 1))),
        V3dFault::Decode(_)
    ));
}

#[test]
fn budget_stops_an_endless_loop() {
    let mut emu = machine(V71, 1, 1);
    let text = "l:\n b l\n nop ; nop\n nop ; nop\n nop ; nop";
    let err = run_on(&mut emu, text, &[], 1).unwrap_err();
    assert!(matches!(err, EmuError::Budget { .. }));
}

#[test]
fn config_and_launch_are_checked() {
    let mut c = V3dConfig::new(V42);
    c.qpus = 9;
    assert!(V3dEmulator::new(c).is_err());
    let mut c = V3dConfig::new(V71);
    c.threads = 3;
    assert!(V3dEmulator::new(c).is_err());
    let mut emu = machine(V71, 1, 1);
    let code = emu.load_program(&[0]).unwrap();
    let mut job = CsdJob::per_qpu(code, 0, 1);
    job.workgroup_size = 20;
    assert!(matches!(emu.dispatch(&job), Err(EmuError::Launch(_))));
}

/// Arbitrary decodable words never make the emulator panic: each program is a prologue
/// that defines every register, then random instructions.
#[test]
fn random_programs_never_panic() {
    let mut rng = Rng(0x5eed);
    for version in V3dVersion::ALL {
        let prologue = |regs: u8| {
            let mut text = String::new();
            for r in 0..regs {
                text.push_str(&format!("eidx rf{r} ; nop\n"));
            }
            if version == V42 {
                for r in 0..6 {
                    text.push_str(&format!("eidx r{r} ; nop\n"));
                }
            }
            v3d::assemble(version, &text).unwrap()
        };
        for _ in 0..3000 {
            let threads = [1u8, 2, 4][(rng.next() % 3) as usize];
            let head = prologue(if threads == 4 { 32 } else { 64 });
            let mut words: Vec<u64> = head.iter().map(|i| i.encode(version).unwrap()).collect();
            let mut added = 0;
            while added < 12 {
                // Half the words without signals and with register-file destinations, so
                // that more of them get past the graphics-only features to the ALUs.
                let mut w = rng.next();
                if rng.next().is_multiple_of(2) {
                    w &= !(0x1f << 53 | 3 << 44);
                }
                if v3d::decode(version, w).is_ok() {
                    words.push(w);
                    added += 1;
                }
            }
            let mut emu = machine(version, 2, threads);
            let buf = emu.memory_mut().alloc(256, 64).unwrap();
            let code = emu.load_program(&words).unwrap();
            let unif = emu.load_uniforms(&[buf; 8]).unwrap();
            let _ = emu.dispatch(&CsdJob::per_qpu(code, unif, 3));
        }
    }
}

/// The `what` of an undefined-value error.
pub(super) fn undefined_use(result: Result<V3dRunReport, EmuError>) -> (&'static str, u16, String) {
    match rule_of(result) {
        V3dRule::UndefinedValueUsed {
            what,
            lanes,
            origin,
            ..
        } => (what, lanes, origin),
        other => panic!("expected an undefined value used, got {other:?}"),
    }
}

#[test]
fn accumulators_survive_a_switch_only_when_no_other_thread_runs() {
    // r1 kept across a thrsw, then stored.
    let body = "eidx r1 ; nop ; ldunif
        shl rf1, r1, 2 ; nop
        add rf1, rf1, r5 ; nop
        nop ; nop ; thrsw
        nop ; nop
        nop ; nop
        or tmud, r1, r1 ; nop
        or tmua, rf1, rf1 ; nop
        tmuwt ; nop";
    let program = format!("{body}\n{END}");
    // Two thread slots, two batches: the other thread runs in between and r1 is lost.
    let mut emu = machine(V42, 1, 2);
    let out = emu.memory_mut().alloc(64, 64).unwrap();
    let (what, lanes, origin) = undefined_use(run_on(&mut emu, &program, &[out], 2));
    assert_eq!((what, lanes), ("the value stored", 0xffff));
    assert!(origin.contains("r1 after the thread switch"), "{origin}");
    // Two slots, one batch: the switch hands the QPU straight back; r1 survives.
    let mut emu = machine(V42, 1, 2);
    let out = emu.memory_mut().alloc(64, 64).unwrap();
    run_on(&mut emu, &program, &[out], 1).unwrap();
    assert_eq!(
        emu.memory().read_u32s(out, 16).unwrap(),
        (0..16).collect::<Vec<u32>>()
    );
}

#[test]
fn flags_survive_a_switch_between_threads() {
    // Mesa vir_opt_redundant_flags.c: "In V3D 4.2+ flags are preserved across thread
    // switches". Each of four threads pushes lane < 3 and uses it after the switch.
    for version in [V42, V71] {
        // Each thread's 16 words at uniform + 64 * (tidx & 3).
        let body = format!(
            "eidx rf1 ; nop ; ldunif
            sub.pushn rf2, rf1, 3 ; nop
            shl rf3, rf1, 2 ; nop
            add rf3, rf3, {} ; nop
            tidx rf4 ; nop
            and rf4, rf4, 3 ; nop
            shl rf4, rf4, 6 ; nop
            add rf3, rf3, rf4 ; nop ; thrsw
            nop ; nop
            nop ; nop
            xor rf5, rf1, rf1 ; nop
            sub rf5, rf5, 1 ; nop
            or.ifa rf5, rf1, rf1 ; nop
            or tmud, rf5, rf5 ; nop
            or tmua, rf3, rf3 ; nop
            tmuwt ; nop",
            if version == V42 { "r5" } else { "rf0" }
        );
        let mut emu = machine(version, 1, 4);
        let out = emu.memory_mut().alloc(256, 64).unwrap();
        run_on(&mut emu, &format!("{body}\n{END}"), &[out], 4).unwrap();
        let words = emu.memory().read_u32s(out, 64).unwrap();
        for (i, w) in words.iter().enumerate() {
            let lane = (i % 16) as u32;
            assert_eq!(
                *w,
                if lane < 3 { lane } else { u32::MAX },
                "{version:?} word {i}"
            );
        }
        // Without the push, the flags are whatever the QPU held when the batch started:
        // the conditional write leaves every lane undefined, an error at the store.
        let body = body.replace("sub.pushn rf2, rf1, 3 ; nop", "sub rf2, rf1, 3 ; nop");
        let mut emu = machine(version, 1, 4);
        let out = emu.memory_mut().alloc(256, 64).unwrap();
        let (what, lanes, _) =
            undefined_use(run_on(&mut emu, &format!("{body}\n{END}"), &[out], 4));
        assert_eq!((what, lanes), ("the value stored", 0xffff));
    }
}

#[test]
fn undefined_registers_are_poison_until_used() {
    for version in [V42, V71] {
        let unif = if version == V42 { "r5" } else { "rf0" };
        let store = |value: &str| {
            format!(
                "eidx rf20 ; nop ; ldunif
                shl rf20, rf20, 2 ; nop
                add rf20, rf20, {unif} ; nop
                {value}
                or tmud, rf1, rf1 ; nop
                or tmua, rf20, rf20 ; nop
                tmuwt ; nop
                {END}"
            )
        };
        // The zeroing idioms define their result; a dead read of an unwritten register is
        // fine.
        for zero in ["xor rf1, rf9, rf9 ; nop", "sub rf1, rf9, rf9 ; nop"] {
            let text = store(&format!("add rf7, rf7, rf10 ; nop\n {zero}"));
            let mut emu = machine(version, 1, 1);
            let out = emu.memory_mut().alloc(64, 64).unwrap();
            emu.memory_mut().write_u32s(out, &[7; 16]).unwrap();
            run_on(&mut emu, &text, &[out], 1).unwrap_or_else(|e| panic!("{zero}: {e}"));
            assert_eq!(emu.memory().read_u32s(out, 16).unwrap(), vec![0; 16]);
        }
        // Storing a value computed from an unwritten register is an error naming it.
        let mut emu = machine(version, 1, 1);
        let out = emu.memory_mut().alloc(64, 64).unwrap();
        let (what, lanes, origin) =
            undefined_use(run_on(&mut emu, &store("add rf1, rf9, 1 ; nop"), &[out], 1));
        assert_eq!((what, lanes), ("the value stored", 0xffff), "{version:?}");
        assert!(origin.contains("rf9, which nothing wrote"), "{origin}");
        // A conditional first write leaves the skipped lanes undefined: lanes 0-2 written.
        let text =
            store("eidx rf2 ; nop\n sub.pushn rf3, rf2, 3 ; nop\n add.ifa rf1, rf2, 1 ; nop");
        let mut emu = machine(version, 1, 1);
        let out = emu.memory_mut().alloc(64, 64).unwrap();
        let (_, lanes, _) = undefined_use(run_on(&mut emu, &text, &[out], 1));
        assert_eq!(lanes, 0xfff8, "{version:?}");
        // An undefined flag deciding a branch; a defined one does not care about lanes the
        // branch cannot see.
        let branch = "add.pushz rf1, rf9, 1 ; nop\n b.anya there\n nop ; nop\n nop ; nop\n nop ; nop\n there:";
        let mut emu = machine(version, 1, 1);
        let (what, _, _) = undefined_use(run_on(&mut emu, &format!("{branch}\n{END}"), &[], 1));
        assert_eq!(what, "the flag deciding the branch");
    }
}

/// me() and num_qpus() the way py-videocore6 and V3DLib get them: the QPU number is
/// (tidx >> 2) & 15 with one thread per QPU, the count a uniform.
#[test]
fn qpu_number_from_tidx_and_count_from_a_uniform() {
    let text = format!(
        "
        tidx r0 ; nop ; ldunif
        shr r0, r0, 2 ; nop
        and r0, r0, 15 ; nop
        shl r1, r0, 6 ; nop
        eidx r2 ; nop
        shl r2, r2, 2 ; nop
        add r1, r1, r2 ; nop
        add r1, r1, r5 ; nop ; ldunif
        add r0, r0, r5 ; nop
        or tmud, r0, r0 ; nop
        or tmua, r1, r1 ; nop
        tmuwt ; nop
        {END}"
    );
    let mut emu = machine(V42, 8, 1);
    let out = emu.memory_mut().alloc(8 * 64, 64).unwrap();
    // Uniforms: out, then num_qpus · 100 (stored as qpu + 800).
    run_on(&mut emu, &text, &[out, 800], 8).unwrap();
    let got = emu.memory().read_u32s(out, 128).unwrap();
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, 800 + i as u32 / 16);
    }
}

/// Each batch loads its 16 words (the uniform's address, plus 4 bytes per lane and 64 per
/// batch index in rf0), switches threads while the load is in flight, adds 1 and stores them
/// back.
fn load_switch_store() -> String {
    format!(
        "
        eidx r0 ; nop ; ldunif
        shl r0, r0, 2 ; nop
        shl r1, rf0, 6 ; nop
        add r0, r0, r1 ; nop
        add rf1, r0, r5 ; nop
        or tmua, rf1, rf1 ; nop ; thrsw
        nop ; nop
        nop ; nop
        nop ; nop ; ldtmu.rf2
        add rf2, rf2, 1 ; nop
        or tmud, rf2, rf2 ; nop
        or tmua, rf1, rf1 ; nop
        tmuwt ; nop
        {END}"
    )
}

/// The cycle model hides TMU latency behind other threads: two batches on one QPU with two
/// threads finish sooner than with one thread (only the direction matters here; the
/// calibration is `tests/v3d_calibration.rs`).
#[test]
fn a_second_thread_hides_tmu_latency() {
    let text = load_switch_store();
    let mut cycles = Vec::new();
    for threads in [1u8, 2] {
        let mut emu = machine(V42, 1, threads);
        let buf = emu.memory_mut().alloc(128, 64).unwrap();
        let report = run_on(&mut emu, &text, &[buf], 2).unwrap();
        // Each batch adds 1 to its workgroup's 16 words.
        assert_eq!(emu.memory().read_u32s(buf, 32).unwrap(), vec![1; 32]);
        cycles.push(report.cycles());
    }
    assert!(cycles[1] < cycles[0], "{cycles:?}");
}

/// The cross-lane and 16-bit ops py-videocore7's tests/test_alu.py checks on a Pi 5,
/// against the same formulas written here lane by lane.
#[test]
fn seven_one_cross_lane_and_vector_ops() {
    let mut rng = Rng(77);
    let a: [u32; 16] = std::array::from_fn(|_| rng.u32());
    let b: [u32; 16] = std::array::from_fn(|_| rng.u32());
    let vadd = run_op(V71, "vadd rf3, rf1, rf2 ; nop", &a, &b);
    let vsub = run_op(V71, "vsub rf3, rf1, rf2 ; nop", &a, &b);
    for i in 0..16 {
        let h = |v: u32, k: u32| (v >> (16 * k)) as u16;
        let join = |lo: u16, hi: u16| u32::from(lo) | u32::from(hi) << 16;
        assert_eq!(
            vadd[i],
            join(
                h(a[i], 0).wrapping_add(h(b[i], 0)),
                h(a[i], 1).wrapping_add(h(b[i], 1))
            )
        );
        assert_eq!(
            vsub[i],
            join(
                h(a[i], 0).wrapping_sub(h(b[i], 0)),
                h(a[i], 1).wrapping_sub(h(b[i], 1))
            )
        );
    }
    let small: [u32; 16] = std::array::from_fn(|i| [0, 3, 0, 7][i % 4] * (i as u32));
    let ballot = run_op(V71, "ballot rf3, rf1 ; nop", &small, &small);
    let want: u32 = (0..16).filter(|&i| small[i] != 0).map(|i| 1 << i).sum();
    assert_eq!(ballot, [want; 16]);
    assert_eq!(run_op(V71, "bcastf rf3, rf1 ; nop", &a, &a), [a[0]; 16]);
    assert_eq!(run_op(V71, "alleq rf3, rf1 ; nop", &a, &a), [0; 16]);
    assert_eq!(run_op(V71, "alleq rf3, rf1 ; nop", &[9; 16], &a), [1; 16]);
    let zeros: [u32; 16] = std::array::from_fn(|i| if i % 2 == 0 { 0 } else { 0x8000_0000 });
    assert_eq!(run_op(V71, "allfeq rf3, rf1 ; nop", &zeros, &a), [1; 16]);
    // fdx / fdy on a 2×2 quad [x0 x1; x2 x3].
    let f: [u32; 16] = std::array::from_fn(|i| ((i * i) as f32).to_bits());
    let fdx = run_op(V71, "fdx rf3, rf1 ; nop", &f, &f);
    let fdy = run_op(V71, "fdy rf3, rf1 ; nop", &f, &f);
    for i in 0..16 {
        let v = |k: usize| (k * k) as f32;
        let l = i & !1;
        assert_eq!(fl(fdx[i]), v(l + 1) - v(l));
        let top = (i & !3) + (i & 1);
        assert_eq!(fl(fdy[i]), v(top + 2) - v(top));
    }
}

/// py-videocore6 tests/test_condition_codes.py `qpu_cond_combination`, written out in this
/// assembler's syntax (py-videocore6's `mov` on the add ALU is `or x, y, y`). The expected
/// rows are the ones that test asserts on a Pi 4.
#[test]
fn py_videocore6_condition_combination_program() {
    let store = "or tmud, r0, r0 ; nop\n or tmua, r2, r2 ; nop\n tmuwt ; add r2, r2, r1\n";
    let store3 = "or tmud, r3, r3 ; nop\n or tmua, r2, r2 ; nop\n tmuwt ; add r2, r2, r1\n";
    let text = format!(
        "
        eidx r0 ; nop ; ldunif
        or r2, r5, r5 ; nop
        shl r0, r0, 2 ; nop
        add r2, r2, r0 ; nop
        shl r1, 4, 4 ; nop
        # if / push
        eidx r0 ; nop
        sub.pushz r0, r0, 10 ; nop
        eidx r0 ; nop
        or.ifa r0, 5, 5 ; sub.pushn r3, r0, 5
        {store}
        eidx r0 ; nop
        or.ifa r0, 0, 0 ; nop
        {store}
        # push / if
        eidx r0 ; nop
        sub.pushz r0, r0, 10 ; nop
        eidx r0 ; nop
        sub.pushn r0, 5 ; mov.ifa r0, 5
        {store}
        eidx r0 ; nop
        or.ifa r0, 0, 0 ; nop
        {store}
        # if / if
        eidx r0 ; nop
        sub.pushn r0, 10 ; nop
        eidx r3 ; nop
        or.ifna r0, 0, 0 ; mov.ifna r3, 0
        {store}
        {store3}
        # update / if
        eidx r0 ; nop
        sub.pushn r0, 10 ; nop
        eidx r3 ; nop
        sub.andn r0, 5 ; mov.ifa r3, 5
        eidx r0 ; nop
        or.ifa r0, 0, 0 ; nop
        {store}
        {store3}
        {END}"
    );
    let mut emu = machine(V42, 1, 1);
    let out = emu.memory_mut().alloc(8 * 64, 64).unwrap();
    run_on(&mut emu, &text, &[out], 1).unwrap();
    let got = emu.memory().read_u32s(out, 128).unwrap();
    let expected: [[u32; 16]; 8] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 11, 12, 13, 14, 15],
        [0, 0, 0, 0, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 11, 12, 13, 14, 15],
        [0, 0, 0, 0, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 11, 12, 13, 14, 15],
    ];
    for (row, want) in expected.iter().enumerate() {
        assert_eq!(&got[row * 16..row * 16 + 16], want, "row {row}");
    }
}

/// Every branch condition against the flag patterns it distinguishes; the expected
/// decisions follow the condition names (a0: lane 0's A, alla/anya: all/any lane's A).
#[test]
fn branch_conditions_read_flag_a() {
    // A = (eidx & mask) == 0 per lane; masks give: all set, none set, only even lanes, all
    // but lane 0... by hand: mask 0 → all; mask 16 → all (eidx < 16); use eidx − k instead.
    let patterns: [(&str, [bool; 16]); 4] = [
        ("and.pushz rf9, rf8, 0", [true; 16]),
        ("or.pushz rf9, rf8, 1", [false; 16]),
        ("and.pushz rf9, rf8, 1", std::array::from_fn(|i| i % 2 == 0)),
        ("sub.pushz rf9, rf8, 3", std::array::from_fn(|i| i == 3)),
    ];
    let conds: [(&str, fn(&[bool; 16]) -> bool); 6] = [
        ("a0", |a| a[0]),
        ("na0", |a| !a[0]),
        ("alla", |a| a.iter().all(|&x| x)),
        ("anyna", |a| a.iter().any(|&x| !x)),
        ("anya", |a| a.iter().any(|&x| x)),
        ("allna", |a| a.iter().all(|&x| !x)),
    ];
    for (push, flags) in patterns {
        for (cond, taken) in conds {
            // rf3 = 1 if the branch is taken, else 2.
            let line = format!(
                "eidx rf8 ; nop\n {push} ; nop\n b.{cond} yes\n nop ; nop\n nop ; nop\n nop ; nop\n mov rf3, 2 ; nop\n b skip\n nop ; nop\n nop ; nop\n nop ; nop\n yes:\n mov rf3, 1 ; nop\n skip:\n nop ; nop"
            );
            let got = run_op(V71, &line, &[0; 16], &[0; 16]);
            let want = if taken(&flags) { 1 } else { 2 };
            assert_eq!(got, [want; 16], "{push} b.{cond}");
        }
    }
}

#[test]
fn link_branch_returns_after_the_delay_slots() {
    let line = "mov rf3, 1 ; nop
        b sub, link
        nop ; nop
        nop ; nop
        nop ; nop
        add rf3, rf3, 10 ; nop
        b done
        nop ; nop
        nop ; nop
        nop ; nop
    sub:
        add rf3, rf3, rf3 ; nop
        b lri
        nop ; nop
        nop ; nop
        nop ; nop
    done:
        nop ; nop";
    // 1 → doubled in the subroutine → 2, then + 10 after the return.
    assert_eq!(run_op(V71, line, &[0; 16], &[0; 16]), [12; 16]);
}

/// py-videocore7 tests/test_tmu.py `qpu_tmu_multiple_write_with_uniform_config` (and the
/// `tmuc` variant), written out in this syntax: n-word TMU stores, lane i writing its words
/// at its own strided address. The expected layout is the one that test asserts on a Pi 5.
#[test]
fn py_videocore7_strided_vector_tmu_writes() {
    let (pad_u, pad_l, pad_r) = (2u32, 3u32, 4u32);
    for n in 1..=4u32 {
        for interleave in 0..=2u32 {
            for via_tmuc in [false, true] {
                let mut text =
                    String::from("mov rf11, 4 ; nop\n shl rf11, rf11, 2 ; nop\n eidx rf10 ; nop\n");
                for _ in 0..n {
                    text.push_str("mov tmud, rf10 ; nop\n add rf10, rf10, rf11 ; nop\n");
                }
                text.push_str("nop ; nop ; ldunifrf.rf0\n nop ; nop ; ldunifrf.rf1\n");
                let config =
                    [0xffff_ffffu32, 0xffff_fffa, 0xffff_fafb, 0xfffa_fbfc][n as usize - 1];
                if via_tmuc {
                    text.push_str("nop ; nop ; ldunifrf.rf2\n mov tmuc, rf2 ; nop\n");
                }
                text.push_str(&format!(
                    "eidx rf10 ; nop\n shl rf10, rf10, 2 ; nop\n nop ; umul24 rf10, rf10, {}\n nop ; umul24 rf10, rf10, rf1\n add {}, rf10, rf0 ; nop\n tmuwt ; nop\n{END}",
                    interleave + 1,
                    if via_tmuc { "tmua" } else { "tmuau" }
                ));
                let rows = pad_u + 16 + 15 * interleave;
                let cols = pad_l + n + pad_r;
                let mut emu = machine(V71, 1, 1);
                let data = emu.memory_mut().alloc(rows * cols * 4, 64).unwrap();
                emu.memory_mut()
                    .write_u32s(data, &vec![u32::MAX; (rows * cols) as usize])
                    .unwrap();
                let start = data + 4 * (pad_u * cols + pad_l);
                run_on(&mut emu, &text, &[start, cols, config], 1)
                    .unwrap_or_else(|e| panic!("n={n} interleave={interleave}: {e}"));
                let got = emu.memory().read_u32s(data, rows * cols).unwrap();
                let mut want = vec![u32::MAX; (rows * cols) as usize];
                for lane in 0..16 {
                    for k in 0..n {
                        let row = pad_u + lane * (interleave + 1);
                        want[(row * cols + pad_l + k) as usize] = k * 16 + lane;
                    }
                }
                assert_eq!(got, want, "n={n} interleave={interleave} tmuc={via_tmuc}");
            }
        }
    }
}

/// py-videocore7 tests/test_tmu.py `qpu_tmu_multiple_read_with_uniform_config`: an n-word
/// TMU load per lane from strided addresses, popped by n `ldtmu`s in order, stored back as
/// rows.
#[test]
fn py_videocore7_strided_vector_tmu_reads() {
    let (pad_u, pad_l, pad_r) = (1u32, 2u32, 3u32);
    for n in 1..=4u32 {
        for interleave in 0..=2u32 {
            let mut text = format!(
                "nop ; nop ; ldunifrf.rf0
                 nop ; nop ; ldunifrf.rf1
                 nop ; nop ; ldunifrf.rf2
                 eidx rf10 ; nop
                 shl rf10, rf10, 2 ; nop
                 nop ; umul24 rf10, rf10, {}
                 nop ; umul24 rf10, rf10, rf2
                 add tmuau, rf0, rf10 ; nop ; thrsw
                 nop ; nop
                 nop ; nop
                 ",
                interleave + 1
            );
            for i in 0..n {
                text.push_str(&format!("nop ; nop ; ldtmu.rf{}\n", 10 + i));
            }
            text.push_str(
                "eidx rf14 ; nop\n shl rf14, rf14, 2 ; nop\n add rf1, rf1, rf14 ; nop\n mov rf14, 4 ; nop\n shl rf14, rf14, 4 ; nop\n",
            );
            for i in 0..n {
                text.push_str(&format!(
                    "mov tmud, rf{} ; nop\n mov tmua, rf1 ; nop\n add rf1, rf1, rf14 ; nop\n tmuwt ; nop\n",
                    10 + i
                ));
            }
            text.push_str(END);
            let rows = pad_u + 16 + 15 * interleave;
            let cols = pad_l + n + pad_r;
            let mut source = vec![u32::MAX; (rows * cols) as usize];
            for lane in 0..16 {
                for k in 0..n {
                    source[((pad_u + lane * (interleave + 1)) * cols + pad_l + k) as usize] =
                        k * 16 + lane;
                }
            }
            let mut emu = machine(V71, 1, 1);
            let src = emu.memory_mut().alloc(rows * cols * 4, 64).unwrap();
            emu.memory_mut().write_u32s(src, &source).unwrap();
            let dst = emu.memory_mut().alloc(n * 64, 64).unwrap();
            let config = [0xffff_ffffu32, 0xffff_fffa, 0xffff_fafb, 0xfffa_fbfc][n as usize - 1];
            let start = src + 4 * (pad_u * cols + pad_l);
            run_on(&mut emu, &text, &[start, dst, cols, config], 1)
                .unwrap_or_else(|e| panic!("n={n} interleave={interleave}: {e}"));
            let got = emu.memory().read_u32s(dst, n * 16).unwrap();
            assert_eq!(
                got,
                (0..n * 16).collect::<Vec<u32>>(),
                "n={n} interleave={interleave}"
            );
        }
    }
}

/// py-videocore6 tests/test_sfu.py `qpu_sfu_regs` (4.2 SFU registers, one nop before r4 is
/// read) and `qpu_sfu_ops` (the ALU forms into an rf register read right away), with the
/// functions that test checks on a Pi 4, including sin's ±1 outside [−0.5, 0.5].
#[test]
fn py_videocore6_sfu_program() {
    let inputs: [f32; 16] = [
        -2.0, -0.75, -0.5, -0.3, -0.1, 0.0, 0.1, 0.25, 0.4, 0.5, 0.6, 1.5, 3.0, 0.05, -0.45, 0.33,
    ];
    let positive = inputs.map(|x| x * x + 1e-6);
    let cases: [(&str, fn(f64) -> f64, bool); 6] = [
        ("recip", |x| 1.0 / x, false),
        ("exp", f64::exp2, false),
        (
            "sin",
            |x| {
                if x < -0.5 {
                    -1.0
                } else if x > 0.5 {
                    1.0
                } else {
                    (x * std::f64::consts::PI).sin()
                }
            },
            false,
        ),
        ("rsqrt", |x| 1.0 / x.sqrt(), true),
        ("log", f64::log2, true),
        ("rsqrt2", |x| 1.0 / x.sqrt(), true),
    ];
    for (name, f, pos) in cases {
        let x = if pos { positive } else { inputs };
        let a = x.map(f32::to_bits);
        let want: Vec<u32> = x
            .iter()
            .map(|&v| (f(f64::from(v)) as f32).to_bits())
            .collect();
        let regs = run_op(
            V42,
            &format!("or r1, rf1, rf1 ; nop\n or {name}, r1, r1 ; nop\n nop ; nop\n or rf3, r4, r4 ; nop"),
            &a,
            &a,
        );
        assert_eq!(regs.to_vec(), want, "register {name}");
        for version in V3dVersion::ALL {
            let op = run_op(version, &format!("{name} rf3, rf1 ; nop"), &a, &a);
            assert_eq!(op.to_vec(), want, "{version:?} op {name}");
        }
    }
}

/// py-videocore7 tests/test_parallel.py `qpu_parallel` (without its delay loop): 12 or 24
/// batches on 12 QPUs with one or two threads each; every thread finds its id in tidx,
/// fetches its row's addresses with bcastf and rotate, and copies its row. The Pi 5 test
/// asserts y == x.
#[test]
fn py_videocore7_parallel_program() {
    for thread in [12u32, 24] {
        let text = format!(
            "tidx rf10 ; nop ; ldunifrf.rf0
             shr rf10, rf10, {} ; nop
             mov rf11, 1 ; nop
             shl rf11, rf11, {} ; nop
             sub rf11, rf11, 1 ; nop
             and rf31, rf10, rf11 ; nop
             nop ; nop ; ldunifrf.rf1
             shl rf10, rf1, 2 ; nop
             nop ; umul24 rf10, rf10, rf31
             add rf11, rf0, 8 ; nop
             add rf10, rf10, rf11 ; nop
             eidx rf11 ; nop
             shl rf11, rf11, 2 ; nop
             add tmua, rf10, rf11 ; nop ; thrsw
             nop ; nop
             nop ; nop
             nop ; nop ; ldtmu.rf10
             bcastf rf2, rf10 ; nop
             rotate rf10, rf10, 1 ; nop
             bcastf rf3, rf10 ; nop
             eidx rf12 ; nop
             shl rf12, rf12, 2 ; nop
             add tmua, rf2, rf12 ; nop ; thrsw
             nop ; nop
             nop ; nop
             nop ; nop ; ldtmu.rf32
             eidx rf12 ; nop
             shl rf12, rf12, 2 ; nop
             mov tmud, rf32 ; nop
             add tmua, rf3, rf12 ; nop
             tmuwt ; nop
             {END}",
            3 - thread / 12,
            3 + thread / 12
        );
        let mut emu = machine(V71, 12, (thread / 12) as u8);
        let program = v3d::assemble(V71, &text).unwrap();
        let code = emu.load_instructions(&program).unwrap();
        let mem = emu.memory_mut();
        let x = mem.alloc(thread * 64, 64).unwrap();
        let y = mem.alloc(thread * 64, 64).unwrap();
        // The uniform table, rows of 4 words, plus the 16 words the last row's load reads past
        // its end (the Pi's buffer is larger).
        let unif = mem.alloc(thread * 16 + 64, 64).unwrap();
        let xs: Vec<u32> = (0..thread * 16).collect();
        mem.write_u32s(x, &xs).unwrap();
        for th in 0..thread {
            mem.write_u32s(
                unif + th * 16,
                &[unif + th * 16, 4, x + th * 64, y + th * 64],
            )
            .unwrap();
        }
        let report = emu
            .dispatch(&CsdJob::per_qpu(code, unif, thread))
            .unwrap_or_else(|e| panic!("{thread}: {e}"));
        assert_eq!(
            emu.memory().read_u32s(y, thread * 16).unwrap(),
            xs,
            "{thread} threads"
        );
        assert_eq!(report.batches, u64::from(thread));
    }
    // A rotate into a magic register is rejected.
    let mut emu = machine(V71, 1, 1);
    let r = rule_of(run_on(
        &mut emu,
        &format!("eidx rf1 ; nop\n rotate rep, rf1, 1 ; nop\n{END}"),
        &[],
        1,
    ));
    assert_eq!(r, V3dRule::RotateDestination);
}

/// py-videocore7 tests/test_branch.py, written out in this syntax: relative, label,
/// register and link-register branches and uniform-stream branches, with the results that
/// test asserts on a Pi 5.
#[test]
fn py_videocore7_branch_programs() {
    let prologue = |loaded: &str| {
        format!(
            "eidx rf10 ; nop ; ldunifrf.rf0
             nop ; nop ; ldunifrf.rf1
             shl rf10, rf10, 2 ; nop
             add rf0, rf0, rf10 ; nop
             add rf1, rf1, rf10 ; nop
             mov tmua, rf0 ; nop ; thrsw
             nop ; nop
             nop ; nop
             nop ; nop ; ldtmu.{loaded}
             "
        )
    };
    let run = |text: &str, x: &dyn Fn(u32) -> Vec<u32>, rows: u32| -> Vec<u32> {
        let mut emu = machine(V71, 1, 1);
        let program = v3d::assemble(V71, text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let code = emu.load_instructions(&program).unwrap();
        let mem = emu.memory_mut();
        let (px, py) = (
            mem.alloc(64, 64).unwrap(),
            mem.alloc(64 * rows, 64).unwrap(),
        );
        mem.write_u32s(px, &x(code)).unwrap();
        let unif = emu.load_uniforms(&[px, py]).unwrap();
        emu.dispatch(&CsdJob::per_qpu(code, unif, 1))
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        emu.memory().read_u32s(py, 16 * rows).unwrap()
    };
    let lanes = |_: u32| (0..16).collect::<Vec<u32>>();
    let adds = "add rf11, rf11, 1 ; nop\n".repeat(4);
    let store = |r: &str| format!("mov tmud, {r} ; nop\n mov tmua, rf1 ; nop\n tmuwt ; nop\n{END}");
    let slots = "nop ; nop\n".repeat(3);

    // b(2 * 8): skips two of the four adds.
    let text = format!(
        "{}b rel 16\n{slots}{adds}{}",
        prologue("rf11"),
        store("rf11")
    );
    assert_eq!(run(&text, &lanes, 1), (2..18).collect::<Vec<u32>>());
    // A label between the first and second add.
    let text = format!(
        "{}b foo\n{slots}add rf11, rf11, 1 ; nop\n foo:\n{}{}",
        prologue("rf11"),
        "add rf11, rf11, 1 ; nop\n".repeat(3),
        store("rf11")
    );
    assert_eq!(run(&text, &lanes, 1), (3..19).collect::<Vec<u32>>());
    // b(rf2) with rf2 = code + 17·8: the fourth add.
    let text = format!(
        "{}mov rf11, 0 ; nop\n b rf2\n{slots}{adds}{}",
        prologue("rf2"),
        store("rf11")
    );
    assert_eq!(run(&text, &|code| vec![code + 17 * 8; 16], 1), vec![1; 16]);

    // Link register: y[0] = x from the subroutine, y[1] = 1 with a linked call, 2 without.
    for set_link in [false, true] {
        for direct in [false, true] {
            let text = format!(
                "{}mov rf2, 0 ; nop
                 mov rf3, 0 ; nop
                 b init_link, link
                 {slots}
               init_link:
                 add rf3, rf3, 1 ; nop
                 mov.pushz rf2 ; nop
                 b.alla subroutine{}
                 mov rf2, 1 ; nop
                 nop ; nop
                 nop ; nop
                 mov rf11, 4 ; nop
                 shl rf11, rf11, 4 ; nop
                 mov tmud, rf3 ; nop
                 mov tmua, rf1 ; add rf1, rf1, rf11
                 tmuwt ; nop
                 {END}
                 nop ; nop
               subroutine:
                 mov rf11, 4 ; nop
                 shl rf11, rf11, 4 ; nop
                 mov tmud, rf12 ; nop
                 mov tmua, rf1 ; add rf1, rf1, rf11
                 tmuwt ; nop
                 {}
                 {slots}",
                prologue("rf12"),
                if set_link { ", link" } else { "" },
                if direct {
                    "b lri"
                } else {
                    "lr rf32 ; nop\n b rf32"
                },
            );
            let y = run(&text, &lanes, 2);
            assert_eq!(&y[..16], &lanes(0)[..], "link={set_link} direct={direct}");
            assert_eq!(
                &y[16..],
                &[if set_link { 1 } else { 2 }; 16],
                "link={set_link}"
            );
        }
    }

    // Uniform branches: relative (the offset counts from the uniform after the branch's)
    // and absolute.
    for (bdu, want) in [(1u8, 7u32), (0, 6)] {
        let text = format!(
            "eidx rf10 ; nop ; ldunifrf.rf0
             shl rf10, rf10, 2 ; nop
             add rf0, rf0, rf10 ; nop
             b label, ub, bdu {bdu}
             {slots}
           label:
             nop ; nop ; ldunifrf.tmud
             mov tmua, rf0 ; nop
             tmuwt ; nop
             {END}"
        );
        let mut emu = machine(V71, 1, 1);
        let program = v3d::assemble(V71, &text).unwrap();
        let code = emu.load_instructions(&program).unwrap();
        let y = emu.memory_mut().alloc(64, 64).unwrap();
        let unif = emu.memory_mut().alloc(20, 16).unwrap();
        let offset = if bdu == 1 { 8 } else { unif + 12 };
        emu.memory_mut()
            .write_u32s(unif, &[y, offset, 5, 6, 7])
            .unwrap();
        emu.dispatch(&CsdJob::per_qpu(code, unif, 1)).unwrap();
        assert_eq!(
            emu.memory().read_u32s(y, 16).unwrap(),
            vec![want; 16],
            "bdu {bdu}"
        );
    }
}

/// py-videocore6 tests/test_signals.py (Pi 4): the `rot` signal with an accumulator source
/// (full rotate), with a register-file source (rotate within each quad), by an immediate and
/// by r5, and writes to r5 (quad broadcast) and r5rep (full broadcast); expected values are
/// that test's formulas.
#[test]
fn py_videocore6_rotate_and_broadcast_programs() {
    let x: [u32; 16] = std::array::from_fn(|i| i as u32);
    for rot in (-15i32..16).filter(|&r| r != 0) {
        let m = |k: i32| k.rem_euclid(16) as usize;
        let full: [u32; 16] = std::array::from_fn(|i| x[m(i as i32 - rot)]);
        let quad: [u32; 16] =
            std::array::from_fn(|i| x[(i & !3) + (i as i32 - rot).rem_euclid(4) as usize]);
        let cases: [(String, [u32; 16]); 5] = [
            (format!("or r1, rf1, rf1 ; nop\n nop ; nop\n nop ; add rf3, r1, r1 ; rot.{rot}"), full.map(|v| 2 * v)),
            (format!("or r1, rf1, rf1 ; nop\n or r5, {rot}, {rot} ; nop\n nop ; nop\n nop ; mov rf3, r1 ; rot.r5"), full),
            (format!("nop ; add rf3, rf1, rf1 ; rot.{rot}"), quad.map(|v| 2 * v)),
            (format!("or r1, rf1, rf1 ; nop\n nop ; nop\n nop ; mov r5rep, r1 ; rot.{rot}\n or rf3, r5, r5 ; nop"), [full[0]; 16]),
            (format!("or r1, rf1, rf1 ; nop\n nop ; nop\n nop ; mov r5, r1 ; rot.{rot}\n or rf3, r5, r5 ; nop"), std::array::from_fn(|i| full[i & !3])),
        ];
        for (line, want) in cases {
            assert_eq!(run_op(V42, &line, &x, &x), want, "rot {rot}: {line}");
        }
    }
}

/// One atomic request per lane on its own word: the config `tmuc` names (op `op`, 32-bit
/// type; vec2 for cmpxchg, which takes two `tmud` words), data from `a` (and `b`), memory
/// from `m`. Returns (memory after, words `ldtmu` returned).
fn run_atomic(
    version: V3dVersion,
    op: u32,
    m: &[u32; 16],
    a: &[u32; 16],
    b: &[u32; 16],
) -> ([u32; 16], [u32; 16]) {
    let cmpxchg = op == 3;
    let config = 0xffff_ff80 | op << 3 | if cmpxchg { 2 } else { 7 };
    let second = if cmpxchg { "nop ; mov tmud, rf12" } else { "" };
    let text = format!(
        "nop ; nop ; ldunifrf.rf5
        nop ; nop ; ldunifrf.rf6
        nop ; nop ; ldunifrf.rf7
        nop ; nop ; ldunifrf.rf8
        nop ; nop ; ldunifrf.rf9
        eidx rf10 ; nop
        shl rf10, rf10, 2 ; nop
        add rf5, rf5, rf10 ; nop
        add tmua, rf6, rf10 ; nop
        add tmua, rf7, rf10 ; nop
        nop ; nop ; ldtmu.rf11
        nop ; nop ; ldtmu.rf12
        nop ; mov tmuc, rf9
        nop ; mov tmud, rf11
        {second}
        nop ; mov tmua, rf5
        nop ; nop ; ldtmu.rf13
        nop ; mov tmud, rf13
        add tmua, rf8, rf10 ; nop
        tmuwt ; nop
        {END}"
    );
    let mut emu = machine(version, 1, 1);
    let mem = emu.memory_mut();
    let [pm, pa, pb, po] = [0; 4].map(|_| mem.alloc(64, 64).unwrap());
    mem.write_u32s(pm, m).unwrap();
    mem.write_u32s(pa, a).unwrap();
    mem.write_u32s(pb, b).unwrap();
    run_on(&mut emu, &text, &[pm, pa, pb, po, config], 1)
        .unwrap_or_else(|e| panic!("{version:?} op {op}: {e}"));
    let read = |p| emu.memory().read_u32s(p, 16).unwrap().try_into().unwrap();
    (read(pm), read(po))
}

#[test]
fn tmu_atomics_apply_their_op_and_return_the_old_word() {
    // (op, the new word from the old one and the data), per py-videocore7 TMULookUpConfig.
    let ops: [(u32, Binary); 10] = [
        (0, |m, a| m.wrapping_add(a)),
        (1, |m, a| m.wrapping_sub(a)),
        (2, |_, a| a),
        (4, |m, a| if m < a { m } else { a }),
        (5, |m, a| if m > a { m } else { a }),
        (6, |m, a| if (m as i32) < (a as i32) { m } else { a }),
        (7, |m, a| if (m as i32) > (a as i32) { m } else { a }),
        (8, |m, a| m & a),
        (9, |m, a| m | a),
        (10, |m, a| m ^ a),
    ];
    let mut rng = Rng(7);
    for version in [V42, V71] {
        for (op, f) in ops {
            let m: [u32; 16] = std::array::from_fn(|_| rng.u32());
            let a: [u32; 16] = std::array::from_fn(|i| if i == 3 { m[i] } else { rng.u32() });
            let (after, old) = run_atomic(version, op, &m, &a, &[0; 16]);
            for i in 0..16 {
                assert_eq!(after[i], f(m[i], a[i]), "{version:?} op {op} lane {i}");
                assert_eq!(
                    old[i], m[i],
                    "{version:?} op {op} lane {i} returns the old word"
                );
            }
        }
        // cmpxchg: the first tmud word is compared, the second stored where they match.
        let m: [u32; 16] = std::array::from_fn(|i| 100 + i as u32);
        let compare: [u32; 16] = std::array::from_fn(|i| if i % 2 == 0 { m[i] } else { 7 });
        let new: [u32; 16] = std::array::from_fn(|i| 1000 + i as u32);
        let (after, old) = run_atomic(version, 3, &m, &compare, &new);
        for i in 0..16 {
            let want = if i % 2 == 0 {
                1000 + i as u32
            } else {
                100 + i as u32
            };
            assert_eq!(after[i], want, "{version:?} cmpxchg lane {i}");
            assert_eq!(old[i], m[i], "{version:?} cmpxchg lane {i}");
        }
    }
}

/// Lane 0 of every QPU adds 1 to one shared word `rounds` times and marks the slot the old
/// value names: each old value 0..n·rounds must come back exactly once, and the word ends
/// at n·rounds, however the QPUs interleave.
#[test]
fn atomic_adds_from_many_qpus_each_see_a_different_old_value() {
    let rounds = 5u32;
    for (version, qpus) in [(V42, 8usize), (V42, 3), (V71, 16), (V71, 5)] {
        let text = format!(
            "nop ; nop ; ldunifrf.rf5
            nop ; nop ; ldunifrf.rf8
            nop ; nop ; ldunifrf.rf9
            eidx rf10 ; nop
            nop ; mov rf11, {rounds}
            top:
            or.pushz nop, rf10, rf10 ; nop
            nop ; mov tmuc, rf9
            nop ; mov tmud, 1
            or.ifa tmua, rf5, rf5 ; nop
            nop ; mov tmuc, -1
            nop ; nop ; ldtmu.rf13
            shl rf13, rf13, 2 ; nop
            nop ; mov tmud, 1
            add.ifa tmua, rf8, rf13 ; nop
            sub.pushz rf11, rf11, 1 ; nop
            b.anyna top
            nop ; nop
            nop ; nop
            nop ; nop
            tmuwt ; nop
            {END}"
        );
        let total = qpus as u32 * rounds;
        let mut emu = machine(version, qpus, 1);
        let mem = emu.memory_mut();
        let counter = mem.alloc(64, 64).unwrap();
        let marks = mem.alloc(total * 4, 64).unwrap();
        let report = run_on(&mut emu, &text, &[counter, marks, 0xffff_ff87], qpus as u32)
            .unwrap_or_else(|e| panic!("{version:?} on {qpus}: {e}"));
        assert_eq!(emu.memory().read_u32(counter).unwrap(), total);
        assert_eq!(
            emu.memory().read_u32s(counter + 4, 15).unwrap(),
            vec![0; 15]
        );
        assert_eq!(
            emu.memory().read_u32s(marks, total).unwrap(),
            vec![1; total as usize],
            "{version:?} on {qpus}: every old value once"
        );
        assert!(report.qpus.iter().map(|q| q.tmu_loads).sum::<u64>() >= u64::from(total));
    }
}

#[test]
fn unmodelled_tmu_operations_are_refused() {
    // Op 0 without data is a cache operation (Mesa `v3d_tmu_get_type_from_op`); an add with
    // a vec2 type is not an atomic Mesa issues.
    for (config, data) in [(0xffff_ff87u32, ""), (0xffff_ff82, "nop ; mov tmud, rf5")] {
        let text = format!(
            "nop ; nop ; ldunifrf.rf5
            nop ; nop ; ldunifrf.rf9
            nop ; mov tmuc, rf9
            {data}
            nop ; mov tmua, rf5
            nop ; nop ; ldtmu.rf13
            {END}"
        );
        let mut emu = machine(V71, 1, 1);
        let p = emu.memory_mut().alloc(64, 64).unwrap();
        let fault = fault_of(run_on(&mut emu, &text, &[p, config], 1));
        assert!(
            matches!(fault, V3dFault::Unsupported(_)),
            "{config:#x}: {fault:?}"
        );
    }
}

#[test]
fn each_dispatch_decodes_the_code_it_finds() {
    // Instructions are decoded once per dispatch and kept by address: a second dispatch of
    // different code written over the first at the same address runs the new code.
    for version in [V42, V71] {
        let mut emu = machine(version, 1, 1);
        let mem = emu.memory_mut();
        let (pa, pb, po) = (
            mem.alloc(64, 64).unwrap(),
            mem.alloc(64, 64).unwrap(),
            mem.alloc(64, 64).unwrap(),
        );
        let a: Vec<u32> = (0..16).map(|i| 100 + i).collect();
        let b: Vec<u32> = (0..16).map(|i| 7 * i).collect();
        mem.write_u32s(pa, &a).unwrap();
        mem.write_u32s(pb, &b).unwrap();
        let assemble = |line: &str| {
            v3d::assemble(version, &op_program(version, line)).unwrap_or_else(|e| panic!("{e}"))
        };
        let (add, sub) = (
            assemble("add rf3, rf1, rf2 ; nop"),
            assemble("sub rf3, rf1, rf2 ; nop"),
        );
        assert_eq!(add.len(), sub.len());
        let code = emu.load_instructions(&add).unwrap();
        let unif = emu.load_uniforms(&[pa, pb, po]).unwrap();
        let job = CsdJob::per_qpu(code, unif, 1);
        emu.dispatch(&job).unwrap();
        let got = emu.memory().read_u32s(po, 16).unwrap();
        let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
        assert_eq!(got, want, "{version:?} add");
        let words: Vec<u32> = sub
            .iter()
            .flat_map(|i| {
                let w = i.encode(version).unwrap();
                [w as u32, (w >> 32) as u32]
            })
            .collect();
        emu.memory_mut().write_u32s(code, &words).unwrap();
        emu.dispatch(&job).unwrap();
        let got = emu.memory().read_u32s(po, 16).unwrap();
        let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_sub(*y)).collect();
        assert_eq!(got, want, "{version:?} sub");
    }
}

// ---- The static validator against the emulator. ----

/// Where the emulator stops `text` (one batch on one single-threaded QPU, four uniforms
/// pointing at a scratch buffer, as [`hazard`] runs it): the instruction's index and the
/// rule it broke.
fn emulated_stop(version: V3dVersion, program: &[v3d::Instruction]) -> (usize, V3dRule) {
    let mut emu = machine(version, 1, 2);
    let out = emu.memory_mut().alloc(64, 64).unwrap();
    let code = emu.load_instructions(program).unwrap();
    let unif = emu.load_uniforms(&[out, out, out, out]).unwrap();
    match emu.dispatch(&CsdJob::per_qpu(code, unif, 1)) {
        Err(EmuError::V3dFault {
            pc,
            fault: V3dFault::Rule(rule),
            ..
        }) => (((pc - code) / 8) as usize, rule),
        other => panic!("expected a broken rule, got {other:?}"),
    }
}

fn validated(version: V3dVersion, program: &[v3d::Instruction]) -> Vec<(usize, V3dRule)> {
    validate(version, program)
        .into_iter()
        .map(|v| (v.index, v.rule))
        .collect()
}

/// The hazard programs of the tests above whose rule the program text decides, with the
/// rule each breaks.
fn static_hazards() -> Vec<(V3dVersion, String, V3dRule)> {
    let end_with = |slot: usize, line: &str| {
        let mut lines: Vec<&str> = END.trim().lines().map(str::trim).collect();
        lines[4 + slot] = line;
        format!("eidx rf1 ; nop\n{}", lines.join("\n"))
    };
    let body = |text: &str| format!("{text}\n{END}");
    let rf_write = |detail| V3dRule::RfWriteAfterThrend { detail };
    vec![
        (
            V42,
            body("b l\n b l\n l:\n nop ; nop\n nop ; nop"),
            V3dRule::BranchInBranchDelaySlot,
        ),
        (
            V42,
            body("nop ; nop ; thrsw\n b l\n l:\n nop ; nop"),
            V3dRule::BranchInThrswDelaySlot,
        ),
        (
            V71,
            body("b l\n nop ; nop\n nop ; nop ; thrsw\n l:\n nop ; nop"),
            V3dRule::ThrswInBranchDelaySlot,
        ),
        (
            V42,
            body("nop ; nop ; thrsw\n nop ; nop\n nop ; nop ; thrsw"),
            V3dRule::ThrswTooClose,
        ),
        (
            V71,
            body(
                "nop ; nop ; thrsw\n nop ; nop ; thrsw\n nop ; nop\n nop ; nop\n \
                 nop ; nop ; thrsw\n nop ; nop ; thrsw",
            ),
            V3dRule::TwoLastThrsw,
        ),
        (
            V42,
            body("eidx r0 ; nop\n or recip, r0, r0 ; nop\n or r1, r4, r4 ; nop"),
            V3dRule::SfuTooSoon { what: "an r4 read" },
        ),
        (
            V42,
            body("eidx r0 ; nop\n or recip, r0, r0 ; nop\n or exp, r0, r0 ; nop"),
            V3dRule::SfuTooSoon {
                what: "another SFU write",
            },
        ),
        (
            V42,
            body("eidx r0 ; nop ; thrsw\n or recip, r0, r0 ; nop"),
            V3dRule::SfuInThrswDelaySlot,
        ),
        (
            V42,
            body("eidx r0 ; nop\n or tmud, r0, r0 ; mov recip, r0"),
            V3dRule::PeripheralConflict,
        ),
        (
            V42,
            end_with(1, "or rf5, rf1, rf1 ; nop"),
            rf_write("V3D 4.2 allows none in the final thrsw and its delay slots"),
        ),
        (
            V71,
            end_with(0, "or rf5, rf1, rf1 ; nop ; thrsw"),
            rf_write("V3D 7.1 allows no ALU write in the final thrsw instruction"),
        ),
        (
            V71,
            end_with(2, "or rf2, rf1, rf1 ; nop"),
            rf_write("V3D 7.1 allows no rf2/rf3 write in the final thrsw and its delay slots"),
        ),
        (V71, end_with(2, "tmuwt ; nop"), V3dRule::TmuwtLast),
        (
            V42,
            body("nop ; nop ; ldunif\n or unifa, r5, r5 ; nop\n nop ; nop\n nop ; nop ; ldunifa"),
            V3dRule::LdunifaTooSoon { distance: 2 },
        ),
        (
            V71,
            body("nop ; nop ; ldunifa"),
            V3dRule::LdunifaWithoutUnifa,
        ),
        (
            V42,
            body("eidx r0 ; nop ; ldunif\n or tmuau, r5, r5 ; nop ; ldunif"),
            V3dRule::TwoUniformReads,
        ),
        (
            V42,
            body("eidx r0 ; nop\n or r5, r0, r0 ; nop ; ldunif"),
            V3dRule::DoubleWrite {
                register: "r5".into(),
            },
        ),
        (
            V42,
            body("eidx r1 ; nop\n nop ; mov r2, r1 ; rot.1"),
            V3dRule::RotateTooSoon,
        ),
        (
            V71,
            body("eidx rf1 ; nop\n rotate rep, rf1, 1 ; nop"),
            V3dRule::RotateDestination,
        ),
    ]
}

#[test]
fn validator_finds_each_static_hazard_where_the_emulator_stops() {
    for (version, text, rule) in static_hazards() {
        let program = v3d::assemble(version, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let (index, stopped) = emulated_stop(version, &program);
        assert_eq!(stopped, rule, "{version:?}\n{text}");
        let found = validated(version, &program);
        assert_eq!(found.first(), Some(&(index, rule)), "{version:?}\n{text}");
    }
    // The 7.1 small immediate read by an idle add ALU.
    let mut nop = AluInstruction::nop(V71);
    nop.signals = Signals::NONE.with(Signal::SmallImmA);
    let mut program = vec![v3d::Instruction::Alu(nop)];
    program.extend(v3d::assemble(V71, END).unwrap());
    let (index, stopped) = emulated_stop(V71, &program);
    let rule = V3dRule::SmallImmediate {
        detail: "small immediate a/b with no add operation",
    };
    assert_eq!((index, &stopped), (0, &rule));
    assert_eq!(validated(V71, &program), vec![(0, rule)]);
}

#[test]
fn programs_that_run_validate_clean_on_both_versions() {
    // Each rule's neighbour on the allowed side (one more instruction in between, or a
    // write 7.1 allows), run to completion by the emulator: the validator finds nothing.
    let end_slot_write = {
        let mut lines: Vec<&str> = END.trim().lines().map(str::trim).collect();
        lines[5] = "or rf5, rf1, rf1 ; nop";
        format!("eidx rf1 ; nop\n{}", lines.join("\n"))
    };
    let allowed = [
        (
            V42,
            "eidx r0 ; nop\n or recip, r0, r0 ; nop\n nop ; nop\n or r1, r4, r4 ; nop",
        ),
        (
            V42,
            "eidx r0 ; nop\n or recip, r0, r0 ; nop\n nop ; nop\n or exp, r0, r0 ; nop",
        ),
        (
            V42,
            "eidx r0 ; nop ; thrsw\n nop ; nop\n nop ; nop\n or recip, r0, r0 ; nop",
        ),
        (V42, "eidx r1 ; nop\n nop ; nop\n nop ; mov r2, r1 ; rot.1"),
        (
            V71,
            "nop ; nop ; ldunif\n or unifa, rf0, rf0 ; nop\n nop ; nop\n nop ; nop\n \
             nop ; nop\n nop ; nop ; ldunifa",
        ),
        (
            V42,
            "b l\n nop ; nop\n nop ; nop\n nop ; nop\n l:\n nop ; nop",
        ),
        (
            V71,
            "b l\n nop ; nop\n nop ; nop\n nop ; nop ; thrsw\n l:\n nop ; nop\n nop ; nop",
        ),
        (V71, "eidx rf1 ; nop\n rotate rf2, rf1, 1 ; nop"),
    ];
    let mut texts: Vec<(V3dVersion, String)> = allowed
        .iter()
        .map(|&(version, body)| (version, format!("{body}\n{END}")))
        .collect();
    texts.push((V71, end_slot_write));
    for (version, text) in &texts {
        let mut emu = machine(*version, 1, 1);
        let out = emu.memory_mut().alloc(64, 64).unwrap();
        run_on(&mut emu, text, &[out, out, out, out], 1)
            .unwrap_or_else(|e| panic!("{version:?}: {e}\n{text}"));
    }
    // Programs the tests above run to completion.
    let op_lines = [
        "add rf3, rf1, rf2 ; nop",
        "recip rf3, rf1 ; nop",
        "nop ; fmul rf3, rf1, rf2",
        "nop ; multop rf1, rf2\n nop ; umul24 rf3, rf1, rf2",
    ];
    for version in V3dVersion::ALL {
        texts.push((version, END.to_string()));
        texts.push((version, scale_kernel(version)));
        for line in op_lines {
            texts.push((version, op_program(version, line)));
        }
    }
    for line in [
        "or recip, rf1, rf1 ; nop\n nop ; nop\n or rf3, r4, r4 ; nop",
        "or r1, rf1, rf1 ; nop\n nop ; nop\n nop ; mov rf3, r1 ; rot.3",
    ] {
        texts.push((V42, op_program(V42, line)));
    }
    for (version, text) in texts {
        let program = v3d::assemble(version, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(
            validate(version, &program),
            vec![],
            "{version:?}\n{}",
            v3d::disasm::program(version, &program)
        );
    }
}

#[test]
fn validator_sees_a_branch_target_after_the_last_delay_slot() {
    // The last delay slot writes r1 and the taken branch lands on a rotation of r1; the
    // instruction before the target in the program (skipped) writes nothing.
    let text = format!(
        "eidx r1 ; nop\n b l\n nop ; nop\n nop ; nop\n eidx r1 ; nop\n nop ; nop\n \
         l:\n nop ; mov r2, r1 ; rot.1\n{END}"
    );
    let program = v3d::assemble(V42, &text).unwrap();
    assert_eq!(emulated_stop(V42, &program), (6, V3dRule::RotateTooSoon));
    assert_eq!(validated(V42, &program), vec![(6, V3dRule::RotateTooSoon)]);
}

/// `report` without what [`V3dConfig::timeline`] records: what the same dispatch reports
/// without a timeline.
fn without_timeline(report: &V3dRunReport) -> V3dRunReport {
    let mut plain = report.clone();
    for q in &mut plain.qpus {
        q.timeline.clear();
        q.threads.clear();
        q.tmu_lookups.clear();
    }
    plain
}

/// Checks a dispatch's timeline against its counters, which the emulator keeps whether or
/// not it records one: per QPU, the TMU and barrier stalls add up to `stall_cycles` and
/// `barrier_wait_cycles`, and with the issue clocks (instructions × clocks per instruction)
/// to the QPU's cycles; its threads' running spans never overlap, every TMU stall lies in
/// one, and they add up to the issue and TMU stall clocks; the TMU results are one per
/// lookup, read after they arrived and never more at once than the result FIFO holds.
fn check_timeline(report: &V3dRunReport) {
    use crate::vc4::StallCause;
    let cpi = report.clocks_per_instruction;
    for q in &report.qpus {
        let sum = |cause| -> u64 {
            q.timeline
                .iter()
                .filter(|s| s.cause == cause)
                .map(|s| s.clocks)
                .sum()
        };
        assert_eq!(sum(StallCause::Tmu), q.stall_cycles, "QPU {}", q.qpu);
        assert_eq!(
            sum(StallCause::Barrier),
            q.barrier_wait_cycles,
            "QPU {}",
            q.qpu
        );
        assert_eq!(
            q.cycles,
            q.instructions * cpi + q.stall_cycles + q.barrier_wait_cycles,
            "QPU {}",
            q.qpu
        );
        let mut running: Vec<(u64, u64)> = q
            .threads
            .iter()
            .filter(|s| s.activity == ThreadActivity::Running)
            .map(|s| (s.start, s.end))
            .collect();
        running.sort_unstable();
        for pair in running.windows(2) {
            assert!(pair[0].1 <= pair[1].0, "QPU {}: {pair:?} overlap", q.qpu);
        }
        for t in 0..usize::from(report.threads) {
            let spans: Vec<&ThreadSpan> = q.threads.iter().filter(|s| s.thread == t).collect();
            for pair in spans.windows(2) {
                assert!(pair[0].end <= pair[1].start, "thread {t}: {pair:?}");
            }
            assert!(spans.iter().all(|s| s.start < s.end && s.end <= q.cycles));
        }
        let run_clocks: u64 = running.iter().map(|(a, b)| b - a).sum();
        assert_eq!(
            run_clocks,
            q.instructions * cpi + q.stall_cycles,
            "QPU {}",
            q.qpu
        );
        for s in q.timeline.iter().filter(|s| s.cause == StallCause::Tmu) {
            assert!(
                running
                    .iter()
                    .any(|&(a, b)| a <= s.start && s.start + s.clocks <= b),
                "QPU {}: TMU stall {s:?} outside every running span",
                q.qpu
            );
        }
        assert_eq!(q.tmu_lookups.len() as u64, q.tmu_loads, "QPU {}", q.qpu);
        let mut events: Vec<(u64, i64)> = Vec::new();
        for l in &q.tmu_lookups {
            assert!(l.issued <= l.ready && l.ready <= l.read, "{l:?}");
            events.extend([(l.issued, 1), (l.read, -1)]);
        }
        events.sort_unstable();
        let mut level = 0i64;
        for (_, change) in events {
            level += change;
            assert!(level >= 0);
            assert!(level <= i64::from(qpu_isa::v3d::latency::TMU_OUTPUT_FIFO));
        }
        assert_eq!(level, 0, "QPU {}: results left outstanding", q.qpu);
    }
}

/// A timeline changes nothing the dispatch computes or counts, and adds up: eight batches
/// of a load–switch–store program on 2 QPUs with 2 and with 4 threads, where threads take
/// turns at each `thrsw`.
#[test]
fn the_timeline_records_each_thread_and_adds_up_to_the_counters() {
    let text = load_switch_store();
    for threads in [2u8, 4] {
        let run = |timeline: bool| {
            let mut emu = machine(V42, 2, threads);
            emu.config.timeline = timeline;
            let buf = emu.memory_mut().alloc(512, 64).unwrap();
            let report = run_on(&mut emu, &text, &[buf], 8).unwrap();
            (report, emu.memory().read_u32s(buf, 128).unwrap())
        };
        let (plain, plain_out) = run(false);
        let (timed, timed_out) = run(true);
        assert_eq!(timed_out, vec![1; 128]);
        assert_eq!(plain_out, timed_out);
        assert_eq!(without_timeline(&timed), plain, "{threads} threads");
        check_timeline(&timed);
        for q in &timed.qpus {
            // Every slot ran batches, and was switched out while another ran.
            for t in 0..usize::from(threads) {
                let did = |a| q.threads.iter().any(|s| s.thread == t && s.activity == a);
                assert!(did(ThreadActivity::Running), "{threads} threads: slot {t}");
                assert!(
                    did(ThreadActivity::SwitchedOut),
                    "{threads} threads: slot {t}"
                );
            }
        }
    }
}

/// Threads waiting at a workgroup barrier show as such, and a QPU whose threads all wait
/// records the bubble as a barrier stall: one workgroup of 8 batches on 4 QPUs with 2
/// threads (the program's rows come from the QPU number, so two batches share each: only
/// the timing is looked at here).
#[test]
fn the_timeline_shows_barrier_waits() {
    let run = |timeline: bool| {
        let mut emu = machine(V42, 4, 2);
        emu.config.timeline = timeline;
        let mem = emu.memory_mut();
        let (x, y, z) = (
            mem.alloc(512, 64).unwrap(),
            mem.alloc(512, 64).unwrap(),
            mem.alloc(512, 64).unwrap(),
        );
        let program = v3d::assemble(V42, &super::pi_programs::barrier_program(true)).unwrap();
        let code = emu.load_instructions(&program).unwrap();
        let unif = emu.load_uniforms(&[x, y, z]).unwrap();
        emu.dispatch(&CsdJob {
            code,
            uniforms: unif,
            workgroups: [1, 1, 1],
            workgroup_size: 128,
            single_segment: false,
        })
        .unwrap()
    };
    let (plain, timed) = (run(false), run(true));
    assert_eq!(without_timeline(&timed), plain);
    check_timeline(&timed);
    assert!(timed.qpus.iter().any(|q| q
        .threads
        .iter()
        .any(|s| s.activity == ThreadActivity::Barrier)));
    assert!(timed.qpus.iter().any(|q| q.barrier_wait_cycles > 0));
}
