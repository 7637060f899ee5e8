//! Integer `/` and `%`, and `select`, on the interpreter and the emulator, against scalar
//! Rust (`wrapping_div`, `wrapping_rem`, `if`).

use qpu::lang::*;
use qpu::{compile, Device};
use qpu_isa::v3d::V3dVersion;

fn devices() -> [Device; 2] {
    [Device::interpreter(), Device::emulator()]
}

/// Scalar reference: the language's definitions (Rust's wrapping division; by zero, -1 or 1
/// by the dividend's sign, and the dividend as remainder).
fn div(x: i32, y: i32) -> i32 {
    match y {
        0 if x < 0 => 1,
        0 => -1,
        _ => x.wrapping_div(y),
    }
}

fn rem(x: i32, y: i32) -> i32 {
    if y == 0 {
        x
    } else {
        x.wrapping_rem(y)
    }
}

/// Dividend/divisor pairs: edge cases, then a deterministic spread of magnitudes.
fn pairs() -> Vec<(i32, i32)> {
    let mut out = vec![
        (7, 2),
        (-7, 2),
        (7, -2),
        (-7, -2),
        (0, 3),
        (5, 0),
        (-5, 0),
        (i32::MIN, -1),
        (i32::MIN, 1),
        (i32::MIN, i32::MIN),
        (i32::MAX, i32::MIN),
        (i32::MIN, i32::MAX),
        (i32::MAX, 1),
        (1 << 30, 3),
        (i32::MIN, 1 << 30 | 1),
        (100, 7),
    ];
    let mut state = 0x1234_5678_9abc_def0u64;
    while out.len() < 16 * 8 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let x = (state >> 32) as i32 >> (state % 31);
        let y = (state as i32) >> ((state >> 8) % 31);
        out.push((x, y));
    }
    out
}

#[test]
fn integer_division_and_remainder_match_scalar_rust() {
    let pairs = pairs();
    let xs: Vec<i32> = pairs.iter().map(|p| p.0).collect();
    let ys: Vec<i32> = pairs.iter().map(|p| p.1).collect();
    let want_q: Vec<i32> = pairs.iter().map(|&(x, y)| div(x, y)).collect();
    let want_r: Vec<i32> = pairs.iter().map(|&(x, y)| rem(x, y)).collect();
    let kernel = compile(
        |n: Int, x: Ptr<Int>, y: Ptr<Int>, q: Ptr<Int>, r: Ptr<Int>| {
            for_range(0, n, 16, |i| {
                let a = Int::var((x + i).load());
                let b = Int::var((y + i).load());
                (q + i).store(a / b);
                (r + i).store(a % b);
            });
        },
    )
    .unwrap();
    for device in devices() {
        let x = device.alloc_from(&xs).unwrap();
        let y = device.alloc_from(&ys).unwrap();
        let mut q = device.alloc::<i32>(xs.len()).unwrap();
        let mut r = device.alloc::<i32>(xs.len()).unwrap();
        kernel
            .run(&device, (xs.len() as i32, &x, &y, &mut q, &mut r))
            .unwrap();
        assert_eq!(q.to_vec(), want_q, "{} quotients", device.describe());
        assert_eq!(r.to_vec(), want_r, "{} remainders", device.describe());
    }
}

#[test]
fn division_and_select_under_where_keep_the_mask() {
    // Flag-setting values inside a where_ body: only the lanes the where_ selects change.
    let kernel = compile(|p: Ptr<Int>| {
        let x = Int::var(index() * 10 - 70);
        let y = Int::var(x);
        where_(index().lt(8), || {
            y.set(x / 3);
            x.set(select(x.gt(-30), x * 2, x % 7));
        });
        p.store(x + y)
    })
    .unwrap();
    let want: Vec<i32> = (0..16)
        .map(|i| {
            let x0 = i * 10 - 70;
            if i < 8 {
                let x = if x0 > -30 { x0 * 2 } else { x0 % 7 };
                x + x0 / 3
            } else {
                x0 + x0
            }
        })
        .collect();
    for device in devices() {
        let mut out = device.alloc::<i32>(16).unwrap();
        kernel.run(&device, &mut out).unwrap();
        assert_eq!(out.to_vec(), want, "{}", device.describe());
    }
}

