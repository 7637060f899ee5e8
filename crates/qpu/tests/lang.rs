//! The language's operators and statements, run on the interpreter and checked against
//! scalar Rust; and the build- and run-time errors, with the locations they report.

use qpu::error::{BuildErrorKind, Error, RunErrorKind};
use qpu::lang::*;
use qpu::runtime::Interpreter;
use qpu::{compile, Device};

const INTS: [i32; 16] = [
    0,
    1,
    -1,
    2,
    31,
    32,
    33,
    -32,
    i32::MIN,
    i32::MAX,
    7,
    -7,
    0x1234_5678,
    100,
    -100,
    65_536,
];

/// The same values in another order, so each lane pairs different operands.
fn ints_b() -> [i32; 16] {
    let mut b = INTS;
    b.rotate_left(5);
    b
}

fn run_int2(op: impl FnOnce(Int, Int) -> Int, a: [i32; 16], b: [i32; 16]) -> Vec<i32> {
    let device = Device::interpreter();
    let a = device.alloc_from(&a).unwrap();
    let b = device.alloc_from(&b).unwrap();
    let mut out = device.alloc::<i32>(16).unwrap();
    let kernel = compile(move |pa: Ptr<Int>, pb: Ptr<Int>, out: Ptr<Int>| {
        out.store(op(pa.load(), pb.load()));
    })
    .unwrap();
    kernel.run(&device, (&a, &b, &mut out)).unwrap();
    out.to_vec()
}

fn check_int(name: &str, op: impl FnOnce(Int, Int) -> Int, scalar: impl Fn(i32, i32) -> i32) {
    let (a, b) = (INTS, ints_b());
    let expected: Vec<i32> = (0..16).map(|i| scalar(a[i], b[i])).collect();
    assert_eq!(run_int2(op, a, b), expected, "{name}");
}

#[test]
fn integer_operators_match_wrapping_scalar_arithmetic() {
    check_int("+", |a, b| a + b, i32::wrapping_add);
    check_int("-", |a, b| a - b, i32::wrapping_sub);
    check_int("*", |a, b| a * b, i32::wrapping_mul);
    check_int(
        "mul24",
        |a, b| a.mul24(b),
        |a, b| ((a as u32 & 0xff_ffff) as u64 * (b as u32 & 0xff_ffff) as u64) as u32 as i32,
    );
    check_int("<<", |a, b| a << b, |a, b| a.wrapping_shl(b as u32));
    check_int(">>", |a, b| a >> b, |a, b| a.wrapping_shr(b as u32));
    check_int(
        "lshr",
        |a, b| a.lshr(b),
        |a, b| (a as u32).wrapping_shr(b as u32) as i32,
    );
    check_int(
        "ror",
        |a, b| a.ror(b),
        |a, b| (a as u32).rotate_right(b as u32 % 32) as i32,
    );
    check_int("&", |a, b| a & b, |a, b| a & b);
    check_int("|", |a, b| a | b, |a, b| a | b);
    check_int("^", |a, b| a ^ b, |a, b| a ^ b);
    check_int("min", |a, b| min(a, b), std::cmp::min);
    check_int("max", |a, b| a.max(b), std::cmp::max);
    check_int("abs", |a, _| a.abs(), |a, _| a.wrapping_abs());
    check_int("clz", |a, _| a.clz(), |a, _| a.leading_zeros() as i32);
    check_int("!", |a, _| !a, |a, _| !a);
    check_int("neg", |a, _| -a, |a, _| a.wrapping_neg());
    check_int("literal right", |a, _| a + 1, |a, _| a.wrapping_add(1));
    check_int("literal left", |a, _| 3 - a, |a, _| 3i32.wrapping_sub(a));
    check_int(
        "shift by literal >= 32",
        |a, _| a << 33,
        |a, _| a.wrapping_shl(1),
    );
    check_int("negative shift", |a, _| a >> -1, |a, _| a >> 31);
    check_int(
        "to_float.to_int",
        |a, _| (a.to_float() * 0.5).to_int(),
        |a, _| qpu::float::mul(qpu::float::from_int(a), 0.5) as i32,
    );
}

#[test]
fn compound_assignment_operators_update_variables() {
    check_int(
        "+= -= *= <<= >>= &= |= ^=",
        |a, b| {
            let mut x = Int::var(a);
            x += b;
            x -= 3;
            x *= 5;
            x <<= 2;
            x >>= 1;
            x &= 0x7fff_ffff;
            x |= 1;
            x ^= b;
            x
        },
        |a, b| {
            let mut x = a.wrapping_add(b).wrapping_sub(3).wrapping_mul(5);
            x = x.wrapping_shl(2) >> 1;
            ((x & 0x7fff_ffff) | 1) ^ b
        },
    );
}

