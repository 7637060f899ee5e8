//! The V3D compiler (`qpu::compile::v3d`): example kernels compiled for V3D 4.2 and 7.1, run
//! on the strict V3D emulator (`qpu_emu::v3d`) on one and several QPUs, and checked against
//! the reference interpreter or scalar Rust.

// The examples include their shared helpers themselves.
#![allow(clippy::duplicate_mod)]

#[path = "../examples/gcd.rs"]
#[allow(dead_code)]
mod gcd;
#[path = "../examples/tri.rs"]
#[allow(dead_code)]
mod tri;

use qpu::compile::v3d::{self, V3dCompiled};
use qpu::compile::{compile_for, CompileError, Gpu, Program};
use qpu::interp;
use qpu::lang::ast;
use qpu::lang::*;
use qpu::runtime::{Buffer, BufferWords};
use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator, V3dRunReport};
use qpu_isa::v3d::V3dVersion;

const VERSIONS: [V3dVersion; 2] = [V3dVersion::V42, V3dVersion::V71];

/// A launch argument.
#[derive(Clone)]
enum Arg {
    /// An array (its bus address is passed).
    Array(Vec<u32>),
    /// A plain word.
    Word(u32),
}

fn qpu_counts(version: V3dVersion) -> &'static [u32] {
    match version {
        V3dVersion::V42 => &[1, 2, 3, 8],
        V3dVersion::V71 => &[1, 4, 12, 16],
    }
}

/// Runs `compiled` on `qpus` QPUs; returns the arrays afterwards and the report.
fn run_v3d(compiled: &V3dCompiled, qpus: u32, args: &[Arg]) -> (Vec<Vec<u32>>, V3dRunReport) {
    let mut config = V3dConfig::new(compiled.version);
    config.qpus = qpus as usize;
    let mut emu = V3dEmulator::new(config).unwrap();
    let code = emu.load_program(&compiled.words).unwrap();
    let mut words = Vec::new();
    let mut arrays = Vec::new();
    for arg in args {
        match arg {
            Arg::Array(data) => {
                let mem = emu.memory_mut();
                let addr = mem.alloc(data.len().max(1) as u32 * 4, 64).unwrap();
                mem.write_u32s(addr, data).unwrap();
                words.push(addr);
                arrays.push((addr, data.len()));
            }
            Arg::Word(w) => words.push(*w),
        }
    }
    let uniforms = emu.load_uniforms(&compiled.uniforms(qpus, &words)).unwrap();
    let report = emu
        .dispatch(&CsdJob::per_qpu(code, uniforms, qpus))
        .unwrap_or_else(|e| {
            panic!(
                "{:?} on {qpus} QPUs: {e}\n{}",
                compiled.version,
                compiled.disassemble()
            )
        });
    let out = arrays
        .iter()
        .map(|&(addr, len)| emu.memory().read_u32s(addr, len as u32).unwrap())
        .collect();
    (out, report)
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
fn unsupported_constructs_are_errors_naming_the_line() {
    fn divides(p: Ptr<Int>) {
        p.store(p.load() / 3);
    }
    let kernel = qpu::compile(divides).unwrap();
    for version in VERSIONS {
        match v3d::compile(kernel.ast(), version) {
            Err(CompileError::Unsupported {
                construct,
                location,
                ..
            }) => {
                assert!(construct.contains("division"), "{construct}");
                assert!(location.file.ends_with("v3d.rs"), "{location}");
                assert_eq!(location.line, line!() - 12);
            }
            other => panic!("{other:?}"),
        }
    }
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
            Ok(Program::V3d(c)) => assert_eq!(c.version, version),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn code_sizes_stay_small() {
    // Measured when the backend was written (one op per instruction, empty delay slots):
    // GCD 33 words, Tri 29, on both versions. A larger count is a regression to look at.
    let gcd = qpu::compile(gcd::gcd).unwrap();
    let tri = qpu::compile(tri::tri).unwrap();
    for version in VERSIONS {
        assert!(compile_v3d(gcd.ast(), version).words.len() <= 33);
        assert!(compile_v3d(tri.ast(), version).words.len() <= 29);
    }
}