#[test]
fn select_picks_lane_by_lane_for_ints_and_floats_and_in_conditions() {
    let kernel = compile(|p: Ptr<Int>, f: Ptr<Float>| {
        let i = Int::var(0);
        // A select inside a loop condition is evaluated on every test.
        while_(any(select(index().lt(4), i, 100).lt(3)), || i.set(i + 1));
        p.store(select(index().ge(8) & index().ne(12), index(), -1) + i);
        let x = Float::var(index().to_float());
        f.store(select(x.lt(3.0), x * 0.5, 100.0))
    })
    .unwrap();
    let want_i: Vec<i32> = (0..16)
        .map(|k| if k >= 8 && k != 12 { k } else { -1 } + 3)
        .collect();
    let want_f: Vec<f32> = (0..16)
        .map(|k| if k < 3 { k as f32 * 0.5 } else { 100.0 })
        .collect();
    for device in devices() {
        let mut p = device.alloc::<i32>(16).unwrap();
        let mut f = device.alloc::<f32>(16).unwrap();
        kernel.run(&device, (&mut p, &mut f)).unwrap();
        assert_eq!(p.to_vec(), want_i, "{}", device.describe());
        assert_eq!(f.to_vec(), want_f, "{}", device.describe());
    }
}

#[test]
fn store_first_writes_the_tail_of_an_array_and_nothing_past_it() {
    // The loop every kernel over n elements needs when n is not a multiple of 16.
    let kernel = compile(|n: Int, x: Ptr<Int>, y: Ptr<Int>| {
        for_range(0, n, 16, |i| {
            let v = Int::var((x + i).load());
            (y + i).store_first(n - i, v * v + 1);
        });
    })
    .unwrap();
    for len in [0usize, 1, 15, 16, 20, 33] {
        let input: Vec<i32> = (0..len as i32).map(|v| v - 7).collect();
        let want: Vec<i32> = input.iter().map(|v| v * v + 1).collect();
        for device in devices() {
            // The input is read one vector at a time; its last vector may run past the end,
            // and those lanes are never stored.
            let x = device.alloc_from(&input).unwrap();
            let mut y = device.alloc::<i32>(len).unwrap();
            kernel.run(&device, (len as i32, &x, &mut y)).unwrap();
            assert_eq!(y.to_vec(), want, "{} n = {len}", device.describe());
        }
    }
    // Counts clamp: n <= 0 stores nothing, n >= 16 stores the whole vector.
    let clamp = compile(|p: Ptr<Int>, n: Int| (p + 4).store_first(n, index() + 100)).unwrap();
    for device in devices() {
        for (n, stored) in [(-3, 0), (0, 0), (3, 3), (16, 16), (40, 16)] {
            let mut out = device.alloc_from(&[-1i32; 20]).unwrap();
            kernel_run(&clamp, &device, &mut out, n);
            let want: Vec<i32> = (0..20)
                .map(|i| {
                    if (4..4 + stored).contains(&i) {
                        i - 4 + 100
                    } else {
                        -1
                    }
                })
                .collect();
            assert_eq!(out.to_vec(), want, "{} n = {n}", device.describe());
        }
    }
}

fn kernel_run(
    kernel: &qpu::Kernel<(Ptr<Int>, Int)>,
    device: &Device,
    out: &mut qpu::runtime::SharedArray<i32>,
    n: i32,
) {
    kernel.run(device, (out, n)).unwrap();
}

const AMOUNTS: [i32; 20] = [
    0, 1, 2, 3, 6, 10, 11, 13, 15, 16, 17, 18, 19, 22, 25, 31, 32, 37, -1, -7,
];

