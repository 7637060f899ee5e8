//! The V3D emulator backends (`emulator-vc6`, `emulator-vc7`): examples' kernels compiled by
//! the first-slice V3D compiler and run through `Device`, checked against scalar Rust; the
//! backend's errors.

// QPULib's examples from `qpu_kernels::qpulib` (which depends on this crate), file by file;
// other test modules include some of the same files.
#![allow(clippy::duplicate_mod)]

#[path = "../../qpu-kernels/src/qpulib/gcd.rs"]
#[allow(dead_code)]
mod gcd;
#[path = "../../qpu-kernels/src/qpulib/glibc_rand.rs"]
#[allow(dead_code)]
mod glibc_rand;
#[path = "../../qpu-kernels/src/qpulib/multi_tri.rs"]
#[allow(dead_code)]
mod multi_tri;
#[path = "support/scalar.rs"]
mod scalar;
#[path = "support/spill.rs"]
mod spill;
#[path = "../../qpu-kernels/src/qpulib/tri.rs"]
#[allow(dead_code)]
mod tri;

use qpu::lang::*;
use qpu::runtime::select::BackendKind;
use qpu::{compile, Device};
use qpu_isa::v3d::V3dVersion;

const VERSIONS: [V3dVersion; 2] = [V3dVersion::V42, V3dVersion::V71];

#[test]
fn gcd_gives_the_16_gcds_on_both_versions() {
    let (a, b) = gcd::inputs();
    let want: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| scalar::gcd(x, y)).collect();
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        for unrolled in [false, true] {
            assert_eq!(
                gcd::run(&device, unrolled, &a, &b).unwrap(),
                want,
                "{version:?} unrolled {unrolled}"
            );
        }
    }
}

#[test]
fn triangular_numbers_on_one_and_four_qpus() {
    let triangle = |n: i32| n * (n + 1) / 2;
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        let one: Vec<i32> = (0..16).map(triangle).collect();
        assert_eq!(tri::run(&device).unwrap(), one, "{version:?}");
        let four: Vec<i32> = (0..64).map(triangle).collect();
        assert_eq!(multi_tri::run(&device).unwrap(), four, "{version:?}");
    }
}

#[test]
fn a_kernel_that_spills_runs_on_one_and_several_qpus() {
    for (version, counts) in [(V3dVersion::V42, [1, 8]), (V3dVersion::V71, [1, 12])] {
        assert!(
            spill::spill_bytes_per_qpu(version) > 0,
            "{version:?} spills"
        );
        let device = Device::v3d_emulator(version);
        for qpus in counts {
            let want: Vec<i32> = spill::input(qpus).into_iter().map(spill::scalar).collect();
            assert_eq!(
                spill::run(&device, qpus).unwrap(),
                want,
                "{version:?} on {qpus} QPUs"
            );
        }
    }
}

#[test]
fn every_qpu_the_version_has_takes_part() {
    // id stores each lane's QPU number; with n QPUs, each number appears 16 times per QPU's
    // share.
    for (version, n) in [(V3dVersion::V42, 8u32), (V3dVersion::V71, 16)] {
        let device = Device::v3d_emulator(version);
        let mut out = device.alloc::<i32>(16 * n as usize).unwrap();
        let mut kernel = compile(|p: Ptr<Int>| {
            let p = p + me() * 16 + index();
            p.store(me() * 100 + num_qpus());
        })
        .unwrap();
        kernel.set_num_qpus(n).unwrap();
        let report = kernel.run(&device, &mut out).unwrap();
        for q in 0..n as usize {
            for lane in 0..16 {
                assert_eq!(out[q * 16 + lane], q as i32 * 100 + n as i32, "{version:?}");
            }
        }
        assert_eq!(report.num_qpus, n);
        assert_eq!(report.qpus.len(), n as usize);
        assert!(report.qpus.iter().all(|q| q.steps > 0));
    }
}

