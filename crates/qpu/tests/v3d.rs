//! The V3D compiler (`qpu::compiler::v3d`): example kernels compiled for V3D 4.2 and 7.1, run
//! on the strict V3D emulator (`qpu_emu::v3d`) on one and several QPUs, and checked against
//! the reference interpreter or scalar Rust.

// QPULib's examples from `qpu_kernels::qpulib` (which depends on this crate), file by file;
// other test modules include some of the same files.
#![allow(clippy::duplicate_mod)]

#[path = "../../qpu-kernels/src/qpulib/gcd.rs"]
#[allow(dead_code)]
mod gcd;
#[path = "../../qpu-kernels/src/qpulib/glibc_rand.rs"]
#[allow(dead_code)]
mod glibc_rand;
#[path = "../../qpu-kernels/src/qpulib/tri.rs"]
#[allow(dead_code)]
mod tri;
#[path = "support/v3d_run.rs"]
mod v3d_run;

use qpu::compiler::v3d::{self, V3dCompiled};
use qpu::compiler::{compile_for, CompileError, Gpu, Program};
use qpu::interp;
use qpu::lang::ast;
use qpu::lang::*;
use qpu::runtime::{Buffer, BufferWords};
use qpu_isa::v3d::V3dVersion;
use v3d_run::{run_v3d, Arg};

const VERSIONS: [V3dVersion; 2] = [V3dVersion::V42, V3dVersion::V71];

fn qpu_counts(version: V3dVersion) -> &'static [u32] {
    match version {
        V3dVersion::V42 => &[1, 2, 3, 8],
        V3dVersion::V71 => &[1, 4, 12, 16],
    }
}

/// Runs the kernel in the reference interpreter with the same arguments (arrays at made-up
/// bus addresses); returns the arrays afterwards.
fn run_interp(kernel: &ast::Kernel, qpus: u32, args: &[Arg]) -> Vec<Vec<u32>> {
    let mut arrays: Vec<Vec<u32>> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Array(d) => Some(d.clone()),
            Arg::Word(_) => None,
        })
        .collect();
    let mut next = 0x0010_0000u32;
    let mut words = Vec::new();
    let mut addresses = Vec::new();
    for arg in args {
        match arg {
            Arg::Array(d) => {
                words.push(next);
                addresses.push(next);
                next += (d.len() as u32 * 4).next_multiple_of(64) + 64;
            }
            Arg::Word(w) => words.push(*w),
        }
    }
    let mut buffers: Vec<Buffer<'_>> = arrays
        .iter_mut()
        .zip(&addresses)
        .map(|(d, &bus_address)| Buffer {
            bus_address,
            words: BufferWords::ReadWrite(d),
        })
        .collect();
    interp::run(
        kernel,
        qpus,
        &words,
        &mut buffers,
        &interp::Config::default(),
    )
    .unwrap();
    drop(buffers);
    arrays
}

fn compile_v3d(kernel: &ast::Kernel, version: V3dVersion) -> V3dCompiled {
    v3d::compile(kernel, version).unwrap_or_else(|e| panic!("{version:?}: {e}"))
}

/// Compiles for both versions, runs on each QPU count, compares every array with the
/// interpreter's.
fn check_against_interpreter(kernel: &ast::Kernel, args: &[Arg]) {
    for version in VERSIONS {
        let compiled = compile_v3d(kernel, version);
        for &qpus in qpu_counts(version) {
            let (got, _) = run_v3d(&compiled, qpus, args);
            let want = run_interp(kernel, qpus, args);
            assert_eq!(got, want, "{version:?} on {qpus} QPUs");
        }
    }
}

fn ints(v: &[i32]) -> Vec<u32> {
    v.iter().map(|&x| x as u32).collect()
}

fn scalar_gcd(mut a: i32, mut b: i32) -> i32 {
    while a != b {
        if a > b {
            a -= b;
        } else {
            b -= a;
        }
    }
    a
}

#[test]
fn gcd_matches_scalar_rust_and_the_interpreter() {
    let kernel = qpu::compile(gcd::gcd).unwrap();
    let (a, b) = gcd::inputs();
    let expected: Vec<u32> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| scalar_gcd(x, y) as u32)
        .collect();
    let args = [
        Arg::Array(ints(&a)),
        Arg::Array(ints(&b)),
        Arg::Array(vec![0; 16]),
    ];
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        for &qpus in qpu_counts(version) {
            let (out, report) = run_v3d(&compiled, qpus, &args);
            assert_eq!(out[2], expected, "{version:?} on {qpus} QPUs");
            assert_eq!(report.batches, u64::from(qpus));
        }
    }
    check_against_interpreter(kernel.ast(), &args);
    let unrolled = qpu::compile(gcd::gcd_unrolled).unwrap();
    check_against_interpreter(unrolled.ast(), &args);
}

#[test]
fn tri_matches_scalar_rust() {
    let kernel = qpu::compile(tri::tri).unwrap();
    let input: Vec<i32> = (0..16).collect();
    let expected: Vec<u32> = input.iter().map(|&n| (1..=n).sum::<i32>() as u32).collect();
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        for &qpus in qpu_counts(version) {
            let (out, _) = run_v3d(&compiled, qpus, &[Arg::Array(ints(&input))]);
            assert_eq!(out[0], expected, "{version:?} on {qpus} QPUs");
        }
    }
    check_against_interpreter(kernel.ast(), &[Arg::Array(ints(&input))]);
}