#[test]
fn literal_shift_and_rotate_amounts_use_their_low_five_bits_and_no_load_immediate() {
    // SHA-256's rotates (by 2, 6, 11, 13, 17, 18, 19, 22, 25) and shifts by 3 and 10, plus
    // amounts past 31 and below 0, which the language defines by their low five bits.
    let amounts = AMOUNTS;
    let kernel = compile(move |p: Ptr<Int>, out: Ptr<Int>| {
        let x = Int::var(p.load());
        for (k, n) in amounts.into_iter().enumerate() {
            let base = out + (k as i32 * 64);
            base.store(x.ror(n));
            (base + 16).store(x << n);
            (base + 32).store(x >> n);
            (base + 48).store(x.lshr(n));
        }
    })
    .unwrap();
    let input: Vec<i32> = (0..16)
        .map(|i: i32| i.wrapping_mul(0x9e37_79b9u32 as i32) ^ (i << 28))
        .collect();
    let mut want = Vec::new();
    for n in amounts {
        let s = (n & 31) as u32;
        want.extend(input.iter().map(|&v| (v as u32).rotate_right(s) as i32));
        want.extend(input.iter().map(|&v| v << s));
        want.extend(input.iter().map(|&v| v >> s));
        want.extend(input.iter().map(|&v| ((v as u32) >> s) as i32));
    }
    for device in devices() {
        let p = device.alloc_from(&input).unwrap();
        let mut out = device.alloc::<i32>(want.len()).unwrap();
        kernel.run(&device, (&p, &mut out)).unwrap();
        assert_eq!(out.to_vec(), want, "{}", device.describe());
    }
    // Every amount is a small immediate: a kernel using all of them loads no more constants
    // (the launch prologue's setup words) than one using only amount 1.
    let shifts = |amounts: &'static [i32]| {
        compile(move |p: Ptr<Int>| {
            let x = Int::var(p.load());
            let mut acc = Int::var(0);
            for &n in amounts {
                acc ^= x.ror(n) ^ (x << n) ^ (x >> n) ^ x.lshr(n);
            }
            p.store(acc);
        })
        .unwrap()
    };
    let ldis = |k: &qpu::Kernel<(Ptr<Int>,)>| {
        let listing = k.disassemble().unwrap();
        listing.lines().filter(|l| l.starts_with("ldi")).count()
    };
    let mixed = shifts(&AMOUNTS);
    assert_eq!(
        ldis(&mixed),
        ldis(&shifts(&[1])),
        "{}",
        mixed.disassemble().unwrap()
    );
    let want: Vec<i32> = input
        .iter()
        .map(|&v| {
            amounts.iter().fold(0, |acc, &n| {
                let s = (n & 31) as u32;
                acc ^ (v as u32).rotate_right(s) as i32
                    ^ (v << s)
                    ^ (v >> s)
                    ^ ((v as u32) >> s) as i32
            })
        })
        .collect();
    for device in devices() {
        let mut p = device.alloc_from(&input).unwrap();
        mixed.run(&device, &mut p).unwrap();
        assert_eq!(p.to_vec(), want, "{}", device.describe());
    }
}

#[test]
fn constants_hoisted_past_the_registers_are_loaded_again_not_spilled() {
    // A loop adding 90 distinct 32-bit constants: hoisting lifts all 90 load immediates out
    // of the loop, more than the 64 registers hold. The allocator loads some of them again
    // inside the loop instead of keeping them in memory: no spill area at all.
    let constants: Vec<i32> = (0..90).map(|i: i32| 0x1234_5000 + i * 0x10_0001).collect();
    let kernel = {
        let constants = constants.clone();
        compile(move |p: Ptr<Int>, n: Int| {
            let acc = Int::var(p.load());
            for_range(0, n, 1, |_| {
                for &c in &constants {
                    acc.set((acc ^ c) + 1);
                }
            });
            p.store(acc);
        })
        .unwrap()
    };
    let compiled = qpu::compiler::compile(kernel.ast()).unwrap();
    assert_eq!(compiled.spill_bytes_per_qpu(), 0);
    let input: Vec<i32> = (0..16).map(|i| i * 77 - 5).collect();
    let want: Vec<i32> = input
        .iter()
        .map(|&v| {
            (0..3).fold(v, |acc, _| {
                constants.iter().fold(acc, |a, &c| (a ^ c).wrapping_add(1))
            })
        })
        .collect();
    for device in devices() {
        let mut p = device.alloc_from(&input).unwrap();
        kernel.run(&device, (&mut p, 3)).unwrap();
        assert_eq!(p.to_vec(), want, "{}", device.describe());
    }
}