#[test]
fn the_backend_names_and_their_qpu_limits() {
    for (value, kind) in [
        ("emulator-vc6", BackendKind::EmulatorVc6),
        ("Emulator-VC7", BackendKind::EmulatorVc7),
        ("emulator-vc4", BackendKind::Emulator),
    ] {
        assert_eq!(BackendKind::parse(value).unwrap(), kind, "{value}");
    }
    // V3D 4.2 has 8 QPUs: 12 is refused by name, before anything runs.
    let device = Device::v3d_emulator(V3dVersion::V42);
    let mut out = device.alloc::<i32>(16 * 12).unwrap();
    let mut kernel = compile(|p: Ptr<Int>| (p + me() * 16).store(index())).unwrap();
    kernel.set_num_qpus(12).unwrap();
    let error = kernel.run(&device, &mut out).unwrap_err().to_string();
    assert!(error.contains("this V3D 4.2 (Pi 4) has 8"), "{error}");
    // A Pi 5 reports 16 QPUs: a kernel may use them all; 17 is refused when it is set.
    assert!(kernel.set_num_qpus(16).is_ok());
    assert!(matches!(
        kernel.set_num_qpus(17),
        Err(qpu::Error::NumQpus(17))
    ));
    // The VideoCore IV emulator refuses 13.
    kernel.set_num_qpus(13).unwrap();
    let device = Device::emulator();
    let mut out = device.alloc::<i32>(16 * 16).unwrap();
    let error = kernel.run(&device, &mut out).unwrap_err();
    assert!(
        matches!(
            error,
            qpu::Error::TooManyQpus {
                requested: 13,
                max: 12,
                ..
            }
        ),
        "{error}"
    );
}

/// tests/lang.rs's semaphore kernel through the V3D emulator backends: QPU 0 acquires
/// semaphore 0 three times, once per row the other three QPUs store and release, then sums
/// the rows; the interpreter agrees.
#[test]
fn qpu_0_waits_for_the_other_rows_through_the_backend() {
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
    let want: Vec<i32> = (0..64)
        .map(|i| match i / 16 {
            0 => (7 + 14 + 21) + 3 * (i % 16),
            k => 7 * k + i % 16,
        })
        .collect();
    for device in [
        Device::v3d_emulator(V3dVersion::V42),
        Device::v3d_emulator(V3dVersion::V71),
        Device::interpreter(),
    ] {
        let mut out = device.alloc::<i32>(64).unwrap();
        kernel.run(&device, &mut out).unwrap();
        assert_eq!(out.to_vec(), want, "{}", device.describe());
    }
}

#[test]
fn read_only_stores_are_errors() {
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        // A store into an array passed as &SharedArray.
        let data = device.alloc_from(&[1i32; 16]).unwrap();
        let kernel = compile(|p: Ptr<Int>| p.store(p.load() + 1)).unwrap();
        let line = line!() - 1;
        let error = kernel.run(&device, &data).unwrap_err().to_string();
        assert!(error.contains("&SharedArray"), "{error}");
        assert!(error.contains(&format!("v3d_backend.rs:{line}")), "{error}");
        assert_eq!(data.to_vec(), vec![1; 16], "the host's array is unchanged");
    }
}

/// One meaning on every backend: a load outside the arrays reads an undefined value,
/// harmless while unused and an error where it is used, naming the statement that read it.
#[test]
fn a_read_outside_the_arrays_is_undefined_and_a_store_there_is_reported() {
    for version in VERSIONS {
        let interpreter = Device::interpreter();
        let device = Device::v3d_emulator(version);
        // Unused: a prefetch past the end, and a load 16 elements before the array.
        let kernel = compile(|p: Ptr<Int>| {
            let _past = Int::var((p + 16).load());
            let _before = Int::var((p - 16).load());
            p.store(p.load() + 1);
        })
        .unwrap();
        for backend in [&interpreter, &device] {
            let mut data = backend.alloc_from(&[7i32; 16]).unwrap();
            kernel.run(backend, &mut data).unwrap();
            assert_eq!(data.to_vec(), vec![8; 16], "{version:?}");
        }
        // Used: the same error on both.
        let line = line!() + 1;
        let kernel = compile(|p: Ptr<Int>| p.store(p.at(1000).load() + 1)).unwrap();
        for backend in [&interpreter, &device] {
            let mut data = backend.alloc_from(&[7i32; 20]).unwrap();
            let error = kernel.run(backend, &mut data).unwrap_err();
            let text = error.to_string();
            assert!(
                matches!(
                    &error,
                    qpu::Error::Run(e) if matches!(e.kind, qpu::error::RunErrorKind::UndefinedValueUsed { .. })
                ),
                "{version:?} {}: {text}",
                backend.describe()
            );
            assert!(text.contains(&format!("v3d_backend.rs:{line}")), "{text}");
        }
        let mut data = device.alloc_from(&[7i32; 16]).unwrap();
        // Storing there is an error at the store, not a silent write.
        let line = line!() + 1;
        let kernel = compile(|p: Ptr<Int>| (p + 16).store(index() + 1)).unwrap();
        let error = kernel.run(&device, &mut data).unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("0 past the end of its 16 elements"),
            "{version:?}: {text}"
        );
        assert!(text.contains(&format!("v3d_backend.rs:{line}")), "{text}");
    }
}