/// Each QPU handles every `num_qpus()`-th block of 16: out = (a + b) · a − (b >> 1) ^ lane,
/// integer; the QPU's number lands in a second array.
fn int_vectors(a: Ptr<Int>, b: Ptr<Int>, out: Ptr<Int>, who: Ptr<Int>, blocks: Int) {
    for_range(me(), blocks, num_qpus(), |i| {
        let off = i << 4;
        let x = Int::var((a + off).load());
        let y = Int::var((b + off).load());
        let r = (x + y) * x - ((y >> 1) ^ index());
        (out + off).store(r.min(x * 1000).max(-5_000_000));
        (who + off).store(me() + num_qpus() * 100);
    });
}

#[test]
fn integer_vector_kernel_on_several_qpus() {
    let kernel = qpu::compile(int_vectors).unwrap();
    let blocks = 24;
    let a: Vec<i32> = (0..blocks * 16).map(|i| (i * 7919) % 2001 - 1000).collect();
    let b: Vec<i32> = (0..blocks * 16)
        .map(|i| (i * 104_729) % 3001 - 1500)
        .collect();
    let expected: Vec<u32> = (0..a.len())
        .map(|i| {
            let (x, y) = (a[i], b[i]);
            let r = (x + y).wrapping_mul(x) - ((y >> 1) ^ (i as i32 % 16));
            r.min(x * 1000).max(-5_000_000) as u32
        })
        .collect();
    let args = [
        Arg::Array(ints(&a)),
        Arg::Array(ints(&b)),
        Arg::Array(vec![0; a.len()]),
        Arg::Array(vec![0; a.len()]),
        Arg::Word(blocks as u32),
    ];
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        for &qpus in qpu_counts(version) {
            let (out, _) = run_v3d(&compiled, qpus, &args);
            assert_eq!(out[2], expected, "{version:?} on {qpus} QPUs");
            for (block, who) in out[3].chunks(16).enumerate() {
                let id = block as u32 % qpus;
                assert!(who.iter().all(|&w| w == id + 100 * qpus), "{who:?}");
            }
        }
    }
    check_against_interpreter(kernel.ast(), &args);
}

/// Float arithmetic whose every result is exact (small integers and halves), so the V3D's
/// round-to-nearest and the interpreter's VideoCore IV rounding agree.
fn float_vectors(a: Ptr<Float>, b: Ptr<Float>, out: Ptr<Float>, n: Int) {
    for_range(me() * 16, n, num_qpus() * 16, |i| {
        let x = Float::var((a + i).load());
        let y = Float::var((b + i).load());
        let r = Float::var((x + y) * 0.5 - x.min(y) + y.max(1.0) * 2.0);
        where_(x.lt(y), || r.set(r - 3.0)).else_(|| r.set(r + y.abs()));
        where_(x.ge(0.0) & y.ne(4.0), || {
            r.set(r + (x * 4.0).to_int().to_float())
        });
        (out + i).store(r);
    });
}

#[test]
fn float_vector_kernel_matches_scalar_rust() {
    let kernel = qpu::compile(float_vectors).unwrap();
    let n = 16 * 10;
    let a: Vec<f32> = (0..n)
        .map(|i| ((i * 37) % 41) as f32 * 0.5 - 10.0)
        .collect();
    let b: Vec<f32> = (0..n).map(|i| ((i * 11) % 23) as f32 - 8.0).collect();
    let expected: Vec<u32> = (0..n as usize)
        .map(|i| {
            let (x, y) = (a[i], b[i]);
            let mut r = (x + y) * 0.5 - x.min(y) + y.max(1.0) * 2.0;
            if x < y {
                r -= 3.0;
            } else {
                r += y.abs();
            }
            if x >= 0.0 && y != 4.0 {
                r += ((x * 4.0) as i32) as f32;
            }
            r.to_bits()
        })
        .collect();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let args = [
        Arg::Array(bits(&a)),
        Arg::Array(bits(&b)),
        Arg::Array(vec![0; n as usize]),
        Arg::Word(n as u32),
    ];
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        for &qpus in qpu_counts(version) {
            let (out, _) = run_v3d(&compiled, qpus, &args);
            assert_eq!(out[2], expected, "{version:?} on {qpus} QPUs");
        }
    }
    check_against_interpreter(kernel.ast(), &args);
}

/// Nested `where_` with `else_`, `select`, `if_`/`all`, strided and partial stores, gather
/// and receive.
fn control_and_memory(p: Ptr<Int>, out: Ptr<Int>) {
    let x = Int::var(p.load());
    let y = Int::var(0);
    where_(x.gt(10), || {
        where_(x.lt(30) | x.eq(50), || y.set(1)).else_(|| y.set(select(x.eq(40), Int::from(2), 3)));
    })
    .else_(|| y.set(-x));
    if_(all(x.ge(0)), || y.set(y + 100)).else_(|| y.set(y + 200));
    if_(any(x.eq(12345)), || y.set(0));
    out.store(y);
    gather(p + index() * 4 + 4);
    let g = Int::var(0);
    receive(g);
    (out + 16).store(g + 1);
    store_first(5, x * 3, out + 32);
    strided_store(x, out + 48);
}

fn store_first(n: i32, value: Int, at: Ptr<Int>) {
    at.store_first(n, value);
}

fn strided_store(value: Int, at: Ptr<Int>) {
    at.store_strided(value, 2);
}

#[test]
fn control_flow_and_memory_match_the_interpreter() {
    let kernel = qpu::compile(control_and_memory).unwrap();
    let input: Vec<i32> = vec![
        5, 11, 29, 30, 40, 50, 60, -3, 0, 10, 25, 40, 41, 49, 50, 51, 1, 2, 3, 4,
    ];
    let mut data = ints(&input);
    data.resize(16 * 5, 7);
    let args = [Arg::Array(data), Arg::Array(vec![0xdead; 16 * 4 + 32])];
    check_against_interpreter(kernel.ast(), &args);
    let positive: Vec<u32> = (0..80).map(|i| i * 3 + 1).collect();
    check_against_interpreter(
        kernel.ast(),
        &[Arg::Array(positive), Arg::Array(vec![0; 16 * 4 + 32])],
    );
}

