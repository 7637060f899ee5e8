//! Every add and mul opcode, flags, conditions, small immediates, load immediates, packs,
//! unpacks and rotations, each checked lane by lane against scalar Rust.

mod support;

use qpu_emu::float;
use support::{run, store_and_end, Inputs, LOAD_RA0_RB0};

fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn fl(x: u32) -> f32 {
    ftz(f32::from_bits(x))
}

fn fb(x: f32) -> u32 {
    ftz(x).to_bits()
}

fn bytes(a: u32, b: u32, op: impl Fn(u32, u32) -> u32) -> u32 {
    (0..4).fold(0, |acc, i| {
        let x = (a >> (8 * i)) & 0xff;
        let y = (b >> (8 * i)) & 0xff;
        acc | (op(x, y).clamp(0, 255) << (8 * i))
    })
}

fn int_vectors(seed: u64) -> Vec<([u32; 16], [u32; 16])> {
    let mut rng = Inputs::new(seed);
    let edges_a = [0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 5, 0xffff_fff0, 3];
    let edges_b = [0, u32::MAX, 1, 1, 0x7fff_ffff, 33, 31, 0x8000_0000];
    (0..3)
        .map(|k| {
            if k == 0 {
                (rng.vector(&edges_a), rng.vector(&edges_b))
            } else {
                (rng.vector(&[]), rng.vector(&[]))
            }
        })
        .collect()
}

fn float_vectors(seed: u64) -> Vec<([u32; 16], [u32; 16])> {
    let mut rng = Inputs::new(seed);
    let mut make = |edges: &[f32]| -> [u32; 16] {
        std::array::from_fn(|i| match edges.get(i) {
            Some(v) => v.to_bits(),
            None => ((rng.next_u32() % 20001) as f32 / 64.0 - 150.0).to_bits(),
        })
    };
    let edges_a = [0.0, -0.0, 1.5, -2.25, 1.0e-40, 3.0e38, -7.0, 2.0];
    let edges_b = [0.0, 1.0, -1.5, 2.25, 1.0, 3.0e38, 7.0, -2.0];
    vec![(make(&edges_a), make(&edges_b)), (make(&[]), make(&[]))]
}

/// Runs `line` (which reads ra0 and rb0 and writes r1) on each vector pair; compares with
/// `reference` lane by lane.
fn check_op(line: &str, vectors: &[([u32; 16], [u32; 16])], reference: impl Fn(u32, u32) -> u32) {
    let source = format!("{LOAD_RA0_RB0}\n{line}\n{}", store_and_end(&["r1"]));
    for (a, b) in vectors {
        let out = run(&source, &[a, b], &[], 1);
        for lane in 0..16 {
            assert_eq!(
                out[lane],
                reference(a[lane], b[lane]),
                "`{line}` lane {lane}: a={:#x} b={:#x}",
                a[lane],
                b[lane]
            );
        }
    }
}

#[test]
fn integer_add_ops() {
    let v = int_vectors(1);
    check_op("add r1, ra0, rb0", &v, |a, b| a.wrapping_add(b));
    check_op("sub r1, ra0, rb0", &v, |a, b| a.wrapping_sub(b));
    check_op("shr r1, ra0, rb0", &v, |a, b| a >> (b % 32));
    check_op("asr r1, ra0, rb0", &v, |a, b| {
        ((a as i32) >> (b % 32)) as u32
    });
    check_op("ror r1, ra0, rb0", &v, |a, b| a.rotate_right(b % 32));
    check_op("shl r1, ra0, rb0", &v, |a, b| a << (b % 32));
    check_op("min r1, ra0, rb0", &v, |a, b| {
        (a as i32).min(b as i32) as u32
    });
    check_op("max r1, ra0, rb0", &v, |a, b| {
        (a as i32).max(b as i32) as u32
    });
    check_op("and r1, ra0, rb0", &v, |a, b| a & b);
    check_op("or r1, ra0, rb0", &v, |a, b| a | b);
    check_op("xor r1, ra0, rb0", &v, |a, b| a ^ b);
    check_op("not r1, ra0", &v, |a, _| !a);
    check_op("clz r1, ra0", &v, |a, _| a.leading_zeros());
    check_op("v8adds r1, ra0, rb0", &v, |a, b| bytes(a, b, |x, y| x + y));
    check_op("v8subs r1, ra0, rb0", &v, |a, b| {
        bytes(a, b, |x, y| x.saturating_sub(y))
    });
}