#[test]
fn integer_comparisons_are_exact_even_at_the_extremes() {
    type Cmp = fn(Int, Int) -> Bool;
    type Scalar = fn(&i32, &i32) -> bool;
    let cases: [(&str, Cmp, Scalar); 6] = [
        ("eq", |a, b| a.eq(b), |a, b| a == b),
        ("ne", |a, b| a.ne(b), |a, b| a != b),
        ("lt", |a, b| a.lt(b), |a, b| a < b),
        ("le", |a, b| a.le(b), |a, b| a <= b),
        ("gt", |a, b| a.gt(b), |a, b| a > b),
        ("ge", |a, b| a.ge(b), |a, b| a >= b),
    ];
    for (name, cmp, scalar) in cases {
        let (a, b) = (INTS, ints_b());
        let expected: Vec<i32> = (0..16).map(|i| scalar(&a[i], &b[i]) as i32).collect();
        let got = run_int2(
            |a, b| {
                let r = Int::var(0);
                where_(cmp(a, b), || r.set(1));
                r
            },
            a,
            b,
        );
        assert_eq!(got, expected, "{name}");
    }
}

const DENORMAL: f32 = 1.0e-40;

fn floats() -> [f32; 16] {
    [
        0.0,
        -0.0,
        1.0,
        -1.5,
        2.0,
        DENORMAL,
        -DENORMAL,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        3.0,
        0.1,
        1e30,
        -1e30,
        123.456,
        0.5,
    ]
}

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn same(a: f32, b: f32) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

fn check_float(
    name: &str,
    op: impl FnOnce(Float, Float) -> Float,
    scalar: impl Fn(f32, f32) -> f32,
) {
    let a = floats();
    let mut b = a;
    b.rotate_left(3);
    let device = Device::interpreter();
    let pa = device.alloc_from(&a).unwrap();
    let pb = device.alloc_from(&b).unwrap();
    let mut out = device.alloc::<f32>(16).unwrap();
    let kernel = compile(move |pa: Ptr<Float>, pb: Ptr<Float>, out: Ptr<Float>| {
        out.store(op(pa.load(), pb.load()));
    })
    .unwrap();
    kernel.run(&device, (&pa, &pb, &mut out)).unwrap();
    for i in 0..16 {
        let want = flush(scalar(flush(a[i]), flush(b[i])));
        assert!(
            same(out[i], want),
            "{name}({}, {}) = {} want {want}",
            a[i],
            b[i],
            out[i]
        );
    }
}

#[test]
fn float_operators_match_the_hardware_with_flush_to_zero() {
    // +, -, * and int-to-float truncate toward zero as the VideoCore IV does: the reference
    // is qpu::float, whose own tests check it against exact integer arithmetic and values
    // dumped from hardware.
    use qpu::float::{add, from_int, mul, sub};
    check_float("+", |a, b| a + b, add);
    check_float("-", |a, b| a - b, sub);
    check_float("*", |a, b| a * b, mul);
    check_float("/", |a, b| a / b, |a, b| mul(a, flush(1.0 / b)));
    check_float(
        "literal",
        |a, _| a * 0.125 + 1.0,
        |a, _| add(mul(a, 0.125), 1.0),
    );
    check_float("literal left", |a, _| 2.0 - a, |a, _| sub(2.0, a));
    check_float("neg", |a, _| -a, |a, _| sub(0.0, a));
    check_float("abs", |a, _| a.abs(), |a, _| a.abs());
    check_float("recip", |a, _| a.recip(), |a, _| 1.0 / a);
    check_float(
        "rsqrt",
        |a, _| a.rsqrt(),
        |a, _| (1.0 / (a.abs() as f64).sqrt()) as f32,
    );
    check_float("exp2", |a, _| a.exp2(), |a, _| (a as f64).exp2() as f32);
    check_float(
        "log2",
        |a, _| a.log2(),
        |a, _| (a.abs() as f64).log2() as f32,
    );
    check_float(
        "sqrt",
        |a, _| a.sqrt(),
        |a, _| flush(1.0 / flush((1.0 / (a.abs() as f64).sqrt()) as f32)),
    );
    // The VideoCore IV's fmin/fmax choose by a > b (false with a NaN), and its ftoi gives 0
    // for NaN and out of range (the emulator's assumptions, which `help_us_check` asks a Pi
    // about; the interpreter models the same unit).
    check_float("min", |a, b| min(a, b), |a, b| if a > b { b } else { a });
    check_float("max", |a, b| a.max(b), |a, b| if a > b { a } else { b });
    check_float(
        "to_int.to_float",
        |a, _| a.to_int().to_float(),
        |a, _| {
            if a.is_nan() || a.abs() >= 2_147_483_648.0 {
                0.0
            } else {
                from_int(a as i32)
            }
        },
    );
}