#[test]
fn compile_for_selects_the_target() {
    let kernel = qpu::compile(tri::tri).unwrap();
    assert!(matches!(
        compile_for(kernel.ast(), Gpu::Vc4),
        Ok(Program::Vc4(_))
    ));
    for (gpu, version) in [(Gpu::Vc6, V3dVersion::V42), (Gpu::Vc7, V3dVersion::V71)] {
        match compile_for(kernel.ast(), gpu) {
            Ok(Program::V3d(c)) => assert_eq!(c.version(), version),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn code_sizes_stay_small() {
    // Measured when the backend was written (one op per instruction, empty delay slots), on
    // both versions: GCD 33 words, 578 issued on one QPU with the example's inputs; Tri 29
    // words, 146 issued. With the packer: GCD 28 / 568 on both, Tri 25 / 137 on 4.2 and
    // 24 / 122 on 7.1. GCD's loop then went to 4 body copies per test (idle once it ends):
    // 40 / 355. (The VideoCore IV compiler: GCD 70 / 330, Tri 52 / 140.) A larger count is a
    // regression to look at.
    let gcd = qpu::compile(gcd::gcd).unwrap();
    let tri = qpu::compile(tri::tri).unwrap();
    let (a, b) = gcd::inputs();
    for version in VERSIONS {
        let compiled = compile_v3d(gcd.ast(), version);
        assert!(compiled.words().len() <= 40);
        let args = [
            Arg::Array(ints(&a)),
            Arg::Array(ints(&b)),
            Arg::Array(vec![0; 16]),
        ];
        let (_, report) = run_v3d(&compiled, 1, &args);
        assert!(report.qpus[0].instructions <= 355);
        let compiled = compile_v3d(tri.ast(), version);
        assert!(compiled.words().len() <= 25);
        let (_, report) = run_v3d(&compiled, 1, &[Arg::Array((0..16).collect())]);
        assert!(report.qpus[0].instructions <= 137);
    }
}

/// More distinct large literals than get a register each: the rest are built inline.
fn many_constants(p: Ptr<Int>) {
    let acc = Int::var(p.load());
    for k in 0..40i32 {
        let c = 0x1234_5677_i32.wrapping_mul(k + 1) ^ (k << 20);
        acc.set((acc ^ c) + (k * 100_003 - 7));
    }
    p.store(acc);
}

#[test]
fn literals_beyond_the_register_budget_are_built_inline() {
    let kernel = qpu::compile(many_constants).unwrap();
    let compiled = compile_v3d(kernel.ast(), V3dVersion::V42);
    // 80 distinct literals that no small immediate holds; at most 60 registers exist, so
    // some are built inline.
    assert!(
        compiled.constants().len() < 60,
        "{}",
        compiled.constants().len()
    );
    let input: Vec<i32> = (0..16).map(|i| i * 31 - 200).collect();
    check_against_interpreter(kernel.ast(), &[Arg::Array(ints(&input))]);
}

/// `x` variables all alive to the end: too many for the 64-entry register file.
fn many_variables(p: Ptr<Int>) {
    let vars: Vec<Int> = (0..70).map(|i| Int::var(p.load() + i)).collect();
    let mut sum = Int::var(0);
    for v in &vars {
        sum += *v;
    }
    p.store(sum);
}

/// 100 variables, each alive for one statement: the allocator reuses registers (the static
/// assignment gave each its own and failed).
fn many_short_lived_variables(p: Ptr<Int>) {
    let acc = Int::var(p.load());
    for i in 0..100 {
        let t = Int::var(acc * 3 + i);
        acc.set(t ^ (acc >> 1));
    }
    p.store(acc);
}

#[test]
fn short_lived_variables_share_registers() {
    let kernel = qpu::compile(many_short_lived_variables).unwrap();
    assert!(kernel.ast().vars.len() > 100);
    let input: Vec<i32> = (0..16).map(|i| i * 7919 - 1000).collect();
    check_against_interpreter(kernel.ast(), &[Arg::Array(ints(&input))]);
}

/// `keep` is set before the loop and read after it; `step` is read at the loop's top before
/// the body overwrites it, so it is live around the back edge. Many short-lived values in
/// the body must take neither's register.
fn loop_carried(p: Ptr<Int>) {
    let keep = Int::var(p.load() + 11);
    let step = Int::var(index() + 1);
    let acc = Int::var(0);
    let i = Int::var(0);
    while_(any(i.lt(6)), || {
        let mut x = acc + step;
        for k in 0..40 {
            x = Int::var(x * 5 + k) ^ (x >> 2);
        }
        acc.set(x);
        step.set(step + i);
        i.set(i + 1);
    });
    p.store(acc + keep);
}

#[test]
fn values_live_around_a_loop_keep_their_registers() {
    let kernel = qpu::compile(loop_carried).unwrap();
    let input: Vec<i32> = (0..16).map(|i| i * 31 - 200).collect();
    check_against_interpreter(kernel.ast(), &[Arg::Array(ints(&input))]);
}

/// A `where_` writes only some lanes: the others keep the variable's old value, so the
/// value stays live across everything between its first assignment and the masked write.
fn masked_keeps_old_value(p: Ptr<Int>) {
    let v = Int::var(p.load() * 2);
    let mut x = Int::var(p.load() + 1);
    for k in 0..30 {
        x = Int::var(x * 3 + k);
    }
    where_(index().lt(7), || v.set(x));
    p.store(v);
}

#[test]
fn a_masked_write_keeps_the_old_value_live() {
    let kernel = qpu::compile(masked_keeps_old_value).unwrap();
    let input: Vec<i32> = (0..16).map(|i| i * 13 + 5).collect();
    check_against_interpreter(kernel.ast(), &[Arg::Array(ints(&input))]);
}

#[test]
fn seventy_live_variables_spill_and_match_scalar_rust() {
    let kernel = qpu::compile(many_variables).unwrap();
    let input: Vec<i32> = (0..16).map(|i| i * 977 - 5000).collect();
    let expected: Vec<u32> = input
        .iter()
        .map(|&x| (0..70).fold(0i32, |s, i| s.wrapping_add(x.wrapping_add(i))) as u32)
        .collect();
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        assert!(compiled.spill_bytes_per_qpu() > 0, "{version:?} must spill");
        for &qpus in qpu_counts(version) {
            let (out, _) = run_v3d(&compiled, qpus, &[Arg::Array(ints(&input))]);
            assert_eq!(out[0], expected, "{version:?} on {qpus} QPUs");
        }
    }
}

/// Variables of the pressure kernel: far more than the 60 registers, all live to the end.
const PRESSURE_INTS: usize = 72;
const PRESSURE_FLOATS: usize = 24;

/// 72 Int and 24 Float variables updated in a loop, under `where_` and `if_`, and all read
/// at the end; each QPU takes its own 16 lanes of `inp`.
fn pressure(inp: Ptr<Int>, out: Ptr<Int>, fout: Ptr<Float>) {
    let base = Int::var(me() * 16);
    let x = Int::var((inp + base).load());
    let ints: Vec<Int> = (0..PRESSURE_INTS as i32)
        .map(|i| Int::var(x * (i % 7 + 1) + i))
        .collect();
    let floats: Vec<Float> = (0..PRESSURE_FLOATS)
        .map(|j| Float::var((x & 1023).to_float() + j as f32))
        .collect();
    let k = Int::var(0);
    while_(any(k.lt(4)), || {
        for i in 0..PRESSURE_INTS {
            ints[i].set((ints[i] + ints[(i + 5) % PRESSURE_INTS]) ^ k);
        }
        where_(x.lt(k * 500), || {
            for i in (0..PRESSURE_INTS).step_by(3) {
                ints[i].set(ints[i] - x);
            }
            floats[0].set(floats[0] + 1.0);
        })
        .else_(|| floats[1].set(floats[1] + 2.0));
        if_(any(x.gt(1000 * k)), || {
            for j in 0..PRESSURE_FLOATS {
                floats[j].set(floats[j] + floats[(j + 1) % PRESSURE_FLOATS].min(100.0));
            }
        });
        k.set(k + 1);
    });
    let sum = Int::var(0);
    for v in &ints {
        sum.set((sum * 3) ^ *v);
    }
    let fsum = Float::var(0.0);
    for f in &floats {
        fsum.set(fsum + *f);
    }
    (out + base).store(sum);
    (fout + base).store(fsum);
}

/// `pressure` in scalar Rust for one batch of 16 lanes.
fn scalar_pressure(xs: &[i32]) -> (Vec<u32>, Vec<u32>) {
    let mut ints: Vec<Vec<i32>> = xs
        .iter()
        .map(|&x| {
            (0..PRESSURE_INTS as i32)
                .map(|i| x.wrapping_mul(i % 7 + 1).wrapping_add(i))
                .collect()
        })
        .collect();
    let mut floats: Vec<Vec<f32>> = xs
        .iter()
        .map(|&x| {
            (0..PRESSURE_FLOATS)
                .map(|j| (x & 1023) as f32 + j as f32)
                .collect()
        })
        .collect();
    for k in 0..4 {
        for (l, &x) in xs.iter().enumerate() {
            let v = &mut ints[l];
            for i in 0..PRESSURE_INTS {
                v[i] = v[i].wrapping_add(v[(i + 5) % PRESSURE_INTS]) ^ k;
            }
            if x < k * 500 {
                for i in (0..PRESSURE_INTS).step_by(3) {
                    v[i] = v[i].wrapping_sub(x);
                }
                floats[l][0] += 1.0;
            } else {
                floats[l][1] += 2.0;
            }
        }
        if xs.iter().any(|&x| x > 1000 * k) {
            for f in &mut floats {
                for j in 0..PRESSURE_FLOATS {
                    f[j] += f[(j + 1) % PRESSURE_FLOATS].min(100.0);
                }
            }
        }
    }
    let sums = ints
        .iter()
        .map(|v| v.iter().fold(0i32, |s, &x| s.wrapping_mul(3) ^ x) as u32)
        .collect();
    let fsums = floats
        .iter()
        .map(|f| f.iter().fold(0f32, |s, &x| s + x).to_bits())
        .collect();
    (sums, fsums)
}

#[test]
fn a_kernel_with_a_hundred_live_values_spills_and_matches_scalar_rust() {
    let kernel = qpu::compile(pressure).unwrap();
    let input: Vec<i32> = (0..256).map(|i| (i * 7919) % 4001 - 1500).collect();
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        // Spilling happens only after the unspilled kernel failed to allocate.
        let slots = compiled.spill_bytes_per_qpu() / 64;
        assert!(slots >= 30, "{version:?}: {slots} spilled variables");
        let listing = compiled.disassemble();
        eprintln!(
            "{version:?}: {slots} spilled variables, {} instructions, {} tmuwt",
            compiled.instructions().len(),
            listing.matches("tmuwt").count()
        );
        for &qpus in qpu_counts(version) {
            let n = qpus as usize * 16;
            let args = [
                Arg::Array(ints(&input[..n])),
                Arg::Array(vec![0; n]),
                Arg::Array(vec![0; n]),
            ];
            let (out, report) = run_v3d(&compiled, qpus, &args);
            let (mut want_int, mut want_float) = (Vec::new(), Vec::new());
            for batch in input[..n].chunks(16) {
                let (i, f) = scalar_pressure(batch);
                want_int.extend(i);
                want_float.extend(f);
            }
            assert_eq!(out[1], want_int, "{version:?} on {qpus} QPUs");
            assert_eq!(out[2], want_float, "{version:?} on {qpus} QPUs");
            eprintln!(
                "{version:?} on {qpus} QPUs: {} cycles, {} instructions on QPU 0",
                report.cycles(),
                report.qpus[0].instructions
            );
        }
    }
}

/// A gather waits across each iteration of a loop whose body, after gathering the next
/// vector, reads and writes spilled variables: their reloads share the TMU result FIFO with
/// the gather, so they pop the gathered value first.
fn gathers_between_spills(p: Ptr<Int>, out: Ptr<Int>) {
    let q = p + index();
    let vars: Vec<Int> = (0..70)
        .map(|i| Int::var(q.load() * (i % 4 + 1) + i))
        .collect();
    let got = Int::var(0);
    let acc = Int::var(0);
    let i = Int::var(0);
    gather(q);
    while_(any(i.lt(4)), || {
        receive(got);
        acc.set(acc + got);
        gather(q + ((i + 1) << 4));
        for v in vars.iter().step_by(7) {
            v.set(*v + acc);
        }
        i.set(i + 1);
    });
    receive(got);
    let sum = Int::var(acc + got);
    for v in &vars {
        sum.set((sum << 1) ^ *v);
    }
    (out + index()).store(sum);
}

#[test]
fn gathers_waiting_while_spilled_variables_reload_match_the_interpreter() {
    let kernel = qpu::compile(gathers_between_spills).unwrap();
    for version in VERSIONS {
        assert!(compile_v3d(kernel.ast(), version).spill_bytes_per_qpu() > 0);
    }
    let input: Vec<i32> = (0..80).map(|i| i * 1237 - 20_000).collect();
    check_against_interpreter(
        kernel.ast(),
        &[Arg::Array(ints(&input)), Arg::Array(vec![0; 16])],
    );
}

/// A right-leaning sum of 80 products: each left operand waits in a temporary while the
/// rest is computed, and temporaries cannot spill.
fn deep_expression(p: Ptr<Int>) {
    let x = Int::var(p.load());
    let mut e: Int = x * 3;
    for i in 0..80 {
        e = (x * (i % 5 + 2)) + e;
    }
    p.store(e);
}

#[test]
fn register_exhaustion_that_spilling_cannot_fix_is_an_error() {
    let kernel = qpu::compile(deep_expression).unwrap();
    for version in VERSIONS {
        match v3d::compile(kernel.ast(), version) {
            Err(CompileError::RegisterAllocation(message)) => {
                assert!(message.contains("registers"), "{message}");
                assert!(message.contains("v3d.rs:"), "names the kernel: {message}");
            }
            other => panic!("{other:?}"),
        }
    }
}

// ---- semaphores ---------------------------------------------------------------------------
//
// The VideoCore IV's semaphore tests (tests/lang.rs, tests/differential.rs) mirrored on V3D,
// where they become TMU atomics on a shared area. Each expected value is computed on the
// host, and the interpreter must agree.

/// A mutex around a read-modify-write of one shared counter: QPU 0 opens it (semaphore 0
/// starts at 0), then every QPU adds 1 to `p[0]` `ITERATIONS` times, each time between
/// `sema_dec(0)` and `sema_inc(0)`. Lane i of the counter vector gets i added too, so a
/// lost update shows in every lane.
const ITERATIONS: i32 = 6;

fn mutex(p: Ptr<Int>) {
    if_(all(me().eq(0)), || sema_inc(0));
    for_range(0, ITERATIONS, 1, |_| {
        sema_dec(0);
        p.store(p.load() + 1 + index());
        sema_inc(0);
    });
}

#[test]
fn a_semaphore_mutex_keeps_every_qpus_updates() {
    let kernel = qpu::compile(mutex).unwrap();
    for version in VERSIONS {
        let compiled = compile_v3d(&kernel.ast().clone(), version);
        assert_eq!(compiled.semaphore_bytes(), 64);
        for &qpus in qpu_counts(version) {
            let args = [Arg::Array(vec![0; 16])];
            let (got, _) = run_v3d(&compiled, qpus, &args);
            let updates = qpus * ITERATIONS as u32;
            let want: Vec<u32> = (0..16).map(|i| updates * (1 + i)).collect();
            assert_eq!(got[0], want, "{version:?} on {qpus} QPUs");
            assert_eq!(run_interp(kernel.ast(), qpus, &args)[0], want);
        }
    }
}

/// QPU 0 waits for the others (tests/lang.rs's pattern, on every QPU count): each other
/// QPU idles, stores its row and releases semaphore 4 once; QPU 0 acquires it once per other QPU,
/// then sums their rows.
fn qpu0_waits(p: Ptr<Int>) {
    if_(all(me().eq(0)), || {
        let sum = Int::var(0);
        let k = Int::var(1);
        while_(any(k.lt(num_qpus())), || {
            sema_dec(4);
            k.set(k + 1);
        });
        k.set(1);
        while_(any(k.lt(num_qpus())), || {
            sum.set(sum + (p + k * 16).load());
            k.set(k + 1);
        });
        p.store(sum);
    })
    .else_(|| {
        // Busy for a while first, so that QPU 0 would read zeros if it did not wait.
        let delay = Int::var(0);
        while_(any(delay.lt(me() * 40 + 100)), || delay.set(delay + 1));
        (p + me() * 16).store(me() * 7 + index());
        sema_inc(4);
    });
}

#[test]
fn qpu_0_waits_for_the_others_rows() {
    let kernel = qpu::compile(qpu0_waits).unwrap();
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        for &qpus in qpu_counts(version) {
            let args = [Arg::Array(vec![0; 16 * qpus as usize])];
            let (got, _) = run_v3d(&compiled, qpus, &args);
            let mut want = vec![0u32; 16 * qpus as usize];
            for k in 1..qpus {
                for i in 0..16 {
                    want[(16 * k + i) as usize] = 7 * k + i;
                    want[i as usize] += 7 * k + i;
                }
            }
            assert_eq!(got[0], want, "{version:?} on {qpus} QPUs");
            assert_eq!(run_interp(kernel.ast(), qpus, &args)[0], want);
        }
    }
}