#[test]
fn float_add_ops_and_conversions() {
    let v = float_vectors(2);
    // + - * and itof truncate toward zero: qpu_emu::float, tested against exact integer
    // arithmetic and hardware-dumped values in its own module.
    check_op("fadd r1, ra0, rb0", &v, float::fadd);
    check_op("fsub r1, ra0, rb0", &v, float::fsub);
    check_op("fmin r1, ra0, rb0", &v, |a, b| {
        if fl(a) > fl(b) {
            fb(fl(b))
        } else {
            fb(fl(a))
        }
    });
    check_op("fmax r1, ra0, rb0", &v, |a, b| {
        if fl(a) > fl(b) {
            fb(fl(a))
        } else {
            fb(fl(b))
        }
    });
    check_op("fminabs r1, ra0, rb0", &v, |a, b| {
        fb(fl(a).abs().min(fl(b).abs()))
    });
    check_op("fmaxabs r1, ra0, rb0", &v, |a, b| {
        fb(fl(a).abs().max(fl(b).abs()))
    });
    check_op("ftoi r1, ra0", &v, |a, _| {
        let x = fl(a);
        if x.abs() >= 2_147_483_648.0 {
            0
        } else {
            x.trunc() as i32 as u32
        }
    });
    let ints = int_vectors(3);
    check_op("itof r1, ra0", &ints, |a, _| float::itof(a));
}

#[test]
fn mul_ops() {
    let v = int_vectors(4);
    check_op("nop; mul24 r1, ra0, rb0", &v, |a, b| {
        (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)
    });
    check_op("nop; v8muld r1, ra0, rb0", &v, |a, b| {
        bytes(a, b, |x, y| (x * y + 127) / 255)
    });
    check_op("nop; v8min r1, ra0, rb0", &v, |a, b| {
        bytes(a, b, |x, y| x.min(y))
    });
    check_op("nop; v8max r1, ra0, rb0", &v, |a, b| {
        bytes(a, b, |x, y| x.max(y))
    });
    check_op("nop; v8adds r1, ra0, rb0", &v, |a, b| {
        bytes(a, b, |x, y| x + y)
    });
    check_op("nop; v8subs r1, ra0, rb0", &v, |a, b| {
        bytes(a, b, |x, y| x.saturating_sub(y))
    });
    let f = float_vectors(5);
    check_op("nop; fmul r1, ra0, rb0", &f, float::fmul);
}

#[test]
fn dual_issue_reads_operands_before_either_write() {
    // Both ALUs read r1 before either writes: the add result does not feed the mul.
    let a: [u32; 16] = std::array::from_fn(|i| i as u32 * 3);
    let b: [u32; 16] = std::array::from_fn(|i| 100 + i as u32);
    let source = format!(
        "{LOAD_RA0_RB0}
        mov r1, ra0
        add r1, r1, rb0; v8adds r2, r1, r1
        {}",
        store_and_end(&["r1", "r2"])
    );
    let out = run(&source, &[&a, &b], &[], 2);
    for i in 0..16 {
        assert_eq!(out[i], a[i] + b[i]);
        assert_eq!(out[16 + i], bytes(a[i], a[i], |x, y| x + y));
    }
}

/// Flags from `op.setf`, read back through conditional load immediates.
fn flags_of(line: &str, a: &[u32; 16], b: &[u32; 16]) -> Vec<(bool, bool, bool)> {
    let source = format!(
        "{LOAD_RA0_RB0}
        {line}
        mov r1, 0
        mov r2, 0
        mov r3, 0
        mov.ifz r1, 1
        mov.ifn r2, 1
        mov.ifc r3, 1
        {}",
        store_and_end(&["r1", "r2", "r3"])
    );
    let out = run(&source, &[a, b], &[], 3);
    (0..16)
        .map(|i| (out[i] == 1, out[16 + i] == 1, out[32 + i] == 1))
        .collect()
}