/// The six float comparisons of every `floats()` lane against its neighbour on `device`, as
/// 0/1 words, comparison by comparison.
fn float_comparisons(device: &Device) -> Vec<i32> {
    let a = floats();
    let mut b = a;
    b.rotate_left(1);
    let pa = device.alloc_from(&a).unwrap();
    let pb = device.alloc_from(&b).unwrap();
    let mut out = device.alloc::<i32>(16 * 6).unwrap();
    let kernel = compile(|pa: Ptr<Float>, pb: Ptr<Float>, out: Ptr<Int>| {
        let (x, y) = (Float::var(pa.load()), Float::var(pb.load()));
        for (k, cmp) in [x.eq(y), x.ne(y), x.lt(y), x.le(y), x.gt(y), x.ge(y)]
            .into_iter()
            .enumerate()
        {
            let r = Int::var(0);
            where_(cmp, || r.set(1));
            out.at(16 * k as i32).store(r);
        }
    })
    .unwrap();
    kernel.run(device, (&pa, &pb, &mut out)).unwrap();
    out.to_vec()
}

#[test]
fn float_comparisons_per_generation() {
    let a = floats();
    let mut b = a;
    b.rotate_left(1);
    // The VideoCore IV's compiled tests: `==`/`!=` the flushed difference against zero,
    // the others a > b after flushing (false with a NaN, so `<=` and `>=` hold with one).
    let eq = |a: f32, b: f32| qpu::float::sub(a, b).abs() == 0.0;
    let gt = |a: f32, b: f32| flush(a) > flush(b);
    let vc4: [&dyn Fn(f32, f32) -> bool; 6] = [
        &|a, b| eq(a, b),
        &|a, b| !eq(a, b),
        &|a, b| gt(b, a),
        &|a, b| !gt(a, b),
        &|a, b| gt(a, b),
        &|a, b| !gt(b, a),
    ];
    // The V3D's: IEEE's, denormals kept.
    let ieee: [&dyn Fn(f32, f32) -> bool; 6] = [
        &|a, b| a == b,
        &|a, b| a != b,
        &|a, b| a < b,
        &|a, b| a <= b,
        &|a, b| a > b,
        &|a, b| a >= b,
    ];
    for (device, scalar) in [
        (Device::interpreter(), vc4),
        (Device::interpreter_for(qpu::compiler::Gpu::Vc6), ieee),
        (Device::interpreter_for(qpu::compiler::Gpu::Vc7), ieee),
    ] {
        let out = float_comparisons(&device);
        for (k, f) in scalar.iter().enumerate() {
            for i in 0..16 {
                assert_eq!(
                    out[16 * k + i],
                    f(a[i], b[i]) as i32,
                    "{} cmp {k} lane {i}: {} {}",
                    device.describe(),
                    a[i],
                    b[i]
                );
            }
        }
    }
}

#[test]
fn booleans_combine_lane_wise_and_reduce_with_any_and_all() {
    let got = run_int2(
        |a, b| {
            let r = Int::var(0);
            where_(a.gt(0) & b.lt(0), || r.set(1));
            where_(a.eq(0) | !b.ne(0), || r.set(2));
            where_(a.gt(0).and(b.gt(0)).or(a.eq(7)), || r.set(r + 10));
            r
        },
        INTS,
        ints_b(),
    );
    let b = ints_b();
    for i in 0..16 {
        let (a, b) = (INTS[i], b[i]);
        let mut r = 0;
        if a > 0 && b < 0 {
            r = 1;
        }
        if a == 0 || b == 0 {
            r = 2;
        }
        if (a > 0 && b > 0) || a == 7 {
            r += 10;
        }
        assert_eq!(got[i], r, "lane {i}");
    }
}

fn run_scalar_kernel(f: impl FnOnce(Ptr<Int>, Int) + 'static, n: i32) -> Vec<i32> {
    let device = Device::interpreter();
    let mut out = device.alloc::<i32>(64).unwrap();
    compile(f).unwrap().run(&device, (&mut out, n)).unwrap();
    out.to_vec()
}