/// Items each consumer takes in the producer/consumer kernel.
const PER_CONSUMER: i32 = 7;

/// QPU 0 produces `PER_CONSUMER` items per other QPU into `items` (item j = 3j + 1), releasing
/// semaphore 2 after each, so more than 15 waiting items make `sema_inc` block until the
/// consumers catch up. A consumer acquires semaphore 2 (an item is ready), claims the next
/// item under the mutex on semaphore 1 (the claim counter is `claim[0]`), and adds the
/// item to its total, stored in its row of `totals` at the end.
fn producer_consumer(items: Ptr<Int>, claim: Ptr<Int>, totals: Ptr<Int>) {
    if_(all(me().eq(0)), || {
        sema_inc(1);
        let j = Int::var(0);
        while_(any(j.lt((num_qpus() - 1) * PER_CONSUMER)), || {
            (items + j).store_first(1, j * 3 + 1);
            sema_inc(2);
            j.set(j + 1);
        });
    })
    .else_(|| {
        let total = Int::var(0);
        for_range(0, PER_CONSUMER, 1, |_| {
            sema_dec(2);
            sema_dec(1);
            let at = Int::var(claim.load());
            claim.store(at + 1);
            sema_inc(1);
            total.set(total + (items + at).load());
        });
        (totals + me() * 16).store(total);
    });
}

