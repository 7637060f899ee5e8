//! Shared arrays are the memory kernels work on, on every backend: the emulator runs kernels
//! on the arrays in place (as the Pi's QPUs work on GPU memory), so what the host wrote is what
//! the kernel reads, what the kernel stored is in the array as soon as the run ends (even a
//! run that fails), a store into an array passed as `&SharedArray` is an error at the store,
//! and arrays never alias and give their addresses back when dropped.

use qpu::error::{ArrayPlace, Error, RunError, RunErrorKind};
use qpu::lang::*;
use qpu::{compile, Device};

fn devices() -> [Device; 2] {
    [Device::interpreter(), Device::emulator()]
}

/// `out[i] = a[i] * 3 + 1` for the first `n` elements (`n` a multiple of 16).
fn scale(n: Int, a: Ptr<Float>, out: Ptr<Float>) {
    for_(
        0,
        |i| i.lt(n),
        |i| i + 16,
        |i| (out + i).store((a + i).load() * 3.0 + 1.0),
    );
}

fn scaled(a: &[f32]) -> Vec<f32> {
    a.iter().map(|&x| x * 3.0 + 1.0).collect()
}

/// The run error of `result`, or a panic naming the backend.
fn run_error(device: &Device, result: qpu::Result<qpu::runtime::RunReport>) -> RunError {
    match result {
        Err(Error::Run(e)) => e,
        Err(other) => panic!("{}: expected a run error, got {other}", device.describe()),
        Ok(_) => panic!("{}: expected a run error, but it ran", device.describe()),
    }
}

#[test]
fn host_writes_are_seen_by_the_next_run_and_stores_by_the_host_right_after() {
    let kernel = compile(scale).unwrap();
    for device in devices() {
        let name = device.describe();
        let n = 160;
        let mut a = device.alloc::<f32>(n).unwrap();
        let mut out = device.alloc::<f32>(n).unwrap();
        for (i, x) in a.iter_mut().enumerate() {
            *x = i as f32 * 0.5;
        }
        kernel.run(&device, (n as i32, &a, &mut out)).unwrap();
        let expected: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 * 3.0 + 1.0).collect();
        assert_eq!(&out[..], &expected[..], "{name}");
        // Writes through the slice, element by element and in bulk, then a second run.
        a[3] = -2.0;
        let tail: Vec<f32> = (0..16).map(|i| 100.0 + i as f32).collect();
        a[n - 16..].copy_from_slice(&tail);
        kernel.run(&device, (n as i32, &a, &mut out)).unwrap();
        assert_eq!(out.to_vec(), scaled(&a), "{name}");
        assert_eq!(out[3], -5.0, "{name}");
        assert_eq!(out[n - 1], 115.0 * 3.0 + 1.0, "{name}");
    }
}

#[test]
fn a_failed_run_leaves_the_stores_made_before_the_failure() {
    for device in devices() {
        let name = device.describe();
        let mut out = device.alloc_from(&[-1i32; 32]).unwrap();
        let kernel = compile(|p: Ptr<Int>| {
            p.store(index() * 7);
            (p + 32).store(1);
        })
        .unwrap();
        let e = run_error(&device, kernel.run(&device, &mut out));
        assert!(
            matches!(
                e.kind,
                RunErrorKind::OutOfBounds {
                    access: "store",
                    place: Some(ArrayPlace {
                        argument: 0,
                        element: 32,
                        len: 32
                    }),
                    ..
                }
            ),
            "{name}: {e}"
        );
        let expected: Vec<i32> = (0..16).map(|i| i * 7).chain([-1; 16]).collect();
        assert_eq!(out.to_vec(), expected, "{name}");
    }
}

#[test]
fn a_store_into_a_read_only_array_is_an_error_at_the_store() {
    for device in devices() {
        let name = device.describe();
        let data = device.alloc_from(&[4i32; 16]).unwrap();
        let line = line!() + 1;
        let kernel = compile(|p: Ptr<Int>| p.store(p.load())).unwrap();
        // Storing the values the array already holds is as much a store as any other.
        let e = run_error(&device, kernel.run(&device, &data));
        assert_eq!(
            e.kind,
            RunErrorKind::ReadOnly {
                address: data.bus_address()
            },
            "{name}"
        );
        assert_eq!(e.location.map(|l| l.line), Some(line), "{name}: {e}");
        assert!(e.to_string().contains("&mut SharedArray"), "{e}");
        assert_eq!(&data[..], &[4; 16], "{name}");
    }
}