// ---- loads while gathered values wait (issue 14) -------------------------------------------
//
// On V3D, loads and gathers share one TMU result FIFO: the compiler pops the waiting gathered
// values into registers before a load's own result, and later receives take those first.
// Each kernel runs on both versions' emulators and is checked against scalar Rust.

/// The input array: 128 distinct, mixed-sign words.
fn fifo_input() -> Vec<i32> {
    (0..128)
        .map(|k| (k * 37 + 11) % 101 - 50 + k * 1000)
        .collect()
}

/// Runs `kernel` on `inp` = [`fifo_input`] and an output array of `out_len` zeros.
fn run_fifo_kernel(
    version: V3dVersion,
    kernel: &qpu::Kernel<(Ptr<Int>, Ptr<Int>)>,
    out_len: usize,
) -> Vec<i32> {
    let device = Device::v3d_emulator(version);
    let inp = device.alloc_from(&fifo_input()).unwrap();
    let mut out = device.alloc::<i32>(out_len).unwrap();
    kernel.run(&device, (&inp, &mut out)).unwrap();
    out.to_vec()
}

#[test]
fn a_load_between_a_gather_and_its_receive() {
    let kernel = compile(|inp: Ptr<Int>, out: Ptr<Int>| {
        gather(inp + index() * 3);
        let a = Int::var((inp + 16).load());
        let g = Int::var(0);
        receive(g);
        out.store(g * 10 + a);
    })
    .unwrap();
    let m = fifo_input();
    let want: Vec<i32> = (0..16).map(|i| m[3 * i] * 10 + m[16 + i]).collect();
    for version in VERSIONS {
        assert_eq!(run_fifo_kernel(version, &kernel, 16), want, "{version:?}");
    }
}

#[test]
fn two_gathers_with_loads_between_their_receives() {
    let kernel = compile(|inp: Ptr<Int>, out: Ptr<Int>| {
        gather(inp + index() * 2);
        gather(inp + 63 - index());
        let a = Int::var((inp + 32).load());
        let x = Int::var(0);
        receive(x);
        let b = Int::var((inp + 5).load());
        let y = Int::var(0);
        receive(y);
        // A gather whose address is loaded while another gather waits, then a third load
        // in the same statement as nothing else.
        gather(inp + index());
        gather(inp + ((inp + 64).load() & 63));
        let z = Int::var(0);
        let w = Int::var(0);
        receive(z);
        receive(w);
        out.store(x);
        (out + 16).store(y);
        (out + 32).store(a - b);
        (out + 48).store(z);
        (out + 64).store(w);
    })
    .unwrap();
    let m = fifo_input();
    let mut want = Vec::new();
    want.extend((0..16).map(|i| m[2 * i]));
    want.extend((0..16).map(|i| m[63 - i]));
    want.extend((0..16).map(|i| m[32 + i] - m[5 + i]));
    want.extend((0..16).map(|i| m[i]));
    want.extend((0..16).map(|i| m[(m[64 + i] & 63) as usize]));
    for version in VERSIONS {
        assert_eq!(run_fifo_kernel(version, &kernel, 80), want, "{version:?}");
    }
}

#[test]
fn loads_and_gathers_interleaved_in_loops() {
    // A prefetch loop: one gather waits at the top of each iteration, the body's load pops
    // it, the receive takes it from the register, the next gather is issued. Then a loop
    // that keeps a popped value across its back edge.
    let kernel = compile(|inp: Ptr<Int>, out: Ptr<Int>| {
        let sum = Int::var(0);
        let x = Int::var(0);
        gather(inp + index());
        for_range(0, 4, 1, |i| {
            let a = Int::var((inp + 64 + i * 16).load());
            receive(x);
            sum.set(sum + x * 3 + a);
            gather(inp + (i + 1) * 16 + index());
        });
        receive(x);
        out.store(sum + x);
        let acc = Int::var(0);
        gather(inp + 127 - index());
        let first = Int::var((inp + 1).load());
        for_range(0, 3, 1, |i| {
            receive(x);
            acc.set(acc * 2 + x);
            gather(inp + index() * 2 + i);
            acc.set(acc + (inp + 20 + i).load());
        });
        receive(x);
        (out + 16).store(acc + x + first);
    })
    .unwrap();
    let m = fifo_input();
    let mut want = Vec::new();
    for lane in 0..16 {
        let mut sum = 0i32;
        let mut x = m[lane];
        for i in 0..4 {
            let a = m[64 + i * 16 + lane];
            sum = sum + x * 3 + a;
            x = m[(i + 1) * 16 + lane];
        }
        want.push(sum + x);
    }
    for lane in 0..16 {
        let first = m[1 + lane];
        let mut acc = 0i32;
        let mut x = m[127 - lane];
        for i in 0..3 {
            acc = acc * 2 + x;
            x = m[lane * 2 + i];
            acc += m[20 + i + lane];
        }
        want.push(acc + x + first);
    }
    for version in VERSIONS {
        assert_eq!(run_fifo_kernel(version, &kernel, 32), want, "{version:?}");
    }
}