#[test]
fn flags_follow_the_measured_table() {
    for (a, b) in int_vectors(6) {
        let zn = |v: u32| (v == 0, v >> 31 == 1);
        let check =
            |line: &str, value: &dyn Fn(u32, u32) -> u32, carry: &dyn Fn(u32, u32) -> bool| {
                let got = flags_of(line, &a, &b);
                for i in 0..16 {
                    let (z, n) = zn(value(a[i], b[i]));
                    assert_eq!(got[i], (z, n, carry(a[i], b[i])), "`{line}` lane {i}");
                }
            };
        check(
            "add.setf r0, ra0, rb0",
            &|x, y| x.wrapping_add(y),
            &|x, y| u64::from(x) + u64::from(y) > 0xffff_ffff,
        );
        check(
            "sub.setf r0, ra0, rb0",
            &|x, y| x.wrapping_sub(y),
            &|x, y| x < y,
        );
        check(
            "min.setf r0, ra0, rb0",
            &|x, y| (x as i32).min(y as i32) as u32,
            &|x, y| (x as i32) > (y as i32),
        );
        check("and.setf r0, ra0, rb0", &|x, y| x & y, &|_, _| false);
        check("shl.setf r0, ra0, rb0", &|x, y| x << (y % 32), &|x, y| {
            y % 32 != 0 && (x >> (32 - y % 32)) & 1 == 1
        });
        check("shr.setf r0, ra0, rb0", &|x, y| x >> (y % 32), &|x, y| {
            y % 32 != 0 && (x >> (y % 32 - 1)) & 1 == 1
        });
        // With the add ALU idle, the flags come from the mul ALU.
        check(
            "nop.setf; v8min r0, ra0, rb0",
            &|x, y| bytes(x, y, |p, q| p.min(q)),
            &|_, _| false,
        );
    }
    let (a, b) = &float_vectors(7)[0];
    let got = flags_of("fsub.setf r0, ra0, rb0", a, b);
    for i in 0..16 {
        let r = fl(a[i]) - fl(b[i]);
        let bits = fb(r);
        assert_eq!(
            got[i],
            (bits & 0x7fff_ffff == 0, bits >> 31 == 1, r > 0.0),
            "fsub lane {i}"
        );
    }
}

#[test]
fn conditions_gate_the_write_and_flags_update_only_where_they_pass() {
    // Lanes 0..8 get Z from the first setf; the conditional setf then updates flags only
    // where its condition passes (measured behaviour).
    let a: [u32; 16] = std::array::from_fn(|i| if i < 8 { 0 } else { 5 });
    let b: [u32; 16] = std::array::from_fn(|i| if i % 2 == 0 { 0 } else { 9 });
    let source = format!(
        "{LOAD_RA0_RB0}
        mov.always.setf -, ra0
        mov r1, 7
        mov.ifz r1, rb0
        mov.ifnz.setf r0, rb0
        mov r2, 0
        mov.ifz r2, 1
        {}",
        store_and_end(&["r1", "r2"])
    );
    let out = run(&source, &[&a, &b], &[], 2);
    for i in 0..16 {
        let z1 = a[i] == 0;
        assert_eq!(out[i], if z1 { b[i] } else { 7 }, "lane {i}");
        let z2 = if z1 { z1 } else { b[i] == 0 };
        assert_eq!(out[16 + i], u32::from(z2), "lane {i}");
    }
}