#[test]
fn if_else_if_else_and_any_all() {
    let kernel = |out: Ptr<Int>, n: Int| {
        let r = Int::var(0);
        if_(all(index().lt(n)), || r.set(1))
            .else_if(index().lt(n), || r.set(2))
            .else_(|| r.set(3));
        out.store(r);
    };
    assert_eq!(run_scalar_kernel(kernel, 16)[0], 1, "all lanes < 16");
    assert_eq!(
        run_scalar_kernel(kernel, 5)[0],
        2,
        "some lanes < 5 (bare Bool = any)"
    );
    assert_eq!(run_scalar_kernel(kernel, 0)[0], 3, "no lane < 0");
}

#[test]
fn while_and_for_loops_with_nested_where_else() {
    let got = run_scalar_kernel(
        |out, n| {
            // Per lane: count Collatz steps of index()+n, capped at 100 iterations.
            let x = Int::var(index() + n);
            let steps = Int::var(0);
            for_(
                0,
                |i| i.lt(100),
                |i| i + 1,
                |_| {
                    where_(x.ne(1), || {
                        where_((x & 1).eq(0), || x.set(x >> 1)).else_(|| x.set(x * 3 + 1));
                        steps.set(steps + 1);
                    });
                },
            );
            out.store(steps);
        },
        1,
    );
    for lane in 0..16 {
        let (mut x, mut steps) = (lane + 1, 0);
        while x != 1 && steps < 100 {
            x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
            steps += 1;
        }
        assert_eq!(got[lane as usize], steps, "lane {lane}");
    }
}

#[test]
fn lane_rotation_by_constant_and_per_kernel_amounts() {
    for n in [-17, -1, 0, 1, 5, 15, 16, 100, i32::MIN, i32::MAX] {
        let got = run_scalar_kernel(
            |out, n| {
                out.store(rotate(index() * 10, n));
                out.at(16).store(rotate(index(), 1));
                out.at(32)
                    .store((index().to_float() + 0.5).rotate(n).to_int());
            },
            n,
        );
        let amount = n.rem_euclid(16);
        for i in 0..16i32 {
            assert_eq!(
                got[i as usize],
                ((i - amount).rem_euclid(16)) * 10,
                "n={n} lane {i}"
            );
            assert_eq!(got[16 + i as usize], (i - 1).rem_euclid(16));
            assert_eq!(
                got[32 + i as usize],
                (i - amount).rem_euclid(16),
                "float n={n}"
            );
        }
    }
}

#[test]
fn index_me_and_num_qpus_on_three_qpus() {
    let device = Device::interpreter();
    let mut out = device.alloc::<i32>(48).unwrap();
    let mut kernel = compile(|p: Ptr<Int>| {
        (p + me() * 16).store(index() + me() * 100 + num_qpus() * 10_000);
    })
    .unwrap();
    kernel.set_num_qpus(3).unwrap();
    kernel.run(&device, &mut out).unwrap();
    for q in 0..3 {
        for i in 0..16 {
            assert_eq!(out[q * 16 + i], (i + q * 100 + 30_000) as i32);
        }
    }
}

#[test]
fn strided_and_offset_memory_access() {
    let device = Device::interpreter();
    let input: Vec<i32> = (0..64).collect();
    let src = device.alloc_from(&input).unwrap();
    let mut dst = device.alloc::<i32>(64).unwrap();
    let kernel = compile(|src: Ptr<Int>, dst: Ptr<Int>| {
        let odd = Int::var((src + 1).load_strided(2)); // 1, 3, …, 31
        dst.store_strided(odd, 3); // dst[0], dst[3], … dst[45]
        let end = Ptr::var(src + 48);
        (dst + 48).store((end - 16).load() + 1000); // src[32..48] + 1000
    })
    .unwrap();
    kernel.run(&device, (&src, &mut dst)).unwrap();
    for i in 0..16 {
        assert_eq!(dst[3 * i], 2 * i as i32 + 1);
        assert_eq!(dst[48 + i], 32 + i as i32 + 1000);
    }
    assert_eq!(dst[1], 0);
}