#[test]
fn loads_in_where_and_if_while_gathers_wait() {
    let kernel = compile(|inp: Ptr<Int>, out: Ptr<Int>| {
        let y = Int::var(0);
        let x = Int::var(0);
        gather(inp + index() * 2);
        // A `where_` whose condition loads (loads are not allowed in its bodies), then a
        // `select` between two loads, while the gather waits.
        where_((inp + 16).load().gt(3000), || y.set(index() + 1)).else_(|| y.set(-1));
        y.set(y + select(index().lt(8), (inp + 32).load(), (inp + 48).load()));
        receive(x);
        out.store(x + y * 2);
        // A load in an `if_` condition while a gather waits (it pops the gather); an `if_`
        // body that receives that value, gathers again and loads (popping the new gather:
        // one popped value again, as it found); a `while_` whose condition loads.
        gather(inp + 40 + index());
        let taken = Int::var(0);
        if_(any((inp + 48).load().gt(0)), || taken.set(1));
        if_(any(index().eq(3)), || {
            receive(x);
            gather(inp + 100 + index());
            taken.set(taken + x + (inp + 80).load());
        });
        let n = Int::var(0);
        while_(any((inp + n * 16).load().lt(3000)), || n.set(n + 1));
        receive(x);
        (out + 16).store(x);
        (out + 32).store(taken);
        (out + 48).store(n);
    })
    .unwrap();
    let m = fifo_input();
    let mut want = Vec::new();
    want.extend((0..16).map(|i| {
        let y = if m[16 + i] > 3000 { i as i32 + 1 } else { -1 };
        let y = y + if i < 8 { m[32 + i] } else { m[48 + i] };
        m[2 * i] + y * 2
    }));
    // The `if_` runs (lane 3 exists): x is the second gather, the last gather is received.
    want.extend((0..16).map(|i| m[100 + i]));
    let taken_any = (0..16).any(|i| m[48 + i] > 0);
    want.extend((0..16).map(|i| i32::from(taken_any) + m[40 + i] + m[80 + i]));
    // Vectors 0..n all have a lane below 3000 while any lane is.
    let mut n = 0usize;
    while (0..16).any(|i| m[n * 16 + i] < 3000) {
        n += 1;
    }
    want.extend(std::iter::repeat_n(n as i32, 16));
    for version in VERSIONS {
        assert_eq!(run_fifo_kernel(version, &kernel, 64), want, "{version:?}");
    }
}

#[test]
fn control_flow_bodies_that_load_while_gathers_wait() {
    // Each body below would pop the waiting gathers with its load on one path only; the
    // compiler pops them before the condition instead, so every path agrees.
    let kernel = compile(|inp: Ptr<Int>, out: Ptr<Int>| {
        let x = Int::var(0);
        let y = Int::var(0);
        gather(inp + index() * 2);
        if_(any(index().eq(3)), || y.set((inp + 16).load()));
        receive(x);
        out.store(x + y);
        // An `if_` taken by no lane, an `else_` that loads, two gathers waiting.
        gather(inp + 64 + index());
        gather(inp + 127 - index());
        if_(any(index().gt(20)), || y.set(0)).else_(|| y.set(y + (inp + 32).load()));
        receive(x);
        (out + 16).store(x * 2 + y);
        receive(x);
        (out + 32).store(x);
        // A loop whose body gathers the next vector, receives the previous one, then loads:
        // it starts with one gathered value popped instead of one waiting.
        let sum = Int::var(0);
        gather(inp + index());
        for_range(1, 5, 1, |i| {
            gather(inp + i * 16 + index());
            receive(x);
            sum.set(sum + x - (inp + 100 + i).load());
        });
        receive(x);
        (out + 48).store(sum * 4 + x);
    })
    .unwrap();
    let m = fifo_input();
    let mut want = Vec::new();
    let y: Vec<i32> = (0..16).map(|i| m[16 + i]).collect();
    want.extend((0..16).map(|i| m[2 * i] + y[i]));
    let y: Vec<i32> = (0..16).map(|i| y[i] + m[32 + i]).collect();
    want.extend((0..16).map(|i| m[64 + i] * 2 + y[i]));
    want.extend((0..16).map(|i| m[127 - i]));
    want.extend((0..16).map(|lane| {
        let mut sum = 0i32;
        let mut x = m[lane];
        for i in 1..5 {
            let next = m[i * 16 + lane];
            sum = sum + x - m[100 + i + lane];
            x = next;
        }
        sum * 4 + x
    }));
    for version in VERSIONS {
        assert_eq!(run_fifo_kernel(version, &kernel, 64), want, "{version:?}");
    }
}