#[test]
fn small_immediates_ints_floats_and_rotation_codes() {
    let zero = [0u32; 16];
    let source = format!(
        "{LOAD_RA0_RB0}
        add r1, ra0, 15
        add r2, ra0, -16
        fadd r3, ra0, 0.5
        nop; fmul r3, r3, 128.0
        {}",
        store_and_end(&["r1", "r2", "r3"])
    );
    let out = run(&source, &[&zero, &zero], &[], 3);
    assert_eq!(&out[..16], &[15; 16]);
    assert_eq!(&out[16..32], &[(-16i32) as u32; 16]);
    assert_eq!(&out[32..48], &[64.0f32.to_bits(); 16]);
}

#[test]
fn load_immediate_modes() {
    let source = format!(
        "ldi r1, 0x12345678
        ldi.es r2, [0, 1, -1, -2, 0, 1, -1, -2, 0, 1, -1, -2, 0, 1, -1, -2]
        ldi.eu r3, [3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0]
        ldi ra1, rb1, 77
        nop
        add r0, ra1, rb1
        {}",
        store_and_end(&["r1", "r2", "r3", "r0"])
    );
    let out = run(&source, &[], &[], 4);
    assert_eq!(&out[..16], &[0x1234_5678; 16]);
    let signed = [0i32, 1, -1, -2];
    let unsigned = [3u32, 2, 1, 0];
    for i in 0..16 {
        assert_eq!(out[16 + i], signed[i % 4] as u32);
        assert_eq!(out[32 + i], unsigned[i % 4]);
        assert_eq!(out[48 + i], 154);
    }
}

#[test]
fn rotations_full_from_accumulators_and_by_r5() {
    let a: [u32; 16] = std::array::from_fn(|i| 100 + i as u32);
    let source = format!(
        "{LOAD_RA0_RB0}
        mov r1, ra0
        mov r5rep, 5
        nop
        nop; mov r2, r1 >> 3
        nop; mov r3, r1 >> r5
        nop; mov r0, ra0 >> 2
        {}",
        store_and_end(&["r2", "r3", "r0"])
    );
    let out = run(&source, &[&a, &a], &[], 3);
    for i in 0..16 {
        // Lane 0 moves up to lane n.
        assert_eq!(out[i], a[(i + 16 - 3) % 16], "full rotate lane {i}");
        assert_eq!(out[16 + i], a[(i + 16 - 5) % 16], "rotate by r5 lane {i}");
    }
    // An operand from a register file rotates only within each quad [measured].
    for i in 0..16 {
        let src = (i & !3) + ((i & 3) + 4 - 2) % 4;
        assert_eq!(out[32 + i], a[src], "per-quad rotate lane {i}");
    }
}

#[test]
fn r5_writes_replicate_quads_or_element_zero() {
    let a: [u32; 16] = std::array::from_fn(|i| 10 * i as u32);
    let source = format!(
        "{LOAD_RA0_RB0}
        mov r5quad, ra0
        mov r1, r5
        mov r5rep, ra0
        mov r2, r5
        {}",
        store_and_end(&["r1", "r2"])
    );
    let out = run(&source, &[&a, &a], &[], 2);
    for i in 0..16 {
        assert_eq!(out[i], a[i & !3]);
        assert_eq!(out[16 + i], a[0]);
    }
}

#[test]
fn regfile_a_packs_and_unpacks() {
    let a: [u32; 16] = std::array::from_fn(|i| 0x8070_6050u32.wrapping_add(0x0102_0304 * i as u32));
    let source = format!(
        "{LOAD_RA0_RB0}
        mov ra1, -1
        mov ra2, -1
        nop
        mov ra1.8c, ra0
        mov ra2.16a, ra0
        mov r1, ra0.8d
        mov r2, ra0.16b
        mov r3, ra1
        mov r0, ra2
        {}",
        store_and_end(&["r1", "r2", "r3", "r0"])
    );
    let out = run(&source, &[&a, &a], &[], 4);
    for i in 0..16 {
        assert_eq!(out[i], a[i] >> 24, "8d unpack");
        assert_eq!(
            out[16 + i],
            (a[i] >> 16) as u16 as i16 as i32 as u32,
            "16b unpack"
        );
        assert_eq!(out[32 + i], 0xff00_ffff | ((a[i] & 0xff) << 16), "8c pack");
        assert_eq!(out[48 + i], 0xffff_0000 | (a[i] & 0xffff), "16a pack");
    }
}