#[test]
fn gather_receive_is_a_per_lane_fifo() {
    let device = Device::interpreter();
    let input: Vec<i32> = (0..64).map(|i| i * i).collect();
    let src = device.alloc_from(&input).unwrap();
    let mut dst = device.alloc::<i32>(64).unwrap();
    let kernel = compile(|src: Ptr<Int>, dst: Ptr<Int>| {
        let (a, b, c, d) = (Int::var(0), Int::var(0), Int::var(0), Int::var(0));
        gather(src + (15 - index())); // reversed
        gather(src + index() * 4); // strided per lane
        gather(src + 16 + index());
        gather(src + 63 - index());
        receive(a);
        receive(b);
        receive(c);
        receive(d);
        store(a, dst);
        store(b, dst + 16);
        store(c, dst + 32);
        store(d, dst + 48);
    })
    .unwrap();
    let report = kernel.run(&device, (&src, &mut dst)).unwrap();
    assert_eq!(report.qpus[0].gathers, 4);
    assert_eq!(report.qpus[0].stores, 4);
    for i in 0..16 {
        assert_eq!(dst[i], input[15 - i]);
        assert_eq!(dst[16 + i], input[4 * i]);
        assert_eq!(dst[32 + i], input[16 + i]);
        assert_eq!(dst[48 + i], input[63 - i]);
    }
}