#[test]
fn gathers_and_receives_on_one_path_of_an_if() {
    // Receives pop the TMU FIFO in order whichever path ran, as on the VideoCore IV, so a
    // gather or a receive may sit on one side of an `if_` only.
    let kernel = compile(|inp: Ptr<Int>, out: Ptr<Int>, n: Int| {
        let x = Int::var(0);
        let y = Int::var(-1);
        gather(inp + index());
        if_(any(index().lt(n)), || gather(inp + 16 + index()));
        receive(x);
        out.store(x);
        if_(any(index().lt(n)), || receive(y));
        (out + 16).store(y);
        // One gather on one side, two on the other.
        if_(any(index().lt(n)), || gather(inp + 32 + index())).else_(|| {
            gather(inp + 48 + index());
            gather(inp + 64 + index());
        });
        receive(x);
        (out + 32).store(x);
        if_(all(index().ge(n)), || receive(y));
        (out + 48).store(y);
    })
    .unwrap();
    let m = fifo_input();
    let lanes = |base: usize| m[base..base + 16].to_vec();
    for n in [0, 5] {
        // Taken (n = 5): the second gather is received into y, the `if_` side gathers once.
        // Not taken: y keeps -1 until the `else_` side's second gather reaches it.
        let want: Vec<i32> = if n > 0 {
            [lanes(0), lanes(16), lanes(32), lanes(16)].concat()
        } else {
            [lanes(0), vec![-1; 16], lanes(48), lanes(64)].concat()
        };
        let devices = [
            ("interpreter", Device::interpreter()),
            ("VideoCore IV", Device::emulator()),
            ("V3D 4.2", Device::v3d_emulator(V3dVersion::V42)),
            ("V3D 7.1", Device::v3d_emulator(V3dVersion::V71)),
        ];
        for (name, device) in devices {
            let inp = device.alloc_from(&fifo_input()).unwrap();
            let mut out = device.alloc::<i32>(64).unwrap();
            kernel.run(&device, (&inp, &mut out, n)).unwrap();
            assert_eq!(out.to_vec(), want, "{name}, n = {n}");
        }
    }
}

/// The error running `kernel` on [`fifo_input`] and 16 output words gives on `version`.
fn fifo_kernel_error(version: V3dVersion, kernel: &qpu::Kernel<(Ptr<Int>, Ptr<Int>)>) -> String {
    let device = Device::v3d_emulator(version);
    let inp = device.alloc_from(&fifo_input()).unwrap();
    let mut out = device.alloc::<i32>(16).unwrap();
    kernel
        .run(&device, (&inp, &mut out))
        .unwrap_err()
        .to_string()
}

#[test]
fn a_load_after_an_if_that_gathered_on_one_path_is_refused_at_its_line() {
    // A load's result comes after every result already waiting in the one TMU FIFO; after
    // an `if_` that gathered on one path only, how many that is depends on the path.
    let kernel = compile(|inp: Ptr<Int>, out: Ptr<Int>| {
        let y = Int::var(0);
        gather(inp + index());
        if_(any(index().eq(3)), || gather(inp + 16 + index()));
        y.set((inp + 32).load());
        receive(y);
        out.store(y);
    })
    .unwrap();
    let line = line!() - 5;
    for version in VERSIONS {
        let error = fifo_kernel_error(version, &kernel);
        assert!(
            error.contains("a load (or a spilled variable's reload) while 1 to 2 gathered")
                && error.contains(&format!("v3d_backend.rs:{line}")),
            "{version:?}: {error}"
        );
    }
}

#[test]
fn a_loop_body_that_changes_what_receives_find_is_refused_at_its_line() {
    // A receive on one path of a loop body: the count would drift from one iteration to
    // the next.
    let kernel = compile(|inp: Ptr<Int>, out: Ptr<Int>| {
        gather(inp + index());
        gather(inp + 16 + index());
        let y = Int::var(0);
        let i = Int::var(0);
        while_(any(i.lt(1)), || {
            if_(any(index().eq(3)), || receive(y));
            i.set(i + 1);
        });
        receive(y);
        out.store(y);
    })
    .unwrap();
    for version in VERSIONS {
        let error = fifo_kernel_error(version, &kernel);
        assert!(
            error.contains("a `while_` body that leaves a different number of gathers waiting")
                && error.contains("v3d_backend.rs:"),
            "{version:?}: {error}"
        );
    }
}