#[test]
fn float_unpack_and_colour_pack() {
    // Half floats in the low halves; byte colours in byte 1.
    let halves = [0x3c00u32, 0xc000, 0x3800, 0x0000]; // 1.0, -2.0, 0.5, 0.0
    let a: [u32; 16] = std::array::from_fn(|i| halves[i % 4] | ((i as u32 * 17) << 8) << 16);
    let source = format!(
        "{LOAD_RA0_RB0}
        fadd r1, ra0.16a, 0.0
        fadd r2, ra0.8c, 0.0
        nop; fmul r3.c8888, r2, 1.0
        {}",
        store_and_end(&["r1", "r2", "r3"])
    );
    let out = run(&source, &[&a, &a], &[], 3);
    let half_values = [1.0f32, -2.0, 0.5, 0.0];
    for i in 0..16 {
        assert_eq!(
            f32::from_bits(out[i]),
            half_values[i % 4],
            "16a float unpack"
        );
        let colour = ((a[i] >> 16) & 0xff) as f32 / 255.0;
        assert_eq!(f32::from_bits(out[16 + i]), colour, "8c colour unpack");
        let byte = (colour * 255.0).round() as u32;
        assert_eq!(out[32 + i], byte * 0x0101_0101, "colour pack");
    }
}

#[test]
fn saturating_32_bit_pack_on_add() {
    let a = [0x7fff_fff0u32; 16];
    let b: [u32; 16] = std::array::from_fn(|i| i as u32 * 4);
    let source = format!(
        "{LOAD_RA0_RB0}
        add ra1.32s, ra0, rb0
        nop
        mov r1, ra1
        {}",
        store_and_end(&["r1"])
    );
    let out = run(&source, &[&a, &b], &[], 1);
    for i in 0..16 {
        let exact = i64::from(a[i] as i32) + i64::from(b[i] as i32);
        assert_eq!(out[i], exact.min(i64::from(i32::MAX)) as u32);
    }
}

#[test]
fn both_alus_read_their_operands_before_either_writes() {
    // The add and mul ALUs read in the same cycle, so each sees the other's destination as
    // it was before the instruction, whichever order an executor runs them in.
    let (a, b) = int_vectors(9)[1];
    let load = format!("{LOAD_RA0_RB0}\nmov r1, ra0\nmov r2, rb0\nmov r3, 0\n");
    // (instruction, expected r1, r2, r3 from a lane's (r1, r2) = (a, b)).
    type Expect = fn(u32, u32) -> [u32; 3];
    let cases: [(&str, Expect); 3] = [
        // The mul writes r2, which the add has read.
        ("add r1, r1, r2; mul24 r2, r2, r2", |x, y| {
            [
                x.wrapping_add(y),
                (y & 0xff_ffff).wrapping_mul(y & 0xff_ffff),
                0,
            ]
        }),
        // The add writes r1, which the mul reads.
        ("add r1, r2, r2; mul24 r3, r1, r1", |x, y| {
            [
                y.wrapping_add(y),
                y,
                (x & 0xff_ffff).wrapping_mul(x & 0xff_ffff),
            ]
        }),
        // Each writes what the other reads.
        ("sub r1, r2, r1; mul24 r2, r1, r1", |x, y| {
            [
                y.wrapping_sub(x),
                (x & 0xff_ffff).wrapping_mul(x & 0xff_ffff),
                0,
            ]
        }),
    ];
    for (line, expect) in cases {
        let source = format!("{load}{line}\n{}", store_and_end(&["r1", "r2", "r3"]));
        let out = run(&source, &[&a, &b], &[], 3);
        for lane in 0..16 {
            let got = [out[lane], out[16 + lane], out[32 + lane]];
            assert_eq!(got, expect(a[lane], b[lane]), "`{line}` lane {lane}");
        }
    }
}