#[test]
fn semaphores_order_qpus_and_deadlock_is_reported() {
    let device = Device::interpreter();
    let mut out = device.alloc::<i32>(64).unwrap();
    let mut kernel = compile(|p: Ptr<Int>| {
        if_(all(me().eq(0)), || {
            for _ in 0..3 {
                sema_dec(0);
            }
            p.store((p + 16).load() + (p + 32).load() + (p + 48).load());
        })
        .else_(|| {
            (p + me() * 16).store(me() * 7 + index());
            sema_inc(0);
        });
    })
    .unwrap();
    kernel.set_num_qpus(4).unwrap();
    kernel.run(&device, &mut out).unwrap();
    for i in 0..16 {
        assert_eq!(out[i], (7 + 14 + 21) + 3 * i as i32);
    }

    let line = line!() + 1;
    let stuck = compile(|_: Ptr<Int>| sema_dec(3)).unwrap();
    for device in [device, Device::emulator()] {
        let mut out = device.alloc::<i32>(16).unwrap();
        let err = stuck.run(&device, &mut out).unwrap_err();
        // The deadlock names the statement the QPU waits at.
        assert!(
            matches!(err, Error::Run(ref e) if e.kind == RunErrorKind::Deadlock
                && e.location.map(|l| l.line) == Some(line)),
            "{}: {err}",
            device.describe()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Build errors carry the user's location.

fn build_error(result: qpu::Result<impl std::fmt::Debug>) -> (BuildErrorKind, u32) {
    match result {
        Err(Error::Build(errors)) => {
            let first = errors.first().unwrap().clone();
            assert!(
                first.location.file.ends_with("lang.rs"),
                "{}",
                first.location
            );
            (first.kind, first.location.line)
        }
        other => panic!("expected a build error, got {other:?}"),
    }
}

#[test]
fn load_or_store_inside_where_is_rejected_at_its_line() {
    let line = line!() + 3;
    let result = compile(|p: Ptr<Int>| {
        let x = Int::var(0);
        where_(x.eq(0), || x.set(p.load()));
    });
    let (kind, at) = build_error(result);
    assert_eq!(at, line);
    assert_eq!(kind, BuildErrorKind::MemoryInWhere { what: "a load" });
    let message = kind.to_string();
    assert!(message.contains("before the `where_`"), "{message}");

    let line = line!() + 2;
    let result = compile(|p: Ptr<Int>| {
        where_(index().eq(0), || p.store(1));
    });
    assert_eq!(
        build_error(result),
        (BuildErrorKind::MemoryInWhere { what: "a store" }, line)
    );
}

#[test]
fn values_from_another_kernel_are_rejected() {
    let mut leaked = None;
    compile(|a: Int| leaked = Some(a)).unwrap();
    let leaked = leaked.unwrap();
    let line = line!() + 1;
    let result = compile(move |p: Ptr<Int>| p.store(leaked + 1));
    assert_eq!(build_error(result), (BuildErrorKind::ForeignValue, line));

    let outside = Int::from(5);
    let result = compile(move |p: Ptr<Int>| p.store(outside));
    assert_eq!(build_error(result).0, BuildErrorKind::ForeignValue);
}

#[test]
fn statement_misuse_is_reported() {
    let cases: Vec<(qpu::Result<()>, BuildErrorKind)> = vec![
        (
            compile(|a: Int| (a + 1).set(3)).map(drop),
            BuildErrorKind::AssignToExpression,
        ),
        (
            compile(|p: Ptr<Int>| {
                gather(p);
                receive(index() + 1);
            })
            .map(drop),
            BuildErrorKind::ReceiveIntoExpression,
        ),
        (
            compile(|_: Int| {
                where_(index().eq(0), || {
                    Int::var(1);
                });
            })
            .map(drop),
            BuildErrorKind::DeclareInWhere,
        ),
        (
            compile(|a: Int| where_(a.eq(0), || while_(a.eq(0), || {}))).map(drop),
            BuildErrorKind::ControlInWhere { what: "`while_`" },
        ),
        (
            compile(|a: Int| {
                let x = Int::var(0);
                let e = if_(a.eq(0), || x.set(1));
                x.set(2);
                e.else_(|| x.set(3));
            })
            .map(drop),
            BuildErrorKind::MisplacedElse,
        ),
        (
            compile(|_: Int| sema_inc(15)).map(drop),
            BuildErrorKind::SemaphoreOutOfRange(15),
        ),
        (
            compile(|p: Ptr<Int>| {
                p.load_strided(0);
            })
            .map(drop),
            BuildErrorKind::StrideOutOfRange(0),
        ),
    ];
    for (result, want) in cases {
        assert_eq!(build_error(result).0, want);
    }
}

#[test]
fn gather_fifo_mistakes_are_caught_at_build_time_when_certain() {
    let line = line!() + 6;
    let result = compile(|p: Ptr<Int>| {
        let x = Int::var(0);
        for i in 0..4 {
            gather(p + i);
        }
        gather(p);
        for _ in 0..5 {
            receive(x);
        }
    });
    assert_eq!(
        build_error(result),
        (
            BuildErrorKind::TooManyGathers {
                outstanding: 5,
                limit: 4
            },
            line
        )
    );

    let line = line!() + 3;
    let result = compile(|_: Ptr<Int>| {
        let x = Int::var(0);
        receive(x);
    });
    assert_eq!(
        build_error(result),
        (BuildErrorKind::ReceiveWithoutGather, line)
    );

    let line = line!() + 1;
    let result = compile(|p: Ptr<Int>| gather(p));
    assert_eq!(
        build_error(result),
        (BuildErrorKind::UnreceivedGathers { outstanding: 1 }, line)
    );

    // A balanced software pipeline (Rot3D v2's shape) passes.
    compile(|p: Ptr<Int>, n: Int| {
        let x = Int::var(0);
        gather(p);
        gather(p);
        for_(
            0,
            |i| i.lt(n),
            |i| i + 1,
            |_| {
                gather(p);
                gather(p);
                receive(x);
                receive(x);
            },
        );
        receive(x);
        receive(x);
    })
    .unwrap();
}

#[test]
fn gather_fifo_mistakes_depending_on_data_are_caught_at_run_time() {
    let device = Device::interpreter();
    let data = device.alloc::<i32>(16).unwrap();
    let grows = compile(|p: Ptr<Int>, n: Int| {
        for_(0, |i| i.lt(n), |i| i + 1, |_| gather(p));
    })
    .unwrap();
    // Zero iterations gather nothing: fine.
    grows.run(&device, (&data, 0)).unwrap();
    let err = grows.run(&device, (&data, 5)).unwrap_err();
    match err {
        Error::Run(e) => {
            assert_eq!(e.kind, RunErrorKind::GatherOverflow { limit: 4 });
            assert_eq!(e.qpu, 0);
        }
        other => panic!("{other}"),
    }
    let err = grows.run(&device, (&data, 2)).unwrap_err();
    assert!(matches!(err, Error::Run(e) if e.kind == RunErrorKind::UnreceivedAtEnd(2)));
}

// ---------------------------------------------------------------------------------------------
// Run-time and API errors.

#[test]
fn memory_errors_name_the_qpu_address_and_statement() {
    let device = Device::interpreter();
    let data = device.alloc::<i32>(16).unwrap();
    let line = line!() + 1;
    let kernel = compile(|p: Ptr<Int>| p.store(1)).unwrap();
    let err = kernel.run(&device, &data).unwrap_err();
    match err {
        Error::Run(e) => {
            assert_eq!(
                e.kind,
                RunErrorKind::ReadOnly {
                    address: data.bus_address()
                }
            );
            assert_eq!(e.location.unwrap().line, line);
            assert!(e.to_string().contains("&mut SharedArray"), "{e}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn num_qpus_devices_and_step_limit_are_checked() {
    let device = Device::interpreter();
    let mut kernel = compile(|p: Ptr<Int>| p.store(me())).unwrap();
    assert_eq!(kernel.set_num_qpus(0).unwrap_err(), Error::NumQpus(0));
    assert_eq!(kernel.set_num_qpus(17).unwrap_err(), Error::NumQpus(17));
    kernel.set_num_qpus(12).unwrap();
    assert_eq!(kernel.num_qpus(), 12);

    let other = Device::interpreter();
    let mut foreign = other.alloc::<i32>(16 * 12).unwrap();
    assert_eq!(
        kernel.run(&device, &mut foreign).unwrap_err(),
        Error::WrongDevice { index: 0 }
    );

    let slow = Device::new(Interpreter::new().with_step_limit(1000));
    let spin = compile(|p: Ptr<Int>| {
        while_(index().ge(0), || {});
        p.store(0);
    })
    .unwrap();
    let mut data = slow.alloc::<i32>(16).unwrap();
    let err = spin.run(&slow, &mut data).unwrap_err();
    assert!(err.to_string().contains("with_step_limit"), "{err}");
    assert!(
        matches!(err, Error::Run(e) if e.kind == RunErrorKind::StepLimit { limit: 1000, instructions: false })
    );
    // On every machine-code backend an endless kernel ends at the step limit with the same
    // error, naming the kernel's source line (the loop's), not an emulator setting.
    for device in [Device::emulator()].into_iter().chain(
        [qpu_isa::v3d::V3dVersion::V42, qpu_isa::v3d::V3dVersion::V71].map(Device::v3d_emulator),
    ) {
        let device = device.with_step_limit(5000);
        let mut data = device.alloc::<i32>(16).unwrap();
        let err = spin.run(&device, &mut data).unwrap_err();
        let Error::Run(run) = &err else {
            panic!("{}: {err}", device.describe())
        };
        assert_eq!(
            run.kind,
            RunErrorKind::StepLimit {
                limit: 5000,
                instructions: true
            },
            "{}",
            device.describe()
        );
        let at = run
            .location
            .unwrap_or_else(|| panic!("{}: no location in {err:?}", device.describe()));
        assert!(at.file.ends_with("lang.rs"), "{}: {err}", device.describe());
        assert!(!err.to_string().contains("EmulatorConfig"), "{err}");
    }
    // The default budget is the emulator's (seconds of an endless loop, not minutes).
    assert_eq!(
        qpu::interp::Config::default().step_limit,
        qpu_emu::vc4::EmulatorConfig::default().max_instructions
    );
}

#[test]
fn shared_arrays_read_and_write_like_slices() {
    let device = Device::interpreter();
    let mut a = device.alloc::<f32>(4).unwrap();
    a[2] = 1.5;
    a.iter_mut().for_each(|x| *x += 1.0);
    assert_eq!(&a[..], &[1.0, 1.0, 2.5, 1.0]);
    let u = device.alloc_from(&[u32::MAX, 7]).unwrap();
    assert_eq!(u.len(), 2);
    assert_eq!(u[0], u32::MAX);
    assert_eq!(u.bus_address() % 4096, 0);
}

#[test]
fn the_ast_records_parameters_in_order_and_prints_readably() {
    let kernel = compile(|n: Int, x: Float, p: Ptr<Float>| {
        let y = Float::var(p.load() * x);
        where_(index().lt(n), || y.set(y + 1.0));
        p.store(y);
    })
    .unwrap();
    let ast = kernel.ast();
    let types: Vec<String> = ast.params.iter().map(|p| p.ty.to_string()).collect();
    assert_eq!(types, ["Int", "Float", "Ptr<Float>"]);
    assert_eq!(
        ast.params.iter().map(|p| p.var.0).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    let text = ast.to_string();
    assert_eq!(
        text,
        "kernel(v0: Int, v1: Float, v2: Ptr<Float>) {\n  v3 = (*v2 * v1);\n  where index() < v0 {\n    v3 = (v3 + 1.0);\n  }\n  store(v3, v2);\n}\n"
    );
}

#[test]
fn a_rejected_operation_is_one_error_not_a_cascade() {
    // The load inside where_ is the mistake; its value's later uses add nothing.
    let line = line!() + 4;
    let err = compile(|p: Ptr<Int>| {
        let x = Int::var(0);
        where_(index().lt(4), || {
            let y = p.load();
            x.set(y + 1)
        });
        p.store(x)
    })
    .unwrap_err();
    let Error::Build(errors) = err else {
        panic!("expected build errors, got {err}");
    };
    assert_eq!(errors.0.len(), 1, "{errors}");
    assert!(matches!(
        errors.0[0].kind,
        BuildErrorKind::MemoryInWhere { what: "a load" }
    ));
    assert_eq!(errors.0[0].location.line, line);

    // The same for a bad stride.
    let err = compile(|p: Ptr<Int>| p.store(p.load_strided(0) + 1)).unwrap_err();
    let Error::Build(errors) = err else {
        panic!("expected build errors, got {err}");
    };
    assert_eq!(errors.0.len(), 1, "{errors}");
    assert_eq!(errors.0[0].kind, BuildErrorKind::StrideOutOfRange(0));
}

/// `exp` and `ln` against f64's on every device, within their roundings (up to an ulp each
/// on the VideoCore IV, which truncates): `exp(x)` within 2^-23 · (|x| + 2) relative (the
/// product x · log2 e rounded once, then the SFU's exp2), `ln(x)` within 2^-22 · (|ln x| + 1)
/// (the SFU's log2 rounded, then the product).
#[test]
fn exp_and_ln_match_f64_within_their_roundings() {
    let xs: Vec<f32> = (0..16).map(|i| -9.5 + 1.25 * i as f32).collect();
    let ys: Vec<f32> = (0..16).map(|i| 0.01 * 3.0f32.powi(i)).collect();
    let kernel = compile(|x: Ptr<Float>, y: Ptr<Float>, out: Ptr<Float>| {
        out.store(x.load().exp());
        (out + 16).store(y.load().ln());
    })
    .unwrap();
    for (device, out) in run_two_inputs_everywhere(&kernel, &xs, &ys) {
        let eps = f64::from(f32::EPSILON);
        for i in 0..16 {
            let want = f64::from(xs[i]).exp();
            let got = f64::from(out[i]);
            let bound = want * eps * (f64::from(xs[i].abs()) + 2.0);
            assert!(
                (got - want).abs() <= bound,
                "{}: exp({}) = {got}, want {want}",
                device,
                xs[i]
            );
            let want = f64::from(ys[i]).ln();
            let got = f64::from(out[16 + i]);
            assert!(
                (got - want).abs() <= 2.0 * eps * (want.abs() + 1.0),
                "{}: ln({}) = {got}, want {want}",
                device,
                ys[i]
            );
        }
    }
}

/// `pow` against f64's `powf` on every device: `|x|^y` within 2^-21 · (|y · log2 x| + 2)
/// relative (the SFU's log2 and exp2 and the product between them, each rounded once).
#[test]
fn pow_matches_f64_within_its_roundings() {
    let xs: Vec<f32> = (0..16).map(|i| 0.05 + 0.7 * i as f32).collect();
    let ys: Vec<f32> = (0..16).map(|i| -3.0 + 0.45 * i as f32).collect();
    let kernel = compile(|x: Ptr<Float>, y: Ptr<Float>, out: Ptr<Float>| {
        out.store(x.load().pow(y.load()));
        // A literal exponent, and a negative base (its sign is ignored).
        (out + 16).store((Float::from(0.0) - x.load()).pow(2.5));
    })
    .unwrap();
    for (device, out) in run_two_inputs_everywhere(&kernel, &xs, &ys) {
        let eps = f64::from(f32::EPSILON);
        for i in 0..16 {
            for (k, e) in [(i, f64::from(ys[i])), (16 + i, 2.5)] {
                let base = f64::from(xs[i]);
                let want = base.powf(e);
                let got = f64::from(out[k]);
                let bound = want * 2.0 * eps * ((e * base.log2()).abs() + 2.0);
                assert!(
                    (got - want).abs() <= bound,
                    "{device}: pow({base}, {e}) = {got}, want {want} (bound {bound})"
                );
            }
        }
    }
}

/// Runs `kernel` (two 16-float inputs, 32 floats out) on the interpreter and every emulator;
/// each device's description and output.
fn run_two_inputs_everywhere(
    kernel: &qpu::Kernel<(Ptr<Float>, Ptr<Float>, Ptr<Float>)>,
    xs: &[f32],
    ys: &[f32],
) -> Vec<(String, Vec<f32>)> {
    [Device::interpreter(), Device::emulator()]
        .into_iter()
        .chain(
            [qpu_isa::v3d::V3dVersion::V42, qpu_isa::v3d::V3dVersion::V71]
                .map(Device::v3d_emulator),
        )
        .map(|device| {
            let x = device.alloc_from(xs).unwrap();
            let y = device.alloc_from(ys).unwrap();
            let mut out = device.alloc::<f32>(32).unwrap();
            kernel.run(&device, (&x, &y, &mut out)).unwrap();
            (device.describe(), out.to_vec())
        })
        .collect()
}