#[test]
fn producer_and_consumers_pass_every_item_once() {
    let kernel = qpu::compile(producer_consumer).unwrap();
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        for &qpus in qpu_counts(version).iter().filter(|&&q| q > 1) {
            let n = (qpus - 1) * PER_CONSUMER as u32;
            let args = [
                Arg::Array(vec![0; n as usize + 16]),
                Arg::Array(vec![0; 16]),
                Arg::Array(vec![0; 16 * qpus as usize]),
            ];
            let want_items: Vec<u32> = (0..n).map(|j| 3 * j + 1).collect();
            let want_total: u32 = want_items.iter().sum();
            for (who, arrays) in [
                ("emulator", run_v3d(&compiled, qpus, &args).0),
                ("interpreter", run_interp(kernel.ast(), qpus, &args)),
            ] {
                let what = format!("{who} {version:?} on {qpus} QPUs");
                assert_eq!(arrays[0][..n as usize], want_items, "{what}");
                assert_eq!(arrays[1], vec![n; 16], "{what}: claims");
                // Lane 0 of a consumer's total sums the items it claimed: which ones depends
                // on the interleaving, the sum over the consumers does not.
                let totals = &arrays[2];
                let sum: u32 = (1..qpus).map(|k| totals[16 * k as usize]).sum();
                assert_eq!(sum, want_total, "{what}");
            }
        }
    }
}