#[test]
fn an_array_passed_twice_read_only_is_read_through_both_parameters() {
    let kernel =
        compile(|a: Ptr<Int>, b: Ptr<Int>, out: Ptr<Int>| out.store(a.load() + (b + 16).load()))
            .unwrap();
    for device in devices() {
        let x = device.alloc_from(&(0..32).collect::<Vec<i32>>()).unwrap();
        let mut out = device.alloc::<i32>(16).unwrap();
        kernel.run(&device, (&x, &x, &mut out)).unwrap();
        let expected: Vec<i32> = (0..16).map(|i| i + (i + 16)).collect();
        assert_eq!(out.to_vec(), expected, "{}", device.describe());
    }
}

#[test]
fn arrays_never_alias() {
    let kernel = compile(scale).unwrap();
    for device in devices() {
        let name = device.describe();
        let lens = [16usize, 1, 4096, 48, 16384 + 16, 0, 32];
        let mut arrays: Vec<_> = lens
            .iter()
            .map(|&len| device.alloc::<f32>(len).unwrap())
            .collect();
        let mut ranges: Vec<(u64, u64)> = arrays
            .iter()
            .filter(|a| !a.is_empty())
            .map(|a| {
                let start = u64::from(a.bus_address());
                (start, start + 4 * a.len() as u64)
            })
            .collect();
        ranges.sort();
        for pair in ranges.windows(2) {
            assert!(pair[0].1 <= pair[1].0, "{name}: {ranges:x?}");
        }
        // Each array written by its own run holds just its own values afterwards.
        let source: Vec<f32> = (0..16384 + 16).map(|i| i as f32).collect();
        let src = device.alloc_from(&source).unwrap();
        for (k, array) in arrays.iter_mut().enumerate() {
            let n = array.len() / 16 * 16;
            kernel.run(&device, (n as i32, &src, &mut *array)).unwrap();
            if n < array.len() {
                array[n..].fill(-(k as f32));
            }
        }
        for (k, array) in arrays.iter().enumerate() {
            let n = array.len() / 16 * 16;
            assert_eq!(&array[..n], &scaled(&source[..n])[..], "{name}: array {k}");
            assert!(array[n..].iter().all(|&x| x == -(k as f32)), "{name}");
        }
    }
}

#[test]
fn dropped_arrays_give_their_memory_back() {
    let kernel = compile(scale).unwrap();
    for device in devices() {
        let name = device.describe();
        let len = 1 << 16;
        let first = device.alloc::<f32>(len).unwrap().bus_address();
        for cycle in 0..2000 {
            let mut a = device.alloc::<f32>(len).unwrap();
            // 2000 arrays of 256 KiB would be 500 MiB; the same addresses come back instead.
            assert_eq!(a.bus_address(), first, "{name}: cycle {cycle}");
            if cycle % 500 == 0 {
                let src = device.alloc_from(&[cycle as f32; 16]).unwrap();
                kernel.run(&device, (16, &src, &mut a)).unwrap();
                assert_eq!(a[15], cycle as f32 * 3.0 + 1.0, "{name}");
                assert_eq!(a[16], 0.0, "{name}");
            }
        }
    }
}

#[test]
fn two_devices_are_independent() {
    let kernel = compile(scale).unwrap();
    let [one, two] = [Device::emulator(), Device::emulator()];
    let n = 4096;
    let input = |k: usize| -> Vec<f32> { (0..n).map(|i| (i * k) as f32).collect() };
    std::thread::scope(|scope| {
        for (k, device) in [(1, &one), (2, &two)] {
            let kernel = &kernel;
            scope.spawn(move || {
                let a = device.alloc_from(&input(k)).unwrap();
                let mut out = device.alloc::<f32>(n).unwrap();
                for _ in 0..20 {
                    kernel.run(device, (n as i32, &a, &mut out)).unwrap();
                    assert_eq!(out.to_vec(), scaled(&input(k)), "device {k}");
                }
            });
        }
    });
    // An array of one device is not an argument on the other.
    let a = one.alloc_from(&input(1)).unwrap();
    let mut out = two.alloc::<f32>(n).unwrap();
    assert_eq!(
        kernel.run(&two, (n as i32, &a, &mut out)).unwrap_err(),
        Error::WrongDevice { index: 1 }
    );
    assert!(out.iter().all(|&x| x == 0.0));
}