/// `where_(index().eq(c), || d.set(rotate(b, n)))` after `d = rotate(a, n)` (HeatMap's
/// window edges) is compiled as one rotation of a vector whose lane `c - n` was taken from
/// `b`; the result must be the two rotations' lanes exactly, for `eq` and `ne`, Int and
/// Float, on the interpreter and the emulator, against scalar Rust.
#[test]
fn a_rotation_with_one_lane_from_another_vector_matches_scalar_rust() {
    let a: Vec<i32> = (0..16).map(|i| 1000 + i).collect();
    let b: Vec<i32> = (0..16).map(|i| -2000 - 7 * i).collect();
    let fa: Vec<f32> = a.iter().map(|&x| x as f32 * 0.5).collect();
    let fb: Vec<f32> = b.iter().map(|&x| x as f32 * 0.25).collect();
    // Lane i of a rotation by n is lane i - n of its source.
    let edge = |x: &[i32], y: &[i32], c: usize, n: usize, equal: bool| -> Vec<i32> {
        (0..16)
            .map(|i| {
                let from = (i + 16 - n) % 16;
                if (i == c) == equal {
                    y[from]
                } else {
                    x[from]
                }
            })
            .collect()
    };
    for (c, n) in [(0, 1), (15, 15), (0, 15), (15, 1), (5, 3), (12, 14)] {
        let kernel = compile(
            move |p: Ptr<Int>,
                  q: Ptr<Int>,
                  fp: Ptr<Float>,
                  fq: Ptr<Float>,
                  out: Ptr<Int>,
                  fout: Ptr<Float>| {
                let x = Int::var(p.load());
                let y = Int::var(q.load());
                let fx = Float::var(fp.load());
                let fy = Float::var(fq.load());
                let d = Int::var(rotate(x, n as i32));
                let e = Int::var(rotate(y, n as i32));
                where_(index().eq(c as i32), || d.set(e));
                let g = Float::var(rotate(fx, n as i32));
                let h = Float::var(rotate(fy, n as i32));
                where_(index().eq(c as i32), || g.set(h));
                let k = Int::var(rotate(x, n as i32));
                let m = Int::var(rotate(y, n as i32));
                where_(index().ne(c as i32), || k.set(m));
                // A later flag test ends the lane tests' flags in this block.
                where_(x.gt(y), || d.set(d + 0));
                out.store(d);
                (out + 16).store(k);
                fout.store(g);
            },
        )
        .unwrap();
        let listing = kernel.disassemble().unwrap();
        let rotations = listing.lines().filter(|l| l.contains(" >> ")).count();
        assert!(
            rotations <= 3,
            "lane {c}, rotation by {n}: {rotations} rotations, not one per edge:\n{listing}"
        );
        // The V3D compiler selects before rotating too (4.2 rotates with the `rot` signal,
        // 7.1 with the `rotate` op).
        for version in [V3dVersion::V42, V3dVersion::V71] {
            let v3d = qpu::compiler::v3d::compile(kernel.ast(), version).unwrap();
            let text = v3d.disassemble();
            let rotations = text
                .lines()
                .filter(|l| l.contains("rot") && !l.contains("ldtmu"))
                .count();
            assert!(
                rotations <= 3,
                "{version:?}, lane {c}, rotation by {n}: {rotations} rotations:\n{text}"
            );
        }
        let mut want = edge(&a, &b, c, n, true);
        want.extend(edge(&a, &b, c, n, false));
        let fbits = |v: &[f32]| v.iter().map(|x| x.to_bits() as i32).collect::<Vec<_>>();
        let want_f: Vec<u32> = edge(&fbits(&fa), &fbits(&fb), c, n, true)
            .into_iter()
            .map(|x| x as u32)
            .collect();
        let all = devices()
            .into_iter()
            .chain([V3dVersion::V42, V3dVersion::V71].map(Device::v3d_emulator));
        for device in all {
            let (pa, pb) = (
                device.alloc_from(&a).unwrap(),
                device.alloc_from(&b).unwrap(),
            );
            let (pfa, pfb) = (
                device.alloc_from(&fa).unwrap(),
                device.alloc_from(&fb).unwrap(),
            );
            let mut out = device.alloc::<i32>(32).unwrap();
            let mut fout = device.alloc::<f32>(16).unwrap();
            kernel
                .run(&device, (&pa, &pb, &pfa, &pfb, &mut out, &mut fout))
                .unwrap();
            let on = device.backend().name();
            assert_eq!(out.to_vec(), want, "{on}: lane {c}, rotation by {n}");
            let got: Vec<u32> = fout.to_vec().iter().map(|x| x.to_bits()).collect();
            assert_eq!(got, want_f, "{on}: lane {c}, rotation by {n} (float)");
        }
    }
}

/// Division and remainder by a literal power of two (positive or negative) become shifts on
/// every generation: the results still match scalar Rust's wrapping division for every
/// dividend, and `x / 2` issues a small fraction of the instructions the long division by
/// a variable 2 issues.
#[test]
fn division_by_a_literal_power_of_two_is_shifts_on_every_gpu() {
    let xs: Vec<i32> = pairs().iter().map(|p| p.0).collect();
    let divisors = [1, -1, 2, -2, 4, 32, -4096, 1 << 30, -(1 << 30), 3];
    divide_on_every_device(&xs, &divisors);
    // The cost: one vector divided by a literal 2, then by a variable holding 2, each less
    // what the same load and store cost without a division.
    let halve = compile(|p: Ptr<Int>, _d: Int| p.store(p.load() / 2)).unwrap();
    for (device, shifts, long) in division_costs(&halve, 2) {
        assert!(
            shifts * 20 < long,
            "{device}: {shifts} instructions for x / 2, {long} for x / d"
        );
    }
}