/// The builder keeps semaphores out of `where_`; a hand-built AST with one there is a
/// compile error at the statement, not code that ignores the mask.
#[test]
fn a_hand_built_semaphore_inside_where_is_refused() {
    let kernel = qpu::compile(|p: Ptr<Int>| {
        let x = Int::var(0);
        where_(index().eq(0), || x.set(1));
        p.store(x);
    })
    .unwrap();
    let mut ast = kernel.ast().clone();
    let at = ast
        .body
        .iter()
        .position(|s| matches!(s.kind, ast::StmtKind::Where { .. }))
        .unwrap();
    if let ast::StmtKind::Where { then, .. } = &mut ast.body[at].kind {
        let location = then[0].location;
        then.push(ast::Stmt {
            kind: ast::StmtKind::SemaInc(2),
            location,
        });
    }
    for version in VERSIONS {
        let error = v3d::compile(&ast, version).unwrap_err().to_string();
        assert!(
            error.contains("semaphore operation inside `where_`"),
            "{error}"
        );
        assert!(error.contains("v3d.rs:"), "{error}");
    }
}

/// Runs `kernel` on one QPU with a 200 000-instruction budget: the error, if any, `p[0]`
/// and the semaphore area afterwards.
fn run_with_budget(kernel: &ast::Kernel, version: V3dVersion) -> (Option<String>, u32, Vec<u32>) {
    let compiled = compile_v3d(kernel, version);
    let mut config = qpu_emu::v3d::V3dConfig::new(version);
    config.qpus = 1;
    config.max_instructions = 200_000;
    let mut emu = qpu_emu::v3d::V3dEmulator::new(config).unwrap();
    let code = emu.load_program(compiled.words()).unwrap();
    let out = emu.memory_mut().alloc(64, 64).unwrap();
    let semaphores = emu.memory_mut().alloc(64, 64).unwrap();
    let uniforms = emu
        .load_uniforms(&compiled.uniforms(1, &[out], 0, semaphores))
        .unwrap();
    let error = emu
        .dispatch(&qpu_emu::v3d::CsdJob::per_qpu(code, uniforms, 1))
        .err()
        .map(|e| e.to_string());
    let mem = emu.memory();
    (
        error,
        mem.read_u32(out).unwrap(),
        mem.read_u32s(semaphores, 16).unwrap(),
    )
}