/// Products by 0, ±1 and ±2^k are a move, a negation or a shift (wrapping like every
/// product); any other factor takes the three-`umul24` sequence. Checked against Rust's
/// `wrapping_mul` on values that overflow.
#[test]
fn products_by_powers_of_two_are_shifts_with_the_same_wrapping() {
    const FACTORS: [i32; 9] = [0, 1, -1, 8, -8, 1 << 30, -(1 << 30), 3, -12];
    let kernel = compile(|p: Ptr<Int>, q: Ptr<Int>| {
        let x = Int::var(p.load());
        for (k, c) in FACTORS.into_iter().enumerate() {
            // The literal on the right, then on the left.
            let product = if k % 2 == 0 { x * c } else { Int::from(c) * x };
            (q + 16 * k as i32).store(product);
        }
    })
    .unwrap();
    let input: Vec<i32> = (0..16)
        .map(|i: i32| i.wrapping_mul(0x1357_9bdf).wrapping_sub(1 << 29))
        .collect();
    for version in VERSIONS {
        let listing = qpu::compiler::v3d::compile(kernel.ast(), version)
            .unwrap()
            .disassemble();
        // 3 and -12 only.
        assert_eq!(
            listing.matches("umul24").count(),
            6,
            "{version:?}\n{listing}"
        );
        let device = Device::v3d_emulator(version);
        let p = device.alloc_from(&input).unwrap();
        let mut q = device.alloc::<i32>(16 * FACTORS.len()).unwrap();
        kernel.run(&device, (&p, &mut q)).unwrap();
        for (k, c) in FACTORS.into_iter().enumerate() {
            let want: Vec<i32> = input.iter().map(|x| x.wrapping_mul(c)).collect();
            assert_eq!(q[16 * k..16 * (k + 1)], want[..], "{version:?} times {c}");
        }
    }
}

/// A loop sliding a window of three vectors along an array (HeatMap's `prev = current;
/// current = next; receive(next)`): the V3D compiler runs three copies of the body with the
/// window renamed while three iterations remain, then single iterations. Every trip count
/// gives scalar Rust's sums, multiples of three or not.
fn window_kernel(p: Ptr<Int>, q: Ptr<Int>, n: Int) {
    let mut a = Ptr::var(p + index());
    gather(a);
    a += 16;
    gather(a);
    a += 16;
    let prev = Int::var(0);
    let cur = Int::var(0);
    let next = Int::var(0);
    receive(cur);
    receive(next);
    gather(a);
    a += 16;
    let mut o = Ptr::var(q);
    for_range(0, n, 1, |_| {
        prev.set(cur);
        cur.set(next);
        receive(next);
        gather(a);
        a += 16;
        o.store(prev + cur * 2 + next * 3);
        o += 16;
    });
    receive(prev);
}

#[test]
fn a_sliding_window_loop_gives_scalar_sums_on_every_trip_count() {
    let kernel = compile(window_kernel).unwrap();
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        let mut issued = Vec::new();
        for n in [0usize, 1, 2, 3, 4, 5, 6, 7, 10, 30] {
            let input: Vec<i32> = (0..16 * (n + 4))
                .map(|i| (i as i32).wrapping_mul(7919) % 1000 - 500)
                .collect();
            let p = device.alloc_from(&input).unwrap();
            let mut q = device.alloc::<i32>(16 * n.max(1)).unwrap();
            let report = kernel.run(&device, (&p, &mut q, n as i32)).unwrap();
            let want: Vec<i32> = (0..16 * n)
                .map(|i| input[i] + 2 * input[i + 16] + 3 * input[i + 32])
                .collect();
            assert_eq!(q[..16 * n], want[..], "{version:?} n = {n}");
            issued.push(report.qpus[0].steps);
        }
        // 30 iterations are 10 of the three copies: 469 issued on 4.2 and 400 on 7.1, where
        // the plain loop issued 503 and 443.
        let bound = match version {
            V3dVersion::V42 => 475,
            V3dVersion::V71 => 405,
        };
        assert!(issued[9] <= bound, "{version:?}: {issued:?}");
    }
}

