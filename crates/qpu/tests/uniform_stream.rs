//! `UniformStream`: scalars read in order from memory through the QPU's uniform stream, each
//! broadcast to 16 lanes. Checked on the interpreter and the strict emulator against scalar
//! Rust, for evaluation order, loops, re-pointing, several QPUs, the code it compiles to
//! and the mistakes it rejects.

use qpu::error::{BuildErrorKind, Error, RunErrorKind};
use qpu::lang::*;
use qpu::{compile, Device};

fn devices() -> [Device; 2] {
    [Device::interpreter(), Device::emulator()]
}

#[test]
fn reads_come_in_order_and_left_to_right() {
    let kernel = compile(|a: Ptr<Int>, out: Ptr<Int>| {
        let s = UniformStream::at(a);
        // a[0] - a[1]; then a[2] * (index + a[3]); then a[4] reads into a variable.
        out.store(s.next() - s.next());
        (out + 16).store(s.next() * (index() + s.next()));
        let v = Int::var(s.next());
        (out + 32).store(v + v);
    })
    .unwrap();
    let a = [7, 100, 3, 10, 21];
    let want: Vec<i32> = std::iter::repeat_n(7 - 100, 16)
        .chain((0..16).map(|l| 3 * (l + 10)))
        .chain(std::iter::repeat_n(42, 16))
        .collect();
    for device in devices() {
        let src = device.alloc_from(&a).unwrap();
        let mut out = device.alloc::<i32>(48).unwrap();
        kernel.run(&device, (&src, &mut out)).unwrap();
        assert_eq!(out.to_vec(), want, "{}", device.describe());
    }
}

/// out[row] = Σ_k a[row][k] · x[k] (a matrix times 16 vectors), rows on `me()`,
/// `me() + num_qpus()`, …: each QPU points its own stream at its row.
fn matrix_vectors(rows: Int, cols: Int, a: Ptr<Float>, x: Ptr<Float>, out: Ptr<Float>) {
    for_(
        me(),
        |r| r.lt(rows),
        |r| r + num_qpus(),
        |r| {
            let s = UniformStream::at(a + r * cols);
            let sum = Float::var(0.0);
            let p = Ptr::var(x);
            for_range(0, cols, 1, |_| {
                sum.set(sum + s.next() * p.load());
                p.set(p + 16);
            });
            (out + r * 16).store(sum);
        },
    );
}

#[test]
fn a_stream_per_qpu_drives_a_matrix_product() {
    use qpu::float::{add, mul};
    let (rows, cols) = (13usize, 9usize);
    let a: Vec<f32> = (0..rows * cols).map(|i| (i % 7) as f32 - 2.5).collect();
    let x: Vec<f32> = (0..cols * 16).map(|i| (i % 11) as f32 * 0.25).collect();
    let mut want = vec![0.0f32; rows * 16];
    for r in 0..rows {
        for l in 0..16 {
            let mut sum = 0.0;
            for k in 0..cols {
                sum = add(sum, mul(a[r * cols + k], x[k * 16 + l]));
            }
            want[r * 16 + l] = sum;
        }
    }
    let mut kernel = compile(matrix_vectors).unwrap();
    for qpus in [1, 4, 12] {
        kernel.set_num_qpus(qpus).unwrap();
        for device in devices() {
            let (pa, px) = (
                device.alloc_from(&a).unwrap(),
                device.alloc_from(&x).unwrap(),
            );
            let mut out = device.alloc::<f32>(rows * 16).unwrap();
            kernel
                .run(&device, (rows as i32, cols as i32, &pa, &px, &mut out))
                .unwrap();
            assert_eq!(out.to_vec(), want, "{} on {qpus} QPUs", device.describe());
        }
    }
    // The product reads the uniform in the multiply itself: no copy of each element.
    let listing = kernel.disassemble().unwrap();
    assert!(
        listing
            .lines()
            .any(|l| l.contains("fmul") && l.contains("unif")),
        "{listing}"
    );
}