/// `sema_dec` waits at 0 and `sema_inc` at 15: a kernel waiting for a release that never
/// comes stops at the emulator's instruction budget instead of hanging (the interpreter
/// reports it as a deadlock), and fifteen increments do not wait.
#[test]
fn semaphores_wait_at_0_and_15_until_the_instruction_budget() {
    let dec = qpu::compile(|p: Ptr<Int>| {
        sema_dec(9);
        p.store(1);
    })
    .unwrap();
    let incs = |n: u32| {
        qpu::compile(move |p: Ptr<Int>| {
            for _ in 0..n {
                sema_inc(9);
            }
            p.store(1);
        })
        .unwrap()
    };
    let (inc15, inc16) = (incs(15), incs(16));
    for version in VERSIONS {
        for kernel in [&dec, &inc16] {
            let (error, out, _) = run_with_budget(kernel.ast(), version);
            let error = error.expect("the kernel waits forever");
            assert!(error.contains("200000"), "{version:?}: {error}");
            assert_eq!(out, 0, "{version:?}: nothing stored");
            let stuck = interp::run(
                kernel.ast(),
                1,
                &[0x10_0000],
                &mut [],
                &interp::Config::default(),
            );
            assert!(
                matches!(stuck, Err(ref e) if e.kind == qpu::error::RunErrorKind::Deadlock),
                "the interpreter deadlocks too: {stuck:?}"
            );
        }
        let (error, out, semaphores) = run_with_budget(inc15.ast(), version);
        assert_eq!(error, None, "{version:?}");
        assert_eq!(out, 1);
        let mut want = vec![0; 16];
        want[9] = 15;
        assert_eq!(semaphores, want, "{version:?}: semaphore 9 counted to 15");
    }
}

/// The special functions and float division on arguments whose results are exact.
fn special_functions(p: Ptr<Float>, out: Ptr<Float>) {
    let x = Float::var(p.load());
    out.store(x.recip());
    (out + 16).store(x.rsqrt());
    (out + 32).store(x.exp2());
    (out + 48).store(x.log2());
    (out + 64).store(x.sqrt());
    (out + 80).store(Float::from(12.0) / x);
}

#[test]
fn special_functions_match_scalar_rust_on_exact_values() {
    let kernel = qpu::compile(special_functions).unwrap();
    let input: Vec<f32> = (0..16)
        .map(|i| [0.25f32, 1.0, 4.0, 16.0][i % 4] * if i >= 8 { -1.0 } else { 1.0 })
        .collect();
    let bits: Vec<u32> = input.iter().map(|x| x.to_bits()).collect();
    let functions: [fn(f32) -> f32; 6] = [
        |x| 1.0 / x,
        |x| 1.0 / x.abs().sqrt(),
        |x| x.exp2(),
        |x| x.abs().log2(),
        |x| x.abs().sqrt(),
        |x| 12.0 / x,
    ];
    let expected: Vec<u32> = functions
        .iter()
        .flat_map(|f| input.iter().map(|&x| f(x).to_bits()))
        .collect();
    let args = [Arg::Array(bits), Arg::Array(vec![0; 96])];
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        let (out, _) = run_v3d(&compiled, 1, &args);
        assert_eq!(out[1], expected, "{version:?}");
    }
    check_against_interpreter(kernel.ast(), &args);
}

/// Rotations by constants (positive, negative, multiples of 16) and by a lane-varying amount
/// (only lane 0 counts), of a variable and of a literal.
fn rotations(p: Ptr<Int>, out: Ptr<Int>, k: Int) {
    let x = Int::var(p.load());
    out.store(rotate(x, 1));
    (out + 16).store(rotate(x, -3));
    (out + 32).store(rotate(x, 16));
    (out + 48).store(rotate(x, k + index()));
    (out + 64).store(rotate(x * 2, 0 - k));
    (out + 80).store(rotate(Int::from(7), k) + rotate(index(), 17));
}

#[test]
fn rotations_match_the_interpreter() {
    let kernel = qpu::compile(rotations).unwrap();
    let input: Vec<u32> = (0..16).map(|i| i * i + 100).collect();
    for k in [0u32, 1, 5, 15, 16, 23, (-2i32) as u32] {
        check_against_interpreter(
            kernel.ast(),
            &[
                Arg::Array(input.clone()),
                Arg::Array(vec![0; 96]),
                Arg::Word(k),
            ],
        );
    }
    // And against the definition: out lane i = x lane (i − 1) mod 16.
    let (out, _) = run_v3d(
        &compile_v3d(kernel.ast(), V3dVersion::V42),
        1,
        &[
            Arg::Array(input.clone()),
            Arg::Array(vec![0; 96]),
            Arg::Word(0),
        ],
    );
    let want: Vec<u32> = (0..16).map(|i| input[(i + 15) % 16]).collect();
    assert_eq!(out[1][..16], want[..]);
}

/// Uniform-stream reads, re-pointed, inside expressions and a store's lane count.
fn streams(p: Ptr<Int>, out: Ptr<Int>) {
    let s = UniformStream::at(p + 3);
    let a = Int::var(s.next());
    let b = Int::var(s.next() * 10 + s.next());
    let t = UniformStream::at(p + 40);
    out.store(a + b + index());
    (out + 16).store_first(t.next(), t.next() - index());
}

#[test]
fn uniform_streams_match_the_interpreter() {
    let kernel = qpu::compile(streams).unwrap();
    let mut input: Vec<u32> = (0..64).map(|i| i * 3 + 1).collect();
    for n in [0u32, 5, 16, 40, (-1i32) as u32] {
        input[40] = n;
        check_against_interpreter(
            kernel.ast(),
            &[Arg::Array(input.clone()), Arg::Array(vec![0; 32])],
        );
    }
}

/// Integer division and remainder, also by zero, of MIN by −1, and under a `where_`.
fn divisions(p: Ptr<Int>, q: Ptr<Int>, out: Ptr<Int>) {
    let a = Int::var(p.load());
    let b = Int::var(q.load());
    out.store(a / b);
    (out + 16).store(a % b);
    let c = Int::var(a);
    where_(b.gt(0), || c.set(a / 7 + a % b));
    (out + 32).store(c);
}