/// `and`/`or` of comparisons whose second side is one flag-setting instruction (integer
/// comparisons, float `<=`/`>=`, their negations) combine by flag updates instead of −1/0
/// masks. Every combination of each pair of comparisons, under `where_` and as a `while_`
/// test, matches scalar Rust on lanes chosen to make each comparison true and false, NaN
/// included.
#[test]
// The scalar conditions spell the kernel's: a negated float comparison holds for NaN.
#[allow(clippy::nonminimal_bool, clippy::neg_cmp_op_on_partial_ord)]
fn conditions_combined_by_flag_updates_match_scalar_rust() {
    type Case = (&'static str, fn(i32, i32, f32, f32) -> bool);
    // The kernel's conditions, in the order of `CASES`.
    const CASES: [Case; 8] = [
        ("x < y and a <= b", |x, y, a, b| x < y && a <= b),
        ("a < b and x != y", |x, y, a, b| a < b && x != y),
        ("x >= y or b >= a", |x, y, a, b| x >= y || b >= a),
        ("a == b or x > y", |x, y, a, b| a == b || x > y),
        ("not(x <= y) and not(a <= b)", |x, y, a, b| {
            !(x <= y) && !(a <= b)
        }),
        ("x == y or not(a >= b)", |x, y, a, b| x == y || !(a >= b)),
        ("(x < y and x != 3) and a <= b", |x, y, a, b| {
            (x < y && x != 3) && a <= b
        }),
        ("(a > b or x < y) and y >= 0", |x, y, a, b| {
            (a > b || x < y) && y >= 0
        }),
    ];
    let kernel = compile(
        |xs: Ptr<Int>, ys: Ptr<Int>, fa: Ptr<Float>, fb: Ptr<Float>, out: Ptr<Int>| {
            let (x, y) = (Int::var(xs.load()), Int::var(ys.load()));
            let (a, b) = (Float::var(fa.load()), Float::var(fb.load()));
            let conditions = [
                x.lt(y) & a.le(b),
                a.lt(b) & x.ne(y),
                x.ge(y) | b.ge(a),
                a.eq(b) | x.gt(y),
                !x.le(y) & !a.le(b),
                x.eq(y) | !a.ge(b),
                (x.lt(y) & x.ne(3)) & a.le(b),
                (a.gt(b) | x.lt(y)) & y.ge(0),
            ];
            for (k, c) in conditions.into_iter().enumerate() {
                let r = Int::var(0);
                where_(c, || r.set(1));
                // As a loop test: at most one iteration where any lane holds.
                let n = Int::var(0);
                while_(any(c & n.lt(1)), || n.set(n + 2));
                (out + 16 * k as i32).store(r + n);
            }
        },
    )
    .unwrap();
    let xs: Vec<i32> = vec![1, 2, 3, 3, -5, 0, 7, 2, 3, -1, 9, 4, 3, 0, 1, 6];
    let ys: Vec<i32> = vec![2, 2, 1, 5, -5, 1, 7, 9, 4, -2, 0, 4, 8, 0, 3, -6];
    let fa: Vec<f32> = vec![
        0.5,
        1.0,
        f32::NAN,
        2.0,
        -0.0,
        3.0,
        1.0,
        4.0,
        0.25,
        2.0,
        -1.0,
        f32::NAN,
        5.0,
        0.0,
        1.5,
        2.5,
    ];
    let fb: Vec<f32> = vec![
        1.0,
        1.0,
        1.0,
        1.0,
        0.0,
        2.0,
        f32::NAN,
        4.0,
        0.5,
        1.0,
        -2.0,
        3.0,
        5.0,
        0.0,
        1.0,
        3.0,
    ];
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        let arrays = (
            device.alloc_from(&xs).unwrap(),
            device.alloc_from(&ys).unwrap(),
            device.alloc_from(&fa).unwrap(),
            device.alloc_from(&fb).unwrap(),
        );
        let mut out = device.alloc::<i32>(16 * CASES.len()).unwrap();
        kernel
            .run(
                &device,
                (&arrays.0, &arrays.1, &arrays.2, &arrays.3, &mut out),
            )
            .unwrap();
        for (k, (name, f)) in CASES.iter().enumerate() {
            let holds: Vec<bool> = (0..16).map(|i| f(xs[i], ys[i], fa[i], fb[i])).collect();
            let any = holds.iter().any(|&h| h);
            let want: Vec<i32> = holds
                .iter()
                .map(|&h| i32::from(h) + if any { 2 } else { 0 })
                .collect();
            assert_eq!(out[16 * k..16 * (k + 1)], want[..], "{version:?}: {name}");
        }
        let listing = qpu::compiler::v3d::compile(kernel.ast(), version)
            .unwrap()
            .disassemble();
        // No −1/0 masks: each condition is pushes and updates.
        assert!(
            !listing.lines().any(|l| l.starts_with("or.pushz")),
            "{version:?}\n{listing}"
        );
    }
}