/// Division and remainder by any other literal (but 0 and `i32::MIN`) become a magic
/// multiplication on every generation: the results match scalar Rust's wrapping division
/// for every dividend, and `x / 7` issues a fraction of the instructions the long division
/// by a variable 7 issues.
#[test]
fn division_by_other_literals_is_a_multiplication_on_every_gpu() {
    let mut xs: Vec<i32> = pairs().iter().map(|p| p.0).collect();
    xs.extend([i32::MIN, i32::MIN + 1, i32::MAX, -1, 0, 1, 6, 7, -7, -8]);
    xs.resize(xs.len().next_multiple_of(16), 12_345);
    let divisors = [
        3,
        -3,
        7,
        -7,
        10,
        100,
        641,
        1_000_003,
        i32::MAX,
        -1000,
        i32::MIN + 1,
    ];
    divide_on_every_device(&xs, &divisors);
    let by_seven = compile(|p: Ptr<Int>, _d: Int| p.store(p.load() / 7)).unwrap();
    for (device, magic, long) in division_costs(&by_seven, 7) {
        eprintln!("{device}: {magic} instructions for x / 7, {long} for x / d");
        assert!(
            magic * 5 < long,
            "{device}: {magic} instructions for x / 7, {long} for x / d"
        );
    }
}

/// Runs `q = x / c` and `r = x % c` for each divisor on the interpreter and every emulator
/// and checks them against scalar Rust's wrapping division.
fn divide_on_every_device(xs: &[i32], divisors: &[i32]) {
    let devices = [Device::interpreter(), Device::emulator()]
        .into_iter()
        .chain([V3dVersion::V42, V3dVersion::V71].map(Device::v3d_emulator));
    for device in devices {
        let x = device.alloc_from(xs).unwrap();
        for &c in divisors {
            let kernel = compile(move |n: Int, x: Ptr<Int>, q: Ptr<Int>, r: Ptr<Int>| {
                for_range(0, n, 16, |i| {
                    let a = Int::var((x + i).load());
                    (q + i).store(a / c);
                    (r + i).store(a % c);
                });
            })
            .unwrap();
            let mut q = device.alloc::<i32>(xs.len()).unwrap();
            let mut r = device.alloc::<i32>(xs.len()).unwrap();
            kernel
                .run(&device, (xs.len() as i32, &x, &mut q, &mut r))
                .unwrap();
            let want_q: Vec<i32> = xs.iter().map(|&x| div(x, c)).collect();
            let want_r: Vec<i32> = xs.iter().map(|&x| rem(x, c)).collect();
            assert_eq!(q.to_vec(), want_q, "{} / {c}", device.describe());
            assert_eq!(r.to_vec(), want_r, "{} % {c}", device.describe());
        }
    }
}

/// Per emulator: the instructions `by_literal` (one vector divided by the literal `d`) and
/// the long division by a variable holding `d` issue, each less what the same load and
/// store cost without a division.
fn division_costs(by_literal: &qpu::Kernel<(Ptr<Int>, Int)>, d: i32) -> Vec<(String, u64, u64)> {
    let copy = compile(|p: Ptr<Int>, _d: Int| p.store(p.load())).unwrap();
    let divide = compile(|p: Ptr<Int>, d: Int| p.store(p.load() / d)).unwrap();
    [Device::emulator()]
        .into_iter()
        .chain([V3dVersion::V42, V3dVersion::V71].map(Device::v3d_emulator))
        .map(|device| {
            let mut p = device.alloc_from(&[-7i32; 16]).unwrap();
            let issued = |r: qpu::runtime::RunReport| r.qpus.iter().map(|q| q.steps).sum::<u64>();
            let base = issued(copy.run(&device, (&mut p, d)).unwrap());
            let literal = issued(by_literal.run(&device, (&mut p, d)).unwrap()) - base;
            let long = issued(divide.run(&device, (&mut p, d)).unwrap()) - base;
            (device.describe(), literal, long)
        })
        .collect()
}