#[test]
fn reading_where_the_stream_may_not_be_pointed_is_a_build_error() {
    // Pointed on one path only (inside an `if_`), read after it: rejected with the read's
    // line.
    let line = line!() + 5;
    let result = compile(|a: Ptr<Int>, out: Ptr<Int>, n: Int| {
        let mut stream = None;
        if_(n.gt(0), || stream = Some(UniformStream::at(a)));
        let s = stream.expect("recorded");
        out.store(s.next());
    });
    let Err(Error::Build(errors)) = result else {
        panic!("expected a build error");
    };
    assert_eq!(errors.0.len(), 1, "{errors}");
    assert_eq!(errors.0[0].kind, BuildErrorKind::UniformReadBeforeStream);
    assert_eq!(errors.0[0].location.line, line);
    // Pointed on both paths: accepted.
    let kernel = compile(|a: Ptr<Int>, out: Ptr<Int>, n: Int| {
        let mut stream = None;
        if_(n.gt(0), || stream = Some(UniformStream::<Int>::at(a + 4)))
            .else_(|| stream = Some(UniformStream::<Int>::at(a)));
        out.store(stream.expect("recorded").next());
    })
    .unwrap();
    for device in devices() {
        let a = device.alloc_from(&(0..8).collect::<Vec<i32>>()).unwrap();
        let mut out = device.alloc::<i32>(16).unwrap();
        kernel.run(&device, (&a, &mut out, 1)).unwrap();
        assert_eq!(out[0], 4, "{}", device.describe());
        kernel.run(&device, (&a, &mut out, 0)).unwrap();
        assert_eq!(out[0], 0, "{}", device.describe());
    }
    // Inside `where_`: rejected like loads.
    let Err(Error::Build(errors)) = compile(|a: Ptr<Int>, out: Ptr<Int>| {
        let s = UniformStream::at(a);
        let v = Int::var(0);
        where_(index().lt(3), || v.set(s.next()));
        out.store(v);
    }) else {
        panic!("expected a build error");
    };
    assert!(
        matches!(errors.0[0].kind, BuildErrorKind::MemoryInWhere { .. }),
        "{errors}"
    );
}

#[test]
fn a_stream_running_off_its_array_is_an_error_on_both_backends() {
    let kernel = compile(|a: Ptr<Int>, out: Ptr<Int>| {
        let s = UniformStream::at(a);
        let sum = Int::var(0);
        for_range(0, 5, 1, |_| sum.set(sum + s.next()));
        out.store(sum);
    })
    .unwrap();
    for device in devices() {
        let a = device.alloc_from(&[1, 2, 3, 4]).unwrap();
        let mut out = device.alloc::<i32>(16).unwrap();
        let err = kernel.run(&device, (&a, &mut out)).unwrap_err();
        let Error::Run(e) = &err else {
            panic!("{}: {err}", device.describe());
        };
        assert!(
            matches!(
                e.kind,
                RunErrorKind::OutOfBounds { .. } | RunErrorKind::Machine(_)
            ),
            "{}: {err}",
            device.describe()
        );
        println!("{}: {err}", device.describe());
    }
}

#[test]
fn a_streamed_element_costs_the_inner_loop_no_instruction() {
    // One more column costs the inner loop's words once: counter, compare, TMU request,
    // branch, pointer step, multiply (reading the uniform itself) and add — 7, with no copy
    // of the element and no NOP for the stream's set-up distance.
    let mut kernel = compile(matrix_vectors).unwrap();
    kernel.set_num_qpus(1).unwrap();
    let device = Device::emulator();
    let issued = |cols: usize| {
        let a = device.alloc_from(&vec![1.0f32; cols]).unwrap();
        let x = device.alloc_from(&vec![2.0f32; cols * 16]).unwrap();
        let mut out = device.alloc::<f32>(16).unwrap();
        let report = kernel
            .run(&device, (1, cols as i32, &a, &x, &mut out))
            .unwrap();
        assert_eq!(out[0], 2.0 * cols as f32);
        report.qpus[0].steps
    };
    let per_column = issued(10) - issued(9);
    assert!(
        per_column <= 7,
        "{per_column} instructions per column:\n{}",
        kernel.disassemble().unwrap()
    );
}