/// A combined condition reads the uniform stream in the language's order even where the
/// instruction takes its operands swapped (`u0 < u1` is `min(u1, u0)`): here the first
/// read must be 1 and the second 2 in every lane (a differential campaign found the reads
/// swapped, seed 14003580).
#[test]
fn a_combined_condition_reads_uniforms_in_source_order() {
    let kernel = compile(|words: Ptr<Int>, xs: Ptr<Int>, out: Ptr<Int>| {
        let x = Int::var(xs.load());
        let s = UniformStream::at(words);
        let r = Int::var(0);
        where_(x.gt(100) | s.next().lt(s.next()), || r.set(1));
        out.store(r);
    })
    .unwrap();
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        let words = device.alloc_from(&[1i32, 2, 0, 0]).unwrap();
        let xs = device.alloc_from(&[7i32; 16]).unwrap();
        let mut out = device.alloc::<i32>(16).unwrap();
        kernel.run(&device, (&words, &xs, &mut out)).unwrap();
        assert_eq!(out.to_vec(), vec![1; 16], "{version:?}: 1 < 2 holds");
    }
}

/// A `while_` body that opens with a `where_` on the loop's own condition (Mandelbrot's
/// shape) uses flag A as the loop test left it: both tests branch to the body's top right
/// after computing the condition. One condition is held in flag A set (a comparison and a
/// flag update), one in flag A clear (`!=`: Z of a xor). The lanes run in lockstep, so a
/// statement after the `where_` runs in every lane on every iteration: scalar Rust does the
/// same.
#[test]
fn a_where_on_the_loop_condition_uses_the_loop_tests_flags() {
    let kernel = compile(|xs: Ptr<Int>, out: Ptr<Int>| {
        let x = Int::var(xs.load());
        let (n, y) = (Int::var(0), Int::var(0));
        let running = || x.gt(0) & n.lt(12);
        while_(any(running()), || {
            where_(running(), || {
                x.set(x - 3 - (x >> 4));
                n.set(n + 1);
            });
            y.set(y + x);
        });
        out.store(n * 1000 + y);
        let z = Int::var(xs.load() & 15);
        let m = Int::var(0);
        while_(any(z.ne(0)), || {
            where_(z.ne(0), || z.set(z - 1));
            m.set(m + z);
        });
        (out + 16).store(m);
    })
    .unwrap();
    let xs: Vec<i32> = vec![0, 1, 5, 17, 40, -3, 100, 7, 2, 33, 64, 9, 250, 3, 12, 6];
    // Scalar Rust, lane by lane, with the loop running while any lane's condition holds.
    let mut want = [0i32; 32];
    let (mut x, mut n, mut y) = (xs.clone(), vec![0i32; 16], vec![0i32; 16]);
    while (0..16).any(|i| x[i] > 0 && n[i] < 12) {
        for i in 0..16 {
            if x[i] > 0 && n[i] < 12 {
                x[i] = x[i] - 3 - (x[i] >> 4);
                n[i] += 1;
            }
            y[i] += x[i];
        }
    }
    let (mut z, mut m): (Vec<i32>, Vec<i32>) = (xs.iter().map(|v| v & 15).collect(), vec![0; 16]);
    while z.iter().any(|&v| v != 0) {
        for i in 0..16 {
            if z[i] != 0 {
                z[i] -= 1;
            }
            m[i] += z[i];
        }
    }
    for i in 0..16 {
        want[i] = n[i] * 1000 + y[i];
        want[16 + i] = m[i];
    }
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        let input = device.alloc_from(&xs).unwrap();
        let mut out = device.alloc::<i32>(32).unwrap();
        kernel.run(&device, (&input, &mut out)).unwrap();
        assert_eq!(out[..], want[..], "{version:?}");
        // Flag writes: each loop tests its condition twice (before the loop and at the end of
        // the body), two instructions for the first condition, one for the second; the
        // `where_`s add none.
        let listing = qpu::compiler::v3d::compile(kernel.ast(), version)
            .unwrap()
            .disassemble();
        let flag_writes = listing
            .lines()
            .filter(|l| [".push", ".and", ".nor"].iter().any(|f| l.contains(f)))
            .count();
        assert_eq!(flag_writes, 2 * 2 + 2, "{version:?}\n{listing}");
    }
}