#[test]
fn integer_division_matches_scalar_rust() {
    let kernel = qpu::compile(divisions).unwrap();
    let a = [
        7,
        -7,
        7,
        -7,
        0,
        i32::MIN,
        i32::MIN,
        i32::MAX,
        100,
        -100,
        5,
        -5,
        123_456_789,
        1,
        -1,
        9,
    ];
    let b = [
        2,
        2,
        -2,
        -2,
        5,
        -1,
        1,
        -1,
        0,
        0,
        7,
        3,
        -1000,
        i32::MIN,
        i32::MAX,
        9,
    ];
    let div = |x: i32, y: i32| match y {
        0 if x >= 0 => -1,
        0 => 1,
        _ => x.wrapping_div(y),
    };
    let rem = |x: i32, y: i32| if y == 0 { x } else { x.wrapping_rem(y) };
    let mut expected: Vec<u32> = (0..16).map(|i| div(a[i], b[i]) as u32).collect();
    expected.extend((0..16).map(|i| rem(a[i], b[i]) as u32));
    expected.extend((0..16).map(|i| {
        if b[i] > 0 {
            (div(a[i], 7).wrapping_add(rem(a[i], b[i]))) as u32
        } else {
            a[i] as u32
        }
    }));
    let args = [
        Arg::Array(ints(&a)),
        Arg::Array(ints(&b)),
        Arg::Array(vec![0; 48]),
    ];
    for version in VERSIONS {
        let compiled = compile_v3d(kernel.ast(), version);
        let (out, _) = run_v3d(&compiled, 1, &args);
        assert_eq!(out[2], expected, "{version:?}");
    }
    check_against_interpreter(kernel.ast(), &args);
}

/// The V3D back ends compile through the driver every generation shares: the options
/// apply (without dual issue no instruction holds both an add-ALU and a mul-ALU operation,
/// and the code still gives scalar Rust's results), the compile time is recorded, and the
/// listing names the kernel's lines and assembles back to the same words.
#[test]
fn v3d_code_comes_through_the_shared_driver_with_its_options() {
    use qpu::compiler::{compile_for_with, Options};
    use qpu_isa::v3d::{AddOp, Instruction, MulOp};
    let kernel = qpu::compile(|xs: Ptr<Int>, ys: Ptr<Int>, out: Ptr<Int>| {
        let (x, y) = (Int::var(xs.load()), Int::var(ys.load()));
        out.store((x + y) * (x - y) + (x ^ 7) * y);
    })
    .unwrap();
    let xs: Vec<i32> = (0..16).map(|i| i * 977 - 5000).collect();
    let ys: Vec<i32> = (0..16).map(|i| 31 - i * i * 41).collect();
    let expected: Vec<u32> = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| {
            let sum = (x.wrapping_add(y)).wrapping_mul(x.wrapping_sub(y));
            sum.wrapping_add((x ^ 7).wrapping_mul(y)) as u32
        })
        .collect();
    let args = [
        Arg::Array(ints(&xs)),
        Arg::Array(ints(&ys)),
        Arg::Array(vec![0; 16]),
    ];
    let both_alus = |c: &V3dCompiled| {
        c.instructions()
            .iter()
            .filter(|i| {
                matches!(i, Instruction::Alu(a) if a.add.op != AddOp::Nop && a.mul.op != MulOp::Nop)
            })
            .count()
    };
    for (gpu, version) in [(Gpu::Vc6, V3dVersion::V42), (Gpu::Vc7, V3dVersion::V71)] {
        let compile = |dual_issue| match compile_for_with(
            kernel.ast(),
            gpu,
            Options {
                dual_issue,
                ..Options::default()
            },
        ) {
            Ok(Program::V3d(c)) => c,
            other => panic!("{gpu:?}: {other:?}"),
        };
        let (paired, single) = (compile(true), compile(false));
        assert!(both_alus(&paired) > 0, "{gpu:?}\n{}", paired.disassemble());
        assert_eq!(both_alus(&single), 0, "{gpu:?}");
        assert!(single.words().len() > paired.words().len(), "{gpu:?}");
        for code in [&paired, &single] {
            let (out, _) = run_v3d(code, 1, &args);
            assert_eq!(out[2], expected, "{gpu:?}");
            assert!(code.compile_time() > std::time::Duration::ZERO);
        }
        let listing = paired.disassemble();
        let noted = listing.lines().filter(|l| l.contains("  # ")).count();
        assert!(noted >= 3, "{listing}");
        assert!(listing.contains(&format!("{}:", file!())), "{listing}");
        let back = qpu_isa::v3d::assemble(version, &listing).expect("the listing assembles");
        let words: Vec<u64> = back
            .iter()
            .map(|i| qpu_isa::v3d::encode(version, i).unwrap())
            .collect();
        assert_eq!(words, paired.words(), "{gpu:?}");
    }
    // The same calls answer for every generation.
    for gpu in [Gpu::Vc4, Gpu::Vc6, Gpu::Vc7] {
        let program = compile_for_with(kernel.ast(), gpu, Options::default()).unwrap();
        let listing = program.disassemble();
        let instructions = listing
            .lines()
            .filter(|l| !l.starts_with(':') && !l.ends_with(':'))
            .count();
        assert_eq!(program.words().len(), instructions, "{gpu:?}");
        assert!(program.compile_time() > std::time::Duration::ZERO);
        let store = (0..instructions)
            .rev()
            .find_map(|i| program.location(i))
            .expect("some instruction comes from the kernel");
        assert!(listing.contains(&format!("# {store}")), "{gpu:?}");
    }
}
